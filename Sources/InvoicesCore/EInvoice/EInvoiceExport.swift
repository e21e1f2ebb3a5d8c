import BillfoldCore
import Documents
import Foundation

/// What an invoice can be exported as.
public enum InvoiceExportFormat: String, Sendable, Hashable, CaseIterable {
    /// The invoice PDF as the client reads it.
    case pdf
    /// The PDF as a PDF/A-3 with the CII XML inside (Factur-X 1.0.07 / ZUGFeRD 2.3, EN 16931).
    case facturX = "facturx"
    /// The CII XML alone, XRechnung 3.0.
    case xrechnung

    /// The e-invoice format it makes, if any.
    public var eInvoiceFormat: EInvoiceFormat? {
        switch self {
        case .pdf: nil
        case .facturX: .facturX
        case .xrechnung: .xrechnung
        }
    }
}

/// The one way an invoice becomes a file: the visible PDF, the CII XML, or both in one Factur-X
/// PDF. The window and the command line both come here, so an e-invoice is checked the same
/// way wherever it is made, and its XML and PDF come from one `InvoiceDocument`.
public enum EInvoiceExport {
    /// What keeps `document` from being an e-invoice in `format`; empty when it is ready.
    public static func issues(_ document: InvoiceDocument, format: EInvoiceFormat) -> [EInvoiceIssue] {
        EInvoiceReadiness.issues(document, format: format)
    }

    /// The CII XML of `document`, after checking it is ready.
    public static func ciiXML(_ document: InvoiceDocument, format: EInvoiceFormat) throws(EInvoiceError) -> Data {
        let issues = issues(document, format: format)
        guard issues.isEmpty else { throw .notReady(issues) }
        return try CIIInvoiceWriter.xml(document, format: format)
    }

    /// The Factur-X PDF of `document`: the invoice PDF as a PDF/A-3b carrying its CII XML.
    public static func facturXPDF(_ document: InvoiceDocument, formatting: InvoiceTemplate.Formatting = .init(),
                                  now: Date = Date()) throws -> RenderedPDF {
        let xml = try ciiXML(document, format: .facturX)
        return try FacturXPDF.render(document, xml: xml, formatting: formatting, now: now)
    }

    /// Writes `document` in `format` to a file (completely or not at all) or to standard output.
    public static func write(_ document: InvoiceDocument, as format: InvoiceExportFormat, to target: OutputTarget,
                             formatting: InvoiceTemplate.Formatting = .init()) throws {
        switch format {
        case .pdf:
            try InvoicePDF.write(document, to: target, formatting: formatting)
        case .xrechnung:
            try target.write(try ciiXML(document, format: .xrechnung))
        case .facturX:
            try target.write(try facturXPDF(document, formatting: formatting).data)
        }
    }

    public static func write(_ document: InvoiceDocument, as format: InvoiceExportFormat, to url: URL,
                             formatting: InvoiceTemplate.Formatting = .init()) throws {
        try write(document, as: format, to: .file(url), formatting: formatting)
    }

    /// `<number>.xml` for an XRechnung, `<number>.pdf` otherwise.
    public static func suggestedFileName(for invoice: Invoice, format: InvoiceExportFormat) -> String {
        let pdfName = InvoicePDF.suggestedFileName(for: invoice)
        return format == .xrechnung ? String(pdfName.dropLast(4)) + ".xml" : pdfName
    }
}
