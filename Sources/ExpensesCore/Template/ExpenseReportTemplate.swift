import BillfoldCore
import Documents
import Foundation
import Graphics

/// Everything the reimbursement report shows, gathered on any thread. A `Sendable` value: load
/// it, build the `Document` and render it on a background task.
public struct ExpenseReport: Sendable {
    public let trip: Trip
    public let expenses: [Expense]
    public let dashboard: TripDashboard
    /// Who is being reimbursed (from the business profile).
    public let traveller: String
    public let receipts: ReceiptStore

    public init(trip: Trip, expenses: [Expense], traveller: String, receipts: ReceiptStore) throws(ExpensesError) {
        self.trip = trip
        self.expenses = expenses
        self.traveller = traveller
        self.receipts = receipts
        dashboard = try TripDashboard(trip: trip, expenses: expenses)
    }

    /// The trip, its expenses and totals as they are in the database now.
    public static func load(_ tripID: TripID, from repository: ExpenseRepository, traveller: String) throws -> ExpenseReport {
        guard let trip = try repository.trip(tripID) else { throw ExpensesError.tripNotFound(tripID) }
        return try ExpenseReport(trip: trip, expenses: try repository.expenses(in: tripID), traveller: traveller,
                                 receipts: repository.receipts)
    }

    /// The receipts in the order of the expenses that first use them; an expense sharing a
    /// receipt with an earlier one adds itself to that receipt's page.
    public var receiptPages: [(reference: ReceiptReference, expenses: [Expense])] {
        var order: [ReceiptReference] = []
        var users: [ReceiptReference: [Expense]] = [:]
        for expense in expenses {
            guard let receipt = expense.receipt else { continue }
            if users[receipt] == nil { order.append(receipt) }
            users[receipt, default: []].append(expense)
        }
        return order.map { ($0, users[$0] ?? []) }
    }

    /// The report as a document: cover, expense table, one page per receipt.
    ///
    /// Reads the receipts first: PDFs are checked, photos are scaled to at least 150 dpi at the
    /// size they are printed (attaching a photo made its usual copy already; others are made two
    /// at a time and cached), and a missing or damaged file becomes a notice on its page instead
    /// of a failed report. That can take seconds for a trip with many photos whose copies are
    /// gone: call it from a background task.
    public func document(pageSetup: PageSetup = PageSetup(), moneyFormatter: MoneyFormatter = MoneyFormatter(),
                         numberFormatting: NumberFormatting = NumberFormatting(), locale: Locale = UserLocale.time,
                         creationDate: Date = Date()) -> Document {
        let template = ExpenseReportTemplate(report: self, pageSetup: pageSetup, money: moneyFormatter,
                                             numbers: numberFormatting, locale: locale)
        return template.document(creationDate: creationDate, receipts: template.prepareReceipts())
    }

    /// Renders the report and writes it to `url` (temporary file, then rename). Returns the page count.
    @discardableResult
    public func writePDF(to url: URL) throws(DocumentError) -> Int {
        try document().writePDF(to: url)
    }

    /// Writes the report to a file or to standard output. Returns the page count.
    @discardableResult
    public func writePDF(to target: OutputTarget) throws(DocumentError) -> Int {
        try document().writePDF(to: target)
    }
}

/// The reimbursement report's layout: a function from the report to Documents blocks.
struct ExpenseReportTemplate {
    let report: ExpenseReport
    let pageSetup: PageSetup
    let money: MoneyFormatter
    let numbers: NumberFormatting
    let locale: Locale

    /// Receipt photos keep at least this many pixels per inch at their printed size (fewer
    /// only when the photo has fewer). A receipt needs to be legible, not a photo print: 150 dpi
    /// is what GNOME's Document Scanner scans text at by default, and gives small receipt type
    /// (about 2 mm high) some 12 pixels. A JPEG keeps the smallest n/8 of its size that reaches
    /// it (a 12-megapixel photo: 3/8, about 220 dpi across an A4 page, 165 dpi down it), which
    /// is decoded without resampling.
    static let receiptResolution = 150.0

    private var trip: Trip { report.trip }
    private var currency: Currency { report.trip.currency }

