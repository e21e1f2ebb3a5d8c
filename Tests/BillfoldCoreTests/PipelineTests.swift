import BillfoldCore
import Foundation
import Testing

@Suite struct PipelineTests {
    private struct Failure: Error {}

    @Test func everyItemArrivesInOrderInBoundedBatches() throws {
        var received: [Int] = []
        var largestBatch = 0
        try withPipeline(batchSize: 7, depth: 2, consume: { (batch: [Int]) in
            received += batch
            largestBatch = max(largestBatch, batch.count)
        }, produce: { send in
            for item in 0..<1_000 { send(item) }
        })
        #expect(received == Array(0..<1_000))
        #expect(largestBatch == 7)
    }

    @Test func theProducerWaitsWhileTheQueueIsFull() throws {
        // The consumer is slow: a producer that did not wait would be more than `depth` batches
        // (plus the one being consumed and the one being filled) ahead.
        let depth = 2, batchSize = 4
        let consumedCount = Counter()
        var largestLead = 0
        try withPipeline(batchSize: batchSize, depth: depth, consume: { (batch: [Int]) in
            Thread.sleep(forTimeInterval: 0.002)
            consumedCount.add(batch.count)
        }, produce: { send in
            for item in 0..<200 {
                largestLead = max(largestLead, item - consumedCount.value)
                send(item)
            }
        })
        #expect(consumedCount.value == 200)
        #expect(largestLead <= (depth + 2) * batchSize)
    }

    @Test func aProducerErrorIsThrownAfterWhatWasSentIsConsumed() {
        var received: [Int] = []
        #expect(throws: Failure.self) {
            try withPipeline(batchSize: 3, consume: { (batch: [Int]) in received += batch }, produce: { send in
                for item in 0..<5 { send(item) }
                throw Failure()
            })
        }
        #expect(received == [0, 1, 2, 3, 4])
    }

    @Test func nothingProducedConsumesNothing() throws {
        var calls = 0
        try withPipeline(consume: { (_: [Int]) in calls += 1 }, produce: { _ in })
        #expect(calls == 0)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add(_ amount: Int) { lock.withLock { count += amount } }
}
