import SeededRandom
import BillfoldCore
import Foundation
@testable import Licensing
import Testing

/// Every attack and kind of damage named in the issue, each refused with its own reason.
@Suite("Bad licences and attacks")
struct LicenseAttackTests {
    let key: LicenseSigningKey
    let license: License
    let signed: SignedLicense
    let verifier: LicenseVerifier

    init() throws {
        key = try TestKeys.make()
        license = try makeLicense()
        signed = SignedLicense(signing: license, with: key)
        verifier = LicenseVerifier(publicKey: key.publicKey)
    }

    private func refusal(_ text: String) -> LicenseError? {
        licenseError { () throws(LicenseError) in try verifier.verify(text: text) }
    }

    private func refusal(envelope: [UInt8]) -> LicenseError? {
        refusal(LicenseArmor.armor(envelope))
    }

    @Test("a changed payload byte breaks the signature")
    func tamperedPayload() {
        var envelope = signed.envelope
        let payload = LicenseEnvelope.payloadOffset
        // One letter's case flipped; then a plausible upgrade of the same length.
        envelope[payload + 5] ^= 0x20
        #expect(refusal(envelope: envelope) == .signatureMismatch)

        let upgraded = String(decoding: signed.envelope[payload...], as: UTF8.self)
            .replacingOccurrences(of: "\"expires\":1767225600", with: "\"expires\":4102444800")
        let forged = Array(signed.envelope[..<payload]) + Array(upgraded.utf8)
        #expect(forged != signed.envelope)
        #expect(refusal(envelope: forged) == .signatureMismatch)
    }

    @Test("a payload swapped for a longer one, with its length fixed up, breaks the signature")
    func swappedPayload() throws {
        let other = try makeLicense(plan: .lifetime, name: "Mallory Longer Name Here")
        var envelope = Array(signed.envelope[..<LicenseEnvelope.payloadOffset]) + other.canonicalPayload
        let length = UInt16(other.canonicalPayload.count)
        envelope[LicenseEnvelope.headerByteCount - 2] = UInt8(length >> 8)
        envelope[LicenseEnvelope.headerByteCount - 1] = UInt8(length & 0xFF)
        #expect(refusal(envelope: envelope) == .signatureMismatch)
    }

    @Test("a changed signature byte is refused", arguments: [0, 31, 32, 63])
    func tamperedSignature(offset: Int) {
        var envelope = signed.envelope
        envelope[LicenseEnvelope.headerByteCount + offset] ^= 0x01
        #expect(refusal(envelope: envelope) == .signatureMismatch)
    }

    @Test("a licence signed with another key is refused as not issued for Billfold")
    func otherKey() throws {
        let mallory = try TestKeys.make()
        let forged = SignedLicense(signing: license, with: mallory)
        #expect(refusal(forged.armoredText) == .unknownSigner)
    }

    @Test("another key's signature under the right key id is refused as altered")
    func otherKeyClaimingOurID() throws {
        let mallory = try TestKeys.make()
        var envelope = LicenseEnvelope.seal(license.canonicalPayload, with: mallory)
        envelope.replaceSubrange(1...LicensePublicKey.keyIDByteCount, with: key.publicKey.keyID)
        #expect(refusal(envelope: envelope) == .signatureMismatch)
    }

    @Test("a correctly signed licence of another format version is refused as such", arguments: [0, 2, 255])
    func wrongVersion(version: Int) {
        let envelope = LicenseEnvelope.seal(license.canonicalPayload, with: key, version: UInt8(version))
        #expect(refusal(envelope: envelope) == .unsupportedVersion(version))
    }

    @Test("cut-off text is refused as incomplete")
    func truncated() {
        let text = signed.armoredText
        // The END line lost.
        let withoutEnd = text.components(separatedBy: "-----END").first!
        #expect(refusal(withoutEnd) == .truncated)
        // Cut in the middle of the body.
        let half = String(text.prefix(text.count / 2))
        #expect(refusal(half) == .truncated)
        // The BEGIN line lost.
        let withoutBegin = String(text.drop(while: { $0 != "\n" }))
        #expect(refusal(withoutBegin) == .truncated)
        // Body lines lost but the markers kept: the declared length gives it away.
        var lines = text.split(separator: "\n").map(String.init)
        lines.remove(at: lines.count - 2)
        #expect(refusal(lines.joined(separator: "\n")) == .truncated)
        // Only the header left.
        #expect(refusal(envelope: Array(signed.envelope.prefix(20))) == .truncated)
        #expect(refusal("-----BEGIN BILLFOLD LICENSE-----\n-----END BILLFOLD LICENSE-----") == .truncated)
    }

    @Test("bytes appended after the payload are refused")
    func appended() {
        #expect(refusal(envelope: signed.envelope + Array("  ".utf8)) == .signatureMismatch)
    }

