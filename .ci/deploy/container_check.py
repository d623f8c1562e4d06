"""The container's runtime stage, built and run with podman (.ci/deploy/container-check).

The base image is the Debian root .ci/deploy/debian-root made, imported; deploy/Containerfile's
runtime stage is built on it from the prebuilt tarball with no network, so the build proves the
base needs nothing more (and, on a base lacking a package, that the same step installs it). Then: healthy within 5 s, the server runs as a user other than root,
the API works through a published port, a SIGTERM stop with writes in flight takes under 10 s
and loses no acknowledged write, and a new container with a read-only root filesystem on the
same named volume has every write.

Usage: container_check.py TARBALL DEBIAN_ROOT WORK   (WORK: podman's storage and the build
context go here; the caller removes it after removing what podman made)
"""
import json
import re
import shutil
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import release_smoke as smoke
from http_support import check, failures, free_port

TARBALL, ROOT, WORK = (Path(a).resolve() for a in sys.argv[1:4])
# runc and cgroupfs: this machine has no crun and no systemd. podman's default open-file and
# process limits are above what this sandbox may set, so runs name their own.
PODMAN = ["podman", "--root", f"{WORK}/storage", "--runroot", f"{WORK}/run", "--runtime", "runc",
          "--cgroup-manager=cgroupfs"]
LIMITS = ["--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"]
TAG = uuid.uuid4().hex[:8]
BASE, IMAGE, VOLUME = f"localhost/tally-ci-base:{TAG}", f"localhost/tally-ci:{TAG}", f"tally-ci-data-{TAG}"


def podman(*args, timeout=600, **kwargs):
    return subprocess.run(PODMAN + list(args), capture_output=True, text=True, timeout=timeout, **kwargs)


def packages_match():
    """The Containerfile installs what deploy/INSTALL names, which .ci/deploy/debian-root installed."""
    install = re.search(r"apt-get install (.+)", Path("deploy/INSTALL").read_text()).group(1).split()
    container = re.search(r"for package in (.+?); do", Path("deploy/Containerfile").read_text()).group(1).split()
    check(sorted(install) == sorted(container),
          f"deploy/Containerfile installs the packages deploy/INSTALL names ({' '.join(sorted(container))})")


def build():
    started = time.monotonic()
    tar = subprocess.Popen(["tar", "-C", str(ROOT), "-c", "."], stdout=subprocess.PIPE)
    imported = subprocess.run(PODMAN + ["import", "-", BASE], stdin=tar.stdout, capture_output=True, text=True)
    tar.wait()
    if not check(imported.returncode == 0, f"the Debian root is imported as {BASE} ({time.monotonic() - started:.1f} s)"):
        print(imported.stderr)
        return False
    context = WORK / "context"
    (context / "dist").mkdir(parents=True)
    shutil.copyfile(TARBALL, context / "dist" / TARBALL.name)
    started = time.monotonic()
    # --network none: the runtime stage must need nothing the base lacks.
    built = podman("build", "--network", "none", "--format", "docker", "-f", str(Path("deploy/Containerfile").resolve()),
                   "--build-arg", f"BASE_IMAGE={BASE}", "--build-arg", "RELEASE=prebuilt", "-t", IMAGE, str(context))
    took = time.monotonic() - started
    if not check(built.returncode == 0, f"the runtime stage builds from the tarball with no network ({took:.1f} s)"):
        print(built.stdout[-3000:], built.stderr[-3000:])
        return False
    check("library/swift" not in built.stdout + built.stderr, "the build stage (on the Swift image) was skipped")
    config = json.loads(podman("image", "inspect", IMAGE).stdout)[0]
    settings = config["Config"]
    health = config.get("Healthcheck") or {}
    print(f"image: user {settings.get('User')}, volumes {list(settings.get('Volumes', {}))}, "
          f"ports {list(settings.get('ExposedPorts', {}))}, stop signal {settings.get('StopSignal')}, "
          f"healthcheck {health.get('Test')}, {config['Size'] / 1e6:.0f} MB on this base")
    check(settings.get("User", "0").split(":")[0] not in ("", "0", "root"), "the image's user is not root")
    check(health.get("Test") == ["CMD", "tally", "healthcheck"], "the HEALTHCHECK runs `tally healthcheck` (kept by --format docker)")
    check("/data" in settings.get("Volumes", {}) and "8080/tcp" in settings.get("ExposedPorts", {})
          and "TALLY_DB=/data/tally.sqlite" in settings.get("Env", []) and settings.get("StopSignal") == "SIGTERM",
          "/data is a volume, 8080 exposed, TALLY_DB=/data/tally.sqlite, STOPSIGNAL SIGTERM")
    return True


def installs_what_is_missing():
    """The step that found every package on the full base asks apt for what a base lacks: on
    one without tzdata it tries to install tzdata (and, with no network here, cannot)."""
    lacking = WORK / "Containerfile.lacking"
    lacking.write_text(f"FROM {BASE}\nRUN dpkg --purge --force-depends tzdata > /dev/null\n")
    podman("build", "--network", "none", "-f", str(lacking), "-t", f"{BASE}-lacking", str(WORK / "context"))
    built = podman("build", "--network", "none", "--format", "docker", "-f", str(Path("deploy/Containerfile").resolve()),
                   "--build-arg", f"BASE_IMAGE={BASE}-lacking", "--build-arg", "RELEASE=prebuilt", "-t", f"{IMAGE}-lacking",
                   str(WORK / "context"))
    asked = re.findall(r"Unable to locate package (\S+)", built.stdout + built.stderr)
    check(built.returncode != 0 and asked == ["tzdata"],
          f"on a base without tzdata the build asks apt for tzdata alone ({', '.join(asked) or 'nothing'})")


