import CGtk
import GObjectCore

/// A save-file dialog (`GtkFileChooserNative` in save mode) with a suggested name; it asks
/// before replacing an existing file. It keeps itself alive while it is shown.
@MainActor
public final class SaveFileChooser: Object {
    private var completion: (@MainActor (String?) -> Void)?
    private var keepAlive: SaveFileChooser?

    public init(title: String, parent: Window?, acceptLabel: String, suggestedName: String, filters: [FileFilter]) {
        let chooser = gtk_file_chooser_native_new(title, parent?.windowPointer, GTK_FILE_CHOOSER_ACTION_SAVE,
                                                  acceptLabel, nil)
        super.init(adopting: untyped(chooser))
        gtk_native_dialog_set_modal(nativeDialog, 1)
        gtk_file_chooser_set_current_name(chooserPointer, suggestedName)
        for filter in filters {
            let fileFilter = gtk_file_filter_new()
            gtk_file_filter_set_name(fileFilter, filter.name)
            for suffix in filter.suffixes { gtk_file_filter_add_suffix(fileFilter, suffix) }
            for pattern in filter.patterns { gtk_file_filter_add_pattern(fileFilter, pattern) }
            gtk_file_chooser_add_filter(chooserPointer, fileFilter)
            g_object_unref(UnsafeMutableRawPointer(fileFilter))
        }
        let box = Unmanaged.passRetained(SaveResponseBox { [weak self] response in
            self?.finish(accepted: response == GTK_RESPONSE_ACCEPT.rawValue)
        }).toOpaque()
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, response, data in
            let box = Unmanaged<SaveResponseBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(response) }
        }
        g_signal_connect_data(objectPointer, "response", unsafeBitCast(trampoline, to: GCallback.self), box, { data, _ in
            guard let data else { return }
            Unmanaged<SaveResponseBox>.fromOpaque(data).release()
        }, GConnectFlags(rawValue: 0))
    }

    private var nativeDialog: UnsafeMutablePointer<GtkNativeDialog> { pointer() }
    private var chooserPointer: OpaquePointer { pointer() }

    /// The file name the dialog suggests.
    public var suggestedName: String {
        guard let name = gtk_file_chooser_get_current_name(chooserPointer) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// Shows the dialog; `completion` gets the chosen path, or `nil` when cancelled.
    public func show(_ completion: @escaping @MainActor (String?) -> Void) {
        self.completion = completion
        keepAlive = self
        gtk_native_dialog_show(nativeDialog)
    }

    public var isOpen: Bool { keepAlive != nil }

    /// Answers as the user would, for tests: saves to `path`, or cancels for `nil`.
    public func respond(savingTo path: String?) {
        guard let path else {
            bf_native_dialog_emit_response(rawPointer, GTK_RESPONSE_CANCEL.rawValue)
            return
        }
        chosenForTests = path
        bf_native_dialog_emit_response(rawPointer, GTK_RESPONSE_ACCEPT.rawValue)
    }

    private var chosenForTests: String?

    private func finish(accepted: Bool) {
        var path: String?
        if accepted {
            if let chosen = chosenForTests {
                path = chosen
            } else if let file = gtk_file_chooser_get_file(chooserPointer) {
                if let cPath = g_file_get_path(file) {
                    path = String(cString: cPath)
                    g_free(cPath)
                }
                g_object_unref(UnsafeMutableRawPointer(file))
            }
        }
        chosenForTests = nil
        gtk_native_dialog_hide(nativeDialog)
        let completion = self.completion
        self.completion = nil
        completion?(path)
        keepAlive = nil
    }
}

/// The response handler, released by the signal's destroy-notify.
private final class SaveResponseBox: @unchecked Sendable {
    let handler: @MainActor (Int32) -> Void
    init(_ handler: @escaping @MainActor (Int32) -> Void) { self.handler = handler }
}
