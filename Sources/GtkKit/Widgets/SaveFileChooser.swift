import CGtk
import Foundation
import GObjectCore

extension FileChooser {
    /// A save dialog (`GtkFileChooserNative` in save mode) proposing `suggestedName` in `folder`
    /// (the desktop's choice when nil). The desktop asks before replacing an existing file.
    /// `open(_:)` reports the chosen path, or nil when cancelled.
    public convenience init(saveTitle title: String, parent: Window?, acceptLabel: String, suggestedName: String,
                            folder: String? = nil, filters: [FileFilter]) {
        self.init(title: title, parent: parent, acceptLabel: acceptLabel, filters: filters)
        guard let chooser = chooserPointer else { return }
        gtk_file_chooser_set_action(chooser, GTK_FILE_CHOOSER_ACTION_SAVE)
        isSaveDialog = true
        if let folder, FileManager.default.fileExists(atPath: folder) {
            let file = g_file_new_for_path(folder)
            _ = gtk_file_chooser_set_current_folder(chooser, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        gtk_file_chooser_set_current_name(chooser, suggestedName)
    }

    /// The name typed in a save dialog, until it has answered.
    public var currentName: String? {
        guard let chooserPointer, let name = gtk_file_chooser_get_current_name(chooserPointer) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}
