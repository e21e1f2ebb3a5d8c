// Documents lays out blocks onto pages and draws them to a PDF, a print context or an image.
// No GTK: a template is a function from a domain model to a `Document`, which is a `Sendable`
// value rendered on any thread:
//
//     var document = Document(metadata: DocumentMetadata(title: "Invoice 2024-017", author: "Ada"))
//     document.blocks = [
//         .paragraph(Paragraph("Invoice", style: .title)),
//         .table(Table(columns: [TableColumn("Description"), .numeric("Amount")],
//                      rows: lines.map { TableRow([$0.description, $0.formattedAmount]) })),
//         .keyValues(KeyValueList([.init("Total", total, isEmphasized: true)], placement: .trailing)),
//     ]
//     let pdf = try await document.renderPDFInBackground()   // or writePDF(to:), thumbnailPNG(width:)
//
// Printing draws the same pages: `PrintableDocument(document)` gives the page count and draws
// any page onto a `DrawingContext` (Graphics) wrapping the print context's cairo_t.
