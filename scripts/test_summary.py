#!/usr/bin/env python3
"""Print one line 'N passed, N failed, N skipped' over meson test logs (testlog.json files).

Each meson test counts once. A skipped test (exit status 77, or TAP output that skips every
subtest) is named with its reason on a line above the summary: the reason is the test's
"skipped: ..." line (tests/skip.c prints one; "# skipped: ..." too) or its TAP "# SKIP ..."
directive. The summary
is the last line printed; CI reads it."""
import json
import re
import sys

REASON = re.compile(r"^(?:[#\s]*skipped:\s*(.+)|.*#\s*SKIP\b\s*(.*))$",
                    re.IGNORECASE | re.MULTILINE)


def skip_reason(t):
    m = REASON.search(t.get("stdout") or "")
    if not m:
        return "no reason given"
    return (m.group(1) or m.group(2) or "no reason given").strip()


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
            result = t.get("result")
            if result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif result == "SKIP":
                skipped += 1
                print(f"SKIPPED: {t.get('name')}: {skip_reason(t)}")
            else:
                failed += 1
                print(f"FAILED: {t.get('name')} ({path})", file=sys.stderr)
    sys.stderr.flush()
    print(f"{passed} passed, {failed} failed, {skipped} skipped", flush=True)
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
