"""Restoring a backup from the window, as a person whose library was emptied would: the app says
what happened and offers the backups; Escape leaves everything as it is; Restore Backup brings the
invoice back and keeps the emptied file beside it."""
import glob
import os

from harness import TestFailure, wait_until
from test_invoices import create_invoice, in_window, keys, press


def empty_the_library(app):
    app.stop()
    with open(app.database, "w"):
        pass
    for leftover in glob.glob(app.database + "-*"):
        os.remove(leftover)


def restore_dialog(app):
    return wait_until(lambda: next((w for w in app.node.children
                                    if (w.name or "").startswith("Your Billfold Data")), None),
                      timeout=20, message="the dialog offering a backup")


def test_restore_a_backup_after_the_library_was_emptied(app):
    create_invoice(app)
    app.stop()
    made = app.command("backup", "create")
    if made.returncode != 0:
        raise TestFailure(f"billfold backup create failed: {made.stderr}")
    empty_the_library(app)

    # Escape: nothing is touched, the emptied file stays for the person to decide.
    app.restart()
    dialog = restore_dialog(app)
    in_window(dialog, "push button", "Restore Backup")
    keys("Escape")
    wait_until(lambda: all(not (w.name or "").startswith("Your Billfold Data") for w in app.node.children),
               message="the dialog to close with Escape")
    if app.process.poll() is not None or os.path.getsize(app.database) != 0:
        raise TestFailure("Escape changed the library or ended Billfold")

    # Restore Backup: the invoice is back, and the emptied file is kept beside the library.
    app.restart()
    dialog = restore_dialog(app)
    press(in_window(dialog, "push button", "Restore Backup"))
    wait_until(lambda: next((node for node in app.window.findChildren(
        lambda n: n.roleName == "label" and (n.name or "").startswith("Backup restored."), showingOnly=False)), None),
        timeout=20, message="the toast saying the backup was restored")
    # The toast's one line cannot hold the kept file's path: its button opens the folder instead.
    in_window(app.window, "push button", "Open Folder")
    # The window reads the restored library: the invoice is listed again.
    app.find("list item", "Invoices").click()
    wait_until(lambda: next((node for node in app.window.findChildren(
        lambda n: "Acme & Sons" in (n.name or ""), showingOnly=False) if node.size[0] > 0), None),
        message="the restored invoice in the list")
    listed = app.command("invoice", "list")
    if "Acme & Sons" not in listed.stdout:
        raise TestFailure(f"the restored library lacks the invoice: {listed.stdout!r} {listed.stderr!r}")
    if not glob.glob(app.database + ".before-restore-*"):
        raise TestFailure("the file the backup replaced was not kept")
