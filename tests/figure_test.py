#!/usr/bin/env python3
"""Command-line tests of --export: every figure in every format, page sizes and embedded fonts
(poppler's pdfinfo and pdffonts), SVG sizes, same input => same bytes, and the failures that
must leave no partial file (unwritable path, directory, full disk, SIGINT).

Usage: figure_test.py TFVIZ GROUP"""
import glob
import html
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.dom.minidom

from harness import FAILS, check, percent, run_tfviz  # noqa: E402

TFVIZ = None
FIGURES = []  # the still figures that need nothing besides the sentence, from the table


def figure_table(tfviz):
    """The table of figures (app/figures/export.c) as tfviz-options-docs, built beside tfviz,
    writes it: (name, kind, needs, example options) per line. No list of figures is kept here."""
    docs = os.path.join(os.path.dirname(tfviz), "tfviz-options-docs")
    out = subprocess.run([docs, "figures"], capture_output=True, check=True).stdout.decode()
    return [tuple(line.split("\t")[:4]) for line in out.splitlines()]


def run(*args, ok=True, **kw):
    return run_tfviz(TFVIZ, args, ok=ok, **kw)


def leftovers(d):
    return [f for f in os.listdir(d) if ".tmp-" in f]


def pdfinfo(path):
    out = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    m = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", out)
    return float(m.group(1)), float(m.group(2)), out


def pdffonts(path):
    """(name, embedded) per font, from pdffonts' table."""
    out = subprocess.run(["pdffonts", path], capture_output=True, text=True, check=True).stdout
    fonts = []
    for row in out.splitlines()[2:]:
        m = re.search(r"\s(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$", row)
        if m:
            fonts.append((row.split()[0], m.group(1) == "yes"))
    return fonts


def test_formats(d):
    """Every figure exports as PNG, SVG and PDF, in Chinese and English."""
    for fig in FIGURES:
        for ext in ("png", "svg", "pdf"):
            path = os.path.join(d, f"{fig}.{ext}")
            p = run("--export", path, "--figure", fig, "--dpi", "72", "--compare", "学习爱我",
                    "-n", "16", "-d", "16", ok=False)
            check(p.returncode == 0 and os.path.getsize(path) > 1000,
                  f"{fig}.{ext} written ({p.stderr.decode().strip()})")
    check(leftovers(d) == [], "no temporary files left")


def test_pdf(d):
    """PDF page size follows --width/--height; every font is embedded; Chinese labels use CJK."""
    path = os.path.join(d, "pe.pdf")
    run("--export", path, "--width", "8.9cm", "--height", "6cm")
    w, h, info = pdfinfo(path)
    check(abs(w - 8.9 / 2.54 * 72) < 0.01 and abs(h - 6 / 2.54 * 72) < 0.01,
          f"page size {w} x {h} pt from 8.9cm x 6cm")
    check("Creator:         tfviz" in info, "Creator names tfviz")
    check("2000" in info and "CreationDate" in info, "fixed creation date")
    fonts = pdffonts(path)
    check(len(fonts) >= 1 and all(emb for _, emb in fonts), f"all fonts embedded: {fonts}")
    check(any("WenQuanYiMicroHei" in name for name, _ in fonts),
          "Chinese labels drawn with WenQuanYi Micro Hei (TrueType)")
    run("--export", path, "--width", "two-column", "--lang", "en")
    w, h, _ = pdfinfo(path)
    # a page wider than a column starts at most 3.4 in tall (export.c, WIDE_HEIGHT_IN), and the
    # PE figure's labels fit it
    check(abs(w - 7.16 * 72) < 0.01 and abs(h - 3.4 * 72) < 0.06,
          f"two-column preset is 7.16 in wide and 3.4 in tall ({w} x {h})")
    fonts = pdffonts(path)
    check(len(fonts) >= 1 and all(emb for _, emb in fonts), f"English figure fonts embedded: {fonts}")
    # the heatmap is one image at the data's own resolution, not resampled
    run("--export", path, "-n", "40", "-d", "24", "--lang", "en")
    data = open(path, "rb").read()
    imgs = re.findall(rb"/Width (\d+)\s*/Height (\d+)", data)
    check((b"24", b"40") in imgs, f"PE embedded as a 24 x 40 image: {imgs}")
    check(b"/Interpolate false" in data, "image drawn without interpolation")
    pdf_cells(d, path)
    pdf_labels(d)
    pdf_order(d)


