#!/usr/bin/env python3
"""Issue 57 end to end: `tally serve` signs people in through a real OpenID Connect provider,
LemonLDAP::NG from Debian's packages (.ci/oidc/lemonldap-start, whose variables this reads
from the environment), in headless Chromium. Each case has a server of its own on PORT (the
port the provider's redirect URI names) with a fresh database, and a fresh browser.

- Accounts: the set-up page offers "Sign in with LemonLDAP" (axe, 375 and 1280 px); the first
  person becomes the owner; signing out reaches the provider and comes back to /signin; the
  provider then asks for the password again, and the second sign-in finds the same account;
  with `--oidc-new-accounts create` a second person gets an account of their own, not owner.
- Groups: with `--oidc-allowed-group`, a person outside the group is told they are not
  admitted and has no session; one inside signs in.
- Hostile callbacks: an over-long value refused by name, sixteen forged callbacks at once
  from one address meeting the throttle, none opening a session.
- Offline: after an OIDC sign-in (with `--oidc-only`, no password form) the offline app marks
  a habit with the server gone, keeps it across a reload, and syncs it when back online.

Usage: e2e/oidc.py PATH/TO/TALLY PORT [SCREENSHOT_DIR]   (run by .ci/oidc-e2e)
"""
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import lemonldap
from selenium.webdriver.common.by import By
from support import (Report, axe_violations, chromium, emulate_offline, mark, page_api, page_tools, pressed, serve,
                     soon, waiting)

TALLY, PORT = sys.argv[1], int(sys.argv[2])
# Where each audited page's picture goes, to be looked at; none unless asked.
SHOTS = Path(sys.argv[3]) if len(sys.argv) > 3 else None
BASE = f"http://127.0.0.1:{PORT}"
PROVIDER = lemonldap.from_environment()
PEOPLE = lemonldap.people(PROVIDER)
NAME = "LemonLDAP"
PHONE, DESKTOP = (375, 812), (1280, 900)
report = Report()
check = report.check


class Tally:
    """`tally serve` on PORT with a database of its own, signing in through the provider."""

    def __init__(self, options):
        self.work = Path(tempfile.mkdtemp(prefix="tally-oidc-e2e."))
        self.log = self.work / "server.log"
        self.options = ["--oidc-issuer", PROVIDER["TALLY_TEST_OIDC_ISSUER"],
                        "--oidc-client-id", PROVIDER["TALLY_TEST_OIDC_CLIENT_ID"],
                        "--oidc-client-secret-file", PROVIDER["TALLY_TEST_OIDC_SECRET_FILE"],
                        "--oidc-name", NAME, *options]
        self.process = None

    def start(self):
        env = {"PATH": "/usr/bin:/bin", "TZ": "Europe/Berlin"}
        self.process = serve(TALLY, self.work / "tally.sqlite", PORT, env, self.log, self.options)

    def stop(self):
        self.process.terminate()
        self.process.wait(10)

    def close(self):
        if self.process and self.process.poll() is None:
            self.stop()
        shutil.rmtree(self.work, ignore_errors=True)


