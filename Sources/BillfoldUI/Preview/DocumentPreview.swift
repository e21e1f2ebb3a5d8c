import BillfoldCore
import Foundation
import GObjectCore
import Graphics
import GtkKit

/// Shows a PDF inside the window, as GNOME's document viewer would: pages stacked on a darker
/// surface, zoom (fit width by default, fit page, steps with the buttons, Ctrl+scroll and
/// Ctrl+plus, minus and 0) and "Page 2 of 5". Poppler draws only the pages in view, as vectors,
/// so a long document opens as fast as a short one and stays sharp at any zoom.
///
/// It only shows state; generating the PDF is the caller's, off the main actor, for example
/// with `generate(_:)`, which also drops results that a newer request overtook.
///
/// Keep the preview (not only its widget) for as long as it is on screen.
@MainActor
public final class DocumentPreview {
    public enum State: Equatable, Sendable {
        /// Nothing to show yet.
        case empty
        /// A document is being generated and none is shown yet.
        case generating
        case ready(pageCount: Int)
        case failed(message: String)
    }

    public let widget: Widget
    public private(set) var state: State = .empty
    /// The PDF on screen, for Save As and Print.
    public private(set) var pdfData: Data?
    /// Whether a newer document is being generated while the current one stays on screen.
    public private(set) var isGenerating = false

    let stack = Stack()
    let pages = PreviewPages()
    let emptyPage: StatusPage
    let errorPage = StatusPage(iconName: "dialog-warning-symbolic", title: tr("The Document Cannot Be Shown"))
    let generatingSpinner = Spinner(size: 32)
    let busySpinner = Spinner(size: 16)
    let pageIndicator = Label("", wraps: false)
    let zoomInButton = Button(iconName: "zoom-in-symbolic", accessibleLabel: tr("Zoom In"))
    let zoomOutButton = Button(iconName: "zoom-out-symbolic", accessibleLabel: tr("Zoom Out"))
    let zoomMenuButton: MenuButton
    let controls: Box
    private let actions = ActionGroup()
    private var zoomInAction: SimpleAction?
    private var zoomOutAction: SimpleAction?
    private var scrollController: ScrollController?
    private var scrollZoomDistance = 0.0

    private var generation = 0
    private var generationTask: Task<Void, Never>?

    /// `emptyTitle` and `emptyDescription` are what the preview says before there is a document.
    public init(emptyTitle: String = tr("No Document"), emptyDescription: String? = nil) {
        PreviewStyle.install()
        emptyPage = StatusPage(iconName: "x-office-document-symbolic", title: emptyTitle, description: emptyDescription)

        let zoomMenu = Menu()
        zoomMenu.append(tr("Fit _Width"), action: "preview.fit-width")
        zoomMenu.append(tr("Fit _Page"), action: "preview.fit-page")
        zoomMenu.append(tr("_Actual Size"), action: "preview.actual-size")
        zoomMenuButton = MenuButton(label: "100%", menu: zoomMenu, accessibleLabel: tr("Zoom Level"))
        zoomMenuButton.addCssClass("zoom-level")

        pageIndicator.addCssClass("page-indicator")
        busySpinner.isVisible = false
        busySpinner.setMargins(start: 8)
        busySpinner.tooltip = tr("Updating the document…")
        controls = Box(.horizontal, spacing: 0, children: [busySpinner, pageIndicator, Separator(.vertical),
                                                            zoomOutButton, zoomMenuButton, zoomInButton])
        controls.addCssClass("osd")
        controls.addCssClass("toolbar")
        controls.addCssClass("document-preview-controls")
        controls.align(horizontal: .center, vertical: .end)

        let overlay = Overlay(child: pages.scroller)
        overlay.addOverlay(controls)

        let spinnerLabel = Label(tr("Preparing the document…"), style: "dim-label")
        let generatingBox = Box(.vertical, spacing: 12, children: [generatingSpinner, spinnerLabel])
        generatingBox.align(horizontal: .center, vertical: .center)

        stack.add(emptyPage, named: "empty")
        stack.add(generatingBox, named: "generating")
        stack.add(errorPage, named: "error")
        stack.add(overlay, named: "ready")
        stack.visibleChildName = "empty"
        stack.expandsHorizontally = true
        stack.expandsVertically = true
        widget = stack

        setUpActions()
        pages.onCurrentPageChanged = { [weak self] _ in self?.updateIndicator() }
        pages.onScaleChanged = { [weak self] _ in self?.updateZoomControls() }
        updateZoomControls()
    }

