import Documents
import Foundation
import Graphics

/// Sample PDFs for checking the output by eye: `documents-benchmark --samples DIR`.
enum Samples {
    static func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let invoice = Synthetic.invoice(rows: 140)
        try invoice.writePDF(to: directory.appendingPathComponent("invoice-zebra.pdf"))
        try expenseReport().writePDF(to: directory.appendingPathComponent("expense-report.pdf"))
        try invoice.thumbnailPNG(width: 300).write(to: directory.appendingPathComponent("invoice-thumbnail.png"))
        print("Wrote invoice-zebra.pdf, expense-report.pdf and invoice-thumbnail.png to \(directory.path)")
    }

    static func expenseReport() throws -> Document {
        var document = Document(pageSetup: PageSetup(paper: .a4),
                                metadata: DocumentMetadata(title: "Expense report — Lisbon", author: "Mira Okafor", subject: "Reimbursement"))
        document.header = RunningText(leading: .text("Northwind Studio"), trailing: .text("Expense report · June 2024"), showsRule: true)
        document.footer = RunningText(leading: .text("Submitted 8 June 2024"), trailing: .pageNumber)
        let rows: [(String, String, String, String)] = [
            ("2024-06-03", "Flight LIS–BER, economy", "Travel", "412.50"),
            ("2024-06-03", "Taxi airport to hotel", "Taxi", "31.80"),
            ("2024-06-04", "Hotel Avenida, 3 nights (breakfast included)", "Hotel", "680.00"),
            ("2024-06-04", "Dinner with the client team at a restaurant in Alfama — שלום, 4 people", "Meals", "143.20"),
            ("2024-06-05", "مطعم الغداء: lunch receipt in Arabic", "Meals", "18.40"),
            ("2024-06-06", "東京からの同僚とのコーヒー ☕", "Meals", "6.90"),
            ("2024-06-07", "Taxi hotel to airport", "Taxi", "30.00"),
        ]
        let table = Table(columns: [TableColumn("Date", width: .fit), TableColumn("Description"), TableColumn("Category", width: .fit),
                                    .numeric("Amount (EUR)")],
                          rows: rows.map { TableRow([$0.0, $0.1, $0.2, $0.3]) }, style: .ruled)
        let chart = Chart(kind: .bar, categories: ["Travel", "Hotel", "Meals", "Taxi"],
                          series: [ChartSeries("Spent", values: [412.5, 680, 168.5, 61.8])]) { value in
            value.rounded() == value ? String(Int(value)) : String(format: "%.2f", value)
        }
        let trend = Chart(kind: .line, categories: ["Jan", "Feb", "Mar", "Apr", "May", "Jun"],
                          series: [ChartSeries("2023", values: [820, 640, 910, 1_120, 760, 1_240]),
                                   ChartSeries("2024", values: [700, 880, 1_050, 990, 1_310, 1_292])])
        document.blocks = [
            .paragraph(Paragraph("Expense report", style: .title)),
            .keyValues(KeyValueList([.init("Employee", "Mira Okafor"), .init("Trip", "Client workshop, Lisbon"),
                                     .init("Dates", "3–7 June 2024"), .init("Cost centre", "CC-204 Consulting")])),
            .table(table),
            .keyValues(KeyValueList([.init("Total spent", "1,322.80"), .init("Advance received", "300.00"),
                                     .init("To reimburse (EUR)", "1,022.80", isEmphasized: true)], placement: .trailing)),
            .heading(Heading("Spending by category", level: 2)),
            .chart(ChartBlock(chart, height: 170)),
            .heading(Heading("Monthly travel spending", level: 2)),
            .chart(ChartBlock(trend, height: 150)),
            .pageBreak,
            .heading(Heading("Receipts", level: 2)),
            .columns(ColumnSet([
                .init([.image(ImageBlock(.data(try receiptPhoto()), maxHeight: 300, caption: "Taxi, photographed sideways (EXIF 6)"))]),
                .init([.pdfPages(EmbeddedPDF(try receiptPDF(), maxHeight: 300))]),
            ])),
            .paragraph(Paragraph("Receipts are kept with the report; the PDF receipt is embedded as vectors, so its text stays selectable.",
                                 style: .small)),
        ]
        return document
    }

    /// A receipt drawn sideways into the pixels and tagged with EXIF orientation 6, as a phone
    /// held on its side writes it.
    static func receiptPhoto() throws -> Data {
        let width = 900, height = 600
        let surface = try ImageSurface(pixelWidth: width, pixelHeight: height, hasAlpha: false)
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)), color: Color(hex: 0x6B6B66))
        // Upright content is 600 × 900; stored turned a quarter counter-clockwise.
        context.translate(x: 0, y: Double(height))
        context.rotate(radians: -.pi / 2)
        context.fill(Rect(x: 90, y: 60, width: 420, height: 780), color: Color(hex: 0xFAF8F2))
        let engine = TextEngine()
        let big = TextFormat(font: FontDescription(family: "DejaVu Sans Mono, Monospace", size: 30, weight: .bold), alignment: .center)
        let text = TextFormat(font: FontDescription(family: "DejaVu Sans Mono, Monospace", size: 22))
        engine.layout("TÁXI LISBOA", format: big, width: 420).draw(in: context, at: Point(x: 90, y: 100), color: .black)
        let lines = ["03/06/2024  18:42", "Aeroporto → Avenida", "", "Tarifa        27.30", "Bagagem        1.60", "Portagem       2.90",
                     "", "TOTAL  EUR    31.80", "", "Obrigado!"]
        engine.layout(lines.joined(separator: "\n"), format: text, width: 380).draw(in: context, at: Point(x: 110, y: 190), color: Color(hex: 0x222222))
        try context.checkStatus()
        let jpeg = try RasterImage(surface: surface).encoded(as: .jpeg(quality: 88))
        var exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0, 0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01,
                             0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        exif.insert(contentsOf: [0xFF, 0xE1, 0x00, UInt8(exif.count + 2)], at: 0)
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: exif, at: 2)
        return Data(bytes)
    }

    /// A till receipt as a PDF, the way a hotel e-mails it.
    static func receiptPDF() throws -> Data {
        var document = Document(pageSetup: PageSetup(paper: .custom(Size(width: 260, height: 420)), margins: EdgeInsets(all: 20)))
        document.footer = nil
        document.blocks = [
            .paragraph(Paragraph("Hotel Avenida", style: TextStyle.heading2.withSpacing(before: 0))),
            .paragraph(Paragraph("Av. da Liberdade 100, Lisboa", style: .small)),
            .rule(Rule()),
            .keyValues(KeyValueList([.init("Room 412, 3 nights", "600.00"), .init("City tax", "12.00"), .init("Minibar", "68.00"),
                                     .init("Total EUR", "680.00", isEmphasized: true)], keyStyle: TextStyle.body.withSize(8),
                                    valueStyle: TextStyle.body.withSize(8).withAlignment(.trailing))),
            .paragraph(Paragraph("Paid by card ending 4421. Thank you for staying with us.", style: .small)),
        ]
        return try document.renderPDF().data
    }
}