def pdf_order(d):
    """The order figure as a reader sees it: nine T x T heatmaps (A, B in A's word order and
    |A - B|; no positions, + PE, RoPE), of which B's without positions is A's cell for cell and
    its |A - B| one colour, while with PE and with RoPE B's differs and |A - B| does not stay
    blank; --order-b own draws B in its own order (A's permuted); a reading per mode with
    --print order's shares; no bars for rounding; a note that the head is random."""
    path = os.path.join(d, "order.pdf")
    # an English figure's sentence by default (I love math); --print's is 我爱学习: one for both
    j = json.loads(run("--print", "order", "--format", "json", "I love math").stdout)
    T = len(j["permutation"])
    p = j["permutation"]
    for own in (False, True):
        run("--export", path, "--figure", "order", "--lang", "en",
            *(["--order-b", "own"] if own else []), "I love math")
        txt = " ".join(subprocess.run(["pdftotext", path, "-"], capture_output=True,
                                      text=True).stdout.split())
        pct = [percent(j[m]["relative_diff"]) for m in ("with_pe", "with_rope")]
        check(all(q in txt for q in pct) and "0%" in txt and "no positions: 0" in txt and
              "untrained" in txt and ("in its own order" if own else "in A's word order") in txt,
              f"order figure (own {own}): readings (0%, {pct[0]}, {pct[1]}), B's order and the "
              f"note on the head: {txt[-300:]}")
        prefix = os.path.join(d, "ord%d" % own)
        subprocess.run(["pdfimages", path, prefix], check=True)
        heat = [read_ppm(f)[2] for f in sorted(glob.glob(prefix + "-*.ppm"))
                if read_ppm(f)[:2] == (T, T)]
        check(len(heat) == 9, f"order figure: nine {T} x {T} heatmaps ({len(heat)})")
        if len(heat) != 9:
            continue
        for m, name in enumerate(("no positions", "+ PE", "RoPE")):
            a, b, diff = heat[m], heat[3 + m], heat[6 + m]
            if own:
                same = all(b[t][u] == a[p[t]][p[u]] for t in range(T) for u in range(T))
                check(same == (m == 0), f"order figure --order-b own, {name}: B is "
                      f"{'' if m == 0 else 'not '}A with rows and columns permuted")
                continue
            check((a == b) == (m == 0), f"order figure, {name}: B in A's order is "
                  f"{'' if m == 0 else 'not '}A's picture cell for cell")
            blank = len({c for row in diff for c in row}) == 1
            check(blank == (m == 0), f"order figure, {name}: |A - B| is "
                  f"{'blank' if m == 0 else 'coloured'}")


def svg_texts(path):
    """The text of an SVG file's <text> elements, one string each."""
    with open(path, encoding="utf-8") as f:
        data = f.read()
    return [html.unescape(re.sub(r"<[^>]+>", "", t))
            for t in re.findall(r"<text\b[^>]*>(.*?)</text>", data, re.S)]


def test_order_labels(d):
    """The order figure reads alone: every token of A labelled on both axes (or its number,
    with the numbered tokens above; at one column every row up to eight tokens), the axes named
    query and key, one form of reading under every mode, and no U+2423 for a space."""
    if True:
        path = os.path.join(d, "order.svg")
        eight = "the cat chased the big dog and ran"  # at one column only: two columns
        # have no room beside the maps to list eight numbered tokens
        texts = ["我爱学习", "the cat chased the dog", "小明喜欢小红", "猫追老鼠和狗跑", eight]
        if not os.environ.get("TFVIZ_ENGLISH_LIST"):  # English would be letters, not words
            print("# skipped the English sentences: the English word list was not fetched at "
                  "set-up (scripts/bootstrap.sh)")
            texts = [t for t in texts if not t.isascii()]
        for text in texts:
            for lang in ("en", "zh"):
                for width in ([], ["--width", "two-column"])[:1 if text == eight else 2]:
                    tag = f"order figure {lang} {text} {' '.join(width)}"
                    run("--export", path, "--figure", "order", "--lang", lang, *width, text)
                    toks = [t["text"] for t in json.loads(
                        run("--print", "tokens", "--format", "json", text).stdout)["tokens"]]
                    T = len(toks)
                    texts = svg_texts(path)
                    allt = " ".join(texts)
                    en = lang == "en"
                    check(("query" if en else "查询") in allt and ("key" if en else "键") in texts,
                          f"{tag}: the axes are named query and key")
                    check("\u2423" not in allt, f"{tag}: no U+2423 for a space")
                    nums = [str(i + 1) for i in range(T)]
                    numbered = any(t.startswith("A: 1 ") for t in texts)
                    labels = nums if numbered else toks
                    count = {x: texts.count(x) for x in labels}
                    # on the matrices: x and y of the A row and of B in A's order, |A - B|
                    if not width and T <= 6:  # one column: each on every x axis (9 maps,
                        # the bars) and on the y axes of the three rows of maps
                        check(all(v >= 9 + 1 + 3 for v in count.values()),
                              f"{tag}: every token labelled on the x and the y axes ({count})")
                    elif not width:  # eight tokens: every row still labelled (its number
                        # smaller, down to 6 pt), on the three rows of maps
                        check(all(v >= 3 for v in count.values()),
                              f"{tag}: every row labelled on the y axes ({count})")
                    else:  # two columns: the numbered tokens above name every one
                        check(numbered or all(v >= 1 for v in count.values()),
                              f"{tag}: every token named ({count})")
                    if numbered:
                        legend = [t for t in texts if t.startswith("A: 1 ")][0]
                        check(all(f"{i + 1} {k}" in legend for i, k in enumerate(toks)),
                              f"{tag}: the numbered tokens listed ({legend})")
                    reads = [t for t in texts if t.startswith(("max", "最大差"))]
                    forms = {re.sub(r"[0-9.%]+", "N", t) for t in reads}
                    check(len(reads) >= 3 and len(forms) == 1,
                          f"{tag}: one form of reading under every mode ({reads})")


