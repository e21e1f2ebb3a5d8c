import BillfoldCore
import Foundation
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Invoices across every VAT category, several currencies, discounts, payments and sizes, as
/// documents ready for export, with the seller and clients an e-invoice needs.
enum EInvoiceFixtures {
    static let seller = BusinessProfile(
        name: "Studio Nord", address: "Hafenstraße 1", email: "hello@studio-nord.example", phone: "+49 40 1234567",
        taxID: "22/815/08151", iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX", defaultCurrency: .eur,
        defaultTaxRate: 19, paymentInstructions: "Please transfer within 14 days.", vatID: "DE123456789",
        postcode: "20457", city: "Hamburg", countryCode: "DE", contactName: "Jana Nord")

    static let germanBusiness = BillTo(name: "Kunde GmbH", address: "Marktplatz 5", email: "buchhaltung@kunde.example",
                                       vatID: "DE987654321", postcode: "50667", city: "Köln", countryCode: "DE")
    static let germanAuthority = BillTo(name: "Stadt Musterstadt – Bauamt", address: "Rathausplatz 1\nZimmer 2.14",
                                        email: "rechnung@musterstadt.example", postcode: "12345", city: "Musterstadt",
                                        countryCode: "DE", electronicAddress: "0204:991-12345-67")
    static let frenchBusiness = BillTo(name: "Atelier Lumière SARL", address: "12 rue de la Paix", email: "compta@lumiere.example",
                                       vatID: "FR12345678901", postcode: "75002", city: "Paris", countryCode: "FR")
    static let americanClient = BillTo(name: "Acme Corp.", address: "1 Infinite Loop & Co <Suite 5>", email: "ap@acme.example",
                                       postcode: "95014", city: "Cupertino", countryCode: "US")
    static let japaneseClient = BillTo(name: "株式会社サンプル", address: "千代田区1-1", email: "keiri@sample.example",
                                       postcode: "100-0001", city: "東京", countryCode: "JP")
    static let swissClient = BillTo(name: "Berg AG", address: "Bahnhofstrasse 10", email: "kreditoren@berg.example",
                                    postcode: "8001", city: "Zürich", countryCode: "CH", electronicAddress: "0088:7640123456784")

    struct Case {
        let name: String
        let document: InvoiceDocument
        /// The formats it must export as, valid.
        let formats: [EInvoiceFormat]
    }

    static func line(_ description: String, _ quantity: String, _ price: String, _ rate: String = "19",
                     _ category: VATCategory = .standard, discount: String? = nil, unit: UnitCode = .hour,
                     currency: Currency = .eur) -> LineItem {
        LineItem(description: description, quantity: decimal(quantity), unit: unit.word, unitPrice: money(price, currency),
                 taxRate: decimal(rate), discountPercent: discount.map(decimal), vatCategory: category, unitCode: unit)
    }

    static func document(_ number: String, _ lines: [LineItem], billTo: BillTo, currency: Currency = .eur,
                         discount: String = "0", payments: [String] = [], profile: BusinessProfile = seller,
                         configure: (inout Invoice) -> Void = { _ in }) -> InvoiceDocument {
        var invoice = Invoice(number: number, clientID: ClientID(1), issueDate: day("2026-03-02"), dueDate: day("2026-03-16"),
                              currency: currency, lines: lines, discountPercent: decimal(discount),
                              notes: "Thank you for your business.")
        configure(&invoice)
        if !payments.isEmpty {
            try! invoice.markSent(on: invoice.issueDate)
            for amount in payments { try! invoice.recordPayment(money(amount, currency), on: day("2026-03-05")) }
        }
        return InvoiceDocument(profile: profile, invoice: invoice, billTo: billTo, totals: try! invoice.totals(), logoURL: nil)
    }

