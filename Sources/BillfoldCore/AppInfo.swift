import Foundation

/// Facts about this build of Billfold.
public enum AppInfo {
    public static let id = "io.github.billfold.Billfold"
    public static let version = "0.1.0"
    public static let website = "https://billfold.github.io"
    public static let issueURL = "https://github.com/billfold/billfold/issues"

    /// The folder of the running executable: `billfold` and `billfold-app` are installed side by side.
    public static var executableDirectory: String { executable.deletingLastPathComponent().path }

    /// Found once: start-up asks for it three times, and each answer walks the file system.
    private static let executable: URL = {
        // argv[0] is only "billfold" when started through PATH (as the desktop file does), so
        // ask the kernel where the executable is.
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
    }()

    /// `<prefix>/share`, found beside the executable (`<prefix>/bin/billfold`) when installed.
    public static let dataDirectory: String? = {
        let share = executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share")
        return FileManager.default.fileExists(atPath: share.appendingPathComponent("billfold").path) ? share.path : nil
    }()

    public static var localeDirectory: String? {
        if let override = environment("BILLFOLD_LOCALE_DIR") { return override }
        return dataDirectory.map { $0 + "/locale" }
    }

    public static var styleSheet: String? {
        let candidates = [environment("BILLFOLD_DATA_DIR").map { $0 + "/style.css" },
                          dataDirectory.map { $0 + "/billfold/style.css" }]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// One variable; `ProcessInfo.environment` copies all of them on every call.
    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
