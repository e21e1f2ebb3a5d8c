import Foundation

/// Where Billfold keeps its files, following the XDG base directory specification.
/// Flatpak relocates the XDG variables into the sandbox, so respecting them is all it needs.
/// Nothing here creates directories; call `createDirectory(_:)` before writing.
public enum AppPaths {
    public static let applicationDirectoryName = "billfold"
    public static let databaseFileName = "billfold.sqlite3"
    /// Set to a file path to use another database (tests, a second company file).
    public static let databaseEnvironmentVariable = "BILLFOLD_DATABASE"

    /// `$XDG_DATA_HOME/billfold`, by default `~/.local/share/billfold`.
    public static var dataDirectory: URL { dataDirectory(environment: currentEnvironment) }
    /// `$XDG_CONFIG_HOME/billfold`, by default `~/.config/billfold`.
    public static var configDirectory: URL { configDirectory(environment: currentEnvironment) }
    /// `$XDG_CACHE_HOME/billfold`, by default `~/.cache/billfold`.
    public static var cacheDirectory: URL { cacheDirectory(environment: currentEnvironment) }
    /// `$BILLFOLD_DATABASE` when set, otherwise `<data directory>/billfold.sqlite3`.
    public static var databaseFile: URL { databaseFile(environment: currentEnvironment) }
    /// Database backups: `<data directory>/backups`.
    public static var backupDirectory: URL { backupDirectory(environment: currentEnvironment) }
    /// Receipt images and PDFs, stored by content hash: `<data directory>/receipts`.
    public static var receiptsDirectory: URL { receiptsDirectory(environment: currentEnvironment) }

    public static func dataDirectory(environment: [String: String]) -> URL {
        base("XDG_DATA_HOME", default: ".local/share", environment)
            .appendingPathComponent(applicationDirectoryName, isDirectory: true)
    }

    public static func configDirectory(environment: [String: String]) -> URL {
        base("XDG_CONFIG_HOME", default: ".config", environment)
            .appendingPathComponent(applicationDirectoryName, isDirectory: true)
    }

    public static func cacheDirectory(environment: [String: String]) -> URL {
        base("XDG_CACHE_HOME", default: ".cache", environment)
            .appendingPathComponent(applicationDirectoryName, isDirectory: true)
    }

    public static func databaseFile(environment: [String: String]) -> URL {
        if let override = environment[databaseEnvironmentVariable], !override.isEmpty {
            // A relative override is taken from the working directory, like any command-line path.
            return URL(fileURLWithPath: override).standardizedFileURL
        }
        return dataDirectory(environment: environment).appendingPathComponent(databaseFileName)
    }

    public static func backupDirectory(environment: [String: String]) -> URL {
        dataDirectory(environment: environment).appendingPathComponent("backups", isDirectory: true)
    }

    public static func receiptsDirectory(environment: [String: String]) -> URL {
        dataDirectory(environment: environment).appendingPathComponent("receipts", isDirectory: true)
    }

    /// Creates the directory and its parents, readable only by the user (0700), as the
    /// XDG specification asks for data that may be private.
    public static func createDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Only the variables read here: `ProcessInfo.environment` copies the whole environment
    /// each time, and a command asks for several paths.
    private static var currentEnvironment: [String: String] {
        var environment: [String: String] = [:]
        for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "HOME", databaseEnvironmentVariable] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// The spec says a relative or empty XDG value is invalid and must be ignored.
    private static func base(_ variable: String, default relative: String, _ environment: [String: String]) -> URL {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        return home(environment).appendingPathComponent(relative, isDirectory: true)
    }

    private static func home(_ environment: [String: String]) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
    }
}
