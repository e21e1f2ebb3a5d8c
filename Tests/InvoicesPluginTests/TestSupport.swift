import BillfoldCore
import Foundation
import Plans
import Storage
@testable import InvoicesCore
@testable import InvoicesPlugin

/// A directory under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("billfold-invoices-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

/// An amount from its decimal text: `money("12.34")` is 12.34 EUR.
func money(_ text: String, _ currency: Currency = .eur) -> Money {
    try! Money(decimal(text), currency: currency)
}

func decimal(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

func day(_ text: String) -> CalendarDay {
    CalendarDay(isoString: text)!
}

func line(_ description: String = "Work", quantity: String = "1", price: String, rate: String = "0",
          discount: String? = nil, currency: Currency = .eur, unit: String = "") -> LineItem {
    LineItem(description: description, quantity: decimal(quantity), unit: unit, unitPrice: money(price, currency),
             taxRate: decimal(rate), discountPercent: discount.map(decimal))
}

/// A repository over a fresh in-memory database, with a saved profile and logos in a temporary directory.
struct Fixture {
    let directory: TemporaryDirectory
    let database: Database
    let repository: InvoiceRepository

    init(pattern: String = InvoiceNumberPattern.defaultPattern) throws {
        directory = try TemporaryDirectory()
        database = try Database.inMemory()
        repository = try InvoiceRepository(database: database,
                                           logos: LogoStore(directory: directory.url.appendingPathComponent("logos")))
        var profile = BusinessProfile(name: "Studio Nord", address: "Hafenstraße 1\n20457 Hamburg",
                                      email: "hello@studio-nord.example", defaultCurrency: .eur, paymentTermsDays: 14,
                                      defaultTaxRate: 19, numberPattern: pattern)
        profile.paymentInstructions = "Please transfer to the account below."
        try repository.saveProfile(profile)
    }

    @discardableResult
    func client(_ name: String, currency: Currency = .eur, terms: Int? = nil) throws -> Client {
        try repository.save(Client(name: name, email: "", currency: currency, paymentTermsDays: terms))
    }

    /// Saves a draft for `client` with `lines`, issued on `issued` and due `terms` days later.
    @discardableResult
    func invoice(for client: Client, issued: String = "2024-03-01", terms: Int = 14, lines: [LineItem],
                 number: String = "", discount: String = "0") throws -> Invoice {
        var invoice = Invoice(number: number, clientID: client.id, issueDate: day(issued),
                              dueDate: day(issued).adding(days: terms), currency: client.currency, lines: lines,
                              discountPercent: decimal(discount))
        invoice = try repository.save(invoice)
        return invoice
    }

    /// Saves it, marks it sent on its issue date and saves again.
    @discardableResult
    func sentInvoice(for client: Client, issued: String = "2024-03-01", terms: Int = 14, lines: [LineItem]) throws -> Invoice {
        var invoice = try self.invoice(for: client, issued: issued, terms: terms, lines: lines)
        try invoice.markSent(on: invoice.issueDate)
        return try repository.save(invoice)
    }
}

extension InvoicePlan {
    /// Billfold Pro, for tests of what it unlocks.
    static let pro = InvoicePlan(status: EntitlementStatus(tier: .pro, features: Set(Feature.allCases), license: nil,
                                                           condition: .active))
}
