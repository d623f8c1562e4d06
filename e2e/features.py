#!/usr/bin/env python3
"""The features of issue 16 in a real browser, after e2e/first_day.py on the same server:
drafts that survive another day and a reload, chat messages edited and deleted with the time
they were written, shows and prices managed from the web app and seen in the calendar's day
sheet, the journal page, and an export imported into a second, empty account.

Usage: e2e/features.py BASE_URL SCREENSHOT_DIR
first_day.py leaves the owner ada (password "correct horse battery"), the day-switch hour at 2
(so today is Friday 20 November 2026), a journal entry on 21 November, and the show Night Sky
on Netflix and Max airing 24 November.
"""
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, chromium, color_scheme

BASE = sys.argv[1].rstrip("/")
SHOTS = Path(sys.argv[2])
SHOTS.mkdir(parents=True, exist_ok=True)
WIDTHS = {"phone": (375, 812), "desktop": (1280, 900)}
PASSWORD = "correct horse battery"

d = chromium()
color_scheme(d, "dark")
# A part of the page replaced while it is read is stale; chromedriver sometimes says so with a
# plain WebDriverException ("Node with given id does not belong to the document"), so a wait
# retries on any of them and fails only by timing out.
wait = WebDriverWait(d, 10, ignored_exceptions=[WebDriverException])
report = Report()
check = report.check


def check_soon(predicate, message):
    """Checks a condition that holds once the page a form posted to has landed."""
    try:
        wait.until(lambda _: predicate())
        check(True, message)
    except TimeoutException:
        check(False, message)


def find(css):
    return wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))


def find_xpath(xpath):
    return wait.until(EC.presence_of_element_located((By.XPATH, xpath)))


def settled():
    time.sleep(0.15)
    wait.until(lambda driver: driver.execute_script("return document.readyState") == "complete")


def screens(name, path):
    """Saves the page at phone and desktop widths; a phone never scrolls sideways."""
    for label, (width, height) in WIDTHS.items():
        d.set_window_size(width, height)
        d.get(BASE + path)
        settled()
        time.sleep(0.3)
        d.save_screenshot(str(SHOTS / f"{name}-{label}.png"))
        if label == "phone":
            overflow = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(overflow <= 0, f"{name}: no horizontal scrolling at 375 px (overflow {overflow})")
    d.set_window_size(*WIDTHS["desktop"])


def click(css):
    """Clicks the element, looking again when a page swap replaced it."""
    def attempt(_):
        element = d.find_element(By.CSS_SELECTOR, css)
        # Centred, so the phone's fixed navigation bar does not cover it.
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True
    wait.until(attempt)


def sign_in(name, password):
    d.get(BASE + "/signin")
    find("#name").send_keys(name)
    find("#password").send_keys(password)
    find("button[type=submit]").click()
    wait.until(EC.url_contains("/today"))


def pick(day):
    d.find_element(By.CSS_SELECTOR, f'.dc[data-day="{day}"]').click()
    wait.until(lambda _: d.find_element(By.CSS_SELECTOR, ".today").get_attribute("data-selected") == day)
    settled()


