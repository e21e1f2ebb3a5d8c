import CGtk
import GObjectCore

/// A `GtkSpinButton` for whole or decimal numbers in a range.
@MainActor
public final class SpinButton: Widget {
    public init(range: ClosedRange<Double>, step: Double = 1, digits: Int = 0) {
        super.init(adopting: untyped(gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)))
        gtk_spin_button_set_digits(pointer(), guint(digits))
        gtk_spin_button_set_numeric(pointer(), 1)
        align(vertical: .center)
    }

    public var value: Double {
        get { gtk_spin_button_get_value(pointer()) }
        set { gtk_spin_button_set_value(pointer(), newValue) }
    }

    public var range: ClosedRange<Double> {
        get {
            var low = 0.0, high = 0.0
            gtk_spin_button_get_range(pointer(), &low, &high)
            return low...high
        }
        set { gtk_spin_button_set_range(pointer(), newValue.lowerBound, newValue.upperBound) }
    }

    /// Parses what was typed now, instead of on focus-out.
    public func commitTypedText() { gtk_spin_button_update(pointer()) }

    /// The text shown, e.g. while the user types.
    public var text: String {
        get { String(cString: gtk_editable_get_text(bf_editable(widgetPointer))) }
        set { gtk_editable_set_text(bf_editable(widgetPointer), newValue) }
    }

    @discardableResult
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("value-changed", handler)
    }
}

/// A horizontal `GtkScale` (slider).
@MainActor
public final class Scale: Widget {
    public init(range: ClosedRange<Double>, step: Double = 1) {
        super.init(adopting: untyped(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL,
                                                              range.lowerBound, range.upperBound, step)))
        gtk_scale_set_draw_value(pointer(), 0)
        expandsHorizontally = true
    }

    public var value: Double {
        get { gtk_range_get_value(pointer()) }
        set { gtk_range_set_value(pointer(), newValue) }
    }

    public func addMark(at value: Double, label: String?) {
        gtk_scale_add_mark(pointer(), value, GTK_POS_BOTTOM, label)
    }

    @discardableResult
    public func onValueChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("value-changed", handler)
    }
}

/// A `GtkEntry`.
@MainActor
public final class Entry: Widget {
    public init(placeholder: String? = nil) {
        super.init(adopting: untyped(gtk_entry_new()))
        if let placeholder { gtk_entry_set_placeholder_text(pointer(), placeholder) }
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(bf_editable(widgetPointer))) }
        set { gtk_editable_set_text(bf_editable(widgetPointer), newValue) }
    }

    /// Return in the entry activates the window's default widget (its suggested action).
    public var activatesDefault: Bool {
        get { gtk_entry_get_activates_default(pointer()) != 0 }
        set { gtk_entry_set_activates_default(pointer(), newValue ? 1 : 0) }
    }

    @discardableResult
    public func onChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler { connect("changed", handler) }

    /// Return pressed in the entry.
    @discardableResult
    public func onActivated(_ handler: @escaping @MainActor () -> Void) -> SignalHandler { connect("activate", handler) }
}

/// A `GtkStringList`: the simplest list model, e.g. choices of a combo row or row ids.
@MainActor
public final class StringList: Object {
    public init(_ strings: [String] = []) {
        super.init(adopting: untyped(gtk_string_list_new(nil)))
        append(contentsOf: strings)
    }

    package var listModel: OpaquePointer { pointer() }

    public func append(_ string: String) { gtk_string_list_append(pointer(), string) }
    public func append(contentsOf strings: [String]) { strings.forEach(append) }

    /// Replaces everything in one change, so views update once.
    public func replaceAll(with strings: [String]) {
        var cStrings: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) }
        cStrings.append(nil)
        defer { cStrings.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        cStrings.withUnsafeBufferPointer {
            gtk_string_list_splice(pointer(), 0, guint(count), $0.baseAddress)
        }
    }

    public var count: Int { Int(g_list_model_get_n_items(pointer())) }

    public subscript(index: Int) -> String? {
        guard index >= 0, index < count, let string = gtk_string_list_get_string(pointer(), guint(index)) else { return nil }
        return String(cString: string)
    }
}
