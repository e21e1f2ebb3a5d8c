import BillfoldCore
import Foundation
import GObjectCore
import Graphics
import GtkKit

/// The pages of a PDF stacked in a scrolled view, drawn by Poppler straight into each page's
/// Cairo context at the current zoom: vectors, so sharp at any zoom and scale factor.
///
/// Like a list view, it has widgets only for the pages in and near the view (half a view above
/// and below), reused as the view scrolls, so a 500-page document costs what a 2-page one does.
@MainActor
final class PreviewPages {
    let scroller: ScrolledWindow
    let container: LayoutContainer
    private let verticalAdjustment: Adjustment
    private let horizontalAdjustment: Adjustment

    private(set) var document: PDFDocument?
    private(set) var layout = PreviewLayout(pageSizes: [])
    private(set) var frames: [PageFrame] = []
    /// The scale the pages were last laid out at (1 = real size).
    private(set) var scale = 1.0
    private var lastMeasure: (width: Int, scale: Double)?

    /// Page widgets, each showing one page or put aside (hidden) for reuse.
    private var slots: [PageSlot] = []

    var zoom: PreviewZoom = .fitWidth {
        didSet {
            guard zoom != oldValue else { return }
            zoomChanged()
        }
    }

    /// How many times Poppler drew a page since the document was shown.
    private(set) var renderCount = 0
    /// Which pages Poppler drew since the document was shown, in order.
    private(set) var renderedPages: [Int] = []
    private(set) var currentPage = 0

    var onCurrentPageChanged: (@MainActor (Int) -> Void)?
    var onScaleChanged: (@MainActor (Double) -> Void)?
    var onPageRendered: (@MainActor (Int) -> Void)?

    init() {
        let forwarder = LayoutForwarder()
        container = LayoutContainer(measure: { [forwarder] orientation, size in forwarder.measure?(orientation, size) ?? (0, 0) },
                                    allocate: { [forwarder] width, height in forwarder.allocate?(width, height) })
        scroller = ScrolledWindow(child: container, horizontalScrolling: true)
        verticalAdjustment = scroller.verticalAdjustment
        horizontalAdjustment = scroller.horizontalAdjustment
        forwarder.measure = { [weak self] orientation, size in self?.measure(orientation, forSize: size) ?? (0, 0) }
        forwarder.allocate = { [weak self] width, height in self?.allocate(width: width, height: height) }

        scroller.expandsVertically = true
        scroller.expandsHorizontally = true
        scroller.addCssClass("document-preview-canvas")
        container.isFocusable = true
        container.takesFocusOnClick()
        container.accessibleLabel = tr("Document preview")

        verticalAdjustment.onValueChanged { [weak self] in self?.viewMoved() }
        verticalAdjustment.onChanged { [weak self] in self?.viewResized() }
    }

    // MARK: Document

    /// Shows `document`, keeping the zoom and the scroll position (a regenerated document
    /// stays where the reader was).
    func show(_ document: PDFDocument) throws(PDFError) {
        var sizes: [Size] = []
        sizes.reserveCapacity(document.pageCount)
        for index in 0..<document.pageCount {
            sizes.append(try document.page(at: index).size)
        }
        self.document = document
        layout = PreviewLayout(pageSizes: sizes)
        renderCount = 0
        renderedPages = []
        lastMeasure = nil
        // Pages keep their widgets when they still exist; all are drawn afresh.
        for slot in slots {
            if let page = slot.page, page >= sizes.count { release(slot) }
            slot.area.queueDraw()
        }
        container.queueResize()
        updateCurrentPage()
    }

    func clear() {
        document = nil
        for slot in slots { release(slot) }
        layout = PreviewLayout(pageSizes: [])
        frames = []
        currentPage = 0
        verticalAdjustment.value = 0
        container.queueResize()
    }

    var pageCount: Int { layout.pageCount }

    /// The widget showing page `index`, when the page is in or near the view.
    func widget(forPage index: Int) -> DrawingArea? {
        slots.first { $0.page == index }?.area
    }

    /// How many page widgets exist, shown or put aside.
    var pageWidgetCount: Int { slots.count }

    // MARK: Page widgets

    /// Gives each page in or near the view a widget, taking them from pages that left it.
    /// Returns whether any page got a widget it did not have.
    @discardableResult
    private func assignWidgets() -> Bool {
        let wanted = document == nil ? 0..<0 : pagesToRender
        for slot in slots {
            if let page = slot.page, !wanted.contains(page) { release(slot) }
        }
        var changed = false
        for page in wanted where !slots.contains(where: { $0.page == page }) {
            let slot = slots.first { $0.page == nil } ?? makeSlot()
            slot.page = page
            slot.area.accessibleLabel = String(format: tr("Page %d of %d"), page + 1, layout.pageCount)
            slot.area.isVisible = true
            slot.area.queueDraw()
            changed = true
        }
        return changed
    }

    private func release(_ slot: PageSlot) {
        slot.page = nil
        slot.area.isVisible = false
    }

    private func makeSlot() -> PageSlot {
        let slot = PageSlot(area: DrawingArea())
        slot.area.addCssClass("document-page")
        slot.area.setDrawFunction { [weak self, weak slot] context, width, height in
            guard let self, let page = slot?.page else { return }
            self.draw(page: page, in: context, width: width, height: height)
        }
        container.append(slot.area)
        slots.append(slot)
        return slot
    }

    // MARK: Layout

    private var viewportWidth: Int { max(1, scroller.width) }
    private var viewportHeight: Int { max(1, scroller.height) }

