"""The crash-safety probe: clients write while the server is SIGKILLed; every acknowledged
write must survive the restart."""

import datetime
import http.client
import itertools
import json
import os
import random
import signal
import tempfile
import threading
import time
from probe_support import call, holds, set_up_owner, start_server, stop


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
    acknowledged, journal_days, lost, cut, started = [], itertools.count(), [], 0, time.monotonic()
    rng = random.Random(17)
    try:
        _, auth = set_up_owner(base)
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
        stop(server, os.path.dirname(database))
