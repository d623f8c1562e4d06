#!/usr/bin/env python3
"""Issue 17's figures, measured again against a real `tally serve` on loopback.

Starts the server on fresh databases (ports --port, +1, +2) and reports:
  - ten clients creating one habit name at once (how many 201s), and six renaming to one name;
  - sixteen parallel wrong passwords for one account (how many were checked: 401, not 429);
  - a ~1 MiB Loop CSV zip inflating to 1 GiB: the answer, how long it took, and the server's
    peak resident memory while answering;
  - resident memory idle, after importing a ~50 MB entry CSV, and a few seconds later;
  - fifty slow-header connections and an idle one: how many are still open after the idle
    time-out, and what a 16 MiB request line gets;
  - crash safety: rounds of clients writing (habit marks, journal entries, new habits) to a
    server on one database file, SIGKILLed mid-load and restarted; every write answered 2xx
    must be there after the restart (and all of them again at the end);
  - isolation: a second user trying every route and page that takes an id, a day or a list
    with the first user's ids; any answer holding the first user's data, any 2xx where a
    refusal is due, and any change to the first user's data is a leak.

Run: swift build --product tally && python3 Benchmarks/hostile_probe.py [--tally PATH]
(a debug build works; its memory figures are larger than a release build's). It exits 1, naming
the figure, when one is not what the fixes promise.
`--only races,throttle,zip,memory,connections,crash,isolation` runs some of them;
`--crash-rounds N` (60), `--crash-clients N` (6) and `--crash-load SECONDS` (2: the longest a round
writes before its SIGKILL) size the crash probe; `--isolation-as-owner` sends the isolation
attempts as the first user, to show the probe finds data where it is (it must report leaks).
PROBE_VERBOSE=1 prints every isolation attempt's status and the start of its answer.
"""
import argparse
import concurrent.futures
import datetime
import http.client
import io
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zipfile

PASSWORD = "correct horse battery"
NOT_HOLDING = []


def holds(condition, figure):
    """Notes a figure that is not what the fixes promise; main() exits 1 if there is one."""
    if not condition:
        NOT_HOLDING.append(figure)


def rss_mib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def call(base, path, method="GET", body=None, headers=None, raw=None, content_type="application/json"):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def together(count, job):
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        return list(pool.map(job, range(count)))


def peak_while(pid, work):
    """Runs `work` while sampling the server's RSS every 10 ms; (result, peak MiB, seconds)."""
    peak, done = [rss_mib(pid)], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mib(pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.monotonic()
    try:
        result = work()
    finally:
        done.set()
        sampler.join()
    return result, peak[0], time.monotonic() - started


def bomb_zip():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("Habits.csv", "w", force_zip64=True) as entry:
            chunk = b"0" * (1 << 20)
            for _ in range(1024):
                entry.write(chunk)
    return buffer.getvalue()


def large_csv(target_bytes):
    lines = ["habitId,habitName,day,status,note"]
    size, habit = 0, 0
    while size < target_bytes:
        habit += 1
        for offset in range(3650):
            day = datetime.date(2016, 1, 1) + datetime.timedelta(days=offset)
            line = f",Habit {habit},{day.isoformat()},done,a note of some length {offset}"
            lines.append(line)
            size += len(line) + 2
    return ("\r\n".join(lines) + "\r\n").encode()


def open_connections(port, count, payload):
    sockets = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port))
        if payload:
            connection.sendall(payload)
        sockets.append(connection)
    return sockets


