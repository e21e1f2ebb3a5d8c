import BillfoldCore
import Foundation

/// Reads an EN 16931 invoice from XML in either syntax, the UN/CEFACT Cross Industry Invoice
/// (Factur-X, ZUGFeRD 2, XRechnung CII) or OASIS UBL 2.1 (XRechnung UBL, Peppol).
public enum EInvoiceReader {
    /// The largest XML read, in bytes.
    public static var maximumByteCount: Int { XMLTree.maximumByteCount }

    /// UNTDID 1001 document types that credit rather than charge (BT-3).
    static let creditNoteTypes: Set<String> = ["81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"]

    public static func read(_ data: Data) throws(EInvoiceError) -> EInvoice {
        let root = try XMLTree.parse(data)
        switch (root.namespace, root.name) {
        case (CII.Vocabulary.d16b.rsm, "CrossIndustryInvoice"):
            return try CII(root: root, names: .d16b).invoice()
        case (CII.Vocabulary.zugferd1.rsm, "CrossIndustryDocument"):
            return try CII(root: root, names: .zugferd1).invoice()
        case (UBL.invoice, "Invoice"):
            return try UBL(root: root).invoice()
        case (UBL.creditNote, "CreditNote"):
            throw .creditNote
        default:
            throw .unknownDocument(root: root.name)
        }
    }

    /// The checks both syntaxes share, once everything is read.
    static func finish(_ invoice: EInvoice) throws(EInvoiceError) -> EInvoice {
        if creditNoteTypes.contains(invoice.typeCode) { throw .creditNote }
        if invoice.grandTotal.isNegative { throw .negativeTotal }
        if invoice.vatBreakdown.isEmpty { throw .missingField(tr("VAT breakdown")) }
        return invoice
    }
}

// MARK: - CII

/// The Cross Industry Invoice: D16B as Factur-X, ZUGFeRD 2 and XRechnung write it, and the
/// older Cross Industry Document of ZUGFeRD 1.0, which says the same with other names.
private struct CII {
    /// Where the two versions put the same information.
    struct Vocabulary {
        let syntax: EInvoice.Syntax
        let rsm: String
        let ram: String
        let udt: String
        let document: String
        let transaction: String
        let agreement: String
        let settlement: String
        let summation: String
        let rate: String
        let lineDelivery: String
        let lineSettlement: String
        let lineSummation: String

        static let d16b = Vocabulary(
            syntax: .cii, rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
            ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
            udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
            document: "ExchangedDocument", transaction: "SupplyChainTradeTransaction",
            agreement: "ApplicableHeaderTradeAgreement", settlement: "ApplicableHeaderTradeSettlement",
            summation: "SpecifiedTradeSettlementHeaderMonetarySummation", rate: "RateApplicablePercent",
            lineDelivery: "SpecifiedLineTradeDelivery", lineSettlement: "SpecifiedLineTradeSettlement",
            lineSummation: "SpecifiedTradeSettlementLineMonetarySummation")

        static let zugferd1 = Vocabulary(
            syntax: .zugferd1, rsm: "urn:ferd:CrossIndustryDocument:invoice:1p0",
            ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12",
            udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15",
            document: "HeaderExchangedDocument", transaction: "SpecifiedSupplyChainTradeTransaction",
            agreement: "ApplicableSupplyChainTradeAgreement", settlement: "ApplicableSupplyChainTradeSettlement",
            summation: "SpecifiedTradeSettlementMonetarySummation", rate: "ApplicablePercent",
            lineDelivery: "SpecifiedSupplyChainTradeDelivery", lineSettlement: "SpecifiedSupplyChainTradeSettlement",
            lineSummation: "SpecifiedTradeSettlementMonetarySummation")
    }

    let root: XMLNode
    let names: Vocabulary
    private var ram: String { names.ram }

