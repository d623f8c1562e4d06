#!/usr/bin/env python3
"""`tally serve` on SQLite and on PostgreSQL, in one run, on loopback only.

Seeds a SQLite database as server_load.py does (20 daily habits, a year of entries), copies it
into a new PostgreSQL database with `tally copy-to-postgres`, then measures with wrk, for
  - one instance on the SQLite file,
  - one instance on PostgreSQL,
  - two instances on the same PostgreSQL database (one wrk, half its threads and connections
    on each):
the habit list with statistics and entries (reads: the response cache checks the store's
revision on every request), marking a day (writes: one transaction each; one user's writes
take turns behind that user's row lock), and marking a day as 16 users at once (writes that
PostgreSQL may commit side by side), as requests/s
and p50/p99, with each PostgreSQL figure as a ratio of SQLite's, and the CPU time each request
cost the Tally servers and the local PostgreSQL server's processes (a figure that shared, busy
cores disturb far less than a rate); how long the disk took to flush a write meanwhile, which
bounds a durable write's p99 on both engines (docs/server.md, "On PostgreSQL"); and each server's
heap (RssAnon) after its three runs.

`--rounds N` measures the three setups N times, every other round in reverse order, and ends
with each ratio's median over the rounds: on shared cores one run's ratio wanders by a third.

`--by-user` sends each user's requests to one instance: one user's loads to the first, and the
16 users split between wrk's threads, each thread's connections going to one instance.

Needs a PostgreSQL server whose user may create databases: eval "$(.ci/postgres-start)", then
  python3 Benchmarks/postgres_load.py --postgres "$TALLY_TEST_POSTGRES_URL" [--rounds 5]
"""
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import (PASSWORD, DiskFlushes, cpu_ms, create_database, drop_database, postgres_options,  # noqa: E402
                          postgres_parser, request, rss_mib, run, seed, sign_in, start, wrk)

WRITE_SCRIPT = """
wrk.method = "PUT"
wrk.body = '{"status":"done"}'
wrk.headers["Content-Type"] = "application/json"
"""

# Each request as the next of the users, in turn.
USERS_SCRIPT = """
local users = {%s}
local shards = %d
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("shard", threads)
end
local next_user = nil
request = function()
  next_user = next_user and (next_user - 1 + shards) %% #users + 1 or shard
  local user = users[next_user]
  return wrk.format("PUT", "/api/v1/habits/" .. user[2] .. "/entries/2026-11-21",
    {["Authorization"] = "Bearer " .. user[1], ["Content-Type"] = "application/json"}, '{"status":"done"}')
end
"""
USERS = [f"walker{index:02d}" for index in range(16)]


def seed_users(tally, db):
    """USERS, each with one habit."""
    for name in USERS:
        run(tally, db, "user", "add", name, stdin=PASSWORD + "\n")
        run(tally, db, "--user", name, "habit", "add", "Walk", "--created", "2026-11-01")


def users_script(base, shards=1):
    """USERS_SCRIPT with each user's API token and habit, each of wrk's threads sending as every
    `shards`-th user from its own."""
    users = []
    for name in USERS:
        _, token = sign_in(base, name)
        _, _, body = request(base + "/api/v1/habits", headers={"Authorization": f"Bearer {token}"})
        users.append(f'{{"{token}", "{json.loads(body)[0]["id"]}"}}')
    return USERS_SCRIPT % (", ".join(users), shards)


def postgres_pids():
    """The processes named `postgres` on this machine: the benchmark's server when it is local."""
    found = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True).stdout
    return [int(pid) for pid in found.split()]


# Each of wrk's threads sends to the next of the servers' ports, in turn.
SPREAD_SCRIPT = """
local ports = {%s}
local next_port = 0
local earlier_setup = setup
function setup(thread)
  if earlier_setup then earlier_setup(thread) end
  next_port = next_port %% #ports + 1
  thread.addr = wrk.lookup(wrk.host, ports[next_port])[1]
end
"""


