#!/usr/bin/env python3
"""Proves .ci/oidc/lemonldap-start's provider is one Tally can sign in through, with a relying
party of its own in a few lines: it starts the provider for a redirect URI on a loopback port
where it listens, reads discovery and the key set, signs dwho in through the portal's form in
headless Chromium, exchanges the code with a PKCE verifier (client_secret_basic, and
client_secret_post the second time) and checks the ID token: RS256, a `kid` in the key set, a
signature that key verifies, `iss`, `aud`, `nonce`, the profile claims and `groups`, and a
`sub` that is the same at a second sign-in. PKCE is required (a request without a challenge
and a wrong verifier are refused), and signing out at `end_session_endpoint` comes back to the
post-logout URI (at once with `id_token_hint`, after an "Accept" with only `client_id`) and
makes the portal ask for the password again. It stops the provider and
removes what it made, whatever happens.

Usage: e2e/oidc_provider_check.py
"""
import base64
import hashlib
import json
import secrets
import socket
import subprocess
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import lemonldap
from selenium.webdriver.support.ui import WebDriverWait
from support import Report, chromium

report = Report()
check = report.check


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


class Callbacks(BaseHTTPRequestHandler):
    """The relying party's redirect and post-logout URIs: each request's path and query kept."""
    seen = []

    def do_GET(self):
        if not self.path.startswith("/favicon"):
            Callbacks.seen.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(b"<!doctype html><title>relying party</title><p>back at the relying party")

    def log_message(self, *args):
        pass


