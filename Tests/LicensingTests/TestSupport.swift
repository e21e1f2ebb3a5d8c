import Plans
import SeededRandom
import BillfoldCore
import Foundation
@testable import Licensing
import Testing

/// Fixed instants, so no test depends on today's date.
enum Instants {
    /// 2025-01-01T00:00:00Z
    static let issued = Date(timeIntervalSince1970: 1_735_689_600)
    /// 2026-01-01T00:00:00Z
    static let expires = Date(timeIntervalSince1970: 1_767_225_600)
    static let day: TimeInterval = 86_400
    static let midTerm = issued.addingTimeInterval(100 * day)
    static let graceEnd = expires.addingTimeInterval(14 * day)
}

/// Each test makes its own keys; the vendor's secret key is never in the repository.
enum TestKeys {
    static func make() throws -> LicenseSigningKey { try LicenseSigningKey.generate() }
}

func makeLicense(plan: LicensePlan = .annual,
                 name: String = "Ada Lovelace",
                 email: String = "ada@example.com",
                 issued: Date = Instants.issued,
                 expires: Date? = Instants.expires,
                 features: Set<Feature> = Set(Feature.allCases)) throws -> License {
    try License(id: "lic-0001", licenseeName: name, licenseeEmail: email, plan: plan,
                issuedAt: issued, expiresAt: plan == .lifetime ? nil : expires, features: features)
}

/// The error a throwing expression threw, or `nil` if it returned.
func licenseError<T>(_ body: () throws(LicenseError) -> T) -> LicenseError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// A clock the store reads; tests move it.
@MainActor
final class TestClock {
    var now: Date

    init(_ now: Date) { self.now = now }
}

/// A fresh directory under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("billfold-licensing-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension String {
    /// The armoured text with `transform` applied to each body line (markers untouched).
    func mappingBodyLines(_ transform: (String) -> String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("BILLFOLD LICENSE") || line.isEmpty ? String(line) : transform(String(line))
        }.joined(separator: "\n")
    }
}
