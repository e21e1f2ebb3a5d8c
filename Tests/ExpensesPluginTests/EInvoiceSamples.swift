import Foundation
import Graphics

/// Small EN 16931 invoices written for the tests: the same purchase in CII and in UBL, with
/// the namespace prefixes a test chooses, and a Factur-X PDF made by embedding the CII in a
/// PDF Cairo drew.
enum EInvoiceSamples {
    /// Office supplies: 100.00 at 19 % and 50.00 at 7 % in `currency`, total 172.50.
    static func cii(currency: String = "EUR", typeCode: String = "380", rsm: String = "rsm", ram: String = "ram",
                    udt: String = "udt", grandTotal: String = "172.50", basis19: String = "100.00",
                    extraTaxTotal: String = "") -> Data {
        let r = ram.isEmpty ? "" : ram + ":"
        let ramDeclaration = ram.isEmpty
            ? "xmlns=\"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100\""
            : "xmlns:\(ram)=\"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100\""
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <\(rsm):CrossIndustryInvoice xmlns:\(rsm)="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" \(ramDeclaration) xmlns:\(udt)="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
          <\(rsm):ExchangedDocumentContext><\(r)GuidelineSpecifiedDocumentContextParameter><\(r)ID>urn:cen.eu:en16931:2017</\(r)ID></\(r)GuidelineSpecifiedDocumentContextParameter></\(rsm):ExchangedDocumentContext>
          <\(rsm):ExchangedDocument>
            <\(r)ID>RE-2026-0042</\(r)ID>
            <\(r)TypeCode>\(typeCode)</\(r)TypeCode>
            <\(r)IssueDateTime><\(udt):DateTimeString format="102">20260311</\(udt):DateTimeString></\(r)IssueDateTime>
          </\(rsm):ExchangedDocument>
          <\(rsm):SupplyChainTradeTransaction>
            <\(r)IncludedSupplyChainTradeLineItem>
              <\(r)AssociatedDocumentLineDocument><\(r)LineID>1</\(r)LineID></\(r)AssociatedDocumentLineDocument>
              <\(r)SpecifiedTradeProduct><\(r)Name>Printer paper</\(r)Name></\(r)SpecifiedTradeProduct>
              <\(r)SpecifiedLineTradeDelivery><\(r)BilledQuantity unitCode="C62">20</\(r)BilledQuantity></\(r)SpecifiedLineTradeDelivery>
              <\(r)SpecifiedLineTradeSettlement>
                <\(r)ApplicableTradeTax><\(r)TypeCode>VAT</\(r)TypeCode><\(r)CategoryCode>S</\(r)CategoryCode><\(r)RateApplicablePercent>19</\(r)RateApplicablePercent></\(r)ApplicableTradeTax>
                <\(r)SpecifiedTradeSettlementLineMonetarySummation><\(r)LineTotalAmount>100.00</\(r)LineTotalAmount></\(r)SpecifiedTradeSettlementLineMonetarySummation>
              </\(r)SpecifiedLineTradeSettlement>
            </\(r)IncludedSupplyChainTradeLineItem>
            <\(r)IncludedSupplyChainTradeLineItem>
              <\(r)AssociatedDocumentLineDocument><\(r)LineID>2</\(r)LineID></\(r)AssociatedDocumentLineDocument>
              <\(r)SpecifiedTradeProduct><\(r)Name>Field guide</\(r)Name></\(r)SpecifiedTradeProduct>
              <\(r)SpecifiedLineTradeDelivery><\(r)BilledQuantity unitCode="C62">2</\(r)BilledQuantity></\(r)SpecifiedLineTradeDelivery>
              <\(r)SpecifiedLineTradeSettlement>
                <\(r)ApplicableTradeTax><\(r)TypeCode>VAT</\(r)TypeCode><\(r)CategoryCode>S</\(r)CategoryCode><\(r)RateApplicablePercent>7</\(r)RateApplicablePercent></\(r)ApplicableTradeTax>
                <\(r)SpecifiedTradeSettlementLineMonetarySummation><\(r)LineTotalAmount>50.00</\(r)LineTotalAmount></\(r)SpecifiedTradeSettlementLineMonetarySummation>
              </\(r)SpecifiedLineTradeSettlement>
            </\(r)IncludedSupplyChainTradeLineItem>
            <\(r)ApplicableHeaderTradeAgreement>
              <\(r)SellerTradeParty>
                <\(r)Name>Papeterie Müller GmbH</\(r)Name>
                <\(r)SpecifiedTaxRegistration><\(r)ID schemeID="VA">DE123456789</\(r)ID></\(r)SpecifiedTaxRegistration>
              </\(r)SellerTradeParty>
              <\(r)BuyerTradeParty><\(r)Name>Ada Freelance</\(r)Name></\(r)BuyerTradeParty>
            </\(r)ApplicableHeaderTradeAgreement>
            <\(r)ApplicableHeaderTradeDelivery/>
            <\(r)ApplicableHeaderTradeSettlement>
              <\(r)InvoiceCurrencyCode>\(currency)</\(r)InvoiceCurrencyCode>
              <\(r)ApplicableTradeTax><\(r)CalculatedAmount>19.00</\(r)CalculatedAmount><\(r)TypeCode>VAT</\(r)TypeCode><\(r)BasisAmount>\(basis19)</\(r)BasisAmount><\(r)CategoryCode>S</\(r)CategoryCode><\(r)RateApplicablePercent>19.00</\(r)RateApplicablePercent></\(r)ApplicableTradeTax>
              <\(r)ApplicableTradeTax><\(r)CalculatedAmount>3.50</\(r)CalculatedAmount><\(r)TypeCode>VAT</\(r)TypeCode><\(r)BasisAmount>50.00</\(r)BasisAmount><\(r)CategoryCode>S</\(r)CategoryCode><\(r)RateApplicablePercent>7.00</\(r)RateApplicablePercent></\(r)ApplicableTradeTax>
              <\(r)SpecifiedTradePaymentTerms><\(r)DueDateDateTime><\(udt):DateTimeString format="102">20260410</\(udt):DateTimeString></\(r)DueDateDateTime></\(r)SpecifiedTradePaymentTerms>
              <\(r)SpecifiedTradeSettlementHeaderMonetarySummation>
                <\(r)LineTotalAmount>150.00</\(r)LineTotalAmount>
                <\(r)TaxBasisTotalAmount>150.00</\(r)TaxBasisTotalAmount>
                <\(r)TaxTotalAmount currencyID="\(currency)">22.50</\(r)TaxTotalAmount>\(extraTaxTotal)
                <\(r)GrandTotalAmount>\(grandTotal)</\(r)GrandTotalAmount>
                <\(r)DuePayableAmount>\(grandTotal)</\(r)DuePayableAmount>
              </\(r)SpecifiedTradeSettlementHeaderMonetarySummation>
            </\(r)ApplicableHeaderTradeSettlement>
          </\(rsm):SupplyChainTradeTransaction>
        </\(rsm):CrossIndustryInvoice>
        """
        return Data(xml.utf8)
    }

    /// The same purchase in UBL, its VAT also given in an accounting currency (BT-111), which
    /// must not be taken for the breakdown. `root` "CreditNote" makes a credit note.
    static func ubl(currency: String = "EUR", root: String = "Invoice", grandTotal: String = "172.50",
                    prefix: String = "cbc", aggregatePrefix: String = "cac") -> Data {
        let b = prefix + ":"
        let a = aggregatePrefix + ":"
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <\(root) xmlns="urn:oasis:names:specification:ubl:schema:xsd:\(root)-2" xmlns:\(aggregatePrefix)="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:\(prefix)="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
          <\(b)CustomizationID>urn:cen.eu:en16931:2017</\(b)CustomizationID>
          <\(b)ID>RE-2026-0042</\(b)ID>
          <\(b)IssueDate>2026-03-11</\(b)IssueDate>
          <\(b)DueDate>2026-04-10</\(b)DueDate>
          <\(b)InvoiceTypeCode>380</\(b)InvoiceTypeCode>
          <\(b)DocumentCurrencyCode>\(currency)</\(b)DocumentCurrencyCode>
          <\(b)TaxCurrencyCode>CHF</\(b)TaxCurrencyCode>
          <\(a)AccountingSupplierParty><\(a)Party>
            <\(a)PartyName><\(b)Name>Papeterie Müller</\(b)Name></\(a)PartyName>
            <\(a)PartyTaxScheme><\(b)CompanyID>DE123456789</\(b)CompanyID><\(a)TaxScheme><\(b)ID>VAT</\(b)ID></\(a)TaxScheme></\(a)PartyTaxScheme>
            <\(a)PartyLegalEntity><\(b)RegistrationName>Papeterie Müller GmbH</\(b)RegistrationName></\(a)PartyLegalEntity>
          </\(a)Party></\(a)AccountingSupplierParty>
          <\(a)AccountingCustomerParty><\(a)Party><\(a)PartyLegalEntity><\(b)RegistrationName>Ada Freelance</\(b)RegistrationName></\(a)PartyLegalEntity></\(a)Party></\(a)AccountingCustomerParty>
          <\(a)TaxTotal><\(b)TaxAmount currencyID="CHF">21.40</\(b)TaxAmount></\(a)TaxTotal>
          <\(a)TaxTotal>
            <\(b)TaxAmount currencyID="\(currency)">22.50</\(b)TaxAmount>
            <\(a)TaxSubtotal><\(b)TaxableAmount currencyID="\(currency)">100.00</\(b)TaxableAmount><\(b)TaxAmount currencyID="\(currency)">19.00</\(b)TaxAmount><\(a)TaxCategory><\(b)ID>S</\(b)ID><\(b)Percent>19</\(b)Percent><\(a)TaxScheme><\(b)ID>VAT</\(b)ID></\(a)TaxScheme></\(a)TaxCategory></\(a)TaxSubtotal>
            <\(a)TaxSubtotal><\(b)TaxableAmount currencyID="\(currency)">50.00</\(b)TaxableAmount><\(b)TaxAmount currencyID="\(currency)">3.50</\(b)TaxAmount><\(a)TaxCategory><\(b)ID>S</\(b)ID><\(b)Percent>7</\(b)Percent><\(a)TaxScheme><\(b)ID>VAT</\(b)ID></\(a)TaxScheme></\(a)TaxCategory></\(a)TaxSubtotal>
          </\(a)TaxTotal>
          <\(a)LegalMonetaryTotal>
            <\(b)LineExtensionAmount currencyID="\(currency)">150.00</\(b)LineExtensionAmount>
            <\(b)TaxExclusiveAmount currencyID="\(currency)">150.00</\(b)TaxExclusiveAmount>
            <\(b)TaxInclusiveAmount currencyID="\(currency)">\(grandTotal)</\(b)TaxInclusiveAmount>
            <\(b)PrepaidAmount currencyID="\(currency)">50.00</\(b)PrepaidAmount>
            <\(b)PayableAmount currencyID="\(currency)">122.50</\(b)PayableAmount>
          </\(a)LegalMonetaryTotal>
          <\(a)InvoiceLine><\(b)ID>1</\(b)ID><\(b)InvoicedQuantity unitCode="C62">20</\(b)InvoicedQuantity><\(b)LineExtensionAmount currencyID="\(currency)">100.00</\(b)LineExtensionAmount><\(a)Item><\(b)Name>Printer paper</\(b)Name><\(a)ClassifiedTaxCategory><\(b)ID>S</\(b)ID><\(b)Percent>19</\(b)Percent></\(a)ClassifiedTaxCategory></\(a)Item></\(a)InvoiceLine>
          <\(a)InvoiceLine><\(b)ID>2</\(b)ID><\(b)InvoicedQuantity unitCode="C62">2</\(b)InvoicedQuantity><\(b)LineExtensionAmount currencyID="\(currency)">50.00</\(b)LineExtensionAmount><\(a)Item><\(b)Name>Field guide</\(b)Name><\(a)ClassifiedTaxCategory><\(b)ID>S</\(b)ID><\(b)Percent>7</\(b)Percent></\(a)ClassifiedTaxCategory></\(a)Item></\(a)InvoiceLine>
        </\(root)>
        """
        return Data(xml.utf8)
    }

