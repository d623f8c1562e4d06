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
import json
import socket
import tempfile
import time

from load_support import rss_mib
from probe_crash import probe_crash_safety
from probe_isolation import probe_isolation
from probe_support import NOT_HOLDING, bomb_zip, call, holds, large_csv, open_connections, peak_while, set_up_owner, start_server, still_open, stop, together


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
            # What an import must give back is heap (RssAnon); the code it ran comes back into
            # RSS as file pages, which `serve` gave back at start (docs/server.md, "Memory").
            idle, idle_heap = rss_mib(server.pid), rss_mib(server.pid, "RssAnon")
            data = large_csv(50 * 1000 * 1000)
            (status, body), peak, seconds = peak_while(server.pid, lambda: call(
                base, "/api/v1/import?format=csv", "POST", raw=data, headers=auth, content_type="text/csv"))
            after = rss_mib(server.pid)
            time.sleep(5)
            later, later_heap = rss_mib(server.pid), rss_mib(server.pid, "RssAnon")
            print(f"import of {len(data) / 1e6:.0f} MB CSV: {status} in {seconds:.1f} s; RSS idle {idle:.0f} MiB, "
                  f"peak {peak:.0f} MiB, right after {after:.0f} MiB, 5 s later {later:.0f} MiB; "
                  f"heap idle {idle_heap:.0f} MiB, 5 s later {later_heap:.0f} MiB")
            holds(status == 200 and later_heap < idle_heap + 64, "memory given back after a large import")

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
        stop(server, folder)


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
