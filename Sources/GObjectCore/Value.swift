import CGLib

/// A Swift view of the `GValue`s signals and drops hand over.
public enum Value: Equatable, Sendable {
    case string(String?)
    case bool(Bool)
    case int(Int)
    case double(Double)
    case unsupported(typeName: String)

    /// Reads a borrowed `GValue`.
    package init(reading value: UnsafePointer<GValue>) {
        let type = value.pointee.g_type
        switch type {
        case bf_type_string():
            self = .string(g_value_get_string(value).map { String(cString: $0) })
        case bf_type_boolean():
            self = .bool(g_value_get_boolean(value) != 0)
        case bf_type_int():
            self = .int(Int(g_value_get_int(value)))
        case bf_type_int64():
            self = .int(Int(g_value_get_int64(value)))
        case bf_type_double():
            self = .double(g_value_get_double(value))
        default:
            self = .unsupported(typeName: String(cString: g_type_name(type)))
        }
    }

    /// Calls `body` with a temporary `GValue` holding this value.
    package func withGValue<Result>(_ body: (UnsafeMutablePointer<GValue>) -> Result) -> Result {
        var gvalue = GValue()
        switch self {
        case .string(let string):
            g_value_init(&gvalue, bf_type_string())
            g_value_set_string(&gvalue, string)
        case .bool(let bool):
            g_value_init(&gvalue, bf_type_boolean())
            g_value_set_boolean(&gvalue, bool ? 1 : 0)
        case .int(let int):
            g_value_init(&gvalue, bf_type_int64())
            g_value_set_int64(&gvalue, gint64(int))
        case .double(let double):
            g_value_init(&gvalue, bf_type_double())
            g_value_set_double(&gvalue, double)
        case .unsupported:
            break
        }
        defer { g_value_unset(&gvalue) }
        return body(&gvalue)
    }
}
