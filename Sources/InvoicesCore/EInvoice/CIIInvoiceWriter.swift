import BillfoldCore
import Foundation

/// Writes an invoice as UN/CEFACT Cross Industry Invoice (CII D16B) XML following EN 16931:
/// Factur-X 1.0.07 / ZUGFeRD 2.3 profile EN 16931 ("Comfort"), or XRechnung 3.0 in CII syntax.
///
/// Every amount comes from `InvoiceTotals`, the computation the PDF prints, so the two always
/// agree. Elements are written in the order the CII schema requires.
enum CIIInvoiceWriter {
    /// The specification identifier (BT-24) of each format.
    static func guideline(_ format: EInvoiceFormat) -> String {
        switch format {
        case .facturX: "urn:cen.eu:en16931:2017"
        case .xrechnung: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
        }
    }

    static func xml(_ document: InvoiceDocument, format: EInvoiceFormat) throws(EInvoiceError) -> Data {
        do {
            return try Writer(document: document, format: format).write().data
        } catch {
            throw .amountTooLarge
        }
    }

    private struct Writer {
        let document: InvoiceDocument
        let format: EInvoiceFormat

        private var invoice: Invoice { document.invoice }
        private var profile: BusinessProfile { document.profile }
        private var buyer: BillTo { document.billTo }
        private var totals: InvoiceTotals { document.totals }
        private var currency: Currency { invoice.currency }
        /// An invoice not subject to VAT shows no VAT IDs (BR-O-2).
        private var showsVATIDs: Bool { !invoice.vatCategories.contains(.notSubject) }

        init(document: InvoiceDocument, format: EInvoiceFormat) {
            self.document = document
            self.format = format
        }

        func write() throws -> XMLWriter {
            var xml = XMLWriter()
            try xml.element("rsm:CrossIndustryInvoice", [
                "xmlns:rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
                "xmlns:qdt": "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
                "xmlns:ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
                "xmlns:udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
            ]) { xml in
                xml.element("rsm:ExchangedDocumentContext") { xml in
                    if format == .xrechnung {
                        xml.element("ram:BusinessProcessSpecifiedDocumentContextParameter") {
                            $0.leaf("ram:ID", "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0")
                        }
                    }
                    xml.element("ram:GuidelineSpecifiedDocumentContextParameter") { $0.leaf("ram:ID", guideline(format)) }
                }
                xml.element("rsm:ExchangedDocument") { xml in
                    xml.leaf("ram:ID", invoice.number)
                    xml.leaf("ram:TypeCode", typeCode)
                    date(&xml, "ram:IssueDateTime", invoice.issueDate)
                    let notes = invoice.notes.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !notes.isEmpty { xml.element("ram:IncludedNote") { $0.leaf("ram:Content", notes) } }
                }
                try xml.element("rsm:SupplyChainTradeTransaction") { xml in
                    for index in invoice.lines.indices { try line(&xml, index) }
                    agreement(&xml)
                    delivery(&xml)
                    settlement(&xml)
                }
            }
            return xml
        }

        // MARK: Lines (BG-25)

        private func line(_ xml: inout XMLWriter, _ index: Int) throws {
            let line = invoice.lines[index]
            let net = totals.lineNets[index]
            // The line discount as a line allowance (BG-27): the undiscounted amount, rounded
            // like the net, less the net, so gross − allowance = net exactly.
            let allowance = try line.unitPrice.multiplied(by: line.quantity, rounding: .halfUp).subtracting(net)
            xml.element("ram:IncludedSupplyChainTradeLineItem") { xml in
                xml.element("ram:AssociatedDocumentLineDocument") { $0.leaf("ram:LineID", String(index + 1)) }
                xml.element("ram:SpecifiedTradeProduct") { xml in
                    let text = line.description.trimmingCharacters(in: .whitespacesAndNewlines)
                    let firstLine = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
                    xml.leaf("ram:Name", firstLine.trimmingCharacters(in: .whitespaces))
                    if firstLine.count != text.count { xml.leaf("ram:Description", text) }
                }
                xml.element("ram:SpecifiedLineTradeAgreement") { xml in
                    xml.element("ram:NetPriceProductTradePrice") { $0.leaf("ram:ChargeAmount", amount(line.unitPrice)) }
                }
                xml.element("ram:SpecifiedLineTradeDelivery") {
                    $0.leaf("ram:BilledQuantity", plain(line.quantity), ["unitCode": line.unitCode.code])
                }
                xml.element("ram:SpecifiedLineTradeSettlement") { xml in
                    tax(&xml, "ram:ApplicableTradeTax", category: line.vatCategory, rate: line.taxRate)
                    if allowance.isPositive {
                        xml.element("ram:SpecifiedTradeAllowanceCharge") { xml in
                            xml.element("ram:ChargeIndicator") { $0.leaf("udt:Indicator", "false") }
                            xml.leaf("ram:ActualAmount", amount(allowance))
                            xml.leaf("ram:Reason", tr("Discount"))
                        }
                    }
                    xml.element("ram:SpecifiedTradeSettlementLineMonetarySummation") {
                        $0.leaf("ram:LineTotalAmount", amount(net))
                    }
                }
            }
        }

