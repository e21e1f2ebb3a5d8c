import BillfoldCore
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import BillfoldUI

@MainActor
private final class NameForm: FormWindow {
    let nameRow = EntryRow(title: "Name")
    let saveButton = Button(label: "_Save")
    private(set) var submissions = 0

    init(values: [String] = []) {
        super.init()
        makeForm(title: "New Thing", over: nil, width: 400, submitButton: saveButton,
                 submit: { [weak self] in self?.submissions += 1 }, values: { [weak self] in [self?.nameRow.text ?? ""] })
        content = nameRow
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct FormWindowTests {
    @Test func theSuggestedActionIsTheDefaultWidget() {
        let form = NameForm()
        #expect(form.defaultWidget === form.saveButton)
        form.destroy()
    }

    @Test func anUnchangedFormClosesWithoutAsking() {
        let form = NameForm()
        form.present()
        form.close()
        #expect(form.discardQuestion == nil)
        #expect(!form.isVisible)
    }

    @Test func aChangedFormAsksAndKeepsEditingOrDiscards() async throws {
        let form = NameForm()
        form.present()
        form.nameRow.text = "Acme"
        #expect(form.hasChanges)
        form.close()
        let keep = try #require(form.discardQuestion)
        #expect(form.isVisible)
        keep.respond("keep")
        #expect(form.isVisible)
        #expect(form.nameRow.text == "Acme")

        form.close()
        try #require(form.discardQuestion).respond("discard")
        #expect(await MainLoop.wait(until: { !form.isVisible }))
    }

    @Test func typingBackWhatWasThereIsNoChange() {
        let form = NameForm()
        form.nameRow.text = "Acme"
        form.present()
        form.nameRow.text = "Acm"
        form.nameRow.text = "Acme"
        #expect(!form.hasChanges)
        form.close()
        #expect(!form.isVisible)
    }

    @Test func savingClosesWithoutAsking() {
        let form = NameForm()
        form.present()
        form.nameRow.text = "Acme"
        form.closeAfterSubmitting()
        #expect(form.discardQuestion == nil)
        #expect(!form.isVisible)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct CurrencyRowTests {
    private let eur = Currency(code: "EUR")!
    private let jpy = Currency(code: "JPY")!
    private let usd = Currency(code: "USD")!

    @Test func recentAndLocaleCurrenciesComeFirstEachOnce() {
        let ordered = CurrencyChoices.ordered(recent: [jpy, eur], locale: eur)
        #expect(Array(ordered.prefix(2)) == [jpy, eur])
        #expect(ordered.count == Currency.all.count)
        #expect(Set(ordered) == Set(Currency.all))
        #expect(CurrencyChoices.ordered(recent: [], locale: usd).first == usd)
    }

    @Test func typingTheCodeOrPartOfTheNameFindsACurrencyBestFirst() {
        let che = Currency(code: "CHE")!
        let names = [che: "WIR Euro", eur: "Euro", jpy: "Japanese Yen", usd: "US Dollar"]
        func search(_ query: String, in currencies: [Currency] = [che, eur, jpy, usd]) -> [Currency] {
            CurrencyChoices.search(currencies, for: query) { names[$0]! }
        }
        #expect(search("euro") == [eur, che])
        #expect(search("EUR") == [eur, che])
        #expect(search(" eu") == [eur, che])
        #expect(search("yen") == [jpy])
        #expect(search("JAPANÉSE") == [jpy])
        #expect(search("dollar") == [usd])
        #expect(search("xyz").isEmpty)
        #expect(search("") == [che, eur, jpy, usd])
    }

    @Test func theRowShowsTheWholeNameAndANote() {
        let row = CurrencyRow(title: "Currency", currency: eur)
        #expect(row.subtitle == eur.choiceTitle)
        row.note = "Every expense is converted to it"
        #expect(row.subtitle == eur.choiceTitle + "\nEvery expense is converted to it")
        row.currency = jpy
        #expect(row.subtitle?.hasPrefix("JPY") == true)
    }

    @Test func choosingReportsOnceAndIsRememberedAsRecent() {
        let row = CurrencyRow(title: "Currency", currency: eur)
        var changes = 0
        row.onChanged { changes += 1 }
        row.currency = usd
        #expect(changes == 0)
        row.choose(jpy)
        #expect(changes == 1)
        #expect(row.currency == jpy)
        #expect(RecentCurrencies.currencies.first == jpy)
        row.choose(jpy)
        #expect(changes == 1)
    }

    @Test func theOpenListIsFilteredByTyping() async {
        RecentCurrencies.use(eur)
        let row = CurrencyRow(title: "Currency", currency: usd)
        let group = PreferencesGroup()
        group.add(row)
        let window = TestWindow(content: group, width: 400, height: 300)
        defer { window.window.destroy() }
        row.open()
        #expect(await MainLoop.wait(until: { row.listed.count == Currency.all.count }))
        #expect(row.listed.first == eur)
        row.searchEntry.type("yen")
        #expect(await MainLoop.wait(until: { row.matches == [jpy] }))
        row.chooseFirstMatch()
        #expect(row.currency == jpy)
    }
}
