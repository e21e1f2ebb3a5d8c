import BillfoldCore
import Testing

@Suite struct TextTableTests {
    @Test func widthsCountTerminalCells() {
        #expect(TextTable.width("Acme GmbH") == 9)
        #expect(TextTable.width("€1,234.50") == 9)
        #expect(TextTable.width("1.234,50\u{A0}€") == 10)
        #expect(TextTable.width("Mar 3, 2024 – Mar 5, 2024") == 25)
        #expect(TextTable.width("山田 陽子") == 9)
        #expect(TextTable.width("e\u{301}") == 1)
        #expect(TextTable.width("soft\u{AD}hyphen") == 10)
        #expect(TextTable.width("👍🏽 ok") == 5)
    }

    @Test func rowsWrittenOneByOneLineUpWithTheWholeTable() {
        let rows = [["INV-1", "山田 陽子", "¥100,000"], ["INV-22", "Acme\nCorporation", "€1,469.06"]]
        let whole = TextTable.render(header: ["Number", "Client", "Total"], rows: rows, rightAligned: [2])
        var streamed = TextTable(header: ["Number", "Client", "Total"], rightAligned: [2])
        rows.forEach { streamed.fit($0) }
        #expect((streamed.headerLines + rows.map(streamed.line)).joined(separator: "\n") == whole)

        let lines = whole.split(separator: "\n").map(String.init)
        #expect(lines[1].allSatisfy { $0 == "─" || $0 == " " })
        #expect(lines[3].contains("Acme Corporation"))
        #expect(Set(lines.map(TextTable.width)).count == 1, "every line ends in the same column: \(lines)")
    }

    @Test func aCellWiderThanItsColumnIsCut() {
        var table = TextTable(header: ["Client"], maximumCellWidth: 8)
        table.fit("A very long client name", column: 0)
        #expect(table.widths == [8])
        #expect(table.line(["A very long client name"]) == "A very …")
        #expect(table.line(["山田山田山田"]) == "山田山…")
    }

    @Test func chunkedLinesJoinToTheSameText() {
        var chunks: [String] = []
        var lines = ChunkedLines { chunks.append($0) }
        let line = String(repeating: "x", count: 99)
        for _ in 0..<2_000 { lines.append(line) }
        lines.flush()
        #expect(chunks.count > 1)
        #expect(chunks.joined(separator: "\n") == Array(repeating: line, count: 2_000).joined(separator: "\n"))
    }

    @Test func cellsAppendedToChunkedLinesMatchTheirLine() {
        let rows = [["INV-1", "Plain ASCII", "€100.00"], ["INV-22", "Tab\there\nand newline", "1.234,50\u{A0}€"],
                    ["INV-333", "山田 陽子 and a name far too long for its column", "¥100,000"]]
        var table = TextTable(header: ["Number", "Client", "Total"], rightAligned: [2], maximumCellWidth: 20)
        rows.forEach { table.fit($0) }
        var chunks: [String] = []
        var lines = ChunkedLines { chunks.append($0) }
        rows.forEach { lines.append($0, of: table) }
        lines.flush()
        #expect(chunks == [rows.map(table.line).joined(separator: "\n")])
        #expect(!chunks[0].contains("\t"), "a control character in a cell would break the columns")
        #expect(table.line(rows[1]).contains("Tab here and newline"))
    }
}