        // MARK: Seller and buyer (BG-4 … BG-8)

        private func agreement(_ xml: inout XMLWriter) {
            xml.element("ram:ApplicableHeaderTradeAgreement") { xml in
                xml.optionalLeaf("ram:BuyerReference", invoice.buyerReference.trimmingCharacters(in: .whitespaces))
                xml.element("ram:SellerTradeParty") { xml in
                    // Without a VAT ID to name the seller, the tax number does (BR-CO-26).
                    if !(showsVATIDs && !profile.vatID.isEmpty) { xml.optionalLeaf("ram:ID", profile.taxID) }
                    xml.leaf("ram:Name", profile.name)
                    contact(&xml)
                    address(&xml, address: profile.address, postcode: profile.postcode, city: profile.city,
                            country: profile.countryCode)
                    electronicAddress(&xml, profile.electronicAddress, fallback: profile.email)
                    if showsVATIDs, !profile.vatID.isEmpty {
                        xml.element("ram:SpecifiedTaxRegistration") { $0.leaf("ram:ID", VATID.normalized(profile.vatID), ["schemeID": "VA"]) }
                    }
                    if !profile.taxID.isEmpty {
                        xml.element("ram:SpecifiedTaxRegistration") { $0.leaf("ram:ID", profile.taxID, ["schemeID": "FC"]) }
                    }
                }
                xml.element("ram:BuyerTradeParty") { xml in
                    xml.leaf("ram:Name", buyer.name)
                    address(&xml, address: buyer.address, postcode: buyer.postcode, city: buyer.city, country: buyer.countryCode)
                    electronicAddress(&xml, buyer.electronicAddress, fallback: buyer.email)
                    if showsVATIDs, !buyer.vatID.isEmpty {
                        xml.element("ram:SpecifiedTaxRegistration") { $0.leaf("ram:ID", VATID.normalized(buyer.vatID), ["schemeID": "VA"]) }
                    }
                }
                let order = invoice.purchaseOrderReference.trimmingCharacters(in: .whitespaces)
                if !order.isEmpty {
                    xml.element("ram:BuyerOrderReferencedDocument") { $0.leaf("ram:IssuerAssignedID", order) }
                }
            }
        }

        private func contact(_ xml: inout XMLWriter) {
            guard !profile.contactName.isEmpty || !profile.phone.isEmpty || !profile.email.isEmpty else { return }
            xml.element("ram:DefinedTradeContact") { xml in
                xml.optionalLeaf("ram:PersonName", profile.contactName)
                if !profile.phone.isEmpty {
                    xml.element("ram:TelephoneUniversalCommunication") { $0.leaf("ram:CompleteNumber", profile.phone) }
                }
                if !profile.email.isEmpty {
                    xml.element("ram:EmailURIUniversalCommunication") { $0.leaf("ram:URIID", profile.email) }
                }
            }
        }

