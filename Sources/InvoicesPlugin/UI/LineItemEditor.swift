import BillfoldCore
import Foundation
import GtkKit
import InvoicesCore

/// One line of the invoice form: a wrapping description, the numbers, each read in the user's
/// locale as it is typed, and the unit and VAT category an e-invoice names.
@MainActor
final class LineItemEditor {
    let widget = Box(.vertical, spacing: 8)
    let descriptionView = TextView()
    let quantityEntry = Entry()
    let priceEntry = Entry()
    let taxEntry = Entry()
    let discountEntry = Entry(placeholder: tr("none"))
    let removeButton = Button(iconName: "user-trash-symbolic", accessibleLabel: tr("Remove Line"))
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let amountLabel = Label("", wraps: false, style: "numeric")
    let unitRow: ComboRow
    let categoryRow = VATCategoryRow(title: tr("VAT"))
    private let numbers = NumberFormatting()
    private let money = MoneyFormatter()
    /// The unit choices, as (code, printed word); a unit typed before units had codes comes
    /// first, as it was, so opening and saving a line never changes it.
    private let units: [(code: UnitCode, word: String)]
    private let standardRate: Decimal
    /// Set once one of the line's fields was edited (or Save tried): only then are its problems shown.
    var isTouched = false

    init(line: LineItem, standardRate: Decimal, onChange: @escaping @MainActor () -> Void) {
        self.standardRate = standardRate
        var units = UnitCode.common.map { ($0, $0.word) }
        var titles = UnitCode.common.map(\.title)
        if let index = units.firstIndex(where: { $0.0 == line.unitCode && $0.1 == line.unit }) {
            unitRow = ComboRow(title: tr("Unit"), choices: titles)
            unitRow.selectedIndex = index
        } else {
            units.insert((line.unitCode, line.unit), at: 0)
            titles.insert(line.unit.isEmpty ? tr("No unit") : line.unit, at: 0)
            unitRow = ComboRow(title: tr("Unit"), choices: titles)
            unitRow.selectedIndex = 0
        }
        self.units = units
        // The line counts as edited before the form reads it, so its problems show at once.
        let edited: @MainActor () -> Void = { [weak self] in
            self?.isTouched = true
            onChange()
        }
        widget.addCssClass("card")
        let inner = Box(.vertical, spacing: 8)
        inner.setMargins(12)
        widget.append(inner)

        descriptionView.wrapsAtWords()
        descriptionView.setTextMargins(8)
        descriptionView.setSizeRequest(height: 56)
        descriptionView.accessibleLabel = tr("Description")
        descriptionView.text = line.description
        let descriptionFrame = ScrolledWindow(child: descriptionView)
        descriptionFrame.propagatesNaturalHeight = true
        descriptionFrame.addCssClass("frame")
        let descriptionCaption = Label(tr("Description"), wraps: false, style: "caption-heading")
        descriptionCaption.xAlign = 0
        descriptionCaption.describes(descriptionView)
        let top = Box(.horizontal, spacing: 6, children: [descriptionCaption])
        descriptionCaption.expandsHorizontally = true
        removeButton.addCssClass("flat")
        removeButton.tooltip = tr("Remove Line")
        top.append(removeButton)
        inner.append(top)
        inner.append(descriptionFrame)

        quantityEntry.text = numbers.string(from: line.quantity)
        priceEntry.text = money.string(from: line.unitPrice, showSymbol: false)
        taxEntry.text = numbers.string(from: line.taxRate, maximumFractionDigits: 4)
        discountEntry.text = line.discountPercent.map { numbers.string(from: $0, maximumFractionDigits: 4) } ?? ""

        // Side by side when there is room, one under the other in a narrow window.
        let fields = Columns(minimumColumnWidth: 96, spacing: 8)
        for (caption, entry, width) in [(tr("Quantity"), quantityEntry, 5), (tr("Unit Price"), priceEntry, 9), (tr("Tax %"), taxEntry, 4),
                                        (tr("Discount %"), discountEntry, 4)] {
            let label = Label(caption, wraps: false, style: "caption-heading")
            label.xAlign = 0
            label.describes(entry)
            entry.accessibleLabel = caption
            entry.setProperty("width-chars", width)
            entry.expandsHorizontally = true
            let column = Box(.vertical, spacing: 4, children: [label, entry])
            column.expandsHorizontally = true
            fields.append(column)
            entry.onChanged(edited)
        }
        for entry in [quantityEntry, priceEntry, taxEntry, discountEntry] { entry.setProperty("xalign", 1.0) }
        inner.append(fields)

        categoryRow.category = line.vatCategory
        let kind = PreferencesGroup()
        kind.add(unitRow)
        kind.add(categoryRow.row)
        inner.append(kind)
        unitRow.onSelectionChanged(edited)
        categoryRow.row.onSelectionChanged { [weak self] in
            self?.categoryChanged()
            edited()
        }
        taxEntry.onChanged { [weak self] in self?.taxRateChanged() }
        taxEntry.isSensitive = Self.takesRate(line.vatCategory)

        let bottom = Box(.horizontal, spacing: 6)
        errorLabel.xAlign = 0
        errorLabel.expandsHorizontally = true
        errorLabel.isVisible = false
        // Expanding and end-aligned, so the amount keeps its place whether or not an error is beside it.
        amountLabel.xAlign = 1
        amountLabel.expandsHorizontally = true
        amountLabel.align(horizontal: .end)
        amountLabel.addCssClass("heading")
        bottom.append(errorLabel)
        bottom.append(amountLabel)
        inner.append(bottom)
        descriptionView.onChanged(edited)
    }

