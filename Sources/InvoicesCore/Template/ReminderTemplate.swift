import BillfoldCore
import Documents
import Foundation
import Graphics

/// A reminder letter for an overdue invoice: the seller's letterhead, the client, the level as
/// its title, a few sentences, the open invoice, the reminders before it, the fee, the interest,
/// the total to pay and the new deadline, and how to pay. Laid out like the invoice, so the two
/// read as one business's papers.
public enum ReminderTemplate {
    public static func document(_ source: ReminderDocument,
                                formatting: InvoiceTemplate.Formatting = .init()) throws(MoneyError) -> Document {
        try ReminderLetter(source: source, formatting: formatting).document()
    }
}

/// Writes reminder PDFs.
public enum ReminderPDF {
    /// The PDF's bytes. Run it off the main actor.
    public static func render(_ source: ReminderDocument, formatting: InvoiceTemplate.Formatting = .init()) throws -> RenderedPDF {
        try ReminderTemplate.document(source, formatting: formatting).renderPDF()
    }

    /// "<invoice number> <level>.pdf", e.g. "INV-2027-0003 First Dunning Notice.pdf".
    public static func suggestedFileName(for reminder: Reminder, invoice: Invoice) -> String {
        let invoiceName = InvoicePDF.suggestedFileName(for: invoice).dropLast(4)
        return invoiceName + " " + reminder.level.title + ".pdf"
    }
}

private struct ReminderLetter {
    let source: ReminderDocument
    let formatting: InvoiceTemplate.Formatting

    private var reminder: Reminder { source.reminder }
    private var invoice: Invoice { source.invoice }
    private var profile: BusinessProfile { source.profile }

    private static let label = TextStyle(font: FontDescription(size: 7.5, weight: .semibold), color: Palette.tertiaryText,
                                         spaceAfter: 3)
    private static let body = TextStyle(font: FontDescription(size: 9.5), lineSpacing: 1.2, spaceAfter: 8)
    private static let secondary = TextStyle(font: FontDescription(size: 9), color: Palette.secondaryText, lineSpacing: 1.1,
                                             spaceAfter: 0)
    private static let name = TextStyle(font: FontDescription(size: 11, weight: .semibold), spaceAfter: 3)
    private static let title = TextStyle(font: FontDescription(size: 20, weight: .semibold), spaceAfter: 10)
    private static let amount = TextStyle(font: FontDescription(size: 9), tabularFigures: true, spaceAfter: 0)

    func document() throws(MoneyError) -> Document {
        var document = Document(
            pageSetup: PageSetup(paper: formatting.paper, margins: EdgeInsets(top: 52, left: 56, bottom: 44, right: 56)),
            metadata: DocumentMetadata(title: String(format: tr("%@ for invoice %@"), reminder.level.title, invoice.number),
                                       author: profile.name,
                                       subject: String(format: tr("Reminder to %@"), source.billTo.name),
                                       creationDate: reminder.date.startDate(in: TimeZone(identifier: "UTC") ?? .current)))
        let subject = String(format: tr("%@ for invoice %@"), reminder.level.title, invoice.number)
        // Before a business profile is filled in there is no name to put first.
        let footer = profile.name.isEmpty ? subject : String(format: tr("%@ · %@"), profile.name, subject)
        document.footer = RunningText(leading: .text(footer), trailing: .pageNumber)
        var blocks: [Block] = [letterhead(), .spacer(28), .paragraph(Paragraph(reminder.level.title, style: Self.title))]
        blocks.append(.paragraph(Paragraph(letterText(), style: Self.body)))
        blocks.append(.spacer(6))
        blocks.append(openItems())
        blocks += previousReminders()
        blocks += [.spacer(10), try amounts(), .spacer(16)]
        blocks += closing()
        blocks += payment()
        document.blocks = blocks
        return document
    }

    // MARK: - Parts

    private func letterhead() -> Block {
        var seller: [Block] = []
        if let logo = source.logoURL {
            seller.append(.image(ImageBlock(.file(path: logo.path), maxWidth: 150, maxHeight: 46, spaceBefore: 0, spaceAfter: 12)))
        }
        seller.append(.paragraph(Paragraph(profile.name, style: Self.name)))
        let contact = [profile.printedAddress, profile.email, profile.phone].filter { !$0.isEmpty }.joined(separator: "\n")
        if !contact.isEmpty { seller.append(.paragraph(Paragraph(contact, style: Self.secondary))) }

        var client: [Block] = [.paragraph(Paragraph(tr("TO"), style: Self.label)),
                               .paragraph(Paragraph(source.billTo.name, style: Self.name.withSize(10).withSpacing(after: 2)))]
        let address = source.billTo.printedAddress
        if !address.isEmpty { client.append(.paragraph(Paragraph(address, style: Self.secondary))) }
        client.append(.keyValues(KeyValueList([.init(tr("Date"), date(reminder.date)),
                                               .init(tr("Invoice"), invoice.number)],
                                              keyStyle: Self.secondary, valueStyle: Self.secondary.withColor(Palette.text),
                                              rowSpacing: 2, spaceBefore: 12, spaceAfter: 0)))
        return .columns(ColumnSet([.init(width: .fraction(1.2), seller), .init(width: .fraction(1), client)], gap: 32))
    }

