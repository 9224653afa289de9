#!/usr/bin/env python3
"""summary_test.py — scripts/test_summary.py over made-up meson logs: passed, failed and skipped
tests are counted, every skipped one is named with its reason above the summary, and the last
line is exactly 'N passed, N failed, N skipped' (CI reads it).

    summary_test.py TEST_SUMMARY_PY"""
import json
import os
import re
import subprocess
import sys
import tempfile

from harness import FAILS, check


def summary(script, records):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "testlog.json")
        with open(path, "w", encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
        p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
    return p.returncode, p.stdout.splitlines()


def main():
    script = sys.argv[1]
    rc, out = summary(script, [
        {"name": "a", "result": "OK", "stdout": ""},
        {"name": "bpe", "result": "SKIP", "stdout": "skipped: the BPE tables were not fetched\n"},
        {"name": "t", "result": "SKIP", "stdout": "1..0 # SKIP no English list\n"},
        {"name": "b", "result": "EXPECTEDFAIL", "stdout": ""},
        {"name": "n", "result": "SKIP", "stdout": "# skipped: numpy is not installed\n"},
    ])
    check(rc == 0 and out[-1] == "2 passed, 0 failed, 3 skipped", f"counts: {out[-1:]}")
    check("SKIPPED: bpe: the BPE tables were not fetched" in out and
          "SKIPPED: t: no English list" in out and
          "SKIPPED: n: numpy is not installed" in out, "each skip named with its reason")
    check(out.index("SKIPPED: bpe: the BPE tables were not fetched") < len(out) - 1,
          "the reasons come above the summary")
    rc, out = summary(script, [{"name": "a", "result": "FAIL", "stdout": ""},
                               {"name": "b", "result": "OK", "stdout": ""}])
    check(rc == 1 and out[-1] == "1 passed, 1 failed, 0 skipped", "a failure fails")
    check(re.fullmatch(r"\d+ passed, \d+ failed, \d+ skipped", out[-1]) is not None,
          "the last line's form")
    rc, out = summary(script, [{"name": "s", "result": "SKIP", "stdout": ""}])
    check(rc == 1 and out[-1] == "0 passed, 0 failed, 1 skipped",
          "nothing passed is not a pass")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
