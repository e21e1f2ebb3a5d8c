import CIntl

/// The gettext domain every Billfold string belongs to.
public let gettextDomain = "billfold"

/// Translates a user-visible string. Swift has no function named `_`, so Billfold's
/// gettext keyword is `tr`: xgettext runs with `-L C --keyword=tr --keyword=trn:1,2`,
/// which is why the argument must be a single-line literal without interpolation.
public func tr(_ msgid: String) -> String {
    // dgettext returns its argument when there is no translation, and that C string only lives
    // inside withCString: read the result before leaving it.
    msgid.withCString { id in
        guard let translated = dgettext(gettextDomain, id), translated != UnsafeMutablePointer(mutating: id) else {
            return msgid
        }
        return String(cString: translated)
    }
}

/// Translates a string with a plural form chosen for `count` in the user's language.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    let fallback = count == 1 ? singular : plural
    return singular.withCString { one in
        plural.withCString { many in
            guard let translated = dngettext(gettextDomain, one, many, UInt(clamping: count)),
                  translated != UnsafeMutablePointer(mutating: one),
                  translated != UnsafeMutablePointer(mutating: many) else { return fallback }
            return String(cString: translated)
        }
    }
}

public enum Localization {
    /// Adopts the user's locale and points gettext at the compiled catalogs.
    /// `localeDirectory` is `<prefix>/share/locale` for an installed app.
    public static func setUp(localeDirectory: String?) {
        setlocale(LC_ALL, "")
        if let localeDirectory {
            bindtextdomain(gettextDomain, localeDirectory)
        }
        bind_textdomain_codeset(gettextDomain, "UTF-8")
    }
}
