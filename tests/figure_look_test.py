#!/usr/bin/env python3
"""What the figures show, read back from their files: every position scheme in the style
`--print style` lists (SVG strokes), colour scales with contrast (PNG pixels), no colour a value
the data never take, coinciding curves both visible, titles and footnotes as asked.

Usage: figure_look_test.py TFVIZ GROUP   (numpy from /usr/bin/python3)"""
import json
import os
import re
import subprocess
import sys
import tempfile

from harness import FAILS, check, run_group, run_tfviz  # noqa: E402

TFVIZ = None
FIGURES = []  # the still figures of the table (tfviz-options-docs figures)

# the published palettes, written out here as the reference the table is checked against
OKABE_ITO = {"#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00",
             "#cc79a7"}
THREE = ("none", "sinusoidal", "rope")  # schemes, as order compares them
TOL_MUTED = {"#cc6677", "#332288", "#ddcc77", "#117733", "#88ccee", "#882255", "#44aa99",
             "#999933", "#aa4499"}


def run(*args, ok=True, **kw):
    return run_tfviz(TFVIZ, args, ok=ok, **kw)


def grey(c):
    return c[1:3] == c[3:5] == c[5:7]


def strokes(path):
    """The stroke colours of the SVG's path and line elements."""
    text = open(path, encoding="utf-8").read()
    out = set()
    for el in re.findall(r"<(?:path|line|polyline)\b[^>]*>", text):
        m = re.search(r'stroke="(#[0-9a-fA-F]{6})"', el)
        if m:
            out.add(m.group(1).lower())
    return out


def fills(path):
    text = open(path, encoding="utf-8").read()
    return {m.lower() for m in re.findall(r'<path\b[^>]*fill="(#[0-9a-fA-F]{6})"', text)}


def style_table():
    p = run("--print", "style", "--format", "json")
    return {r["scheme"]: r for r in json.loads(p.stdout)["style"]}


