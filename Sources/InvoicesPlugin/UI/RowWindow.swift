/// The rows of a long list that are near the screen. A missing row is read with its
/// neighbours: a few before it and the list view's whole set of row widgets after it (GTK keeps
/// about 200), so a new result binds with one query; when that query fails, the row is read
/// alone. Past a bound, the cache starts again.
struct RowWindow<Row: Identifiable> {
    static var before: Int { 40 }
    static var after: Int { 220 }
    static var cacheLimit: Int { 2_000 }

    private var cache: [Row.ID: Row] = [:]

    /// The row for `ids[position]`, reading the window around it with `read` when it is not
    /// kept; nil when the position is out of range or `read` did not return the row.
    mutating func row(at position: Int, of ids: [Row.ID], read: ([Row.ID]) throws -> [Row]) rethrows -> Row? {
        guard ids.indices.contains(position) else { return nil }
        let id = ids[position]
        if let cached = cache[id] { return cached }
        if cache.count > Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        let range = max(0, position - Self.before)..<min(ids.count, position + Self.after)
        let missing = ids[range].filter { cache[$0] == nil }
        do {
            for row in try read(missing) { cache[row.id] = row }
        } catch where missing.count > 1 {
            // One damaged row fails its whole window: read this one alone, so that only the
            // damaged rows say they could not be read.
            for row in try read([id]) { cache[row.id] = row }
        }
        return cache[id]
    }

    subscript(id: Row.ID) -> Row? {
        get { cache[id] }
        set { cache[id] = newValue }
    }

    var count: Int { cache.count }

    /// Forgets every row, so each is read again when asked for.
    mutating func removeAll() { cache.removeAll() }
}