    func document(creationDate: Date, receipts: [ReceiptReference: PreparedReceipt]) -> Document {
        let title = tr("Expense report")
        var document = Document(
            pageSetup: pageSetup,
            metadata: DocumentMetadata(title: title + " – " + trip.name, author: report.traveller,
                                       subject: trip.purpose, keywords: trip.name, creationDate: creationDate),
            header: RunningText(leading: .text(trip.name), trailing: .text(title)),
            footer: RunningText(leading: report.traveller.isEmpty ? nil : .text(report.traveller), trailing: .pageNumber))
        document.blocks = coverPage(title: title) + expensePages() + receiptPages(receipts)
        return document
    }

    // MARK: Cover

    private func coverPage(title: String) -> [Block] {
        let dashboard = report.dashboard
        var facts: [KeyValueList.Item] = []
        if !report.traveller.isEmpty { facts.append(.init(tr("Traveller"), report.traveller)) }
        facts.append(.init(tr("Dates"), trip.days.formatted(.medium, locale: locale)))
        if !trip.purpose.isEmpty { facts.append(.init(tr("Purpose"), trip.purpose)) }
        facts.append(.init(tr("Expenses"), numbers.string(from: dashboard.expenseCount)))
        facts.append(.init(tr("Reimbursement Currency"), currency.code + " – " + currency.localizedName()))
        facts.append(.init(tr("Total to reimburse"), money.string(from: dashboard.total), isEmphasized: true))

        var blocks: [Block] = [
            .paragraph(Paragraph(title, style: .small.withSpacing(after: 2))),
            .paragraph(Paragraph(trip.name, style: .title)),
            .keyValues(KeyValueList(facts, keyStyle: TextStyle.body.withColor(Palette.secondaryText), spaceAfter: 14)),
        ]
        guard !dashboard.byCategory.isEmpty else {
            blocks.append(.text(tr("This trip has no expenses.")))
            return blocks
        }
        blocks.append(.heading(Heading(tr("Spending by Category"), level: 2)))
        var rows = dashboard.byCategory.map { line in
            TableRow([line.category.localizedName, numbers.string(from: line.expenseCount),
                      share(of: line.total, in: dashboard.total), money.string(from: line.total)])
        }
        rows.append(TableRow([tr("Total"), numbers.string(from: dashboard.expenseCount), "",
                              money.string(from: dashboard.total)], isEmphasized: true))
        blocks.append(.table(Table(columns: [TableColumn(tr("Category")), .numeric(tr("Expenses")),
                                             .numeric(tr("Share")), .numeric(tr("Amount"))],
                                   rows: rows)))
        let formatter = money
        let currency = self.currency
        let chart = Chart(kind: .bar, categories: dashboard.byCategory.map(\.category.localizedName),
                          series: [ChartSeries(tr("Amount"), values: dashboard.byCategory.map { plotted($0.total) })],
                          valueLabel: { value in Self.label(value, currency: currency, formatter: formatter) })
        blocks.append(.chart(ChartBlock(chart, height: 190)))
        blocks += vatSummary()
        return blocks
    }

    /// The suppliers' VAT by rate over the whole trip, in the currencies paid, when any
    /// invoice gave it.
    private func vatSummary() -> [Block] {
        let totals: [ExpenseVAT]
        do {
            totals = try ExpenseVAT.totals(of: report.expenses)
        } catch {
            return [notice(error.localizedDescription)]
        }
        guard !totals.isEmpty else { return [] }
        let rows = totals.map { line in
            TableRow([line.localizedCategory, line.rate.map { numbers.percentString(from: $0, maximumFractionDigits: 3) } ?? "",
                      money.string(from: line.taxableAmount), money.string(from: line.taxAmount)])
        }
        return [.heading(Heading(tr("VAT on suppliers’ invoices"), level: 2)),
                .table(Table(columns: [TableColumn(tr("Category")), .numeric(tr("Rate")), .numeric(tr("Taxable amount")),
                                       .numeric(tr("VAT"))], rows: rows))]
    }

    /// A category's part of the total, "12.5 %" in the locale's way.
    private func share(of part: Money, in total: Money) -> String {
        guard total.minorUnits > 0 else { return "" }
        return numbers.percentString(from: Decimal(part.minorUnits) * 100 / Decimal(total.minorUnits),
                                     minimumFractionDigits: 1, maximumFractionDigits: 1)
    }