class Browser:
    """One Chromium and the moves every case makes with it."""

    def __init__(self):
        self.d = chromium()
        self.wait, self.find, self.settled = page_tools(self.d)

    def oidc_sign_in(self, user):
        """From the page on screen: "Sign in with LemonLDAP", then the provider's password form,
        which must show (no session at the provider), then back at Tally."""
        start = self.d.current_url
        button = self.find("#oidc-signin")
        check(button.text.strip() == f"Sign in with {NAME}", f"the page offers “Sign in with {NAME}” ({button.text!r})")
        button.click()
        self.wait.until(lambda d: lemonldap.on_login_form(d) or (d.current_url.startswith(BASE) and d.current_url != start))
        check(lemonldap.on_login_form(self.d), f"the provider asks {user} for a password")
        if lemonldap.on_login_form(self.d):
            lemonldap.sign_in(self.d, user, PEOPLE[user][0])
            self.wait.until(lambda d: d.current_url.startswith(BASE))
        self.settled()

    def account(self):
        """(the account's id, the name the page shows) of whoever is signed in."""
        user = self.find("body").get_attribute("data-user")
        name = self.d.execute_script("const s = document.querySelector('form.signout .visually-hidden'); return s && s.textContent.trim()")
        return user, name

    def is_owner(self):
        self.d.get(BASE + "/settings")
        self.settled()
        return bool(self.d.find_elements(By.ID, "backup-download"))

    def sign_out(self):
        """Tally's sign-out button, through the provider's end_session_endpoint, back to /signin."""
        before = lemonldap.requests(PROVIDER, "/oauth2/logout")
        self.find("form.signout button").click()
        self.wait.until(lambda d: d.current_url.startswith(BASE + "/signin") or lemonldap.on_sign_out_question(d))
        if lemonldap.on_sign_out_question(self.d):
            print("note: Tally sent no id_token_hint, so LemonLDAP asked before signing out")
            lemonldap.accept_sign_out(self.d)
            self.wait.until(lambda d: d.current_url.startswith(BASE + "/signin"))
        check(lemonldap.requests(PROVIDER, "/oauth2/logout") > before and self.d.current_url.startswith(BASE + "/signin"),
              "signing out went through the provider's end_session_endpoint and came back to /signin")
        check(self.d.get_cookie("tally_session") is None, "signed out: no session cookie")

    def signed_in(self):
        """Whether /today opens (it sends a visitor without a session to sign in)."""
        self.d.get(BASE + "/today")
        self.settled()
        return self.d.current_url.startswith(BASE + "/today")

    def audit(self, name):
        """At 375 and 1280 px: no sideways scrolling on a phone, and axe finds nothing."""
        for size in (PHONE, DESKTOP):
            self.d.set_window_size(*size)
            self.settled()
            if size == PHONE:
                overflow = self.d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                check(overflow <= 0, f"{name}: no horizontal scrolling at 375 px ({overflow})")
            found = [(v["id"], len(v["nodes"])) for v in axe_violations(self.d)]
            check(not found, f"{name} at {size[0]} px: axe finds no violation {found}")
            if SHOTS:
                self.d.save_screenshot(str(SHOTS / f"{name.replace(' ', '-')}-{size[0]}.png"))


def accounts_and_sign_out(b, server):
    b.d.get(BASE + "/")
    b.settled()
    check(b.d.current_url.endswith("/setup"), f"an empty server opens on set-up ({b.d.current_url})")
    b.audit("set-up with a provider")
    b.oidc_sign_in("dwho")
    check(b.d.current_url.startswith(BASE + "/today"), f"the first sign-in lands on Today ({b.d.current_url})")
    first = b.account()
    check(bool(first[0]) and first[1] in ("Doctor Who", "dwho"), f"an account was made for dwho: {first}")
    check(b.is_owner(), "the first person on an empty server is the owner")
    # Settings (where is_owner left us) has the provider's section: linked, and invitations.
    check("This account is linked" in b.find("#account").text, "Settings says the account is linked to the provider")
    b.audit("settings with a provider")
    b.find("#invite").click()
    b.settled()
    link = b.find("#invite-link").get_attribute("value")
    check(link.startswith(BASE + "/signin/oidc?invite="), f"the owner gets an invitation link ({link[:60]}…)")
    b.audit("an invitation")

    b.sign_out()
    check(not b.signed_in(), "after signing out, Today asks to sign in")
    b.d.get(BASE + "/signin")
    b.settled()
    b.audit("sign-in with a provider")
    # The provider's session ended with Tally's: it asks for the password again.
    b.oidc_sign_in("dwho")
    check(b.account() == first, f"a second sign-in finds the same account: {b.account()} and {first}")

    b.sign_out()
    b.oidc_sign_in("rtyler")
    second = b.account()
    check(second[0] and second[0] != first[0] and second[1] in ("Rose Tyler", "rtyler"),
          f"with --oidc-new-accounts create, rtyler gets an account of her own: {second}")
    check(not b.is_owner(), "the second person is not an owner")


