"""End-to-end sync: a real server, two CLI replicas, offline edits, then the documented outcome.

Server: Europe/Berlin, Saturday 21 November 2026, 12:00. Replica A: a laptop in New York at the
same instant. Replica B: a phone in Kolkata whose clock runs a day fast (Sunday 22 November).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

TALLY = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="tally-sync-e2e-")
failures = []
passes = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    (passes if condition else failures).append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()
URL = f"http://127.0.0.1:{PORT}"
SERVER_ENV = {"TZ": "Europe/Berlin", "TALLY_NOW": "2026-11-21T12:00:00+01:00"}


def tally(replica, *args, stdin=None, ok=True):
    env = dict(os.environ)
    env.update(replica["env"])
    result = subprocess.run(
        [TALLY, "--db", replica["db"], *args], input=stdin, capture_output=True, text=True, env=env)
    if ok and result.returncode != 0:
        raise SystemExit(f"tally {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return result


def api(method, path, body=None, headers=None):
    request = urllib.request.Request(URL + path, method=method, headers=headers or {})
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null"), response.headers


server_env = dict(os.environ, **SERVER_ENV)
server = subprocess.Popen(
    [TALLY, "serve", "--db", f"{WORK}/server.sqlite", "--port", str(PORT)],
    env=server_env, stdout=open(f"{WORK}/server.log", "w"), stderr=subprocess.STDOUT)
try:
    for _ in range(200):
        try:
            urllib.request.urlopen(URL + "/healthz")
            break
        except OSError:
            time.sleep(0.05)
    _, headers = api("POST", "/api/v1/setup", {"name": "ada", "password": "correct horse battery"})
    cookie = headers["Set-Cookie"].split(";")[0]
    token = api("POST", "/api/v1/tokens", {"name": "replicas"}, {"Cookie": cookie})[0]["secret"]
    bearer = {"Authorization": f"Bearer {token}"}

    a = {"db": f"{WORK}/a.sqlite", "env": {"TZ": "America/New_York", "TALLY_NOW": "2026-11-21T06:00:00-05:00"}}
    b = {"db": f"{WORK}/b.sqlite", "env": {"TZ": "Asia/Kolkata", "TALLY_NOW": "2026-11-22T16:30:00+05:30"}}
    for replica in (a, b):
        tally(replica, "remote", "add", URL, stdin=token + "\n")

    # Online: A makes two habits, B takes them.
    tally(a, "habit", "add", "Read", "--created", "2026-11-01")
    tally(a, "habit", "add", "Walk", "--created", "2026-11-01")
    tally(a, "mark", "Read", "2026-11-20")
    tally(a, "sync")
    tally(b, "sync")
    check({h["name"] for h in json.loads(tally(b, "habit", "list", "--json").stdout)} == {"Read", "Walk"},
          "B has A's habits after one sync")

    # Offline on both.
    tally(a, "mark", "Read", "2026-11-21")                   # done, at A's clock
    tally(b, "mark", "Read", "2026-11-21", "--skip")         # skipped, B's clock is a day later
    tally(b, "mark", "Read", "2026-11-22")                   # B's today: the server's tomorrow
    tally(a, "habit", "delete", "Walk")
    tally(b, "habit", "edit", "Walk", "--name", "Walking")   # an edit of a habit deleted elsewhere
    tally(b, "mark", "Walking", "2026-11-21")
    tally(a, "habit", "add", "Yoga", "--created", "2026-11-21")
    tally(b, "habit", "add", "Yoga", "--created", "2026-11-21")
    tally(a, "journal", "2026-11-21", "Written on the laptop")
    tally(b, "journal", "2026-11-21", "Written on the phone")
    check(json.loads(tally(a, "sync", "--status", "--json").stdout)["waiting"] > 0, "A's offline edits wait in its outbox")

    outputs = []
    for replica in (a, b, a, b):
        outputs.append(tally(replica, "sync").stdout)
    print("".join(outputs))
    check(any("Not applied" in text and "was deleted" in text for text in outputs),
          "B is told its edits of the deleted habit were not applied")
    check(any("'Yoga' to 'Yoga (2)'" in text for text in outputs), "the later Yoga is renamed and reported")

    def state(export):
        habits = {h["habit"]["name"]: {e["day"]: e["status"] for e in h["entries"]} for h in export["habits"]}
        journal = {j["day"]: j["text"] for j in export["journal"]}
        return habits, journal

    server_state = state(api("GET", "/api/v1/export", headers=bearer)[0])
    for name, replica in (("A", a), ("B", b)):
        exported = json.loads(tally(replica, "export", "--format", "json").stdout)
        check(state(exported) == server_state, f"replica {name} equals the server")
    habits, journal = server_state
    check(set(habits) == {"Read", "Yoga", "Yoga (2)"}, f"habits are Read, Yoga, Yoga (2): {sorted(habits)}")
    check(habits.get("Read") == {"2026-11-20": "done", "2026-11-21": "skipped", "2026-11-22": "done"},
          f"Read: the later mark of the 21st won, B's tomorrow kept: {habits.get('Read')}")
    check(journal.get("2026-11-21") == "Written on the phone", "the later journal text won")
    revisions = api("GET", "/api/v1/journal/2026-11-21/revisions", headers=bearer)[0]
    check([r["text"] for r in revisions] == ["Written on the laptop"], "the replaced text is a revision")
    again = tally(a, "sync", "--json")
    check(json.loads(again.stdout)["appliedHere"] == 0, "a further sync moves nothing")

    # Live: A watches the server; a day marked through the API reaches A's file within 2 s,
    # with no sync run by hand; SIGINT stops the watch cleanly.
    watcher = subprocess.Popen([TALLY, "--db", a["db"], "sync", "--watch"], env=dict(os.environ, **a["env"]),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        check(watcher.stdout.readline().startswith("Watching"), "tally sync --watch says what it watches")
        read = next(h for h in api("GET", "/api/v1/habits", headers=bearer)[0] if h["name"] == "Read")
        api("PUT", f"/api/v1/habits/{read['id']}/entries/2026-11-18", {"status": "done"}, bearer)
        arrived = False
        deadline = time.monotonic() + 2
        while not arrived and time.monotonic() < deadline:
            exported = json.loads(tally(a, "export", "--format", "json").stdout)
            arrived = any(e["day"] == "2026-11-18" for h in exported["habits"] if h["habit"]["name"] == "Read"
                          for e in h["entries"])
            time.sleep(0.05)
        check(arrived, "a day marked on the server reaches the watching replica within 2 s")
    finally:
        watcher.send_signal(signal.SIGINT)
        rest, _ = watcher.communicate(timeout=10)
    check(watcher.returncode == 0 and "Stopped watching" in rest, f"SIGINT stops the watch cleanly ({watcher.returncode}: {rest!r})")

    # A held stream does not hold the server up: SIGTERM ends it, and the server exits 0.
    stream = socket.create_connection(("127.0.0.1", PORT))
    stream.sendall(f"GET /api/v1/sync/live HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    stream.settimeout(10)
    opened = stream.recv(4096)
    server.terminate()
    code = server.wait(timeout=10)
    stream.close()
    check(opened.startswith(b"HTTP/1.1 200") and code == 0, f"SIGTERM with a live stream open: the server exits 0 ({code})")
finally:
    server.terminate()
    server.wait(timeout=10)
    shutil.rmtree(WORK, ignore_errors=True)

print(f"sync: {len(passes)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
