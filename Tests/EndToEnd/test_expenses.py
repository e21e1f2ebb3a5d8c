"""Expenses as a person uses them: a trip, two expenses (one with a receipt photo chosen in the
file chooser), the totals, the report saved as PDF, and the trip's expenses exported as CSV."""
import csv
import os
import shutil
import subprocess
import tempfile
import time

from dogtail import rawinput
from harness import TestFailure, wait_until
from test_invoices import press_action


def named(node, role, name):
    """A descendant with this role whose accessible name is `name`; GTK 4.8 names a button by
    its label as written ("C_reate") and then its text, so either part matches."""
    def matches(n):
        text = n.name or ""
        return n.roleName == role and (text == name or text.startswith(name + " ") or text.endswith(" " + name))
    return wait_until(lambda: next(iter(node.findChildren(matches, showingOnly=False)), None),
                      message=f"{role} “{name}”")


def window_titled(app, title):
    """A dialog is a window of its own, beside the main window."""
    return wait_until(lambda: next((n for n in app.node.children if (n.name or "") == title), None),
                      message=f"the “{title}” window")


def gone(app, title):
    wait_until(lambda: not any((n.name or "") == title for n in app.node.children), message=f"“{title}” to close")
    app.ask_past_the_last_window()


def receipt_photo(directory):
    path = os.path.join(directory, "dinner-receipt.png")
    subprocess.run(["convert", "-size", "600x900", "xc:#f6f5f4", "-fill", "#241f31",
                    "-draw", "rectangle 60,80 540,120", "-draw", "rectangle 60,160 400,190", path], check=True)
    return path


def save_as(app, title, path):
    """Types the whole path into the save dialog's name field, as a person may."""
    window_titled(app, title)
    time.sleep(1)
    rawinput.keyCombo("<Control>a")
    rawinput.typeText(path)
    rawinput.pressKey("Return")
    gone(app, title)


def create_trip(app):
    app.find("list item", "Expenses").click()
    named(app.window, "push button", "New Trip").click()
    dialog = window_titled(app, "New Trip")
    app.type_into(named(dialog, "text", "Name"), "Zürich client visit")
    app.type_into(named(dialog, "text", "Start Date"), "3/10/26", replace=True)
    app.type_into(named(dialog, "text", "End Date"), "3/8/26", replace=True)
    named(dialog, "label", "The trip cannot end before it starts.")
    app.type_into(named(dialog, "text", "End Date"), "3/12/26", replace=True)
    app.type_into(named(dialog, "text", "Purpose"), "Workshop with the client")
    named(dialog, "push button", "Create").click()
    gone(app, "New Trip")


def add_expense(app, date, vendor, amount, receipt=None):
    named(app.window, "push button", "Add Expense").click()
    dialog = window_titled(app, "Add Expense")
    app.type_into(named(dialog, "text", "Date"), date, replace=True)
    app.type_into(named(dialog, "text", "Vendor"), vendor)
    app.type_into(named(dialog, "text", "Amount in USD"), amount)
    if receipt:
        named(dialog, "push button", "Choose File…").click()
        window_titled(app, "Choose a Receipt")
        time.sleep(1)
        # GTK's chooser opens its location field when a path is typed.
        rawinput.typeText(receipt)
        time.sleep(0.5)
        rawinput.pressKey("Return")
        gone(app, "Choose a Receipt")
        named(dialog, "label", os.path.basename(receipt))
    named(dialog, "push button", "Add").click()
    gone(app, "Add Expense")


def test_a_closed_receipt_chooser_leaves_no_window_behind(app):
    create_trip(app)
    named(app.window, "push button", "Add Expense").click()
    dialog = window_titled(app, "Add Expense")
    named(dialog, "push button", "Choose File…").click()
    window_titled(app, "Choose a Receipt")
    time.sleep(1)
    rawinput.pressKey("Escape")
    gone(app, "Choose a Receipt")
    app.ask_past_the_last_window()
    named(dialog, "push button", "Cancel").click()
    gone(app, "Add Expense")
    app.ask_past_the_last_window()


def test_trip_two_expenses_report_and_csv(app):
    work = tempfile.mkdtemp(prefix="billfold-e2e-expenses-")
    try:
        check_trip_two_expenses_report_and_csv(app, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_trip_two_expenses_report_and_csv(app, work):
    create_trip(app)
    add_expense(app, "3/11/26", "Hotel Adler", "412.50")
    add_expense(app, "3/10/26", "Zeughauskeller", "64.20", receipt=receipt_photo(work))
    wait_until(lambda: app.value_next_to("Trip Total") == "$476.70",
               message=f"the total $476.70, saw {app.value_next_to('Trip Total')!r}")
    app.find("label", "2 expenses")

    # A date outside the trip warns but still saves.
    named(app.window, "push button", "Add Expense").click()
    dialog = window_titled(app, "Add Expense")
    app.type_into(named(dialog, "text", "Date"), "3/14/26", replace=True)
    # The trip's dates are joined by the locale's range separator, so match the sentence's start.
    wait_until(lambda: next(iter(dialog.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").startswith("Mar 14, 2026 is outside the trip"),
        showingOnly=False)), None), message="the warning about a date outside the trip")
    app.type_into(named(dialog, "text", "Vendor"), "Kiosk")
    app.type_into(named(dialog, "text", "Amount in USD"), "3.50")
    time.sleep(0.5)
    if not named(dialog, "push button", "Add").sensitive:
        raise TestFailure("a date outside the trip stopped the expense from being saved")
    named(dialog, "push button", "Cancel").click()
    # What was typed is not thrown away without asking.
    named(app.node.children[-1], "push button", "Discard").click()
    gone(app, "Add Expense")

    report = os.path.join(work, "zurich-report.pdf")
    # In the trip's More Actions menu, as a person finds it.
    press_action(app.window, "Generate Report")
    preview = window_titled(app, "Report: Zürich client visit")
    save = named(preview, "push button", "Save PDF…")
    # The report is made in the background; Save PDF is offered once it is shown.
    wait_until(lambda: save.sensitive, timeout=30, message="the report to be shown")
    save.click()
    save_as(app, "Save PDF", report)
    wait_until(lambda: os.path.exists(report), timeout=30, message="the report PDF")
    info = subprocess.run(["pdfinfo", report], capture_output=True, text=True, check=True).stdout
    pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    texts = [subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", report, "-"],
                            capture_output=True, text=True, check=True).stdout for page in range(1, pages + 1)]
    if "476.70" not in texts[0]:
        raise TestFailure(f"the cover does not show the total $476.70: {texts[0]!r}")
    if not any("Hotel Adler" in text and "Zeughauskeller" in text for text in texts):
        raise TestFailure("no page lists both expenses")
    # The one receipt gets a page of its own, captioned with its expense.
    if "Zeughauskeller" not in texts[-1] or "Hotel Adler" in texts[-1]:
        raise TestFailure(f"the last page is not the dinner receipt's: {texts[-1]!r}")

    target = os.path.join(work, "zurich.csv")
    press_action(app.window, "Export CSV…")
    save_as(app, "Export Expenses as CSV", target)
    wait_until(lambda: os.path.exists(target), message="the CSV file")
    with open(target, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    vendors = [row for row in rows[1:] if "Hotel Adler" in row or "Zeughauskeller" in row]
    if len(vendors) != 2:
        raise TestFailure(f"the CSV does not list both expenses: {rows}")
