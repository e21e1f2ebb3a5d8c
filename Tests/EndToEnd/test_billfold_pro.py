"""Billfold Pro as a person uses it: see the free plan, enter a licence, see Pro, remove it.

The licence is signed by a key pair made for this run with billfold-license. The app trusts that
key through BILLFOLD_TEST_LICENSE_PUBLIC_KEY, a hook that exists only in debug builds: release
builds always check licences against the vendor key compiled into Billfold, so this test needs
the debug binary (.build/debug/billfold).
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time

from harness import REPO, TestFailure, wait_until


def _tool():
    """billfold-license, built beside the billfold binary the runner was given."""
    binary = None
    for index, argument in enumerate(sys.argv):
        if argument == "--binary" and index + 1 < len(sys.argv):
            binary = sys.argv[index + 1]
        elif argument.startswith("--binary="):
            binary = argument.split("=", 1)[1]
    directory = os.path.dirname(os.path.abspath(binary)) if binary else os.path.join(REPO, ".build", "debug")
    return os.path.join(directory, "billfold-license")


def _make_licence():
    """A fresh key pair and a year's licence signed with it; returns (public key, licence text)."""
    directory = tempfile.mkdtemp(prefix="billfold-e2e-keys-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    tool = _tool()
    subprocess.run([tool, "keygen", "--out", directory], check=True, stdout=subprocess.DEVNULL)
    licence = os.path.join(directory, "e2e.billfold-license")
    subprocess.run([tool, "issue", "--key", os.path.join(directory, "billfold-license.key"),
                    "--name", "Erin Example", "--email", "erin@example.com", "--plan", "annual",
                    "--id", "E2E-0001", "--out", licence], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(directory, "billfold-license.pub")) as file:
        public_key = [line.strip() for line in file if line.strip() and not line.startswith("#")][0]
    with open(licence) as file:
        return public_key, file.read()


try:
    PUBLIC_KEY, LICENCE = _make_licence()
    SETUP_PROBLEM = None
except (OSError, subprocess.CalledProcessError) as error:
    # Reported by each test rather than stopping the whole run.
    PUBLIC_KEY, LICENCE = "", ""
    SETUP_PROBLEM = f"could not make a test licence with {_tool()}: {error} (run swift build first)"


def require_licence():
    if SETUP_PROBLEM:
        raise TestFailure(SETUP_PROBLEM)


APP_OPTIONS = {
    "test_enter_and_remove_a_licence": {"extra_env": {"BILLFOLD_TEST_LICENSE_PUBLIC_KEY": PUBLIC_KEY}},
}


def find_anywhere(app, role, name, timeout=10.0):
    """A node on screen in one of the app's windows, newest first: a dialog is a window of its own,
    and its buttons come before the page's ("Remove" before "Remove Licence")."""
    def matches(node):
        # GTK 4.8 names a button by its label as written ("_Remove"), then its text again; it
        # reports nothing as showing, but a collapsed banner's button has no size.
        spoken = (node.name or "").replace("_", "")
        return (node.roleName == role and (spoken == name or spoken.startswith(name + " "))
                and node.size[0] > 0)

    def search():
        for window in reversed(app.node.children):
            for node in window.findChildren(matches, showingOnly=False):
                return node
        return None
    return wait_until(search, timeout=timeout, message=f"{role} “{name}” on screen")


def plan_shown(app):
    return app.value_next_to("Your Plan")


def test_enter_and_remove_a_licence(app):
    require_licence()
    app.find("list item", "Billfold Pro").click()
    wait_until(lambda: plan_shown(app) == "Free", message=f"the free plan, saw {plan_shown(app)!r}")

    find_anywhere(app, "push button", "Enter Licence…").click()
    text = find_anywhere(app, "text", "Licence text")
    activate = find_anywhere(app, "push button", "Activate")
    if activate.sensitive:
        raise TestFailure("Activate is enabled before a licence was entered")
    app.type_into(text, LICENCE.strip())
    wait_until(lambda: activate.sensitive, timeout=20, message="Activate to be enabled by a valid licence")
    activate.click()

    wait_until(lambda: plan_shown(app) == "Billfold Pro", message=f"Billfold Pro, saw {plan_shown(app)!r}")
    licensee = app.value_next_to("Licensed To")
    if licensee != "Erin Example":
        raise TestFailure(f"the licence shows {licensee!r} as the licensee")

    find_anywhere(app, "push button", "Remove Licence").click()
    find_anywhere(app, "push button", "Remove").click()
    wait_until(lambda: plan_shown(app) == "Free", message=f"the free plan again, saw {plan_shown(app)!r}")


def test_a_licence_from_an_unknown_key_is_refused_with_the_reason(app):
    """Without the test key the app trusts only the vendor key, so a test licence is refused."""
    require_licence()
    app.find("list item", "Billfold Pro").click()
    find_anywhere(app, "push button", "Enter Licence…").click()
    text = find_anywhere(app, "text", "Licence text")
    app.type_into(text, LICENCE.strip())
    reason = "This licence was not issued for Billfold"
    wait_until(lambda: any(reason in (node.name or "") for window in app.node.children
                           for node in window.findChildren(lambda n: n.roleName == "label", showingOnly=False)),
               timeout=20, message="the reason the licence is refused")
    time.sleep(0.2)
    if find_anywhere(app, "push button", "Activate").sensitive:
        raise TestFailure("Activate is enabled for a licence signed by an unknown key")