def load(bases, path, seconds, connections, token, servers, script=None):
    """One wrk, its threads and `connections` spread evenly over `bases` (so that two servers
    face the same client as one): req/s, p50 and p99, the non-2xx count, the milliseconds of
    CPU per request of the `servers` and of PostgreSQL's processes (a backend that ends during
    the run is missed), and the disk's flushes meanwhile (`DiskFlushes`)."""
    server_pids = [server.pid for server in servers]
    before = (sum(map(cpu_ms, server_pids)), {pid: cpu_ms(pid) for pid in postgres_pids()})
    if len(bases) > 1:
        ports = ", ".join(f'"{urllib.parse.urlsplit(base).port}"' for base in bases)
        script = (script or "") + SPREAD_SCRIPT % ports
    with DiskFlushes() as flushes:
        rate, p50, p99, errors = wrk_with(bases[0] + path, seconds, connections, token, script, max(2, len(bases)))
    requests = max(1.0, rate * seconds)
    server_ms = (sum(map(cpu_ms, server_pids)) - before[0]) / requests
    postgres_ms = sum(cpu_ms(pid) - before[1].get(pid, 0) for pid in postgres_pids()) / requests
    return rate, p50, p99, errors, server_ms, postgres_ms, flushes


@contextlib.contextmanager
def seeded(tally, server, prefix):
    """A SQLite file seeded as server_load.py does, with USERS too, and a new empty database on
    the PostgreSQL `server`, named from `prefix`: the file's path, the database's name and URL;
    both removed on the way out, whatever happened."""
    work = tempfile.mkdtemp()
    name = None
    try:
        db = os.path.join(work, "tally.sqlite")
        seed(tally, db)
        seed_users(tally, db)
        name, target = create_database(server, prefix)
        yield db, name, target + "?sslmode=disable"
    finally:
        shutil.rmtree(work)
        if name:
            drop_database(server, name)


@contextlib.contextmanager
def serving(tally, port, instances):
    """`tally serve` with each argument list of `instances`, on ports from `port`: their base
    URLs, their processes, the bench user's token and first habit; stopped on the way out."""
    servers = [start(tally, port + index, args) for index, args in enumerate(instances)]
    try:
        bases = [base for _, base in servers]
        _, token = sign_in(bases[0])
        _, _, body = request(bases[0] + "/api/v1/habits", headers={"Authorization": f"Bearer {token}"})
        yield bases, [server for server, _ in servers], token, json.loads(body)[0]["id"]
    finally:
        for server, _ in servers:
            server.terminate()
            server.wait(timeout=20)


def wrk_with(url, seconds, connections, token, script, threads=2):
    if script is None:
        return wrk(url, seconds, connections, token, threads=threads)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    try:
        return wrk(url, seconds, connections, token, script=file.name, threads=threads)
    finally:
        os.unlink(file.name)


def add_by_user(parser):
    parser.add_argument("--by-user", action="store_true",
                        help="send each user's requests to one instance, as a proxy that keeps each client on one "
                        "instance does (docs/deploy.md)")


def routed(bases, by_user):
    """Where one user's loads go, and into how many shares wrk's threads split the 16 users (a
    thread's connections all go to one instance): with `by_user`, every request of one user
    reaches the same instance, so no instance waits for another's batch of the user's marks."""
    return (bases[:1], max(2, len(bases))) if by_user else (bases, 1)


def measure(tally, port, instances, options):
    """The three loads through `instances` (argument lists of `tally serve`), then each
    server's heap."""
    with serving(tally, port, instances) as (bases, processes, token, habit):
        own, shares = routed(bases, options.by_user)
        reads = load(own, "/api/v1/habits?include=statistics,entries", options.seconds,
                     options.connections, token, processes)
        writes = load(own, f"/api/v1/habits/{habit}/entries/2026-11-21", options.seconds,
                      options.connections, token, processes, WRITE_SCRIPT)
        many = load(bases, "/", options.seconds, options.connections, None, processes,
                    users_script(bases[0], shares))
        time.sleep(1)  # past the server's first quiet look, which gives freed heap back
        return reads, writes, many, [rss_mib(process.pid, "RssAnon") for process in processes]


