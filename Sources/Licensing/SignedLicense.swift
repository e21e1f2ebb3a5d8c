import BillfoldCore
import Foundation

/// The signed binary form of a licence:
///
///     version (1 byte) | signer key id (8) | payload length (2, big-endian) | Ed25519 signature (64) | payload
///
/// The signature covers everything but itself. The version comes first so that a future
/// format is recognised as such instead of being called tampered; the key id tells "signed by
/// another key" apart from "altered"; the length tells "cut short" apart from "altered".
enum LicenseEnvelope {
    static let currentVersion: UInt8 = 1
    static let signatureByteCount = 64
    static let headerByteCount = 1 + LicensePublicKey.keyIDByteCount + 2
    static let payloadOffset = headerByteCount + signatureByteCount
    static let maximumPayloadByteCount = Int(UInt16.max)

    static func seal(_ payload: [UInt8], with key: LicenseSigningKey, version: UInt8 = currentVersion) -> [UInt8] {
        let length = UInt16(clamping: payload.count)
        let header = [version] + key.publicKey.keyID + [UInt8(length >> 8), UInt8(length & 0xFF)]
        let signature = key.signature(of: header + payload)
        return header + signature + payload
    }

    /// Checks version, signer, length and signature, and returns the payload bytes.
    static func open(_ bytes: [UInt8], with key: LicensePublicKey) throws(LicenseError) -> ArraySlice<UInt8> {
        guard let version = bytes.first else { throw .truncated }
        guard version == currentVersion else { throw .unsupportedVersion(Int(version)) }
        guard bytes.count > payloadOffset else { throw .truncated }
        guard bytes[1...LicensePublicKey.keyIDByteCount].elementsEqual(key.keyID) else { throw .unknownSigner }
        let declaredLength = Int(bytes[headerByteCount - 2]) << 8 | Int(bytes[headerByteCount - 1])
        let payloadLength = bytes.count - payloadOffset
        guard payloadLength >= declaredLength else { throw .truncated }
        // Bytes added after the payload, or a length changed to hide a cut, are alterations.
        guard payloadLength == declaredLength else { throw .signatureMismatch }
        try Sodium.ready()
        let signature = bytes[headerByteCount..<payloadOffset]
        let signedMessage = Array(bytes[0..<headerByteCount]) + bytes[payloadOffset...]
        guard key.isValidSignature(signature, of: signedMessage) else { throw .signatureMismatch }
        return bytes[payloadOffset...]
    }
}

/// The armoured text form, which can be pasted into an email or a form:
///
///     -----BEGIN BILLFOLD LICENSE-----
///     base64 of the envelope, 64 characters a line
///     -----END BILLFOLD LICENSE-----
///
/// Reading it forgives what mail and chat programs do to text: other text around the block,
/// indentation, CRLF or lost line breaks, non-breaking spaces, case and dash changes in the
/// marker lines. Whatever is forgiven, the signature still has to verify.
public enum LicenseArmor {
    public static let beginLine = "-----BEGIN BILLFOLD LICENSE-----"
    public static let endLine = "-----END BILLFOLD LICENSE-----"
    /// A licence is under 1 KB; anything beyond this is refused before it is looked at.
    public static let maximumTextBytes = 16 * 1024
    static let lineLength = 64