def start(name, port, *options):
    """Runs a container on the volume with 8080 published on loopback; seconds until
    `podman healthcheck run` first said healthy, or None."""
    started = time.monotonic()
    run = podman("run", "-d", "--name", name, *LIMITS, "-v", f"{VOLUME}:/data", "-p", f"127.0.0.1:{port}:8080",
                 *options, IMAGE)
    if not check(run.returncode == 0, f"podman run {' '.join(options) + ' ' if options else ''}starts {name}"):
        print(run.stderr)
        return None
    while time.monotonic() - started < 20:
        if podman("healthcheck", "run", name).returncode == 0:
            return time.monotonic() - started
        time.sleep(0.2)
    print(podman("logs", name).stdout[-2000:])
    return None


def stop(name):
    """`podman stop -t 10`: seconds it took, seconds until the server had exited, and its exit status."""
    asked, started = datetime.now(timezone.utc), time.monotonic()
    podman("stop", "-t", "10", name)
    took = time.monotonic() - started
    state = json.loads(podman("inspect", name).stdout)[0]["State"]
    finished = datetime.fromisoformat(re.sub(r"(\.\d{6})\d*", r"\1", state["FinishedAt"]).replace("Z", "+00:00"))
    return took, (finished - asked).total_seconds(), str(state["ExitCode"])


def main():
    packages_match()
    if not build():
        sys.exit(1)
    installs_what_is_missing()
    created = podman("volume", "create", VOLUME)
    check(created.returncode == 0, f"named volume {VOLUME} is created")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = f"tally-ci-{TAG}-1"
    up = start(first, port)
    check(up is not None and up <= 5, f"healthy within 5 s: `podman healthcheck run` passed {up or 0:.2f} s after `podman run`")
    if up is None:
        sys.exit(1)
    uid = podman("exec", first, "id", "-u").stdout.strip()
    status = podman("exec", first, "cat", "/proc/1/status").stdout
    server_uid = re.search(r"^Uid:\s+(\d+)", status, re.M)
    check(uid not in ("", "0") and server_uid and server_uid.group(1) == uid,
          f"the server (PID 1) runs as uid {server_uid and server_uid.group(1)}, not root")
    version = podman("exec", first, "tally", "--version").stdout.splitlines()
    check(bool(version) and version[0].startswith("tally "), f"tally --version in the container: {' / '.join(version)}")
    check(smoke.wait_healthy(base, 10) is not None, f"the published port 127.0.0.1:{port} reaches the server")
    smoke.first_visit(base)
    token = smoke.owner_token(base)
    habit = token and smoke.mark_a_day(base, token)
    if not habit:
        sys.exit(1)

    writers = [smoke.Writer(base, token, lane, 4) for lane in range(4)]
    for writer in writers:
        writer.start()
    while sum(len(w.acknowledged) for w in writers) < 40 and all(w.is_alive() for w in writers):
        time.sleep(0.05)
    took, exited, code = stop(first)
    for writer in writers:
        writer.join(timeout=30)
    statuses = {}
    for writer in writers:
        for key, count in writer.statuses.items():
            statuses[key] = statuses.get(key, 0) + count
    check(took < 10 and code == "0",
          f"podman stop (SIGTERM) with writes in flight: took {took:.2f} s (the server exited after {exited:.2f} s), exit status {code}")
    logs = podman("logs", first)
    print("last lines of its log:\n  " + "\n  ".join((logs.stdout + logs.stderr).strip().splitlines()[-3:]))
    podman("rm", first)

    second = f"tally-ci-{TAG}-2"
    up = start(second, port, "--read-only", "--read-only-tmpfs=false")
    check(up is not None and up <= 5, f"a new container with --read-only on the same volume is healthy in {up or 0:.2f} s")
    if up is None:
        sys.exit(1)
    acknowledged, lost = smoke.lost_writes(writers, smoke.journal(base, token))
    check(acknowledged and not lost,
          f"no acknowledged write lost: {len(acknowledged)} acknowledged, {len(lost)} missing (statuses {statuses})")
    check(smoke.marked_days(base, token, habit) == ["2026-11-20"], "the habit and its marked day are kept on the volume")
    status, _ = smoke.call(base, "PUT", "/api/v1/journal/2026-11-21", {"text": "read-only root"}, token)
    check(status == 200, f"it takes writes with a read-only root filesystem ({status})")
    probe = podman("exec", second, "touch", "/opt/tally/probe")
    check(probe.returncode != 0 and "Read-only file system" in probe.stderr, "the root filesystem is read-only")
    took, exited, code = stop(second)
    check(took < 10 and code == "0",
          f"the read-only container stops on SIGTERM: {took:.2f} s (the server exited after {exited:.2f} s), exit status {code}")
    print(f"{len(failures)} failed" if failures else "container check passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
