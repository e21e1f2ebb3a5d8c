"""Runs the real Billfold binary and drives it through the accessibility tree, as a person would."""
import os
import shutil
import subprocess
import tempfile
import time

from dogtail import config

# GTK 4 exposes its accessibility tree on the AT-SPI bus whatever GNOME's toolkit-accessibility key
# says, so the harness does not rewrite the user's desktop settings to satisfy dogtail's check.
config.config.checkForA11y = False
config.config.searchCutoffCount = 20
config.config.searchBackoffDuration = 0.25
config.config.actionDelay = 0.1
config.config.typingDelay = 0.02
config.config.logDebugToFile = False

from dogtail.predicate import GenericPredicate  # noqa: E402
from dogtail.tree import root, SearchError  # noqa: E402


class TestFailure(AssertionError):
    pass


def wait_until(condition, timeout=10.0, message="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except (SearchError, LookupError):
            pass
        time.sleep(0.1)
    raise TestFailure(f"timed out waiting for {message}")


class App:
    """One running Billfold with its own data, config and settings."""

    def __init__(self, binary, language="C.UTF-8", extra_env=None):
        self.binary = os.path.abspath(binary)
        self.home = tempfile.mkdtemp(prefix="billfold-e2e-")
        env = dict(os.environ)
        env.update({
            "HOME": self.home,
            "XDG_DATA_HOME": os.path.join(self.home, "data"),
            "XDG_CONFIG_HOME": os.path.join(self.home, "config"),
            "XDG_CACHE_HOME": os.path.join(self.home, "cache"),
            "GSETTINGS_BACKEND": "memory",
            "GSK_RENDERER": "cairo",
            "LANGUAGE": language.split(".")[0],
            "LC_ALL": language,
        })
        env.update(extra_env or {})
        self.process = subprocess.Popen([self.binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.node = wait_until(self._find_application, timeout=20, message="Billfold to appear on the accessibility bus")
        self.window = wait_until(lambda: self.node.child(roleName="frame", retry=False), message="the main window")

    def _find_application(self):
        for application in root.applications():
            if application.name == "billfold" and self.process.poll() is None:
                return application
        if self.process.poll() is not None:
            output = self.process.stdout.read().decode(errors="replace")
            raise TestFailure(f"billfold exited with {self.process.returncode}: {output}")
        return None

    def find(self, role, name, timeout=10.0):
        """The first showing node with this role and accessible name."""
        def search():
            for node in self.window.findChildren(GenericPredicate(roleName=role, name=name), showingOnly=True):
                return node
            return None
        return wait_until(search, timeout=timeout, message=f"{role} “{name}”")

    def type_into(self, node, text):
        node.grabFocus()
        wait_until(lambda: node.focused, message=f"focus in “{node.name}”")
        node.typeText(text)

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.home, ignore_errors=True)
