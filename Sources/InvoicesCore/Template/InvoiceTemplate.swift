import BillfoldCore
import Documents
import Foundation
import Graphics

/// The invoice as the client receives it: a function from `InvoiceDocument` to a `Document`.
///
/// Layout, top to bottom: the seller (logo, name, contact) opposite the title, number and
/// dates; the client opposite the amount due; the lines; the totals at the right with tax per
/// rate and any payments; notes; how to pay. Money is in the invoice's currency, written the
/// user's way; labels are in the user's language.
public enum InvoiceTemplate {
    /// How numbers, money and dates are written, and on which paper.
    public struct Formatting: Sendable {
        public var money: MoneyFormatter
        public var numbers: NumberFormatting
        public var dateLocale: Locale
        public var paper: PaperSize

        public init(money: MoneyFormatter = MoneyFormatter(), numbers: NumberFormatting = NumberFormatting(),
                    dateLocale: Locale = UserLocale.time, paper: PaperSize = .current) {
            self.money = money
            self.numbers = numbers
            self.dateLocale = dateLocale
            self.paper = paper
        }
    }

    public static func document(_ source: InvoiceDocument, formatting: Formatting = Formatting()) -> Document {
        Builder(source: source, formatting: formatting).document()
    }
}

/// Writes invoice PDFs.
public enum InvoicePDF {
    /// The PDF's bytes, e.g. for the preview pane. Run it off the main actor.
    public static func render(_ source: InvoiceDocument,
                              formatting: InvoiceTemplate.Formatting = .init()) throws(DocumentError) -> RenderedPDF {
        try InvoiceTemplate.document(source, formatting: formatting).renderPDF()
    }

    /// Writes the PDF to `url` (complete or not at all); returns the page count.
    @discardableResult
    public static func write(_ source: InvoiceDocument, to url: URL,
                             formatting: InvoiceTemplate.Formatting = .init()) throws(DocumentError) -> Int {
        try InvoiceTemplate.document(source, formatting: formatting).writePDF(to: url)
    }

    /// Writes the PDF to a file (complete or not at all) or to standard output.
    @discardableResult
    public static func write(_ source: InvoiceDocument, to target: OutputTarget,
                             formatting: InvoiceTemplate.Formatting = .init()) throws(DocumentError) -> Int {
        try InvoiceTemplate.document(source, formatting: formatting).writePDF(to: target)
    }

    /// `<number>.pdf`, with characters that cannot be in a file name replaced.
    public static func suggestedFileName(for invoice: Invoice) -> String {
        let name = invoice.number.map { $0 == "/" || $0 == "\\" || $0 == ":" || $0.isNewline ? "-" : $0 }
        let trimmed = String(name).trimmingCharacters(in: CharacterSet(charactersIn: ". ").union(.whitespaces))
        return (trimmed.isEmpty ? tr("Invoice") : trimmed) + ".pdf"
    }
}

private struct Builder {
    let source: InvoiceDocument
    let formatting: InvoiceTemplate.Formatting

    private var invoice: Invoice { source.invoice }
    private var profile: BusinessProfile { source.profile }
    private var totals: InvoiceTotals { source.totals }

    // A small type scale: one size for text, one for labels, two for what matters most.
    private static let label = TextStyle(font: FontDescription(size: 7.5, weight: .semibold), color: Palette.tertiaryText,
                                         spaceAfter: 3)
    private static let body = TextStyle(font: FontDescription(size: 9), lineSpacing: 1.1, spaceAfter: 0)
    private static let secondary = body.withColor(Palette.secondaryText)
    private static let name = TextStyle(font: FontDescription(size: 11, weight: .semibold), spaceAfter: 3)
    private static let title = TextStyle(font: FontDescription(size: 24, weight: .semibold), alignment: .trailing, spaceAfter: 2)
    private static let amountDue = TextStyle(font: FontDescription(size: 18, weight: .semibold), alignment: .trailing,
                                             tabularFigures: true, spaceAfter: 2)

    /// What the document calls itself: "Invoice", "Quote" or "Credit note".
    private var kindTitle: String {
        switch source.kind {
        case .invoice: tr("Invoice")
        case .quote: tr("Quote")
        case .creditNote: tr("Credit note")
        }
    }