def test_style(d):
    """One table of scheme styles, and every figure that draws a scheme draws it in its style."""
    t = style_table()
    names = ["none", "sinusoidal", "learned", "rope", "alibi", "t5", "rope-linear", "rope-ntk",
             "rope-dynamic", "rope-yarn", "rope-llama3", "pe-file"]
    check(sorted(t) == sorted(names), f"--print style lists every scheme ({sorted(t)})")
    cols = [r["color"] for r in t.values()]
    check(len(set(cols)) == len(cols), "no two schemes share a colour")
    check(set(cols) <= OKABE_ITO | TOL_MUTED, f"colours from Okabe-Ito or Tol muted ({cols})")
    looks = {(r["dash"], r["marker"]) for r in t.values()}
    check(all(r["dash"] in ("solid", "dashed", "dotted", "dashdot") for r in t.values()) and
          len({r["marker"] for r in t.values()}) >= 6,
          f"dashes and at least six markers keep grey print apart ({looks})")
    chroma = {r["color"] for r in t.values()}

    def drawn(fig, *args, what=strokes):
        path = os.path.join(d, f"{fig}-{len(os.listdir(d))}.svg")
        run("--lang", "en", "--export", path, "--figure", fig, *args)
        return what(path)

    # each scheme alone in `schemes`: its curve is its table colour, and no other scheme's
    for s in ["sinusoidal", "learned", "rope", "alibi", "t5", "none"]:
        seen = drawn("schemes", "--scheme", s) & (chroma | {"#000000"})
        check(seen == {t[s]["color"]}, f"schemes --scheme {s}: {seen} == {t[s]['color']}")
    # a scaling changes RoPE's scaled curve only: ALiBi keeps its colour
    for k in ["linear", "ntk", "dynamic", "yarn", "llama3"]:
        seen = drawn("schemes", "--scheme", "rope,alibi", "--scaling", k) & chroma
        want = {t["rope"]["color"], t["rope-" + k]["color"], t["alibi"]["color"]}
        check(seen == want, f"schemes --scaling {k}: {seen} == {want}")
    seen = drawn("schemes") & chroma
    want = {t[s]["color"] for s in ["none", "sinusoidal", "learned", "rope", "alibi", "t5"]}
    check(seen == want, f"schemes, all six: {seen} == {want}")
    # the same schemes in the other figures that draw them
    three = {t[s]["color"] for s in THREE}  # the order experiment's schemes
    seen = drawn("order-training", "--scheme", ",".join(THREE)) & (chroma | {"#000000"})
    check(seen == three, f"order-training: {seen} == {three}")
    seen = drawn("order", what=fills) & chroma
    check(seen <= three and seen,
          f"order's bars in the schemes' colours ({seen})")
    seen = drawn("pe-file") & chroma
    want = {t["pe-file"]["color"], t["sinusoidal"]["color"]}
    check(seen == want, f"pe-file: {seen} == {want}")
    seen = drawn("dot-offset") & chroma
    check(seen == {t["sinusoidal"]["color"]}, f"dot-offset is sinusoidal PE's ({seen})")
    # the explorer's view 9 draws each scheme's curve in its colour (a truecolor terminal)
    import shutil
    import time
    if shutil.which("tmux"):
        name = f"look{os.getpid()}"
        subprocess.run(["tmux", "new", "-d", "-s", name, "-x", "120", "-y", "40",
                        f"TERM=xterm-direct {TFVIZ} --scheme alibi,rope"], check=True)
        try:
            seen = set()
            for _ in range(40):
                time.sleep(0.25)
                subprocess.run(["tmux", "send-keys", "-t", name, "9"], check=True)
                screen = subprocess.run(["tmux", "capture-pane", "-p", "-e", "-t", name],
                                        capture_output=True, text=True).stdout
                seen = {"#%02x%02x%02x" % tuple(map(int, m)) for m in
                        re.findall(r"\[38[;:]2[;:](\d+)[;:](\d+)[;:](\d+)m", screen)}
                if t["alibi"]["color"] in seen and t["rope"]["color"] in seen:
                    break
            check({t["alibi"]["color"], t["rope"]["color"]} <= seen,
                  f"view 9: ALiBi and RoPE in their colours ({sorted(seen & chroma)})")
        finally:
            subprocess.run(["tmux", "kill-session", "-t", name])
    seen = drawn("rope-decay") & chroma
    check(seen == {t["rope"]["color"], t["rope-llama3"]["color"]}, f"rope-decay ({seen})")
    # every other figure: no curve borrows a scheme's colour for something that is no scheme
    # but from the series palette (Okabe-Ito), whose colours it shares; rope and rope-qk colour
    # their rotation pairs by frequency along viridis, a colour scale; embedding-map needs
    # learned vectors
    for fig in [f for f in FIGURES if f not in ("rope", "rope-qk", "embedding-map")]:
        seen = drawn(fig, "-n", "16", "-d", "16") - {"#ffffff"}
        odd = {c for c in seen if not grey(c) and c not in chroma | OKABE_ITO}
        check(not odd, f"{fig}: curve colours from the palettes ({odd})")


def heatmap_pixels(path):
    """The first heatmap's pixels of a PNG (as its "tfviz:heatmap" text says where), as floats."""
    import numpy as np
    from PIL import Image
    im = Image.open(path)
    m = re.search(r"x=([\d.]+) y=([\d.]+) width=([\d.]+) height=([\d.]+)",
                  im.info["tfviz:heatmap"])
    x, y, w, h = [int(round(float(v))) for v in m.groups()]
    return np.asarray(im.convert("RGB"), dtype=float)[y + 1:y + h - 1, x + 1:x + w - 1], im.info


def svg_texts(path):
    text = open(path, encoding="utf-8").read()
    return [re.sub(r"<[^>]*>", "", t) for t in re.findall(r"<text\b.*?</text>", text, re.S)]


def number(s):
    try:
        return float(s.replace("\u2212", "-"))
    except ValueError:
        return None


def random_walk(d, rows=1024, cols=768, seed=1):
    import numpy as np
    t = np.cumsum(np.random.default_rng(seed).standard_normal((rows, cols)), axis=0)
    path = os.path.join(d, "walk.npy")
    np.save(path, t.astype(np.float32))
    return path


