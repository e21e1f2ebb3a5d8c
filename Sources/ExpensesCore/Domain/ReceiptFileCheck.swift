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
            let actual: String
            switch digestOfFile(url) {
            case .success(let digest):
                actual = digest
            case .failure(.missing):
                problems.append(String(format: tr("The receipt file %@ is missing."), url.path))
                return
            case .failure(.unreadable(let reason)):
                problems.append(String(format: tr("The receipt file %@ could not be read: %@."), url.path, reason))
                return
            }
            if actual != reference.digest {
                problems.append(String(format: tr("The receipt file %@ has changed since it was attached."), url.path))
            }
        }
        return problems
    }

    private enum ReadProblem: Error {
        case missing
        /// A file that is there but cannot be read (a permission, a disk error) is not "missing".
        case unreadable(reason: String)
    }

    private static func digestOfFile(_ url: URL) -> Result<String, ReadProblem> {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ENOENT ? .missing : .unreadable(reason: FileProblem.reason(errno: code)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let hasher = SHA256Hasher()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        } catch {
            return .failure(.unreadable(reason: error.localizedDescription))
        }
        return .success(hasher.finish())
    }
}
