"""Invoices as a person uses them: a new client and an invoice with three lines, typed into the
form; the totals worked out on screen, in the form and in the saved invoice's detail pane; then
Save PDF, which the free plan turns into the upgrade prompt and a licence allows."""
import os
import shutil
import subprocess
import tempfile
import time

from harness import TestFailure, wait_until
from test_billfold_pro import LICENCE, PUBLIC_KEY, find_anywhere, plan_shown, require_licence

APP_OPTIONS = {
    # Without the portal, the save dialog is GTK's own, in the app's accessibility tree.
    "test_with_a_licence_the_invoice_saves_as_pdf": {
        "extra_env": {"BILLFOLD_TEST_LICENSE_PUBLIC_KEY": PUBLIC_KEY, "GTK_USE_PORTAL": "0"}},
}


def newest_window(app):
    """The dialog on top: each is a window (frame) of its own, the newest last."""
    return app.node.children[-1]


def saved_and_closed(app, title):
    """Waits for the form `title` to close after its Save, with no question left behind about
    discarding what was just saved."""
    wait_until(lambda: not any((n.name or "") in (title, "Discard Changes?") for n in app.node.children),
               message=f"“{title}” to close after saving")
    app.ask_past_the_last_window()


def in_window(window, role, name, index=0, timeout=10.0):
    """The index-th node on screen in `window` with this role whose accessible name is `name`
    (GTK 4.8 repeats a field's label in its name: "Quantity Quantity")."""
    def matches(node):
        spoken = (node.name or "").replace("_", "")
        return node.roleName == role and (spoken == name or spoken.startswith(name + " ")) and node.size[0] > 0

    def search():
        found = window.findChildren(matches, showingOnly=False)
        return found[index] if len(found) > index else None
    return wait_until(search, timeout=timeout, message=f"{role} “{name}” #{index + 1}")


def value_in_row(window, caption):
    """The amount shown at the end of the row titled `caption`."""
    label = in_window(window, "label", caption)
    node = label
    for _ in range(4):
        node = node.parent
        values = [other.name for other in node.findChildren(lambda n: n.roleName == "label", showingOnly=False)
                  if other.name and other.name != caption]
        if values:
            return values[-1]
    raise TestFailure(f"no value next to “{caption}”")


def press(node):
    """Activates a button through its accessible action, wherever the form is scrolled."""
    node.doActionNamed("click")
    time.sleep(0.3)


def press_action(window, name):
    """Presses one of a pane's actions as a person finds it: in the header, or else in the
    header's More Actions menu, opened first."""
    def shown():
        return [node for node in window.findChildren(
            lambda n: n.roleName in ("push button", "menu item") and (n.name or "").replace("_", "").startswith(name)
            and n.size[0] > 0, showingOnly=False)]
    if not shown():
        # A page can have two menus (the list's and the open invoice's): try each in turn.
        menus = wait_until(lambda: [node for node in window.findChildren(
            lambda n: n.roleName == "push button" and (n.name or "").startswith(("More Actions", "Reports, Import"))
            and n.size[0] > 0,
            showingOnly=False)], message="a More Actions menu")
        for menu in menus:
            menu.click()
            time.sleep(0.3)
            if shown():
                break
            keys("Escape")
    # Activated as a screen reader does: a popover's items report places on their own surface.
    press(shown()[0])


def keys(*combos):
    from dogtail import rawinput
    for combo in combos:
        rawinput.keyCombo(combo)
        time.sleep(0.15)


def type_text(text):
    from dogtail import rawinput
    rawinput.typeText(text)
    time.sleep(0.2)


def fill_focused_line(description, quantity, price, tax):
    """Fills a line from its description, which has the focus, moving on with the keyboard as a
    person would: Ctrl+Tab leaves the description (Tab would type a tab), Tab the other fields."""
    type_text(description)
    keys("<Control>Tab")
    type_text(quantity)
    keys("Tab")
    type_text(price)
    keys("Tab")
    type_text(tax)