def rsa_key_pem(jwk):
    """A JWK RSA public key as PEM (SubjectPublicKeyInfo, DER built by hand), for openssl."""
    def der(tag, body):
        n = len(body)
        length = bytes([n]) if n < 128 else bytes([0x80 | ((n.bit_length() + 7) // 8)]) + n.to_bytes((n.bit_length() + 7) // 8, "big")
        return bytes([tag]) + length + body

    def integer(raw):
        return der(0x02, b"\0" + raw if raw[0] & 0x80 else raw)

    rsa = der(0x30, integer(unb64url(jwk["n"])) + integer(unb64url(jwk["e"])))
    algorithm = der(0x30, bytes.fromhex("06092a864886f70d0101010500"))
    spki = der(0x30, algorithm + der(0x03, b"\0" + rsa))
    return "-----BEGIN PUBLIC KEY-----\n" + base64.encodebytes(spki).decode() + "-----END PUBLIC KEY-----\n"


def signature_holds(token, jwk, work):
    header, payload, signature = token.split(".")
    (work / "key.pem").write_text(rsa_key_pem(jwk))
    (work / "signed").write_bytes(f"{header}.{payload}".encode())
    (work / "signature").write_bytes(unb64url(signature))
    result = subprocess.run(["openssl", "dgst", "-sha256", "-verify", str(work / "key.pem"), "-signature",
                             str(work / "signature"), str(work / "signed")], capture_output=True, text=True)
    return result.returncode == 0


def authorize_url(discovery, env, redirect_uri, state, nonce, challenge):
    query = {"response_type": "code", "client_id": env["TALLY_TEST_OIDC_CLIENT_ID"], "redirect_uri": redirect_uri,
             "scope": "openid profile email groups", "state": state, "nonce": nonce}
    if challenge:
        query.update(code_challenge=challenge, code_challenge_method="S256")
    return discovery["authorization_endpoint"] + "?" + urllib.parse.urlencode(query)


def wait_for_callback(count):
    """The query of the relying party's `count`th request, once it has come."""
    WebDriverWait(None, 20, poll_frequency=0.1).until(lambda _: len(Callbacks.seen) >= count)
    return urllib.parse.parse_qs(urllib.parse.urlsplit(Callbacks.seen[count - 1]).query)


def exchange(discovery, env, redirect_uri, code, verifier, method):
    """The token endpoint's answer (status, JSON) for `code`, the client authenticated by `method`."""
    client_id, secret = env["TALLY_TEST_OIDC_CLIENT_ID"], lemonldap.secret(env)
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier}
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if method == "client_secret_basic":
        pair = f"{urllib.parse.quote(client_id, safe='')}:{urllib.parse.quote(secret, safe='')}"
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
    else:
        form.update(client_id=client_id, client_secret=secret)
    request = urllib.request.Request(discovery["token_endpoint"], data=urllib.parse.urlencode(form).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def sign_in(driver, discovery, env, redirect_uri, callbacks, method, work, keys):
    """One sign-in as dwho through the browser; returns the ID token and its claims (or Nones)."""
    state, nonce, verifier = secrets.token_urlsafe(32), secrets.token_urlsafe(32), secrets.token_urlsafe(48)
    challenge = b64url(hashlib.sha256(verifier.encode()).digest())
    driver.get(authorize_url(discovery, env, redirect_uri, state, nonce, challenge))
    password, _ = lemonldap.people(env)["dwho"]
    lemonldap.sign_in(driver, "dwho", password)
    query = wait_for_callback(callbacks)
    check(query.get("state") == [state], f"the redirect back carries our state ({method})")
    code = query.get("code", [""])[0]
    check(bool(code), f"the redirect back carries a code: {query}")
    status, answer = exchange(discovery, env, redirect_uri, code, verifier, method)
    if status != 200:
        check(False, f"the token endpoint accepts {method} with the right verifier: {status} {answer}")
        return None, None
    check(True, f"the token endpoint accepts {method} with the right verifier")
    token = answer["id_token"]
    header = json.loads(unb64url(token.split(".")[0]))
    claims = json.loads(unb64url(token.split(".")[1]))
    key = keys.get(header.get("kid"))
    check(header.get("alg") == "RS256", f"the ID token is RS256: {header}")
    check(key is not None, f"its kid {header.get('kid')} is in the key set")
    check(key is not None and signature_holds(token, key, work), "the key set's key verifies its signature")
    check(claims.get("iss") == env["TALLY_TEST_OIDC_ISSUER"], f"iss is the issuer: {claims.get('iss')}")
    audience = claims.get("aud")
    check(env["TALLY_TEST_OIDC_CLIENT_ID"] in (audience if isinstance(audience, list) else [audience]), f"aud holds the client id: {audience}")
    check(claims.get("nonce") == nonce, "nonce is ours")
    check(claims.get("name") == "Doctor Who" and claims.get("preferred_username") == "dwho"
          and claims.get("email") == "dwho@badwolf.org", "name, preferred_username and email: "
          + ", ".join(str(claims.get(name)) for name in ("name", "preferred_username", "email")))
    check(sorted(claims.get("groups") or []) == sorted(lemonldap.people(env)["dwho"][1]), f"groups is dwho's groups as an array: {claims.get('groups')}")
    return token, claims


def main():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    redirect_uri, signed_out = f"http://127.0.0.1:{port}/callback", f"http://127.0.0.1:{port}/signed-out"
    listener = HTTPServer(("127.0.0.1", port), Callbacks)
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    work = Path(tempfile.mkdtemp(prefix="tally-oidc-check."))
    env = driver = None
    try:
        env = lemonldap.start(redirect_uri, signed_out)
        issuer = env["TALLY_TEST_OIDC_ISSUER"]
        discovery = get_json(issuer + ".well-known/openid-configuration")
        check(discovery["issuer"] == issuer, f"discovery names the issuer {issuer}")
        endpoints = {name: value for name, value in discovery.items() if name.endswith(("_endpoint", "_uri")) and isinstance(value, str)}
        check(all(urllib.parse.urlsplit(url).scheme == "http" and urllib.parse.urlsplit(url).hostname in ("localhost", "127.0.0.1", "::1")
                  for url in endpoints.values()), f"every endpoint is loopback http: {sorted(endpoints.values())}")
        check("end_session_endpoint" in discovery, "discovery names an end_session_endpoint")
        check("S256" in discovery.get("code_challenge_methods_supported", []), "S256 is a supported PKCE method")
        keys = {key.get("kid"): key for key in get_json(discovery["jwks_uri"])["keys"] if key.get("kty") == "RSA"}
        check(bool(keys), f"the key set holds RSA keys: {list(keys)}")

        # Chromium's own temporary files go with `work`.
        driver = chromium(environment={"TMPDIR": str(work)})
        hint, first = sign_in(driver, discovery, env, redirect_uri, 1, "client_secret_basic", work, keys)
        # dwho's session is open: the provider answers at once. A code is only for its verifier,
        # and without a challenge there is no code.
        verifier = secrets.token_urlsafe(48)
        driver.get(authorize_url(discovery, env, redirect_uri, "wrong-verifier", "n", b64url(hashlib.sha256(verifier.encode()).digest())))
        code = wait_for_callback(2).get("code", [""])[0]
        status, wrong = exchange(discovery, env, redirect_uri, code, verifier[::-1], "client_secret_basic")
        check(status == 400 and wrong.get("error") == "invalid_grant", f"a wrong PKCE verifier is refused: {status} {wrong}")
        driver.get(authorize_url(discovery, env, redirect_uri, "no-pkce", "n", None))
        refused = wait_for_callback(3)
        check(refused.get("error") == ["invalid_request"] and refused.get("state") == ["no-pkce"],
              f"an authorization request without a PKCE challenge is refused: {refused}")

        # Signing out at the provider with the ID token as a hint comes back to the post-logout
        # URI without a question; the portal then asks for the password again.
        logout = {"post_logout_redirect_uri": signed_out, "id_token_hint": hint, "state": "bye"}
        driver.get(discovery["end_session_endpoint"] + "?" + urllib.parse.urlencode(logout))
        wait_for_callback(4)
        check(Callbacks.seen[3] == "/signed-out?state=bye", f"end_session_endpoint returns to the post-logout URI: {Callbacks.seen[3]}")
        _, second = sign_in(driver, discovery, env, redirect_uri, 5, "client_secret_post", work, keys)
        check(first and second and first["sub"] == second["sub"], f"sub is the same at a second sign-in: {first and first['sub']}")

        # Without the hint the portal asks first, and Accept returns to the post-logout URI.
        logout = {"post_logout_redirect_uri": signed_out, "client_id": env["TALLY_TEST_OIDC_CLIENT_ID"], "state": "bye"}
        driver.get(discovery["end_session_endpoint"] + "?" + urllib.parse.urlencode(logout))
        WebDriverWait(driver, 20).until(lambda _: lemonldap.on_sign_out_question(driver))
        lemonldap.accept_sign_out(driver)
        wait_for_callback(6)
        check(Callbacks.seen[5] == "/signed-out?state=bye", f"without id_token_hint, Accept returns to the post-logout URI: {Callbacks.seen[5]}")
    finally:
        if driver:
            driver.quit()
        if env:
            lemonldap.stop(env)
        listener.shutdown()
        subprocess.run(["rm", "-rf", str(work)], check=False)
    report.exit()


main()
