// What the invoices benchmarks share: a seeded generator and the fill of a database with
// invoices from a thousand clients, some of them called Acme so that a search narrows the list.
import BillfoldCore
import Foundation
import InvoicesCore
import Storage

public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public let companyWords = ["Nord", "Blue", "Atlas", "Cedar", "Harbor", "Quartz", "Lumen", "Vertex", "Maple", "Orbit",
                    "Summit", "Pixel", "Granite", "Willow", "Falcon", "Nimbus", "Copper", "Juniper", "Beacon", "Sable"]
public let companyKinds = ["GmbH", "Ltd", "Studio", "Labs", "& Co", "Partners", "Design", "Media", "Works", "Group"]
public let workItems = ["Website redesign", "Logo design, three concepts", "Hosting and maintenance", "Consulting",
                 "Copywriting for the spring campaign", "Photography, half day", "Workshop facilitation",
                 "Illustration for the annual report", "Database migration", "Accessibility audit",
                 "Translation into German", "Brand guidelines", "Newsletter template", "Travel expenses",
                 "Video editing", "Social media assets", "Server setup", "Code review", "User research interviews",
                 "Icon set, 24 icons"]

public func fill(_ repository: InvoiceRepository, invoices count: Int) throws {
    var random = SplitMix64(seed: 42)
    var profile = BusinessProfile(name: "Studio Nord", address: "Hafenstraße 1\n20457 Hamburg", defaultCurrency: .eur,
                                  paymentTermsDays: 14, defaultTaxRate: 19)
    profile.paymentInstructions = "Please transfer within 14 days."
    try repository.saveProfile(profile)
    let currencies: [Currency] = [.eur, .eur, .eur, .usd, .gbp, .chf, .jpy]
    var clients: [Client] = []
    try repository.database.transaction {
        // A few clients called Acme, so that typing "acme" narrows the list as a real search would.
        for index in 0..<1_000 {
            let name = index % 200 == 0
                ? "Acme \(companyKinds[index / 200 % companyKinds.count])"
                : "\(companyWords.randomElement(using: &random)!) \(companyWords.randomElement(using: &random)!) \(companyKinds.randomElement(using: &random)!)"
            clients.append(try repository.save(Client(name: name, email: "billing\(index)@example.com",
                                                      address: "\(index) Market Street\nSpringfield",
                                                      currency: currencies.randomElement(using: &random)!)))
        }
    }
    let start = CalendarDay(year: 2015, month: 1, day: 1)!
    let batch = 5_000
    for first in stride(from: 0, to: count, by: batch) {
        try repository.database.transaction {
            for index in first..<min(count, first + batch) {
                let client = clients.randomElement(using: &random)!
                let issued = start.adding(days: index * 3_650 / count)
                let lines = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                    LineItem(description: workItems.randomElement(using: &random)!,
                             quantity: Decimal(Int.random(in: 1...40, using: &random)) / 2, unit: "h",
                             unitPrice: Money(minorUnits: Int64.random(in: 1...2_000, using: &random)
                                                 * client.currency.minorUnitsPerMajorUnit, currency: client.currency),
                             taxRate: [0, 7, 19].randomElement(using: &random)!)
                }
                var invoice = Invoice(clientID: client.id, issueDate: issued, dueDate: issued.adding(days: 14),
                                      currency: client.currency, lines: lines)
                switch Int.random(in: 0..<10, using: &random) {
                case 0:
                    break
                case 1:
                    try invoice.markSent(on: issued)
                case 2:
                    // Cancelled by a credit note, as a sent invoice is.
                    try invoice.markSent(on: issued)
                    let sent = try repository.save(invoice)
                    try repository.issue(CreditNote.full(of: sent, after: [], on: issued.adding(days: 5)))
                    continue
                default:
                    try invoice.markSent(on: issued)
                    // Recent invoices are more often still open.
                    if index < count * 97 / 100 || Bool.random(using: &random) {
                        try invoice.markPaid(on: issued.adding(days: 10))
                    }
                }
                try repository.save(invoice)
            }
        }
    }
}

/// Fills `count` quotes over the clients already there, in every status, some converted.
public func fillQuotes(_ repository: InvoiceRepository, quotes count: Int) throws {
    var random = SplitMix64(seed: 43)
    let clients = try repository.clients()
    let start = CalendarDay(year: 2015, month: 1, day: 1)!
    let batch = 5_000
    for first in stride(from: 0, to: count, by: batch) {
        try repository.database.transaction {
            for index in first..<min(count, first + batch) {
                let client = clients.randomElement(using: &random)!
                let issued = start.adding(days: index * 3_650 / count)
                let lines = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                    LineItem(description: workItems.randomElement(using: &random)!,
                             quantity: Decimal(Int.random(in: 1...40, using: &random)) / 2, unit: "h",
                             unitPrice: Money(minorUnits: Int64.random(in: 1...2_000, using: &random)
                                                 * client.currency.minorUnitsPerMajorUnit, currency: client.currency),
                             taxRate: [0, 7, 19].randomElement(using: &random)!)
                }
                var quote = Quote(clientID: client.id, issueDate: issued, validUntil: issued.adding(days: 30),
                                  currency: client.currency, lines: lines)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: break
                case 1: try quote.markSent(on: issued)
                case 2: try quote.markSent(on: issued); try quote.decline()
                default: try quote.markSent(on: issued); try quote.accept(today: issued)
                }
                try repository.save(quote)
            }
        }
    }
}

