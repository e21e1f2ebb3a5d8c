import Storage

/// The Invoices plugin's tables, owned by "invoices". A shipped migration is never edited; a
/// change is a new one at the end. Statements are single-line literals: xgettext reads these
/// files as C and stumbles on triple quotes.
enum InvoiceSchema {
    static let owner = "invoices"

    static let migrations: [Migration] = [
        Migration(version: 1, summary: "profile, clients, invoices, lines, payments, numbering, search") { database in
            for statement in version1 { try database.execute(statement) }
        },
        Migration(version: 2, summary: "what EN 16931 e-invoices need: VAT categories, unit codes, VAT IDs, structured addresses, references, delivery") { database in
            for statement in version2 { try database.execute(statement) }
            try EInvoiceMigration.guessUnitCodes(database)
            try EInvoiceMigration.separateVATIDs(database)
        },
        Migration(version: 3, summary: "whether invoices carry the payment QR code") { database in
            try database.execute("ALTER TABLE invoices_profile ADD COLUMN payment_qr_code INTEGER NOT NULL DEFAULT 1")
        },
        Migration(version: 4, summary: "quotes and credit notes, each with a number pattern of its own") { database in
            for statement in version4 { try database.execute(statement) }
        },
        Migration(version: 5, summary: "recurring invoices and payment reminders") { database in
            for statement in version5 { try database.execute(statement) }
        },
        // A new table only: every credit note issued before takes back quantities, as it did.
        Migration(version: 6, summary: "amounts credit notes take off without taking anything back") { database in
            try database.execute("CREATE TABLE invoices_credit_note_amount (credit_note_id INTEGER NOT NULL REFERENCES invoices_credit_note (id), position INTEGER NOT NULL, description TEXT NOT NULL, net_minor INTEGER NOT NULL, vat_category TEXT NOT NULL, tax_rate TEXT NOT NULL, PRIMARY KEY (credit_note_id, position)) WITHOUT ROWID")
        },
    ]

    // New tables beside the invoices; existing rows are untouched, and the two patterns start
    // from defaults that cannot be mistaken for invoice numbers.
    private static let version4: [String] = [
        "ALTER TABLE invoices_profile ADD COLUMN quote_number_pattern TEXT NOT NULL DEFAULT 'QUO-{YYYY}-{NNNN}'",
        "ALTER TABLE invoices_profile ADD COLUMN credit_note_number_pattern TEXT NOT NULL DEFAULT 'CN-{YYYY}-{NNNN}'",

        // A quote points at the invoice it became; the invoice finds its quote through this index.
        "CREATE TABLE invoices_quote (id INTEGER PRIMARY KEY AUTOINCREMENT, number TEXT NOT NULL COLLATE NOCASE UNIQUE, client_id INTEGER NOT NULL REFERENCES invoices_client (id), issue_date TEXT NOT NULL, valid_until TEXT NOT NULL, currency TEXT NOT NULL, discount_percent TEXT NOT NULL, notes TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('draft', 'sent', 'accepted', 'declined')), sent_on TEXT, invoice_id INTEGER REFERENCES invoices_invoice (id) ON DELETE SET NULL, total_minor INTEGER NOT NULL, amount_key INTEGER NOT NULL, updated_at TEXT NOT NULL, revision INTEGER NOT NULL)",
        "CREATE INDEX invoices_quote_by_issue ON invoices_quote (issue_date, id)",
        // Partial: most quotes never become an invoice, and an index full of NULLs reads to the
        // planner as useless, which turned an invoice's lookup of its quote into a scan.
        "CREATE INDEX invoices_quote_by_invoice ON invoices_quote (invoice_id) WHERE invoice_id IS NOT NULL",
        "CREATE INDEX invoices_quote_by_client ON invoices_quote (client_id)",
        "CREATE TABLE invoices_quote_line (id INTEGER PRIMARY KEY, quote_id INTEGER NOT NULL REFERENCES invoices_quote (id) ON DELETE CASCADE, position INTEGER NOT NULL, description TEXT NOT NULL, quantity TEXT NOT NULL, unit TEXT NOT NULL, unit_price_minor INTEGER NOT NULL, tax_rate TEXT NOT NULL, discount_percent TEXT, vat_category TEXT NOT NULL, unit_code TEXT NOT NULL)",
        "CREATE UNIQUE INDEX invoices_quote_line_by_quote ON invoices_quote_line (quote_id, position)",

        // A credit note keeps which quantities of which invoice lines it takes back; prices,
        // tax and discount are the invoice's, which no longer change once it is sent. Its
        // totals are stored for the list, as the invoices' are.
        "CREATE TABLE invoices_credit_note (id INTEGER PRIMARY KEY AUTOINCREMENT, number TEXT NOT NULL COLLATE NOCASE UNIQUE, invoice_id INTEGER NOT NULL REFERENCES invoices_invoice (id), issue_date TEXT NOT NULL, reason TEXT NOT NULL, currency TEXT NOT NULL, total_minor INTEGER NOT NULL, created_at TEXT NOT NULL)",
        "CREATE INDEX invoices_credit_note_by_issue ON invoices_credit_note (issue_date, id)",
        "CREATE INDEX invoices_credit_note_by_invoice ON invoices_credit_note (invoice_id)",
        "CREATE TABLE invoices_credit_note_line (credit_note_id INTEGER NOT NULL REFERENCES invoices_credit_note (id), position INTEGER NOT NULL, invoice_line INTEGER NOT NULL, quantity TEXT NOT NULL, PRIMARY KEY (credit_note_id, position)) WITHOUT ROWID",
    ]

