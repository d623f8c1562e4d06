"""The release tarball on a Debian with no Swift (.ci/deploy/release-check).

The tarball is unpacked into an empty folder that becomes /opt inside a minimal Debian root
(.ci/deploy/debian-root), entered with chroot in a private mount namespace where the root itself is
read-only, the server runs as nobody with its database in a fresh folder at /srv, and the
working directory is /tmp.
`tally` is reached through a symlink on PATH, as deploy/INSTALL says to install it.

Usage: release_check.py TARBALL DEBIAN_ROOT WORK   (WORK: an empty folder the caller removes)
"""
import os
import re
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import release_smoke as smoke
from http_support import check, failures, free_port

TARBALL, ROOT, WORK = (Path(a).resolve() for a in sys.argv[1:4])
PATH = "/opt/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Runs "$@" in the root: nothing it does reaches the root's files or the host's mounts.
ENTER = r'''
root=$1 work=$2; shift 2
mount --bind "$root" "$root"
mount -o remount,bind,ro "$root"
mount --bind "$work/opt" "$root/opt"
mount --bind "$work/data" "$root/srv"
mount -t tmpfs -o size=64m tmpfs "$root/tmp"
mount -t proc proc "$root/proc"
exec chroot "$root" /bin/sh -c 'cd /tmp && exec "$@"' sh "$@"
'''


def in_root(*command, env=None):
    """The argument list that runs `command` inside the root with a clean environment."""
    variables = [f"{k}={v}" for k, v in {"PATH": PATH, "HOME": "/tmp", "LANG": "C.UTF-8", **(env or {})}.items()]
    return ["unshare", "--mount", "--propagation", "private", "sh", "-euc", ENTER, "sh", str(ROOT), str(WORK),
            "/usr/bin/env", "-i", *variables, *command]


def run(*command, env=None):
    return subprocess.run(in_root(*command, env=env), capture_output=True, text=True, timeout=60)


def mb(size):
    return f"{size / 1e6:.1f} MB"


def unpack():
    """The release's folder name, after checking the tarball holds one folder with the five parts."""
    with tarfile.open(TARBALL) as archive:
        names = archive.getnames()
        tops = {name.split("/")[0] for name in names}
        check(len(tops) == 1, f"the tarball holds one top folder ({sorted(tops)})")
        top = sorted(tops)[0]
        parts = {"tally", "Tally_TallyAPI.resources", "Tally_TallyWeb.resources", "LICENSE", "INSTALL"}
        present = {name.split("/")[1] for name in names if name.count("/") >= 1 and name.split("/")[1]}
        check(parts <= present, f"{top}/ holds {', '.join(sorted(parts))} ({', '.join(sorted(present))})")
        archive.extractall(WORK / "opt")
    (WORK / "opt" / "bin").mkdir()
    (WORK / "opt" / "bin" / "tally").symlink_to(f"../{top}/tally")
    return top


def libraries(top):
    """ldd on the host, where the toolchain is, and in the root, where it is not."""
    binary = WORK / "opt" / top / "tally"
    swiftc = subprocess.run(["sh", "-c", "command -v swiftc"], capture_output=True, text=True).stdout.strip()
    toolchain = str(Path(swiftc).resolve().parent.parent) if swiftc else "/opt/swift"
    host = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout
    from_toolchain = [line.strip() for line in host.splitlines() if toolchain in line or "swift" in line.lower()]
    check(not from_toolchain, f"ldd on the host: nothing from the toolchain at {toolchain} ({from_toolchain})")
    inside = run("ldd", f"/opt/{top}/tally")
    lines = [re.sub(r" \(0x[0-9a-f]+\)$", "", line.strip()) for line in inside.stdout.splitlines()]
    print("ldd in the Debian root:\n  " + "\n  ".join(lines))
    missing = [line for line in lines if "not found" in line]
    check(inside.returncode == 0 and not missing, f"ldd in the root finds every library ({missing})")
    check(not [line for line in lines if "swift" in line.lower()], "no library in the root is Swift's")
    paths = [m.group(1) for line in lines if (m := re.search(r"(/\S+)", line))]
    packages = run("sh", "-c", 'for p; do dpkg -S "$p" 2>/dev/null || dpkg -S "$(readlink -f "$p")" 2>/dev/null '
                   '|| dpkg -S "/usr$p" 2>/dev/null || echo "?: $p"; done', "sh", *paths).stdout
    owners = sorted({line.split(":")[0] for line in packages.splitlines()})
    print("their Debian packages: " + ", ".join(owners))
    check("?" not in owners, "every library comes from a Debian package")


