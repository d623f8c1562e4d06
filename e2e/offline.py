#!/usr/bin/env python3
"""Issue 14's offline web app in a real browser. Starts its own `tally serve` (Berlin, its
clock at noon on Saturday 21 November 2026, days behind the browser's, so stamps must follow
the server's clock) and stops it to go offline: a service worker's own requests are not
covered by a page's DevTools network emulation, and a stopped server refuses them all. The
page is emulated offline too, so `navigator.onLine` says so.

Offline it marks two habits, writes a journal entry and a chat message, reloads, closes and
reopens the tab (all there), comes back online and finds every write on the server; then one
day edited on another device meanwhile resolves by the sync rule (greatest stamp wins), a
post that fails for lack of network is kept, the status region and its button work from the
keyboard, the app is installable, axe finds nothing, and signing out forgets the kept pages.

With TALLY_E2E_LANGUAGE=de the account speaks German and every check reads the catalogs'
German words: the offline app's messages, its kept pages and the page for a page never kept.

Usage: e2e/offline.py PATH/TO/TALLY SCREENSHOT_DIR
"""
import json
import os
import re
import sys
import time
import urllib.request
import uuid
from datetime import datetime
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from support import (ClockedServer, Report, axe_violations, chromium, color_scheme, emulate_offline, mark, page_api,
                     page_tools, pressed, soon, sync_status, waiting, Words)

TALLY = sys.argv[1]
SHOTS = Path(sys.argv[2])
SHOTS.mkdir(parents=True, exist_ok=True)
PHONE, DESKTOP = (375, 812), (1280, 900)
DAY = "2026-11-21"
STAMP = re.compile(r"^(\d{16})-([0-9a-f]{8})-([0-9a-f-]{36})$")
LANGUAGE = os.environ.get("TALLY_E2E_LANGUAGE", "en")
words = Words(LANGUAGE)

clocked = ClockedServer(TALLY, datetime(2026, 11, 21, 12, 0, 0))
BASE, work = clocked.base, clocked.work
start_server, stop_server, server_ms = clocked.start, clocked.stop, clocked.ms
report = Report()
check = report.check


def check_soon(predicate, message, timeout=15):
    soon(d, report, predicate, message, timeout)


start_server()
# Each tab is put in Berlin and the dark theme by setup_tab().
d = chromium(zone=None, script_timeout=60)
wait, find, settled = page_tools(d)


def setup_tab():
    d.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Berlin"})
    color_scheme(d, "dark")




