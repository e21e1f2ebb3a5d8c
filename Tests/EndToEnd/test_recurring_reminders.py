"""Recurring invoices and payment reminders as a person uses them: a monthly recurring invoice
started two months back issues the three months it missed, once, whatever runs again; and an
overdue invoice gets a first dunning notice with a fee and interest, saved as PDF and listed on
the invoice."""
import datetime
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time

from harness import TestFailure, wait_until
from test_billfold_pro import LICENCE, PUBLIC_KEY, find_anywhere, plan_shown, require_licence
from test_invoices import in_window, keys, newest_window, press, press_action, saved_and_closed, type_text, value_in_row
from test_monkey import click_named, exercise

APP_OPTIONS = {
    # Without the portal, the save dialog is GTK's own, in the app's accessibility tree.
    "test_a_first_dunning_notice_with_a_fee_and_interest_is_saved_and_listed": {
        "extra_env": {"BILLFOLD_TEST_LICENSE_PUBLIC_KEY": PUBLIC_KEY, "GTK_USE_PORTAL": "0"}},
}


def window_named(app, name):
    return wait_until(lambda: newest_window(app) if newest_window(app).name == name else None,
                      message=f"the {name} window")


def add_client(app, name):
    app.find("list item", "Invoices").click()
    press_action(app.window, "Clients")
    clients = window_named(app, "Clients")
    press(in_window(clients, "push button", "New Client"))
    form = window_named(app, "New Client")
    app.type_into(in_window(form, "text", "Name"), name)
    press(in_window(form, "push button", "Save"))
    wait_until(lambda: newest_window(app).name == "Clients", message="back in the client list")
    keys("Escape")
    wait_until(lambda: newest_window(app).name != "Clients", message="the client list to close")


def fill_focused_line(description, price, tax):
    """Replaces the focused description, then the quantity, price and tax, with the keyboard."""
    keys("<Control>a")
    type_text(description)
    keys("<Control>Tab")
    type_text("1")
    keys("Tab")
    type_text(price)
    keys("Tab")
    type_text(tax)


def invoice_numbers(app):
    """The numbers of the invoice list's rows, each named "number, client, amount, status"."""
    return sorted({node.name.split(",")[0] for node in app.window.findChildren(
        lambda n: (n.name or "").startswith("INV-") and "," in n.name, showingOnly=False)})


def months_back(today, count):
    year, month = today.year, today.month - count
    while month < 1:
        month += 12
        year -= 1
    return datetime.date(year, month, 1)


def test_a_recurring_invoice_started_two_months_back_issues_three_months_once(app):
    add_client(app, "Acme & Sons")
    press_action(app.window, "Recurring Invoices")
    recurring = window_named(app, "Recurring Invoices")
    press(in_window(recurring, "push button", "New Recurring Invoice"))
    form = window_named(app, "New Recurring Invoice")

    today = datetime.date.today()
    start = months_back(today, 2)
    app.type_into(in_window(form, "text", "First Issue Date"), start.isoformat(), replace=True)
    app.type_into(in_window(form, "text", "Description"), "")
    fill_focused_line("Retainer {period}", "500.00", "19")
    save = in_window(form, "push button", "Save")
    wait_until(lambda: save.sensitive, message="Save to turn on")
    press(save)

    # Saving issues what is due at once: the three months, each once.
    wait_until(lambda: newest_window(app).name == "Recurring Invoices", message="back in Recurring Invoices")
    in_window(recurring, "label", "3 recurring invoices issued.")
    keys("Escape")
    wait_until(lambda: len(invoice_numbers(app)) == 3, message="three invoices in the list")

    periods = [months_back(today, back).strftime("%B %Y") for back in (2, 1, 0)]
    with sqlite3.connect(f"file:{app.database}?mode=ro", uri=True) as database:
        descriptions = [row[0] for row in database.execute(
            "SELECT l.description FROM invoices_line l JOIN invoices_invoice i ON i.id = l.invoice_id ORDER BY i.id")]
    if descriptions != [f"Retainer {period}" for period in periods]:
        raise TestFailure(f"the invoices are for {descriptions}, not {periods}")

    # Running again, from the terminal or by starting Billfold, issues nothing twice.
    result = app.command("invoice", "recurring", "run")
    if result.returncode != 0 or result.stdout.strip() != "No recurring invoice is due.":
        raise TestFailure(f"a second run said {result.stdout!r} {result.stderr!r}")
    app.restart()
    app.find("list item", "Invoices").click()
    time.sleep(2)
    numbers = invoice_numbers(app)
    if len(numbers) != 3:
        raise TestFailure(f"after a restart the list shows {numbers}")
    # The newest shows its period among its lines.
    row = wait_until(lambda: next(iter(app.window.findChildren(
        lambda n: (n.name or "").startswith(numbers[-1] + ","), showingOnly=False)), None), message="the newest row")
    row.click()
    in_window(app.window, "label", "Retainer " + periods[-1])


