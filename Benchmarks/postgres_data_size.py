#!/usr/bin/env python3
"""A user's habit list on PostgreSQL with few and with many other users in the database.

Makes a new database and, through `tally serve` and its API, the measured user `bench`: 20
daily habits made two years ago, each marked in two ranges with a gap, as a person would
(about 14,000 entries). The other users are filled in directly in SQL, each a copy of
bench's rows under fresh ids (user, credential, prices, habits, entries, and the change-feed
rows and feed head every write makes), so they have exactly the shapes the migrations and
the store make, without millions of requests. Then, with 10 users in the database and again
with --users (1,000: about 14 M entries), it measures bench's
GET /api/v1/habits?include=statistics,entries
  - computed: one request at a time, each right after a write to bench's journal, which
    moves the store's revision, so the list is read from the database afresh (p50/p99);
  - kept: wrk at 16 connections, the response cache answering after checking the revision
    (req/s, p50/p99);
and prints the large database's figures as ratios of the small one's. A list whose cost
grew with other users' data would show it here.

Needs a PostgreSQL server whose user may create databases (8 GB for 1,000 users) and
a release `tally`:
  eval "$(.ci/postgres-start)"
  python3 Benchmarks/postgres_data_size.py --postgres "$TALLY_TEST_POSTGRES_URL"
"""
import datetime
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import (PASSWORD, create_database, drop_database, percentiles, postgres_options,  # noqa: E402
                          postgres_parser, request, sign_in, start, wrk)

LISTING = "/api/v1/habits?include=statistics,entries"


def psql(url, sql, *, one_transaction=True):
    """Runs `sql`, in one transaction unless told; returns what it printed, unaligned."""
    done = subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qAt", *(["-1"] if one_transaction else []),
                           "-c", sql], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"psql failed: {done.stderr}")
    return done.stdout.strip()


def make_bench(base, today):
    """The owner `bench`, made and filled through the API; returns a token."""
    status, _, _ = request(base + "/api/v1/setup", "POST", {"name": "bench", "password": PASSWORD},
                           {"Origin": base})
    assert status == 201, f"setup answered {status}"
    _, token = sign_in(base)
    auth = {"Authorization": f"Bearer {token}"}
    created = today - datetime.timedelta(days=730)
    for index in range(20):
        _, _, body = request(base + "/api/v1/habits", "POST",
                             {"name": f"Habit {index + 1:02d}", "createdDay": created.isoformat()}, auth)
        habit = json.loads(body)["id"]
        # Two ranges with a gap, so streaks and rates are not trivial.
        gap = created + datetime.timedelta(days=400 + index % 9)
        for first, last in ((created + datetime.timedelta(days=21), gap - datetime.timedelta(days=10)),
                            (gap, today)):
            request(base + f"/api/v1/habits/{habit}/entries", "POST",
                    {"from": first.isoformat(), "to": last.isoformat(), "status": "done"}, auth)
    return token


def columns(url, table):
    return psql(url, f"""SELECT column_name FROM information_schema.columns
                         WHERE table_schema = current_schema() AND table_name = '{table}'
                         ORDER BY ordinal_position""").split("\n")


def copy_rows(url, table, source, overrides, where):
    """INSERT INTO table SELECT each column of `source`'s rows (alias s), `overrides`
    replacing some, from the join `source`."""
    names = columns(url, table)
    values = [overrides.get(name, f"s.{name}") for name in names]
    return f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join(values)} FROM {source} WHERE {where};"


