"""What .ci/deploy/release_check.py and .ci/deploy/container_check.py ask of a running release over HTTP:
the first visit a self-hoster makes (pages, the app's stylesheets and scripts, setting up the
owner), a habit marked through the API, and journal writes that count what was acknowledged.
"""
import json
import re
import threading
import time
from pathlib import Path

from http_support import check, fetch

OWNER = {"name": "ada", "password": "correct horse battery"}


def call(base, method, path, body=None, token=None, timeout=10):
    status, _, text = fetch(base, method, path, body, token, timeout=timeout)
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, None


def wait_healthy(base, seconds):
    """Seconds until /healthz answered 200, or None."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if fetch(base, "GET", "/healthz", timeout=2)[0] == 200:
            return time.monotonic() - started
        time.sleep(0.1)
    return None


def first_visit(base, web_folder=None):
    """/ leads a new server's visitor to the set-up page, which links the app's stylesheets and
    scripts; each is served with its type (and, given the release's web folder, its bytes)."""
    status, headers, body = fetch(base, "GET", "/healthz")
    check(status == 200, f"/healthz answers 200 ({status})")
    status, headers, body = fetch(base, "GET", "/")
    page = body.decode(errors="replace")
    check(status == 200 and "text/html" in headers.get("Content-Type", "") and "<form" in page,
          f"/ leads to the set-up page, HTML with a form ({status} {headers.get('Content-Type')})")
    status, headers, body = fetch(base, "GET", "/setup")
    check(status == 200 and "text/html" in headers.get("Content-Type", ""), f"/setup is HTML ({status})")
    links = re.findall(r'<(?:link rel="stylesheet" href|script src)="(/[^"]+)"', body.decode(errors="replace"))
    kinds = {".css": "text/css", ".js": "javascript"}
    check(any(link.split("?")[0].endswith(".css") for link in links)
          and any(link.split("?")[0].endswith(".js") for link in links),
          f"the page links stylesheets and scripts ({len(links)})")
    for link in links + ["/manifest.webmanifest", "/sw.js"]:
        name = link.split("?")[0].rsplit("/", 1)[-1]
        status, headers, body = fetch(base, "GET", link)
        kind = headers.get("Content-Type", "")
        wanted = kinds.get(Path(name).suffix, "json" if name.endswith(".webmanifest") else "")
        # sw.js is rewritten with the shell's versions, and the manifest gains the page's `lang`
        # and `dir` (its words in the visitor's language, English here); every other file is
        # served as shipped.
        shipped = Path(web_folder) / name if web_folder and name != "sw.js" else None
        if shipped and name.endswith(".webmanifest"):
            served = {k: v for k, v in json.loads(body).items() if k not in ("lang", "dir")}
            same = shipped.exists() and served == json.loads(shipped.read_bytes())
        else:
            same = shipped is None or (shipped.exists() and body == shipped.read_bytes())
        check(status == 200 and wanted in kind and len(body) > 0 and same,
              f"{link} is served: {status}, {kind}, {len(body)} bytes{', as shipped' if shipped and same else ''}")


def owner_token(base):
    """Sets up the owner through the API (which signs them in) and makes an API token; the
    token or None."""
    status, headers, _ = fetch(base, "POST", "/api/v1/setup", OWNER)
    cookie = (headers.get("Set-Cookie") or "").split(";")[0]
    if not check(status == 201 and cookie, f"POST /api/v1/setup creates the owner and signs them in ({status})"):
        return None
    status, _, body = fetch(base, "POST", "/api/v1/tokens", {"name": "release check"}, cookie=cookie)
    token = json.loads(body).get("secret") if status == 201 else None
    check(token is not None, f"an API token is made ({status})")
    return token


def mark_a_day(base, token, day="2026-11-20"):
    """A habit made and one day marked done through the API; the habit's id."""
    status, habit = call(base, "POST", "/api/v1/habits", {"name": "Read", "createdDay": "2026-11-01"}, token)
    if not check(status == 201 and habit, f"a habit is created ({status})"):
        return None
    status, _ = call(base, "PUT", f"/api/v1/habits/{habit['id']}/entries/{day}", {"status": "done"}, token)
    check(status == 200, f"{day} is marked done ({status})")
    return habit["id"]


def marked_days(base, token, habit):
    status, entries = call(base, "GET", f"/api/v1/habits/{habit}/entries", token=token)
    return sorted(entry["day"] for entry in entries) if status == 200 else None


def journal(base, token):
    status, entries = call(base, "GET", "/api/v1/journal?from=2000-01-01&to=2099-12-31", token=token)
    return {entry["day"]: entry.get("entry") for entry in entries} if status == 200 else None


class Writer(threading.Thread):
    """Writes a new journal day again and again until stopped or the server is gone; keeps
    each acknowledged (200) write and counts every status."""

    def __init__(self, base, token, lane, lanes):
        super().__init__(daemon=True)
        self.base, self.token, self.lane, self.lanes = base, token, lane, lanes
        self.acknowledged, self.statuses, self.running = {}, {}, True

    def run(self):
        index, refused = 0, 0
        while self.running and refused < 20:
            n = index * self.lanes + self.lane
            day = f"{2001 + n // 336:04d}-{(n // 28) % 12 + 1:02d}-{n % 28 + 1:02d}"
            text = f"lane {self.lane} write {index}"
            status, _ = call(self.base, "PUT", f"/api/v1/journal/{day}", {"text": text}, self.token, timeout=15)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == 200:
                self.acknowledged[day] = text
            refused = refused + 1 if status == 0 else 0
            if status == 0:
                time.sleep(0.05)
            index += 1


def lost_writes(writers, stored):
    acknowledged = {day: text for writer in writers for day, text in writer.acknowledged.items()}
    return acknowledged, [day for day, text in acknowledged.items() if (stored or {}).get(day) != text]