    // MARK: Showing

    /// Shows the PDF in `pdf`; a damaged or empty one shows why instead. Cancels any
    /// generation still running (its result would be older).
    public func show(pdf: Data) {
        supersedeGeneration()
        display(pdf: pdf)
    }

    /// Says a document is being made. With a document already on screen it stays there, with
    /// a small spinner, until the new one replaces it.
    public func showGenerating() {
        isGenerating = true
        if case .ready = state {
            busySpinner.isVisible = true
            busySpinner.isSpinning = true
            return
        }
        state = .generating
        generatingSpinner.isSpinning = true
        stack.visibleChildName = "generating"
    }

    /// Shows `message` in place of the document, e.g. why it could not be generated.
    public func showError(_ message: String) {
        supersedeGeneration()
        displayError(message)
    }

    /// Back to the empty state.
    public func clear() {
        supersedeGeneration()
        stopSpinners()
        pages.clear()
        pdfData = nil
        state = .empty
        stack.visibleChildName = "empty"
    }

    /// Runs `work` off the main actor and shows the PDF it returns, or its error. Only the
    /// newest request counts: starting another (or calling `show`, `showError` or `clear`)
    /// cancels this one and drops its result. `work` may check `Task.isCancelled` to stop early.
    @discardableResult
    public func generate(_ work: @escaping @Sendable () throws -> Data) -> Task<Void, Never> {
        supersedeGeneration()
        let ticket = generation
        showGenerating()
        let task = Task { [weak self] in
            let worker = Task.detached(priority: .userInitiated) { Result { try work() } }
            let result = await withTaskCancellationHandler { await worker.value } onCancel: { worker.cancel() }
            guard let self, ticket == self.generation, !Task.isCancelled else { return }
            self.generationTask = nil
            switch result {
            case .success(let data): self.display(pdf: data)
            case .failure(let error): self.displayError(error.localizedDescription)
            }
        }
        generationTask = task
        return task
    }

    private func supersedeGeneration() {
        generation += 1
        generationTask?.cancel()
        generationTask = nil
    }

    private func display(pdf: Data) {
        stopSpinners()
        do {
            let document = try PDFDocument(data: pdf)
            guard document.pageCount > 0 else {
                displayError(tr("The document has no pages."))
                return
            }
            try pages.show(document)
            pdfData = pdf
            state = .ready(pageCount: document.pageCount)
            stack.visibleChildName = "ready"
            updateIndicator()
            updateZoomControls()
        } catch {
            displayError(error.localizedDescription)
        }
    }

    private func displayError(_ message: String) {
        stopSpinners()
        pages.clear()
        pdfData = nil
        errorPage.pageDescription = message
        state = .failed(message: message)
        stack.visibleChildName = "error"
    }

    private func stopSpinners() {
        isGenerating = false
        generatingSpinner.isSpinning = false
        busySpinner.isSpinning = false
        busySpinner.isVisible = false
        busySpinner.setMargins(start: 8)
    }

    // MARK: Pages

    public var pageCount: Int { pages.pageCount }

    /// The page being read (zero-based): the one across the middle of the view.
    public var currentPageIndex: Int { pages.currentPage }

    /// "Page 2 of 5", as shown.
    public var pageIndicatorText: String { pageIndicator.text }

    public func scroll(toPage index: Int) { pages.scroll(toPage: index) }

    private func updateIndicator() {
        guard pages.pageCount > 0 else {
            pageIndicator.text = ""
            return
        }
        pageIndicator.text = String(format: tr("Page %d of %d"), pages.currentPage + 1, pages.pageCount)
    }