    /// "Invoice INV-1", "Quote QUO-1", "Credit note CN-1".
    private var titledNumber: String {
        switch source.kind {
        case .invoice: String(format: tr("Invoice %@"), invoice.number)
        case .quote: String(format: tr("Quote %@"), invoice.number)
        case .creditNote: String(format: tr("Credit note %@"), invoice.number)
        }
    }

    func document() -> Document {
        let subject: String
        switch source.kind {
        case .invoice: subject = String(format: tr("Invoice for %@"), source.billTo.name)
        case .quote: subject = String(format: tr("Quote for %@"), source.billTo.name)
        case .creditNote(let credited): subject = String(format: tr("Credit note for invoice %@"), credited.number)
        }
        var document = Document(
            pageSetup: PageSetup(paper: formatting.paper,
                                 margins: EdgeInsets(top: 52, left: 56, bottom: 44, right: 56)),
            metadata: DocumentMetadata(title: titledNumber, author: profile.name, subject: subject,
                                       creationDate: invoice.issueDate.startDate(in: TimeZone(identifier: "UTC") ?? .current)))
        document.header = nil
        var footerLeading = profile.name
        if let id = [profile.vatID, profile.taxID].first(where: { !$0.isEmpty }) { footerLeading += " · " + id }
        document.footer = RunningText(leading: .text(String(format: tr("%@ · %@"), footerLeading, titledNumber)),
                                      trailing: .pageNumber)
        // How to pay sits left of the totals, where the eye goes after the amount; only an
        // invoice asks for money, and not a cancelled one or one that owes the client a refund.
        let asksForMoney = source.kind == .invoice && invoice.status != .cancelled && totals.refundDue == nil
        let summary = Block.columns(ColumnSet([.init(width: .fraction(1), asksForMoney ? payment() : []),
                                               .init(width: .fixed(250), totalsBlocks())], gap: 28, spaceAfter: 0))
        document.blocks = [header(), .spacer(26), parties(), .spacer(18), lineTable(), summary] + legalNotes() + notes()
        return document
    }

    // MARK: - Header: seller and invoice facts

    private func header() -> Block {
        var seller: [Block] = []
        if let logo = source.logoURL {
            seller.append(.image(ImageBlock(.file(path: logo.path), maxWidth: 150, maxHeight: 46, spaceBefore: 0, spaceAfter: 12)))
        }
        seller.append(.paragraph(Paragraph(profile.name, style: Self.name)))
        let contact = [profile.printedAddress, profile.email, profile.phone].filter { !$0.isEmpty }.joined(separator: "\n")
        if !contact.isEmpty { seller.append(.paragraph(Paragraph(contact, style: Self.secondary))) }
        let ids = taxIdentifiers(vatID: profile.vatID, taxID: profile.taxID)
        if !ids.isEmpty { seller.append(.paragraph(Paragraph(ids, style: Self.secondary))) }

        var facts: [Block] = [.paragraph(Paragraph(kindTitle, style: Self.title))]
        if let mark = statusMark() {
            facts.append(.paragraph(Paragraph(mark, style: Self.body.withColor(Palette.accent).withAlignment(.trailing)
                .withWeight(.semibold).withSpacing(after: 4))))
        }
        var items: [KeyValueList.Item]
        switch source.kind {
        case .invoice:
            items = [.init(tr("Invoice number"), invoice.number), .init(tr("Issue date"), date(invoice.issueDate)),
                     .init(tr("Due date"), date(invoice.dueDate))]
        case .quote(let validUntil, _):
            items = [.init(tr("Quote number"), invoice.number), .init(tr("Issue date"), date(invoice.issueDate)),
                     .init(tr("Valid until"), date(validUntil))]
        case .creditNote(let credited):
            items = [.init(tr("Credit note number"), invoice.number), .init(tr("Issue date"), date(invoice.issueDate)),
                     .init(tr("For invoice"), credited.number), .init(tr("Invoice date"), date(credited.issueDate))]
        }
        if let start = invoice.deliveryDate {
            if let end = invoice.deliveryEndDate {
                items.append(.init(tr("Delivery period"), String(format: tr("%@ to %@"), date(start), date(end))))
            } else {
                items.append(.init(tr("Delivery date"), date(start)))
            }
        }
        if !invoice.buyerReference.isEmpty { items.append(.init(tr("Your reference"), invoice.buyerReference)) }
        if !invoice.purchaseOrderReference.isEmpty { items.append(.init(tr("Purchase order"), invoice.purchaseOrderReference)) }
        facts.append(.keyValues(KeyValueList(items, placement: .trailing, keyStyle: Self.secondary, valueStyle: Self.body, rowSpacing: 3, spaceBefore: 8, spaceAfter: 0)))
        return .columns(ColumnSet([.init(width: .fraction(1.2), seller), .init(width: .fraction(1), facts)], gap: 32))
    }