/// Opens `path` (a new or filled file) and fills it with `count` invoices unless it holds them
/// already. Returns the milliseconds the fill took, or nil when it was reused.
public func openFilled(_ database: Database, invoices count: Int) throws -> (InvoiceRepository, Double?) {
    let repository = try InvoiceRepository(database: database)
    let existing = try repository.invoiceCount()
    if existing == count { return (repository, nil) }
    guard existing == 0 else { throw FillError.otherCount(existing) }
    let start = DispatchTime.now().uptimeNanoseconds
    try fill(repository, invoices: count)
    try database.executeScript("PRAGMA optimize; ANALYZE")
    return (repository, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}

public enum FillError: LocalizedError {
    case otherCount(Int)

    public var errorDescription: String? {
        switch self {
        case .otherCount(let count):
            "The database holds \(count) invoices, another number than asked for; pass a new file or the same --invoices."
        }
    }
}

/// The 20-line invoice the PDF target is about: some long descriptions that wrap, two tax rates.
public func twentyLineInvoice(clientID: ClientID?, on day: CalendarDay) -> Invoice {
    invoice(lineCount: 20, clientID: clientID, on: day)
}

/// An invoice of `lineCount` lines like the 20-line one: every fourth description wraps.
public func invoice(lineCount: Int, clientID: ClientID?, on day: CalendarDay) -> Invoice {
    let lines = (0..<lineCount).map { index in
        LineItem(description: index % 4 == 0 ? "\(workItems[index % workItems.count]) — including review rounds, a written summary of the findings and two follow-up calls" : workItems[index % workItems.count],
                 quantity: Decimal(index % 7 + 1), unit: "h", unitPrice: Money(minorUnits: 9_500, currency: .eur),
                 taxRate: index % 5 == 0 ? 7 : 19)
    }
    var invoice = Invoice(clientID: clientID, issueDate: day, dueDate: day.adding(days: 14), currency: .eur, lines: lines)
    invoice.notes = "Thank you for your business."
    return invoice
}

/// One row of a benchmark table.
public struct Line {
    public init(operation: String, rows: Int, milliseconds: Double, targetMilliseconds: Double?) {
        self.operation = operation
        self.rows = rows
        self.milliseconds = milliseconds
        self.targetMilliseconds = targetMilliseconds
    }

    public let operation: String
    public let rows: Int
    public let milliseconds: Double
    public let targetMilliseconds: Double?
}

/// Prints rows with their targets and whether each was met.
public func printTable(_ lines: [Line]) {
    func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
    let width = max(40, lines.map(\.operation.count).max() ?? 0)
    print(pad("operation", width) + "  " + pad("rows", 8, right: true) + "  " + pad("ms", 9, right: true)
          + "  " + pad("target", 9, right: true) + "  met")
    print(String(repeating: "-", count: width + 40))
    for line in lines {
        let target = line.targetMilliseconds.map { "< " + String(format: "%.0f", $0) } ?? ""
        let met = line.targetMilliseconds.map { line.milliseconds < $0 ? "yes" : "NO" } ?? ""
        print(pad(line.operation, width) + "  " + pad(String(line.rows), 8, right: true) + "  "
              + pad(String(format: "%.2f", line.milliseconds), 9, right: true) + "  " + pad(target, 9, right: true) + "  " + met)
    }
}

/// A 1 000-line invoice with the seller and client details an EN 16931 e-invoice needs, as a
/// document: two VAT rates, line discounts, an invoice discount and a partial payment.
public func thousandLineEInvoice(on day: CalendarDay) throws -> InvoiceDocument {
    let profile = BusinessProfile(name: "Studio Nord", address: "Hafenstraße 1", email: "hello@studio-nord.example",
                                  phone: "+49 40 1234567", iban: "DE89370400440532013000", bic: "COBADEFFXXX",
                                  defaultCurrency: .eur, defaultTaxRate: 19, vatID: "DE123456789", postcode: "20457",
                                  city: "Hamburg", countryCode: "DE", contactName: "Jana Nord")
    let billTo = BillTo(name: "Kunde GmbH", address: "Marktplatz 5", email: "buchhaltung@kunde.example",
                        vatID: "DE987654321", postcode: "50667", city: "Köln", countryCode: "DE")
    let lines = (0..<1000).map { (index: Int) -> LineItem in
        let description = workItems[index % workItems.count] + " — part " + String(index + 1)
        let price = Money(minorUnits: Int64(1_000 + index * 37), currency: .eur)
        let rate: Decimal = index % 5 == 0 ? 7 : 19
        let discount: Decimal? = index % 9 == 0 ? 10 : nil
        return LineItem(description: description, quantity: Decimal(index % 7 + 1), unit: "h", unitPrice: price,
                        taxRate: rate, discountPercent: discount)
    }
    var invoice = Invoice(number: "RE-1000", clientID: ClientID(1), issueDate: day, dueDate: day.adding(days: 14),
                          currency: .eur, lines: lines, discountPercent: 3)
    invoice.buyerReference = "PROJ-1000"
    try invoice.markSent(on: day)
    try invoice.recordPayment(Money(minorUnits: 1_000_000, currency: .eur), on: day)
    return InvoiceDocument(profile: profile, invoice: invoice, billTo: billTo, totals: try invoice.totals(), logoURL: nil)
}
