import BillfoldCore
import Foundation

/// Who sends the invoices: the seller block of every invoice, and the defaults a new invoice
/// starts from. There is one profile; until it is saved, `BusinessProfile.initial` stands in.
public struct BusinessProfile: Sendable, Hashable {
    public var name: String
    /// Several lines: street, postcode and town, country.
    public var address: String
    public var email: String
    public var phone: String
    /// The national tax number (BT-32), printed on every invoice; the VAT ID is `vatID`.
    public var taxID: String
    /// The VAT identification number with its country prefix (BT-31), e.g. DE123456789.
    public var vatID: String
    public var postcode: String
    public var city: String
    /// ISO 3166-1 alpha-2, e.g. "DE"; empty until chosen.
    public var countryCode: String
    /// The person clients and their systems can ask about an invoice (BT-41).
    public var contactName: String
    /// Where e-invoices about this business go (BT-34): an email or a Peppol ID; empty uses `email`.
    public var electronicAddress: String
    /// The category new lines start with.
    public var defaultVATCategory: VATCategory
    /// The exemption reason new invoices start with, for a business exempt from VAT.
    public var defaultExemptionReason: String
    /// Bank account as free text, for accounts an IBAN does not describe.
    public var bankDetails: String
    public var iban: String
    public var bic: String
    /// The logo's file name inside the logos directory (`<sha256>.<ext>`), set by `LogoStore`.
    public var logoFileName: String?
    public var defaultCurrency: Currency
    /// Days from the issue date to the due date for clients without their own terms.
    public var paymentTermsDays: Int
    /// Per cent, e.g. 19 or 7.7.
    public var defaultTaxRate: Decimal
    /// How invoice numbers are made, e.g. `INV-{YYYY}-{NNNN}`; see `InvoiceNumberPattern`.
    public var numberPattern: String
    /// The notes a new invoice starts with.
    public var defaultNotes: String
    /// Printed under the totals of every invoice, e.g. "Please transfer within 14 days to …".
    public var paymentInstructions: String
    /// Whether euro invoices carry the EPC payment QR code ("GiroCode") for the amount due.
    public var printsPaymentQRCode = true
    /// How quote numbers are made; a sequence of its own, like the invoices'.
    public var quoteNumberPattern = BusinessProfile.defaultQuotePattern
    /// How credit note numbers are made; a sequence of its own, like the invoices'.
    public var creditNoteNumberPattern = BusinessProfile.defaultCreditNotePattern

    public static let defaultQuotePattern = "QUO-{YYYY}-{NNNN}"
    public static let defaultCreditNotePattern = "CN-{YYYY}-{NNNN}"

    public init(name: String = "", address: String = "", email: String = "", phone: String = "",
                taxID: String = "", bankDetails: String = "", iban: String = "", bic: String = "",
                logoFileName: String? = nil, defaultCurrency: Currency, paymentTermsDays: Int = 14,
                defaultTaxRate: Decimal = 0, numberPattern: String = InvoiceNumberPattern.defaultPattern,
                defaultNotes: String = "", paymentInstructions: String = "", vatID: String = "",
                postcode: String = "", city: String = "", countryCode: String = "", contactName: String = "",
                electronicAddress: String = "", defaultVATCategory: VATCategory? = nil, defaultExemptionReason: String = "") {
        self.name = name
        self.address = address
        self.email = email
        self.phone = phone
        self.taxID = taxID
        self.bankDetails = bankDetails
        self.iban = iban
        self.bic = bic
        self.logoFileName = logoFileName
        self.defaultCurrency = defaultCurrency
        self.paymentTermsDays = paymentTermsDays
        self.defaultTaxRate = defaultTaxRate
        self.numberPattern = numberPattern
        self.defaultNotes = defaultNotes
        self.paymentInstructions = paymentInstructions
        self.vatID = vatID
        self.postcode = postcode
        self.city = city
        self.countryCode = countryCode
        self.contactName = contactName
        self.electronicAddress = electronicAddress
        self.defaultVATCategory = defaultVATCategory ?? .inferred(fromRate: defaultTaxRate)
        self.defaultExemptionReason = defaultExemptionReason
    }

    /// The address as printed on the invoice.
    public var printedAddress: String {
        PrintedAddress.text(address: address, postcode: postcode, city: city, countryCode: countryCode)
    }

    /// The profile before the user has filled it in: the locale's currency, 14 days, no tax.
    public static func initial(locale: Locale = UserLocale.monetary) -> BusinessProfile {
        BusinessProfile(defaultCurrency: Currency.forLocale(locale))
    }

    public static let paymentTermsRange = 0...365

    /// The name of the business profile's page in Preferences.
    public static let preferencesPageName = "business"

