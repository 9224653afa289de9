#!/usr/bin/python3
"""The lesson as slides: tfviz --lesson --export deck.pdf | deck/, read back with pdfinfo,
pdftotext and Pillow.

    deck_test.py TFVIZ LESSON_TEXT GROUP   (LESSON_TEXT: app/core/lesson_text.c)

  pdf        the Chinese deck of 我爱学习: 12 pages of 960 x 540 pt; page N holds step N's title
             (read from the lesson's text file), "tfviz 课堂 N/12" as the live lesson's header
             says it, the sentence, and the point at 24 pt or more (its characters' advance);
             page 1 the command of the live lesson, every page a --print command that runs, the
             last the --print topics; page 1 the sentence's code points and UTF-8 bytes
             (Python's), page 2 the ids --print tokens gives;
  english    --lang en --extended with an English sentence: 13 pages, English titles, the order
             B of step 6's try line ({B2}: the last word first);
  options    -d, -n, --base, --index-base and --scheme reach the commands on the slides, and the
             pictures change with them;
  same_bytes the same PDF and the same PNG files from two runs;
  folder     a folder: 12 PNGs frame_0001.png ... of 1920 x 1080 pixels, no temporary file left;
             a deck of 13 then 12 slides leaves 12;
  refusals   .svg, .png, no extension, --figure, --width, --dpi, --print, --big, -d 3: exit 2
             and one sentence; the .svg sentence names .pdf and a folder;
  order_slide step 6 in Chinese and English, measured on its 1920 x 1080 PNG: the three heatmaps
             of a row together at least a third of the slide's width and each at least 12 % of
             its height, no empty band across the picture wider than 6 % of the width; under each
             column its reading with its words (最大差 / 变化, max diff / changes) and the numbers
             --print order gives (max_weight_diff, relative_diff);
  tables     a sentence of 12 English words: step 1's table at 22 pt or more, step 2 every token
             and its id (from --print tokens) at 22 pt or more;
  titles     every Chinese title's characters, measured on the PNGs: none of them more than 60 %
             ink (a CJK font without a bold face, emboldened, fills dense glyphs such as 量);
  order_model with -d the order model does not take (over 256, not a multiple of twice its
             heads), step 7's command names the -d it trains with (--print order-training's
             d_model without -d), runs, and prints the held-out accuracies the slide shows."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, percent, run_group, run_tfviz  # noqa: E402

TFVIZ = None
TITLES = []  # (zh, en) of every step, the article's and the extended one
POINTS = []  # the same of their points


def run(*args, ok=True):
    return run_tfviz(TFVIZ, list(args), ok=ok, timeout=300)


def read_titles(path):
    """The steps' titles from the lesson's text file: each step opens with {{"zh", "en"},."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return (re.findall(r'\{\{"([^"]+)", "([^"]+)"\},', text),
            re.findall(r'\.point = \{"([^"]+)", "([^"]+)"\}', text))


def pdf_pages(path):
    out = subprocess.run(["pdfinfo", path], capture_output=True, check=True).stdout.decode()
    pages = int(re.search(r"Pages:\s+(\d+)", out).group(1))
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", out)
    return pages, (float(size.group(1)), float(size.group(2)))


def page_text(path, n):
    return subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), path, "-"],
                          capture_output=True, check=True).stdout.decode()


def flat(s):
    return re.sub(r"\s+", "", s)


def page_words(path, n):
    """(text, x0, y0, x1, y1) of every word pdftotext finds on page n."""
    xml = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), "-bbox", path, "-"],
                         capture_output=True, check=True).stdout.decode()
    return [(m.group(5), *map(float, m.group(1, 2, 3, 4))) for m in re.finditer(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
        xml)]


def footer_commands(text):
    """The tfviz --print commands a page's footer names."""
    return [m.group(1) for m in re.finditer(r"(tfviz --print \S+[^\n]*)", text)]


def run_command(line):
    """A footer's command through tfviz itself: its arguments as a shell splits them."""
    import shlex
    args = shlex.split(line)[1:]
    return run_tfviz(TFVIZ, args, ok=False, timeout=300)


