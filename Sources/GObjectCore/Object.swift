import CGLib

/// The one Swift wrapper of a GObject instance, living exactly as long as the instance is used.
///
/// The lifetime model (as in PyGObject and GJS):
/// - A wrapper is attached to its instance (qdata) and holds it with a *toggle reference*.
/// - While anything besides the wrapper holds the instance (a parent widget, GTK's list of
///   windows), the instance keeps the wrapper alive, and with it every stored property of a
///   subclass: a dialog's model, a row's controller. Swift state tied to a widget is therefore
///   written as a subclass of its wrapper, and dies with the widget.
/// - When only the wrapper is left, the instance stops keeping it; once Swift drops it too,
///   `deinit` releases the instance, which is finalized.
/// - `deinit` is isolated to the main actor: a wrapper released on another thread is finalized
///   on the main thread, never there.
/// - Handlers capture their owner `[weak self]`, so that a closure kept by a widget cannot keep
///   the widget's own wrapper alive in a cycle. Never `unowned`.
///
/// `init(adopting:)` takes over the reference a constructor returned (sinking a floating one);
/// `init(retaining:)` adds a reference to a borrowed pointer. A pointer that may already have a
/// wrapper is looked up with `wrapper(of:)` first, so that each instance has one.
@MainActor
open class Object {
    /// The owned instance. `package` so the binding targets can call C with it; the layers
    /// above only see Swift types.
    package nonisolated(unsafe) let objectPointer: UnsafeMutablePointer<GObject>
    /// The instance's link back to this wrapper; nil for a second wrapper of an instance that
    /// already had one (then this one holds a plain reference).
    private let anchor: WrapperAnchor?

    public init(adopting pointer: UnsafeMutableRawPointer) {
        let object = pointer.assumingMemoryBound(to: GObject.self)
        if bf_object_is_floating(object) != 0 {
            g_object_ref_sink(object)
        }
        objectPointer = object
        anchor = WrapperAnchor.claim(object)
        anchor?.attach(self)
    }

    public init(retaining pointer: UnsafeMutableRawPointer) {
        let object = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref_sink(object)
        objectPointer = object
        anchor = WrapperAnchor.claim(object)
        anchor?.attach(self)
    }

    isolated deinit {
        if let anchor {
            anchor.detach(from: objectPointer)
        } else {
            g_object_unref(objectPointer)
        }
    }

    /// The wrapper attached to the instance at `pointer`, if it has one (and it is alive).
    package static func wrapper(of pointer: UnsafeMutableRawPointer) -> Object? {
        WrapperAnchor.existing(pointer.assumingMemoryBound(to: GObject.self))?.wrapper
    }

    /// The instance as an untyped pointer, for the binding targets' C calls.
    package var rawPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(objectPointer) }

    /// The instance as a pointer to a C struct type, for the binding targets' C calls.
    package func pointer<T>(as type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        rawPointer.assumingMemoryBound(to: T.self)
    }

    /// The instance as an opaque pointer, for C types whose struct is private.
    package var opaquePointer: OpaquePointer { OpaquePointer(objectPointer) }

    /// `pointer()` where C takes an opaque type: the call site reads the same either way.
    package func pointer() -> OpaquePointer { opaquePointer }

    /// The GType name, e.g. `GtkButton`; useful in tests and diagnostics.
    public var typeName: String {
        String(cString: g_type_name(objectPointer.pointee.g_type_instance.g_class.pointee.g_type))
    }

    /// Two wrappers are the same object when they wrap the same instance.
    public func isSameObject(as other: Object) -> Bool { objectPointer == other.objectPointer }

    // MARK: Properties

    public func setProperty(_ name: String, _ value: Bool) { bf_object_set_bool(objectPointer, name, value ? 1 : 0) }
    public func setProperty(_ name: String, _ value: Int) { bf_object_set_int(objectPointer, name, gint(clamping: value)) }
    public func setProperty(_ name: String, _ value: Double) { bf_object_set_double(objectPointer, name, value) }
    public func setProperty(_ name: String, _ value: String?) { bf_object_set_string(objectPointer, name, value) }
    public func setProperty(_ name: String, _ value: Object?) { bf_object_set_object(objectPointer, name, value?.objectPointer) }

    public func boolProperty(_ name: String) -> Bool { bf_object_get_bool(objectPointer, name) != 0 }
    public func intProperty(_ name: String) -> Int { Int(bf_object_get_int(objectPointer, name)) }
    public func doubleProperty(_ name: String) -> Double { bf_object_get_double(objectPointer, name) }
    public func stringProperty(_ name: String) -> String? {
        guard let value = bf_object_get_string(objectPointer, name) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// Keeps `value` alive exactly as long as the GObject, whatever happens to this wrapper.
    /// Used for Swift state a C callback needs (e.g. a draw function's closure).
    public func attach(_ value: AnyObject, forKey key: String) {
        let retained = Unmanaged.passRetained(value).toOpaque()
        g_object_set_data_full(objectPointer, key, retained) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }
}