def create_invoice(app, choose_page=True):
    """Creates a client and an invoice with three lines through the forms, checking the totals.
    A folded window already on the page passes choose_page=False: its hidden sidebar's rows
    report places that now belong to the page's own buttons."""
    if choose_page:
        app.find("list item", "Invoices").click()
    app.find("push button", "New Invoice").click()
    form = wait_until(lambda: newest_window(app) if newest_window(app).name == "New Invoice" else None,
                      message="the New Invoice form")
    save = in_window(form, "push button", "Save")
    if save.sensitive:
        raise TestFailure("Save is enabled on an empty form")

    # No clients yet: the form offers "New Client…", which opens the client form.
    in_window(form, "push button", "New Client…").click()
    client_form = wait_until(lambda: newest_window(app) if newest_window(app).name == "New Client" else None,
                             message="the New Client form")
    app.type_into(in_window(client_form, "text", "Name"), "Acme & Sons")
    app.type_into(in_window(client_form, "text", "Email"), "billing@acme.example")
    in_window(client_form, "push button", "Save").click()
    wait_until(lambda: newest_window(app).name == "New Invoice", message="back in the invoice form")

    app.type_into(in_window(form, "text", "Description", 0), "")
    fill_focused_line("Logo design, three drafts", "3", "100.00", "19")
    # A new line takes the focus.
    press(in_window(form, "push button", "Add Line"))
    fill_focused_line("Hosting", "12", "4.99", "19")
    press(in_window(form, "push button", "Add Line"))
    fill_focused_line("Style guide booklet", "1", "20.00", "7")

    # 300.00 + 59.88 + 20.00 = 379.88; tax 19 % of 359.88 = 68.38, 7 % of 20.00 = 1.40.
    wait_until(lambda: value_in_row(form, "Total") == "$449.66",
               message=f"the form's total $449.66, saw {value_in_row(form, 'Total')!r}")
    subtotal = value_in_row(form, "Subtotal")
    if subtotal != "$379.88":
        raise TestFailure(f"the subtotal shows {subtotal!r}")

    # A bad price says why and turns Save off until it is fixed.
    keys("<Shift>Tab")
    type_text("20x")
    wait_until(lambda: not save.sensitive, message="Save to turn off for a bad price")
    in_window(form, "label", "Unit price: “x” cannot be part of an amount.")
    keys("<Control>a")
    type_text("20.00")
    wait_until(lambda: save.sensitive, message="Save to turn on again")
    press(save)

    saved_and_closed(app, "New Invoice")
    main = app.window
    wait_until(lambda: value_in_row(main, "Balance Due") == "$449.66",
               message=f"the invoice's balance $449.66, saw {value_in_row(main, 'Balance Due')!r}")
    in_window(main, "label", "Acme & Sons")
    time.sleep(0.2)


def test_create_a_client_and_an_invoice_with_three_lines(app):
    create_invoice(app)


def test_the_free_plan_asks_before_saving_a_pdf(app):
    create_invoice(app)
    press_action(app.window, "Save PDF…")
    find_anywhere(app, "label", "Upgrade to Billfold Pro")
    find_anywhere(app, "push button", "Not Now").click()