    // MARK: Expense table

    private func expensePages() -> [Block] {
        guard !report.expenses.isEmpty else { return [] }
        let anyConverted = report.expenses.contains { $0.amounts.isConverted }
        var columns = [TableColumn(tr("Date"), width: .fit), TableColumn(tr("Category"), width: .fit),
                       TableColumn(tr("Vendor"), width: .fraction(1))]
        if anyConverted { columns += [.numeric(tr("Original")), .numeric(tr("Rate"))] }
        // The supplier's VAT per rate, in the currency paid, for the expenses whose invoice gave it.
        let anyVAT = report.expenses.contains { !$0.vat.isEmpty }
        if anyVAT { columns.append(.numeric(tr("VAT included"))) }
        columns.append(.numeric(String(format: tr("Amount (%@)"), currency.code)))

        var rows: [TableRow] = report.expenses.map { expense in
            var cells = [expense.date.formatted(.short, locale: locale), expense.category.localizedName, describe(expense)]
            if anyConverted {
                cells.append(expense.amounts.isConverted ? money.string(from: expense.originalAmount) : "")
                cells.append(expense.amounts.exchangeRate.map { numbers.string(from: $0, maximumFractionDigits: 6) } ?? "")
            }
            if anyVAT { cells.append(vatCell(expense.vat)) }
            cells.append(money.string(from: expense.convertedAmount))
            return TableRow(cells)
        }
        var total = [tr("Total"), "", ""]
        if anyConverted { total += ["", ""] }
        if anyVAT { total.append("") }
        total.append(money.string(from: report.dashboard.total))
        rows.append(TableRow(total, isEmphasized: true))
        return [.pageBreak, .heading(Heading(tr("Expenses"), level: 1)),
                .table(Table(columns: columns, rows: rows, style: .zebra))]
    }

    /// "19 %: €19.00", one line per rate.
    private func vatCell(_ vat: [ExpenseVAT]) -> String {
        vat.map { String(format: tr("%@: %@"), $0.rateText(numbers), money.string(from: $0.taxAmount)) }
            .joined(separator: "\n")
    }

    /// The vendor, the distance for mileage, the notes and the receipt number.
    private func describe(_ expense: Expense) -> String {
        var parts: [String] = []
        if !expense.vendor.isEmpty { parts.append(expense.vendor) }
        if let mileage = expense.details.cost.mileage {
            parts.append(String(format: tr("%@ %@ at %@ per %@"),
                                numbers.string(from: mileage.distance, maximumFractionDigits: 3),
                                mileage.unit.localizedSymbol,
                                numbers.string(from: mileage.ratePerUnit, minimumFractionDigits: 2, maximumFractionDigits: 4)
                                    + " " + mileage.currency.code,
                                mileage.unit.localizedSymbol))
        }
        if !expense.notes.isEmpty { parts.append(expense.notes) }
        if let receipt = expense.receipt, let number = receiptNumbers[receipt] {
            parts.append(String(format: tr("Receipt %d"), number))
        }
        return parts.joined(separator: "\n")
    }

    private var receiptNumbers: [ReceiptReference: Int] {
        Dictionary(uniqueKeysWithValues: report.receiptPages.enumerated().map { ($0.element.reference, $0.offset + 1) })
    }

    // MARK: Receipts

