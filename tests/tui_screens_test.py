#!/usr/bin/env python3
"""Screen tests over every explorer view and every lesson step: overlays leave nothing behind,
and text is whole at every size in both languages.

Usage: tui_screens_test.py TFVIZ GROUP   (GROUP: one of the functions named test_<group>)

The views and steps are found on the screen (the tab bar, the lesson's "n/N" header) and
reached with Tab and PgDn, so a view or a step added later is covered without changing this
file. A screen that keeps moving by itself (live training) is paused with p and started
again from its beginning with r, the keys such views share, before it is compared."""
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tui_test as tt  # noqa: E402

check = tt.check
SENTENCE = "我爱学习"


# ------------------------------------------------------------------------------------------
# Finding and reaching the screens


def count_views():
    """The explorer's views, read from its tab bar on a wide screen."""
    t = tt.Tmux(["--lang", "en", SENTENCE], 300, 30)
    try:
        s = t.wait(lambda x: "tfviz" in x and "?" in x, "the tab bar")
        bar = s.splitlines()[0] if s else ""
        # every tab: "1 Embedding ... 9 Schemes  0 Train order" (the tenth view's key is 0)
        return len(re.findall(r"(?<= )(\d+) (?=\S)", bar))
    finally:
        t.kill()


def count_steps(*more):
    t = tt.Tmux(["--lesson", *more, "--lang", "en", SENTENCE], 120, 40)
    try:
        s = t.wait(lambda x: re.search(r"lesson 1/\d+", x), "the lesson header")
        m = re.search(r"lesson 1/(\d+)", s or "")
        return int(m.group(1)) if m else 0
    finally:
        t.kill()


def first_frame(s):
    """A frame is on the screen: the lesson's header, or the explorer's tab bar (which drops
    its 'tfviz' when the row is short)."""
    lines = (s or "").splitlines()
    return bool(lines) and ("tfviz" in lines[0] or re.match(r"\s*1 \S", lines[0]) is not None)


def settled(t, timeout=6.0, quiet=0.3):
    """The screen once two captures `quiet` seconds apart agree, or None."""
    end = time.time() + timeout
    last = t.screen()
    while time.time() < end:
        time.sleep(quiet)
        s = t.screen()
        if s == last:
            return s
        last = s
    return None


def trains(s):
    """The order training's state line says it runs: between two epochs at the lesson's speed
    its screen does not change for a second or more, so two equal captures prove nothing."""
    return re.search(r"^ *(training|训练中) +(epoch|第)", s, re.M) is not None


def learns(s):
    """The word vectors' training is on the screen (its words counter), running or finished."""
    return re.search(r"\d+/\d+ (words|词) ", s) is not None


def still(t, what):
    """Bring a screen that moves by itself to a fixed state: r starts a run again from the
    beginning, p pauses it (Space goes on in the lesson), r starts it again paused, and x clears
    the message those keys leave. Returns the screen."""
    s = settled(t)
    if s is not None and not trains(s) and not learns(s):
        return s
    # r p r: a running run starts again, is paused and starts again paused; a finished one
    # (which takes no p, and whose curves depend on how its frames fell) starts again running,
    # is paused, and starts again paused: the same state either way
    for key in ("r", "p", "r", "x"):
        t.keys(key)
        time.sleep(0.2)
    s = settled(t)
    if s is None:
        print(f"# {what}: the screen keeps moving after p r")
    return s


def open_at(args, width, height, moves, what):
    """A new tfviz with args, moved to a screen with `moves` (tmux key names), made still."""
    t = tt.Tmux(args, width, height)
    t.wait(first_frame, f"{what}: first frame")
    settled(t, timeout=3.0, quiet=0.3)
    for k in moves:
        t.keys(k)
        time.sleep(0.05)
    return t, still(t, what)


def walk(args, width, height, next_key, n, tag, env=None):
    """A new tfviz with args (and env) moved through n screens with next_key: yields (tmux, k)
    on each (k from 0), and ends that tfviz afterwards."""
    t = tt.Tmux(args, width, height, env=env)
    try:
        t.wait(first_frame, f"{tag}: first frame")
        settled(t, timeout=3.0, quiet=0.3)
        for k in range(n):
            if k:
                t.keys(next_key)
            yield t, k
    finally:
        t.kill()


