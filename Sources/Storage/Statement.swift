import BillfoldCore
import CSQLite
import Foundation

/// A prepared statement. `Database` caches the ones it prepares for `execute` and `query`;
/// `Database.prepare` hands one out for a hot loop (a bulk import). Like the database it
/// belongs to, it is used from one thread at a time and locks the database while it runs.
public final class Statement {
    public let sql: String
    // Weak: the database caches its statements, and a strong reference back would keep a
    // database nobody uses any more open forever.
    private weak var database: Database?
    private(set) var handle: OpaquePointer?
    private var cachedColumnNames: [String]?
    var isInUse = false

    init(database: Database, connection: OpaquePointer, sql: String) throws {
        self.database = database
        self.sql = sql
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let status = sql.withCString { text in
            sqlite3_prepare_v3(connection, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
        }
        guard status == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw DatabaseError.last(connection, sql: sql)
        }
        if let tail, !String(cString: tail).allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            sqlite3_finalize(statement)
            throw DatabaseError.multipleStatements(sql: sql)
        }
        guard let statement else {
            // Only whitespace or comments: nothing to run.
            throw DatabaseError.sqlite(code: SQLITE_MISUSE, message: "empty statement", sql: sql)
        }
        self.handle = statement
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Runs the statement with positional values (`?`, `?1`) and returns the number of rows changed.
    @discardableResult
    public func execute(_ bindings: [(any SQLBindable)?] = []) throws -> Int {
        guard let database else { throw DatabaseError.closed }
        return try database.withLock {
            guard database.isOpenLocked else { throw DatabaseError.closed }
            let statement = try liveHandle()
            defer { sqlite3_reset(statement) }
            try bind(bindings)
            try runToEnd()
            return Int(sqlite3_changes(sqlite3_db_handle(statement)))
        }
    }

    /// Runs the statement with named values (`:name`, `@name`, `$name`; the key may omit the prefix).
    @discardableResult
    public func execute(named bindings: [String: (any SQLBindable)?]) throws -> Int {
        guard let database else { throw DatabaseError.closed }
        return try database.withLock {
            guard database.isOpenLocked else { throw DatabaseError.closed }
            let statement = try liveHandle()
            defer { sqlite3_reset(statement) }
            try bind(named: bindings)
            try runToEnd()
            return Int(sqlite3_changes(sqlite3_db_handle(statement)))
        }
    }

    public func query(_ bindings: [(any SQLBindable)?] = [], _ body: (Row) throws -> Void) throws {
        guard let database else { throw DatabaseError.closed }
        return try database.withLock {
            guard database.isOpenLocked else { throw DatabaseError.closed }
            let statement = try liveHandle()
            defer { sqlite3_reset(statement) }
            try bind(bindings)
            try forEachRow(body)
        }
    }

    public func query(named bindings: [String: (any SQLBindable)?], _ body: (Row) throws -> Void) throws {
        guard let database else { throw DatabaseError.closed }
        return try database.withLock {
            guard database.isOpenLocked else { throw DatabaseError.closed }
            let statement = try liveHandle()
            defer { sqlite3_reset(statement) }
            try bind(named: bindings)
            try forEachRow(body)
        }
    }

    // MARK: - Internals, called with the database lock held

    /// The entry points (here and in Database) check that the database is open, once per call.
    func liveHandle() throws -> OpaquePointer {
        guard let handle else { throw DatabaseError.closed }
        return handle
    }

    func bind(_ bindings: [(any SQLBindable)?]) throws {
        let statement = try liveHandle()
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == bindings.count else {
            throw DatabaseError.bindingCountMismatch(expected: expected, given: bindings.count)
        }
        for (offset, value) in bindings.enumerated() {
            try bind(value?.sqlValue ?? .null, at: Int32(offset + 1))
        }
    }

