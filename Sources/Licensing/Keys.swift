import CSodium
import Foundation

/// libsodium must be initialised once before use. A global `let` is initialised exactly once,
/// atomically, on first use from any thread, and `sodium_init` itself is safe to repeat.
private let sodiumIsReady: Bool = sodium_init() >= 0

enum Sodium {
    static func ready() throws(LicenseError) {
        guard sodiumIsReady else { throw .cryptoUnavailable }
    }
}

/// Why a key could not be read or made. Keys are the vendor's business (the `billfold-license`
/// tool and tests), so these messages speak to the vendor.
public enum LicenseKeyError: Error, Sendable, Hashable, LocalizedError {
    case wrongLength(expected: Int, actual: Int)
    case notBase64
    case inconsistentSecretKey
    case cryptoUnavailable

    public var errorDescription: String? {
        switch self {
        case .wrongLength(let expected, let actual):
            "The key has \(actual) bytes but an Ed25519 key of this kind has \(expected). Use the file written by `billfold-license keygen`."
        case .notBase64:
            "The key is not valid base64. Use the file written by `billfold-license keygen`."
        case .inconsistentSecretKey:
            "The secret key is damaged: its public half does not match its seed."
        case .cryptoUnavailable:
            "libsodium failed to initialise."
        }
    }
}

/// An Ed25519 public key that licences are verified against.
public struct LicensePublicKey: Sendable, Hashable {
    public static let byteCount = Int(bf_sign_publickeybytes())
    /// Bytes of `keyID` written into every licence, so a licence signed by another key is
    /// reported as such rather than as tampered.
    public static let keyIDByteCount = 8

    public let bytes: [UInt8]
    /// The first bytes of the key's BLAKE2b-256 hash: a short, stable name for the key.
    public let keyID: [UInt8]

    public init(bytes: [UInt8]) throws(LicenseKeyError) {
        guard bytes.count == Self.byteCount else {
            throw .wrongLength(expected: Self.byteCount, actual: bytes.count)
        }
        guard (try? Sodium.ready()) != nil else { throw .cryptoUnavailable }
        self.init(checkedBytes: bytes)
    }

    /// For `count == byteCount`. If libsodium failed to start, verification reports it.
    init(checkedBytes bytes: [UInt8]) {
        _ = try? Sodium.ready()
        var hash = [UInt8](repeating: 0, count: 32)
        _ = crypto_generichash(&hash, hash.count, bytes, UInt64(bytes.count), nil, 0)
        self.bytes = bytes
        self.keyID = Array(hash.prefix(Self.keyIDByteCount))
    }

    public init(base64: String) throws(LicenseKeyError) {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .notBase64
        }
        try self.init(bytes: [UInt8](data))
    }

    public var base64: String { Data(bytes).base64EncodedString() }

    public var keyIDHex: String { keyID.map { String(format: "%02x", $0) }.joined() }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    func isValidSignature(_ signature: ArraySlice<UInt8>, of message: [UInt8]) -> Bool {
        guard signature.count == Int(bf_sign_bytes()) else { return false }
        return signature.withUnsafeBufferPointer { sig in
            crypto_sign_verify_detached(sig.baseAddress!, message, UInt64(message.count), bytes) == 0
        }
    }
}

/// An Ed25519 secret key in libsodium's layout (seed followed by the public key). Only the
/// vendor tool and tests hold one; the app never does.
public struct LicenseSigningKey: Sendable {
    public static let byteCount = Int(bf_sign_secretkeybytes())

    public let bytes: [UInt8]
    public let publicKey: LicensePublicKey

    /// Makes a fresh key pair from libsodium's random source.
    public static func generate() throws(LicenseKeyError) -> LicenseSigningKey {
        guard (try? Sodium.ready()) != nil else { throw .cryptoUnavailable }
        var publicBytes = [UInt8](repeating: 0, count: LicensePublicKey.byteCount)
        var secretBytes = [UInt8](repeating: 0, count: byteCount)
        guard crypto_sign_keypair(&publicBytes, &secretBytes) == 0 else { throw .cryptoUnavailable }
        return try LicenseSigningKey(bytes: secretBytes)
    }

    /// Checks that the key's public half really derives from its seed, so a damaged key file
    /// cannot sign licences that nobody can verify.
    public init(bytes: [UInt8]) throws(LicenseKeyError) {
        guard bytes.count == Self.byteCount else {
            throw .wrongLength(expected: Self.byteCount, actual: bytes.count)
        }
        guard (try? Sodium.ready()) != nil else { throw .cryptoUnavailable }
        var seed = [UInt8](repeating: 0, count: 32)
        var derivedPublic = [UInt8](repeating: 0, count: LicensePublicKey.byteCount)
        var derivedSecret = [UInt8](repeating: 0, count: Self.byteCount)
        defer {
            sodium_memzero(&seed, seed.count)
            sodium_memzero(&derivedSecret, derivedSecret.count)
        }
        guard crypto_sign_ed25519_sk_to_seed(&seed, bytes) == 0,
              crypto_sign_seed_keypair(&derivedPublic, &derivedSecret, seed) == 0,
              derivedSecret == bytes else {
            throw .inconsistentSecretKey
        }
        self.bytes = bytes
        self.publicKey = try LicensePublicKey(bytes: derivedPublic)
    }

    public init(base64: String) throws(LicenseKeyError) {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .notBase64
        }
        try self.init(bytes: [UInt8](data))
    }

    public var base64: String { Data(bytes).base64EncodedString() }

    func signature(of message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Int(bf_sign_bytes()))
        var length: UInt64 = 0
        _ = crypto_sign_detached(&signature, &length, message, UInt64(message.count), bytes)
        return signature
    }
}

/// Key files as written by `billfold-license keygen`: comment lines starting with `#`, then
/// one line of base64.
public enum LicenseKeyFile {
    public static let publicKeyFileName = "billfold-license.pub"
    public static let secretKeyFileName = "billfold-license.key"

    public static func publicKeyText(_ key: LicensePublicKey) -> String {
        "# Billfold licence public key \(key.keyIDHex)\n\(key.base64)\n"
    }

    public static func secretKeyText(_ key: LicenseSigningKey) -> String {
        "# Billfold licence SECRET key \(key.publicKey.keyIDHex): keep it private, never commit it\n\(key.base64)\n"
    }

    /// The base64 line of a key file.
    public static func keyLine(in text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .joined()
    }
}
