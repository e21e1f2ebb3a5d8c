import BillfoldCore
@testable import ExpensesCore
@testable import ExpensesPlugin
import Foundation
import Graphics
import Testing

@Suite struct EInvoiceReaderTests {
    private let expectedVAT = [
        ExpenseVAT(categoryCode: "S", rate: 19, taxableAmount: eur(10_000), taxAmount: eur(1_900)),
        ExpenseVAT(categoryCode: "S", rate: 7, taxableAmount: eur(5_000), taxAmount: eur(350)),
    ]

    @Test func ciiGivesVendorDateTotalAndTheVATPerRateExactly() throws {
        let invoice = try EInvoiceReader.read(EInvoiceSamples.cii())
        #expect(invoice.syntax == .cii)
        #expect(invoice.number == "RE-2026-0042")
        #expect(invoice.issueDate == day("2026-03-11"))
        #expect(invoice.dueDate == day("2026-04-10"))
        #expect(invoice.sellerName == "Papeterie Müller GmbH")
        #expect(invoice.sellerVATID == "DE123456789")
        #expect(invoice.buyerName == "Ada Freelance")
        #expect(invoice.currency == .eur)
        #expect(invoice.grandTotal == eur(17_250))
        #expect(invoice.netTotal == eur(15_000))
        #expect(invoice.vatTotal == eur(2_250))
        #expect(invoice.vatBreakdown == expectedVAT)
        #expect(invoice.lines.map(\.name) == ["Printer paper", "Field guide"])
        #expect(invoice.lines.map(\.netAmount) == [eur(10_000), eur(5_000)])
        #expect(invoice.lines.first?.quantity == 20 && invoice.lines.first?.unitCode == "C62")
    }

