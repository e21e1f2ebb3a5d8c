import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The business profile as a page of the Preferences window. Like every GNOME preferences
/// page it applies what is typed at once: each valid change is saved; an invalid one says why
/// under its group and is not saved until it is fixed.
@MainActor
final class BusinessProfileView {
    private let repository: InvoiceRepository
    private let parent: @MainActor () -> Window?
    private let numbers = NumberFormatting()
    private(set) var profile: BusinessProfile
    /// Why the saved profile could not be read. The page then says so and saves nothing, so a
    /// read error never turns into an empty profile written over the real one.
    private(set) var readProblem: String?
    private var isLoading = false

    let nameRow = EntryRow(title: tr("Business Name"))
    let emailRow = EntryRow(title: tr("Email"))
    let phoneRow = EntryRow(title: tr("Phone"))
    let vatIDRow = EntryRow(title: tr("VAT ID"))
    let taxIDRow = EntryRow(title: tr("Tax Number"))
    let contactRow = EntryRow(title: tr("Contact Person"))
    let addressView = TextView()
    let postcodeRow = EntryRow(title: tr("Postcode"))
    let cityRow = EntryRow(title: tr("Town"))
    let countryRow = CountryRow(title: tr("Country"))
    let electronicAddressRow = EntryRow(title: tr("E-Invoice Address (empty: your email)"))
    let categoryRow = VATCategoryRow(title: tr("VAT of New Lines"))
    let exemptionRow = EntryRow(title: tr("VAT Exemption Reason"))
    let ibanRow = EntryRow(title: tr("IBAN"))
    let bicRow = EntryRow(title: tr("BIC"))
    let paymentCodeSwitch = Switch()
    let bankView = TextView()
    let currencyRow: CurrencyRow
    let termsRow = EntryRow(title: tr("Payment Terms in Days"))
    let taxRow = EntryRow(title: tr("Default Tax Rate %"))
    let patternRow = EntryRow(title: tr("Number Pattern"))
    let quotePatternRow = EntryRow(title: tr("Quote Number Pattern"))
    let creditNotePatternRow = EntryRow(title: tr("Credit Note Number Pattern"))
    let notesView = TextView()
    let instructionsView = TextView()
    let logoRow = ActionRow(title: tr("Logo"))
    let chooseLogoButton = Button(label: tr("_Choose…"))
    let removeLogoButton = Button(iconName: "user-trash-symbolic", accessibleLabel: tr("Remove Logo"))
    let errorLabel = Label("", wraps: true, style: "inline-error")
    private(set) var chooser: FileChooser?
    /// After each save, e.g. so the invoice preview shows the new seller block.
    var onSaved: (@MainActor () -> Void)?

    init(repository: InvoiceRepository, parent: @escaping @MainActor () -> Window?) {
        self.repository = repository
        self.parent = parent
        do {
            profile = try repository.profile()
        } catch {
            profile = .initial()
            readProblem = error.localizedDescription
        }
        currencyRow = CurrencyRow(title: tr("Default Currency"), currency: profile.defaultCurrency)
    }

