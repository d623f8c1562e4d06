"""Web Push end to end: a real `tally serve --allow-loopback-push` pushes to the stand-in
push service of .ci/push_standin.py, which checks VAPID and decrypts with the browser's key.

The server's clock is set (TALLY_NOW) a few seconds before a minute boundary, close to the real
time so the VAPID token's expiry is checked against the real clock; a habit's reminder at that
minute is pushed, one done that day is not.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone

sys.path.insert(0, os.path.dirname(__file__))
from push_standin import StandIn  # noqa: E402

TALLY = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="tally-push-check-")
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = free_port()
URL = f"http://127.0.0.1:{PORT}"
# Two minutes on, 8 seconds before a minute boundary: the sender's first tick is before it,
# its second (20 s later) after it.
boundary = (int(time.time()) // 60) * 60 + 120
if boundary % 86400 == 0:  # keep the reminder on the same UTC day as the clock's start
    boundary += 60
now = datetime.fromtimestamp(boundary - 8, timezone.utc)
due = datetime.fromtimestamp(boundary, timezone.utc)
headers = {}


def api(method, path, body=None):
    request = urllib.request.Request(URL + path, method=method, headers=dict(headers))
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null"), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


env = dict(os.environ, TALLY_NOW=now.isoformat().replace("+00:00", "Z"))
server = subprocess.Popen(
    [TALLY, "serve", "--db", f"{WORK}/tally.sqlite", "--port", str(PORT), "--allow-loopback-push",
     "--push-contact", "mailto:ci@tally.test"],
    env=env, stdout=open(f"{WORK}/server.log", "w"), stderr=subprocess.STDOUT)
try:
    for _ in range(400):
        try:
            urllib.request.urlopen(URL + "/healthz")
            break
        except OSError:
            time.sleep(0.05)
    status, _, answer = api("POST", "/api/v1/setup", {"name": "ada", "password": "correct horse battery"})
    headers["Cookie"] = answer["Set-Cookie"].split(";")[0]
    headers = {"Authorization": "Bearer " + api("POST", "/api/v1/tokens", {"name": "push-check"})[1]["secret"]}
    api("PATCH", "/api/v1/settings", {"timeZone": "UTC"})

    key = api("GET", "/api/v1/push/key")[1]["publicKey"]
    stand_in = StandIn(free_port(), vapid_key=key)

    # Refusals: nothing stored, the field named.
    for endpoint, words in [("http://push.example.net/x", "https://"), ("https://10.0.0.1/x", "private"),
                            ("https://192.168.1.1/x", "private")]:
        body = dict(stand_in.subscription("/push/x"), endpoint=endpoint, name="Bad")
        status, problem, _ = api("POST", "/api/v1/push/subscriptions", body)
        check(status == 422 and problem.get("field") == "endpoint" and words in problem.get("detail", ""),
              f"{endpoint} is refused naming the endpoint ({problem.get('detail')})")
    body = stand_in.subscription("/push/x")
    body["keys"]["auth"] = "AAAA"
    status, problem, _ = api("POST", "/api/v1/push/subscriptions", dict(body, name="Bad"))
    check(status == 422 and problem.get("field") == "keys.auth", "a 3-byte auth secret is refused naming keys.auth")

    status, phone, _ = api("POST", "/api/v1/push/subscriptions", dict(stand_in.subscription("/push/phone"), name="Phone"))
    check(status == 201, "the stand-in's subscription is accepted with --allow-loopback-push")
    status, old, _ = api("POST", "/api/v1/push/subscriptions", dict(stand_in.subscription("/push/gone/old"), name="Old"))

    status, tested, _ = api("POST", f"/api/v1/push/subscriptions/{phone['id']}/test")
    check(tested.get("delivered") is True, f"the test action is delivered ({tested.get('detail')})")
    got = stand_in.requests("/push/phone")
    check(len(got) == 1 and not got[0]["problems"], f"the test push passes the stand-in's checks {got and got[0]['problems']}")
    check(got and (got[0]["payload"] or {}).get("type") == "test", "the test push decrypts to Tally's test message")

    today = now.strftime("%Y-%m-%d")
    at = due.strftime("%H:%M")
    _, walk, _ = api("POST", "/api/v1/habits", {"name": "Walk", "reminder": {"type": "single", "time": at}})
    _, read, _ = api("POST", "/api/v1/habits", {"name": "Read", "reminder": {"type": "single", "time": at}})
    status, _, _ = api("PUT", f"/api/v1/habits/{read['id']}/entries/{today}", {"status": "done"})
    check(status == 200, "Read is marked done before its reminder")

    deadline = time.time() + 60
    while time.time() < deadline and len(stand_in.requests("/push/phone")) < 2:
        time.sleep(0.5)
    time.sleep(1)
    pushed = [r for r in stand_in.requests("/push/phone") if (r["payload"] or {}).get("type") == "reminder"]
    check(len(pushed) == 1, f"one reminder is pushed to the phone ({len(pushed)})")
    if pushed:
        payload = pushed[0]["payload"]
        check(not pushed[0]["problems"], f"the reminder passes the stand-in's checks {pushed[0]['problems']}")
        check(payload.get("title") == "Walk", "it is Walk's reminder, decrypted with the browser's key")
        check(payload.get("key") == f"{walk['id']}/{today}/{at}", f"its key names the habit, day and time ({payload.get('key')})")
        check(pushed[0]["ttl"] == "3600" and pushed[0]["urgency"] == "normal", "TTL and Urgency are sent")
    check(not any((r["payload"] or {}).get("title") == "Read" for r in stand_in.requests()), "Read, done today, is not pushed")
    listed = [s["id"] for s in api("GET", "/api/v1/push/subscriptions")[1]["subscriptions"]]
    check(stand_in.requests("/push/gone/old") and old["id"] not in listed, "the subscription answered 410 is removed")
    check(listed == [phone["id"]], "the phone stays subscribed")

    with urllib.request.urlopen(URL + "/sw.js") as response:
        check(response.headers["Service-Worker-Allowed"] == "/", "/sw.js is served for the whole site")
finally:
    server.terminate()
    server.wait(timeout=30)
    if failures:
        with open(f"{WORK}/server.log", errors="replace") as log:
            print("the server's log ends:\n" + "".join(log.readlines()[-40:]))
    shutil.rmtree(WORK, ignore_errors=True)

if failures:
    print(f"{len(failures)} push checks failed")
    sys.exit(1)
print("push: all checks passed")
