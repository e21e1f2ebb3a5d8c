"""Quotes and credit notes as a person uses them: a quote typed into the form, sent, accepted and
turned into an invoice that names its quote; and a sent invoice corrected by a partial credit note
and then cancelled by a full one, its balance following each."""
import time

from harness import TestFailure, wait_until
from test_invoices import create_invoice, fill_focused_line, in_window, keys, newest_window, press, press_action, saved_and_closed, value_in_row


def on_screen(node):
    """Whether the node is laid out in a visible part of the window (GTK 4.8 reports no
    "showing" state, but a hidden widget has no size)."""
    return node.size[0] > 0 and node.size[1] > 0


def open_list(app, title):
    """Chooses Invoices, Quotes or Credit Notes in the view switcher above the list."""
    switch = wait_until(lambda: next((node for node in app.window.findChildren(
        lambda n: n.roleName == "push button" and (n.name or "").replace("_", "") in (title, f"{title} {title}")
        and on_screen(n), showingOnly=False)), None), message=f"the “{title}” switch")
    press(switch)


def badge_shown(app, text):
    return any(on_screen(node) for node in app.window.findChildren(
        lambda n: n.roleName == "label" and n.name == text, showingOnly=False))


def shown_label_starting(app, prefix):
    for node in app.window.findChildren(lambda n: n.roleName == "label" and (n.name or "").startswith(prefix),
                                        showingOnly=False):
        if on_screen(node):
            return node.name
    return None


def credit_note_rows(window):
    """The credit note list's rows on screen, each named "CN-…, client, amount"."""
    return [node for node in window.findChildren(
        lambda n: n.roleName == "list item" and (n.name or "").startswith("CN-"), showingOnly=False)
        if on_screen(node)]


def credit_one_logo_draft(app):
    """Opens Create Credit Note… on the shown invoice (create_invoice's) and credits one of its
    three logo drafts and nothing else; returns the dialog, not yet issued."""
    press_action(app.window, "Create Credit Note…")
    dialog = wait_until(lambda: newest_window(app) if newest_window(app).name == "Create Credit Note" else None,
                        message="the credit note dialog")
    app.type_into(in_window(dialog, "text", "Logo design, three drafts"), "1", replace=True)
    app.type_into(in_window(dialog, "text", "Hosting"), "0", replace=True)
    app.type_into(in_window(dialog, "text", "Style guide booklet"), "0", replace=True)
    return dialog


def test_a_quote_is_sent_accepted_and_becomes_an_invoice(app):
    app.find("list item", "Invoices").click()
    open_list(app, "Quotes")
    in_window(app.window, "label", "No Quotes")
    press(app.find("push button", "New Quote"))
    form = wait_until(lambda: newest_window(app) if newest_window(app).name == "New Quote" else None,
                      message="the New Quote form")
    in_window(form, "label", "Valid Until")

    in_window(form, "push button", "New Client…").click()
    client_form = wait_until(lambda: newest_window(app) if newest_window(app).name == "New Client" else None,
                             message="the New Client form")
    app.type_into(in_window(client_form, "text", "Name"), "Acme & Sons")
    in_window(client_form, "push button", "Save").click()
    wait_until(lambda: newest_window(app).name == "New Quote", message="back in the quote form")

    app.type_into(in_window(form, "text", "Description", 0), "")
    fill_focused_line("Website concept", "2", "150.00", "19")
    # 300.00 and 19 % tax.
    wait_until(lambda: value_in_row(form, "Total") == "$357.00",
               message=f"the quote's total $357.00, saw {value_in_row(form, 'Total')!r}")
    press(in_window(form, "push button", "Save"))
    saved_and_closed(app, "New Quote")

    main = app.window
    number = wait_until(lambda: shown_label_starting(app, "QUO-"), message="the quote's number")
    wait_until(lambda: badge_shown(app, "Draft"), message="the Draft badge")
    press(in_window(main, "push button", "Mark as Sent"))
    wait_until(lambda: badge_shown(app, "Sent"), message="the Sent badge")
    press(in_window(main, "push button", "Accept"))
    wait_until(lambda: badge_shown(app, "Accepted"), message="the Accepted badge")
    press(in_window(main, "push button", "Convert to Invoice"))

    # The new invoice opens in the invoice list and names the quote it came from.
    wait_until(lambda: shown_label_starting(app, "INV-"), message="the new invoice")
    invoice_number = shown_label_starting(app, "INV-")
    in_window(main, "label", "From Quote")
    wait_until(lambda: shown_label_starting(app, number + " of "), message=f"the link to {number}")
    wait_until(lambda: value_in_row(main, "Balance Due") == "$357.00",
               message=f"the invoice's balance $357.00, saw {value_in_row(main, 'Balance Due')!r}")

    # Back on the quote, it names its invoice and can no longer be converted.
    open_list(app, "Quotes")
    in_window(main, "label", "Became Invoice")
    wait_until(lambda: shown_label_starting(app, invoice_number), message="the link to the invoice")
    if any(on_screen(node) for node in main.findChildren(
            lambda n: n.roleName == "push button" and (n.name or "").replace("_", "").startswith("Convert to Invoice"),
            showingOnly=False)):
        raise TestFailure("a converted quote still offers Convert to Invoice")


