"""Billfold in German: TipSplit's labels come from the German catalog and amounts are written the
de_DE way. The expected texts are read from the same compiled catalog the app is given, so the
test checks that the app translates, not what the translator chose."""
import gettext

from harness import TestFailure, compiled_locale_dir, wait_until

APP_OPTIONS = {
    "test_tipsplit_speaks_german": {"language": "de_DE.UTF-8"},
}

# How de_DE writes these, as MoneyFormatterTests and NumberAndDateFormattingTests pin down:
# "1.234,50 €" and "15 %", each with a no-break space before the sign.
NO_BREAK_SPACE = "\u00a0"


def euros(minor_units):
    """An amount in euros as MoneyFormatter writes it for de_DE (amounts below 1.000 here)."""
    return f"{minor_units // 100},{minor_units % 100:02d}{NO_BREAK_SPACE}€"


def german():
    catalog = gettext.translation("billfold", localedir=compiled_locale_dir(), languages=["de"])

    def tr(msgid):
        text = catalog.gettext(msgid)
        if text == msgid:
            raise TestFailure(f"the German catalog does not translate “{msgid}”")
        return text
    return tr, catalog.ngettext


def test_tipsplit_speaks_german(app):
    tr, trn = german()
    # TipSplit keeps its name in every language.
    app.find("list item", "TipSplit").click()
    bill = app.find("text", tr("Bill Amount"))
    app.type_into(bill, "100")
    app.find("push button", f"10{NO_BREAK_SPACE}%").click()
    people = app.find("spin button", tr("People"))
    app.type_into(people, "3\n", replace=True)

    # A fresh de_DE user's TipSplit counts in euros. 100 + 10 % = 110,00; three ways that is
    # 36,67 + 36,67 + 36,66, smallest share first.
    each = tr("Each Person Pays")
    expected = tr("%@ or %@").replace("%@", euros(3666), 1).replace("%@", euros(3667), 1)
    wait_until(lambda: app.value_next_to(each) == expected,
               message=f"„{expected}“ next to „{each}“, saw {app.value_next_to(each)!r}")
    total = app.value_next_to(tr("Total"))
    if total != euros(11000):
        raise TestFailure(f"the total shows {total!r}, not {euros(11000)!r}")

    note = trn("%d of %d people pays %@ more, so the shares add up to the total exactly.",
               "%d of %d people pay %@ more, so the shares add up to the total exactly.", 2)
    app.find("label", note.replace("%d", "2", 1).replace("%d", "3", 1).replace("%@", euros(1), 1))
