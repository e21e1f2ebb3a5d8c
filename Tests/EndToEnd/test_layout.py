"""The layout as a person meets it: each invoice in the list read out whole, the window at
360 px with the chosen invoice opening again from the folded list, the invoice's actions in
its header and menu, and TipSplit's shares and Reset."""
import atexit
import os
import shutil
import tempfile
import time

from harness import TestFailure, wait_until
from test_invoices import create_invoice, in_window, keys, newest_window, press, press_action


def narrow_settings():
    """A settings file that opens the window 360 px wide (the memory backend cannot say so)."""
    config = tempfile.mkdtemp(prefix="billfold-e2e-config-")
    atexit.register(shutil.rmtree, config, ignore_errors=True)
    os.makedirs(os.path.join(config, "glib-2.0", "settings"))
    with open(os.path.join(config, "glib-2.0", "settings", "keyfile"), "w") as keyfile:
        keyfile.write("[io/github/billfold/Billfold]\nwindow-width=360\nwindow-height=760\n")
    return {"GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": config}


APP_OPTIONS = {"test_a_360_px_window_opens_the_chosen_invoice_again": {"extra_env": narrow_settings()}}


def invoice_item(app, number):
    """The list item of an invoice, found by the name a screen reader reads for it."""
    return wait_until(lambda: next((node for node in app.window.findChildren(
        lambda n: n.roleName == "list item" and (n.name or "").startswith(number + ", "), showingOnly=False)), None),
        message=f"the list item of {number}")


def invoice_number(app):
    return wait_until(lambda: next((node.name for node in app.window.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").startswith("INV-"), showingOnly=False)), None),
        message="the invoice's number")


def test_each_invoice_in_the_list_is_read_out_whole(app):
    create_invoice(app)
    number = invoice_number(app)
    item = invoice_item(app, number)
    expected = f"{number}, Acme & Sons, $449.66, Draft"
    if item.name != expected:
        raise TestFailure(f"the list item reads {item.name!r}, not {expected!r}")


def test_a_360_px_window_opens_the_chosen_invoice_again(app):
    width = app.window.size[0]
    # GTK draws a 5 px resize border on each side when no compositor gives it shadows.
    if width > 370:
        raise TestFailure(f"the window is {width} px wide; it should shrink to 360")
    # The folded window slides to the page; the form is opened once it is there.
    app.find("list item", "Invoices").click()
    time.sleep(1.5)
    create_invoice(app, choose_page=False)
    number = invoice_number(app)
    back = in_window(app.window, "push button", "Back to the List")
    press(back)
    item = invoice_item(app, number)
    wait_until(lambda: item.size[0] > 0, message="the folded list")
    # The invoice is still the chosen one: a click on it opens it again.
    item.click()
    wait_until(lambda: in_window(app.window, "push button", "Back to the List", timeout=1), message="the invoice to open")
    in_window(app.window, "label", number)
    # Its header, with Mark as Sent and the menu beside three window buttons, still fits.
    in_window(app.window, "push button", "Mark as Sent")
    time.sleep(0.5)
    if app.window.size[0] > 370:
        raise TestFailure(f"the open invoice widens the window to {app.window.size[0]} px")


def delete_question(app, number):
    """The message dialog asking before an invoice is deleted, a window of its own."""
    def find():
        window = newest_window(app)
        return window if window.findChildren(lambda n: (n.name or "") == f"Delete Invoice {number}?", showingOnly=False) else None
    return wait_until(find, message="the question before deleting")


def test_the_invoice_offers_its_next_step_and_deleting_asks(app):
    create_invoice(app)
    number = invoice_number(app)
    # A draft's next step is in the header; the rest is in the menu, where Delete… asks first.
    in_window(app.window, "push button", "Mark as Sent")
    windows = len(app.node.children)
    press_action(app.window, "Delete…")
    question = delete_question(app, number)
    press(in_window(question, "push button", "Keep"))
    wait_until(lambda: len(app.node.children) == windows, message="the question to close")
    invoice_item(app, number)
    press_action(app.window, "Delete…")
    question = delete_question(app, number)
    press(in_window(question, "push button", "Delete"))
    wait_until(lambda: not app.window.findChildren(
        lambda n: n.roleName == "list item" and (n.name or "").startswith(number + ", "), showingOnly=False),
        message="the invoice to be deleted")


def test_tipsplit_lists_each_share_and_reset_starts_again(app):
    app.find("list item", "TipSplit").click()
    bill = app.find("text", "Bill Amount")
    app.type_into(bill, "100")
    app.find("push button", "18%").click()
    custom = app.find("spin button", "Custom Tip Percentage")
    wait_until(lambda: custom.value == 18, message=f"the tip at 18 %, saw {custom.value!r}")
    app.type_into(app.find("spin button", "People"), "3\n", replace=True)
    # 118.00 / 3 = 39.34 + 39.33 + 39.33: each person's share is listed.
    wait_until(lambda: app.value_next_to("Person 1") == "$39.34", message="the first person's share")
    for person in ("Person 2", "Person 3"):
        if app.value_next_to(person) != "$39.33":
            raise TestFailure(f"{person} pays {app.value_next_to(person)!r}")

    keys("<Control>r")
    wait_until(lambda: bill.text == "", message="Reset to clear the bill")
    people = app.find("spin button", "People")
    wait_until(lambda: people.value == 1, message=f"Reset to set one person, saw {people.value!r}")
    custom = app.find("spin button", "Custom Tip Percentage")
    wait_until(lambda: custom.value == 15, message=f"Reset to set the tip to 15 %, saw {custom.value!r}")
    time.sleep(0.3)
    if any(node.size[0] > 0 for node in app.window.findChildren(lambda n: (n.name or "") == "Person 1", showingOnly=False)):
        raise TestFailure("the shares are still listed for one person")
