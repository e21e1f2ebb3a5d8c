import BillfoldCore
import Foundation

/// One problem with what a person entered, tied to the field it belongs to so a form can show
/// the message beside that field.
public struct ValidationIssue<Field: Hashable & Sendable>: Sendable, Hashable {
    public let field: Field
    /// Translated and actionable: says what to change.
    public let message: String

    public init(_ field: Field, _ message: String) {
        self.field = field
        self.message = message
    }
}

/// The fields of an invoice that validation can point at.
public enum InvoiceField: Hashable, Sendable {
    case number
    case client
    case issueDate
    case dueDate
    case discount
    case notes
    case buyerReference
    case purchaseOrder
    case delivery
    case exemptionReason
    case lines
    case line(Int, LineItemField)
    case payment(Int)
    case total
}

public enum LineItemField: Hashable, Sendable {
    case description
    case quantity
    case unit
    case unitPrice
    case taxRate
    case discount
}

public enum ClientField: Hashable, Sendable {
    case name
    case email
    case address
    case taxID
    case vatID
    case country
    case electronicAddress
    case buyerReference
    case paymentTerms
    case notes
}

public enum BusinessProfileField: Hashable, Sendable {
    case name
    case email
    case vatID
    case country
    case electronicAddress
    case exemptionReason
    case iban
    case bic
    case paymentTerms
    case taxRate
    case numberPattern
    case quoteNumberPattern
    case creditNoteNumberPattern
    case logo
}

/// A field of a sent invoice that can no longer change.
public enum LockedField: Hashable, Sendable {
    case number
    case client
    case currency
    case issueDate
    case dueDate
    case notes
    case lines
    case discount
    /// References, delivery and exemption reason: what the e-invoice and its legal note say.
    case eInvoiceDetails

    public var title: String {
        switch self {
        case .number: tr("number")
        case .client: tr("client")
        case .currency: tr("currency")
        case .issueDate: tr("issue date")
        case .dueDate: tr("due date")
        case .notes: tr("notes")
        case .lines: tr("line items")
        case .discount: tr("discount")
        case .eInvoiceDetails: tr("references, delivery and exemption reason")
        }
    }
}

/// Everything the Invoices rules and repository refuse, each with a message a person can act on.
/// Storage failures stay `DatabaseError`.
public enum InvoiceError: Error, LocalizedError, Equatable, Sendable {
    case invalidInvoice([ValidationIssue<InvoiceField>])
    case invalidClient([ValidationIssue<ClientField>])
    case invalidProfile([ValidationIssue<BusinessProfileField>])
    /// Another invoice has (or had, before it was deleted) this number.
    case numberTaken(String)
    /// The invoice was sent; `field` is locked.
    case locked(LockedField)
    case transitionNotAllowed(from: InvoiceStatus, to: InvoiceStatus)
    case paymentNeedsSentInvoice(InvoiceStatus)
    case paymentNotPositive
    /// A payment larger than what is still owed; `balance` is what is owed.
    case overpayment(balance: Money)
    case paymentCurrencyMismatch(expected: Currency, found: Currency)
    /// Nothing goes back to the client: credit notes took off no more than was still owed.
    case noRefundDue
    case refundNotPositive
    /// A refund larger than what goes back to the client; `due` is that amount.
    case overRefund(due: Money)
    case noSuchPayment(Int)
    case nothingToSend
    case invoiceNotFound
    /// The invoice was saved since this copy was loaded.
    case changedSinceLoaded
    case clientNotFound
    /// The client has invoices; deleting it needs a decision about them.
    case clientHasInvoices(count: Int)
    /// Recurring invoices are deleted only on their own, never with their client.
    case clientHasRecurringInvoices(count: Int)
    /// The invoice's client was deleted while the invoice was; it cannot come back without it.
    case clientGoneForRestore
    case amountTooLarge
    case currencyMismatch(expected: Currency, found: Currency)
    /// The free tier keeps at most `limit` invoices.
    case freeTierLimitReached(limit: Int)
    /// An import would take the library past the free tier's `limit`.
    case importOverLimit(limit: Int, existing: Int, adding: Int)
    /// Saving, printing or emailing an invoice as PDF needs Billfold Pro.
    case pdfExportNeedsPro
    case logoUnreadable(reason: String)
    case logoNotAnImage
    /// A sent invoice is corrected or cancelled by a credit note, never deleted.
    case sentInvoiceCannotBeDeleted(number: String)
    /// A sent invoice is cancelled by a credit note for all of it.
    case cancelNeedsCreditNote
    case creditNeedsSentInvoice(InvoiceStatus)
    case creditNoteEmpty
    /// More of an invoice line than is left to credit; `remaining` is what is left.
    case creditTooLarge(line: Int, remaining: String)
    case creditAmountDescription
    case creditAmountNotPositive
    /// An amount taxed as no line of the invoice is.
    case creditAmountGroupNotBilled
    /// Lines and amounts take more off a VAT group than it was billed; `left` is what may still be.
    case creditExceedsGroup(category: VATCategory, rate: Decimal, left: Money)
    case creditNoteNotFound
    case quoteNotFound
    case quoteTransitionNotAllowed(from: QuoteStatus, to: QuoteStatus)
    /// A sent quote is what the client received; reopen it to change it.
    case quoteLocked
    case quoteAlreadyConverted(invoiceNumber: String)
    case invalidQuote([ValidationIssue<InvoiceField>])
    /// The quote is expired; reopen it with a new validity date first.
    case quoteExpired

