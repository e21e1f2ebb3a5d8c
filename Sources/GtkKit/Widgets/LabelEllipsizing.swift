import CGtk
import GObjectCore

extension Label {
    /// Cuts a text too long for its space with "…" at the end instead of widening the layout.
    public func ellipsizesAtEnd() {
        gtk_label_set_ellipsize(pointer(), PANGO_ELLIPSIZE_END)
    }

    /// Figures of equal width, so amounts in a column line up.
    public func usesTabularFigures() { addCssClass("numeric") }
}

extension TextView {
    /// Wraps long lines between words (or anywhere in a word too long for a line).
    public func wrapsAtWords() {
        gtk_text_view_set_wrap_mode(pointer(), GTK_WRAP_WORD_CHAR)
    }
}
