import BillfoldCore
import Documents
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct EInvoiceMigrationTests {
    /// A database as version 1 left it, with a profile, two clients, a sent invoice and a draft.
    private func versionOneDatabase() throws -> Database {
        let database = try Database.inMemory()
        try database.migrate(owner: InvoiceSchema.owner, migrations: [InvoiceSchema.migrations[0]])
        try database.execute("INSERT INTO invoices_profile VALUES (1, 'Studio Nord', 'Hafenstraße 1\n20457 Hamburg', 'hi@nord.example', '+49 40 1', 'DE 123 456 789', '', 'DE89370400440532013000', 'COBADEFFXXX', NULL, 'EUR', 14, '19', 'INV-{YYYY}-{NNNN}', 'Thanks', 'Pay soon')")
        try database.execute("INSERT INTO invoices_client (id, name, email, address, tax_id, currency, payment_terms_days, notes) VALUES (1, 'Lumière', 'a@lumiere.example', '12 rue de la Paix\n75002 Paris', 'FR12345678901', 'EUR', NULL, 'private'), (2, 'Meyer', '', 'Dorfstraße 2', '12/345/67890', 'EUR', 30, '')")
        try database.execute("INSERT INTO invoices_invoice VALUES (1, 'INV-2024-0001', 1, '2024-03-01', '2024-03-15', 'EUR', '5', 'Thank you', 'sent', '2024-03-01', 'Lumière SARL', '12 rue de la Paix', 'a@lumiere.example', 'FR12345678901', 42050, 2103, 6975, 46922, 10000, 36922, 469220000, '2024-03-01T10:00:00Z', 3)")
        try database.execute("INSERT INTO invoices_invoice VALUES (2, 'INV-2024-0002', 2, '2024-04-01', '2024-05-01', 'EUR', '0', '', 'draft', NULL, NULL, NULL, NULL, NULL, 1000, 0, 0, 1000, 0, 1000, 10000000, '2024-04-01T10:00:00Z', 1)")
        try database.execute("INSERT INTO invoices_line VALUES (1, 1, 0, 'Design', '4.5', 'h', 9000, '19', NULL), (2, 1, 1, 'Proofreading', '2', 'Seite', 750, '0', '10'), (3, 2, 0, 'Books', '1', 'pcs', 1000, '0', NULL)")
        try database.execute("INSERT INTO invoices_payment VALUES (1, 1, 0, '2024-03-05', 10000, 'first half')")
        try database.execute("INSERT INTO invoices_number VALUES ('INV-2024-0001', 1), ('INV-2024-0002', 2)")
        return database
    }

    @Test func versionTwoKeepsEverythingAndSortsOutVATIDsAndUnits() throws {
        let database = try versionOneDatabase()
        let repository = try InvoiceRepository(database: database)

        let profile = try repository.profile()
        #expect(profile.vatID == "DE 123 456 789")
        #expect(profile.taxID == "")
        #expect(profile.address == "Hafenstraße 1\n20457 Hamburg")
        #expect(profile.defaultVATCategory == .standard)
        #expect(profile.paymentInstructions == "Pay soon")

        let lumiere = try #require(try repository.client(ClientID(1)))
        #expect(lumiere.vatID == "FR12345678901" && lumiere.taxID == "" && lumiere.notes == "private")
        let meyer = try #require(try repository.client(ClientID(2)))
        #expect(meyer.taxID == "12/345/67890" && meyer.vatID == "" && meyer.paymentTermsDays == 30)

        let sent = try #require(try repository.invoice(InvoiceID(1)))
        #expect(sent.status == .sent && sent.revision == 3 && sent.discountPercent == 5 && sent.notes == "Thank you")
        #expect(sent.billTo == BillTo(name: "Lumière SARL", address: "12 rue de la Paix", email: "a@lumiere.example",
                                      vatID: "FR12345678901"))
        #expect(sent.lines.map(\.description) == ["Design", "Proofreading"])
        #expect(sent.lines.map(\.unit) == ["h", "Seite"])
        #expect(sent.lines.map(\.unitCode) == [.hour, .piece])
        #expect(sent.lines.map(\.vatCategory) == [.standard, .zeroRated])
        #expect(sent.lines[1].discountPercent == 10)
        #expect(sent.payments == [Payment(date: day("2024-03-05"), amount: money("100.00"), note: "first half")])
        // The amounts are what version 1 worked out: 405.00 + 13.50, less 5 % (20.93), 19 % on 384.75.
        let totals = try sent.totals()
        #expect(totals.subtotal == money("418.50") && totals.discount == money("20.93") && totals.tax == money("73.10"))
        #expect(totals.balanceDue == money("370.67"))

        let draft = try #require(try repository.invoice(InvoiceID(2)))
        #expect(draft.lines[0].vatCategory == .zeroRated && draft.lines[0].unitCode == .piece)
        #expect(draft.billTo == nil && draft.buyerReference.isEmpty && draft.deliveryDate == nil)
    }

    @Test func theNewFieldsAreSavedAndReadBack() throws {
        let fixture = try Fixture()
        var profile = try fixture.repository.profile()
        profile.vatID = "DE123456789"
        profile.postcode = "20457"
        profile.city = "Hamburg"
        profile.countryCode = "DE"
        profile.contactName = "Jana Nord"
        profile.electronicAddress = "0204:991-1"
        profile.defaultVATCategory = .exempt
        profile.defaultTaxRate = 0
        profile.defaultExemptionReason = "§ 19 UStG"
        try fixture.repository.saveProfile(profile)
        #expect(try fixture.repository.profile() == profile)

        var client = Client(name: "Stadt", currency: .eur, vatID: "DE987654321", postcode: "12345", city: "Musterstadt",
                            countryCode: "DE", electronicAddress: "rechnung@stadt.example", buyerReference: "991-12345-67",
                            eInvoiceFormat: .xrechnung)
        client = try fixture.repository.save(client)
        #expect(try fixture.repository.client(client.id!) == client)

        var invoice = Invoice.draft(for: client, profile: profile, today: day("2026-03-02"))
        #expect(invoice.buyerReference == "991-12345-67" && invoice.exemptionReason == "§ 19 UStG")
        invoice.lines = [invoice.newLine(profile: profile)]
        #expect(invoice.lines[0].vatCategory == .exempt && invoice.lines[0].taxRate == 0)
        invoice.lines[0].description = "Coaching"
        invoice.lines[0].unitPrice = money("100.00")
        invoice.purchaseOrderReference = "PO-1"
        invoice.deliveryDate = day("2026-02-01")
        invoice.deliveryEndDate = day("2026-02-28")
        invoice = try fixture.repository.save(invoice)
        try invoice.markSent(on: day("2026-03-02"))
        invoice = try fixture.repository.save(invoice)
        let stored = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(stored == invoice)
        #expect(stored.billTo?.countryCode == "DE" && stored.billTo?.vatID == "DE987654321")
        #expect(stored.billTo?.electronicAddress == "rechnung@stadt.example")

        // Once sent, what the e-invoice and its legal note say is fixed.
        var changed = stored
        changed.exemptionReason = "Another reason"
        #expect(throws: InvoiceError.locked(.eInvoiceDetails)) { try fixture.repository.save(changed) }
        // So are its notes: a sent invoice is corrected by a credit note, not edited.
        changed = stored
        changed.notes = "Other notes"
        #expect(throws: InvoiceError.locked(.notes)) { try fixture.repository.save(changed) }
    }
}

