import CGtk
import GObjectCore

/// Children side by side in equal columns while each column gets at least `minimumColumnWidth`,
/// stacked otherwise: a form and its result next to each other on a wide window, one above the
/// other on a narrow one. A `GtkCustomLayout` does it, since libadwaita 1.2 has no breakpoints.
@MainActor
public final class Columns: Widget {
    /// `naturalWidth` is the width the columns ask for when the window has room: inside a
    /// `Clamp` of that width (plus margins) they are then laid out once at start-up, where a
    /// natural width below the clamp's lays their text out at two widths.
    public init(minimumColumnWidth: Int, spacing: Int, naturalWidth: Int = 0) {
        super.init(adopting: untyped(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)))
        g_object_set_data(objectPointer, Self.spacingKey, UnsafeMutableRawPointer(bitPattern: spacing + 1))
        g_object_set_data(objectPointer, Self.columnKey, UnsafeMutableRawPointer(bitPattern: minimumColumnWidth + 1))
        g_object_set_data(objectPointer, Self.naturalKey, UnsafeMutableRawPointer(bitPattern: naturalWidth + 1))
        let layout = gtk_custom_layout_new(
            { _ in GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH },
            { widget, orientation, forSize, minimum, natural, _, _ in
                let metrics = ColumnMetrics(widget!)
                let (min, nat) = orientation == GTK_ORIENTATION_HORIZONTAL
                    ? metrics.widths() : metrics.heights(forWidth: Int(forSize))
                minimum?.pointee = gint(min)
                natural?.pointee = gint(nat)
            },
            { widget, width, height, _ in
                ColumnMetrics(widget!).allocate(width: Int(width), height: Int(height))
            })
        gtk_widget_set_layout_manager(widgetPointer, layout)
    }

    public func append(_ child: Widget) { gtk_box_append(pointer(), child.widgetPointer) }

    /// Whether the columns are side by side at the current width.
    public var isSideBySide: Bool { ColumnMetrics(widgetPointer).sideBySide(width: width) }

    fileprivate nonisolated static let spacingKey = "billfold-columns-spacing"
    fileprivate nonisolated static let columnKey = "billfold-columns-minimum"
    fileprivate nonisolated static let naturalKey = "billfold-columns-natural"
}

/// The arithmetic of `Columns`, over the widget's visible children.
private struct ColumnMetrics {
    let widget: UnsafeMutablePointer<GtkWidget>
    let children: [UnsafeMutablePointer<GtkWidget>]
    let spacing: Int
    let minimumColumn: Int
    let naturalWidth: Int

    init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        self.widget = widget
        var children: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if gtk_widget_should_layout(current) != 0 { children.append(current) }
            child = gtk_widget_get_next_sibling(current)
        }
        self.children = children
        spacing = Int(bitPattern: g_object_get_data(UnsafeMutablePointer<GObject>(OpaquePointer(widget)), Columns.spacingKey)) - 1
        minimumColumn = Int(bitPattern: g_object_get_data(UnsafeMutablePointer<GObject>(OpaquePointer(widget)), Columns.columnKey)) - 1
        naturalWidth = Int(bitPattern: g_object_get_data(UnsafeMutablePointer<GObject>(OpaquePointer(widget)), Columns.naturalKey)) - 1
    }

    private func measure(_ child: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation, _ forSize: Int) -> (Int, Int) {
        var minimum: gint = 0, natural: gint = 0
        gtk_widget_measure(child, orientation, gint(forSize), &minimum, &natural, nil, nil)
        return (Int(minimum), Int(natural))
    }

    private var gaps: Int { spacing * max(0, children.count - 1) }

    func columnWidth(_ width: Int) -> Int { children.isEmpty ? width : (width - gaps) / children.count }

    func sideBySide(width: Int) -> Bool {
        guard children.count > 1 else { return false }
        let column = columnWidth(width)
        return column >= minimumColumn && children.allSatisfy { measure($0, GTK_ORIENTATION_HORIZONTAL, -1).0 <= column }
    }

    func widths() -> (Int, Int) {
        let sizes = children.map { measure($0, GTK_ORIENTATION_HORIZONTAL, -1) }
        let minimum = sizes.map(\.0).max() ?? 0
        let natural = max(sizes.map(\.1).reduce(0, +) + gaps, minimumColumn * children.count + gaps, naturalWidth)
        return (minimum, natural)
    }

    func heights(forWidth width: Int) -> (Int, Int) {
        guard width >= 0 else {
            let sizes = children.map { measure($0, GTK_ORIENTATION_VERTICAL, -1) }
            return (sizes.map(\.0).reduce(0, +) + gaps, sizes.map(\.1).reduce(0, +) + gaps)
        }
        if sideBySide(width: width) {
            let sizes = children.map { measure($0, GTK_ORIENTATION_VERTICAL, columnWidth(width)) }
            return (sizes.map(\.0).max() ?? 0, sizes.map(\.1).max() ?? 0)
        }
        let sizes = children.map { measure($0, GTK_ORIENTATION_VERTICAL, width) }
        return (sizes.map(\.0).reduce(0, +) + gaps, sizes.map(\.1).reduce(0, +) + gaps)
    }

    func allocate(width: Int, height: Int) {
        let rtl = gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL
        if sideBySide(width: width) {
            let column = columnWidth(width)
            for (index, child) in children.enumerated() {
                let slot = rtl ? children.count - 1 - index : index
                let (_, natural) = measure(child, GTK_ORIENTATION_VERTICAL, column)
                let childHeight = gtk_widget_get_valign(child) == GTK_ALIGN_FILL ? height : min(natural, height)
                var rect = GtkAllocation(x: gint(slot * (column + spacing)), y: 0, width: gint(column), height: gint(childHeight))
                gtk_widget_size_allocate(child, &rect, -1)
            }
        } else {
            var y = 0
            for child in children {
                let (_, natural) = measure(child, GTK_ORIENTATION_VERTICAL, width)
                var rect = GtkAllocation(x: 0, y: gint(y), width: gint(width), height: gint(natural))
                gtk_widget_size_allocate(child, &rect, -1)
                y += natural + spacing
            }
        }
    }
}
