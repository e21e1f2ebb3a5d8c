import BillfoldCore
import Foundation
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct CSVExchangeTests {
    private func file(_ text: String) throws -> CSVImportFile {
        try CSVImportFile(data: Data(text.utf8))
    }

    private func preview(_ fixture: Fixture, _ text: String, _ content: CSVContent, format: CSVNumberFormat? = nil,
                         plan: InvoicePlan = .pro) throws -> CSVImportPreview {
        let file = try file(text)
        return try fixture.repository.previewImport(file, content: content,
                                                    mapping: CSVMapping.detect(header: file.header, content: content),
                                                    format: format ?? file.suggestedNumberFormat(for: content), plan: plan)
    }

    /// A library with two clients and three invoices in two currencies, one paid and one with a multi-line note.
    private func filledFixture() throws -> Fixture {
        let fixture = try Fixture()
        let acme = try fixture.repository.save(Client(name: "Acme, Inc.", email: "billing@acme.example", address: "1 Road\nSpringfield",
                                                      currency: .eur, paymentTermsDays: 30, vatID: "DE123456789"))
        let yamada = try fixture.client("山田 陽子", currency: .jpy)
        try fixture.invoice(for: acme, issued: "2024-03-01", lines: [line("Design \"v2\", final", quantity: "1.5", price: "80.00", rate: "19"),
                                                                     line("Hosting", price: "10.00", rate: "7", discount: "10")])
        var paid = try fixture.sentInvoice(for: acme, issued: "2024-02-01", lines: [line("Consulting\nsecond line", price: "500.00", rate: "19")])
        try paid.recordPayment(money("100.00"), on: day("2024-02-10"))
        try paid.markPaid(on: day("2024-03-01"))
        try fixture.repository.save(paid)
        try fixture.sentInvoice(for: yamada, issued: "2024-01-05", lines: [line("翻訳", quantity: "3", price: "12000", currency: .jpy)])
        return fixture
    }

    @Test func exportsFollowTheDocumentedColumns() throws {
        let fixture = try filledFixture()
        let clients = try CSV.parse(Data(try fixture.repository.clientsCSV().utf8)).map(\.fields)
        #expect(clients[0] == CSVField.clientFields.map(\.name))
        #expect(clients[1] == ["Acme, Inc.", "billing@acme.example", "1 Road\nSpringfield", "", "", "", "", "DE123456789", "EUR", "30", "", "", ""])
        #expect(clients[2][0] == "山田 陽子" && clients[2][8] == "JPY")

        let invoices = try CSV.parse(Data(try fixture.repository.invoicesCSV().utf8)).map(\.fields)
        let header = CSVField.invoiceFields.map(\.name)
        #expect(invoices[0] == header)
        let rows = invoices.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(rows.map { $0["number"] } == ["INV-2024-0003", "INV-2024-0002", "INV-2024-0001", "INV-2024-0001"])
        #expect(rows[0]["currency"] == "JPY" && rows[0]["line_unit_price"] == "12000" && rows[0]["total"] == "36000")
        #expect(rows[1]["status"] == "paid" && rows[1]["paid"] == "595.00" && rows[1]["balance"] == "0.00"
            && rows[1]["paid_on"] == "2024-03-01" && rows[1]["line_description"] == "Consulting\nsecond line")
        #expect(rows[2]["line_description"] == "Design \"v2\", final" && rows[2]["line_quantity"] == "1.5"
            && rows[2]["line_tax_rate"] == "19" && rows[3]["line_discount_percent"] == "10")
    }

    @Test func aRoundTripIntoAnEmptyLibraryGivesTheSameInvoices() throws {
        let source = try filledFixture()
        let target = try Fixture()
        let clients = try preview(target, try source.repository.clientsCSV(), .clients)
        #expect(clients.problems.isEmpty && clients.newClients.count == 2)
        try target.repository.importCSV(clients, plan: .pro)
        let invoices = try preview(target, try source.repository.invoicesCSV(), .invoices)
        #expect(invoices.problems == [] && invoices.newInvoices.count == 3 && invoices.newClients.isEmpty)
        let result = try target.repository.importCSV(invoices, plan: .pro)
        #expect(result == CSVImportResult(clientsAdded: 0, invoicesAdded: 3))

        for number in ["INV-2024-0001", "INV-2024-0002", "INV-2024-0003"] {
            let original = try #require(try source.repository.invoice(number: number))
            let copy = try #require(try target.repository.invoice(number: number))
            #expect(copy.lines == original.lines && copy.status == original.status && copy.issueDate == original.issueDate
                && copy.dueDate == original.dueDate)
            #expect(try copy.totals() == original.totals())
        }
        let copiedAcme = try #require(try target.repository.clients().first { $0.name == "Acme, Inc." })
        #expect(copiedAcme.address == "1 Road\nSpringfield" && copiedAcme.paymentTermsDays == 30 && copiedAcme.vatID == "DE123456789")
        // The receivables agree once every payment is in (the file keeps the paid amount and the last day paid).
        #expect(try target.repository.receivables(asOf: day("2024-03-05")) == source.repository.receivables(asOf: day("2024-03-05")))

        // The same files again add nothing.
        let again = try preview(target, try source.repository.invoicesCSV(), .invoices)
        #expect(again.newInvoices.isEmpty && again.alreadyThere == 3 && !again.canImport)
        let clientsAgain = try preview(target, try source.repository.clientsCSV(), .clients)
        #expect(clientsAgain.newClients.isEmpty && clientsAgain.alreadyThere == 2)
        #expect(try target.repository.invoiceCount() == 3)
    }

    @Test func columnsAreFoundByTheirNamesAndCommonAliases() {
        let mapping = CSVMapping.detect(header: ["Invoice No", "Date", "Customer", "E-Mail", "Description", "Qty", "Price", "VAT rate"],
                                        content: .invoices)
        #expect(mapping.columns == ["number": 0, "issue_date": 1, "client_name": 2, "client_email": 3, "line_description": 4,
                                    "line_quantity": 5, "line_unit_price": 6, "line_tax_rate": 7])
        let clients = CSVMapping.detect(header: ["Company", "email", "ZIP", "City"], content: .clients)
        #expect(clients.columns == ["name": 0, "email": 1, "postcode": 2, "city": 3])
    }

    @Test func amountsAndDatesAreReadInTheFilesLocale() throws {
        let fixture = try Fixture()
        let text = "Rechnung;Datum;Kunde;Beschreibung;Menge;Preis;Steuersatz\nR-1;31.03.2024;Müller GmbH;Beratung;1,5;1.234,50;19\n"
        var mapping = CSVMapping.detect(header: try file(text).header, content: .invoices)
        mapping.columns["number"] = 0
        mapping.columns["issue_date"] = 1
        mapping.columns["client_name"] = 2
        mapping.columns["line_description"] = 3
        mapping.columns["line_quantity"] = 4
        mapping.columns["line_unit_price"] = 5
        mapping.columns["line_tax_rate"] = 6
        let german = try fixture.repository.previewImport(try file(text), content: .invoices, mapping: mapping,
                                                          format: .locale(Locale(identifier: "de_DE")), plan: .pro)
        #expect(german.problems == [])
        let invoice = try #require(german.newInvoices.first?.invoice)
        #expect(invoice.issueDate == day("2024-03-31") && invoice.lines.first?.unitPrice == money("1234.50")
            && invoice.lines.first?.quantity == decimal("1.5"))
        #expect(german.newClients.map(\.name) == ["Müller GmbH"])

        // Read as plain numbers, the German amount is a clear error on its line, and nothing can be imported.
        let plain = try fixture.repository.previewImport(try file(text), content: .invoices, mapping: mapping, format: .plain, plan: .pro)
        #expect(plain.problems.count == 1 && plain.problems[0].line == 2 && !plain.canImport)
        #expect(plain.problems[0].message.contains("Unit price"))
    }

    @Test func everyBadRowIsReportedWithItsLine() throws {
        let fixture = try Fixture()
        let text = """
            number,issue_date,client_name,currency,line_description,line_unit_price,status
            A-1,2024-01-01,Acme,EUR,Work,100.00,sent
            A-2,not a date,Acme,EUR,Work,100.00,sent
            A-3,2024-01-01,Acme,ABC,Work,100.00,sent
            A-4,2024-01-01,Acme,EUR,Work,abc,sent
            A-5,2024-01-01,Acme,EUR,Work,100.00,archived
            A-6,2024-01-01,Acme,EUR
            ,2024-01-01,Acme,EUR,Work,1.00,draft
            A-1,2024-02-02,Acme,EUR,More,1.00,sent
            """
        let result = try preview(fixture, text, .invoices, format: .plain)
        #expect(result.problems.map(\.line) == [3, 4, 5, 6, 7, 8, 9])
        #expect(result.problems[0].message.contains("not a date"))
        #expect(result.problems[1].message.contains("ABC"))
        #expect(result.problems[3].message.contains("archived"))
        #expect(result.problems[4].message.contains("4 fields"))
        #expect(result.problems[6].message.contains("line 2"))
        #expect(!result.canImport)
        #expect(throws: CSVImportError.rowsHaveProblems(7)) { try fixture.repository.importCSV(result, plan: .pro) }
        #expect(try fixture.repository.invoiceCount() == 0 && fixture.repository.clients().isEmpty)
    }

    @Test func theFreePlanLimitRefusesTheWholeImport() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        for _ in 0..<3 { try fixture.invoice(for: acme, lines: [line(price: "1.00")]) }
        let rows = (1...3).map { "B-\($0),2024-01-01,Acme,Work,1.00" }.joined(separator: "\n")
        let text = "number,issue_date,client_name,line_description,line_unit_price\n" + rows + "\n"
        let free = try preview(fixture, text, .invoices, format: .plain, plan: .free)
        #expect(free.problems.isEmpty && free.newInvoices.count == 3 && !free.canImport)
        #expect(free.limitProblem?.contains("5 invoices") == true && free.limitProblem?.contains("adds 3") == true)
        #expect(throws: InvoiceError.importOverLimit(limit: 5, existing: 3, adding: 3)) {
            try fixture.repository.importCSV(free, plan: .free)
        }
        #expect(try fixture.repository.invoiceCount() == 3)
        let pro = try preview(fixture, text, .invoices, format: .plain, plan: .pro)
        #expect(try fixture.repository.importCSV(pro, plan: .pro).invoicesAdded == 3)
    }

    @Test func clientsAreTheSameByNameAndEmail() throws {
        let fixture = try Fixture()
        try fixture.repository.save(Client(name: "Acme", email: "a@acme.example", currency: .eur))
        let text = "name,email\n  ACME ,A@ACME.example\nAcme,other@acme.example\nAcme,other@acme.example\n,x@example.com\n"
        let result = try preview(fixture, text, .clients)
        #expect(result.newClients.map(\.email) == ["other@acme.example"])
        #expect(result.alreadyThere == 2)
        #expect(result.problems.map(\.line) == [5])
    }

    @Test func theCommandLineImportsAndSaysWhatItDid() throws {
        let fixture = try Fixture()
        let directory = try TemporaryDirectory()
        let path = directory.path("clients.csv")
        try Data("name,email,currency\nAcme,a@acme.example,EUR\nBolt,b@bolt.example,USD\n".utf8).write(to: URL(fileURLWithPath: path))

        let dry = CapturedOutput()
        #expect(ExchangeCommandLine.runClient(arguments: ["import", path, "--dry-run"], database: fixture.database, plan: .free,
                                              output: dry.output) == 0)
        #expect(dry.standard.contains("nothing was imported") && dry.standard.contains("2 new clients"))
        #expect(try fixture.repository.clients().isEmpty)

        let real = CapturedOutput()
        #expect(ExchangeCommandLine.runClient(arguments: ["import", path], database: fixture.database, plan: .free,
                                              output: real.output) == 0)
        #expect(real.standard == "Imported 2 clients.")
        let again = CapturedOutput()
        #expect(ExchangeCommandLine.runClient(arguments: ["import", path], database: fixture.database, plan: .free,
                                              output: again.output) == 0)
        #expect(again.standard == "Imported 0 clients; 2 were already in the library.")

        try Data("number,issue_date,client_name,line_description,line_unit_price\nX-1,2024-13-01,Acme,Work,1.00\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let bad = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["import", path, "--dry-run"], database: fixture.database, plan: .free,
                                        output: bad.output) == 1)
        #expect(bad.error.contains("Line 2: Issue date:") && bad.error.contains("nothing was imported"))
        #expect(bad.error.contains("pass --number-format plain"))
        let usage = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["import"], database: fixture.database, plan: .free, output: usage.output) == 2)
        #expect(usage.error.contains("Name the CSV file"))
        let missing = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["import", directory.path("none.csv")], database: fixture.database, plan: .free,
                                        output: missing.output) == 1)
        #expect(missing.error.contains("does not exist"))
    }

    @Test func theCommandLineWritesBothReports() throws {
        let fixture = try filledFixture()
        let directory = try TemporaryDirectory()
        let english = InvoicesCommandLine.Formatting(money: MoneyFormatter(locale: Locale(identifier: "en_US")),
                                                     dateLocale: Locale(identifier: "en_US"))
        let csvPath = directory.path("receivables.csv")
        let output = CapturedOutput()
        #expect(ExchangeCommandLine.runReport(arguments: ["receivables", "--as-of", "2024-02-15", "--output", csvPath],
                                              database: fixture.database, formatting: english, output: output.output) == 0)
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8)
        #expect(csv.contains("2024-02-15,\"Acme, Inc.\",EUR,495.00,0.00,0.00,0.00,0.00,495.00,1"))
        #expect(csv.contains("2024-02-15,山田 陽子,JPY,0,36000,0,0,0,36000,1"))

        let pdfPath = directory.path("receivables.pdf")
        #expect(ExchangeCommandLine.runReport(arguments: ["receivables", "--as-of", "Feb 15, 2024", "--output", pdfPath],
                                              database: fixture.database, formatting: english, output: output.output) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: pdfPath)).starts(with: Data("%PDF".utf8)))
        #expect(ExchangeCommandLine.runReport(arguments: ["revenue", "--year", "2024", "--output", directory.path("revenue.csv")],
                                              database: fixture.database, formatting: english, output: output.output) == 0)

        let wrong = CapturedOutput()
        #expect(ExchangeCommandLine.runReport(arguments: ["receivables", "--as-of", "someday", "--output", csvPath],
                                              database: fixture.database, formatting: english, output: wrong.output) == 2)
        #expect(ExchangeCommandLine.runReport(arguments: ["receivables", "--output", directory.path("r.txt")],
                                              database: fixture.database, formatting: english, output: wrong.output) == 2)
        #expect(wrong.error.contains("someday") && wrong.error.contains("FILE.pdf or FILE.csv"))
    }

    @Test func aLargeExportIsWrittenInPiecesThatMakeTheSameFile() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        for index in 0..<300 {
            try fixture.invoice(for: acme, lines: [line("Work item \(index), with a comma", price: "10.00"), line(price: "2.50")])
        }
        var pieces: [String] = []
        try fixture.repository.writeInvoicesCSV { pieces.append($0) }
        #expect(pieces.count > 1)
        let whole = try fixture.repository.invoicesCSV()
        #expect(pieces.joined() == whole)
        #expect(try CSV.parse(Data(whole.utf8)).count == 601)

        let directory = try TemporaryDirectory()
        let output = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["export-csv", "--output", directory.path("all.csv")], database: fixture.database,
                                        plan: .free, output: output.output) == 0)
        #expect(try String(contentsOfFile: directory.path("all.csv"), encoding: .utf8) == whole)
    }
}
