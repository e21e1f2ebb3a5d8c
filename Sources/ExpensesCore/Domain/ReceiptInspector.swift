import Foundation

/// What the first bytes of a file say it is, with its pixel size when the header gives one.
public struct ReceiptInspection: Hashable, Sendable {
    public let kind: ReceiptKind
    /// As stored, before the EXIF turn.
    public let pixelWidth: Int?
    public let pixelHeight: Int?
    /// EXIF orientation, 1 (upright) to 8; 5 to 8 are turned a quarter, so width and height swap.
    public let orientation: Int
    /// A JPEG's colour components: 1 grey, 3 colour, 4 CMYK; nil for other kinds.
    public let colorComponents: Int?

    init(kind: ReceiptKind, pixelWidth: Int?, pixelHeight: Int?, orientation: Int = 1, colorComponents: Int? = nil) {
        self.kind = kind
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        self.colorComponents = colorComponents
    }

    /// The size as the picture is meant to be seen.
    public var uprightWidth: Int? { orientation >= 5 ? pixelHeight : pixelWidth }
    public var uprightHeight: Int? { orientation >= 5 ? pixelWidth : pixelHeight }
}

/// Tells a receipt's kind from its magic bytes and checks that the header that follows is
/// well formed, without decoding any pixels: a 50-megapixel photo costs a few kilobytes here.
public enum ReceiptInspector {
    /// How much of a file is read to find its header. JPEG metadata segments before the frame
    /// header are at most 64 KiB each; a megabyte holds the usual EXIF, XMP and ICC blocks.
    public static let headerLimit = 1 << 20

    public enum Failure: Error, Equatable, Sendable {
        case unknownType
        case damaged(ReceiptKind)
    }

