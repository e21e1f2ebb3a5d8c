import Foundation
import Graphics

/// Pictures and PDFs made by code at test time, so the tests need no tools or files.
enum Fixtures {
    /// A JPEG whose stored pixels have a red top-left quadrant on a blue field, tagged with
    /// EXIF `orientation` (6: the camera was turned; viewers rotate it 90° clockwise).
    static func jpeg(width: Int = 64, height: Int = 32, orientation: Int? = nil) throws -> Data {
        let surface = try ImageSurface(pixelWidth: width, pixelHeight: height, hasAlpha: false)
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)), color: Color(hex: 0x1C4FD8))
        context.fill(Rect(x: 0, y: 0, width: Double(width / 2), height: Double(height / 2)), color: Color(hex: 0xE01B24))
        let data = try RasterImage(surface: surface).encoded(as: .jpeg(quality: 95))
        guard let orientation else { return data }
        return insertingOrientation(orientation, into: data)
    }

    /// A PNG with transparency: an opaque green square in a clear frame.
    static func png(width: Int = 40, height: Int = 40) throws -> Data {
        let surface = try ImageSurface(pixelWidth: width, pixelHeight: height, hasAlpha: true)
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 5, y: 5, width: Double(width - 10), height: Double(height - 10)), color: Color(hex: 0x26A269))
        return try RasterImage(surface: surface).encoded(as: .png)
    }

    /// The CRC-32 PNG chunks carry.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// An EXIF APP1 segment holding only the orientation tag, right after the JPEG's SOI marker.
    static func insertingOrientation(_ orientation: Int, into jpeg: Data) -> Data {
        var exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]           // "Exif\0\0"
        exif += [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]     // big-endian TIFF header, IFD0 at 8
        exif += [0x00, 0x01]                                          // one entry
        exif += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]     // Orientation, SHORT, count 1
        exif += [0x00, UInt8(orientation), 0x00, 0x00]               // value
        exif += [0x00, 0x00, 0x00, 0x00]                              // no next IFD
        let length = exif.count + 2
        var segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        segment += exif
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: segment, at: 2)
        return Data(bytes)
    }
}
