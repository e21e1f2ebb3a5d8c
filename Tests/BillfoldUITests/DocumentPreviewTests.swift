import Foundation
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import BillfoldUI

@Suite(.serialized, needsDisplay) @MainActor
struct DocumentPreviewTests {
    @Test func showsThePagesAndWhichOneIsRead() throws {
        let preview = DocumentPreview()
        #expect(preview.state == .empty)
        preview.show(pdf: try Fixtures.pdf(pages: 5))
        let host = TestWindow(content: preview.widget)
        defer { host.close() }
        #expect(preview.state == .ready(pageCount: 5))
        #expect(preview.pageCount == 5)
        #expect(preview.pages.widget(forPage: 0)?.accessibleLabel == "Page 1 of 5")
        #expect(preview.pageIndicatorText == "Page 1 of 5")

        preview.scroll(toPage: 2)
        host.settle()
        #expect(preview.currentPageIndex == 2)
        #expect(preview.pageIndicatorText == "Page 3 of 5")

        preview.scroll(toPage: 4)
        host.settle()
        #expect(preview.pageIndicatorText == "Page 5 of 5")
    }

    @Test func fitWidthFollowsTheWindow() throws {
        let preview = DocumentPreview()
        preview.show(pdf: try Fixtures.pdf(pages: 2))
        let host = TestWindow(content: preview.widget, width: 700, height: 500)
        defer { host.close() }
        #expect(preview.zoom == .fitWidth)
        let wide = try #require(preview.pages.widget(forPage: 0)).width
        #expect(wide == preview.pages.scroller.width - 36)
        host.window.setDefaultSize(width: 420, height: 500)
        host.settle()
        let narrow = try #require(preview.pages.widget(forPage: 0)).width
        #expect(narrow == preview.pages.scroller.width - 16)
        #expect(narrow < wide)
    }

    @Test func zoomResizesThePagesInProportion() throws {
        let preview = DocumentPreview()
        preview.show(pdf: try Fixtures.pdf(pages: 3))
        let host = TestWindow(content: preview.widget)
        defer { host.close() }
        preview.zoom = .scale(1)
        host.settle()
        var page = try #require(preview.pages.widget(forPage: 0))
        let (width1, height1) = (page.width, page.height)
        #expect(width1 == 794)  // A4 at 96 dpi
        #expect(preview.zoomMenuButton.label == "100%")

        preview.zoom = .scale(2)
        host.settle()
        page = try #require(preview.pages.widget(forPage: 0))
        #expect(abs(page.width - 2 * width1) <= 1)
        #expect(abs(page.height - 2 * height1) <= 1)

        preview.zoomOut()
        host.settle()
        page = try #require(preview.pages.widget(forPage: 0))
        #expect(preview.zoom == .scale(1.75))
        #expect(abs(Double(page.width) - 1.75 * Double(width1)) <= 1)
        #expect(preview.zoomMenuButton.label == "175%")
    }

    @Test func ctrlScrollZoomsAndAPlainScrollScrolls() throws {
        let preview = DocumentPreview()
        preview.show(pdf: try Fixtures.pdf(pages: 3))
        let host = TestWindow(content: preview.widget)
        defer { host.close() }
        preview.zoom = .scale(1)
        host.settle()
        #expect(preview.scrollWheel(dy: -1, control: true))
        host.settle()
        #expect(preview.zoom == .scale(1.1))
        #expect(preview.scrollWheel(dy: 1, control: true))
        #expect(preview.scrollWheel(dy: 1, control: true))
        host.settle()
        #expect(preview.zoom == .scale(0.9))
        // A touchpad's small steps add up to one zoom step.
        for _ in 0..<4 { preview.scrollWheel(dy: -0.3, control: true) }
        host.settle()
        #expect(preview.zoom == .scale(1))
        // Without Ctrl the event goes on to the scrolled window.
        #expect(!preview.scrollWheel(dy: 1, control: false))
        #expect(preview.zoom == .scale(1))
    }

    @Test func zoomKeepsTheReadSpotInView() throws {
        let preview = DocumentPreview()
        preview.show(pdf: try Fixtures.pdf(pages: 6))
        let host = TestWindow(content: preview.widget)
        defer { host.close() }
        preview.scroll(toPage: 3)
        host.settle()
        #expect(preview.currentPageIndex == 3)
        preview.zoom = .scale(2)
        host.settle()
        #expect(preview.currentPageIndex == 3)
        let drawnBefore = preview.pages.renderedPages.count
        preview.zoom = .fitPage
        host.settle()
        #expect(preview.currentPageIndex == 3)
        // The page in view is drawn again at the new size, wherever the zoom put it.
        #expect(preview.pages.renderedPages.dropFirst(drawnBefore).contains(3))
    }

    @Test func zoomActionsAndLimits() throws {
        let preview = DocumentPreview()
        preview.show(pdf: try Fixtures.pdf(pages: 1))
        let host = TestWindow(content: preview.widget)
        defer { host.close() }
        preview.zoom = .scale(6)
        host.settle()
        #expect(!preview.zoomInButton.isSensitive)
        preview.zoomIn()
        #expect(preview.zoom == .scale(6))
        preview.resetZoom()
        host.settle()
        #expect(preview.zoom == .fitWidth)
        #expect(preview.zoomInButton.isSensitive)
    }