def test_title_subscripts(d):
    """X_emb and W_E in the titles of input and embedding are typeset as in their subtitles
    (italic letter, subscript), while the file's metadata keeps a plain "X_emb"."""
    for fig, letter, sub in (("input", "X", "emb"), ("embedding", "W", "E")):
        path = os.path.join(d, fig + ".svg")
        run("--export", path, "--figure", fig, "-d", "64", "--lang", "en")
        with open(path, encoding="utf-8") as f:
            first = re.search(r"<text\b[^>]*>(.*?)</text>", f.read(), re.S)[1]
        check(f'<tspan font-style="italic">{letter}</tspan>' in first and
              re.search(rf'<tspan dy="[0-9.]+" font-size="[0-9.]+">{sub}</tspan>', first)
              is not None and "_" not in first,
              f"{fig}: the title's {letter}_{sub} is italic with a subscript ({first[:200]})")
        pdf = os.path.join(d, fig + ".pdf")
        run("--export", pdf, "--figure", fig, "-d", "64", "--lang", "en")
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
        check(f"{letter}_{sub}" in info and "<" not in info.split("Title:")[1].splitlines()[0],
              f"{fig}: the PDF's Title says {letter}_{sub} without markup")


def pdf_labels(d):
    """Token labels say what the token is: bytes that are part of a character as \\xHH (as
    --print shows them), a character without a glyph as U+XXXX with [UNK], never another token's
    label, and pango has nothing to complain about."""
    path = os.path.join(d, "labels.pdf")
    pdf_label_cases(path, [("word", "我🤖学习", ["U+1F916", "[UNK]", "学习"])])
    # a long sentence's label is shortened on a character boundary, with an ellipsis
    long = "自然语言处理是人工智能领域中的一个重要方向。" * 20
    p = run("--export", path, "--figure", "order", "--lang", "en", "-d", "16", "--width",
            "two-column", long)
    txt = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
    check(("A: 自然语言处理" in txt or "A: 1 自然" in txt) and "\u2026" in txt and p.stderr == b"",
          "the order figure's long sentence ends in an ellipsis, whole characters only")


def pdf_label_cases(path, cases):
    for tok, text, want in cases:
        p = run("--export", path, "--figure", "embedding", "--tokenizer", tok, "--lang", "en",
                "-d", "16", text)
        txt = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True,
                             text=True).stdout
        check(all(w in txt for w in want), f"{tok} labels {want} in the figure: {txt.split()}")
        check(p.stderr == b"", f"{tok}: nothing on stderr ({p.stderr[:200]!r})")


def test_pdf_bpe(d):
    """A byte-level BPE token that is part of a character is labelled with its bytes."""
    pdf_label_cases(os.path.join(d, "labels.pdf"), [("cl100k", "我爱深度学习", ["\\xB1", "我"])])


