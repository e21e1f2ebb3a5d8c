import Foundation

/// Why typed text could not be read as an amount or number. Each case says what to change.
public enum AmountParseError: Error, LocalizedError, Equatable, Sendable {
    /// Nothing but spaces was typed.
    case empty
    /// A character that has no place in a number (a letter, an emoji, a control character).
    case invalidCharacter(Character)
    /// A "." or "," where this locale uses the other one as its decimal separator.
    case unexpectedSeparator(found: String, decimalSeparator: String)
    /// There is a sign, symbol or separator but not a single digit.
    case noDigits
    /// More than one sign, or a sign inside the number ("--5", "5-3").
    case misplacedSign
    /// The decimal separator appears more than once.
    case multipleDecimalSeparators(decimalSeparator: String)
    /// A thousands separator that does not sit between whole groups of digits ("12.5" in de_DE).
    case misplacedGroupingSeparator(groupingSeparator: String, decimalSeparator: String)
    /// More digits after the decimal separator than the currency or field allows (zeros excepted).
    case tooManyDecimals(allowed: Int)
    /// The number is beyond what can be stored exactly.
    case tooLarge

    public var errorDescription: String? {
        switch self {
        case .empty:
            return tr("Enter an amount.")
        case .invalidCharacter(let character):
            return String(format: tr("“%@” cannot be part of an amount."), String(character))
        case .unexpectedSeparator(let found, let decimal):
            return String(format: tr("“%@” is not used in numbers here; the decimal separator is “%@”."),
                          found, decimal)
        case .noDigits:
            return tr("The amount has no digits.")
        case .misplacedSign:
            return tr("Use a single minus sign, before or after the amount.")
        case .multipleDecimalSeparators(let decimal):
            return String(format: tr("Use the decimal separator “%@” only once."), decimal)
        case .misplacedGroupingSeparator(let grouping, let decimal):
            if grouping.allSatisfy(\.isWhitespace) {
                return String(format: tr("Put spaces only between thousands; the decimal separator is “%@”."),
                              decimal)
            }
            return String(format: tr("Put “%@” only between thousands; the decimal separator is “%@”."),
                          grouping, decimal)
        case .tooManyDecimals(let allowed):
            if allowed == 0 {
                return tr("Enter a whole amount, without decimals.")
            }
            return String(format: trn("Use at most %d decimal place.", "Use at most %d decimal places.", allowed),
                          allowed)
        case .tooLarge:
            return tr("The amount is too large.")
        }
    }
}

/// What a person typed, reduced to a sign and ASCII digit strings.
struct ParsedNumber: Equatable {
    var negative: Bool
    /// Digits before the separator, leading zeros removed ("" for zero).
    var integerDigits: String
    /// Digits after the separator, trailing zeros removed.
    var fractionDigits: String
}

/// Reads numbers the way people type them in a locale: with or without grouping, with or
/// without a currency symbol or code on either side, the sign before or after, native
/// digits, and invisible bidi marks pasted along. Anything it cannot read exactly is an error.
struct AmountParser {
    let style: NumberStyle

    private static let minusSigns: Set<Character> = ["-", "−", "－", "‐", "‑", "﹣"]
    private static let plusSigns: Set<Character> = ["+", "＋", "﹢"]
    private static let apostrophes: Set<Character> = ["'", "’", "ʼ", "′"]

    func parse(_ text: String) throws(AmountParseError) -> ParsedNumber {
        var characters = Array(text.withoutFormatCharacters)
        trimWhitespace(&characters)
        guard !characters.isEmpty else { throw .empty }

        let negative = try stripAffixes(&characters)
        return try readBody(characters, negative: negative)
    }

    // MARK: - Signs and symbols around the number

    private func stripAffixes(_ characters: inout [Character]) throws(AmountParseError) -> Bool {
        var negative = false
        var sawSign = false
        var sawSymbol = false
        var sawParentheses = false
        var changed = true
        while changed, !characters.isEmpty {
            changed = false
            trimWhitespace(&characters)
            guard let first = characters.first, let last = characters.last else { break }

            if !sawParentheses, characters.count >= 2, first == "(", last == ")" {
                if sawSign { throw .misplacedSign }
                characters.removeFirst()
                characters.removeLast()
                negative = true
                sawSign = true
                sawParentheses = true
                changed = true
                continue
            }
            if Self.minusSigns.contains(first) || Self.plusSigns.contains(first) {
                if sawSign { throw .misplacedSign }
                negative = Self.minusSigns.contains(first)
                sawSign = true
                characters.removeFirst()
                changed = true
                continue
            }
            if characters.count >= 1, Self.minusSigns.contains(last) || Self.plusSigns.contains(last) {
                if sawSign { throw .misplacedSign }
                negative = Self.minusSigns.contains(last)
                sawSign = true
                characters.removeLast()
                changed = true
                continue
            }
            if !sawSymbol, let length = matchingToken(characters, atStart: true) {
                characters.removeFirst(length)
                sawSymbol = true
                changed = true
                continue
            }
            if !sawSymbol, let length = matchingToken(characters, atStart: false) {
                characters.removeLast(length)
                sawSymbol = true
                changed = true
                continue
            }
        }
        return negative
    }

    private func matchingToken(_ characters: [Character], atStart: Bool) -> Int? {
        for token in style.affixTokens {
            let tokenCharacters = Array(token)
            guard tokenCharacters.count <= characters.count else { continue }
            let candidate = atStart
                ? characters.prefix(tokenCharacters.count)
                : characters.suffix(tokenCharacters.count)
            if String(candidate).caseInsensitiveCompare(token) == .orderedSame {
                return tokenCharacters.count
            }
        }
        return nil
    }

