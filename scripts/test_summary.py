#!/usr/bin/env python3
"""Print one line 'N passed, N failed' (and ', N skipped' when a test was skipped) over meson
test logs (testlog.json files).

A test that reports TAP subtests counts each subtest; a plain test counts once."""
import json
import sys


def main(paths):
    passed = failed = skipped = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                lines = [json.loads(l) for l in f if l.strip()]
        except OSError as e:
            print(f"test_summary: cannot read {path}: {e.strerror}", file=sys.stderr)
            failed += 1
            continue
        for t in lines:
            ok = t.get("result") in ("OK", "EXPECTEDFAIL")
            if ok:
                passed += 1
            elif t.get("result") == "SKIP":
                skipped += 1
                print(f"SKIPPED: {t.get('name')} ({path})", file=sys.stderr)
            else:
                failed += 1
                print(f"FAILED: {t.get('name')} ({path})", file=sys.stderr)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
