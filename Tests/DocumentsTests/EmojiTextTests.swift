import Foundation
import Testing
import Graphics
@testable import Documents

/// Emoji that only a colour font draws are pictures in the PDF; their text must still be there.
@Suite struct EmojiTextTests {
    static let emoji = ["🧾", "🍕", "🚕", "🇩🇪"]

    @Test func colourEmojiCanBeCopiedAndSearchedInThePDF() throws {
        var document = Document()
        document.blocks = [
            .paragraph(Paragraph("Receipt 🧾 for lunch 🍕, a taxi 🚕 and a flag 🇩🇪")),
            .table(Table(columns: [TableColumn("Description"), .numeric("Amount")], rows: [TableRow(["Team lunch 🍕 and taxi 🚕", "12.00"])])),
        ]
        let page = try ReadBack(document.renderPDF()).pages[0]
        let text = page.text()
        for emoji in Self.emoji {
            #expect(text.contains(emoji), "\(emoji) missing from “\(text)”")
        }
        #expect(text.components(separatedBy: "🍕").count - 1 == 2)
        #expect(page.find("Team lunch").count == 1)
        #expect(page.find("12.00").count == 1)
    }

    @Test func pdftotextFindsTheEmojiAsOnePersonWouldCopyThem() throws {
        var document = Document()
        document.blocks = [.paragraph(Paragraph("Receipt 🧾 and a flag 🇩🇪"))]
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("emoji.pdf")
        try document.renderPDF().data.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = [file.path, "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("🧾"))
        #expect(text.contains("🇩🇪"))
    }
}
