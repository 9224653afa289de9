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
  refusals   .svg, .png, no extension, --figure, --width, --dpi, --print, -d 3: exit 2 and one
             sentence; the .svg sentence names .pdf and a folder."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run_group, run_tfviz  # noqa: E402

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


if __name__ == "__main__":
    TFVIZ = os.path.abspath(sys.argv[1])
    titles, points = read_titles(sys.argv[2])
    TITLES.extend(titles)
    POINTS.extend(points)
    sys.exit(run_group(globals(), sys.argv[3]))
