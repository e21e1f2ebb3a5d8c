import CIntl
import CPoppler

/// Poppler's functions, resolved from libpoppler-glib when a PDF is first opened instead of
/// linked: most launches never read a PDF, and loading Poppler with NSS, lcms2 and openjpeg
/// costs every launch several milliseconds. The functions are listed in CPoppler's shim.h
/// (`BF_POPPLER_FUNCTIONS`): pages and text for previews and tests, attachments for the XML
/// inside Factur-X and ZUGFeRD invoices. The loader is inlined here, so this file is rebuilt
/// whenever that list changes.
struct PopplerLibrary: Sendable {
    /// The name Poppler's GLib library has had since Poppler 0.16, on Debian and in the Flatpak.
    static let defaultName = "libpoppler-glib.so.8"

    /// The library of this process, or why it cannot be used. A static `let` is initialized once,
    /// under a lock, by whichever thread reads it first; a failure is kept and reported each time.
    static let shared = Result { () throws(PDFError) in try PopplerLibrary(loading: defaultName) }

    let functions: BFPoppler

    /// Opens `name` (a soname or a path) and resolves every function the bindings call.
    init(loading name: String) throws(PDFError) {
        let table = UnsafeMutablePointer<BFPoppler>.allocate(capacity: 1)
        defer { table.deallocate() }
        var message: UnsafePointer<CChar>?
        guard bf_poppler_load(name, table, &message) else {
            throw PDFError.popplerUnavailable(reason: message.map { String(cString: $0) } ?? name)
        }
        functions = table.pointee
    }
}

/// Translates a user-visible string in Billfold's gettext domain. The bindings sit below
/// BillfoldCore, so they keep their own copy of its `tr`; xgettext finds both calls the same way.
func tr(_ msgid: String) -> String {
    msgid.withCString { id in
        guard let translated = dgettext("billfold", id), translated != UnsafeMutablePointer(mutating: id) else {
            return msgid
        }
        return String(cString: translated)
    }
}
