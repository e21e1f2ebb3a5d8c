import BillfoldCore
import Foundation
@testable import Licensing
import Plans
import Testing

@Suite("Licence format")
struct LicenseFormatTests {
    @Test("the canonical payload is compact sorted JSON with integer dates")
    func canonicalPayload() throws {
        let license = try makeLicense()
        let text = String(decoding: license.canonicalPayload, as: UTF8.self)
        #expect(text == #"{"email":"ada@example.com","expires":1767225600,"features":["export-invoice-pdf","unlimited-invoices"],"id":"lic-0001","issued":1735689600,"name":"Ada Lovelace","plan":"annual"}"#)
    }

    @Test("a lifetime payload has no expiry")
    func lifetimePayload() throws {
        let license = try makeLicense(plan: .lifetime)
        let text = String(decoding: license.canonicalPayload, as: UTF8.self)
        #expect(!text.contains("expires"))
        #expect(try License(payload: license.canonicalPayload[...]) == license)
    }

    @Test("payloads read back equal, and equal licences serialise identically")
    func payloadRoundTrip() throws {
        let tricky = try makeLicense(name: "Zoë \"Zed\" O’Brien \\ 東京", email: "zoe+bills@example.co.jp",
                                     features: [.exportInvoicePDF])
        let decoded = try License(payload: tricky.canonicalPayload[...])
        #expect(decoded == tricky)
        #expect(decoded.canonicalPayload == tricky.canonicalPayload)
        #expect(decoded.features == [.exportInvoicePDF])
    }

    @Test("dates are kept in whole seconds")
    func wholeSeconds() throws {
        let license = try makeLicense(issued: Instants.issued.addingTimeInterval(0.75))
        #expect(license.issuedAt == Instants.issued)
    }

    @Test("feature names this build does not know are kept but unlock nothing")
    func unknownFeatures() throws {
        let license = try License(id: "x", licenseeName: "A", licenseeEmail: "a@b", plan: .lifetime,
                                  issuedAt: Instants.issued, expiresAt: nil,
                                  featureNames: ["team-sync", "export-invoice-pdf", "team-sync"])
        #expect(license.featureNames == ["export-invoice-pdf", "team-sync"])
        #expect(license.features == [.exportInvoicePDF])
    }

    struct Fields: Sendable, CustomTestStringConvertible {
        var id = "x"
        var name = "A"
        var email = "a@b"
        var plan = LicensePlan.lifetime
        var issued = Instants.issued
        var expires: Date? = nil
        var features: [String] = []
        var bad: LicenseField

        var testDescription: String { "bad \(bad.rawValue)" }
    }

