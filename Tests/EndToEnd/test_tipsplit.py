"""TipSplit as a person uses it: type a bill, pick a tip, set the party size, read the share."""
from harness import TestFailure, wait_until



def open_tipsplit(app):
    app.find("list item", "TipSplit").click()
    return app.find("text", "Bill Amount")


def test_split_a_bill_between_three(app):
    bill = open_tipsplit(app)
    app.type_into(bill, "100.00")
    app.find("push button", "20%").click()
    people = app.find("spin button", "People")
    app.type_into(people, "3\n", replace=True)
    # 100.00 + 20 % = 120.00, split three ways is exactly 40.00 each.
    wait_until(lambda: app.value_next_to("Each Person Pays") == "$40.00",
               message=f"share $40.00, saw {app.value_next_to('Each Person Pays')!r}")
    total = app.value_next_to("Total")
    if total != "$120.00":
        raise TestFailure(f"total shows {total!r}")


def test_uneven_split_says_who_pays_more(app):
    bill = open_tipsplit(app)
    app.type_into(bill, "100")
    app.find("push button", "10%").click()
    people = app.find("spin button", "People")
    app.type_into(people, "3\n", replace=True)
    # 110.00 / 3 = 36.67 + 36.67 + 36.66, and the card says one person pays a cent more.
    wait_until(lambda: app.value_next_to("Each Person Pays") == "$36.66 or $36.67",
               message=f"uneven shares, saw {app.value_next_to('Each Person Pays')!r}")
    app.find("label", "2 of 3 people pay $0.01 more, so the shares add up to the total exactly.")


def test_garbage_amount_shows_why(app):
    bill = open_tipsplit(app)
    app.type_into(bill, "12x")
    message = wait_until(lambda: next((label for label in app.window.findChildren(
        lambda node: node.roleName == "label" and "cannot be part of an amount" in (node.name or ""),
        showingOnly=False)), None), message="an inline error about the amount")
    share = app.value_next_to("Each Person Pays")
    if share != "—":
        raise TestFailure(f"a bad amount still produced a share: {share!r} ({message.name})")