def api(script):
    """Runs `script` (an async function body with `call(url, body, method)`) in the page."""
    return d.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const call = (url, body, method = 'POST') => fetch(url, {method, headers: body ? {'Content-Type': 'application/json'} : {},
          body: body ? JSON.stringify(body) : undefined})
        .then(async r => { if (!r.ok) throw new Error(url + ' ' + r.status + ' ' + await r.text()); return r.status === 204 ? null : r.text(); });
      (async () => { """ + script + """ })().then(done, e => done('error: ' + e.message));
    """)


try:
    d.set_window_size(*WIDTHS["desktop"])
    sign_in("ada", PASSWORD)

    # 1. Drafts survive picking another day and a reload; saving ends them.
    pick("2026-11-18")
    find("#journal-text").send_keys("Half a thought about the 18th")
    find("#chat-text").send_keys("half a message")
    pick("2026-11-17")
    check(find("#journal-text").get_attribute("value") == "", "another day has its own, empty, journal box")
    pick("2026-11-18")
    check(find("#journal-text").get_attribute("value") == "Half a thought about the 18th", "the journal draft is back on returning to the day")
    check(find("#chat-text").get_attribute("value") == "half a message", "the chat draft is back on returning to the day")
    check(len(d.find_elements(By.CSS_SELECTOR, ".draft-note")) == 2, "each restored draft says so, with a Discard button")
    d.refresh()
    settled()
    check(find("#journal-text").get_attribute("value") == "Half a thought about the 18th", "the journal draft survives a reload")
    d.execute_script("document.getElementById('journal').scrollIntoView()")
    d.save_screenshot(str(SHOTS / "today-draft-desktop.png"))
    find("#journal-form button[type=submit]").click()
    wait.until(lambda _: not d.find_elements(By.CSS_SELECTOR, "#journal .draft-note"))
    d.refresh()
    settled()
    check(find("#journal-text").get_attribute("value") == "Half a thought about the 18th", "the saved entry is shown after a reload")
    check(not d.find_elements(By.CSS_SELECTOR, "#journal .draft-note"), "a saved entry leaves no draft behind")
    find("#chat .draft-discard").click()
    d.switch_to.alert.accept()
    check(find("#chat-text").get_attribute("value") == "", "Discard asks, then empties the chat field")
    d.refresh()
    settled()
    check(find("#chat-text").get_attribute("value") == "", "a discarded draft stays gone")

    # 16. A back-dated message shows when it was written; it can be edited and deleted.
    find("#chat-text").send_keys("Back-dated hello")
    find("#chat-form button[type=submit]").click()
    message = wait.until(lambda _: d.find_elements(By.CSS_SELECTOR, "#chat .message"))[0]
    stamp = message.find_element(By.TAG_NAME, "time").text
    check(stamp.startswith("written Friday 20 November"), f"a message on the 18th written on the 20th says so ({stamp})")
    message.find_element(By.TAG_NAME, "summary").click()
    box = message.find_element(By.TAG_NAME, "textarea")
    box.clear()
    box.send_keys("Back-dated hello, edited")
    message.find_element(By.CSS_SELECTOR, "form[id^=edit-] button").click()
    wait.until(lambda _: "edited" in d.find_element(By.CSS_SELECTOR, "#chat .message p").text)
    check(d.find_element(By.CSS_SELECTOR, "#chat .message time").text == stamp, "an edit keeps the time it was written")
    # A new width lays the page out again, swapping <main>: wait for it before looking.
    d.set_window_size(*WIDTHS["phone"])
    time.sleep(0.8)
    settled()
    click("#chat .message summary")
    time.sleep(0.3)
    d.save_screenshot(str(SHOTS / "today-chat-edit-phone.png"))
    d.set_window_size(*WIDTHS["desktop"])
    time.sleep(0.8)
    settled()
    click("#chat .message summary")
    click("#chat form[id^=delete-] button")
    wait.until(lambda _: not d.find_elements(By.CSS_SELECTOR, "#chat .message"))
    check(True, "Delete removes the message")

    # 15. A show typed in, given services and an episode, reaches the calendar's day sheet.
    d.get(BASE + "/shows")
    find("#show-title").send_keys("Severance")
    find("#manual-show button[type=submit]").click()
    wait.until(EC.url_matches(r"/shows/[0-9a-f-]{36}$"))
    show_path = d.current_url[len(BASE):]
    for provider in ("1899", "531"):
        country = find("#provider-country")
        country.clear()
        country.send_keys("US")
        find(f"#add-provider option[value='{provider}']").click()
        find("#provider-form button[type=submit]").click()
        settled()
    check_soon(lambda: "US · Max" in find("#providers").text and "US · Paramount Plus" in find("#providers").text, "Max and Paramount Plus are added in the US")
    find("#ep-season").send_keys("3")
    find("#ep-number").send_keys("1")
    find("#ep-title").send_keys("Hello Again")
    d.execute_script("document.getElementById('ep-day').value = '2026-11-24'")
    find("#episode-form button[type=submit]").click()
    wait.until(lambda _: "Hello Again" in d.find_element(By.ID, "episodes").text)
    check("S03E01" in find("#episodes").text, "the episode is listed with its code")
    screens("show", show_path)
    screens("shows", "/shows")
    d.get(BASE + "/calendar/2026-11?country=US&day=2026-11-24")
    sheet = find("#day-detail")
    check("Severance · S03E01 Hello Again" in sheet.text, f"the day sheet says what airs ({sheet.text[:200]})")
    check("Night Sky · S01E01 Pilot" in sheet.text, "every watched show airing that day is listed")
    legend = find("#cal-legend")
    names = [li.text for li in legend.find_elements(By.TAG_NAME, "li")]
    fills = [c.get_attribute("fill") for c in legend.find_elements(By.TAG_NAME, "circle")]
    check({"Max", "Paramount Plus", "Netflix"} <= set(names), f"the legend names the month's services ({names})")
    check(len(set(fills)) == len(fills), f"no two services share a dot colour ({fills})")
    screens("calendar-airing", "/calendar/2026-11?country=US&day=2026-11-24")

    # Prices.
    d.get(BASE + "/prices")
    find("#price-country").send_keys("DE")
    find("#price-provider option[value='8']").click()
    find("#price-amount").send_keys("13,99")
    find("#price-currency").send_keys("EUR")
    find("#price-form button[type=submit]").click()
    settled()
    check_soon(lambda: any("DE" in row.text and "Netflix" in row.text for row in d.find_elements(By.CSS_SELECTOR, "#price-table tr")), "a price set on the Prices page is listed")
    find("#price-amount").send_keys("free")
    find("#price-country").send_keys("DE")
    find("#price-currency").send_keys("EUR")
    find("#price-form button[type=submit]").click()
    check_soon(lambda: "the amount must be a monthly price" in find("main").text.lower() and "'free'" in find("main").text, "a price that is not a number is refused naming the amount")
    screens("prices", "/prices")

    # 18. The journal page: newest first with chat counts, search, on this day.
    d.get(BASE + "/journal")
    days = [item.get_attribute("data-day") for item in d.find_elements(By.CSS_SELECTOR, "#journal-entries .journal-item")]
    check(days == sorted(days, reverse=True) and "2026-11-18" in days, f"entries are listed newest first ({days})")
    find("#journal-q").send_keys("CALM")
    find("#journal-search button[type=submit]").click()
    wait.until(EC.url_contains("q=CALM"))
    check(find("#journal-entries mark").text.lower() == "calm", "search finds 'calm' ignoring case and marks it")
    check("1 entry holds" in find("#search-summary").text, "the result count is announced")
    screens("journal", "/journal")
    screens("journal-search", "/journal?q=calm")
    color_scheme(d, "light")
    screens("journal-light", "/journal")
    screens("calendar-airing-light", "/calendar/2026-11?country=US&day=2026-11-24")
    color_scheme(d, "dark")

    # 5. On a phone a habit's history pages back a screenful at a time, and a tap there stays there.
    d.set_window_size(*WIDTHS["phone"])
    d.get(BASE + "/habits")
    d.get(find_xpath("//main//a[contains(@href, '/habits/') and contains(., 'Read')]").get_attribute("href"))
    # A grid laid out for the width the last page remembered is replaced by the one for this
    # width (app.js relayout): wait until the grid shown is the phone's.
    wait.until(lambda _: d.execute_script(
        "const g = document.getElementById('habit-grid');"
        " return g && Math.abs(Math.round(g.clientWidth) - Number(g.dataset.layoutWidth)) <= 1"))
    check(not d.find_elements(By.CSS_SELECTOR, '#habit-grid .gc[data-day="2026-09-03"]'), "3 September is not on the phone's first page")
    click(".grid-pages a[rel=prev]")
    wait.until(EC.url_contains("until="))
    wait.until(lambda _: d.find_elements(By.CSS_SELECTOR, '#habit-grid .gc[data-day="2026-09-03"]'))
    click('#habit-grid .gc[data-day="2026-09-03"]')
    label = lambda: d.find_element(By.CSS_SELECTOR, '#habit-grid .gc[data-day="2026-09-03"] title').get_attribute("textContent")
    check_soon(lambda: "completed" in label(), "a tap on 3 September marks it done and the earlier weeks stay shown")
    check("until=" in d.current_url, f"the address still names the earlier weeks ({d.current_url})")
    d.save_screenshot(str(SHOTS / "habit-earlier-phone.png"))
    click(".grid-pages a[rel=next]")
    wait.until(lambda _: "until=" not in d.current_url)
    check(not d.find_elements(By.CSS_SELECTOR, ".grid-pages a[rel=next]"), "Later weeks leads back to the weeks ending today")
    d.set_window_size(*WIDTHS["desktop"])

    # 2. Ada's export fills a second, empty account on the same server.
    exported = api("""
      const text = await call('/api/v1/export', null, 'GET');
      await call('/api/v1/users', {name: 'bob', password: 'battery staple'});
      return text;
    """)
    check(not exported.startswith("error"), f"the export is read and bob is made ({exported[:80]})")
    file = Path(tempfile.mkdtemp()) / "tally-export.json"
    file.write_text(exported)
    d.find_element(By.CSS_SELECTOR, "form.signout button").click()
    settled()
    sign_in("bob", "battery staple")
    d.get(BASE + "/settings")
    find("#import-file").send_keys(str(file))
    find("#import-preview").click()
    wait.until(lambda _: "Would import" in d.find_element(By.ID, "import-result").text)
    find("#import-file").send_keys(str(file))
    find("#import-button").click()
    wait.until(lambda _: d.find_element(By.ID, "import-result").get_attribute("class") in ("ok", "failed"))
    result = find("#import-result").text
    check(result.startswith("Imported"), f"the export imports into bob's empty account ({result[:160]})")
    check("already exists" not in result, "the answer names nothing of ada's")
    d.get(BASE + "/habits")
    check("Read" in find("main").text and "Swim" in find("main").text, "bob has ada's habits")

    # A large file shows how much of it has been sent: 3 MB of entries, previewed (nothing is
    # written) over an upload throttled to 1 MB/s.
    bulk = Path(tempfile.mkdtemp()) / "bulk.csv"
    start = date(2018, 1, 1)
    rows = [f",Bulk {n % 40},{start + timedelta(days=n // 40)},done,{'a long note ' * 5}," for n in range(36_000)]
    bulk.write_text("habitId,habitName,day,status,note,amount\n" + "\n".join(rows) + "\n")
    d.get(BASE + "/settings")
    d.set_network_conditions(offline=False, latency=5, download_throughput=10_000_000, upload_throughput=1_000_000)
    try:
        find("#import-file").send_keys(str(bulk))
        find("#import-preview").click()
        moving = "return (b => b.hidden ? null : b.value)(document.getElementById('import-progress'))"
        wait.until(lambda _: (d.execute_script(moving) or 0) > 0)
        shown = d.execute_script(moving)
        status = find("#import-result").text
        d.execute_script("document.getElementById('import-progress').scrollIntoView({block: 'center'})")
        d.save_screenshot(str(SHOTS / "settings-import-uploading.png"))
        check(shown is not None and 0 < shown < 100 and status.startswith("Uploading 3."),
              f"the bar shows the upload under way ({shown} %, \"{status}\")")
        wait.until(lambda _: d.find_element(By.ID, "import-result").get_attribute("class") in ("ok", "failed"))
        check("would add 40 new habits" in find("#import-result").text,
              f"then the preview ({find('#import-result').text[:120]})")
        check(d.execute_script(moving) is None, "and the bar is gone")
    finally:
        d.delete_network_conditions()
    d.get(BASE + "/calendar/2026-11?country=US&day=2026-11-24")
    check("Severance · S03E01 Hello Again" in find("#day-detail").text, "episodes stay with their shows under new ids")
    console = [entry for entry in d.get_log("browser") if entry["level"] == "SEVERE" and "status of 422" not in entry["message"]]
    check(not console, f"no errors in the browser console {console}")
except Exception:
    d.save_screenshot(str(SHOTS / "features-failure.png"))
    print("failed at", d.current_url, "page says:", d.find_element(By.TAG_NAME, "main").text[:500])
    raise
finally:
    d.quit()

report.exit()
