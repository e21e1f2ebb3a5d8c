import BillfoldCore
import Foundation
import PDFInspection
import Storage
import Graphics
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The payment QR code: its text per EPC069-12, and the code on the rendered page as a
/// scanner reads it (zbarimg on the page rendered by pdftoppm).
@Suite struct GiroCodeTests {
    static var euroInvoice: InvoiceDocument {
        EInvoiceFixtures.all.first { $0.name == "standard-two-rates-discounts-partial-payment" }!.document
    }

    static func with(_ document: InvoiceDocument, profile change: (inout BusinessProfile) -> Void = { _ in },
                     invoice changeInvoice: (inout Invoice) -> Void = { _ in }) -> InvoiceDocument {
        var profile = document.profile
        change(&profile)
        var invoice = document.invoice
        changeInvoice(&invoice)
        return InvoiceDocument(profile: profile, invoice: invoice, billTo: document.billTo, totals: try! invoice.totals(),
                               logoURL: nil)
    }

    @Test func thePayloadFollowsEPC069() throws {
        let document = Self.euroInvoice
        let code = try #require(GiroCode(document))
        let due = document.totals.balanceDue
        let expected = ["BCD", "002", "1", "SCT", "COBADEFFXXX", "Studio Nord", "DE89370400440532013000",
                        "EUR" + String(due.minorUnits / 100) + "." + String(format: "%02d", Int(due.minorUnits % 100)),
                        "", "", "RE-2026-001"].joined(separator: "\n")
        #expect(code.payload == expected)
        #expect(code.payload == "BCD\n002\n1\nSCT\nCOBADEFFXXX\nStudio Nord\nDE89370400440532013000\nEUR755.32\n\n\nRE-2026-001")
        #expect(!code.payload.hasSuffix("\n"))
    }

    @Test func limitsAreKept() throws {
        let long = Self.with(Self.euroInvoice, profile: { $0.name = String(repeating: "Ä", count: 90); $0.bic = "" },
                             invoice: { $0.number = "R-" + String(repeating: "9", count: 200) })
        let code = try #require(GiroCode(long))
        #expect(code.name.count == 70)
        #expect(code.remittance.count == 140)
        #expect(code.bic.isEmpty)
        #expect(code.payload.utf8.count <= GiroCode.maximumBytes)
        // The longest text still fits the largest symbol EPC allows.
        let qr = try QRCode(bytes: Array(code.payload.utf8), errorCorrection: .medium, maximumVersion: GiroCode.maximumVersion)
        #expect(qr.version <= 13)
    }

    @Test func thereIsNoCodeWhenItWouldBeWrong() {
        #expect(GiroCode(Self.with(Self.euroInvoice, profile: { $0.printsPaymentQRCode = false })) == nil)
        #expect(GiroCode(Self.with(Self.euroInvoice, profile: { $0.iban = "" })) == nil)
        #expect(GiroCode(Self.with(Self.euroInvoice, invoice: { try? $0.cancel() })) == nil)
        let usd = EInvoiceFixtures.all.first { $0.name == "export-usd" }!.document
        #expect(GiroCode(usd) == nil)
        let paid = Self.with(Self.euroInvoice, invoice: { invoice in
            try? invoice.recordPayment(try! invoice.totals().balanceDue, on: invoice.issueDate)
        })
        #expect(GiroCode(paid) == nil)
    }

    @Test func aScannerReadsThePayloadFromTheRenderedPage() throws {
        let document = Self.euroInvoice
        let directory = try TemporaryDirectory()
        for format in [InvoiceExportFormat.pdf, .facturX] {
            let url = directory.url.appendingPathComponent("invoice-\(format.rawValue).pdf")
            try EInvoiceExport.write(document, as: format, to: url)
            let codes = try PDFInspection.qrCodes(in: url)
            #expect(codes == [try #require(GiroCode(document)).payload], "\(format)")
        }
    }

    @Test func turnedOffThePageHasNoCode() throws {
        let document = Self.with(Self.euroInvoice, profile: { $0.printsPaymentQRCode = false })
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("invoice.pdf")
        try EInvoiceExport.write(document, as: .pdf, to: url)
        #expect(try PDFInspection.qrCodes(in: url) == [])
    }

    @Test func theSettingIsSavedWithTheProfile() throws {
        let repository = try InvoiceRepository(database: try Database.inMemory())
        var profile = Self.euroInvoice.profile
        profile.printsPaymentQRCode = false
        try repository.saveProfile(profile)
        #expect(try repository.profile().printsPaymentQRCode == false)
        profile.printsPaymentQRCode = true
        try repository.saveProfile(profile)
        #expect(try repository.profile().printsPaymentQRCode == true)
    }
}