    // New tables only: every existing row stays as it was.
    private static let version5: [String] = [
        // A template deleted with its client that never issued anything; one that did keeps its client (archived).
        "CREATE TABLE invoices_recurring (id INTEGER PRIMARY KEY AUTOINCREMENT, client_id INTEGER NOT NULL REFERENCES invoices_client (id) ON DELETE CASCADE, currency TEXT NOT NULL, interval TEXT NOT NULL CHECK (interval IN ('monthly', 'quarterly', 'yearly', 'weeks')), interval_weeks INTEGER NOT NULL DEFAULT 1, start_date TEXT NOT NULL, end_date TEXT, issue_mode TEXT NOT NULL CHECK (issue_mode IN ('draft', 'sent')), paused INTEGER NOT NULL DEFAULT 0, notes TEXT NOT NULL)",
        "CREATE TABLE invoices_recurring_line (recurring_id INTEGER NOT NULL REFERENCES invoices_recurring (id) ON DELETE CASCADE, position INTEGER NOT NULL, description TEXT NOT NULL, quantity TEXT NOT NULL, unit TEXT NOT NULL, unit_price_minor INTEGER NOT NULL, tax_rate TEXT NOT NULL, discount_percent TEXT, vat_category TEXT NOT NULL, unit_code TEXT NOT NULL, PRIMARY KEY (recurring_id, position))",
        // One row per period issued, written in the same transaction as its invoice: the key
        // makes a second issue of a period impossible, whoever runs the schedule and however
        // often. invoice_id has no foreign key: a deleted invoice's period stays issued.
        "CREATE TABLE invoices_recurring_issue (recurring_id INTEGER NOT NULL REFERENCES invoices_recurring (id) ON DELETE CASCADE, period_start TEXT NOT NULL, invoice_id INTEGER, issued_on TEXT NOT NULL, PRIMARY KEY (recurring_id, period_start)) WITHOUT ROWID",
        // Reminders stay when their invoice is deleted, so Undo (which restores the same id) brings them back.
        "CREATE TABLE invoices_reminder (id INTEGER PRIMARY KEY AUTOINCREMENT, invoice_id INTEGER NOT NULL, level TEXT NOT NULL CHECK (level IN ('friendly', 'first', 'second')), sent_on TEXT NOT NULL, open_minor INTEGER NOT NULL, fee_minor INTEGER NOT NULL, interest_rate TEXT NOT NULL, interest_minor INTEGER NOT NULL, deadline TEXT NOT NULL)",
        "CREATE INDEX invoices_reminder_by_invoice ON invoices_reminder (invoice_id, id)",
    ]