    private func measure(_ orientation: Orientation, forSize: Int) -> (minimum: Int, natural: Int) {
        guard layout.pageCount > 0 else { return (0, 0) }
        switch orientation {
        case .horizontal:
            let natural = layout.contentWidth(scale: scale, viewportWidth: viewportWidth)
            return (minimumWidth, max(minimumWidth, natural))
        case .vertical:
            let width = forSize >= 0 ? forSize : viewportWidth
            let scale = layout.scale(for: zoom, viewportWidth: width, viewportHeight: viewportHeight)
            lastMeasure = (width, scale)
            let height = layout.contentHeight(scale: scale, viewportWidth: width)
            return (height, height)
        }
    }

    /// The narrowest the pages may be: a fixed zoom wider than the view scrolls sideways,
    /// fitting zooms never need to.
    private var minimumWidth: Int {
        guard case .scale(let fixed) = zoom, layout.pageCount > 0 else { return 1 }
        return layout.contentWidth(scale: fixed, viewportWidth: 1_000)
    }

    private func allocate(width: Int, height: Int) {
        let newScale = layout.scale(for: zoom, viewportWidth: width, viewportHeight: viewportHeight)
        frames = layout.frames(scale: newScale, width: width, viewportWidth: width)
        assignWidgets()
        for slot in slots {
            guard let page = slot.page, frames.indices.contains(page) else { continue }
            let frame = frames[page]
            container.place(slot.area, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        }
        if newScale != scale {
            scale = newScale
            onScaleChanged?(newScale)
        }
        updateCurrentPage()
    }

    // MARK: Zoom position

    /// Lays the pages out for the new zoom at once and sets the scroll range and position for
    /// it before GTK does, so the spot in the middle of the view stays there and the new zoom
    /// lands in one frame.
    private func zoomChanged() {
        let viewWidth = scroller.width, viewHeight = scroller.height
        defer { container.queueResize() }
        guard viewWidth > 0, viewHeight > 0, layout.pageCount > 0 else { return }
        let vertical = verticalAdjustment, horizontal = horizontalAdjustment
        let anchor = PreviewLayout.anchor(at: vertical.value + vertical.pageSize / 2, in: frames)
        let newScale = layout.scale(for: zoom, viewportWidth: viewWidth, viewportHeight: viewHeight)
        let width = max(viewWidth, minimumWidth)
        let newFrames = layout.frames(scale: newScale, width: width, viewportWidth: width)
        let height = max(layout.contentHeight(scale: newScale, viewportWidth: width), viewHeight)
        // A second zoom before the next layout starts from where this one put things.
        frames = newFrames
        if let anchor, let offset = PreviewLayout.offset(of: anchor, in: newFrames) {
            let top = min(max(0, offset - vertical.pageSize / 2), Double(height) - vertical.pageSize)
            vertical.configure(value: top, upper: Double(height))
        }
        horizontal.configure(value: Double(width - viewWidth) / 2, upper: Double(width))
    }

    private func viewResized() {
        // A fit-page zoom follows the view's height, which GTK does not measure pages for.
        if zoom == .fitPage, let lastMeasure,
           layout.scale(for: .fitPage, viewportWidth: lastMeasure.width, viewportHeight: viewportHeight) != lastMeasure.scale {
            self.lastMeasure = nil
            MainLoop.whenIdle { [weak self] in self?.container.queueResize() }
        }
        viewMoved()
    }

    private func viewMoved() {
        // Pages scrolling into view get widgets, placed at the next layout.
        if assignWidgets() { container.queueResize() }
        updateCurrentPage()
    }

    // MARK: Drawing

    /// The pages worth drawing now: those in view and half a view above and below it, so
    /// scrolling reveals drawn pages.
    var pagesToRender: Range<Int> {
        let top = verticalAdjustment.value
        let visible = verticalAdjustment.pageSize > 0 ? verticalAdjustment.pageSize : Double(viewportHeight)
        return PreviewLayout.pages(in: frames, from: top - visible / 2, to: top + visible * 1.5)
    }

    /// The pages at least partly visible.
    var visiblePages: Range<Int> {
        let top = verticalAdjustment.value
        return PreviewLayout.pages(in: frames, from: top, to: top + verticalAdjustment.pageSize)
    }

    private func draw(page index: Int, in cairo: CairoContext, width: Int, height: Int) {
        guard let document, let page = try? document.page(at: index) else { return }
        let context = DrawingContext(borrowing: cairo.pointer)
        page.render(in: context, scale: Double(width) / max(1, page.size.width))
        renderCount += 1
        renderedPages.append(index)
        onPageRendered?(index)
    }

    // MARK: Position

    private func updateCurrentPage() {
        let page = PreviewLayout.currentPage(in: frames, viewTop: verticalAdjustment.value,
                                             viewHeight: verticalAdjustment.pageSize,
                                             maximumTop: verticalAdjustment.maximumValue)
        guard page != currentPage || frames.isEmpty else { return }
        currentPage = page
        onCurrentPageChanged?(page)
    }

    /// Scrolls so page `index` starts at the top of the view.
    func scroll(toPage index: Int) {
        guard frames.indices.contains(index) else { return }
        verticalAdjustment.value = Double(frames[index].y - PreviewLayout.gap)
    }
}

/// A page widget and the page it shows (nil while put aside).
@MainActor
private final class PageSlot {
    let area: DrawingArea
    var page: Int?
    init(area: DrawingArea) { self.area = area }
}

/// Lets the layout's closures reach the pages view, which exists only after the container.
@MainActor
private final class LayoutForwarder {
    var measure: LayoutContainer.Measure?
    var allocate: LayoutContainer.Allocate?
}
