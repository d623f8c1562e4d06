#!/usr/bin/env python3
"""Live changes and empty polls (docs/sync.md "Live changes"), on loopback only.

On one `tally serve` (SQLite, or PostgreSQL with --postgres) it measures, each beside a
baseline of the same run:
  - empty polls (GET /api/v1/sync with the account's current cursor) with wrk, as requests/s
    against /healthz's; on PostgreSQL also the database transactions they cost, counted in
    pg_stat_database (the server reads nothing on an empty poll, so nearly none);
  - how long a write takes to reach a held live stream, 20 times (p50 and the slowest);
  - N idle live streams (default 10,000) of one account: the server's memory before and with
    them held, then how long one write takes to reach every one of them;
and with --postgres, two instances on one database: a write through A reaching a stream held
at B, 20 times.

  python3 Benchmarks/live_load.py --tally .build/release/tally [--postgres URL] [--streams 10000]
  python3 Benchmarks/live_load.py --tally OLD_BUILD --polls-only   (a build from before, as a baseline)
  python3 Benchmarks/live_load.py --streams 3000 --streams-only       (idle streams' memory alone)
  ... --floor Benchmarks/.build/release/hummingbird-floor   (also a bare Hummingbird route, the floor)
"""
import argparse
import json
import os
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import (answering, create_database, drop_database, percentiles, request, rss_mib, run, sign_in,  # noqa: E402
                          start, wrk, wrk_cpu)

# A heartbeat is a comment line; an event names itself.
CHANGED = b"event: changed"



def open_stream(base, token, cursor):
    """A raw socket holding GET /api/v1/sync/live, once the server has answered its head."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    sock.sendall((f"GET /api/v1/sync/live?cursor={cursor} HTTP/1.1\r\nHost: {host}\r\n"
                  f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n").encode())
    head = b""
    while b"retry:" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            raise RuntimeError(f"the live stream closed: {head[:200]!r}")
        head += chunk
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"the live stream was refused: {head[:200]!r}")
    sock.setblocking(False)
    return sock


def cursor_of(base, token):
    """The account's cursor now: an empty pull from the end says it."""
    cursor = None
    while True:
        query = "limit=5000" + (f"&cursor={cursor}" if cursor else "")
        _, _, body = request(f"{base}/api/v1/sync?{query}", headers={"Authorization": f"Bearer {token}"})
        page = json.loads(body)
        cursor = page["cursor"]
        if not page["more"]:
            return cursor


def mark(base, token, habit, day):
    request(f"{base}/api/v1/habits/{habit}/entries/{day}", "PUT", {"status": "done"},
            {"Authorization": f"Bearer {token}"})


def days():
    """A different day for each write, so each one changes something."""
    for month in range(1, 11):
        for day in range(1, 29):
            yield f"2026-{month:02d}-{day:02d}"


def time_to_reach(socks, write):
    """Runs `write`, then waits until every socket has received a changed event: the seconds
    from just before the write to each arrival."""
    selector = selectors.DefaultSelector()
    for sock in socks:
        selector.register(sock, selectors.EVENT_READ, bytearray())
    started = time.monotonic()
    write()
    arrivals = []
    deadline = started + 30
    while len(arrivals) < len(socks) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=1):
            data = key.fileobj.recv(65536)
            key.data.extend(data)
            if CHANGED in key.data:
                arrivals.append(time.monotonic() - started)
                selector.unregister(key.fileobj)
                key.data.clear()
    selector.close()
    if len(arrivals) < len(socks):
        raise RuntimeError(f"{len(socks) - len(arrivals)} of {len(socks)} streams heard nothing in 30 s")
    return arrivals


def latency(base_write, base_read, token, habit, day_source, rounds=20):
    times = []
    for _ in range(rounds):
        sock = open_stream(base_read, token, cursor_of(base_read, token))
        day = next(day_source)
        times += time_to_reach([sock], lambda: mark(base_write, token, habit, day))
        sock.close()
    return percentiles(times)[0] * 1000, max(times) * 1000


def streams_memory(server, base, token, count):
    """Opens `count` idle streams and prints the server's memory before and with them held."""
    idle = rss_mib(server.pid)
    cursor = cursor_of(base, token)
    opened = time.monotonic()
    socks = [open_stream(base, token, cursor) for _ in range(count)]
    opening = time.monotonic() - opened
    held = rss_mib(server.pid)
    print(f"  {count:,} idle streams opened in {opening:.1f} s: server memory {idle:.1f} MiB "
          f"-> {held:.1f} MiB ({(held - idle) * 1024 / count:.1f} KiB a stream)")
    return socks


def transactions(postgres, name):
    out = subprocess.run(["psql", postgres, "-Atc",
                          f"SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '{name}'"],
                         check=True, capture_output=True, text=True).stdout
    return int(out.strip())