    private func receiptPages(_ prepared: [ReceiptReference: PreparedReceipt]) -> [Block] {
        var blocks: [Block] = []
        for (index, page) in report.receiptPages.enumerated() {
            let number = index + 1
            let caption = Block.text(page.expenses.map(caption(for:)).joined(separator: "\n"), style: .small)
            let heading = String(format: tr("Receipt %d"), number)
            let maxHeight = imageMaxHeight(captionLines: page.expenses.count)
            switch prepared[page.reference] ?? .problem(Self.missingNotice) {
            case .image(let url):
                blocks += [.pageBreak, .keepTogether([
                    .heading(Heading(heading, level: 2)), caption,
                    // Prepared for its box already: the PDF takes it as it is.
                    .image(ImageBlock(.file(path: url.path), maxHeight: maxHeight, alignment: .center, resolution: nil)),
                ])]
            case .pdf(let data, let pageCount):
                for pdfPage in 0..<pageCount {
                    let title = pageCount > 1
                        ? String(format: tr("Receipt %d, page %d of %d"), number, pdfPage + 1, pageCount) : heading
                    blocks += [.pageBreak, .keepTogether([
                        .heading(Heading(title, level: 2)), caption,
                        .pdfPages(EmbeddedPDF(data, pages: [pdfPage], maxHeight: maxHeight)),
                    ])]
                }
            case .invoice(let invoice):
                let template = EInvoiceTemplate(invoice: invoice, money: money, numbers: numbers, locale: locale)
                blocks += [.pageBreak, .heading(Heading(heading, level: 2)), caption] + template.blocks()
            case .problem(let notice):
                blocks += [.pageBreak, .heading(Heading(heading, level: 2)), caption, self.notice(notice)]
            }
        }
        return blocks
    }

    /// Room left for a receipt under its heading and a caption of `captionLines` lines.
    func imageMaxHeight(captionLines: Int) -> Double {
        Self.imageMaxHeight(on: pageSetup, captionLines: captionLines)
    }

    private static func imageMaxHeight(on pageSetup: PageSetup, captionLines: Int) -> Double {
        max(144, bodyHeight(of: pageSetup) - 48 - 12 * Double(captionLines))
    }

    /// The pixels a receipt photo gets on its page, at `receiptResolution`.
    static func receiptBox(on pageSetup: PageSetup, captionLines: Int) -> (width: Int, height: Int) {
        let pixelsPerPoint = receiptResolution / 72
        return (width: Int((pageSetup.printableArea.width * pixelsPerPoint).rounded(.up)),
                height: Int((imageMaxHeight(on: pageSetup, captionLines: captionLines) * pixelsPerPoint).rounded(.up)))
    }

    static let missingNotice = tr("The receipt file is missing from Billfold’s data folder, so it cannot be shown. Attach the receipt to the expense again.")

    // MARK: Preparing receipts

    /// A receipt ready to be laid out, or why it cannot be.
    enum PreparedReceipt: Sendable {
        case image(URL)
        case pdf(Data, pageCount: Int)
        /// An e-invoice kept as bare XML, laid out from what it says.
        case invoice(EInvoice)
        case problem(String)
    }

    /// How many receipts are prepared at once, whatever the number of cores (decoding itself
    /// is limited process-wide by `ReceiptDecoding`).
    static let receiptDecodingWidth = ReceiptDecoding.width

    /// Checks every receipt and scales the photos, several at a time.
    func prepareReceipts() -> [ReceiptReference: PreparedReceipt] {
        let pages = report.receiptPages
        let store = report.receipts
        let boxes = pages.map { Self.receiptBox(on: pageSetup, captionLines: $0.expenses.count) }
        // Photos are scaled two at a time: a PNG decodes at full size before it is scaled (up to
        // 400 MB for the largest receipt accepted), so more at once would multiply the peak.
        // PDFs are opened one at a time (Poppler).
        let results = PreparedReceipts(count: pages.count)
        let next = NextIndex()
        DispatchQueue.concurrentPerform(iterations: min(Self.receiptDecodingWidth, pages.count)) { _ in
            while let index = next.take(below: pages.count) {
                let reference = pages[index].reference
                guard reference.kind.isImage else { continue }
                results.set(index, Self.prepareImage(reference, store: store, box: boxes[index]))
            }
        }
        var prepared: [ReceiptReference: PreparedReceipt] = [:]
        for (page, result) in zip(pages, results.all) {
            switch page.reference.kind {
            case .jpeg, .png, .webp: prepared[page.reference] = result
            case .pdf: prepared[page.reference] = Self.preparePDF(page.reference, store: store)
            case .xml: prepared[page.reference] = Self.prepareInvoice(page.reference, store: store)
            }
        }
        return prepared
    }

