import CCairo
import CPoppler
import Foundation

/// A file embedded in a PDF (its EmbeddedFiles name tree), such as the XML of a Factur-X invoice.
public struct PDFEmbeddedFile: Sendable, Hashable {
    /// The name the PDF gives the file ("factur-x.xml").
    public let name: String
    public let data: Data
}

/// Why an embedded file could not be read.
public enum PDFEmbeddedFileError: Error, Equatable, Sendable {
    /// The file is larger than the caller accepts; reading stopped there.
    case tooLarge(name: String, limit: Int)
    /// Poppler could not decode the embedded stream.
    case unreadable(name: String, reason: String)
}

extension PDFDocument {
    /// The names of the files embedded in the PDF, in the document's order.
    public var attachmentNames: [String] {
        withAttachments { $0.map(\.name) }
    }

    /// The first embedded file whose name is one of `names` (ignoring case), read whole
    /// unless it is larger than `maxByteCount`; nil when there is none.
    public func attachment(namedAnyOf names: [String], maxByteCount: Int) throws(PDFEmbeddedFileError) -> PDFEmbeddedFile? {
        let result: Result<PDFEmbeddedFile?, PDFEmbeddedFileError> = withAttachments { attachments in
            for wanted in names {
                guard let found = attachments.first(where: { $0.name.lowercased() == wanted.lowercased() }) else { continue }
                return Result { () throws(PDFEmbeddedFileError) in
                    PDFEmbeddedFile(name: found.name, data: try read(found.raw, name: found.name, limit: maxByteCount))
                }
            }
            return .success(nil)
        }
        return try result.get()
    }

    private struct Listed {
        let raw: UnsafeMutablePointer<PopplerAttachment>
        let name: String
    }

    /// Lists the attachments for `body` and releases them after it.
    private func withAttachments<T>(_ body: ([Listed]) -> T) -> T {
        let list = poppler.functions.document_get_attachments(raw)
        defer { g_list_free_full(list) { g_object_unref($0) } }
        var listed: [Listed] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                let attachment = data.assumingMemoryBound(to: PopplerAttachment.self)
                let name = poppler.functions.attachment_get_name(attachment).map { String(cString: $0) } ?? ""
                listed.append(Listed(raw: attachment, name: name))
            }
            node = current.pointee.next
        }
        return body(listed)
    }

    /// Copies the attachment's bytes, stopping as soon as they pass `limit`.
    private func read(_ attachment: UnsafeMutablePointer<PopplerAttachment>, name: String,
                      limit: Int) throws(PDFEmbeddedFileError) -> Data {
        // The size the PDF declares (/Params /Size), all ones when it gives none; the copy
        // below counts the real bytes either way.
        let declared = poppler.functions.attachment_get_size(attachment)
        guard declared == gsize.max || declared <= UInt64(limit) else { throw .tooLarge(name: name, limit: limit) }
        final class Sink {
            var data = Data()
            var overflowed = false
            let limit: Int
            init(limit: Int) { self.limit = limit }
        }
        let sink = Sink(limit: limit)
        var error: UnsafeMutablePointer<GError>?
        let saved = withExtendedLifetime(sink) { () -> gboolean in
            let context = Unmanaged.passUnretained(sink).toOpaque()
            return poppler.functions.attachment_save_to_callback(attachment, { buffer, count, context, error in
                let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
                guard sink.data.count + Int(count) <= sink.limit else {
                    sink.overflowed = true
                    g_set_error_literal(error, g_quark_from_static_string("billfold-attachment"), 1, "too large")
                    return 0
                }
                if let buffer, count > 0 { sink.data.append(UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: Int(count)) }
                return 1
            }, context, &error)
        }
        let message = RasterImage.takeMessage(error)
        if sink.overflowed { throw .tooLarge(name: name, limit: limit) }
        guard saved != 0 else { throw .unreadable(name: name, reason: message ?? "unknown error") }
        return sink.data
    }
}
