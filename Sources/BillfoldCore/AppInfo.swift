import Foundation

/// Facts about this build of Billfold.
public enum AppInfo {
    public static let id = "io.github.billfold.Billfold"
    public static let version = "0.1.0"
    public static let website = "https://billfold.github.io"
    public static let issueURL = "https://github.com/billfold/billfold/issues"

    /// The folder of the running executable: `billfold` and `billfold-app` are installed side by side.
    public static var executableDirectory: String { parent(of: executable) }

    /// Found once: start-up asks for it three times.
    private static let executable: String = {
        // argv[0] is only "billfold" when started through PATH (as the desktop file does), so
        // ask the kernel, whose answer has no symbolic links left (Foundation's URL resolving
        // costs every command half a millisecond).
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let count = readlink("/proc/self/exe", &buffer, buffer.count)
        if count > 0, count < buffer.count {
            return String(decoding: buffer[..<count], as: UTF8.self)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    }()

    /// `<prefix>/share`, found beside the executable (`<prefix>/bin/billfold`) when installed.
    public static let dataDirectory: String? = {
        let share = parent(of: parent(of: executable)) + "/share"
        return access(share + "/billfold", F_OK) == 0 ? share : nil
    }()

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

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
