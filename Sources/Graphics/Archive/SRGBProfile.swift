import Foundation

/// An ICC v2.1 display profile for sRGB (IEC 61966-2.1), the output intent of Billfold's
/// PDF/A files. Built here rather than read from a file so that the app carries no profile
/// file to find (in the Flatpak or elsewhere) and owes nobody a licence for one: a matrix/TRC
/// profile is the three primaries adapted to D50 and one tone curve.
enum SRGBProfile {
    static let description = "sRGB IEC61966-2.1"

    static let bytes: [UInt8] = build()

    private static func build() -> [UInt8] {
        // D50-adapted (Bradford) primaries and white point, as published for sRGB profiles.
        let red = xyz(0.4360747, 0.2225045, 0.0139322)
        let green = xyz(0.3850649, 0.7168786, 0.0971045)
        let blue = xyz(0.1430804, 0.0606169, 0.7141733)
        let white = xyz(0.9642, 1.0, 0.8249)
        let curve = toneCurve()
        // Tag data, each 4-byte aligned; the three channels share one curve.
        let data: [(signatures: [String], bytes: [UInt8])] = [
            (["desc"], textDescription(description)),
            (["cprt"], text("No copyright, use freely")),
            (["wtpt"], white),
            (["rXYZ"], red),
            (["gXYZ"], green),
            (["bXYZ"], blue),
            (["rTRC", "gTRC", "bTRC"], curve),
        ]
        let tagCount = data.reduce(0) { $0 + $1.signatures.count }
        var table: [UInt8] = []
        var body: [UInt8] = []
        let bodyStart = 128 + 4 + 12 * tagCount
        for element in data {
            let offset = bodyStart + body.count
            for signature in element.signatures {
                table += Array(signature.utf8) + uint32(offset) + uint32(element.bytes.count)
            }
            body += element.bytes
            while body.count % 4 != 0 { body.append(0) }
        }
        let size = bodyStart + body.count
        var header: [UInt8] = uint32(size)
        header += [0, 0, 0, 0]                       // preferred CMM: none
        header += [0x02, 0x10, 0x00, 0x00]           // version 2.1
        header += Array("mntrRGB XYZ ".utf8)         // display device, RGB data, XYZ connection space
        header += [2024, 1, 1, 0, 0, 0].flatMap { uint16($0) }
        header += Array("acsp".utf8)
        header += [UInt8](repeating: 0, count: 4 + 4 + 4 + 4 + 8) // platform, flags, manufacturer, model, attributes
        header += uint32(0)                          // perceptual intent
        header += xyzNumbers(0.9642, 1.0, 0.8249)    // the connection space's illuminant, D50
        header += [UInt8](repeating: 0, count: 4 + 16 + 28) // creator, profile ID (v4 only), reserved
        return header + uint32(tagCount) + table + body
    }

    /// The sRGB transfer function, sampled at 1024 points.
    private static func toneCurve() -> [UInt8] {
        let count = 1024
        var bytes = Array("curv".utf8) + [0, 0, 0, 0] + uint32(count)
        for index in 0..<count {
            let v = Double(index) / Double(count - 1)
            let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            bytes += uint16(Int((linear * 65535).rounded()))
        }
        return bytes
    }

    private static func textDescription(_ value: String) -> [UInt8] {
        let ascii = Array(value.utf8) + [0]
        // ASCII part, then empty Unicode and ScriptCode parts (the ScriptCode string is 67 bytes).
        return Array("desc".utf8) + [0, 0, 0, 0] + uint32(ascii.count) + ascii
            + uint32(0) + uint32(0) + uint16(0) + [0] + [UInt8](repeating: 0, count: 67)
    }

    private static func text(_ value: String) -> [UInt8] {
        Array("text".utf8) + [0, 0, 0, 0] + Array(value.utf8) + [0]
    }

    private static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + xyzNumbers(x, y, z)
    }

    private static func xyzNumbers(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        [x, y, z].flatMap { uint32(Int(($0 * 65536).rounded())) }
    }

    private static func uint32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func uint16(_ value: Int) -> [UInt8] {
        [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
