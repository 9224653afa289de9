#!/usr/bin/env python3
"""bpe_test.py — tfviz's byte-level BPE against the npm package tiktoken@1.0.22.

    bpe_test.py TFVIZ CASES_JSON REFERENCE_JSON [TIKTOKEN_PACKAGE_DIR]

REFERENCE_JSON holds the ids tiktoken gives for every string of CASES_JSON; it was made with
    node tests/bpe_reference.cjs .cache/tiktoken/package < tests/data/bpe_cases.json \
        > tests/data/bpe_reference.json
When node and the package are present, the test runs that command again and checks that the
recorded ids are still tiktoken's. Then for each case and encoding tfviz's ids must equal
tiktoken's, and the tokens' byte ranges must tile the text.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    tfviz, cases_file, ref_file = sys.argv[1:4]
    pkg = sys.argv[4] if len(sys.argv) > 4 else ""
    cases = json.load(open(cases_file, encoding="utf-8"))
    ref = json.load(open(ref_file, encoding="utf-8"))
    if ref.get("version") != "1.0.22":
        sys.exit("the reference ids are not from tiktoken 1.0.22")
    node = shutil.which("node")
    if node and pkg and os.path.isfile(os.path.join(pkg, "tiktoken.cjs")):
        live = subprocess.run([node, os.path.join(HERE, "bpe_reference.cjs"), pkg],
                              input=json.dumps(cases).encode(), capture_output=True, check=True)
        if json.loads(live.stdout) != ref:
            sys.exit("tiktoken under node no longer gives the recorded ids: regenerate %s" %
                     ref_file)
        print("recorded ids confirmed with tiktoken under node")
    failed = 0
    for mode, enc in (("cl100k", "cl100k_base"), ("o200k", "o200k_base")):
        for text, want in zip(cases, ref[enc]):
            p = subprocess.run([tfviz, "--tokenizer", mode, "--print", "tokens", "--format",
                                "json", "--", text], capture_output=True)
            if p.returncode != 0:
                print("FAIL %s %r: exit %d %s" % (mode, text, p.returncode, p.stderr.decode()))
                failed += 1
                continue
            j = json.loads(p.stdout)
            got = [t["id"] for t in j["tokens"]]
            raw = text.encode()
            tiles = all(a["end"] == b["start"] for a, b in zip(j["tokens"], j["tokens"][1:]))
            tiles = tiles and j["tokens"][0]["start"] == 0 and j["tokens"][-1]["end"] == len(raw)
            partial_ok = all(bytes(t["bytes"]) == raw[t["start"]:t["end"]]
                             for t in j["tokens"] if t.get("partial"))
            if got != want or not tiles or not partial_ok:
                print("FAIL %s %r\n  tfviz:    %s\n  tiktoken: %s%s" %
                      (mode, text, got, want, "" if tiles and partial_ok else "\n  bad ranges"))
                failed += 1
    print("%d of %d encodings equal tiktoken's" % (2 * len(cases) - failed, 2 * len(cases)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
