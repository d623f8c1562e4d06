#!/usr/bin/env python3
"""One source for the offline app's markup (issue 26). A copy of `tally` whose templates say
something else — a mark on the done circle, on every grid square, new words for a message
that waits — must draw exactly that offline too: offline.js takes what it draws from the
fragments the server renders with those templates, never from copies of its own.

Starts the copy on loopback (Berlin, noon on Saturday 21 November 2026), signs up, keeps the
pages, stops the server to go offline, then marks a habit on Today, writes a chat message
and taps a day on the habit's grid, and checks each change wears the edited markup. The
copy and its database are removed afterwards, pass or fail.

Usage: e2e/offline_fragments.py PATH/TO/TALLY
"""
import os
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, chromium, emulate_offline, mark, page_api, serve

TALLY = Path(sys.argv[1]).resolve()
EDITS = {
    # partial: (text in the shipped template, what the copy says instead)
    "check-done.mustache": ("<svg ", '<svg data-edited="check" '),
    "grid-square.mustache": ("<rect ", '<rect data-edited="square" '),
    "message.mustache": (" · {{t.message.waiting}}", " · kept until Tally is reached"),
}

report = Report()
check = report.check
work = Path(tempfile.mkdtemp(prefix="tally-fragments-"))
server = None
d = None


def copy_tally():
    """`tally` and its resource bundles in a folder of their own, the templates edited there:
    the binary finds its resources beside itself."""
    folder = work / "bin"
    folder.mkdir()
    try:
        os.link(TALLY, folder / "tally")
    except OSError:
        shutil.copy2(TALLY, folder / "tally")
    for bundle in TALLY.parent.glob("*.resources"):
        shutil.copytree(bundle, folder / bundle.name)
    partials = folder / "Tally_TallyWeb.resources" / "Resources" / "templates" / "partials"
    for name, (old, new) in EDITS.items():
        path = partials / name
        text = path.read_text()
        if old not in text:
            raise RuntimeError(f"{path} no longer holds {old!r}: update EDITS")
        path.write_text(text.replace(old, new, 1))
    return folder / "tally"


def soon(predicate, message):
    try:
        WebDriverWait(d, 15, ignored_exceptions=[StaleElementReferenceException]).until(lambda _: predicate())
        check(True, message)
    except TimeoutException:
        check(False, message)


def attribute(css, name):
    return d.execute_script("const n = document.querySelector(arguments[0]); return n && n.getAttribute(arguments[1])", css, name)


try:
    tally = copy_tally()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = {"TZ": "Europe/Berlin", "TALLY_NOW": "2026-11-21T12:00:00+01:00", "PATH": "/usr/bin:/bin"}
    server = serve(tally, work / "tally.sqlite", port, env, work / "server.log")
    d = chromium(script_timeout=60)
    d.set_window_size(1280, 900)
    find = lambda css: WebDriverWait(d, 15).until(lambda _: d.find_element(By.CSS_SELECTOR, css))
    d.get(base + "/")
    find("#name").send_keys("ada")
    find("#password").send_keys("correct horse battery")
    find("button[type=submit]").click()
    WebDriverWait(d, 15).until(lambda _: "/today" in d.current_url)
    read = page_api(d, "POST", "/api/v1/habits", {"name": "Read"})["id"]
    walk = page_api(d, "POST", "/api/v1/habits", {"name": "Walk"})["id"]
    page_api(d, "PUT", f"/api/v1/habits/{walk}/entries/2026-11-21", {"status": "done"})
    for path in ("/today", f"/habits/{read}", "/today"):
        d.get(base + path)
        soon(lambda: d.execute_script("return !!navigator.serviceWorker.controller"), f"the worker controls {path}")
    time.sleep(0.5)
    check(attribute(f"#mark-{walk} button.check > svg", "data-edited") == "check",
          "online, a done day's circle is the edited template's")

    server.terminate()
    server.wait(10)
    emulate_offline(d, True)
    d.refresh()
    mark(d, read)
    soon(lambda: attribute(f"#mark-{read} button.check > svg", "data-edited") == "check",
         "offline, the circle of a day marked done is the edited template's too")
    chat = find("#chat-text")
    chat.send_keys("From the tunnel")
    chat.send_keys(Keys.ENTER)
    soon(lambda: "kept until Tally is reached" in find("#chat").text,
         "offline, a waiting message says what the edited template says")
    check("waiting to be sent" not in find("#chat").text, "and not the shipped words")

    d.get(base + f"/habits/{read}")
    cell = find("#habit-grid .gc[data-day='2026-11-20']")
    check(attribute("#habit-grid .gc[data-day='2026-11-20'] rect", "data-edited") == "square",
          "the kept habit page's squares are the edited template's")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
    cell.click()
    soon(lambda: (attribute("#habit-grid .gc[data-day='2026-11-20']", "aria-label") or "").endswith(", completed, waiting to be sent"),
         "offline, a tapped day is said to be done and waiting")
    check(attribute("#habit-grid .gc[data-day='2026-11-20'] rect", "data-edited") == "square",
          "and its square is the edited template's look, not one drawn by the script")
except Exception as error:  # a crash is a failure with its reason, and the clean-up still runs
    check(False, f"the run finished ({error!r})")
    if (work / "server.log").exists():
        print((work / "server.log").read_text()[-3000:])
finally:
    if d:
        d.quit()
    if server and server.poll() is None:
        server.terminate()
        server.wait(10)
    shutil.rmtree(work, ignore_errors=True)
report.exit()