def no_swift(top):
    found = run("sh", "-c", "command -v swift || command -v swiftc || ls -d /opt/swift /usr/share/swift 2>/dev/null")
    check(found.returncode != 0 and not found.stdout.strip(), f"no swift or swiftc on PATH in the root ({found.stdout.strip()})")
    stray = []
    for base in (ROOT, WORK / "opt"):
        for folder, dirs, files in os.walk(base):
            if Path(folder) == ROOT / "proc":
                dirs.clear()
                continue
            stray += [f"{folder}/{f}" for f in files if f in ("swift", "swiftc") or f.startswith("libswift")]
    check(not stray, f"no Swift program or library anywhere in the root or the release ({stray[:3]})")


def version(top):
    result = run("tally", "--version")
    lines = result.stdout.splitlines()
    print("tally --version:\n  " + "\n  ".join(lines))
    check(result.returncode == 0 and len(lines) >= 3 and lines[0] == f"tally {top.removeprefix('tally-')}"
          and re.fullmatch(r"commit [0-9a-f]{7,}(-dirty)?", lines[1]) is not None and lines[2].startswith("schema "),
          "tally --version prints the tarball's version, its commit and the schema versions")


def serve(top):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"TALLY_DB": "/srv/tally.sqlite", "TALLY_HOST": "127.0.0.1", "TALLY_PORT": str(port)}
    # As nobody, owner of nothing but the data folder, as a service user would run it.
    os.chown(WORK / "data", 65534, 65534)
    nobody = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
    log = open(WORK / "server.log", "w")
    server = subprocess.Popen(in_root(*nobody, "tally", "serve", env=env), stdout=log, stderr=subprocess.STDOUT)
    try:
        up = smoke.wait_healthy(base, 60)
        check(up is not None, f"tally serve answers /healthz in the root ({up or 0:.2f} s after start)")
        if up is None:
            return
        smoke.first_visit(base, WORK / "opt" / top / "Tally_TallyWeb.resources" / "Resources" / "web")
        token = smoke.owner_token(base)
        habit = token and smoke.mark_a_day(base, token)
        check(habit is not None and smoke.marked_days(base, token, habit) == ["2026-11-20"],
              "the marked day reads back")
        check((WORK / "data" / "tally.sqlite").exists(), "the database is in the fresh folder, written as nobody")
        healthy = run("tally", "healthcheck", env={"TALLY_PORT": str(port), "TALLY_HOST": "0.0.0.0"})
        check(healthy.returncode == 0, f"tally healthcheck exits 0 against it ({healthy.returncode}) {healthy.stderr.strip()}")

        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        took = time.monotonic() - started
        check(code == 0, f"SIGTERM stops it, exit status 0, in {took:.2f} s (at most 10)")
        down = run("tally", "healthcheck", env={"TALLY_PORT": str(port)})
        check(down.returncode != 0 and down.stderr.strip() != "",
              f"tally healthcheck exits non-zero once it is stopped ({down.returncode}: {down.stderr.strip()})")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        log.close()
        if failures:
            print("== server log (last 30 lines)")
            print("".join(open(WORK / "server.log").readlines()[-30:]), end="")


def main():
    for folder in ("opt", "data"):
        (WORK / folder).mkdir(parents=True)
    top = unpack()
    libraries(top)
    no_swift(top)
    version(top)
    serve(top)
    binary = (WORK / "opt" / top / "tally").stat().st_size
    print(f"tarball {TARBALL.name}: {mb(TARBALL.stat().st_size)}; binary: {mb(binary)}")
    print(f"{len(failures)} failed" if failures else "release check passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