    @Test func prefixesDoNotMatterOnlyNamespaces() throws {
        let usual = try EInvoiceReader.read(EInvoiceSamples.cii())
        let odd = try EInvoiceReader.read(EInvoiceSamples.cii(rsm: "inv", ram: "", udt: "u"))
        #expect(odd == usual)
        // The right names in the wrong namespace are not an invoice.
        let wrong = String(decoding: EInvoiceSamples.cii(), as: UTF8.self)
            .replacingOccurrences(of: "CrossIndustryInvoice:100\"", with: "CrossIndustryInvoice:999\"")
        #expect(throws: EInvoiceError.unknownDocument(root: "CrossIndustryInvoice")) {
            try EInvoiceReader.read(Data(wrong.utf8))
        }
    }

    @Test func ublReadsTheSameAndIgnoresTheVATInTheAccountingCurrency() throws {
        let invoice = try EInvoiceReader.read(EInvoiceSamples.ubl())
        #expect(invoice.syntax == .ubl)
        #expect(invoice.sellerName == "Papeterie Müller GmbH")
        #expect(invoice.sellerVATID == "DE123456789")
        #expect(invoice.grandTotal == eur(17_250))
        #expect(invoice.vatTotal == eur(2_250))
        #expect(invoice.vatBreakdown == expectedVAT)
        #expect(invoice.prepaid == eur(5_000))
        #expect(invoice.amountDue == eur(12_250))
        let prefixed = try EInvoiceReader.read(EInvoiceSamples.ubl(prefix: "b", aggregatePrefix: "a"))
        #expect(prefixed == invoice)
    }

    @Test func zugferd1SaysTheSameWithOtherNames() throws {
        let old = try EInvoiceReader.read(EInvoiceSamples.zugferd1())
        let new = try EInvoiceReader.read(EInvoiceSamples.cii())
        #expect(old.syntax == .zugferd1)
        #expect(old.vatBreakdown == expectedVAT)
        #expect(old.grandTotal == new.grandTotal && old.vatTotal == new.vatTotal && old.netTotal == new.netTotal)
        #expect(old.sellerName == new.sellerName && old.sellerVATID == new.sellerVATID && old.issueDate == new.issueDate)
        #expect(old.lines == new.lines)
    }

    @Test func creditNotesAreRefusedWithAReason() {
        #expect(throws: EInvoiceError.creditNote) { try EInvoiceReader.read(EInvoiceSamples.ubl(root: "CreditNote")) }
        #expect(throws: EInvoiceError.creditNote) { try EInvoiceReader.read(EInvoiceSamples.cii(typeCode: "381")) }
        #expect(throws: EInvoiceError.negativeTotal) { try EInvoiceReader.read(EInvoiceSamples.cii(grandTotal: "-172.50")) }
        #expect(EInvoiceError.creditNote.localizedDescription.contains("credit note"))
    }

    @Test func amountsAreExactInTheCurrencysMinorUnits() throws {
        // Trailing zeros beyond the currency's decimals are fine; anything else is refused.
        #expect(try EInvoiceReader.read(EInvoiceSamples.cii(grandTotal: "172.5000")).grandTotal == eur(17_250))
        #expect(throws: EInvoiceError.tooManyDecimals(field: "invoice total", text: "172.505", currency: .eur)) {
            try EInvoiceReader.read(EInvoiceSamples.cii(grandTotal: "172.505"))
        }
        // Yen have no minor unit: 172.50 JPY cannot be recorded, 17250 JPY can.
        #expect(throws: EInvoiceError.tooManyDecimals(field: "VAT amount", text: "3.50", currency: .jpy)) {
            try EInvoiceReader.read(EInvoiceSamples.cii(currency: "JPY"))
        }
        let yen = String(decoding: EInvoiceSamples.cii(currency: "JPY"), as: UTF8.self)
            .replacingOccurrences(of: ".00<", with: "<").replacingOccurrences(of: ".50<", with: "<")
            .replacingOccurrences(of: "3.50<", with: "3<")
        let invoice = try EInvoiceReader.read(Data(yen.replacingOccurrences(of: "172.50", with: "172").utf8))
        #expect(invoice.grandTotal == jpy(172))
        #expect(invoice.vatBreakdown.first?.taxableAmount == jpy(100))
        // No exponents, no thousands separators, no currency other than the document's.
        #expect(throws: EInvoiceError.invalidAmount(field: "invoice total", text: "1.725E2")) {
            try EInvoiceReader.read(EInvoiceSamples.cii(grandTotal: "1.725E2"))
        }
        #expect(throws: EInvoiceError.invalidAmount(field: "taxable amount", text: "1,000.00")) {
            try EInvoiceReader.read(EInvoiceSamples.cii(basis19: "1,000.00"))
        }
        #expect(throws: EInvoiceError.unknownCurrency("XYZ")) { try EInvoiceReader.read(EInvoiceSamples.cii(currency: "XYZ")) }
        #expect(throws: EInvoiceError.amountTooLarge(field: "invoice total")) {
            try EInvoiceReader.read(EInvoiceSamples.cii(grandTotal: "99999999999999999999.00"))
        }
    }

    @Test func theVATInAnAccountingCurrencyIsNotTakenForTheInvoices() throws {
        let both = EInvoiceSamples.cii(extraTaxTotal: "<ram:TaxTotalAmount currencyID=\"CHF\">21.40</ram:TaxTotalAmount>")
        #expect(try EInvoiceReader.read(both).vatTotal == eur(2_250))
    }

    @Test func decimalTextIsReadDigitByDigit() {
        #expect(DecimalText("12.30")?.minorUnits(exponent: 2) == 1_230)
        #expect(DecimalText("-0.5")?.minorUnits(exponent: 2) == -50)
        #expect(DecimalText(".5")?.minorUnits(exponent: 3) == 500)
        #expect(DecimalText("7")?.minorUnits(exponent: 0) == 7)
        #expect(DecimalText("0.1")?.minorUnits(exponent: 0) == nil)
        #expect(DecimalText("9223372036854775808")?.minorUnits(exponent: 0) == nil)
        for bad in ["", "-", ".", "1.2.3", "1e3", " 1", "0x10", "١٢"] { #expect(DecimalText(bad) == nil, "\(bad)") }
        #expect(DecimalText("19.000")?.decimal == Decimal(19))
    }
}

