"""The keyboard paths a person relies on: Tab from the sidebar into the page, Return and Ctrl+Return
submitting a form, Escape, Cancel and Ctrl+W asking before a changed form is thrown away, the
currency list found by typing; and the flows around them: Mark as Paid with Undo and Reopen, and
the free plan's limit explained with the count, the limit and where to buy."""
import sqlite3
import time

from harness import TestFailure, wait_until
from test_expenses import gone, named, window_titled
from test_invoices import create_invoice, in_window, keys, newest_window, press, press_action, type_text, value_in_row
from test_recurring_reminders import add_client


def focused_node(app):
    for window in app.node.children:
        for node in window.findChildren(lambda n: n.focused, showingOnly=False):
            return node
    return None


def question(app):
    """The Discard Changes? question on top of a form."""
    return wait_until(lambda: newest_window(app) if in_window(newest_window(app), "label", "Discard Changes?", timeout=0.5)
                      else None, message="the Discard Changes? question")


def open_new_trip(app):
    app.find("list item", "Expenses").click()
    named(app.window, "push button", "New Trip").click()
    return window_titled(app, "New Trip")


def trip_names(app):
    with sqlite3.connect(app.database) as database:
        return [row[0] for row in database.execute("SELECT name FROM expenses_trip ORDER BY name")]


def currency_shown(dialog, title):
    """The currency row's subtitle names the chosen currency, above any note."""
    wait_until(lambda: any((n.name or "").split("\n")[0] == title for n in dialog.findChildren(
        lambda n: n.roleName == "label", showingOnly=False)), message=f"the row to show {title}")


def test_tab_from_the_sidebar_moves_into_the_page(app):
    app.find("list item", "Invoices").click()
    # Back to the Invoices row with the keyboard, as a person reaches the sidebar.
    for _ in range(10):
        focus = focused_node(app)
        if focus is not None and focus.roleName == "list item" and focus.name == "Invoices":
            break
        keys("<Shift>Tab")
        time.sleep(0.3)
    else:
        raise TestFailure("Shift+Tab never reached the sidebar's Invoices row")
    keys("Tab")
    time.sleep(0.5)
    if not app.find("list item", "Invoices").selected or app.find("list item", "Expenses").selected:
        raise TestFailure("Tab changed the page chosen in the sidebar")
    focus = wait_until(lambda: focused_node(app), message="something to have the focus")
    if focus.roleName == "list item":
        raise TestFailure(f"Tab left the focus in the sidebar, on “{focus.name}”")
    if any(n.name == "Search trips" and n.size[0] > 0 for n in app.window.findChildren(
            lambda n: n.roleName == "text", showingOnly=False)):
        raise TestFailure("Tab showed the Expenses page")


def test_return_and_ctrl_return_submit_a_form(app):
    # Return on a form that cannot be saved yet says what is missing, and saves nothing.
    dialog = open_new_trip(app)
    app.type_into(named(dialog, "text", "Purpose"), "Trade fair")
    keys("Return")
    named(dialog, "label", "Give the trip a name.")
    if trip_names(app):
        raise TestFailure("Return saved a trip without a name")

    # Return in a one-line field creates the trip.
    app.type_into(named(dialog, "text", "Name"), "Lisbon fair")
    keys("Return")
    gone(app, "New Trip")
    wait_until(lambda: trip_names(app) == ["Lisbon fair"], message="the trip created by Return")

    # Ctrl+Return in the multi-line Address saves the client, without a new line in the address.
    app.find("list item", "Invoices").click()
    app.find("push button", "New Invoice").click()
    form = wait_until(lambda: newest_window(app) if newest_window(app).name == "New Invoice" else None,
                      message="the New Invoice form")
    press(in_window(form, "push button", "New Client…"))
    client = window_titled(app, "New Client")
    app.type_into(in_window(client, "text", "Name"), "Globex")
    app.type_into(in_window(client, "text", "Address"), "1 Main Street")
    keys("<Control>Return")
    gone(app, "New Client")
    with sqlite3.connect(app.database) as database:
        addresses = [row[0] for row in database.execute("SELECT address FROM invoices_client")]
    if addresses != ["1 Main Street"]:
        raise TestFailure(f"Ctrl+Return saved the address as {addresses!r}")

    # Ctrl+Return from the line's description saves the invoice.
    app.type_into(in_window(form, "text", "Description", 0), "Consulting")
    keys("<Control>Tab")
    type_text("2")
    keys("Tab")
    type_text("80.00")
    app.type_into(in_window(form, "text", "Description", 0), "")
    keys("<Control>Return")
    wait_until(lambda: newest_window(app).name != "New Invoice", message="Ctrl+Return to save the invoice")
    wait_until(lambda: value_in_row(app.window, "Total") == "$160.00", message="the saved invoice")


