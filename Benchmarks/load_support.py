"""What the load benchmarks share: a seeded database, a `tally serve` on loopback, a token,
plain requests and wrk's figures."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid

PASSWORD = "correct horse battery"
NOW = "2026-11-21T12:00:00Z"


def run(tally, db, *args, stdin=None):
    subprocess.run([tally, "--db", db, "--now", NOW, *args], input=stdin, text=True,
                   check=True, stdout=subprocess.DEVNULL)


def cpu_ms(pid):
    """CPU time in ms the process has run so far, all its threads (the scheduler's ns counts);
    0 for a process that has ended."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
    except FileNotFoundError:
        pass
    return total / 1e6


def rss_mib(pid, field="VmRSS"):
    """A memory figure of the process from /proc/PID/status (VmRSS, VmHWM, RssAnon…) in MiB;
    0 when the process or the field is not there."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def seed(tally, db, user="bench", years=1):
    """`user` (the owner when first) with 20 daily habits and `years` years of entries."""
    run(tally, db, "user", "add", user, *(["--owner"] if user == "bench" else []), stdin=PASSWORD + "\n")
    start = 2026 - years
    for index in range(20):
        name = f"Habit {index + 1:02d}"
        run(tally, db, "--user", user, "habit", "add", name, "--created", f"{start}-11-01")
        # Two ranges with a gap, so streaks and rates are not trivial.
        run(tally, db, "--user", user, "mark", name, f"{start}-11-22..2026-06-30")
        run(tally, db, "--user", user, "mark", name, f"2026-07-{index % 9 + 2:02d}..2026-11-21")


def request(url, method="GET", body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req) as response:
        return response.status, response.headers, response.read()


def start(tally, port, database_args, wrapper=(), seconds=60, stderr=subprocess.DEVNULL):
    """`tally serve` with `database_args` on a loopback port, once /healthz answers 200:
    the process and its base URL. `wrapper` runs it (valgrind), within `seconds`."""
    server = subprocess.Popen([*wrapper, tally, "serve", *database_args, "--port", str(port), "--log-level", "warning"],
                              stdout=subprocess.DEVNULL, stderr=stderr)
    base = f"http://127.0.0.1:{port}"
    answering(server, base + "/healthz", seconds, f"tally serve {' '.join(database_args)}")
    return server, base


def answering(server, url, seconds, name):
    """Returns once `url` answers 200; exits naming `name` when `server` ends or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if request(url)[0] == 200:
                return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                sys.exit(f"{name} did not start")
            time.sleep(0.002)


def wrk_cpu(pid, url, seconds, connections, token=None):
    """wrk's figures (as `wrk` gives them) and the ms of CPU process `pid` spent on each request."""
    before = cpu_ms(pid)
    figures = wrk(url, seconds, connections, token)
    return figures, (cpu_ms(pid) - before) / max(1.0, figures[0] * seconds)


def sign_in(base, name="bench", password=PASSWORD):
    """A session cookie and an API token for `name`."""
    _, headers, _ = request(base + "/api/v1/session", "POST", {"name": name, "password": password},
                            {"Origin": base})
    cookie = headers["Set-Cookie"].split(";")[0]
    _, _, body = request(base + "/api/v1/tokens", "POST", {"name": "bench"}, {"Cookie": cookie, "Origin": base})
    return cookie, json.loads(body)["secret"]


def wrk(url, seconds, connections, token=None, cookie=None, script=None, threads=2):
    """wrk's requests/s, p50 and p99 in ms, and its count of non-2xx answers."""
    # wrk refuses fewer connections than threads.
    command = ["wrk", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    if script:
        command[1:1] = ["-s", script]
    if token:
        command[1:1] = ["-H", f"Authorization: Bearer {token}"]
    if cookie:
        command[1:1] = ["-H", f"Cookie: {cookie}"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def percentile(name):
        value, unit = re.search(rf"\s{name}%\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rate, percentile("50"), percentile("99"), int(errors.group(1)) if errors else 0


class DiskFlushes:
    """While open, writes 8 KiB to a file in the temporary directory and flushes it (fdatasync)
    every 20 ms, timing each flush: what a durable commit waits for on this disk, measured
    beside a load. On a shared virtual disk a flush now and then takes a hundred times its
    median, and every write queued behind that commit waits with it, so a write's p99 is read
    against this one. `p99` and `slowest` are in ms once it is closed."""

    def __enter__(self):
        self.times = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._flush, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_):
        self._stop.set()
        self._thread.join()
        self.p99 = percentiles(self.times)[1] if self.times else 0.0
        self.slowest = max(self.times, default=0.0)

    def _flush(self):
        with tempfile.TemporaryFile() as file:
            while not self._stop.wait(0.02):
                file.write(b"x" * 8192)
                file.flush()
                started = time.perf_counter()
                os.fdatasync(file.fileno())
                self.times.append((time.perf_counter() - started) * 1000)
                file.seek(0)


def percentiles(times):
    """p50 and p99 of a list of times."""
    times = sorted(times)
    return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def postgres_parser(port, tally=True):
    """The options the PostgreSQL benchmarks share (`--tally` for those that run one build);
    `postgres_options` reads and checks them."""
    parser = argparse.ArgumentParser()
    if tally:
        parser.add_argument("--tally", default=".build/release/tally")
    parser.add_argument("--postgres", default=os.environ.get("TALLY_TEST_POSTGRES_URL"),
                        help="a PostgreSQL URL whose user may create databases")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--port", type=int, default=port)
    return parser


def postgres_options(parser):
    options = parser.parse_args()
    if not options.postgres:
        sys.exit("name a PostgreSQL server with --postgres or TALLY_TEST_POSTGRES_URL (.ci/postgres-start)")
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    return options


def create_database(server, prefix):
    """A new database on the PostgreSQL server at URL `server`: its name and URL."""
    name = prefix + uuid.uuid4().hex[:8]
    subprocess.run(["psql", server, "-qc", f"CREATE DATABASE {name}"], check=True)
    return name, server.rsplit("/", 1)[0] + "/" + name


def drop_database(server, name):
    subprocess.run(["psql", server, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=False)