    /// The same purchase as ZUGFeRD 1.0 (Comfort) wrote it, before EN 16931: another root, other
    /// namespaces, other names for the same parts.
    static func zugferd1() -> Data {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
          <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
          <rsm:HeaderExchangedDocument>
            <ram:ID>RE-2026-0042</ram:ID><ram:Name>RECHNUNG</ram:Name><ram:TypeCode>380</ram:TypeCode>
            <ram:IssueDateTime><udt:DateTimeString format="102">20260311</udt:DateTimeString></ram:IssueDateTime>
          </rsm:HeaderExchangedDocument>
          <rsm:SpecifiedSupplyChainTradeTransaction>
            <ram:ApplicableSupplyChainTradeAgreement>
              <ram:SellerTradeParty><ram:Name>Papeterie Müller GmbH</ram:Name><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE123456789</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
              <ram:BuyerTradeParty><ram:Name>Ada Freelance</ram:Name></ram:BuyerTradeParty>
            </ram:ApplicableSupplyChainTradeAgreement>
            <ram:ApplicableSupplyChainTradeSettlement>
              <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
              <ram:ApplicableTradeTax><ram:CalculatedAmount currencyID="EUR">19.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount currencyID="EUR">100.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
              <ram:ApplicableTradeTax><ram:CalculatedAmount currencyID="EUR">3.50</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount currencyID="EUR">50.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>7.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
              <ram:SpecifiedTradeSettlementMonetarySummation>
                <ram:LineTotalAmount currencyID="EUR">150.00</ram:LineTotalAmount>
                <ram:TaxBasisTotalAmount currencyID="EUR">150.00</ram:TaxBasisTotalAmount>
                <ram:TaxTotalAmount currencyID="EUR">22.50</ram:TaxTotalAmount>
                <ram:GrandTotalAmount currencyID="EUR">172.50</ram:GrandTotalAmount>
                <ram:TotalPrepaidAmount currencyID="EUR">0.00</ram:TotalPrepaidAmount>
                <ram:DuePayableAmount currencyID="EUR">172.50</ram:DuePayableAmount>
              </ram:SpecifiedTradeSettlementMonetarySummation>
            </ram:ApplicableSupplyChainTradeSettlement>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">20.0000</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
              <ram:SpecifiedSupplyChainTradeSettlement>
                <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
                <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
              </ram:SpecifiedSupplyChainTradeSettlement>
              <ram:SpecifiedTradeProduct><ram:Name>Printer paper</ram:Name></ram:SpecifiedTradeProduct>
            </ram:IncludedSupplyChainTradeLineItem>
            <ram:IncludedSupplyChainTradeLineItem>
              <ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID></ram:AssociatedDocumentLineDocument>
              <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">2.0000</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
              <ram:SpecifiedSupplyChainTradeSettlement>
                <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>7.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
                <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">50.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
              </ram:SpecifiedSupplyChainTradeSettlement>
              <ram:SpecifiedTradeProduct><ram:Name>Field guide</ram:Name></ram:SpecifiedTradeProduct>
            </ram:IncludedSupplyChainTradeLineItem>
          </rsm:SpecifiedSupplyChainTradeTransaction>
        </rsm:CrossIndustryDocument>
        """
        return Data(xml.utf8)
    }

    /// A one-page PDF drawn by Cairo, with `attachments` embedded the way Factur-X does it:
    /// an incremental update adding the files to the catalog's EmbeddedFiles name tree and /AF.
    static func pdf(attaching attachments: [(name: String, data: Data)] = []) throws -> Data {
        let surface = try PDFSurface(pageSize: Size(width: 595, height: 842))
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 72, y: 72, width: 200, height: 40), color: Color(hex: 0x1C71D8))
        context.showPage()
        let base = try surface.finishBytes()
        return attachments.isEmpty ? base : try embed(attachments, in: base)
    }

    private static func embed(_ attachments: [(name: String, data: Data)], in base: Data) throws -> Data {
        let text = String(decoding: base, as: UTF8.self)
        func match(_ pattern: String) throws -> [String] {
            let expression = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
            guard let found = expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).last else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return (1..<found.numberOfRanges).map { String(text[Range(found.range(at: $0), in: text)!]) }
        }
        let root = try match("/Root\\s+(\\d+)\\s+0\\s+R")[0]
        let size = Int(try match("/Size\\s+(\\d+)")[0])!
        let previous = try match("startxref\\s+(\\d+)")[0]
        let catalog = try match("\\n\(root)\\s+0\\s+obj\\s*<<(.*?)>>\\s*endobj")[0]

        var update = Data("\n".utf8)
        var offsets: [Int] = []
        var next = size
        var specs: [(String, Int)] = []
        func object(_ body: Data) -> Int {
            offsets.append(base.count + update.count)
            update.append(Data("\(next) 0 obj\n".utf8))
            update.append(body)
            update.append(Data("\nendobj\n".utf8))
            next += 1
            return next - 1
        }
        for attachment in attachments {
            var stream = Data("<< /Type /EmbeddedFile /Subtype /text#2Fxml /Length \(attachment.data.count) >>\nstream\n".utf8)
            stream.append(attachment.data)
            stream.append(Data("\nendstream".utf8))
            let file = object(stream)
            let spec = object(Data("<< /Type /Filespec /F (\(attachment.name)) /UF (\(attachment.name)) /EF << /F \(file) 0 R >> /AFRelationship /Data >>".utf8))
            specs.append((attachment.name, spec))
        }
        let names = specs.sorted { $0.0 < $1.0 }.map { "(\($0.0)) \($0.1) 0 R" }.joined(separator: " ")
        let references = specs.map { "\($0.1) 0 R" }.joined(separator: " ")
        offsets.append(base.count + update.count)
        update.append(Data("\(root) 0 obj\n<<\(catalog) /Names << /EmbeddedFiles << /Names [\(names)] >> >> /AF [\(references)] >>\nendobj\n".utf8))

        let xref = base.count + update.count
        var table = "xref\n\(root) 1\n" + String(format: "%010d 00000 n \n", offsets.removeLast())
        table += "\(size) \(offsets.count)\n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        table += "trailer\n<< /Size \(next) /Root \(root) 0 R /Prev \(previous) >>\nstartxref\n\(xref)\n%%EOF\n"
        update.append(Data(table.utf8))
        return base + update
    }
}
