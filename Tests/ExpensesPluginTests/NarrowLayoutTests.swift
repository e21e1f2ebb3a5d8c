import BillfoldCore
import Foundation
import GtkKit
import Testing
import TestSupport
@testable import ExpensesCore
@testable import ExpensesPlugin

@Suite(.serialized, needsDisplay) @MainActor
struct NarrowLayoutTests {
    /// The page, with a trip and an expense shown, fits a 360 px window.
    @Test func thePageFitsANarrowWindow() throws {
        let f = try PageFixture()
        let trip = try f.createTrip("Zürich Design Conference 2026")
        _ = try f.view.repository.addExpense(ExpenseDetails(date: trip.startDate, category: .meals, vendor: "Café",
                                                            amount: Money(minorUnits: 4_250, currency: trip.currency)), to: trip.id)
        f.view.detail.refresh()
        #expect(f.view.detail.widget.minimumWidth <= 360)
        #expect(f.view.widget.minimumWidth <= 360)
    }

    /// The trip's name heads the pane, where it wraps, rather than the header, where the buttons cut it.
    @Test func theTripsNameHeadsThePane() throws {
        let f = try PageFixture()
        _ = try f.createTrip("Zürich Design Conference 2026")
        #expect(f.view.detail.nameLabel.text == "Zürich Design Conference 2026")
        #expect(f.view.detail.nameLabel.wraps)
    }

    /// A click on a trip in the list opens it: choosing its row shows the trip.
    @Test func aTripInTheListOpensWhenChosen() throws {
        let f = try PageFixture()
        let trip = try f.createTrip("Zürich Design Conference 2026")
        f.view.select(nil, showDetail: false)
        #expect(f.view.tripList.selectedIndex == nil)
        f.view.tripList.selectedIndex = 0
        #expect(f.view.detail.trip?.id == trip.id)
        #expect(f.view.selectedTripID == trip.id)
    }
}