@Suite struct EInvoiceRulesTests {
    @Test func linesAreTaxedPerCategoryAndRate() throws {
        let lines = [
            EInvoiceFixtures.line("A", "1", "100.00"),
            EInvoiceFixtures.line("B", "1", "50.00", "0", .zeroRated),
            EInvoiceFixtures.line("C", "1", "30.00", "0", .exempt),
            EInvoiceFixtures.line("D", "3", "0.05", "7"),
        ]
        let totals = try InvoiceTotals(lines: lines, discountPercent: 10, payments: [], currency: .eur)
        #expect(totals.taxLines.map(\.category) == [.zeroRated, .exempt, .standard, .standard])
        #expect(totals.taxLines.map(\.rate) == [0, 0, 7, 19])
        // Every group's share of the 18.02 discount, summing exactly (BR-CO-11, BR-CO-13).
        #expect(totals.discount == money("18.02"))
        #expect(try Money.sum(totals.taxLines.map(\.discount), currency: .eur) == totals.discount)
        for line in totals.taxLines {
            #expect(try line.lineNet.subtracting(line.discount) == line.taxableAmount)
            #expect(line.tax == (try line.taxableAmount.percentage(line.rate, rounding: .halfUp)))
        }
        #expect(try Money.sum(totals.taxLines.map(\.taxableAmount), currency: .eur) == totals.netTotal)
        #expect(try totals.netTotal.adding(totals.tax) == totals.total)
    }

