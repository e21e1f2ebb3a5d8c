// Runs the main-queue bridge as the app does: GLib owns the main thread, and a background task
// hops back with `await MainActor.run`. Prints "resumed 42" when the hop completes.
import GObjectCore

final class Result: @unchecked Sendable { var value: Int? }
let result = Result()

MainActor.assumeIsolated {
    MainQueueBridge.install()
    Task.detached {
        let value = await Task.detached { 21 * 2 }.value
        await MainActor.run { result.value = value }
    }
    let resumed = MainLoop.run(until: { result.value != nil }, timeout: 10)
    print(resumed ? "resumed \(result.value ?? 0)" : "timed out")
}
