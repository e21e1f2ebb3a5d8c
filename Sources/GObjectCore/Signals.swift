import CGLib

/// Holds a Swift closure for the lifetime of a signal connection. GLib releases it through the
/// destroy-notify when the handler is disconnected or the object is finalized. Unchecked
/// Sendable: the closure is immutable and only ever called on the main thread.
final class ClosureBox<Handler>: @unchecked Sendable {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }
}

/// A connected signal handler. Keep it to disconnect later; dropping it leaves the handler
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

    deinit {
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
        guard let object = g_weak_ref_get(instance) else { return }
        defer { g_object_unref(object) }
        if g_signal_handler_is_connected(object, gulong(id)) != 0 {
            g_signal_handler_disconnect(object, gulong(id))
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

/// Counts live closure boxes; tests use it to prove boxes are freed.
public enum SignalClosureCounter {
    @MainActor public private(set) static var live = 0
    @MainActor static func retain() { live += 1 }
    @MainActor static func release() { live -= 1 }
}

private let releaseBox: GClosureNotify = { data, _ in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
    MainActor.assumeIsolated { SignalClosureCounter.release() }
}

// One C trampoline per signal signature.
typealias VoidHandler = @MainActor () -> Void
typealias BoolHandler = @MainActor () -> Bool
typealias PointerHandler = @MainActor (UnsafeMutableRawPointer?) -> Void
typealias PointerIntHandler = @MainActor (UnsafeMutableRawPointer?) -> Int32
typealias PointerPointerHandler = @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

private let voidTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
    let box = Unmanaged<ClosureBox<VoidHandler>>.fromOpaque(data!).takeUnretainedValue()
    MainActor.assumeIsolated { box.handler() }
}

private let boolTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    let box = Unmanaged<ClosureBox<BoolHandler>>.fromOpaque(data!).takeUnretainedValue()
    return MainActor.assumeIsolated { box.handler() } ? 1 : 0
}

private let pointerTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
    let box = Unmanaged<ClosureBox<PointerHandler>>.fromOpaque(data!).takeUnretainedValue()
    nonisolated(unsafe) let argument = argument
    MainActor.assumeIsolated { box.handler(argument) }
}

private let pointerIntTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gint = { _, argument, data in
    let box = Unmanaged<ClosureBox<PointerIntHandler>>.fromOpaque(data!).takeUnretainedValue()
    nonisolated(unsafe) let argument = argument
    return MainActor.assumeIsolated { box.handler(argument) }
}

private let pointerPointerTrampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void = { _, first, second, data in
    let box = Unmanaged<ClosureBox<PointerPointerHandler>>.fromOpaque(data!).takeUnretainedValue()
    nonisolated(unsafe) let first = first
    nonisolated(unsafe) let second = second
    MainActor.assumeIsolated { box.handler(first, second) }
}

extension Object {
    private func connect<Handler>(_ signal: String, after: Bool, box: ClosureBox<Handler>,
                                  trampoline: GCallback) -> SignalHandler {
        let data = Unmanaged.passRetained(box as AnyObject).toOpaque()
        SignalClosureCounter.retain()
        let id = bf_signal_connect(objectPointer, signal, trampoline, data, releaseBox, after ? 1 : 0)
        if id == 0 {
            // GLib rejected the signal name (and logged it) without taking the box.
            releaseBox(data, nil)
        }
        return SignalHandler(id: id, object: objectPointer)
    }

    /// Connects a handler to a signal with no arguments and no return value.
    @discardableResult
    public func connect(_ signal: String, after: Bool = false, _ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect(signal, after: after, box: ClosureBox<VoidHandler>(handler),
                trampoline: unsafeBitCast(voidTrampoline, to: GCallback.self))
    }

    /// Connects a handler whose Boolean result goes back to the emitter (e.g. `close-request`).
    @discardableResult
    public func connectReturningBool(_ signal: String, after: Bool = false,
                                     _ handler: @escaping @MainActor () -> Bool) -> SignalHandler {
        connect(signal, after: after, box: ClosureBox<BoolHandler>(handler),
                trampoline: unsafeBitCast(boolTrampoline, to: GCallback.self))
    }

    /// Connects a handler to a signal with one pointer argument; for the binding targets,
    /// which turn the pointer into a Swift type before calling the caller's closure.
    @discardableResult
    package func connectWithPointer(_ signal: String, after: Bool = false,
                                    _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> SignalHandler {
        connect(signal, after: after, box: ClosureBox<PointerHandler>(handler),
                trampoline: unsafeBitCast(pointerTrampoline, to: GCallback.self))
    }

    @discardableResult
    package func connectWithPointerReturningInt(_ signal: String,
                                                _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Int32) -> SignalHandler {
        connect(signal, after: false, box: ClosureBox<PointerIntHandler>(handler),
                trampoline: unsafeBitCast(pointerIntTrampoline, to: GCallback.self))
    }

    @discardableResult
    package func connectWithTwoPointers(_ signal: String,
                                        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void) -> SignalHandler {
        connect(signal, after: false, box: ClosureBox<PointerPointerHandler>(handler),
                trampoline: unsafeBitCast(pointerPointerTrampoline, to: GCallback.self))
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