def test_billfold_started_after_months_closed_issues_each_missed_month_once(app):
    """A recurring invoice saved before Billfold was closed, its start two months back: the next
    start issues the three months, each once."""
    add_client(app, "Globex")
    app.stop()
    today = datetime.date.today()
    start = months_back(today, 2)
    with sqlite3.connect(app.database) as database:
        client = database.execute("SELECT id FROM invoices_client WHERE name = 'Globex'").fetchone()[0]
        database.execute("INSERT INTO invoices_recurring (client_id, currency, interval, start_date, issue_mode, notes) "
                         "VALUES (?, 'USD', 'monthly', ?, 'sent', '')", (client, start.isoformat()))
        database.execute("INSERT INTO invoices_recurring_line (recurring_id, position, description, quantity, unit, "
                         "unit_price_minor, tax_rate, vat_category, unit_code) "
                         "VALUES (last_insert_rowid(), 0, 'Hosting {period}', '1', '', 2000, '19', 'S', 'C62')")
    app.restart()
    app.find("list item", "Invoices").click()
    wait_until(lambda: len(invoice_numbers(app)) == 3, message="three invoices issued on start-up")
    in_window(app.window, "label", "3 recurring invoices issued.")

    periods = [months_back(today, back).strftime("%B %Y") for back in (2, 1, 0)]
    with sqlite3.connect(f"file:{app.database}?mode=ro", uri=True) as database:
        issued = database.execute("SELECT l.description, i.status FROM invoices_line l "
                                  "JOIN invoices_invoice i ON i.id = l.invoice_id ORDER BY i.id").fetchall()
    if issued != [(f"Hosting {period}", "sent") for period in periods]:
        raise TestFailure(f"start-up issued {issued}, not the sent invoices for {periods}")

    app.restart()
    app.find("list item", "Invoices").click()
    time.sleep(2)
    if len(invoice_numbers(app)) != 3:
        raise TestFailure(f"a second start changed the list to {invoice_numbers(app)}")
    result = app.command("invoice", "recurring", "run")
    if result.stdout.strip() != "No recurring invoice is due.":
        raise TestFailure(f"the command after the start said {result.stdout!r} {result.stderr!r}")


def create_overdue_invoice(app, days_ago):
    """A sent invoice for 1 000.00 plus 19 % tax, issued `days_ago` days ago with 14 days to pay."""
    add_client(app, "Acme & Sons")
    press(in_window(app.window, "push button", "New Invoice"))
    form = window_named(app, "New Invoice")
    issued = datetime.date.today() - datetime.timedelta(days=days_ago)
    app.type_into(in_window(form, "text", "Issue Date"), issued.isoformat(), replace=True)
    app.type_into(in_window(form, "text", "Description", 0), "")
    fill_focused_line("Consulting", "1000.00", "19")
    save = in_window(form, "push button", "Save")
    wait_until(lambda: save.sensitive, message="Save to turn on")
    press(save)
    saved_and_closed(app, "New Invoice")
    press(in_window(app.window, "push button", "Mark as Sent"))
    wait_until(lambda: value_in_row(app.window, "Balance Due") == "$1,190.00", message="the sent invoice")
    return issued + datetime.timedelta(days=14)


