import CGLib

/// A Swift owner of exactly one reference to a GObject.
///
/// `init(adopting:)` takes over the reference a constructor returned (sinking a floating one);
/// `init(retaining:)` adds a reference to a borrowed pointer. `deinit` drops it.
@MainActor
open class Object {
    /// The owned instance. `package` so the binding targets can call C with it; the layers
    /// above only see Swift types.
    package nonisolated(unsafe) let objectPointer: UnsafeMutablePointer<GObject>

    public init(adopting pointer: UnsafeMutableRawPointer) {
        let object = pointer.assumingMemoryBound(to: GObject.self)
        if bf_object_is_floating(object) != 0 {
            g_object_ref_sink(object)
        }
        objectPointer = object
    }

    public init(retaining pointer: UnsafeMutableRawPointer) {
        let object = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref_sink(object)
        objectPointer = object
    }

    deinit {
        g_object_unref(objectPointer)
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
public final class FinalizationProbe {
    private final class Flag { var finalized = false }
    private let flag = Flag()

    public init(watching object: Object) {
        let data = Unmanaged.passRetained(flag).toOpaque()
        g_object_weak_ref(object.objectPointer, { data, _ in
            guard let data else { return }
            let flag = Unmanaged<AnyObject>.fromOpaque(data).takeRetainedValue() as! Flag
            flag.finalized = true
        }, data)
    }

    public var isFinalized: Bool { flag.finalized }
}

/// Untyped views of the pointers C constructors return, for `init(adopting:)`. GTK
/// constructors never return NULL, so a NULL here is a programming error caught at once.
package func untyped(_ pointer: OpaquePointer?) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(pointer)!
}

package func untyped<T>(_ pointer: UnsafeMutablePointer<T>?) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(pointer)!
}