    // MARK: Zoom

    public var zoom: PreviewZoom {
        get { pages.zoom }
        set {
            pages.zoom = newValue
            updateZoomControls()
        }
    }

    /// The zoom as a scale of the real size (1 = 100 %), whatever the mode.
    public var zoomScale: Double { pages.scale }

    public func zoomIn() {
        guard let step = PreviewLayout.stepUp(from: targetScale) else { return }
        zoom = .scale(step)
    }

    public func zoomOut() {
        guard let step = PreviewLayout.stepDown(from: targetScale) else { return }
        zoom = .scale(step)
    }

    /// The scale being zoomed to: several steps in one frame (a fast wheel) add up, although
    /// the pages take their new size only at the next layout.
    private var targetScale: Double {
        if case .scale(let scale) = zoom { return scale }
        return pages.scale
    }

    /// A wheel click is one zoom step; a touchpad's small deltas add up to one first.
    private func zoom(byScrolling dy: Double) {
        if (dy > 0) != (scrollZoomDistance > 0) { scrollZoomDistance = 0 }
        scrollZoomDistance += dy
        while scrollZoomDistance >= 1 {
            scrollZoomDistance -= 1
            zoomOut()
        }
        while scrollZoomDistance <= -1 {
            scrollZoomDistance += 1
            zoomIn()
        }
    }

    /// Back to the default: the page fills the width.
    public func resetZoom() { zoom = .fitWidth }

    private func setUpActions() {
        let zoomIn = SimpleAction(name: "zoom-in") { [weak self] in self?.zoomIn() }
        let zoomOut = SimpleAction(name: "zoom-out") { [weak self] in self?.zoomOut() }
        zoomInAction = zoomIn
        zoomOutAction = zoomOut
        for action in [zoomIn, zoomOut,
                       SimpleAction(name: "fit-width") { [weak self] in self?.zoom = .fitWidth },
                       SimpleAction(name: "fit-page") { [weak self] in self?.zoom = .fitPage },
                       SimpleAction(name: "actual-size") { [weak self] in self?.zoom = .scale(1) }] {
            actions.add(action)
        }
        widget.insertActionGroup(actions, prefix: "preview")
        zoomInButton.actionName = "preview.zoom-in"
        zoomOutButton.actionName = "preview.zoom-out"

        for accelerator in ["<Control>plus", "<Control>equal", "<Control>KP_Add"] {
            widget.addShortcut(accelerator) { [weak self] in self?.zoomIn() }
        }
        for accelerator in ["<Control>minus", "<Control>KP_Subtract"] {
            widget.addShortcut(accelerator) { [weak self] in self?.zoomOut() }
        }
        for accelerator in ["<Control>0", "<Control>KP_0"] {
            widget.addShortcut(accelerator) { [weak self] in self?.resetZoom() }
        }

        let scrolling = ScrollController(attachedTo: pages.scroller)
        scrolling.onScroll { [weak self] event in
            guard event.isControlPressed, let self else { return false }
            self.zoom(byScrolling: event.dy)
            return true
        }
        scrollController = scrolling
    }

    private func updateZoomControls() {
        let percent = Int((targetScale * 100).rounded())
        zoomMenuButton.label = String(format: tr("%d%%"), percent)
        zoomInAction?.isEnabled = PreviewLayout.stepUp(from: targetScale) != nil
        zoomOutAction?.isEnabled = PreviewLayout.stepDown(from: targetScale) != nil
    }

    // MARK: For tests and the benchmark

    /// How many times Poppler drew a page since the document was shown.
    public var renderCount: Int { pages.renderCount }

    /// Called after Poppler drew page `index` on screen (zero-based).
    public var onPageRendered: (@MainActor (Int) -> Void)? {
        get { pages.onPageRendered }
        set { pages.onPageRendered = newValue }
    }

    /// Delivers a Ctrl+scroll (or a plain scroll) as the pointer would.
    @discardableResult
    func scrollWheel(dy: Double, control: Bool) -> Bool {
        scrollController?.deliver(dy: dy, control: control) ?? false
    }
}