    @Test func theCategoriesInUseAreListedOnceInTheirFixedOrder() {
        let lines = [
            EInvoiceFixtures.line("A", "1", "10.00", "0", .exempt),
            EInvoiceFixtures.line("B", "1", "10.00"),
            EInvoiceFixtures.line("C", "1", "10.00", "0", .exempt),
            EInvoiceFixtures.line("D", "1", "10.00", "0", .zeroRated),
        ]
        let invoice = EInvoiceFixtures.document("C-1", lines, billTo: EInvoiceFixtures.germanBusiness).invoice
        #expect(invoice.vatCategories == VATCategory.allCases.filter { [.standard, .zeroRated, .exempt].contains($0) })
        #expect(EInvoiceFixtures.document("C-2", [], billTo: EInvoiceFixtures.germanBusiness).invoice.vatCategories.isEmpty)
    }

    @Test func aCategoryAndItsRateMustAgree() {
        var standardAtZero = EInvoiceFixtures.line("A", "1", "10.00", "0", .standard)
        #expect(standardAtZero.validate(index: 0, currency: .eur).map(\.field) == [.line(0, .taxRate)])
        standardAtZero.vatCategory = .reverseCharge
        #expect(standardAtZero.validate(index: 0, currency: .eur).isEmpty)
        standardAtZero.taxRate = 19
        #expect(standardAtZero.validate(index: 0, currency: .eur).map(\.field) == [.line(0, .taxRate)])
    }

    @Test func theReadinessCheckNamesWhatIsMissingInPlainWords() {
        var profile = EInvoiceFixtures.seller
        profile.countryCode = ""
        profile.contactName = ""
        profile.vatID = ""
        var buyer = EInvoiceFixtures.frenchBusiness
        buyer.vatID = ""
        buyer.postcode = ""
        let document = EInvoiceFixtures.document("X-1", [EInvoiceFixtures.line("Consulting", "1", "10.00", "0", .reverseCharge),
                                                        EInvoiceFixtures.line("Course", "1", "10.00", "0", .exempt)],
                                                 billTo: buyer, profile: profile)
        let facturX = EInvoiceExport.issues(document, format: .facturX)
        #expect(facturX.map(\.place) == [.businessProfile, .businessProfile, .client, .invoice])
        #expect(facturX[0].message.contains("country"))
        #expect(facturX[1].message.contains("VAT ID"))
        #expect(facturX[2].message.contains("client’s VAT ID"))
        #expect(facturX[3].message.contains("VAT Exemption Reason"))
        let xrechnung = EInvoiceExport.issues(document, format: .xrechnung).map(\.message)
        #expect(xrechnung.contains { $0.contains("contact person") })
        #expect(xrechnung.contains { $0.contains("client’s postcode and town") })
        #expect(xrechnung.contains { $0.contains("Leitweg-ID") })
        #expect(throws: EInvoiceError.notReady(facturX)) { try EInvoiceExport.ciiXML(document, format: .facturX) }

        // Amounts with three decimals cannot be written as EN 16931 allows (two at most).
        let dinars = EInvoiceFixtures.document("X-2", [EInvoiceFixtures.line("Consulting", "1", "10.000", currency: Currency(code: "BHD")!)],
                                               billTo: EInvoiceFixtures.germanBusiness, currency: Currency(code: "BHD")!)
        #expect(EInvoiceExport.issues(dinars, format: .facturX).map(\.message) == [
            "E-invoices carry amounts with at most two decimals, so an invoice in BHD cannot be one."])
    }

    @Test func textIsEscapedAndForbiddenCharactersLeftOut() {
        #expect(XMLWriter.escaped("Tom & Jerry <b>\"5\"</b>\u{1}\u{FFFE}ok", quotes: false) == "Tom &amp; Jerry &lt;b&gt;\"5\"&lt;/b&gt;ok")
        #expect(XMLWriter.escaped("a\"b\nc", quotes: true) == "a&quot;b&#10;c")
    }

    @Test func theXMLCarriesThePDFsNumbers() throws {
        let fixture = EInvoiceFixtures.all.first { $0.name == "standard-two-rates-discounts-partial-payment" }!
        let xml = String(decoding: try EInvoiceExport.ciiXML(fixture.document, format: .facturX), as: UTF8.self)
        let totals = fixture.document.totals
        for (element, amount) in [("LineTotalAmount", totals.subtotal), ("AllowanceTotalAmount", totals.discount),
                                  ("TaxBasisTotalAmount", totals.netTotal), ("GrandTotalAmount", totals.total),
                                  ("TotalPrepaidAmount", totals.paid), ("DuePayableAmount", totals.balanceDue)] {
            #expect(xml.contains("<ram:\(element)>\(amount.decimalValue)"), "\(element)")
        }
        #expect(xml.contains("<ram:TaxTotalAmount currencyID=\"EUR\">\(totals.tax.decimalValue)"))
        #expect(xml.contains("<ram:BilledQuantity unitCode=\"HUR\">12.5</ram:BilledQuantity>"))
        #expect(xml.contains("<ram:Name>Web design</ram:Name>"))
        #expect(xml.contains("<ram:IssuerAssignedID>PO-7781</ram:IssuerAssignedID>"))
        // The XML parses.
        #expect(XMLParser(data: Data(xml.utf8)).parse())
    }
}

