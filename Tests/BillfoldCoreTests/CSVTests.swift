import BillfoldCore
import Foundation
import SeededRandom
import Testing

@Suite struct CSVTests {
    private func parse(_ text: String, separator: UInt8? = nil) throws -> [[String]] {
        try CSV.parse(Data(text.utf8), separator: separator).map(\.fields)
    }

    @Test func fieldsAreQuotedOnlyWhenTheyMustBe() {
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("two\nlines") == "\"two\nlines\"")
        #expect(CSV.field("crlf\r\nend") == "\"crlf\r\nend\"")
        #expect(CSV.record(["a", "", "c,d"]) == "a,,\"c,d\"\r\n")
    }

    @Test func whatIsWrittenReadsBackTheSame() throws {
        let rows = [["name", "note"], ["Acme, Inc.", "He said \"yes\"\r\nthen left"], ["", "Ünïcødé 山田"], ["x", ""]]
        let text = CSV.text(header: rows[0], rows: Array(rows.dropFirst()))
        #expect(try parse(text) == rows)
    }

    @Test func quotedNewlinesStayInTheFieldAndRecordsKnowTheirLine() throws {
        let records = try CSV.parse(Data("a,b\n\"one\ntwo\",3\nnext,4\n".utf8))
        #expect(records.map(\.fields) == [["a", "b"], ["one\ntwo", "3"], ["next", "4"]])
        #expect(records.map(\.line) == [1, 2, 4])
    }

    @Test func doubledQuotesAreOneQuote() throws {
        #expect(try parse("\"a\"\"b\",\"\"\"\",\"\"\n") == [["a\"b", "\"", ""]])
    }

    @Test func everyLineEndWorks() throws {
        #expect(try parse("a,b\r\nc,d\r\n") == [["a", "b"], ["c", "d"]])
        #expect(try parse("a,b\nc,d") == [["a", "b"], ["c", "d"]])
        #expect(try parse("a,b\rc,d\r") == [["a", "b"], ["c", "d"]])
    }

    @Test func aByteOrderMarkIsNotPartOfTheFirstName() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array("name,email\r\nA,a@example.com\r\n".utf8))
        #expect(try CSV.parse(data).first?.fields == ["name", "email"])
    }

    @Test func raggedRowsKeepTheirOwnLength() throws {
        #expect(try parse("a,b,c\n1\n1,2,3,4\n") == [["a", "b", "c"], ["1"], ["1", "2", "3", "4"]])
    }

    @Test func blankLinesAreSkippedButEmptyFieldsAreNot() throws {
        #expect(try parse("a,b\n\n,\n\n") == [["a", "b"], ["", ""]])
    }

    @Test func aFieldOf40000CharactersIsReadWhole() throws {
        let long = String(repeating: "x,\"y\"\n", count: 6000) + String(repeating: "z", count: 4000)
        #expect(long.count == 40_000)
        let records = try parse(CSV.record(["before", long, "after"]))
        #expect(records == [["before", long, "after"]])
    }

    @Test func semicolonsAndTabsAreRecognisedAsSeparators() throws {
        #expect(CSV.detectSeparator(Data("name;amount\nA;1,50\n".utf8)) == UInt8(ascii: ";"))
        #expect(CSV.detectSeparator(Data("name\tamount\n".utf8)) == UInt8(ascii: "\t"))
        #expect(CSV.detectSeparator(Data("\"a;b\",c\n".utf8)) == UInt8(ascii: ","))
        #expect(try parse("name;amount\nA;\"1,50\"\n") == [["name", "amount"], ["A", "1,50"]])
    }

    @Test func badInputSaysWhereAndWhy() {
        #expect(throws: CSVError.unterminatedQuote(line: 2)) { try CSV.parse(Data("a\n\"open,\nnever closed".utf8)) }
        #expect(throws: CSVError.notUTF8(line: 2)) { try CSV.parse(Data(Array("a,b\n".utf8) + [0xC3, 0x28])) }
        #expect(CSVError.notUTF8(line: 2).errorDescription?.contains("UTF-8") == true)
    }

    @Test func aStrayQuoteInsideAFieldIsKeptAsText() throws {
        #expect(try parse("5\" screen,\"quoted\"tail\n") == [["5\" screen", "quotedtail"]])
    }

    /// Random bytes and random mixes of CSV's own characters either parse or throw a CSVError; never a crash.
    @Test func randomInputNeverCrashes() {
        var random = SeededGenerator(seed: 4180)
        let alphabet: [UInt8] = Array("a,;\t\"\r\n ".utf8) + [0xC3, 0xA9, 0xEF, 0xBB, 0xBF, 0xFF, 0x00]
        for round in 0..<3000 {
            let count = Int(random.next() % 300)
            let bytes: [UInt8] = round % 2 == 0 ? random.bytes(count: count)
                : (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            do {
                let records = try CSV.parse(Data(bytes))
                #expect(records.allSatisfy { !$0.fields.isEmpty && $0.line >= 1 })
            } catch {
                #expect(error.errorDescription != nil)
            }
        }
    }
}
