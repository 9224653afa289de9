#!/usr/bin/python3
"""bench_export.py — tfviz --export against matplotlib, side by side in one run.

The same figure both ways: the 512 x 512 sinusoidal PE heatmap with a colorbar, title and axis
labels, 3.5 x 2.8 in, 300 dpi, as PNG, PDF and SVG, each with the default Chinese labels and
with --lang en. matplotlib draws the same labels in the same font at the same size: Noto Sans
CJK SC for Chinese (the face tfviz uses, taken out of Debian's font collection once, before the
runs, because matplotlib cannot choose a face of a .ttc), DejaVu Sans for English. Each run is a
fresh process timed end to end (start-up, computing PE, drawing, writing); the runs of the two
tools alternate so that load on the machine hits both alike. Reported: medians of wall time and
CPU time (user + sys), the median peak resident memory, and the file sizes.

Target: tfviz >= 5x faster than matplotlib (wall-time medians) in every format and language,
with less memory. Exit status 0 when every target is met, 1 otherwise.

Usage: bench/bench_export.py [--runs N] [--tfviz PATH] [--dir DIR] [--formats png,pdf,svg]
                             [--langs zh,en]
  (matplotlib: Debian's python3-matplotlib through /usr/bin/python3; fontTools comes with it)

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
PYTHON = os.environ.get("BENCH_PYTHON") or "/usr/bin/python3"
PEER = [PYTHON, os.path.join(HERE, "bench_export_mpl.py")]
TARGET = 5.0


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


def cjk_face(d):
    """Noto Sans CJK SC as a font file of its own, for matplotlib: fontconfig names the file and
    the face, fontTools writes that face out."""
    out = subprocess.run(["fc-match", "-f", "%{file}\n%{index}\n%{family}", "Noto Sans CJK SC"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    if "Noto Sans CJK SC" not in out[2]:
        sys.exit("bench_export: Noto Sans CJK SC is not installed (apt-get install fonts-noto-cjk)")
    path = os.path.join(d, "NotoSansCJKsc.otf")
    script = ("import sys\nfrom fontTools.ttLib import TTCollection, TTFont\n"
              "f = sys.argv[1]\n"
              "font = TTCollection(f).fonts[int(sys.argv[2])] if f.endswith('.ttc') else TTFont(f)\n"
              "font.save(sys.argv[3])\n")
    subprocess.run([PYTHON, "-c", script, out[0], out[1] or "0", path], check=True)
    return path


def same_labels(pdf, lang):
    """tfviz's PDF holds the labels the peer draws (the peer's table is a copy of tfviz's)."""
    sys.path.insert(0, HERE)
    from bench_export_mpl import LABELS
    text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
    flat = "".join(text.split())  # italic spans may come out spaced: "PE( pos , j)"
    missing = [label for label in LABELS[lang] if "".join(label.split()) not in flat]
    if missing:
        sys.exit(f"bench_export: tfviz's {lang} figure does not show {missing}; update "
                 "bench_export_mpl.py's LABELS to tfviz's strings")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3 if os.environ.get("BENCH_QUICK") else 7)
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ") or
                    os.path.join(ROOT, "build", "app", "tfviz"))
    ap.add_argument("--dir", default=None, help="where the files are written (default: a temp dir)")
    ap.add_argument("--formats", default="png,pdf,svg")
    ap.add_argument("--langs", default="zh,en")
    a = ap.parse_args()
    for tool in (TIME, PEER[0], a.tfviz):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench_export: {tool} is missing (build tfviz; apt-get install time "
                     "python3-matplotlib)")
    check = subprocess.run([PEER[0], "-c", "import matplotlib, numpy, fontTools"],
                           capture_output=True)
    if check.returncode != 0:
        sys.exit("bench_export: Debian's python3-matplotlib is not installed "
                 "(scripts/bootstrap.sh --bench installs it)")
    d = tempfile.mkdtemp(prefix="tfviz-bench-", dir=a.dir)
    cases = [(f, lang) for f in a.formats.split(",") for lang in a.langs.split(",")]
    results, walls = {}, {}
    try:
        font = cjk_face(d) if any(lang == "zh" for _, lang in cases) else None
        for fmt, lang in cases:
            tf_out = os.path.join(d, f"tfviz-{lang}.{fmt}")
            mpl_out = os.path.join(d, f"mpl-{lang}.{fmt}")
            tf_cmd = [a.tfviz, "--export", tf_out, "--figure", "pe", "-n", "512", "-d", "512",
                      "--dpi", "300", "--width", "3.5in", "--height", "2.8in", "--lang", lang]
            mpl_cmd = [*PEER, mpl_out, "512", "512", lang] + ([font] if lang == "zh" else [])
            timed(tf_cmd), timed(mpl_cmd)  # warm the page cache and font caches
            if fmt == "pdf" and shutil.which("pdftotext"):
                same_labels(tf_out, lang)
            runs = {"tfviz": [], "matplotlib": []}
            for _ in range(a.runs):
                runs["tfviz"].append(timed(tf_cmd))
                runs["matplotlib"].append(timed(mpl_cmd))
            for tool, out in (("tfviz", tf_out), ("matplotlib", mpl_out)):
                r = runs[tool]
                results[(fmt, lang, tool)] = (statistics.median(x[0] for x in r),
                                              statistics.median(x[1] for x in r),
                                              statistics.median(x[2] for x in r),
                                              os.path.getsize(out))
                walls[(fmt, lang, tool)] = (min(x[0] for x in r), max(x[0] for x in r))
    finally:
        shutil.rmtree(d, ignore_errors=True)

    print(f"512 x 512 PE heatmap + colorbar, 3.5 x 2.8 in, 300 dpi, 8 pt labels in the same "
          f"font; median of {a.runs} runs each")
    print(f"{'format':6} {'lang':4} {'tool':10} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} "
          f"{'bytes':>9}")
    for (fmt, lang, tool), (wall, cpu, rss, size) in results.items():
        print(f"{fmt:6} {lang:4} {tool:10} {wall:8.4f} {cpu:8.4f} {rss / 1024:8.1f} {size:9d}")
    ok = True
    for fmt, lang in cases:
        t, m = results[(fmt, lang, "tfviz")], results[(fmt, lang, "matplotlib")]
        speed, cpu_speed = m[0] / max(t[0], 1e-3), m[1] / max(t[1], 1e-3)
        good = speed >= TARGET and t[2] < m[2]
        ok = ok and good
        print(f"{fmt} {lang}: tfviz {speed:.1f}x faster wall (target {TARGET:g}x), "
              f"{cpu_speed:.1f}x less CPU, {m[2] / t[2]:.1f}x less memory, size "
              f"{t[3] / m[3]:.2f}x matplotlib's  {'PASS' if good else 'FAIL'}")
    # for bench/run.sh's table: NAME MEDIAN UNIT MIN MAX, and ratios with their goals
    for (fmt, lang, tool), (wall, cpu, rss, size) in results.items():
        key = f"{'export' if tool == 'tfviz' else 'mpl'}_{fmt}_{lang}"
        lo, hi = walls[(fmt, lang, tool)]
        print(f"{key}\t{wall * 1e3:.1f}\tms\t{lo * 1e3:.1f}\t{hi * 1e3:.1f}")
        print(f"{key}_cpu\t{cpu * 1e3:.1f}\tms")
        print(f"{key}_rss\t{rss / 1024:.1f}\tMB")
        print(f"{key}_bytes\t{size}\tbytes")
    for fmt, lang in cases:
        k = f"{fmt}_{lang}"
        label = f"export {fmt.upper()} {lang}"
        print(f"ratio\t{label}: speed-up vs matplotlib\tmpl_{k}\texport_{k}\t>={TARGET:g}")
        print(f"ratio\t{label}: CPU vs matplotlib\tmpl_{k}_cpu\texport_{k}_cpu")
        print(f"ratio\t{label}: memory vs matplotlib\tmpl_{k}_rss\texport_{k}_rss\t>1")
        print(f"ratio\t{label}: matplotlib size / tfviz size\tmpl_{k}_bytes\texport_{k}_bytes")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
