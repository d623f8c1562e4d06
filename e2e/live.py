#!/usr/bin/env python3
"""Live pages (issue 28) in two real browsers signed in as one user, as a phone and a laptop:
a habit marked done on Today in one shows done in the other's open Today within two seconds,
with no reload; a day marked on the habit's page in one shows in the other's open habit page
the same way; a journal being typed in the second is not replaced under the typing, and keeps
its draft when the page catches up.

Usage: e2e/live.py BASE_URL [SECOND_BASE_URL]
With a second URL (another instance on the same PostgreSQL database) the second browser uses
it, so the change crosses instances. Runs after e2e/first_day.py, which leaves the owner ada
(password "correct horse battery") with the habit Read, and today Friday 20 November 2026.
"""
import sys
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, chromium

BASE = sys.argv[1].rstrip("/")
SECOND = (sys.argv[2] if len(sys.argv) > 2 else BASE).rstrip("/")
report = Report()
check = report.check


def browser(base):
    driver = chromium()
    driver.set_window_size(1280, 900)
    driver.get(base + "/signin")
    wait = WebDriverWait(driver, 10, ignored_exceptions=[StaleElementReferenceException])
    wait.until(EC.presence_of_element_located((By.ID, "name"))).send_keys("ada")
    driver.find_element(By.ID, "password").send_keys("correct horse battery")
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(EC.url_contains("/today"))
    return driver, wait


def pressed(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css).get_attribute("aria-pressed")


def laid_out(driver):
    """The habit grid is the one for this window's width: a first visit is drawn for a remembered
    width and replaced in place (app.js relayout), which would leave a found cell stale."""
    return driver.execute_script(
        "const g = document.getElementById('habit-grid'); if (!g) return false;"
        " const w = Math.round(g.clientWidth);"
        " return w >= Number(g.dataset.wideFrom || Infinity) || Math.abs(w - Number(g.dataset.layoutWidth)) <= 1")


def unreloaded(driver):
    """A mark left on the window: a reload would take it away."""
    return driver.execute_script("return window.liveMark === 1")


def within_two_seconds(condition):
    """Polls `condition` for two seconds: the bound the issue sets for a change to arrive."""
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except StaleElementReferenceException:
            pass
        time.sleep(0.05)
    return False


phone, phone_wait = browser(BASE)
laptop, laptop_wait = browser(SECOND)
try:
    # Today, open on both; Read's state flips on the phone.
    for driver, wait, base in ((phone, phone_wait, BASE), (laptop, laptop_wait, SECOND)):
        driver.get(base + "/today")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#habits .check[aria-label^='Read']")))
    laptop.execute_script("window.liveMark = 1")
    # The laptop's stream is open, as on a page a person has had open for a while.
    laptop_wait.until(lambda d: d.execute_script("return document.documentElement.dataset.following === 'yes'"))
    read = "#habits .check[aria-label^='Read']"
    before = pressed(laptop, read)
    phone.find_element(By.CSS_SELECTOR, read).click()
    phone_wait.until(lambda d: pressed(d, read) != before)
    check(within_two_seconds(lambda: pressed(laptop, read) != before),
          f"Read marked on the phone shows on the laptop's open Today within 2 s ({before} -> {pressed(laptop, read)})")
    check(unreloaded(laptop), "the laptop's Today changed in place, without a reload")

    # The habit's page: a past day marked on the phone fills on the laptop.
    link = phone.find_element(By.CSS_SELECTOR, "a[href^='/habits/']")
    href = link.get_attribute("href").replace(BASE, "")
    for driver, wait, base in ((phone, phone_wait, BASE), (laptop, laptop_wait, SECOND)):
        driver.get(base + href)
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".habit-grid .cell, .grid .cell, [data-day]")))
        wait.until(laid_out)
    laptop.execute_script("window.liveMark = 1")
    laptop_wait.until(lambda d: d.execute_script("return document.documentElement.dataset.following === 'yes'"))
    day = "2026-11-16"
    cell = f"[data-day='{day}']"
    before = laptop.find_element(By.CSS_SELECTOR, cell).get_attribute("aria-label")
    phone.find_element(By.CSS_SELECTOR, cell).click()
    phone_wait.until(lambda d: d.find_element(By.CSS_SELECTOR, cell).get_attribute("aria-label") != before)
    check(within_two_seconds(lambda: laptop.find_element(By.CSS_SELECTOR, cell).get_attribute("aria-label") != before),
          "16 November marked on the phone's habit page fills on the laptop's within 2 s")
    check(unreloaded(laptop), "the laptop's habit page changed in place, without a reload")

    # Typing is not interrupted: the laptop's journal keeps its draft while the phone writes.
    for driver, wait, base in ((phone, phone_wait, BASE), (laptop, laptop_wait, SECOND)):
        driver.get(base + "/today")
        wait.until(EC.presence_of_element_located((By.ID, "journal-text")))
    laptop_wait.until(lambda d: d.execute_script("return document.documentElement.dataset.following === 'yes'"))
    draft = laptop.find_element(By.ID, "journal-text")
    draft.click()
    draft.send_keys(" and a draft")
    typed = draft.get_attribute("value")
    before = pressed(laptop, read)
    phone.find_element(By.CSS_SELECTOR, read).click()
    time.sleep(1.5)
    check(laptop.find_element(By.ID, "journal-text").get_attribute("value") == typed,
          "a change from the phone leaves the laptop's half-typed journal as it is")
    laptop.execute_script("document.activeElement.blur()")
    check(within_two_seconds(lambda: pressed(laptop, read) != before),
          "once the field is left, the laptop's Today catches up")
    check(laptop.find_element(By.ID, "journal-text").get_attribute("value") == typed,
          "and the draft comes back into the new page's journal (kept in the browser's storage)")
finally:
    phone.quit()
    laptop.quit()
report.exit()
