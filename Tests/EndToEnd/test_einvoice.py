"""A supplier's e-invoice added to a trip as a person does it: the trip's "Add from an
E-Invoice…" button, the file chooser, and the expense in the trip's list and total. (The VAT per
rate in the expense dialog is checked by the widget tests: GTK 4.8 exposes no action to open a
list row through accessibility.)"""
import os
import shutil
import tempfile
import time

from dogtail import rawinput
from harness import TestFailure, wait_until
from test_expenses import create_trip, gone, named, window_titled
from test_invoices import press_action

CII = """<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
    xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
    xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocument><ram:ID>RE-2026-0042</ram:ID><ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20260311</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Papeterie Müller GmbH</ram:Name></ram:SellerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>USD</ram:InvoiceCurrencyCode>
      <ram:ApplicableTradeTax><ram:CalculatedAmount>19.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>
        <ram:BasisAmount>100.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode>
        <ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
      <ram:ApplicableTradeTax><ram:CalculatedAmount>3.50</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>
        <ram:BasisAmount>50.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode>
        <ram:RateApplicablePercent>7</ram:RateApplicablePercent></ram:ApplicableTradeTax>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:TaxBasisTotalAmount>150.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="USD">22.50</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>172.50</ram:GrandTotalAmount>
        <ram:DuePayableAmount>172.50</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
"""


def test_an_einvoice_becomes_an_expense_with_its_vat(app):
    work = tempfile.mkdtemp(prefix="billfold-e2e-einvoice-")
    try:
        path = os.path.join(work, "RE-2026-0042.xml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(CII)
        create_trip(app)
        press_action(app.window, "Add from an E-Invoice…")
        window_titled(app, "Add from an E-Invoice")
        time.sleep(1)
        # GTK's chooser opens its location field when a path is typed.
        rawinput.typeText(path)
        time.sleep(0.5)
        rawinput.pressKey("Return")
        gone(app, "Add from an E-Invoice")
        wait_until(lambda: app.value_next_to("Trip Total") == "$172.50",
                   message=f"the total $172.50, saw {app.value_next_to('Trip Total')!r}")
        app.find("label", "Papeterie Müller GmbH")

        # The receipt is the XML file, shown as a document beside the amount.
        app.find("label", "$172.50")
    finally:
        shutil.rmtree(work, ignore_errors=True)