    @Test("invalid fields cannot be signed", arguments: [
        Fields(id: "", bad: .id),
        Fields(id: "has space", bad: .id),
        Fields(id: String(repeating: "i", count: 65), bad: .id),
        Fields(name: "  ", bad: .licenseeName),
        Fields(name: " Ada", bad: .licenseeName),
        Fields(name: "A\u{7}B", bad: .licenseeName),
        Fields(name: String(repeating: "n", count: 201), bad: .licenseeName),
        Fields(email: "no-at-sign", bad: .licenseeEmail),
        Fields(email: "a b@c", bad: .licenseeEmail),
        Fields(email: "a@b@c", bad: .licenseeEmail),
        Fields(expires: Instants.expires, bad: .expiryDate),
        Fields(plan: .monthly, bad: .expiryDate),
        Fields(plan: .annual, expires: Instants.issued, bad: .expiryDate),
        Fields(issued: Date(timeIntervalSince1970: -1), bad: .issueDate),
        Fields(features: ["Bad Name"], bad: .features),
        Fields(features: (0..<33).map { "f\($0)" }, bad: .features),
    ])
    func invalidFields(fields: Fields) {
        #expect(licenseError { () throws(LicenseError) in
            try License(id: fields.id, licenseeName: fields.name, licenseeEmail: fields.email, plan: fields.plan,
                        issuedAt: fields.issued, expiresAt: fields.expires, featureNames: fields.features)
        } == .malformedContents(fields.bad))
    }

    @Test("signed payloads with bad contents name the bad field")
    func malformedSignedPayload() throws {
        let key = try TestKeys.make()
        let verifier = LicenseVerifier(publicKey: key.publicKey)
        let cases: [(String, LicenseField)] = [
            (#"{"email":"a@b","features":[],"id":"x","issued":0,"name":"A"}"#, .plan),
            (#"{"email":"a@b","features":[],"id":"x","issued":0,"name":"A","plan":"weekly"}"#, .plan),
            (#"{"email":"a@b","features":[],"id":"x","issued":"today","name":"A","plan":"lifetime"}"#, .issueDate),
            (#"{"email":"a@b","features":["a","a"],"id":"x","issued":0,"name":"A","plan":"lifetime"}"#, .features),
            (#"{"email":"a@b","features":[],"id":"x","issued":0,"name":"A","plan":"annual"}"#, .expiryDate),
            (#"[1,2,3]"#, .structure),
            (#"{"#, .structure),
        ]
        for (json, field) in cases {
            let envelope = LicenseEnvelope.seal(Array(json.utf8), with: key)
            #expect(licenseError { () throws(LicenseError) in try verifier.verify(envelope: envelope) }
                    == .malformedContents(field), "\(json)")
        }
    }

    @Test("the armoured form is a BEGIN/END block of 64-character base64 lines")
    func armoredShape() throws {
        let key = try TestKeys.make()
        let signed = SignedLicense(signing: try makeLicense(), with: key)
        let lines = signed.armoredText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "-----BEGIN BILLFOLD LICENSE-----")
        #expect(lines.dropLast().last == "-----END BILLFOLD LICENSE-----")
        #expect(lines.last == "")
        let body = lines.dropFirst().dropLast(2)
        #expect(body.dropLast().allSatisfy { $0.count == 64 })
        #expect((1...64).contains(body.last?.count ?? 0))
        #expect(try LicenseArmor.dearmor(signed.armoredText) == signed.envelope)
    }

    @Test("text and file forms verify to the licence that was signed")
    func verifyRoundTrip() throws {
        let key = try TestKeys.make()
        let license = try makeLicense()
        let signed = SignedLicense(signing: license, with: key)
        let verifier = LicenseVerifier(publicKey: key.publicKey)
        #expect(try verifier.verify(text: signed.armoredText) == signed)

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("ada.billfold-license")
        try Data(signed.armoredText.utf8).write(to: file)
        #expect(try verifier.verify(fileAt: file).license == license)

        // Windows editors may save UTF-16 with a byte order mark.
        let utf16 = directory.url.appendingPathComponent("utf16.billfold-license")
        try signed.armoredText.replacingOccurrences(of: "\n", with: "\r\n").data(using: .utf16)!.write(to: utf16)
        #expect(try verifier.verify(fileAt: utf16).license == license)
    }

    @Test("keys read back from their base64 and key files")
    func keyRoundTrip() throws {
        let key = try TestKeys.make()
        let secretText = LicenseKeyFile.secretKeyText(key)
        let publicText = LicenseKeyFile.publicKeyText(key.publicKey)
        #expect(secretText.hasPrefix("#"))
        let reread = try LicenseSigningKey(base64: LicenseKeyFile.keyLine(in: secretText))
        #expect(reread.publicKey == key.publicKey)
        #expect(try LicensePublicKey(base64: LicenseKeyFile.keyLine(in: publicText)) == key.publicKey)
        #expect(key.publicKey.keyID.count == 8)
        #expect(key.publicKey.keyIDHex.count == 16)
    }

    @Test("damaged keys are refused")
    func damagedKeys() throws {
        let key = try TestKeys.make()
        var damaged = key.bytes
        damaged[40] ^= 0x01 // the public half no longer matches the seed
        #expect(throws: LicenseKeyError.inconsistentSecretKey) { try LicenseSigningKey(bytes: damaged) }
        #expect(throws: LicenseKeyError.wrongLength(expected: 64, actual: 63)) {
            try LicenseSigningKey(bytes: Array(key.bytes.dropLast()))
        }
        #expect(throws: LicenseKeyError.wrongLength(expected: 32, actual: 31)) {
            try LicensePublicKey(bytes: Array(key.publicKey.bytes.dropLast()))
        }
        #expect(throws: LicenseKeyError.notBase64) { try LicensePublicKey(base64: "not base64!") }
    }

    @Test("the compiled-in vendor key is a well-formed Ed25519 public key")
    func vendorKey() throws {
        #expect(VendorKey.publicKey.bytes.count == 32)
        #expect(try LicensePublicKey(bytes: VendorKey.publicKey.bytes) == VendorKey.publicKey)
        // A licence signed by a test key is never accepted by the shipped key.
        let signed = SignedLicense(signing: try makeLicense(), with: try TestKeys.make())
        #expect(licenseError { () throws(LicenseError) in
            try LicenseVerifier(publicKey: VendorKey.publicKey).verify(text: signed.armoredText)
        } == .unknownSigner)
    }

    @Test("every error has an actionable description")
    func errorDescriptions() {
        let errors: [LicenseError] = [
            .tooLarge(byteCount: 10_000_000, limit: LicenseArmor.maximumTextBytes), .empty, .notALicense,
            .truncated, .badEncoding, .unsupportedVersion(2), .unsupportedVersion(0), .unknownSigner,
            .signatureMismatch, .malformedContents(.licenseeEmail),
            .expired(expiredAt: Instants.expires, graceEndedAt: Instants.graceEnd),
            .notYetValid(startsAt: Instants.issued), .unreadableFile(path: "a", reason: "b"),
            .cannotSave(reason: "disk full"), .cannotRemove(reason: "read-only"), .cryptoUnavailable,
        ]
        let descriptions = errors.map { $0.errorDescription ?? "" }
        #expect(descriptions.allSatisfy { $0.count > 20 && !$0.contains("%@") })
        #expect(Set(descriptions).count == descriptions.count)
        #expect(LicenseError.unsupportedVersion(2).errorDescription?.contains("newer") == true)
    }
}