def group_refused(b, server):
    b.d.get(BASE + "/")
    b.settled()
    b.oidc_sign_in("rtyler")
    text = b.find("main").text
    # TallyAccounts words it "… is not in the group timelords, which this server admits."
    check("timelords" in text and "admit" in text.lower(), f"rtyler, outside timelords, is told she is not admitted: {text[:200]!r}")
    b.audit("not admitted")
    check(b.d.get_cookie("tally_session") is None and not b.signed_in(), "and has no session")
    # The provider still knows rtyler: forget her there (its cookie) before dwho signs in.
    b.d.get(PROVIDER["TALLY_TEST_OIDC_ISSUER"])
    b.d.delete_all_cookies()
    b.d.get(BASE + "/")
    b.settled()
    b.oidc_sign_in("dwho")
    check(b.d.current_url.startswith(BASE + "/today"), f"dwho, in timelords, is admitted ({b.d.current_url})")
    check(b.is_owner(), "and, first to be admitted, is the owner")


def offline_after_sign_in(b, server):
    b.d.get(BASE + "/")
    b.settled()
    check(not b.d.find_elements(By.CSS_SELECTOR, "input[type=password]"), "with --oidc-only the page has no password form")
    b.oidc_sign_in("dwho")
    habit = page_api(b.d, "POST", "/api/v1/habits", {"name": "Read"})["id"]
    b.d.get(BASE + "/today")
    soon(b.d, report, lambda: b.d.execute_script("return !!navigator.serviceWorker.controller"), "the service worker controls Today")
    b.d.get(BASE + "/today")
    b.settled()
    day = b.find(".today").get_attribute("data-selected")

    server.stop()
    emulate_offline(b.d, True)
    b.d.refresh()
    check("Today" in b.find("#day-heading").text, "Today opens offline after an OIDC sign-in")
    mark(b.d, habit)
    soon(b.d, report, lambda: pressed(b.d, habit) and waiting(b.d) == "1", "marked offline: done at once, one change waits")
    b.d.refresh()
    b.settled()
    soon(b.d, report, lambda: pressed(b.d, habit) and waiting(b.d) == "1", "after a reload offline, still done and waiting")

    server.start()
    emulate_offline(b.d, False)
    soon(b.d, report, lambda: waiting(b.d) == "0", "back online, the change is sent", timeout=30)
    pulled = page_api(b.d, "GET", "/api/v1/sync?limit=5000")
    changes = pulled["changes"] if isinstance(pulled, dict) else []
    entry = [c for c in changes if c["kind"] == "entry" and c["id"] == f"{habit}/{day}"]
    check(entry and (entry[-1].get("fields") or {}).get("status") == "done", f"the server has Read done on {day}: {entry}")


def hostile_callbacks(b, server):
    """What the hostile probe does to password sign-in, done to the callback: forged callbacks
    at once from one address meet the throttle (five counted, the rest 429), none opens a
    session, and an over-long value is refused by name."""
    def callback(query):
        request = urllib.request.Request(BASE + "/signin/oidc/callback?" + query)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.headers.get_all("Set-Cookie") or [], answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get_all("Set-Cookie") or [], error.read().decode()

    long = callback("state=" + "s" * 5000 + "&code=x")
    check(long[0] == 400 and "longer than 4096 bytes" in long[2], f"an over-long state is refused by name ({long[0]})")
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda n: callback(f"state=forged{n}&code=x"), range(16)))
    statuses = sorted(status for status, _, _ in answers)
    check(statuses.count(400) == 4 and statuses.count(429) == 12,
          f"16 forged callbacks at once: 4 more counted (400), 12 refused (429): {statuses}")
    check(all(not any(c.startswith("tally_session=") and not c.startswith("tally_session=;") for c in cookies)
              for _, cookies, _ in [long] + answers), "no forged callback opens a session")


def run(case, *options):
    print(f"== {case.__name__} ({' '.join(options)})")
    server, browser, failures = Tally(options), None, len(report.failures)
    try:
        server.start()
        browser = Browser()
        case(browser, server)
    except Exception as error:
        check(False, f"{case.__name__} stopped: {error!r}")
    finally:
        if len(report.failures) > failures and server.log.exists():
            print("== server log\n" + server.log.read_text()[-4000:])
        if browser:
            browser.d.quit()
        server.close()


run(accounts_and_sign_out, "--oidc-new-accounts", "create")
run(group_refused, "--oidc-new-accounts", "create", "--oidc-allowed-group", "timelords")
run(offline_after_sign_in, "--oidc-new-accounts", "create", "--oidc-only")
run(hostile_callbacks, "--oidc-new-accounts", "create")
report.exit()