    /// Whether the profile has what every invoice prints at its top: the business's name and address.
    public var isReadyForInvoices: Bool {
        !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            && !printedAddress.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// What keeps the profile from being saved; empty when it is fine.
    public func validate() -> [ValidationIssue<BusinessProfileField>] {
        var issues: [ValidationIssue<BusinessProfileField>] = []
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            issues.append(.init(.name, tr("Enter your business name; it heads every invoice.")))
        }
        if !email.isEmpty, !EmailAddress.looksValid(email) {
            issues.append(.init(.email, tr("Enter an email address like name@example.com.")))
        }
        if let problem = VATID.problem(vatID) { issues.append(.init(.vatID, problem)) }
        if !countryCode.isEmpty, !Country.isKnown(countryCode) {
            issues.append(.init(.country, tr("Choose the country from the list.")))
        }
        if let problem = ElectronicAddress.problem(electronicAddress) { issues.append(.init(.electronicAddress, problem)) }
        if !iban.isEmpty, let problem = IBAN.problem(iban) {
            issues.append(.init(.iban, problem))
        }
        if !bic.isEmpty, !BIC.isValid(bic) {
            issues.append(.init(.bic, tr("A BIC has 8 or 11 letters and digits, like DEUTDEFF or DEUTDEFF500.")))
        }
        if !Self.paymentTermsRange.contains(paymentTermsDays) {
            issues.append(.init(.paymentTerms, tr("Payment terms must be between 0 and 365 days.")))
        }
        if let problem = TaxRate.problem(defaultTaxRate) {
            issues.append(.init(.taxRate, problem))
        } else if defaultVATCategory.hasRate, defaultTaxRate == 0 {
            issues.append(.init(.taxRate, tr("Enter the standard tax rate, or choose another VAT category for new lines.")))
        }
        do {
            _ = try InvoiceNumberPattern(numberPattern)
        } catch {
            issues.append(.init(.numberPattern, error.localizedDescription))
        }
        for (field, pattern) in [(BusinessProfileField.quoteNumberPattern, quoteNumberPattern),
                                 (.creditNoteNumberPattern, creditNoteNumberPattern)] {
            do {
                _ = try InvoiceNumberPattern(pattern)
            } catch {
                issues.append(.init(field, error.localizedDescription))
            }
        }
        return issues
    }
}

/// A client: who an invoice is addressed to.
public struct Client: Sendable, Hashable {
    /// Nil until saved.
    public var id: ClientID?
    public var name: String
    public var email: String
    /// Several lines, printed in the bill-to block.
    public var address: String
    /// A tax number other than the VAT ID, printed only.
    public var taxID: String
    /// The client's VAT identification number (BT-48), e.g. FR12345678901.
    public var vatID: String
    public var postcode: String
    public var city: String
    /// ISO 3166-1 alpha-2; empty until chosen.
    public var countryCode: String
    /// Where the client receives e-invoices (BT-49): an email or a Peppol ID; empty uses `email`.
    public var electronicAddress: String
    /// The reference the client wants on every invoice (BT-10), e.g. a Leitweg-ID.
    public var buyerReference: String
    /// The e-invoice the client wants; nil when a PDF is enough.
    public var eInvoiceFormat: EInvoiceFormat?
    /// The currency new invoices for this client use.
    public var currency: Currency
    /// Days to pay; nil uses the business profile's terms.
    public var paymentTermsDays: Int?
    /// Private notes, never printed.
    public var notes: String
    /// Deleted from the client list but kept for its invoices (see `ClientInvoicesOnDelete.keep`).
    public internal(set) var isArchived: Bool = false

    public init(id: ClientID? = nil, name: String, email: String = "", address: String = "", taxID: String = "",
                currency: Currency, paymentTermsDays: Int? = nil, notes: String = "", vatID: String = "",
                postcode: String = "", city: String = "", countryCode: String = "", electronicAddress: String = "",
                buyerReference: String = "", eInvoiceFormat: EInvoiceFormat? = nil) {
        self.id = id
        self.name = name
        self.email = email
        self.address = address
        self.taxID = taxID
        self.vatID = vatID
        self.postcode = postcode
        self.city = city
        self.countryCode = countryCode
        self.electronicAddress = electronicAddress
        self.buyerReference = buyerReference
        self.eInvoiceFormat = eInvoiceFormat
        self.currency = currency
        self.paymentTermsDays = paymentTermsDays
        self.notes = notes
    }

    /// The client's terms, or the profile's when the client has none.
    public func paymentTerms(default profile: BusinessProfile) -> Int {
        paymentTermsDays ?? profile.paymentTermsDays
    }