        private func address(_ xml: inout XMLWriter, address: String, postcode: String, city: String, country: String) {
            xml.element("ram:PostalTradeAddress") { xml in
                xml.optionalLeaf("ram:PostcodeCode", postcode)
                let lines = PrintedAddress.streetLines(address: address, postcode: postcode, city: city, countryCode: country)
                // CII has three address lines; any further ones join the third.
                for (index, name) in ["ram:LineOne", "ram:LineTwo", "ram:LineThree"].enumerated() where index < lines.count {
                    xml.leaf(name, index == 2 ? lines[2...].joined(separator: ", ") : lines[index])
                }
                xml.optionalLeaf("ram:CityName", city)
                xml.leaf("ram:CountryID", country)
            }
        }

        private func electronicAddress(_ xml: inout XMLWriter, _ text: String, fallback email: String) {
            guard let address = ElectronicAddress(text.isEmpty ? email : text) else { return }
            xml.element("ram:URIUniversalCommunication") { $0.leaf("ram:URIID", address.identifier, ["schemeID": address.scheme]) }
        }

        // MARK: Delivery (BG-13, BT-72)

        private func delivery(_ xml: inout XMLWriter) {
            xml.element("ram:ApplicableHeaderTradeDelivery") { xml in
                // An intra-EU supply names the country it went to (BR-IC-12): the client's.
                if invoice.vatCategories.contains(.intraCommunity) {
                    xml.element("ram:ShipToTradeParty") { xml in
                        xml.leaf("ram:Name", buyer.name)
                        address(&xml, address: buyer.address, postcode: buyer.postcode, city: buyer.city, country: buyer.countryCode)
                    }
                }
                if let day = invoice.deliveryDate, invoice.deliveryEndDate == nil {
                    xml.element("ram:ActualDeliverySupplyChainEvent") { date(&$0, "ram:OccurrenceDateTime", day) }
                }
            }
        }

        // MARK: Settlement (BG-16, BG-20, BG-22, BG-23)

        private func settlement(_ xml: inout XMLWriter) {
            xml.element("ram:ApplicableHeaderTradeSettlement") { xml in
                xml.leaf("ram:PaymentReference", invoice.number)
                xml.leaf("ram:InvoiceCurrencyCode", currency.code)
                paymentMeans(&xml)
                for line in totals.taxLines {
                    xml.element("ram:ApplicableTradeTax") { xml in
                        xml.leaf("ram:CalculatedAmount", amount(line.tax))
                        xml.leaf("ram:TypeCode", "VAT")
                        xml.optionalLeaf("ram:ExemptionReason", exemptionReason(line.category))
                        xml.leaf("ram:BasisAmount", amount(line.taxableAmount))
                        xml.leaf("ram:CategoryCode", line.category.code)
                        xml.optionalLeaf("ram:ExemptionReasonCode", line.category.exemptionReasonCode)
                        xml.leaf("ram:RateApplicablePercent", plain(line.rate))
                    }
                }
                if let start = invoice.deliveryDate, let end = invoice.deliveryEndDate {
                    xml.element("ram:BillingSpecifiedPeriod") { xml in
                        date(&xml, "ram:StartDateTime", start)
                        date(&xml, "ram:EndDateTime", end)
                    }
                }
                // The invoice discount, one document-level allowance per VAT group (BG-20).
                for line in totals.taxLines where line.discount.isPositive {
                    xml.element("ram:SpecifiedTradeAllowanceCharge") { xml in
                        xml.element("ram:ChargeIndicator") { $0.leaf("udt:Indicator", "false") }
                        xml.leaf("ram:ActualAmount", amount(line.discount))
                        xml.leaf("ram:Reason", tr("Discount"))
                        tax(&xml, "ram:CategoryTradeTax", category: line.category, rate: line.rate)
                    }
                }
                xml.element("ram:SpecifiedTradePaymentTerms") { xml in
                    let terms = profile.paymentInstructions.trimmingCharacters(in: .whitespacesAndNewlines)
                    xml.optionalLeaf("ram:Description", terms)
                    date(&xml, "ram:DueDateDateTime", invoice.dueDate)
                }
                xml.element("ram:SpecifiedTradeSettlementHeaderMonetarySummation") { xml in
                    xml.leaf("ram:LineTotalAmount", amount(totals.subtotal))
                    if !totals.discount.isZero { xml.leaf("ram:AllowanceTotalAmount", amount(totals.discount)) }
                    xml.leaf("ram:TaxBasisTotalAmount", amount(totals.netTotal))
                    xml.leaf("ram:TaxTotalAmount", amount(totals.tax), ["currencyID": currency.code])
                    xml.leaf("ram:GrandTotalAmount", amount(totals.total))
                    if !totals.paid.isZero { xml.leaf("ram:TotalPrepaidAmount", amount(totals.paid)) }
                    // Credit notes are documents of their own: this one owes its total less payments (BR-CO-16).
                    xml.leaf("ram:DuePayableAmount", amount(Money(minorUnits: totals.total.minorUnits - totals.paid.minorUnits,
                                                                  currency: currency)))
                }
                precedingInvoice(&xml)
            }
        }

