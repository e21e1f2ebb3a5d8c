import CGtk
import GObjectCore

/// A `GtkAdjustment`: a scrollable range, such as the visible part of a scrolled window.
@MainActor
public final class Adjustment: Object {
    package override init(retaining pointer: UnsafeMutableRawPointer) { super.init(retaining: pointer) }

    private var adjustmentPointer: UnsafeMutablePointer<GtkAdjustment> { pointer() }

    /// The position; setting it clamps to `lower...maximumValue`.
    public var value: Double {
        get { gtk_adjustment_get_value(adjustmentPointer) }
        set { gtk_adjustment_set_value(adjustmentPointer, newValue) }
    }

    public var lower: Double { gtk_adjustment_get_lower(adjustmentPointer) }
    public var upper: Double { gtk_adjustment_get_upper(adjustmentPointer) }
    /// The visible length, e.g. a scrolled window's height for its vertical adjustment.
    public var pageSize: Double { gtk_adjustment_get_page_size(adjustmentPointer) }
    /// The largest value: the end of the range less what is visible.
    public var maximumValue: Double { max(lower, upper - pageSize) }

    /// Sets the range and the position at once, so a position beyond the old end is kept, e.g.
    /// to keep the same spot in view when the content is about to grow.
    public func configure(value: Double, lower: Double = 0, upper: Double) {
        gtk_adjustment_configure(adjustmentPointer, value, lower, upper,
                                 gtk_adjustment_get_step_increment(adjustmentPointer),
                                 gtk_adjustment_get_page_increment(adjustmentPointer), pageSize)
    }

    /// Calls `handler` when the position moves (scrolling).
    @discardableResult
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("value-changed", handler)
    }

    /// Calls `handler` when the range or the visible length changes (content or view resized).
    @discardableResult
    public func onChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("changed", handler)
    }
}

extension ScrolledWindow {
    /// The vertical scroll position and range; the same object for the window's lifetime.
    public var verticalAdjustment: Adjustment {
        Adjustment(retaining: untyped(gtk_scrolled_window_get_vadjustment(pointer())))
    }

    public var horizontalAdjustment: Adjustment {
        Adjustment(retaining: untyped(gtk_scrolled_window_get_hadjustment(pointer())))
    }
}
