import CGLib

/// A `GApplication`: one instance per user session, actions, and the main loop.
@MainActor
open class Application: Object {
    /// Runs the application's main loop until it quits; returns the exit status.
    public func run(arguments: [String]) -> Int32 {
        MainQueueBridge.install()
        var cStrings = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            g_application_run(bf_application(objectPointer), Int32(buffer.count), buffer.baseAddress)
        }
    }

    public func quit() { g_application_quit(bf_application(objectPointer)) }

    public func onStartup(_ handler: @escaping @MainActor () -> Void) { connect("startup", handler) }
    public func onActivate(_ handler: @escaping @MainActor () -> Void) { connect("activate", handler) }
    public func onShutdown(_ handler: @escaping @MainActor () -> Void) { connect("shutdown", handler) }

    /// Adds an application-wide action, reachable as `app.<name>`.
    public func add(_ action: SimpleAction) {
        g_action_map_add_action(bf_action_map(objectPointer), action.actionPointer)
    }

    public func removeAction(named name: String) {
        g_action_map_remove_action(bf_action_map(objectPointer), name)
    }

    public func hasAction(named name: String) -> Bool {
        g_action_map_lookup_action(bf_action_map(objectPointer), name) != nil
    }

    /// Activates `app.<name>` as a menu item or shortcut would.
    public func activateAction(named name: String) {
        g_action_group_activate_action(OpaquePointer(objectPointer), name, nil)
    }
}

/// A `GSimpleAction` without a parameter; the closure runs when it is activated.
@MainActor
public final class SimpleAction: Object {
    public let name: String

    public init(name: String, _ handler: @escaping @MainActor () -> Void) {
        self.name = name
        super.init(adopting: untyped(g_simple_action_new(name, nil)))
        connectWithPointer("activate") { _ in handler() }
    }

    package var actionPointer: OpaquePointer { OpaquePointer(objectPointer) }

    public var isEnabled: Bool {
        get { g_action_get_enabled(actionPointer) != 0 }
        set { g_simple_action_set_enabled(actionPointer, newValue ? 1 : 0) }
    }

    public func activate() { g_action_activate(actionPointer, nil) }
}
