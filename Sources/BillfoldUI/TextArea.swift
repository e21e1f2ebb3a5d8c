import GtkKit

/// A several-line field: a caption over a word-wrapping text view in a card, tall enough for
/// the lines it is meant for, growing as more are typed. Every multi-line field in the forms
/// is one, so addresses and notes look the same wherever they are typed.
@MainActor
public final class TextArea {
    public let widget: Box
    public let textView: TextView

    public init(caption: String, lines: Int = 3, textView: TextView = TextView()) {
        self.textView = textView
        let label = Label(caption, wraps: false, style: "caption-heading")
        label.xAlign = 0
        label.describes(textView)
        textView.accessibleLabel = caption
        textView.wrapsAtWords()
        textView.setTextMargins(8)
        let frame = ScrolledWindow(child: textView)
        // At least its lines however short the window; more as more lines are typed.
        frame.minimumContentHeight = textView.height(ofLines: lines)
        frame.propagatesNaturalHeight = true
        frame.addCssClass("card")
        widget = Box(.vertical, spacing: 6, children: [label, frame])
    }

    public var text: String {
        get { textView.text }
        set { textView.text = newValue }
    }
}
