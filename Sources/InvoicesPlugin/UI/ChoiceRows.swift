import BillfoldCore
import Foundation
import GtkKit
import InvoicesCore

/// A combo row choosing a country, by its name in the user's language, or none yet.
@MainActor
final class CountryRow {
    let row: ComboRow
    private let codes = [""] + Country.codes

    init(title: String) {
        row = ComboRow(title: title, choices: [tr("Not chosen")] + Country.codes.map(Country.name(of:)))
    }

    /// ISO 3166-1 alpha-2, or empty.
    var code: String {
        get { row.selectedIndex.map { codes[$0] } ?? "" }
        set { row.selectedIndex = codes.firstIndex(of: newValue) ?? 0 }
    }
}

/// A combo row choosing a VAT category by the name a freelancer knows it by.
@MainActor
final class VATCategoryRow {
    let row: ComboRow
    private let categories = VATCategory.allCases

    init(title: String) {
        row = ComboRow(title: title, choices: VATCategory.allCases.map(\.title))
    }

    var category: VATCategory {
        get { row.selectedIndex.map { categories[$0] } ?? .standard }
        set { row.selectedIndex = categories.firstIndex(of: newValue) }
    }
}
