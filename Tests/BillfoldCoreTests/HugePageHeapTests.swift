import BillfoldCore
import Foundation
import Glibc
import Testing

@Suite struct HugePageHeapTests {
    /// After `prepare`, some 30 MB of this thread's heap are advised for huge pages (`hg` in
    /// their flags), and the next big block is made from that memory, not mapped on its own.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled")))
    func theHeapsReserveIsOnHugePages() throws {
        HugePageHeap.prepare()
        let advised = try Self.regions().filter { $0.flags.contains("hg") }
        #expect(advised.contains { $0.range.count >= 24 << 20 }, "\(advised)")
        let size = 8 << 20
        let block = try #require(malloc(size))
        defer { free(block) }
        let address = UInt(bitPattern: block)
        #expect(advised.contains { $0.range.overlaps(address..<(address + UInt(size))) }, "\(advised)")
    }

    private struct Region: CustomStringConvertible {
        let range: Range<UInt>
        let name: String
        var flags: [String] = []
        var description: String { "\(String(range.lowerBound, radix: 16))-\(String(range.upperBound, radix: 16)) \(name) \(flags)" }
    }

    /// The process's mappings from /proc/self/smaps, with their VmFlags. Read to its end by
    /// hand: the file claims to be empty, and Foundation reads only its first page.
    private static func regions() throws -> [Region] {
        let descriptor = open("/proc/self/smaps", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(descriptor, &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
        var regions: [Region] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("VmFlags:"), !regions.isEmpty {
                regions[regions.count - 1].flags = line.dropFirst("VmFlags:".count).split(separator: " ").map(String.init)
                continue
            }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let bounds = fields.first?.split(separator: "-") ?? []
            guard bounds.count == 2, let low = UInt(bounds[0], radix: 16), let high = UInt(bounds[1], radix: 16) else { continue }
            regions.append(Region(range: low..<high, name: fields.count > 5 ? String(fields[5]) : ""))
        }
        return regions
    }
}
