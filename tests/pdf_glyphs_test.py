#!/usr/bin/env python3
"""Every glyph a figure's PDF embeds is whole: the font programs (FontFile2 TrueType, FontFile3
CFF) are read back with fontTools and each glyph drawn; the titles hold 750 common Chinese
characters (every fifth of GB 2312's first level) and Latin text, in sans and in serif.

A broken glyph shows blank in a PDF viewer though pdftotext still finds its character: cairo
1.16 wrote about one CJK character in 300 wrongly when the font was a CID-keyed CFF one.

Usage: pdf_glyphs_test.py TFVIZ   (run by Debian's python3, which has python3-fonttools)"""
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

from harness import FAILS, check, run_tfviz  # noqa: E402

try:
    from fontTools.cffLib import CFFFontSet
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont
except ImportError:
    print("SKIP: python3-fonttools is not installed (scripts/bootstrap.sh installs it)")
    sys.exit(77)


def common_hanzi():
    """Every fifth character of GB 2312's first level (3,755 characters in rows 16-55)."""
    chars = []
    for row in range(0xB0, 0xD8):
        for col in range(0xA1, 0xFF):
            try:
                chars.append(bytes((row, col)).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return chars[::5][:750]


def streams(pdf):
    """(kind, bytes) of every embedded font program: '2' TrueType, '3' CFF."""
    for m in re.finditer(rb"/FontFile([23]) (\d+) 0 R", pdf):
        obj = re.search(rb"\n" + m.group(2) + rb" 0 obj\s*<<(.*?)>>\s*stream\r?\n", pdf, re.S)
        head = obj.group(1)
        length = re.search(rb"/Length (\d+)( 0 R)?", head)
        n = int(length.group(1))
        if length.group(2):
            n = int(re.search(rb"\n" + length.group(1) + rb" 0 obj\s*(\d+)", pdf).group(1))
        raw = pdf[obj.end():obj.end() + n]
        yield m.group(1).decode(), zlib.decompress(raw) if b"FlateDecode" in head else raw


def glyphs(kind, data):
    """(glyphs, broken, inked): each glyph drawn; broken when it cannot be, inked when it has
    an outline."""
    total = broken = inked = 0
    if kind == "3":
        fonts = CFFFontSet()
        fonts.decompile(io.BytesIO(data), None)
        font = fonts[fonts.fontNames[0]]
        glyph_set = None
        named = [font.CharStrings[g] for g in font.charset]
    else:
        glyph_set = TTFont(io.BytesIO(data)).getGlyphSet()
        named = [glyph_set[g] for g in glyph_set.keys()]
    for g in named:
        total += 1
        pen = BoundsPen(glyph_set)  # a composite TrueType glyph draws its parts from the set
        try:
            g.draw(pen)
        except Exception:  # a glyph program that does not run is a broken glyph
            broken += 1
            continue
        inked += pen.bounds is not None
    return total, broken, inked


# extra arguments, tab-separated, to try the test on another font (e.g. --font, a CFF family)
FONT = [a for a in os.environ.get("GLYPHS_FONT_ARGS", "").split("\t") if a]


def main():
    tfviz = sys.argv[1]
    hanzi = common_hanzi()
    # (figure, sentence, title): two pages on which Noto Sans CJK lost a glyph (如 in the
    # first), then the common characters 125 at a time
    cases = [("order", "如果我爱学习", None),
             ("pe", "我爱学习", "直接把完地抠论没任何规则阅读万人类语料下概率用梯降修改值最终强具似义比如")]
    cases += [("pe", "我爱学习", "".join(hanzi[k:k + 125]) + " Xq")
              for k in range(0, len(hanzi), 125)]
    d = tempfile.mkdtemp(prefix="tfviz-glyphs-")
    try:
        for style in ([], ["--serif"]):
            for fig, sentence, title in cases:
                path = os.path.join(d, "g.pdf")
                run_tfviz(tfviz, ["--export", path, "--figure", fig, sentence, *style, *FONT,
                                  *(["--title", title, "-n", "8", "-d", "16"] if title else [])])
                text = subprocess.run(["pdftotext", path, "-"], capture_output=True,
                                      text=True).stdout
                shown = re.sub(r"\s", "", text)
                total = broken = inked = 0
                for kind, data in streams(open(path, "rb").read()):
                    t, b, i = glyphs(kind, data)
                    total, broken, inked = total + t, broken + b, inked + i
                want = {c for c in (title or sentence) if "\u4e00" <= c <= "\u9fff"}
                what = f"{fig} {' '.join(style) or 'sans'}, {len(want)} characters"
                check(all(c in shown for c in want), f"{what}: all in the PDF's text")
                check(total > len(want) and broken == 0 and inked >= len(want),
                      f"{what}: {total} glyphs embedded, {broken} broken, {inked} with ink")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