    /// Inspects the start of a file. `isWholeFile` says `bytes` is the entire file, so a header
    /// that runs past the end is damage rather than a prefix that stopped early.
    public static func inspect(_ bytes: Data, isWholeFile: Bool) throws(Failure) -> ReceiptInspection {
        let b = [UInt8](bytes)
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return try jpeg(b, isWholeFile: isWholeFile) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try png(b) }
        if b.count >= 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) {
            return try webp(b, isWholeFile: isWholeFile)
        }
        if let pdf = try pdf(b) { return pdf }
        if isXML(b) { return ReceiptInspection(kind: .xml, pixelWidth: nil, pixelHeight: nil) }
        throw .unknownType
    }

    // MARK: JPEG

    private static func jpeg(_ b: [UInt8], isWholeFile: Bool) throws(Failure) -> ReceiptInspection {
        let damaged = Failure.damaged(.jpeg)
        var index = 2
        var orientation = 1
        while true {
            guard index < b.count else { break }
            guard b[index] == 0xFF else { throw damaged }
            // Any number of 0xFF fill bytes may precede a marker.
            while index < b.count, b[index] == 0xFF { index += 1 }
            guard index < b.count else { break }
            let marker = b[index]
            index += 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD9, 0xDA:
                // Stuffing, standalone or scan markers before any frame header: not a picture.
                throw damaged
            default:
                break
            }
            guard index + 1 < b.count else { break }
            let length = Int(b[index]) << 8 | Int(b[index + 1])
            guard length >= 2 else { throw damaged }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrameHeader {
                guard length >= 8, index + 7 < b.count else {
                    if index + 7 >= b.count, !isWholeFile { break }
                    throw damaged
                }
                let precision = b[index + 2]
                let height = Int(b[index + 3]) << 8 | Int(b[index + 4])
                let width = Int(b[index + 5]) << 8 | Int(b[index + 6])
                let components = Int(b[index + 7])
                guard [8, 12, 16].contains(precision), width > 0, height > 0,
                      [1, 3, 4].contains(components), length == 8 + 3 * components else { throw damaged }
                return ReceiptInspection(kind: .jpeg, pixelWidth: width, pixelHeight: height, orientation: orientation,
                                         colorComponents: components)
            }
            if marker == 0xE1, index + length <= b.count {
                orientation = exifOrientation(b[(index + 2)..<(index + length)]) ?? orientation
            }
            index += length
        }
        // The frame header lies beyond what was read: the markers so far were sound.
        guard !isWholeFile else { throw damaged }
        return ReceiptInspection(kind: .jpeg, pixelWidth: nil, pixelHeight: nil, orientation: orientation)
    }

    /// The Orientation tag (0x0112) of IFD0 in an APP1 "Exif" segment; nil when absent or malformed.
    static func exifOrientation(_ segment: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(segment)
        guard bytes.count >= 14, bytes[0..<6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        let tiff = Array(bytes[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 1 < tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            // SHORT (type 3), one value, kept in the first two bytes of the value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }

    // MARK: PNG

    private static func png(_ b: [UInt8]) throws(Failure) -> ReceiptInspection {
        let damaged = Failure.damaged(.png)
        // Signature (8), length (4), "IHDR" (4), 13 bytes of data, CRC (4).
        guard b.count >= 33, bigEndian32(b, 8) == 13, b[12..<16].elementsEqual("IHDR".utf8) else { throw damaged }
        guard crc32(b[12..<29]) == bigEndian32(b, 29) else { throw damaged }
        let width = Int(bigEndian32(b, 16))
        let height = Int(bigEndian32(b, 20))
        let depth = b[24]
        let colour = b[25]
        let allowedDepths: [UInt8]
        switch colour {
        case 0: allowedDepths = [1, 2, 4, 8, 16]
        case 3: allowedDepths = [1, 2, 4, 8]
        case 2, 4, 6: allowedDepths = [8, 16]
        default: throw damaged
        }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              allowedDepths.contains(depth), b[26] == 0, b[27] == 0, b[28] <= 1 else { throw damaged }
        return ReceiptInspection(kind: .png, pixelWidth: width, pixelHeight: height)
    }

    // MARK: WebP

    private static func webp(_ b: [UInt8], isWholeFile: Bool) throws(Failure) -> ReceiptInspection {
        let damaged = Failure.damaged(.webp)
        let riffSize = Int(littleEndian32(b, 4))
        guard riffSize >= 4 + 8 else { throw damaged }
        // A file cut short (an interrupted download) has less than the RIFF header promises.
        if isWholeFile, b.count < riffSize + 8 { throw damaged }
        guard b.count >= 30 else { throw damaged }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A, b[20] & 0x01 == 0 else { throw damaged }
            let width = (Int(b[26]) | Int(b[27]) << 8) & 0x3FFF
            let height = (Int(b[28]) | Int(b[29]) << 8) & 0x3FFF
            guard width > 0, height > 0 else { throw damaged }
            return ReceiptInspection(kind: .webp, pixelWidth: width, pixelHeight: height)
        case "VP8L":
            guard b[20] == 0x2F else { throw damaged }
            let bits = littleEndian32(b, 21)
            let width = Int(bits & 0x3FFF) + 1
            let height = Int((bits >> 14) & 0x3FFF) + 1
            guard bits >> 29 == 0 else { throw damaged }   // version must be 0
            return ReceiptInspection(kind: .webp, pixelWidth: width, pixelHeight: height)
        case "VP8X":
            let width = (Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16) + 1
            let height = (Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16) + 1
            return ReceiptInspection(kind: .webp, pixelWidth: width, pixelHeight: height)
        default:
            throw damaged
        }
    }

    // MARK: PDF

    /// "%PDF-1.x" or "%PDF-2.x", which readers accept anywhere in the first kilobyte.
    private static func pdf(_ b: [UInt8]) throws(Failure) -> ReceiptInspection? {
        let magic = Array("%PDF-".utf8)
        let window = b.prefix(1024 + magic.count + 3)
        guard window.count >= magic.count + 3 else { return nil }
        for start in 0...(window.count - magic.count - 3) where window[start] == 0x25 {
            guard window[start..<start + magic.count].elementsEqual(magic) else { continue }
            let major = window[start + magic.count]
            let dot = window[start + magic.count + 1]
            let minor = window[start + magic.count + 2]
            guard major == UInt8(ascii: "1") || major == UInt8(ascii: "2"), dot == UInt8(ascii: "."),
                  (48...57).contains(minor) else { throw .damaged(.pdf) }
            return ReceiptInspection(kind: .pdf, pixelWidth: nil, pixelHeight: nil)
        }
        return nil
    }

    // MARK: XML

    /// An XML declaration or a first element, after an optional UTF-8 byte order mark and
    /// white space. Whether it is an e-invoice is for `EInvoiceReader` to say.
    private static func isXML(_ b: [UInt8]) -> Bool {
        var rest = b[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        rest = rest.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard rest.count >= 2, rest.first == UInt8(ascii: "<") else { return false }
        let next = rest[rest.startIndex + 1]
        return next == UInt8(ascii: "?") || next == UInt8(ascii: "!") || (65...90).contains(next) || (97...122).contains(next)
    }

    // MARK: Helpers

    private static func bigEndian32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    private static func littleEndian32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
