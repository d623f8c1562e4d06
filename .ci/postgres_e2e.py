"""Two real `tally serve` instances on one PostgreSQL database (docs/server.md).

Writes alternate between the instances and every read through either sees them; wrong
passwords alternated between them meet one sign-in limit; one instance
killed with SIGKILL under write load loses no acknowledged write while the other keeps
answering; PostgreSQL stopped and started under load gives 503s in between, never another
failure, loses nothing acknowledged, and both instances recover by themselves.

Usage: postgres_e2e.py TALLY POSTGRES_URL CLUSTER_DIR (from .ci/postgres-start)
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks"))
from probe_support import crash_lines, pg_ctl  # noqa: E402

TALLY, BASE_URL, CLUSTER = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
failures, passes = [], []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    (passes if condition else failures).append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, token=None, timeout=30):
    """(status, parsed body); a refused connection is status 0."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    request.add_header("Origin", base)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, None
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, None


# What each instance writes to standard error (errors, and a crash's message), kept until the
# end so that a failed check can show it.
LOGS = tempfile.TemporaryDirectory(prefix="tally-e2e-")


class Instance:
    def __init__(self, database, name, *options):
        self.name, self.port = name, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = os.path.join(LOGS.name, f"{name}-{self.port}.log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [TALLY, "serve", "--database", database, "--port", str(self.port), "--log-level", "error", *options],
                stdout=subprocess.DEVNULL, stderr=log)
        self.wait_healthy(60)

    def report(self):
        """How the instance ended (or that it runs), and the end of what it wrote."""
        status = self.process.poll()
        state = "still running" if status is None else f"exited with status {status}"
        with open(self.log) as log:
            lines = log.readlines()
        crash = crash_lines(lines)
        print(f"== instance {self.name} on port {self.port}: {state}; "
              f"{'its crash' if crash else 'the end of its standard error'}:")
        print("".join(crash or lines[-40:]) or "(nothing)\n", end="")

    def wait_healthy(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if call(self.base, "GET", "/healthz", timeout=5)[0] == 200:
                return True
            time.sleep(0.2)
        return False

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


class Writer(threading.Thread):
    """Writes journal days through one instance until stopped, each day once and no day
    another writer writes (`lane` of `lanes`); keeps what was acknowledged and every status."""

    def __init__(self, instance, token, prefix, lane, lanes=2):
        super().__init__(daemon=True)
        self.instance, self.token, self.prefix, self.lane, self.lanes = instance, token, prefix, lane, lanes
        self.acknowledged, self.statuses, self.running = {}, {}, True

    def run(self):
        index = 0
        while self.running:
            n = index * self.lanes + self.lane
            day = f"{2000 + n // 336:04d}-{(n // 28) % 12 + 1:02d}-{n % 28 + 1:02d}"
            text = f"{self.prefix} {index}"
            status, _ = call(self.instance.base, "PUT", f"/api/v1/journal/{day}", {"text": text}, self.token, timeout=40)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == 200:
                self.acknowledged[day] = text
            index += 1


def journal(instance, token):
    status, body = call(instance.base, "GET", "/api/v1/journal?from=2000-01-01&to=2099-12-31", token=token)
    return {entry["day"]: entry.get("entry") for entry in body} if status == 200 else None


def main():
    name = "tally_e2e_" + uuid.uuid4().hex[:8]
    subprocess.run(["psql", BASE_URL, "-qc", f"CREATE DATABASE {name}"], check=True)
    database = BASE_URL.rsplit("/", 1)[0] + "/" + name + "?sslmode=disable"
    a, b = Instance(database, "A", "--database-connections", "3"), Instance(database, "B")
    instances = [a, b]
    try:
        # Each instance holds its pool and one listening connection: 3 + 1 for A, 10 + 1 for B.
        held = 0
        for _ in range(100):
            held = int(subprocess.run(["psql", BASE_URL, "-tAc", f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{name}'"],
                                      check=True, capture_output=True, text=True).stdout)
            if held == 15:
                break
            time.sleep(0.1)
        check(held == 15, f"--database-connections 3 and the default hold 4 + 11 connections ({held})")
        status, _ = call(a.base, "POST", "/api/v1/setup", {"name": "ada", "password": "correct horse battery"})
        check(status == 201, "the owner is set up through instance A")
        request = urllib.request.Request(
            a.base + "/api/v1/session", method="POST",
            data=json.dumps({"name": "ada", "password": "correct horse battery"}).encode(),
            headers={"Content-Type": "application/json", "Origin": a.base})
        with urllib.request.urlopen(request) as response:
            cookie = response.headers["Set-Cookie"].split(";")[0]
        request = urllib.request.Request(
            b.base + "/api/v1/tokens", method="POST", data=json.dumps({"name": "e2e"}).encode(),
            headers={"Content-Type": "application/json", "Origin": b.base, "Cookie": cookie})
        with urllib.request.urlopen(request) as response:
            token = json.loads(response.read())["secret"]
        check(True, "a session made by A makes a token through B")

        status, habit = call(b.base, "POST", "/api/v1/habits", {"name": "Read", "createdDay": "2026-01-01"}, token)
        check(status == 201, "a habit is made through B")
        days = [f"2026-02-{day:02d}" for day in range(1, 29)]
        statuses = [call(instances[i % 2].base, "PUT", f"/api/v1/habits/{habit['id']}/entries/{day}",
                         {"status": "done"}, token)[0] for i, day in enumerate(days)]
        check(all(s == 200 for s in statuses), "28 days marked, alternating between A and B")
        for instance, label in ((a, "A"), (b, "B")):
            status, entries = call(instance.base, "GET", f"/api/v1/habits/{habit['id']}/entries", token=token)
            check(status == 200 and sorted(e["day"] for e in entries) == days, f"instance {label} reads all 28 days")

        # The sign-in throttle is the database's: five wrong passwords alternated between the
        # instances, and the sixth try waits at both, however right its password.
        wrong = [call(instances[i % 2].base, "POST", "/api/v1/session", {"name": "ada", "password": "wrong"})[0]
                 for i in range(5)]
        right = [call(instance.base, "POST", "/api/v1/session", {"name": "ada", "password": "correct horse battery"})[0]
                 for instance in instances]
        check(wrong == [401] * 5 and right == [429, 429],
              f"wrong passwords alternated between A and B get 429 after the fifth at both ({wrong}, {right})")

        # SIGKILL one instance under write load.
        writers = [Writer(a, token, "through A", 0), Writer(b, token, "through B", 1)]
        for writer in writers:
            writer.start()
        time.sleep(3)
        a.process.kill()
        a.process.wait()
        during = sum(1 for _ in range(20) if call(b.base, "GET", "/healthz")[0] == 200)
        time.sleep(2)
        for writer in writers:
            writer.running = False
            writer.join()
        check(during == 20, "B answered every health check while A was killed")
        check(writers[1].statuses.get(200, 0) > 0 and set(writers[1].statuses) == {200},
              f"every write through B was acknowledged ({writers[1].statuses})")
        stored = journal(b, token)
        acknowledged = {**writers[0].acknowledged, **writers[1].acknowledged}
        lost = [day for day, text in acknowledged.items() if stored.get(day) != text]
        check(stored is not None and not lost,
              f"no acknowledged write lost: {len(acknowledged)} days written ({len(lost)} lost)")

        # PostgreSQL stopped and started under load.
        a = Instance(database, "A again")
        instances = [a, b]
        writers = [Writer(a, token, "again A", 0), Writer(b, token, "again B", 1)]
        for writer in writers:
            writer.start()
        time.sleep(2)
        pg_ctl(CLUSTER, "-m", "fast", "-w", "stop")
        time.sleep(4)
        unhealthy = [call(i.base, "GET", "/healthz", timeout=30)[0] for i in instances]
        pg_ctl(CLUSTER, "-l", f"{CLUSTER}/server.log", "-w", "start")
        recovered = all(i.wait_healthy(60) for i in instances)
        time.sleep(2)
        for writer in writers:
            writer.running = False
            writer.join()
        check(unhealthy == [503, 503], f"/healthz said 503 on both while PostgreSQL was down ({unhealthy})")
        check(recovered, "both instances answered /healthz 200 again by themselves")
        seen = {}
        for writer in writers:
            for status, count in writer.statuses.items():
                seen[status] = seen.get(status, 0) + count
        check(set(seen) <= {200, 503} and seen.get(503, 0) > 0 and seen.get(200, 0) > 0,
              f"writes in between got 200 or 503, nothing else ({seen})")
        stored = journal(a, token)
        acknowledged = {}
        for writer in writers:
            acknowledged.update(writer.acknowledged)
        lost = [day for day, text in acknowledged.items() if stored.get(day) != text]
        check(stored is not None and not lost, f"no acknowledged write lost across the restart ({len(lost)} lost)")
    finally:
        if failures or sys.exc_info()[0]:
            for instance in instances:
                instance.report()
        for instance in instances:
            instance.stop()
        LOGS.cleanup()
        subprocess.run(["psql", BASE_URL, "-qc", f"DROP DATABASE IF EXISTS {name}"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"{len(passes)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
