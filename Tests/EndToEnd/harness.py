"""Runs the real Billfold binary and drives it through the accessibility tree, as a person would."""
import functools
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


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def compiled_schema_dir():
    """The app's compiled settings schema: the one build-aux/dev staged, or a fresh one."""
    staged = os.environ.get("GSETTINGS_SCHEMA_DIR")
    if staged and os.path.exists(os.path.join(staged, "gschemas.compiled")):
        return staged
    directory = tempfile.mkdtemp(prefix="billfold-schemas-")
    shutil.copy(os.path.join(REPO, "data", "io.github.billfold.Billfold.gschema.xml"), directory)
    subprocess.run(["glib-compile-schemas", "--strict", directory], check=True)
    return directory


@functools.lru_cache(maxsize=None)
def compiled_locale_dir():
    """The compiled catalogs: the ones build-aux/dev staged (it exports BILLFOLD_LOCALE_DIR),
    or every po/*.po compiled the same way into a fresh folder, so a test in another language
    never runs against missing or stale catalogs."""
    staged = os.environ.get("BILLFOLD_LOCALE_DIR")
    if staged and os.path.exists(os.path.join(staged, "de", "LC_MESSAGES", "billfold.mo")):
        return staged
    directory = tempfile.mkdtemp(prefix="billfold-locale-")
    po = os.path.join(REPO, "po")
    for name in sorted(os.listdir(po)):
        if name.endswith(".po"):
            messages = os.path.join(directory, name[:-3], "LC_MESSAGES")
            os.makedirs(messages)
            subprocess.run(["msgfmt", "--check", "-o", os.path.join(messages, "billfold.mo"),
                            os.path.join(po, name)], check=True)
    return directory


class App:
    """One running Billfold with its own data, config and settings."""

    def __init__(self, binary, language="en_US.UTF-8", extra_env=None):
        self.binary = os.path.abspath(binary)
        self.home = tempfile.mkdtemp(prefix="billfold-e2e-")
        env = dict(os.environ)
        env.update({
            "HOME": self.home,
            "XDG_DATA_HOME": os.path.join(self.home, "data"),
            "XDG_CONFIG_HOME": os.path.join(self.home, "config"),
            "XDG_CACHE_HOME": os.path.join(self.home, "cache"),
            "GSETTINGS_BACKEND": "memory",
            "GSETTINGS_SCHEMA_DIR": compiled_schema_dir(),
            "BILLFOLD_LOCALE_DIR": compiled_locale_dir(),
            "GSK_RENDERER": "cairo",
            "LANGUAGE": language.split(".")[0],
            "LC_ALL": language,
        })
        env.update(extra_env or {})
        self.env = env
        self._launch()

    def _launch(self):
        # The app's output goes to a file, not a pipe: a pipe nobody reads would stall a chatty app.
        self.log = open(os.path.join(self.home, "billfold.log"), "ab")
        self.process = subprocess.Popen([self.binary], env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        self.node = wait_until(self._find_application, timeout=20, message="Billfold to appear on the accessibility bus")
        self.window = wait_until(lambda: self.node.child(roleName="frame", retry=False), message="the main window")

    def stop(self):
        """Ends the app, keeping its data for the next start."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.log.close()
        wait_until(lambda: not any(a.name == "billfold" for a in root.applications()), message="Billfold to leave the bus")

    def restart(self):
        self.stop()
        self._launch()

    def command(self, *arguments):
        """Runs `billfold ARGUMENTS…` on the same data, as a person would in a terminal."""
        return subprocess.run([self.binary, *arguments], env=self.env, capture_output=True, text=True)

    @property
    def database(self):
        return os.path.join(self.env["XDG_DATA_HOME"], "billfold", "billfold.sqlite3")

    def _find_application(self):
        for application in root.applications():
            if application.name == "billfold" and self.process.poll() is None:
                return application
        if self.process.poll() is not None:
            raise TestFailure(f"billfold exited with {self.process.returncode}: {self.output()}")
        return None

    def ask_past_the_last_window(self):
        """Asks the app for the window after its last one, as a screen reader may when a window
        closes between two of its questions. GTK 4.8 then answers with the last window in its
        list, and crashes if that one is hidden: a dialog must not stay behind, hidden."""
        from gi.repository import Atspi
        if self.process.poll() is None:
            Atspi.Accessible.get_child_at_index(self.node, self.node.childCount)
            time.sleep(0.2)
        if self.process.poll() is not None:
            raise TestFailure(f"billfold died when asked for a window past its last one ({self.process.returncode})")

    def output(self):
        """What the app printed so far."""
        with open(self.log.name, "rb") as log:
            return log.read().decode(errors="replace")

    def report_exit(self):
        """Says how the app ended, if it did, so a test that lost the app shows the crash."""
        if self.process.poll() is not None:
            print(f"billfold exited with {self.process.returncode}; it printed:\n{self.output()[-20000:]}")

    def find(self, role, name, timeout=10.0):
        """The first node with this role and accessible name. GTK 4.8 appends a button's label
        text to its accessible name ("20% 20%"), so a name followed by a space matches too."""
        def matches(node):
            return node.roleName == role and (node.name == name or (node.name or "").startswith(name + " "))

        def search():
            for node in self.window.findChildren(matches, showingOnly=False):
                return node
            return None
        return wait_until(search, timeout=timeout, message=f"{role} “{name}”")

    def value_next_to(self, caption):
        """The text of the label shown with a caption label (a row's value, a card's amount):
        GTK 4.8 names labels by their text only, so values are found through their caption."""
        node = self.find("label", caption)
        for _ in range(6):
            node = node.parent
            others = [label for label in node.findChildren(lambda n: n.roleName == "label")
                      if label.name != caption]
            if others:
                return others[0].name
        raise TestFailure(f"no value shown next to “{caption}”")

    def type_into(self, node, text, replace=False):
        """Clicks into a text field and types, as a person would; `replace` selects what was there first."""
        # Click near the leading edge: a spin button's centre is its minus button.
        from dogtail import rawinput
        (x, y), (width, height) = node.position, node.size
        rawinput.click(x + min(12, width // 4), y + height // 2)
        time.sleep(0.3)
        if replace:
            from dogtail.rawinput import keyCombo
            keyCombo("<Control>a")
        node.typeText(text)
        time.sleep(0.2)

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.home, ignore_errors=True)
