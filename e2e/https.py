#!/usr/bin/env python3
"""Issue 25's HTTPS end to end. `tally serve` on a loopback port trusts the proxy at 127.0.0.1
only; Caddy (e2e/Caddyfile) serves https://tally.test with its internal certificate authority;
Chromium maps tally.test to loopback and trusts that authority through an NSS database in a
HOME of its own, as a person's device would; never --ignore-certificate-errors, under which
Chromium 156 still runs the service worker but will not install the app (not-from-secure-origin).
Clients come from other loopback addresses (all of 127/8 is loopback on Linux), so Tally and
the throttle can tell them from the proxy.

1. The page is secure, its service worker controls it, and the app is installable.
2. The session cookie set through Caddy is Secure; answers over HTTPS carry HSTS.
3. A habit marked while Caddy is down is sent when Caddy is back.
4. Forged X-Forwarded-For/-Proto and user headers sent straight to Tally's port are ignored
   or refused.
5. The sign-in throttle and the log see each client's own address through Caddy, and Caddy
   does what Tally assumes of X-Forwarded-* (seen by a stand-in upstream).
6. nginx with e2e/nginx.conf in front instead: the cookie, the throttle and the user header.
7. A live change stream through each proxy tells of a write within 2 s: neither holds it back.

Usage: e2e/https.py PATH/TO/TALLY WORK_DIR (WORK_DIR is the caller's to remove)
"""
import http.client
import http.server
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, chromium, emulate_offline, mark, page_api, pressed, sync_status, waiting

TALLY, WORK = sys.argv[1], Path(sys.argv[2]).resolve()
CADDYFILE = Path(__file__).resolve().parent / "Caddyfile"
OWNER, PASSWORD, USER_HEADER = "ada", "correct horse battery", "X-Remote-User"
PROXY = "127.0.0.1"  # Caddy's address as Tally sees it: the one trusted proxy


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port):
    """Whether Caddy can take `port` on loopback, TCP and UDP (HTTP/3)."""
    try:
        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
            with socket.socket(socket.AF_INET, kind) as s:
                s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False


TALLY_PORT = free_port()
HTTPS_PORT = 443 if port_free(443) else free_port()
BASE = "https://tally.test" + ("" if HTTPS_PORT == 443 else f":{HTTPS_PORT}")
ROOT = WORK / "caddy-data/caddy/pki/authorities/local/root.crt"
DIRECT = "direct"


class Service:
    """A process started and stopped again with the same command; its output kept in WORK."""

    def __init__(self, name, command, env, ready):
        self.name, self.command, self.env, self.ready = name, command, env, ready
        self.log = WORK / f"{name}.log"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(self.command, env=self.env, stdout=open(self.log, "a"), stderr=subprocess.STDOUT)
        for _ in range(100):
            if self.process.poll() is not None:
                break
            try:
                if self.ready():
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start:\n" + self.log.read_text()[-3000:])

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Answer:
    def __init__(self, response):
        self.status, self.headers, self.body = response.status, response.headers, response.read()

    def json(self):
        return json.loads(self.body or b"null")

    def cookie(self):
        """The session cookie set, as (value, {attribute names in lower case}), or (None, set())."""
        for header in self.headers.get_all("Set-Cookie") or []:
            first, *attributes = [part.strip() for part in header.split(";")]
            if first.startswith("tally_session="):
                return first.split("=", 1)[1], {a.split("=", 1)[0].lower() for a in attributes}
        return None, set()


class ThroughProxy(http.client.HTTPSConnection):
    """HTTPS to tally.test, which only the browser resolves: the socket goes to loopback."""

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout, self.source_address)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def send(method, path, source, via=None, headers=None, body=None, context=None):
    """One request from the loopback address `source`: through the proxy at HTTPS port `via`
    (Caddy's unless named), trusting only Caddy's root unless `context` says otherwise; or, with
    `via=DIRECT`, straight to Tally's port over plain HTTP."""
    bind = (source, 0)
    if via == DIRECT:
        connection = http.client.HTTPConnection("127.0.0.1", TALLY_PORT, timeout=10, source_address=bind)
    else:
        context = context or ssl.create_default_context(cafile=ROOT)
        connection = ThroughProxy("tally.test", via or HTTPS_PORT, timeout=10, source_address=bind, context=context)
    headers = dict(headers or {})
    if body is not None:
        body = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=body, headers=headers)
        return Answer(connection.getresponse())
    finally:
        connection.close()


