"""What every browser script here shares: Debian's chromium through selenium, checks that
print and count, an axe-core audit (WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices),
and the offline web app's moves (network emulation, the outbox, marking a habit on Today)."""
import json
import re
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# WCAG 2.0, 2.1 and 2.2 at levels A and AA (2.2 adds no A rule to axe-core), and the rules
# axe-core counts as best practice, such as aria-allowed-role.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# axe-selenium-python 3 bundles axe-core 4.10.2; its 2.x bundled 3.1.1, which knows no
# WCAG 2.1 or 2.2 rule. .ci/browser installs 3.x.
AXE_MINIMUM = (4, 10)


def chromium(zone="Europe/Berlin", script_timeout=None, arguments=(), environment=None):
    """Headless chromium at a device scale of 1, in `zone` unless it is None, with `environment`
    added to its own (HOME holds its NSS certificate database, `.pki/nssdb`)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--force-device-scale-factor=1", *arguments):
        options.add_argument(argument)
    env = dict(os.environ, **environment) if environment else None
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=env), options=options)
    if zone:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})
    if script_timeout:
        driver.set_script_timeout(script_timeout)
    return driver


def color_scheme(driver, scheme):
    """Makes the page see `prefers-color-scheme: scheme` ("dark" or "light")."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


class Report:
    """Each check printed as ok or FAIL; the failures counted for the exit status."""

    def __init__(self):
        self.failures = []

    def check(self, condition, message):
        print(("ok: " if condition else "FAIL: ") + message)
        if not condition:
            self.failures.append(message)

    def exit(self):
        print(f"{len(self.failures)} failure(s)")
        sys.exit(1 if self.failures else 0)


def axe_violations(driver):
    """axe-core's violations of the page for AXE_TAGS. Every tag must name rules, and an
    axe-core older than AXE_MINIMUM is refused rather than trusted."""
    Axe(driver).inject()
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const unknown = arguments[0].filter((t) => !axe.getRules([t]).length);"
        "if (unknown.length) { done({version: axe.version, violations: [{id: 'axe knows no rules tagged ' + unknown, nodes: [{target: []}]}]}); return; }"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})"
        ".then((r) => done({version: axe.version, violations: r.violations}),"
        " (e) => done({version: axe.version, violations: [{id: 'axe failed: ' + e, nodes: [{target: []}]}]}));",
        AXE_TAGS)
    global axe_version
    axe_version = result["version"]
    if tuple(int(part) for part in axe_version.split(".")[:2]) < AXE_MINIMUM:
        raise RuntimeError(f"axe-core {axe_version} is older than {'.'.join(map(str, AXE_MINIMUM))}: "
                           "pip install --ignore-requires-python 'axe-selenium-python>=3'")
    return result["violations"]


# The axe-core version the last audit ran, for the scripts' reports.
axe_version = None


def emulate_offline(driver, on):
    """Puts the page's network offline (or back), so `navigator.onLine` says so. A service
    worker's own requests are not covered: stop the server too for them to fail."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    WebDriverWait(driver, 15).until(lambda _: driver.execute_script("return navigator.onLine") == (not on))


def page_api(driver, method, path, body=None):
    """The JSON API through the page's fetch (its session); an error is a string."""
    return driver.execute_async_script("""
      const [method, path, body, done] = arguments;
      fetch(path, {method, headers: {'Content-Type': 'application/json'}, body: body ? JSON.stringify(body) : undefined})
        .then(async r => done(r.ok ? await r.json() : 'error ' + r.status + ' ' + await r.text()), e => done(String(e)));
    """, method, path, body)


def waiting(driver):
    """How many changes the offline app says wait to be sent, as text."""
    return driver.execute_script("return document.documentElement.dataset.waiting")


def sync_status(driver):
    return driver.find_element(By.ID, "sync-status").text


def pressed(driver, habit):
    return driver.find_element(By.CSS_SELECTOR, f"#mark-{habit} button.check").get_attribute("aria-pressed") == "true"


