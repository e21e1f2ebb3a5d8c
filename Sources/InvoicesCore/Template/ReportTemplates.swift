import BillfoldCore
import Documents
import Foundation
import Graphics

/// The receivables report and the revenue summary as documents: a table per currency, money
/// written the user's way, landscape so the ageing columns have room.
public enum ReportTemplates {
    public static func document(_ report: ReceivablesReport, businessName: String,
                                formatting: InvoiceTemplate.Formatting = .init(), creationDate: Date = Date()) -> Document {
        let money = formatting.money
        let title = tr("Receivables")
        let asOf = String(format: tr("As of %@"), report.asOf.formatted(.medium, locale: formatting.dateLocale))
        var document = frame(title: title, subtitle: asOf, footer: asOf, businessName: businessName, formatting: formatting,
                             orientation: .landscape, creationDate: creationDate)
        document.blocks.append(.text(tr("Open amounts of sent invoices issued by that day, by days past their due date. Payments received after the day are not counted yet."),
                                     style: .small))
        guard !report.isEmpty else {
            document.blocks.append(.text(tr("Nothing was owed on that day.")))
            return document
        }
        let columns = [TableColumn(tr("Client"))] + AgeingBucket.allCases.map { TableColumn.numeric($0.title) }
            + [TableColumn.numeric(tr("Total"))]
        for total in report.totals {
            var rows = report.rows(in: total.currency).map { row in
                TableRow([row.clientName] + row.buckets.map { money.string(from: $0) } + [money.string(from: row.total)])
            }
            rows.append(TableRow([tr("Total")] + total.buckets.map { money.string(from: $0) } + [money.string(from: total.total)],
                                 isEmphasized: true))
            document.blocks.append(.heading(Heading(total.currency.code + " – " + total.currency.localizedName(), level: 2)))
            document.blocks.append(.table(Table(columns: columns, rows: rows, style: .zebra)))
        }
        return document
    }

    public static func document(_ summary: RevenueSummary, businessName: String,
                                formatting: InvoiceTemplate.Formatting = .init(), creationDate: Date = Date()) -> Document {
        let money = formatting.money
        let title = String(format: tr("Revenue %d"), summary.year)
        var document = frame(title: title, subtitle: tr("By issue date: every sent or paid invoice counts in the month it was issued, paid or not."),
                             footer: tr("Revenue by issue date (accrual)"), businessName: businessName, formatting: formatting,
                             orientation: .portrait, creationDate: creationDate)
        guard !summary.isEmpty else {
            document.blocks.append(.text(tr("No invoice was sent for this year.")))
            return document
        }
        let months = monthNames(locale: formatting.dateLocale)
        for (index, part) in summary.currencies.enumerated() {
            // Each currency on its own pages, as each goes on its own line of the tax return.
            if index > 0 { document.blocks.append(.pageBreak) }
            var rows = part.months.enumerated().map { index, amounts in
                TableRow([months[index], money.string(from: amounts.net), money.string(from: amounts.tax),
                          money.string(from: amounts.gross), formatting.numbers.string(from: amounts.invoiceCount)])
            }
            rows.append(TableRow([tr("Year"), money.string(from: part.year.net), money.string(from: part.year.tax),
                                  money.string(from: part.year.gross), formatting.numbers.string(from: part.year.invoiceCount)],
                                 isEmphasized: true))
            document.blocks.append(.heading(Heading(part.currency.code + " – " + part.currency.localizedName(), level: 2)))
            document.blocks.append(.table(Table(
                columns: [TableColumn(tr("Month")), .numeric(tr("Net")), .numeric(tr("Tax")), .numeric(tr("Gross")),
                          .numeric(tr("Invoices"))],
                rows: rows, style: .zebra)))
            let taxRows = part.taxRates.map { rate in
                TableRow([RevenueSummary.title(of: rate, numbers: formatting.numbers), money.string(from: rate.taxable),
                          money.string(from: rate.tax)])
            }
            document.blocks.append(.keepTogether([
                .heading(Heading(tr("Tax per rate"), level: 3)),
                .table(Table(columns: [TableColumn(tr("Tax rate")), .numeric(tr("Taxable amount")), .numeric(tr("Tax"))],
                             rows: taxRows, style: .ruled)),
            ]))
        }
        return document
    }

    /// January to December in the user's language.
    public static func monthNames(locale: Locale) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = locale
        let names: [String]? = formatter.standaloneMonthSymbols
        guard let names, names.count == 12 else { return (1...12).map(String.init) }
        return names
    }

    private static func frame(title: String, subtitle: String, footer: String, businessName: String,
                              formatting: InvoiceTemplate.Formatting,
                              orientation: PageOrientation, creationDate: Date) -> Document {
        var document = Document(
            pageSetup: PageSetup(paper: formatting.paper, orientation: orientation),
            metadata: DocumentMetadata(title: title + " – " + subtitle, author: businessName, subject: title,
                                       creationDate: creationDate),
            header: RunningText(leading: businessName.isEmpty ? nil : .text(businessName), trailing: .text(title)),
            footer: RunningText(leading: .text(footer), trailing: .pageNumber))
        document.blocks = [
            .paragraph(Paragraph(title, style: .title)),
            .paragraph(Paragraph(subtitle, style: .body)),
        ]
        return document
    }
}

extension RevenueSummary {
    /// "19 %" for a rate, the category's name for the others ("Reverse charge").
    public static func title(of rate: TaxRate, numbers: NumberFormatting) -> String {
        let percent = numbers.percentString(from: rate.rate, maximumFractionDigits: 3)
        return rate.category == .standard || rate.category == .zeroRated
            ? percent : rate.category.title
    }
}
