import BillfoldCore
import Foundation
import BillfoldUI
import GtkKit

/// The client form: name, email, VAT and tax IDs, currency, payment terms, address, what its
/// e-invoices need, and private notes.
@MainActor
final class ClientEditor: AdwaitaWindow {
    private let repository: InvoiceRepository
    private let base: Client
    private let currencies = Currency.all
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
    let currencyRow: ComboRow
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
        currencyRow = ComboRow(title: tr("Currency"), choices: currencies.map(\.choiceTitle))
        super.init()
        makeDialog(title: client == nil ? tr("New Client") : tr("Edit Client"), over: parent, width: 520, height: 640)
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
        currencyRow.selectedIndex = currencies.firstIndex(of: base.currency)
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
            row.onChanged { [weak self] in self?.validate() }
        }
        for row in [countryRow.row, formatRow] { row.onSelectionChanged { [weak self] in self?.validate() } }
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

    /// The client as typed, or why it cannot be saved.
    private func read() -> Result<Client, ParseFailure> {
        var client = base
        client.name = nameRow.text
        client.email = emailRow.text.trimmingCharacters(in: .whitespaces)
        client.taxID = taxIDRow.text.trimmingCharacters(in: .whitespaces)
        client.currency = currencyRow.selectedIndex.map { currencies[$0] } ?? base.currency
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

    @discardableResult
    func validate() -> Bool {
        switch read() {
        case .success:
            errorLabel.isVisible = false
            saveButton.isSensitive = true
            return true
        case .failure(let failure):
            // An empty name on a new form is not an error yet, only a reason Save is off.
            errorLabel.text = failure.message
            errorLabel.isVisible = !(nameRow.text.isEmpty && base.id == nil)
            saveButton.isSensitive = false
            return false
        }
    }

    @discardableResult
    func save() -> Client? {
        guard case .success(let client) = read() else { return nil }
        do {
            let saved = try repository.save(client)
            onSaved?(saved)
            self.close()
            return saved
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
            return nil
        }
    }
}
