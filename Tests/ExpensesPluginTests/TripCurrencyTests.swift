import BillfoldCore
import Testing
import TestSupport
@testable import ExpensesCore
@testable import ExpensesPlugin

extension ExpensesPageTests {
    @Test func aNewTripStartsInTheGivenCurrencyAndAnEditedOneInItsOwn() throws {
        let f = try PageFixture()
        let dialog = TripDialog(repository: f.view.repository, editing: nil, parent: nil, defaultCurrency: .chf)
        #expect(dialog.currencyRow.currency == .chf)
        dialog.nameRow.text = "Basel"
        let trip = try #require(dialog.save())
        #expect(trip.currency == .chf)
        let editing = TripDialog(repository: f.view.repository, editing: trip, parent: nil, defaultCurrency: .jpy)
        #expect(editing.currencyRow.currency == .chf)
        editing.destroy()
    }
}