    // Every new column has a default, so rows written before keep all they had and read as
    // before: a line with a rate is standard-rated, one without is zero-rated.
    private static let version2: [String] = [
        "ALTER TABLE invoices_profile ADD COLUMN vat_id TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_profile ADD COLUMN postcode TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_profile ADD COLUMN city TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_profile ADD COLUMN country TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_profile ADD COLUMN contact_name TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_profile ADD COLUMN electronic_address TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_profile ADD COLUMN default_vat_category TEXT NOT NULL DEFAULT 'S'",
        "ALTER TABLE invoices_profile ADD COLUMN default_exemption_reason TEXT NOT NULL DEFAULT ''",
        "UPDATE invoices_profile SET default_vat_category = CASE WHEN CAST(default_tax_rate AS REAL) > 0 THEN 'S' ELSE 'Z' END",

        "ALTER TABLE invoices_client ADD COLUMN vat_id TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_client ADD COLUMN postcode TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_client ADD COLUMN city TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_client ADD COLUMN country TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_client ADD COLUMN electronic_address TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_client ADD COLUMN buyer_reference TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_client ADD COLUMN einvoice_format TEXT",

        "ALTER TABLE invoices_invoice ADD COLUMN buyer_reference TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_invoice ADD COLUMN purchase_order TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_invoice ADD COLUMN delivery_date TEXT",
        "ALTER TABLE invoices_invoice ADD COLUMN delivery_end_date TEXT",
        "ALTER TABLE invoices_invoice ADD COLUMN exemption_reason TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE invoices_invoice ADD COLUMN bill_to_vat_id TEXT",
        "ALTER TABLE invoices_invoice ADD COLUMN bill_to_postcode TEXT",
        "ALTER TABLE invoices_invoice ADD COLUMN bill_to_city TEXT",
        "ALTER TABLE invoices_invoice ADD COLUMN bill_to_country TEXT",
        "ALTER TABLE invoices_invoice ADD COLUMN bill_to_electronic_address TEXT",

        "ALTER TABLE invoices_line ADD COLUMN vat_category TEXT NOT NULL DEFAULT 'S'",
        "ALTER TABLE invoices_line ADD COLUMN unit_code TEXT NOT NULL DEFAULT 'C62'",
        "UPDATE invoices_line SET vat_category = CASE WHEN CAST(tax_rate AS REAL) > 0 THEN 'S' ELSE 'Z' END",
    ]

