"""The isolation probe: a second user tries every route and page with the first user's ids."""

import json
import os
import tempfile
import time
import urllib.parse
import uuid
from probe_support import PASSWORD, call, holds, set_up_owner, sign_in, start_server, stop


def stamp(device):
    return f"{int(time.time() * 1000):016d}-00000000-{device}"


def probe_isolation(arguments):
    """User B tries user A's ids on every route and page that takes one, and reads every list."""
    port = arguments.port + 2
    base = f"http://127.0.0.1:{port}"
    database = f"{tempfile.mkdtemp(prefix='tally-isolation-')}/tally.sqlite"
    server = start_server(arguments.tally, database, port)
    try:
        a_cookie, a = set_up_owner(base)
        status, body = call(base, "/api/v1/users", "POST", {"name": "bob", "password": PASSWORD}, a)
        assert status == 201, body
        b_cookie, b = sign_in(base, "bob")
        if arguments.isolation_as_owner:  # the probe's own check: as A, it must see A's data
            b_cookie, b = a_cookie, a

        # A's data, every kind, each carrying the tag (or, for the price and secrets, itself).
        tag = f"Aprivate{uuid.uuid4().hex[:12]}"
        needle = f"needle{uuid.uuid4().hex[:8]}"  # searched for; a search page shows what it was asked
        day = "2026-11-20"

        def made(path, body, method="POST"):
            status, answer = call(base, path, method, body, a)
            assert 200 <= status < 300, (path, status, answer)
            return json.loads(answer) if answer else {}

        habit = made("/api/v1/habits", {"name": f"{tag} habit"})["id"]
        made(f"/api/v1/habits/{habit}/entries/{day}", {"status": "done", "note": f"{tag} note"}, "PUT")
        made(f"/api/v1/journal/{day}", {"text": f"{tag} journal {needle}"}, "PUT")
        message = made(f"/api/v1/chat/{day}", {"text": f"{tag} chat"})["id"]
        show = made("/api/v1/shows", {"title": f"{tag} show"})["id"]
        made(f"/api/v1/shows/{show}/episodes",
             {"episodes": [{"season": 1, "number": 1, "title": f"{tag} episode", "airDay": "2026-11-01"}]}, "PUT")
        made("/api/v1/prices/US/8", {"amount": 987.65, "currency": "USD"}, "PUT")
        token = made("/api/v1/tokens", {"name": f"{tag} token"})["id"]
        feed = made("/api/v1/feeds/reminders", None)["token"]
        made("/api/v1/settings/webhook", {"url": f"http://127.0.0.1:9/{tag}", "kind": "json"}, "PUT")
        made("/api/v1/settings", {"timeZone": "Pacific/Chatham", "daySwitchHour": 3}, "PATCH")  # state only:
        secrets = [tag.encode(), b"987.65", feed.encode(), a["Authorization"][7:].encode()]  # pages list every zone

        def state_of_a():
            parts = [call(base, path, headers=a)[1] for path in (
                "/api/v1/export", "/api/v1/tokens", "/api/v1/feeds/reminders", "/api/v1/settings/webhook",
                f"/api/v1/habits/{habit}/entries", f"/api/v1/shows/{show}/episodes")]
            return b"\n".join(parts)

        device = str(uuid.uuid4())

        def push(kind, id, fields):
            change = {"kind": kind, "id": id, "stamp": stamp(device)}
            change.update({"deleted": True} if fields is None else {"fields": fields})
            return {"device": device, "changes": [change]}

        b_export = json.loads(call(base, "/api/v1/export", headers=b)[1])
        a_export = json.loads(call(base, "/api/v1/export", headers=a)[1])
        # A's records with A's ids, but not A's words (B restoring them owns those words).
        foreign = json.loads(json.dumps(dict(
            b_export, habits=a_export["habits"], shows=a_export["shows"], episodes=a_export["episodes"],
            chat=a_export["chat"])).replace(tag, "copied"))
        csv = f"habitId,habitName,day,status,note\r\n{habit},B's,2026-11-19,skipped,B's\r\n".encode()
        api = "/api/v1"
        # (method, path, body, refusal due): a refusal is due where the path names A's id.
        attempts = [
            ("POST", f"{api}/import", foreign, False),  # first, while B has nothing: a restore
            ("GET", f"{api}/habits/{habit}", None, True),
            ("PATCH", f"{api}/habits/{habit}", {"name": "B's now"}, True),
            ("POST", f"{api}/habits/{habit}/archive", None, True),
            ("POST", f"{api}/habits/{habit}/unarchive", None, True),
            ("GET", f"{api}/habits/{habit}/entries", None, True),
            ("POST", f"{api}/habits/{habit}/entries", {"days": ["2026-11-19"], "status": "done"}, True),
            ("PUT", f"{api}/habits/{habit}/entries/{day}", {"status": "skipped"}, True),
            ("DELETE", f"{api}/habits/{habit}/entries/{day}", None, True),
            ("GET", f"{api}/habits/{habit}/grid", None, True),
            ("GET", f"{api}/habits/{habit}/stats", None, True),
            ("PUT", f"{api}/habits/order", {"ids": [habit]}, False),
            ("DELETE", f"{api}/habits/{habit}", None, True),
            ("GET", f"{api}/habits", None, False),
            ("GET", f"{api}/habits?include=statistics,entries", None, False),
            ("GET", f"{api}/habits?archived=true", None, False),
            ("GET", f"{api}/stats?archived=true", None, False),
            ("GET", f"{api}/grid", None, False),
            ("GET", f"{api}/today?day={day}", None, False),
            ("GET", f"{api}/reminders", None, False),
            ("GET", f"{api}/calendar/2026-11", None, False),
            ("GET", f"{api}/journal", None, False),
            ("GET", f"{api}/journal?q={needle}", None, False),
            ("GET", f"{api}/journal/{day}", None, False),
            ("GET", f"{api}/journal/{day}/revisions", None, False),
            ("PUT", f"{api}/journal/{day}", {"text": "B's day"}, False),
            ("DELETE", f"{api}/journal/{day}", None, False),
            ("GET", f"{api}/chat/{day}", None, False),
            ("POST", f"{api}/chat/{day}", {"text": "B's chat"}, False),
            ("PATCH", f"{api}/chat/messages/{message}", {"text": "B's now"}, True),
            ("DELETE", f"{api}/chat/messages/{message}", None, True),
            ("GET", f"{api}/shows", None, False),
            ("GET", f"{api}/shows/{show}", None, True),
            ("PUT", f"{api}/shows/{show}", {"title": "B's now"}, True),
            ("GET", f"{api}/shows/{show}/episodes", None, True),
            ("PUT", f"{api}/shows/{show}/episodes",
             {"episodes": [{"season": 1, "number": 1, "title": "B's", "airDay": "2026-11-02"}]}, True),
            ("POST", f"{api}/shows/{show}/refresh", None, True),
            ("DELETE", f"{api}/shows/{show}", None, True),
            ("GET", f"{api}/providers", None, False),
            ("GET", f"{api}/prices", None, False),
            ("PUT", f"{api}/prices/US/8", {"amount": 1.5, "currency": "USD"}, False),
            ("DELETE", f"{api}/prices/US/8", None, False),
            ("GET", f"{api}/tokens", None, False),
            ("DELETE", f"{api}/tokens/{token}", None, True),
            ("GET", f"{api}/feeds/reminders", None, False),
            ("DELETE", f"{api}/feeds/reminders", None, False),
            ("GET", f"{api}/settings/webhook", None, False),
            ("DELETE", f"{api}/settings/webhook", None, False),
            ("POST", f"{api}/settings/webhook/test", None, False),
            ("GET", f"{api}/settings", None, False),
            ("GET", f"{api}/me", None, False),
            ("GET", f"{api}/users", None, True),
            ("POST", f"{api}/users", {"name": "carol", "password": PASSWORD}, True),
            ("GET", f"{api}/backup", None, True),
            ("GET", f"{api}/export", None, False),
            ("GET", f"{api}/export?format=csv", None, False),
            ("POST", f"{api}/import?format=csv", csv, False),
            ("GET", f"{api}/sync?limit=5000", None, False),
            ("POST", f"{api}/sync", push("habit", habit, {"name": "B's now"}), True),
            ("POST", f"{api}/sync", push("habit", habit, None), True),
            ("POST", f"{api}/sync", push("entry", f"{habit}/{day}", {"status": "skipped", "note": "B's"}), True),
            ("POST", f"{api}/sync", push("chat", message, {"text": "B's now"}), True),
            ("POST", f"{api}/sync", push("show", show, {"title": "B's now"}), True),
            ("POST", f"{api}/sync", push("episode", f"{show}/1/1", {"title": "B's", "airDay": "2026-11-02"}), True),
        ]
        # The web pages, with B's session cookie (and this site's Origin for the forms).
        pages = [
            ("GET", f"/habits/{habit}", None, True),
            ("GET", f"/habits/{habit}/edit", None, True),
            ("POST", f"/habits/{habit}", {"name": "B's now", "color": "#8B5CF6", "frequency": "daily", "reminder": "none"}, True),
            ("POST", f"/habits/{habit}/mark", {"day": day, "status": "skipped", "back": "/today"}, True),
            ("POST", f"/habits/{habit}/toggle", {"day": day}, True),
            ("POST", f"/habits/{habit}/move", {"direction": "down"}, True),
            ("POST", f"/habits/{habit}/archive", {}, True),
            ("POST", f"/habits/{habit}/unarchive", {}, True),
            ("POST", f"/habits/{habit}/delete", {"confirm": "yes"}, True),
            ("POST", f"/today/chat/{message}", {"text": "B's now", "day": day}, True),
            ("POST", f"/today/chat/{message}/delete", {"day": day}, True),
            ("GET", f"/shows/{show}", None, True),
            ("POST", f"/shows/{show}", {"title": "B's now", "status": "watching"}, True),
            ("POST", f"/shows/{show}/providers", {"country": "US", "providerId": "8"}, True),
            ("POST", f"/shows/{show}/providers/remove", {"country": "US", "providerId": "8"}, True),
            ("POST", f"/shows/{show}/episodes", {"season": "1", "number": "2", "title": "B's", "airDay": "2026-11-02"}, True),
            ("POST", f"/shows/{show}/refresh", {}, True),
            ("POST", f"/shows/{show}/delete", {}, True),
            ("POST", f"/settings/tokens/{token}/revoke", {}, True),
            ("POST", "/settings/feed/revoke", {}, False),
            ("POST", "/settings/webhook", {"url": "", "kind": "json"}, False),
            ("POST", "/today/journal", {"day": day, "text": "B's day"}, False),
        ] + [("GET", page, None, False) for page in (
            "/today", f"/today?day={day}", "/habits", "/journal", f"/journal?q={needle}", "/calendar", "/calendar/2026-11",
            "/statistics", "/shows", "/prices", "/settings")]

        for path in ("/api/v1/habits", "/api/v1/habits?include=statistics,entries", "/api/v1/calendar/2026-11"):
            call(base, path, headers=a)  # A's answers are in the response cache now, keyed by user
        before = state_of_a()
        leaks, statuses = [], {}
        for method, path, body, refusal_due in attempts + pages:
            web = not path.startswith("/api/")
            if web:
                raw = urllib.parse.urlencode(body).encode() if body is not None else None
                status, answer = call(base, path, method, headers=b_cookie, raw=raw,
                                      content_type="application/x-www-form-urlencoded")
            elif isinstance(body, bytes):
                status, answer = call(base, path, method, headers=b, raw=body, content_type="text/csv")
            else:
                status, answer = call(base, path, method, body, b)
            statuses[status] = statuses.get(status, 0) + 1
            why = [f"answer holds {secret.decode()[:20]}" for secret in secrets if secret in answer]
            if refusal_due and status < 400:
                why.append(f"answered {status}")
            if status >= 500:
                why.append(f"answered {status}")
            if method != "GET":
                after = state_of_a()
                if after != before:
                    why.append("A's data changed")
                    before = after
            if os.environ.get("PROBE_VERBOSE"):
                print(f"  {status} {method} {path} {answer[:160]!r}")
            if why:
                leaks.append(f"{method} {path}: {', '.join(why)}")
        count = len(attempts) + len(pages)
        print(f"isolation: {count} attempts by a second user on the first user's data ({len(attempts)} API, "
              f"{len(pages)} web; statuses {dict(sorted(statuses.items()))}): {len(leaks)} leaks")
        for leak in leaks:
            print(f"  leak: {leak}")
        if arguments.isolation_as_owner:
            holds(leaks, "as the owner, the probe sees the owner's data")
        else:
            holds(not leaks, "no cross-user read or write")
    finally:
        stop(server, os.path.dirname(database))