    @Test func onlyThePagesInViewAreDrawn() throws {
        let preview = DocumentPreview()
        preview.show(pdf: try Fixtures.pdf(pages: 40))
        let host = TestWindow(content: preview.widget, width: 600, height: 500)
        defer { host.close() }
        #expect(preview.pageCount == 40)
        // Like a list view, only the pages near the view have widgets.
        #expect(preview.pages.pageWidgetCount <= 3)
        // One page fills the view at fit width; the next may be drawn ahead of scrolling.
        #expect(Set(preview.pages.renderedPages).isSubset(of: [0, 1]))
        #expect(preview.pages.renderedPages.contains(0))

        preview.scroll(toPage: 30)
        host.settle()
        let drawn = Set(preview.pages.renderedPages)
        #expect(drawn.contains(30))
        #expect(drawn.isSubset(of: [0, 1, 29, 30, 31]))
        #expect(preview.renderCount <= 5)
        #expect(preview.pages.pageWidgetCount <= 4)
        #expect(preview.pages.widget(forPage: 30) != nil)
        #expect(preview.pages.widget(forPage: 0) == nil)
    }

    @Test func aDamagedPDFShowsWhyInsteadOfCrashing() throws {
        let preview = DocumentPreview()
        let host = TestWindow(content: preview.widget)
        defer { host.close() }
        preview.show(pdf: Data("%PDF-1.7\nthis is not really a PDF\n%%EOF".utf8))
        guard case .failed(let message) = preview.state else {
            Issue.record("expected the error state, got \(preview.state)")
            return
        }
        #expect(!message.isEmpty)
        #expect(preview.stack.visibleChildName == "error")
        #expect(preview.errorPage.pageDescription == message)
        #expect(preview.pdfData == nil)

        preview.show(pdf: Data())
        #expect(preview.stack.visibleChildName == "error")

        var truncated = try Fixtures.pdf(pages: 2)
        truncated = truncated.prefix(truncated.count / 3)
        preview.show(pdf: truncated)
        host.settle()
        // Poppler may recover part of a cut-off file; either way the preview stays usable.
        switch preview.state {
        case .failed, .ready: break
        default: Issue.record("unexpected state \(preview.state)")
        }
    }

    @Test func statesSwitchTheVisibleView() throws {
        let preview = DocumentPreview(emptyTitle: "No Invoice Selected", emptyDescription: "Choose an invoice.")
        #expect(preview.stack.visibleChildName == "empty")
        #expect(preview.emptyPage.title == "No Invoice Selected")
        preview.showGenerating()
        #expect(preview.state == .generating)
        #expect(preview.stack.visibleChildName == "generating")
        #expect(preview.generatingSpinner.isSpinning)

        preview.show(pdf: try Fixtures.pdf(pages: 2))
        #expect(preview.stack.visibleChildName == "ready")
        #expect(!preview.generatingSpinner.isSpinning)

        // Regenerating keeps the document on screen with a small spinner.
        preview.showGenerating()
        #expect(preview.state == .ready(pageCount: 2))
        #expect(preview.isGenerating)
        #expect(preview.busySpinner.isVisible)
        #expect(preview.stack.visibleChildName == "ready")

        preview.showError("The logo file is missing.")
        #expect(preview.state == .failed(message: "The logo file is missing."))
        #expect(!preview.busySpinner.isVisible)

        preview.clear()
        #expect(preview.state == .empty)
        #expect(preview.pageCount == 0)
        #expect(preview.stack.visibleChildName == "empty")
    }

    @Test func thePreviewAndItsWidgetsGoAwayTogether() throws {
        var preview: DocumentPreview? = DocumentPreview()
        weak let weakPreview = preview
        preview!.show(pdf: try Fixtures.pdf(pages: 3))
        let host = TestWindow(content: preview!.widget)
        let probe = FinalizationProbe(watching: preview!.widget)
        // GTK lets go of a removed widget after the next frame, as it would in the app.
        host.window.content = Label("Another invoice")
        host.settle()
        host.close()
        preview = nil
        #expect(weakPreview == nil)
        #expect(probe.isFinalized)
    }

    @Test func generationRunsOffTheMainThreadAndShowsTheResult() async throws {
        let preview = DocumentPreview()
        let pdf = try Fixtures.pdf(pages: 3)
        let ranOnMain = Flag()
        let task = preview.generate {
            ranOnMain.set(Thread.isMainThread)
            return pdf
        }
        #expect(preview.state == .generating)
        await task.value
        #expect(ranOnMain.value == false)
        #expect(preview.state == .ready(pageCount: 3))
        #expect(preview.pdfData == pdf)
    }

    @Test func aFailedGenerationShowsItsError() async {
        struct Failure: LocalizedError { var errorDescription: String? { "The client has no address." } }
        let preview = DocumentPreview()
        await preview.generate { throw Failure() }.value
        #expect(preview.state == .failed(message: "The client has no address."))
    }

    @Test func theNewestRequestWins() async throws {
        let preview = DocumentPreview()
        let old = try Fixtures.pdf(pages: 4)
        let new = try Fixtures.pdf(pages: 2)
        let gate = Gate()
        let slow = preview.generate {
            gate.wait()
            return old
        }
        let fast = preview.generate { new }
        await fast.value
        #expect(preview.state == .ready(pageCount: 2))
        gate.open()
        await slow.value
        // The older result arrived last and was dropped.
        #expect(preview.state == .ready(pageCount: 2))
        #expect(preview.pdfData == new)

        // Showing bytes directly also overtakes a running generation.
        let gate2 = Gate()
        let overtaken = preview.generate {
            gate2.wait()
            return old
        }
        preview.show(pdf: new)
        gate2.open()
        await overtaken.value
        #expect(preview.state == .ready(pageCount: 2))
    }
}

/// A value set on another thread and read on the main actor after the task finished.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    func set(_ value: Bool) { lock.withLock { stored = value } }
    var value: Bool? { lock.withLock { stored } }
}

/// Holds a background task until the test lets it go.
final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { _ = semaphore.wait(timeout: .now() + 20) }
    func open() { semaphore.signal() }
}