def test_a_sent_invoice_is_corrected_and_then_cancelled_by_credit_notes(app):
    create_invoice(app)
    main = app.window
    press(in_window(main, "push button", "Mark as Sent"))
    wait_until(lambda: badge_shown(app, "Sent"), message="the Sent badge")
    # A sent invoice is no longer edited or deleted.
    for name in ["Edit", "Delete"]:
        if any(on_screen(node) for node in main.findChildren(
                lambda n: n.roleName == "push button" and (n.name or "").replace("_", "") == name, showingOnly=False)):
            raise TestFailure(f"a sent invoice still offers {name}")

    # A partial credit note: one of the three logo drafts.
    dialog = credit_one_logo_draft(app)
    app.type_into(in_window(dialog, "text", "Reason"), "One draft was not delivered")
    # 100.00 and 19 % tax.
    wait_until(lambda: value_in_row(dialog, "Credit Note Total") == "$119.00",
               message=f"the credit note's total $119.00, saw {value_in_row(dialog, 'Credit Note Total')!r}")
    # More than was billed is refused, and says why.
    app.type_into(in_window(dialog, "text", "Hosting"), "13", replace=True)
    in_window(dialog, "label", "Line 2 has only 12 left to credit. Enter at most that quantity.")
    app.type_into(in_window(dialog, "text", "Hosting"), "0", replace=True)
    press(in_window(dialog, "push button", "Issue"))
    wait_until(lambda: newest_window(app).name != "Create Credit Note", message="the dialog to close")

    # 449.66 − 119.00.
    wait_until(lambda: value_in_row(main, "Balance Due") == "$330.66",
               message=f"the balance $330.66 after the credit note, saw {value_in_row(main, 'Balance Due')!r}")
    first = wait_until(lambda: shown_label_starting(app, "Credit Note CN-"), message="the credit note on the invoice")
    # The sum is named after its caption too: "$330.66 Outstanding".
    wait_until(lambda: app.value_next_to("Outstanding").startswith("$330.66"),
               message=f"the outstanding sum $330.66, saw {app.value_next_to('Outstanding')!r}")

    # A full credit note for what is left cancels the invoice.
    press_action(main, "Create Credit Note…")
    dialog = wait_until(lambda: newest_window(app) if newest_window(app).name == "Create Credit Note" else None,
                        message="the credit note dialog again")
    wait_until(lambda: value_in_row(dialog, "Credit Note Total") == "$330.66",
               message=f"the rest, $330.66, saw {value_in_row(dialog, 'Credit Note Total')!r}")
    press(in_window(dialog, "push button", "Issue"))
    wait_until(lambda: newest_window(app).name != "Create Credit Note", message="the dialog to close")
    wait_until(lambda: badge_shown(app, "Cancelled"), message="the invoice to be cancelled")
    wait_until(lambda: value_in_row(main, "Balance Due") == "$0.00", message="nothing left to pay")
    if any(on_screen(node) for node in main.findChildren(
            lambda n: n.roleName == "push button" and (n.name or "").replace("_", "").startswith("Create Credit Note"),
            showingOnly=False)):
        raise TestFailure("a cancelled invoice still offers a credit note")

    # Both are in the credit note list; each row reads as its number, client and amount.
    open_list(app, "Credit Notes")
    wait_until(lambda: len(credit_note_rows(main)) == 2, message="two credit notes in the list")
    time.sleep(0.2)
    if not first:
        raise TestFailure("the first credit note had no number")

    # A chosen credit note saves as XRechnung; without a business profile it says what is missing.
    credit_note_rows(main)[0].click()
    press(in_window(main, "push button", "Save XRechnung…"))
    problem = wait_until(lambda: newest_window(app) if newest_window(app) != main else None,
                         message="the dialog saying what the e-invoice lacks")
    in_window(problem, "label", "Not Ready to Be an E-Invoice")
    keys("Escape")
    wait_until(lambda: newest_window(app) == main, message="the dialog to close with Escape")


