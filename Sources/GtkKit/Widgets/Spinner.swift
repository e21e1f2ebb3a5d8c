import CGtk
import GObjectCore

/// A `GtkSpinner`: shows that something is under way, without saying how far along it is.
@MainActor
public final class Spinner: Widget {
    public init(size: Int = 16) {
        super.init(adopting: untyped(gtk_spinner_new()))
        setSizeRequest(width: size, height: size)
    }

    public var isSpinning: Bool {
        get { gtk_spinner_get_spinning(pointer()) != 0 }
        set { gtk_spinner_set_spinning(pointer(), newValue ? 1 : 0) }
    }
}