    private func letterText() -> String {
        let issued = date(invoice.issueDate)
        let due = date(invoice.dueDate)
        let deadline = date(reminder.deadline)
        switch reminder.level {
        case .friendly:
            return String(format: tr("Our invoice %@ of %@ was due on %@ and we have not yet received your payment. Perhaps it has escaped your attention. Please pay the amount below by %@. If you have already paid, thank you, and please disregard this letter."),
                          invoice.number, issued, due, deadline)
        case .first:
            return String(format: tr("Invoice %@ of %@, due on %@, is still unpaid. Please pay the total below by %@."),
                          invoice.number, issued, due, deadline)
        case .second:
            return String(format: tr("Despite our earlier reminders, invoice %@ of %@, due on %@, is still unpaid. We ask you to pay the total below by %@ at the latest."),
                          invoice.number, issued, due, deadline)
        }
    }

    private func openItems() -> Block {
        let columns = [TableColumn(tr("Invoice"), width: .fraction(1)), TableColumn(tr("Issue date"), width: .fit),
                       TableColumn(tr("Due date"), width: .fit), .numeric(tr("Days overdue")), .numeric(tr("Open amount"))]
        let overdue = max(0, invoice.dueDate.days(to: reminder.date))
        let row = TableRow([invoice.number, date(invoice.issueDate), date(invoice.dueDate),
                            formatting.numbers.string(from: overdue), money(reminder.openAmount)])
        return .table(Table(columns: columns, rows: [row], style: tableStyle, spaceBefore: 0, spaceAfter: 8))
    }

    private func previousReminders() -> [Block] {
        guard !source.previous.isEmpty else { return [] }
        let columns = [TableColumn(tr("Earlier reminders"), width: .fraction(1)), TableColumn(tr("Date"), width: .fit),
                       TableColumn(tr("Pay by"), width: .fit), .numeric(tr("Fee"))]
        let rows = source.previous.map { earlier in
            TableRow([earlier.level.title, date(earlier.date), date(earlier.deadline), money(earlier.fee)])
        }
        return [.spacer(8), .table(Table(columns: columns, rows: rows, style: tableStyle, spaceBefore: 0, spaceAfter: 8))]
    }

    private func amounts() throws(MoneyError) -> Block {
        var items: [KeyValueList.Item] = [.init(tr("Open amount"), money(reminder.openAmount))]
        let fees = try source.fees()
        if fees.isPositive {
            items.append(.init(source.previous.contains { $0.fee.isPositive } ? tr("Reminder fees") : tr("Reminder fee"), money(fees)))
        }
        if reminder.interest.isPositive {
            let rate = formatting.numbers.percentString(from: reminder.interestRate, maximumFractionDigits: 4)
            let days = max(0, invoice.dueDate.days(to: reminder.date))
            let label = String(format: trn("Interest at %@ a year for %d day", "Interest at %@ a year for %d days", days), rate, days)
            items.append(.init(label, money(reminder.interest)))
        }
        items.append(.init(tr("Total to pay"), money(try source.totalToPay()), isEmphasized: true))
        items.append(.init(tr("Pay by"), date(reminder.deadline), isEmphasized: true))
        return .keyValues(KeyValueList(items, placement: .trailing, width: 280, keyStyle: Self.secondary,
                                       valueStyle: Self.amount, rowSpacing: 5, spaceBefore: 0, spaceAfter: 0))
    }

    private func closing() -> [Block] {
        var text = tr("Kind regards")
        if !profile.name.isEmpty { text += "\n" + profile.name }
        var blocks: [Block] = []
        if reminder.interest.isPositive {
            blocks.append(.paragraph(Paragraph(tr("Interest is charged for each day after the due date up to the date of this letter, counting 365 days a year."),
                                               style: Self.secondary.withSpacing(after: 10))))
        }
        blocks.append(.paragraph(Paragraph(text, style: Self.body)))
        return blocks
    }

    private func payment() -> [Block] {
        var details: [KeyValueList.Item] = []
        if !profile.iban.isEmpty { details.append(.init(tr("IBAN"), profile.iban)) }
        if !profile.bic.isEmpty { details.append(.init(tr("BIC"), profile.bic.uppercased())) }
        if !profile.bankDetails.isEmpty { details.append(.init(tr("Bank"), profile.bankDetails)) }
        details.append(.init(tr("Reference"), invoice.number))
        return [.spacer(12), .paragraph(Paragraph(tr("PAYMENT"), style: Self.label)),
                .keyValues(KeyValueList(details, keyStyle: Self.secondary, valueStyle: Self.secondary.withColor(Palette.text),
                                        rowSpacing: 2, spaceBefore: 0, spaceAfter: 0))]
    }

    // MARK: - Formatting

    private var tableStyle: TableStyle {
        TableStyle(bodyText: TextStyle(font: FontDescription(size: 9), lineSpacing: 1.1),
                   headerText: TextStyle(font: FontDescription(size: 7.5, weight: .semibold), color: Palette.secondaryText),
                   cellPadding: EdgeInsets(top: 6, left: 6, bottom: 6, right: 6),
                   ruleColor: Palette.hairline, headerRuleColor: Palette.text, headerRuleWidth: 0.8)
    }

    private func money(_ amount: Money) -> String { formatting.money.string(from: amount) }

    private func date(_ day: CalendarDay) -> String { day.formatted(.medium, locale: formatting.dateLocale) }
}