def test_pdf():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "deck.pdf")
        run("--lesson", "--export", path, "我爱学习")
        pages, size = pdf_pages(path)
        check(pages == 12, f"pdf: 12 pages ({pages})")
        check(size == (960.0, 540.0), f"pdf: 960 x 540 pt, 13.33 x 7.5 in ({size})")
        for n in range(1, pages + 1):
            t = page_text(path, n)
            check(flat(TITLES[n - 1][0]) in flat(t), f"pdf: page {n} has step {n}'s title")
            check(f"tfviz 课堂 {n}/12" in t, f"pdf: page {n} says 'tfviz 课堂 {n}/12'")
            check("我爱学习" in t, f"pdf: page {n} names the sentence")
            # the point's words: their boxes as tall as text of 24 pt or more (a line of Noto
            # Sans CJK is 1.45 times its size, of DejaVu Sans 1.16)
            # the point lies below the title (the top 160 pt): ticks of a plot are not its words
            words = [w for w in page_words(path, n)
                     if len(w[0]) >= 2 and w[0] in POINTS[n - 1][0] and 50 < w[2] < 160]
            # its line: the row of those words that holds most of it (a subtitle may share some)
            rows = {}
            for w in words:
                rows[w[2]] = rows.get(w[2], 0) + len(w[0])
            words = [w for w in words if rows and w[2] == max(rows, key=rows.get)]
            low = min((w[4] - w[2]) / 1.16 for w in words) if words else 0
            check(words and low >= 24, f"pdf: page {n}'s point is at least {low:.1f} pt (>= 24)")
            cmds = footer_commands(t)
            check(len(cmds) == 1, f"pdf: page {n} names one --print command ({cmds})")
            for c in cmds:
                p = run_command(c)
                check(p.returncode == 0 and p.stdout, f"pdf: page {n}'s '{c}' runs")
        first, last = page_text(path, 1), page_text(path, 12)
        check("tfviz --lesson 我爱学习" in first, "pdf: page 1 names the live lesson's command")
        for topic in ["tokens", "vocab", "embedding", "training", "order-training", "pe",
                      "freq", "relative", "input", "rope"]:
            check(topic in last.split("--print")[-1], f"pdf: the last page lists {topic}")
        for ch in "我爱学习":
            hexes = " ".join(f"{b:02X}" for b in ch.encode())
            check(f"U+{ord(ch):04X}" in first and hexes in first and str(ord(ch)) in first,
                  f"pdf: page 1 has {ch}'s U+{ord(ch):04X}, {hexes} and {ord(ch)}")
        toks = json.loads(run("--print", "tokens", "--format", "json", "我爱学习").stdout)
        ids = [str(t["id"]) for t in toks["tokens"]]
        second = page_text(path, 2).split()
        check(ids and all(i in second for i in ids), f"pdf: page 2 shows the ids {ids}")


def test_english():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "deck.pdf")
        sentence = "The cat chases the dog"
        run("--lesson", "--extended", "--lang", "en", "--export", path, sentence)
        pages, _ = pdf_pages(path)
        check(pages == 13, f"english: --extended gives 13 pages ({pages})")
        for n in range(1, pages + 1):
            t = page_text(path, n)
            check(flat(TITLES[n - 1][1]) in flat(t), f"english: page {n} has the English title")
            check(f"tfviz lesson {n}/13" in t, f"english: page {n} says 'tfviz lesson {n}/13'")
            check(sentence in t, f"english: page {n} names the sentence")
        words = sentence.split()
        b2 = " ".join([words[-1]] + words[:-1])  # step 6's {B2}: the last word first
        check(b2 in " ".join(page_text(path, 6).split()),
              f"english: page 6's try line names the order '{b2}'")


