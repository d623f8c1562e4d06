#!/usr/bin/env python3
"""A new user's first day in Tally, in a real browser (Debian's chromium through selenium),
against a real `tally serve` whose clock starts at a fixed instant.

Usage: e2e/first_day.py BASE_URL SCREENSHOT_DIR
The server must be fresh (no owner yet) and started with TALLY_NOW=2026-11-21T01:30:00+01:00
and the default day-switch hour 0, in time zone Europe/Berlin (the browser's zone is forced to
it too), so today is Saturday 21 November until the switch hour moves.
"""
import json
import sys
import time
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, chromium, color_scheme

BASE = sys.argv[1].rstrip("/")
SHOTS = Path(sys.argv[2])
SHOTS.mkdir(parents=True, exist_ok=True)
TODAY = "2026-11-21"
WIDTHS = {"phone": (375, 812), "desktop": (1280, 900)}

d = chromium()
color_scheme(d, "dark")
# Pages swap <main> in place, so an element found a moment ago may be gone: look again.
wait = WebDriverWait(d, 10, ignored_exceptions=[StaleElementReferenceException])
report = Report()
check = report.check


def find(css):
    return wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))


def settled():
    """Waits for the page's background requests to land."""
    time.sleep(0.15)
    wait.until(lambda driver: driver.execute_script("return document.readyState") == "complete")


def screens(name, path=None):
    """Saves the page at phone and desktop widths and checks a phone never scrolls sideways."""
    for label, (width, height) in WIDTHS.items():
        d.set_window_size(width, height)
        if path:
            d.get(BASE + path)
        settled()
        time.sleep(0.4)
        d.save_screenshot(str(SHOTS / f"{name}-{label}.png"))
        if label == "phone":
            overflow = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(overflow <= 0, f"{name}: no horizontal scrolling at 375 px (overflow {overflow})")
    d.set_window_size(*WIDTHS["desktop"])
    if path:
        d.get(BASE + path)
        settled()


def cell(day):
    return d.find_element(By.CSS_SELECTOR, f'.dc[data-day="{day}"]')


def selected_day():
    return d.find_element(By.CSS_SELECTOR, ".today").get_attribute("data-selected")