    func invoice() throws(EInvoiceError) -> EInvoice {
        guard let document = root.child(names.rsm, names.document) else { throw .missingField(tr("invoice number")) }
        guard let transaction = root.child(names.rsm, names.transaction),
              let settlement = transaction.child(ram, names.settlement) else {
            throw .missingField(tr("totals"))
        }
        let agreement = transaction.child(ram, names.agreement)
        let seller = agreement?.child(ram, "SellerTradeParty")
        let currency = try EInvoiceValues.currency(settlement.child(ram, "InvoiceCurrencyCode")?.value)
        let values = EInvoiceValues(currency: currency)

        guard let number = document.child(ram, "ID")?.value else { throw .missingField(tr("invoice number")) }
        guard let issueDate = try EInvoiceValues.day(dateText(document.child(ram, "IssueDateTime")), tr("issue date")) else {
            throw .missingField(tr("issue date"))
        }
        guard let sellerName = seller?.child(ram, "Name")?.value else { throw .missingField(tr("seller name")) }
        let sellerVATID = seller?.children(ram, "SpecifiedTaxRegistration")
            .compactMap { $0.child(ram, "ID") }
            .first { $0.attributes["schemeID"] == "VA" }?.value

        var breakdown: [ExpenseVAT] = []
        for tax in settlement.children(ram, "ApplicableTradeTax") {
            breakdown.append(ExpenseVAT(
                categoryCode: tax.child(ram, "CategoryCode")?.value ?? "",
                rate: try EInvoiceValues.decimal(tax.child(ram, names.rate), tr("VAT rate")),
                taxableAmount: try values.requiredMoney(tax.child(ram, "BasisAmount"), tr("taxable amount")),
                taxAmount: try values.requiredMoney(tax.child(ram, "CalculatedAmount"), tr("VAT amount"))))
        }

        guard let totals = settlement.child(ram, names.summation) else {
            throw .missingField(tr("totals"))
        }
        // BT-110 in the invoice currency; a second one may give the VAT in the accounting currency (BT-111).
        let taxTotals = totals.children(ram, "TaxTotalAmount")
        let taxTotal = taxTotals.first { $0.attributes["currencyID"] == currency.code }
            ?? taxTotals.first { $0.attributes["currencyID"] == nil }
        let grandTotal = try values.requiredMoney(totals.child(ram, "GrandTotalAmount"), tr("invoice total"))
        let dueDate = try EInvoiceValues.day(
            dateText(settlement.child(ram, "SpecifiedTradePaymentTerms")?.child(ram, "DueDateDateTime")), tr("due date"))

        var lines: [EInvoice.Line] = []
        for item in transaction.children(ram, "IncludedSupplyChainTradeLineItem") {
            let lineSettlement = item.child(ram, names.lineSettlement)
            let quantity = item.path(ram, names.lineDelivery, "BilledQuantity")
            lines.append(EInvoice.Line(
                name: item.path(ram, "SpecifiedTradeProduct", "Name")?.value ?? "",
                quantity: try EInvoiceValues.decimal(quantity, tr("quantity")),
                unitCode: quantity?.attributes["unitCode"] ?? "",
                netAmount: try values.requiredMoney(
                    lineSettlement?.path(ram, names.lineSummation, "LineTotalAmount"),
                    tr("line amount")),
                vatRate: try EInvoiceValues.decimal(lineSettlement?.path(ram, "ApplicableTradeTax", names.rate),
                                                    tr("VAT rate"))))
        }

        let breakdownTax = try breakdown.totalTaxOrZero(currency)
        return try EInvoiceReader.finish(EInvoice(
            syntax: names.syntax, number: number, typeCode: document.child(ram, "TypeCode")?.value ?? "380",
            issueDate: issueDate, dueDate: dueDate, sellerName: sellerName, sellerVATID: sellerVATID,
            buyerName: agreement?.path(ram, "BuyerTradeParty", "Name")?.value ?? "",
            currency: currency, lines: lines, vatBreakdown: breakdown,
            netTotal: try values.requiredMoney(totals.child(ram, "TaxBasisTotalAmount"), tr("total without VAT")),
            vatTotal: try values.money(taxTotal, tr("VAT total")) ?? breakdownTax,
            grandTotal: grandTotal,
            prepaid: try values.money(totals.child(ram, "TotalPrepaidAmount"), tr("amount paid in advance")),
            amountDue: try values.money(totals.child(ram, "DuePayableAmount"), tr("amount due")) ?? grandTotal))
    }

    /// `<ram:X><udt:DateTimeString format="102">20240315</udt:DateTimeString></ram:X>`.
    private func dateText(_ node: XMLNode?) -> String? {
        node?.child(names.udt, "DateTimeString")?.value
    }
}

// MARK: - UBL

/// An OASIS UBL 2.1 invoice.
private struct UBL {
    static let invoice = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
    static let creditNote = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
    static let cac = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
    static let cbc = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"

    let root: XMLNode
    private var cac: String { Self.cac }
    private var cbc: String { Self.cbc }

