#!/usr/bin/env python3
"""Issue 60 in a real browser: texts a user stores stay text in the offline app too, and a page
with provider logos asks no other origin for anything. Starts its own `tally serve`, stores
script payloads through the API (habit names, a unit, notes, the journal, a show, a provider),
opens the pages online, then stops the server and puts the page offline and draws them from
the kept copies, writing a chat message and a journal entry offline (offline.js draws those):
no page holds an element or handler a payload made, and every payload shows as typed.

Usage: e2e/stored_text.py PATH/TO/TALLY
"""
import sys
from datetime import datetime

from selenium.webdriver.common.keys import Keys
from support import ClockedServer, Report, chromium, emulate_offline, page_api, page_tools, soon

TALLY = sys.argv[1]
PAYLOADS = ['"><img src=x onerror=f()>', "</script><script>f()//", "'><svg onload=f()>",
            "</textarea><marquee>", "{{chrome}}{{{content}}}"]
# Elements and handlers only a payload would make: Tally's pages have none of them.
INJECTED = "marquee, img[src='x'], [onerror], [onload], script:not([src])"

server = ClockedServer(TALLY, datetime(2026, 11, 21, 12, 0, 0))
server.start()
BASE = server.base
report = Report()
check = report.check
d = chromium(script_timeout=60)
wait, find, settled = page_tools(d, settle=0.3)




def visit(path):
    d.get(BASE + path)
    settled()


def nothing_injected_on(paths, when):
    for path in paths:
        visit(path)
        nothing_injected(f"{path} {when}")


def shown_as_typed(path, texts):
    """The page's text and attribute values, as the DOM holds them, hold each of `texts`."""
    held = d.execute_script(
        "return document.body.innerText + '\\n' + [...document.querySelectorAll('*')]"
        ".flatMap(e => [...e.attributes].map(a => a.value)).join('\\n')"
        " + [...document.querySelectorAll('textarea, input')].map(e => e.value).join('\\n')")
    missing = [text for text in texts if text not in held]
    check(not missing, f"{path}: shown as typed (missing {missing})")


def nothing_injected(path):
    found = d.execute_script(f"return [...document.querySelectorAll({INJECTED!r})].map(e => e.outerHTML.slice(0, 80))")
    check(not found, f"{path}: no element a payload made {found}")
    pwned = d.execute_script("return window.__payloadRan === true")
    check(not pwned, f"{path}: no payload's script ran")


def other_origins():
    """Every resource the page loaded or tried to, and every image, from another origin."""
    return d.execute_script(
        "const own = location.origin;"
        "return [...performance.getEntriesByType('resource').map(e => e.name),"
        " ...[...document.images].map(i => i.src)].filter(u => u && new URL(u, location.href).origin !== own)")


try:
    d.set_window_size(1280, 900)
    d.get(BASE + "/")
    find("#name").send_keys("ada")
    find("#password").send_keys("correct horse battery")
    find("button[type=submit]").click()
    wait.until(lambda _: "/today" in d.current_url)
    # f() would mark the page if any payload's script ran.
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "window.f = () => { window.__payloadRan = true; };"})

    stored = []
    habits = []
    for index, payload in enumerate(PAYLOADS):
        name, unit, note = f"{payload} h{index}", f"{payload[:26]} u", f"{payload} n{index}"
        body = {"name": name, "group": f"{payload} g", "createdDay": "2026-11-01"}
        if index == 0:
            body["measure"] = {"unit": unit, "target": 4}
            stored.append(unit)
        habit = page_api(d, "POST", "/api/v1/habits", body)
        check(isinstance(habit, dict), f"habit {index} stored ({habit})")
        habits.append(habit["id"])
        entry = {"status": "done", "note": note, **({"amount": 2} if index == 0 else {})}
        check(isinstance(page_api(d, "PUT", f"/api/v1/habits/{habit['id']}/entries/2026-11-21", entry), dict), f"note {index} stored")
        stored += [name, note]
    journal = " ".join(PAYLOADS)
    page_api(d, "PUT", "/api/v1/journal/2026-11-21", {"text": journal})
    stored.append(journal)
    show = page_api(d, "POST", "/api/v1/shows", {
        "title": f"{PAYLOADS[0]} show", "status": "watching",
        "providers": {"DE": [{"id": 8, "name": f"{PAYLOADS[2]} p", "logoURL": "https://image.tmdb.org/t/p/logo.png"}]}})
    check(isinstance(show, dict), f"show stored ({show})")
    page_api(d, "PUT", f"/api/v1/shows/{show['id']}/episodes",
             {"episodes": [{"season": 1, "number": 1, "title": f"{PAYLOADS[1]} e", "airDay": "2026-11-24"}]})

    pages = ["/today", "/habits", f"/habits/{habits[0]}", f"/habits/{habits[1]}", "/journal"]
    nothing_injected_on(pages, "online")
    visit("/today")
    shown_as_typed("/today online", [s for s in stored if not s.endswith("u")] + [journal])
    visit("/habits")
    shown_as_typed("/habits online", [stored[0]])

    # A page with a provider's logo asks only Tally: the logo comes from /logos.
    visit("/calendar/2026-11?country=DE&day=2026-11-24")
    nothing_injected("/calendar online")
    logos = d.execute_script("return [...document.querySelectorAll('.logo-disc img')].map(i => i.getAttribute('src'))")
    check(logos and all(src.startswith("/logos/") for src in logos), f"logos are linked from this origin ({logos})")
    check(other_origins() == [], f"the calendar asks no other origin ({other_origins()})")

    # Offline: the server is gone; the kept pages and offline.js draw the same texts.
    visit("/today")
    server.stop()
    emulate_offline(d, True)
    nothing_injected_on(pages, "offline")
    visit("/today")
    chat = find("#chat-text")
    chat.send_keys(PAYLOADS[3] + " c")
    chat.send_keys(Keys.ENTER)
    soon(d, report, lambda: PAYLOADS[3] + " c" in find("#chat").text, "the chat message written offline shows as typed")
    nothing_injected("/today offline, after a chat message")
    shown_as_typed("/today offline", [s for s in stored if not s.endswith("u")])
finally:
    d.quit()
    if report.failures:
        print("== server log")
        print(server.log.read_text()[-3000:])
    server.close()
report.exit()
