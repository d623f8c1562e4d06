"""Every earlier schema opens: each fixture database (Tests/TallySQLiteTests/Fixtures, one per
shipped schema) is copied, read with Python's sqlite3, served by `tally serve` (which migrates
it), and every user's `tally export` must hold exactly what Python read. A database from a
newer Tally is refused untouched."""
import glob
import json
import os
import re
import shutil
import sqlite3
import unicodedata
from decimal import Decimal

from drill_support import Server, sha256
from http_support import check

FIXTURES = "Tests/TallySQLiteTests/Fixtures"
# Rows the export leaves out (secrets, one server's bookkeeping) that an upgrade must keep too.
KEPT_TABLES = ["user_credentials", "api_tokens", "sessions", "reminder_deliveries"]


def version_number(identifier):
    return int(identifier.lstrip("v"))


def read_only(path):
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    return connection


def rows(db, table, order=""):
    if not db.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", (table,)).fetchone():
        return []
    return [dict(row) for row in db.execute(f'SELECT * FROM "{table}" {order}')]


def name_key(name):
    return unicodedata.normalize("NFC", name.strip()).lower()


def renamed_as_v5_does(habits):
    """docs/storage.md, Names (v5): per user in list order the first keeps a name, each later
    clash takes the first free " (n)"."""
    taken, names = set(), {}
    for habit in sorted(habits, key=lambda h: (h["user_id"], h["sort_order"], h["id"])):
        name, n = habit["name"], 2
        while (habit["user_id"], name_key(name)) in taken:
            name, n = f"{habit['name']} ({n})", n + 1
        taken.add((habit["user_id"], name_key(name)))
        names[habit["id"]] = name
    return names