    /// Drafts and cancelled invoices say so, so they are never mistaken for the real thing.
    private func statusMark() -> String? {
        switch source.kind {
        case .invoice: break
        case .quote(_, let status):
            switch status {
            case .draft: return tr("Draft")
            case .expired: return tr("Expired")
            case .declined: return tr("Declined")
            case .accepted: return tr("Accepted")
            case .sent: return nil
            }
        case .creditNote(let credited):
            return String(format: tr("Credit note for invoice %@"), credited.number)
        }
        switch invoice.status {
        case .draft: return tr("Draft")
        case .cancelled: return tr("Cancelled")
        case .paid: return tr("Paid")
        case .sent: return nil
        }
    }

    // MARK: - Client and amount due

    private func parties() -> Block {
        var client: [Block] = [.paragraph(Paragraph(tr("BILL TO"), style: Self.label))]
        client.append(.paragraph(Paragraph(source.billTo.name, style: Self.name.withSize(10).withSpacing(after: 2))))
        let details = [source.billTo.printedAddress, source.billTo.email].filter { !$0.isEmpty }.joined(separator: "\n")
        if !details.isEmpty { client.append(.paragraph(Paragraph(details, style: Self.secondary))) }
        let ids = taxIdentifiers(vatID: source.billTo.vatID, taxID: source.billTo.taxID)
        if !ids.isEmpty { client.append(.paragraph(Paragraph(ids, style: Self.secondary))) }

        let due: [Block]
        switch source.kind {
        case .invoice:
            if let refund = totals.refundDue {
                // No due date: the invoice's is for the client's payment, not for this.
                due = [
                    .paragraph(Paragraph(tr("REFUND DUE"), style: Self.label.withAlignment(.trailing))),
                    .paragraph(Paragraph(money(refund), style: Self.amountDue)),
                ]
            } else if invoice.status == .cancelled {
                due = [
                    .paragraph(Paragraph(tr("NOTHING DUE"), style: Self.label.withAlignment(.trailing))),
                    .paragraph(Paragraph(money(totals.balanceDue), style: Self.amountDue)),
                ]
            } else {
                due = [
                    .paragraph(Paragraph(invoice.status == .paid ? tr("PAID IN FULL") : tr("AMOUNT DUE"),
                                         style: Self.label.withAlignment(.trailing))),
                    .paragraph(Paragraph(money(totals.balanceDue), style: Self.amountDue)),
                    .paragraph(Paragraph(String(format: tr("Due %@"), date(invoice.dueDate)),
                                         style: Self.secondary.withAlignment(.trailing))),
                ]
            }
        case .quote(let validUntil, _):
            due = [
                .paragraph(Paragraph(tr("QUOTED TOTAL"), style: Self.label.withAlignment(.trailing))),
                .paragraph(Paragraph(money(totals.total), style: Self.amountDue)),
                .paragraph(Paragraph(String(format: tr("Valid until %@"), date(validUntil)),
                                     style: Self.secondary.withAlignment(.trailing))),
            ]
        case .creditNote:
            // The invoice it credits is named under the title and in the facts beside it.
            due = [
                .paragraph(Paragraph(tr("CREDITED TO YOU"), style: Self.label.withAlignment(.trailing))),
                .paragraph(Paragraph(money(totals.total), style: Self.amountDue)),
            ]
        }
        return .columns(ColumnSet([.init(width: .fraction(1.2), client), .init(width: .fraction(1), due)], gap: 32))
    }

    // MARK: - Lines