def diff_lines(a, b):
    la, lb = (a or "").splitlines(), (b or "").splitlines()
    out = []
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else ""
        y = lb[i] if i < len(lb) else ""
        if x != y:
            out.append(f"#   row {i}: fresh    |{y}|\n#   row {i}: overlay  |{x}|")
    return "\n".join(out[:6])


# ------------------------------------------------------------------------------------------
# 1. Overlays leave the screen as a fresh start in the same state draws it


OVERLAYS = (
    # name, keys that open and close it, what shows while it is open
    ("help", ("?",), ("x",), lambda s: "+----" in s),
    # a message stays until the next key, which then does what it does: F12, bound nowhere
    # (x would change view 9's RoPE scaling)
    ("message", ("l", "l"), ("F12",), None),
    ("editor", ("/",), ("Escape",), lambda s: "Sentence:" in s or "句子" in s),
)


def overlays_at(base_args, width, height, next_key, n, tag):
    """For each of n screens (reached with next_key): the screen after each overlay closes
    equals the screen of a fresh start moved to the same place."""
    for t, k in walk(base_args, width, height, next_key, n, tag):
        here = still(t, f"{tag} screen {k + 1}")
        ref_t, ref = open_at(base_args, width, height, [next_key] * k, f"{tag} {k + 1}")
        ref_t.kill()
        if ref is None or here is None:
            check(False, f"{tag} screen {k + 1}: the screen settles")
            continue
        check(here == ref, f"{tag} screen {k + 1}: reached with other screens before it, "
                           f"it equals a fresh start's\n{diff_lines(here, ref)}".rstrip())
        for name, opening, closing, shown in OVERLAYS:
            for key in opening:
                t.keys(key)
                time.sleep(0.1)
            if shown:
                t.wait(shown, f"{name} open", timeout=5)
            for key in closing:
                t.keys(key)
            after = settled(t)
            ok = after == ref
            check(ok, f"{tag} screen {k + 1}: after the {name} closes the screen is a "
                      f"fresh start's\n{diff_lines(after, ref) if not ok else ''}".rstrip())


def overlays_explorer(lang):
    n = count_views()
    check(n >= 8, f"overlay: the tab bar names {n} views")
    overlays_at(["--lang", lang, SENTENCE], 80, 24, "Tab", n, f"explorer {lang}")


def overlays_lesson(lang):
    n = count_steps()
    check(n >= 11, f"overlay: the lesson has {n} steps")
    overlays_at(["--lesson", "--lang", lang, SENTENCE], 80, 24, "NPage", n,
                f"lesson {lang}")


def test_overlay_explorer_zh():
    overlays_explorer("zh")


def test_overlay_explorer_en():
    overlays_explorer("en")


def test_overlay_lesson_zh():
    overlays_lesson("zh")


def test_overlay_lesson_en():
    overlays_lesson("en")


# ------------------------------------------------------------------------------------------
# 2. Text is whole: no unclosed bracket, no English word where Chinese prose has its own term

# English words a Chinese screen must not show in its prose (the Chinese term in brackets)
ENGLISH_IN_ZH = ("one-hot",   # 独热
                 "Try this",  # 试一试
                 "positions",  # 位置
                 "Uniqueness")  # 唯一性


def whole_problems(screen, lang):
    """What is wrong with the text of one screen: brackets opened and not closed on the screen
    (a cut line loses its closing one; a wrapped line keeps it on the next), and English words
    in a Chinese screen."""
    out = []
    for a, b in (("（", "）"), ("(", ")"), ("「", "」")):
        if screen.count(a) != screen.count(b):
            rows = [ln.rstrip() for ln in screen.splitlines() if ln.count(a) != ln.count(b)]
            out.append(f"{screen.count(a)} '{a}' but {screen.count(b)} '{b}': {rows[:3]}")
    if lang == "zh":
        for word in ENGLISH_IN_ZH:
            if word.lower() in screen.lower():
                out.append(f"English '{word}' on a Chinese screen")
    return out


def read_cuts(path):
    """The cut log tfviz writes under TFVIZ_CUT_LOG: {(kind, where): set of texts}, where is
    "view N WxH" or "step N WxH" and kind "short" (shortened with "...") or "cut"."""
    out = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                head, _, text = line.rstrip("\n").partition("\t")
                kind, _, where = head.partition(" ")
                # one entry a label, whatever numbers it shows (live training changes them)
                out.setdefault((kind, where), set()).add(re.sub(r"[-+]?\d[\d.,e+-]*", "N",
                                                                text.strip()))
    except OSError:
        pass
    return out


