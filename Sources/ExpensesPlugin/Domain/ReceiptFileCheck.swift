import BillfoldCore
import Foundation
import Storage

/// For `billfold check`: every receipt the data refers to is in the store and still has the
/// content its name (its SHA-256) promises.
enum ReceiptFileCheck {
    static func problems(in database: Database, store: ReceiptStore) throws -> [String] {
        var problems: [String] = []
        try database.query("SELECT digest, kind FROM expenses_receipt ORDER BY digest") { row in
            let digest: String = try row[0]
            let kindName: String = try row[1]
            guard let kind = ReceiptKind(rawValue: kindName), let reference = ReceiptReference(digest: digest, kind: kind) else {
                problems.append(String(format: tr("A receipt is recorded with an unknown kind “%@”."), kindName))
                return
            }
            let url = store.url(for: reference)
            guard let actual = try? digestOfFile(url) else {
                problems.append(String(format: tr("The receipt file %@ is missing."), url.path))
                return
            }
            if actual != reference.digest {
                problems.append(String(format: tr("The receipt file %@ has changed since it was attached."), url.path))
            }
        }
        return problems
    }

    private static func digestOfFile(_ url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let hasher = SHA256Hasher()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        return hasher.finish()
    }
}
