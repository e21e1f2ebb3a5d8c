import BillfoldCore
import BillfoldUI
import ExpensesCore
import Foundation
import GObjectCore
import GtkKit

/// Add Expense and Edit Expense: date, category, vendor, the amount (or a distance at a rate for
/// mileage) in any currency with the exchange rate when it is not the trip's, notes, and a
/// receipt chosen or dropped. Every field is checked as it is typed.
@MainActor
public final class ExpenseDialog: FormWindow {
    private let repository: ExpenseRepository
    private let trip: Trip
    private let editing: Expense?
    private let moneyFormatter = MoneyFormatter()
    private let numbers = NumberFormatting()
    private let categories = ExpenseCategory.allCases
    private let units = DistanceUnit.allCases

    let dateRow = EntryRow(title: tr("Date"))
    let categoryRow: ComboRow
    let vendorRow = EntryRow(title: tr("Vendor"))
    let amountRow = EntryRow(title: tr("Amount"))
    let currencyRow: CurrencyRow
    let rateRow = EntryRow(title: tr("Exchange Rate"))
    let distanceRow = EntryRow(title: tr("Distance"))
    let unitRow: ComboRow
    let mileageRateRow = EntryRow(title: tr("Rate per Unit of Distance"))
    let notesRow = EntryRow(title: tr("Notes"))
    let receiptRow = ActionRow(title: tr("Receipt"))
    let receiptPicture = PixelPicture()
    let receiptIcon = Image(iconName: "mail-attachment-symbolic", pixelSize: 32)
    let removeReceiptButton = Button(iconName: "edit-delete-symbolic", accessibleLabel: tr("Remove Receipt"))
    let chooseReceiptButton = Button(label: tr("_Choose File…"))
    let viewReceiptButton = Button(iconName: "view-reveal-symbolic", accessibleLabel: tr("View Receipt"))
    /// The receipt window last opened, for tests.
    private(set) weak var receiptViewer: ReceiptViewer?
    let convertedLabel = Label("", style: "dim-label")
    /// What was read from an e-invoice, or why nothing could be; hidden for a typed-in expense.
    let importNote = Label("")
    let vatGroup = PreferencesGroup(title: tr("VAT from the Invoice"),
                                    description: tr("As the supplier’s invoice states it, per rate"))
    let removeVATButton = Button(label: tr("_Remove VAT"))
    let vatMessage = Label("")
    private var vatRows: [Widget] = []
    /// The VAT per rate from the supplier's invoice; empty for a typed-in expense.
    public private(set) var vat: [ExpenseVAT] = []

    let dateMessage = Label("")
    let vendorError = Label("", style: "error")
    let amountError = Label("", style: "error")
    let receiptMessage = Label("", style: "error")
    let saveError = Label("", style: "error")
    public let saveButton: Button
    private(set) var dropTarget: FileDropTarget!

    /// The attached receipt, if any.
    public private(set) var receipt: ReceiptReference?
    /// True while a chosen or dropped file is copied into the store and checked.
    public private(set) var isImporting = false
    /// The file chooser last opened, for tests.
    private(set) var receiptChooser: FileChooser?
    private var touched: Set<ExpenseField> = []
    private var triedToSave = false

    var onSaved: (@MainActor (Expense) -> Void)?

