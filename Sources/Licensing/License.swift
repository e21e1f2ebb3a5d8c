import BillfoldCore
import Foundation
import Plans

/// What a licence says: who it is for, which plan, when it runs and what it unlocks.
/// Dates are whole seconds (that is what the signed form holds).
public struct License: Sendable, Hashable {
    public var id: String
    public var licenseeName: String
    public var licenseeEmail: String
    public var plan: LicensePlan
    public var issuedAt: Date
    /// `nil` exactly for lifetime licences. The licence is in force before this instant.
    public var expiresAt: Date?
    /// Feature names as written, sorted and unique. Names this Billfold does not know are
    /// kept (a newer vendor tool may add some) and simply unlock nothing here.
    public var featureNames: [String]

    public static let maximumNameLength = 200
    public static let maximumEmailLength = 254
    public static let maximumIDLength = 64
    public static let maximumFeatureCount = 32
    public static let maximumFeatureNameLength = 64

    /// Builds a licence and checks every field, so an invalid one can never be signed.
    public init(id: String, licenseeName: String, licenseeEmail: String, plan: LicensePlan,
                issuedAt: Date, expiresAt: Date?, featureNames: [String]) throws(LicenseError) {
        self.id = id
        self.licenseeName = licenseeName
        self.licenseeEmail = licenseeEmail
        self.plan = plan
        self.issuedAt = Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down))
        self.expiresAt = expiresAt.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        self.featureNames = Array(Set(featureNames)).sorted()
        try validate()
    }

    public init(id: String, licenseeName: String, licenseeEmail: String, plan: LicensePlan,
                issuedAt: Date, expiresAt: Date?, features: Set<Feature>) throws(LicenseError) {
        try self.init(id: id, licenseeName: licenseeName, licenseeEmail: licenseeEmail, plan: plan,
                      issuedAt: issuedAt, expiresAt: expiresAt, featureNames: features.map(\.rawValue))
    }

    /// The features this Billfold knows among those the licence lists.
    public var features: Set<Feature> { Set(featureNames.compactMap(Feature.init(rawValue:))) }

    public var summary: LicenseSummary {
        LicenseSummary(id: id, licenseeName: licenseeName, licenseeEmail: licenseeEmail, plan: plan,
                       issuedAt: issuedAt, expiresAt: expiresAt)
    }

    private func validate() throws(LicenseError) {
        guard (1...Self.maximumIDLength).contains(id.utf8.count),
              id.utf8.allSatisfy({ Self.isIDByte($0) }) else {
            throw .malformedContents(.id)
        }
        let trimmedName = licenseeName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmedName.isEmpty, trimmedName == licenseeName,
              licenseeName.count <= Self.maximumNameLength,
              !licenseeName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .malformedContents(.licenseeName)
        }
        guard Self.isPlausibleEmail(licenseeEmail) else { throw .malformedContents(.licenseeEmail) }
        guard Self.validSeconds.contains(issuedAt.timeIntervalSince1970) else {
            throw .malformedContents(.issueDate)
        }
        switch (plan, expiresAt) {
        case (.lifetime, nil):
            break
        case (.monthly, let expiry?), (.annual, let expiry?):
            guard Self.validSeconds.contains(expiry.timeIntervalSince1970), expiry > issuedAt else {
                throw .malformedContents(.expiryDate)
            }
        case (.lifetime, .some), (.monthly, nil), (.annual, nil):
            throw .malformedContents(.expiryDate)
        }
        guard featureNames.count <= Self.maximumFeatureCount,
              featureNames.allSatisfy({ name in
                  (1...Self.maximumFeatureNameLength).contains(name.utf8.count)
                      && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
              }) else {
            throw .malformedContents(.features)
        }
    }

    /// From 1970 to the end of year 9999, in whole seconds.
    private static let validSeconds: ClosedRange<TimeInterval> = 0...253_402_300_799

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F: true
        default: false
        }
    }

    private static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return email.utf8.count <= maximumEmailLength
            && parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !email.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }
}

// MARK: - Canonical payload

extension License {
    /// The signed payload: compact JSON with keys in a fixed (sorted) order, no whitespace,
    /// dates as integer Unix seconds, `expires` left out for lifetime licences. Equal licences
    /// always give the same bytes.
    public var canonicalPayload: [UInt8] {
        var fields: [(String, String)] = [
            ("email", Self.jsonString(licenseeEmail)),
        ]
        if let expiresAt {
            fields.append(("expires", String(Int64(expiresAt.timeIntervalSince1970))))
        }
        fields.append(("features", "[" + featureNames.map(Self.jsonString).joined(separator: ",") + "]"))
        fields.append(("id", Self.jsonString(id)))
        fields.append(("issued", String(Int64(issuedAt.timeIntervalSince1970))))
        fields.append(("name", Self.jsonString(licenseeName)))
        fields.append(("plan", Self.jsonString(plan.rawValue)))
        let body = fields.map { Self.jsonString($0.0) + ":" + $0.1 }.joined(separator: ",")
        return Array(("{" + body + "}").utf8)
    }

    /// Reads a payload. Called only on bytes whose signature has been checked.
    init(payload: ArraySlice<UInt8>) throws(LicenseError) {
        let decoded: Payload
        do {
            decoded = try JSONDecoder().decode(Payload.self, from: Data(payload))
        } catch let DecodingError.keyNotFound(key, _) {
            throw .malformedContents(Payload.CodingKeys(stringValue: key.stringValue)?.field ?? .structure)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.first.flatMap { Payload.CodingKeys(stringValue: $0.stringValue) }
            throw .malformedContents(key?.field ?? .structure)
        } catch {
            throw .malformedContents(.structure)
        }
        guard let plan = LicensePlan(rawValue: decoded.plan) else { throw .malformedContents(.plan) }
        guard Set(decoded.features).count == decoded.features.count else {
            throw .malformedContents(.features)
        }
        try self.init(id: decoded.id, licenseeName: decoded.name, licenseeEmail: decoded.email,
                      plan: plan, issuedAt: Date(timeIntervalSince1970: TimeInterval(decoded.issued)),
                      expiresAt: decoded.expires.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                      featureNames: decoded.features)
    }

    private struct Payload: Decodable {
        var email: String
        var expires: Int64?
        var features: [String]
        var id: String
        var issued: Int64
        var name: String
        var plan: String

        enum CodingKeys: String, CodingKey {
            case email, expires, features, id, issued, name, plan

            var field: LicenseField {
                switch self {
                case .email: .licenseeEmail
                case .expires: .expiryDate
                case .features: .features
                case .id: .id
                case .issued: .issueDate
                case .name: .licenseeName
                case .plan: .plan
                }
            }
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest
    /// written as UTF-8.
    static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += String(format: "\\u%04x", scalar.value)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
