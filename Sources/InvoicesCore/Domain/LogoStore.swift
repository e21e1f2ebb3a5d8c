import BillfoldCore
import Foundation

/// Keeps the business logo as a file named by its content (`logos/<sha256>.<ext>` under the
/// data directory), so the profile survives the original being moved or deleted and the same
/// image is stored once.
public struct LogoStore: Sendable {
    public let directory: URL
    /// Larger files are refused: a logo is printed a few centimetres wide.
    public static let maximumBytes = 10 * 1024 * 1024

    public init(directory: URL = AppPaths.dataDirectory.appendingPathComponent("logos", isDirectory: true)) {
        self.directory = directory
    }

    /// Copies the image at `source` into the store and returns its file name for
    /// `BusinessProfile.logoFileName`. PNG and JPEG are accepted (what the PDF can embed),
    /// recognised by content rather than by the file's name.
    public func importLogo(from source: URL) throws(InvoiceError) -> String {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= Self.maximumBytes else {
                throw InvoiceError.logoUnreadable(reason: tr("the file is larger than 10 MB"))
            }
            data = try Data(contentsOf: source)
        } catch let error as InvoiceError {
            throw error
        } catch {
            throw .logoUnreadable(reason: error.localizedDescription)
        }
        guard let fileExtension = Self.imageExtension(data) else { throw .logoNotAnImage }
        let name = SHA256.hexDigest(data) + "." + fileExtension
        let destination = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: destination.path) { return name }
        do {
            try AppPaths.createDirectory(directory)
            // Written beside the destination and renamed, so a crash never leaves half an image.
            let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
            try data.write(to: temporary)
            do {
                try FileManager.default.moveItem(at: temporary, to: destination)
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                // Another import of the same image won the race: same content, same name.
                if !FileManager.default.fileExists(atPath: destination.path) { throw error }
            }
        } catch {
            throw .logoUnreadable(reason: error.localizedDescription)
        }
        return name
    }

    public func url(forFileName name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// The file's URL when it exists.
    public func existingURL(forFileName name: String) -> URL? {
        let url = url(forFileName: name)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    static func imageExtension(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(8))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        return nil
    }
}

/// SHA-256 (FIPS 180-4) for content-addressed file names; Foundation on Linux has no digest API.
enum SHA256 {
    static func hexDigest(_ data: Data) -> String {
        digest(data).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    static func digest(_ data: Data) -> [UInt8] {
        var hash: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var words = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let base = chunk + index * 4
                words[index] = UInt32(message[base]) << 24 | UInt32(message[base + 1]) << 16
                    | UInt32(message[base + 2]) << 8 | UInt32(message[base + 3])
            }
            for index in 16..<64 {
                let s0 = rotate(words[index - 15], 7) ^ rotate(words[index - 15], 18) ^ (words[index - 15] >> 3)
                let s1 = rotate(words[index - 2], 17) ^ rotate(words[index - 2], 19) ^ (words[index - 2] >> 10)
                words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7])
            for index in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = h &+ s1 &+ choice &+ constants[index] &+ words[index]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            hash[0] &+= a; hash[1] &+= b; hash[2] &+= c; hash[3] &+= d
            hash[4] &+= e; hash[5] &+= f; hash[6] &+= g; hash[7] &+= h
        }
        return hash.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }

    private static let constants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}
