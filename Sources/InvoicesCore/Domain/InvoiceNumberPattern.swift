import BillfoldCore
import Foundation

public enum InvoiceNumberPatternError: Error, LocalizedError, Equatable, Sendable {
    case noCounter
    case severalCounters
    case unknownPlaceholder(String)
    case unclosedBrace
    case counterTooWide
    case tooLong
    case invalidCharacter

    public var errorDescription: String? {
        switch self {
        case .noCounter:
            return tr("The number pattern needs a counter such as {NNNN}.")
        case .severalCounters:
            return tr("The number pattern can have only one counter such as {NNNN}.")
        case .unknownPlaceholder(let name):
            return String(format: tr("The number pattern has an unknown placeholder {%@}. Use {YYYY}, {YY}, {MM} or a counter such as {NNNN}."), name)
        case .unclosedBrace:
            return tr("A “{” in the number pattern has no matching “}”.")
        case .counterTooWide:
            return tr("A counter can have at most 9 digits, like {NNNNNNNNN}.")
        case .tooLong:
            return tr("Shorten the number pattern to at most 40 characters.")
        case .invalidCharacter:
            return tr("The number pattern cannot contain line breaks or tabs.")
        }
    }
}

/// How invoice numbers are made: literal text with placeholders `{YYYY}` (year), `{YY}`,
/// `{MM}` (month) and one counter `{N…}` whose width is the number of N's (zero-padded; a
/// counter that outgrows it just gets longer). `INV-{YYYY}-{NNNN}` gives `INV-2024-0001`.
///
/// The counter restarts for each distinct text around it: with a year in the pattern, each
/// year starts at 1; without one, numbering runs on forever.
public struct InvoiceNumberPattern: Sendable, Hashable {
    public static let defaultPattern = "INV-{YYYY}-{NNNN}"
    public static let maximumLength = 40

    enum Part: Sendable, Hashable {
        case literal(String)
        case year
        case shortYear
        case month
        case counter(width: Int)
    }

    public let pattern: String
    let parts: [Part]

    /// `INV-{YYYY}-{NNNN}`.
    public static let standard = InvoiceNumberPattern(
        pattern: defaultPattern, parts: [.literal("INV-"), .year, .literal("-"), .counter(width: 4)])

    private init(pattern: String, parts: [Part]) {
        self.pattern = pattern
        self.parts = parts
    }

    public init(_ pattern: String) throws(InvoiceNumberPatternError) {
        guard pattern.count <= Self.maximumLength else { throw .tooLong }
        guard !pattern.contains(where: { $0.isNewline || $0 == "\t" }) else { throw .invalidCharacter }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(pattern)
        while let character = rest.first {
            rest.removeFirst()
            guard character == "{" else {
                literal.append(character)
                continue
            }
            guard let close = rest.firstIndex(of: "}") else { throw .unclosedBrace }
            let name = String(rest[..<close])
            rest = rest[rest.index(after: close)...]
            if !literal.isEmpty {
                parts.append(.literal(literal))
                literal = ""
            }
            switch name.uppercased() {
            case "YYYY": parts.append(.year)
            case "YY": parts.append(.shortYear)
            case "MM": parts.append(.month)
            case let upper where !upper.isEmpty && upper.allSatisfy({ $0 == "N" }):
                guard upper.count <= 9 else { throw .counterTooWide }
                parts.append(.counter(width: upper.count))
            default:
                throw .unknownPlaceholder(name)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        let counters = parts.filter { if case .counter = $0 { return true } else { return false } }.count
        guard counters > 0 else { throw .noCounter }
        guard counters == 1 else { throw .severalCounters }
        self.pattern = pattern
        self.parts = parts
    }

    /// The number for `counter` on `day`: `INV-2024-0042`.
    public func number(counter: Int, on day: CalendarDay) -> String {
        render(day) { width in
            let digits = String(counter)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
    }

    /// What the counter runs within: the pattern with the date filled in and the counter left
    /// as a mark. Two days with the same scope share one sequence.
    public func scope(on day: CalendarDay) -> String {
        render(day) { width in "{" + String(repeating: "N", count: width) + "}" }
    }

    private func render(_ day: CalendarDay, counter: (Int) -> String) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .year: text += String(format: "%04d", day.year)
            case .shortYear: text += String(format: "%02d", day.year % 100)
            case .month: text += String(format: "%02d", day.month)
            case .counter(let width): text += counter(width)
            }
        }
        return text
    }
}