/// Hostile and broken files: each refused quickly, with a message that says what is wrong.
@Suite struct EInvoiceHostileInputTests {
    @Test func aDocumentTypeDeclarationIsRefusedBeforeParsing() {
        let laughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
        <Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol2;</Invoice>
        """
        #expect(throws: EInvoiceError.documentTypeDeclaration) { try EInvoiceReader.read(Data(laughs.utf8)) }
        let external = """
        <?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>
        """
        #expect(throws: EInvoiceError.documentTypeDeclaration) { try EInvoiceReader.read(Data(external.utf8)) }
    }

    @Test func sizeAndDepthAreBounded() {
        var huge = Data("<?xml version=\"1.0\"?><x>".utf8)
        huge.append(Data(repeating: UInt8(ascii: "a"), count: EInvoiceReader.maximumByteCount))
        huge.append(Data("</x>".utf8))
        #expect(throws: EInvoiceError.tooLarge(limit: EInvoiceReader.maximumByteCount)) { try EInvoiceReader.read(huge) }
        let deep = String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
        #expect(throws: EInvoiceError.tooDeeplyNested(limit: XMLTree.maximumDepth)) { try EInvoiceReader.read(Data(deep.utf8)) }
    }

    @Test func brokenXMLSaysWhere() throws {
        let cut = EInvoiceSamples.cii().prefix(900)
        do {
            _ = try EInvoiceReader.read(Data(cut))
            Issue.record("a cut-off file was read")
        } catch let EInvoiceError.notWellFormed(line, _) {
            #expect(line > 1)
        }
        #expect(throws: EInvoiceError.unknownDocument(root: "html")) {
            try EInvoiceReader.read(Data("<html><body>Invoice</body></html>".utf8))
        }
        #expect(throws: EInvoiceError.missingField("invoice number")) {
            try EInvoiceReader.read(Data("<rsm:CrossIndustryDocument xmlns:rsm=\"urn:ferd:CrossIndustryDocument:invoice:1p0\"/>".utf8))
        }
        let noSeller = String(decoding: EInvoiceSamples.cii(), as: UTF8.self)
            .replacingOccurrences(of: "<ram:Name>Papeterie Müller GmbH</ram:Name>", with: "")
        #expect(throws: EInvoiceError.missingField("seller name")) { try EInvoiceReader.read(Data(noSeller.utf8)) }
    }
}

/// The XML inside a Factur-X / ZUGFeRD PDF, found through Poppler's attachments.
@Suite struct FacturXTests {
    @Test func theEmbeddedXMLIsRead() throws {
        let pdf = try EInvoiceSamples.pdf(attaching: [("factur-x.xml", EInvoiceSamples.cii())])
        let invoice = try EInvoiceFile.read(pdf, kind: .pdf)
        #expect(invoice.grandTotal == eur(17_250))
        #expect(invoice.vatBreakdown.count == 2)
        // ZUGFeRD 2's name, and an invoice next to other attachments.
        let zugferd = try EInvoiceSamples.pdf(attaching: [("notes.txt", Data("hello".utf8)),
                                                          ("zugferd-invoice.xml", EInvoiceSamples.ubl())])
        #expect(try EInvoiceFile.read(zugferd, kind: .pdf).syntax == .ubl)
        // ZUGFeRD 1.0's own name for the file.
        let version1 = try EInvoiceSamples.pdf(attaching: [("ZUGFeRD-invoice.xml", EInvoiceSamples.zugferd1())])
        #expect(try EInvoiceFile.read(version1, kind: .pdf).syntax == .zugferd1)
    }

    @Test func anEmbeddedFileIsReadOnlyUpToTheLimit() throws {
        let xml = EInvoiceSamples.cii()
        let document = try PDFDocument(data: try EInvoiceSamples.pdf(attaching: [("factur-x.xml", xml)]))
        #expect(document.attachmentNames == ["factur-x.xml"])
        #expect(try document.attachment(namedAnyOf: ["FACTUR-X.XML"], maxByteCount: xml.count)?.data == xml)
        #expect(throws: PDFEmbeddedFileError.tooLarge(name: "factur-x.xml", limit: 100)) {
            try document.attachment(namedAnyOf: ["factur-x.xml"], maxByteCount: 100)
        }
        #expect(try document.attachment(namedAnyOf: ["xrechnung.xml"], maxByteCount: xml.count) == nil)
    }

    @Test func aPDFWithoutAnInvoiceSaysWhatItHas() throws {
        #expect(throws: EInvoiceError.noInvoiceInPDF(attachments: [])) {
            try EInvoiceFile.read(try EInvoiceSamples.pdf(), kind: .pdf)
        }
        #expect(throws: EInvoiceError.noInvoiceInPDF(attachments: ["notes.txt"])) {
            try EInvoiceFile.read(try EInvoiceSamples.pdf(attaching: [("notes.txt", Data("hello".utf8))]), kind: .pdf)
        }
        #expect(throws: EInvoiceError.notAnInvoiceFile) { try EInvoiceFile.read(Data([0xFF, 0xD8]), kind: .jpeg) }
        // A broken invoice inside a good PDF says what is wrong with the invoice.
        let broken = try EInvoiceSamples.pdf(attaching: [("factur-x.xml", EInvoiceSamples.cii(typeCode: "381"))])
        #expect(throws: EInvoiceError.creditNote) { try EInvoiceFile.read(broken, kind: .pdf) }
    }
}