    private static func prepareImage(_ reference: ReceiptReference, store: ReceiptStore,
                                     box: (width: Int, height: Int)) -> PreparedReceipt {
        do throws(ReceiptError) {
            let url = try store.printImage(for: reference, boxWidth: box.width, boxHeight: box.height)
            if url == store.url(for: reference) {
                // Used as it is: decode it once here (it is small) so a cut-off file becomes a
                // notice rather than a failed report.
                do {
                    _ = try RasterImage(contentsOfFile: url.path,
                                        limits: ImageDecodeLimits(maxWidth: box.width, maxHeight: box.height))
                } catch {
                    throw ReceiptError.damaged(fileName: reference.fileName, kind: reference.kind)
                }
            }
            return .image(url)
        } catch .noDecoder {
            return .problem(tr("Pictures of this kind cannot be shown on this system. Attach the receipt as a JPEG or PNG."))
        } catch .missing {
            return .problem(missingNotice)
        } catch {
            return .problem(tr("This receipt picture is damaged and cannot be shown. Attach it to the expense again."))
        }
    }

    private static func preparePDF(_ reference: ReceiptReference, store: ReceiptStore) -> PreparedReceipt {
        let data: Data
        do {
            data = try store.data(for: reference)
        } catch {
            return .problem(missingNotice)
        }
        do throws(PDFError) {
            let pageCount = try PDFDocument(data: data).pageCount
            guard pageCount > 0 else { throw PDFError.pageOutOfRange(index: 0, pageCount: 0) }
            return .pdf(data, pageCount: pageCount)
        } catch .needsPassword {
            return .problem(tr("This PDF receipt is protected by a password. Attach an unprotected copy to the expense."))
        } catch {
            return .problem(tr("This PDF receipt is damaged and cannot be shown. Attach it to the expense again."))
        }
    }

    private static func prepareInvoice(_ reference: ReceiptReference, store: ReceiptStore) -> PreparedReceipt {
        let data: Data
        do {
            data = try store.data(for: reference)
        } catch {
            return .problem(missingNotice)
        }
        do {
            return .invoice(try EInvoiceFile.read(data, kind: .xml))
        } catch {
            return .problem(String(format: tr("This XML receipt cannot be shown: %@"), error.localizedDescription))
        }
    }

    /// "5 Mar 2024 · Café A Brasileira · €39.16 (US$42.50 at 0.9215)".
    private func caption(for expense: Expense) -> String {
        var amount = money.string(from: expense.convertedAmount)
        if let rate = expense.amounts.exchangeRate {
            amount += " " + String(format: tr("(%@ at %@)"), money.string(from: expense.originalAmount),
                                   numbers.string(from: rate, maximumFractionDigits: 6))
        }
        let who = expense.vendor.isEmpty ? expense.category.localizedName : expense.vendor
        return [expense.date.formatted(.medium, locale: locale), who, amount].joined(separator: " · ")
    }

    private func notice(_ text: String) -> Block {
        .paragraph(Paragraph(text, style: TextStyle.body.withColor(Color(hex: 0xC01C28)).withSpacing(before: 24)))
    }

    /// The page body's height: the printable area less the running header and footer.
    private static func bodyHeight(of pageSetup: PageSetup) -> Double {
        pageSetup.printableArea.height - 2 * (pageSetup.runningTextGap + 12)
    }

    // MARK: Chart values

    private func plotted(_ money: Money) -> Double {
        NSDecimalNumber(decimal: money.decimalValue).doubleValue
    }

    /// Chart values are plotting positions in major units; labels go back to exact money.
    private static func label(_ value: Double, currency: Currency, formatter: MoneyFormatter) -> String {
        guard let amount = try? Money(Decimal(value), currency: currency) else { return "" }
        return formatter.string(from: amount)
    }
}

/// Prepared receipts written from several threads, one slot each.
/// Hands out 0, 1, 2, … to the threads that scale receipts.
private final class NextIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below count: Int) -> Int? {
        lock.withLock {
            guard value < count else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

private final class PreparedReceipts: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [ExpenseReportTemplate.PreparedReceipt]

    init(count: Int) {
        slots = Array(repeating: .problem(ExpenseReportTemplate.missingNotice), count: count)
    }

    func set(_ index: Int, _ receipt: ExpenseReportTemplate.PreparedReceipt) {
        lock.withLock { slots[index] = receipt }
    }

    var all: [ExpenseReportTemplate.PreparedReceipt] { lock.withLock { slots } }
}