def live_told_through(via, bearer, path):
    """Holds GET /api/v1/sync/live through the proxy at HTTPS port `via`, writes `path` through
    it too, and says whether the stream told of the change within 2 s."""
    context = ssl.create_default_context(cafile=ROOT)
    sock = context.wrap_socket(socket.create_connection(("127.0.0.1", via), 10), server_hostname="tally.test")
    sock.sendall((f"GET /api/v1/sync/live HTTP/1.1\r\nHost: tally.test\r\nAuthorization: {bearer['Authorization']}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    heard = b""
    try:
        sock.settimeout(10)
        while b"event: ready" not in heard:
            chunk = sock.recv(4096)
            if not chunk:
                return False
            heard += chunk
        send("PUT", path, "127.0.0.1", via, headers=bearer, body={"status": "done"})
        deadline = time.monotonic() + 2
        while b"event: changed" not in heard and time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                heard += sock.recv(4096)
            except socket.timeout:
                break
        return b"event: changed" in heard
    finally:
        sock.close()


def sign_in(source, password, via=None, headers=None):
    return send("POST", "/api/v1/session", source, via, headers, {"name": OWNER, "password": password})


def failed_then_right(source, via=None, forged=lambda n: {}):
    """Five wrong passwords then the right one, each with `forged(n)` as extra headers: the statuses."""
    return [sign_in(source, PASSWORD if n == 5 else "wrong password", via, forged(n)).status for n in range(6)]


tally = Service("tally", [TALLY, "serve", "--db", str(WORK / "tally.sqlite"), "--port", str(TALLY_PORT),
                          "--trusted-proxy", PROXY, "--trusted-user-header", USER_HEADER, "--hsts", "--log-level", "debug"],
                {"TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": str(WORK)},
                lambda: send("GET", "/healthz", PROXY, via=DIRECT).status == 200)
caddy_env = dict(os.environ, HOME=str(WORK), XDG_DATA_HOME=str(WORK / "caddy-data"), XDG_CONFIG_HOME=str(WORK / "caddy-config"),
                 CADDY_HTTPS_PORT=str(HTTPS_PORT), CADDY_HTTP_PORT=str(free_port()), TALLY_PORT=str(TALLY_PORT))
caddy = Service("caddy", ["caddy", "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"], caddy_env,
                lambda: ROOT.exists() and send("GET", "/healthz", "127.0.0.1").status == 200)
NGINX_PORT = free_port()
nginx = Service("nginx", ["nginx", "-c", str(WORK / "nginx.conf"), "-p", str(WORK), "-e", "stderr"], None,
                lambda: send("GET", "/healthz", "127.0.0.1", NGINX_PORT).status == 200)
report = Report()
check = report.check
d = None
# A stop asked for (CI's time-out) still runs the clean-up below.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def soon(predicate, timeout=15):
    try:
        WebDriverWait(d, timeout, ignored_exceptions=[StaleElementReferenceException]).until(lambda _: predicate())
        return True
    except TimeoutException:
        return False


def check_soon(predicate, message):
    check(soon(predicate), message)


def must(condition, message):
    """A check the rest cannot go on without."""
    check(condition, message)
    if not condition:
        raise RuntimeError("cannot go on: " + message)


def find(css):
    return WebDriverWait(d, 15).until(lambda _: d.find_element(By.CSS_SELECTOR, css))


def trust_caddy_root():
    """A fresh NSS database in the browser's HOME, trusting Caddy's root for servers."""
    nssdb = WORK / "home/.pki/nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "Caddy test root", "-i", str(ROOT)], check=True)


def installable():
    """The manifest linked from the page, fetched by the page, and its PNG icons loaded."""
    manifest = d.execute_async_script("""
      const done = arguments[0];
      const link = document.querySelector('link[rel=manifest]');
      if (!link) return done(null);
      fetch(link.href).then(r => r.json()).then(m => done({href: link.href, ...m}), e => done(String(e)));
    """)
    check(isinstance(manifest, dict), f"the page links a manifest that parses ({manifest if not isinstance(manifest, dict) else manifest['href']})")
    if not isinstance(manifest, dict):
        return
    for field in ("name", "start_url", "display", "icons"):
        check(manifest.get(field), f"the manifest has {field} ({manifest.get(field)})")
    pngs = {icon["sizes"]: icon["src"] for icon in manifest.get("icons", []) if icon.get("type") == "image/png"}
    for size in ("192x192", "512x512"):
        loaded = pngs.get(size) and d.execute_async_script("""
          const [src, base, done] = arguments;
          fetch(new URL(src, base)).then(async r => { const b = await createImageBitmap(await r.blob());
            done([r.status, r.headers.get('Content-Type'), b.width + 'x' + b.height]); }, e => done(String(e)));
        """, pngs[size], manifest["href"])
        check(loaded == [200, "image/png", size], f"the {size} PNG icon loads at that size ({pngs.get(size)}: {loaded})")
    errors = d.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
    check(errors == [], f"Chromium finds no installability errors, so the certificate counts as trusted {errors}")


def start_nginx():
    """nginx with e2e/nginx.conf filled in, serving the certificate Caddy issued for tally.test."""
    leaf = WORK / "caddy-data/caddy/certificates/local/tally.test"
    conf = (Path(__file__).resolve().parent / "nginx.conf").read_text()
    for name, value in {"WORK": WORK, "PORT": NGINX_PORT, "TALLY_PORT": TALLY_PORT,
                        "CERT": leaf / "tally.test.crt", "KEY": leaf / "tally.test.key"}.items():
        conf = conf.replace(f"@{name}@", str(value))
    (WORK / "nginx.conf").write_text(conf)
    nginx.start()


def browser_cookie():
    cookies = d.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
    return next((c for c in cookies if c["name"] == "tally_session"), {})


class Recorder(http.server.BaseHTTPRequestHandler):
    """A stand-in upstream that keeps what Caddy sends it."""
    seen = []

    def do_GET(self):
        Recorder.seen.append(dict(self.headers))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


try:
    tally.start()
    caddy.start()
    print(f"== Tally on 127.0.0.1:{TALLY_PORT}, trusting {PROXY}; Caddy at {BASE}")

    print("== 1. a secure page, its service worker, installable")
    with socket.create_connection(("127.0.0.1", HTTPS_PORT)) as raw:
        with ssl.create_default_context(cafile=ROOT).wrap_socket(raw, server_hostname="tally.test") as tls:
            issuer = dict(pair for part in tls.getpeercert()["issuer"] for pair in part).get("commonName")
    check(issuer and "Caddy Local Authority" in issuer, f"tally.test's certificate comes from Caddy's internal authority ({issuer})")
    try:
        send("GET", "/healthz", "127.0.0.1", context=ssl.create_default_context())
        check(False, "a client trusting only the system's roots refuses the certificate")
    except ssl.SSLCertVerificationError as error:
        check(True, f"a client trusting only the system's roots refuses the certificate ({error.verify_message})")
    trust_caddy_root()
    (WORK / "tmp").mkdir()
    d = chromium(zone="UTC", script_timeout=30, arguments=["--host-resolver-rules=MAP tally.test 127.0.0.1"],
                 environment={"HOME": str(WORK / "home"), "TMPDIR": str(WORK / "tmp")})
    d.get(BASE + "/")
    secure = d.execute_script("return [location.protocol, window.isSecureContext]")
    must(secure == ["https:", True], f"the page loads as https in a secure context, no certificate warning ({secure})")
    find("#name").send_keys(OWNER)
    find("#password").send_keys(PASSWORD)
    find("button[type=submit]").click()
    must(soon(lambda: "/today" in d.current_url), "the owner is set up through Caddy (the form's post is same-origin over HTTPS)")
    d.get(BASE + "/today")
    check_soon(lambda: d.execute_script("return !!navigator.serviceWorker.controller"), "the service worker registers and controls the page")
    scope = d.execute_async_script("const done = arguments[0]; navigator.serviceWorker.getRegistration('/').then(r => done(r && r.scope))")
    check(scope == BASE + "/", f"the worker's scope is the whole site ({scope})")
    installable()

    print("== 2. the session cookie is Secure through Caddy; HSTS over HTTPS")
    cookie = browser_cookie()
    check(cookie.get("secure") is True and cookie.get("httpOnly") is True,
          f"the browser's session cookie is Secure and HttpOnly (secure={cookie.get('secure')}, httpOnly={cookie.get('httpOnly')})")
    answer = sign_in("127.0.0.10", PASSWORD)
    value, attributes = answer.cookie()
    check(answer.status == 200 and value and {"secure", "httponly"} <= attributes,
          f"a sign-in through Caddy sets a Secure cookie ({answer.status}, {sorted(attributes)})")
    hsts = send("GET", "/today", "127.0.0.10").headers.get("Strict-Transport-Security")
    check(hsts is not None and "max-age=" in hsts, f"an answer over HTTPS carries Strict-Transport-Security ({hsts})")
    plain = send("GET", "/healthz", PROXY, via=DIRECT).headers.get("Strict-Transport-Security")
    check(plain is None, f"a plain-http answer from the proxy's address carries none ({plain})")

    print("== 3. a write made while Caddy is down is sent when it is back")
    habit = page_api(d, "POST", "/api/v1/habits", {"name": "Read"})["id"]
    token = page_api(d, "POST", "/api/v1/tokens", {"name": "https-e2e"})["secret"]
    bearer = {"Authorization": f"Bearer {token}"}
    d.get(BASE + "/today")
    day = find(".today").get_attribute("data-selected")
    check_soon(lambda: d.execute_script("return !!navigator.serviceWorker.controller"), "Today is under the worker")
    caddy.stop()
    emulate_offline(d, True)
    d.refresh()
    check("Today" in find("#day-heading").text, "with Caddy stopped, Today opens from the worker's copy")
    mark(d, habit)
    check_soon(lambda: pressed(d, habit) and waiting(d) == "1", "the mark shows at once and waits")
    entries = send("GET", f"/api/v1/habits/{habit}/entries", PROXY, via=DIRECT, headers=bearer).json()
    check(not any(e.get("day") == day for e in entries), f"the server has nothing for {day} yet")
    caddy.start()
    emulate_offline(d, False)
    check_soon(lambda: waiting(d) == "0" and "All changes sent." in sync_status(d),
               "the page says the change was sent once Caddy is back")
    entries = send("GET", f"/api/v1/habits/{habit}/entries", "127.0.0.10", headers=bearer).json()
    check(any(e.get("day") == day and e.get("status") == "done" for e in entries), f"the server has Read done on {day} ({entries})")

    print("== 4. forged headers sent straight to Tally's port")
    forged = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
    answer = sign_in("127.0.0.2", PASSWORD, via=DIRECT, headers=forged)
    value, attributes = answer.cookie()
    check(answer.status == 200 and value and "secure" not in attributes,
          f"X-Forwarded-Proto: https from 127.0.0.2 is ignored: the cookie is not Secure ({answer.status}, {sorted(attributes)})")
    hsts = answer.headers.get("Strict-Transport-Security")
    check(hsts is None, f"... and the answer carries no HSTS ({hsts})")
    statuses = failed_then_right("127.0.0.5", DIRECT, lambda n: {"X-Forwarded-For": f"203.0.113.{n + 1}"})
    check(statuses == [401] * 5 + [429], f"a new forged X-Forwarded-For on each try from 127.0.0.5 is still throttled as 127.0.0.5 ({statuses})")
    refused = send("GET", "/api/v1/me", "127.0.0.2", via=DIRECT, headers={USER_HEADER: OWNER})
    problem = refused.json() if refused.headers.get("Content-Type", "").startswith("application/problem+json") else {}
    check(refused.status in (401, 403) and USER_HEADER.lower() in json.dumps(problem).lower(),
          f"{USER_HEADER} from 127.0.0.2 is refused with a problem naming it ({refused.status}: {problem.get('detail')})")
    check(refused.cookie() == (None, set()), "... and no session is opened")
    made = send("POST", "/api/v1/habits", "127.0.0.2", via=DIRECT, headers={USER_HEADER: OWNER}, body={"name": "Forged"})
    names = [h["name"] for h in send("GET", "/api/v1/habits", PROXY, via=DIRECT, headers=bearer).json()]
    check(made.status in (401, 403) and "Forged" not in names, f"... and a write carrying it changes nothing ({made.status}, {names})")
    me = send("GET", "/api/v1/me", PROXY, via=DIRECT, headers={USER_HEADER: OWNER})
    check(me.status == 200 and me.json().get("name") == OWNER, f"the same header from the trusted proxy's address signs in ({me.status})")
    me = send("GET", "/api/v1/me", "127.0.0.2", headers={USER_HEADER: OWNER})
    check(me.status == 401, f"through Caddy a client's own {USER_HEADER} is dropped (the Caddyfile): signed out ({me.status})")

    print("== 7. live changes through Caddy")
    check(live_told_through(HTTPS_PORT, bearer, f"/api/v1/habits/{habit}/entries/2026-11-02"),
          "a live stream held through Caddy tells of a write within 2 s")

    print("== 5. the throttle sees each client's address through Caddy")
    statuses = failed_then_right("127.0.0.2")
    check(statuses == [401] * 5 + [429], f"five wrong passwords from 127.0.0.2, then the right one is refused ({statuses})")
    statuses = [sign_in("127.0.0.3", "wrong password").status, sign_in("127.0.0.3", PASSWORD).status]
    check(statuses == [401, 200], f"meanwhile 127.0.0.3 signs in as the same name ({statuses})")
    statuses = failed_then_right("127.0.0.4", forged=lambda n: {"X-Forwarded-For": f"203.0.113.{n + 20}"})
    check(statuses == [401] * 5 + [429], f"a new forged X-Forwarded-For through Caddy on each try does not escape: 127.0.0.4 is throttled ({statuses})")
    sessions = [line for line in tally.log.read_text().splitlines() if "path=/api/v1/session" in line]
    clients = {line.split("client=", 1)[1].split()[0] for line in sessions if "client=" in line}
    check({"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"} <= clients and not any(c.startswith("203.0.113.") for c in clients),
          f"the log names each sign-in's client by its own address, never a forged one ({sorted(clients)})")
    caddy.stop()
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    caddy.env["TALLY_PORT"] = str(upstream.server_address[1])
    caddy.ready = lambda: ROOT.exists() and send("GET", "/", "127.0.0.1").status == 204
    caddy.start()
    Recorder.seen.clear()
    send("GET", "/", "127.0.0.4", headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "http", USER_HEADER: OWNER})
    seen = {k.lower(): v for k, v in Recorder.seen[-1].items()}
    got = {name: seen.get(name.lower()) for name in ("X-Forwarded-For", "X-Forwarded-Proto", "Host", USER_HEADER)}
    check(got == {"X-Forwarded-For": "127.0.0.4", "X-Forwarded-Proto": "https", "Host": BASE.removeprefix("https://"), USER_HEADER: None},
          f"Caddy replaces a client's X-Forwarded-For/-Proto, keeps Host and drops {USER_HEADER} ({got})")
    upstream.shutdown()

    print("== 6. the same through nginx (e2e/nginx.conf)")
    start_nginx()
    answer = sign_in("127.0.0.11", PASSWORD, NGINX_PORT)
    value, attributes = answer.cookie()
    hsts = answer.headers.get("Strict-Transport-Security")
    check(answer.status == 200 and "secure" in attributes and hsts,
          f"a sign-in through nginx sets a Secure cookie, with HSTS ({answer.status}, {sorted(attributes)}, {hsts})")
    statuses = failed_then_right("127.0.0.12", NGINX_PORT, lambda n: {"X-Forwarded-For": f"203.0.113.{n + 40}"})
    check(statuses == [401] * 5 + [429], f"127.0.0.12 is throttled through nginx, whatever X-Forwarded-For it forges ({statuses})")
    statuses = [sign_in("127.0.0.13", "wrong password", NGINX_PORT).status, sign_in("127.0.0.13", PASSWORD, NGINX_PORT).status]
    check(statuses == [401, 200], f"meanwhile 127.0.0.13 signs in through nginx ({statuses})")
    me = send("GET", "/api/v1/me", "127.0.0.13", NGINX_PORT, headers={USER_HEADER: OWNER})
    check(me.status == 401, f"nginx drops a client's own {USER_HEADER}: signed out ({me.status})")
    big = send("POST", "/api/v1/import?dryRun=true", "127.0.0.13", NGINX_PORT, headers=bearer, body={"habits": "x" * (2 << 20)})
    kind = big.headers.get("Content-Type")
    check(kind == "application/problem+json", f"a 2 MiB import passes nginx and Tally answers it ({big.status} {kind})")
    print("== 7. live changes through nginx")
    check(live_told_through(NGINX_PORT, bearer, f"/api/v1/habits/{habit}/entries/2026-11-03"),
          "a live stream held through nginx tells of a write within 2 s (X-Accel-Buffering: no)")
    console = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE" and "ERR_" not in e["message"]]
    check(not console, f"no errors in the browser console {console}")
except Exception:
    for service in (tally, caddy, nginx):
        if service.log.exists():
            print(f"== {service.name} log (end)\n" + service.log.read_text()[-2000:])
    raise
finally:
    if d:
        d.quit()
    nginx.stop()
    caddy.stop()
    tally.stop()

report.exit()
