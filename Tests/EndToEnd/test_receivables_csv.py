"""Receivables and CSV as a person uses them: clients and invoices exported as CSV from the
Invoices menu and imported into a fresh library through the preview (cancelled once, then
confirmed, then again without duplicates); the receivables window for a chosen day, saved as CSV
and PDF."""
import csv
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time

from harness import TestFailure, wait_until
from test_expenses import gone, save_as, window_titled
from test_invoices import in_window, press

APP_OPTIONS = {
    # Without the portal, the open and save dialogs are GTK's own, in the app's accessibility tree.
    "test_csv_round_trip_through_the_preview": {"extra_env": {"GTK_USE_PORTAL": "0"}},
    "test_receivables_for_a_chosen_day_saved_as_csv_and_pdf": {"extra_env": {"GTK_USE_PORTAL": "0"}},
}

INVOICES = '''number,status,issue_date,due_date,currency,client_name,client_email,line_description,line_quantity,line_unit_price,line_tax_rate,paid,paid_on
R-1,sent,2024-01-10,2024-01-24,EUR,"Acme, Inc.",billing@acme.example,Design,1,80.00,19,,
R-1,sent,2024-01-10,2024-01-24,EUR,"Acme, Inc.",billing@acme.example,"Hosting, ""premium""",1,20.00,19,,
R-2,sent,2024-03-20,2024-04-03,EUR,Bolt Studio,hi@bolt.example,Workshop,1,500.00,19,200.00,2024-03-25
R-3,paid,2024-02-01,2024-02-15,USD,Bolt Studio,hi@bolt.example,Translation,2,150.00,0,300.00,2024-04-15
'''


def rows_in(app, sql):
    with sqlite3.connect(app.database) as connection:
        return connection.execute(sql).fetchall()


def count(app, table):
    return rows_in(app, f"SELECT count(*) FROM {table}")[0][0]


def fill_library(app, work):
    """Invoices put in from a terminal, as a person moving from a spreadsheet might."""
    path = os.path.join(work, "start.csv")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(INVOICES)
    result = app.command("invoice", "import", path)
    if result.returncode != 0 or "3 invoices" not in result.stdout:
        raise TestFailure(f"the command-line import failed: {result.stdout} {result.stderr}")
    app.restart()


def menu_item(app, item):
    """Opens the Invoices menu and activates one of its items, as a screen reader does."""
    app.find("list item", "Invoices").click()
    in_window(app.window, "push button", "Reports, Import and Export").click()
    press(in_window(app.window, "menu item", item))


def open_file(app, title, path):
    """Types the path into GTK's open dialog, which opens its location field when typing starts."""
    from dogtail import rawinput
    window_titled(app, title)
    time.sleep(1)
    rawinput.typeText(path)
    time.sleep(0.5)
    rawinput.pressKey("Return")
    gone(app, title)


def import_preview(app, item, path, title):
    menu_item(app, item)
    open_file(app, item.rstrip("…"), path)
    return window_titled(app, title)


