import CGtk
import GObjectCore

/// Which files an open dialog offers, e.g. "Billfold licences" for `*.billfold-license`.
public struct FileFilter: Sendable, Hashable {
    public var name: String
    /// File name endings without the dot, matched case-insensitively.
    public var suffixes: [String]
    /// Glob patterns such as `*` (every file).
    public var patterns: [String]

    public init(name: String, suffixes: [String] = [], patterns: [String] = []) {
        self.name = name
        self.suffixes = suffixes
        self.patterns = patterns
    }
}

/// An open-file dialog (`GtkFileChooserNative`): the desktop portal's chooser in a sandbox,
/// GTK's own elsewhere. It keeps itself alive while it is shown.
///
/// Once it has answered, GTK's dialog is released at once. Outside a sandbox that dialog is a
/// window of the app, hidden but still listed among its toplevels, and GTK 4.8's accessibility
/// root crashes the app when a screen reader asks for a window past the visible ones while a
/// hidden one is last in that list (it answers with the hidden window's path-less context).
@MainActor
public final class FileChooser {
    /// GTK's dialog, from creation until it has answered.
    private var native: Object?
    private var completion: (@MainActor (String?) -> Void)?
    /// Set while shown: nothing else may own the chooser then.
    private var keepAlive: FileChooser?
    /// The path `respond(selecting:)` answered with.
    private var chosenByTest: String?
    /// Whether the dialog saves (rather than opens) a file.
    public internal(set) var isSaveDialog = false

    public init(title: String, parent: Window?, acceptLabel: String, filters: [FileFilter]) {
        let chooser = gtk_file_chooser_native_new(title, parent?.windowPointer, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                  acceptLabel, nil)
        let native = Object(adopting: untyped(chooser))
        self.native = native
        gtk_native_dialog_set_modal(native.pointer(), 1)
        for filter in filters {
            let fileFilter = gtk_file_filter_new()
            gtk_file_filter_set_name(fileFilter, filter.name)
            for suffix in filter.suffixes { gtk_file_filter_add_suffix(fileFilter, suffix) }
            for pattern in filter.patterns { gtk_file_filter_add_pattern(fileFilter, pattern) }
            gtk_file_chooser_add_filter(native.pointer(), fileFilter)
            g_object_unref(UnsafeMutableRawPointer(fileFilter))
        }
        native.connectWithInteger("response") { [weak self] response in
            self?.finish(accepted: response == Int(GTK_RESPONSE_ACCEPT.rawValue))
        }
    }

    /// GTK's chooser (`GtkFileChooser`), until it has answered.
    var chooserPointer: OpaquePointer? { native?.pointer() }

    /// GTK's dialog while it exists, for tests that watch it go.
    package var nativeDialog: Object? { native }

    /// Shows the dialog; `completion` gets the chosen file's path, or `nil` when cancelled.
    /// A chooser answers once.
    public func open(_ completion: @escaping @MainActor (String?) -> Void) {
        guard let native else { return }
        self.completion = completion
        keepAlive = self
        gtk_native_dialog_show(native.pointer())
    }

    /// Whether the dialog is shown and waiting for the user.
    public var isOpen: Bool { keepAlive != nil }

    /// Chooses `path` (or cancels, for `nil`) as the user would. For tests, which cannot click
    /// in the desktop's chooser.
    package func respond(selecting path: String?) {
        guard let native else { return }
        guard let path else {
            bf_native_dialog_emit_response(native.rawPointer, GTK_RESPONSE_CANCEL.rawValue)
            return
        }
        // The answer is the path itself: GTK's own chooser fills in its folder asynchronously
        // and may still be showing the folder it opened with.
        chosenByTest = path
        bf_native_dialog_emit_response(native.rawPointer, GTK_RESPONSE_ACCEPT.rawValue)
    }

    private func finish(accepted: Bool) {
        guard let native, let chooserPointer else { return }
        var path: String?
        if accepted, let chosenByTest {
            path = chosenByTest
        } else if accepted, let file = gtk_file_chooser_get_file(chooserPointer) {
            if let cPath = g_file_get_path(file) {
                path = String(cString: cPath)
                g_free(cPath)
            }
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        gtk_native_dialog_hide(native.pointer())
        // The signal's emission holds the dialog until it returns; then GTK destroys its window.
        self.native = nil
        let completion = self.completion
        self.completion = nil
        completion?(path)
        keepAlive = nil
    }
}
