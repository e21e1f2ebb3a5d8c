import Foundation

/// Facts about this build of Billfold.
enum AppInfo {
    static let id = "io.github.billfold.Billfold"
    static let version = "0.1.0"
    static let website = "https://billfold.github.io"
    static let issueURL = "https://github.com/billfold/billfold/issues"

    /// `<prefix>/share`, found beside the executable (`<prefix>/bin/billfold`) when installed.
    static var dataDirectory: String? {
        // argv[0] is only "billfold" when started through PATH (as the desktop file does), so
        // ask the kernel where the executable is.
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let executable = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let share = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share")
        return FileManager.default.fileExists(atPath: share.appendingPathComponent("billfold").path) ? share.path : nil
    }

    static var localeDirectory: String? {
        if let override = ProcessInfo.processInfo.environment["BILLFOLD_LOCALE_DIR"] { return override }
        return dataDirectory.map { $0 + "/locale" }
    }

    static var styleSheet: String? {
        let candidates = [ProcessInfo.processInfo.environment["BILLFOLD_DATA_DIR"].map { $0 + "/style.css" },
                          dataDirectory.map { $0 + "/billfold/style.css" }]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
