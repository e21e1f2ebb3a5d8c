import CIntl

// Storage sits below BillfoldCore, so it keeps its own gettext keyword with the same name and
// domain: xgettext finds these strings with the same `--keyword=tr` rule.
func tr(_ msgid: String) -> String {
    // Without a translation gettext returns the msgid pointer itself, so it must outlive the call.
    msgid.withCString { id in
        guard let translated = dgettext("billfold", id) else { return msgid }
        return String(cString: translated)
    }
}