def still_open(connection):
    connection.setblocking(False)
    try:
        return connection.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def start_server(tally, database, port, *extra):
    server = subprocess.Popen(
        [tally, "serve", "--db", database, "--port", str(port), *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if call(base, "/healthz")[0] == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        time.sleep(0.05)
    raise RuntimeError("the server did not answer /healthz within 30 s")


def stop(server):
    if server.poll() is None:
        server.terminate()
    server.wait()


def set_up_owner(base, name="ada"):
    """The first-run set-up, a session cookie and a bearer token for the owner."""
    origin = {"Origin": base}
    status, body = call(base, "/api/v1/setup", "POST", {"name": name, "password": PASSWORD}, origin)
    assert status == 201, body
    return sign_in(base, name)


def sign_in(base, name):
    """(cookie headers, bearer headers) for an account with the probe's password."""
    origin = {"Origin": base}
    token_request = urllib.request.Request(
        base + "/api/v1/session", data=json.dumps({"name": name, "password": PASSWORD}).encode(),
        method="POST", headers={"Content-Type": "application/json", **origin})
    with urllib.request.urlopen(token_request) as response:
        cookie = {"Cookie": response.headers["Set-Cookie"].split(";")[0], **origin}
    status, body = call(base, "/api/v1/tokens", "POST", {"name": f"probe {name}"}, cookie)
    assert status == 201, body
    return cookie, {"Authorization": "Bearer " + json.loads(body)["secret"]}


def probe_server(arguments, only):
    """Issue 17's probes that need one server: races, throttling, zip, memory, connections."""
    base = f"http://127.0.0.1:{arguments.port}"
    folder = tempfile.mkdtemp(prefix="tally-probe-")
    server = start_server(arguments.tally, f"{folder}/tally.sqlite", arguments.port,
                          "--idle-timeout", str(arguments.idle_timeout))
    try:
        _, auth = set_up_owner(base)

        if "races" in only:
            created = together(10, lambda _: call(base, "/api/v1/habits", "POST", {"name": "Dup 0"}, auth)[0])
            print(f"10 parallel creates of 'Dup 0': {created.count(201)} x 201, {created.count(409)} x 409")
            holds(created.count(201) == 1 and created.count(409) == 9, "one of ten parallel creates wins")
            ids = [json.loads(call(base, "/api/v1/habits", "POST", {"name": f"R {n}"}, auth)[1])["id"] for n in range(6)]
            renamed = together(6, lambda n: call(base, f"/api/v1/habits/{ids[n]}", "PATCH", {"name": "Same"}, auth)[0])
            print(f"6 parallel renames to 'Same': {renamed.count(200)} x 200, {renamed.count(409)} x 409")
            holds(renamed.count(200) == 1 and renamed.count(409) == 5, "one of six parallel renames wins")

        if "throttle" in only:
            signins = together(16, lambda _: call(base, "/api/v1/session", "POST", {"name": "ada", "password": "wrong password"})[0])
            print(f"16 parallel wrong passwords: {signins.count(401)} checked (401), {signins.count(429)} refused (429)")
            holds(signins.count(401) <= 5 and signins.count(429) >= 11, "at most five passwords checked")

        if "zip" in only:
            bomb = bomb_zip()
            (status, body), peak, seconds = peak_while(server.pid, lambda: call(
                base, "/api/v1/import?format=loop-csv", "POST", raw=bomb, headers=auth, content_type="application/zip"))
            print(f"zip bomb ({len(bomb) / 1024:.0f} KiB -> 1 GiB): {status} in {seconds:.2f} s, peak RSS {peak:.0f} MiB; "
                  f"{json.loads(body).get('detail', '')}")
            holds(status == 422 and seconds < 5 and peak < 512, "the zip bomb refused fast and small")

        if "memory" in only:
            idle = rss_mib(server.pid)
            data = large_csv(50 * 1000 * 1000)
            (status, body), peak, seconds = peak_while(server.pid, lambda: call(
                base, "/api/v1/import?format=csv", "POST", raw=data, headers=auth, content_type="text/csv"))
            after = rss_mib(server.pid)
            time.sleep(5)
            later = rss_mib(server.pid)
            print(f"import of {len(data) / 1e6:.0f} MB CSV: {status} in {seconds:.1f} s; RSS idle {idle:.0f} MiB, "
                  f"peak {peak:.0f} MiB, right after {after:.0f} MiB, 5 s later {later:.0f} MiB")
            holds(status == 200 and later < idle + 64, "memory given back after a large import")

        if "connections" in only:
            slow = open_connections(arguments.port, 50, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            quiet = open_connections(arguments.port, 1, b"")
            time.sleep(arguments.idle_timeout + 2)
            slow_open, quiet_open = sum(map(still_open, slow)), sum(map(still_open, quiet))
            print(f"after {arguments.idle_timeout + 2} s: {slow_open} of 50 slow-header "
                  f"connections and {quiet_open} of 1 idle connection still open")
            holds(slow_open == 0 and quiet_open == 0, "slow and idle connections closed")
            huge = socket.create_connection(("127.0.0.1", arguments.port))
            answer = b""
            try:
                huge.sendall(b"GET /" + b"a" * (16 << 20) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            except OSError:
                pass
            huge.settimeout(arguments.idle_timeout + 2)
            try:
                answer = huge.recv(200)
            except OSError:
                pass
            first_line = answer.split(b"\r\n")[0].decode()
            print(f"16 MiB request line: {first_line or 'closed without an answer'}")
            holds(first_line.startswith("HTTP/1.1 400") or not still_open(huge), "a 16 MiB request line dropped")
    finally:
        stop(server)


class Connection:
    """One keep-alive HTTP/1.1 connection, as a client that writes in a loop keeps one."""

    def __init__(self, port, headers):
        self.port, self.headers, self.connection = port, headers, None

    def send(self, method, path, body=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = dict(self.headers)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = None
            raise


def crash_round(port, auth, number, clients, acknowledged, journal_days):
    """Clients write until the server is SIGKILLed under them; their 2xx writes go into
    `acknowledged`: ("habit", id, name), ("entry", habit id, day, note), ("journal", day, text)."""
    stop_writing = threading.Event()
    lock = threading.Lock()
    count, cut = [0], [0]

    def client(index):
        connection = Connection(port, auth)
        habit = None
        today = datetime.date(2026, 11, 23)
        for n in itertools.count():
            if stop_writing.is_set():
                return
            try:
                if habit is None or n % 3 == 0:
                    name = f"crash {number}-{index}-{n}"
                    status, body = connection.send("POST", "/api/v1/habits", {"name": name})
                    record = None
                    if 200 <= status < 300:
                        record = ("habit", json.loads(body)["id"], name)
                        habit = habit or record[1]
                elif n % 3 == 1:
                    day = (today - datetime.timedelta(days=n)).isoformat()
                    note = f"r{number} c{index} n{n}"
                    status, _ = connection.send(
                        "PUT", f"/api/v1/habits/{habit}/entries/{day}", {"status": "done", "note": note})
                    record = ("entry", habit, day, note) if 200 <= status < 300 else None
                else:
                    day = (datetime.date(1900, 1, 1) + datetime.timedelta(days=next(journal_days))).isoformat()
                    text = f"round {number}, client {index}, write {n}"
                    status, _ = connection.send("PUT", f"/api/v1/journal/{day}", {"text": text})
                    record = ("journal", day, text) if 200 <= status < 300 else None
            except (OSError, http.client.HTTPException):
                if stop_writing.is_set():
                    with lock:
                        cut[0] += 1
                    return  # the server is gone; this write was never answered
                time.sleep(0.01)
                continue
            if record is None:
                raise RuntimeError(f"a write was refused ({status}) while the server was up")
            with lock:
                acknowledged.append(record)
                count[0] += 1

    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    return threads, stop_writing, count, cut


def missing_writes(base, auth, records):
    """The acknowledged writes the restarted server does not have."""
    status, body = call(base, "/api/v1/habits?archived=true", headers=auth)
    assert status == 200, body
    habits = {habit["id"]: habit["name"] for habit in json.loads(body)}
    status, body = call(base, "/api/v1/journal", headers=auth)
    assert status == 200, body
    journal = {day["day"]: day.get("entry") for day in json.loads(body)}
    entries = {}
    for habit in {record[1] for record in records if record[0] == "entry"}:
        status, body = call(base, f"/api/v1/habits/{habit}/entries", headers=auth)
        entries[habit] = {entry["day"]: entry for entry in json.loads(body)} if status == 200 else {}
    missing = []
    for record in records:
        if record[0] == "habit":
            present = habits.get(record[1]) == record[2]
        elif record[0] == "entry":
            entry = entries[record[1]].get(record[2], {})
            present = entry.get("status") == "done" and entry.get("note") == record[3]
        else:
            present = journal.get(record[1]) == record[2]
        if not present:
            missing.append(record)
    return missing


def probe_crash_safety(arguments):
    """Rounds of: start, write from several clients, SIGKILL mid-load, restart, check."""
    port = arguments.port + 1
    base = f"http://127.0.0.1:{port}"
    database = f"{tempfile.mkdtemp(prefix='tally-crash-')}/tally.sqlite"
    server = start_server(arguments.tally, database, port)
    _, auth = set_up_owner(base)
    acknowledged, journal_days, lost, cut, started = [], itertools.count(), [], 0, time.monotonic()
    rng = random.Random(17)
    try:
        for number in range(arguments.crash_rounds):
            before = len(acknowledged)
            threads, stop_writing, count, cut_off = crash_round(
                port, auth, number, arguments.crash_clients, acknowledged, journal_days)
            deadline = time.monotonic() + 10
            while count[0] < 20 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.3, arguments.crash_load))
            server.send_signal(signal.SIGKILL)  # writes are in flight now
            stop_writing.set()
            server.wait()
            for thread in threads:
                thread.join()
            cut += cut_off[0]
            server = start_server(arguments.tally, database, port)
            lost += missing_writes(base, auth, acknowledged[before:])
        # All of them once more: a later round must not have lost an earlier one's writes.
        stop(server)
        server = start_server(arguments.tally, database, port)
        lost_at_end = missing_writes(base, auth, acknowledged)
        kinds = {kind: sum(1 for record in acknowledged if record[0] == kind) for kind in ("entry", "journal", "habit")}
        print(f"crash safety: {arguments.crash_rounds} SIGKILL rounds, {arguments.crash_clients} clients, "
              f"{len(acknowledged)} acknowledged writes ({kinds['entry']} marks, {kinds['journal']} journal entries, "
              f"{kinds['habit']} habits) and {cut} cut off unanswered, in {time.monotonic() - started:.0f} s: "
              f"{len(lost)} lost after a restart, "
              f"{len(lost_at_end)} lost at the end")
        holds(not lost and not lost_at_end and acknowledged, "no acknowledged write lost")
        for record in (lost + lost_at_end)[:10]:
            print(f"  lost: {record}")
    finally:
        stop(server)


def stamp(device):
    return f"{int(time.time() * 1000):016d}-00000000-{device}"


def probe_isolation(arguments):
    """User B tries user A's ids on every route and page that takes one, and reads every list."""
    port = arguments.port + 2
    base = f"http://127.0.0.1:{port}"
    database = f"{tempfile.mkdtemp(prefix='tally-isolation-')}/tally.sqlite"
    server = start_server(arguments.tally, database, port)
    try:
        a_cookie, a = set_up_owner(base)
        status, body = call(base, "/api/v1/users", "POST", {"name": "bob", "password": PASSWORD}, a)
        assert status == 201, body
        b_cookie, b = sign_in(base, "bob")
        if arguments.isolation_as_owner:  # the probe's own check: as A, it must see A's data
            b_cookie, b = a_cookie, a

        # A's data, every kind, each carrying the tag (or, for the price and secrets, itself).
        tag = f"Aprivate{uuid.uuid4().hex[:12]}"
        needle = f"needle{uuid.uuid4().hex[:8]}"  # searched for; a search page shows what it was asked
        day = "2026-11-20"

        def made(path, body, method="POST"):
            status, answer = call(base, path, method, body, a)
            assert 200 <= status < 300, (path, status, answer)
            return json.loads(answer) if answer else {}

        habit = made("/api/v1/habits", {"name": f"{tag} habit"})["id"]
        made(f"/api/v1/habits/{habit}/entries/{day}", {"status": "done", "note": f"{tag} note"}, "PUT")
        made(f"/api/v1/journal/{day}", {"text": f"{tag} journal {needle}"}, "PUT")
        message = made(f"/api/v1/chat/{day}", {"text": f"{tag} chat"})["id"]
        show = made("/api/v1/shows", {"title": f"{tag} show"})["id"]
        made(f"/api/v1/shows/{show}/episodes",
             {"episodes": [{"season": 1, "number": 1, "title": f"{tag} episode", "airDay": "2026-11-01"}]}, "PUT")
        made("/api/v1/prices/US/8", {"amount": 987.65, "currency": "USD"}, "PUT")
        token = made("/api/v1/tokens", {"name": f"{tag} token"})["id"]
        feed = made("/api/v1/feeds/reminders", None)["token"]
        made("/api/v1/settings/webhook", {"url": f"http://127.0.0.1:9/{tag}", "kind": "json"}, "PUT")
        made("/api/v1/settings", {"timeZone": "Pacific/Chatham", "daySwitchHour": 3}, "PATCH")  # state only:
        secrets = [tag.encode(), b"987.65", feed.encode(), a["Authorization"][7:].encode()]  # pages list every zone

        def state_of_a():
            parts = [call(base, path, headers=a)[1] for path in (
                "/api/v1/export", "/api/v1/tokens", "/api/v1/feeds/reminders", "/api/v1/settings/webhook",
                f"/api/v1/habits/{habit}/entries", f"/api/v1/shows/{show}/episodes")]
            return b"\n".join(parts)

        device = str(uuid.uuid4())

        def push(kind, id, fields):
            change = {"kind": kind, "id": id, "stamp": stamp(device)}
            change.update({"deleted": True} if fields is None else {"fields": fields})
            return {"device": device, "changes": [change]}

        b_export = json.loads(call(base, "/api/v1/export", headers=b)[1])
        a_export = json.loads(call(base, "/api/v1/export", headers=a)[1])
        # A's records with A's ids, but not A's words (B restoring them owns those words).
        foreign = json.loads(json.dumps(dict(
            b_export, habits=a_export["habits"], shows=a_export["shows"], episodes=a_export["episodes"],
            chat=a_export["chat"])).replace(tag, "copied"))
        csv = f"habitId,habitName,day,status,note\r\n{habit},B's,2026-11-19,skipped,B's\r\n".encode()
        api = "/api/v1"
        # (method, path, body, refusal due): a refusal is due where the path names A's id.
        attempts = [
            ("POST", f"{api}/import", foreign, False),  # first, while B has nothing: a restore
            ("GET", f"{api}/habits/{habit}", None, True),
            ("PATCH", f"{api}/habits/{habit}", {"name": "B's now"}, True),
            ("POST", f"{api}/habits/{habit}/archive", None, True),
            ("POST", f"{api}/habits/{habit}/unarchive", None, True),
            ("GET", f"{api}/habits/{habit}/entries", None, True),
            ("POST", f"{api}/habits/{habit}/entries", {"days": ["2026-11-19"], "status": "done"}, True),
            ("PUT", f"{api}/habits/{habit}/entries/{day}", {"status": "skipped"}, True),
            ("DELETE", f"{api}/habits/{habit}/entries/{day}", None, True),
            ("GET", f"{api}/habits/{habit}/grid", None, True),
            ("GET", f"{api}/habits/{habit}/stats", None, True),
            ("PUT", f"{api}/habits/order", {"ids": [habit]}, False),
            ("DELETE", f"{api}/habits/{habit}", None, True),
            ("GET", f"{api}/habits", None, False),
            ("GET", f"{api}/habits?include=statistics,entries", None, False),
            ("GET", f"{api}/habits?archived=true", None, False),
            ("GET", f"{api}/stats?archived=true", None, False),
            ("GET", f"{api}/grid", None, False),
            ("GET", f"{api}/today?day={day}", None, False),
            ("GET", f"{api}/reminders", None, False),
            ("GET", f"{api}/calendar/2026-11", None, False),
            ("GET", f"{api}/journal", None, False),
            ("GET", f"{api}/journal?q={needle}", None, False),
            ("GET", f"{api}/journal/{day}", None, False),
            ("GET", f"{api}/journal/{day}/revisions", None, False),
            ("PUT", f"{api}/journal/{day}", {"text": "B's day"}, False),
            ("DELETE", f"{api}/journal/{day}", None, False),
            ("GET", f"{api}/chat/{day}", None, False),
            ("POST", f"{api}/chat/{day}", {"text": "B's chat"}, False),
            ("PATCH", f"{api}/chat/messages/{message}", {"text": "B's now"}, True),
            ("DELETE", f"{api}/chat/messages/{message}", None, True),
            ("GET", f"{api}/shows", None, False),
            ("GET", f"{api}/shows/{show}", None, True),
            ("PUT", f"{api}/shows/{show}", {"title": "B's now"}, True),
            ("GET", f"{api}/shows/{show}/episodes", None, True),
            ("PUT", f"{api}/shows/{show}/episodes",
             {"episodes": [{"season": 1, "number": 1, "title": "B's", "airDay": "2026-11-02"}]}, True),
            ("POST", f"{api}/shows/{show}/refresh", None, True),
            ("DELETE", f"{api}/shows/{show}", None, True),
            ("GET", f"{api}/providers", None, False),
            ("GET", f"{api}/prices", None, False),
            ("PUT", f"{api}/prices/US/8", {"amount": 1.5, "currency": "USD"}, False),
            ("DELETE", f"{api}/prices/US/8", None, False),
            ("GET", f"{api}/tokens", None, False),
            ("DELETE", f"{api}/tokens/{token}", None, True),
            ("GET", f"{api}/feeds/reminders", None, False),
            ("DELETE", f"{api}/feeds/reminders", None, False),
            ("GET", f"{api}/settings/webhook", None, False),
            ("DELETE", f"{api}/settings/webhook", None, False),
            ("POST", f"{api}/settings/webhook/test", None, False),
            ("GET", f"{api}/settings", None, False),
            ("GET", f"{api}/me", None, False),
            ("GET", f"{api}/users", None, True),
            ("POST", f"{api}/users", {"name": "carol", "password": PASSWORD}, True),
            ("GET", f"{api}/backup", None, True),
            ("GET", f"{api}/export", None, False),
            ("GET", f"{api}/export?format=csv", None, False),
            ("POST", f"{api}/import?format=csv", csv, False),
            ("GET", f"{api}/sync?limit=5000", None, False),
            ("POST", f"{api}/sync", push("habit", habit, {"name": "B's now"}), True),
            ("POST", f"{api}/sync", push("habit", habit, None), True),
            ("POST", f"{api}/sync", push("entry", f"{habit}/{day}", {"status": "skipped", "note": "B's"}), True),
            ("POST", f"{api}/sync", push("chat", message, {"text": "B's now"}), True),
            ("POST", f"{api}/sync", push("show", show, {"title": "B's now"}), True),
            ("POST", f"{api}/sync", push("episode", f"{show}/1/1", {"title": "B's", "airDay": "2026-11-02"}), True),
        ]
        # The web pages, with B's session cookie (and this site's Origin for the forms).
        pages = [
            ("GET", f"/habits/{habit}", None, True),
            ("GET", f"/habits/{habit}/edit", None, True),
            ("POST", f"/habits/{habit}", {"name": "B's now", "color": "#8B5CF6", "frequency": "daily", "reminder": "none"}, True),
            ("POST", f"/habits/{habit}/mark", {"day": day, "status": "skipped", "back": "/today"}, True),
            ("POST", f"/habits/{habit}/toggle", {"day": day}, True),
            ("POST", f"/habits/{habit}/move", {"direction": "down"}, True),
            ("POST", f"/habits/{habit}/archive", {}, True),
            ("POST", f"/habits/{habit}/unarchive", {}, True),
            ("POST", f"/habits/{habit}/delete", {"confirm": "yes"}, True),
            ("POST", f"/today/chat/{message}", {"text": "B's now", "day": day}, True),
            ("POST", f"/today/chat/{message}/delete", {"day": day}, True),
            ("GET", f"/shows/{show}", None, True),
            ("POST", f"/shows/{show}", {"title": "B's now", "status": "watching"}, True),
            ("POST", f"/shows/{show}/providers", {"country": "US", "providerId": "8"}, True),
            ("POST", f"/shows/{show}/providers/remove", {"country": "US", "providerId": "8"}, True),
            ("POST", f"/shows/{show}/episodes", {"season": "1", "number": "2", "title": "B's", "airDay": "2026-11-02"}, True),
            ("POST", f"/shows/{show}/refresh", {}, True),
            ("POST", f"/shows/{show}/delete", {}, True),
            ("POST", f"/settings/tokens/{token}/revoke", {}, True),
            ("POST", "/settings/feed/revoke", {}, False),
            ("POST", "/settings/webhook", {"url": "", "kind": "json"}, False),
            ("POST", "/today/journal", {"day": day, "text": "B's day"}, False),
        ] + [("GET", page, None, False) for page in (
            "/today", f"/today?day={day}", "/habits", "/journal", f"/journal?q={needle}", "/calendar", "/calendar/2026-11",
            "/statistics", "/shows", "/prices", "/settings")]

        for path in ("/api/v1/habits", "/api/v1/habits?include=statistics,entries", "/api/v1/calendar/2026-11"):
            call(base, path, headers=a)  # A's answers are in the response cache now, keyed by user
        before = state_of_a()
        leaks, statuses = [], {}
        for method, path, body, refusal_due in attempts + pages:
            web = not path.startswith("/api/")
            if web:
                raw = urllib.parse.urlencode(body).encode() if body is not None else None
                status, answer = call(base, path, method, headers=b_cookie, raw=raw,
                                      content_type="application/x-www-form-urlencoded")
            elif isinstance(body, bytes):
                status, answer = call(base, path, method, headers=b, raw=body, content_type="text/csv")
            else:
                status, answer = call(base, path, method, body, b)
            statuses[status] = statuses.get(status, 0) + 1
            why = [f"answer holds {secret.decode()[:20]}" for secret in secrets if secret in answer]
            if refusal_due and status < 400:
                why.append(f"answered {status}")
            if status >= 500:
                why.append(f"answered {status}")
            if method != "GET":
                after = state_of_a()
                if after != before:
                    why.append("A's data changed")
                    before = after
            if os.environ.get("PROBE_VERBOSE"):
                print(f"  {status} {method} {path} {answer[:160]!r}")
            if why:
                leaks.append(f"{method} {path}: {', '.join(why)}")
        count = len(attempts) + len(pages)
        print(f"isolation: {count} attempts by a second user on the first user's data ({len(attempts)} API, "
              f"{len(pages)} web; statuses {dict(sorted(statuses.items()))}): {len(leaks)} leaks")
        for leak in leaks:
            print(f"  leak: {leak}")
        if arguments.isolation_as_owner:
            holds(leaks, "as the owner, the probe sees the owner's data")
        else:
            holds(not leaks, "no cross-user read or write")
    finally:
        stop(server)


PROBES = ("races", "throttle", "zip", "memory", "connections", "crash", "isolation")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tally", default=".build/debug/tally")
    parser.add_argument("--port", type=int, default=18093, help="this port and the next two")
    parser.add_argument("--idle-timeout", type=int, default=5)
    parser.add_argument("--only", default=",".join(PROBES), help="a comma-separated list of " + ", ".join(PROBES))
    parser.add_argument("--crash-rounds", type=int, default=60)
    parser.add_argument("--crash-clients", type=int, default=6)
    parser.add_argument("--crash-load", type=float, default=2.0,
                        help="the most seconds of writing before a round's SIGKILL (a random time from 0.3)")
    parser.add_argument("--isolation-as-owner", action="store_true",
                        help="send the isolation attempts as the first user: leaks must be found")
    arguments = parser.parse_args()
    only = set(arguments.only.split(","))
    assert only <= set(PROBES), f"unknown probes: {only - set(PROBES)}"
    if only & set(PROBES[:5]):
        probe_server(arguments, only)
    if "crash" in only:
        probe_crash_safety(arguments)
    if "isolation" in only:
        probe_isolation(arguments)
    for figure in NOT_HOLDING:
        print(f"DOES NOT HOLD: {figure}")
    print("every figure holds" if not NOT_HOLDING else f"{len(NOT_HOLDING)} figures do not hold")
    raise SystemExit(1 if NOT_HOLDING else 0)


if __name__ == "__main__":
    main()
