#!/usr/bin/env python3
"""segment_test.py — tfviz's word mode against the reference segmenter.

    segment_test.py TFVIZ [--no-hmm] SENTENCES [SENTENCES...]

For every sentence, the words of `tfviz --print tokens --format json` (tokens grouped by their
"word" index, so a word re-segmented into vocabulary words still counts as one word) must equal
jieba.cut(sentence) (its default, the HMM on: 小明 and 李华 are words) with the whitespace tokens
removed; with --no-hmm, those of `tfviz --no-hmm` must equal jieba.cut(sentence, HMM=False). And every token has a status
that fits: a word that is one token is in_vocab or unk; a word of several tokens has split
tokens that are vocabulary words (id = 4 + frequency rank - 1) and fallback or unk tokens of one
character each. The first file is the agreement set (at least 200 sentences); later ones are
held out. jieba comes from Debian's
python3-jieba, run with /usr/bin/python3 (the python3 on PATH may not see Debian packages).
A sentence marked "<TAB>#diff: why" in the data file must differ, and the test prints both.
"""
import json
import subprocess
import sys

JIEBA = r"""
import json, logging, sys
import jieba
jieba.setLogLevel(logging.WARNING)
out = []
for line in sys.stdin.read().split("\n"):
    out.append([w for w in jieba.cut(line, HMM=HMM) if not w.isspace()])
print(json.dumps(out, ensure_ascii=False))
"""


def bad_statuses(tokens):
    """What is wrong with the tokens' statuses, or an empty string."""
    by_word = {}
    for t in tokens:
        by_word.setdefault(t["word"], []).append(t)
    for ts in by_word.values():
        if len(ts) == 1:
            if ts[0]["status"] not in ("in_vocab", "unk"):
                return "%s alone is %s" % (ts[0]["text"], ts[0]["status"])
            continue
        for t in ts:
            if t["status"] == "split" and not (t["rank"] is None or t["id"] == 3 + t["rank"]):
                return "split token %s is no vocabulary word" % t["text"]
            if t["status"] in ("fallback", "unk") and len(t["text"]) != 1:
                return "fallback token %s is not one character" % t["text"]
            if t["status"] == "in_vocab":
                return "%s is in_vocab inside a longer word" % t["text"]
    return ""


def main():
    tfviz, files = sys.argv[1], sys.argv[2:]
    hmm = not (files and files[0] == "--no-hmm")
    if not hmm:
        files = files[1:]
    flags = [] if hmm else ["--no-hmm"]
    ref_name = "jieba.cut" if hmm else "jieba.cut(HMM=False)"
    cases = []
    for k, data in enumerate(files):
        n = len(cases)
        with open(data, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                text, _, note = line.partition("\t")
                cases.append((text, note.startswith("#diff:")))
        if k == 0 and len(cases) - n < 200:
            sys.exit("only %d sentences; the agreement test needs at least 200" % len(cases))
    ref = subprocess.run(["/usr/bin/python3", "-c", "HMM = %s\n" % hmm + JIEBA],
                         input="\n".join(t for t, _ in cases).encode(), capture_output=True)
    if ref.returncode != 0:
        sys.exit("the reference segmenter failed (install python3-jieba, as "
                 "scripts/bootstrap.sh does):\n" + ref.stderr.decode(errors="replace"))
    expected = json.loads(ref.stdout)
    failed = agreed = 0
    for (text, marked), want in zip(cases, expected):
        p = subprocess.run([tfviz, "--print", "tokens", "--format", "json"] + flags +
                           ["--", text],
                           capture_output=True)
        if p.returncode != 0:
            print("FAIL %s: tfviz exited %d: %s" % (text, p.returncode, p.stderr.decode()))
            failed += 1
            continue
        j = json.loads(p.stdout)
        raw = text.encode()
        words, spans = [], {}
        for t in j["tokens"]:
            s, e = spans.get(t["word"], (t["start"], t["end"]))
            spans[t["word"]] = (min(s, t["start"]), max(e, t["end"]))
        words = [raw[s:e].decode() for _, (s, e) in sorted(spans.items())]
        bad = bad_statuses(j["tokens"])
        if bad:
            print("FAIL %s: %s" % (text, bad))
            failed += 1
            continue
        same = words == want
        if same and not marked:
            agreed += 1
        elif not same and marked:
            print("explained difference: %s\n  tfviz: %s\n  jieba: %s" %
                  (text, "/".join(words), "/".join(want)))
            agreed += 1
        else:
            print("FAIL %s\n  tfviz: %s\n  jieba: %s%s" %
                  (text, "/".join(words), "/".join(want),
                   "\n  (marked #diff but now the same: remove the mark)" if marked else ""))
            failed += 1
    print("%d of %d sentences agree with %s" % (agreed, len(cases), ref_name))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
