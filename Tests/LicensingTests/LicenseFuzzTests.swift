import SeededRandom
import BillfoldCore
import Foundation
@testable import Licensing
import Testing

/// 100 000 random and mutated inputs through the parser and verifier. Whatever comes in,
/// the result is a typed refusal or the very licence that was signed; never a crash, never
/// a different licence.
@Suite("Licence parser fuzzing")
struct LicenseFuzzTests {
    static let iterations = 100_000

    @Test("random and mutated inputs are refused or yield the signed licence")
    func fuzz() throws {
        let key = try TestKeys.make()
        let verifier = LicenseVerifier(publicKey: key.publicKey)
        let signed = SignedLicense(signing: try makeLicense(), with: key)
        let original = signed.armoredText
        var generator = SeededGenerator(seed: 0xB111_F01D)
        var outcomes: [String: Int] = [:]
        var forged = 0

        for iteration in 0..<Self.iterations {
            do throws(LicenseError) {
                let input: String
                switch iteration % 4 {
                case 0: input = try Self.randomFileText(using: &generator)
                case 1: input = Self.randomBlock(using: &generator)
                case 2: input = Self.mutate(text: original, using: &generator)
                default: input = LicenseArmor.armor(Self.mutate(bytes: signed.envelope, using: &generator))
                }
                let result = try verifier.verify(text: input)
                if result == signed {
                    outcomes["accepted", default: 0] += 1
                } else {
                    forged += 1
                }
            } catch {
                outcomes[Self.kind(of: error), default: 0] += 1
            }
        }

        #expect(forged == 0, "an altered input was accepted as a different licence")
        // The fuzzer must reach every stage of the parser, not stop at the first check.
        for kind in ["empty", "notALicense", "truncated", "badEncoding", "unsupportedVersion",
                     "unknownSigner", "signatureMismatch", "accepted"] {
            #expect(outcomes[kind, default: 0] > 0, "no input reached '\(kind)': \(outcomes)")
        }
        #expect(outcomes.values.reduce(0, +) + forged == Self.iterations)
    }

    private static func kind(of error: LicenseError) -> String {
        switch error {
        case .tooLarge: "tooLarge"
        case .empty: "empty"
        case .notALicense: "notALicense"
        case .truncated: "truncated"
        case .badEncoding: "badEncoding"
        case .unsupportedVersion: "unsupportedVersion"
        case .unknownSigner: "unknownSigner"
        case .signatureMismatch: "signatureMismatch"
        case .malformedContents: "malformedContents"
        case .expired, .notYetValid, .unreadableFile, .cannotSave, .cannotRemove, .cryptoUnavailable:
            "unexpected"
        }
    }

    /// Arbitrary file contents, read as a licence file is: mostly not text at all, sometimes
    /// ASCII, sometimes with a UTF-16 byte order mark.
    private static func randomFileText(using generator: inout SeededGenerator) throws(LicenseError) -> String {
        var bytes = generator.bytes(count: Int.random(in: 0...300, using: &generator))
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes = bytes.map { $0 & 0x7F }
        case 1: bytes = [0xFF, 0xFE] + bytes
        default: break
        }
        return try LicenseVerifier.text(fromFileData: Data(bytes))
    }

    /// A well-formed block around random base64 (sometimes with a plausible header).
    private static func randomBlock(using generator: inout SeededGenerator) -> String {
        var bytes = generator.bytes(count: Int.random(in: 0...200, using: &generator))
        if Bool.random(using: &generator), !bytes.isEmpty { bytes[0] = LicenseEnvelope.currentVersion }
        return LicenseArmor.armor(bytes)
    }

    /// Base64, whitespace, dashes and a few characters that do not belong, as UTF-8.
    private static let alphabet: [[UInt8]] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=- \n\r\t\u{00A0}—*>é\u{0}\u{FEFF}"
        .map { Array(String($0).utf8) }

    /// One to four edits of the armoured text's UTF-8: replace, insert, delete, cut,
    /// duplicate. An edit may split a multi-byte character; decoding repairs it, as a
    /// careless copy would.
    private static func mutate(text: String, using generator: inout SeededGenerator) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = Int.random(in: 0...bytes.count, using: &generator)
            let character = alphabet.randomElement(using: &generator)!
            switch Int.random(in: 0..<5, using: &generator) {
            case 0 where position < bytes.count:
                bytes.replaceSubrange(position...position, with: character)
            case 1:
                bytes.insert(contentsOf: character, at: position)
            case 2 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &generator))
                bytes.removeSubrange(position..<end)
            case 3:
                bytes.removeSubrange(position...)
            default:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &generator))
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One to three edits of the signed bytes: flip a bit, set a byte, cut, or append.
    private static func mutate(bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            guard !bytes.isEmpty else { break }
            let position = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &generator)
            case 1: bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 2: bytes = Array(bytes.prefix(position))
            default: bytes.append(contentsOf: generator.bytes(count: Int.random(in: 1...8, using: &generator)))
            }
        }
        return bytes
    }
}