    @Test("whitespace and line-ending damage is forgiven when the signature still verifies")
    func whitespaceDamage() {
        let text = signed.armoredText
        let damaged: [String] = [
            text.replacingOccurrences(of: "\n", with: "\r\n"),
            text.replacingOccurrences(of: "\n", with: "\r"),
            text.mappingBodyLines { "    \t" + $0 + "  " },
            text.mappingBodyLines { $0.replacingOccurrences(of: "A", with: "A\u{00A0}") },
            text.mappingBodyLines { $0 + "\u{200B}" },
            text.replacingOccurrences(of: "\n", with: " "),
            // All base64 on one line, as a chat program might do.
            text.components(separatedBy: "\n").enumerated().map { index, line in
                line.contains("BILLFOLD") ? "\n" + line + "\n" : line
            }.joined(),
            // Padding lost with the last line.
            text.replacingOccurrences(of: "=", with: ""),
            // The same block pasted twice.
            text + "\n" + text,
            // Surrounded by an email, the markers lower-cased and their dashes turned typographic.
            "Hi Ada,\n\nhere is your licence:\n\n" + text
                .replacingOccurrences(of: "-----BEGIN BILLFOLD LICENSE-----", with: "—–begin billfold license—–")
                .replacingOccurrences(of: "-----END BILLFOLD LICENSE-----", with: "–END Billfold License–")
                + "\nThanks!\n",
            "\u{FEFF}" + text,
        ]
        for variant in damaged {
            let result = licenseError { () throws(LicenseError) in
                #expect(try verifier.verify(text: variant) == signed)
            }
            #expect(result == nil, "\(variant.debugDescription)")
        }
    }

    @Test("damage to the content itself is not forgiven")
    func contentDamage() {
        let text = signed.armoredText
        // A character outside base64 inside the block.
        #expect(refusal(text.mappingBodyLines { $0 + "*" }) == .badEncoding)
        // Email quoting adds '>' to each line.
        #expect(refusal(text.mappingBodyLines { "> " + $0 }) == .badEncoding)
        // A letter's case changed: still base64, but different bytes.
        let body = String(text.split(separator: "\n")[2])
        let letter = body.firstIndex(where: \.isLetter)!
        let swapped = body[letter].isUppercase ? body[letter].lowercased() : body[letter].uppercased()
        let flipped = body.replacingCharacters(in: letter...letter, with: swapped)
        #expect(flipped != body)
        #expect(refusal(text.replacingOccurrences(of: body, with: flipped)) == .signatureMismatch)
    }

    @Test("random bytes are not a licence")
    func randomBytes() throws {
        var generator = SeededGenerator(seed: 6)
        for length in [0, 1, 16, 64, 400, 4000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(refusal(text) == (text.allSatisfy(\.isWhitespace) ? .empty : .notALicense))
        }
        // As a file too: not UTF-8 at all.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("random.billfold-license")
        try Data((0..<2000).map { _ in UInt8.random(in: 0x80...0xFF, using: &generator) }).write(to: file)
        #expect(licenseError { () throws(LicenseError) in try verifier.verify(fileAt: file) } == .notALicense)
    }

    @Test("empty and blank input asks for a licence")
    func empty() {
        #expect(refusal("") == .empty)
        #expect(refusal(" \n\t\r\n") == .empty)
        #expect(refusal("my licence key is 1234") == .notALicense)
    }

    @Test("a 10 MB paste is refused by its size")
    func hugePaste() {
        let body = String(repeating: "QUFB", count: 2_500_000)
        let paste = "-----BEGIN BILLFOLD LICENSE-----\n" + body + "\n-----END BILLFOLD LICENSE-----\n"
        #expect(paste.utf8.count > 10_000_000)
        #expect(refusal(paste) == .tooLarge(byteCount: paste.utf8.count, limit: LicenseArmor.maximumTextBytes))
        // Just past the limit is refused too; a real licence is far below it.
        let justOver = String(repeating: " ", count: LicenseArmor.maximumTextBytes + 1)
        #expect(refusal(justOver) == .tooLarge(byteCount: justOver.utf8.count, limit: LicenseArmor.maximumTextBytes))
        #expect(signed.armoredText.utf8.count < LicenseArmor.maximumTextBytes / 10)
    }

    @Test("a 10 MB file is refused without reading it all")
    func hugeFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("huge.billfold-license")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 10_000_000)
        try handle.close()
        #expect(licenseError { () throws(LicenseError) in try verifier.verify(fileAt: file) }
                == .tooLarge(byteCount: 10_000_000, limit: LicenseArmor.maximumTextBytes))
    }

    @Test("a missing file or a folder gives a file error")
    func unreadableFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("missing.billfold-license")
        guard case .unreadableFile(let path, let reason)? = licenseError({ () throws(LicenseError) in
            try verifier.verify(fileAt: missing)
        }) else {
            Issue.record("a missing file must be reported as unreadable")
            return
        }
        #expect(path == missing.path)
        #expect(reason == "the file does not exist")
        guard case .unreadableFile? = licenseError({ () throws(LicenseError) in
            try verifier.verify(fileAt: directory.url)
        }) else {
            Issue.record("a folder must be reported as unreadable")
            return
        }
    }
}
