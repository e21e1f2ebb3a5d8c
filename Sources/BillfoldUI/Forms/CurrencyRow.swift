import BillfoldCore
import Foundation
import GtkKit

/// A row choosing a currency. It shows the chosen one's code and full name, and opens a list
/// to search by code or name (“EUR”, “euro”), with the recently chosen currencies and the
/// locale's first, then every other.
@MainActor
public final class CurrencyRow: ActionRow {
    /// The chosen currency; setting it does not count as the user's choice.
    public var currency: Currency {
        didSet { showChoice() }
    }

    /// A line under the currency's name, e.g. what the currency is used for.
    public var note: String? {
        didSet { showChoice() }
    }

    let button: PopoverButton
    let searchEntry = SearchEntry(placeholder: tr("Search currencies"))
    let list = ListBox()
    /// Every currency in the list's order when nothing is typed; filled when first opened.
    private(set) var listed: [Currency] = []
    /// The currencies shown now, best match first.
    private(set) var matches: [Currency] = []
    private var rows: [Currency: ActionRow] = [:]
    private var checks: [Currency: Image] = [:]
    private var onChange: (@MainActor () -> Void)?

    public init(title: String, currency: Currency) {
        self.currency = currency
        let scroller = ScrolledWindow(child: list)
        // As tall as the matches, up to a screenful; wide enough that names are not cut.
        scroller.propagatesNaturalHeight = true
        scroller.setProperty("max-content-height", 360)
        scroller.setSizeRequest(width: 320)
        let content = Box(.vertical, spacing: 6, children: [searchEntry, scroller])
        button = PopoverButton(iconName: "pan-down-symbolic", content: content, accessibleLabel: tr("Choose Currency"))
        super.init(title: title, subtitle: "")
        // Names are plain text: “Trinidad & Tobago Dollar” is not markup.
        setProperty("use-markup", false)
        button.addCssClass("flat")
        button.align(vertical: .center)
        addSuffix(button)
        activates(button)
        list.styleAsNavigationSidebar()
        searchEntry.accessibleLabel = tr("Search currencies")
        button.onOpened { [weak self] in self?.opened() }
        searchEntry.onSearchChanged { [weak self] in self?.filter() }
        searchEntry.onActivated { [weak self] in self?.chooseFirstMatch() }
        searchEntry.onStopSearch { [weak self] in self?.button.popdown() }
        // Down from the search field goes to the matches.
        searchEntry.addShortcut("Down") { [weak self] in self?.list.focusInside() }
        list.onRowActivated { [weak self] index in
            guard let self, self.matches.indices.contains(index) else { return }
            self.choose(self.matches[index])
        }
        showChoice()
    }

    /// Calls `handler` when the user chooses a currency.
    public func onChanged(_ handler: @escaping @MainActor () -> Void) { onChange = handler }

    /// Chooses `currency` as the user does: it is remembered as recently used and reported.
    public func choose(_ currency: Currency) {
        button.popdown()
        RecentCurrencies.use(currency)
        let changed = currency != self.currency
        self.currency = currency
        if changed { onChange?() }
    }

    /// Opens the list, as a click on the row does.
    public func open() { button.popup() }

    private func showChoice() {
        subtitle = [Self.title(of: currency), note].compactMap { $0 }.joined(separator: "\n")
        for (listedCurrency, check) in checks { check.isVisible = listedCurrency == currency }
    }

    private func opened() {
        if listed.isEmpty { fillList() }
        searchEntry.text = ""
        filter()
        searchEntry.grabFocus()
    }

    private func fillList() {
        listed = CurrencyChoices.ordered(recent: RecentCurrencies.currencies, locale: Currency.forLocale())
        for listedCurrency in listed {
            let row = ActionRow(title: Self.title(of: listedCurrency))
            row.setProperty("use-markup", false)
            let check = Image(iconName: "object-select-symbolic")
            check.isVisible = listedCurrency == currency
            row.addSuffix(check)
            rows[listedCurrency] = row
            checks[listedCurrency] = check
        }
    }

    /// Shows the currencies the search finds, best first.
    private func filter() {
        let query = searchEntry.text
        let found = CurrencyChoices.search(listed, for: query) { Self.name(of: $0) }
        guard found != matches else { return }
        for shown in matches { if let row = rows[shown] { list.remove(row) } }
        matches = found
        for shown in matches { if let row = rows[shown] { list.append(row) } }
    }

    /// Return in the search field: the first currency it finds.
    func chooseFirstMatch() {
        filter()
        if let first = matches.first { choose(first) }
    }

    /// “Euro”, named once per currency: naming all of them is the costly part of a list.
    private static var names: [Currency: String] = [:]
    static func name(of currency: Currency) -> String {
        if let name = names[currency] { return name }
        let name = currency.localizedName()
        names[currency] = name
        return name
    }

    /// “EUR — Euro”, as `Currency.choiceTitle` says it.
    static func title(of currency: Currency) -> String {
        String(format: tr("%@ — %@"), currency.code, name(of: currency))
    }
}

/// The order currency lists use and how typing finds a currency in them.
public enum CurrencyChoices {
    /// The recently chosen currencies and the locale's first, then every other in code order.
    public static func ordered(recent: [Currency], locale: Currency, all: [Currency] = Currency.all) -> [Currency] {
        var first: [Currency] = []
        for currency in recent + [locale] where !first.contains(currency) { first.append(currency) }
        return first + all.filter { !first.contains($0) }
    }

    /// The currencies `query` finds, best first: the code or the whole name typed, then the
    /// start of the code, of the name or of a word in it, then any part of the name; in any
    /// case and with or without accents. Equally good matches keep the order of `currencies`;
    /// an empty query finds them all.
    public static func search(_ currencies: [Currency], for query: String,
                              name: (Currency) -> String) -> [Currency] {
        let wanted = fold(query)
        guard !wanted.isEmpty else { return currencies }
        let ranked = currencies.enumerated().compactMap { index, currency in
            rank(code: fold(currency.code), name: fold(name(currency)), wanted: wanted).map { ($0, index, currency) }
        }
        return ranked.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    private static func rank(code: String, name: String, wanted: String) -> Int? {
        if code == wanted || name == wanted { return 0 }
        if code.hasPrefix(wanted) { return 1 }
        if name.hasPrefix(wanted) { return 2 }
        if name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains(where: { $0.hasPrefix(wanted) }) { return 3 }
        if name.contains(wanted) { return 4 }
        return nil
    }

    private static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