    private func lineTable() -> Block {
        let showsUnit = invoice.lines.contains { !$0.unit.isEmpty }
        let showsTax = invoice.lines.contains { $0.taxRate != 0 }
        var columns = [TableColumn(tr("Description"), width: .fraction(1)), TableColumn.numeric(tr("Qty"))]
        if showsUnit { columns.append(TableColumn(tr("Unit"), width: .fit)) }
        columns.append(.numeric(tr("Unit price")))
        if showsTax { columns.append(.numeric(tr("Tax"))) }
        columns.append(.numeric(tr("Amount")))

        let rows = zip(invoice.lines, totals.lineNets).map { line, net -> TableRow in
            var description = line.description
            if let discount = line.discountPercent, discount != 0 {
                description += "\n" + String(format: tr("Less %@ discount"),
                                             formatting.numbers.percentString(from: discount, maximumFractionDigits: 4))
            }
            var cells = [description, formatting.numbers.string(from: line.quantity)]
            if showsUnit { cells.append(line.unit) }
            cells.append(money(line.unitPrice))
            if showsTax { cells.append(formatting.numbers.percentString(from: line.taxRate, maximumFractionDigits: 4)) }
            cells.append(money(net))
            return TableRow(cells)
        }
        let style = TableStyle(bodyText: TextStyle(font: FontDescription(size: 9), lineSpacing: 1.1),
                               headerText: TextStyle(font: FontDescription(size: 7.5, weight: .semibold), color: Palette.secondaryText),
                               cellPadding: EdgeInsets(top: 7, left: 6, bottom: 7, right: 6),
                               ruleColor: Palette.hairline, headerRuleColor: Palette.text, headerRuleWidth: 0.8)
        return .table(Table(columns: columns, rows: rows, style: style, spaceBefore: 0, spaceAfter: 14))
    }

    // MARK: - Totals

    private func totalsBlocks() -> [Block] {
        var items: [KeyValueList.Item] = [.init(tr("Subtotal"), money(totals.subtotal))]
        if !totals.discount.isZero {
            let percent = formatting.numbers.percentString(from: invoice.discountPercent, maximumFractionDigits: 4)
            items.append(.init(String(format: tr("Discount %@"), percent), money(negated(totals.discount))))
            items.append(.init(tr("Net"), money(totals.netTotal)))
        }
        for line in totals.taxLines where line.rate != 0 || totals.taxLines.count > 1 || line.category != .zeroRated {
            let rate = formatting.numbers.percentString(from: line.rate, maximumFractionDigits: 4)
            items.append(.init(line.title(rate: rate, base: money(line.taxableAmount)), money(line.tax)))
        }
        items.append(.init(tr("Total"), money(totals.total), isEmphasized: true))
        var blocks: [Block] = [
            .keyValues(KeyValueList(items, placement: .trailing, width: 250, keyStyle: Self.secondary,
                                    valueStyle: Self.body.withTabularFigures(), rowSpacing: 5, spaceBefore: 0, spaceAfter: 6)),
        ]
        if source.kind == .invoice, !totals.credited.isZero {
            var credited: [KeyValueList.Item] = [.init(tr("Credit notes"), money(negated(totals.credited)))]
            // Payments follow: what the credit leaves of the total, which they are taken from.
            // None: what it leaves is the balance.
            if invoice.payments.isEmpty {
                credited.append(balance(isEmphasized: true))
            } else {
                credited.append(.init(tr("Total after credit notes"), money(totals.totalAfterCredits)))
            }
            blocks.append(.keyValues(KeyValueList(credited, placement: .trailing, width: 250, keyStyle: Self.secondary,
                                                  valueStyle: Self.body.withTabularFigures(), rowSpacing: 5,
                                                  spaceBefore: 4, spaceAfter: 6)))
        }
        if !invoice.payments.isEmpty {
            var paid = invoice.payments.map { payment in
                KeyValueList.Item(String(format: payment.isRefund ? tr("Refunded on %@") : tr("Paid on %@"), date(payment.date)),
                                  money(negated(payment.amount)))
            }
            paid.append(balance(isEmphasized: true))
            blocks.append(.keyValues(KeyValueList(paid, placement: .trailing, width: 250, keyStyle: Self.secondary,
                                                  valueStyle: Self.body.withTabularFigures(), rowSpacing: 5,
                                                  spaceBefore: 4, spaceAfter: 6)))
        }
        return blocks
    }

    // MARK: - Notes and payment

    /// The note the law asks for with each VAT category that is not simply taxed: the
    /// exemption reason, reverse charge, intra-EU supply, export, not subject to VAT. The
    /// e-invoice carries the same words as its exemption reasons.
    private func legalNotes() -> [Block] {
        let notes = invoice.vatCategories.compactMap { category -> String? in
            category == .exempt ? invoice.exemptionReason.trimmingCharacters(in: .whitespacesAndNewlines) : category.legalNote
        }.filter { !$0.isEmpty }
        guard !notes.isEmpty else { return [] }
        return [.spacer(16), .paragraph(Paragraph(tr("VAT"), style: Self.label)),
                .paragraph(Paragraph(notes.joined(separator: "\n"), style: Self.body.withSpacing(after: 4)))]
    }

