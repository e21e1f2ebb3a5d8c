import Storage

/// A saved invoice's id.
public struct InvoiceID: RowID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A saved client's id.
public struct ClientID: RowID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A saved quote's id.
public struct QuoteID: RowID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// An issued credit note's id.
public struct CreditNoteID: RowID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A saved recurring invoice's id.
public struct RecurringInvoiceID: RowID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}
