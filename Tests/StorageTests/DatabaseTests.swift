import BillfoldCore
import SeededRandom
import CSQLite
import Foundation
import Storage
import Testing

private func dec(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }

@Suite struct DatabaseTests {
    @Test func opensAFileInWALModeWithForeignKeys() throws {
        let directory = try TemporaryDirectory()
        let database = try Database.open(path: directory.path("nested/dir/app.sqlite3"))
        #expect(try database.queryValue("PRAGMA journal_mode", as: String.self) == "wal")
        #expect(try database.queryValue("PRAGMA foreign_keys", as: Int.self) == 1)
        #expect(try database.queryValue("PRAGMA busy_timeout", as: Int.self) == 5000)
        #expect(try database.queryValue("PRAGMA synchronous", as: Int.self) == 2)   // FULL
        #expect(database.backupDirectory == directory.path("nested/dir/backups"))
        #expect(FileManager.default.fileExists(atPath: directory.path("nested/dir/app.sqlite3")))
    }

    @Test func refusesToCreateWhenAskedNotTo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing.sqlite3")
        #expect(throws: DatabaseError.notFound(path: path)) {
            try Database.open(path: path, options: .init(createIfMissing: false))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aDirectoryIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try Database.open(path: directory.url.path)
            Issue.record("opened a directory")
        } catch let error as DatabaseError {
            #expect(error.localizedDescription.contains(directory.url.path))
        }
    }

    @Test func integerColumnsReadInOrderWithBindings() throws {
        let database = try Database.inMemory()
        try database.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, rank INTEGER, kind TEXT)")
        try database.transaction {
            for id in 1...1_000 {
                try database.execute("INSERT INTO item (id, rank, kind) VALUES (?, ?, ?)",
                                     [Int64(id), id == 7 ? nil : Int64(1_000 - id), id % 2 == 0 ? "even" : "odd"])
            }
        }
        let sql = "SELECT rank FROM item WHERE kind = :kind ORDER BY id DESC"
        let odd = try database.queryIntegers(sql, named: ["kind": "odd"])
        #expect(odd.count == 500)
        #expect(odd.prefix(2) == [1, 3])
        #expect(odd.last == 999)
        #expect(odd.contains(0))   // id 7's NULL rank
        // The cached statement runs again with other bindings.
        #expect(try database.queryIntegers(sql, named: ["kind": "even"]).first == 0)
        #expect(try database.queryIntegers(sql, named: ["kind": "none"]).isEmpty)
        #expect(throws: DatabaseError.self) { try database.queryIntegers("SELECT nope FROM item", named: [:]) }
        database.close()
        #expect(throws: DatabaseError.self) { try database.queryIntegers(sql, named: ["kind": "odd"]) }
    }

    @Test func everyTypeRoundTrips() throws {
        let database = try Database.inMemory()
        try database.execute("""
            CREATE TABLE value (i INTEGER, d REAL, t TEXT, b BLOB, dt TEXT, dec TEXT, flag INTEGER, id TEXT, maybe TEXT)
            """)
        let uuid = UUID()
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let samples: [(Int64, Double, String, Data, Date, Decimal, Bool)] = [
            (.max, 1.5, "Grüße, 請求書 💶", Data([0, 1, 2, 255]), date, dec("1234.5678"), true),
            (.min, -0.0, "", Data(), Date(timeIntervalSince1970: -86_400_000.5), dec("-0.001"), false),
            (0, .greatestFiniteMagnitude, "a\u{0}b", Data(repeating: 7, count: 100_000),
             Date(timeIntervalSince1970: 253_402_300_799), dec("99999999999999999999999999999999999999"), true),
        ]
        for sample in samples {
            try database.execute("INSERT INTO value VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 [sample.0, sample.1, sample.2, sample.3, sample.4, sample.5, sample.6, uuid, nil])
        }
        let rows = try database.query("SELECT * FROM value ORDER BY rowid")
        #expect(rows.count == samples.count)
        for (row, sample) in zip(rows, samples) {
            #expect(try row[0] as Int64 == sample.0)
            #expect(try row["d"] as Double == sample.1)
            #expect(try row["t"] as String == sample.2)
            #expect(try row["b"] as Data == sample.3)
            #expect(try row["dt"] as Date == sample.4)
            #expect(try row["dec"] as Decimal == sample.5)
            #expect(try row["flag"] as Bool == sample.6)
            #expect(try row["id"] as UUID == uuid)
            #expect(try row["maybe"] as String? == nil)
            #expect(try row["MAYBE"] as Int64? == nil)
        }
        // Empty text and empty blobs stay values, not NULL.
        #expect(try database.queryValue("SELECT count(*) FROM value WHERE t = '' AND b IS NOT NULL", as: Int.self) == 1)
    }

    @Test func decimalsAreStoredAsExactText() throws {
        let database = try Database.inMemory()
        try database.execute("CREATE TABLE q (amount TEXT)")
        try database.execute("INSERT INTO q VALUES (?)", [dec("0.1")])
        #expect(try database.queryValue("SELECT typeof(amount) || ':' || amount FROM q", as: String.self) == "text:0.1")
        for bad in ["12abc", "1.2.3", "", "NaN", "1e5", " 1"] {
            try database.execute("UPDATE q SET amount = ?", [bad])
            #expect(throws: DatabaseError.invalidValue(column: "amount", text: bad, expected: "decimal number")) {
                try database.queryValue("SELECT amount FROM q", as: Decimal.self)
            }
        }
        #expect(try database.queryValue("SELECT 7", as: Decimal.self) == 7)
        #expect(try database.queryValue("SELECT 0.25 * 2", as: Decimal.self) == dec("0.5"))
    }

    /// Stored text is read into the same Decimal that Decimal(string:) makes: value, exponent
    /// and spelling, with leading and trailing zeros and signs.
    @Test func decimalTextReadsAsDecimalStringDoes() throws {
        let database = try Database.inMemory()
        var generator = SeededGenerator(seed: 9)
        var texts = ["0", "-0", "0.0", "+0.00", "1.50", "-12.340", "0.000100", "00012.5", "9999999999999999999",
                     "18446744073709551615", "12345678901234567890.5", "0." + String(repeating: "0", count: 40) + "1"]
        for _ in 0..<5_000 {
            var digits = String(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
            let scale = Int.random(in: 0...12, using: &generator)
            while digits.count <= scale { digits = "0" + digits }
            if scale > 0 { digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale)) }
            digits += String(repeating: "0", count: Int.random(in: 0...2, using: &generator))
            texts.append(["", "-", "+"].randomElement(using: &generator)! + digits)
        }
        for text in texts {
            let expected = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            let read = try #require(try database.queryValue("SELECT ?", [text], as: Decimal.self))
            #expect(read == expected, "\(text)")
            #expect(read.description == expected.description, "\(text)")
            #expect(read.exponent == expected.exponent || read.isZero, "\(text)")
        }
    }

    @Test func decimalTextIsExactForEveryMagnitude() throws {
        let database = try Database.inMemory()
        var generator = SeededGenerator(seed: 4)
        for _ in 0..<5_000 {
            let significand: Decimal = Bool.random(using: &generator)
                ? Decimal(UInt64.random(in: 0...UInt64.max, using: &generator))
                : Decimal(UInt64.random(in: 0...UInt64.max, using: &generator)) * Decimal(UInt64.random(in: 2...UInt64.max, using: &generator))
            let value = Decimal(sign: Bool.random(using: &generator) ? .minus : .plus,
                                exponent: Int.random(in: -30...20, using: &generator), significand: significand)
            let text = try #require(try database.queryValue("SELECT ?", [value], as: String.self))
            #expect(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) == value, "\(text)")
            #expect(!text.contains("e") && !text.contains("E"))
            #expect(try database.queryValue("SELECT ?", [value], as: Decimal.self) == value)
        }
        #expect(try database.queryValue("SELECT ?", [dec("-0.05")], as: String.self) == "-0.05")
        #expect(try database.queryValue("SELECT ?", [Decimal(1200)], as: String.self) == "1200")
        #expect(try database.queryValue("SELECT ?", [Decimal.nan], as: String.self) == nil)
    }

    @Test func datesAreISO8601TextInUTC() throws {
        let database = try Database.inMemory()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try database.queryValue("SELECT ?", [date], as: String.self) == "2023-11-14T22:13:20.000Z")
        #expect(try database.queryValue("SELECT ?", [Date(timeIntervalSince1970: -1.5)], as: String.self)
                == "1969-12-31T23:59:58.500Z")
        // SQLite's own functions understand the format, and write one we read.
        #expect(try database.queryValue("SELECT unixepoch(?)", [date], as: Int64.self) == 1_700_000_000)
        #expect(try database.queryValue("SELECT datetime(1700000000, 'unixepoch')", as: Date.self) == date)
        #expect(try database.queryValue("SELECT '2023-11-14'", as: Date.self) == Date(timeIntervalSince1970: 1_699_920_000))
        #expect(try database.queryValue("SELECT '2023-11-14T23:13:20+01:00'", as: Date.self) == date)
        #expect(try database.queryValue("SELECT 1700000000", as: Date.self) == date)
        for bad in ["yesterday", "2023-13-01", "2023-02-29", "2023-11-14T25:00:00Z", "2023-11-14T10:00:00Zjunk"] {
            #expect(throws: DatabaseError.self) { try database.queryValue("SELECT ?", [bad], as: Date.self) }
        }
    }

    @Test func dateTextRoundTripsAndSortsLikeTime() throws {
        let database = try Database.inMemory()
        try database.execute("CREATE TABLE event (at TEXT)")
        var generator = SeededGenerator(seed: 5)
        var dates: [Date] = []
        try database.transaction {
            for _ in 0..<2_000 {
                // Whole milliseconds between the years 1 and 9999: what the text form keeps.
                let milliseconds = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator)
                let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                dates.append(date)
                try database.execute("INSERT INTO event VALUES (?)", [date])
            }
        }
        let read = try database.query("SELECT at FROM event ORDER BY rowid").map { try $0[0] as Date }
        for (stored, original) in zip(read, dates) {
            #expect(abs(stored.timeIntervalSince1970 - original.timeIntervalSince1970) < 0.0005)
        }
        let sortedByText = try database.query("SELECT at FROM event ORDER BY at").map { try $0[0] as Date }
        #expect(sortedByText == read.sorted())
    }

    @Test func namedParameters() throws {
        let database = try Database.inMemory()
        try database.execute("CREATE TABLE client (name TEXT, city TEXT)")
        try database.execute("INSERT INTO client VALUES (:name, :city)", named: ["name": "Ada", ":city": "Berlin"])
        try database.execute("INSERT INTO client VALUES (@name, $city)", named: ["@name": "Grace", "city": nil])
        let rows = try database.query("SELECT name, city FROM client WHERE name = :name", named: ["name": "Ada"])
        #expect(rows.count == 1)
        #expect(try rows[0]["city"] as String == "Berlin")
        #expect(try database.queryValue("SELECT count(*) FROM client WHERE city IS NULL", as: Int.self) == 1)
        #expect(throws: DatabaseError.missingParameter(":city")) {
            try database.execute("INSERT INTO client VALUES (:name, :city)", named: ["name": "X"])
        }
        #expect(throws: DatabaseError.unknownParameter("town")) {
            try database.execute("INSERT INTO client VALUES (:name, :city)", named: ["name": "X", "city": "Y", "town": "Z"])
        }
        #expect(throws: DatabaseError.bindingCountMismatch(expected: 2, given: 1)) {
            try database.execute("INSERT INTO client VALUES (?, ?)", ["X"])
        }
        #expect(try database.queryValue("SELECT count(*) FROM client", as: Int.self) == 2)
    }

    @Test func queriesNestAndStatementsAreReused() throws {
        let database = try Database.inMemory()
        try database.execute("CREATE TABLE n (v INTEGER)")
        for value in 1...5 { try database.execute("INSERT INTO n VALUES (?)", [value]) }
        var pairs = 0
        try database.query("SELECT v FROM n WHERE v > ?", [0]) { outer in
            let v: Int = try outer[0]
            // The same SQL again while the outer statement is still stepping.
            try database.query("SELECT v FROM n WHERE v > ?", [v]) { _ in pairs += 1 }
        }
        #expect(pairs == 10)
        let statement = try database.prepare("INSERT INTO n VALUES (?)")
        for value in 6...10 { try statement.execute([value]) }
        #expect(try database.queryValue("SELECT sum(v) FROM n", as: Int.self) == 55)
        var seen: [Int] = []
        let select = try database.prepare("SELECT v FROM n WHERE v <= :limit ORDER BY v")
        try select.query(named: ["limit": 3]) { seen.append(try $0[0]) }
        #expect(seen == [1, 2, 3])
    }

    @Test func scriptsAndSingleStatements() throws {
        let database = try Database.inMemory()
        try database.executeScript("CREATE TABLE a (x); CREATE TABLE b (y); INSERT INTO a VALUES (1);")
        #expect(try database.queryValue("SELECT count(*) FROM a", as: Int.self) == 1)
        #expect(throws: DatabaseError.multipleStatements(sql: "INSERT INTO a VALUES (2); INSERT INTO a VALUES (3)")) {
            try database.execute("INSERT INTO a VALUES (2); INSERT INTO a VALUES (3)")
        }
        try database.execute("INSERT INTO a VALUES (4);  ")
        #expect(database.changes == 1)
        #expect(database.lastInsertRowID == 2)
    }

    @Test func errorsCarrySQLiteCodesAndMessages() throws {
        let database = try Database.inMemory()
        try database.executeScript("""
            CREATE TABLE client (id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL);
            CREATE TABLE invoice (id INTEGER PRIMARY KEY, client_id INTEGER NOT NULL REFERENCES client (id));
            """)
        try database.execute("INSERT INTO client (email) VALUES (?)", ["a@example.org"])
        do {
            try database.execute("INSERT INTO client (email) VALUES (?)", ["a@example.org"])
            Issue.record("duplicate accepted")
        } catch let error as DatabaseError {
            #expect(error.sqliteCode == SQLITE_CONSTRAINT)
            #expect(error.extendedSQLiteCode == 2067)   // SQLITE_CONSTRAINT_UNIQUE
            #expect(error.isConstraintViolation)
            #expect(error.localizedDescription.contains("UNIQUE"))
            #expect(error.localizedDescription.contains("2067"))
        }
        do {
            try database.execute("INSERT INTO invoice (client_id) VALUES (?)", [42])
            Issue.record("foreign key not enforced")
        } catch let error as DatabaseError {
            #expect(error.extendedSQLiteCode == 787)    // SQLITE_CONSTRAINT_FOREIGNKEY
        }
        do {
            try database.execute("SELEC 1")
            Issue.record("syntax error accepted")
        } catch let error as DatabaseError {
            guard case .sqlite(let code, let message, let sql) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(code == SQLITE_ERROR)
            #expect(message.contains("syntax error"))
            #expect(sql == "SELEC 1")
        }
    }

    @Test func readingTheWrongTypeIsAnError() throws {
        let database = try Database.inMemory()
        let row = try #require(try database.query("SELECT NULL AS x, 'text' AS y, 5 AS z").first)
        #expect(throws: DatabaseError.unexpectedNull(column: "x")) { try row["x"] as Int64 }
        #expect(throws: DatabaseError.typeMismatch(column: "y", expected: "INTEGER", found: "TEXT")) { try row["y"] as Int64 }
        #expect(throws: DatabaseError.noSuchColumn("w")) { try row["w"] as Int64 }
        #expect(throws: DatabaseError.noSuchColumn("#9")) { try row[9] as Int64 }
        #expect(try row["z"] as Int == 5)
        #expect(try row[1] as SQLValue == .text("text"))
    }

    @Test func anUnusedDatabaseIsReleasedAndClosed() throws {
        weak var released: Database?
        var statement: Statement?
        do {
            let database = try Database.inMemory()
            try database.execute("CREATE TABLE t (x)")
            try database.query("SELECT * FROM t") { _ in }
            statement = try database.prepare("SELECT 1")
            released = database
        }
        #expect(released == nil)
        #expect(throws: DatabaseError.closed) { try statement?.execute() }
    }

    @Test func closedDatabasesSaySo() throws {
        let database = try Database.inMemory()
        let statement = try database.prepare("SELECT 1")
        database.close()
        #expect(!database.isOpen)
        #expect(throws: DatabaseError.closed) { try database.execute("SELECT 1") }
        #expect(throws: DatabaseError.closed) { try statement.execute() }
        #expect(DatabaseError.closed.errorDescription?.isEmpty == false)
    }
}

