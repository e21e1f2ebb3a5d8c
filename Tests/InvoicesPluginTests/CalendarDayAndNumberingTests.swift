import BillfoldCore
import Foundation
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct CalendarDayTests {
    @Test func readsAndWritesTheStoredForm() {
        #expect(CalendarDay(isoString: "2024-02-29")?.isoString == "2024-02-29")
        #expect(CalendarDay(isoString: "2023-02-29") == nil)
        #expect(CalendarDay(isoString: "2024-2-29") == nil)
        #expect(CalendarDay(isoString: "2024-02-29T00:00") == nil)
        #expect(CalendarDay(isoString: "0000-01-01") == nil)
        #expect(CalendarDay(year: 2024, month: 13, day: 1) == nil)
    }

    @Test func arithmeticCrossesMonthsYearsAndLeapDays() {
        #expect(day("2024-02-28").adding(days: 1) == day("2024-02-29"))
        #expect(day("2023-02-28").adding(days: 1) == day("2023-03-01"))
        #expect(day("2024-12-31").adding(days: 1) == day("2025-01-01"))
        #expect(day("2024-03-01").adding(days: -1) == day("2024-02-29"))
        #expect(day("2024-01-01").days(to: day("2025-01-01")) == 366)
        #expect(day("9999-12-30").adding(days: 10) == day("9999-12-31"))
        #expect(day("2024-01-01").adding(days: .min) == day("0001-01-01"))
    }

    @Test func theDayOfAnInstantDependsOnTheZoneButAStoredDayNeverMoves() throws {
        // 23:30 UTC on 1 March is already 2 March in Tokyo and still 1 March in New York.
        let instant = Date(timeIntervalSince1970: 1_709_335_800)
        #expect(CalendarDay(instant, in: TimeZone(identifier: "UTC")!) == day("2024-03-01"))
        #expect(CalendarDay(instant, in: TimeZone(identifier: "Asia/Tokyo")!) == day("2024-03-02"))
        #expect(CalendarDay(instant, in: TimeZone(identifier: "America/New_York")!) == day("2024-03-01"))
        // Formatting never shifts a day, whatever the machine's zone.
        #expect(day("2024-03-01").formatted(.medium, locale: Locale(identifier: "de_DE")) == "01.03.2024")
        #expect(day("2024-03-01").formatted(.medium, locale: Locale(identifier: "en_US")) == "Mar 1, 2024")
        #expect(try CalendarDay.parse("01.03.2024", locale: Locale(identifier: "de_DE")) == day("2024-03-01"))
        #expect(try CalendarDay.parse("2024-03-01", locale: Locale(identifier: "en_US")) == day("2024-03-01"))
        #expect(throws: DateParseError.self) { try CalendarDay.parse("soon", locale: Locale(identifier: "en_US")) }
    }

    @Test func ordersAndEncodesAsText() throws {
        #expect(day("2024-01-31") < day("2024-02-01"))
        #expect(day("2023-12-31") < day("2024-01-01"))
        let data = try JSONEncoder().encode([day("2024-03-01")])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2024-03-01\"]")
        #expect(try JSONDecoder().decode([CalendarDay].self, from: data) == [day("2024-03-01")])
    }
}

@Suite struct InvoiceNumberPatternTests {
    @Test func fillsInTheDateAndTheCounter() throws {
        let pattern = try InvoiceNumberPattern("INV-{YYYY}-{NNNN}")
        #expect(pattern.number(counter: 42, on: day("2024-03-01")) == "INV-2024-0042")
        #expect(pattern.number(counter: 12_345, on: day("2024-03-01")) == "INV-2024-12345")
        #expect(try InvoiceNumberPattern("{YY}{MM}-{nnn}").number(counter: 7, on: day("2031-11-05")) == "3111-007")
        #expect(try InvoiceNumberPattern("{N}").number(counter: 7, on: day("2031-11-05")) == "7")
    }

    @Test func theStandardPatternIsTheDefaultOne() throws {
        #expect(try InvoiceNumberPattern(InvoiceNumberPattern.defaultPattern) == InvoiceNumberPattern.standard)
    }

    @Test func theCounterRunsWithinTheDateParts() throws {
        let yearly = try InvoiceNumberPattern("INV-{YYYY}-{NNNN}")
        #expect(yearly.scope(on: day("2024-01-01")) == yearly.scope(on: day("2024-12-31")))
        #expect(yearly.scope(on: day("2024-12-31")) != yearly.scope(on: day("2025-01-01")))
        let forever = try InvoiceNumberPattern("R{NNNNN}")
        #expect(forever.scope(on: day("2024-01-01")) == forever.scope(on: day("2030-06-01")))
    }

    @Test func badPatternsSayWhatToFix() {
        #expect(throws: InvoiceNumberPatternError.noCounter) { try InvoiceNumberPattern("INV-{YYYY}") }
        #expect(throws: InvoiceNumberPatternError.severalCounters) { try InvoiceNumberPattern("{NN}-{NN}") }
        #expect(throws: InvoiceNumberPatternError.unknownPlaceholder("Q")) { try InvoiceNumberPattern("{Q}{NN}") }
        #expect(throws: InvoiceNumberPatternError.unclosedBrace) { try InvoiceNumberPattern("{NN") }
        #expect(throws: InvoiceNumberPatternError.counterTooWide) { try InvoiceNumberPattern("{NNNNNNNNNN}") }
        #expect(throws: InvoiceNumberPatternError.invalidCharacter) { try InvoiceNumberPattern("A\n{NN}") }
        #expect(throws: InvoiceNumberPatternError.tooLong) { try InvoiceNumberPattern(String(repeating: "A", count: 40) + "{N}") }
        #expect(InvoiceNumberPatternError.noCounter.localizedDescription.contains("{NNNN}"))
    }
}

@Suite struct LogoStoreTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hexDigest(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hexDigest(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func logosAreStoredOnceByContent() throws {
        let directory = try TemporaryDirectory()
        let store = LogoStore(directory: directory.url.appendingPathComponent("logos"))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("rest of the image".utf8)
        let source = directory.url.appendingPathComponent("My Logo.PNG")
        try png.write(to: source)
        let name = try store.importLogo(from: source)
        #expect(name == SHA256.hexDigest(png) + ".png")
        try FileManager.default.removeItem(at: source)
        #expect(try Data(contentsOf: store.url(forFileName: name)) == png)

        let copy = directory.url.appendingPathComponent("copy.png")
        try png.write(to: copy)
        #expect(try store.importLogo(from: copy) == name)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == [name])

        let text = directory.url.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        #expect(throws: InvoiceError.logoNotAnImage) { try store.importLogo(from: text) }
        #expect(throws: InvoiceError.self) { try store.importLogo(from: directory.url.appendingPathComponent("missing.png")) }
    }
}
