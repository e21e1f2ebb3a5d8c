import CQREncode
import Foundation

/// A QR code (ISO/IEC 18004) as a square of dark and light modules, encoded by libqrencode.
/// Drawing it is up to the caller: `darkRuns` gives each row's dark modules as runs, ready to
/// be filled as rectangles.
public struct QRCode: Sendable, Hashable {
    public enum ErrorCorrection: Sendable {
        /// Recovers about 7 %, 15 %, 25 % or 30 % of the symbol.
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Modules per side (21 for version 1, 4 more per version).
    public let size: Int
    /// The symbol version, 1 to 40.
    public let version: Int
    /// Row-major, `true` for dark.
    public let modules: [Bool]

    /// Encodes `bytes` in byte mode (8-bit), with the smallest version that holds them (at most
    /// `maximumVersion`). Throws when the data does not fit.
    public init(bytes: [UInt8], errorCorrection: ErrorCorrection, maximumVersion: Int = 40) throws(QRCodeError) {
        guard let code = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, errorCorrection.level) })
        else { throw .tooLong }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard Int(code.pointee.version) <= maximumVersion else { throw .tooLong }
        size = width
        version = Int(code.pointee.version)
        modules = (0..<width * width).map { bf_qr_module_is_dark(code, Int32($0)) != 0 }
    }

    public func isDark(row: Int, column: Int) -> Bool {
        modules[row * size + column]
    }

    /// Each row's runs of dark modules as (row, first column, length).
    public var darkRuns: [(row: Int, column: Int, length: Int)] {
        var runs: [(row: Int, column: Int, length: Int)] = []
        for row in 0..<size {
            var column = 0
            while column < size {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                let start = column
                while column < size, isDark(row: row, column: column) { column += 1 }
                runs.append((row, start, column - start))
            }
        }
        return runs
    }
}

public enum QRCodeError: Error, LocalizedError, Sendable, Equatable {
    /// More data than the largest allowed symbol holds.
    case tooLong

    public var errorDescription: String? {
        "The text is too long for a QR code."
    }
}
