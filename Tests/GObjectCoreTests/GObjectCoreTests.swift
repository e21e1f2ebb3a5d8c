import Testing
@testable import GObjectCore
import CGLib
import Foundation
import TestSupport

@Suite(.serialized) @MainActor
struct ObjectLifetimeTests {
    @Test func wrapperDeinitFinalizesItsObject() {
        var action: SimpleAction? = SimpleAction(name: "probe") {}
        let probe = FinalizationProbe(watching: action!)
        #expect(!probe.isFinalized)
        action = nil
        #expect(probe.isFinalized)
    }

    @Test func secondWrapperKeepsTheObjectAlive() {
        var first: SimpleAction? = SimpleAction(name: "shared") {}
        let second = Object(retaining: first!.rawPointer)
        let probe = FinalizationProbe(watching: second)
        first = nil
        #expect(!probe.isFinalized)
        #expect(second.typeName == "GSimpleAction")
    }
}

@Suite(.serialized) @MainActor
struct SignalTests {
    @Test func signalCallsTheSwiftClosure() {
        var activations = 0
        let action = SimpleAction(name: "count") { activations += 1 }
        action.activate()
        action.activate()
        #expect(activations == 2)
    }

    @Test func closureBoxIsFreedOnDisconnect() {
        let action = SimpleAction(name: "disconnect") {}
        let before = SignalClosureCounter.live
        var calls = 0
        let notify = action.onNotify("enabled") { calls += 1 }
        #expect(SignalClosureCounter.live == before + 1)
        action.isEnabled = false
        #expect(calls == 1)
        #expect(notify.isConnected)
        notify.disconnect()
        #expect(!notify.isConnected)
        #expect(SignalClosureCounter.live == before)
        action.isEnabled = true
        #expect(calls == 1)
    }

    @Test func closureBoxIsFreedWhenTheObjectIsFinalized() {
        let before = SignalClosureCounter.live
        var action: SimpleAction? = SimpleAction(name: "finalize") {}
        let handler = action!.onNotify("enabled") {}
        #expect(SignalClosureCounter.live == before + 2)  // activate + notify
        action = nil
        #expect(SignalClosureCounter.live == before)
        #expect(!handler.isConnected)
        handler.disconnect()  // safe after finalization
    }

    @Test func blockedHandlerDoesNotRun() {
        var calls = 0
        let action = SimpleAction(name: "block") {}
        let handler = action.onNotify("enabled") { calls += 1 }
        handler.block()
        action.isEnabled = false
        handler.unblock()
        action.isEnabled = true
        #expect(calls == 1)
    }
}

@Suite(.serialized) @MainActor
struct MainLoopTests {
    // Under the test runner the main actor is a serial queue, not GLib's thread, so the bridge
    // is checked in a child process that runs the loop exactly as the app does.
    @Test func backgroundTaskResumesOnTheMainActorWhileGLibRuns() throws {
        let output = try Processes.run(builtProduct: "MainLoopProbe")
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "resumed 42")
    }

    @Test func waitingLetsOtherMainActorWorkRun() async {
        let box = ResultBox()
        Task.detached {
            let value = await Task.detached { 6 * 7 }.value
            await MainActor.run { box.value = value }
        }
        let done = await MainLoop.wait(until: { box.value != nil }, timeout: 10)
        #expect(done)
        #expect(box.value == 42)
    }

    @Test func timeoutAndIdleCallbacksRun() {
        var order: [String] = []
        MainLoop.after(milliseconds: 20) { order.append("timeout") }
        MainLoop.whenIdle { order.append("idle") }
        let done = MainLoop.run(until: { order.count == 2 }, timeout: 5)
        #expect(done)
        #expect(order == ["idle", "timeout"])
    }
}

@MainActor
final class ResultBox {
    var value: Int?
}

@Suite struct ValueTests {
    @Test func valuesRoundTripThroughGValue() {
        for value in [Value.string("Grüße"), .string(nil), .bool(true), .int(-7), .double(2.5)] {
            let back = value.withGValue { Value(reading: $0) }
            #expect(back == value)
        }
    }

    @Test func gerrorBecomesASwiftErrorWithItsMessage() {
        #expect(throws: GLibError.self) {
            try GLibError.check { error in
                var contents: UnsafeMutablePointer<gchar>?
                return g_file_get_contents("/nonexistent/billfold-test", &contents, nil, error)
            }
        }
    }
}