    // MARK: - Digits and separators

    private func readBody(_ characters: [Character], negative: Bool) throws(AmountParseError) -> ParsedNumber {
        let decimal = style.decimalSeparator
        let decimalText = String(decimal)
        let groupingText = String(style.groupingSeparator)
        var groups: [[Character]] = [[]]
        var fraction: [Character] = []
        var sawDecimal = false
        var groupingUsed: Character?
        var digitCount = 0

        for character in characters {
            if let value = character.localeDigitValue {
                let ascii = Character(String(value))
                if sawDecimal { fraction.append(ascii) } else { groups[groups.count - 1].append(ascii) }
                digitCount += 1
            } else if character == decimal {
                if sawDecimal { throw .multipleDecimalSeparators(decimalSeparator: decimalText) }
                sawDecimal = true
            } else if let kind = groupingKind(character) {
                if sawDecimal {
                    throw .misplacedGroupingSeparator(groupingSeparator: groupingText, decimalSeparator: decimalText)
                }
                if let used = groupingUsed, used != kind {
                    throw .misplacedGroupingSeparator(groupingSeparator: groupingText, decimalSeparator: decimalText)
                }
                groupingUsed = kind
                groups.append([])
            } else if Self.minusSigns.contains(character) || Self.plusSigns.contains(character)
                        || character == "(" || character == ")" {
                throw .misplacedSign
            } else if character == "." || character == "," {
                throw .unexpectedSeparator(found: String(character), decimalSeparator: decimalText)
            } else {
                throw .invalidCharacter(character)
            }
        }
        guard digitCount > 0 else { throw .noDigits }
        if groups.count > 1 {
            try validateGroups(groups.map(\.count), groupingText: groupingText, decimalText: decimalText)
        }

        let integer = groups.joined().drop { $0 == "0" }
        while fraction.last == "0" { fraction.removeLast() }
        return ParsedNumber(negative: negative, integerDigits: String(integer), fractionDigits: String(fraction))
    }

    /// Separators a person may use for thousands: the locale's own, any space when the
    /// locale groups with a (narrow, no-break) space, any apostrophe when it uses one.
    /// Returns a canonical character so mixing kinds can be caught.
    private func groupingKind(_ character: Character) -> Character? {
        let own = style.groupingSeparator
        if character == own || (own.isWhitespace && character.isWhitespace) { return own }
        if character.isWhitespace { return " " }
        if Self.apostrophes.contains(own), Self.apostrophes.contains(character) { return own }
        return nil
    }

    private func validateGroups(_ sizes: [Int], groupingText: String, decimalText: String) throws(AmountParseError) {
        let primary = style.groupingSize > 0 ? style.groupingSize : 3
        let secondary = style.secondaryGroupingSize > 0 ? style.secondaryGroupingSize : primary
        func fits(primary: Int, secondary: Int) -> Bool {
            guard let first = sizes.first, let last = sizes.last else { return false }
            guard first >= 1, first <= secondary, last == primary else { return false }
            return sizes.dropFirst().dropLast().allSatisfy { $0 == secondary }
        }
        guard fits(primary: primary, secondary: secondary) || fits(primary: 3, secondary: 3) else {
            throw .misplacedGroupingSeparator(groupingSeparator: groupingText, decimalSeparator: decimalText)
        }
    }

    private func trimWhitespace(_ characters: inout [Character]) {
        // One slice instead of repeated removeFirst, which would be quadratic on long input.
        let start = characters.firstIndex { !$0.isWhitespace } ?? characters.endIndex
        let end = characters.lastIndex { !$0.isWhitespace }.map { $0 + 1 } ?? start
        if start != characters.startIndex || end != characters.endIndex {
            characters = Array(characters[start..<end])
        }
    }
}

extension ParsedNumber {
    /// The value in minor units of a currency with `exponent` decimals.
    func minorUnits(exponent: Int) throws(AmountParseError) -> Int64 {
        guard fractionDigits.count <= exponent else { throw .tooManyDecimals(allowed: exponent) }
        let padded = integerDigits + fractionDigits + String(repeating: "0", count: exponent - fractionDigits.count)
        var value: Int64 = 0
        for character in padded {
            guard let digit = character.asciiDigitValue else { throw .tooLarge }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate as a negative number so Int64.min itself can be read.
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(digit))
            if overflow1 || overflow2 { throw .tooLarge }
            value = next
        }
        if negative { return value }
        guard value != .min else { throw .tooLarge }
        return -value
    }

    /// The value as a Decimal, refusing more digits than Decimal keeps exactly (38).
    func decimal(maximumFractionDigits: Int?) throws(AmountParseError) -> Decimal {
        if let maximumFractionDigits, fractionDigits.count > maximumFractionDigits {
            throw .tooManyDecimals(allowed: maximumFractionDigits)
        }
        let significant = 38
        guard integerDigits.count <= significant else { throw .tooLarge }
        let significantDigits = (integerDigits + fractionDigits).drop { $0 == "0" }.count
        guard significantDigits <= significant else {
            throw .tooManyDecimals(allowed: max(0, significant - integerDigits.count))
        }
        let text = (negative ? "-" : "") + (integerDigits.isEmpty ? "0" : integerDigits)
            + (fractionDigits.isEmpty ? "" : "." + fractionDigits)
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw .tooLarge
        }
        return value
    }
}
