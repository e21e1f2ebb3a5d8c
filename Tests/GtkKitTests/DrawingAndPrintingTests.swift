import CGtk
import Foundation
import GObjectCore
import Testing
import TestSupport
@testable import GtkKit

/// A window showing `content`, painted before the test looks.
@MainActor
private func present(_ content: Widget, width: Int = 400, height: Int = 300) -> AdwaitaWindow {
    let window = AdwaitaWindow()
    window.setDefaultSize(width: width, height: height)
    window.content = content
    window.present()
    paint(window)
    return window
}

private final class ClosureOwner {}

/// Gives a new widget a closure that holds an object, then drops the widget: the widget must be
/// finalized and the object freed with it.
@MainActor
private func expectClosureGoesWithWidget<W: Widget>(_ make: @autoclosure () -> W, install: (W, AnyObject) -> Void) {
    weak var weakOwner: ClosureOwner?
    // Made here, so this function holds the only reference.
    var held: W? = make()
    do {
        let owner = ClosureOwner()
        weakOwner = owner
        install(held!, owner)
    }
    #expect(weakOwner != nil)
    let probe = FinalizationProbe(watching: held!)
    held = nil
    #expect(probe.isFinalized)
    #expect(weakOwner == nil)
}

@MainActor
private func paint(_ widget: Widget) {
    for _ in 0..<2 {
        var painted = false
        guard widget.afterNextPaint({ painted = true }) else { return }
        MainLoop.run(until: { painted }, timeout: 5)
    }
    while MainLoop.iterate() {}
}

@Suite(.serialized, needsDisplay) @MainActor
struct DrawingAreaTests {
    @Test func drawsAtItsSizeWithACairoContext() {
        let area = DrawingArea()
        area.contentWidth = 120
        area.contentHeight = 80
        #expect(area.contentWidth == 120)
        var sizes: [(Int, Int)] = []
        area.setDrawFunction { _, width, height in sizes.append((width, height)) }
        let box = Box(.vertical, children: [area])
        box.align(horizontal: .start, vertical: .start)
        let window = present(box)
        defer { window.destroy() }
        #expect(sizes.last.map { $0 == (120, 80) } == true)
        #expect(area.scaleFactor >= 1)

        let count = sizes.count
        area.queueDraw()
        paint(window)
        #expect(sizes.count > count)
    }

    @Test func theDrawClosureGoesWithTheWidget() {
        expectClosureGoesWithWidget(DrawingArea()) { area, owner in area.setDrawFunction { _, _, _ in _ = owner } }
    }

