"""Every dialog reachable from each page's header bar, its action buttons and the main menu, used
as an impatient person would: open it, type into every field, press Escape; open it again, type,
press Cancel. Billfold must live through all of it, and every dialog must close, leaving the main
window alone."""
import time

from harness import TestFailure, wait_until
from test_expenses import create_trip
from test_invoices import create_invoice, in_window, keys, press, press_action

# What opens a dialog from each page once it has something in it, by the button's name.
PAGES = {
    # The invoice is sent: it is corrected by a credit note, no longer edited or cancelled in place.
    "Invoices": ["New Invoice", "Clients", "Record Payment…", "Create Credit Note…", "Save PDF…",
                 "Print…", "Email…"],
    "Expenses": ["New Trip", "Add Expense", "Add from an E-Invoice…", "Edit Trip", "Generate Report", "Export CSV…"],
    "Billfold Pro": ["Enter Licence…"],
}
MENU = ["Preferences", "Keyboard Shortcuts", "About Billfold"]
# The buttons that leave a dialog without doing anything, in the order a person would look for them.
LEAVE = ["Cancel", "Not Now", "Keep", "Close"]


def alive(app, doing):
    if app.process.poll() is not None:
        output = app.process.stdout.read().decode(errors="replace")[-2000:]
        raise TestFailure(f"Billfold exited with {app.process.returncode} while {doing}: {output}")


def top_window(app, count):
    return app.node.children[-1] if len(app.node.children) > count else None


def type_everywhere(app, dialog):
    fields = [node for node in dialog.findChildren(lambda n: n.roleName == "text", showingOnly=False)
              if node.size[0] > 0 and node.sensitive]
    for field in fields:
        app.type_into(field, "7x")
    return len(fields)


def leave_button(dialog):
    for name in LEAVE:
        found = [node for node in dialog.findChildren(
            lambda n: n.roleName == "push button" and (n.name or "").replace("_", "").split(" ")[0] == name,
            showingOnly=False) if node.size[0] > 0]
        if found:
            return found[0]
    return None


def close_everything_above(app, count, how):
    """Leaves the top dialog with Escape or its Cancel button; a question it asks on the way out
    (discard the changes?) is answered the same way, until only `count` windows are left."""
    deadline = time.monotonic() + 20
    while len(app.node.children) > count:
        if time.monotonic() > deadline:
            names = [window.name for window in app.node.children]
            raise TestFailure(f"a dialog does not close with {how}: {names}")
        dialog = app.node.children[-1]
        # A changed form asks before it throws the typing away; leaving means discarding it.
        discard = [node for node in dialog.findChildren(
            lambda n: n.roleName == "push button" and (n.name or "").replace("_", "").startswith("Discard"),
            showingOnly=False) if node.size[0] > 0]
        button = leave_button(dialog) if how == "Cancel" else None
        if discard:
            # A real click: the window under the form takes the focus back only after a user event.
            discard[0].click()
        elif button is not None:
            press(button)
        else:
            keys("Escape")
        time.sleep(0.5)
        alive(app, f"closing “{dialog.name}” with {how}")


def exercise(app, label, open_it):
    count = len(app.node.children)
    for how in ("Escape", "Cancel"):
        open_it()
        dialog = wait_until(lambda: top_window(app, count), message=f"a dialog from “{label}”")
        alive(app, f"opening “{label}”")
        type_everywhere(app, dialog)
        alive(app, f"typing into “{dialog.name}”")
        close_everything_above(app, count, how)
    alive(app, f"leaving “{label}”")


def click_named(app, name):
    def open_it():
        found = [node for node in app.window.findChildren(
            lambda n: n.roleName == "push button" and (n.name or "").replace("_", "").startswith(name)
            and n.size[0] > 0, showingOnly=False)]
        # Menu buttons have no click action: those get a pointer click.
        if found and "click" not in found[0].actions:
            found[0].click()
        else:
            press_action(app.window, name)
    return open_it


def from_main_menu(app, item):
    def open_it():
        in_window(app.window, "push button", "Main Menu").click()
        # A popover's items report places on their own surface: activate them as a screen reader does.
        press(in_window(app.window, "menu item", item))
    return open_it


def test_every_dialog_survives_typing_escape_and_cancel(app):
    create_invoice(app)
    press(in_window(app.window, "push button", "Mark as Sent"))
    create_trip(app)
    for page, openers in PAGES.items():
        app.find("list item", page).click()
        time.sleep(0.5)
        for name in openers:
            exercise(app, name, click_named(app, name))
    for item in MENU:
        exercise(app, item, from_main_menu(app, item))
    # The invoice is untouched by all of it.
    app.find("list item", "Invoices").click()
    wait_until(lambda: in_window(app.window, "label", "Acme & Sons"), message="the invoice still there")
