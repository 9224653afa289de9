#!/usr/bin/env python3
"""bench_tokens.py — what real tokenization costs tfviz: start-up and throughput.

    bench/bench_tokens.py [--build DIR] [--tfviz PATH] [--runs N] [--mb M] [--json FILE]

(bench/run.sh runs it as a plug-in: TFVIZ names the binary, BENCH_BUILD the build with
bench_tokens and the assets, BENCH_QUICK=1 takes fewer runs and 1 MB.)

1. Start-up: the median wall time of `tfviz --print tokens 我爱学习` in each mode over N runs
   (interleaved), against a baseline that opens no data file (char mode over code points,
   TFVIZ_DATA_DIR pointing at an empty directory). Target: word mode adds < 5 ms.
2. Throughput: every line of a corpus of about M MB (tests/data/segment_sentences.txt repeated)
   split by the built bench_tokens program (tokenizer_split_any per line, best of 3), side by
   side with the reference implementations on the same lines: jieba.cut(line) (its HMM on, as
   tfviz's word mode) under /usr/bin/python3 and tiktoken's encode_ordinary under node.
   Target: word mode > 5 MB/s.
   Throughput is bytes per second of the process's CPU time (all three measure it the same
   way), so other work on a shared machine does not count; start-up is wall time.
Peers that are not installed are reported as missing, not guessed.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

JIEBA = r"""
import json, logging, sys, time
import jieba
jieba.setLogLevel(logging.WARNING)
jieba.initialize()
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
t0 = time.process_time(); n = 0
for line in lines:
    n += sum(1 for _ in jieba.cut(line))
print(json.dumps({"seconds": time.process_time() - t0, "tokens": n}))
"""

TIKTOKEN = r"""
const path = require("path");
const { get_encoding } = require(path.resolve(process.argv[2], "tiktoken.cjs"));
const lines = require("fs").readFileSync(process.argv[3], "utf8").split("\n");
const enc = get_encoding(process.argv[4]);
const t0 = process.cpuUsage(); let n = 0;
for (const line of lines) n += enc.encode_ordinary(line).length;
const u = process.cpuUsage(t0), s = (u.user + u.system) / 1e6;
console.log(JSON.stringify({ seconds: s, tokens: n }));
"""


def wall(cmd, env):
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t0) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    # bench/run.sh names its build (BENCH_BUILD) and binary (TFVIZ), and asks for a quick run
    quick = bool(os.environ.get("BENCH_QUICK"))
    ap.add_argument("--build", default=os.path.join(ROOT, os.environ.get("BENCH_BUILD") or "build"))
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ"),
                    help="the tfviz binary (default: BUILD/app/tfviz)")
    ap.add_argument("--runs", type=int, default=10 if quick else 40)
    ap.add_argument("--mb", type=float, default=1.0 if quick else 4.0)
    ap.add_argument("--json", help="also write the numbers to this file")
    a = ap.parse_args()
    tfviz = a.tfviz or os.path.join(a.build, "app", "tfviz")
    bench = os.path.join(a.build, "bench_tokens")
    data = os.path.join(a.build, "assets")
    for f in (tfviz, bench, os.path.join(data, "tfviz-dict.bin")):
        if not os.path.exists(f):
            sys.exit("bench_tokens: %s is missing; build first (meson compile -C %s)" %
                     (f, a.build))
    results = {"startup_ms": {}, "throughput_mb_s": {}}
    env = dict(os.environ, TFVIZ_DATA_DIR=data)

    # 1. start-up
    with tempfile.TemporaryDirectory() as empty:
        cases = {"baseline (char, no data file)":
                 ([tfviz, "--print", "tokens", "--tokenizer", "char", "我爱学习"],
                  dict(os.environ, TFVIZ_DATA_DIR=empty))}
        for mode in ("word", "char", "cl100k", "o200k"):
            if mode in ("cl100k", "o200k") and not os.path.exists(
                    os.path.join(data, "tfviz-%s.bin" % mode)):
                continue
            cases[mode] = ([tfviz, "--print", "tokens", "--tokenizer", mode, "我爱学习"], env)
        times = {k: [] for k in cases}
        for k, (cmd, e) in cases.items():  # warm the page cache
            wall(cmd, e)
        for _ in range(a.runs):
            for k, (cmd, e) in cases.items():
                times[k].append(wall(cmd, e))
    base = statistics.median(times["baseline (char, no data file)"])
    print("Start-up: tfviz --print tokens 我爱学习, median of %d runs" % a.runs)
    print("| mode | median ms | min ms | added vs baseline |")
    print("|---|---:|---:|---:|")
    for k, ts in times.items():
        med = statistics.median(ts)
        results["startup_ms"][k] = {"median": med, "min": min(ts), "added": med - base}
        print("| %s | %.2f | %.2f | %+.2f ms |" % (k, med, min(ts), med - base))

    # 2. throughput
    lines = [l for l in open(os.path.join(ROOT, "tests", "data", "segment_sentences.txt"),
                             encoding="utf-8").read().split("\n") if l and not l.startswith("#")]
    block = "\n".join(lines) + "\n"
    reps = max(1, int(a.mb * 1e6 / len(block.encode())))
    node = shutil.which("node")
    pkg = os.path.join(ROOT, ".cache", "tiktoken", "package")
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt", delete=False) as f:
        f.write(block * reps)
        corpus = f.name
    size = os.path.getsize(corpus)
    try:
        print("\nThroughput: %.1f MB of Chinese sentences, split line by line" % (size / 1e6))
        print("| mode | tfviz MB/s | tokens | peer | peer MB/s | tfviz / peer |")
        print("|---|---:|---:|---|---:|---:|")
        for mode in ("word", "char", "cl100k", "o200k"):
            p = subprocess.run([bench, mode, corpus, "3"], env=env, capture_output=True)
            if p.returncode != 0:
                print("| %s | unavailable | | | | |" % mode)
                continue
            r = json.loads(p.stdout)
            peer, peer_mb = "-", None
            if mode == "word":
                q = subprocess.run(["/usr/bin/python3", "-c", JIEBA, corpus], capture_output=True)
                peer = "jieba.cut"
                if q.returncode == 0:
                    peer_mb = size / json.loads(q.stdout)["seconds"] / 1e6
            elif mode in ("cl100k", "o200k") and node and os.path.isdir(pkg):
                q = subprocess.run([node, "-e", TIKTOKEN, "x", pkg, corpus, mode + "_base"],
                                   capture_output=True)
                peer = "tiktoken (node)"
                if q.returncode == 0:
                    peer_mb = size / json.loads(q.stdout)["seconds"] / 1e6
            results["throughput_mb_s"][mode] = {"tfviz": r["mb_per_s"], "tokens": r["tokens"],
                                                "peer": peer, "peer_mb_s": peer_mb}
            print("| %s | %.2f | %d | %s | %s | %s |" % (
                mode, r["mb_per_s"], r["tokens"], peer,
                "%.2f" % peer_mb if peer_mb else ("missing" if peer != "-" else "-"),
                "%.2f" % (r["mb_per_s"] / peer_mb) if peer_mb else "-"))
    finally:
        os.unlink(corpus)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