    func makePage() -> PreferencesPage {
        let page = PreferencesPage(title: tr("Business"), iconName: "x-office-document-symbolic")
        page.name = BusinessProfile.preferencesPageName
        if let readProblem {
            page.add(PreferencesGroup(title: tr("The Business Profile Could Not Be Read"),
                                      description: String(format: tr("%@ Nothing was changed. Close Billfold and open it again; if the problem stays, restore a backup when Billfold offers one."), readProblem)))
            return page
        }

        let business = PreferencesGroup(title: tr("Your Business"), description: tr("Printed at the top of every invoice."))
        for row in [nameRow, contactRow, emailRow, phoneRow, vatIDRow, taxIDRow] { business.add(row) }
        business.add(textRow(tr("Address"), addressView, lines: 4))
        errorLabel.xAlign = 0
        errorLabel.isVisible = false
        errorLabel.setMargins(top: 6, bottom: 0, start: 0, end: 0)
        business.add(errorLabel)
        page.add(business)
        // Its own group, so the rows sit under the address (a group shows its rows before other widgets).
        let place = PreferencesGroup()
        for row in [postcodeRow, cityRow, countryRow.row] { place.add(row) }
        page.add(place)

        let logo = PreferencesGroup(title: tr("Logo"), description: tr("A PNG or JPEG image, shown beside your name."))
        chooseLogoButton.align(vertical: .center)
        removeLogoButton.align(vertical: .center)
        removeLogoButton.addCssClass("flat")
        logoRow.addSuffix(removeLogoButton)
        logoRow.addSuffix(chooseLogoButton)
        chooseLogoButton.onClicked { [weak self] in self?.chooseLogo() }
        removeLogoButton.onClicked { [weak self] in
            guard let self else { return }
            self.profile.logoFileName = nil
            self.store()
        }
        logo.add(logoRow)
        page.add(logo)

        let bank = PreferencesGroup(title: tr("Payment Details"), description: tr("Where clients send the money."))
        bank.add(ibanRow)
        bank.add(bicRow)
        bank.add(textRow(tr("Other Account Details"), bankView))
        bank.add(textRow(tr("Payment Instructions"), instructionsView))
        let paymentCodeRow = ActionRow(title: tr("Payment QR Code"),
                                       subtitle: tr("On euro invoices, a code banking apps scan to fill in the transfer."))
        paymentCodeSwitch.accessibleLabel = tr("Payment QR Code")
        paymentCodeRow.addSuffix(paymentCodeSwitch)
        paymentCodeRow.activates(paymentCodeSwitch)
        bank.add(paymentCodeRow)
        page.add(bank)

        let defaults = PreferencesGroup(title: tr("New Invoices"))
        defaults.add(currencyRow)
        defaults.add(termsRow)
        defaults.add(categoryRow.row)
        defaults.add(taxRow)
        defaults.add(exemptionRow)
        defaults.add(patternRow)
        defaults.add(textRow(tr("Default Notes"), notesView))
        page.add(defaults)

        let otherNumbers = PreferencesGroup(title: tr("Quotes and Credit Notes"),
                                            description: tr("Each has its own numbers, counted without gaps, like the invoices’."))
        otherNumbers.add(quotePatternRow)
        otherNumbers.add(creditNotePatternRow)
        page.add(otherNumbers)

        let eInvoices = PreferencesGroup(title: tr("E-Invoices"),
                                         description: tr("Where clients’ systems send e-invoices and questions about them: an email address, or a Peppol ID like 0088:4012345000009."))
        eInvoices.add(electronicAddressRow)
        page.add(eInvoices)

        fill()
        taxRow.onChanged { [weak self] in self?.taxRateChanged() }
        for row in [nameRow, emailRow, phoneRow, taxIDRow, ibanRow, bicRow, termsRow, patternRow, quotePatternRow, creditNotePatternRow, vatIDRow,
                    contactRow, postcodeRow, cityRow, electronicAddressRow, exemptionRow] {
            row.onChanged { [weak self] in self?.changed() }
        }
        for view in [addressView, bankView, notesView, instructionsView] {
            view.onChanged { [weak self] in self?.changed() }
        }
        for row in [countryRow.row, categoryRow.row] {
            row.onSelectionChanged { [weak self] in self?.changed() }
        }
        currencyRow.onChanged { [weak self] in self?.changed() }
        paymentCodeSwitch.onToggled { [weak self] in self?.changed() }
        return page
    }

    /// A several-line field in a preferences group, as the client form has them.
    private func textRow(_ caption: String, _ view: TextView, lines: Int = 3) -> Widget {
        let area = TextArea(caption: caption, lines: lines, textView: view).widget
        area.setMargins(top: 12, bottom: 0, start: 0, end: 0)
        return area
    }