def test_options():
    with tempfile.TemporaryDirectory() as d:
        plain, opt = os.path.join(d, "a.pdf"), os.path.join(d, "b.pdf")
        run("--lesson", "--export", plain, "我喜欢猫")
        run("--lesson", "-d", "64", "-n", "32", "--base", "500", "--index-base", "1", "--scheme",
            "none,rope", "--export", opt, "我喜欢猫")
        want = "-d 64 -n 32 --base 500 --index-base 1"
        first = page_text(opt, 1)
        check(f"tfviz --lesson {want} --scheme none,rope 我喜欢猫" in first,
              "options: page 1's live command has every option")
        for n in (6, 7):
            t = page_text(opt, n)
            check("--scheme none,rope" in t, f"options: page {n}'s --print takes --scheme")
            p = run_command(footer_commands(t)[0])
            check(p.returncode == 0, f"options: page {n}'s command runs ({p.stderr[:200]!r})")
        t8 = page_text(opt, 8)
        check(want in t8 and "--scheme" not in t8, "options: page 8's --print pe has the "
              "options, not --scheme")
        # the PE heatmap of -d 64: its dimension axis ends below 64; the default one's at 512
        check("500" in page_text(plain, 8) and "500" not in page_text(opt, 8).split("--base")[0],
              "options: the PE slide's axis follows -d")


def test_same_bytes():
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.pdf"), os.path.join(d, "b.pdf")
        run("--lesson", "--export", a)
        run("--lesson", "--export", b)
        with open(a, "rb") as fa, open(b, "rb") as fb:
            check(fa.read() == fb.read(), "same_bytes: two runs write the same PDF")
        fa, fb = os.path.join(d, "fa") + "/", os.path.join(d, "fb") + "/"
        run("--lesson", "--lang", "en", "--export", fa)
        run("--lesson", "--lang", "en", "--export", fb)
        names = sorted(os.listdir(fa))
        same = names == sorted(os.listdir(fb)) and all(
            open(fa + n, "rb").read() == open(fb + n, "rb").read() for n in names)
        check(same and len(names) == 12, "same_bytes: two runs write the same 12 PNGs")


def test_folder():
    from PIL import Image
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "slides") + "/"
        run("--lesson", "--extended", "--export", out)
        check(len(os.listdir(out)) == 13, "folder: --extended writes 13 files")
        run("--lesson", "--export", out)
        names = sorted(os.listdir(out))
        check(names == [f"frame_{k:04d}.png" for k in range(1, 13)],
              f"folder: frame_0001.png to frame_0012.png, nothing else ({names[:3]}...)")
        for n in names:
            with Image.open(out + n) as im:
                check(im.size == (1920, 1080), f"folder: {n} is 1920 x 1080 ({im.size})")


def test_refusals():
    with tempfile.TemporaryDirectory() as d:
        cases = [
            (["--export", os.path.join(d, "d.svg")], None),
            (["--export", os.path.join(d, "d.png")], None),
            (["--export", os.path.join(d, "deck")], None),
            (["--export", os.path.join(d, "d.pdf"), "--figure", "pe"], "--figure"),
            (["--export", os.path.join(d, "d.pdf"), "--width", "3in"], "--width"),
            (["--export", os.path.join(d, "d.pdf"), "--dpi", "100"], "--dpi"),
            (["--export", os.path.join(d, "d.pdf"), "--print", "pe"], "--print"),
            (["--export", os.path.join(d, "d.pdf"), "--big"], "--big"),
            (["--export", os.path.join(d, "d.pdf"), "-d", "3"], None),
        ]
        for args, word in cases:
            p = run("--lesson", *args, ok=False)
            err = p.stderr.decode()
            check(p.returncode == 2 and err.count("\n") == 1 and err.startswith("tfviz: ") and
                  (word is None or word in err),
                  f"refusals: --lesson {' '.join(args[2:]) or args[1]}: exit 2, one sentence "
                  f"({p.returncode}, {err.strip()[:120]!r})")
        p = run("--lesson", "--export", os.path.join(d, "d.svg"), ok=False)
        err = p.stderr.decode()
        check(".pdf" in err and "folder" in err, "refusals: .svg names .pdf and a folder")
        check(os.listdir(d) == [], f"refusals: nothing written ({os.listdir(d)})")