    func bind(named bindings: [String: (any SQLBindable)?]) throws {
        let statement = try liveHandle()
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        let count = sqlite3_bind_parameter_count(statement)
        var used = Set<String>()
        if count > 0 {
            for index in 1...count {
                guard let cName = sqlite3_bind_parameter_name(statement, index) else {
                    throw DatabaseError.missingParameter("?\(index)")
                }
                let name = String(cString: cName)
                let bare = String(name.dropFirst())
                let key: String
                if bindings.keys.contains(name) { key = name } else if bindings.keys.contains(bare) { key = bare } else {
                    throw DatabaseError.missingParameter(name)
                }
                used.insert(key)
                try bind(bindings[key].flatMap { $0?.sqlValue } ?? .null, at: index)
            }
        }
        if let unknown = bindings.keys.first(where: { !used.contains($0) }) {
            throw DatabaseError.unknownParameter(unknown)
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) throws {
        let statement = try liveHandle()
        let status: Int32
        switch value {
        case .null:
            status = sqlite3_bind_null(statement, index)
        case .integer(let integer):
            status = sqlite3_bind_int64(statement, index, integer)
        case .real(let real):
            status = sqlite3_bind_double(statement, index, real)
        case .text(var text):
            status = text.withUTF8 { buffer -> Int32 in
                guard buffer.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
                // An empty buffer has no base address, and a NULL pointer would bind NULL.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return bf_sqlite3_bind_text(statement, index, "", 0)
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    bf_sqlite3_bind_text(statement, index, $0, Int32(buffer.count))
                }
            }
        case .blob(let data):
            status = data.withUnsafeBytes { raw -> Int32 in
                guard raw.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
                guard let base = raw.baseAddress, raw.count > 0 else {
                    return sqlite3_bind_zeroblob(statement, index, 0)
                }
                return bf_sqlite3_bind_blob(statement, index, base, Int32(raw.count))
            }
        }
        guard status == SQLITE_OK else {
            if status == SQLITE_TOOBIG {
                throw DatabaseError.sqlite(code: status, message: String(cString: sqlite3_errstr(status)), sql: sql)
            }
            throw DatabaseError.last(sqlite3_db_handle(statement), sql: sql)
        }
    }

    func runToEnd() throws {
        while try step() {}
    }

    /// Advances one row; false when done. A failure resets the statement and throws.
    func step() throws -> Bool {
        let statement = try liveHandle()
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = DatabaseError.last(sqlite3_db_handle(statement), sql: sql)
            sqlite3_reset(statement)
            throw error
        }
    }

    func forEachRow(_ body: (Row) throws -> Void) throws {
        while try step() {
            try body(currentRow())
        }
    }

    func forEachRow(_ body: (ColumnReader) throws -> Void) throws {
        let reader = ColumnReader(handle: try liveHandle(), columnNames: columnNames)
        while try step() {
            try body(reader)
        }
    }

    /// The first column of every row as an integer (NULL as 0), read straight from SQLite:
    /// no `Row` per result, which matters for lists of many thousands of ids.
    func integersOfFirstColumn() throws -> [Int64] {
        let statement = try liveHandle()
        var values: [Int64] = []
        while try step() { values.append(sqlite3_column_int64(statement, 0)) }
        return values
    }

    var columnNames: [String] {
        guard let handle else { return [] }
        // A schema change re-prepares the statement, and "SELECT *" may then have other columns.
        if let cachedColumnNames, cachedColumnNames.count == Int(sqlite3_column_count(handle)) {
            return cachedColumnNames
        }
        let names = (0..<sqlite3_column_count(handle)).map { column in
            sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "#\(column)"
        }
        cachedColumnNames = names
        return names
    }

    func currentRow() throws -> Row {
        let statement = try liveHandle()
        let count = sqlite3_column_count(statement)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count {
            values.append(Self.value(of: statement, at: column))
        }
        return Row(columnNames: columnNames, values: values)
    }

    @usableFromInline
    static func value(of statement: OpaquePointer, at column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let bytes = Int(sqlite3_column_bytes(statement, column))
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: bytes), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = Int(sqlite3_column_bytes(statement, column))
            guard let blob = sqlite3_column_blob(statement, column), bytes > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: blob, count: bytes))
        default:
            return .null
        }
    }
}

/// The row a query stands on, read one column at a time: a list of many thousands of rows
/// decodes only the columns it asks for, without copying each row into a `Row` first (that
/// copy was half of a 100 000-invoice list's reading). Valid only inside the body it is
/// handed to, while the query is on that row.
public struct ColumnReader {
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let columnNames: [String]

    init(handle: OpaquePointer, columnNames: [String]) {
        self.handle = handle
        self.columnNames = columnNames
    }

    /// Column `index` of the current row, e.g. `let number: String = try columns[1]`.
    @inlinable // specialized for each type read, as `Row`'s
    public subscript<T: SQLColumnDecodable>(index: Int) -> T {
        get throws {
            guard index >= 0, index < columnNames.count else { throw DatabaseError.noSuchColumn("#\(index)") }
            return try T.decode(Statement.value(of: handle, at: Int32(index)), column: columnNames[index])
        }
    }

    /// Column `index` as a day, parsed from SQLite's own bytes without making a String.
    public func day(_ index: Int) throws -> CalendarDay {
        guard index >= 0, index < columnNames.count else { throw DatabaseError.noSuchColumn("#\(index)") }
        let column = Int32(index)
        if sqlite3_column_type(handle, column) == SQLITE_TEXT, let text = sqlite3_column_text(handle, column),
           let day = CalendarDay(isoUTF8: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))) {
            return day
        }
        // Not a day: the usual decoding says what is wrong.
        return try self[index]
    }

    /// The name of column `index` as the query gave it, for messages.
    public func name(of index: Int) -> String {
        columnNames.indices.contains(index) ? columnNames[index] : "#\(index)"
    }
}
