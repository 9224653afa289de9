#!/usr/bin/python3
"""bench_export.py — tfviz --export against matplotlib, side by side in one run.

The same figure both ways: the 512 x 512 sinusoidal PE heatmap with a colorbar, title and axis
labels, 3.5 x 2.8 in, 300 dpi, as PNG and as PDF. Each run is a fresh process timed end to end
(start-up, computing PE, drawing, writing) by /usr/bin/time; the runs of the two tools alternate
so that load on the machine hits both alike. Reported: medians of wall time and CPU time
(user + sys), the median peak resident memory, and the file sizes.

Targets: tfviz >= 5x faster for PNG and >= 20x for PDF (wall-time medians), less memory, and a
PDF no larger than matplotlib's. Exit status 0 when every target is met, 1 otherwise.

Usage: bench/bench_export.py [--runs N] [--tfviz PATH] [--dir DIR]
  (matplotlib: Debian's python3-matplotlib through /usr/bin/python3)

bench/run.sh runs it as a plug-in: TFVIZ names the binary, BENCH_QUICK=1 takes 3 runs,
BENCH_PYTHON the peer's interpreter; the tab-separated lines it prints join run.sh's table."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TIME = "/usr/bin/time"
PEER = [os.environ.get("BENCH_PYTHON") or "/usr/bin/python3",
        os.path.join(HERE, "bench_export_mpl.py")]


def timed(cmd):
    """(wall s, cpu s, peak KB) of one run: wall time by the monotonic clock around the process,
    CPU time (user + sys) from wait4's resource usage, peak memory from /usr/bin/time %M
    (/usr/bin/time's own %e and %U count only hundredths of a second)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen([TIME, "-f", "%M", *cmd], stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
    if p.returncode != 0:
        sys.exit(f"bench_export: {' '.join(cmd)} failed:\n{text}")
    return wall, ru.ru_utime + ru.ru_stime, int(text.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3 if os.environ.get("BENCH_QUICK") else 7)
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ") or
                    os.path.join(ROOT, "build", "app", "tfviz"))
    ap.add_argument("--dir", default=None, help="where the files are written (default: a temp dir)")
    a = ap.parse_args()
    for tool in (TIME, PEER[0], a.tfviz):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench_export: {tool} is missing (build tfviz; apt-get install time "
                     "python3-matplotlib)")
    check = subprocess.run([PEER[0], "-c", "import matplotlib, numpy"], capture_output=True)
    if check.returncode != 0:
        sys.exit("bench_export: Debian's python3-matplotlib is not installed "
                 "(scripts/bootstrap.sh --bench installs it)")
    d = tempfile.mkdtemp(prefix="tfviz-bench-", dir=a.dir)
    results, walls = {}, {}
    try:
        for fmt in ("png", "pdf"):
            tf_out, mpl_out = os.path.join(d, f"tfviz.{fmt}"), os.path.join(d, f"mpl.{fmt}")
            tf_cmd = [a.tfviz, "--export", tf_out, "--figure", "pe", "-n", "512", "-d", "512",
                      "--dpi", "300", "--width", "3.5in", "--height", "2.8in", "--lang", "en"]
            mpl_cmd = [*PEER, mpl_out, "512", "512"]
            timed(tf_cmd), timed(mpl_cmd)  # warm the page cache and font caches
            runs = {"tfviz": [], "matplotlib": []}
            for _ in range(a.runs):
                runs["tfviz"].append(timed(tf_cmd))
                runs["matplotlib"].append(timed(mpl_cmd))
            for tool, out in (("tfviz", tf_out), ("matplotlib", mpl_out)):
                r = runs[tool]
                results[(fmt, tool)] = (statistics.median(x[0] for x in r),
                                        statistics.median(x[1] for x in r),
                                        statistics.median(x[2] for x in r), os.path.getsize(out))
                walls[(fmt, tool)] = (min(x[0] for x in r), max(x[0] for x in r))
    finally:
        shutil.rmtree(d, ignore_errors=True)

    print(f"512 x 512 PE heatmap + colorbar, 3.5 x 2.8 in, 300 dpi; median of {a.runs} runs each")
    print(f"{'format':6} {'tool':10} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'bytes':>9}")
    for (fmt, tool), (wall, cpu, rss, size) in results.items():
        print(f"{fmt:6} {tool:10} {wall:8.4f} {cpu:8.4f} {rss / 1024:8.1f} {size:9d}")
    ok = True
    for fmt, target in (("png", 5.0), ("pdf", 20.0)):
        t, m = results[(fmt, "tfviz")], results[(fmt, "matplotlib")]
        speed, cpu_speed = m[0] / max(t[0], 1e-3), m[1] / max(t[1], 1e-3)
        mem = m[2] / t[2]
        good = speed >= target and t[2] < m[2]
        if fmt == "pdf":
            good = good and t[3] <= m[3]
        ok = ok and good
        print(f"{fmt}: tfviz {speed:.1f}x faster wall (target {target:g}x), {cpu_speed:.1f}x less "
              f"CPU, {mem:.1f}x less memory, size {t[3] / m[3]:.2f}x matplotlib's  "
              f"{'PASS' if good else 'FAIL'}")
    # for bench/run.sh's table: NAME MEDIAN UNIT MIN MAX, and ratios with their goals
    for (fmt, tool), (wall, cpu, rss, size) in results.items():
        key = f"{'export' if tool == 'tfviz' else 'mpl'}_{fmt}"
        lo, hi = walls[(fmt, tool)]
        print(f"{key}\t{wall * 1e3:.1f}\tms\t{lo * 1e3:.1f}\t{hi * 1e3:.1f}")
        print(f"{key}_cpu\t{cpu * 1e3:.1f}\tms")
        print(f"{key}_rss\t{rss / 1024:.1f}\tMB")
        print(f"{key}_bytes\t{size}\tbytes")
    for fmt, goal in (("png", 5), ("pdf", 20)):
        F = fmt.upper()
        print(f"ratio\texport {F}: speed-up vs matplotlib\tmpl_{fmt}\texport_{fmt}\t>={goal}")
        print(f"ratio\texport {F}: CPU vs matplotlib\tmpl_{fmt}_cpu\texport_{fmt}_cpu")
        print(f"ratio\texport {F}: memory vs matplotlib\tmpl_{fmt}_rss\texport_{fmt}_rss\t>1")
    print("ratio\texport PDF: matplotlib size / tfviz size\tmpl_pdf_bytes\texport_pdf_bytes\t>=1")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