def slide_png(folder, n):
    """Slide n of a deck written to folder (1920 x 1080) as an array of RGB ints."""
    import numpy as np
    from PIL import Image
    with Image.open(os.path.join(folder, f"frame_{n:04d}.png")) as im:
        return np.asarray(im.convert("RGB")).astype(int)


def runs(line):
    """(start, length) of every run of True in a 1-D boolean array."""
    import numpy as np
    edges = np.flatnonzero(np.diff(np.concatenate(([0], line.astype(int), [0]))))
    return [(int(a), int(b - a)) for a, b in zip(edges[::2], edges[1::2])]


def heatmap_boxes(img):
    """The widths of the heatmaps on the row of the picture crossing the most of them (runs of
    coloured pixels at least 5 % of the width: no bar, colour bar or word is that wide), and
    the tallest coloured run down the middle of each: (widths, heights) in pixels."""
    h, w = img.shape[:2]
    sat = img.max(axis=2) - img.min(axis=2) > 40  # viridis has no grey
    best = []
    for y in range(int(0.25 * h), int(0.8 * h)):
        found = [r for r in runs(sat[y]) if r[1] >= 0.05 * w]
        if sum(r[1] for r in found) > sum(r[1] for r in best):
            best = found
    heights = [max(r[1] for r in runs(sat[:, x + n // 2])) for x, n in best]
    return [n for _, n in best], heights


def widest_gap(img):
    """The widest band of white columns across the picture's rows (25 % to 80 % of the height),
    between its first and last ink, as a share of the width."""
    h, w = img.shape[:2]
    ink = (img[int(0.25 * h):int(0.8 * h)] < 235).any(axis=2).any(axis=0)
    cols = [x for x in range(w) if ink[x]]
    gaps = [n for x, n in runs(~ink[cols[0]:cols[-1]])]
    return max(gaps, default=0) / w


# an English sentence is words only with the English word list (optional, fetched at set-up);
# without it its tokens are letters, and the slides that show them are another picture
ENGLISH_WORDS = bool(os.environ.get("TFVIZ_ENGLISH_LIST"))
NO_ENGLISH = ("the English word list was not fetched (scripts/bootstrap.sh): English words "
              "are letters")


def test_order_slide():
    for lang, sentence in (("zh", "小明喜欢小红"), ("en", "the cat chases the dog")):
        if lang == "en" and not ENGLISH_WORDS:
            print(f"# order_slide en skipped: {NO_ENGLISH}")
            continue
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s") + "/"
            run("--lesson", "--lang", lang, "--export", out, sentence)
            img = slide_png(out, 6)
            widths, heights = heatmap_boxes(img)
            w, h = img.shape[1], img.shape[0]
            check(len(widths) == 3 and sum(widths) >= w / 3,
                  f"order_slide {lang}: three heatmaps across, together {sum(widths) / w:.0%} "
                  f"of the width (>= 33 %)")
            check(heights and min(heights) >= 0.12 * h,
                  f"order_slide {lang}: heatmaps {min(heights, default=0) / h:.0%} of the "
                  f"height (>= 12 %)")
            gap = widest_gap(img)
            check(gap <= 0.06, f"order_slide {lang}: no empty band ({gap:.1%} of the width, "
                  f"<= 6 %)")
            path = os.path.join(d, "deck.pdf")
            run("--lesson", "--lang", lang, "--export", path, sentence)
            text = flat(page_text(path, 6))
            ref = json.loads(run("--print", "order", "--format", "json", sentence).stdout)
            words = ("最大差", "变化") if lang == "zh" else ("maxdiff", "changes")
            for mode in ("without_pe", "with_pe", "with_rope"):
                r = ref[mode]
                diff = "0" if r["zero_up_to_rounding"] else f"{r['max_weight_diff']:.3f}"
                share = "0%" if r["zero_up_to_rounding"] else percent(r["relative_diff"])
                check(words[0] + diff in text and words[1] + share in text,
                      f"order_slide {lang}: {mode}'s reading '{words[0]} {diff}', "
                      f"'{words[1]} {share}'")


def test_tables():
    if not ENGLISH_WORDS:
        print(f"SKIP: {NO_ENGLISH}")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as d:
        sentence = "the quick brown fox jumps over the lazy dog near the river"
        path = os.path.join(d, "deck.pdf")
        run("--lesson", "--lang", "en", "--export", path, sentence)
        # a line of DejaVu Sans is 1.16 times its size
        cells = {w[0]: w[4] - w[2] for w in page_words(path, 1)
                 if w[0] in {f"U+{ord(c):04X}" for c in sentence if c != " "}}
        check(cells and min(cells.values()) / 1.16 >= 22,
              f"tables: step 1's cells at {min(cells.values(), default=0) / 1.16:.1f} pt "
              f"(>= 22)")
        toks = json.loads(run("--print", "tokens", "--format", "json", "--lang", "en",
                              sentence).stdout)["tokens"]
        # the picture's words: below the point, above the try line and the footer
        shown = [w for w in page_words(path, 2) if 100 < w[2] and w[4] < 450]
        for t in toks:
            hs = [w[4] - w[2] for w in shown if w[0] == t["text"]]
            ids = [w[4] - w[2] for w in shown if w[0] == str(t["id"])]
            check(hs and ids and min(hs + ids) / 1.16 >= 22,
                  f"tables: step 2 shows '{t['text']}' and its id {t['id']} at 22 pt or more "
                  f"({min(hs + ids, default=0) / 1.16:.1f})")


def test_titles():
    import numpy as np
    with tempfile.TemporaryDirectory() as d:
        out, path = os.path.join(d, "s") + "/", os.path.join(d, "deck.pdf")
        run("--lesson", "--extended", "--export", out, "我爱学习")
        run("--lesson", "--extended", "--export", path, "我爱学习")
        for n in range(1, 14):
            gray = slide_png(out, n).mean(axis=2)
            # the title's words of Chinese characters only, each character an equal share
            words = [w for w in page_words(path, n) if w[2] < 60 and w[0] and
                     all(ord(ch) >= 0x3000 for ch in w[0])]
            inks = []
            for text, x0, y0, x1, y1 in words:
                step = (x1 - x0) / len(text)
                for i, ch in enumerate(text):  # 2 pixels a point
                    box = gray[int(2 * y0):int(2 * y1),
                               int(2 * (x0 + i * step)):int(2 * (x0 + (i + 1) * step))]
                    inks.append((float((box < 128).mean()), ch))
            worst = max(inks, default=(0, ""))
            check(inks and worst[0] <= 0.6,
                  f"titles: page {n}'s title has no filled glyph (darkest {worst[1]} "
                  f"{worst[0]:.0%} ink, <= 60 %)")


def test_order_model():
    sentence = "我爱学习"
    plain = run("--print", "order-training", sentence).stdout.decode()
    want = re.search(r"d_model (\d+)", plain).group(1)
    for d_model in ("512", "1024", "50"):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "deck.pdf")
            run("--lesson", "-d", d_model, "--export", path, sentence)
            t = page_text(path, 7)
            cmd = footer_commands(t)[0]
            got = re.search(r" -d (\d+)", cmd)
            check((got.group(1) if got else want) == want,
                  f"order_model: -d {d_model}: step 7's command trains with d_model {want} "
                  f"({cmd!r})")
            p = run_command(cmd)
            out = p.stdout.decode()
            check(p.returncode == 0 and f"d_model {want}," in out,
                  f"order_model: -d {d_model}: '{cmd}' runs with d_model {want}")
            final = re.findall(r"^  (none|sinusoidal|learned|rope) .* ([\d.]+ %)\s+[\d.]+ % of",
                               out, re.M)
            shown = " ".join(t.split())
            check(final and all(f"{name} {acc}" in shown for name, acc in final),
                  f"order_model: -d {d_model}: the slide's accuracies are the command's {final}")


if __name__ == "__main__":
    TFVIZ = os.path.abspath(sys.argv[1])
    titles, points = read_titles(sys.argv[2])
    TITLES.extend(titles)
    POINTS.extend(points)
    sys.exit(run_group(globals(), sys.argv[3]))