    private func notes() -> [Block] {
        let text = invoice.notes.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return [] }
        let caption: String
        if case .creditNote = source.kind { caption = tr("REASON") } else { caption = tr("NOTES") }
        return [.spacer(22), .paragraph(Paragraph(caption, style: Self.label)),
                .paragraph(Paragraph(text, style: Self.body.withSpacing(after: 8)))]
    }

    private func payment() -> [Block] {
        var details: [KeyValueList.Item] = []
        if !profile.iban.isEmpty { details.append(.init(tr("IBAN"), grouped(profile.iban))) }
        if !profile.bic.isEmpty { details.append(.init(tr("BIC"), profile.bic.uppercased())) }
        if !profile.bankDetails.isEmpty { details.append(.init(tr("Bank"), profile.bankDetails)) }
        details.append(.init(tr("Reference"), invoice.number))
        let instructions = profile.paymentInstructions.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !instructions.isEmpty || details.count > 1 else { return [] }
        var blocks: [Block] = [.paragraph(Paragraph(tr("PAYMENT"), style: Self.label))]
        if !instructions.isEmpty {
            blocks.append(.paragraph(Paragraph(instructions, style: Self.body.withSpacing(after: 6))))
        }
        blocks.append(.keyValues(KeyValueList(details, keyStyle: Self.secondary, valueStyle: Self.body, rowSpacing: 2,
                                              spaceBefore: 0, spaceAfter: 0)))
        return blocks + paymentCode()
    }

    /// The GiroCode under the bank details, with a line saying what scanning it does. The symbol
    /// lines up with the text above; the quiet zone a scanner needs (4 modules, about 6 pt) is
    /// the page margin at the left, the spacer above, the gap at the right and the space below.
    /// 66 pt (23 mm) keeps a module near 0.5 mm, which phones read at arm's length.
    private func paymentCode() -> [Block] {
        // GiroCode keeps to 331 bytes, what version 13 holds at level M, so encoding cannot fail.
        guard let giroCode = GiroCode(source),
              let code = try? QRCode(bytes: Array(giroCode.payload.utf8), errorCorrection: .medium,
                                     maximumVersion: GiroCode.maximumVersion)
        else { return [] }
        let caption = String(format: tr("Scan with your banking app to pay %@ by bank transfer."), money(giroCode.amount))
        return [.spacer(10), .columns(ColumnSet([
            .init(width: .fixed(66), [.qrCode(QRCodeBlock(code, side: 66, quietZone: 0))]),
            .init(width: .fraction(1), [.paragraph(Paragraph(caption, style: Self.secondary))]),
        ], gap: 12, spaceAfter: 0))]
    }

    // MARK: - Formatting

    private func taxIdentifiers(vatID: String, taxID: String) -> String {
        var lines: [String] = []
        if !vatID.isEmpty { lines.append(String(format: tr("VAT ID %@"), vatID)) }
        if !taxID.isEmpty { lines.append(String(format: tr("Tax ID %@"), taxID)) }
        return lines.joined(separator: "\n")
    }

    private func money(_ amount: Money) -> String {
        formatting.money.string(from: amount)
    }

    /// The balance's line under the totals: what is still due, or what goes back to the client.
    private func balance(isEmphasized: Bool) -> KeyValueList.Item {
        if let refund = totals.refundDue { return .init(tr("Refund due"), money(refund), isEmphasized: isEmphasized) }
        return .init(tr("Balance due"), money(totals.balanceDue), isEmphasized: isEmphasized)
    }

    private func negated(_ amount: Money) -> Money {
        (try? amount.negated()) ?? amount
    }

    private func date(_ day: CalendarDay) -> String {
        day.formatted(.medium, locale: formatting.dateLocale)
    }

    /// IBANs are read in groups of four.
    private func grouped(_ iban: String) -> String {
        let compact = Array(iban.filter { !$0.isWhitespace }.uppercased())
        return stride(from: 0, to: compact.count, by: 4).map { String(compact[$0..<min($0 + 4, compact.count)]) }
            .joined(separator: " ")
    }
}

private extension TextStyle {
    func withTabularFigures() -> TextStyle {
        var copy = self
        copy.tabularFigures = true
        return copy
    }
}