def test_a_paid_invoice_credited_is_refunded(app):
    """A paid invoice credited afterwards owes the client a refund; Record Refund… takes what
    goes back, refuses more than that, and leaves nothing recorded on Escape."""
    create_invoice(app)
    main = app.window
    press(in_window(main, "push button", "Mark as Sent"))
    press_action(main, "Mark as Paid")
    wait_until(lambda: value_in_row(main, "Balance Due") == "$0.00", message="the invoice paid")

    dialog = credit_one_logo_draft(app)
    wait_until(lambda: value_in_row(dialog, "Credit Note Total") == "$119.00", message="the credit note's total")
    press(in_window(dialog, "push button", "Issue"))
    wait_until(lambda: newest_window(app).name != "Create Credit Note", message="the dialog to close")
    wait_until(lambda: value_in_row(main, "Refund Due") == "$119.00",
               message=f"a refund due of $119.00, saw {value_in_row(main, 'Refund Due')!r}")

    def open_refund_dialog():
        press(in_window(main, "push button", "Record Refund…"))
        return wait_until(lambda: newest_window(app) if newest_window(app).name == "Record Refund" else None,
                          message="the Record Refund dialog")

    # Typed into, then left with Escape and Discard: nothing is recorded.
    dialog = open_refund_dialog()
    app.type_into(in_window(dialog, "text", "Note"), "Bank transfer back")
    keys("Escape")
    press(in_window(newest_window(app), "push button", "Discard"))
    wait_until(lambda: newest_window(app).name != "Record Refund", message="Record Refund to close")
    if value_in_row(main, "Refund Due") != "$119.00":
        raise TestFailure(f"leaving with Escape changed the refund due to {value_in_row(main, 'Refund Due')!r}")

    dialog = open_refund_dialog()
    record = in_window(dialog, "push button", "Record")
    app.type_into(in_window(dialog, "text", "Amount"), "500.00", replace=True)
    wait_until(lambda: not record.sensitive, message="Record to turn off for more than is due")
    in_window(dialog, "label", "The refund is more than the $119.00 due to the client. Enter at most that amount.")
    app.type_into(in_window(dialog, "text", "Amount"), "119.00", replace=True)
    app.type_into(in_window(dialog, "text", "Note"), "Bank transfer back")
    wait_until(lambda: record.sensitive, message="Record to turn on")
    press(record)
    wait_until(lambda: newest_window(app).name != "Record Refund", message="Record Refund to close")
    wait_until(lambda: value_in_row(main, "Balance Due") == "$0.00",
               message=f"nothing left due either way, saw {value_in_row(main, 'Balance Due')!r}")
    in_window(main, "label", "Refund · Bank transfer back", timeout=5)


def test_a_credit_note_takes_off_an_amount(app):
    """A price reduction: the credit note takes an amount off one VAT group without taking any
    line back; more than that group was billed is refused, and says why."""
    create_invoice(app)
    main = app.window
    press(in_window(main, "push button", "Mark as Sent"))

    def open_for_an_amount():
        press_action(main, "Create Credit Note…")
        dialog = wait_until(lambda: newest_window(app) if newest_window(app).name == "Create Credit Note" else None,
                            message="the credit note dialog")
        in_window(dialog, "combo box", "Credit").click()
        time.sleep(0.5)
        keys("Down", "Return")
        return dialog, wait_until(lambda: in_window(dialog, "text", "Net Amount"), message="the amount to take off")

    # Typed into, then left with Escape, and with Cancel: nothing is issued.
    for leave in ("Escape", "Cancel"):
        dialog, amount = open_for_an_amount()
        app.type_into(amount, "10.00", replace=True)
        if leave == "Escape":
            keys("Escape")
        else:
            press(in_window(dialog, "push button", "Cancel"))
        wait_until(lambda: newest_window(app).name != "Create Credit Note", message=f"the dialog to close with {leave}")
        if value_in_row(main, "Balance Due") != "$449.66":
            raise TestFailure(f"leaving with {leave} changed the balance to {value_in_row(main, 'Balance Due')!r}")

    dialog, amount = open_for_an_amount()
    issue = in_window(dialog, "push button", "Issue")
    # The lowest VAT rate comes first: 20.00 was billed at 7 %.
    app.type_into(amount, "25.00", replace=True)
    wait_until(lambda: not issue.sensitive, message="Issue to turn off for more than was billed")
    in_window(dialog, "label", "Only $20.00 billed at 7% VAT is left to credit, before any discount. Take off at most that.")
    app.type_into(amount, "10.00", replace=True)
    app.type_into(in_window(dialog, "text", "Description"), "Delivered a week late", replace=True)
    # 10.00 and 7 % tax.
    wait_until(lambda: value_in_row(dialog, "Credit Note Total") == "$10.70",
               message=f"the credit note's total $10.70, saw {value_in_row(dialog, 'Credit Note Total')!r}")
    wait_until(lambda: issue.sensitive, message="Issue to turn on")
    press(issue)
    wait_until(lambda: newest_window(app).name != "Create Credit Note", message="the dialog to close")
    # 449.66 − 10.70, and the invoice is still sent: nothing was taken back.
    wait_until(lambda: value_in_row(main, "Balance Due") == "$438.96",
               message=f"the balance $438.96, saw {value_in_row(main, 'Balance Due')!r}")
    wait_until(lambda: badge_shown(app, "Sent"), message="the invoice still sent")
