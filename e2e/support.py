"""What every browser script here shares: Debian's chromium through selenium, checks that
print and count, and an axe-core audit of the WCAG 2.1 A and AA rules."""
import sys

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def chromium(zone="Europe/Berlin", script_timeout=None):
    """Headless chromium at a device scale of 1, in `zone` unless it is None."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
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
    """axe-core's violations of the page, for the tags this axe-core knows (the 3.1.1 that
    axe-selenium-python bundles has no 2.1 ones)."""
    Axe(driver).inject()
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const tags = arguments[0].filter((t) => axe.getRules([t]).length);"
        "axe.run(document, {runOnly: {type: 'tag', values: tags}})"
        ".then(done, (e) => done({violations: [{id: 'axe failed: ' + e, nodes: [{target: []}]}]}));",
        AXE_TAGS)
    return result["violations"]
