import CGLib
import Foundation

/// A message for the desktop's mail app to open as a draft, attachments included.
public struct EmailDraft: Sendable, Equatable {
    public var recipients: [String]
    public var subject: String
    public var body: String
    /// Local file paths.
    public var attachments: [String]

    public init(recipients: [String] = [], subject: String, body: String = "", attachments: [String] = []) {
        self.recipients = recipients
        self.subject = subject
        self.body = body
        self.attachments = attachments
    }
}

/// How a request to the Email portal ended.
public enum EmailPortalResult: Sendable, Equatable {
    /// The mail app has the draft.
    case composed
    /// The person closed the portal's own dialog.
    case cancelled
    /// The portal answered but could not hand the draft to a mail app (none is set up).
    case failed
    /// There is no Email portal to ask (no desktop portal on this system, or no session bus);
    /// another way of opening the mail app may still work.
    case unavailable(GLibError)
}

/// The desktop's Email portal (`org.freedesktop.portal.Email.ComposeEmail`): the mail app opens
/// a draft with the attachments passed as file descriptors, which works from inside a Flatpak
/// sandbox where the mail app cannot read the app's files by path.
@MainActor
public enum EmailPortal {
    private static let busName = "org.freedesktop.portal.Desktop"
    private static let objectPath = "/org/freedesktop/portal/desktop"
    private static var tokenCounter = 0

    /// Asks the portal to compose `draft`; `completion` runs once with how it ended.
    public static func compose(_ draft: EmailDraft, completion: @escaping @MainActor (EmailPortalResult) -> Void) {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            completion(.unavailable(error.map { GLibError(consuming: $0) }
                ?? GLibError(domain: "g-io-error-quark", code: 0, message: "There is no session bus.")))
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }

        let fdList = g_unix_fd_list_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(fdList)) }
        var handles: [OpaquePointer?] = []
        for path in draft.attachments {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                completion(.unavailable(GLibError(domain: "g-file-error-quark", code: Int(errno),
                                                  message: "Cannot read \(path): \(reason)")))
                return
            }
            // The list keeps its own duplicate of the descriptor.
            let index = g_unix_fd_list_append(fdList, fd, &error)
            close(fd)
            if let failure = error {
                completion(.unavailable(GLibError(consuming: failure)))
                return
            }
            handles.append(g_variant_new_handle(index))
        }

        tokenCounter += 1
        let token = "billfold_email_\(getpid())_\(tokenCounter)"
        let options = VariantDictionary()
        options.add("handle_token", g_variant_new_string(token))
        options.add("subject", g_variant_new_string(draft.subject))
        if !draft.body.isEmpty { options.add("body", g_variant_new_string(draft.body)) }
        if let first = draft.recipients.first {
            options.add("address", g_variant_new_string(first))
            options.add("addresses", stringArray(draft.recipients))
        }
        if !handles.isEmpty {
            let handleType = g_variant_type_new("h")
            defer { g_variant_type_free(handleType) }
            options.add("attachment_fds", handles.withUnsafeBufferPointer { g_variant_new_array(handleType, $0.baseAddress, gsize($0.count)) })
        }
        var arguments: [OpaquePointer?] = [g_variant_new_string(""), options.end()]
        let parameters = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }

        // The reply arrives as a Response signal on a request object whose path the token fixes;
        // subscribing before calling means it cannot be missed.
        let request = PortalRequest(completion: completion)
        let unique = g_dbus_connection_get_unique_name(connection).map { String(cString: $0) } ?? ""
        let sender = String(unique.dropFirst()).replacingOccurrences(of: ".", with: "_")
        let requestPath = "\(objectPath)/request/\(sender)/\(token)"
        request.connection = UnsafeMutableRawPointer(g_object_ref(UnsafeMutableRawPointer(connection)))
        request.subscription = g_dbus_connection_signal_subscribe(
            connection, busName, "org.freedesktop.portal.Request", "Response", requestPath, nil,
            G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                let request = Unmanaged<PortalRequest>.fromOpaque(data!).takeUnretainedValue()
                var code: UInt32 = 2
                if let parameters, let first = g_variant_get_child_value(parameters, 0) {
                    code = g_variant_get_uint32(first)
                    g_variant_unref(first)
                }
                MainActor.assumeIsolated {
                    request.finish(code == 0 ? .composed : code == 1 ? .cancelled : .failed)
                }
            }, Unmanaged.passRetained(request).toOpaque(), { data in
                guard let data else { return }
                Unmanaged<PortalRequest>.fromOpaque(data).release()
            })

        let replyType = g_variant_type_new("(o)")
        defer { g_variant_type_free(replyType) }
        g_dbus_connection_call_with_unix_fd_list(
            connection, busName, objectPath, "org.freedesktop.portal.Email", "ComposeEmail", parameters, replyType,
            G_DBUS_CALL_FLAGS_NONE, -1, fdList, nil, { source, result, data in
                let request = Unmanaged<PortalRequest>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_with_unix_fd_list_finish(OpaquePointer(source), nil, result, &error)
                if let reply { g_variant_unref(reply) }
                guard let error else { return }
                let failure = GLibError(consuming: error)
                MainActor.assumeIsolated { request.finish(.unavailable(failure)) }
            }, Unmanaged.passRetained(request).toOpaque())
    }

    private static func stringArray(_ strings: [String]) -> OpaquePointer? {
        var cStrings: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) }
        defer { cStrings.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        return cStrings.withUnsafeMutableBufferPointer { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
    }
}

/// Builds an `a{sv}` of options.
private final class VariantDictionary {
    private var entries: [OpaquePointer?] = []

    func add(_ key: String, _ value: OpaquePointer?) {
        entries.append(g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
    }

    func end() -> OpaquePointer? {
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        return entries.withUnsafeBufferPointer { g_variant_new_array(entryType, $0.baseAddress, gsize($0.count)) }
    }
}

/// One ComposeEmail request: finishes once, from the reply's error or the Response signal.
private final class PortalRequest: @unchecked Sendable {
    let completion: @MainActor (EmailPortalResult) -> Void
    var connection: UnsafeMutableRawPointer?
    var subscription: guint = 0
    private var finished = false

    init(completion: @escaping @MainActor (EmailPortalResult) -> Void) { self.completion = completion }

    @MainActor
    func finish(_ result: EmailPortalResult) {
        guard !finished else { return }
        finished = true
        if let connection {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(OpaquePointer(connection), subscription) }
            g_object_unref(connection)
            self.connection = nil
        }
        completion(result)
    }
}