def check_round_trip(app, work):
    fill_library(app, work)
    clients_csv = os.path.join(work, "clients.csv")
    invoices_csv = os.path.join(work, "invoices.csv")
    menu_item(app, "Export Clients as CSV…")
    save_as(app, "Export Clients as CSV", clients_csv)
    wait_until(lambda: os.path.exists(clients_csv), message="the clients CSV")
    menu_item(app, "Export Invoices as CSV…")
    save_as(app, "Export Invoices as CSV", invoices_csv)
    wait_until(lambda: os.path.exists(invoices_csv), message="the invoices CSV")
    with open(invoices_csv, newline="", encoding="utf-8") as handle:
        exported = list(csv.DictReader(handle))
    if [row["number"] for row in exported] != ["R-1", "R-1", "R-3", "R-2"] or exported[1]["line_description"] != 'Hosting, "premium"':
        raise TestFailure(f"the invoices CSV is not as expected: {exported}")

    # A fresh library: the same app with its data gone.
    app.stop()
    shutil.rmtree(os.path.join(app.env["XDG_DATA_HOME"], "billfold"))
    app.restart()

    dialog = import_preview(app, "Import Clients from CSV…", clients_csv, "Import Clients")
    in_window(dialog, "label", "2 new clients")
    press(in_window(dialog, "push button", "Cancel"))
    gone(app, "Import Clients")
    if count(app, "invoices_client") != 0:
        raise TestFailure("cancelling the preview imported clients")

    dialog = import_preview(app, "Import Clients from CSV…", clients_csv, "Import Clients")
    press(in_window(dialog, "push button", "Import"))
    gone(app, "Import Clients")
    wait_until(lambda: count(app, "invoices_client") == 2, message="two clients imported")

    dialog = import_preview(app, "Import Invoices from CSV…", invoices_csv, "Import Invoices")
    in_window(dialog, "label", "3 new invoices")
    press(in_window(dialog, "push button", "Import"))
    gone(app, "Import Invoices")
    wait_until(lambda: count(app, "invoices_invoice") == 3, message="three invoices imported")
    # The list shows what came in.
    wait_until(lambda: app.window.findChildren(lambda n: (n.name or "").startswith("R-2, Bolt Studio"), showingOnly=False),
               message="R-2 in the invoice list")
    if count(app, "invoices_client") != 2:
        raise TestFailure("the invoices import added a client that was already there")

    dialog = import_preview(app, "Import Invoices from CSV…", invoices_csv, "Import Invoices")
    in_window(dialog, "label", "0 new invoices, 3 already in the library")
    if in_window(dialog, "push button", "Import").sensitive:
        raise TestFailure("Import is offered for a file that is already in the library")
    press(in_window(dialog, "push button", "Cancel"))
    gone(app, "Import Invoices")
    if count(app, "invoices_invoice") != 3:
        raise TestFailure("importing the same file twice duplicated invoices")
    statuses = rows_in(app, "SELECT number, status, balance_minor FROM invoices_invoice ORDER BY number")
    if statuses != [("R-1", "sent", 11900), ("R-2", "sent", 39500), ("R-3", "paid", 0)]:
        raise TestFailure(f"the imported invoices differ: {statuses}")


def test_csv_round_trip_through_the_preview(app):
    work = tempfile.mkdtemp(prefix="billfold-csv-")
    try:
        check_round_trip(app, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_receivables(app, work):
    fill_library(app, work)
    menu_item(app, "Receivables")
    window = window_titled(app, "Receivables")
    app.type_into(in_window(window, "text", "As of"), "2024-04-01", replace=True)
    # Acme's invoice is 68 days late; Bolt owes 395 euros not yet due, and the dollars it paid on 15 April.
    in_window(window, "label", "61–90 days: €119.00")
    in_window(window, "label", "Current: €395.00")
    in_window(window, "label", "31–60 days: $300.00")
    in_window(window, "label", "€514.00")

    csv_path = os.path.join(work, "receivables.csv")
    press(in_window(window, "push button", "Save as CSV…"))
    save_as(app, "Save Report as CSV", csv_path)
    wait_until(lambda: os.path.exists(csv_path), message="the receivables CSV")
    with open(csv_path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    expected = [["2024-04-01", "Acme, Inc.", "EUR", "0.00", "0.00", "0.00", "119.00", "0.00", "119.00", "1"],
                ["2024-04-01", "Bolt Studio", "EUR", "395.00", "0.00", "0.00", "0.00", "0.00", "395.00", "1"],
                ["2024-04-01", "Bolt Studio", "USD", "0.00", "0.00", "300.00", "0.00", "0.00", "300.00", "1"]]
    if rows[1:4] != expected:
        raise TestFailure(f"the receivables CSV is not as expected: {rows}")

    pdf_path = os.path.join(work, "receivables.pdf")
    press(in_window(window, "push button", "Save as PDF…"))
    save_as(app, "Save Report as PDF", pdf_path)
    wait_until(lambda: os.path.exists(pdf_path), message="the receivables PDF")
    text = subprocess.run(["pdftotext", "-layout", pdf_path, "-"], capture_output=True, text=True, check=True).stdout
    for expected_text in ["Receivables", "Acme, Inc.", "Bolt Studio", "€119.00", "$300.00"]:
        if expected_text not in text:
            raise TestFailure(f"“{expected_text}” is not in the receivables PDF: {text}")


def test_receivables_for_a_chosen_day_saved_as_csv_and_pdf(app):
    work = tempfile.mkdtemp(prefix="billfold-receivables-")
    try:
        check_receivables(app, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
