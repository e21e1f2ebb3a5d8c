import Foundation

/// Reads a long list on this thread and formats it on another, so the two run on two cores:
/// `produce` hands each item to `send`, and `consume` gets them in order, in batches, on a
/// thread of its own. At most `depth` batches wait, so memory stays flat however long the list.
///
/// Returns once every item sent was consumed, so `consume` may use the caller's variables: only
/// one thread runs it at a time, and the caller reads them after. An error from `produce` is
/// thrown once the items sent before it were consumed.
@inlinable // specialized for the item type: a generic copy of each item cost more than the handoff
public func withPipeline<Item: Sendable>(batchSize: Int = 256, depth: Int = 4,
                                         consume: ([Item]) -> Void,
                                         produce: (_ send: (Item) -> Void) throws -> Void) throws {
    try withoutActuallyEscaping(consume) { consume in
        let queue = PipelineQueue<Item>(depth: depth, consume: consume)
        let thread = Thread { queue.consumeUntilFinished() }
        thread.name = "billfold-pipeline"
        thread.start()
        var batch: [Item] = []
        batch.reserveCapacity(batchSize)
        defer {
            queue.push(batch)
            queue.finishAndWait()
        }
        try produce { item in
            batch.append(item)
            if batch.count == batchSize {
                queue.push(batch)
                batch = []
                batch.reserveCapacity(batchSize)
            }
        }
    }
}

/// The batches between the two threads. Unchecked: `consume` is not Sendable, but only the
/// consuming thread calls it, and `withPipeline` waits for that thread before returning.
@usableFromInline
final class PipelineQueue<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let depth: Int
    /// Dropped once consumed: `withoutActuallyEscaping` checks nothing holds it after.
    private var consume: (([Item]) -> Void)?
    private var batches: [[Item]] = []
    private var finished = false
    private var consumed = false

    @usableFromInline
    init(depth: Int, consume: @escaping ([Item]) -> Void) {
        self.depth = depth
        self.consume = consume
    }

    @usableFromInline
    func push(_ batch: [Item]) {
        guard !batch.isEmpty else { return }
        condition.lock()
        while batches.count >= depth { condition.wait() }
        batches.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    @usableFromInline
    func finishAndWait() {
        condition.lock()
        finished = true
        condition.broadcast()
        while !consumed { condition.wait() }
        consume = nil
        condition.unlock()
    }

    @usableFromInline
    func consumeUntilFinished() {
        while let (batch, consume) = next() { consume(batch) }
        condition.lock()
        consumed = true
        condition.broadcast()
        condition.unlock()
    }

    private func next() -> ([Item], ([Item]) -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, !finished { condition.wait() }
        guard !batches.isEmpty, let consume else { return nil }
        condition.broadcast()
        return (batches.removeFirst(), consume)
    }
}