    private static let version1: [String] = [
        // One row: the business profile.
        "CREATE TABLE invoices_profile (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, address TEXT NOT NULL, email TEXT NOT NULL, phone TEXT NOT NULL, tax_id TEXT NOT NULL, bank_details TEXT NOT NULL, iban TEXT NOT NULL, bic TEXT NOT NULL, logo_file TEXT, currency TEXT NOT NULL, payment_terms_days INTEGER NOT NULL, default_tax_rate TEXT NOT NULL, number_pattern TEXT NOT NULL, default_notes TEXT NOT NULL, payment_instructions TEXT NOT NULL)",

        // AUTOINCREMENT: an id is never handed out twice, so an undo can put a deleted row back under its old id.
        "CREATE TABLE invoices_client (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT NOT NULL, address TEXT NOT NULL, tax_id TEXT NOT NULL, currency TEXT NOT NULL, payment_terms_days INTEGER, notes TEXT NOT NULL, archived INTEGER NOT NULL DEFAULT 0)",

        // Totals are written by the domain on every save, so lists and sums never recompute them.
        // amount_key orders amounts across currencies by their value in major units.
        "CREATE TABLE invoices_invoice (id INTEGER PRIMARY KEY AUTOINCREMENT, number TEXT NOT NULL COLLATE NOCASE UNIQUE, client_id INTEGER NOT NULL REFERENCES invoices_client (id), issue_date TEXT NOT NULL, due_date TEXT NOT NULL, currency TEXT NOT NULL, discount_percent TEXT NOT NULL, notes TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('draft', 'sent', 'paid', 'cancelled')), sent_on TEXT, bill_to_name TEXT, bill_to_address TEXT, bill_to_email TEXT, bill_to_tax_id TEXT, subtotal_minor INTEGER NOT NULL, discount_minor INTEGER NOT NULL, tax_minor INTEGER NOT NULL, total_minor INTEGER NOT NULL, paid_minor INTEGER NOT NULL, balance_minor INTEGER NOT NULL, amount_key INTEGER NOT NULL, updated_at TEXT NOT NULL, revision INTEGER NOT NULL)",
        // One index per list order, with and without a status filter, so the first screen is an index walk.
        "CREATE INDEX invoices_invoice_by_issue ON invoices_invoice (issue_date, id)",
        "CREATE INDEX invoices_invoice_by_due ON invoices_invoice (due_date, id)",
        "CREATE INDEX invoices_invoice_by_amount ON invoices_invoice (amount_key, id)",
        "CREATE INDEX invoices_invoice_by_status_issue ON invoices_invoice (status, issue_date, id)",
        "CREATE INDEX invoices_invoice_by_status_due ON invoices_invoice (status, due_date, id)",
        "CREATE INDEX invoices_invoice_by_status_amount ON invoices_invoice (status, amount_key, id)",
        "CREATE INDEX invoices_invoice_by_client ON invoices_invoice (client_id, issue_date)",
        // A search joins its matches to the invoices by id; with every column a filter or an
        // order needs, the join reads this small index instead of the wide rows, so a search
        // that matches half the invoices stays in the page cache.
        "CREATE INDEX invoices_invoice_search_keys ON invoices_invoice (id, status, client_id, issue_date, due_date, amount_key, balance_minor)",
        // The header's outstanding and overdue sums read only this index.
        "CREATE INDEX invoices_invoice_open ON invoices_invoice (status, currency, due_date, balance_minor)",

        "CREATE TABLE invoices_line (id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoices_invoice (id) ON DELETE CASCADE, position INTEGER NOT NULL, description TEXT NOT NULL, quantity TEXT NOT NULL, unit TEXT NOT NULL, unit_price_minor INTEGER NOT NULL, tax_rate TEXT NOT NULL, discount_percent TEXT)",
        "CREATE UNIQUE INDEX invoices_line_by_invoice ON invoices_line (invoice_id, position)",

        "CREATE TABLE invoices_payment (id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoices_invoice (id) ON DELETE CASCADE, position INTEGER NOT NULL, paid_on TEXT NOT NULL, amount_minor INTEGER NOT NULL, note TEXT NOT NULL)",
        "CREATE UNIQUE INDEX invoices_payment_by_invoice ON invoices_payment (invoice_id, position)",

        // Every number ever given out. A deleted invoice's row stays with a NULL id, so its
        // number is never handed out again and an undo can take it back.
        "CREATE TABLE invoices_number (number TEXT PRIMARY KEY COLLATE NOCASE, invoice_id INTEGER) WITHOUT ROWID",
        // The last counter value per scope (the pattern with its date parts filled in).
        "CREATE TABLE invoices_counter (scope TEXT PRIMARY KEY, last_value INTEGER NOT NULL) WITHOUT ROWID",

        // Search as you type: word prefixes in the number, the client's name and the line
        // descriptions, accents ignored. Prefix indexes for 1 to 3 letters keep the first
        // keystrokes fast; detail = none keeps no positions, which only phrase queries need,
        // and makes the index a quarter of the size. rowid is the invoice id.
        "CREATE VIRTUAL TABLE invoices_search USING fts5 (number, client, descriptions, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3', detail = none)",
    ]
}
