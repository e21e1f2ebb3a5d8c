import SeededRandom
import Foundation
import Storage

/// A directory under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("billfold-storage-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

/// Everything in a database as lines of text: the schema, then every row of every table.
/// Two dumps are equal exactly when the databases hold the same things.
func dump(_ database: Database) throws -> [String] {
    var lines: [String] = []
    var tables: [String] = []
    try database.query("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name") { row in
        let type: String = try row[0]
        let name: String = try row[1]
        let sql: String? = try row[3]
        lines.append("\(type) \(name): \(sql ?? "")")
        if type == "table", !name.hasPrefix("sqlite_") { tables.append(name) }
    }
    for table in tables {
        try database.query("SELECT * FROM \"\(table)\" ORDER BY rowid") { row in
            lines.append("\(table): \(row.values)")
        }
    }
    return lines
}

struct ExpectedFailure: Error, Equatable {}
