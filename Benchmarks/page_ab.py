#!/usr/bin/env python3
"""The web pages' cost before and after a change, in one session: two release builds of `tally`
(BEFORE and AFTER, e.g. one built in a worktree at an older commit) serve the same seeded data
side by side, and each round writes an entry and fetches a page from one, then the other, so
whatever else the machine runs falls on both alike.

A page fetched right after a write is computed, not served from the response cache. Its cost
is the server's CPU time for write-and-page minus that for write-and-/healthz (measured
alternately), as in server_load.py. Prints, per page, the median CPU ms of BEFORE and AFTER and
their ratio (after ÷ before; below 1 is faster), and each page's size.

  python3 Benchmarks/page_ab.py BEFORE_TALLY AFTER_TALLY [--rounds 400]
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import cpu_ms, request, seed, sign_in, start  # noqa: E402

PAGES = ("/today", "/habits", "/statistics")


class Side:
    """One build serving its own copy of the data."""

    def __init__(self, tally, work, port):
        db = os.path.join(work, f"{port}.sqlite")
        seed(tally, db)
        self.server, self.base = start(tally, port, ["--db", db])
        self.cookie, token = sign_in(self.base)
        self.auth = {"Authorization": f"Bearer {token}"}
        _, _, body = request(self.base + "/api/v1/habits", headers=self.auth)
        self.entry = f"{self.base}/api/v1/habits/{json.loads(body)[0]['id']}/entries/2025-11-05"
        self.writes = 0
        self.sizes = {}

    def write_then(self, path):
        """CPU ms of one write and a fetch of `path` right after it."""
        started = cpu_ms(self.server.pid)
        if self.writes % 2:
            request(self.entry, "DELETE", headers=self.auth)
        else:
            request(self.entry, "PUT", {"status": "done"}, self.auth)
        self.writes += 1
        status, _, body = request(self.base + path, headers={"Cookie": self.cookie})
        assert status == 200, f"{path} answered {status}"
        self.sizes[path] = len(body)
        return cpu_ms(self.server.pid) - started

    def stop(self):
        self.server.terminate()
        self.server.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=400)
    options = parser.parse_args()
    work = tempfile.mkdtemp()
    sides = []
    try:
        sides = [Side(options.before, work, 18281), Side(options.after, work, 18282)]
        for side in sides:  # the first pages after start read everything; later ones only what changed
            for path in PAGES * 5:
                side.write_then(path)
        costs = {(index, path): [] for index in range(2) for path in PAGES + ("/healthz",)}
        for round_ in range(options.rounds):
            for path in PAGES + ("/healthz",):
                order = (0, 1) if round_ % 2 else (1, 0)
                for index in order:
                    costs[index, path].append(sides[index].write_then(path))
    finally:
        for side in sides:
            side.stop()
        shutil.rmtree(work)

    print(f"web pages computed after a write, server CPU per page, median of {options.rounds} (before → after)")
    for path in PAGES:
        before, after = (statistics.median(costs[index, path]) - statistics.median(costs[index, "/healthz"]) for index in range(2))
        sizes = " → ".join(f"{side.sizes[path] / 1024:.1f} KiB" for side in sides)
        print(f"  {path:12} {before:6.2f} ms → {after:6.2f} ms  ({after / before:.2f}×)  {sizes}")


if __name__ == "__main__":
    main()
