import BillfoldCore
import BillfoldUI
import Foundation
import BillfoldUI
import GtkKit
import InvoicesCore

/// The client form: name, email, VAT and tax IDs, currency, payment terms, address, what its
/// e-invoices need, and private notes.
@MainActor
final class ClientEditor: FormWindow {
    private let repository: InvoiceRepository
    private let base: Client
    private let profile: BusinessProfile

    let nameRow = EntryRow(title: tr("Name"))
    let emailRow = EntryRow(title: tr("Email"))
    let taxIDRow = EntryRow(title: tr("Tax ID"))
    let vatIDRow = EntryRow(title: tr("VAT ID"))
    let postcodeRow = EntryRow(title: tr("Postcode"))
    let cityRow = EntryRow(title: tr("Town"))
    let countryRow = CountryRow(title: tr("Country"))
    let formatRow = ComboRow(title: tr("Send E-Invoices"), choices: [tr("No, a PDF is enough")] + EInvoiceFormat.allCases.map(\.title))
    let buyerReferenceRow = EntryRow(title: tr("Client’s Reference (e.g. Leitweg-ID)"))
    let electronicAddressRow = EntryRow(title: tr("E-Invoice Address (empty: the email)"))
    let currencyRow: CurrencyRow
    let termsRow = EntryRow(title: tr("Payment Terms (days)"))
    let addressView = TextView()
    let notesView = TextView()
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let saveButton = Button(label: tr("_Save"))

    var onSaved: (@MainActor (Client) -> Void)?
    var onClosed: (@MainActor () -> Void)?

    init(repository: InvoiceRepository, client: Client?, parent: Window?, profile: BusinessProfile) {
        self.repository = repository
        self.profile = profile
        base = client ?? Client(name: "", currency: profile.defaultCurrency)
        currencyRow = CurrencyRow(title: tr("Currency"), currency: base.currency)
        super.init()
        makeForm(title: client == nil ? tr("New Client") : tr("Edit Client"), over: parent, width: 520, height: 640,
                 submitButton: saveButton, submit: { [weak self] in self?.save() },
                 values: { [weak self] in self?.formValues ?? [] })
        self.onCloseRequest { [weak self] in
            self?.onClosed?()
            return false
        }

        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        saveButton.onClicked { [weak self] in self?.save() }
        let header = HeaderBar(dialogTitle: self.title ?? "", cancel: cancel, action: saveButton)

        let group = PreferencesGroup()
        nameRow.text = base.name
        emailRow.text = base.email
        taxIDRow.text = base.taxID
        termsRow.text = base.paymentTermsDays.map(String.init) ?? ""
        termsRow.title = String(format: tr("Payment Terms in Days (empty: %d)"), profile.paymentTermsDays)
        vatIDRow.text = base.vatID
        postcodeRow.text = base.postcode
        cityRow.text = base.city
        countryRow.code = base.countryCode
        formatRow.selectedIndex = base.eInvoiceFormat.flatMap { EInvoiceFormat.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        buyerReferenceRow.text = base.buyerReference
        electronicAddressRow.text = base.electronicAddress
        for row in [nameRow, emailRow, taxIDRow, termsRow, vatIDRow, postcodeRow, cityRow, buyerReferenceRow, electronicAddressRow] {
            row.onChanged { [weak self] in self?.edited() }
        }
        submitsOnReturn([nameRow, emailRow, taxIDRow, termsRow, vatIDRow, postcodeRow, cityRow, buyerReferenceRow,
                         electronicAddressRow])
        for row in [countryRow.row, formatRow] { row.onSelectionChanged { [weak self] in self?.edited() } }
        group.add(nameRow)
        group.add(emailRow)
        group.add(vatIDRow)
        group.add(taxIDRow)
        group.add(currencyRow)
        group.add(termsRow)
        let place = PreferencesGroup()
        for row in [postcodeRow, cityRow, countryRow.row] { place.add(row) }
        let eInvoices = PreferencesGroup(title: tr("E-Invoices"), description: tr("What the client’s accounting system needs to read your invoices."))
        for row in [formatRow, buyerReferenceRow, electronicAddressRow] { eInvoices.add(row) }

        let content = Box(.vertical, spacing: 18)
        content.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        errorLabel.xAlign = 0
        content.append(Box(.vertical, spacing: 6, children: [group, errorLabel]))
        for (caption, view, text) in [(tr("Address"), addressView, base.address), (tr("Private Notes"), notesView, base.notes)] {
            view.text = text
            content.append(TextArea(caption: caption, lines: view === addressView ? 4 : 3, textView: view).widget)
            if view === addressView {
                content.append(place)
                content.append(eInvoices)
            }
        }
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 560))
        scroller.expandsVertically = true
        self.content = Box(.vertical, children: [header, scroller])
        validate()
    }

    override func present() {
        super.present()
        _ = nameRow.grabFocus()
    }

    /// What the fields hold, to tell whether closing loses anything.
    private var formValues: [String] {
        [nameRow.text, emailRow.text, taxIDRow.text, vatIDRow.text, postcodeRow.text, cityRow.text, countryRow.code,
         String(formatRow.selectedIndex ?? -1), buyerReferenceRow.text, electronicAddressRow.text, currencyRow.currency.code,
         termsRow.text, addressView.text, notesView.text]
    }

    /// The client as typed, or why it cannot be saved.
    private func read() -> Result<Client, ParseFailure> {
        var client = base
        client.name = nameRow.text
        client.email = emailRow.text.trimmingCharacters(in: .whitespaces)
        client.taxID = taxIDRow.text.trimmingCharacters(in: .whitespaces)
        client.currency = currencyRow.currency
        client.address = addressView.text
        client.notes = notesView.text
        client.vatID = vatIDRow.text.trimmingCharacters(in: .whitespaces)
        client.postcode = postcodeRow.text.trimmingCharacters(in: .whitespaces)
        client.city = cityRow.text.trimmingCharacters(in: .whitespaces)
        client.countryCode = countryRow.code
        client.eInvoiceFormat = formatRow.selectedIndex.flatMap { $0 > 0 ? EInvoiceFormat.allCases[$0 - 1] : nil }
        client.buyerReference = buyerReferenceRow.text.trimmingCharacters(in: .whitespaces)
        client.electronicAddress = electronicAddressRow.text.trimmingCharacters(in: .whitespaces)
        let terms = termsRow.text.trimmingCharacters(in: .whitespaces)
        if terms.isEmpty {
            client.paymentTermsDays = nil
        } else if let days = Int(terms) {
            client.paymentTermsDays = days
        } else {
            return .failure(ParseFailure(message: tr("Enter the payment terms as a whole number of days, or leave them empty.")))
        }
        if let issue = client.validate().first { return .failure(ParseFailure(message: issue.message)) }
        return .success(client)
    }

    /// Problems show once the form was edited or Save was tried, not on a form just opened.
    private var showsProblems = false

    private func edited() {
        showsProblems = true
        validate()
    }

    @discardableResult
    func validate() -> Bool {
        switch read() {
        case .success:
            errorLabel.isVisible = false
            saveButton.isSensitive = true
            return true
        case .failure(let failure):
            errorLabel.text = failure.message
            errorLabel.isVisible = showsProblems || base.id != nil
            saveButton.isSensitive = false
            return false
        }
    }

    @discardableResult
    func save() -> Client? {
        showsProblems = true
        guard validate(), case .success(let client) = read() else { return nil }
        do {
            let saved = try repository.save(client)
            onSaved?(saved)
            closeAfterSubmitting()
            return saved
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
            return nil
        }
    }
}
