import AppLibrary
import Foundation
import Storage
import Synchronization

/// The library, opened and migrated on another thread while GTK starts: on a first start the
/// migrations' writes and syncs then overlap the toolkit's start-up instead of delaying the
/// first frame. The window takes the result with `wait()`, usually without waiting.
final class LibraryOpening: Sendable {
    private let result = Mutex<Result<Database, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// `preparations` are the enabled plugins' `prepareLibrary`. One that fails is not reported
    /// here: the plugin's activation runs the same migration again and shows why it failed.
    init(preparations: [@Sendable (Database) throws -> Void]) {
        Thread.detachNewThread { [self] in
            let opened = AppDatabase.open()
            if case .success(let database) = opened {
                for prepare in preparations {
                    do { try prepare(database) } catch { continue }
                }
            }
            result.withLock { $0 = opened }
            finished.signal()
        }
    }

    /// The opened database or why it could not be opened; blocks until the thread is done.
    func wait() -> Result<Database, any Error> {
        if let done = result.withLock({ $0 }) { return done }
        finished.wait()
        finished.signal()
        return result.withLock { $0 }!
    }
}
