import Foundation
import Graphics
@testable import Documents

/// Documents the tests (and a person checking the output by eye) render.
enum SampleDocuments {
    static let words = ["consulting", "design", "review", "of", "the", "migration", "plan", "for", "legacy", "database",
                        "systems", "including", "workshops", "with", "stakeholders", "and", "documentation", "hours",
                        "support", "on-site", "travel", "infrastructure", "testing", "accessibility", "audit"]

    /// A description of `length` words, deterministic for `seed`.
    static func description(seed: Int, length: Int) -> String {
        var parts: [String] = []
        var state = UInt64(truncatingIfNeeded: seed &* 2654435761 &+ 12345)
        for _ in 0..<length {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            parts.append(words[Int((state >> 33) % UInt64(words.count))])
        }
        var text = parts.joined(separator: " ")
        text = text.prefix(1).uppercased() + text.dropFirst()
        return text
    }

    static func money(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let value = abs(cents)
        let units = value / 100
        var grouped = ""
        let digits = Array(String(units))
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return sign + grouped + "." + String(format: "%02d", value % 100)
    }

    static func invoiceRows(_ count: Int) -> [TableRow] {
        (0..<count).map { index in
            let length = index % 3 == 0 ? 28 + index % 11 : 3 + index % 5
            let quantity = 1 + index % 9
            let price = 4_500 + (index * 7_919) % 95_000
            return TableRow([
                String(format: "2024-%02d-%02d", 1 + index % 12, 1 + index % 28),
                description(seed: index, length: length),
                String(quantity),
                money(price),
                money(price * quantity),
            ])
        }
    }

    static func invoiceTable(rows: Int, style: TableStyle = .ruled) -> Table {
        Table(columns: [
            TableColumn("Date", width: .fit),
            TableColumn("Description", width: .fraction(1)),
            .numeric("Qty"),
            .numeric("Unit price"),
            .numeric("Amount"),
        ], rows: invoiceRows(rows), style: style)
    }

    static func invoice(rows: Int, paper: PaperSize = .a4) -> Document {
        var document = Document(pageSetup: PageSetup(paper: paper),
                                metadata: DocumentMetadata(title: "Invoice 2024-017", author: "Ada Lovelace Consulting",
                                                           subject: "Invoice for services", keywords: "invoice",
                                                           creationDate: Date(timeIntervalSince1970: 1_714_550_400)))
        document.header = RunningText(leading: .text("Ada Lovelace Consulting"), trailing: .text("Invoice 2024-017"), showsRule: true)
        document.footer = RunningText(leading: .text("Payable within 30 days · IBAN DE89 3704 0044 0532 0130 00"), trailing: .pageNumber)
        document.blocks = [
            .columns(ColumnSet([
                .init([
                    .paragraph(Paragraph("Invoice", style: .title)),
                    .keyValues(KeyValueList([
                        .init("Invoice number", "2024-017"),
                        .init("Issued", "1 May 2024"),
                        .init("Due", "31 May 2024"),
                    ], spaceBefore: 0)),
                ]),
                .init([
                    .paragraph(Paragraph("Ada Lovelace Consulting", style: TextStyle.body.withWeight(.semibold).withAlignment(.trailing).withSpacing(after: 2))),
                    .paragraph(Paragraph("12 Analytical Row\nLondon N1 9GU\nUnited Kingdom", style: TextStyle.body.withColor(Palette.secondaryText).withAlignment(.trailing))),
                ]),
            ])),
            .keyValues(KeyValueList([.init("Bill to", "Babbage Engines Ltd\n3 Difference Street\nCambridge CB2 1TN")], spaceAfter: 4)),
            .table(invoiceTable(rows: rows)),
            .keyValues(KeyValueList([
                .init("Subtotal", "12,840.00"),
                .init("VAT 20 %", "2,568.00"),
                .init("Total due (GBP)", "15,408.00", isEmphasized: true),
            ], placement: .trailing)),
            .heading(Heading("Notes", level: 3)),
            .paragraph(Paragraph("Thank you for your business. Payment by bank transfer to the account in the footer; please quote the invoice number.")),
        ]
        return document
    }
}