    private func fill() {
        isLoading = true
        nameRow.text = profile.name
        emailRow.text = profile.email
        phoneRow.text = profile.phone
        taxIDRow.text = profile.taxID
        addressView.text = profile.address
        ibanRow.text = profile.iban
        bicRow.text = profile.bic
        paymentCodeSwitch.isActive = profile.printsPaymentQRCode
        bankView.text = profile.bankDetails
        instructionsView.text = profile.paymentInstructions
        currencyRow.currency = profile.defaultCurrency
        termsRow.text = String(profile.paymentTermsDays)
        taxRow.text = numbers.string(from: profile.defaultTaxRate, maximumFractionDigits: 4)
        patternRow.text = profile.numberPattern
        quotePatternRow.text = profile.quoteNumberPattern
        creditNotePatternRow.text = profile.creditNoteNumberPattern
        notesView.text = profile.defaultNotes
        vatIDRow.text = profile.vatID
        contactRow.text = profile.contactName
        postcodeRow.text = profile.postcode
        cityRow.text = profile.city
        countryRow.code = profile.countryCode
        electronicAddressRow.text = profile.electronicAddress
        categoryRow.category = profile.defaultVATCategory
        exemptionRow.text = profile.defaultExemptionReason
        exemptionRow.isVisible = profile.defaultVATCategory == .exempt
        isLoading = false
        showLogo()
        showNextNumber()
    }

    private func showLogo() {
        logoRow.subtitle = profile.logoFileName == nil ? tr("None") : tr("Chosen")
        removeLogoButton.isVisible = profile.logoFileName != nil
    }

    private func showNextNumber() {
        patternRow.title = exampleTitle(tr("Number Pattern"), tr("Number Pattern (e.g. %@)"), pattern: profile.numberPattern)
        quotePatternRow.title = exampleTitle(tr("Quote Number Pattern"), tr("Quote Number Pattern (e.g. %@)"),
                                             pattern: profile.quoteNumberPattern)
        creditNotePatternRow.title = exampleTitle(tr("Credit Note Number Pattern"), tr("Credit Note Number Pattern (e.g. %@)"),
                                                  pattern: profile.creditNoteNumberPattern)
    }

    /// A pattern row's title with the number it gives first. An invalid pattern has no example:
    /// the title stays plain, and the profile's own check says why under the group.
    private func exampleTitle(_ title: String, _ withExample: String, pattern: String) -> String {
        do {
            return String(format: withExample, try InvoiceNumberPattern(pattern).number(counter: 1, on: .today()))
        } catch {
            return title
        }
    }

