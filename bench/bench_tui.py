#!/usr/bin/env python3
"""bench_tui.py — first-frame and per-key redraw time of the tfviz explorer, per view, measured
from outside through a pseudo-terminal (what a user waits for, including ncurses' output).

    bench/bench_tui.py [--tfviz build/app/tfviz] [--runs 15] [--json out.json]

A frame is over when the terminal has been quiet for QUIET seconds; its time is that of the
last byte read, so the quiet wait itself is not counted. Reports medians and the ratio to the
targets: first frame < 20 ms at 200x60; a redraw < 5 ms at d_model 512 and < 16 ms at
d_model 4096 with 2,048 positions; at the article's scale (d_model 4096, n = 10,000) every key
answers with a frame within 50 ms (median and worst case): in each of the ten views - + [ ] and
the view's own keys, the lesson's steps and the sentence editor (article_scale(): the key is
followed by ? and counts as answered when the help box after its frame is on the screen, so a
key that computes on the input path is charged for all of it). The peer, in the same run: the
same keys at d_model 64 and 64 positions, where nothing is costly; --before OTHER_TFVIZ adds
another build's latencies (e.g. the previous release) beside them."""
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


CLOSE = ("press any key to close".encode(), "按任意键关闭".encode())


def own_keys():
    """Each view's own keys, as a user presses them (xterm-256color's spellings), besides the
    global - + [ ] that rebuild the analysis."""
    curses.setupterm("xterm-256color", sys.stdout.fileno() if sys.stdout.isatty() else -1)
    right, left, up, down = (curses.tigetstr(k) for k in ("kcuf1", "kcub1", "kcuu1", "kcud1"))
    return {1: [right, left, b"c"], 2: [right, down, b"z", b"Z", b"f"], 3: [up, down],
            4: [right, up, down], 5: [down, b"s", b"s"], 6: [b"l", b"l"], 7: [right, down, b"p"],
            8: [b" ", b"n", b" "], 9: [b"s", b"S", b"m", b"h", b"x"], 10: [b" ", b".", b"r"]}


def answered(fd, key, limit=60.0):
    """Milliseconds from writing key to the moment the screen has answered it: the key is
    followed at once by ? (the help box), which the explorer reads only after the key's frame is
    drawn, so the box's closing line arrives after that frame, whatever the key computes. The
    box is then closed; inf if it never came."""
    t0 = time.perf_counter()
    os.write(fd, key + b"?")
    buf, end = b"", t0 + limit
    while time.perf_counter() < end:
        r, _, _ = select.select([fd], [], [], 0.005)
        if r:
            try:
                buf += os.read(fd, 65536)
            except OSError:
                break
            if any(m in buf for m in CLOSE):
                ms = (time.perf_counter() - t0) * 1000
                os.write(fd, b"x")  # any key closes the box, and does nothing else
                drain(fd, quiet=0.03, limit=limit)
                return ms
    return float("inf")


def article_scale(tfviz, runs, size=("-d", "4096", "-n", "10000")):
    """Key-to-frame latency at the article's scale (d_model 4096, n = 10,000, 200x60), through a
    pty: in every view the keys that rebuild the analysis (- + halve and double d_model, [ ]
    change n) and the view's own keys; the lesson's steps; the sentence editor (each typed
    character's echo, then Enter). A key counts as answered when the frame after it is on the
    screen (answered()); the next key follows 0.1 s later, so work a key started off the input
    path may still run when it comes. Target: every key within 50 ms. Returns {label: [ms]}."""
    own = own_keys()
    out = {}
    pid, fd = spawn(tfviz, ["--lang", "en", *size], 200, 60)
    drain(fd, quiet=0.5)
    try:
        for view in range(1, 11):
            times = [answered(fd, str(view % 10).encode())]
            for _ in range(max(1, runs // 8)):
                for key in [b"-", b"+", b"[", b"]"] + own[view]:
                    times.append(answered(fd, key))
                    time.sleep(0.1)
            out[f"view{view}"] = times
        # the sentence editor: each character echoed, then Enter runs the analysis again
        os.write(fd, b"1/")
        drain(fd, quiet=0.2)
        echo = []
        for ch in "机器学习很有趣":
            t0 = time.perf_counter()
            b = ch.encode()
            os.write(fd, b)
            buf, end = b"", t0 + 30
            while time.perf_counter() < end and b not in buf:
                r, _, _ = select.select([fd], [], [], 0.005)
                if r:
                    buf += os.read(fd, 65536)
            echo.append((time.perf_counter() - t0) * 1000 if b in buf else float("inf"))
        echo.append(answered(fd, b"\r"))
        out["editor"] = echo
    finally:
        finish(pid, fd)
    pid, fd = spawn(tfviz, ["--lesson", "--extended", "--lang", "en", *size], 200, 60)
    drain(fd, quiet=0.5)
    try:
        out["lesson"] = [answered(fd, b" ") for _ in range(16)]
    finally:
        finish(pid, fd)
    return out


def report_keys(r, suffix=""):
    """The table's lines: per screen the median (goal 50 ms) and the worst key."""
    for label, v in r.items():
        fin = [x for x in v if x != float("inf")]
        lost = len(v) - len(fin)
        m = statistics.median(v)
        print(f"tui_key_{label}{suffix}\t{m:.2f}\tms\t{min(v):.2f}\t{max(v):.2f}\t<50")
        print(f"#   {label}{suffix}: median {m:.1f} ms, worst {max(v):.1f} ms over {len(v)} keys"
              + (f" ({lost} never answered)" if lost else ""))
    allk = [x for v in r.values() for x in v]
    print(f"tui_key_worst{suffix}\t{max(allk):.2f}\tms\t{min(allk):.2f}\t{max(allk):.2f}\t<50")


def main():
    ap = argparse.ArgumentParser()
    # bench/run.sh names the binary (TFVIZ) and asks for a quick run (BENCH_QUICK)
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ") or "build/app/tfviz")
    ap.add_argument("--runs", type=int, default=8 if os.environ.get("BENCH_QUICK") else 30)
    ap.add_argument("--json")
    ap.add_argument("--before", help="another tfviz whose key latency to report beside")
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
    print("key to frame at the article's scale, 200x60, d=4096, n=10000: - + [ ], each view's "
          "own keys, the lesson's steps, the editor (target 50 ms for every key):")
    report_keys(r)
    # the peer: the same keys where nothing is costly (d_model 64, 64 positions)
    small = article_scale(tfviz, a.runs, ("-d", "64", "-n", "64"))
    results["small_keys_ms"] = small
    report_keys(small, "_small")
    for label in r:
        print(f"ratio\tkeys at the article's scale vs d=64: {label}\ttui_key_{label}\t"
              f"tui_key_{label}_small\t")
    if a.before:  # another build (e.g. the previous release) measured in the same run
        before = article_scale(os.path.abspath(a.before), a.runs)
        results["before_keys_ms"] = before
        report_keys(before, "_before")
        for label in r:
            print(f"ratio\tspeed-up over --before: {label}\ttui_key_{label}_before\t"
                  f"tui_key_{label}\t")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