    func invoice() throws(EInvoiceError) -> EInvoice {
        let currency = try EInvoiceValues.currency(root.child(cbc, "DocumentCurrencyCode")?.value)
        let values = EInvoiceValues(currency: currency)
        guard let number = root.child(cbc, "ID")?.value else { throw .missingField(tr("invoice number")) }
        guard let issueDate = try EInvoiceValues.day(root.child(cbc, "IssueDate")?.value, tr("issue date")) else {
            throw .missingField(tr("issue date"))
        }
        let seller = root.path(cac, "AccountingSupplierParty", "Party")
        guard let sellerName = partyName(seller) else { throw .missingField(tr("seller name")) }
        let sellerVATID = seller?.children(cac, "PartyTaxScheme")
            .first { $0.path(cac, "TaxScheme")?.child(cbc, "ID")?.value == "VAT" }?.child(cbc, "CompanyID")?.value

        // BT-110 with its breakdown is the TaxTotal in the document currency; another may give BT-111.
        let taxTotal = root.children(cac, "TaxTotal").first {
            $0.child(cbc, "TaxAmount")?.attributes["currencyID"] == currency.code
        }
        var breakdown: [ExpenseVAT] = []
        for subtotal in taxTotal?.children(cac, "TaxSubtotal") ?? [] {
            let category = subtotal.child(cac, "TaxCategory")
            breakdown.append(ExpenseVAT(
                categoryCode: category?.child(cbc, "ID")?.value ?? "",
                rate: try EInvoiceValues.decimal(category?.child(cbc, "Percent"), tr("VAT rate")),
                taxableAmount: try values.requiredMoney(subtotal.child(cbc, "TaxableAmount"), tr("taxable amount")),
                taxAmount: try values.requiredMoney(subtotal.child(cbc, "TaxAmount"), tr("VAT amount"))))
        }

        guard let totals = root.child(cac, "LegalMonetaryTotal") else { throw .missingField(tr("totals")) }
        let grandTotal = try values.requiredMoney(totals.child(cbc, "TaxInclusiveAmount"), tr("invoice total"))
        var lines: [EInvoice.Line] = []
        for line in root.children(cac, "InvoiceLine") {
            let quantity = line.child(cbc, "InvoicedQuantity")
            lines.append(EInvoice.Line(
                name: line.path(cac, "Item")?.child(cbc, "Name")?.value ?? "",
                quantity: try EInvoiceValues.decimal(quantity, tr("quantity")),
                unitCode: quantity?.attributes["unitCode"] ?? "",
                netAmount: try values.requiredMoney(line.child(cbc, "LineExtensionAmount"), tr("line amount")),
                vatRate: try EInvoiceValues.decimal(line.path(cac, "Item", "ClassifiedTaxCategory")?.child(cbc, "Percent"),
                                                    tr("VAT rate"))))
        }

        let breakdownTax = try breakdown.totalTaxOrZero(currency)
        return try EInvoiceReader.finish(EInvoice(
            syntax: .ubl, number: number, typeCode: root.child(cbc, "InvoiceTypeCode")?.value ?? "380",
            issueDate: issueDate, dueDate: try EInvoiceValues.day(root.child(cbc, "DueDate")?.value, tr("due date")),
            sellerName: sellerName, sellerVATID: sellerVATID,
            buyerName: partyName(root.path(cac, "AccountingCustomerParty", "Party")) ?? "",
            currency: currency, lines: lines, vatBreakdown: breakdown,
            netTotal: try values.requiredMoney(totals.child(cbc, "TaxExclusiveAmount"), tr("total without VAT")),
            vatTotal: try values.money(taxTotal?.child(cbc, "TaxAmount"), tr("VAT total")) ?? breakdownTax,
            grandTotal: grandTotal,
            prepaid: try values.money(totals.child(cbc, "PrepaidAmount"), tr("amount paid in advance")),
            amountDue: try values.money(totals.child(cbc, "PayableAmount"), tr("amount due")) ?? grandTotal))
    }

    /// The legal name (BT-27 / BT-44), or the trading name when that is all there is.
    private func partyName(_ party: XMLNode?) -> String? {
        party?.path(cac, "PartyLegalEntity")?.child(cbc, "RegistrationName")?.value
            ?? party?.path(cac, "PartyName")?.child(cbc, "Name")?.value
    }
}

private extension Array where Element == ExpenseVAT {
    /// The breakdown's VAT when the invoice leaves out its total (allowed without VAT).
    func totalTaxOrZero(_ currency: Currency) throws(EInvoiceError) -> Money {
        do {
            return try totalTax() ?? .zero(currency)
        } catch {
            throw .amountTooLarge(field: tr("VAT total"))
        }
    }
}
