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
    private var cache: [InvoiceID: InvoiceSummary] = [:]
    /// The ids of the list as filtered and sorted but not searched, for the query it ran.
    private var unsearched: (query: InvoiceListQuery, ids: [InvoiceID])?
    private(set) var today: CalendarDay

    /// Rows loaded with a missing one: a few before it and the list view's whole set of row
    /// widgets after it (GTK keeps about 200), so a new result binds with one query.
    static let before = 40
    static let after = 220
    /// Beyond this many cached rows the cache starts again.
    static let cacheLimit = 2_000

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
            cache.removeAll()
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
        guard ids.indices.contains(position) else { return nil }
        let id = ids[position]
        if let cached = cache[id] { return cached }
        if cache.count > Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        let range = max(0, position - Self.before)..<min(ids.count, position + Self.after)
        let missing = ids[range].filter { cache[$0] == nil }
        do {
            for row in try repository.summaries(for: missing, today: today) { cache[row.id] = row }
            rowReadProblem = nil
        } catch {
            rowReadProblem = error.localizedDescription
        }
        return cache[id]
    }

    func summary(for id: InvoiceID) -> InvoiceSummary? {
        if let cached = cache[id] { return cached }
        guard let row = try? repository.summary(for: id, today: today) else { return nil }
        cache[id] = row
        return row
    }

    /// Forgets one row so it is read again, e.g. after that invoice was saved.
    func invalidate(_ id: InvoiceID) { cache[id] = nil }

    package var cachedCount: Int { cache.count }

    func position(of id: InvoiceID) -> Int? { ids.firstIndex(of: id) }
}
