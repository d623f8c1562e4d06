"""What the hostile probe's parts share: a server on loopback, requests, memory readings, and a
crash's lines out of a server's standard error (the PostgreSQL probes use those too)."""

import concurrent.futures
import datetime
import io
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import zipfile

from load_support import rss_mib

PASSWORD = "correct horse battery"
NOT_HOLDING = []

CRASH = re.compile(r"Fatal error|Precondition failed|Assertion failed")


def crash_lines(lines):
    """A Swift trap's message and its thread's first frames from a process's standard error
    (the backtracer prints every thread), or nothing when it holds none."""
    message = next((n for n, line in enumerate(lines) if CRASH.search(line)), None)
    crashed = next((n for n, line in enumerate(lines) if line.rstrip().endswith("crashed:")), None)
    if message is None:
        return []
    return lines[message:message + 2] + (lines[crashed:crashed + 16] if crashed is not None else [])


def pg_ctl(cluster, *args):
    """`pg_ctl` of the newest PostgreSQL installed ("16" is newer than "9.6") on the data directory
    of the throwaway cluster in `cluster` (.ci/postgres-start), as the postgres user when root."""
    version = max(os.listdir("/usr/lib/postgresql"), key=lambda d: [int(p) for p in d.split(".") if p.isdigit()])
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    subprocess.run(as_postgres + [f"/usr/lib/postgresql/{version}/bin/pg_ctl", "-D", f"{cluster}/data", *args],
                   check=True, stdout=subprocess.DEVNULL)


def holds(condition, figure):
    """Notes a figure that is not what the fixes promise; main() exits 1 if there is one."""
    if not condition:
        NOT_HOLDING.append(figure)


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


def stop(server, folder=None):
    """Stops the server, then removes the folder its database was in."""
    if server.poll() is None:
        server.terminate()
    server.wait()
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


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
