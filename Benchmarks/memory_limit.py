#!/usr/bin/env python3
"""`tally serve` inside a memory cgroup (cgroup v1, as root): how small a box it serves from.

Seeds the load benchmark's database (20 daily habits × a year), then for each limit starts the
release server in a fresh cgroup with that `memory.limit_in_bytes`, after dropping the binary
and the Swift libraries from the page cache so their pages are charged to the cgroup, and runs
wrk (16 connections) on /healthz, the habit list and Today. Rates are printed as a share of the
first, unlimited run's, measured in the same session.

Run: swift build -c release --product tally && sudo python3 Benchmarks/memory_limit.py
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import request, seed, sign_in, wrk  # noqa: E402


def memory_cgroup():
    """This process's cgroup v1 memory folder, or exit saying why there is none."""
    with open("/proc/self/cgroup") as groups:
        for line in groups:
            _, controllers, path = line.strip().split(":", 2)
            if "memory" in controllers.split(","):
                folder = "/sys/fs/cgroup/memory" + path
                if os.access(folder, os.W_OK):
                    return folder
    sys.exit("needs a writable cgroup v1 memory controller (run as root on a cgroup v1 host)")


def drop_from_page_cache(tally):
    libraries = "/opt/swift/usr/lib/swift/linux"
    paths = [tally] + ([os.path.join(libraries, name) for name in os.listdir(libraries) if name.endswith(".so")]
                       if os.path.isdir(libraries) else [])
    for path in paths:
        descriptor = os.open(path, os.O_RDONLY)
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(descriptor)


def run(tally, db, limit, port, seconds, parent):
    group = os.path.join(parent, f"tally-limit-{os.getpid()}")
    os.makedirs(group)
    server = None
    try:
        with open(os.path.join(group, "memory.limit_in_bytes"), "w") as file:
            file.write(limit)
        drop_from_page_cache(tally)
        server = subprocess.Popen(
            ["sh", "-c", f'echo $$ > "{group}/cgroup.procs" && exec "$0" serve --db "$1" --port {port} --log-level warning',
             tally, db], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                request(base + "/healthz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    return None
                time.sleep(0.05)
        cookie, token = sign_in(base)
        rates = [wrk(base + "/healthz", seconds, 16)[0],
                 wrk(base + "/api/v1/habits?include=statistics,entries", seconds, 16, token)[0],
                 wrk(base + "/today", seconds, 16, cookie=cookie)[0]]
        with open(os.path.join(group, "memory.max_usage_in_bytes")) as file:
            peak = int(file.read()) / 2**20
        return rates, peak
    finally:
        if server:
            server.terminate()
            server.wait(timeout=30)
        time.sleep(0.2)
        os.rmdir(group)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tally", default=".build/release/tally")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--port", type=int, default=18182)
    parser.add_argument("limits", nargs="*", default=["64M", "48M", "40M", "30M"])
    options = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    parent = memory_cgroup()
    tally = os.path.abspath(options.tally)
    work = tempfile.mkdtemp()
    try:
        db = os.path.join(work, "tally.sqlite")
        seed(tally, db)
        print(f"tally serve in a memory cgroup: wrk, 16 connections, {options.seconds} s each, loopback")
        baseline = None
        for limit in ["1G"] + options.limits:
            result = run(tally, db, limit, options.port, options.seconds, parent)
            if result is None:
                print(f"  limit {limit:>4}: did not answer /healthz within a minute")
                continue
            rates, peak = result
            baseline = baseline or rates
            shares = "  ".join(f"{name} {rate:6.0f} req/s ({rate / base:4.0%})"
                               for name, rate, base in zip(("healthz", "list", "today"), rates, baseline))
            print(f"  limit {limit:>4}: {shares}; cgroup peak {peak:5.1f} MiB")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
