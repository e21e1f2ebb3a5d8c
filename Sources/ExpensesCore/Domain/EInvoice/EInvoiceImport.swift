import BillfoldCore
import Foundation
import Graphics

/// Finds the e-invoice in a receipt file: the XML itself, or the XML embedded in a Factur-X /
/// ZUGFeRD PDF.
public enum EInvoiceFile {
    /// The names Factur-X 1.0, ZUGFeRD 2.x, XRechnung-in-PDF and ZUGFeRD 1.0 give the embedded XML.
    public static let embeddedNames = ["factur-x.xml", "zugferd-invoice.xml", "xrechnung.xml", "ZUGFeRD-invoice.xml"]

    /// Reads the invoice in a stored receipt of `kind`. Opens PDFs with Poppler: call it off the main thread.
    public static func read(_ data: Data, kind: ReceiptKind) throws(EInvoiceError) -> EInvoice {
        switch kind {
        case .xml:
            return try EInvoiceReader.read(data)
        case .pdf:
            let document: PDFDocument
            do {
                document = try PDFDocument(data: data)
            } catch {
                throw .unreadablePDF(reason: error.localizedDescription)
            }
            let attachment: PDFEmbeddedFile?
            do throws(PDFEmbeddedFileError) {
                attachment = try document.attachment(namedAnyOf: embeddedNames, maxByteCount: EInvoiceReader.maximumByteCount)
            } catch {
                switch error {
                case .tooLarge: throw EInvoiceError.tooLarge(limit: EInvoiceReader.maximumByteCount)
                case .unreadable(_, let reason): throw EInvoiceError.unreadablePDF(reason: reason)
                }
            }
            guard let attachment else { throw .noInvoiceInPDF(attachments: document.attachmentNames) }
            return try EInvoiceReader.read(attachment.data)
        case .jpeg, .png, .webp:
            throw .notAnInvoiceFile
        }
    }
}

/// A file taken in as a receipt, with the e-invoice read from it or why none could be.
public struct InvoiceFileImport: Sendable {
    public let receipt: ReceiptImport
    public let invoice: Result<EInvoice, EInvoiceError>

    /// The expense the file describes: everything from the invoice (in `category`, which an
    /// invoice does not say), or, for a file that is not one, a draft for `trip` with the
    /// receipt attached.
    public func details(for trip: TripDetails, category: ExpenseCategory = .other) -> ExpenseDetails {
        switch invoice {
        case .success(let invoice):
            return invoice.expenseDetails(category: category, receipt: receipt.reference)
        case .failure:
            var draft = ExpenseDetails.draft(for: trip)
            draft.receipt = receipt.reference
            return draft
        }
    }
}

extension EInvoice {
    /// Vendor, date, total and VAT per rate from the invoice; its number in the notes.
    public func expenseDetails(category: ExpenseCategory = .other, receipt: ReceiptReference? = nil) -> ExpenseDetails {
        ExpenseDetails(date: issueDate, category: category, vendor: sellerName, amount: grandTotal,
                       notes: String(format: tr("Invoice %@"), number), receipt: receipt, vat: vatBreakdown)
    }
}

extension ExpenseRepository {
    /// The trip's expense whose receipt is `reference`, if any: the same invoice added twice
    /// would count twice.
    public func expense(withReceipt reference: ReceiptReference, in tripID: TripID) throws -> Expense? {
        try expenses(in: tripID).first { $0.receipt == reference }
    }

    /// Stores the file as a receipt (any JPEG, PNG, WebP, PDF or XML file is kept) and reads
    /// the e-invoice in it. Throws only when the file cannot be kept as a receipt at all.
    /// Reads PDFs with Poppler: call it off the main thread.
    public func importInvoiceFile(from url: URL) throws -> InvoiceFileImport {
        let imported = try importReceipt(from: url)
        let data = try receipts.data(for: imported.reference)
        let invoice = Result { () throws(EInvoiceError) in try EInvoiceFile.read(data, kind: imported.reference.kind) }
        return InvoiceFileImport(receipt: imported, invoice: invoice)
    }
}
