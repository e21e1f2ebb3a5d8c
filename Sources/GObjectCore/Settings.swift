import CGLib

/// A `GSettings` for one schema. Creating it never aborts: a schema that is not installed
/// gives `nil`, so the caller can explain what is missing instead of crashing.
@MainActor
public final class Settings: Object {
    public init?(schemaID: String) {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
        g_settings_schema_unref(schema)
        super.init(adopting: g_settings_new(schemaID))
    }

    private var settings: UnsafeMutablePointer<GSettings> { pointer() }

    public func bool(_ key: String) -> Bool { g_settings_get_boolean(settings, key) != 0 }
    public func set(_ key: String, _ value: Bool) { g_settings_set_boolean(settings, key, value ? 1 : 0) }

    public func int(_ key: String) -> Int { Int(g_settings_get_int(settings, key)) }
    public func set(_ key: String, _ value: Int) { g_settings_set_int(settings, key, gint(clamping: value)) }

    public func string(_ key: String) -> String {
        guard let value = g_settings_get_string(settings, key) else { return "" }
        defer { g_free(value) }
        return String(cString: value)
    }
    public func set(_ key: String, _ value: String) { g_settings_set_string(settings, key, value) }

    public func strings(_ key: String) -> [String] {
        guard let values = g_settings_get_strv(settings, key) else { return [] }
        defer { g_strfreev(values) }
        var result: [String] = []
        var index = 0
        while let value = values[index] {
            result.append(String(cString: value))
            index += 1
        }
        return result
    }

    public func set(_ key: String, _ values: [String]) {
        var cStrings: [UnsafePointer<gchar>?] = values.map { UnsafePointer(strdup($0)) }
        cStrings.append(nil)
        defer { cStrings.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        _ = cStrings.withUnsafeBufferPointer { g_settings_set_strv(settings, key, $0.baseAddress) }
    }

    /// Restores a key's default value.
    public func reset(_ key: String) { g_settings_reset(settings, key) }

    /// Calls `handler` when `key` changes, from this process or another.
    @discardableResult
    public func onChange(_ key: String, _ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connectWithPointer("changed::\(key)") { _ in handler() }
    }
}