def test_scales(d):
    """A random-walk table's panel has contrast; --vmin/--vmax reach the table only."""
    import numpy as np
    walk = random_walk(d)
    png = os.path.join(d, "walk.png")
    run("--lang", "en", "--export", png, "--figure", "pe-file", "--pe-file", walk,
        "--venue", "neurips")
    px, _ = heatmap_pixels(png)
    sat = px.max(2) - px.min(2)
    lum = px.mean(2)
    # a scale set by the extremes leaves 0.3 % of the pixels coloured, luminance spread 9
    check((sat > 80).mean() > 0.15, f"a random walk's table is coloured ({(sat > 80).mean():.3f})")
    check(lum.std() > 25, f"and has contrast (luminance sd {lum.std():.1f})")
    svg = os.path.join(d, "walk.svg")
    run("--lang", "en", "--export", svg, "--figure", "pe-file", "--pe-file", walk,
        "--venue", "neurips", "--vmin", "-5", "--vmax", "5")
    nums = [v for v in map(number, svg_texts(svg)) if v is not None]
    top = np.max(np.abs(np.load(walk).astype(float)), axis=None)
    gram = np.load(walk).astype(float) @ np.load(walk).astype(float).T
    check(max(nums) > 0.3 * gram.max(),
          f"--vmin/--vmax leave the dot products' scale (a tick {max(nums):g} of max "
          f"{gram.max():.3g})")
    check(top > 5, "the table reaches past 5")
    png5 = os.path.join(d, "walk5.png")
    run("--lang", "en", "--export", png5, "--figure", "pe-file", "--pe-file", walk,
        "--venue", "neurips", "--vmin", "-5", "--vmax", "5")
    px5, _ = heatmap_pixels(png5)
    sat5 = px5.max(2) - px5.min(2)
    check((sat5 > 80).mean() > (sat > 80).mean(),
          f"--vmin -5 --vmax 5 saturate the table ({(sat5 > 80).mean():.2f})")