    /// A new expense starts from `draft` when given (read from an e-invoice, say), with `note`
    /// saying where it came from; `noteIsWarning` shows the note as a problem.
    init(repository: ExpenseRepository, trip: Trip, editing: Expense?, parent: Window?,
         draft: ExpenseDetails? = nil, note: String? = nil, noteIsWarning: Bool = false) {
        self.repository = repository
        self.trip = trip
        self.editing = editing
        categoryRow = ComboRow(title: tr("Category"), choices: categories.map(\.localizedName))
        currencyRow = CurrencyRow(title: tr("Currency"), currency: trip.currency)
        unitRow = ComboRow(title: tr("Unit"), choices: units.map(\.localizedName))
        saveButton = Button(label: editing == nil ? tr("_Add") : tr("_Save"))
        super.init()
        makeForm(title: editing == nil ? tr("Add Expense") : tr("Edit Expense"), over: parent, width: 520, height: 720,
                 submitButton: saveButton, submit: { [weak self] in self?.save() },
                 values: { [weak self] in self?.formValues ?? [] })

        let cancel = Button(label: tr("_Cancel"))
        let header = HeaderBar(dialogTitle: self.title ?? "", subtitle: trip.name, cancel: cancel, action: saveButton)

        let whatGroup = PreferencesGroup()
        whatGroup.add(dateRow)
        whatGroup.add(categoryRow)
        whatGroup.add(vendorRow)
        let costGroup = PreferencesGroup(title: tr("Cost"))
        for row in [amountRow, distanceRow] { costGroup.add(row) }
        costGroup.add(unitRow)
        costGroup.add(mileageRateRow)
        costGroup.add(currencyRow)
        costGroup.add(rateRow)
        let notesGroup = PreferencesGroup()
        notesGroup.add(notesRow)
        let receiptGroup = PreferencesGroup(title: tr("Receipt"),
                                            description: tr("A JPEG, PNG or WebP photo or a PDF; you can also drop the file here"))
        receiptPicture.setSizeRequest(width: 48, height: 48)
        receiptRow.addPrefix(receiptPicture)
        receiptRow.addPrefix(receiptIcon)
        chooseReceiptButton.align(vertical: .center)
        removeReceiptButton.align(vertical: .center)
        removeReceiptButton.addCssClass("flat")
        removeReceiptButton.tooltip = tr("Remove Receipt")
        viewReceiptButton.align(vertical: .center)
        viewReceiptButton.addCssClass("flat")
        viewReceiptButton.tooltip = tr("View Receipt")
        receiptRow.addSuffix(viewReceiptButton)
        receiptRow.addSuffix(chooseReceiptButton)
        receiptRow.addSuffix(removeReceiptButton)
        receiptGroup.add(receiptRow)

        removeVATButton.addCssClass("flat")
        removeVATButton.tooltip = tr("Forget the VAT read from the invoice")
        vatGroup.setHeaderSuffix(removeVATButton)
        vatGroup.setMargins(top: 12, bottom: 0, start: 0, end: 0)
        importNote.setCssClass(noteIsWarning ? "warning" : "dim-label", enabled: true)
        importNote.text = note ?? ""
        importNote.isVisible = note != nil
        let content = Box(.vertical, spacing: 6, children: [
            importNote, whatGroup, dateMessage, vendorError, costGroup, convertedLabel, amountError, vatGroup, vatMessage,
            notesGroup, receiptGroup, receiptMessage, saveError,
        ])
        for label in [importNote, dateMessage, vendorError, convertedLabel, amountError, vatMessage, receiptMessage, saveError] {
            label.xAlign = 0
            label.setMargins(top: 0, bottom: 6, start: 12, end: 12)
        }
        for label in [dateMessage, vendorError, amountError, receiptMessage, saveError] { label.isVisible = false }
        for group in [costGroup, notesGroup, receiptGroup] { group.setMargins(top: 12, bottom: 0, start: 0, end: 0) }
        content.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 560))
        scroller.expandsVertically = true
        let body = Box(.vertical, children: [header, scroller])
        self.content = body
        dropTarget = FileDropTarget(attachedTo: body)

        let details = editing?.details ?? draft ?? ExpenseDetails.draft(for: trip.details)
        load(details)
        removeVATButton.onClicked { [weak self] in self?.setVAT([]) }

        cancel.onClicked { [weak self] in self?.close() }
        saveButton.onClicked { [weak self] in self?.save() }
        let fields: [(EntryRow, ExpenseField)] = [
            (dateRow, .date), (vendorRow, .vendor), (amountRow, .amount), (rateRow, .exchangeRate),
            (distanceRow, .distance), (mileageRateRow, .mileageRate), (notesRow, .notes),
        ]
        for (row, field) in fields {
            row.onChanged { [weak self] in
                guard let self else { return }
                self.touched.insert(field)
                self.check()
            }
        }
        submitsOnReturn(fields.map(\.0))
        for combo in [categoryRow, unitRow] {
            combo.onSelectionChanged { [weak self] in self?.check() }
        }
        currencyRow.onChanged { [weak self] in self?.check() }
        chooseReceiptButton.onClicked { [weak self] in self?.chooseReceipt() }
        removeReceiptButton.onClicked { [weak self] in self?.setReceipt(nil) }
        viewReceiptButton.onClicked { [weak self] in self?.viewReceipt() }
        dropTarget.onDrop { [weak self] path in
            guard let self else { return false }
            guard let path else {
                self.show(self.receiptMessage, tr("Only files on this computer can be attached. Save the receipt to a folder first."))
                return false
            }
            self.importReceipt(from: URL(fileURLWithPath: path))
            return true
        }
        check()
    }

    public override func present() {
        super.present()
        _ = (editing == nil ? vendorRow : dateRow).grabFocus()
    }

    private func load(_ details: ExpenseDetails) {
        dateRow.text = details.date.formatted(.short)
        categoryRow.selectedIndex = categories.firstIndex(of: details.category)
        vendorRow.text = details.vendor
        currencyRow.currency = details.cost.currency
        switch details.cost {
        case .amount(let money):
            amountRow.text = money.minorUnits == 0 ? "" : moneyFormatter.string(from: money, showSymbol: false)
            unitRow.selectedIndex = 0
        case .mileage(let mileage):
            distanceRow.text = numbers.string(from: mileage.distance)
            unitRow.selectedIndex = units.firstIndex(of: mileage.unit)
            mileageRateRow.text = numbers.string(from: mileage.ratePerUnit)
        }
        rateRow.text = details.exchangeRate.map { numbers.string(from: $0) } ?? ""
        notesRow.text = details.notes
        receipt = details.receipt
        showReceipt()
        setVAT(details.vat, checking: false)
    }

    /// Shows one row per rate: "19 % · Standard rate", "on €100.00", and the VAT.
    private func setVAT(_ lines: [ExpenseVAT], checking: Bool = true) {
        vat = lines
        for row in vatRows { vatGroup.remove(row) }
        vatRows = lines.map { line in
            let title = line.rate == nil ? line.localizedCategory
                : String(format: tr("%@ · %@"), line.rateText(numbers), line.localizedCategory)
            let row = ActionRow(title: title, subtitle: String(format: tr("on %@"), moneyFormatter.string(from: line.taxableAmount)))
            let amount = Label(moneyFormatter.string(from: line.taxAmount), wraps: false)
            amount.addCssClass("numeric")
            row.addSuffix(amount)
            return row
        }
        for row in vatRows { vatGroup.add(row) }
        vatGroup.isVisible = !lines.isEmpty
        if checking { check() }
    }

    // MARK: Checking

    private var selectedCategory: ExpenseCategory {
        categoryRow.selectedIndex.flatMap { categories.indices.contains($0) ? categories[$0] : nil } ?? .other
    }

    private var selectedCurrency: Currency { currencyRow.currency }

    /// What the fields hold, to tell whether closing loses anything.
    private var formValues: [String] {
        [dateRow.text, String(categoryRow.selectedIndex ?? -1), vendorRow.text, amountRow.text, currencyRow.currency.code,
         rateRow.text, distanceRow.text, String(unitRow.selectedIndex ?? -1), mileageRateRow.text, notesRow.text,
         receipt.map { "\($0)" } ?? "", String(vat.count)]
    }

    private var selectedUnit: DistanceUnit {
        unitRow.selectedIndex.flatMap { units.indices.contains($0) ? units[$0] : nil } ?? .kilometres
    }

    /// The details typed so far when they can be saved; shows each problem beside its field.
    @discardableResult
    func check() -> ExpenseDetails? {
        let category = selectedCategory
        let currency = selectedCurrency
        let isMileage = category == .mileage
        let isConverted = currency != trip.currency
        amountRow.isVisible = !isMileage
        distanceRow.isVisible = isMileage
        unitRow.isVisible = isMileage
        mileageRateRow.isVisible = isMileage
        rateRow.isVisible = isConverted
        mileageRateRow.title = String(format: tr("Rate per %@ in %@"), selectedUnit.localizedSymbol, currency.code)
        rateRow.title = String(format: tr("Exchange rate: %@ for 1 %@"), trip.currency.code, currency.code)
        amountRow.title = String(format: tr("Amount in %@"), currency.code)

        var messages: [ExpenseField: String] = [:]
        var date: CalendarDay?
        do { date = try CalendarDay.parse(dateRow.text) } catch { messages[.date] = error.localizedDescription }
        var cost: ExpenseCost?
        if isMileage {
            var distance: Decimal?
            var rate: Decimal?
            do { distance = try numbers.decimal(from: distanceRow.text) } catch {
                messages[.distance] = String(format: tr("Distance: %@"), error.localizedDescription)
            }
            do { rate = try numbers.decimal(from: mileageRateRow.text) } catch {
                messages[.mileageRate] = String(format: tr("Rate: %@"), error.localizedDescription)
            }
            if let distance, let rate {
                cost = .mileage(Mileage(distance: distance, unit: selectedUnit, ratePerUnit: rate, currency: currency))
            }
        } else {
            do { cost = .amount(try moneyFormatter.money(from: amountRow.text, currency: currency)) } catch {
                messages[.amount] = error.localizedDescription
            }
        }
        var exchangeRate: Decimal?
        if isConverted, !rateRow.text.trimmingCharacters(in: .whitespaces).isEmpty {
            do { exchangeRate = try numbers.decimal(from: rateRow.text) } catch {
                messages[.exchangeRate] = String(format: tr("Exchange rate: %@"), error.localizedDescription)
            }
        }

        var details: ExpenseDetails?
        // Shown as soon as the date reads, whatever else is still missing.
        let warning = date.flatMap { date in
            trip.days.contains(date) ? nil : ExpenseWarning.dateOutsideTrip(date: date, trip: trip.days).localizedDescription
        }
        convertedLabel.isVisible = false
        if let date, let cost {
            let candidate = ExpenseDetails(date: date, category: category, vendor: vendorRow.text, cost: cost,
                                           exchangeRate: isConverted ? exchangeRate : nil, notes: notesRow.text,
                                           receipt: receipt, vat: vat)
            let result = candidate.check(for: trip.details)
            for error in result.errors where messages[error.field] == nil {
                messages[error.field] = error.localizedDescription
            }
            if messages.isEmpty, let amounts = result.amounts {
                details = candidate
                if amounts.isConverted || isMileage {
                    convertedLabel.text = String(format: tr("Claimed: %@"), moneyFormatter.string(from: amounts.converted))
                    convertedLabel.isVisible = true
                }
            }
        } else if category != .mileage, vendorRow.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            messages[.vendor] = ExpenseValidationError.emptyVendor.localizedDescription
        }

        func visible(_ field: ExpenseField) -> String? {
            triedToSave || touched.contains(field) ? messages[field] : nil
        }
        // A date outside the trip is a warning: it shows, and saving stays possible.
        if let error = visible(.date) {
            show(dateMessage, error)
            dateMessage.setCssClass("error", enabled: true)
            dateMessage.setCssClass("warning", enabled: false)
        } else {
            show(dateMessage, warning)
            dateMessage.setCssClass("error", enabled: false)
            dateMessage.setCssClass("warning", enabled: warning != nil)
        }
        show(vendorError, visible(.vendor))
        // VAT problems show at once: the VAT came from the invoice, not from typing.
        let vatWarning = messages[.vat] == nil && details != nil
            ? details?.warnings(for: trip.details).first { $0.field == .vat }?.localizedDescription : nil
        show(vatMessage, messages[.vat] ?? vatWarning)
        vatMessage.setCssClass("error", enabled: messages[.vat] != nil)
        vatMessage.setCssClass("warning", enabled: messages[.vat] == nil && vatWarning != nil)
        let costMessages = [ExpenseField.category, .amount, .distance, .mileageRate, .exchangeRate].compactMap(visible)
        show(amountError, costMessages.isEmpty ? nil : costMessages.joined(separator: "\n"))
        dateRow.setCssClass("error", enabled: visible(.date) != nil)
        vendorRow.setCssClass("error", enabled: visible(.vendor) != nil)
        amountRow.setCssClass("error", enabled: visible(.amount) != nil)
        rateRow.setCssClass("error", enabled: visible(.exchangeRate) != nil)
        distanceRow.setCssClass("error", enabled: visible(.distance) != nil)
        mileageRateRow.setCssClass("error", enabled: visible(.mileageRate) != nil)
        saveButton.isSensitive = details != nil && !isImporting
        return details
    }

    /// The messages shown, for tests.
    var visibleMessages: [String] {
        [importNote, dateMessage, vendorError, amountError, vatMessage, receiptMessage, saveError].filter(\.isVisible).map(\.text)
    }

    // MARK: Receipt

    /// Opens the file chooser for a receipt.
    @discardableResult
    func chooseReceipt() -> FileChooser {
        let chooser = FileChooser(title: tr("Choose a Receipt"), parent: self, acceptLabel: tr("_Attach"), filters: [
            FileFilter(name: tr("Receipts (JPEG, PNG, WebP, PDF)"),
                       suffixes: ["jpg", "jpeg", "png", "webp", "pdf"]),
        ])
        receiptChooser = chooser
        chooser.open { [weak self] path in
            guard let self, let path else { return }
            self.importReceipt(from: URL(fileURLWithPath: path))
        }
        return chooser
    }

    /// Copies the file into the receipt store and checks that it can be shown, off the main
    /// thread; a damaged picture is refused with a message saying so.
    func importReceipt(from url: URL) {
        isImporting = true
        show(receiptMessage, nil)
        receiptRow.subtitle = tr("Attaching…")
        check()
        let repository = self.repository
        Task { [weak self] in
            let result = await Task.detached { () -> Result<(ReceiptImport, ReceiptThumbnail?), any Error> in
                do {
                    let imported = try repository.importReceipt(from: url)
                    guard imported.reference.kind.isImage else { return .success((imported, nil)) }
                    do {
                        return .success((imported, try repository.receipts.thumbnail(for: imported.reference, maxPixelSize: 96)))
                    } catch ReceiptError.noDecoder {
                        return .success((imported, nil))
                    } catch {
                        // The header looked right but the picture cannot be decoded.
                        return .failure(ReceiptError.damaged(fileName: url.lastPathComponent, kind: imported.reference.kind))
                    }
                } catch {
                    return .failure(error)
                }
            }.value
            guard let self else { return }
            self.isImporting = false
            switch result {
            case .success(let (imported, thumbnail)):
                self.setReceipt(imported.reference, thumbnail: thumbnail, name: url.lastPathComponent)
            case .failure(let error):
                self.showReceipt()
                self.show(self.receiptMessage, error.localizedDescription)
                self.check()
            }
        }
    }

    private func setReceipt(_ reference: ReceiptReference?, thumbnail: ReceiptThumbnail? = nil, name: String? = nil) {
        receipt = reference
        show(receiptMessage, nil)
        showReceipt(thumbnail: thumbnail, name: name)
        check()
    }

    private func showReceipt(thumbnail: ReceiptThumbnail? = nil, name: String? = nil) {
        removeReceiptButton.isVisible = receipt != nil
        viewReceiptButton.isVisible = false
        chooseReceiptButton.label = receipt == nil ? tr("_Choose File…") : tr("_Replace…")
        receiptPicture.setPixels(width: thumbnail?.width ?? 0, height: thumbnail?.height ?? 0,
                                 rowStride: thumbnail?.rowStride ?? 0, hasAlpha: thumbnail?.hasAlpha ?? false,
                                 pixels: thumbnail?.pixels)
        guard let receipt else {
            receiptRow.subtitle = tr("None")
            receiptIcon.iconName = "mail-attachment-symbolic"
            receiptPicture.isVisible = false
            receiptIcon.isVisible = true
            return
        }
        let info = try? repository.receiptInfo(for: receipt)
        let shownName = name ?? info?.originalName ?? receipt.kind.displayName
        if case .missing = repository.receiptStatus(receipt) {
            receiptRow.subtitle = tr("The receipt file is missing. Attach it again.")
            receiptIcon.iconName = "dialog-warning-symbolic"
            receiptPicture.isVisible = false
            receiptIcon.isVisible = true
            return
        }
        receiptRow.subtitle = shownName
        viewReceiptButton.isVisible = true
        if thumbnail != nil {
            receiptPicture.isVisible = true
            receiptIcon.isVisible = false
        } else {
            receiptIcon.iconName = receipt.kind.isImage ? "image-x-generic-symbolic" : "x-office-document-symbolic"
            receiptPicture.isVisible = false
            receiptIcon.isVisible = true
            if receipt.kind.isImage, editing != nil { loadThumbnail(receipt, name: shownName) }
        }
    }

    /// Opens the attached photo at a readable size, or every page of a PDF receipt.
    @discardableResult
    func viewReceipt() -> ReceiptViewer? {
        guard let receipt else { return nil }
        let viewer = ReceiptViewer(reference: receipt, name: receiptRow.subtitle ?? receipt.kind.displayName,
                                   store: repository.receipts, parent: self)
        receiptViewer = viewer
        viewer.present()
        return viewer
    }

    private func loadThumbnail(_ reference: ReceiptReference, name: String) {
        let store = repository.receipts
        Task { [weak self] in
            let thumbnail = await Task.detached { try? store.thumbnail(for: reference, maxPixelSize: 96) }.value
            guard let self, let thumbnail, self.receipt == reference else { return }
            self.showReceipt(thumbnail: thumbnail, name: name)
        }
    }

    // MARK: Saving

    /// Adds or saves the expense; a refusal is shown in the dialog.
    @discardableResult
    public func save() -> Expense? {
        triedToSave = true
        guard !isImporting, let details = check() else { return nil }
        do {
            let saved: Expense
            if var editing {
                editing.details = details
                saved = try repository.updateExpense(editing)
            } else {
                saved = try repository.addExpense(details, to: trip.id)
            }
            closeAfterSubmitting()
            onSaved?(saved)
            return saved
        } catch {
            show(saveError, error.localizedDescription)
            return nil
        }
    }

    private func show(_ label: Label, _ message: String?) {
        label.text = message ?? ""
        label.isVisible = message != nil
    }
}