    /// Reads every field into a profile; nil and the reason when a number cannot be read,
    /// with the row that holds it.
    func read() -> (BusinessProfile?, (EntryRow, String)?) {
        var edited = profile
        edited.name = nameRow.text.trimmingCharacters(in: .whitespaces)
        edited.email = emailRow.text.trimmingCharacters(in: .whitespaces)
        edited.phone = phoneRow.text.trimmingCharacters(in: .whitespaces)
        edited.taxID = taxIDRow.text.trimmingCharacters(in: .whitespaces)
        edited.address = addressView.text
        edited.iban = ibanRow.text.trimmingCharacters(in: .whitespaces)
        edited.bic = bicRow.text.trimmingCharacters(in: .whitespaces)
        edited.bankDetails = bankView.text
        edited.paymentInstructions = instructionsView.text
        edited.printsPaymentQRCode = paymentCodeSwitch.isActive
        edited.defaultCurrency = currencyRow.currency
        edited.numberPattern = patternRow.text.trimmingCharacters(in: .whitespaces)
        edited.quoteNumberPattern = quotePatternRow.text.trimmingCharacters(in: .whitespaces)
        edited.creditNoteNumberPattern = creditNotePatternRow.text.trimmingCharacters(in: .whitespaces)
        edited.defaultNotes = notesView.text
        edited.vatID = vatIDRow.text.trimmingCharacters(in: .whitespaces)
        edited.contactName = contactRow.text.trimmingCharacters(in: .whitespaces)
        edited.postcode = postcodeRow.text.trimmingCharacters(in: .whitespaces)
        edited.city = cityRow.text.trimmingCharacters(in: .whitespaces)
        edited.countryCode = countryRow.code
        edited.electronicAddress = electronicAddressRow.text.trimmingCharacters(in: .whitespaces)
        edited.defaultVATCategory = categoryRow.category
        edited.defaultExemptionReason = exemptionRow.text.trimmingCharacters(in: .whitespaces)
        exemptionRow.isVisible = edited.defaultVATCategory == .exempt
        guard let terms = Int(termsRow.text.trimmingCharacters(in: .whitespaces)) else {
            return (nil, (termsRow, tr("Enter the payment terms as a whole number of days.")))
        }
        edited.paymentTermsDays = terms
        do {
            edited.defaultTaxRate = try numbers.percent(from: taxRow.text, maximumFractionDigits: 4)
        } catch {
            return (nil, (taxRow, String(format: tr("Default tax rate: %@"), error.localizedDescription)))
        }
        return (edited, nil)
    }

    private func changed() {
        guard !isLoading else { return }
        store()
    }

    /// Typing a rate moves new lines between standard and zero rate, so a profile started at
    /// 0 % does not keep zero-rating lines once a rate is entered.
    private func taxRateChanged() {
        guard !isLoading else { return }
        if let rate = try? numbers.percent(from: taxRow.text, maximumFractionDigits: 4) {
            isLoading = true
            if rate > 0, categoryRow.category == .zeroRated { categoryRow.category = .standard }
            if rate == 0, categoryRow.category == .standard { categoryRow.category = .zeroRated }
            isLoading = false
        }
        store()
    }

    private var rowsByField: [(BusinessProfileField, EntryRow)] {
        [(.name, nameRow), (.email, emailRow), (.iban, ibanRow), (.bic, bicRow), (.paymentTerms, termsRow),
         (.taxRate, taxRow), (.numberPattern, patternRow), (.quoteNumberPattern, quotePatternRow),
         (.creditNoteNumberPattern, creditNotePatternRow), (.vatID, vatIDRow), (.electronicAddress, electronicAddressRow)]
    }

    /// Saves the fields when they are valid; otherwise marks the field, says why, and keeps
    /// the saved profile.
    func store() {
        guard readProblem == nil else { return }
        let (edited, parseProblem) = read()
        let issues = edited?.validate() ?? []
        for (field, row) in rowsByField {
            row.setCssClass("error", enabled: parseProblem?.0 === row || issues.contains { $0.field == field })
        }
        guard var edited, issues.isEmpty else {
            errorLabel.text = parseProblem?.1 ?? issues.map(\.message).joined(separator: "\n")
            errorLabel.isVisible = true
            return
        }
        edited.logoFileName = profile.logoFileName
        do {
            try repository.saveProfile(edited)
            profile = edited
            onSaved?()
            errorLabel.isVisible = false
            showLogo()
            showNextNumber()
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
        }
    }

    private func chooseLogo() {
        let chooser = FileChooser(title: tr("Choose a Logo"), parent: parent(), acceptLabel: tr("_Choose"),
                                  filters: [FileFilter(name: tr("PNG or JPEG images"), suffixes: ["png", "jpg", "jpeg"])])
        self.chooser = chooser
        chooser.open { [weak self] path in
            guard let self else { return }
            self.chooser = nil
            guard let path else { return }
            self.importLogo(from: URL(fileURLWithPath: path))
        }
    }

    func importLogo(from url: URL) {
        do {
            profile.logoFileName = try repository.logos.importLogo(from: url)
            store()
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
        }
    }
}
