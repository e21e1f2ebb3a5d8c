"""TipSplit as a person uses it: type a bill, pick a tip, set the party size, read the share."""
from harness import TestFailure, wait_until



def open_tipsplit(app):
    app.find("label", "TipSplit").click()
    return app.find("text", "Bill amount")


def test_split_a_bill_between_three(app):
    bill = open_tipsplit(app)
    app.type_into(bill, "100.00")
    app.find("toggle button", "Tip 20%").click()
    people = app.find("spin button", "People")
    people.text = "3"
    app.type_into(people, "\n")
    share = app.find("label", "Each person pays")
    # 100.00 + 20 % = 120.00, split three ways is exactly 40.00 each.
    wait_until(lambda: share.text == "$40.00", message=f"share $40.00, saw {share.text!r}")
    total = app.find("label", "Total")
    if total.text != "$120.00":
        raise TestFailure(f"total shows {total.text!r}")


def test_uneven_split_says_who_pays_more(app):
    bill = open_tipsplit(app)
    app.type_into(bill, "100")
    app.find("toggle button", "Tip 10%").click()
    people = app.find("spin button", "People")
    people.text = "3"
    app.type_into(people, "\n")
    share = app.find("label", "Each person pays")
    # 110.00 / 3 = 36.67 + 36.67 + 36.66.
    wait_until(lambda: share.text == "$36.66 or $36.67", message=f"uneven shares, saw {share.text!r}")


def test_garbage_amount_shows_why(app):
    bill = open_tipsplit(app)
    app.type_into(bill, "12x")
    message = wait_until(lambda: next((label for label in app.window.findChildren(
        lambda node: node.roleName == "label" and "cannot be part of an amount" in (node.name or ""),
        showingOnly=True)), None), message="an inline error about the amount")
    share = app.find("label", "Each person pays")
    if share.text != "—":
        raise TestFailure(f"a bad amount still produced a share: {share.text!r} ({message.name})")