        /// 380, a commercial invoice, or 381, a credit note (UNTDID 1001).
        private var typeCode: String {
            if case .creditNote = document.kind { return "381" }
            return "380"
        }

        /// A credit note names the invoice it corrects and that invoice's date (BG-3: BT-25, BT-26).
        private func precedingInvoice(_ xml: inout XMLWriter) {
            guard case .creditNote(let credited) = document.kind else { return }
            xml.element("ram:InvoiceReferencedDocument") { xml in
                xml.leaf("ram:IssuerAssignedID", credited.number)
                xml.element("ram:FormattedIssueDateTime") {
                    $0.leaf("qdt:DateTimeString", String(format: "%04d%02d%02d", credited.issueDate.year,
                                                          credited.issueDate.month, credited.issueDate.day), ["format": "102"])
                }
            }
        }

        /// A SEPA credit transfer to the profile's IBAN (code 58), else "not defined" (code 1).
        private func paymentMeans(_ xml: inout XMLWriter) {
            let iban = profile.iban.filter { !$0.isWhitespace }.uppercased()
            xml.element("ram:SpecifiedTradeSettlementPaymentMeans") { xml in
                guard !iban.isEmpty else {
                    xml.leaf("ram:TypeCode", "1")
                    return
                }
                xml.leaf("ram:TypeCode", "58")
                xml.element("ram:PayeePartyCreditorFinancialAccount") { $0.leaf("ram:IBANID", iban) }
                let bic = profile.bic.filter { !$0.isWhitespace }.uppercased()
                if !bic.isEmpty {
                    xml.element("ram:PayeeSpecifiedCreditorFinancialInstitution") { $0.leaf("ram:BICID", bic) }
                }
            }
        }

        private func exemptionReason(_ category: VATCategory) -> String? {
            category == .exempt ? invoice.exemptionReason.trimmingCharacters(in: .whitespacesAndNewlines) : category.legalNote
        }

        private func tax(_ xml: inout XMLWriter, _ name: String, category: VATCategory, rate: Decimal) {
            xml.element(name) { xml in
                xml.leaf("ram:TypeCode", "VAT")
                xml.leaf("ram:CategoryCode", category.code)
                // A line not subject to VAT carries no rate (BR-O-5).
                if category != .notSubject { xml.leaf("ram:RateApplicablePercent", plain(rate)) }
            }
        }

        // MARK: Values

        private func date(_ xml: inout XMLWriter, _ name: String, _ day: CalendarDay) {
            xml.element(name) {
                $0.leaf("udt:DateTimeString", String(format: "%04d%02d%02d", day.year, day.month, day.day), ["format": "102"])
            }
        }

        /// Minor units as a decimal with the currency's digits, e.g. 1234 cents → "12.34", worked
        /// out on the integer (Decimal arithmetic would be most of the writer's time).
        private func amount(_ money: Money) -> String {
            let exponent = money.currency.minorUnitExponent
            var digits = String(money.minorUnits.magnitude)
            if exponent > 0 {
                if digits.count <= exponent { digits = String(repeating: "0", count: exponent + 1 - digits.count) + digits }
                digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -exponent))
            }
            return money.isNegative ? "-" + digits : digits
        }

        /// A decimal the way XML Schema writes it: a point, no grouping, no exponent.
        private func plain(_ value: Decimal) -> String {
            value.description
        }
    }
}
