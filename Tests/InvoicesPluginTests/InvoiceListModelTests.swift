import BillfoldCore
import Foundation
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

private struct Numbered: Identifiable { let id: Int }
private struct ReadFailed: Error {}

/// The window reads each row once, asks only for rows it lacks, keeps nothing from a failed
/// read, and starts again past its bound.
@Suite struct RowWindowTests {
    @Test func readsOnlyWhatItLacks() throws {
        var window = RowWindow<Numbered>()
        let ids = Array(0..<5_000)
        var asked: [[Int]] = []
        let read: ([Int]) throws -> [Numbered] = { wanted in asked.append(wanted); return wanted.map(Numbered.init) }
        #expect(try window.row(at: 300, of: ids, read: read)?.id == 300)
        #expect(asked == [Array(260..<520)])
        #expect(try window.row(at: 400, of: ids, read: read)?.id == 400)
        #expect(asked.count == 1)
        #expect(try window.row(at: 530, of: ids, read: read)?.id == 530)
        #expect(asked.last == Array(520..<750))
        #expect(try window.row(at: 5_000, of: ids, read: read) == nil)

        #expect(throws: ReadFailed.self) { try window.row(at: 4_000, of: ids) { _ in throw ReadFailed() } }
        #expect(window[4_000] == nil)
        for position in stride(from: 1_000, to: 5_000, by: 260) { _ = try window.row(at: position, of: ids, read: read) }
        #expect(window.count <= RowWindow<Numbered>.cacheLimit + RowWindow<Numbered>.after + RowWindow<Numbered>.before)
    }

    /// A damaged row fails the window it is read in; its neighbours are then read alone, and
    /// only the damaged row fails.
    @Test func aDamagedRowLeavesItsNeighboursReadable() throws {
        var window = RowWindow<Numbered>()
        let ids = Array(0..<10)
        var asked: [[Int]] = []
        let read: ([Int]) throws -> [Numbered] = { wanted in
            asked.append(wanted)
            if wanted.contains(5) { throw ReadFailed() }
            return wanted.map(Numbered.init)
        }
        #expect(try window.row(at: 4, of: ids, read: read)?.id == 4)
        #expect(asked == [Array(0..<10), [4]])
        #expect(throws: ReadFailed.self) { try window.row(at: 5, of: ids, read: read) }
        #expect(try window.row(at: 6, of: ids, read: read)?.id == 6)
        #expect(window[5] == nil && window.count == 2)
    }
}

/// The list pane's model loads rows near the one asked for, never the whole list.
@Suite @MainActor
struct InvoiceListModelTests {
    @Test func loadsRowsInWindowsAroundTheOneShown() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        for index in 0..<400 {
            try fixture.invoice(for: client, issued: "2024-03-01", lines: [line("Work \(index)", price: "10.00")])
        }
        let model = InvoiceListModel(repository: fixture.repository, today: day("2024-03-10"))
        try model.reload(dataChanged: true, today: day("2024-03-10"))
        #expect(model.ids.count == 400)
        #expect(model.cachedCount == 0)

        let first = try #require(model.summary(at: 0))
        #expect(first.id == model.ids[0])
        #expect(model.cachedCount == RowWindow<InvoiceSummary>.after)
        #expect(model.summary(at: 100)?.id == model.ids[100])
        #expect(model.cachedCount == RowWindow<InvoiceSummary>.after)

        // The last row loads with the few before it that were not loaded yet.
        #expect(model.summary(at: 399)?.id == model.ids[399])
        let loaded = RowWindow<InvoiceSummary>.after + RowWindow<InvoiceSummary>.before + 1
        #expect(model.cachedCount == loaded)
        #expect(model.summary(at: 400) == nil)

        model.query.search = "work 12"
        try model.reload(dataChanged: false, today: day("2024-03-10"))
        #expect(model.ids.count == 11)
        #expect(model.cachedCount == loaded)
        try model.reload(dataChanged: true, today: day("2024-03-10"))
        #expect(model.cachedCount == 0)
    }

    /// Rows that cannot be read say why instead of standing blank.
    @Test func rowsThatCannotBeReadSayWhy() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        try fixture.invoice(for: client, issued: "2024-03-01", lines: [line("Work", price: "10.00")])
        let model = InvoiceListModel(repository: fixture.repository, today: day("2024-03-10"))
        try model.reload(dataChanged: true, today: day("2024-03-10"))
        try fixture.database.execute("ALTER TABLE invoices_invoice RENAME TO invoices_invoice_elsewhere")
        #expect(model.summary(at: 0) == nil)
        #expect(model.rowReadProblem?.isEmpty == false)
        try fixture.database.execute("ALTER TABLE invoices_invoice_elsewhere RENAME TO invoices_invoice")
        #expect(model.summary(at: 0) != nil)
        #expect(model.rowReadProblem == nil)
    }
}