def mark(driver, habit):
    """Taps a habit's done button on Today."""
    button = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda _: driver.find_element(By.CSS_SELECTOR, f"#mark-{habit} button.check"))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def serve(tally, database, port, env, log, options=()):
    """`tally serve` on loopback with `database` and further `options`, its output appended to
    `log`, once it answers /healthz; raises with the log when it does not start."""
    server = subprocess.Popen([str(tally), "serve", "--db", str(database), "--port", str(port), *options],
                              env=env, stdout=open(log, "a"), stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server
        except OSError:
            if server.poll() is not None:
                break
            time.sleep(0.1)
    raise RuntimeError("tally serve did not start:\n" + open(log).read())


class ClockedServer:
    """`tally serve` on a database of its own and a free loopback port, in Berlin, its clock
    running on from `start` (Berlin wall time in winter, UTC+1). A suite stops it to go
    offline: a service worker's own requests are not covered by a page's network emulation,
    and a stopped server refuses them all. `close` stops it and removes its files."""

    def __init__(self, tally, start):
        self.tally, self.start_time, self.began = tally, start, time.monotonic()
        self.work = Path(tempfile.mkdtemp())
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = self.work / "server.log"
        self.process = None

    def start(self):
        """Starts the server on the same database and port; its clock runs on from `start`."""
        now = self.start_time + timedelta(seconds=time.monotonic() - self.began)
        env = {"TZ": "Europe/Berlin", "TALLY_NOW": now.strftime("%Y-%m-%dT%H:%M:%S+01:00"), "PATH": "/usr/bin:/bin"}
        self.process = serve(self.tally, self.work / "tally.sqlite", self.port, env, self.log)

    def stop(self):
        self.process.terminate()
        self.process.wait(10)

    def ms(self):
        """The server's clock now, in milliseconds since 1970."""
        start = (self.start_time - datetime(1970, 1, 1) - timedelta(hours=1)).total_seconds() * 1000
        return start + (time.monotonic() - self.began) * 1000

    def close(self):
        if self.process and self.process.poll() is None:
            self.stop()
        shutil.rmtree(self.work, ignore_errors=True)


def soon(driver, report, predicate, message, timeout=15):
    """Checks that `predicate` comes true within `timeout` seconds."""
    try:
        WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(lambda _: predicate())
        report.check(True, message)
    except TimeoutException:
        report.check(False, message)


def page_tools(driver, settle=0.2):
    """A 15-second wait and the two moves every suite makes with it: `find` (the first element a
    CSS selector matches, once there) and `settled` (a short pause, then the page loaded)."""
    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])

    def find(css):
        return wait.until(lambda _: driver.find_element(By.CSS_SELECTOR, css))

    def settled():
        time.sleep(settle)
        wait.until(lambda _: driver.execute_script("return document.readyState") == "complete")

    return wait, find, settled


class Words:
    """The catalogs' words for checks that read the page (docs/translating.md): `key` in
    `code`'s file, else English, its `{{name}}` placeholders filled from `values`. Plurals
    follow the rule of the languages the suites run in (one for 1, else other)."""
    LOCALES = Path(__file__).resolve().parent.parent / "Sources/TallyWeb/Resources/locales"

    def __init__(self, code):
        if code not in ("en", "de", "nl", "es", "it"):
            raise ValueError(f"the suites' plural rule does not fit '{code}'")
        self.code = code
        self.english = self._flat(json.loads((self.LOCALES / "en.json").read_text()))
        self.own = self._flat(json.loads((self.LOCALES / f"{code}.json").read_text()))

    @staticmethod
    def _flat(tree, prefix=""):
        flat = {}
        for name, value in tree.items():
            if isinstance(value, dict):
                flat.update(Words._flat(value, f"{prefix}{name}."))
            else:
                flat[prefix + name] = value
        return flat

    def __call__(self, key, **values):
        text = self.own.get(key, self.english[key])
        for name, value in values.items():
            text = text.replace("{{" + name + "}}", str(value))
        return text

    def plural(self, key, count, **values):
        return self(f"{key}_{'one' if count == 1 else 'other'}", count=count, **values)

    def parts(self, key):
        """The fixed words around a text's placeholders, each of which a page's text holds."""
        return [part.strip(" ,:") for part in re.split(r"\{\{\w+\}\}", self(key)) if part.strip(" ,:")]
