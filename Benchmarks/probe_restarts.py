#!/usr/bin/env python3
"""Two `tally serve` instances on one PostgreSQL database, with writes through both, while
PostgreSQL is stopped (`pg_ctl -m fast`) and started again, round after round. After each round,
both instances must still be running, and each must take a write again within 10 s. The probe
stops at the first round that fails, and prints the exit status of an instance that ended (a
negative number is the signal) and the end of its standard error, which names a Swift trap;
for an instance that stays running but takes no write, what its attempts were answered, the end
of its log (warnings included) and what each of the database's sessions was doing.

Found 2026-12-02 (docs/server.md, "When PostgreSQL restarts"): postgres-nio 1.33.2's pool traps
in `createNewDemandConnectionIfPossible` (`precondition(minimumConcurrentConnections <=
stats.active)`) after an outage, when it keeps more than one connection open. Two runs of this
probe on a debug build on that pool ended an instance at round 9 and at round 14 of 40. Tally
has kept its own connections since (`KeptConnections`, docs/storage.md "Connections"); .ci/run
runs this probe. On 2026-12-06 it found instances that stayed up but took no write: an
announcement sent on a connection the restart had closed was never answered, and every later
write waited behind it (docs/server.md, "A write blackout after a restart").

Needs the throwaway cluster of .ci/postgres-start, whose data directory it restarts:
  eval "$(.ci/postgres-start)"; python3 Benchmarks/probe_restarts.py --tally .build/debug/tally
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import create_database, drop_database  # noqa: E402
from probe_support import call, crash_lines, pg_ctl, set_up_owner  # noqa: E402


class Instance:
    """`tally serve` on `database`, its standard error in `folder`."""

    def __init__(self, tally, database, port, folder):
        self.base, self.log = f"http://127.0.0.1:{port}", os.path.join(folder, f"instance-{port}.log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([tally, "serve", "--database", database, "--port", str(port),
                                             "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=log)
        for _ in range(600):
            if self.answers():
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.base} did not answer /healthz within 60 s")

    def answers(self):
        try:
            return call(self.base, "/healthz")[0] == 200
        except OSError:
            return False

    def ending(self):
        """From a crash's message on (Swift prints it, then the crashed thread's frames), or else
        the last lines."""
        with open(self.log) as log:
            lines = log.readlines()
        return "".join(crash_lines(lines) or lines[-30:])


def mark(instance, habit, bearer, day, status):
    """Marks `day` of `habit` through `instance`: the answer's status."""
    return call(instance.base, f"/api/v1/habits/{habit}/entries/{day}", "PUT", {"status": status},
                {**bearer, "Origin": instance.base})[0]


def writes_again(instance, habit, bearer, seconds):
    """Whether a write through `instance` is answered 200 within `seconds`, and how each attempt
    was answered (a status, or the error of a call that got none) and how often."""
    deadline, answers = time.monotonic() + seconds, collections.Counter()
    while time.monotonic() < deadline:
        try:
            status = mark(instance, habit, bearer, "2026-12-01", "done")
        except OSError as error:
            status = type(error).__name__
        if status == 200:
            return True, answers
        answers[status] += 1
        time.sleep(0.1)
    return False, answers


def sessions(server, database):
    """What each session on `database` is doing, for a write that did not come through."""
    query = ("SELECT pid, state, wait_event_type, wait_event, now() - xact_start, left(query, 80) "
             f"FROM pg_stat_activity WHERE datname = '{database}' ORDER BY xact_start")
    found = subprocess.run(["psql", server, "-Atc", query], capture_output=True, text=True)
    return found.stdout or found.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tally", default=".build/debug/tally")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--port", type=int, default=18500)
    options = parser.parse_args()
    server, cluster = os.environ.get("TALLY_TEST_POSTGRES_URL"), os.environ.get("TALLY_TEST_POSTGRES_DIR")
    if not server or not cluster:
        sys.exit("start the throwaway cluster first: eval \"$(.ci/postgres-start)\"")
    folder = tempfile.mkdtemp(prefix="tally-restarts-")
    name, database = create_database(server, "tally_restarts_")
    instances, writing = [], True
    try:
        instances = [Instance(options.tally, database + "?sslmode=disable", options.port + n, folder) for n in range(2)]
        _, bearer = set_up_owner(instances[0].base)
        _, body = call(instances[0].base, "/api/v1/habits", "POST", {"name": "Read", "createdDay": "2026-01-01"},
                            {**bearer, "Origin": instances[0].base})
        habit = json.loads(body)["id"]

        def write(instance, lane):
            n = lane
            while writing:
                try:
                    mark(instance, habit, bearer, f"2026-{n % 11 + 1:02d}-{n % 28 + 1:02d}", "done" if n % 2 else "skipped")
                except OSError:
                    time.sleep(0.05)
                n += 2

        writers = [threading.Thread(target=write, args=(instance, lane), daemon=True)
                   for lane, instance in enumerate(instances * 2)]
        for writer in writers:
            writer.start()
        for round_number in range(1, options.rounds + 1):
            pg_ctl(cluster, "-m", "fast", "-w", "stop")
            time.sleep(0.5 + round_number % 5 * 0.7)
            pg_ctl(cluster, "-l", f"{cluster}/server.log", "-w", "start")
            time.sleep(1 + round_number % 3 * 0.8)
            ended = [instance for instance in instances if instance.process.poll() is not None]
            if ended:
                for instance in ended:
                    print(f"round {round_number}: the instance on {instance.base} ended with status "
                          f"{instance.process.returncode}; the end of its standard error:\n{instance.ending()}")
                return 1
            for instance in instances:
                wrote, answers = writes_again(instance, habit, bearer, seconds=10)
                if not wrote:
                    print(f"round {round_number}: the instance on {instance.base} took no write within 10 s "
                          f"of PostgreSQL's start (answers: {dict(answers)}); the end of its standard error:\n"
                          f"{instance.ending()}\nthe sessions on {name}:\n{sessions(server, name)}")
                    return 1
        print(f"{options.rounds} restarts of PostgreSQL under writes: both instances still running, and each took a write after every start")
        return 0
    finally:
        writing = False
        for instance in instances:
            if instance.process.poll() is None:
                instance.process.terminate()
                instance.process.wait(20)
        drop_database(server, name)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
