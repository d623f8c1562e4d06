"""What the deployment checks share: checks that print and count, free loopback ports, and
HTTP requests that report a connection that was refused, reset or timed out as status 0
rather than raising, so a check can say what it saw."""
import json
import socket
import urllib.error
import urllib.request

failures, passes = [], []


def check(condition, what):
    print(("ok: " if condition else "FAIL: ") + what, flush=True)
    (passes if condition else failures).append(what)
    return condition


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(base, method, path, body=None, token=None, cookie=None, timeout=10):
    """(status, headers, bytes), redirects followed. Every request names Tally's own origin, as
    its pages do: a write with a session cookie must (docs/server.md, Protection)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Origin": base})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError, socket.timeout):
        return 0, {}, b""