def without_nulls(value):
    """An absent key and a null one say the same; only values are compared."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]


def habit_json(row, name):
    frequency = {
        "daily": {"type": "daily"},
        "weekly": {"type": "weekly", "targetPerWeek": row.get("target_per_week")},
        "timesInDays": {"type": "timesInDays", "times": row.get("schedule_times"), "days": row.get("schedule_days")},
        "monthly": {"type": "monthly", "timesPerMonth": row.get("schedule_times")},
    }[row["frequency"]]
    if row.get("weekdays") is not None:
        # docs/storage.md, v15: a daily habit with weekday bits (Sunday 1 … Saturday 64) keeps those days.
        frequency = {"type": "weekdays", "weekdays": [day for bit, day in enumerate(WEEKDAYS) if row["weekdays"] >> bit & 1]}
    reminder = {
        "none": {"type": "none"},
        "single": {"type": "single", "time": row["reminder_start"]},
        "periodic": {"type": "periodic", "start": row["reminder_start"], "end": row["reminder_end"],
                     "everyHours": row["reminder_every_hours"]},
    }[row["reminder"]]
    measure = None
    if row.get("kind") == "measurable":
        measure = {"unit": row["unit"], "target": Decimal(row["target"]) / 1000, "direction": row["target_direction"]}
    return {"id": row["id"], "name": name, "icon": row["icon"], "color": row["color"], "group": row["group_name"],
            "createdDay": row["created_day"], "frequency": frequency, "reminder": reminder,
            "archived": bool(row["archived"]), "sortOrder": row["sort_order"], "measure": measure,
            "description": row.get("description")}


def expected_exports(path):
    """What each user's export must hold, by user name, read straight from the file."""
    db = read_only(path)
    applied = {r["identifier"] for r in rows(db, "grdb_migrations")}
    habits = rows(db, "habits")
    names = renamed_as_v5_does(habits) if "v5" not in applied else {h["id"]: h["name"] for h in habits}
    entries = rows(db, "habit_entries", "ORDER BY day")
    providers = rows(db, "show_providers", "ORDER BY country, position")
    documents = {}
    for user in rows(db, "users"):
        uid = user["id"]
        mine = sorted((h for h in habits if h["user_id"] == uid), key=lambda h: (h["sort_order"], names[h["id"]], h["id"]))
        shows = sorted((s for s in rows(db, "shows") if s["user_id"] == uid), key=lambda s: (s["title"], s["id"]))
        documents[user["name"]] = without_nulls({
            "user": {"id": uid, "name": user["name"], "settings": {
                "timeZone": user["time_zone"], "daySwitchHour": user["day_switch_hour"],
                "firstWeekday": user["first_weekday"], "locale": user["locale"],
                "showDatePickerGrid": bool(user["show_date_picker_grid"]),
                "showGridDates": bool(user["show_grid_dates"]),
                # v17: the account's language; none (the browser's) before.
                "language": user.get("language")}},
            "habits": [{"habit": habit_json(h, names[h["id"]]), "entries": [
                {"day": e["day"], "status": e["status"], "note": e["note"],
                 "amount": Decimal(e["amount"]) / 1000 if e.get("amount") is not None else None}
                for e in entries if e["habit_id"] == h["id"]]} for h in mine],
            "journal": [{"day": j["day"], "text": j["text"]}
                        for j in rows(db, "journal_entries", "ORDER BY day") if j["user_id"] == uid],
            "chat": [{"id": c["id"], "day": c["day"], "role": c["role"], "text": c["text"], "sentAt": c["sent_at"]}
                     for c in rows(db, "chat_messages", "ORDER BY day, sent_at, rowid") if c["user_id"] == uid],
            "shows": [{"id": s["id"], "title": s["title"], "status": s["status"], "tmdbId": s.get("tmdb_id"),
                       "providers": {country: [{"id": p["provider_id"], "name": p["name"], "logoURL": p["logo_url"]}
                                               for p in providers if p["show_id"] == s["id"] and p["country"] == country]
                                     for country in sorted({p["country"] for p in providers if p["show_id"] == s["id"]})}}
                      for s in shows],
            "episodes": [{"showId": e["show_id"], "season": e["season"], "number": e["number"], "title": e["title"],
                          "airDay": e["air_day"]}
                         for s in shows for e in rows(db, "episodes", "ORDER BY season, number") if e["show_id"] == s["id"]],
            "prices": [{"country": p["country"], "providerID": p["provider_id"], "amount": Decimal(p["amount"]),
                        "currency": p["currency"]}
                       for p in rows(db, "prices", "ORDER BY country, provider_id") if p["user_id"] == uid],
            "pauses": [{"id": p["id"], "habitId": p["habit_id"], "from": p["from_day"], "until": p["until_day"]}
                       for p in rows(db, "pauses", "ORDER BY from_day, id") if p["user_id"] == uid],
        })
    kept = {table: sorted(json.dumps(r, sort_keys=True) for r in rows(db, table)) for table in KEPT_TABLES}
    db.close()
    return documents, kept


def listing(name, document):
    habits = ", ".join(f"{h['habit']['name']} ({len(h['entries'])} day{'s' * (len(h['entries']) != 1)})"
                       for h in document["habits"]) or "no habits"
    return (f"{name}: {habits}; journal {len(document['journal'])}, chat {len(document['chat'])}, "
            f"shows {len(document['shows'])}, episodes {len(document['episodes'])}, prices {len(document['prices'])}, "
            f"pauses {len(document['pauses'])}")


def differences(expected, actual, path="", out=None):
    out = [] if out is None else out
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            differences(expected.get(key), actual.get(key), f"{path}.{key}", out)
    elif isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for i, (e, a) in enumerate(zip(expected, actual)):
            differences(e, a, f"{path}[{i}]", out)
    elif expected != actual:
        out.append(f"{path}: fixture {expected!r}, export {actual!r}")
    return out


