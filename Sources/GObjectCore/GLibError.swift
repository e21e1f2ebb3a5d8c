import CGLib
import Foundation

/// A `GError` turned into a Swift error, keeping GLib's message for the person reading it.
public struct GLibError: Error, LocalizedError, Equatable, Sendable {
    public let domain: String
    public let code: Int
    public let message: String

    public var errorDescription: String? { message }

    public init(domain: String, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Takes ownership of `error` and frees it.
    public init(consuming error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = Int(error.pointee.code)
        message = String(cString: error.pointee.message)
        g_error_free(error)
    }

    /// Calls a C function with a `GError**` and throws what it reports.
    public static func check<Result>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result) throws -> Result {
        var error: UnsafeMutablePointer<GError>?
        let result = body(&error)
        if let error { throw GLibError(consuming: error) }
        return result
    }
}