def whole_at(args, width, height, next_key, n, lang, tag, env):
    """One tfviz walked through n screens: each screen's text whole, and what the frames cut
    (TFVIZ_CUT_LOG). Nothing may be cut where no "..." fitted, and in a UTF-8 locale nothing may
    be shortened with "..." either, at any size: every label fits or has a shorter form. In
    ASCII mode (env LANG=C) a Chinese character takes six columns (U+XXXX), so a word may have
    to end in "..." there: those are listed, not failed."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "cuts")
        for t, k in walk(args, width, height, next_key, n, tag, dict(env, TFVIZ_CUT_LOG=log)):
            s = still(t, f"{tag} screen {k + 1}") or t.screen()
            bad = whole_problems(s, lang)
            check(not bad, f"{tag} screen {k + 1}: text whole {bad if bad else ''}".rstrip())
        cuts = read_cuts(log)
    hard = sorted((w, x) for (kind, w), xs in cuts.items() if kind == "cut" for x in xs)
    check(not hard, f"{tag}: no text cut where no '...' fits {hard[:6]}")
    short = sorted((w, x) for (kind, w), xs in cuts.items() if kind == "short" for x in xs)
    if env.get("LANG") == "C":
        for w, x in short:
            print(f"# {tag}: shortened at {w} (ASCII mode): {x}")
    else:
        check(not short, f"{tag}: nothing shortened with '...' {short[:6]}")


SIZES = ((60, 20), (80, 24), (120, 40), (200, 60))


def whole(lang):
    """Every view and every lesson step (--extended) at 60x20, 80x24, 120x40 and 200x60. lang
    "C" is English in a locale that is not UTF-8 (ASCII mode), where a Chinese character takes
    six columns: at the two small sizes, where that is tightest (the CI time budget)."""
    views, steps = count_views(), count_steps("--extended")
    env = {"LANG": "C", "LC_ALL": "C"} if lang == "C" else {}
    ui = "en" if lang == "C" else lang
    for width, height in SIZES[:2] if lang == "C" else SIZES:
        whole_at(["--lang", ui, SENTENCE], width, height, "Tab", views, ui,
                 f"explorer {lang} {width}x{height}", env)
        whole_at(["--lesson", "--extended", "--lang", ui, SENTENCE], width, height, "NPage",
                 steps, ui, f"lesson {lang} {width}x{height}", env)


def test_whole_zh():
    whole("zh")


def test_whole_en():
    whole("en")


def test_whole_C():
    whole("C")


# ------------------------------------------------------------------------------------------
# 3. Big screens are used: plots and heatmaps grow with the terminal (issue 15 item 6)

# the largest share of a view's content rows left blank, and the least share of the width its
# content reaches, at 120x40 and 200x60 (before: view 6 left 30 of 55 rows blank at 200x60,
# view 10 26, and their heatmaps kept a fixed size)
MOST_BLANK_ROWS = 0.40
LEAST_WIDTH = 0.50


def content_rows(screen):
    """The rows between the caption (and the blank row under it) and the hint line."""
    lines = screen.split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    top = 1
    while top < len(lines) and lines[top].strip():
        top += 1
    return lines[top + 1:len(lines) - 2]


def blank_share(screen):
    rows = content_rows(screen)
    if not rows:
        return 1.0, 0
    blank = sum(1 for r in rows if not r.strip())
    right = max(len(r.rstrip()) for r in rows)
    return blank / len(rows), right


def test_blank():
    views = count_views()
    for lang, (width, height) in (("zh", (120, 40)), ("en", (120, 40)), ("zh", (200, 60)),
                                  ("en", (200, 60))):
        tag = f"explorer {lang} {width}x{height}"
        for t, k in walk(["--lang", lang, SENTENCE], width, height, "Tab", views, tag):
            s = still(t, f"{tag} view {k + 1}") or t.screen()
            share, right = blank_share(s)
            print(f"# {tag} view {k + 1}: {share:.0%} of the content rows blank, "
                  f"content to column {right}")
            check(share <= MOST_BLANK_ROWS, f"{tag} view {k + 1}: at most "
                  f"{MOST_BLANK_ROWS:.0%} of the rows blank ({share:.0%})")
            check(right >= LEAST_WIDTH * width, f"{tag} view {k + 1}: the content reaches "
                  f"{LEAST_WIDTH:.0%} of the width (column {right})")


if __name__ == "__main__":
    tt.run_group(globals())
