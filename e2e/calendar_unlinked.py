#!/usr/bin/env python3
"""A show with no provider (issue 29, point 1) in a real browser, after e2e/first_day.py on
the same server: a show added by hand, with an episode on 26 October, shows on its day as a
plain mark named in the day's label, and the day opens a sheet naming the show and the
episode, at 375 and 1280 px; axe finds nothing on the open sheet. The show is deleted again.

Usage: e2e/calendar_unlinked.py BASE_URL SCREENSHOT_DIR
first_day.py leaves the owner ada (password "correct horse battery").
"""
import sys
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, axe_violations, chromium, page_api

BASE = sys.argv[1].rstrip("/")
SHOTS = Path(sys.argv[2])
SHOTS.mkdir(parents=True, exist_ok=True)
LABEL = "The Bake Off on Monday 26 October"

d = chromium()
wait = WebDriverWait(d, 10, ignored_exceptions=[StaleElementReferenceException])
report = Report()
check = report.check
show = None


def find(css):
    return wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))


try:
    d.set_window_size(1280, 900)
    d.get(BASE + "/signin")
    find("#name").send_keys("ada")
    find("#password").send_keys("correct horse battery")
    find("button[type=submit]").click()
    wait.until(EC.url_contains("/today"))
    show = page_api(d, "POST", "/api/v1/shows", {"title": "The Bake Off"})
    check(isinstance(show, dict), f"a show with no provider is added ({show})")
    episodes = page_api(d, "PUT", f"/api/v1/shows/{show['id']}/episodes", {
        "episodes": [{"season": 1, "number": 1, "title": "Cake week", "airDay": "2026-10-26"}]})
    check(not isinstance(episodes, str), f"its episode is saved ({episodes})")

    for width in (375, 1280):
        d.set_window_size(width, 900)
        d.get(BASE + "/calendar/2026-10?country=US")
        tile = find(f'[aria-label="{LABEL}"]')
        check(tile.tag_name == "a", f"{width} px: the day is a link that opens it")
        check(len(tile.find_elements(By.CSS_SELECTOR, ".tile-plain")) == 1, f"{width} px: the day has a plain mark")
        mark = tile.find_element(By.CSS_SELECTOR, ".tile-plain").rect
        check(mark["width"] >= 10 and mark["height"] >= 10, f"{width} px: the mark is visible ({mark})")
        tile.click()
        sheet = find("#day-detail")
        text = sheet.text
        check("The Bake Off · S01E01 Cake week" in text, f"{width} px: the sheet names the episode ({text!r})")
        check("Not on a streaming service in United States" in text, f"{width} px: the sheet says why no logo")
        check("TOTAL" not in text, f"{width} px: no total where nothing has a price")
        d.save_screenshot(str(SHOTS / f"calendar-no-provider-{width}.png"))
        found = [(v["id"], v["nodes"][0]["target"]) for v in axe_violations(d)]
        check(not found, f"{width} px: axe finds nothing on the open day {found}")
finally:
    if isinstance(show, dict):
        # A 204 has no JSON for page_api to read.
        d.execute_async_script(
            "fetch(arguments[0], {method: 'DELETE'}).then(r => arguments[1](r.status), e => arguments[1](String(e)))",
            f"/api/v1/shows/{show['id']}")
    d.quit()
report.exit()