def read_ppm(path):
    """(width, height, rows of RGB triples) of a binary PPM (P6, maxval 255)."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    w, h = int(fields[1]), int(fields[2])
    px = data[pos:pos + 3 * w * h]
    return w, h, [[tuple(px[3 * (y * w + x):3 * (y * w + x) + 3]) for x in range(w)]
                  for y in range(h)]


def pdf_cells(d, path, lo=-1.0, hi=1.0):
    """The heatmap as a PDF reader decodes it (poppler's pdfimages, palette applied) has, in every
    cell, the colour bar's colour for that cell's value from --print: cairo's own RGB image
    (no indexed image patched into its PDF) says exactly what the colour map says."""
    lst = subprocess.run(["pdfimages", "-list", path], capture_output=True, text=True,
                         check=True).stdout.splitlines()[2:]
    kinds = {(int(r.split()[3]), int(r.split()[4])): r.split()[5] for r in lst}
    check(kinds.get((24, 40)) == "rgb", f"PE stored as cairo's RGB image: {kinds}")
    prefix = os.path.join(d, "img")
    for old in glob.glob(prefix + "-*.ppm"):
        os.remove(old)
    subprocess.run(["pdfimages", path, prefix], check=True)
    images = {}
    for f in sorted(glob.glob(prefix + "-*.ppm")):
        w, h, rows = read_ppm(f)
        images[(w, h)] = rows
    heat, bar = images.get((24, 40)), images.get((1, 256))
    check(heat is not None and bar is not None, f"heatmap and colour bar read back: "
          f"{sorted(images)}")
    if heat is None or bar is None:
        return
    csv = run("--print", "pe", "-n", "40", "-d", "24", "--format", "csv").stdout.decode()
    wrong = 0
    for pos, line in enumerate(csv.splitlines()[1:]):
        for j, v in enumerate(line.split(",")[1:]):
            t = min(max((float(v) - lo) / (hi - lo), 0.0), 1.0) * 255.0
            index = int(t) + (1 if t - int(t) >= 0.5 else 0)
            wrong += heat[pos][j] != bar[255 - index][0]  # the bar runs top = 1
    check(wrong == 0, f"every one of 40 x 24 PDF cells has its value's colour on [{lo}, {hi}] "
          f"({wrong} wrong)")


def test_svg(d):
    path = os.path.join(d, "pe.svg")
    run("--export", path, "--width", "4in", "--height", "3in", "--lang", "en", "--pe-layout",
        "interleaved")
    doc = xml.dom.minidom.parse(path).documentElement
    check(doc.getAttribute("width") == "288pt" and doc.getAttribute("height") == "216pt",
          f"SVG size {doc.getAttribute('width')} x {doc.getAttribute('height')}")
    images = doc.getElementsByTagName("image")
    check(len(images) >= 1 and all("pixelated" in i.getAttribute("style") for i in images),
          "SVG images ask for nearest-neighbour scaling")
    texts = doc.getElementsByTagName("text")
    words = [" ".join("".join(n.data for n in sp.childNodes if n.nodeType == n.TEXT_NODE)
                      for sp in t.getElementsByTagName("tspan")) for t in texts]
    check(len(texts) > 10 and all("DejaVu Sans" in t.getAttribute("font-family") for t in texts)
          and any(w.replace(" ", "") == "dimensionj" for w in words),
          f"labels are editable <text> in their font: {words[:12]}")
    # a run of a label moves by dy, never to an absolute x or y: that would start a new text
    # chunk, anchored on its own, and a right-aligned 10^5 would draw its 5 over the 10
    spans = [sp for t in texts for sp in t.getElementsByTagName("tspan")]
    check(spans and not any(sp.hasAttribute("x") or sp.hasAttribute("y") for sp in spans) and
          any(sp.hasAttribute("dy") for sp in spans) is not None,
          "label runs positioned relatively (one text chunk per line)")
    svg_structure(d)


def groups_of(doc, cls):
    return [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == cls]


def svg_structure(d):
    """The parts of a figure are named groups, and a heatmap is one embedded image: the 64 x 128
    pe heatmap was 8,187 <rect> elements in 581 KB; matplotlib writes the same figure in 58 KB
    (bench/bench_svg_size.py), and the issue allows twice that."""
    path = os.path.join(d, "pe64.svg")
    run("--export", path, "-n", "64", "-d", "128", "--lang", "en")
    size = os.path.getsize(path)
    doc = xml.dom.minidom.parse(path).documentElement
    heat = groups_of(doc, "heatmap")
    check(len(heat) == 1 and len(heat[0].getElementsByTagName("image")) == 1 and
          not heat[0].getElementsByTagName("rect"),
          f"the heatmap is one <image> ({[len(h.getElementsByTagName('image')) for h in heat]})")
    check(size <= 120 * 1024, f"the 64 x 128 pe SVG is {size / 1024:.1f} KB (at most 120)")
    ids = [g.getAttribute("id") for g in doc.getElementsByTagName("g") if g.hasAttribute("id")]
    check(len(ids) == len(set(ids)), f"group ids are unique: {ids}")
    names = {(g.getAttribute("class"), g.getAttribute("id")) for g in doc.getElementsByTagName("g")}
    want = {("title", "title-1"), ("panel", "panel-1"), ("axes", "axes-1"),
            ("heatmap", "heatmap-1"), ("colorbar", "colorbar-1")}
    check(want <= names, f"pe's parts are named groups: {sorted(names - {('', '')})}")
    panel = groups_of(doc, "panel")[0]
    check({g.getAttribute("class") for g in panel.getElementsByTagName("g")} >=
          {"axes", "heatmap", "colorbar"}, "the panel holds its axes, heatmap and colour bar")
    # every figure: one image per heatmap group, unique ids, legends and annotations grouped
    for fig, cls in (("rope", "annotation"), ("freq", "legend"), ("order", "note"),
                     ("input", "heatmap"), ("schemes", "legend")):
        path = os.path.join(d, f"{fig}.svg")
        run("--export", path, "--figure", fig, "--lang", "en")
        doc = xml.dom.minidom.parse(path).documentElement
        heat = groups_of(doc, "heatmap")
        ids = [g.getAttribute("id") for g in doc.getElementsByTagName("g") if g.hasAttribute("id")]
        check(all(len(h.getElementsByTagName("image")) == 1 for h in heat) and
              len(ids) == len(set(ids)) and groups_of(doc, cls) and groups_of(doc, "panel"),
              f"{fig}.svg: {len(heat)} heatmap(s) of one image each, unique ids, a {cls} group")


def test_same_bytes(d):
    """Same input, same bytes, for every format."""
    for ext in ("png", "pdf", "svg"):
        a, b = os.path.join(d, f"a.{ext}"), os.path.join(d, f"b.{ext}")
        for path in (a, b):
            run("--export", path, "--figure", "order", "--dpi", "100")
        check(open(a, "rb").read() == open(b, "rb").read(), f"two runs give identical {ext}")
        run("--export", a, "-n", "128", "--lang", "en")
        run("--export", b, "-n", "128", "--lang", "en")
        check(open(a, "rb").read() == open(b, "rb").read(), f"two pe runs give identical {ext}")


def test_options(d):
    path = os.path.join(d, "t.png")
    for args, what in [
        (["--figure", "nope"], "unknown figure"),
        (["--dpi", "5"], "dpi out of range"),
        (["--width", "3km"], "bad unit"),
        (["--width", "0.2in"], "too narrow"),
        (["--colormap", "jet"], "unknown colormap"),
        (["--font-size", "100"], "font too large"),
        (["--print", "pe"], "--print with --export"),
        (["-n", "5000", "--figure", "dot"], "dot matrix too large"),
        (["-n", "2048", "-d", "16384", "--figure", "dot"], "dot figure over the work limit"),
        (["--dpi", "2400"], "PNG over 45 million pixels"),
        (["--dpi", "2400", "--width", "40in", "--height", "40in"], "too many pixels"),
        (["--figure", "order", "--font-size", "36", "--width", "1in", "--height", "1in"],
         "labels that cannot fit"),
    ]:
        p = run("--export", path, *args, ok=False)
        err = p.stderr.decode()
        check(p.returncode == 2 and err.startswith("tfviz: ") and err.count("\n") == 1,
              f"{what}: exit 2 with one sentence ({err.strip()})")
    p = run("--export", os.path.join(d, "t.jpg"), ok=False)
    check(p.returncode == 2 and ".png" in p.stderr.decode(), "unknown extension: exit 2")
    p = run("--figure", "pe", ok=False)
    check(p.returncode == 2 and "--export" in p.stderr.decode(), "--figure without --export")
    check(not os.path.exists(path) and leftovers(d) == [], "no file after refused options")
    # the figures --scheme reaches are named by their rows of the table
    p = run("--export", path, "--figure", "rope", "--scheme", "rope", ok=False)
    err = p.stderr.decode()
    check(p.returncode == 2 and "figures order, schemes, pe-file, order-training;" in err and
          "the rope figure does not use one" in err, f"--scheme with rope: refused ({err.strip()})")
    run("--export", path, "--figure", "pe-file", "--scheme", "learned", "-d", "16")
    run("--export", path, "--title", "My <b>title</b> & 标题", "--font-size", "10")
    run("--export", path, "--no-title", "--lang", "en", "--colormap", "cividis")
    # a width in range whose derived height is not: the message names the page it would make
    p = run("--export", path, "--width", "1.2in", ok=False)
    err = p.stderr.decode()
    check(p.returncode == 2 and "1.20 x 0.96 in" in err and "height follows the width" in err,
          f"derived height too small: says so ({err.strip()})")
    # one position: every figure still draws (the relative offset k defaults to what fits)
    for fig in FIGURES:
        p = run("--export", path, "--figure", fig, "-n", "1", "--lang", "en", ok=False)
        check(p.returncode == 0, f"-n 1 draws {fig} ({p.stderr.decode().strip()})")


def svg_font_size(svg):
    """The label size an SVG figure was drawn at, from the parameters in its metadata."""
    doc = xml.dom.minidom.parse(svg).documentElement
    params = doc.getElementsByTagName("metadata")[0].firstChild.data
    return float(re.search(r"--font-size ([\d.]+)", params).group(1))


def narrow(d):
    """A 2 in subfigure: every single-panel figure is drawn (rope-decay needed 2.27 in at 8 pt,
    embedding 2.90 in for its subtitle); the labels are made smaller, to 6 pt at the least, only
    when the default size does not fit, and a subtitle wider than the page wraps. How many panels
    a figure has is read from its SVG (the panel groups)."""
    svg = os.path.join(d, "n.svg")
    for fig in FIGURES:
        p = run("--export", svg, "--figure", fig, "--width", "2in", "--lang", "en", ok=False)
        err = p.stderr.decode().strip()
        if p.returncode == 0:
            doc = xml.dom.minidom.parse(svg).documentElement
            size = svg_font_size(svg)
            said = f"note: the labels of the {fig} figure are {size:g} pt" in err
            check(6 <= size <= 8 and doc.getAttribute("width") == "144pt" and
                  said == (size < 8), f"--width 2in draws {fig} at {size:g} pt ({err})")
            continue
        run("--export", svg, "--figure", fig, "--lang", "en")
        panels = len(groups_of(xml.dom.minidom.parse(svg).documentElement, "panel"))
        check(panels > 1 and "need about" in err,
              f"--width 2in refuses only figures of several panels: {fig} ({panels}): {err}")
    # a legend beside a plot that would take most of a narrow page moves above the plot before
    # the labels shrink (both were drawn at 7 pt with their legends beside)
    for fig in ("rope-decay", "freq"):
        p = run("--export", svg, "--figure", fig, "--width", "2in", "--lang", "en", ok=False)
        size = svg_font_size(svg) if p.returncode == 0 else 0.0
        check(size == 8 and not p.stderr, f"{fig} at 2 in: its legend above the plot, the labels "
              f"at {size:g} pt ({p.stderr.decode().strip()})")
    # a size the request sets is drawn smaller too, rather than refused, and said
    p = run("--export", svg, "--figure", "rope-decay", "--width", "2in", "--font-size", "12",
            "--lang", "en", ok=False)
    err = p.stderr.decode()
    size = svg_font_size(svg) if p.returncode == 0 else 0.0
    check(p.returncode == 0 and 6 <= size < 12 and
          f"are {size:g} pt: at 12 pt they do not fit a page 2.00 in wide" in err,
          f"--font-size 12 at 2 in: drawn at {size:g} pt and said ({err.strip()})")
    # with a set height the note names that page, not a 9 in one --height would allow
    p = run("--export", svg, "--figure", "rope-decay", "--width", "2in", "--height", "1.6in",
            "--font-size", "12", "--lang", "en", ok=False)
    err = p.stderr.decode()
    check(p.returncode == 0 and "at 12 pt they do not fit a 2.00 x 1.60 in page." in err and
          "--height allows" not in err, f"--height 1.6in: the note names the page ({err.strip()})")
    # a width named for a page too low is one whose height follows it: the sentence says so,
    # and the figure is drawn there at the size asked
    p = run("--export", svg, "--figure", "rope-decay", "--width", "2in", "--height", "1.2in",
            "--font-size", "12", "--lang", "en", ok=False)
    err = p.stderr.decode()
    named = re.search(r"\(--width ([\d.]+in) without --height\)", err)
    check(p.returncode == 2 and named, f"--height 1.2in: a width named without it ({err.strip()})")
    if named:
        p = run("--export", svg, "--figure", "rope-decay", "--width", named.group(1),
                "--font-size", "12", "--lang", "en", ok=False)
        check(p.returncode == 0 and not p.stderr, f"the width named, {named.group(1)}, draws "
              f"at 12 pt ({p.stderr.decode().strip()})")
    # schemes at 14 pt in a column (10.8 in tall before): at most 9 in tall, its labels smaller
    p = run("--export", svg, "--figure", "schemes", "--width", "3.25in", "--font-size", "14",
            "--lang", "en", ok=False)
    err = p.stderr.decode()
    height = 0.0
    if p.returncode == 0:
        height = float(xml.dom.minidom.parse(svg).documentElement.getAttribute("height")
                       .rstrip("pt"))
    check(p.returncode == 0 and 0 < height <= 9 * 72 + 0.01 and "at 14 pt they do not fit" in err,
          f"schemes at 14 pt, 3.25 in: {height / 72:.2f} in tall ({err.strip()})")


def test_paper(d):
    """Venue widths, serif and named fonts, and Chinese refused when no font can draw it."""
    path = os.path.join(d, "v.pdf")
    # (the column, the text, the gap between two figures side by side) of each style file;
    # neurips, iclr and a4 have one column, the text: a figure is as wide by default and with
    # two-column, and one-column is there one of two side by side, as half is
    venues = {"acl": (7.7 / 2.54, 16.0 / 2.54, 0.6 / 2.54), "neurips": (5.5, 5.5, 0.25),
              "icml": (3.25, 6.75, 0.25), "iclr": (5.5, 5.5, 0.25), "ieee": (3.5, 7.16, 0.16),
              "a4": (16 / 2.54, 16 / 2.54, 0.25)}
    for venue, (col, text, gap) in venues.items():
        half = (text - gap) / 2
        one = col if col < text else half
        for width, want in ((None, col), ("one-column", one), ("two-column", text),
                            ("half", half)):
            run("--export", path, "--venue", venue, *(["--width", width] if width else []),
                "--figure", "freq" if width == "two-column" else "rope-decay")
            w, _, _ = pdfinfo(path)
            check(abs(w - want * 72) < 0.05,
                  f"--venue {venue} --width {width or '(default)'}: {w / 72:.3f} in ({want:.3f})")
    check(abs((venues["acl"][1] - venues["acl"][2]) / 2 - venues["acl"][0]) < 1e-9,
          "a two-column venue's half is its column")
    narrow(d)
    run("--export", path, "--venue", "icml", "--width", "5cm")
    w, _, _ = pdfinfo(path)
    check(abs(w - 5 / 2.54 * 72) < 0.05, "--width in a unit overrides --venue")
    for lang, want in (("zh", ("TeXGyreTermes", "UMingCN")), ("en", ("TeXGyreTermes",))):
        run("--export", path, "--serif", "--lang", lang)
        names = " ".join(n for n, _ in pdffonts(path))
        check(all(w in names for w in want) and "DejaVu" not in names and "WenQuanYi" not in names,
              f"--serif --lang {lang}: {names}")
    run("--export", path, "--font", "DejaVu Serif", "--lang", "en")
    names = " ".join(n for n, _ in pdffonts(path))
    check("DejaVuSerif" in names, f"--font 'DejaVu Serif': {names}")
    for args, what in [(["--venue", "nips"], "unknown venue"),
                       (["--font", "No Such Family 123"], "font not installed"),
                       (["--font", "DejaVu Serif", "--serif"], "--font with --serif")]:
        p = run("--export", path, *args, ok=False)
        err = p.stderr.decode()
        check(p.returncode == 2 and err.startswith("tfviz: ") and err.count("\n") == 1,
              f"{what}: exit 2 with one sentence ({err.strip()})")
    # --pe-layout split: sin(pos w_i) for every pair, then cos, in --print pe and the figure
    import math
    csv = run("--print", "pe", "-n", "6", "-d", "10", "--format", "csv", "--pe-layout",
              "split").stdout.decode().splitlines()
    worst = 0.0
    for pos, line in enumerate(csv[1:]):
        vals = [float(v) for v in line.split(",")[1:]]
        want = [math.sin(pos * 10000.0 ** (-2 * i / 10)) for i in range(5)] + \
               [math.cos(pos * 10000.0 ** (-2 * i / 10)) for i in range(5)]
        worst = max(worst, max(abs(a - b) for a, b in zip(vals, want)))
    check(len(csv) == 7 and worst < 1e-12, f"--print pe --pe-layout split: sin half, cos half "
          f"(worst error {worst:.2g})")
    run("--export", path, "--pe-layout", "split", "--lang", "en")
    text = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
    check("cos half" in text, "the pe figure in the split layout says so on its axis")
    p = run("--print", "pe", "--pe-layout", "sincos", ok=False)
    check(p.returncode == 2 and "interleaved or split" in p.stderr.decode(), "bad --pe-layout")
    # rope-decay: 10000 beside 500000 by default; --base draws that base alone; a base keeps
    # its style either way (10000 RoPE's solid blue, 500000 Llama 3's dashed rose: --print style)
    svg = os.path.join(d, "decay.svg")
    for base, want in ((None, {("#0072b2", False), ("#cc6677", True)}),
                       ("10000", {("#0072b2", False)}), ("500000", {("#cc6677", True)})):
        run("--export", svg, "--figure", "rope-decay", *(["--base", base] if base else []))
        paths = xml.dom.minidom.parse(svg).documentElement.getElementsByTagName("path")
        curves = {(p.getAttribute("stroke"), p.hasAttribute("stroke-dasharray")) for p in paths
                  if p.getAttribute("stroke") in ("#cc6677", "#0072b2")}
        check(curves == want, f"rope-decay --base {base}: curves {sorted(curves)}")
    # --vmin / --vmax: the colour limits of the heatmap, values beyond them clamped
    run("--export", path, "-n", "40", "-d", "24", "--vmin", "-0.5", "--vmax", "0.5")
    pdf_cells(d, path, -0.5, 0.5)
    for args, what in [(["--vmin", "1", "--vmax", "0"], "--vmin above --vmax"),
                       (["--vmin", "nan"], "--vmin not finite")]:
        p = run("--export", path, *args, ok=False)
        err = p.stderr.decode()
        check(p.returncode == 2 and err.count("\n") == 1, f"{what}: exit 2 ({err.strip()})")
    # panel letters on multi-panel figures; --no-title drops the embedding figure's title and
    # keeps its subtitle (what W_E's rows are)
    for fig, letters in (("rope", "(a) (b)"), ("freq", "(a) (b)"), ("input", "(a) (b) (c)"),
                         ("order", "(a) (b)")):
        run("--export", path, "--figure", fig, "--panel-labels", "--lang", "en")
        text = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
        check(all(t in text for t in letters.split()), f"--panel-labels on {fig}: {letters}")
    run("--export", path, "--figure", "rope")
    text = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
    check("(a)" not in text and "基数" in text, "no panel letters by default; rope's subtitle in zh")
    run("--export", path, "--figure", "embedding", "--no-title")
    text = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout
    check("训练前" in text and "词嵌入" not in text,
          f"--no-title drops the title, keeps the subtitle: {text[:60]!r}")
    # no font with Chinese glyphs: refused with the reason, no file, exit 2
    conf = os.path.join(d, "fonts.conf")
    with open(conf, "w") as f:
        f.write("<?xml version='1.0'?><!DOCTYPE fontconfig SYSTEM 'fonts.dtd'><fontconfig>"
                "<dir>/usr/share/fonts/truetype/dejavu</dir>"
                f"<cachedir>{d}/fc-cache</cachedir></fontconfig>")
    out = os.path.join(d, "zh.pdf")
    p = run("--export", out, "--lang", "zh", ok=False, env={**os.environ, "FONTCONFIG_FILE": conf})
    err = p.stderr.decode()
    check(p.returncode == 2 and "U+" in err and "fonts-noto-cjk" in err and
          not os.path.exists(out) and leftovers(d) == [],
          f"Chinese without a CJK font: refused, no file ({err.strip()})")
    p = run("--export", out, "--lang", "en", ok=False, env={**os.environ, "FONTCONFIG_FILE": conf})
    check(p.returncode == 0, f"English without a CJK font still draws ({p.stderr.decode().strip()})")


def test_failures(d):
    """I/O failures: exit 1, one sentence, the old file intact, no temporary file."""
    # an animation whose set --height is too low at any width says to change the height (the
    # Chinese sentence: its tokens, and so its labels, do not depend on the optional English word
    # list; without that list the English sentence's labels are shorter and fit at 6 pt)
    p = run("--figure", "rope-rotation", "--export", os.path.join(d, "low.gif"), "--width", "6.4in",
            "--height", "1in", "--frames", "4", ok=False)
    err = p.stderr.decode()
    check(p.returncode == 2 and "give a taller --height" in err and
          not os.path.exists(os.path.join(d, "low.gif")), f"a frame too low: {err.strip()}")
    blocker = os.path.join(d, "file")
    open(blocker, "w").write("x")
    p = run("--export", os.path.join(blocker, "x.png"), ok=False)
    err = p.stderr.decode()
    check(p.returncode == 1 and err.count("\n") == 1 and "cannot write" in err,
          f"path under a file: exit 1 ({err.strip()})")
    os.mkdir(os.path.join(d, "dir.png"))
    p = run("--export", os.path.join(d, "dir.png"), ok=False)
    check(p.returncode == 1 and "directory" in p.stderr.decode(), "a directory: exit 1")

    # a full disk, simulated by a file size limit
    target = os.path.join(d, "keep.png")
    open(target, "wb").write(b"old contents")

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))

    for ext in ("png", "pdf", "svg"):
        t = os.path.join(d, f"keep.{ext}")
        open(t, "wb").write(b"old contents")
        p = run("--export", t, "-n", "512", ok=False, preexec_fn=limit)
        err = p.stderr.decode()
        check(p.returncode == 1 and err.count("\n") == 1 and "cannot write" in err,
              f"full disk ({ext}): exit 1 ({err.strip()})")
        check(open(t, "rb").read() == b"old contents", f"full disk ({ext}): old file intact")
    check(leftovers(d) == [], "no temporary files after failures")

    # a signal while exporting (SIGPIPE: stderr or stdout piped into a reader that quit): the old
    # file stays or the new one is complete, never a torn file, and no temporary file
    big = os.path.join(d, "big.pdf")
    open(big, "wb").write(b"old")
    for sig in (signal.SIGINT, signal.SIGPIPE):
        for delay in (0.02, 0.05, 0.1):
            proc = subprocess.Popen([TFVIZ, "--export", big, "-n", "4096", "-d", "4096"],
                                    stderr=subprocess.PIPE)
            time.sleep(delay)
            proc.send_signal(sig)
            proc.wait(timeout=120)
            data = open(big, "rb").read()
            check(data == b"old" or (data.startswith(b"%PDF") and
                                     data.rstrip().endswith(b"%%EOF")),
                  f"{sig.name} after {delay}s: old file or complete new one")
        check(leftovers(d) == [], f"no temporary file after {sig.name}")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_wordmap(d):
    """The 2-D map of learned words: with --vectors in the embedding figure and on its own;
    without vectors the map alone fails with one sentence and no file."""
    vec = os.path.join(d, "v.vec")
    run("--train", "-o", vec)
    plain = os.path.join(d, "plain.png")
    run("--export", plain, "--figure", "embedding", "--dpi", "100", "我爱北京")
    for fig in ("embedding", "embedding-map"):
        path = os.path.join(d, f"{fig}.png")
        p = run("--vectors", vec, "--export", path, "--figure", fig, "--dpi", "100", "我爱北京",
                ok=False)
        check(p.returncode == 0 and os.path.getsize(path) > 1000,
              f"{fig} with --vectors written ({p.stderr.decode().strip()})")
    w, h = png_size(os.path.join(d, "embedding.png"))
    w0, h0 = png_size(plain)
    check(w == w0 and w > 300 and h > h0 * 1.4,
          f"the map below the rows makes the page taller ({w0}x{h0} -> {w}x{h})")
    bad = os.path.join(d, "nomap.png")
    p = run("--export", bad, "--figure", "embedding-map", "我爱北京", ok=False)
    err = p.stderr.decode()
    check(p.returncode == 2 and "--vectors" in err and err.count("\n") == 1,
          f"embedding-map without vectors fails in one sentence ({err.strip()})")
    check(not os.path.exists(bad) and leftovers(d) == [], "no file written without vectors")


def main():
    global TFVIZ
    TFVIZ, group = sys.argv[1], sys.argv[2]
    FIGURES.extend(name for name, kind, needs, _ in figure_table(TFVIZ)
                   if kind == "still" and needs == "-")
    fn = globals().get(f"test_{group}")
    if not fn:
        print(f"unknown group {group}", file=sys.stderr)
        return 2
    d = tempfile.mkdtemp(prefix="tfviz-fig-")
    try:
        fn(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
