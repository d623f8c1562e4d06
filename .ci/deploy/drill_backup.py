"""A backup taken under load restores into a fresh server with an identical export.

Writers, each a numbered sequence of writes sent one after another's answer, run against a
live `tally serve` while backups are taken the three ways the docs offer (`GET /api/v1/backup`,
`tally backup PATH`, `serve --backup-dir`). Each backup is restored as docs/deploy.md says and
served; its export must be the state after a prefix of every writer's sequence holding every
write answered before the backup began, and replaying the rest must give the original's export."""
import datetime
import glob
import os
import re
import shutil
import sqlite3
import threading
import time
from decimal import Decimal

from drill_fixtures import differences
from drill_support import Server, call
from http_support import check

WRITERS = 3
PASSWORD = "correct horse battery"


def writer_day(w, i):
    return (datetime.date(1960 + 20 * w, 1, 1) + datetime.timedelta(days=i)).isoformat()


def in_writer_range(w, day):
    return writer_day(w, 0) <= day < f"{1980 + 20 * w}-01-01"


class Writer(threading.Thread):
    """Writer w's numbered writes, each sent after the previous one's answer, touching only its
    own keys: its two habits' days, its journal days, the habits it names. `write(i)` gives the
    request and the key and value it leaves in the export, so any prefix's state is known."""

    def __init__(self, w, base, token, marks, distance):
        super().__init__(daemon=True)
        self.w, self.base, self.token, self.marks, self.distance = w, base, token, marks, distance
        self.sent, self.acked, self.error, self.running = [], [], None, True

    def write(self, i):
        w, day = self.w, writer_day(self.w, i)
        kind = i % 6
        if kind == 0:
            return "PUT", f"/api/v1/habits/{self.marks}/entries/{day}", {"status": "done"}, ("entry", day), ("done", None, None)
        if kind == 1:
            status, note = ("skipped" if (i // 6) % 2 == 0 else "noted"), f"w{w} #{i}"
            return "PUT", f"/api/v1/habits/{self.marks}/entries/{day}", {"status": status, "note": note}, ("entry", day), (status, note, None)
        if kind == 2:
            text = f"Writer {w}, write {i}.\nA second line."
            return "PUT", f"/api/v1/journal/{day}", {"text": text}, ("journal", day), text
        if kind == 3:
            name = f"W{w} new {i}"
            return "POST", "/api/v1/habits", {"name": name, "createdDay": "2020-01-01"}, ("habit", name), "2020-01-01"
        if kind == 4:
            amount = Decimal(i * 125) / 1000
            return ("PUT", f"/api/v1/habits/{self.distance}/entries/{day}", {"status": "done", "amount": float(amount)},
                    ("amount", day), ("done", None, amount))
        # Rewrites the note of the day write i-5 marked: a write out of order would show.
        earlier, note = writer_day(w, i - 5), f"w{w} again #{i}"
        return "PUT", f"/api/v1/habits/{self.marks}/entries/{earlier}", {"status": "done", "note": note}, ("entry", earlier), ("done", note, None)

    def run(self):
        i = 0
        while self.running:
            method, path, body, _, _ = self.write(i)
            self.sent.append(time.monotonic())
            status, answer, _ = call(self.base, method, path, body, self.token)
            if status not in (200, 201):
                self.error = f"write {i} ({method} {path}) answered {status}: {answer}"
                return
            self.acked.append(time.monotonic())
            i += 1

    def state(self, k):
        """The writer's keys after its first k writes."""
        state = {}
        for i in range(k):
            _, _, _, key, value = self.write(i)
            state[key] = value
        return state

    def project(self, export):
        """The writer's keys as an export holds them."""
        state = {}
        for item in export["habits"]:
            habit = item["habit"]
            if habit["id"] in (self.marks, self.distance):
                kind = "entry" if habit["id"] == self.marks else "amount"
                for e in item["entries"]:
                    state[(kind, e["day"])] = (e["status"], e.get("note"), e.get("amount"))
            elif habit["name"].startswith(f"W{self.w} new "):
                state[("habit", habit["name"])] = habit["createdDay"]
        for j in export["journal"]:
            if in_writer_range(self.w, j["day"]):
                state[("journal", j["day"])] = j["text"]
        return state

    def held(self, export):
        """How many of its writes the export holds as a prefix (the one k whose state it is), or None."""
        observed, state = self.project(export), {}
        if observed == state:
            return 0
        for i in range(len(self.acked)):
            _, _, _, key, value = self.write(i)
            state[key] = value
            if state == observed:
                return i + 1
        return None


def base_part(export):
    """The export without anything a writer writes: what no backup may differ in."""
    habits = [{"habit": h["habit"], "entries": [] if h["habit"]["name"].startswith("Writer ") else h["entries"]}
              for h in export["habits"] if not re.fullmatch(r"W\d+ new \d+", h["habit"]["name"])]
    journal = [j for j in export["journal"] if not any(in_writer_range(w, j["day"]) for w in range(WRITERS))]
    return {**export, "habits": habits, "journal": journal}


def restore(backup, db_path):
    """docs/deploy.md's restore, with the server stopped: move the database and its -wal and
    -shm files aside (a WAL left beside another file would be replayed into it), copy the
    backup in under the database's name, start the server."""
    moved = []
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            moved.append(f"{os.path.basename(db_path + suffix)} ({os.path.getsize(db_path + suffix)} bytes)")
            os.rename(db_path + suffix, db_path + suffix + ".before-restore")
    os.makedirs(os.path.dirname(db_path), exist_ok=True)
    shutil.copyfile(backup, db_path)
    return moved


def set_up(tally, live):
    """A fresh server with an owner, a token, years of history and each writer's habits."""
    server = Server(tally, live)
    check(server.healthy, "tally serve started on a fresh database")
    status, _, headers = call(server.base, "POST", "/api/v1/setup", {"name": "ada", "password": PASSWORD})
    cookie = headers.get("Set-Cookie", "").split(";")[0]
    status2, made, _ = call(server.base, "POST", "/api/v1/tokens", {"name": "drill"}, cookie=cookie)
    check(status == 201 and status2 == 201, f"the owner set up (POST /api/v1/setup {status}) and an API token made ({status2})")
    token = made["secret"]

    def api(method, path, body=None):
        answer_status, answer, _ = call(server.base, method, path, body, token)
        if answer_status not in (200, 201, 204):
            raise RuntimeError(f"setting up: {method} {path} answered {answer_status}: {answer}")
        return answer
    for n in range(1, 6):
        habit = api("POST", "/api/v1/habits", {"name": f"History {n}", "createdDay": "2016-01-01", "color": f"#{n}{n}AA55"})
        api("POST", f"/api/v1/habits/{habit['id']}/entries", {"from": "2016-01-01", "to": "2025-12-31", "status": "done"})
        api("POST", f"/api/v1/habits/{habit['id']}/entries",
            {"days": [f"2024-0{m}-1{n}" for m in range(1, 10)], "status": "skipped", "note": f"away {n}"})
    api("PUT", "/api/v1/journal/2025-06-01", {"text": "Before the drill."})
    api("POST", "/api/v1/shows", {"title": "Severance", "providers": {"us": [{"id": 350, "name": "Apple TV+"}]}})
    api("PUT", "/api/v1/prices/fr/8", {"amount": 10.99, "currency": "eur"})
    writers = []
    for w in range(WRITERS):
        marks = api("POST", "/api/v1/habits", {"name": f"Writer {w} marks", "createdDay": "1960-01-01"})
        distance = api("POST", "/api/v1/habits", {"name": f"Writer {w} distance", "createdDay": "1960-01-01",
                                                   "measure": {"unit": "km", "target": 5, "direction": "atLeast"}})
        writers.append(Writer(w, server.base, token, marks["id"], distance["id"]))
    return server, token, writers


def window(writers, started, ended):
    """Per writer: writes answered before the backup began (a), sent before it ended (b)."""
    return [(sum(1 for t in wr.acked if t < started), sum(1 for t in wr.sent if t < ended)) for wr in writers]


def take_backups(tally, server, token, writers, folder):
    """The three backups, each while the writers write; their windows and figures."""
    taken = []

    def note(kind, slug, path, started, ended):
        seconds = ended - started
        rate = sum(1 for wr in writers for t in wr.acked if started <= t <= ended) / seconds
        size = os.path.getsize(path) if os.path.exists(path) else 0
        taken.append({"kind": kind, "slug": slug, "path": path, "window": window(writers, started, ended),
                      "figures": f"{size / 1048576:5.2f} MiB {seconds * 1000:6.0f} ms {rate:8.0f}"})

    time.sleep(3)
    path = os.path.join(folder, "api-backup.sqlite")
    started = time.monotonic()
    status, body, headers = call(server.base, "GET", "/api/v1/backup", token=token, raw=True, timeout=120)
    ended = time.monotonic()
    ok = status == 200 and body[:16] == b"SQLite format 3\0" and headers.get("Content-Type") == "application/vnd.sqlite3"
    check(ok, f"GET /api/v1/backup answered {status} with an SQLite file")
    with open(path, "wb") as f:
        f.write(body if ok else b"")
    note("GET /api/v1/backup", "api", path, started, ended)

    time.sleep(1)
    path = os.path.join(folder, "cli-backup.sqlite")
    started = time.monotonic()
    result = tally.run("--db", server.db, "backup", path)
    ended = time.monotonic()
    check(result.returncode == 0, f"tally backup PATH on the live file: {result.stdout.strip() or result.stderr.strip()}")
    note("tally backup", "cli", path, started, ended)

    # DailyBackups makes the day's file at its first look, when `serve --backup-dir` starts: a
    # second server on the live file starts now, as a restarted one would under load.
    time.sleep(1)
    daily_dir = os.path.join(folder, "daily")
    started = time.monotonic()
    second = Server(tally, server.db, "--backup-dir", daily_dir, wait=False)
    made = []
    while not made and time.monotonic() - started < 60 and second.process.poll() is None:
        made = glob.glob(os.path.join(daily_dir, "tally-backup-????-??-??.sqlite"))
        time.sleep(0.01)
    ended = time.monotonic()
    check(len(made) == 1, f"serve --backup-dir made {os.path.basename(made[0]) if made else 'no file'} at start")
    check(second.stop(), "the server with --backup-dir stopped cleanly")
    if made:
        note("serve --backup-dir", "daily", made[0], started, ended)
    time.sleep(1)
    return taken


def file_checks(backup):
    path = backup["path"]
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    check(integrity == "ok" and mode == "delete",
          f"{backup['kind']}: integrity_check {integrity}, journal mode {mode} (one self-contained file)")


def replay(writers, held, restored, token, original):
    """Sends each writer's writes after its prefix to the restored server, each writer in its
    order; habits are made in the original's list order, since a new habit goes last."""
    order = {h["habit"]["name"]: h["habit"]["sortOrder"] for h in original["habits"]}
    pending = [list(range(k, len(wr.acked))) for wr, k in zip(writers, held)]
    sent = 0
    while any(pending):
        ready = [w for w, p in enumerate(pending) if p and writers[w].write(p[0])[0] != "POST"]
        if not ready:
            ready = [min((w for w, p in enumerate(pending) if p),
                         key=lambda w: order.get(writers[w].write(pending[w][0])[3][1], 0))]
        for w in ready:
            method, path, body, _, _ = writers[w].write(pending[w].pop(0))
            status, answer, _ = call(restored.base, method, path, body, token)
            if status not in (200, 201):
                check(False, f"replayed {method} {path} answered {status}: {answer}")
                return sent
            sent += 1
    return sent


def same_as_original(label, export, original, replayed_names):
    """Field by field; the only field set aside is the id of each habit the replay made: a
    POST /api/v1/habits draws a fresh random id on the server, so a habit made again cannot
    have the original's. Such habits are matched by name (unique per user) instead."""
    ids = {h["habit"]["name"]: h["habit"]["id"] for h in original["habits"]}
    mapped = export and dict(export, habits=[
        {**h, "habit": {**h["habit"], "id": ids.get(h["habit"]["name"], h["habit"]["id"])}}
        if h["habit"]["name"] in replayed_names else h for h in export["habits"]])
    found = differences(original, mapped) if export is not None else ["no export"]
    check(not found, f"{label} equals the original server's final export field by field"
          + "".join(f"\n       {d}" for d in found[:10]))


def drill_restore(tally, backup, db_path, token, writers, original):
    moved = restore(backup["path"], db_path)
    server = Server(tally, db_path)
    kind = backup["kind"]
    print(f"     {kind}: copied to {'the live database' if moved else 'a new folder'}"
          + (f" after moving aside {', '.join(moved)}" if moved else ""))
    try:
        if not check(server.healthy, f"{kind}: restored and served, /healthz 200"):
            print(server.tail())
            return
        status, api_export, _ = call(server.base, "GET", "/api/v1/export", token=token)
        cli_export = tally.export(db_path, "ada")
        check(status == 200 and not differences(api_export, cli_export),
              f"{kind}: the token from before the backup signs in; GET /api/v1/export and tally export agree")
        check(not differences(base_part(original), base_part(api_export)), f"{kind}: everything no writer touched is as on the original")
        held = [wr.held(api_export) for wr in writers]
        for wr, k, (a, b) in zip(writers, held, backup["window"]):
            why = []
            if k is None:
                observed, expected = wr.project(api_export), wr.state(a)
                why = [f"{key}: backup {observed.get(key)!r}, after its first {a} writes {expected.get(key)!r}"
                       for key in sorted(set(observed) | set(expected), key=str) if observed.get(key) != expected.get(key)]
            check(k is not None and a <= k <= b,
                  f"{kind}: writer {wr.w}'s writes in it are its first {k} (answered before the backup began: {a}, "
                  f"sent before it ended: {b})" + "".join(f"\n       {line}" for line in why[:5]))
        if None in held:
            return
        original_orders = {h["habit"]["name"]: (h["habit"]["id"], h["habit"]["sortOrder"]) for h in original["habits"]}
        made = [h["habit"] for h in api_export["habits"] if h["habit"]["name"] in original_orders]
        check(all(original_orders[h["name"]] == (h["id"], h["sortOrder"]) for h in made),
              f"{kind}: each habit it holds has the original's id and place in the list")
        in_flight = sum(b - a for a, b in backup["window"])
        backup["figures"] += f" {sum(held):6} {in_flight:9}"
        print(f"     {kind}: held {sum(held)} writes ({', '.join(map(str, held))} per writer), {in_flight} in flight while it was taken")
        replayed = replay(writers, held, server, token, original)
        replayed_names = {wr.write(i)[3][1] for wr, k in zip(writers, held) for i in range(k, len(wr.acked)) if i % 6 == 3}
        print(f"     {kind}: replayed the {replayed} writes it lacked")
        status, api_after, _ = call(server.base, "GET", "/api/v1/export", token=token)
        same_as_original(f"{kind}: after the replay, GET /api/v1/export", api_after, original, replayed_names)
        same_as_original(f"{kind}: after the replay, tally export", tally.export(db_path, "ada"), original, replayed_names)
    finally:
        check(server.stop(), f"{kind}: the restored server stopped cleanly")


def drill_backups(tally):
    folder = os.path.join(tally.work, "backup")
    live = os.path.join(folder, "live", "tally.sqlite")
    server, token, writers = set_up(tally, live)
    began = time.monotonic()
    for wr in writers:
        wr.start()
    try:
        taken = take_backups(tally, server, token, writers, folder)
    finally:
        for wr in writers:
            wr.running = False
        for wr in writers:
            wr.join()
    seconds = time.monotonic() - began
    total = sum(len(wr.acked) for wr in writers)
    check(all(wr.error is None for wr in writers),
          f"{WRITERS} writers made {total} writes in {seconds:.1f} s ({total / seconds:.0f} writes/s), every one answered 2xx"
          + "".join(f"\n       {wr.error}" for wr in writers if wr.error))
    status, original, _ = call(server.base, "GET", "/api/v1/export", token=token)
    check(status == 200 and not differences(original, tally.export(live, "ada")),
          "the original's final export: GET /api/v1/export and tally export agree")
    for wr in writers:
        check(wr.project(original) == wr.state(len(wr.acked)), f"the original holds all {len(wr.acked)} writes of writer {wr.w}")
    # A new habit goes last in the list: habits added at once by several writers must still
    # each get a place of their own, or no replay can give the original's list order.
    places = [h["habit"]["sortOrder"] for h in original["habits"]]
    shared = sorted({p for p in places if places.count(p) > 1})
    check(not shared, f"the original's {len(places)} habits each have a place of their own in the list (sortOrder)"
          + (f"; shared by several: {shared[:12]}" if shared else ""))
    check(server.stop(), "the original server stopped cleanly")
    for backup in taken:
        file_checks(backup)
    # The daily backup goes back in place of the live file, the others into new folders.
    for backup in taken:
        in_place = backup["slug"] == "daily"
        db_path = live if in_place else os.path.join(folder, "restored-" + backup["slug"], "tally.sqlite")
        drill_restore(tally, backup, db_path, token, writers, original)
    # writes/s: answered by the live server while the backup was taken; held: writes of the
    # sequence the backup holds; in flight: sent before it ended but not answered before it began.
    print(f"     {'backup':<20} {'size':>9} {'time':>9} {'writes/s':>8} {'held':>6} {'in flight':>9}")
    for backup in taken:
        print(f"     {backup['kind']:<20} {backup['figures']}")
    print("     (serve --backup-dir is timed from the start of the server that makes it)")