@Suite struct EInvoicePDFTests {
    /// One computation feeds both: every VAT group's base and tax, the total and the balance
    /// the PDF prints are the amounts the XML states.
    @Test func thePDFAndTheXMLShowTheSameAmounts() throws {
        for fixture in EInvoiceFixtures.all where fixture.document.invoice.lines.count < 100 {
            let totals = fixture.document.totals
            let text = try ReadBack(InvoicePDF.render(fixture.document, formatting: englishFormatting).data).compactText
            let xml = String(decoding: try EInvoiceExport.ciiXML(fixture.document, format: .facturX), as: UTF8.self)
            let formatter = englishFormatting.money
            func xmlAmount(_ money: Money) -> String {
                let text = "\(money.decimalValue)"
                let exponent = money.currency.minorUnitExponent
                guard exponent > 0 else { return text }
                let fraction = text.split(separator: ".").dropFirst().first?.count ?? 0
                return (fraction == 0 ? text + "." : text) + String(repeating: "0", count: exponent - fraction)
            }
            for line in totals.taxLines {
                // The PDF leaves out the tax row of an invoice whose only group is zero-rated.
                if totals.taxLines.count > 1 || line.category != .zeroRated {
                    #expect(text.contains(compact(formatter.string(from: line.taxableAmount))), "\(fixture.name) base")
                    #expect(text.contains(compact(formatter.string(from: line.tax))), "\(fixture.name) tax")
                }
                #expect(xml.contains("<ram:CalculatedAmount>\(xmlAmount(line.tax))</ram:CalculatedAmount>"), "\(fixture.name)")
                #expect(xml.contains("<ram:BasisAmount>\(xmlAmount(line.taxableAmount))</ram:BasisAmount>"), "\(fixture.name)")
            }
            #expect(text.contains(compact(formatter.string(from: totals.total))), "\(fixture.name) total")
            #expect(text.contains(compact(formatter.string(from: totals.balanceDue))), "\(fixture.name) balance")
            #expect(xml.contains("<ram:GrandTotalAmount>\(xmlAmount(totals.total))</ram:GrandTotalAmount>"), "\(fixture.name)")
            #expect(xml.contains("<ram:DuePayableAmount>\(xmlAmount(totals.balanceDue))</ram:DuePayableAmount>"), "\(fixture.name)")
        }
    }

    @Test func theLegalNotesAndIdentifiersArePrinted() throws {
        var cases = EInvoiceFixtures.all
        cases.removeAll { !["reverse-charge", "exempt-with-reason", "xrechnung-authority-period"].contains($0.name) }
        let formatting = englishFormatting
        for fixture in cases {
            let text = try ReadBack(InvoicePDF.render(fixture.document, formatting: formatting).data).compactText
            switch fixture.name {
            case "reverse-charge":
                for expected in ["Reversecharge:therecipientisliablefortheVAT", "VATIDDE123456789", "VATIDFR12345678901",
                                 "TaxID22/815/08151", "75002Paris", "Reversechargeon"] {
                    #expect(text.contains(expected), "\(fixture.name): \(expected)")
                }
            case "exempt-with-reason":
                #expect(text.contains("Kleinunternehmergemäß§19UStG"))
            default:
                for expected in ["Deliveryperiod", "Feb1,2026toFeb28,2026", "Yourreference", "991-12345-67", "12345Musterstadt"] {
                    #expect(text.contains(expected), "\(fixture.name): \(expected)")
                }
            }
        }
    }
}
