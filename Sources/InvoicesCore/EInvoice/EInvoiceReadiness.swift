import BillfoldCore
import Foundation

/// Something an e-invoice needs that the invoice, its client or the business profile lacks.
public struct EInvoiceIssue: Sendable, Hashable {
    /// Where the person fixes it.
    public enum Place: Sendable, Hashable {
        case businessProfile
        case client
        case invoice
        case line(Int)
    }

    public let place: Place
    /// Translated; names the field and where it is.
    public let message: String

    init(_ place: Place, _ message: String) {
        self.place = place
        self.message = message
    }
}

/// What keeps an invoice from being a valid EN 16931 e-invoice in a format: the business rules
/// a receiver's validator would reject (BR-…, and BR-DE-… for XRechnung), checked on our own
/// model before anything is written, in words a freelancer understands.
public enum EInvoiceReadiness {
    public static func issues(_ document: InvoiceDocument, format: EInvoiceFormat) -> [EInvoiceIssue] {
        var issues: [EInvoiceIssue] = []
        let profile = document.profile
        let invoice = document.invoice
        let buyer = document.billTo
        let categories = invoice.vatCategories
        let xrechnung = format == .xrechnung
        func profileIssue(_ message: String) { issues.append(.init(.businessProfile, message)) }
        func clientIssue(_ message: String) { issues.append(.init(.client, message)) }
        func invoiceIssue(_ message: String) { issues.append(.init(.invoice, message)) }

        if invoice.lines.isEmpty { invoiceIssue(tr("Add at least one line.")) }
        if invoice.currency.minorUnitExponent > 2 {
            invoiceIssue(String(format: tr("E-invoices carry amounts with at most two decimals, so an invoice in %@ cannot be one."), invoice.currency.code))
        }

        // The seller (BG-4, BG-5, BG-6).
        if profile.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            profileIssue(tr("Enter your business name in Preferences › Business."))
        }
        if profile.countryCode.isEmpty { profileIssue(tr("Choose your country in Preferences › Business.")) }
        if xrechnung {
            if profile.postcode.isEmpty || profile.city.isEmpty {
                profileIssue(tr("Enter your postcode and town in Preferences › Business; XRechnung needs them."))
            }
            if profile.contactName.isEmpty { profileIssue(tr("Enter a contact person in Preferences › Business; XRechnung needs one.")) }
            if profile.phone.isEmpty { profileIssue(tr("Enter your phone number in Preferences › Business; XRechnung needs it.")) }
            if profile.email.isEmpty { profileIssue(tr("Enter your email address in Preferences › Business; XRechnung needs it.")) }
            if profile.iban.isEmpty { profileIssue(tr("Enter your IBAN in Preferences › Business so the client’s system knows where to pay.")) }
        }
        let needsVATID = categories.contains { [.reverseCharge, .intraCommunity, .export].contains($0) }
        if categories.contains(.notSubject) {
            // Without a VAT ID on the invoice (BR-O-2), the tax number is what names the seller (BR-CO-26).
            if profile.taxID.isEmpty {
                profileIssue(tr("Enter your tax number in Preferences › Business: an invoice not subject to VAT identifies you by it."))
            }
        } else if needsVATID {
            if profile.vatID.isEmpty {
                profileIssue(tr("Enter your VAT ID in Preferences › Business: reverse charge, intra-EU and export invoices must show it."))
            }
        } else if profile.vatID.isEmpty && profile.taxID.isEmpty {
            profileIssue(tr("Enter your VAT ID or tax number in Preferences › Business."))
        }

        // The buyer (BG-7, BG-8).
        if buyer.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { clientIssue(tr("Choose who the invoice is for.")) }
        if buyer.countryCode.isEmpty { clientIssue(tr("Choose the client’s country in the client’s details.")) }
        if xrechnung {
            if buyer.postcode.isEmpty || buyer.city.isEmpty {
                clientIssue(tr("Enter the client’s postcode and town in the client’s details; XRechnung needs them."))
            }
            if buyer.electronicAddress.isEmpty && buyer.email.isEmpty {
                clientIssue(tr("Enter the client’s email or e-invoice address in the client’s details; XRechnung needs it."))
            }
            if invoice.buyerReference.trimmingCharacters(in: .whitespaces).isEmpty {
                invoiceIssue(tr("Enter the client’s reference (for German authorities, the Leitweg-ID) in “Client’s Reference”."))
            }
        }
        if categories.contains(where: { $0 == .reverseCharge || $0 == .intraCommunity }), buyer.vatID.isEmpty {
            clientIssue(tr("Enter the client’s VAT ID in the client’s details: reverse charge and intra-EU invoices must show it."))
        }

        // The lines and their VAT (BR-E-10, BR-O-11…14, BR-IC-11).
        if categories.contains(.exempt), invoice.exemptionReason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            invoiceIssue(tr("Enter why the lines are exempt from VAT in “VAT Exemption Reason”, for example the law that exempts them."))
        }
        if categories.contains(.notSubject), categories.count > 1 {
            invoiceIssue(tr("Lines not subject to VAT cannot share an invoice with other lines; put them on an invoice of their own."))
        }
        if categories.contains(.intraCommunity), invoice.deliveryDate == nil {
            invoiceIssue(tr("Enter the delivery date: an intra-EU supply must show when it was delivered."))
        }
        return issues
    }
}

/// Why an e-invoice could not be made.
public enum EInvoiceError: Error, LocalizedError, Equatable, Sendable {
    case notReady([EInvoiceIssue])
    case amountTooLarge

    public var errorDescription: String? {
        switch self {
        case .notReady(let issues):
            return ([tr("The invoice is not ready to be an e-invoice:")] + issues.map { "• " + $0.message }).joined(separator: "\n")
        case .amountTooLarge:
            return tr("The amounts are too large to calculate with. Check the quantities and prices.")
        }
    }
}