    static var all: [Case] {
        var smallBusiness = seller
        smallBusiness.vatID = ""
        var notSubjectSeller = seller
        notSubjectSeller.defaultVATCategory = .notSubject
        let thousand = (0..<1000).map { index in
            line("Line \(index + 1): design work & review <part \(index % 7)>", ["1", "2.5", "0.25", "3"][index % 4],
                 ["95.00", "12.34", "0.05", "1500.00"][index % 4], index % 3 == 0 ? "7" : "19",
                 discount: index % 5 == 0 ? "12.5" : nil, unit: [.hour, .day, .piece, .kilometre][index % 4])
        }
        return [
            Case(name: "standard-two-rates-discounts-partial-payment", document: document("RE-2026-001", [
                line("Web design\nLanding page, three rounds of changes", "12.5", "85.00", discount: "10"),
                line("Printed brochures", "250", "0.37", "7", unit: .piece),
                line("Travel", "1", "48.10", "19", unit: .lumpSum),
            ], billTo: germanBusiness, discount: "3", payments: ["500.00"]) { invoice in
                invoice.purchaseOrderReference = "PO-7781"
                invoice.deliveryDate = day("2026-02-27")
            }, formats: [.facturX]),
            Case(name: "zero-rated", document: document("RE-2026-002", [
                line("Books", "3", "19.99", "0", .zeroRated, unit: .piece),
            ], billTo: germanBusiness), formats: [.facturX]),
            Case(name: "exempt-with-reason", document: document("RE-2026-003", [
                line("Coaching session", "2", "120.00", "0", .exempt),
            ], billTo: germanBusiness, profile: smallBusiness) { invoice in
                invoice.exemptionReason = "Kein Ausweis von Umsatzsteuer, da Kleinunternehmer gemäß § 19 UStG."
            }, formats: [.facturX]),
            Case(name: "reverse-charge", document: document("RE-2026-004", [
                line("Consulting", "16", "110.00", "0", .reverseCharge),
            ], billTo: frenchBusiness, discount: "5"), formats: [.facturX]),
            Case(name: "intra-community", document: document("RE-2026-005", [
                line("Hardware delivered", "4", "249.90", "0", .intraCommunity, unit: .piece),
            ], billTo: frenchBusiness, discount: "2") { invoice in
                invoice.deliveryDate = day("2026-02-20")
            }, formats: [.facturX]),
            Case(name: "export-usd", document: document("RE-2026-006", [
                line("Illustrations", "5", "400.00", "0", .export, currency: .usd),
            ], billTo: americanClient, currency: .usd, payments: ["1000.00"]), formats: [.facturX]),
            Case(name: "not-subject", document: document("RE-2026-007", [
                line("Damages paid as agreed", "1", "300.00", "0", .notSubject, unit: .lumpSum),
            ], billTo: germanBusiness, discount: "10", profile: notSubjectSeller), formats: [.facturX]),
            Case(name: "mixed-categories", document: document("RE-2026-008", [
                line("Design", "10", "90.00"),
                line("Books", "2", "25.00", "0", .zeroRated, unit: .piece),
                line("Training (exempt)", "1", "600.00", "0", .exempt, unit: .day),
            ], billTo: germanBusiness, discount: "2.5") { invoice in
                invoice.exemptionReason = "Steuerfrei nach § 4 Nr. 21 UStG."
            }, formats: [.facturX]),
            Case(name: "yen-no-minor-units", document: document("RE-2026-009", [
                line("Translation", "3.5", "12000", "10", currency: .jpy),
                line("Proofreading", "1", "5001", "8", discount: "3", currency: .jpy),
            ], billTo: japaneseClient, currency: .jpy, discount: "7"), formats: [.facturX]),
            Case(name: "swiss-francs", document: document("RE-2026-010", [
                line("Workshop", "2", "1250.00", "8.1", unit: .day, currency: .chf),
            ], billTo: swissClient, currency: .chf, payments: ["1000.00", "351.00"]), formats: [.facturX]),
            Case(name: "xrechnung-authority-period", document: document("RE-2026-011", [
                line("Beratung Bauleitplanung", "24", "95.00"),
                line("Fahrtkosten", "180", "0.30", unit: .kilometre),
            ], billTo: germanAuthority) { invoice in
                invoice.buyerReference = "991-12345-67"
                invoice.deliveryDate = day("2026-02-01")
                invoice.deliveryEndDate = day("2026-02-28")
            }, formats: [.facturX, .xrechnung]),
            Case(name: "xrechnung-reverse-charge", document: document("RE-2026-012", [
                line("Software licence", "1", "2400.00", "0", .reverseCharge, unit: .piece),
            ], billTo: frenchBusiness) { invoice in
                invoice.buyerReference = "LUM-2026-7"
            }, formats: [.facturX, .xrechnung]),
            Case(name: "thousand-lines", document: document("RE-2026-013", thousand, billTo: germanBusiness, discount: "4",
                                                          payments: ["10000.00"]) { invoice in
                invoice.buyerReference = "PROJ-1000"
            }, formats: [.facturX, .xrechnung]),
        ]
    }
}
