#!/usr/bin/env python3
"""Lesson tests: drive tfviz --lesson inside tmux (the Tmux helper of tui_test.py).

Usage: lesson_test.py TFVIZ GROUP   (GROUP: steps120, steps80, big, lang)

Expected values come from Python (UTF-8 bytes, math.sin) and from tfviz --print, never from
the screen."""
import math
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tui_test as tt  # noqa: E402

check = tt.check

TITLES_EN = ["Characters are not numbers", "The vocabulary and the id", "One-hot",
             "onehot . W_E picks one row", "The row is learned", "Attention has no sense of order",
             "Train it: no positions, no word order", "The positional-encoding formula", "Frequencies and the clock",
             "Uniqueness and the relative rotation M_k", "X_input = X_emb + PE enters Q, K, V",
             "RoPE: rotary position embedding"]


def header(s):
    return s.splitlines()[0] if s else ""


def walk(width, height, extra=()):
    """Advance through all 12 steps, check each one's visual, go back, quit."""
    tag = f"{width}x{height}{' ' + ' '.join(extra) if extra else ''}"
    toks = tt.tokens_csv("我爱学习")
    t = tt.Tmux(["--lesson", "--lang", "en", *extra, "我爱学习"], width, height)
    try:
        # the whole first frame: every character's row and the try line
        s = t.wait(lambda x: "lesson 1/12" in x and "Try this:" in x and
                   all(f"U+{ord(c):04X}" in x for c in "我爱学习"), "step 1")
        check(s is not None, f"{tag}: step 1 appears")
        if s is None:
            return
        for ch in "我爱学习":
            b = " ".join(f"{x:02X}" for x in ch.encode("utf-8"))
            check(f"U+{ord(ch):04X}" in s and b in s and str(ord(ch)) in s,
                  f"{tag} step 1: {ch} is U+{ord(ch):04X}, bytes {b}")
        check("Try this:" in s, f"{tag} step 1: a try-this line")
        check(len(s.splitlines()) <= height, f"{tag}: the frame fits {height} rows")
        nav = ("Space", "Enter", "NPage")
        for i in range(1, 12):
            # step 5 trains, step 7 trains the order model and step 9 runs its clocks with
            # Space: Enter and PgDn always go on
            key = nav[i % 3] if i not in (5, 7, 9) else "Enter"
            t.keys(key)
            s = t.wait(lambda x, i=i: f"lesson {i + 1}/12" in header(x), f"step {i + 1}")
            check(s is not None and TITLES_EN[i][:20] in header(s),
                  f"{tag}: step {i + 1} ({TITLES_EN[i]}) by {key}")
            if s is None:
                continue
            # tmux may show a frame still being drawn: wait for each step's content itself
            if i == 1:
                s = t.wait(lambda x: all(a in x and str(b) in x for a, b in toks), "tokens") or s
                check(all(text in s and str(tid) in s for text, tid in toks),
                      f"{tag} step 2: the tokens with their ids from --print tokens")
            if i == 3:
                t.keys("c")
                s2 = t.wait("max |onehot . W_E - row k| = 0.0e+00", "the one-hot check")
                check(s2 is not None, f"{tag} step 4: c multiplies and the row matches exactly")
            if i == 5:
                s = t.wait("/max|Z|", "the difference table") or s
                rows = [ln for ln in s.splitlines() if ln.strip().startswith("max ")]
                vals = rows[0].split()[1:4] if rows else []
                ok = len(vals) == 3 and float(vals[0]) < 1e-12 and float(vals[1]) > 1e-4
                check(ok, f"{tag} step 6: 我爱学习 vs 学习爱我: no PE ~0, with PE not ({vals})")
            if i == 6:
                why = "pairs get the same answer, so at most one of each pair is right"
                flat = lambda x: " ".join(ln.strip() for ln in (x or "").splitlines())
                s = t.wait(lambda x: why in flat(x), "the order training") or s
                check(why in flat(s) and "rope" in s and "held-out" in s,
                      f"{tag} step 7: the order model trains, none at chance said why")
            if i == 7:
                s = t.wait("the heatmap's cell", "the worked cell") or s
                # the cursor sits on the dimension its heatmap column shows
                m = re.search(r"dim j=(\d+)", s)
                j = int(m.group(1)) if m else 10
                fn = math.cos if j % 2 else math.sin
                om = 10000 ** (-(j - j % 2) / 512)
                want = f"{fn.__name__}({3 * om:.6f}) = {fn(3 * om):+.6f}"
                check(f"w_i = 1/10000^({j - j % 2}/512) = {om:.6f}" in s and want in s,
                      f"{tag} step 8: the worked cell {want}")
                t.keys("Down")
                want = f"{fn.__name__}({4 * om:.6f}) = {fn(4 * om):+.6f}"
                s2 = t.wait(want, "the cell at pos 4")
                check(s2 is not None, f"{tag} step 8: Down moves the worked cell to pos 4")
            if i == 11:
                s = t.wait(lambda x: "RoFormer" in x or "decay" in x, "the RoPE view") or s
                check("RoFormer" in s or "decay" in s, f"{tag} step 12: the RoPE view")
        t.keys("Enter")
        s = t.wait("This is the last step", "the end notice")
        check(s is not None and "lesson 12/12" in header(s), f"{tag}: Enter at the end stays")
        t.keys("BSpace")
        s = t.wait(lambda x: "lesson 11/12" in header(x), "back")
        check(s is not None, f"{tag}: Backspace goes back one step")
        t.keys("PPage")
        s = t.wait(lambda x: "lesson 10/12" in header(x), "back again")
        check(s is not None, f"{tag}: PgUp goes back one step")
        t.keys("q")
        e = tt.exit_line(t.wait("__EXIT__", "the exit"))
        check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
              f"{tag}: q exits 0 and restores the terminal ({e})")
        check(not t.alternate_on(), f"{tag}: the alternate screen is left")
    finally:
        t.kill()


