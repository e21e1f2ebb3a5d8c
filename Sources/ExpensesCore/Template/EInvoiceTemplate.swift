import BillfoldCore
import Documents
import Foundation

/// A supplier's e-invoice laid out for a person to read: what a bare XML receipt shows in the
/// receipt viewer and on its page of the reimbursement report.
public struct EInvoiceTemplate {
    let invoice: EInvoice
    var money = MoneyFormatter()
    var numbers = NumberFormatting()
    var locale = UserLocale.time

    public init(invoice: EInvoice, money: MoneyFormatter = MoneyFormatter(), numbers: NumberFormatting = NumberFormatting(),
                locale: Locale = UserLocale.time) {
        self.invoice = invoice
        self.money = money
        self.numbers = numbers
        self.locale = locale
    }

    /// The invoice on its own pages, for the receipt viewer.
    public func document(pageSetup: PageSetup = PageSetup()) -> Document {
        let title = String(format: tr("Invoice %@"), invoice.number)
        var document = Document(pageSetup: pageSetup,
                                metadata: DocumentMetadata(title: title, author: invoice.sellerName),
                                footer: RunningText(leading: .text(invoice.sellerName), trailing: .pageNumber))
        document.blocks = [.heading(Heading(title, level: 1))] + blocks()
        return document
    }

    /// Parties and dates, the lines, the VAT per rate and the totals.
    func blocks() -> [Block] {
        var facts: [KeyValueList.Item] = [.init(tr("Seller"), invoice.sellerName)]
        if let vatID = invoice.sellerVATID { facts.append(.init(tr("Seller’s VAT ID"), vatID)) }
        if !invoice.buyerName.isEmpty { facts.append(.init(tr("Buyer"), invoice.buyerName)) }
        facts.append(.init(tr("Invoice number"), invoice.number))
        facts.append(.init(tr("Issue date"), invoice.issueDate.formatted(.medium, locale: locale)))
        if let due = invoice.dueDate { facts.append(.init(tr("Due date"), due.formatted(.medium, locale: locale))) }
        facts.append(.init(tr("Currency"), invoice.currency.code + " – " + invoice.currency.localizedName()))

        var blocks: [Block] = [
            .paragraph(Paragraph(String(format: tr("Electronic invoice (%@), laid out by Billfold from its XML."),
                                        invoice.syntax.displayName), style: .small)),
            .keyValues(KeyValueList(facts, spaceAfter: 12)),
        ]
        if !invoice.lines.isEmpty {
            let rows = invoice.lines.map { line in
                TableRow([line.name,
                          line.quantity.map { quantity($0, unitCode: line.unitCode) } ?? "",
                          line.vatRate.map { numbers.percentString(from: $0, maximumFractionDigits: 3) } ?? "",
                          money.string(from: line.netAmount)])
            }
            blocks.append(.table(Table(columns: [TableColumn(tr("Item")), .numeric(tr("Quantity")), .numeric(tr("VAT")),
                                                 .numeric(tr("Net amount"))],
                                       rows: rows, style: .zebra)))
        }
        blocks.append(.heading(Heading(tr("VAT breakdown"), level: 3)))
        blocks.append(.table(Table(
            columns: [TableColumn(tr("Category")), .numeric(tr("Rate")), .numeric(tr("Taxable amount")), .numeric(tr("VAT"))],
            rows: invoice.vatBreakdown.map { line in
                TableRow([line.localizedCategory, line.rate.map { numbers.percentString(from: $0, maximumFractionDigits: 3) } ?? "",
                          money.string(from: line.taxableAmount), money.string(from: line.taxAmount)])
            })))

        var totals: [KeyValueList.Item] = [
            .init(tr("Total without VAT"), money.string(from: invoice.netTotal)),
            .init(tr("VAT"), money.string(from: invoice.vatTotal)),
            .init(tr("Total"), money.string(from: invoice.grandTotal), isEmphasized: true),
        ]
        if let prepaid = invoice.prepaid, !prepaid.isZero {
            totals.append(.init(tr("Paid in advance"), money.string(from: prepaid)))
        }
        if invoice.amountDue != invoice.grandTotal {
            totals.append(.init(tr("Amount due"), money.string(from: invoice.amountDue), isEmphasized: true))
        }
        blocks.append(.keyValues(KeyValueList(totals, placement: .trailing, spaceBefore: 12)))
        return blocks
    }

    /// "20", "3 h", "1.5 kg": pieces need no unit; other UN/ECE Rec 20 codes become their symbol,
    /// and a code without a common symbol is shown as it is.
    private func quantity(_ value: Decimal, unitCode: String) -> String {
        let number = numbers.string(from: value, maximumFractionDigits: 4)
        let symbol = Self.unitSymbols[unitCode] ?? unitCode
        return symbol.isEmpty ? number : number + " " + symbol
    }

    private static let unitSymbols = [
        "C62": "", "H87": "", "EA": "", "XPP": "", "HUR": "h", "MIN": "min", "KGM": "kg", "GRM": "g",
        "MTR": "m", "KMT": "km", "LTR": "l", "MTK": "m²", "MTQ": "m³", "KWH": "kWh",
    ]
}
