#!/usr/bin/env python3
"""Builds of `tally serve` compared side by side on PostgreSQL: the habit list, marking a day as
16 users and as one user, through one or more instances, the builds (and the counts of
instances) alternated round after round on one seeded database, so that what else the machine
runs falls on each alike.

Prints, per build, count and round: requests a second, the CPU each cost the Tally servers and
PostgreSQL's processes, and PostgreSQL's transactions committed per request (`xact_commit`,
which counts read-only statements and each listener's wake-up too). A figure that moves with
the build beyond its spread across rounds is the build's; a single run on shared cores is not.

`--instance-cpu 0.5` gives each instance half a core of CPU time of its own (a CFS quota in a
cgroup of its own: cgroup v1's cpu controller, as root), as when each instance has its own
machine or cores; without it they share every core with PostgreSQL and wrk.

Needs a PostgreSQL server whose user may create databases: eval "$(.ci/postgres-start)", then
  python3 Benchmarks/postgres_ab.py --postgres "$TALLY_TEST_POSTGRES_URL" BEFORE AFTER [--instances 1 2]
"""
import contextlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_support import postgres_options, postgres_parser  # noqa: E402
from postgres_load import WRITE_SCRIPT, add_by_user, load, routed, seeded, serving, users_script  # noqa: E402


def commits(url):
    """Transactions committed in `url`'s database so far."""
    return int(subprocess.run(["psql", url, "-tAc", "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"],
                              capture_output=True, text=True, check=True).stdout)


CPU_CGROUPS = "/sys/fs/cgroup/cpu"


@contextlib.contextmanager
def cpu_limited(pids, cores):
    """Each process of `pids` (all its threads) limited to `cores` of CPU time, in a cgroup of
    its own under CPU_CGROUPS; the processes moved back and the cgroups removed on the way out.
    Nothing when `cores` is None."""
    if cores is None:
        yield
        return
    if not os.access(os.path.join(CPU_CGROUPS, "cgroup.procs"), os.W_OK):
        sys.exit(f"--instance-cpu needs cgroup v1's cpu controller at {CPU_CGROUPS}, writable (root)")
    made = []

    def write(group, name, value):
        with open(os.path.join(group, name), "w") as file:
            file.write(value)
    try:
        for pid in pids:
            group = os.path.join(CPU_CGROUPS, f"tally-bench-{pid}")
            os.mkdir(group)
            made.append(group)
            write(group, "cpu.cfs_period_us", "100000")
            write(group, "cpu.cfs_quota_us", str(int(cores * 100000)))
            write(group, "cgroup.procs", str(pid))
        yield
    finally:
        for group in made:
            with open(os.path.join(group, "cgroup.procs")) as file:
                for pid in file.read().split():
                    write(CPU_CGROUPS, "cgroup.procs", pid)
            os.rmdir(group)


def main():
    parser = postgres_parser(18300, tally=False)
    parser.add_argument("builds", nargs="+", help="tally binaries to compare")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--instances", type=int, nargs="+", default=[2],
                        help="how many instances; several counts are alternated like the builds")
    parser.add_argument("--instance-cpu", type=float, help="cores of CPU time each instance may use")
    add_by_user(parser)
    options = postgres_options(parser)
    if options.instance_cpu is not None and options.instance_cpu < 0.01:
        parser.error("--instance-cpu must be at least 0.01 cores")
    limit = f", each instance limited to {options.instance_cpu} cores" if options.instance_cpu else ""
    with seeded(options.builds[0], options.postgres, "tally_ab_") as (db, _, target):
        subprocess.run([options.builds[0], "--db", db, "copy-to-postgres", target], check=True, stdout=subprocess.DEVNULL)
        print(f"{options.connections} connections in all, {options.seconds} s each{limit}")
        for _ in range(options.rounds):
            for build, count in ((build, count) for build in options.builds for count in options.instances):
                instances = [["--database", target]] * count
                with (serving(build, options.port, instances) as (bases, processes, token, habit),
                      cpu_limited([process.pid for process in processes], options.instance_cpu)):
                    figures = []
                    own, shares = routed(bases, options.by_user)
                    for kind, path, sent_to, who, script in (
                            ("list", "/api/v1/habits?include=statistics,entries", own, token, None),
                            ("16 users mark", "/", bases, None, users_script(bases[0], shares)),
                            ("one user marks", f"/api/v1/habits/{habit}/entries/2026-11-21", own, token, WRITE_SCRIPT)):
                        before = commits(target)
                        rate, _, p99, _, tally_ms, postgres_ms, flushes = load(
                            sent_to, path, options.seconds, options.connections, who, processes, script)
                        per_request = (commits(target) - before) / max(1.0, rate * options.seconds)
                        figures.append(f"{kind} {rate:5.0f}/s, CPU {tally_ms:.2f} / {postgres_ms:.2f} ms, "
                                       f"{per_request:.2f} commits each, p99 {p99:5.1f} ms (disk flush p99 {flushes.p99:.1f} ms)")
                    print(f"  {build}, {count} instance(s):\n    " + "\n    ".join(figures), flush=True)


if __name__ == "__main__":
    main()
