"""A stand-in for a Web Push service (RFC 8030) on loopback, for .ci/push-check.

An implementation independent of Tally's: it makes each browser's key pair and auth secret
with `cryptography`, checks the VAPID header of every POST (RFC 8292: the key is the one the
server publishes, the ES256 signature, `aud` is this origin, `exp` within a day, `sub` a
mailto: or https: address) and decrypts the body with `http_ece` (RFC 8291 / RFC 8188,
aes128gcm) using the subscription's private key. Every POST is recorded.

The path chooses the answer: /push/gone/... 410, anything else 201 when the checks pass and
400 naming what failed otherwise.
"""
import base64
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class StandIn:
    def __init__(self, port, vapid_key=None):
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.vapid_key = vapid_key
        self.browsers = {}
        self.received = []
        self.lock = threading.Lock()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status, record = stand_in.receive(self.path, self.headers, body)
                with stand_in.lock:
                    stand_in.received.append(record)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def subscription(self, path):
        """What a browser's `PushSubscription.toJSON()` gives, for an endpoint here."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = __import__("os").urandom(16)
        self.browsers[path] = (key, auth)
        public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.origin + path, "keys": {"p256dh": b64url(public), "auth": b64url(auth)}}

    def requests(self, path=None):
        with self.lock:
            return [r for r in self.received if path is None or r["path"] == path]

    def receive(self, path, headers, body):
        record = {"path": path, "problems": [], "payload": None, "ttl": headers.get("TTL"), "urgency": headers.get("Urgency")}
        problems = record["problems"]
        problems += self.check_vapid(headers.get("Authorization", ""))
        if headers.get("Content-Encoding") != "aes128gcm":
            problems.append(f"Content-Encoding is {headers.get('Content-Encoding')!r}, not aes128gcm")
        if not (headers.get("TTL") or "").isdigit():
            problems.append("no TTL header (RFC 8030 §5.2)")
        browser = self.browsers.get(path)
        if browser is None:
            problems.append(f"no subscription at {path}")
        else:
            try:
                plain = http_ece.decrypt(body, private_key=browser[0], auth_secret=browser[1], version="aes128gcm")
                record["payload"] = json.loads(plain)
            except Exception as error:  # any failure to decrypt is the finding
                problems.append(f"could not decrypt: {error!r}")
        if "/gone/" in path:
            return 410, record
        return (201 if not problems else 400), record

    def check_vapid(self, header):
        if not header.startswith("vapid "):
            return [f"Authorization is not vapid: {header[:40]!r}"]
        fields = dict(part.strip().split("=", 1) for part in header[len("vapid "):].split(","))
        token, key = fields.get("t", ""), fields.get("k", "")
        problems = []
        if self.vapid_key and key != self.vapid_key:
            problems.append("k is not the key the server publishes at /api/v1/push/key")
        try:
            head, claims, signature = token.split(".")
            header_json = json.loads(unb64url(head))
            claims_json = json.loads(unb64url(claims))
            raw = unb64url(signature)
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return problems + ["the JWT's signature does not verify with k"]
        except Exception as error:
            return problems + [f"the JWT cannot be read: {error!r}"]
        if header_json.get("alg") != "ES256":
            problems.append(f"alg is {header_json.get('alg')!r}")
        if claims_json.get("aud") != self.origin:
            problems.append(f"aud is {claims_json.get('aud')!r}, not {self.origin}")
        # The server under test may run its clock a little ahead (TALLY_NOW): allow minutes.
        exp, now = claims_json.get("exp"), time.time()
        if not isinstance(exp, int) or exp < now - 300 or exp > now + 86400 + 300:
            problems.append(f"exp {exp!r} is not within a day from now ({int(now)})")
        sub = claims_json.get("sub", "")
        if not (sub.startswith("mailto:") or sub.startswith("https:")):
            problems.append(f"sub {sub!r} is not a mailto: or https: address")
        return problems