@Suite struct TransactionTests {
    private func makeDatabase() throws -> Database {
        let database = try Database.inMemory()
        try database.execute("CREATE TABLE item (name TEXT NOT NULL)")
        return database
    }

    private func names(_ database: Database) throws -> [String] {
        try database.query("SELECT name FROM item ORDER BY rowid").map { try $0[0] }
    }

    @Test func commitsWhenTheClosureReturns() throws {
        let database = try makeDatabase()
        let count = try database.transaction {
            try database.execute("INSERT INTO item VALUES ('a')")
            try database.execute("INSERT INTO item VALUES ('b')")
            #expect(database.isInTransaction)
            return try database.queryValue("SELECT count(*) FROM item", as: Int.self)
        }
        #expect(count == 2)
        #expect(!database.isInTransaction)
        #expect(try names(database) == ["a", "b"])
    }

    @Test func rollsBackAndRethrowsOnAnyError() throws {
        let database = try makeDatabase()
        try database.execute("INSERT INTO item VALUES ('kept')")
        #expect(throws: ExpectedFailure.self) {
            try database.transaction {
                try database.execute("INSERT INTO item VALUES ('lost')")
                throw ExpectedFailure()
            }
        }
        #expect(throws: DatabaseError.self) {
            try database.transaction {
                try database.execute("INSERT INTO item VALUES ('lost too')")
                try database.execute("INSERT INTO item VALUES (NULL)")
            }
        }
        #expect(try names(database) == ["kept"])
        #expect(!database.isInTransaction)
    }

    @Test func nestedTransactionsAreSavepoints() throws {
        let database = try makeDatabase()
        try database.transaction {
            try database.execute("INSERT INTO item VALUES ('outer')")
            do {
                try database.transaction {
                    try database.execute("INSERT INTO item VALUES ('inner, undone')")
                    throw ExpectedFailure()
                }
            } catch is ExpectedFailure {}
            try database.transaction {
                try database.execute("INSERT INTO item VALUES ('inner, kept')")
                try database.transaction { try database.execute("INSERT INTO item VALUES ('deepest')") }
            }
        }
        #expect(try names(database) == ["outer", "inner, kept", "deepest"])

        #expect(throws: ExpectedFailure.self) {
            try database.transaction {
                try database.execute("INSERT INTO item VALUES ('gone')")
                try database.transaction { try database.execute("INSERT INTO item VALUES ('gone as well')") }
                throw ExpectedFailure()
            }
        }
        #expect(try names(database) == ["outer", "inner, kept", "deepest"])
    }

    @Test func aDatabaseIsSharedSafelyAcrossTasks() async throws {
        let database = try makeDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    try database.transaction {
                        for index in 0..<100 {
                            try database.execute("INSERT INTO item VALUES (?)", ["\(task)-\(index)"])
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let names = try names(database)
        #expect(names.count == 800)
        // A transaction keeps the connection to itself: each task's rows are one unbroken run.
        let tasks = names.map { $0.split(separator: "-")[0] }
        for start in stride(from: 0, to: 800, by: 100) {
            #expect(Set(tasks[start..<start + 100]).count == 1)
        }
    }

    /// A column reader gives what a `Row` gives, one column at a time, and says the same when
    /// a value is not what was asked for.
    @Test func columnsReadOneByOneMatchTheRow() throws {
        let database = try Database.inMemory()
        try database.execute("CREATE TABLE t (id INTEGER, name TEXT, due TEXT, note TEXT)")
        try database.execute("INSERT INTO t VALUES (1, 'Acme & Co', '2025-01-24', NULL), (2, '山田 陽子', '2025-1-24', 'x')")
        var read: [(Int64, String, String?)] = []
        var firstDay: CalendarDay?
        try database.queryColumns("SELECT id, name, due, note FROM t WHERE id >= :first ORDER BY id", named: ["first": 1]) { columns in
            let id: Int64 = try columns[0]
            read.append((id, try columns[1], try columns[3]))
            if id == 1 {
                firstDay = try columns.day(2)
            } else {
                #expect(throws: DatabaseError.invalidValue(column: "due", text: "2025-1-24", expected: "YYYY-MM-DD day")) {
                    try columns.day(2)
                }
            }
            #expect(throws: DatabaseError.noSuchColumn("#4")) { try columns.day(4) }
            #expect(throws: DatabaseError.typeMismatch(column: "name", expected: "INTEGER", found: "TEXT")) {
                let _: Int64 = try columns[1]
            }
        }
        #expect(read.map(\.0) == [1, 2])
        #expect(read.map(\.1) == ["Acme & Co", "山田 陽子"])
        #expect(read.map(\.2) == [nil, "x"])
        #expect(firstDay == CalendarDay(year: 2025, month: 1, day: 24))
    }
}