def pe_table(rows, cols, base=10000.0):
    """Sinusoidal PE (Vaswani et al.), interleaved and split, from the formula."""
    import numpy as np
    ang = np.arange(rows)[:, None] / base ** (2 * np.arange(cols // 2)[None, :] / cols)
    inter = np.empty((rows, cols))
    inter[:, 0::2], inter[:, 1::2] = np.sin(ang), np.cos(ang)
    return {"interleaved": inter, "split": np.concatenate([np.sin(ang), np.cos(ang)], axis=1)}


def invented_columns(png):
    """Read a grey pe heatmap back as values; return the layout it matches best and the pixel
    columns whose colour, on most rows, is no value of the cells under it (off by > 0.25)."""
    import numpy as np
    px, info = heatmap_pixels(png)
    heat = info["tfviz:heatmap"]
    rows, cols = [int(v) for v in re.search(r"rows=(\d+) cols=(\d+)", heat).groups()]
    m = re.search(r"averaged to (\d+) x (\d+)", heat)
    dr, dc = (int(m.group(1)), int(m.group(2))) if m else (rows, cols)
    v = px[:, :, 0] / 255.0 * 2 - 1           # gray: -1 black .. 1 white
    H, W = v.shape
    best = None
    for name, t, v in [(n, t, s * v) for n, t in pe_table(rows, cols).items() for s in (1, -1)]:
        bad, err = [], 0.0
        for c in range(3, W - 3):
            g = (c + 0.5) * dc / W                # the drawn column under this pixel
            a, b = int(np.floor(int(g) * cols / dc)), int(np.ceil((int(g) + 1) * cols / dc))
            if name == "split" and a <= cols // 2 <= b + 1 or abs(c - W / 2) < 3 and \
                    name == "split":
                continue                          # the line between the halves
            off = 0
            for r in range(3, H - 3):
                h = int((r + 0.5) * dr / H)
                ra, rb = int(np.floor(h * rows / dr)), int(np.ceil((h + 1) * rows / dr))
                cells = t[ra:rb, a:b]
                err += abs(v[r, c] - cells.mean())
                off += np.min(np.abs(cells - v[r, c])) > 0.25
            if off > 0.5 * (H - 6):
                bad.append(c)
        if best is None or err < best[1]:
            best = (name, err, bad, W)
    return best


def test_values(d):
    """A narrow pe draws no value the encoding never takes; -d 4096 -n 8192 draws."""
    png = os.path.join(d, "pe.png")
    run("--lang", "en", "--export", png, "--figure", "pe", "--width", "2in", "--colormap", "gray")
    layout, _, bad, W = invented_columns(png)
    # interleaved at 2 in: 270 of 279 pixel columns show ~0.5 between a sin ~ 0 and a cos ~ 1
    check(layout == "split", f"a pe with more columns than pixels is drawn split ({layout})")
    # split, the first few pixels still mix sin columns of the highest frequencies (~1 %)
    check(len(bad) <= 0.03 * W, f"no column block shows a value its cells never take "
          f"({len(bad)} of {W}: {bad[:8]})")
    svg = os.path.join(d, "pe.svg")
    run("--lang", "en", "--export", svg, "--figure", "pe", "--width", "2in")
    said = " ".join(svg_texts(svg))
    check("mean" in said and "sin" in said, f"the figure says it splits and averages ({said!r})")
    for fig in ("pe-vs-rope", "input"):
        svg = os.path.join(d, f"{fig}.svg")
        run("--lang", "en", "--export", svg, "--figure", fig)
        said = " ".join(svg_texts(svg))
        check("sin half" in said, f"{fig}: PE's columns split at one column ({said[-160:]!r})")
    big = os.path.join(d, "big.png")
    p = run("--lang", "en", "--export", big, "--figure", "pe", "-d", "4096", "-n", "8192",
            "--venue", "neurips", ok=False)
    check(p.returncode == 0 and os.path.getsize(big) > 1000,
          f"-d 4096 -n 8192 draws ({p.stderr.decode().strip()})")


def test_coincide(d):
    """RoPE's q.k (q = k) and sinusoidal PE's cosine coincide in schemes: both drawn, both in the
    legend, which says so; freq's waves turn at most four times across the positions; rope-qk's
    two angles, both (m - n) = 2 turns, are drawn alike: one label each, at one distance from
    the origin."""
    import math
    import xml.dom.minidom
    t = style_table()
    svg = os.path.join(d, "schemes.svg")
    run("--lang", "en", "--export", svg, "--figure", "schemes", "--scheme", "sinusoidal,rope")
    said = " ".join(svg_texts(svg))
    check("coincide" in said, f"the legend says the curves coincide ({said[:200]!r})")
    zh = os.path.join(d, "schemes-zh.svg")
    run("--export", zh, "--figure", "schemes", "--scheme", "sinusoidal,rope")
    said_zh = " ".join(svg_texts(zh))
    check("与 正弦 PE 重合" in said_zh and "sinusoidal" not in said_zh,
          f"the Chinese legend names the scheme in Chinese ({said_zh[:200]!r})")
    # RoPE's unseen angles are drawn in the first panel's styles: one legend says them
    yarn = os.path.join(d, "schemes-yarn.svg")
    run("--lang", "en", "--export", yarn, "--figure", "schemes", "--scheme", "sinusoidal,rope",
        "--scaling", "yarn", "--width", "3.25in")
    named = [t for t in svg_texts(yarn) if "RoPE + yarn" in t]
    check(len(named) == 1, f"one legend names RoPE + yarn at one column ({named})")
    paths = xml.dom.minidom.parse(svg).documentElement.getElementsByTagName("path")
    sin, rope = t["sinusoidal"]["color"], t["rope"]["color"]
    dashed = {p.getAttribute("stroke"): p.hasAttribute("stroke-dasharray") for p in paths
              if p.getAttribute("stroke") in (sin, rope)}
    check(dashed.get(sin) is True and dashed.get(rope) is False,
          f"one dashed over the other solid ({dashed})")
    marks = [p.getAttribute("fill") for p in paths]
    check(marks.count(sin) >= 6 and marks.count(rope) >= 6,
          f"both carry markers ({marks.count(sin)} and {marks.count(rope)})")
    for lang, text in (("en", "the cat sat on the mat"), ("zh", "我爱学习")):
        svg = os.path.join(d, f"qk-{lang}.svg")
        run("--lang", lang, "--export", svg, "--figure", "rope-qk", "--", text)
        els = open(svg, encoding="utf-8").read()
        at = {}  # text -> [(x, y)] of its baseline anchor
        for el in re.findall(r"<text\b.*?</text>", els, re.S):
            m = re.search(r'x="([-\d.]+)" y="([-\d.]+)"', el)
            at.setdefault(re.sub(r"<[^>]*>", "", el).strip(), []).append(
                (float(m.group(1)), float(m.group(2))))
        # the origin: the x axis' tick "0" across, the y axis' "0.0" down (both centred on
        # their tick, at the labels' size: the same baseline offset as the angles' labels)
        ox, oy = at.get("0", [(0, 0)])[0][0], at.get("0.0", [(0, 0)])[0][1]
        angles = at.get("2θ", [])
        far = [math.hypot(x - ox, y - oy) for x, y in angles]
        check(len(far) == 2 and abs(far[0] - far[1]) < 0.03 * max(far),
              f"rope-qk ({lang}): two angles labelled 2θ at one radius ({far})")
    # freq: the legend's dimensions, each at most four and a half turns across -n positions
    for n, dm in ((64, 512), (16, 16), (1000, 128)):
        svg = os.path.join(d, f"freq{n}.svg")
        run("--lang", "en", "--export", svg, "--figure", "freq", "-n", str(n), "-d", str(dm))
        js = [int(m) for m in re.findall(r"j = (\d+) \((?:sin|cos)\)", " ".join(svg_texts(svg)))]
        turns = [(n - 1) / (2 * math.pi) * 10000 ** (-2 * (j // 2) / dm) for j in js]
        check(len(js) >= 2 and max(turns) <= 4.5,
              f"freq -n {n} -d {dm}: dimensions {js} turn {[round(x, 1) for x in turns]} times")


def svg_text_sizes(path):
    """(text, font size) of every <text> element."""
    text = open(path, encoding="utf-8").read()
    out = []
    for el in re.findall(r"<text\b.*?</text>", text, re.S):
        m = re.search(r'font-size="([\d.]+)"', el)
        out.append((re.sub(r"<[^>]*>", "", el).strip(), float(m.group(1)) if m else None))
    return out


def test_titles(d):
    """Titles at the axis labels' size; --no-title drops the title alone; --venue drops the title
    and the notes and keeps the panels' names and letters; --title brings the title back."""
    def texts(fig, *args):
        path = os.path.join(d, f"{fig}-{len(os.listdir(d))}.svg")
        run("--lang", "en", "--export", path, "--figure", fig, "--width", "7in", *args)
        return svg_text_sizes(path)

    notes = ("order", "order-training")  # the figures with a paragraph under them
    for fig in FIGURES:
        full = texts(fig)
        bare = texts(fig, "--no-title")
        # what --no-title removed, but for ticks and numbers a taller plot may place otherwise
        gone = [t for t, _ in full if t not in [b for b, _ in bare] and
                not re.fullmatch(r"(max |\u0394Z )?[\d.,%\u2212 -]*", t)]
        check(len(gone) == 1, f"{fig} --no-title drops the title alone ({gone})")
        sizes = {sz for t, sz in full if t not in gone}
        title_size = [sz for t, sz in full if t in gone]
        check(title_size and title_size[0] in sizes,
              f"{fig}: the title at the labels' size ({title_size} among {sorted(sizes)})")
        venue = [t for t, _ in texts(fig, "--venue", "neurips")]
        check(not any(t in gone for t in venue), f"{fig} --venue: no title")
        titled = [t for t, _ in texts(fig, "--venue", "neurips", "--title", "Hello figure")]
        check("Hello figure" in titled, f"{fig} --venue --title: the title back")
        if fig in notes:
            # the note's lines (wrapped beside the plots on a wide page): they say the model
            # is untrained or what it was trained on
            note = [t for t, _ in full if re.search(r"untrained|never trained", t)]
            check(note and all(t in [b for b, _ in bare] for t in note),
                  f"{fig}: the note survives --no-title ({note})")
            check(note and not any(t in venue for t in note), f"{fig} --venue: no note")
    # rope (b)'s subtitle says what its arrows are: it stays, lettered, under --venue
    venue = [t for t, _ in texts("rope", "--venue", "neurips")]
    check("(a)" in venue and "(b)" in venue, "--venue letters the panels")
    check(any("turned by" in t for t in venue), "--venue keeps rope (b)'s subtitle")
    bare = [t for t, _ in texts("rope", "--no-title")]
    check(any("turned by" in t for t in bare), "--no-title keeps rope (b)'s subtitle")
    # and it is the arrows' key: q turned by m theta_0, each labelled with its m
    sub = [t for t in bare if "turned by" in t]
    check(sub and "q(I) turned by m\u03b80, m = 0\u20137" in sub[0],
          f"rope (b)'s subtitle says the arrows are q turned by m\u03b80, labelled m ({sub})")


CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def test_english(d):
    """--lang en without a sentence: an English sentence, no CJK glyph, no CJK font embedded;
    the word map too, its vectors trained with --lang en on the English built-in corpus."""
    vec = os.path.join(d, "en.vec")
    run("--train", "--lang", "en", "-o", vec)
    with open(vec, encoding="utf-8") as f:
        words = [line.split(" ", 1)[0] for line in f.read().splitlines()[1:]]
    check(len(words) > 150 and not any(CJK.search(w) for w in words),
          f"--train --lang en learns {len(words)} English words ({' '.join(words[:8])} ...)")
    for fig in FIGURES + ["embedding-map"]:
        svg, pdf = os.path.join(d, f"{fig}.svg"), os.path.join(d, f"{fig}.pdf")
        more = ["--vectors", vec] if fig == "embedding-map" else []
        run("--lang", "en", "--export", svg, "--figure", fig, "--venue", "neurips", *more)
        run("--lang", "en", "--export", pdf, "--figure", fig, "--venue", "neurips", *more)
        han = sorted({c for t, _ in svg_text_sizes(svg) for c in CJK.findall(t)})
        check(not han, f"{fig} --lang en: no CJK character ({''.join(han)})")
        out = subprocess.run(["pdffonts", pdf], capture_output=True, text=True).stdout
        fonts = [row.split()[0] for row in out.splitlines()[2:] if row.strip()]
        check(fonts and not any(re.search(r"CJK|Han|SC|WenQuanYi", f) for f in fonts),
              f"{fig} --lang en: no CJK font ({fonts})")
    texts = [t for t, _ in svg_text_sizes(os.path.join(d, "order.svg"))]
    check(any("math" in t for t in texts), "order's sentence is English")
    # a sentence given in Chinese stays
    svg = os.path.join(d, "zh.svg")
    run("--lang", "en", "--export", svg, "--figure", "input", "我爱学习")
    check(any(CJK.search(t) for t, _ in svg_text_sizes(svg)), "a Chinese sentence given stays")


def figure_table(tfviz):
    """The still figures of the table (app/figures/export.c) that need no vectors, as
    tfviz-options-docs, built beside tfviz, writes it."""
    docs = os.path.join(os.path.dirname(tfviz), "tfviz-options-docs")
    out = subprocess.run([docs, "figures"], capture_output=True, check=True).stdout.decode()
    rows = [line.split("\t") for line in out.splitlines()]
    return [r[0] for r in rows if r[1] == "still" and r[2] in ("-", "order")]


def main():
    global TFVIZ
    TFVIZ = sys.argv[1]
    FIGURES.extend(figure_table(TFVIZ))
    with tempfile.TemporaryDirectory() as d:
        status = run_group(globals(), sys.argv[2], d)
    return status


if __name__ == "__main__":
    sys.exit(main())