def test_escape_and_cancel_ask_before_discarding_changes(app):
    # An unchanged form just closes.
    open_new_trip(app)
    keys("Escape")
    gone(app, "New Trip")

    # A changed one asks; Keep Editing keeps what was typed.
    dialog = open_new_trip(app)
    app.type_into(named(dialog, "text", "Name"), "Oslo")
    keys("Escape")
    press(in_window(question(app), "push button", "Keep Editing"))
    time.sleep(0.5)
    window_titled(app, "New Trip")
    keys("<Control>Return")
    gone(app, "New Trip")
    wait_until(lambda: trip_names(app) == ["Oslo"], message="the trip typed before Keep Editing to be saved")

    # Cancel asks too; Discard closes without saving.
    dialog = open_new_trip(app)
    app.type_into(named(dialog, "text", "Name"), "Bergen")
    press(named(dialog, "push button", "Cancel"))
    press(in_window(question(app), "push button", "Discard"))
    gone(app, "New Trip")
    if trip_names(app) != ["Oslo"]:
        raise TestFailure(f"a discarded trip was saved: {trip_names(app)}")

    # Ctrl+W on a changed form asks; Escape on the question keeps editing.
    dialog = open_new_trip(app)
    app.type_into(named(dialog, "text", "Purpose"), "Fair")
    keys("<Control>w")
    question(app)
    keys("Escape")
    time.sleep(0.5)
    window_titled(app, "New Trip")
    keys("<Control>w")
    press(in_window(question(app), "push button", "Discard"))
    gone(app, "New Trip")

    # The Clients window closes with Ctrl+W as with Escape.
    app.find("list item", "Invoices").click()
    press_action(app.window, "Clients")
    window_titled(app, "Clients")
    keys("<Control>w")
    gone(app, "Clients")
    if app.process.poll() is not None:
        raise TestFailure("Ctrl+W in the Clients window ended Billfold")


def test_a_client_is_searched_for_and_opened_with_the_keyboard(app):
    """The Clients window: it opens with the focus in its search, typing narrows the list, Tab
    reaches the list and Return opens the client; Back shows the list as it was. Escape clears
    the search, and a second Escape closes the window."""
    add_client(app, "Acme")
    add_client(app, "Globex")
    press_action(app.window, "Clients")
    clients = window_titled(app, "Clients")

    def listed():
        return sorted(n.name for n in clients.findChildren(
            lambda n: n.roleName == "list item" and n.size[0] > 0 and ", " in (n.name or ""), showingOnly=False))

    wait_until(lambda: listed() == ["Acme, 0 invoices", "Globex, 0 invoices"], message="both clients listed")
    # The search has the focus: typing searches.
    named(clients, "entry", "Search clients")
    type_text("glob")
    wait_until(lambda: listed() == ["Globex, 0 invoices"], message="only Globex listed")
    keys("Tab", "Return")
    in_window(clients, "label", "Globex")
    in_window(clients, "push button", "Edit")
    press(in_window(clients, "push button", "Back to Clients"))
    wait_until(lambda: listed() == ["Globex, 0 invoices"], message="the search kept after Back")
    # Escape clears the search first, then closes the window.
    keys("Escape")
    wait_until(lambda: listed() == ["Acme, 0 invoices", "Globex, 0 invoices"], message="the search cleared")
    keys("Escape")
    gone(app, "Clients")
    if app.process.poll() is not None:
        raise TestFailure("Escape in the Clients window ended Billfold")


