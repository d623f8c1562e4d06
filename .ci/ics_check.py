"""The checks behind .ci/ics-check (see there)."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import icalendar

TALLY = os.path.abspath(sys.argv[1])
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def tally(db, now, *args, zone="UTC"):
    env = dict(os.environ, TALLY_DB=db, TALLY_NOW=now, TZ=zone, USER="ci")
    run = subprocess.run([TALLY, *args], env=env, capture_output=True)
    if run.returncode != 0:
        raise SystemExit(f"tally {' '.join(args)} failed: {run.stderr.decode()}")
    return run.stdout


def check_octets(raw, what):
    """CRLF line ends only, every physical line at most 75 octets, folds on UTF-8 boundaries."""
    check(raw.endswith(b"\r\n"), f"{what}: does not end with CRLF")
    check(b"\n" not in raw.replace(b"\r\n", b""), f"{what}: a bare LF")
    check(b"\r" not in raw.replace(b"\r\n", b""), f"{what}: a bare CR")
    for line in raw.split(b"\r\n"):
        check(len(line) <= 75, f"{what}: a line of {len(line)} octets")
        line.decode("utf-8")  # raises if a fold split a sequence


def expected_instant(zone, day, wall):
    """SPEC 7 by brute force: the first minute whose wall clock in `zone` reads `day wall` or
    later (a time in a gap fires when the gap ends; one in an overlap fires the first time)."""
    want = datetime.combine(day, wall)
    t = datetime.combine(day, wall, tzinfo=timezone.utc) - timedelta(hours=15)
    while True:
        local = t.astimezone(zone).replace(tzinfo=None)
        if local >= want:
            return t
        t += timedelta(minutes=1)


def wall_times(spec):
    """`08:00` or `START-END/Nh`, as `tally habit add --reminder` reads them."""
    if "/" not in spec:
        return [spec]
    span, every = spec.split("/")
    start, end = (datetime.strptime(t, "%H:%M") for t in span.split("-"))
    times = []
    while start <= end:
        times.append(start.strftime("%H:%M"))
        start += timedelta(hours=int(every.rstrip("h")))
    return times


def reminder_events(raw):
    calendar = icalendar.Calendar.from_ical(raw)
    return [c for c in calendar.walk("VEVENT")]


# Each case: zone, now, reminder times, days ahead: every one crosses a change of offset.
CASES = [
    ("America/New_York", "2026-03-07T00:00:00-05:00", ["02:30", "08:00"], 3),  # spring forward
    ("America/New_York", "2026-10-31T00:00:00-04:00", ["01:30"], 3),  # fall back: fires once
    ("Europe/Berlin", "2026-03-28T00:00:00+01:00", ["02:30"], 3),
    ("Europe/Berlin", "2026-10-24T00:00:00+02:00", ["02:30", "07:00"], 3),
    ("Australia/Lord_Howe", "2026-10-03T00:00:00+10:30", ["02:15"], 3),  # a 30-minute shift
    ("Australia/Lord_Howe", "2026-04-04T00:00:00+11:00", ["01:45"], 3),
    ("Pacific/Apia", "2011-12-28T00:00:00-10:00", ["10:00-22:00/12h"], 4),  # 2011-12-30 skipped
    ("Asia/Kolkata", "2028-02-28T00:00:00+05:30", ["08:00"], 3),  # leap day
]

NAME = "Stretch; then, rest \\ a while — 🧘 " + "très " * 8

with tempfile.TemporaryDirectory() as work:
    for number, (zone_name, now, times, days) in enumerate(CASES):
        zone = ZoneInfo(zone_name)
        db = os.path.join(work, f"case{number}.sqlite")
        tally(db, now, "settings", "--time-zone", zone_name)
        for index, when in enumerate(times):
            tally(db, now, "habit", "add", f"{NAME}{index}", "--reminder", when)
        raw = tally(db, now, "reminders", "--days", str(days), "--ics")
        what = f"{zone_name} from {now}"
        check_octets(raw, what)
        events = reminder_events(raw)
        now_instant = datetime.fromisoformat(now)
        seen = set()
        for event in events:
            _, habit, day_text, wall_text = str(event["UID"]).removesuffix("@tally").split("/")
            start = event.decoded("DTSTART")
            check(start.tzinfo is not None and start.utcoffset() == timedelta(0), f"{what}: DTSTART is not UTC")
            want = expected_instant(zone, date.fromisoformat(day_text), datetime.strptime(wall_text, "%H:%M").time())
            check(start == want, f"{what}: {day_text} {wall_text} fires at {start}, expected {want}")
            check(start > now_instant, f"{what}: {start} is not after now")
            check(start not in seen, f"{what}: two events at {start}")
            seen.add(start)
            check(str(event["SUMMARY"]).startswith(NAME), f"{what}: SUMMARY came back as {event['SUMMARY']!r}")
            alarms = [a for a in event.walk("VALARM")]
            check(len(alarms) == 1 and str(alarms[0]["ACTION"]) == "DISPLAY", f"{what}: no DISPLAY alarm")
            check(alarms and alarms[0].decoded("TRIGGER") == timedelta(0), f"{what}: alarm not at the start")
        # Every wanted (day, time) is there once, but for gap times that land on the same
        # instant as another (Apia's lost day), which fire once.
        expected = set()
        first_day = datetime.fromisoformat(now).astimezone(zone).date()
        for offset in range(days):
            for when in (t for spec in times for t in wall_times(spec)):
                instant = expected_instant(zone, first_day + timedelta(days=offset), datetime.strptime(when, "%H:%M").time())
                if instant > now_instant:
                    expected.add(instant)
        check(seen == expected, f"{what}: instants {sorted(seen)} != {sorted(expected)}")
        print(f"ok {what}: {len(events)} reminders")

    # The completions export: all-day events, UIDs stable across exports.
    db = os.path.join(work, "export.sqlite")
    tally(db, "2028-03-01T12:00:00Z", "habit", "add", "Read, slowly", "--created", "2028-02-29")
    tally(db, "2028-03-01T12:00:00Z", "mark", "Read, slowly", "2028-02-29", "--note", "line one\nline two; more")
    tally(db, "2028-03-01T12:00:00Z", "mark", "Read, slowly")
    first = tally(db, "2028-03-01T12:00:00Z", "export", "--format", "ics")
    second = tally(db, "2028-03-02T12:00:00Z", "export", "--format", "ics")
    check_octets(first, "export")
    events = reminder_events(first)
    check([e.decoded("DTSTART") for e in events] == [date(2028, 2, 29), date(2028, 3, 1)], "export: wrong days")
    check([e.decoded("DTEND") for e in events] == [date(2028, 3, 1), date(2028, 3, 2)], "export: wrong ends")
    check(str(events[0]["DESCRIPTION"]) == "line one\nline two; more", f"export: note came back as {events[0]['DESCRIPTION']!r}")
    check(str(events[0]["SUMMARY"]) == "✓ Read, slowly", "export: summary")
    check([str(e["UID"]) for e in reminder_events(second)] == [str(e["UID"]) for e in events], "export: UIDs changed")
    print("ok export: 2 completed days")

    # The real server on loopback: sign up, a habit with reminders, a feed link, both feeds.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [TALLY, "serve", "--db", os.path.join(work, "serve.sqlite"), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz")
                break
            except OSError:
                time.sleep(0.1)

        def call(method, path, body=None, cookie=None):
            request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
            request.add_header("Content-Type", "application/json")
            if cookie:
                request.add_header("Cookie", cookie)
            return urllib.request.urlopen(request)

        setup = call("POST", "/api/v1/setup", {"name": "ci", "password": "correct horse battery", "timeZone": "Australia/Lord_Howe"})
        cookie = setup.headers["Set-Cookie"].split(";")[0]
        call("POST", "/api/v1/habits", {"name": "Water, often", "reminder": {"type": "periodic", "start": "06:00", "end": "22:00", "everyHours": 4}}, cookie)
        link = json.load(call("POST", "/api/v1/feeds/reminders", cookie=cookie))
        raw = urllib.request.urlopen(base + link["remindersPath"]).read()
        check_octets(raw, "served reminders")
        served = reminder_events(raw)
        check(len(served) >= 13 * 5 - 5, f"served reminders: only {len(served)} events in 14 days")
        zone = ZoneInfo("Australia/Lord_Howe")
        for event in served:
            local = event.decoded("DTSTART").astimezone(zone)
            check(local.strftime("%H:%M") in {"06:00", "10:00", "14:00", "18:00", "22:00"}, f"served: rings at {local}")
        episodes = urllib.request.urlopen(base + link["episodesPath"]).read()
        check_octets(episodes, "served episodes")
        icalendar.Calendar.from_ical(episodes)
        call("DELETE", "/api/v1/feeds/reminders", cookie=cookie)
        try:
            urllib.request.urlopen(base + link["remindersPath"])
            check(False, "a revoked feed still answers")
        except urllib.error.HTTPError as error:
            check(error.code == 404, f"a revoked feed answers {error.code}")
        print(f"ok served feed: {len(served)} reminders")
    finally:
        server.terminate()
        server.wait(timeout=30)

if failures:
    print(f"{len(failures)} iCalendar check(s) failed")
    sys.exit(1)
print("iCalendar checks passed")
