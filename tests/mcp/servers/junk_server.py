"""Stdio "servers" that fail at start: junk only, exit at once, or hang. For the error tests."""

import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "junk"
if mode == "junk":
    for _line in sys.stdin:
        sys.stdout.write("this is not json-rpc\n")
        sys.stdout.flush()
elif mode == "exit":
    sys.stderr.write("config error: MISSING_TOKEN is not set\n")
    raise SystemExit(2)
elif mode == "hang":
    time.sleep(3600)
