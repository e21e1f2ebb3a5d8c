import BillfoldCore
import CGtk
import Foundation
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite(.serialized, needsDisplay) @MainActor
struct LineAmountPlacementTests {
    /// The right edge of the line's amount, in the editor's coordinates.
    private func amountRightEdge(_ editor: LineItemEditor) -> Double {
        var bounds = graphene_rect_t()
        _ = gtk_widget_compute_bounds(editor.amountLabel.widgetPointer, editor.widget.widgetPointer, &bounds)
        return Double(bounds.origin.x + bounds.size.width)
    }

    /// The amount stays at the right edge with an error beside it and without one.
    @Test func theAmountKeepsItsPlaceWhetherOrNotAnErrorIsShown() async {
        let editor = LineItemEditor(line: LineItem(description: "Work", quantity: 1, unitPrice: Money(minorUnits: 2_000, currency: .eur),
                                                   taxRate: 19), standardRate: 19) {}
        let window = AdwaitaWindow()
        window.content = editor.widget
        window.setDefaultSize(width: 600, height: 500)
        window.present()
        editor.amountLabel.text = "€20.00"
        // As after the person's first edit, when problems start to show.
        editor.isTouched = true
        editor.showProblems(["Unit price: “x” cannot be part of an amount."])
        #expect(await MainLoop.wait(until: { editor.amountLabel.width > 0 && editor.errorLabel.width > 0 }))
        let withError = amountRightEdge(editor)
        editor.showProblems([])
        // Laid out again without the error, the amount is where it was.
        let settled = await MainLoop.wait(until: {
            !editor.errorLabel.isMapped && abs(self.amountRightEdge(editor) - withError) < 1
        }, timeout: 2)
        #expect(settled)
        let withoutError = amountRightEdge(editor)
        #expect(withoutError > Double(editor.widget.width) - 40)
        window.destroy()
    }
}
