import GtkKit
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// A document pane switches between its details and its preview, even when the pane keeps
/// only the widget.
@Suite(.serialized, needsDisplay) @MainActor
struct DetailsOrPreviewTests {
    @Test func theTogglesSwitchTheBody() {
        // The DetailsOrPreview itself goes away here; its widgets stay.
        let (widget, detailsToggle, previewToggle, stack) = {
            let body = DetailsOrPreview(details: Label("Details"), preview: Label("Preview"))
            return (body.widget, body.detailsToggle, body.previewToggle, body.stack)
        }()
        #expect(stack.visibleChildName == "details")
        previewToggle.isActive = true
        #expect(stack.visibleChildName == "preview")
        #expect(!detailsToggle.isActive)
        detailsToggle.isActive = true
        #expect(stack.visibleChildName == "details")
        _ = widget
    }
}
