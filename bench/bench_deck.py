#!/usr/bin/python3
"""bench_deck.py — the lesson as slides: tfviz --lesson --export deck.pdf and deck/ end to end.

Each run is a fresh process (start-up, the analysis, the order model and the word vectors
trained once as the lesson trains them, every slide laid out and drawn, the file written), the
default sentence 我爱学习 in Chinese, and the English deck with --extended. Reported: medians
of wall time, CPU time (user + sys) and peak resident memory. Goal: the whole deck within 5 s.

bench/run.sh: plug-in (TFVIZ names the binary, BENCH_QUICK=1 takes 3 runs)."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

TFVIZ = os.environ.get("TFVIZ") or "build/app/tfviz"
RUNS = 3 if os.environ.get("BENCH_QUICK") else 9


def timed(cmd):
    """(wall s, cpu s, peak KB) of one run, from wait4's resource usage."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_deck: {' '.join(cmd)} failed: {p.stderr.read().decode()}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def main():
    with tempfile.TemporaryDirectory() as d:
        cases = [("deck_pdf_zh", ["--lesson", "--export", os.path.join(d, "deck.pdf")]),
                 ("deck_png_zh", ["--lesson", "--export", os.path.join(d, "deck") + "/"]),
                 ("deck_pdf_en_extended", ["--lesson", "--extended", "--lang", "en", "--export",
                                           os.path.join(d, "en.pdf")])]
        for name, args in cases:
            runs = [timed([TFVIZ, *args]) for _ in range(RUNS)]
            wall = [r[0] for r in runs]
            print(f"{name}\t{statistics.median(wall):.2f}\ts\t{min(wall):.2f}\t{max(wall):.2f}"
                  "\t<5")
            print(f"{name}_cpu\t{statistics.median(r[1] for r in runs):.2f}\ts")
            print(f"{name}_peak_rss\t{statistics.median(r[2] for r in runs) / 1024:.0f}\tMB")


if __name__ == "__main__":
    main()