def test_with_a_licence_the_invoice_saves_as_pdf(app):
    require_licence()
    app.find("list item", "Billfold Pro").click()
    find_anywhere(app, "push button", "Enter Licence…").click()
    app.type_into(find_anywhere(app, "text", "Licence text"), LICENCE.strip())
    activate = find_anywhere(app, "push button", "Activate")
    wait_until(lambda: activate.sensitive, timeout=20, message="Activate to be enabled by a valid licence")
    activate.click()
    wait_until(lambda: plan_shown(app) == "Billfold Pro", message="Billfold Pro")

    create_invoice(app)
    number = wait_until(lambda: next((node.name for node in app.window.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").startswith("INV-"), showingOnly=False)), None),
        message="the invoice's number")
    folder = tempfile.mkdtemp(prefix="billfold-e2e-pdf-")
    try:
        target = os.path.join(folder, number + ".pdf")
        press_action(app.window, "Save PDF…")
        chooser = wait_until(lambda: newest_window(app) if newest_window(app).name == "Save PDF" else None,
                             message="the Save PDF dialog")
        # The dialog proposes "<number>.pdf"; a full path typed into the name saves there.
        # The name field has the focus, holding the proposed name; a full path typed there
        # saves in that folder.
        time.sleep(1)
        keys("<Control>a")
        type_text(target)
        keys("Return")
        wait_until(lambda: os.path.exists(target), timeout=20, message=f"{target} to be written")
        text = subprocess.run(["pdftotext", "-layout", target, "-"], check=True, capture_output=True,
                              text=True).stdout
        for expected in (number, "Acme & Sons", "$449.66"):
            if expected not in text:
                raise TestFailure(f"the saved PDF lacks {expected!r}: {text[:400]!r}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def open_payment_dialog(app):
    press(in_window(app.window, "push button", "Record Payment…"))
    return wait_until(lambda: newest_window(app) if newest_window(app).name == "Record Payment" else None,
                      message="the Record Payment dialog")


def payment_dialog_closed(app):
    wait_until(lambda: newest_window(app).name != "Record Payment", message="Record Payment to close")
    app.ask_past_the_last_window()


def test_record_a_payment(app):
    create_invoice(app)
    press(in_window(app.window, "push button", "Mark as Sent"))

    # Typing into each field, then Cancel or Escape and Discard, leaves the invoice as it was.
    for leave in ("Cancel", "Escape"):
        dialog = open_payment_dialog(app)
        for field in ("Amount", "Date", "Note"):
            app.type_into(in_window(dialog, "text", field), "1")
        if leave == "Cancel":
            press(in_window(dialog, "push button", "Cancel"))
        else:
            keys("Escape")
        press(in_window(newest_window(app), "push button", "Discard"))
        payment_dialog_closed(app)
        balance = value_in_row(app.window, "Balance Due")
        if balance != "$449.66":
            raise TestFailure(f"leaving with {leave} changed the balance to {balance!r}")

    # A part payment: the balance drops by it and the payment is listed.
    dialog = open_payment_dialog(app)
    record = in_window(dialog, "push button", "Record")
    app.type_into(in_window(dialog, "text", "Amount"), "500.00", replace=True)
    wait_until(lambda: not record.sensitive, message="Record to turn off for more than is owed")
    app.type_into(in_window(dialog, "text", "Amount"), "100.00", replace=True)
    app.type_into(in_window(dialog, "text", "Note"), "Bank transfer")
    wait_until(lambda: record.sensitive, message="Record to turn on")
    press(record)
    payment_dialog_closed(app)
    wait_until(lambda: value_in_row(app.window, "Balance Due") == "$349.66",
               message=f"the balance $349.66, saw {value_in_row(app.window, 'Balance Due')!r}")
    in_window(app.window, "label", "Bank transfer", timeout=5)


def test_save_xrechnung_says_what_the_einvoice_lacks(app):
    """Save XRechnung… on an invoice whose profile and client lack what an XRechnung needs lists
    what is missing in a dialog, which Escape closes without saving anything."""
    create_invoice(app)
    press_action(app.window, "Save XRechnung…")
    dialog = wait_until(lambda: newest_window(app) if newest_window(app) != app.window else None,
                        message="the dialog saying what is missing")
    in_window(dialog, "label", "Not Ready to Be an E-Invoice")
    for missing in ("• Enter your business name in Preferences › Business.",
                    "• Enter the client’s reference (for German authorities, the Leitweg-ID) in “Client’s Reference”."):
        if not dialog.findChildren(lambda n: n.roleName == "label" and missing in (n.name or ""), showingOnly=False):
            raise TestFailure(f"the dialog does not say {missing!r}")
    keys("Escape")
    wait_until(lambda: newest_window(app) == app.window, message="the dialog to close with Escape")
