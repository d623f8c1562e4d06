#!/usr/bin/env python3
"""The engine's figures (`tally-benchmarks` with no argument) before and after a change, in one
session: TallyCore and its reference at BEFORE and at AFTER (commits; AFTER defaults to the
work tree) are each built in release into a small package of their own holding this tree's
engine benchmark sources, and the two are run in turn, ROUNDS times, so that what else the
machine runs falls on both alike. Only TallyCore is compiled, so both builds take about a
minute where the whole benchmark package takes half an hour.

Prints each figure's best run at BEFORE and AFTER and their ratio (after ÷ before; below 1
is faster).

  python3 Benchmarks/engine_ab.py BEFORE [AFTER] [--rounds 3]
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SOURCES = ["EngineBenchmark.swift", "MeasurableBenchmark.swift", "SyntheticHistory.swift", "Timing.swift"]
PACKAGE = """// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "EngineAB",
  platforms: [.macOS(.v14)],
  dependencies: [.package(name: "Tally", path: "{tally}")],
  targets: [.executableTarget(name: "engine-ab", dependencies: [
    .product(name: "TallyCore", package: "Tally"), .product(name: "TallyCoreReference", package: "Tally")])])
"""
FIGURE = re.compile(r"^(?P<label>.+?)\s+(?:engine|habits:)\s+(?P<value>[\d.]+) (?P<unit>µs|ms)")


def package_for(tally, folder):
    """A package at `folder` running this tree's engine benchmark against the Tally at `tally`."""
    sources = os.path.join(folder, "Sources", "engine-ab")
    os.makedirs(sources)
    for name in SOURCES:
        shutil.copy(os.path.join(HERE, "Sources", "TallyBenchmarks", name), sources)
    with open(os.path.join(sources, "main.swift"), "w") as main:
        main.write("engineBenchmark()\n")
    with open(os.path.join(folder, "Package.swift"), "w") as manifest:
        manifest.write(PACKAGE.format(tally=tally))
    build = subprocess.run(["swift", "build", "-c", "release", "--package-path", folder], capture_output=True, text=True)
    if build.returncode != 0:
        raise SystemExit(f"the build at {tally} failed:\n{build.stdout[-3000:]}{build.stderr[-3000:]}")
    return os.path.join(folder, ".build", "release", "engine-ab")


def figures(binary):
    found = {}
    for line in subprocess.run([binary], check=True, capture_output=True, text=True).stdout.splitlines():
        match = FIGURE.match(line)
        if match and "total:" not in line:
            found[match["label"].strip()] = (float(match["value"]), match["unit"])
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after", nargs="?")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="engine-ab-")
    trees = []
    try:
        binaries = {}
        for name, commit in [("before", options.before), ("after", options.after)]:
            tree = ROOT
            if commit:
                tree = os.path.join(work, f"tree-{name}")
                subprocess.run(["git", "-C", ROOT, "worktree", "add", "-q", "--detach", tree, commit], check=True)
                trees.append(tree)
            print(f"building {name} ({commit or 'work tree'}) in release …", flush=True)
            binaries[name] = package_for(tree, os.path.join(work, f"package-{name}"))
        runs = collections.defaultdict(lambda: collections.defaultdict(list))
        for round_number in range(options.rounds):
            for name, binary in binaries.items():
                for label, figure in figures(binary).items():
                    runs[label][name].append(figure)
            print(f"round {round_number + 1} of {options.rounds} done", flush=True)
        print(f"\n{'figure':40} {'before':>12} {'after':>12}  after ÷ before")
        for label, by_build in runs.items():
            before, unit = min(by_build["before"])
            after, _ = min(by_build["after"])
            print(f"{label:40} {before:9.2f} {unit} {after:9.2f} {unit}  {after / before:.2f}")
    finally:
        for tree in trees:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", tree], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
