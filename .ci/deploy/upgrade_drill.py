"""The upgrade drill (issue 25, point 5): every earlier schema's database opens with this
binary and keeps every row; a newer one is refused untouched; a backup taken under write load
restores into a fresh server with an identical export.

Usage: upgrade_drill.py TALLY WORK_DIR (run from the repository root by .ci/deploy/upgrade-drill)
"""
import os
import sys
import time

import http_support
from drill_backup import drill_backups
from drill_fixtures import drill_upgrades
from drill_support import Tally, stop_all
from http_support import check


def main():
    tally = Tally(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]))
    began = time.monotonic()
    try:
        newest, source = tally.newest_schema(os.getcwd())
        print(f"== every earlier schema opens (newest: {newest}, from {source})", flush=True)
        drill_upgrades(tally, newest)
        print("== a backup taken under load restores with an identical export", flush=True)
        drill_backups(tally)
    except Exception as error:  # a crash of the drill itself is a failure, never a pass
        check(False, f"the drill stopped: {type(error).__name__}: {error}")
        raise
    finally:
        stop_all()
    print(f"== {len(http_support.passes)} passed, {len(http_support.failures)} failed in {time.monotonic() - began:.0f} s")
    for failure in http_support.failures:
        print("FAIL: " + failure.splitlines()[0])
    return 1 if http_support.failures else 0


if __name__ == "__main__":
    sys.exit(main())