    public static func armor(_ envelope: [UInt8]) -> String {
        let base64 = Data(envelope).base64EncodedString()
        var lines = [beginLine]
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: lineLength, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[start..<end]))
            start = end
        }
        lines.append(endLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Finds the block in `text` and decodes it to the envelope's bytes.
    public static func dearmor(_ text: String) throws(LicenseError) -> [UInt8] {
        // utf8.count is O(1) for native strings: a 10 MB paste is refused without a scan.
        let byteCount = text.utf8.count
        guard byteCount <= maximumTextBytes else {
            throw .tooLarge(byteCount: byteCount, limit: maximumTextBytes)
        }
        guard text.contains(where: { !$0.isWhitespace }) else { throw .empty }
        let beginMarker = "BEGIN BILLFOLD LICENSE", endMarker = "END BILLFOLD LICENSE"
        guard let begin = text.range(of: beginMarker, options: .caseInsensitive) else {
            // The end without the beginning: the top of the block was not copied.
            if text.range(of: endMarker, options: .caseInsensitive) != nil { throw .truncated }
            throw .notALicense
        }
        guard let end = text.range(of: endMarker, options: .caseInsensitive,
                                   range: begin.upperBound..<text.endIndex) else {
            throw .truncated
        }
        // A block pasted twice has a second BEGIN before the first END: read from the last one.
        let start = text.range(of: beginMarker, options: [.caseInsensitive, .backwards],
                               range: begin.lowerBound..<end.lowerBound) ?? begin
        let block = text[start.upperBound..<end.lowerBound]
        var body: [UInt8]
        if let ascii = try asciiBody(block.utf8) {
            body = ascii
        } else {
            body = try scalarBody(block.unicodeScalars)
        }
        guard !body.isEmpty else { throw .truncated }
        // Padding is often lost with the last line's end; put it back.
        let padding = UInt8(ascii: "=")
        let unpadded = body.count - body.reversed().prefix(while: { $0 == padding }).count
        guard !body[..<unpadded].contains(padding) else { throw .badEncoding }
        let remainder = unpadded % 4
        guard remainder != 1 else { throw .truncated }
        body.removeSubrange(unpadded...)
        body.append(contentsOf: repeatElement(padding, count: (4 - remainder) % 4))
        guard let data = Data(base64Encoded: Data(body)) else { throw .badEncoding }
        return [UInt8](data)
    }

    private static func base64Byte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    /// ASCII whitespace and the hyphen of the marker lines.
    private static func ignorableByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C,
             UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// The base64 characters of an all-ASCII block, or `nil` if the block has other
    /// characters and needs `scalarBody`. Kept apart because nearly every paste is ASCII.
    private static func asciiBody(_ block: Substring.UTF8View) throws(LicenseError) -> [UInt8]? {
        var body: [UInt8] = []
        body.reserveCapacity(block.count)
        for byte in block {
            if base64Byte(byte) {
                body.append(byte)
            } else if byte >= 0x80 {
                return nil
            } else if !ignorableByte(byte) {
                throw .badEncoding
            }
        }
        return body
    }

    private static func scalarBody(_ block: Substring.UnicodeScalarView) throws(LicenseError) -> [UInt8] {
        var body: [UInt8] = []
        for scalar in block {
            if scalar.isASCII, base64Byte(UInt8(scalar.value)) {
                body.append(UInt8(scalar.value))
            } else if !(scalar.isASCII && ignorableByte(UInt8(scalar.value))) && !scalar.properties.isWhitespace
                        && !isDash(scalar) && !isInvisible(scalar) {
                throw .badEncoding
            }
        }
        return body
    }

    /// Marker dashes, which word processors like to turn into en or em dashes.
    private static func isDash(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .dashPunctuation
    }

    /// Zero-width characters and byte order marks that copy-paste can leave behind.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format
    }
}

/// A licence together with the exact signed bytes it came from.
public struct SignedLicense: Sendable, Hashable {
    public let license: License
    /// The envelope as signed; installing writes these bytes back out, re-armoured.
    public let envelope: [UInt8]

    /// The armoured text form, also the content of a `.billfold-license` file.
    public var armoredText: String { LicenseArmor.armor(envelope) }

    /// Signs `license` with the vendor's secret key.
    public init(signing license: License, with key: LicenseSigningKey) {
        self.license = license
        self.envelope = LicenseEnvelope.seal(license.canonicalPayload, with: key)
    }

    init(license: License, envelope: [UInt8]) {
        self.license = license
        self.envelope = envelope
    }
}

/// Checks licences against one public key. The app uses `VendorKey.publicKey`; tests and the
/// vendor tool pass their own.
public struct LicenseVerifier: Sendable {
    /// The file extension of the file form.
    public static let fileExtension = "billfold-license"

    public let publicKey: LicensePublicKey

    public init(publicKey: LicensePublicKey) {
        self.publicKey = publicKey
    }

    /// Verifies the envelope's signature and reads the licence. Says nothing about dates:
    /// see `License.standing(at:)`.
    public func verify(envelope: [UInt8]) throws(LicenseError) -> SignedLicense {
        let payload = try LicenseEnvelope.open(envelope, with: publicKey)
        return SignedLicense(license: try License(payload: payload), envelope: envelope)
    }

    /// Verifies pasted text.
    public func verify(text: String) throws(LicenseError) -> SignedLicense {
        try verify(envelope: LicenseArmor.dearmor(text))
    }

    /// Verifies a `.billfold-license` file (or any text file holding the block).
    public func verify(fileAt url: URL) throws(LicenseError) -> SignedLicense {
        try verify(text: Self.readLicenseText(at: url))
    }

    /// Verifies the licence and checks it is in force at `date` (possibly in its grace period).
    public func validate(text: String, at date: Date) throws(LicenseError) -> (SignedLicense, LicenseStanding) {
        let signed = try verify(text: text)
        return (signed, try signed.license.standing(at: date))
    }

    /// Reads at most `LicenseArmor.maximumTextBytes` (plus one, to notice more) so a huge or
    /// endless file is refused without being loaded.
    static func readLicenseText(at url: URL) throws(LicenseError) -> String {
        let data: Data
        do {
            // Only a regular file, opened without blocking: a FIFO here must not freeze start-up.
            data = try RegularFile.read(url.path, limit: LicenseArmor.maximumTextBytes)
        } catch .tooLarge(let byteCount) {
            throw .tooLarge(byteCount: Int(clamping: byteCount), limit: LicenseArmor.maximumTextBytes)
        } catch {
            throw .unreadableFile(path: url.path, reason: error.reason)
        }
        return try text(fromFileData: data)
    }

    /// A licence file's text: UTF-8, or UTF-16 with a byte order mark as editors on other
    /// systems may save it. Anything else is not a licence.
    static func text(fromFileData data: Data) throws(LicenseError) -> String {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            guard let text = String(data: data, encoding: .utf16) else { throw .notALicense }
            return text
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .notALicense }
        return text
    }
}
