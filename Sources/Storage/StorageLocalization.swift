import CIntl

// Storage sits below BillfoldCore, so it keeps its own gettext keyword with the same name and
// domain: xgettext finds these strings with the same `--keyword=tr` rule.
func tr(_ msgid: String) -> String {
    guard let translated = dgettext("billfold", msgid) else { return msgid }
    return String(cString: translated)
}