def test_a_first_dunning_notice_with_a_fee_and_interest_is_saved_and_listed(app):
    require_licence()
    app.find("list item", "Billfold Pro").click()
    find_anywhere(app, "push button", "Enter Licence…").click()
    app.type_into(find_anywhere(app, "text", "Licence text"), LICENCE.strip())
    activate = find_anywhere(app, "push button", "Activate")
    wait_until(lambda: activate.sensitive, timeout=20, message="Activate to be enabled by a valid licence")
    activate.click()
    wait_until(lambda: plan_shown(app) == "Billfold Pro", message="Billfold Pro")

    due = create_overdue_invoice(app, days_ago=44)
    press_action(app.window, "Send Reminder…")
    dialog = window_named(app, "Send Reminder")

    # The level follows the reminders sent so far; a first dunning notice is chosen from the list.
    level = in_window(dialog, "combo box", "Level")
    level.click()
    time.sleep(0.5)
    keys("Down", "Return")
    wait_until(lambda: in_window(dialog, "label", "First Dunning Notice"), message="the first dunning notice chosen")
    app.type_into(in_window(dialog, "text", "Fee"), "5.00", replace=True)
    app.type_into(in_window(dialog, "text", "Interest Rate per Year"), "9.12", replace=True)

    # 1 190.00 at 9.12 % for each day since the due date, over 365 days, rounded once.
    days = (datetime.date.today() - due).days
    cents = (119000 * 912 * days * 2 + 3650000) // (2 * 3650000)
    interest = f"${cents // 100}.{cents % 100:02d}"
    total_cents = 119000 + 500 + cents
    total = f"${total_cents // 100:,}.{total_cents % 100:02d}"
    wait_until(lambda: value_in_row(dialog, "Total to Pay") == total,
               message=f"the total {total}, saw {value_in_row(dialog, 'Total to Pay')!r}")

    folder = tempfile.mkdtemp(prefix="billfold-e2e-reminder-")
    try:
        target = os.path.join(folder, "reminder.pdf")
        press(in_window(dialog, "push button", "Save PDF…"))
        window_named(app, "Save PDF")
        time.sleep(1)
        keys("<Control>a")
        type_text(target)
        keys("Return")
        wait_until(lambda: os.path.exists(target), timeout=20, message=f"{target} to be written")
        text = subprocess.run(["pdftotext", "-layout", target, "-"], check=True, capture_output=True, text=True).stdout
        flat = " ".join(text.split())
        for expected in ("First Dunning Notice", "Acme & Sons", "Reminder fee $5.00",
                         f"Interest at 9.12% a year for {days} days {interest}", f"Total to pay {total}"):
            if expected not in flat:
                raise TestFailure(f"the reminder PDF lacks {expected!r}: {flat[:600]!r}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    press(in_window(dialog, "push button", "Close"))
    wait_until(lambda: newest_window(app).name != "Send Reminder", message="the dialog to close")
    # The invoice's history lists it.
    in_window(app.window, "label", "Reminders")
    in_window(app.window, "label", "First Dunning Notice")


def test_the_recurring_and_reminder_dialogs_survive_typing_escape_and_cancel(app):
    create_overdue_invoice(app, days_ago=44)

    def open_recurring_form():
        press_action(app.window, "Recurring Invoices")
        press(in_window(window_named(app, "Recurring Invoices"), "push button", "New Recurring Invoice"))
        window_named(app, "New Recurring Invoice")
    exercise(app, "New Recurring Invoice", open_recurring_form)
    exercise(app, "Send Reminder…", click_named(app, "Send Reminder…"))
    # Nothing was recorded or issued on the way.
    with sqlite3.connect(f"file:{app.database}?mode=ro", uri=True) as database:
        counts = database.execute("SELECT (SELECT count(*) FROM invoices_reminder), (SELECT count(*) FROM invoices_recurring), "
                                  "(SELECT count(*) FROM invoices_invoice)").fetchone()
    if counts != (0, 0, 1):
        raise TestFailure(f"typing and leaving left reminders, recurring invoices, invoices: {counts}")


def test_a_client_with_a_recurring_invoice_is_not_deleted_with_it(app):
    """Deleting a client asks nothing away: while a recurring invoice is made for it, the client
    window says so, and Escape leaves both as they were."""
    add_client(app, "Globex")
    app.stop()
    start = datetime.date.today() + datetime.timedelta(days=30)
    with sqlite3.connect(app.database) as database:
        client = database.execute("SELECT id FROM invoices_client WHERE name = 'Globex'").fetchone()[0]
        database.execute("INSERT INTO invoices_recurring (client_id, currency, interval, start_date, issue_mode, notes) "
                         "VALUES (?, 'USD', 'monthly', ?, 'draft', '')", (client, start.isoformat()))
        database.execute("INSERT INTO invoices_recurring_line (recurring_id, position, description, quantity, unit, "
                         "unit_price_minor, tax_rate, vat_category, unit_code) "
                         "VALUES (last_insert_rowid(), 0, 'Hosting {period}', '1', '', 2000, '19', 'S', 'C62')")
    app.restart()
    app.find("list item", "Invoices").click()
    press_action(app.window, "Clients")
    clients = window_named(app, "Clients")
    row = wait_until(lambda: next(iter(clients.findChildren(
        lambda n: (n.name or "").startswith("Globex, ") and n.roleName == "list item" and n.size[0] > 0, showingOnly=False)), None),
        message="Globex in the client list")
    row.click()
    press(in_window(clients, "push button", "Delete"))
    dialog = wait_until(lambda: newest_window(app) if newest_window(app).name != "Clients" else None,
                        message="the dialog that says why not")
    in_window(dialog, "label", "Globex Cannot Be Deleted Yet")
    keys("Escape")
    wait_until(lambda: newest_window(app).name == "Clients", message="back in the client")
    with sqlite3.connect(f"file:{app.database}?mode=ro", uri=True) as database:
        left = (database.execute("SELECT count(*) FROM invoices_client WHERE name = 'Globex' AND archived = 0").fetchone()[0],
                database.execute("SELECT count(*) FROM invoices_recurring").fetchone()[0])
    if left != (1, 1):
        raise TestFailure(f"after Escape the client and recurring invoices are {left}, not (1, 1)")
    # Nothing on the client's page looks selected that the person did not select.
    selected = [node.name for node in clients.findChildren(lambda n: n.roleName == "label", showingOnly=False)
                if node.queryText().getNSelections() > 0]
    if selected:
        raise TestFailure(f"the client page shows {selected} selected")
