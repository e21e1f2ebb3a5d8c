import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import ExpensesCore
@testable import ExpensesPlugin

@Suite(.serialized, needsDisplay) @MainActor
struct TripListTests {
    /// A long history of trips lists without making a row for each: rows are made only near the
    /// screen, each paints its trip's name, dates and total, and a search narrows them.
    @Test func aLongHistoryOfTripsMakesRowsOnlyNearTheScreen() async throws {
        let f = try PageFixture()
        for index in 1...600 {
            _ = try f.view.repository.createTrip(TripDetails(name: String(format: "Trip %03d", index), startDate: day("2026-03-10"),
                                                             endDate: day("2026-03-12"), currency: .eur))
        }
        f.view.reload()
        let window = AdwaitaWindow()
        window.content = f.view.widget
        window.setDefaultSize(width: 1000, height: 700)
        window.present()
        defer { window.destroy() }

        let first = try #require(f.view.summaries.first)
        #expect(f.view.summaries.count == 600)
        #expect(await MainLoop.wait(until: { f.view.rowTexts(at: 0)?.first == first.trip.name }))
        #expect(f.view.rowTexts(at: 0) == [first.trip.name, first.trip.days.formatted(), f.money.string(from: first.total),
                                           "", ""])
        #expect(f.view.tripList.rowWidgetCount < 300)

        f.view.searchField.text = "Trip 123"
        #expect(await MainLoop.wait(until: { f.view.summaries.count == 1 }))
        #expect(await MainLoop.wait(until: { f.view.rowTexts(at: 0)?.first == "Trip 123" }))
        f.view.tripList.selectedIndex = 0
        #expect(f.view.detail.trip?.name == "Trip 123")
    }
}
