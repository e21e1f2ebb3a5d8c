import BillfoldCore
import Foundation
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Collects what a command writes.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var standardLines: [String] = []
    private var errorLines: [String] = []

    var standard: String { lock.withLock { standardLines.joined(separator: "\n") } }
    var standardWrites: Int { lock.withLock { standardLines.count } }
    var error: String { lock.withLock { errorLines.joined(separator: "\n") } }

    var output: InvoicesCommandLine.Output {
        InvoicesCommandLine.Output(standard: { text in self.lock.withLock { self.standardLines.append(text) } },
                                   error: { text in self.lock.withLock { self.errorLines.append(text) } })
    }
}

@Suite struct InvoicesCommandLineTests {
    private let english = InvoicesCommandLine.Formatting(money: MoneyFormatter(locale: Locale(identifier: "en_US")),
                                                         dateLocale: Locale(identifier: "en_US"))
    private let german = InvoicesCommandLine.Formatting(money: MoneyFormatter(locale: Locale(identifier: "de_DE")),
                                                        dateLocale: Locale(identifier: "de_DE"))

    private func run(_ arguments: [String], _ fixture: Fixture, formatting: InvoicesCommandLine.Formatting? = nil)
        -> (status: Int32, output: CapturedOutput) {
        let captured = CapturedOutput()
        let status = InvoicesCommandLine.run(arguments: arguments, database: fixture.database, plan: .pro, today: day("2024-04-01"),
                                             formatting: formatting ?? english, output: captured.output)
        return (status, captured)
    }

    @Test func listPrintsATableInTheUsersFormats() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme Corporation")
        let yoko = try fixture.client("山田 陽子", currency: .jpy)
        try fixture.sentInvoice(for: acme, issued: "2024-02-01", terms: 14, lines: [line(quantity: "10", price: "123.45", rate: "19")])
        try fixture.invoice(for: yoko, issued: "2024-03-20", lines: [line(quantity: "2", price: "50000", currency: .jpy)])

        let (status, captured) = run(["list"], fixture)
        #expect(status == 0 && captured.error.isEmpty)
        let lines = captured.standard.components(separatedBy: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("Number") && lines[0].contains("Client") && lines[0].hasSuffix("Status"))
        #expect(lines[1].allSatisfy { $0 == "─" || $0 == " " })
        #expect(lines[2].hasPrefix("INV-2024-0002") && lines[2].contains("山田 陽子") && lines[2].contains("¥100,000")
            && lines[2].contains("Apr 3, 2024") && lines[2].hasSuffix("Draft"))
        #expect(lines[3].hasPrefix("INV-2024-0001") && lines[3].contains("€1,469.06") && lines[3].hasSuffix("Overdue"))
        // Columns line up even with wide characters: the totals end in the same terminal column.
        let totalEnds = zip([lines[2], lines[3]], ["¥100,000", "€1,469.06"]).map { row, total in
            TextTable.width(String(row[..<row.range(of: total)!.upperBound]))
        }
        #expect(totalEnds[0] == totalEnds[1])

        let (_, germanOutput) = run(["list", "--status", "overdue"], fixture, formatting: german)
        #expect(germanOutput.standard.contains("1.469,06\u{A0}€") && germanOutput.standard.contains("15.02.2024"))
        #expect(!germanOutput.standard.contains("山田"))
    }

    @Test func listFiltersSearchesAndSorts() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        try fixture.invoice(for: acme, issued: "2024-03-01", lines: [line("Website", price: "10.00")])
        try fixture.invoice(for: acme, issued: "2024-03-02", lines: [line("Hosting", price: "99.00")])
        let (_, searched) = run(["list", "--search", "host"], fixture)
        #expect(searched.standard.contains("INV-2024-0002") && !searched.standard.contains("INV-2024-0001"))
        let (_, sorted) = run(["list", "--sort", "amount"], fixture)
        let rows = sorted.standard.components(separatedBy: "\n").dropFirst(2)
        #expect(rows.map { String($0.prefix(13)) } == ["INV-2024-0002", "INV-2024-0001"])
        let (_, none) = run(["list", "--status", "paid"], fixture)
        #expect(none.standard == "No invoices match.")
    }

    @Test func aLongListIsWrittenInPiecesAsItIsRead() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme Corporation")
        let yoko = try fixture.client("山田 陽子", currency: .jpy)
        try fixture.database.transaction {
            for index in 0..<1_200 {
                try fixture.invoice(for: index % 2 == 0 ? acme : yoko, issued: "2024-03-01",
                                    lines: [line(quantity: "1", price: index % 2 == 0 ? "\(index).50" : "\(index * 1_000)",
                                                 currency: index % 2 == 0 ? .eur : .jpy)])
            }
        }
        let (status, captured) = run(["list", "--sort", "amount"], fixture)
        #expect(status == 0)
        #expect(captured.standardWrites > 1, "a long table goes out in more than one write")
        let lines = captured.standard.components(separatedBy: "\n")
        #expect(lines.count == 1_202)
        #expect(lines[0].hasPrefix("Number"))
        // Sorted by amount, largest first, across both passes; every row ends in the same column.
        #expect(lines[2].contains("¥1,199,000") && lines.last!.contains("€0.50"))
        #expect(Set(lines.dropFirst(2).map(TextTable.width)).count == 1)
    }

    @Test func anEmptyDatabaseSaysSo() throws {
        let fixture = try Fixture()
        let (status, captured) = run(["list"], fixture)
        #expect(status == 0 && captured.standard == "There are no invoices yet.")
    }

    @Test func wrongArgumentsExplainThemselvesWithStatusTwo() throws {
        let fixture = try Fixture()
        for arguments in [[], ["frobnicate"], ["list", "--status"], ["list", "--status", "late"], ["list", "--colour", "red"]] {
            let (status, captured) = run(arguments, fixture)
            #expect(status == 2, "\(arguments)")
            #expect(captured.error.contains("billfold invoice list"), "\(arguments)")
            #expect(captured.standard.isEmpty)
        }
        #expect(run(["--help"], fixture).status == 0)
    }
}