/// Watches a GObject's finalization without keeping it alive; for tests and leak checks.
@MainActor
package final class FinalizationProbe {
    private final class Flag { var finalized = false; var thread: gint64 = 0 }
    /// The main actor's thread, where the probe is made.
    private let mainActorThread = bf_thread_id()
    private let flag = Flag()

    private let watched: UnsafeMutableRawPointer

    package init(watching object: Object) {
        watched = object.rawPointer
        let data = Unmanaged.passRetained(flag).toOpaque()
        g_object_weak_ref(object.objectPointer, { data, _ in
            guard let data else { return }
            let flag = Unmanaged<AnyObject>.fromOpaque(data).takeRetainedValue() as! Flag
            flag.finalized = true
            flag.thread = bf_thread_id()
        }, data)
    }

    package var isFinalized: Bool { flag.finalized }
    /// Whether this probe watches `object` (compared by address, so only while it lives).
    package func watches(_ object: Object) -> Bool { !flag.finalized && watched == object.rawPointer }
    /// Whether finalization ran on the main actor's thread, where GTK objects must die.
    package var wasFinalizedOnMainActor: Bool { flag.finalized && flag.thread == mainActorThread }
}

/// Untyped views of the pointers C constructors return, for `init(adopting:)`. GTK
/// constructors never return NULL, so a NULL here is a programming error caught at once.
package func untyped(_ pointer: OpaquePointer?) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(pointer)!
}

package func untyped<T>(_ pointer: UnsafeMutablePointer<T>?) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(pointer)!
}

/// The link between an instance and its wrapper: kept in the instance's qdata (freed when it is
/// finalized) and passed to the toggle reference's callback. It holds the wrapper weakly, plus
/// strongly while the instance has other owners.
private final class WrapperAnchor: @unchecked Sendable {
    static let quark = g_quark_from_static_string("billfold-wrapper")
    weak var wrapper: Object?
    /// Set while something besides the wrapper holds the instance.
    var keptAlive: Object?

    static func existing(_ object: UnsafeMutablePointer<GObject>) -> WrapperAnchor? {
        guard let data = g_object_get_qdata(object, quark) else { return nil }
        let anchor = Unmanaged<WrapperAnchor>.fromOpaque(data).takeUnretainedValue()
        return anchor.wrapper == nil ? nil : anchor
    }

    /// A new anchor for an instance without a live wrapper, or nil when it has one.
    static func claim(_ object: UnsafeMutablePointer<GObject>) -> WrapperAnchor? {
        existing(object) == nil ? WrapperAnchor() : nil
    }

    /// Turns the wrapper's plain reference into the toggle reference.
    @MainActor
    func attach(_ wrapper: Object) {
        let object = wrapper.objectPointer
        self.wrapper = wrapper
        // Assume other owners; the unref below says otherwise if there are none.
        keptAlive = wrapper
        g_object_set_qdata_full(object, Self.quark, Unmanaged.passRetained(self).toOpaque()) { data in
            guard let data else { return }
            Unmanaged<WrapperAnchor>.fromOpaque(data).release()
        }
        g_object_add_toggle_ref(object, toggled, Unmanaged.passUnretained(self).toOpaque())
        g_object_unref(object)
    }

    /// Called from the wrapper's deinit: drops the toggle reference, which may finalize the instance.
    func detach(from object: UnsafeMutablePointer<GObject>) {
        if g_object_get_qdata(object, Self.quark) == Unmanaged.passUnretained(self).toOpaque() {
            g_object_set_qdata(object, Self.quark, nil)
        }
        g_object_remove_toggle_ref(object, toggled, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// GLib calls this when the toggle reference becomes the last one, or stops being it.
private let toggled: GToggleNotify = { data, _, isLastReference in
    guard let data else { return }
    let anchor = Unmanaged<WrapperAnchor>.fromOpaque(data).takeUnretainedValue()
    // Dropping the strong reference may run the wrapper's deinit, which removes this toggle
    // reference and finalizes the instance: the last thing GLib's unref does anyway.
    anchor.keptAlive = isLastReference != 0 ? nil : anchor.wrapper
}
