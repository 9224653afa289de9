#!/usr/bin/env python3
"""bench_tui.py — first-frame and per-key redraw time of the tfviz explorer, per view, measured
from outside through a pseudo-terminal (what a user waits for, including ncurses' output).

    bench/bench_tui.py [--tfviz build/app/tfviz] [--runs 15] [--json out.json]

A frame is over when the terminal has been quiet for QUIET seconds; its time is that of the
last byte read, so the quiet wait itself is not counted. Reports medians and the ratio to the
targets: first frame < 20 ms at 200x60; a redraw < 5 ms at d_model 512 and < 16 ms at
d_model 4096 with 2,048 positions; at the article's scale (d_model 4096, n = 10,000) every key
that rebuilds the analysis answers with a frame within 50 ms (median and worst case)."""
import argparse
import curses
import fcntl
import json
import os
import select
import signal
import statistics
import struct
import termios
import sys
import time

QUIET = 0.08



def view_keys():
    """The key that redraws each view without new computation, spelled as xterm-256color's
    terminfo says (keypad mode sends ESC O A, not ESC [ A)."""
    curses.setupterm("xterm-256color", sys.stdout.fileno() if sys.stdout.isatty() else -1)
    right, up, down = (curses.tigetstr(k) for k in ("kcuf1", "kcuu1", "kcud1"))
    # view 6 has no cursor: the language switch redraws every cell of it
    return {1: right, 2: right, 3: up, 4: right, 5: down, 6: b"l", 7: right}


def spawn(tfviz, args, cols, rows):
    """tfviz on a new pty whose size is set before the program starts."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.execve(tfviz, [tfviz, *args], env)
    os.close(slave)
    return pid, master


def drain(fd, quiet=QUIET, limit=120.0):
    """Read until quiet; return (time of the last byte or None, bytes read)."""
    last, n, end = None, 0, time.perf_counter() + limit
    while time.perf_counter() < end:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            break
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        n += len(data)
        last = time.perf_counter()
    return last, n


def finish(pid, fd):
    try:
        os.write(fd, b"q")
        drain(fd, 0.05, 2.0)
    except OSError:
        pass
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(fd)


def first_frame(tfviz, args, cols, rows, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        pid, fd = spawn(tfviz, args, cols, rows)
        last, n = drain(fd)
        times.append((last - t0) * 1000 if last else float("nan"))
        finish(pid, fd)
    return times


def first_frame_cpu(tfviz, args, cols, rows, runs):
    """CPU time (user + system) of start, first frame and quit: the part tfviz controls."""
    times = []
    for _ in range(runs):
        pid, fd = spawn(tfviz, args, cols, rows)
        os.write(fd, b"q")  # read after the first frame is drawn
        drain(fd, 0.3, 10.0)
        _, _, ru = os.wait4(pid, 0)
        os.close(fd)
        times.append((ru.ru_utime + ru.ru_stime) * 1000)
    return times


def cpu_ms(pid):
    """User + system CPU time of a running process, from /proc (clock-tick resolution)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def redraws(tfviz, args, cols, rows, runs):
    keys = view_keys()
    pid, fd = spawn(tfviz, args, cols, rows)
    drain(fd, quiet=0.5)
    out = {}
    try:
        for view in range(2, 8):
            t0 = time.perf_counter()
            os.write(fd, str(view).encode())
            last, _ = drain(fd, quiet=6.0)  # a first visit may compute (order, RoPE) for seconds
            visit = (last - t0) * 1000 if last else float("nan")
            times = []
            key = keys[view]
            c0 = cpu_ms(pid)
            for i in range(runs):
                t0 = time.perf_counter()
                os.write(fd, key)
                last, _ = drain(fd)
                if last:
                    times.append((last - t0) * 1000)
            cpu = (cpu_ms(pid) - c0) / runs
            out[view] = {"first_visit_ms": visit, "redraw_ms": times, "cpu_per_key_ms": cpu}
    finally:
        finish(pid, fd)
    return out