    /// What the line's fields hold, to tell whether the form changed.
    var values: [String] {
        [descriptionView.text, quantityEntry.text, priceEntry.text, taxEntry.text, discountEntry.text,
         String(unitRow.selectedIndex ?? -1), categoryRow.category.rawValue]
    }

    /// Standard and zero-rated lines take a typed rate, and the rate moves them between the
    /// two; the other categories are 0 % by law.
    private static func takesRate(_ category: VATCategory) -> Bool {
        category == .standard || category == .zeroRated
    }

    private var isAdjusting = false

    private func categoryChanged() {
        guard !isAdjusting else { return }
        isAdjusting = true
        defer { isAdjusting = false }
        let category = categoryRow.category
        let rate = try? numbers.percent(from: taxEntry.text, maximumFractionDigits: 4)
        if !category.hasRate {
            if rate != 0 { taxEntry.text = numbers.string(from: 0) }
        } else if rate == 0 {
            taxEntry.text = numbers.string(from: standardRate, maximumFractionDigits: 4)
        }
        taxEntry.isSensitive = Self.takesRate(category) && !isLocked
    }

    private func taxRateChanged() {
        guard !isAdjusting, Self.takesRate(categoryRow.category),
              let rate = try? numbers.percent(from: taxEntry.text, maximumFractionDigits: 4) else { return }
        isAdjusting = true
        defer { isAdjusting = false }
        categoryRow.category = rate > 0 ? .standard : .zeroRated
    }

    /// The line as typed, or the problems with it, each under its field name.
    func read(currency: Currency) -> (LineItem?, [String]) {
        var problems: [String] = []
        func mark(_ entry: Entry, _ error: (any Error)?) {
            entry.setCssClass("error", enabled: error != nil)
        }
        var quantity: Decimal = 0
        do {
            quantity = try numbers.decimal(from: quantityEntry.text, maximumFractionDigits: LineItem.maximumQuantityDecimals)
            mark(quantityEntry, nil)
        } catch {
            mark(quantityEntry, error)
            problems.append(String(format: tr("Quantity: %@"), error.localizedDescription))
        }
        var price = Money.zero(currency)
        do {
            price = try money.money(from: priceEntry.text, currency: currency)
            mark(priceEntry, nil)
        } catch {
            mark(priceEntry, error)
            problems.append(String(format: tr("Unit price: %@"), error.localizedDescription))
        }
        var tax: Decimal = 0
        do {
            tax = try numbers.percent(from: taxEntry.text, maximumFractionDigits: 4)
            mark(taxEntry, nil)
        } catch {
            mark(taxEntry, error)
            problems.append(String(format: tr("Tax rate: %@"), error.localizedDescription))
        }
        var discount: Decimal?
        if !discountEntry.text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                discount = try numbers.percent(from: discountEntry.text, maximumFractionDigits: 4)
                mark(discountEntry, nil)
            } catch {
                mark(discountEntry, error)
                problems.append(String(format: tr("Discount: %@"), error.localizedDescription))
            }
        } else {
            mark(discountEntry, nil)
        }
        guard problems.isEmpty else { return (nil, problems) }
        let unit = units[unitRow.selectedIndex ?? 0]
        return (LineItem(description: descriptionView.text, quantity: quantity, unit: unit.word, unitPrice: price,
                         taxRate: tax, discountPercent: discount == 0 ? nil : discount,
                         vatCategory: categoryRow.category, unitCode: unit.code), [])
    }

    /// Shows the line's problems once it was edited, or when `visible` says the form wants them
    /// all (after Save was tried).
    func showProblems(_ problems: [String], visible: Bool = true) {
        errorLabel.text = problems.joined(separator: "\n")
        errorLabel.isVisible = !problems.isEmpty && visible && isTouched
    }

    var isLocked = false {
        didSet {
            for entry in [quantityEntry, priceEntry, discountEntry] { entry.isSensitive = !isLocked }
            taxEntry.isSensitive = !isLocked && Self.takesRate(categoryRow.category)
            unitRow.isSensitive = !isLocked
            categoryRow.row.isSensitive = !isLocked
            descriptionView.isEditable = !isLocked
            removeButton.isVisible = !isLocked
        }
    }
}