    public func validate() -> [ValidationIssue<ClientField>] {
        var issues: [ValidationIssue<ClientField>] = []
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            issues.append(.init(.name, tr("Enter the client’s name.")))
        } else if name.count > 200 {
            issues.append(.init(.name, tr("Shorten the client’s name to at most 200 characters.")))
        }
        if !email.isEmpty, !EmailAddress.looksValid(email) {
            issues.append(.init(.email, tr("Enter an email address like name@example.com.")))
        }
        if let days = paymentTermsDays, !BusinessProfile.paymentTermsRange.contains(days) {
            issues.append(.init(.paymentTerms, tr("Payment terms must be between 0 and 365 days.")))
        }
        if let problem = VATID.problem(vatID) { issues.append(.init(.vatID, problem)) }
        if !countryCode.isEmpty, !Country.isKnown(countryCode) {
            issues.append(.init(.country, tr("Choose the country from the list.")))
        }
        if let problem = ElectronicAddress.problem(electronicAddress) { issues.append(.init(.electronicAddress, problem)) }
        if buyerReference.count > Invoice.maximumReferenceLength || buyerReference.contains(where: \.isNewline) {
            issues.append(.init(.buyerReference, tr("Keep a reference on one line of at most 200 characters.")))
        }
        return issues
    }
}

/// The client's details as they were printed on an invoice when it was sent, so a sent
/// invoice keeps its bill-to block when the client later moves or renames.
public struct BillTo: Sendable, Hashable {
    public var name: String
    public var address: String
    public var email: String
    public var taxID: String
    public var vatID: String
    public var postcode: String
    public var city: String
    public var countryCode: String
    public var electronicAddress: String

    public init(name: String, address: String = "", email: String = "", taxID: String = "", vatID: String = "",
                postcode: String = "", city: String = "", countryCode: String = "", electronicAddress: String = "") {
        self.name = name
        self.address = address
        self.email = email
        self.taxID = taxID
        self.vatID = vatID
        self.postcode = postcode
        self.city = city
        self.countryCode = countryCode
        self.electronicAddress = electronicAddress
    }

    public init(_ client: Client) {
        self.init(name: client.name, address: client.address, email: client.email, taxID: client.taxID,
                  vatID: client.vatID, postcode: client.postcode, city: client.city, countryCode: client.countryCode,
                  electronicAddress: client.electronicAddress)
    }

    /// The address as printed on the invoice.
    public var printedAddress: String {
        PrintedAddress.text(address: address, postcode: postcode, city: city, countryCode: countryCode)
    }
}

enum EmailAddress {
    /// Catches typos (missing "@", spaces, no domain), not every rule of RFC 5322.
    static func looksValid(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: { $0.isWhitespace }) else { return false }
        let domain = parts[1]
        guard let dot = domain.lastIndex(of: "."), dot != domain.startIndex,
              domain.index(after: dot) != domain.endIndex else { return false }
        return true
    }
}

enum TaxRate {
    static let range: ClosedRange<Decimal> = 0...100

    static func problem(_ rate: Decimal) -> String? {
        guard !rate.isNaN, range.contains(rate) else { return tr("Enter a tax rate between 0 % and 100 %.") }
        guard decimals(rate) <= 4 else { return tr("Use at most 4 decimal places in a tax rate.") }
        return nil
    }

    /// How many digits follow the decimal point once trailing zeros are dropped.
    static func decimals(_ value: Decimal) -> Int {
        var text = value.description
        guard let point = text.firstIndex(of: ".") else { return 0 }
        while text.last == "0" { text.removeLast() }
        return text.distance(from: point, to: text.endIndex) - 1
    }
}

enum IBAN {
    /// Why `text` is not an IBAN, or nil. Spaces are allowed, as IBANs are printed in groups of four.
    static func problem(_ text: String) -> String? {
        let compact = text.filter { !$0.isWhitespace }.uppercased()
        guard (15...34).contains(compact.count),
              compact.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
              compact.prefix(2).allSatisfy(\.isLetter), compact.dropFirst(2).prefix(2).allSatisfy(\.isNumber)
        else { return tr("An IBAN starts with a country code and two check digits, like DE89 3704 0044 0532 0130 00.") }
        // ISO 13616: move the first four characters to the end, letters become 10…35, mod 97 is 1.
        let rearranged = compact.dropFirst(4) + compact.prefix(4)
        var remainder = 0
        for character in rearranged {
            let value = character.isNumber ? Int(String(character)) ?? 0 : Int(character.asciiValue ?? 55) - 55
            for digit in String(value) {
                remainder = (remainder * 10 + (Int(String(digit)) ?? 0)) % 97
            }
        }
        return remainder == 1 ? nil : tr("The IBAN’s check digits do not match. Check it for a typo.")
    }
}

enum BIC {
    static func isValid(_ text: String) -> Bool {
        let compact = text.filter { !$0.isWhitespace }.uppercased()
        guard compact.count == 8 || compact.count == 11 else { return false }
        guard compact.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        return compact.prefix(6).allSatisfy(\.isLetter)
    }
}