def frame_after(fd, limit=30.0):
    """Wait up to limit for the first byte after a key, then read until quiet: the time of the
    first and of the last byte, or (None, None)."""
    r, _, _ = select.select([fd], [], [], limit)
    if not r:
        return None, None
    first = time.perf_counter()
    try:
        os.read(fd, 65536)
    except OSError:
        return None, None
    last, _ = drain(fd)
    return first, last or first


def article_scale(tfviz, runs):
    """Key-to-frame latency at the article's scale (d_model 4096, n = 10,000, 200x60): the
    keys that rebuild the analysis (- + halve and double d_model, [ ] change n) in every view,
    and view 4's own Up/Down (k), whose uniqueness and residual over all positions are computed
    off the input path. Target: every frame within 50 ms of its key."""
    keys = view_keys()
    up, down = keys[3], keys[5]
    pid, fd = spawn(tfviz, ["-d", "4096", "-n", "10000"], 200, 60)
    drain(fd, quiet=0.5)
    out = {}
    try:
        for view in range(1, 8):
            os.write(fd, str(view).encode())
            frame_after(fd)
            drain(fd, quiet=0.3)
            seq = [b"-", b"+", b"[", b"]"] + ([up, down] if view == 4 else [])
            times = []
            for _ in range(max(1, runs // 4)):
                for key in seq:
                    t0 = time.perf_counter()
                    os.write(fd, key)
                    _, last = frame_after(fd)
                    times.append((last - t0) * 1000 if last else float("inf"))
            drain(fd, quiet=0.3)  # a worker's late frame does not count for the next view
            out[view] = times
    finally:
        finish(pid, fd)
    return out


def main():
    ap = argparse.ArgumentParser()
    # bench/run.sh names the binary (TFVIZ) and asks for a quick run (BENCH_QUICK)
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ") or "build/app/tfviz")
    ap.add_argument("--runs", type=int, default=8 if os.environ.get("BENCH_QUICK") else 30)
    ap.add_argument("--json")
    a = ap.parse_args()
    tfviz = os.path.abspath(a.tfviz)
    results = {}
    ff = first_frame(tfviz, [], 200, 60, a.runs)
    med = statistics.median(ff)
    results["first_frame_200x60_ms"] = ff
    print(f"first frame, 200x60, d=512: median {med:.1f} ms wall from exec to the last byte "
          f"(target 20 ms, ratio {med / 20:.2f})")
    cpu = first_frame_cpu(tfviz, [], 200, 60, a.runs)
    results["first_frame_cpu_200x60_ms"] = cpu
    print(f"  CPU time of start + first frame + quit: median {statistics.median(cpu):.1f} ms")
    for label, args, target in (("d=512, n=64", [], 5.0),
                                ("d=4096, n=2048", ["-d", "4096", "-n", "2048"], 16.0)):
        r = redraws(tfviz, args, 200, 60, a.runs)
        results[label] = r
        print(f"redraw after a key, 200x60, {label} (target {target:g} ms):")
        for view, v in r.items():
            m = statistics.median(v["redraw_ms"]) if v["redraw_ms"] else float("nan")
            print(f"  view {view}: median {m:6.2f} ms (ratio {m / target:.2f}), CPU "
                  f"{v['cpu_per_key_ms']:.1f} ms/key; first visit {v['first_visit_ms']:.0f} ms")
    r = article_scale(tfviz, a.runs)
    results["article_scale_keys_ms"] = r
    print("key to frame at the article's scale, 200x60, d=4096, n=10000, keys - + [ ] "
          "(and Up/Down in view 4) (target 50 ms):")
    for view, v in r.items():
        m = statistics.median(v)
        print(f"  view {view}: median {m:6.1f} ms, worst {max(v):6.1f} ms (ratio "
              f"{m / 50:.2f}, worst {max(v) / 50:.2f}) over {len(v)} keys")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
