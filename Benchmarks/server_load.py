#!/usr/bin/env python3
"""Load benchmark for `tally serve`, on loopback only.

Seeds a fresh database with 20 daily habits and a year of entries (through the `tally`
command line), starts the release server, and measures in one run:
  - the time from spawning the process to the first 200 from /healthz;
  - resident memory when idle, and its peak under load;
  - the first habit list, which the server computes (later ones come from its cache until a
    write moves the store's revision);
  - wrk's requests/s and p50/p99 latency at 16 connections for GET /healthz and for
    GET /api/v1/habits?include=statistics,entries (20 habits, their statistics and a year of
    entries), and the second as a ratio of the first;
  - the web pages /today and /habits for the same user: latency of one request at a time
    (p50/p99 over 300, on loopback, so close to the server's own time; these come from the
    response cache), the same right after a write (computed afresh), throughput under wrk,
    and each page's transfer size (no compression);
  - the same two pages computed after a write for a second user with 20 habits × 10 years,
    next to the one-year figure: a write must not cost a re-read of every day.

Run: swift build -c release --product tally && python3 Benchmarks/server_load.py
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import cpu_ms, percentiles, request, rss_mib, seed, sign_in, start, wrk  # noqa: E402



def after_writes(server, base, path, cookie, token, habit, count=120):
    """A page fetched right after each of `count` writes, so it is computed, not cached: its
    p50 latency in ms, and the server's CPU time per page in ms — the median CPU of
    write-and-page minus the median of write-and-/healthz, the two alternated, so the write's
    own cost is taken out and a busy moment on a shared machine moves both or neither. CPU
    time is what the server spent, however busy the machine is."""
    entry = f"{base}/api/v1/habits/{habit}/entries/2025-11-05"
    auth = {"Authorization": f"Bearer {token}"}

    def write(index):
        if index % 2:
            request(entry, "DELETE", headers=auth)
        else:
            request(entry, "PUT", {"status": "done"}, auth)

    def pair(index, url):
        started = cpu_ms(server.pid)
        write(index)
        begun = time.perf_counter()
        request(url, headers={"Cookie": cookie})
        return (time.perf_counter() - begun) * 1000, cpu_ms(server.pid) - started

    for index in range(10):  # the first page after start reads everything; later ones only what changed
        pair(index, base + path)
    pages, healthz = [], []
    for index in range(count):
        pages.append(pair(2 * index, base + path))
        healthz.append(pair(2 * index + 1, base + "/healthz"))

    def median(values):
        return sorted(values)[len(values) // 2]

    return median([t for t, _ in pages]), median([c for _, c in pages]) - median([c for _, c in healthz])


def one_at_a_time(url, cookie, count=300):
    """p50 and p99 in ms of `count` sequential requests, and the body's size."""
    times = []
    size = 0
    for _ in range(count):
        started = time.perf_counter()
        status, _, body = request(url, headers={"Cookie": cookie})
        times.append((time.perf_counter() - started) * 1000)
        assert status == 200, f"{url} answered {status}"
        size = len(body)
    return (*percentiles(times), size)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tally", default=".build/release/tally")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--port", type=int, default=18181)
    options = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    work = tempfile.mkdtemp()
    db = os.path.join(work, "tally.sqlite")
    tally = options.tally

    seed(tally, db)
    seed(tally, db, "decade", years=10)

    started = time.monotonic()
    server, base = start(tally, options.port, ["--db", db])
    try:
        first_healthy = time.monotonic() - started
        time.sleep(1)
        started_rss = rss_mib(server.pid)
        cookie, token = sign_in(base)
        listing = base + "/api/v1/habits?include=statistics,entries"
        computed = time.monotonic()
        _, _, body = request(listing, headers={"Authorization": f"Bearer {token}"})
        computed = time.monotonic() - computed
        habits = json.loads(body)
        time.sleep(1)
        idle = rss_mib(server.pid)

        health = wrk(base + "/healthz", options.seconds, options.connections)
        habit_list = wrk(listing, options.seconds, options.connections, token)
        pages = {}
        for path in ("/today", "/habits"):
            pages[path] = one_at_a_time(base + path, cookie) + (
                wrk(base + path, options.seconds, options.connections, cookie=cookie),
                after_writes(server, base, path, cookie, token, habits[0]["id"]))
        decade_cookie, decade_token = sign_in(base, "decade")
        _, _, decade_body = request(base + "/api/v1/habits", headers={"Authorization": f"Bearer {decade_token}"})
        decade_habit = json.loads(decade_body)[0]["id"]
        decade = {path: after_writes(server, base, path, decade_cookie, decade_token, decade_habit)
                  for path in ("/today", "/habits")}
        loaded = rss_mib(server.pid)
        peak = rss_mib(server.pid, "VmHWM")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work)

    print(f"tally serve load benchmark: {options.connections} connections, {options.seconds} s each, loopback")
    print(f"  start to first /healthz 200: {first_healthy * 1000:.0f} ms")
    print(f"  resident memory: {started_rss:.1f} MiB started, {idle:.1f} MiB idle after a sign-in"
          f" and a habit list, {loaded:.1f} MiB after the load, {peak:.1f} MiB at the most (start-up included)")
    for label, (rate, p50, p99, errors) in [("GET /healthz", health), ("GET habits (20, stats, 1 y)", habit_list)]:
        print(f"  {label:30} {rate:9.0f} req/s  p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  non-2xx {errors}")
    print(f"  first habit list (computed, not yet cached): {computed * 1000:.1f} ms")
    print(f"  habit list / healthz throughput: {habit_list[0] / health[0]:.1%}"
          f" (list body {len(body) / 1024:.0f} KiB, {len(habits)} habits)")
    for path, (p50, p99, size, (rate, _, _, errors), (computed_p50, computed_cpu)) in pages.items():
        print(f"  page {path:8} {size / 1024:5.1f} KiB; one at a time p50 {p50:5.2f} ms p99 {p99:5.2f} ms"
              f" (computed after a write: p50 {computed_p50:5.2f} ms, server CPU {computed_cpu:5.2f} ms);"
              f" {rate:6.0f} req/s at {options.connections} connections ({rate / health[0]:.1%} of healthz), non-2xx {errors}")
    for path, (computed_p50, computed_cpu) in decade.items():
        one_year = pages[path][4][1]
        print(f"  page {path:8} computed after a write, 20 habits × 10 years: p50 {computed_p50:5.2f} ms,"
              f" server CPU {computed_cpu:5.2f} ms ({computed_cpu / one_year:.2f}× the one-year user's)")


if __name__ == "__main__":
    main()
