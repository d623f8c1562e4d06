"""The compose examples and Caddyfiles under deploy/, checked without a compose engine
(.ci/deploy/compose-check): every file parses; every TALLY_* variable a compose file or the
Containerfile sets is one `tally serve --help` documents; every service, volume, network and
mounted file a service names exists; each Caddyfile adapts (`caddy adapt`) and proxies only to
Tally services on a network it shares with them, on the port Tally listens on; and each
TALLY_TRUSTED_PROXIES is exactly the range of the network Tally shares with Caddy.

Usage: compose_check.py TALLY   (any build of tally: only its --help is read)
"""
import ipaddress
import re
import subprocess
import sys
from pathlib import Path

import yaml

from http_support import check, failures

TALLY = sys.argv[1]
DEPLOY = Path("deploy")
SAMPLE = {"DOMAIN": "tally.example.org", "POSTGRES_PASSWORD": "sample"}


def documented():
    text = subprocess.run([TALLY, "serve", "--help"], capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"\$(TALLY_[A-Z0-9_]+)", text))


def as_dict(value):
    """compose allows lists ("KEY=value", "name") or maps in most places."""
    if isinstance(value, dict):
        return value
    return dict(item.split("=", 1) if "=" in item else (item, None) for item in value or [])


def caddy_upstreams(caddyfile):
    """The hosts and ports a Caddyfile proxies to, or None when `caddy adapt` refuses it."""
    adapted = subprocess.run(["caddy", "adapt", "--config", str(caddyfile), "--adapter", "caddyfile"],
                             capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", **SAMPLE})
    if not check(adapted.returncode == 0, f"caddy adapt accepts {caddyfile}"):
        print(adapted.stderr.strip()[-500:])
        return None
    return re.findall(r'"dial":\s*"([^"]+)"', adapted.stdout)


def check_compose(path, known, mounted_caddyfiles):
    try:
        compose = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        check(False, f"{path} parses ({error})")
        return
    services = compose.get("services") or {}
    volumes, networks = compose.get("volumes") or {}, compose.get("networks") or {}
    check(bool(services), f"{path} parses, services: {', '.join(services)}")
    for name, service in services.items():
        env = as_dict(service.get("environment"))
        unknown = sorted(k for k in env if k.startswith("TALLY_") and k not in known)
        check(not unknown, f"{path.name} {name}: every TALLY_ variable is documented by tally serve --help {unknown or ''}")
        for entry in service.get("volumes") or []:
            source = entry["source"] if isinstance(entry, dict) else entry.split(":")[0]
            if source.startswith((".", "/")):
                file = (path.parent / source).resolve()
                check(file.exists(), f"{path.name} {name}: mounted {source} exists")
                if file.name.startswith("Caddyfile"):
                    mounted_caddyfiles[file] = (path, name)
            else:
                check(source in volumes, f"{path.name} {name}: volume {source} is declared")
        for other in as_dict(service.get("depends_on")):
            check(other in services, f"{path.name} {name}: depends on {other}, a service")
        for network in as_dict(service.get("networks")):
            check(network in networks, f"{path.name} {name}: network {network} is declared")
        if "build" in service:
            context = path.parent / service["build"]["context"]
            check((context / service["build"]["dockerfile"]).exists(), f"{path.name} {name}: builds {service['build']['dockerfile']}")


def service_networks(service):
    return set(as_dict(service.get("networks"))) or {"default"}


def check_proxying(path, caddy_name, caddyfile):
    """The Caddyfile's upstreams are this file's Tally services, on a network shared with Caddy,
    and those services trust exactly that network's range."""
    compose = yaml.safe_load(path.read_text())
    services = compose["services"]
    upstreams = caddy_upstreams(caddyfile)
    if upstreams is None:
        return
    check(bool(upstreams), f"{caddyfile.name} proxies to {', '.join(upstreams)}")
    for upstream in upstreams:
        host, _, port = upstream.rpartition(":")
        service = services.get(host)
        if not check(service is not None and port == "8080", f"{path.name}: upstream {upstream} is a service on Tally's port 8080"):
            continue
        shared = service_networks(service) & service_networks(services[caddy_name])
        check(bool(shared), f"{path.name}: {host} and {caddy_name} share a network ({', '.join(shared)})")
        ranges = [c["subnet"] for n in shared for c in (((compose.get("networks") or {}).get(n) or {}).get("ipam") or {}).get("config", [])]
        trusted = as_dict(service.get("environment")).get("TALLY_TRUSTED_PROXIES", "")
        trusted = [ipaddress.ip_network(t.strip(), strict=False) for t in trusted.split(",") if t.strip()]
        check(bool(ranges) and trusted == [ipaddress.ip_network(r) for r in ranges],
              f"{path.name}: {host} trusts exactly the network it shares with Caddy ({', '.join(map(str, trusted))})")


def main():
    known = documented()
    print(f"tally serve --help documents {len(known)} variables")
    image = set(re.findall(r"\b(TALLY_[A-Z0-9_]+)=", (DEPLOY / "Containerfile").read_text()))
    check(image <= known, f"the Containerfile's TALLY_ variables are documented ({', '.join(sorted(image - known)) or 'all'})")
    mounted = {}
    files = sorted((DEPLOY / "compose").glob("*.yaml"))
    check(len(files) >= 3, f"{len(files)} compose files")
    for path in files:
        check_compose(path, known, mounted)
    for caddyfile, (path, service) in mounted.items():
        check_proxying(path, service, caddyfile)
    for caddyfile in sorted((DEPLOY / "caddy").glob("Caddyfile*")):
        check(caddyfile.resolve() in mounted, f"{caddyfile} is used by a compose file")
    print(f"{len(failures)} failed" if failures else "compose check passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
