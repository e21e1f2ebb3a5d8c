import Storage

/// The Expenses plugin's tables. Money is INTEGER minor units beside a TEXT currency code,
/// rates and distances are exact decimal TEXT, days are "YYYY-MM-DD". AUTOINCREMENT keeps ids
/// from being reused, so undoing a deletion puts rows back under their old ids.
enum ExpenseSchema {
    static let owner = "expenses"

    // Single-line literals: xgettext reads these files as C and stumbles on """.
    static let migrations: [Migration] = [
        Migration(version: 1, summary: "Trips, expenses, receipts and undo holds", sql: [
            "CREATE TABLE expenses_trip ("
                + "id INTEGER PRIMARY KEY AUTOINCREMENT, "
                + "name TEXT NOT NULL, "
                + "name_key TEXT NOT NULL UNIQUE, "
                + "start_date TEXT NOT NULL, "
                + "end_date TEXT NOT NULL CHECK (end_date >= start_date), "
                + "purpose TEXT NOT NULL DEFAULT '', "
                + "currency TEXT NOT NULL, "
                + "created_at TEXT NOT NULL, "
                + "updated_at TEXT NOT NULL)",
            "CREATE TABLE expenses_receipt ("
                + "digest TEXT PRIMARY KEY NOT NULL, "
                + "kind TEXT NOT NULL, "
                + "byte_count INTEGER NOT NULL, "
                + "pixel_width INTEGER, "
                + "pixel_height INTEGER, "
                + "original_name TEXT NOT NULL, "
                + "added_at TEXT NOT NULL)",
            "CREATE TABLE expenses_expense ("
                + "id INTEGER PRIMARY KEY AUTOINCREMENT, "
                + "trip_id INTEGER NOT NULL REFERENCES expenses_trip(id) ON DELETE CASCADE, "
                + "date TEXT NOT NULL, "
                + "category TEXT NOT NULL, "
                + "vendor TEXT NOT NULL DEFAULT '', "
                + "original_minor INTEGER NOT NULL, "
                + "original_currency TEXT NOT NULL, "
                + "exchange_rate TEXT, "
                + "converted_minor INTEGER NOT NULL, "
                + "distance TEXT, "
                + "distance_unit TEXT, "
                + "rate_per_unit TEXT, "
                + "notes TEXT NOT NULL DEFAULT '', "
                + "receipt_digest TEXT REFERENCES expenses_receipt(digest), "
                + "created_at TEXT NOT NULL, "
                + "updated_at TEXT NOT NULL)",
            "CREATE INDEX expenses_expense_by_trip ON expenses_expense (trip_id, date)",
            "CREATE INDEX expenses_expense_by_receipt ON expenses_expense (receipt_digest)",
            // A deleted trip's receipts, kept on disk until its undo window ends.
            "CREATE TABLE expenses_receipt_hold ("
                + "deletion TEXT NOT NULL, "
                + "digest TEXT NOT NULL REFERENCES expenses_receipt(digest), "
                + "PRIMARY KEY (deletion, digest))",
        ].joined(separator: ";\n")),
        // The VAT per category and rate that a supplier's invoice states; existing expenses have none.
        Migration(version: 2, summary: "VAT breakdown of expenses", sql: [
            "CREATE TABLE expenses_expense_vat ("
                + "expense_id INTEGER NOT NULL REFERENCES expenses_expense(id) ON DELETE CASCADE, "
                + "position INTEGER NOT NULL, "
                + "category_code TEXT NOT NULL, "
                + "rate TEXT, "
                + "taxable_minor INTEGER NOT NULL, "
                + "tax_minor INTEGER NOT NULL, "
                + "currency TEXT NOT NULL, "
                + "PRIMARY KEY (expense_id, position))",
        ].joined(separator: ";\n")),
    ]
}
