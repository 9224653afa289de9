#!/usr/bin/python3
"""The size of an SVG figure against matplotlib's for the same figure: the pe heatmap with a
colour bar, 3.5 x 2.8 in, 8 pt labels, at 64 x 128 (the matrix the SVG once wrote as 8,187
<rect> elements) and 512 x 512; tfviz's file may be at most twice matplotlib's. Also the count
of <image>, <rect> and named groups in tfviz's file.

bench/run.sh: plug-in

Usage: bench_svg_size.py [TFVIZ]   (default: $TFVIZ, else build/app/tfviz)"""
import os
import subprocess
import sys
import tempfile
import xml.dom.minidom

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = ((64, 128), (512, 512))


def tfviz_svg(tfviz, out, n, d):
    subprocess.run([tfviz, "--export", out, "--figure", "pe", "-n", str(n), "-d", str(d),
                    "--lang", "en", "--width", "3.5in", "--height", "2.8in"], check=True,
                   stderr=subprocess.DEVNULL)
    doc = xml.dom.minidom.parse(out).documentElement
    groups = [g for g in doc.getElementsByTagName("g") if g.hasAttribute("id")]
    return (len(doc.getElementsByTagName("image")), len(doc.getElementsByTagName("rect")),
            len(groups))


def mpl_svg(out, n, d):
    """matplotlib's peer (bench_export_mpl.py), or None when matplotlib is not installed."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "bench_export_mpl.py"), out, str(n),
                        str(d), "en"], capture_output=True)
    return os.path.getsize(out) if p.returncode == 0 else None


def main():
    tfviz = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TFVIZ", "build/app/tfviz")
    with tempfile.TemporaryDirectory() as tmp:
        for n, d in SIZES:
            ours = os.path.join(tmp, f"pe{n}.svg")
            images, rects, groups = tfviz_svg(tfviz, ours, n, d)
            kb = os.path.getsize(ours) / 1024
            name = f"svg_pe_{n}x{d}"
            print(f"{name}\t{kb:.1f}\tKB")
            print(f"{name} holds {images} <image>, {rects} <rect>, {groups} named groups")
            theirs = mpl_svg(os.path.join(tmp, f"mpl{n}.svg"), n, d)
            if theirs is None:
                print(f"{name}: matplotlib is not installed, no peer")
                continue
            print(f"mpl_{name}\t{theirs / 1024:.1f}\tKB")
            print(f"ratio\tSVG {n} x {d}: tfviz / matplotlib size\t{name}\tmpl_{name}\t<=2")


if __name__ == "__main__":
    main()