def test_steps120():
    walk(120, 40)


def test_steps80():
    walk(80, 24)


def test_big():
    walk(80, 24, ("--big",))
    t = tt.Tmux(["--lesson", "--big", "--lang", "en"], 120, 40, env={"TERM": "xterm-256color"})
    try:
        s = t.wait("lesson 1/12", "step 1")
        check(s is not None, "big 120x40: step 1")
        if s:
            # the step's point alone, centred in a reversed bold band; the rest of its text goes
            lines = s.splitlines()
            band = [ln for ln in lines[1:3] if ln.strip()]
            check(len(band) == 1, f"big: the point takes one band line at 120 columns {band}")
            if band:
                ln = band[0].rstrip()
                lead = len(ln) - len(ln.lstrip())
                check(abs(lead - (120 - len(ln.strip())) // 2) <= 1, "big: the point is centred")
                check(ln.strip().endswith("."), "big: the band holds the first sentence whole")
            esc = t.screen(escapes=True)
            check("\033[7m" in esc or ";7m" in esc or "[7;" in esc, "big: the band is reversed")
            check("\033[1m" in esc or ";1m" in esc, "big: the text is bold")
        t.keys("q")
        t.kill()
        # the visual gets the rows the text gave up: on an 80x24 projector, step 10's PE.PE^T
        # heatmap is taller with --big
        rows = {}
        for big in ((), ("--big",)):
            t = tt.Tmux(["--lesson", *big, "--lang", "en"], 80, 24)
            t.wait("lesson 1/12", "step 1")
            for _ in range(9):
                t.keys("NPage")
            s = t.wait(lambda x: "lesson 10/12" in x and "\u2580" in x, "step 10") or ""
            rows[bool(big)] = sum(1 for ln in s.splitlines() if "\u2580" * 8 in ln)
            t.kill()
        check(rows[True] > rows[False], f"big: the heatmap grows ({rows[False]} rows without "
                                        f"--big, {rows[True]} with)")
        t = tt.Tmux(["--lesson", "--big", "--lang", "en"], 120, 40)
        t.wait("lesson 1/12", "step 1")
        t.keys("q")
        e = tt.exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", "big: q restores the terminal")
    finally:
        t.kill()
    p = tt.run("--big")
    check(p.returncode == 2 and b"--lesson" in p.stderr, "big: --big alone is a usage error")


def test_lang():
    t = tt.Tmux(["--lesson"], 80, 24, env={"NO_COLOR": "1"})
    try:
        s = t.wait("课堂 1/12", "Chinese step 1")
        check(s is not None and "文字不是数字" in s and "试一试" in s, "lang: Chinese by default")
        t.keys("l")
        s = t.wait("lesson 1/12", "English")
        check(s is not None and "Characters are not numbers" in s, "lang: l switches to English")
        t.keys("Space", "l")
        s = t.wait("课堂 2/12", "Chinese step 2")
        check(s is not None and "词表和编号" in s, "lang: l switches back, the step is kept")
        t.keys("3", "Tab")
        s = t.wait("课堂 2/12", "no tabs")
        check(s is not None, "lang: view keys 1-8 and Tab do not leave the lesson")
        t.keys("/")
        t.wait("句子", "editor")
        t.keys("C-u")
        t.keys("猫喜欢鱼", literal=True)
        t.keys("Enter")
        s = t.wait(lambda x: tt.status_line(x).lstrip().startswith("猫喜欢鱼"), "new sentence")
        check(s is not None, "lang: / types a new sentence inside the lesson")
        t.keys("Escape")
        e = tt.exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED", "lang: Esc quits")
    finally:
        t.kill()
    p = tt.run("--lesson")  # stdout is a pipe
    check(p.returncode == 2 and b"interactive terminal" in p.stderr,
          "lang: --lesson without a terminal says why, exit 2")
    p = tt.run("--lesson", "--print", "tokens")
    check(p.returncode == 2, "lang: --lesson with --print is a usage error")


def test_help():
    """? inside the lesson lists the lesson's keys (Space, Left, Right) and the step's own, in
    both languages, never the explorer's view switching; pairs like 爱-喜欢 stay on one line."""
    t = tt.Tmux(["--lesson", "--lang", "en", "我爱学习"], 80, 24)
    try:
        s = t.wait("lesson 1/12", "step 1")
        t.keys("?")
        s = t.wait("Lesson keys", "the lesson's help")
        check(s is not None and "Enter / PgDn  next step" in s and
              "Backspace / PgUp  previous step" in s, "help: the lesson's own keys")
        check(s is not None and "1-8" not in s and "Shift-Tab" not in s,
              "help: no explorer keys that do nothing in the lesson")
        check(s is not None and "Step 1: Characters are not numbers" in s,
              "help: the step's keys are headed by the step")
        t.keys("x")
        t.wait(lambda x: "Lesson keys" not in x, "help closed")
        t.keys("Space", "Space", "Space", "Space")
        s = t.wait("lesson 5/12", "step 5")
        check(s is not None and any("爱-喜欢 leaves" in ln for ln in s.splitlines()),
              "help: 爱-喜欢 is kept on one line in step 5's try line")
        t.keys("?")
        s = t.wait("Lesson keys", "help on step 5")
        check(s is not None and "r: restart from random" in s, "help: step 5's own keys")
        t.keys("x", "l")
        s = t.wait("课堂 5/12", "Chinese")
        t.keys("?")
        s = t.wait("课堂按键", "Chinese help")
        check(s is not None and "回车 / PgDn  下一步" in s and "第 5 步" in s,
              "help: the lesson's keys in Chinese")
    finally:
        t.kill()
    # --extended: a thirteenth step after RoPE, the schemes view, whose keys reach it
    t = tt.Tmux(["--lesson", "--extended", "--lang", "en", "我爱学习"], 100, 30)
    try:
        s = t.wait("lesson 1/13", "step 1 of 13")
        check(s is not None, "extended: thirteen steps")
        t.keys(*["NPage"] * 12)  # Space belongs to steps 5, 7 and 9
        s = t.wait(lambda x: "lesson 13/13" in x and "A: sinusoidal" in x, "step 13")
        check(s is not None and "Beyond the article" in s, "extended: step 13 shows view 9")
        t.keys("S")
        s = t.wait("B: t5", "S in the lesson")
        check(s is not None, "extended: S changes scheme B inside the lesson")
    finally:
        t.kill()


def test_keys():
    """The lesson's navigation keys never take a step's own keys: Left/Right move the PE cursor
    on step 8, the clock on step 9 and pos on step 10; Space pauses the training of step 5; Enter
    and PgDn go on from every step, Backspace and PgUp go back."""
    t = tt.Tmux(["--lesson", "--lang", "en", "我爱学习"], 100, 32)
    try:
        t.wait("lesson 1/12", "step 1")
        for _ in range(4):
            t.keys("NPage")
        s = t.wait(lambda x: "lesson 5/12" in header(x) and "epoch" in x, "step 5")
        check(s is not None, "keys: PgDn four times reaches step 5")
        t.keys("Space")
        s = t.wait(lambda x: "paused" in x, "paused")
        check(s is not None and "lesson 5/12" in header(s),
              "keys: Space pauses the training on step 5 and stays on it")
        s1 = t.wait(lambda x: "paused" in x, "paused")
        time.sleep(0.6)
        s2 = t.screen()
        words = lambda x: re.search(r"(\d+)/(\d+) words", x or "")
        check(words(s1) and words(s2) and words(s1).group(1) == words(s2).group(1),
              "keys: the paused training does not move")
        t.keys("Space")
        s = t.wait(lambda x: "training" in x and "paused" not in x.splitlines()[3], "running")
        check(s is not None and "lesson 5/12" in header(s), "keys: Space resumes it")
        t.keys("Enter")
        s = t.wait(lambda x: "lesson 6/12" in header(x), "step 6")
        check(s is not None, "keys: Enter goes on from step 5")
        t.keys("NPage")
        s = t.wait(lambda x: "lesson 7/12" in header(x), "step 7")
        check(s is not None, "keys: PgDn goes on from step 6 to the order training")
        t.keys("Enter")
        s = t.wait(lambda x: "lesson 8/12" in header(x) and "pos=3, dim j=" in x, "step 8")
        zc = tt.pe_column_step(s)
        j = tt.pe_column_dim(tt.pe_column_of(16, zc, 512), zc, 512)
        t.keys("Right", "Right", "Down")
        j2 = tt.pe_column_dim(tt.pe_column_of(j, zc, 512) + 2, zc, 512)
        s = t.wait(lambda x: f"pos=4, dim j={j2} " in x, "the cursor moved")
        check(s is not None and "lesson 8/12" in header(s),
              f"keys: Right Right Down move step 8's cell to pos 4, dim {j2} (two columns)")
        t.keys("Left")
        j3 = tt.pe_column_dim(tt.pe_column_of(j, zc, 512) + 1, zc, 512)
        s = t.wait(lambda x: f"pos=4, dim j={j3} " in x, "the cursor moved back")
        check(s is not None, f"keys: Left moves it back a column (dim {j3}), the step stays")
        t.keys("Enter")
        s = t.wait(lambda x: "lesson 9/12" in header(x) and "pos = 5" in x, "step 9")
        t.keys("Right", "Right")
        s = t.wait(lambda x: "pos = 7" in x, "the clock moved")
        check(s is not None and "lesson 9/12" in header(s), "keys: Right steps the clocks on step 9")
        t.keys("Space")
        s = t.wait(lambda x: re.search(r"pos = (\d+)", x) and
                   int(re.search(r"pos = (\d+)", x).group(1)) > 9, "the clocks run")
        check(s is not None and "lesson 9/12" in header(s), "keys: Space runs the clocks on step 9")
        t.keys("Space")
        t.keys("NPage")
        s = t.wait(lambda x: "lesson 10/12" in header(x) and "pos = 3, k = 1" in x, "step 10")
        t.keys("Right")
        s = t.wait(lambda x: "pos = 4, k = 1" in x, "pos moved")
        check(s is not None and "lesson 10/12" in header(s), "keys: Right moves pos on step 10")
        t.keys("Up")
        s = t.wait(lambda x: "pos = 4, k = 2" in x, "k moved")
        check(s is not None, "keys: Up changes k on step 10")
        t.keys("BSpace")
        s = t.wait(lambda x: "lesson 9/12" in header(x), "back")
        check(s is not None, "keys: Backspace goes back")
        t.keys("PPage")
        s = t.wait(lambda x: "lesson 8/12" in header(x), "back again")
        check(s is not None, "keys: PgUp goes back")
        t.keys("q")
        e = tt.exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", "keys: q restores the terminal")
    finally:
        t.kill()


if __name__ == "__main__":
    tt.run_group(globals())
