import CGtk
import GObjectCore

extension ActionRow {
    /// A row whose title and subtitle are shown as typed: rows read Pango markup by default,
    /// so a client called "Smith & Sons" would otherwise show nothing.
    public static func plain(title: String, subtitle: String? = nil) -> ActionRow {
        let row = ActionRow(title: "", subtitle: nil)
        if bf_adw_at_least(1, 1) != 0 { row.setProperty("use-markup", false) }
        row.title = bf_adw_at_least(1, 1) != 0 ? title : Self.escaped(title)
        if let subtitle { row.subtitle = bf_adw_at_least(1, 1) != 0 ? subtitle : Self.escaped(subtitle) }
        return row
    }

    static func escaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return text }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
