import BillfoldCore
import Foundation
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Credit notes as EN 16931 documents of type 381 that name the invoice they correct (BT-25)
/// and its date (BT-26): for every e-invoice fixture, one crediting all of it, one crediting
/// part of its first line and one taking an amount off its first VAT group, each checked by
/// `Tests/EInvoice/check-einvoice.py`.
@Suite struct CreditNoteEInvoiceTests {
    /// The fixture's invoice credited by `lines`, as the repository makes the document.
    static func creditNote(of fixture: EInvoiceFixtures.Case, number: String, lines: [CreditedLine],
                           amounts: [CreditedAmount] = []) -> InvoiceDocument {
        var invoice = fixture.document.invoice
        invoice.id = InvoiceID(1)
        var note = CreditNote(invoiceID: InvoiceID(1), issueDate: day("2026-04-01"), reason: "Corrected after review", lines: lines,
                              amounts: amounts)
        note.number = number
        let content = note.content(of: invoice)
        return InvoiceDocument(profile: fixture.document.profile, invoice: content, billTo: fixture.document.billTo,
                               totals: try! content.totals(), logoURL: nil,
                               kind: .creditNote(invoice: DocumentLink(number: invoice.number, issueDate: invoice.issueDate)))
    }

    static func cases() -> [(name: String, document: InvoiceDocument, formats: [EInvoiceFormat])] {
        EInvoiceFixtures.all.flatMap { fixture -> [(name: String, document: InvoiceDocument, formats: [EInvoiceFormat])] in
            let invoice = fixture.document.invoice
            let all = invoice.lines.indices.map { CreditedLine(invoiceLine: $0, quantity: invoice.lines[$0].quantity) }
            let part = [CreditedLine(invoiceLine: 0, quantity: invoice.lines[0].quantity / 2)]
            let group = fixture.document.totals.taxLines[0]
            let amount = CreditedAmount(description: "Price reduction for late delivery",
                                        net: Money(minorUnits: 1_000, currency: invoice.currency),
                                        vatCategory: group.category, taxRate: group.rate)
            return [("\(fixture.name)-full", creditNote(of: fixture, number: "CN-2026-001", lines: all), fixture.formats),
                    ("\(fixture.name)-part", creditNote(of: fixture, number: "CN-2026-002", lines: part), fixture.formats),
                    ("\(fixture.name)-amount", creditNote(of: fixture, number: "CN-2026-003", lines: [], amounts: [amount]),
                     fixture.formats)]
        }
    }

    @Test func aCreditNoteIsType381AndNamesTheInvoiceAndItsDate() throws {
        let fixture = EInvoiceFixtures.all.first { $0.name == "xrechnung-authority-period" }!
        let document = Self.creditNote(of: fixture, number: "CN-2026-001", lines: [CreditedLine(invoiceLine: 0, quantity: 1)])
        let xml = String(decoding: try EInvoiceExport.ciiXML(document, format: .xrechnung), as: UTF8.self)
        #expect(xml.contains("<ram:TypeCode>381</ram:TypeCode>"))
        #expect(xml.contains("<ram:ID>CN-2026-001</ram:ID>"))
        let reference = "<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>RE-2026-011</ram:IssuerAssignedID><ram:FormattedIssueDateTime><qdt:DateTimeString format=\"102\">20260302</qdt:DateTimeString></ram:FormattedIssueDateTime></ram:InvoiceReferencedDocument>"
        #expect(compact(xml).contains(compact(reference)), "\(xml)")
        // An invoice stays type 380 without a reference.
        let invoiceXML = String(decoding: try EInvoiceExport.ciiXML(fixture.document, format: .xrechnung), as: UTF8.self)
        #expect(invoiceXML.contains("<ram:TypeCode>380</ram:TypeCode>") && !invoiceXML.contains("InvoiceReferencedDocument"))
    }

    @Test(.enabled(if: EInvoiceValidationTests.python != nil, "the e-invoice checker is not installed: build-aux/dev test makes .build/einvoice-venv"))
    func everyCreditNoteIsAValidEInvoice() throws {
        let directory = try TemporaryDirectory()
        var files: [URL] = []
        for note in Self.cases() {
            for format in note.formats {
                #expect(EInvoiceExport.issues(note.document, format: format).isEmpty, "\(note.name) \(format)")
                let url = directory.url.appendingPathComponent("\(note.name)-\(format.rawValue).xml")
                try EInvoiceExport.ciiXML(note.document, format: format).write(to: url)
                files.append(url)
            }
        }
        // And one Factur-X PDF, whose embedded XML is read back.
        let pdf = directory.url.appendingPathComponent("credit-note-facturx.pdf")
        try EInvoiceExport.facturXPDF(Self.cases()[0].document).data.write(to: pdf)
        files.append(pdf)
        let result = try EInvoiceValidationTests.check(files)
        #expect(result.valid, "\(result.report)")
        #expect(result.report.components(separatedBy: "\n").filter { $0.hasPrefix("VALID ") }.count == files.count, "\(result.report)")
    }
}
