#!/usr/bin/env python3
"""bench_order_keys.py — how fast the explorer answers a key while view 10 (key 0) trains the order model
(issue 14's target: every key within 50 ms), measured from outside through a pseudo-terminal,
side by side with the same key in an idle view (view 1, nothing computing: the peer).

    bench/bench_order_keys.py [--tfviz build/app/tfviz] [--keys 40]

bench/run.sh: plug-in

The key is ? (the help box: new text that appears whole, so its arrival is unambiguous); the
next key closes it and training goes on before the next measurement (r starts it again every
five keys, so the keys always meet a run in progress). A key's time runs from the
write to the pty to the first read that completes "press any key to close". View 9 is measured
at its default speed (5 ms of training a 40 ms frame) and at full speed (25 ms a frame)."""
import argparse
import os
import select
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_tui import drain, finish, spawn  # noqa: E402

MARK = b"press any key to close"


def answer_ms(fd, timeout=2.0):
    """Send ? and return the milliseconds until the help box is on the screen."""
    t0 = time.perf_counter()
    os.write(fd, b"?")
    buf = b""
    end = t0 + timeout
    while time.perf_counter() < end:
        r, _, _ = select.select([fd], [], [], 0.005)
        if r:
            buf += os.read(fd, 65536)
            if MARK in buf:
                return (time.perf_counter() - t0) * 1000
    return float("nan")


def measure(tfviz, setup, n):
    pid, fd = spawn(tfviz, ["--lang", "en", "我爱学习"], 120, 40)
    times = []
    try:
        drain(fd, quiet=0.5)
        for key, wait in setup:
            os.write(fd, key)
            drain(fd, quiet=wait, limit=wait + 1.0)
        for i in range(n):
            times.append(answer_ms(fd))
            os.write(fd, b"x")  # close the box: training goes on
            if i % 5 == 4:
                os.write(fd, b"r")  # from the start again: a run at full speed is short
            time.sleep(0.12 + 0.011 * (i % 5))  # a few frames of training, off the frame beat
    finally:
        finish(pid, fd)
    return [t for t in times if t == t]


def line(name, times, goal):
    if not times:
        print(f"# {name}: no answer measured")
        return
    print(f"{name}\t{statistics.median(times):.2f}\tms\t{min(times):.2f}\t{max(times):.2f}\t{goal}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ", "build/app/tfviz"))
    ap.add_argument("--keys", type=int, default=15 if os.environ.get("BENCH_QUICK") else 40)
    a = ap.parse_args()
    idle = measure(a.tfviz, [], a.keys)
    default = measure(a.tfviz, [(b"0", 0.05), (b"r", 0.05)], a.keys)
    full = measure(a.tfviz, [(b"0", 0.05)] + [(b">", 0.02)] * 5 + [(b"r", 0.05)], a.keys)
    line("order_view_key_idle_view1", idle, "")
    line("order_view_key_training", default, "<50")
    line("order_view_key_training_full_speed", full, "<50")
    if full:
        print(f"# view 10 at full speed: max {max(full):.1f} ms over {len(full)} keys "
              "(the target is for every key, not only the median)")
    print("ratio\tview 10 training vs idle view 1 (key answer)\torder_view_key_training\t"
          "order_view_key_idle_view1")


if __name__ == "__main__":
    main()
