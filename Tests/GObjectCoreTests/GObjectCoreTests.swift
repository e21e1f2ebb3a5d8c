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

/// Swift state kept in a wrapper subclass, as a dialog or a row controller keeps it.
@MainActor
final class StatefulObject: Object {
    var note = ""
    init(note: String) {
        self.note = note
        super.init(adopting: g_object_new_with_properties(bf_type_object(), 0, nil, nil))
    }
}

/// Carries a wrapper to another thread, as a background task capturing it would.
final class WrapperCarrier: @unchecked Sendable {
    var wrapper: Object?
    init(_ wrapper: Object) { self.wrapper = wrapper }
}

@Suite(.serialized) @MainActor
struct OneWrapperPerInstanceTests {
    @Test func anInstanceHeldElsewhereKeepsItsWrapperAndItsState() {
        var action: StatefulObject? = StatefulObject(note: "kept")
        let pointer = action!.rawPointer
        let probe = FinalizationProbe(watching: action!)
        g_object_ref(pointer)  // another owner, as a parent widget or GTK's window list
        action = nil
        let found = Object.wrapper(of: pointer) as? StatefulObject
        #expect(found?.note == "kept")
        #expect(!probe.isFinalized)
        _ = found
    }

    @Test func theWrapperGoesWhenItsLastOtherOwnerLetsGo() {
        var action: StatefulObject? = StatefulObject(note: "short-lived")
        let pointer = action!.rawPointer
        let probe = FinalizationProbe(watching: action!)
        g_object_ref(pointer)
        action = nil
        #expect(Object.wrapper(of: pointer) != nil)
        g_object_unref(pointer)  // the other owner lets go: only the wrapper was left, and nobody holds it
        #expect(probe.isFinalized)
        #expect(probe.wasFinalizedOnMainActor)
    }

    @Test func lookingUpAPointerGivesTheSameWrapper() {
        let action = StatefulObject(note: "one")
        #expect(Object.wrapper(of: action.rawPointer) === action)
    }

    @Test func aPointerWithoutAWrapperHasNone() {
        let bare = g_object_new_with_properties(bf_type_object(), 0, nil, nil)!
        defer { g_object_unref(bare) }
        #expect(Object.wrapper(of: bare) == nil)
    }

    @Test func aWrapperReleasedOnAnotherThreadFinalizesOnTheMainActor() async {
        var action: StatefulObject? = StatefulObject(note: "crosses threads")
        let probe = FinalizationProbe(watching: action!)
        let carrier = WrapperCarrier(action!)
        action = nil
        await Task.detached { carrier.wrapper = nil }.value
        let finalized = await MainLoop.wait(until: { probe.isFinalized }, timeout: 5)
        #expect(finalized)
        #expect(probe.wasFinalizedOnMainActor)
    }
}

@Suite(.serialized) @MainActor
struct SignalTests {
    @Test func aHandlerThatIgnoresArgumentsWorksOnASignalThatHasThem() {
        let action = SimpleAction(name: "arguments") {}
        var calls = 0
        action.connect("notify::enabled") { calls += 1 }
        action.isEnabled = false
        action.isEnabled = true
        #expect(calls == 2)
    }

    @Test func handlersOfTheWrongShapeAreRefusedByName() {
        let action = SimpleAction(name: "shapes") {}
        #expect(action.signalMismatch("notify::enabled", arguments: [.pointer], returning: .nothing) == nil)
        #expect(action.signalMismatch("activate", arguments: [.pointer], returning: .nothing) == nil)
        #expect(action.signalMismatch("activate", arguments: [.integer], returning: .nothing)?.contains("passes") == true)
        #expect(action.signalMismatch("activate", arguments: nil, returning: .integer)?.contains("returns") == true)
        #expect(action.signalMismatch("no-such-signal", arguments: nil, returning: .nothing)?.contains("has no signal") == true)
    }

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
        var idleAt: gint64 = 0
        var timeoutAt: gint64 = 0
        MainLoop.whenIdle {
            order.append("idle")
            idleAt = g_get_monotonic_time()
            // Scheduled from the idle callback, so the order does not depend on how fast the
            // first iteration comes.
            MainLoop.after(milliseconds: 20) {
                order.append("timeout")
                timeoutAt = g_get_monotonic_time()
            }
        }
        let done = MainLoop.run(until: { order.count == 2 }, timeout: 5)
        #expect(done)
        #expect(order == ["idle", "timeout"])
        #expect(timeoutAt - idleAt >= 20_000)
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