def server_api(method, path, body=None):
    """The API from outside the browser, with the browser's session (another client)."""
    cookie = d.get_cookie("tally_session")["value"]
    request = urllib.request.Request(BASE + path, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Cookie": f"tally_session={cookie}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def server_state():
    """Every entity of the account, pulled through the sync protocol: {(kind, id): fields}."""
    state, cursor = {}, ""
    while True:
        page = server_api("GET", "/api/v1/sync?limit=5000" + (f"&cursor={cursor}" if cursor else ""))
        for change in page["changes"]:
            fields = change.get("fields") or {}
            if change["kind"] == "entry" and fields.get("amount", 0) is None:
                # A day without an amount may say so with null or leave it out (docs/sync.md).
                fields = {name: value for name, value in fields.items() if name != "amount"}
            state.setdefault((change["kind"], change["id"]), {}).update(fields)
        cursor = page["cursor"]
        if not page["more"]:
            return state


def outbox():
    return d.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const open = indexedDB.open('tally-offline');
      open.onsuccess = () => { const r = open.result.transaction('outbox').objectStore('outbox').getAll(); r.onsuccess = () => done(r.result); };
      open.onerror = () => done([]);
    """)


def write_journal(text):
    field = find("#journal-text")
    field.clear()
    field.send_keys(text)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    d.find_element(By.CSS_SELECTOR, "#journal-form button[type=submit]").click()


def violations():
    return [(v["id"], len(v["nodes"]), v["nodes"][0]["target"]) for v in axe_violations(d)]


def look(name, size):
    """At one width, from the top: a screenshot, no sideways scrolling on a phone, and axe."""
    label = "phone" if size == PHONE else "desktop"
    d.set_window_size(*size)
    settled()
    d.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    d.save_screenshot(str(SHOTS / f"offline-{name}-{label}{'' if LANGUAGE == 'en' else '-' + LANGUAGE}.png"))
    if size == PHONE:
        overflow = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, f"offline {name}: no horizontal scrolling at 375 px ({overflow})")
    found = violations()
    check(not found, f"offline {name} at {size[0]} px: axe finds no violation {found}")


try:
    setup_tab()
    d.set_window_size(*PHONE)
    d.get(BASE + "/")
    find("#name").send_keys("ada")
    find("#password").send_keys("correct horse battery")
    find("button[type=submit]").click()
    wait.until(lambda _: "/today" in d.current_url)
    habits = {name: page_api(d, "POST", "/api/v1/habits", {"name": name})["id"] for name in ("Read", "Walk", "Stretch")}
    read, walk, stretch = habits["Read"], habits["Walk"], habits["Stretch"]
    if LANGUAGE != "en":
        check(page_api(d, "PATCH", "/api/v1/settings", {"language": LANGUAGE}).get("language") == LANGUAGE,
              f"the account speaks '{LANGUAGE}'")

    # Installable, and the worker in charge of the page before anything is kept.
    d.get(BASE + "/today")
    check_soon(lambda: d.execute_script("return !!navigator.serviceWorker.controller"), "the service worker controls the page")
    scope = d.execute_async_script("const done = arguments[0]; navigator.serviceWorker.getRegistration('/').then(r => done(r && r.scope))")
    check(scope == BASE + "/", f"the worker's scope is the whole site ({scope})")
    errors = d.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
    check(errors == [], f"Chromium finds no installability errors {errors}")
    manifest = d.execute_cdp_cmd("Page.getAppManifest", {})
    check(not manifest.get("errors"), f"the manifest parses without errors {manifest.get('errors')}")
    check(d.find_element(By.CSS_SELECTOR, "link[rel=apple-touch-icon]").get_attribute("href").endswith(".png"), "an apple-touch-icon for iOS")
    worker = urllib.request.urlopen(BASE + "/sw.js").read().decode()
    version = re.search(r'const VERSION = "([0-9a-f]+)"', worker)
    check(version is not None, "the served worker carries the build's version")
    caches = d.execute_async_script("const done = arguments[0]; caches.keys().then(done)")
    check(f"tally-shell-{version.group(1)}" in caches, f"the shell is cached under the version ({caches})")
    for path in ("/today", "/habits", f"/habits/{read}", "/calendar"):
        d.get(BASE + path)
        settled()
    # Stretch's page was never opened: Today's links have the worker keep it ahead.
    kept_ahead = "const [url, done] = arguments; caches.keys().then(names => Promise.all(names.map(n => caches.open(n).then(c => c.match(url))))).then(hits => done(hits.some(Boolean)))"
    check_soon(lambda: d.execute_async_script(kept_ahead, BASE + f"/habits/{stretch}"), "the worker keeps a habit's page ahead of a visit")

    # Offline: the server is gone and the page knows it.
    d.get(BASE + "/today")
    settled()
    stop_server()
    emulate_offline(d, True)
    d.refresh()
    today_words = words.parts("today.headingToday")
    check(all(w in find("#day-heading").text for w in today_words), f"Today opens offline from the kept copy, in its language {today_words}")
    check(d.execute_script("return document.documentElement.lang") == LANGUAGE, "the kept page is in the account's language")
    check(find(".today").get_attribute("data-selected") == DAY, "the kept Today is Saturday 21 November")
    d.get(BASE + f"/habits/{stretch}")
    check("Stretch" in find("h1").text, "a habit's page never visited opens offline")
    d.get(BASE + "/today")
    check(all(w in find("#day-heading").text for w in today_words), "back to the kept Today")
    mark(d, read)
    mark(d, walk)
    check_soon(lambda: pressed(d, read) and pressed(d, walk), "both habits show done at once")
    write_journal("Written on the train, offline.")
    chat = find("#chat-text")
    chat.send_keys("Hello from the tunnel")
    chat.send_keys(Keys.ENTER)
    check_soon(lambda: "Hello from the tunnel" in find("#chat").text, "the chat message shows at once")
    check_soon(lambda: waiting(d) == "4", "four changes wait")
    check(words.plural("script.waiting", 4) in sync_status(d) and words("script.offline") in sync_status(d),
          f"the status says so ({sync_status(d)})")
    check(not d.find_element(By.ID, "sync-now").is_displayed(), "no Send now button while offline")
    look("today", PHONE)
    d.execute_script("document.getElementById('habits').scrollIntoView()")
    d.save_screenshot(str(SHOTS / "offline-today-phone-habits.png"))
    look("today", DESKTOP)

    stamps = [change["stamp"] for change in outbox()]
    check(all(STAMP.match(s) for s in stamps), f"stamps are in sync.md's text ({stamps[:1]})")
    check(len({s.split("-", 2)[2] for s in stamps}) == 1, "one device id for this browser")
    server_clock = server_ms()
    check(all(abs(int(s[:16]) - server_clock) < 600_000 for s in stamps),
          f"stamps follow the server's clock, not the browser's ({stamps[0][:16]} against {server_clock:.0f})")

    def all_there(when):
        check(pressed(d, read) and pressed(d, walk), f"{when}: both habits still done")
        check(find("#journal-text").get_attribute("value") == "Written on the train, offline.", f"{when}: the journal entry is there")
        check("Hello from the tunnel" in find("#chat").text, f"{when}: the chat message is there")
        check(waiting(d) == "4", f"{when}: four changes still wait")

    d.refresh()
    settled()
    check_soon(lambda: waiting(d) == "4", "reloaded offline")
    all_there("after a reload offline")

    # A draft typed offline survives closing the tab too (features.js keeps it).
    find("#journal-text").send_keys(" And more.")
    old = d.current_window_handle
    d.switch_to.new_window("tab")
    fresh = d.current_window_handle
    d.switch_to.window(old)
    d.close()
    d.switch_to.window(fresh)
    setup_tab()
    emulate_offline(d, True)
    d.get(BASE + "/today")
    settled()
    check_soon(lambda: waiting(d) == "4", "the reopened tab shows what waits")
    check(pressed(d, read) and pressed(d, walk), "reopened tab: both habits still done")
    check("Hello from the tunnel" in find("#chat").text, "reopened tab: the chat message is there")
    check(find("#journal-text").get_attribute("value") == "Written on the train, offline. And more.",
          "reopened tab: the draft typed after saving is back")

    # Online again: everything reaches the server, and the outbox empties only then.
    start_server()
    emulate_offline(d, False)
    check_soon(lambda: waiting(d) == "0", "the outbox is sent when the connection returns")
    check(words("script.allSent") in sync_status(d) and words.parts("script.lastSync")[0] in sync_status(d),
          f"the status says when ({sync_status(d)})")
    state = server_state()
    check(state.get(("entry", f"{read}/{DAY}"), {}).get("status") == "done", "the server has Read done")
    check(state.get(("entry", f"{walk}/{DAY}"), {}).get("status") == "done", "the server has Walk done")
    check(state.get(("journal", DAY), {}).get("text") == "Written on the train, offline.", "the server has the journal entry")
    check(any(f.get("text") == "Hello from the tunnel" and f.get("day") == DAY for (k, _), f in state.items() if k == "chat"),
          "the server has the chat message")
    check(outbox() == [], "nothing left in IndexedDB")

    # One day, two devices: offline the browser marks Stretch and rewrites the journal; the
    # other device skips Stretch later and wrote the journal earlier. Greatest stamp wins.
    d.refresh()
    settled()
    stop_server()
    emulate_offline(d, True)
    d.refresh()
    mark(d, stretch)
    write_journal("The browser's text.")
    check_soon(lambda: waiting(d) == "2", "two more changes wait")
    mine = {change["kind"]: int(change["stamp"][:16]) for change in outbox()}
    start_server()
    other = str(uuid.uuid4())
    stamp = lambda ms: f"{ms:016d}-00000000-{other}"
    answer = server_api("POST", "/api/v1/sync", {"device": other, "changes": [
        {"kind": "entry", "id": f"{stretch}/{DAY}", "stamp": stamp(mine["entry"] + 5000), "fields": {"status": "skipped", "note": "Sore knee"}},
        {"kind": "journal", "id": DAY, "stamp": stamp(mine["journal"] - 3000), "fields": {"text": "The other device's text."}}]})
    # The worker's Background Sync may have sent the browser's changes first (its requests are
    # not emulated offline): the outcome must not depend on the order.
    check(answer.get("applied", 0) + answer.get("unchanged", 0) == 2, f"the other device's push is taken ({answer})")
    emulate_offline(d, False)
    check_soon(lambda: waiting(d) == "0", "the browser's changes are sent")
    state = server_state()
    check(state[("entry", f"{stretch}/{DAY}")] == {"status": "skipped", "note": "Sore knee"},
          f"the later edit of the day wins whole: skipped with its note ({state[('entry', f'{stretch}/{DAY}')]})")
    check(state[("journal", DAY)]["text"] == "The browser's text.", "the browser's later journal text wins")
    revisions = server_api("GET", f"/api/v1/journal/{DAY}/revisions")
    check(any("other device" in json.dumps(r) for r in revisions), "the losing journal text is kept as a revision")

    # A post that fails for lack of network while the page thinks it is online is kept, and
    # the status offers to send it; its button works from the keyboard.
    stop_server()
    d.refresh()
    settled()
    mark(d, read)
    check_soon(lambda: waiting(d) == "1", "a post that could not reach the server is kept")
    check_soon(lambda: d.find_element(By.ID, "sync-now").is_displayed(), "the Send now button shows")
    check(words("script.unreachableRetrying") in sync_status(d), f"the status says why it waits ({sync_status(d)})")
    start_server()
    d.find_element(By.CSS_SELECTOR, "a.brand").send_keys("")
    for _ in range(30):
        if d.switch_to.active_element.get_attribute("id") == "sync-now":
            break
        d.switch_to.active_element.send_keys(Keys.TAB)
    check(d.switch_to.active_element.get_attribute("id") == "sync-now", "Tab reaches Send now")
    height = d.execute_script("return document.getElementById('sync-now').getBoundingClientRect().height")
    check(height >= 44, f"Send now is 44 px tall ({height})")
    d.switch_to.active_element.send_keys(Keys.ENTER)
    check_soon(lambda: waiting(d) == "0", "Enter on Send now sends")
    check(server_state()[("entry", f"{read}/{DAY}")]["status"] is None, "the server has Read undone")

    # Habits and a habit's page offline: a card's done button, a tap on the grid (skipped →
    # done, the note kept) and the day editor (Walk skipped with a note), each shown again
    # when the kept pages are reopened.
    # The other device's skip was stamped 5 s ahead; an edit made here later must be later.
    time.sleep(max(0, (mine["entry"] + 7000 - server_ms()) / 1000))
    d.get(BASE + "/habits")
    d.get(BASE + f"/habits/{stretch}")
    d.get(BASE + f"/habits/{walk}?day={DAY}")
    settled()
    stop_server()
    emulate_offline(d, True)
    d.get(BASE + "/statistics")
    check(words("script.offlinePageHeading") in find("main").text and words("script.offlinePageBody") in find("main").text,
          f"a page never kept says it is offline, in the account's language ({find('main').text[:80]})")
    check(d.execute_script("return document.documentElement.lang") == LANGUAGE, "the page for a page never kept names its language")
    found = violations()
    check(not found, f"the offline page: no WCAG 2.1 AA violations {found}")
    d.get(BASE + "/habits")
    quick = lambda: d.find_element(By.ID, f"quick-button-{read}")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", quick())
    quick().click()
    check_soon(lambda: quick().get_attribute("aria-pressed") == "true" and words("habits.done").replace("✓", "").strip() in quick().text,
                "a Habits card's done button works offline")
    cell_css = f'#habit-grid .gc[data-day="{DAY}"]'
    d.get(BASE + f"/habits/{stretch}")
    cell = find(cell_css)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
    cell.click()
    done_cell = lambda: d.find_element(By.CSS_SELECTOR, cell_css + " rect").get_attribute("fill") is not None
    check_soon(done_cell, "a tap on the habit's grid marks the day done at once")
    d.get(BASE + f"/habits/{walk}?day={DAY}")
    find("#day-editor-form input[name=status][value=skipped]").click()
    note = find("#note")
    note.clear()
    note.send_keys("Rain")
    d.find_element(By.CSS_SELECTOR, "#day-editor-form button[type=submit]").click()
    check_soon(lambda: waiting(d) == "3", "the card's button, the tap and the day editor wait")
    d.get(BASE + "/habits")
    check_soon(lambda: quick().get_attribute("aria-pressed") == "true", "the kept Habits page shows the card done again")
    look("habits", PHONE)
    look("habits", DESKTOP)
    d.get(BASE + f"/habits/{stretch}")
    check_soon(done_cell, "the kept habit page shows the tap again")
    check(words("message.waiting") in find(cell_css).get_attribute("aria-label"), "the cell says it waits")
    d.get(BASE + f"/habits/{walk}?day={DAY}")
    check_soon(lambda: find("#day-editor-form input[value=skipped]").is_selected() and find("#note").get_attribute("value") == "Rain",
               "the kept day editor shows the skip and its note again")
    start_server()
    emulate_offline(d, False)
    check_soon(lambda: waiting(d) == "0", "both are sent when the connection returns")
    state = server_state()
    check(state[("entry", f"{stretch}/{DAY}")] == {"status": "done", "note": "Sore knee"}, f"Stretch done, its note kept ({state[('entry', f'{stretch}/{DAY}')]})")
    check(state[("entry", f"{walk}/{DAY}")] == {"status": "skipped", "note": "Rain"}, f"Walk skipped with its note ({state[('entry', f'{walk}/{DAY}')]})")
    check(state[("entry", f"{read}/{DAY}")]["status"] == "done", "Read done from its card")

    # A measurable habit's amount typed on Today offline travels with its day (issue 15).
    run = page_api(d, "POST", "/api/v1/habits", {"name": "Run", "measure": {"unit": "km", "target": 5}})["id"]
    d.get(BASE + "/today")
    settled()
    stop_server()
    emulate_offline(d, True)
    d.refresh()
    amount = find(f"#amount-{run}")
    amount.clear()
    amount.send_keys("3.5")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", amount)
    d.find_element(By.CSS_SELECTOR, f"#mark-{run} button[type=submit]").click()
    check_soon(lambda: waiting(d) == "1", "the amount waits")
    d.refresh()
    check_soon(lambda: find(f"#amount-{run}").get_attribute("value") == "3.5", "the kept Today shows the amount again")
    start_server()
    emulate_offline(d, False)
    check_soon(lambda: waiting(d) == "0", "the amount is sent when the connection returns")
    ran = server_state()[("entry", f"{run}/{DAY}")]
    check(ran.get("status") == "done" and ran.get("amount") == 3.5, f"the server has Run done with 3.5 km ({ran})")

    # A note on a day not done, saved in the day editor offline, reaches the server as a
    # noted day, and the kept editor shows it again as not done.
    d.get(BASE + f"/habits/{walk}?day={DAY}")
    settled()
    stop_server()
    emulate_offline(d, True)
    d.refresh()
    find("#day-editor-form input[name=status][value=none]").click()
    note = find("#note")
    note.clear()
    note.send_keys("Too windy")
    d.find_element(By.CSS_SELECTOR, "#day-editor-form button[type=submit]").click()
    check_soon(lambda: waiting(d) == "1", "the noted day waits")
    d.refresh()
    check_soon(lambda: find("#day-editor-form input[value=none]").is_selected() and find("#note").get_attribute("value") == "Too windy",
               "the kept day editor shows the day not done with its note")
    start_server()
    emulate_offline(d, False)
    check_soon(lambda: waiting(d) == "0", "the noted day is sent when the connection returns")
    noted = server_state()[("entry", f"{walk}/{DAY}")]
    check(noted == {"status": "noted", "note": "Too windy"}, f"the server has Walk noted, not done ({noted})")

    # Signing out forgets the kept pages; the API's answers were never kept.
    kept = d.execute_async_script("""
      const done = arguments[0];
      caches.keys().then(async names => { const all = []; for (const n of names) for (const r of await (await caches.open(n)).keys()) all.push(r.url); done(all); });
    """)
    check(any(url.endswith("/today") for url in kept), "Today was kept")
    check(not any("/api/" in url for url in kept), f"no API answer is kept ({[u for u in kept if '/api/' in u]})")
    d.find_element(By.CSS_SELECTOR, "form.signout button").click()
    wait.until(lambda _: "/signin" in d.current_url)
    check_soon(lambda: not any(n.startswith("tally-pages") for n in d.execute_async_script("const done = arguments[0]; caches.keys().then(done)")),
               "signing out forgets the kept pages")
    # The clock's rules, in the browser (for an account of no one, so nothing is sent): two
    # stamps in a row are ordered as text, and a stamp is never behind a server clock seen.
    stamps = d.execute_async_script("""
      const done = arguments[0];
      const change = (day) => ({kind: 'journal', id: day, fields: {text: day}});
      (async () => {
        const a = await TallySync.record('clock-test', change('2026-11-01'));
        const b = await TallySync.record('clock-test', change('2026-11-02'));
        const seen = Number(b.stamp.slice(0, 16)) + 3600000;
        await TallySync.sawServerClockIn(new Response(null, {headers: {'Tally-Clock': String(seen)}}));
        const c = await TallySync.record('clock-test', change('2026-11-03'));
        done([a.stamp, b.stamp, c.stamp, seen]);
      })().catch((e) => done(String(e)));
    """)
    check(isinstance(stamps, list) and all(STAMP.match(s) for s in stamps[:3]), f"the clock's stamps are in sync.md's text ({stamps})")
    check(stamps[0] < stamps[1] < stamps[2], "each stamp is later than the one before, as text")
    check(int(stamps[2][:16]) >= stamps[3], "a stamp is never behind a server clock the browser saw")
    # Failed requests while offline are expected, and so is the offline page's 503.
    console = [e for e in d.get_log("browser") if e["level"] == "SEVERE" and "ERR_" not in e["message"]
               and "Failed to fetch" not in e["message"] and "status of 503" not in e["message"]]
    check(not console, f"no errors in the browser console {console}")
except Exception:
    d.save_screenshot(str(SHOTS / "offline-failure.png"))
    print("failed at", d.current_url)
    print((work / "server.log").read_text()[-2000:])
    raise
finally:
    d.quit()
    clocked.close()

report.exit()