    @Test func afterNextPaintNeedsAWidgetOnScreen() {
        let label = Label("x")
        #expect(!label.afterNextPaint {})
        let window = present(label)
        defer { window.destroy() }
        var painted = false
        #expect(label.afterNextPaint { painted = true })
        let done = MainLoop.run(until: { painted }, timeout: 5)
        #expect(done)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct ScrollingTests {
    @Test func adjustmentsFollowTheScrolledContent() {
        let content = DrawingArea()
        content.contentWidth = 200
        content.contentHeight = 2_000
        let scroller = ScrolledWindow(child: content)
        let window = present(scroller, width: 300, height: 400)
        defer { window.destroy() }
        let vertical = scroller.verticalAdjustment
        #expect(vertical.upper == 2_000)
        #expect(vertical.pageSize > 0 && vertical.pageSize < 2_000)
        var moves = 0
        vertical.onValueChanged { moves += 1 }
        vertical.value = 500
        #expect(vertical.value == 500)
        #expect(moves == 1)
        vertical.value = 1_000_000
        #expect(vertical.value == vertical.maximumValue)
        // The same GtkAdjustment whichever wrapper asks.
        #expect(scroller.verticalAdjustment.isSameObject(as: vertical))

        vertical.configure(value: 3_500, upper: 4_000)
        #expect(vertical.upper == 4_000)
        #expect(vertical.value == 3_500 || vertical.value == vertical.maximumValue)
    }

    @Test func ctrlScrollReachesTheHandlerFirst() {
        let scroller = ScrolledWindow(child: Label("x"))
        let controller = ScrollController(attachedTo: scroller)
        var events: [ScrollEvent] = []
        controller.onScroll { event in
            events.append(event)
            return event.isControlPressed
        }
        #expect(controller.deliver(dy: -1, control: true))
        #expect(!controller.deliver(dy: 2, control: false))
        #expect(events == [ScrollEvent(dx: 0, dy: -1, isControlPressed: true), ScrollEvent(dx: 0, dy: 2, isControlPressed: false)])
    }

    @Test func aLayoutContainerPlacesItsChildren() {
        let first = DrawingArea(), second = DrawingArea()
        var container: LayoutContainer?
        var measured: [Orientation] = []
        container = LayoutContainer(measure: { orientation, forSize in
            measured.append(orientation)
            // Height for width: two squares stacked.
            return orientation == .horizontal ? (50, 200) : (max(0, forSize) * 2, max(0, forSize) * 2)
        }, allocate: { width, _ in
            container?.place(first, x: 0, y: 0, width: width, height: width)
            container?.place(second, x: 0, y: width, width: width, height: width)
        })
        container!.append(first)
        container!.append(second)
        let box = Box(.vertical, children: [container!])
        box.align(horizontal: .start, vertical: .start)
        let window = present(box, width: 400, height: 500)
        defer { window.destroy() }
        #expect(measured.contains(.horizontal) && measured.contains(.vertical))
        #expect(first.width == 200 && first.height == 200)
        #expect(second.width == 200 && second.height == 200)
        #expect(container!.height == 400)
        container = nil
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct SmallWidgetTests {
    @Test func spinnerSpins() {
        let spinner = Spinner(size: 32)
        #expect(!spinner.isSpinning)
        spinner.isSpinning = true
        #expect(spinner.isSpinning)
    }

    @Test func overlayShowsControlsAboveItsChild() {
        let child = Label("page"), controls = Label("controls")
        let overlay = Overlay(child: child)
        overlay.addOverlay(controls)
        #expect(controls.isInside(overlay))
        overlay.removeOverlay(controls)
        #expect(!controls.isInside(overlay))
    }

    @Test func actionGroupsReachButtonsInside() {
        let group = ActionGroup()
        var activations = 0
        group.add(SimpleAction(name: "zoom-in") { activations += 1 })
        #expect(group.hasAction(named: "zoom-in"))
        let button = Button(iconName: "zoom-in-symbolic", accessibleLabel: "Zoom In")
        button.actionName = "preview.zoom-in"
        let box = Box(.horizontal, children: [button])
        box.insertActionGroup(group, prefix: "preview")
        button.click()
        group.activateAction(named: "zoom-in")
        #expect(activations == 2)
    }

    @Test func menuButtonsCanShowText() {
        let menu = Menu()
        menu.append("Fit Width", action: "preview.fit-width")
        let button = MenuButton(label: "100%", menu: menu, accessibleLabel: "Zoom Level")
        #expect(button.label == "100%")
        button.label = "125%"
        #expect(button.label == "125%")
        #expect(button.accessibleLabel == "Zoom Level")
    }

    @Test func darkStyleChangesReachWidgetsWhileTheyLive() {
        StyleManager.colorScheme = .light
        defer { StyleManager.colorScheme = .followSystem }
        var label: Label? = Label("chart")
        var calls = 0
        label!.onDarkStyleChanged { widget in
            calls += 1
            #expect(widget.typeName == "GtkLabel")
        }
        StyleManager.colorScheme = .dark
        #expect(calls == 1)
        StyleManager.colorScheme = .light
        #expect(calls == 2)
        let probe = FinalizationProbe(watching: label!)
        label = nil
        #expect(probe.isFinalized)
        StyleManager.colorScheme = .dark
        #expect(calls == 2)
    }

    @Test func styleSheetsInstallOnce() {
        StyleSheet.install(".gtkkit-test { color: red; }", named: "gtkkit-test")
        StyleSheet.install("this is not css", named: "gtkkit-test")
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct PrintOperationTests {
    @Test func exportDrawsEveryPageOnPaperOfTheGivenSize() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gtkkit-print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let operation = PrintOperation(jobName: "Invoice")
        operation.setPaperSize(width: 595.28, height: 841.89)
        var began = 0
        var drawn: [Int] = []
        var areas: [(Double, Double)] = []
        operation.onBeginPrint {
            began += 1
            operation.pageCount = 3
        }
        operation.onDrawPage { page in
            drawn.append(page.index)
            areas.append((page.width, page.height))
        }
        let output = directory.appendingPathComponent("out.pdf")
        #expect(operation.export(toPDFAt: output.path) == .printed)
        #expect(began == 1)
        #expect(drawn == [0, 1, 2])
        #expect(operation.pageCount == 3)
        // The printable part of A4, in points.
        let area = try #require(areas.first)
        #expect(area.0 > 500 && area.0 <= 595.3 && area.1 > 750 && area.1 <= 842)
        let bytes = try Data(contentsOf: output)
        #expect(bytes.starts(with: Data("%PDF".utf8)))
    }

    @Test func exportToAFolderThatIsMissingFails() {
        let operation = PrintOperation(jobName: "x")
        operation.pageCount = 1
        operation.onDrawPage { _ in }
        let result = operation.export(toPDFAt: "/nonexistent-\(UUID().uuidString)/out.pdf")
        guard case .failed(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(!error.message.isEmpty)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct SaveChooserAndLauncherTests {
    init() { _ = TestSettings.make() }

    @Test func aSaveChooserProposesANameAndReportsThePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gtkkit-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let chooser = FileChooser(saveTitle: "Save PDF", parent: nil, acceptLabel: "_Save", suggestedName: "INV-2026-0001.pdf",
                                  folder: directory.path, filters: [FileFilter(name: "PDF documents", suffixes: ["pdf"])])
        #expect(chooser.isSaveDialog)
        #expect(chooser.currentName == "INV-2026-0001.pdf")
        var results: [String?] = []
        chooser.open { results.append($0) }
        let target = directory.appendingPathComponent("INV-2026-0001.pdf").path
        chooser.respond(selecting: target)
        #expect(results == [target])
        #expect(!chooser.isOpen)
        #expect(chooser.isSaveDialog)
        #expect(chooser.currentName == nil)
    }

    @Test func aLaunchWithoutAnAppReportsWhy() {
        var result: GLibError??
        Launcher.open(uri: "billfold-test-no-handler:nothing", parent: nil) { result = .some($0) }
        let done = MainLoop.run(until: { result != nil }, timeout: 10)
        #expect(done)
        #expect((result ?? nil) != nil)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct TextLineTests {
    @Test func measuresInTheWidgetsFontAndEllipsizesToAWidth() {
        let area = DrawingArea()
        let line = TextLine(in: area)
        let height = line.lineHeight
        #expect(height > 8)
        line.text = "INV-2026-0001"
        let natural = line.size.width
        #expect(natural > 40)
        line.text = "INV-2026-0001 INV-2026-0001"
        #expect(line.size.width > natural)
        #expect(line.size.height == height)   // one line, whatever the text
        line.maximumWidth = natural / 2
        #expect(line.size.width <= natural / 2)
        line.maximumWidth = nil
        #expect(line.size.width > natural)
        #expect(line.lineHeight == height)
        #expect(line.text == "INV-2026-0001 INV-2026-0001")   // measuring keeps the text

        let bold = TextLine(in: area, weight: .bold, scale: 2)
        bold.text = "INV-2026-0001"
        #expect(bold.size.width > natural * 3 / 2)
    }

    /// A drawn row keeps its lines as stored properties; the lines must not keep the row alive.
    @Test func aWidgetThatOwnsItsLinesIsFreed() {
        weak var freed: LinedArea?
        do {
            let area = LinedArea()
            area.line.text = "INV-2026-0001"
            #expect(area.line.size.width > 0)
            #expect(!area.line.metricsKey.isEmpty)
            freed = area
        }
        #expect(freed == nil)
    }

    @Test func aLineOutlivedByItsWidgetStillMeasures() {
        var area: DrawingArea? = DrawingArea()
        let line = TextLine(in: area!)
        area = nil
        line.text = "INV-2026-0001"
        #expect(line.size.width > 0)
        #expect(line.metricsKey.isEmpty)
    }

    @Test func themeColoursComeFromTheStyle() {
        let area = DrawingArea()
        let window = present(area)
        defer { window.destroy() }
        #expect(area.foregroundColor.alpha > 0.5)
        let accent = area.styleColor(named: "accent_color")
        #expect(accent != nil)
        #expect(area.styleColor(named: "no_such_colour_anywhere") == nil)
    }

    /// A painted area gives GTK render nodes to draw (a rounded clip round a colour, a text
    /// node at its place), not a Cairo surface it would have to rasterize and upload.
    @Test func paintsTextAndPillsAsRenderNodes() throws {
        let area = SnapshotArea()
        area.contentHeight = 40
        #expect(area.contentHeight == 40)
        let line = TextLine(in: area, weight: .bold)
        line.text = "Paid"
        var sizes: [(Int, Int)] = []
        area.setPaintFunction { snapshot, width, height in
            sizes.append((width, height))
            snapshot.fillRoundedRectangle(x: 0, y: 0, width: Double(width), height: Double(height), radius: 20,
                                          color: StyleColor(red: 0, green: 0.5, blue: 0))
            snapshot.append(line, x: 4, y: 4, color: StyleColor(red: 0, green: 0, blue: 0))
        }
        let box = Box(.vertical, children: [area])
        box.align(horizontal: .fill, vertical: .start)
        let window = present(box)
        defer { window.destroy() }
        #expect(sizes.last.map { $0 == (area.width, 40) } == true)
        #expect(area.width > 100)

        // Record what the area paints, as GTK does when it draws a frame.
        let recorder = try #require(gtk_snapshot_new())
        let instance = UnsafeMutableRawPointer(area.widgetPointer).assumingMemoryBound(to: GTypeInstance.self)
        let widgetClass = UnsafeMutableRawPointer(instance.pointee.g_class!).assumingMemoryBound(to: GtkWidgetClass.self)
        widgetClass.pointee.snapshot(area.widgetPointer, recorder)
        let node = try #require(gtk_snapshot_free_to_node(recorder))
        defer { gsk_render_node_unref(node) }
        #expect(gsk_render_node_get_node_type(node) == GSK_CONTAINER_NODE)
        #expect(gsk_container_node_get_n_children(node) == 2)
        let pill = try #require(gsk_container_node_get_child(node, 0))
        #expect(gsk_render_node_get_node_type(pill) == GSK_ROUNDED_CLIP_NODE)
        let clip = try #require(gsk_rounded_clip_node_get_clip(pill))
        #expect(clip.pointee.corner.0.width == 20)
        #expect(gsk_render_node_get_node_type(gsk_rounded_clip_node_get_child(pill)) == GSK_COLOR_NODE)
        let text = try #require(gsk_container_node_get_child(node, 1))
        // GTK folds the translation into the text node's offset.
        #expect(gsk_render_node_get_node_type(text) == GSK_TEXT_NODE)
        #expect(gsk_text_node_get_offset(text)?.pointee.x == 4)
    }

    @Test func thePaintClosureGoesWithTheArea() {
        expectClosureGoesWithWidget(SnapshotArea()) { area, owner in area.setPaintFunction { _, _, _ in _ = owner } }
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct ColumnsTests {
    private func naturalWidth(_ widget: Widget) -> Int {
        var minimum: gint = 0, natural: gint = 0
        gtk_widget_measure(widget.widgetPointer, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return Int(natural)
    }

    /// Side by side while each column gets its minimum, stacked below that; the natural width
    /// asked for is at least `naturalWidth`.
    @Test func sideBySideWhenWideStackedWhenNarrow() {
        let columns = Columns(minimumColumnWidth: 150, spacing: 20, naturalWidth: 500)
        let left = Label("Left", wraps: true)
        let right = Label("Right", wraps: true)
        columns.append(left)
        columns.append(right)
        #expect(naturalWidth(columns) == 500)

        let wide = present(columns, width: 600, height: 200)
        #expect(columns.isSideBySide)
        #expect(left.width == right.width)
        #expect(left.width == (columns.width - 20) / 2)
        wide.destroy()

        let narrowColumns = Columns(minimumColumnWidth: 150, spacing: 20)
        let top = Label("Top", wraps: true)
        narrowColumns.append(top)
        narrowColumns.append(Label("Bottom", wraps: true))
        let narrow = present(narrowColumns, width: 300, height: 300)
        #expect(!narrowColumns.isSideBySide)
        #expect(top.width == narrowColumns.width)
        narrow.destroy()
    }
}

@MainActor
private final class LinedArea: SnapshotArea {
    lazy var line = TextLine(in: self, weight: .bold)
}
