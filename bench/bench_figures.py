#!/usr/bin/python3
"""bench_figures.py — every still figure's export against the pe figure's, side by side in one run.

bench/run.sh: plug-in

Each still figure of the table (tfviz-options-docs figures) is exported at its defaults
(`--export F.png --figure NAME`, one column, 300 dpi), and the schemes figure besides with each
RoPE scaling (`--scaling linear|ntk|dynamic|yarn|llama3`). Each run is a fresh process timed end
to end; the figures take turns within every round, so load on the machine hits all alike. The
map of words reads vectors trained once before the runs (their training is not timed); the
order-training figure trains its model in the export, so its time is the training's and is
reported apart, without a goal.

Reported per figure: the median wall time, and its ratio to pe's median of the same run.
Target (issue 30): every figure within 3x pe's time. Exit status 0 when every target is met.

Usage: bench/bench_figures.py [--runs N] [--tfviz PATH] [--dir DIR]
  TFVIZ names the binary (default build/app/tfviz), BENCH_QUICK=1 takes 3 runs."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET = 3.0
SCALINGS = ["linear", "ntk", "dynamic", "yarn", "llama3"]
TRAINS = {"order-training"}  # the export trains first: timed apart, no goal


def wall(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"bench_figures: {' '.join(cmd)} failed:\n{p.stderr}")
    return t


def still_figures(tfviz):
    docs = os.path.join(os.path.dirname(tfviz), "tfviz-options-docs")
    out = subprocess.run([docs, "figures"], capture_output=True, text=True, check=True).stdout
    return [row.split("\t")[0] for row in out.splitlines() if row.split("\t")[1:2] == ["still"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3 if os.environ.get("BENCH_QUICK") else 7)
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ") or
                    os.path.join(ROOT, "build", "app", "tfviz"))
    ap.add_argument("--dir")
    args = ap.parse_args()
    tfviz = os.path.abspath(args.tfviz)
    d = args.dir or tempfile.mkdtemp(prefix="bench_figures.")
    vectors = os.path.join(d, "vectors.txt")
    subprocess.run([tfviz, "--train", "-o", vectors], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    jobs = {}
    for name in still_figures(tfviz):
        extra = ["--vectors", vectors] if name == "embedding-map" else []
        jobs[name] = [tfviz, "--export", os.path.join(d, name + ".png"), "--figure", name, *extra]
    for s in SCALINGS:
        jobs["schemes-" + s] = [tfviz, "--export", os.path.join(d, "schemes-" + s + ".png"),
                                "--figure", "schemes", "--scaling", s]
    times = {k: [] for k in jobs}
    for _ in range(args.runs):
        for k, cmd in jobs.items():
            times[k].append(wall(cmd))
    pe = statistics.median(times["pe"])
    ok = True
    print(f"{'figure':<22}{'median s':>10}{'min':>8}{'max':>8}{'x pe':>8}")
    for k, ts in times.items():
        med = statistics.median(ts)
        trains = k in TRAINS
        within = trains or med <= TARGET * pe
        ok &= within
        print(f"{k:<22}{med:>10.3f}{min(ts):>8.3f}{max(ts):>8.3f}{med / pe:>8.2f}"
              f"{'  (trains first)' if trains else '' if within else '  over 3x'}")
    for k, ts in times.items():
        print(f"figure_{k}\t{statistics.median(ts) * 1000:.1f}\tms\t{min(ts) * 1000:.1f}\t"
              f"{max(ts) * 1000:.1f}")
        if k != "pe" and k not in TRAINS:
            print(f"ratio\t{k} export / pe export\tfigure_{k}\tfigure_pe\t<={TARGET:g}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