try:
    # First run: the owner's account.
    d.set_window_size(*WIDTHS["desktop"])
    d.get(BASE + "/")
    check(d.current_url.endswith("/setup"), "a new server opens on set-up")
    screens("setup")
    find("#name").send_keys("ada")
    find("#password").send_keys("short")
    # The browser refuses a short password itself; a server-side refusal keeps the name.
    d.execute_script("document.getElementById('password').removeAttribute('minlength')")
    find("button[type=submit]").click()
    check("at least 8" in find("[role=alert]").text.lower() or "8" in find("[role=alert]").text, "a short password is refused with a reason")
    check(find("#name").get_attribute("value") == "ada", "the refused form keeps the name")
    find("#password").send_keys("correct horse battery")
    find("button[type=submit]").click()
    wait.until(EC.url_contains("/today"))
    check(f"Today, Saturday 21 November" in find("#day-heading").text, "set-up lands on Today, 21 November")
    screens("today-empty")

    # Two habits through the form: a daily one and a weekly one.
    d.get(BASE + "/habits/new")
    screens("habit-new")
    find("#habit-name").send_keys("Read")
    find("#habit-icon").send_keys("📚")
    find("button.primary[type=submit]").click()
    wait.until(EC.url_matches(r"/habits/[0-9a-f-]{36}$"))
    read_url = d.current_url
    d.get(BASE + "/habits/new")
    find("#habit-name").send_keys("Swim")
    d.find_element(By.CSS_SELECTOR, "input[name=frequency][value=weekly]").click()
    d.find_element(By.CSS_SELECTOR, "#habit-target option[value='2']").click()
    d.find_element(By.CSS_SELECTOR, "input[name=color][value='#06B6D4']").click()
    find("#habit-group").send_keys("Sport")
    find("button.primary[type=submit]").click()
    wait.until(EC.url_matches(r"/habits/[0-9a-f-]{36}$"))
    swim_url = d.current_url
    d.get(BASE + "/habits/new")
    find("#habit-name").send_keys("Read")
    find("button.primary[type=submit]").click()
    check("already" in find("[role=alert]").text, "a second habit named Read is refused")
    check(find("#habit-name").get_attribute("value") == "Read", "the refused habit form keeps what was typed")

    # Complete today from Today with one tap.
    d.get(BASE + "/today")
    button = find("#habits .check[aria-label^='Read']")
    check(button.get_attribute("aria-pressed") == "false", "Read starts not done")
    button.click()
    wait.until(lambda _: d.find_element(By.CSS_SELECTOR, "#habits .check[aria-label^='Read']").get_attribute("aria-pressed") == "true")
    check(True, "one tap on Today marks Read done")
    d.get(BASE + "/today")
    check(find("#habits .check[aria-label^='Read']").get_attribute("aria-pressed") == "true", "Read stays done after a reload")

    # The habit's grid: toggle a past day, then skip another from the day editor.
    d.get(read_url)
    settled()
    day = "2026-11-18"
    target = find(f'#habit-grid .gc[data-day="{day}"]')
    check("completed" not in target.get_attribute("aria-label"), "18 November starts not done")
    target.click()
    wait.until(lambda _: "completed" in d.find_element(By.CSS_SELECTOR, f'#habit-grid .gc[data-day="{day}"]').get_attribute("aria-label"))
    check(True, "a tap on a past cell marks it done")
    ActionChains(d).context_click(find('#habit-grid .gc[data-day="2026-11-19"]')).perform()
    find("#day-editor")
    d.find_element(By.CSS_SELECTOR, "#day-editor input[value=skipped]").click()
    find("#note").send_keys("Travelling")
    d.find_element(By.CSS_SELECTOR, "#day-editor button[type=submit]").click()
    wait.until(lambda _: "skipped" in d.find_element(By.CSS_SELECTOR, '#habit-grid .gc[data-day="2026-11-19"]').get_attribute("aria-label"))
    check(True, "the day editor skips 19 November")
    find('#habit-grid .gc[data-day="2026-11-20"]').click()
    wait.until(lambda _: "completed" in d.find_element(By.CSS_SELECTOR, '#habit-grid .gc[data-day="2026-11-20"]').get_attribute("aria-label"))
    stats = {e.find_element(By.TAG_NAME, "dt").text: e.find_element(By.TAG_NAME, "dd").text for e in d.find_elements(By.CSS_SELECTOR, ".habit-stats div")}
    check(stats.get("Current streak") == "3 days", f"18, 20 and 21 done around a skipped 19 make a 3-day streak (got {stats.get('Current streak')})")
    # Keyboard: arrow keys move focus in the grid.
    focused = find('#habit-grid .gc[tabindex="0"]')
    focused.send_keys(Keys.ARROW_LEFT)
    check(d.switch_to.active_element.get_attribute("data-day") != focused.get_attribute("data-day"), "arrow keys move through the habit grid")
    screens("habit-detail")
    screens("habits", "/habits")

    # Journal and chat change the circle's state.
    d.get(BASE + "/today")
    check("no entry" in cell(TODAY).get_attribute("aria-label") or "entry" not in cell(TODAY).get_attribute("aria-label"), "today starts without an entry")
    find("#journal-text").send_keys("A calm first day.")
    find("#journal-form button[type=submit]").click()
    wait.until(lambda _: "entry" in cell(TODAY).get_attribute("aria-label"))
    check(True, "saving the journal gives today's circle an entry")
    check(find("#journal-text").get_attribute("value") == "A calm first day.", "the entry is shown after saving")
    d.find_element(By.CSS_SELECTOR, '.dc[data-day="2026-11-20"]').click()
    wait.until(lambda _: selected_day() == "2026-11-20")
    find("#chat-text").send_keys("Yesterday I swam.")
    find("#chat-form button[type=submit]").click()
    wait.until(lambda _: "chat" in cell("2026-11-20").get_attribute("aria-label"))
    check(True, "a chat message gives 20 November's circle a chat dot")
    check(len(d.find_elements(By.CSS_SELECTOR, '.dc[data-day="2026-11-20"] circle')) >= 4, "the chat dot is drawn")
    check(find("#streak-badge").text == "1 Day Streak", "chat yesterday gives a 1 Day Streak badge")
    check(find("#today-button").is_displayed(), "the Today button shows while another day is selected")
    d.find_element(By.ID, "today-button").click()
    wait.until(lambda _: selected_day() == TODAY)
    check(not d.find_elements(By.ID, "today-button"), "the Today button hides on today")

    # Drag across the grid: the selection follows, one selection per new day.
    grid = find("#date-grid")
    start = cell("2026-11-10")
    before = int(grid.get_attribute("data-selections") or 0)
    chain = ActionChains(d).click_and_hold(start)
    for name in ("2026-11-10", "2026-11-11", "2026-11-11", "2026-11-12"):
        chain = chain.move_to_element(cell(name)).move_by_offset(1, 1)
    chain.release().perform()
    wait.until(lambda _: selected_day() == "2026-11-12")
    after = int(d.find_element(By.ID, "date-grid").get_attribute("data-selections") or 0)
    check(after - before == 3, f"dragging over 10, 11, 11, 12 selects three days once each (counted {after - before})")
    selected = cell("2026-11-12").find_element(By.XPATH, "./ancestor-or-self::*[@role='gridcell']").get_attribute("aria-selected")
    check(selected == "true", "the dragged-to day is the selected circle (its grid cell says so)")
    check("12 November" in find("#day-heading").text, "the day panel follows the drag")
    # Keyboard on the date grid.
    focus = d.find_element(By.CSS_SELECTOR, '.dc[tabindex="0"]')
    focus.send_keys(Keys.ARROW_RIGHT)
    check(d.switch_to.active_element.get_attribute("data-day") == "2026-11-13", "the right arrow moves to the next day")
    d.switch_to.active_element.send_keys(Keys.ENTER)
    wait.until(lambda _: selected_day() == "2026-11-13")
    check(True, "Enter selects the focused day")
    d.get(BASE + "/today")
    screens("today")
    color_scheme(d, "light")
    screens("today-light")
    color_scheme(d, "dark")

    # Streaming calendar: a show with a priced and an unpriced provider airs on 24 November.
    seed = d.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const post = (url, body, method = 'POST') => fetch(url, {method, headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})
        .then(async r => { if (!r.ok) throw new Error(url + ' ' + r.status + ' ' + await r.text()); return r.status === 204 ? null : r.json(); });
      (async () => {
        const show = await post('/api/v1/shows', {title: 'Night Sky', status: 'watching',
          providers: {US: [{id: 8, name: 'Netflix'}, {id: 1899, name: 'Max'}]}});
        await post(`/api/v1/shows/${show.id}/episodes`, {episodes: [{season: 1, number: 1, title: 'Pilot', airDay: '2026-11-24'}]}, 'PUT');
        done(show.id);
      })().catch(e => done('error: ' + e.message));
    """)
    check(not str(seed).startswith("error"), f"the calendar data is stored ({seed})")
    d.get(BASE + "/calendar/2026-11?country=US")
    screens("calendar")
    tile = find('a.tile[href*="day=2026-11-24"]')
    check("Netflix" in tile.get_attribute("aria-label") and "Max" in tile.get_attribute("aria-label"), f"the tile names its providers ({tile.get_attribute('aria-label')})")
    tile.click()
    total = find("#day-detail .sheet-total")
    check("TOTAL" in total.text, f"the day sheet shows a TOTAL ({total.text})")
    screens("calendar-day")
    check(total.text == "TOTAL: $36.48", f"Netflix $17.99 and Max $18.49 make TOTAL: $36.48 ({total.text})")
    empty = d.find_elements(By.CSS_SELECTOR, 'a[href*="day=2026-11-25"]')
    check(not empty, "a day without providers is not a link")

    # Settings: a Loop Habit Tracker backup, previewed and then imported, joins the habits.
    loop = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "loop" / "Loop Habits Backup 2024-03-10 120000.db"
    d.get(BASE + "/settings")
    find("#import-file").send_keys(str(loop))
    find("#import-preview").click()
    # The report names the format and says what it would add ("Loop Habit Tracker: would add …").
    wait.until(lambda _: "would add" in d.find_element(By.ID, "import-result").text.lower())
    check("3 new habits" in find("#import-result").text, f"the preview counts Loop's three habits ({find('#import-result').text[:120]})")
    d.get(BASE + "/habits")
    check("Meditate" not in find("main").text, "a preview writes nothing")
    d.get(BASE + "/settings")
    find("#import-file").send_keys(str(loop))
    find("#import-button").click()
    wait.until(lambda _: ": added" in d.find_element(By.ID, "import-result").text.lower())
    d.get(BASE + "/habits")
    check("Meditate" in find("main").text and "Gym, weights" in find("main").text, "the imported habits are listed")

    # Moving the day-switch hour to 2 makes 01:30 belong to the day before.
    d.get(BASE + "/settings")
    screens("settings")
    hour = find("[name=daySwitchHour]")
    if hour.tag_name == "select":
        hour.find_element(By.CSS_SELECTOR, "option[value='2']").click()
    else:
        hour.clear()
        hour.send_keys("2")
    find("form[action='/settings'] button[type=submit]").click()
    settled()
    d.get(BASE + "/today")
    check("Today, Friday 20 November" in find("#day-heading").text, f"with the switch at 2:00, 01:30 is still Friday ({find('#day-heading').text})")

    screens("statistics", "/statistics")
    d.get(BASE + "/manifest.webmanifest")
    manifest = json.loads(d.find_element(By.TAG_NAME, "pre").text)
    check(any(icon["sizes"] == "512x512" for icon in manifest["icons"]), "the manifest offers a 512 px icon")
    # The refused forms above answered 422 on purpose; anything else is a fault.
    console = [entry for entry in d.get_log("browser") if entry["level"] == "SEVERE" and "status of 422" not in entry["message"]]
    check(not console, f"no errors in the browser console {console}")
except Exception:
    d.save_screenshot(str(SHOTS / "failure.png"))
    print("failed at", d.current_url, "page says:", d.find_element(By.TAG_NAME, "main").text[:500])
    raise
finally:
    d.quit()

report.exit()