def fill(url, first, last):
    """Users number `first`…`last`, each a copy of bench's rows under fresh ids, in one
    transaction."""
    bench = "(SELECT id FROM users WHERE name = 'bench')"
    statements = [
        f"""CREATE TEMP TABLE clone_users ON COMMIT DROP AS
            SELECT n, gen_random_uuid() AS id FROM generate_series({first}, {last}) AS n;""",
        f"""CREATE TEMP TABLE clone_habits ON COMMIT DROP AS
            SELECT u.n, u.id AS user_id, h.id AS old_id, gen_random_uuid() AS id
            FROM clone_users u CROSS JOIN habits h WHERE h.user_id = {bench};""",
        "CREATE INDEX ON clone_habits (n, old_id); ANALYZE clone_habits;",
        copy_rows(url, "users", "users s CROSS JOIN clone_users u",
                  {"id": "u.id", "name": "'user' || lpad(u.n::text, 5, '0')"}, "s.name = 'bench'"),
        copy_rows(url, "user_credentials", "user_credentials s JOIN clone_users u ON true",
                  {"user_id": "u.id", "role": "'member'"}, f"s.user_id = {bench}"),
        copy_rows(url, "prices", "prices s JOIN clone_users u ON true", {"user_id": "u.id"}, f"s.user_id = {bench}"),
        copy_rows(url, "habits", "habits s JOIN clone_habits c ON c.old_id = s.id",
                  {"id": "c.id", "user_id": "c.user_id"}, "true"),
        copy_rows(url, "habit_entries", "habit_entries s JOIN clone_habits c ON c.old_id = s.habit_id",
                  {"habit_id": "c.id"}, "true"),
        copy_rows(url, "sync_heads", "sync_heads s JOIN clone_users u ON true", {"user_id": "u.id"},
                  f"s.user_id = {bench}"),
        # A habit's or an entry's feed id starts with the habit's id.
        copy_rows(url, "sync_entities",
                  """sync_entities s JOIN clone_users u ON true LEFT JOIN clone_habits c
                     ON c.n = u.n AND s.kind IN ('habit', 'entry') AND c.old_id::text = left(s.entity_id, 36)""",
                  {"user_id": "u.id",
                   "entity_id": "CASE WHEN c.id IS NULL THEN s.entity_id ELSE c.id::text || substr(s.entity_id, 37) END"},
                  f"s.user_id = {bench} AND s.kind <> 'journal'"),
    ]
    psql(url, "SET synchronous_commit = off;\n" + "\n".join(statements))
    # Now rather than by autovacuum in the middle of a measurement.
    psql(url, "VACUUM ANALYZE", one_transaction=False)


def measure(base, token, seconds, connections, count):
    """The list computed (after a journal write each time) and kept (wrk)."""
    auth = {"Authorization": f"Bearer {token}"}
    times = []
    for index in range(count):
        request(base + f"/api/v1/journal/2020-01-{index % 28 + 1:02d}", "PUT", {"text": f"write {index}"}, auth)
        started = time.perf_counter()
        status, _, _ = request(base + LISTING, headers=auth)
        times.append((time.perf_counter() - started) * 1000)
        assert status == 200, f"the list answered {status}"
    return percentiles(times), wrk(base + LISTING, seconds, connections, token)


def main():
    parser = postgres_parser(18381)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=200, help="computed lists measured per size")
    options = postgres_options(parser)
    name, url = create_database(options.postgres, "tally_size_")
    server, base = start(options.tally, options.port, ["--database", url + "?sslmode=disable"])
    figures = []
    try:
        token = make_bench(base, datetime.date.today())
        for users in (10, options.users):
            started = time.monotonic()
            fill(url, int(psql(url, "SELECT count(*) FROM users")), users - 1)
            filled = time.monotonic() - started
            counts = psql(url, """SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM habit_entries),
                                         (SELECT count(*) FROM sync_entities), pg_database_size(current_database())""")
            figures.append((counts.split("|"), filled, *measure(base, token, options.seconds, options.connections,
                                                                 options.requests)))
    finally:
        server.terminate()
        server.wait(timeout=20)
        drop_database(options.postgres, name)

    print(f"bench's habit list (20 habits, 2 years) on PostgreSQL, by users in the database; {options.tally}")
    for (users, entries, feed, size), filled, computed, kept in figures:
        print(f"  {int(users):5} users, {int(entries):>10,} entries, {int(feed):>10,} feed rows,"
              f" {int(size) / 2**30:4.1f} GiB (filled in {filled:5.0f} s)")
        print(f"    computed, one at a time after a write: p50 {computed[0]:7.2f} ms  p99 {computed[1]:7.2f} ms")
        print(f"    kept, wrk {options.connections} connections: {kept[0]:7.0f} req/s  p50 {kept[1]:6.2f} ms"
              f"  p99 {kept[2]:6.2f} ms  non-2xx {kept[3]}")
    (_, _, small, small_kept), (_, _, large, large_kept) = figures
    print(f"  {figures[1][0][0]} users ÷ {figures[0][0][0]} users: computed p50 {large[0] / small[0]:.2f}×,"
          f" p99 {large[1] / small[1]:.2f}×; kept req/s {large_kept[0] / small_kept[0]:.2f}×,"
          f" p99 {large_kept[2] / small_kept[2]:.2f}×")


if __name__ == "__main__":
    main()