    public var errorDescription: String? {
        switch self {
        case .invalidInvoice(let issues):
            return issues.first?.message ?? tr("The invoice is not complete.")
        case .invalidClient(let issues):
            return issues.first?.message ?? tr("The client is not complete.")
        case .invalidProfile(let issues):
            return issues.first?.message ?? tr("The business profile is not complete.")
        case .numberTaken(let number):
            return String(format: tr("The number %@ is already used by another invoice, or was used by a deleted one. Choose another number."), number)
        case .locked(let field):
            return String(format: tr("This invoice has been sent, so its %@ can no longer change. Duplicate it to make a corrected copy."), field.title)
        case .transitionNotAllowed(let from, let to):
            return String(format: tr("An invoice that is %@ cannot become %@."), from.title, to.title)
        case .paymentNeedsSentInvoice(let status):
            switch status {
            case .draft: return tr("Mark the invoice as sent before recording a payment.")
            case .cancelled: return tr("A cancelled invoice takes no payments.")
            case .sent, .paid: return tr("This invoice is already paid in full.")
            }
        case .paymentNotPositive:
            return tr("Enter a payment amount above zero.")
        case .overpayment(let balance):
            return String(format: tr("The payment is more than the %@ still owed. Enter at most that amount."),
                          MoneyFormatter().string(from: balance))
        case .paymentCurrencyMismatch(let expected, let found):
            return String(format: tr("The payment is in %@ but the invoice is in %@."), found.code, expected.code)
        case .noRefundDue:
            return tr("Nothing is to be refunded on this invoice.")
        case .refundNotPositive:
            return tr("Enter a refund amount above zero.")
        case .overRefund(let due):
            return String(format: tr("The refund is more than the %@ due to the client. Enter at most that amount."),
                          MoneyFormatter().string(from: due))
        case .noSuchPayment:
            return tr("That payment is no longer on the invoice.")
        case .nothingToSend:
            return tr("Add at least one line before sending the invoice.")
        case .invoiceNotFound:
            return tr("The invoice no longer exists. It may have been deleted.")
        case .changedSinceLoaded:
            return tr("The invoice was changed meanwhile. Open it again and repeat your change.")
        case .clientNotFound:
            return tr("The client no longer exists. Choose another client.")
        case .clientHasInvoices(let count):
            return String(format: trn("This client has %d invoice. Choose whether to keep it or delete it with the client.",
                                      "This client has %d invoices. Choose whether to keep them or delete them with the client.",
                                      count), count)
        case .clientHasRecurringInvoices(let count):
            return String(format: trn("This client has %d recurring invoice. Delete it under Recurring Invoices first, then the client.",
                                      "This client has %d recurring invoices. Delete them under Recurring Invoices first, then the client.",
                                      count), count)
        case .clientGoneForRestore:
            return tr("The invoice cannot be restored because its client has been deleted.")
        case .amountTooLarge:
            return tr("The amounts are too large to calculate with. Check the quantities and prices.")
        case .currencyMismatch(let expected, let found):
            return String(format: tr("An amount is in %@ but the invoice is in %@."), found.code, expected.code)
        case .freeTierLimitReached(let limit):
            return String(format: trn("The free version keeps up to %d invoice. Upgrade to Billfold Pro for unlimited invoices.",
                                      "The free version keeps up to %d invoices. Upgrade to Billfold Pro for unlimited invoices.",
                                      limit), limit)
        case .importOverLimit(let limit, let existing, let adding):
            return String(format: trn("The free version keeps up to %1$d invoice; the library has %2$d and the file adds %3$d, so it cannot be imported. Upgrade to Billfold Pro for unlimited invoices.",
                                      "The free version keeps up to %1$d invoices; the library has %2$d and the file adds %3$d, so it cannot be imported. Upgrade to Billfold Pro for unlimited invoices.",
                                      limit), limit, existing, adding)
        case .pdfExportNeedsPro:
            return tr("Saving invoices as PDF is part of Billfold Pro. Open Billfold, choose Billfold Pro in the sidebar and enter your licence; the preview in the window stays free.")
        case .logoUnreadable(let reason):
            return String(format: tr("The logo could not be read: %@"), reason)
        case .logoNotAnImage:
            return tr("The logo must be a PNG or JPEG image.")
        case .sentInvoiceCannotBeDeleted(let number):
            return String(format: tr("Invoice %@ has been sent, so it stays on record. Create a credit note to correct or cancel it."), number)
        case .cancelNeedsCreditNote:
            return tr("A sent invoice is cancelled by a credit note for all of it. Choose Create Credit Note.")
        case .creditNeedsSentInvoice(let status):
            switch status {
            case .draft: return tr("A draft is changed directly; only a sent invoice gets a credit note.")
            case .cancelled: return tr("This invoice is cancelled; there is nothing left to credit.")
            case .sent, .paid: return tr("This invoice cannot be credited.")
            }
        case .creditNoteEmpty:
            return tr("Choose at least one line and a quantity above zero to credit.")
        case .creditTooLarge(let line, let remaining):
            return String(format: tr("Line %d has only %@ left to credit. Enter at most that quantity."), line + 1, remaining)
        case .creditAmountDescription:
            return tr("Describe the amount taken off, for example “Price reduction for late delivery”.")
        case .creditAmountNotPositive:
            return tr("Enter an amount above zero to take off.")
        case .creditAmountGroupNotBilled:
            return tr("Choose a VAT rate the invoice billed.")
        case .creditExceedsGroup(let category, let rate, let left):
            return String(format: tr("Only %@ billed at %@ is left to credit, before any discount. Take off at most that."),
                          MoneyFormatter().string(from: left), category.groupTitle(rate: rate))
        case .creditNoteNotFound:
            return tr("The credit note no longer exists.")
        case .quoteNotFound:
            return tr("The quote no longer exists.")
        case .quoteTransitionNotAllowed(let from, let to):
            return String(format: tr("A quote that is %@ cannot become %@."), from.title, to.title)
        case .quoteLocked:
            return tr("This quote has been sent, so it can no longer change. Reopen it to make changes.")
        case .quoteAlreadyConverted(let number):
            return String(format: tr("This quote has already become invoice %@."), number)
        case .invalidQuote(let issues):
            return issues.first?.message ?? tr("The quote is not complete.")
        case .quoteExpired:
            return tr("This quote has expired. Reopen it and give it a new validity date first.")
        }
    }
}