def drill_fixture(tally, fixture, newest, work):
    version = os.path.basename(fixture)[:-len(".sqlite")]
    before = sha256(fixture)
    folder = os.path.join(work, f"upgrade-{version}")
    os.makedirs(folder)
    # Python reads one copy; the server migrates another; the fixture itself is never opened.
    original, served = os.path.join(folder, "original.sqlite"), os.path.join(folder, "tally.sqlite")
    shutil.copyfile(fixture, original)
    shutil.copyfile(fixture, served)
    expected, kept = expected_exports(original)
    for name, document in expected.items():
        print(f"     {version} holds {listing(name, document)}")
    server = Server(tally, served)
    try:
        if not check(server.healthy, f"{version}: tally serve started on the copy and /healthz answered 200"):
            print(server.tail())
            return
        db = read_only(served)
        applied = sorted((r["identifier"] for r in db.execute("SELECT identifier FROM grdb_migrations")), key=version_number)
        db.close()
        check(applied == [f"v{n}" for n in range(1, version_number(newest) + 1)],
              f"{version}: migrated to the newest schema {newest} (applied {applied[0]}…{applied[-1]})")
        for name, document in expected.items():
            exported = tally.export(served, name)
            found = differences(document, without_nulls({k: v for k, v in (exported or {}).items()
                                                         if k not in ("format", "version")}))
            check(exported is not None and not found,
                  f"{version}: {name}'s export holds every row the fixture had ({len(document['habits'])} habits, "
                  f"{sum(len(h['entries']) for h in document['habits'])} entries, {len(document['journal'])} journal, "
                  f"{len(document['chat'])} chat, {len(document['shows'])} shows, {len(document['episodes'])} episodes, "
                  f"{len(document['prices'])} prices)" + "".join(f"\n       {d}" for d in found[:10]))
    finally:
        check(server.stop(), f"{version}: the server stopped cleanly on SIGTERM")
    # Read after the stop: the columns of these rows are compared as the fixture had them.
    db = read_only(served)
    for table, before_rows in kept.items():
        if before_rows:
            after = {json.dumps({k: r[k] for k in json.loads(before_rows[0])}, sort_keys=True) for r in rows(db, table)}
            check(set(before_rows) <= after, f"{version}: its {len(before_rows)} {table} row(s) are kept unchanged")
    db.close()
    check(sha256(fixture) == before, f"{version}: the fixture file itself is byte for byte as committed")


def drill_newer_schema(tally, newest_fixture, work):
    """docs/storage.md: a migration identifier this program does not know means a newer Tally
    wrote it; the file is refused, named with its version, and left byte for byte."""
    folder = os.path.join(work, "newer")
    os.makedirs(folder)
    path = os.path.join(folder, "tally.sqlite")
    shutil.copyfile(newest_fixture, path)
    db = sqlite3.connect(path)
    db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v999')")
    db.commit()
    db.close()
    before, files = sha256(path), sorted(os.listdir(folder))
    server = Server(tally, path, wait=False)
    try:
        server.process.wait(timeout=60)
    finally:
        server.stop()
    log = open(server.log_path).read()
    check(server.process.returncode != 0 and path in log and "v999" in log,
          f"tally serve refuses a database with schema v999: exit {server.process.returncode}, "
          f"\"{log.strip().splitlines()[-1] if log.strip() else ''}\"")
    result = tally.run("--db", path, "habit", "list")
    check(result.returncode == 74 and path in result.stderr and "v999" in result.stderr,
          f"tally habit list refuses it too: exit {result.returncode}")
    check(sha256(path) == before and sorted(os.listdir(folder)) == files,
          "the newer database is byte for byte as it was, and nothing was made beside it")
    known = re.search(r"knows schemas up to (v\d+)", log)
    return known.group(1) if known else None


def drill_upgrades(tally, newest):
    fixtures = sorted(glob.glob(os.path.join(FIXTURES, "v*.sqlite")),
                      key=lambda p: version_number(os.path.basename(p)[:-len(".sqlite")]))
    check(len(fixtures) > 0, f"{len(fixtures)} fixture databases in {FIXTURES}: "
          + ", ".join(os.path.basename(p)[:-len('.sqlite')] for p in fixtures))
    for fixture in fixtures:
        drill_fixture(tally, fixture, newest, tally.work)
    known = drill_newer_schema(tally, fixtures[-1], tally.work)
    check(known == newest, f"the refusal names {known} as the newest schema this binary knows, as expected ({newest})")
