"""deploy/caddy/Caddyfile.instances run for real (docs/deploy.md, "PostgreSQL and several
instances"): two `tally serve` on one new PostgreSQL database behind Debian's Caddy, with the
file as shipped except for the upstreams, which are compose's names there and loopback ports
here, and the site, plain HTTP on a loopback port.

1. A client's first answer sets Caddy's `lb` cookie naming one of the instances, and an answer
   to a client that sends it sets none.
2. A session made through instance 1 works through instance 2, and a change stream held
   through instance 1 (compressed, as Caddy's `encode` sends it) tells of a mark made through
   instance 2 within 2 s.
3. Instance 1 stopped: a client kept to it is answered by instance 2 at once, still signed in,
   and kept to instance 2 from then on.

Usage: instances_proxy.py TALLY POSTGRES_URL WORK_DIR (WORK_DIR is the caller's to remove)
"""
import hashlib
import hmac
import http.client
import json
import os
import socket
import subprocess
import sys
import time
import zlib
from pathlib import Path

from http_support import check, failures, fetch, free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Benchmarks"))
from load_support import create_database, drop_database  # noqa: E402

TALLY, SERVER_URL, WORK = os.path.abspath(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
CADDYFILE = Path(__file__).resolve().parents[2] / "deploy/caddy/Caddyfile.instances"
OWNER = {"name": "ada", "password": "correct horse battery"}


def start(name, command, ready, started, env=None):
    """Runs `command` (its output in WORK/name.log), adds it to `started` so that it is stopped
    whatever happens, and waits for `ready`."""
    log = WORK / f"{name}.log"
    process = subprocess.Popen(command, env=env, stdout=open(log, "a"), stderr=subprocess.STDOUT)
    started.append(process)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if ready():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{name} did not start:\n" + log.read_text()[-3000:])


def instance_cookie(port):
    """The `lb` cookie Caddy gives a client it keeps to the upstream on `port`: the HMAC-SHA256
    of the upstream's address, keyed with the policy's secret (none here)."""
    return hmac.new(b"", f"127.0.0.1:{port}".encode(), hashlib.sha256).hexdigest()


def cookies(pairs):
    return "; ".join(f"{name}={value}" for name, value in pairs.items())


class Proxy:
    def __init__(self, port):
        self.port, self.origin = port, f"http://127.0.0.1:{port}"

    def send(self, method, path, kept=None, token=None, body=None):
        """(status, parsed body, {cookie name: value} the answer set), as a client sending the
        cookies `kept`."""
        status, headers, text = fetch(self.origin, method, path, body, token, cookies(kept or {}), timeout=15)
        set_cookies = dict(header.split(";")[0].split("=", 1) for header in headers.get_all("Set-Cookie") or []) \
            if status else {}
        return status, json.loads(text) if text else None, set_cookies

    def stream_tells(self, kept, token, write):
        """Holds the change stream (gzip accepted) as a client sending the cookies `kept`, calls
        `write` once it is ready, and says whether it told of a change within 2 s, and how it
        came (its Content-Encoding)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/api/v1/sync/live", headers={
            "Authorization": f"Bearer {token}", "Accept": "text/event-stream", "Accept-Encoding": "gzip",
            "Cookie": cookies(kept)})
        response = connection.getresponse()
        encoding = response.headers.get("Content-Encoding") or "identity"
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS) if encoding == "gzip" else None
        heard, deadline = "", None
        try:
            while "event: changed" not in heard:
                if deadline is None and "event: ready" in heard:
                    write()
                    deadline = time.monotonic() + 2
                if deadline is not None:
                    if time.monotonic() >= deadline:
                        break
                    connection.sock.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    chunk = response.read1(4096)
                except socket.timeout:
                    break
                if not chunk:
                    break
                heard += (inflate.decompress(chunk) if inflate else chunk).decode()
            return "event: changed" in heard, encoding
        finally:
            connection.close()


def serve(database, port, name, started):
    start(name, [TALLY, "serve", "--database", database, "--port", str(port), "--log-level", "warning"],
          lambda: Proxy(port).send("GET", "/healthz")[0] == 200, started)


def caddy(ports, proxy_port, started):
    text = CADDYFILE.read_text()
    for index, port in enumerate(ports, start=1):
        text = text.replace(f"tally-{index}:8080", f"127.0.0.1:{port}")
    # The test's own: no admin endpoint, Caddy's files in WORK.
    config = WORK / "Caddyfile"
    config.write_text("{\n\tadmin off\n}\n" + text)
    env = dict(os.environ, HOME=str(WORK), XDG_DATA_HOME=str(WORK / "data"), XDG_CONFIG_HOME=str(WORK / "config"),
               DOMAIN=f"http://127.0.0.1:{proxy_port}")
    start("caddy", ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
          lambda: Proxy(proxy_port).send("GET", "/healthz")[0] == 200, started, env)


def main():
    name, database = create_database(SERVER_URL, "tally_proxy_")
    database += "?sslmode=disable"
    processes = []
    try:
        ports = [free_port(), free_port()]
        for index, port in enumerate(ports, start=1):
            serve(database, port, f"tally-{index}", processes)
        proxy = Proxy(free_port())
        caddy(ports, proxy.port, processes)
        one, two = ({"lb": instance_cookie(port)} for port in ports)

        status, _, set_cookies = proxy.send("POST", "/api/v1/setup", body=OWNER)
        check(status == 201 and set_cookies.get("lb") in (one["lb"], two["lb"]),
              f"the first answer ({status}) sets an lb cookie naming one instance ({set_cookies.get('lb')})")
        status, _, set_cookies = proxy.send("POST", "/api/v1/session", one, body=OWNER)
        session = set_cookies.get("tally_session")
        check(status == 200 and session and "lb" not in set_cookies,
              f"signing in as a client kept to instance 1 ({status}) sets a session and no new lb cookie")
        status, made, _ = proxy.send("POST", "/api/v1/tokens", {**two, "tally_session": session}, body={"name": "proxy"})
        check(status == 201, f"the session works through instance 2: it makes an API token ({status})")
        token = made["secret"]
        status, habit, _ = proxy.send("POST", "/api/v1/habits", one, token, {"name": "Read", "createdDay": "2026-01-01"})
        check(status == 201, f"a habit is made through instance 1 ({status})")

        marks = []
        told, encoding = proxy.stream_tells(one, token, lambda: marks.append(
            proxy.send("PUT", f"/api/v1/habits/{habit['id']}/entries/2026-11-20", two, token, {"status": "done"})[0]))
        check(marks == [200] and told,
              f"a stream through instance 1 ({encoding}) tells within 2 s of a mark made through instance 2 ({marks})")

        processes[0].terminate()
        processes[0].wait(20)
        started = time.monotonic()
        status, entries, set_cookies = proxy.send("GET", f"/api/v1/habits/{habit['id']}/entries",
                                                  {**one, "tally_session": session})
        took = time.monotonic() - started
        check(status == 200 and [entry["day"] for entry in entries] == ["2026-11-20"] and took < 2,
              f"with instance 1 stopped, a client kept to it is answered by instance 2, signed in ({status}, {took:.2f} s)")
        check(set_cookies.get("lb") == two["lb"], "and is kept to instance 2 from then on")
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        drop_database(SERVER_URL, name)
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
