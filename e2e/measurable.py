#!/usr/bin/env python3
"""Measurable habits (issue 15) in a real browser, after e2e/first_day.py on the same server:
a habit made through the form with a goal and a unit, an amount typed on Today with the
keyboard, the habit page's grid shaded by share of the goal and its three bar charts with
their tables, axe's WCAG 2.2 AA rules and best practices on both pages (support.AXE_TAGS), and
a note kept on a day not done.

Usage: e2e/measurable.py BASE_URL SCREENSHOT_DIR
first_day.py leaves the owner ada (password "correct horse battery") with today Friday
20 November 2026.
"""
import sys
import time
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, axe_violations, chromium

BASE = sys.argv[1].rstrip("/")
SHOTS = Path(sys.argv[2])
SHOTS.mkdir(parents=True, exist_ok=True)
TODAY = "2026-11-20"

d = chromium()
d.set_window_size(1280, 900)
wait = WebDriverWait(d, 10, ignored_exceptions=[StaleElementReferenceException])
report = Report()
check = report.check


def find(css):
    return wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))


def settled():
    time.sleep(0.15)
    wait.until(lambda driver: driver.execute_script("return document.readyState") == "complete")


def audit(name):
    found = [(v["id"], len(v["nodes"]), v["nodes"][0]["target"]) for v in axe_violations(d)]
    check(not found, f"{name}: axe finds no violation {found}")


try:
    d.get(BASE + "/signin")
    find("#name").send_keys("ada")
    find("#password").send_keys("correct horse battery")
    find("button[type=submit]").click()
    wait.until(EC.url_contains("/today"))

    # The form: an amount habit with a goal and a unit.
    d.get(BASE + "/habits/new")
    find("#habit-name").send_keys("Run")
    d.find_element(By.CSS_SELECTOR, "input[name=kind][value=measurable]").click()
    find("#habit-goal").send_keys("5")
    find("#habit-unit").send_keys("km")
    find("button.primary[type=submit]").click()
    wait.until(EC.url_matches(r"/habits/[0-9a-f-]{36}$"))
    habit_url = d.current_url
    habit_id = habit_url.rsplit("/", 1)[1]

    # Today: a labelled number field; typing and Enter saves it.
    d.get(BASE + f"/today?day={TODAY}")
    field = find(f"#amount-{habit_id}")
    label = d.find_element(By.CSS_SELECTOR, f"label[for=amount-{habit_id}]").get_attribute("textContent")
    check(label.startswith("Run on ") and label.endswith("in km"), f"the amount field is labelled ({label})")
    field.send_keys("3", Keys.ENTER)
    wait.until(lambda _: find(f"#amount-{habit_id}").get_attribute("value") == "3")
    d.get(BASE + f"/today?day={TODAY}")
    settled()
    check(find(f"#amount-{habit_id}").get_attribute("value") == "3", "the amount is kept after a reload")
    d.save_screenshot(str(SHOTS / "measurable-today.png"))
    audit("today with a measurable habit")

    # The habit page: the day's cell shaded at 3 of 5 km, a tap opens the day, three charts.
    d.get(habit_url)
    settled()
    cell = find(f'#habit-grid .gc[data-day="{TODAY}"] rect')
    check(cell.get_attribute("fill-opacity") == "0.8", f"3 of 5 km (over half, up to three quarters) shades the cell at 0.8 ({cell.get_attribute('fill-opacity')})")
    for period in ("week", "month", "year"):
        check(len(d.find_elements(By.CSS_SELECTOR, f"#totals-{period}-heading")) == 1, f"a chart of amounts per {period}")
    captions = [c.get_attribute("textContent") for c in d.find_elements(By.CSS_SELECTOR, ".charts caption")]
    check("Amounts per month" in captions, f"each chart has a table for screen readers ({captions})")
    d.save_screenshot(str(SHOTS / "measurable-habit.png"))
    audit("a measurable habit's page")
    d.find_element(By.CSS_SELECTOR, f'#habit-grid .gc[data-day="{TODAY}"]').click()
    wait.until(lambda _: "day=" in d.current_url)
    check(find("#amount").get_attribute("value") == "3", "a tap on a measurable day opens it with its amount")

    # A note on a day not done: the day editor keeps it, the grid draws its dot, Today says so.
    yesterday = "2026-11-19"
    d.get(habit_url + f"?day={yesterday}#day-editor")
    editor = find("#day-editor-form")
    check(editor.find_element(By.CSS_SELECTOR, "input[name=status][value=none]").is_selected(), "an empty day opens as not done")
    editor.find_element(By.CSS_SELECTOR, "#note").send_keys("Rest day")
    editor.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda _: d.find_elements(By.CSS_SELECTOR, f'#habit-grid .gc[data-day="{yesterday}"] .note-mark'))
    label = find(f'#habit-grid .gc[data-day="{yesterday}"]').get_attribute("aria-label")
    # The habit began today, so the day before reads as an empty day there: with the note.
    check(label.endswith("before tracking started, note: Rest day"), f"the noted day reads as an empty one with its note ({label})")
    d.get(habit_url + f"?day={yesterday}#day-editor")
    check(find("#note").get_attribute("value") == "Rest day", "the day editor shows the note again")
    d.get(BASE + f"/today?day={yesterday}")
    check("has a note" in find("#habits").text, "Today says the day has a note")
finally:
    d.quit()

if not report.failures:
    print("all measurable checks passed")
report.exit()