KINDS = ("habit list", "mark a day", "16 users mark")
SQLITE = "1 instance, SQLite"


def print_round(figures):
    baseline = figures[SQLITE]
    for label, (*loads, heaps) in figures.items():
        for kind, (rate, p50, p99, errors, server_ms, postgres_ms, flushes), base in zip(KINDS, loads, baseline):
            print(f"  {label:24} {kind:13} {rate:8.0f} req/s ({rate / base[0]:6.1%} of SQLite)"
                  f"  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  non-2xx {errors}"
                  f"  CPU/request: tally {server_ms:.2f} ms, postgres {postgres_ms:.2f} ms"
                  f"  disk flush p99 {flushes.p99:.1f} ms, slowest {flushes.slowest:.0f} ms")
        print(f"  {label:24} heap after the three: " + ", ".join(f"{heap:.1f} MiB" for heap in heaps))


def print_medians(rounds):
    """Per setup and load, over the rounds: the median share of SQLite's rate in the same round
    (and its range), and the median p99."""
    print(f"over {len(rounds)} rounds, medians (range):")
    for label in rounds[0]:
        for index, kind in enumerate(KINDS):
            shares = [figures[label][index][0] / figures[SQLITE][index][0] for figures in rounds]
            p99s = [figures[label][index][2] for figures in rounds]
            print(f"  {label:24} {kind:13} {statistics.median(shares):6.1%} of SQLite"
                  f" ({min(shares):.1%}-{max(shares):.1%})  p99 {statistics.median(p99s):7.2f} ms"
                  f" ({min(p99s):.1f}-{max(p99s):.1f})")


def main():
    parser = postgres_parser(18281)
    parser.add_argument("--socket", help="serve PostgreSQL through its Unix socket in this directory, not TCP "
                        "(the test cluster's: $TALLY_TEST_POSTGRES_DIR)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure the setups this many times, alternating their order, and print medians")
    add_by_user(parser)
    options = postgres_options(parser)
    if options.rounds < 1:
        parser.error("--rounds must be at least 1")
    tally = options.tally
    rounds = []
    with seeded(tally, options.postgres, "tally_bench_") as (db, name, target):
        if options.socket:
            parts = urllib.parse.urlsplit(target)
            target = f"postgres://{parts.username}@:{parts.port or 5432}/{name}?host={options.socket}"
        copy_started = time.monotonic()
        subprocess.run([tally, "--db", db, "copy-to-postgres", target], check=True, stdout=subprocess.DEVNULL)
        copy_seconds = time.monotonic() - copy_started
        print(f"tally serve on SQLite and PostgreSQL: {options.connections} connections in all, "
              f"{options.seconds} s each, loopback, {tally}, PostgreSQL through "
              f"{'its socket in ' + options.socket if options.socket else 'TCP'}")
        print(f"  copy-to-postgres of the seeded file (20 habits, a year of entries), verified: {copy_seconds:.1f} s")
        setups = [(SQLITE, [["--db", db]]),
                  ("1 instance, PostgreSQL", [["--database", target]]),
                  ("2 instances, PostgreSQL", [["--database", target], ["--database", target]])]
        for number in range(options.rounds):
            # Every other round in reverse, so that a machine growing busier falls on each alike.
            order = setups if number % 2 == 0 else setups[::-1]
            measured = {label: measure(tally, options.port, instances, options) for label, instances in order}
            figures = {label: measured[label] for label, _ in setups}
            rounds.append(figures)
            if options.rounds > 1:
                print(f"round {number + 1}:")
            print_round(figures)
            sys.stdout.flush()
    if options.rounds > 1:
        print_medians(rounds)


if __name__ == "__main__":
    main()