def test_a_currency_is_found_by_typing(app):
    dialog = open_new_trip(app)
    app.type_into(named(dialog, "text", "Name"), "Tokyo")
    named(dialog, "push button", "Choose Currency").click()
    named(dialog, "entry", "Search currencies")
    type_text("euro")
    keys("Return")
    currency_shown(dialog, "EUR — Euro")
    # The code finds it too, and the list is searched afresh each time it opens.
    named(dialog, "push button", "Choose Currency").click()
    type_text("JPY")
    time.sleep(0.5)
    matches = [n.name for n in dialog.findChildren(
        lambda n: n.roleName == "list item" and " — " in (n.name or "") and n.size[0] > 0, showingOnly=False)]
    if not matches or not matches[0].startswith("JPY"):
        raise TestFailure(f"typing JPY listed {matches[:5]!r}")
    keys("Return")
    currency_shown(dialog, "JPY — Japanese Yen")
    keys("<Control>Return")
    gone(app, "New Trip")
    with sqlite3.connect(app.database) as database:
        currencies = [row[0] for row in database.execute("SELECT currency FROM expenses_trip")]
    if currencies != ["JPY"]:
        raise TestFailure(f"the trip was saved in {currencies!r}")


def test_mark_as_paid_can_be_undone_and_reopened(app):
    create_invoice(app)
    press(in_window(app.window, "push button", "Mark as Sent"))
    press_action(app.window, "Mark as Paid")
    wait_until(lambda: value_in_row(app.window, "Balance Due") == "$0.00", message="the invoice paid")
    press(in_window(app.window, "push button", "Undo"))
    wait_until(lambda: value_in_row(app.window, "Balance Due") == "$449.66", message="Undo to bring the balance back")
    # Sent again: its next step is Record Payment…, and Mark as Paid is in its menu.
    in_window(app.window, "push button", "Record Payment…")

    press_action(app.window, "Mark as Paid")
    wait_until(lambda: value_in_row(app.window, "Balance Due") == "$0.00", message="the invoice paid again")
    press_action(app.window, "Reopen…")
    ask = newest_window(app)
    press(in_window(ask, "push button", "Reopen"))
    wait_until(lambda: value_in_row(app.window, "Balance Due") == "$449.66", message="Reopen to owe the balance again")
    in_window(app.window, "push button", "Record Payment…")


def test_the_free_plan_limit_says_the_count_and_where_to_buy(app):
    create_invoice(app)
    for _ in range(4):
        press_action(app.window, "Duplicate")
        time.sleep(0.5)
    keys("<Control>n")
    prompt = wait_until(lambda: newest_window(app) if newest_window(app).name != "Billfold" else None,
                        message="the free plan's limit")
    in_window(prompt, "label", "Free Plan Limit Reached")
    body = [n.name for n in prompt.findChildren(lambda n: n.roleName == "label", showingOnly=False)
            if "You have 5 invoices." in (n.name or "")]
    if not body or "The free plan holds at most 5 invoices." not in body[0] or "billfold.github.io/pro" not in body[0]:
        raise TestFailure(f"the limit is not explained: {body!r}")
    in_window(prompt, "push button", "Buy Billfold Pro")
    press(in_window(prompt, "push button", "Not Now"))
    wait_until(lambda: newest_window(app).name == "Billfold" or len(app.node.children) == 1,
               message="the prompt to close")
