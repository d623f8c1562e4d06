#!/usr/bin/env python3
"""Weekday schedules and pauses (issue 55) in a real browser, with a server of its own (Berlin,
its clock at noon on Friday 20 November 2026) that it stops to go offline, as offline.py does.

A Mon/Wed/Fri habit made through the form, a daily one beside it; a vacation started on Today
with the keyboard; both seen on Today, the habit pages and Statistics at 375 and 1280 px with
axe's WCAG 2.2 AA rules; then offline: the kept pages still say what rests, and a pause made
offline waits in the outbox and reaches the server when it returns.

Usage: e2e/schedules.py PATH/TO/TALLY SCREENSHOT_DIR
"""
import re
import sys
from datetime import datetime
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from support import ClockedServer, Report, axe_violations, chromium, emulate_offline, page_api, page_tools, soon, waiting

TALLY = sys.argv[1]
SHOTS = Path(sys.argv[2])
SHOTS.mkdir(parents=True, exist_ok=True)
PHONE, DESKTOP = (375, 812), (1280, 900)
TODAY = "2026-11-20"

clocked = ClockedServer(TALLY, datetime(2026, 11, 20, 12, 0, 0))
BASE = clocked.base
report = Report()
check = report.check

d = chromium(script_timeout=60)
wait, find, settled = page_tools(d)




def check_soon(predicate, message, timeout=15):
    soon(d, report, predicate, message, timeout)


def look(name):
    """At both widths, from the top: a screenshot, no sideways scrolling on a phone, and axe."""
    for size in (PHONE, DESKTOP):
        label = "phone" if size == PHONE else "desktop"
        d.set_window_size(*size)
        settled()
        d.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        d.save_screenshot(str(SHOTS / f"schedules-{name}-{label}.png"))
        if size == PHONE:
            overflow = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(overflow <= 0, f"{name}: no horizontal scrolling at 375 px ({overflow})")
        found = [(v["id"], len(v["nodes"]), v["nodes"][0]["target"]) for v in axe_violations(d)]
        check(not found, f"{name} at {size[0]} px: axe finds no violation {found}")


def listed(section):
    return [a.text for a in d.find_elements(By.CSS_SELECTOR, f"{section} .due-name")]


clocked.start()
try:
    d.set_window_size(*DESKTOP)
    d.get(BASE + "/")
    find("#name").send_keys("ada")
    find("#password").send_keys("correct horse battery")
    find("button[type=submit]").click()
    wait.until(lambda _: "/today" in d.current_url)

    # The form: "On chosen weekdays", Monday, Wednesday and Friday ticked.
    d.get(BASE + "/habits/new")
    find("#habit-name").send_keys("Gym")
    check(not find("#habit-weekdays").is_displayed(), "the weekday boxes wait until weekdays are chosen")
    d.find_element(By.CSS_SELECTOR, "input[name=frequency][value=weekdays]").click()
    check(find("#habit-weekdays").is_displayed() and not find("#habit-schedule").is_displayed(),
          "choosing weekdays shows their boxes and hides another schedule's field")
    boxes = {b.get_attribute("name"): b for b in d.find_elements(By.CSS_SELECTOR, "#habit-weekdays input[type=checkbox]")}
    check(len(boxes) == 7, f"seven weekday boxes ({len(boxes)})")
    for name, box in boxes.items():
        if box.is_selected() != (name in ("on-monday", "on-wednesday", "on-friday")):
            box.send_keys(Keys.SPACE)
    look("form")
    d.find_element(By.CSS_SELECTOR, "button.primary[type=submit]").click()
    wait.until(lambda _: d.current_url.rsplit("/", 1)[-1].count("-") == 4)
    gym = d.current_url.rsplit("/", 1)[1]
    check(re.search(r"Every Monday, Wednesday,? and Friday", find("main").text), "the habit page names its weekdays")
    tuesday = find('#habit-grid .gc[data-day="2026-11-17"]')
    check(tuesday.get_attribute("data-neutral") == "unscheduled", "a Tuesday is drawn as not scheduled")
    check("not scheduled" in tuesday.get_attribute("aria-label"), f"and says so ({tuesday.get_attribute('aria-label')})")
    read = page_api(d, "POST", "/api/v1/habits", {"name": "Read", "createdDay": "2026-11-16"})["id"]

    # Today, a Friday: both are due.
    d.get(BASE + "/today")
    settled()
    check(sorted(listed(".due-list:not(.rest-list)")) == ["Gym", "Read"], f"both are due on Friday ({listed('.due-list')})")

    # A vacation from Today, typed and sent with the keyboard.
    field = find("#vacation-until")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.send_keys("11272026")
    field.send_keys(Keys.ENTER)
    check_soon(lambda: d.find_elements(By.CSS_SELECTOR, ".rest-list"), "the vacation moves the habits out of what is due")
    check(sorted(listed(".rest-list")) == ["Gym", "Read"], f"both rest ({listed('.rest-list')})")
    check("All habits paused from Friday 20 November through Friday 27 November" in find("#vacation").text,
          f"Today says the vacation ({find('#vacation').text})")
    look("today-vacation")
    d.get(BASE + f"/habits/{read}")
    settled()
    today_cell = find(f'#habit-grid .gc[data-day="{TODAY}"]')
    check(today_cell.get_attribute("data-neutral") == "paused", "today is drawn as paused on the habit's grid")
    check(today_cell.get_attribute("aria-label").endswith("paused"), f"and read as paused ({today_cell.get_attribute('aria-label')})")
    look("habit-paused")
    d.get(BASE + f"/habits/{gym}")
    settled()
    look("habit-weekdays")
    d.get(BASE + "/statistics")
    settled()
    look("statistics")

    # Offline: the kept pages still say what rests; a pause made here waits and then arrives.
    for path in ("/today", f"/habits/{read}", f"/habits/{gym}"):
        d.get(BASE + path)
        settled()
    d.get(BASE + "/today")
    check_soon(lambda: d.execute_script("return !!navigator.serviceWorker.controller"), "the service worker controls the page")
    page_api(d, "POST", "/api/v1/pauses/resume", {})
    d.get(BASE + f"/habits/{gym}")
    settled()
    clocked.stop()
    emulate_offline(d, True)
    d.refresh()
    check(re.search(r"Every Monday, Wednesday,? and Friday", find("main").text), "the habit page opens offline")
    form = find("#pause-form")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", form)
    form.find_element(By.CSS_SELECTOR, "#pause-until").send_keys("11302026")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    check_soon(lambda: waiting(d) == "1", "the pause waits in the outbox")
    check_soon(lambda: "waiting to be sent" in find("#pauses").text, "the page says the pause waits")
    look("habit-offline")
    clocked.start()
    emulate_offline(d, False)
    check_soon(lambda: waiting(d) == "0", "the pause is sent when the connection returns", timeout=30)
    pauses = page_api(d, "GET", "/api/v1/pauses")
    check([(p["habitId"], p["from"], p["until"]) for p in pauses if p["habitId"]] == [(gym, TODAY, "2026-11-30")],
          f"the server holds the pause made offline ({pauses})")
finally:
    d.quit()
    if report.failures:
        print("== server log")
        print(clocked.log.read_text()[-4000:])
    clocked.close()

if not report.failures:
    print("all schedule checks passed")
report.exit()
