import CGLib
import Synchronization

/// A connected signal handler: the token that disconnects it. Dropping it leaves the handler
/// connected for the object's lifetime.
@MainActor
public final class SignalHandler {
    public let id: UInt
    private nonisolated(unsafe) let instance: UnsafeMutablePointer<GWeakRef>

    init(id: gulong, object: UnsafeMutablePointer<GObject>) {
        self.id = UInt(id)
        instance = .allocate(capacity: 1)
        instance.initialize(to: GWeakRef())
        g_weak_ref_init(instance, object)
    }

    isolated deinit {
        g_weak_ref_clear(instance)
        instance.deallocate()
    }

    /// True while the object is alive and the handler still connected.
    public var isConnected: Bool {
        guard let object = g_weak_ref_get(instance) else { return false }
        defer { g_object_unref(object) }
        return g_signal_handler_is_connected(object, gulong(id)) != 0
    }

    /// Disconnects the handler (freeing its closure). Safe after the object is gone.
    public func disconnect() {
        withObject { object in
            if g_signal_handler_is_connected(object, gulong(id)) != 0 {
                g_signal_handler_disconnect(object, gulong(id))
            }
        }
    }

    public func block() { withObject { g_signal_handler_block($0, gulong(id)) } }
    public func unblock() { withObject { g_signal_handler_unblock($0, gulong(id)) } }

    private func withObject(_ body: (gpointer) -> Void) {
        guard let object = g_weak_ref_get(instance) else { return }
        defer { g_object_unref(object) }
        body(object)
    }
}

/// Counts the Swift closures connected to signals and not yet released; tests use it to prove
/// that a widget's handlers die with it. Safe to read from any thread.
package enum SignalClosureCounter {
    private static let count = Atomic<Int>(0)
    package static var live: Int { count.load(ordering: .relaxed) }
    static func retain() { count.add(1, ordering: .relaxed) }
    static func release() { count.subtract(1, ordering: .relaxed) }
}

/// How GLib passes a value in a signal: what a handler may read from an argument or return.
package enum SignalValueKind: Sendable, Equatable {
    case nothing, integer, double, pointer

    init(_ type: GType) {
        switch bf_type_kind(type) {
        case BF_KIND_NONE: self = .nothing
        case BF_KIND_INTEGER: self = .integer
        case BF_KIND_DOUBLE: self = .double
        default: self = .pointer
        }
    }
}

/// The values of one emission, as GLib collected them. Index 0 is the emitting instance; the
/// signal's arguments follow. Each read is checked against the value's type.
package struct SignalArguments {
    let values: UnsafePointer<GValue>
    package let count: Int

    package func pointer(_ index: Int) -> UnsafeMutableRawPointer? {
        precondition(kind(index) == .pointer, "signal argument \(index) is not a pointer")
        return g_value_peek_pointer(values + index)
    }

    package func integer(_ index: Int) -> Int {
        precondition(kind(index) == .integer, "signal argument \(index) is not an integer")
        return Int(bf_value_get_integer(values + index))
    }

    package func double(_ index: Int) -> Double {
        precondition(kind(index) == .double, "signal argument \(index) is not a number")
        return bf_value_get_real(values + index)
    }

    private func kind(_ index: Int) -> SignalValueKind {
        precondition(index < count, "signal has no argument \(index)")
        return SignalValueKind(values[index].g_type)
    }
}

/// The Swift side of a connection: what runs, released by the closure's finalize notifier
/// (disconnection or the object's disposal), on whatever thread that happens.
private final class SignalBody: @unchecked Sendable {
    let run: @MainActor (SignalArguments) -> Int
    init(_ run: @escaping @MainActor (SignalArguments) -> Int) { self.run = run }
}

/// The one marshaller for every signal: hands the collected values to the Swift body and
/// stores its result where the signal returns one.
private let marshal: GClosureMarshal = { closure, returnValue, count, values, _, _ in
    guard let closure, let data = bf_closure_data(closure), let values else { return }
    let body = Unmanaged<SignalBody>.fromOpaque(data).takeUnretainedValue()
    nonisolated(unsafe) let arguments = SignalArguments(values: values, count: Int(count))
    let result = MainActor.assumeIsolated { body.run(arguments) }
    if let returnValue, SignalValueKind(returnValue.pointee.g_type) == .integer {
        bf_value_set_integer(returnValue, gint64(result))
    }
}

