import Foundation
import Licensing

/// The public key licences are checked against: the vendor's, compiled in.
///
/// Debug builds, and optimized builds for benchmarks compiled with `-Xswiftc -DBILLFOLD_TEST_KEYS`:
/// `BILLFOLD_TEST_LICENSE_PUBLIC_KEY` (the base64 line of a key file written by
/// `billfold-license keygen`) makes the app trust a test key instead, so tests and benchmarks
/// can use licences they signed themselves. The hook is compiled out of plain release builds
/// (`swift build -c release`, as the Flatpak and install scripts build): there, nothing can
/// replace the vendor key.
public enum TrustedKey {
    public static let testKeyEnvironmentVariable = "BILLFOLD_TEST_LICENSE_PUBLIC_KEY"

    /// Whether this build can trust a test key at all.
    public static var acceptsTestKeys: Bool {
        #if DEBUG || BILLFOLD_TEST_KEYS
        return true
        #else
        return false
        #endif
    }

    public static var current: LicensePublicKey {
        #if DEBUG || BILLFOLD_TEST_KEYS
        // One variable read, not `ProcessInfo.environment`: building that whole dictionary cost
        // more than the signature check it leads to.
        if let value = getenv(testKeyEnvironmentVariable),
           let key = testKey(in: [testKeyEnvironmentVariable: String(cString: value)]) { return key }
        #endif
        return VendorKey.publicKey
    }

    #if DEBUG || BILLFOLD_TEST_KEYS
    /// The test key named by the environment, if it holds a valid one.
    public static func testKey(in environment: [String: String]) -> LicensePublicKey? {
        guard let text = environment[testKeyEnvironmentVariable], !text.isEmpty else { return nil }
        return try? LicensePublicKey(base64: LicenseKeyFile.keyLine(in: text))
    }
    #endif
}
