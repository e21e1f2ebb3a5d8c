import CGLib
import Dispatch
import Glibc

/// Lets libdispatch's main queue — and with it the Swift main actor — run while GLib owns the
/// main thread. Without it `await MainActor.run` and `Task { @MainActor in }` never resume.
public enum MainQueueBridge {
    @MainActor private static var installed = false

    /// Watches the main queue's wake-up descriptor from the GLib main context. Idempotent;
    /// call before `g_application_run` or before iterating a loop in tests.
    @MainActor
    public static func install() {
        guard !installed else { return }
        installed = true
        let fd = _dispatch_get_main_queue_handle_4CF()
        // Reading must never block if libdispatch drained the counter first.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = bf_unix_fd_add(fd, { fd, _, _ in
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return 1
        }, nil)
    }
}

/// The GLib main loop, for code that must wait on the main thread without blocking it.
public enum MainLoop {
    /// Runs one iteration of the default main context; returns whether anything was dispatched.
    @MainActor @discardableResult
    public static func iterate(blocking: Bool = false) -> Bool {
        g_main_context_iteration(nil, blocking ? 1 : 0) != 0
    }

    /// Iterates the default context until `condition` holds or `timeout` seconds pass.
    /// Returns whether the condition held. For tests and modal waits.
    @MainActor @discardableResult
    public static func run(until condition: @MainActor () -> Bool, timeout: Double = 5) -> Bool {
        MainQueueBridge.install()
        let deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
        while !condition() {
            if g_get_monotonic_time() > deadline { return false }
            if !iterate(blocking: false) { g_usleep(1000) }
        }
        return true
    }

    /// Iterates the default context until `condition` holds, suspending between iterations so
    /// other main-actor work (a background task hopping back) can run meanwhile.
    @MainActor
    public static func wait(until condition: @MainActor () -> Bool, timeout: Double = 5) async -> Bool {
        let deadline = g_get_monotonic_time() + gint64(timeout * 1_000_000)
        while !condition() {
            if g_get_monotonic_time() > deadline { return false }
            while iterate(blocking: false) {}
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }

    /// Calls `body` on the main loop after `milliseconds`.
    @MainActor
    public static func after(milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(MainLoopCallback(body)).toOpaque()
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { data in
            let box = Unmanaged<MainLoopCallback>.fromOpaque(data!).takeRetainedValue()
            MainActor.assumeIsolated { box.body() }
            return 0
        }, box, nil)
    }

    /// Calls `body` once the main loop is idle.
    @MainActor
    public static func whenIdle(_ body: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(MainLoopCallback(body)).toOpaque()
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { data in
            let box = Unmanaged<MainLoopCallback>.fromOpaque(data!).takeRetainedValue()
            MainActor.assumeIsolated { box.body() }
            return 0
        }, box, nil)
    }
}

/// A callback the main loop runs once; released when it has run.
private final class MainLoopCallback: @unchecked Sendable {
    let body: @MainActor () -> Void
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }
}
