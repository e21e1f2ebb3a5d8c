// BillfoldUI: widgets the plugins share.
//
// A plugin that shows a document keeps a `DocumentPreview` and a `DocumentActions`:
//
//     let preview = DocumentPreview(emptyTitle: tr("No Invoice Selected"))
//     page.append(preview.widget)
//     preview.generate { try InvoiceTemplate.document(for: invoice).renderPDF().data }  // newest wins
//
//     let actions = DocumentActions(parent: context.window) { context.showToast($0.localizedDescription) }
//     guard context.ensureAllowed(.exportInvoicePDF), let pdf = preview.pdfData else { return }  // gating is the plugin's
//     actions.saveAs(pdf: pdf, suggestedName: "INV-2026-0001.pdf")
//     actions.print(pdf: pdf, jobName: "INV-2026-0001")
//     actions.openWithDefaultApp(pdf: pdf, fileName: "INV-2026-0001.pdf")
//     actions.email(pdf: pdf, fileName: "INV-2026-0001.pdf", subject: "Invoice INV-2026-0001", recipient: client.email)
//
// `ChartView(chart:title:)` shows a Documents chart on screen, light or dark as the app is.