private let releaseBody: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<SignalBody>.fromOpaque(data).release()
    SignalClosureCounter.release()
}

extension Object {
    /// Connects `body` to `signal` after checking the handler's shape against the signal's:
    /// `arguments` are the kinds the body reads (nil: it reads none, whatever the signal has),
    /// `returning` what it gives back. A mismatch is a programming error, reported here rather
    /// than as a crash on the first emission. `watchedBy` ties the connection to another object's
    /// life as well, for handlers on a shared object (e.g. the style manager) that belong to a widget.
    @discardableResult
    package func connectSignal(_ signal: String, after: Bool = false, arguments: [SignalValueKind]?,
                               returning: SignalValueKind = .nothing, watchedBy watcher: Object? = nil,
                               _ body: @escaping @MainActor (SignalArguments) -> Int) -> SignalHandler {
        if let mismatch = signalMismatch(signal, arguments: arguments, returning: returning) {
            preconditionFailure(mismatch)
        }
        let data = Unmanaged.passRetained(SignalBody(body)).toOpaque()
        SignalClosureCounter.retain()
        let closure = bf_closure_new(data, marshal, releaseBody)
        if let watcher { g_object_watch_closure(watcher.objectPointer, closure) }
        let id = g_signal_connect_closure(objectPointer, signal, closure, after ? 1 : 0)
        return SignalHandler(id: id, object: objectPointer)
    }

    /// Why a handler of this shape cannot be connected to `signal`, or nil when it can.
    package func signalMismatch(_ signal: String, arguments: [SignalValueKind]?, returning: SignalValueKind) -> String? {
        var signalID: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(signal, bf_object_type(objectPointer), &signalID, &detail, 0) != 0 else {
            return "\(typeName) has no signal “\(signal)”"
        }
        var query = GSignalQuery()
        g_signal_query(signalID, &query)
        let returned = SignalValueKind(query.return_type)
        if returned != returning {
            return "“\(signal)” on \(typeName) returns \(returned), the handler \(returning)"
        }
        guard let arguments else { return nil }
        let declared = (0..<Int(query.n_params)).map { SignalValueKind(query.param_types[$0]) }
        return declared == arguments ? nil : "“\(signal)” on \(typeName) passes \(declared), the handler reads \(arguments)"
    }

    /// Connects a handler that takes nothing and returns nothing; the signal may have arguments.
    @discardableResult
    public func connect(_ signal: String, after: Bool = false, _ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connectSignal(signal, after: after, arguments: nil) { _ in handler(); return 0 }
    }

    /// Connects a handler whose Boolean result goes back to the emitter (e.g. `close-request`).
    @discardableResult
    public func connectReturningBool(_ signal: String, after: Bool = false,
                                     _ handler: @escaping @MainActor () -> Bool) -> SignalHandler {
        connectSignal(signal, after: after, arguments: nil, returning: .integer) { _ in handler() ? 1 : 0 }
    }

    /// Connects a handler to a signal with one pointer argument (an object, a boxed value or a
    /// string); for the binding targets, which turn it into a Swift type for their callers.
    @discardableResult
    package func connectWithPointer(_ signal: String, after: Bool = false,
                                    _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> SignalHandler {
        connectSignal(signal, after: after, arguments: [.pointer]) { arguments in
            handler(arguments.pointer(1))
            return 0
        }
    }

    /// Connects a handler to a signal with one integer argument (e.g. a position or a response).
    @discardableResult
    package func connectWithInteger(_ signal: String, _ handler: @escaping @MainActor (Int) -> Void) -> SignalHandler {
        connectSignal(signal, arguments: [.integer]) { arguments in
            handler(arguments.integer(1))
            return 0
        }
    }

    /// Calls `handler` whenever the named property changes.
    @discardableResult
    public func onNotify(_ property: String, _ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connectWithPointer("notify::\(property)") { _ in handler() }
    }

    /// Emits a signal that takes no arguments, as the toolkit would.
    public func emit(_ signal: String) {
        bf_signal_emit0(objectPointer, signal)
    }
}
