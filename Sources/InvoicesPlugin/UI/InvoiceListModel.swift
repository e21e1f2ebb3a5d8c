import BillfoldCore
import Foundation
import InvoicesCore

/// The list pane's data: the ids of every matching invoice (cheap even for 100 000), and the
/// rows of those near what is on screen, loaded in small windows and kept in a bounded cache.
@MainActor
package final class InvoiceListModel {
    private let repository: InvoiceRepository
    var query = InvoiceListQuery()
    package private(set) var ids: [InvoiceID] = []
    private var rows = RowWindow<InvoiceSummary>()
    /// The ids of the list as filtered and sorted but not searched, for the query it ran.
    private var unsearched: (query: InvoiceListQuery, ids: [InvoiceID])?
    private(set) var today: CalendarDay

    init(repository: InvoiceRepository, today: CalendarDay = .today()) {
        self.repository = repository
        self.today = today
    }

    /// Runs the query again; `dataChanged` drops cached rows (after a save or delete).
    ///
    /// The list without its search is kept: a search keeps the ids of that list which match
    /// the words, in its order, which costs a few ms where sorting every match took tens.
    func reload(dataChanged: Bool, today: CalendarDay = .today()) throws {
        if dataChanged || today != self.today {
            rows.removeAll()
            unsearched = nil
        }
        self.today = today
        var listQuery = query
        listQuery.search = ""
        if unsearched?.query != listQuery {
            unsearched = (listQuery, try repository.invoiceIDs(matching: listQuery, today: today))
        }
        let all = unsearched?.ids ?? []
        if let matches = try repository.invoiceIDs(matchingSearch: query.search) {
            ids = all.filter(matches.contains)
        } else {
            ids = all
        }
    }

    /// Why the rows last read could not be, for the rows to say in their place.
    private(set) var rowReadProblem: String?

    /// The row for the id at `position`, loading it and its neighbours when not cached.
    func summary(at position: Int) -> InvoiceSummary? {
        do {
            let row = try rows.row(at: position, of: ids) { try repository.summaries(for: $0, today: today) }
            rowReadProblem = nil
            return row
        } catch {
            rowReadProblem = error.localizedDescription
            return rows[ids[position]]
        }
    }

    func summary(for id: InvoiceID) -> InvoiceSummary? {
        if let cached = rows[id] { return cached }
        guard let row = try? repository.summary(for: id, today: today) else { return nil }
        rows[id] = row
        return row
    }

    /// Forgets one row so it is read again, e.g. after that invoice was saved.
    func invalidate(_ id: InvoiceID) { rows[id] = nil }

    package var cachedCount: Int { rows.count }

    func position(of id: InvoiceID) -> Int? { ids.firstIndex(of: id) }
}
