import Foundation
import Storage

/// The parts of schema version 2 that need Swift's judgement rather than SQL.
enum EInvoiceMigration {
    /// Each unit word typed before gets the code it stands for ("h" → HUR); the word stays.
    static func guessUnitCodes(_ database: Database) throws {
        let units = try database.query("SELECT DISTINCT unit FROM invoices_line").map { row -> String in try row[0] }
        for unit in units where !unit.isEmpty {
            try database.execute("UPDATE invoices_line SET unit_code = ? WHERE unit = ?", [UnitCode.guess(from: unit).code, unit])
        }
    }

    /// The single "Tax ID" field held VAT IDs and national tax numbers alike. A value shaped
    /// like a VAT ID (country prefix and digits) moves to the new VAT ID column, where an
    /// e-invoice reads it; anything else stays a tax number. Nothing is dropped.
    static func separateVATIDs(_ database: Database) throws {
        for table in ["invoices_profile", "invoices_client"] {
            let rows = try database.query("SELECT rowid, tax_id FROM \(table)")
            for row in rows {
                let id: Int64 = try row[0]
                let taxID: String = try row[1]
                guard VATID.looksLikeVATID(taxID) else { continue }
                try database.execute("UPDATE \(table) SET vat_id = ?, tax_id = '' WHERE rowid = ?", [taxID, id])
            }
        }
        let snapshots = try database.query("SELECT id, bill_to_tax_id FROM invoices_invoice WHERE bill_to_tax_id IS NOT NULL AND bill_to_tax_id <> ''")
        for row in snapshots {
            let id: Int64 = try row[0]
            let taxID: String = try row[1]
            guard VATID.looksLikeVATID(taxID) else { continue }
            try database.execute("UPDATE invoices_invoice SET bill_to_vat_id = ?, bill_to_tax_id = '' WHERE id = ?", [taxID, id])
        }
    }
}
