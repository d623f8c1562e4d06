#!/usr/bin/env python3
"""Issue 17's figures, measured again against a real `tally serve` on loopback.

Starts the server on a fresh database and reports:
  - ten clients creating one habit name at once (how many 201s), and six renaming to one name;
  - sixteen parallel wrong passwords for one account (how many were checked: 401, not 429);
  - a ~1 MiB Loop CSV zip inflating to 1 GiB: the answer, how long it took, and the server's
    peak resident memory while answering;
  - resident memory idle, after importing a ~50 MB entry CSV, and a few seconds later;
  - fifty slow-header connections and an idle one: how many are still open after the idle
    time-out, and what a 16 MiB request line gets.

Run: swift build --product tally && python3 Benchmarks/hostile_probe.py [--tally PATH]
(a debug build works; its memory figures are larger than a release build's).
"""
import argparse
import concurrent.futures
import datetime
import io
import json
import os
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile

PASSWORD = "correct horse battery"


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tally", default=".build/debug/tally")
    parser.add_argument("--port", type=int, default=18093)
    parser.add_argument("--idle-timeout", type=int, default=5)
    arguments = parser.parse_args()
    base = f"http://127.0.0.1:{arguments.port}"
    folder = tempfile.mkdtemp(prefix="tally-probe-")
    server = subprocess.Popen(
        [arguments.tally, "serve", "--db", f"{folder}/tally.sqlite", "--port", str(arguments.port),
         "--idle-timeout", str(arguments.idle_timeout)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                if call(base, "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        origin = {"Origin": base}
        status, body = call(base, "/api/v1/setup", "POST", {"name": "ada", "password": PASSWORD}, origin)
        assert status == 201, body
        token_request = urllib.request.Request(
            base + "/api/v1/session", data=json.dumps({"name": "ada", "password": PASSWORD}).encode(),
            method="POST", headers={"Content-Type": "application/json", **origin})
        with urllib.request.urlopen(token_request) as response:
            cookie = response.headers["Set-Cookie"].split(";")[0]
        status, body = call(base, "/api/v1/tokens", "POST", {"name": "probe"}, {"Cookie": cookie, **origin})
        auth = {"Authorization": "Bearer " + json.loads(body)["secret"]}

        created = together(10, lambda _: call(base, "/api/v1/habits", "POST", {"name": "Dup 0"}, auth)[0])
        print(f"10 parallel creates of 'Dup 0': {created.count(201)} x 201, {created.count(409)} x 409")
        ids = [json.loads(call(base, "/api/v1/habits", "POST", {"name": f"R {n}"}, auth)[1])["id"] for n in range(6)]
        renamed = together(6, lambda n: call(base, f"/api/v1/habits/{ids[n]}", "PATCH", {"name": "Same"}, auth)[0])
        print(f"6 parallel renames to 'Same': {renamed.count(200)} x 200, {renamed.count(409)} x 409")

        signins = together(16, lambda _: call(base, "/api/v1/session", "POST", {"name": "ada", "password": "wrong password"})[0])
        print(f"16 parallel wrong passwords: {signins.count(401)} checked (401), {signins.count(429)} refused (429)")

        bomb = bomb_zip()
        (status, body), peak, seconds = peak_while(server.pid, lambda: call(
            base, "/api/v1/import?format=loop-csv", "POST", raw=bomb, headers=auth, content_type="application/zip"))
        print(f"zip bomb ({len(bomb) / 1024:.0f} KiB -> 1 GiB): {status} in {seconds:.2f} s, peak RSS {peak:.0f} MiB; "
              f"{json.loads(body).get('detail', '')}")

        idle = rss_mib(server.pid)
        data = large_csv(50 * 1000 * 1000)
        (status, body), peak, seconds = peak_while(server.pid, lambda: call(
            base, "/api/v1/import?format=csv", "POST", raw=data, headers=auth, content_type="text/csv"))
        after = rss_mib(server.pid)
        time.sleep(5)
        later = rss_mib(server.pid)
        print(f"import of {len(data) / 1e6:.0f} MB CSV: {status} in {seconds:.1f} s; RSS idle {idle:.0f} MiB, "
              f"peak {peak:.0f} MiB, right after {after:.0f} MiB, 5 s later {later:.0f} MiB")

        slow = open_connections(arguments.port, 50, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        quiet = open_connections(arguments.port, 1, b"")
        time.sleep(arguments.idle_timeout + 2)
        print(f"after {arguments.idle_timeout + 2} s: {sum(map(still_open, slow))} of 50 slow-header "
              f"connections and {sum(map(still_open, quiet))} of 1 idle connection still open")
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
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
