"""What the upgrade drill's two halves share: HTTP calls, `tally serve` processes that
are always stopped, CLI runs and the newest schema the binary knows."""
import hashlib
import json
import os
import re
import signal
import subprocess
import time
from decimal import Decimal

from http_support import fetch, free_port

_processes = []


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def call(base, method, path, body=None, token=None, cookie=None, raw=False, timeout=60):
    """(status, parsed body or bytes with raw, headers); a refused connection is status 0."""
    status, headers, text = fetch(base, method, path, body, token, cookie, timeout)
    if raw or not text:
        return status, (text if raw else None), headers
    try:
        return status, parse(text), headers
    except ValueError:
        return status, text, headers


def parse(text):
    """JSON with its fractions as Decimal, so 12.99 compares exactly."""
    return json.loads(text, parse_float=Decimal)


def stop_all():
    """Stops every process the drill started that still runs: SIGTERM, then SIGKILL."""
    for process in _processes:
        if process.poll() is None:
            process.terminate()
    for process in _processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def on_signal(number, _frame):
    raise SystemExit(128 + number)


for _number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(_number, on_signal)


class Tally:
    """The binary under test, run with a temporary folder of its own (the API backup writes
    there first) and no database named by the environment."""

    def __init__(self, binary, work):
        self.binary, self.work = binary, work
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TALLY_")}
        self.env.update(TMPDIR=work, HOME=work, XDG_DATA_HOME=os.path.join(work, "xdg"), TZ="UTC")

    def run(self, *args, timeout=120, stdin=None):
        return subprocess.run([self.binary, *args], capture_output=True, text=True, env=self.env,
                              timeout=timeout, input=stdin)

    def start(self, *args, log):
        process = subprocess.Popen([self.binary, *args], env=self.env, stdout=log, stderr=subprocess.STDOUT)
        _processes.append(process)
        return process

    def export(self, db, user):
        """`tally --db DB --user NAME export --format json`, parsed; None when it fails."""
        result = self.run("--db", db, "--user", user, "export", "--format", "json")
        if result.returncode != 0:
            print(f"     tally export failed ({result.returncode}): {result.stderr.strip()}")
            return None
        return parse(result.stdout)

    def newest_schema(self, repo):
        """The newest schema: the last line of `tally --version` names it; a binary without
        --version was built from this tree, whose Migrations.swift lists the migrations."""
        result = self.run("--version")
        last = result.stdout.strip().splitlines()[-1] if result.returncode == 0 and result.stdout.strip() else ""
        found = re.search(r"SQLite (v\d+)", last)  # "schema SQLite v12, PostgreSQL v4"
        if found:
            return found.group(1), f"tally --version: {last}"
        with open(os.path.join(repo, "Sources/TallySQLite/Migrations.swift")) as f:
            listed = re.findall(r'\(\s*"(v\d+)"\s*,\s*v\d+\s*\)', f.read())
        return listed[-1], "Sources/TallySQLite/Migrations.swift (tally --version names none)"


class Server:
    """`tally serve --db PATH` on a free loopback port, its output kept in a log of its own."""

    def __init__(self, tally, db, *extra, wait=True):
        self.db, self.port = db, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(tally.work, f"serve-{self.port}.log")
        self.log = open(self.log_path, "w")
        self.started = time.monotonic()
        self.process = tally.start("serve", "--db", db, "--port", str(self.port), "--log-level", "info", *extra,
                                   log=self.log)
        self.healthy = self.wait_healthy(60) if wait else False

    def wait_healthy(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.process.poll() is None:
            if call(self.base, "GET", "/healthz", timeout=5)[0] == 200:
                return True
            time.sleep(0.05)
        return False

    def tail(self, lines=15):
        with open(self.log_path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def stop(self):
        """SIGTERM and wait: True when it exited 0 (a clean stop)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode == 0
