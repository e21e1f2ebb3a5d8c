import CGtk
import Foundation
import GObjectCore

/// Opens files and addresses in the app the desktop chooses for them (`gtk_show_uri_full`:
/// the OpenURI portal inside a sandbox, the default handler elsewhere).
@MainActor
public enum Launcher {
    /// Opens `uri` (e.g. a `file://` address); `completion` gets nil on success, or why not.
    public static func open(uri: String, parent: Window?, completion: @escaping @MainActor (GLibError?) -> Void) {
        let box = Unmanaged.passRetained(LaunchBox(parent: parent, completion: completion)).toOpaque()
        gtk_show_uri_full(parent?.windowPointer, uri, guint32(GDK_CURRENT_TIME), nil, { _, result, data in
            let box = Unmanaged<LaunchBox>.fromOpaque(data!).takeRetainedValue()
            nonisolated(unsafe) let result = result
            MainActor.assumeIsolated {
                var error: UnsafeMutablePointer<GError>?
                let ok = gtk_show_uri_full_finish(box.parent?.windowPointer, result, &error) != 0
                if let error {
                    box.completion(GLibError(consuming: error))
                } else {
                    box.completion(ok ? nil : GLibError(domain: "billfold", code: 0, message: "The app could not be started."))
                }
            }
        }, box)
    }

    /// Opens the file at `path` with its default app.
    public static func open(fileAt path: String, parent: Window?, completion: @escaping @MainActor (GLibError?) -> Void) {
        open(uri: URL(fileURLWithPath: path).absoluteString, parent: parent, completion: completion)
    }
}

/// What the launch callback needs; the parent stays alive until GTK is done with it.
private final class LaunchBox: @unchecked Sendable {
    let parent: Window?
    let completion: @MainActor (GLibError?) -> Void
    init(parent: Window?, completion: @escaping @MainActor (GLibError?) -> Void) {
        self.parent = parent
        self.completion = completion
    }
}