def floor(binary, port, seconds, connections):
    """A bare Hummingbird route under the same wrk: prints its rate and CPU; its ms a request."""
    server = subprocess.Popen([binary, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        answering(server, base + "/", 10, binary)
        (rate, *_), per_request = wrk_cpu(server.pid, base + "/", seconds, connections)
        print(f"  a bare Hummingbird route: {rate:,.0f}/s, its CPU {per_request * 1000:.0f} µs a request")
        return per_request
    finally:
        server.terminate()
        server.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tally", default=".build/release/tally")
    parser.add_argument("--postgres", help="a PostgreSQL URL whose user may create databases")
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--port", type=int, default=18291)
    parser.add_argument("--polls-only", action="store_true",
                        help="measure empty polls alone: what a build from before live streams can run")
    parser.add_argument("--floor", help="a hummingbird-floor build: measured like the polls, as their floor")
    parser.add_argument("--streams-only", action="store_true",
                        help="measure idle streams' memory alone, on a server that has answered nothing else")
    options = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    work = tempfile.mkdtemp()
    db = os.path.join(work, "tally.sqlite")
    run(options.tally, db, "user", "add", "bench", "--owner", stdin="correct horse battery\n")
    run(options.tally, db, "--user", "bench", "habit", "add", "Read", "--created", "2025-11-01")
    database_name = None
    servers = []
    try:
        if options.postgres:
            database_name, target = create_database(options.postgres, "tally_live_")
            target += "?sslmode=disable"
            subprocess.run([options.tally, "--db", db, "copy-to-postgres", target], check=True,
                           stdout=subprocess.DEVNULL)
            database_args = ["--database", target]
        else:
            database_args = ["--db", db]
        limits = [] if options.polls_only else [
            "--live-streams", str(options.streams + 100), "--live-streams-per-user", str(options.streams + 100)]
        server, base = start(options.tally, options.port, database_args + limits)
        servers.append(server)
        _, token = sign_in(base)
        _, _, body = request(base + "/api/v1/habits", headers={"Authorization": f"Bearer {token}"})
        habit = json.loads(body)[0]["id"]
        day_source = days()
        engine = "PostgreSQL" if options.postgres else "SQLite"
        print(f"{engine}, one instance")

        if options.streams_only:
            streams_memory(server, base, token, options.streams)
            return

        cursor = cursor_of(base, token)
        # Polls before /healthz: a backend reports its counts at most once a second, and an idle
        # one only after ten, so /healthz's last reads would be counted in the polls' window.
        before = transactions(options.postgres, database_name) if options.postgres else None
        polls, per_poll = wrk_cpu(server.pid, f"{base}/api/v1/sync?cursor={cursor}", options.seconds,
                                  options.connections, token)
        spent = transactions(options.postgres, database_name) - before if options.postgres else None
        health = wrk(base + "/healthz", options.seconds, options.connections)
        cores = os.cpu_count() or 1
        line = (f"  empty polls: {polls[0]:,.0f}/s (p99 {polls[2]:.1f} ms), {polls[0] / health[0]:.0%} of "
                f"/healthz's {health[0]:,.0f}/s; the server's CPU {per_poll * 1000:.0f} µs a poll, so "
                f"{cores * 1000 / per_poll:,.0f}/s on {cores} cores with nothing beside it")
        if options.postgres:
            line += f"; {spent} database transactions for {polls[0] * options.seconds:,.0f} polls"
        print(line)
        if options.floor:
            floor_cpu = floor(options.floor, options.port + 2, options.seconds, options.connections)
            print(f"    a poll's server CPU is {per_poll / floor_cpu:.2f}x a bare Hummingbird route's")
        if options.polls_only:
            return

        p50, slowest = latency(base, base, token, habit, day_source)
        print(f"  a write reaching a held stream: p50 {p50:.1f} ms, slowest of 20 {slowest:.1f} ms")

        socks = streams_memory(server, base, token, options.streams)
        day = next(day_source)
        arrivals = time_to_reach(socks, lambda: mark(base, token, habit, day))
        p50, _ = percentiles(arrivals)
        print(f"  one write reaching all {options.streams:,}: p50 {p50 * 1000:.0f} ms, last {max(arrivals) * 1000:.0f} ms")
        for sock in socks:
            sock.close()

        if options.postgres:
            second, other = start(options.tally, options.port + 1, database_args + limits)
            servers.append(second)
            time.sleep(1)  # its listener connects in the background
            p50, slowest = latency(base, other, token, habit, day_source)
            print(f"PostgreSQL, two instances: a write through A reaching a stream at B: p50 {p50:.1f} ms, "
                  f"slowest of 20 {slowest:.1f} ms")
    finally:
        for server in servers:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)
        if database_name:
            drop_database(options.postgres, database_name)


if __name__ == "__main__":
    main()
