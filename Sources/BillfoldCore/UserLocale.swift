import Foundation

/// The user's locale for each kind of formatting, read the POSIX way (`LC_ALL`, then the
/// category's variable, then `LANG`). Foundation's `Locale.current` does not consult these on
/// Linux, so Billfold's formatters default to these instead.
public enum UserLocale {
    /// Money: `LC_MONETARY`.
    public static var monetary: Locale { locale(for: "LC_MONETARY") }
    /// Plain numbers and percentages: `LC_NUMERIC`.
    public static var numeric: Locale { locale(for: "LC_NUMERIC") }
    /// Dates: `LC_TIME`.
    public static var time: Locale { locale(for: "LC_TIME") }
    /// Names of things (currencies, languages): `LC_MESSAGES`.
    public static var messages: Locale { locale(for: "LC_MESSAGES") }

    /// `environment` stands in for the process's variables in tests.
    static func locale(for category: String, environment: [String: String]? = nil) -> Locale {
        // getenv reads one variable; ProcessInfo.environment copies all of them into a new
        // dictionary on every call, which took milliseconds at start-up when TipSplit named
        // each currency.
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        let value = [variable("LC_ALL"), variable(category), variable("LANG")]
            .compactMap { $0 }
            .first { !$0.isEmpty } ?? ""
        return Locale(identifier: identifier(fromPOSIX: value))
    }

    /// "de_DE.UTF-8@euro" → "de_DE"; the C and POSIX locales → "en_US_POSIX".
    static func identifier(fromPOSIX value: String) -> String {
        let name = value.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        let bare = name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        if bare.isEmpty || bare == "C" || bare == "POSIX" { return "en_US_POSIX" }
        return bare
    }
}
