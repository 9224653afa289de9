#!/usr/bin/env python3
"""Classroom tests: the screens make the article's point at the sizes a class sees them.

Usage: tui_classroom_test.py TFVIZ GROUP   (GROUP: one of the functions named test_<group>)

Runs the real tfviz in tmux through tui_test's helper. Expected values come from
tfviz --print and Python's math module, never from the screen itself."""
import json
import math
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tui_test as tt  # noqa: E402

check = tt.check
UPPER = "\u2580"


def heat_rows(s):
    """The heatmap's rows of view 2: lines whose cells after the 7-column labels are pixels."""
    out = []
    for line in (s or "").splitlines():
        body = line[7:]
        if UPPER in body or "\u2584" in body:
            out.append(body)
    return out


def formula(s):
    m = re.search(r"PE\((\d+), (\d+)\) = (sin|cos)\(\d+ / [\d.]+\^\((\d+)/(\d+)\)\) = "
                  r"(?:sin|cos)\(([-\d.]+)\) = ([-\d.]+)", s or "")
    return m


def open_pe(args, width, height, env, tag):
    """tfviz on 我爱学习 with args, in view 2 once its formula shows: (tmux, screen or None)."""
    t = tt.Tmux(args + ["我爱学习"], width, height, env=env)
    t.wait("d_model=", "first frame")
    t.keys("2")
    s = t.wait(lambda x: formula(x) is not None, f"{tag}: the formula")
    check(s is not None, f"{tag}: view 2 and its formula appear")
    return t, s


def test_pe_whole():
    """View 2 opens on the whole d_model range in the split layout (every sin column, then every
    cos column: smooth stripes, not the barcode of sampled interleaved columns), says so and
    how many dimensions a column stands for on screen, keeps the cursor on the sampled dimension
    so the worked formula is the colour under it, zooms in around the cursor, turns to the
    interleaved layout with s and back, and leaves cells beyond n and d_model blank."""
    for w, h, d, lang in ((80, 24, 512, "en"), (120, 40, 512, "en"), (200, 60, 4096, "zh")):
        hcols = w - 8
        zc = max(1, -(-d // hcols))
        tag = f"view 2 {w}x{h} d={d} {lang}"
        t, s = open_pe(["--lang", lang, "-d", str(d), "-n", "10000"], w, h, {}, tag)
        try:
            if s is None:
                continue
            said = (f"sin (even j) left, cos (odd j) right; 1 of {zc} dims, all {d}; "
                    f"s interleave" if lang == "en"
                    else f"左 sin（偶数 j），右 cos（奇数 j）；每列取 {zc} 维中的 1 维，共 {d} 维；s 交错")
            check(said in s, f"{tag}: the screen says a column is 1 of {zc} dims, all {d} shown")
            rows = heat_rows(s)
            used = -(-d // zc)
            check(rows and all(len(r.rstrip()) == used for r in rows),
                  f"{tag}: every row has {used} pixel columns for d = {d}, the rest blank "
                  f"({sorted(set(len(r.rstrip()) for r in rows))})")
            step = 24 if hcols >= 96 else 16
            last = tt.pe_column_dim((used - 1) // step * step, zc, d)
            label = f"|{'cos' if last % 2 else 'sin'} {last}"
            check(label in s, f"{tag}: the axis reaches dimension {last} ({label})")
            # the split layout: every labelled column left of the middle is a sin, right a cos
            axis = next((x for x in s.splitlines() if x.startswith("pos")), "")
            halves = re.findall(r"\|(sin|cos) (\d+)", axis)
            check(halves and all((n == "cos") == (int(v) % 2 == 1) for n, v in halves) and
                  [n for n, _ in halves] == sorted(n for n, _ in halves)[::-1],
                  f"{tag}: the labels go sin (even j) then cos (odd j): {halves}")
            m = formula(s)
            pos, j = int(m.group(1)), int(m.group(2))
            col = tt.pe_column_of(j, zc, d)
            check(j == tt.pe_column_dim(col, zc, d),
                  f"{tag}: the cursor sits on the dimension its column shows (j = {j})")
            want = math.sin(pos * 10000 ** (-(j - j % 2) / d)) if j % 2 == 0 else \
                math.cos(pos * 10000 ** (-(j - j % 2) / d))
            check(abs(float(m.group(7)) - want) < 2e-6,
                  f"{tag}: PE({pos}, {j}) = {m.group(7)} (math: {want:.6f})")
            t.keys("Right", "Right")
            j2 = tt.pe_column_dim(col + 2, zc, d)
            s = t.wait(f"PE({pos}, {j2}) =", "two columns right")
            check(s is not None, f"{tag}: Right Right moves two columns, to dimension {j2}")
            t.keys("Z")
            z2 = max(1, zc // 2)
            s = t.wait(lambda x: (f", {z2} per column" in x or f"每列 {z2} 维" in x), "zoom in")
            check(s is not None, f"{tag}: Z zooms in to {z2} dims per column")
            if s:
                m2 = re.search(r"(?:cols|第) (\d+)-(\d+)", s)
                u2 = tt.pe_column_of(j2, 1, d)
                check(m2 and int(m2.group(1)) <= u2 <= int(m2.group(2)),
                      f"{tag}: the zoomed window holds the cursor's dimension {j2} (column {u2})")
            for _ in range(4):
                t.keys("z")
                s = t.wait(lambda x: said in x, "zoom back out", timeout=2)
                if s:
                    break
            check(s is not None, f"{tag}: z goes back to the whole range")
            # s: the interleaved layout, said on screen; the cursor stays on its column's dim
            j0 = int(formula(s).group(2)) if s and formula(s) else -1
            t.keys("s")
            inter = (f"interleaved: 1 column = 1 of {zc} dims (sin/cos alternate), all {d}"
                     if lang == "en" else f"交错排列：每列取 {zc} 维中的 1 维（sin、cos 交替）")
            j1 = tt.pe_column_dim(j0 // zc, zc)
            s = t.wait(lambda x: inter in x and f"PE({pos}, {j1}) =" in x, "s: interleaved")
            check(s is not None, f"{tag}: s shows the interleaved layout and says so, the "
                                 f"cursor on dimension {j1}")
            axis = next((x for x in (s or "").splitlines() if x.startswith("pos")), "")
            check("|0 " in axis and "sin" not in axis, f"{tag}: interleaved labels are dims")
            t.keys("s")
            s = t.wait(lambda x: said in x, "s: split again")
            check(s is not None, f"{tag}: s again goes back to the split layout")
        finally:
            t.kill()


def test_pe_blank():
    """Cells with no data are blank, in colour and in ASCII: beyond n (3 positions) and beyond
    d_model (16 dimensions) nothing is drawn, never the colour of 0."""
    for env, tag in (({}, "colour"), ({"NO_COLOR": "1", "LANG": "C", "LC_ALL": "C"}, "ascii")):
        t, s = open_pe(["--lang", "en", "-d", "16", "-n", "3"], 80, 24, env, tag)
        try:
            if s is None:
                continue
            lines = s.splitlines()
            top = next((i for i, x in enumerate(lines) if x.startswith("pos")), None)
            body = [x[7:] for x in lines[top + 1:top + 6]] if top is not None else []
            width = [len(x.rstrip()) for x in body]
            # 3 positions: two pixel rows in the first cell row (upper and lower), one in the
            # second (colour), or one per cell row (ASCII); 16 dimensions: 16 columns
            n_rows = 2 if tag == "colour" else 3
            check(all(x == 16 for x in width[:n_rows]) and all(x == 0 for x in width[n_rows:]),
                  f"{tag}: 16 drawn columns and {n_rows} drawn rows, blank beyond ({width})")
            if tag == "colour":
                check(body and "\u2584" not in body[0] and UPPER in body[1],
                      f"{tag}: the last position is an upper half cell, its lower half blank")
        finally:
            t.kill()


def band_reading(s):
    """From view 8's screen: the three cosines, the band (mean, sd) and the verdict line's
    groups {pair: 'above' | 'in' | 'below'}, or None while a part is missing."""
    m = re.search(r"o爱-喜欢 ([-+]\d\.\d\d|0\.00) x猫-狗 ([-+]\d\.\d\d|0\.00) "
                  r"\+爱-北京 ([-+]\d\.\d\d|0\.00)", s or "")
    b = re.search(r"band \(200 common words\): ([-+]\d\.\d\d) sd (\d\.\d\d)", s or "")
    if not m or not b:
        return None
    lines = s.splitlines()
    i = next(k for k, x in enumerate(lines) if "band (200" in x)
    text = " ".join(x[:44] for x in lines[i + 1:i + 3])
    groups = {}
    for name, key in (("above the band:", "above"), ("in the band:", "in"),
                      ("below it:", "below")):
        at = text.find(name)
        if at < 0:
            continue
        rest = text[at + len(name):]
        cut = min([rest.find(o) for o in ("above the band:", "in the band:", "below it:", "(")
                   if rest.find(o) >= 0] or [len(rest)])
        for pair in ("爱-喜欢", "猫-狗", "爱-北京"):
            if pair in rest[:cut]:
                groups[pair] = key
    cos = dict(zip(("爱-喜欢", "猫-狗", "爱-北京"), (float(m.group(k)) for k in (1, 2, 3))))
    return cos, float(b.group(1)), float(b.group(2)), groups


def test_training_band():
    """View 8 compares the watched pairs with an honest baseline: the band of cosines over
    common-word pairs. Sampled through a whole run, the verdict under the plot always matches
    the numbers on screen (a pair is above the band only when its cosine exceeds mean + max(sd,
    0.05)); when every cosine has risen together the screen says why; at the end 爱-喜欢 stands
    above the band and the control 爱-北京 does not (issue 28: it sits in the band or below, and
    the band's mean is at most +0.2). At 80x24 the cosine plot has 6 rows at least and its three
    curves carry their glyphs (o, x, +, named before each pair), and the run ends within 10 s."""
    t = tt.Tmux(["--lang", "en", "我爱学习"], 80, 24)
    try:
        t.wait("d_model=", "first frame")
        t.keys("8")
        s = t.wait(lambda x: band_reading(x) is not None, "the band")
        start = time.time()
        check(s is not None, "band: view 8 shows the band of common-word pairs")
        seen, drift_said, high_band, end = 0, False, False, None
        deadline = time.time() + 90
        while time.time() < deadline:
            s = t.screen()
            r = band_reading(s)
            if r:
                cos, mean, sd, groups = r
                gap = max(sd, 0.05)
                for pair, c in cos.items():
                    want = "above" if c > mean + gap + 0.01 else \
                        "below" if c < mean - gap - 0.01 else None
                    if want and pair in groups and groups[pair] != want:
                        check(False, f"band: {pair} {c:+.2f} with band {mean:+.2f}±{sd:.2f} "
                                     f"is said to be {groups[pair]}")
                seen += 1
                if mean > 0.9 and "trained" not in s.splitlines()[4]:
                    high_band = True
                    drift_said |= "(all first drift toward common words)" in s
            if "Trained; other views unchanged" in s:
                end = s
                took = time.time() - start
                check(took <= 10, f"band: the run ends within 10 s ({took:.1f} s)")
                break
            time.sleep(0.2)
        check(seen > 20, f"band: the verdict read {seen} times through the run")
        check(not high_band or drift_said,
              "band: while every cosine is high together the screen says all drift first")
        r = band_reading(end)
        check(r is not None and r[3].get("爱-喜欢") == "above" and r[3].get("爱-北京") != "above",
              f"band: at the end 爱-喜欢 is above the band, 爱-北京 is not ({r})")
        check(r is not None and r[1] <= 0.2 and r[0]["爱-北京"] <= r[1] + r[2] + 0.01,
              f"band: at the end the band's mean is at most +0.2 and 爱-北京 in it or below ({r})")
        lines = (end or "").splitlines()
        top = next((k for k, x in enumerate(lines) if "o爱-喜欢" in x), None)
        low = next((k for k, x in enumerate(lines) if "band (200" in x), None)
        plot = [x[:44] for x in lines[top + 1:low]] if top is not None and low else []
        check(len(plot) >= 6, f"band: the cosine plot has {len(plot)} rows at 80x24 (6 at least)")
        check(all(any(g in x[6:] for x in plot) for g in "ox+"),
              "band: each curve carries its glyph on the plot (o, x, +)")
    finally:
        t.kill()


def test_relative_background():
    """At the article's scale (d_model 4096, n = 10,000) view 4 answers keys while uniqueness
    and the all-positions residual are computed: it first says 'computing', a key changes k at
    once, and the numbers that follow are --print relative's for the new k."""
    import json
    ref = json.loads(tt.run("--print", "relative", "--format", "json", "-d", "4096", "-n",
                            "10000", "--offset", "2").stdout)
    t = tt.Tmux(["--lang", "en", "-d", "4096", "-n", "10000", "我爱学习"], 200, 60)
    try:
        t.wait("d_model=", "first frame")
        t.keys("4")
        s = t.wait("Uniqueness: computing 10000 positions...", "the computing line", timeout=10)
        check(s is not None, "relative: view 4 says it is computing uniqueness over 10000 "
                             "positions instead of blocking")
        t.keys("Up")
        s = t.wait("Relative: pos = 3, k = 2", "k = 2", timeout=10)
        check(s is not None, "relative: Up changes k while the work goes on")
        p0, p1 = ref['min_distance_pair']
        want = (f"nearest: every pair {abs(p1 - p0)} apart ({p0} and {p1}, ...), all at "
                f"distance {ref['min_distance']:.6f}")
        res = f"over all positions {ref['max_residual']:.1e} (n = 10000)"
        s = t.wait(lambda x: want in " ".join(x.split()) and res in x, "the numbers", timeout=90)
        check(s is not None, f"relative: then '{want}' and '{res}', as --print relative says")
        t.keys("q")
        e = tt.exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
              "relative: q during or after the work exits cleanly")
    finally:
        t.kill()


def test_relative_mk():
    """View 4 at 80x24 in both languages: the colours span the values shown (the colour bar's
    ends are the smallest and largest PE(p).PE(q) of the square, from math here, not -d/2..d/2),
    the nearest pair is said to tie with every pair at its offset, and M_k's own 2x2 blocks are
    on screen, cos(k w_i) and sin(k w_i) for the first pairs, beside PE(pos+k) = M_k PE(pos)."""
    d = 512
    for lang in ("en", "zh"):
        t = tt.Tmux(["--lang", lang, "我爱学习"], 80, 24)
        try:
            t.wait("d_model=", "first frame")
            t.keys("4")
            s = t.wait(lambda x: "M_1" in x and "i=1" in x and ("256" in x), f"{lang}: view 4")
            check(s is not None, f"relative {lang}: view 4 shows M_1's blocks")
            if s is None:
                continue
            m = re.search(r"PE\.PE\^T(?:, first |：前 )(\d+)", s)
            n = int(m.group(1)) if m else 0
            dots = [sum(math.cos(k * 10000 ** (-2 * i / d)) for i in range(d // 2))
                    for k in range(n)]
            lo, hi = min(dots), max(dots)
            bar = re.search(r"^ +(\d+\.?\d*) +(\d+\.?\d*) ", s, re.M)
            check(n >= 16 and bar and float(bar.group(1)) == math.floor(lo * 10 + 1e-9) / 10
                  and float(bar.group(2)) == math.ceil(hi * 10 - 1e-9) / 10,
                  f"relative {lang}: the colour bar spans {lo:.1f}..{hi:.1f}, the values of "
                  f"{n} positions ({bar.groups() if bar else None})")
            said = "colours: min..max here" if lang == "en" else "颜色：此图最小到最大"
            check(said in s, f"relative {lang}: the screen says the colours are fitted")
            tie = ("every pair 1 apart (0 and 1, ...), all at distance" if lang == "en"
                   else "每一对相隔1的位置（如0与1），距离都是")

            def panel_says(x, lang=lang, tie=tie):
                """The panel's lines (what follows the square's last cell on each row) hold tie."""
                rows = (r.split(UPPER)[-1].strip() for r in x.splitlines())
                flat = " ".join(y for y in rows if y)
                return tie in ("".join(flat.split()) if lang == "zh" else flat)
            # a loaded machine may still be drawing the panel: wait for it, at most the usual time
            s = t.wait(panel_says, f"{lang}: the tie's sentence") or s
            check(panel_says(s),
                  f"relative {lang}: the nearest distance is said to tie at offset 1")
            for i in (0, 1):
                a = 10000 ** (-2 * i / d)
                top = f"i={i:<2d}[{math.cos(a):+.3f} {math.sin(a):+.3f}]"
                low = f"[{-math.sin(a):+.3f} {math.cos(a):+.3f}]"
                check(top in s and low in s,
                      f"relative {lang}: M_1's block i={i} is {top} over {low}")
            t.keys("Up")
            s = t.wait(lambda x: "M_2" in x, f"{lang}: k = 2")
            a = 2.0
            check(s is not None and f"i=0 [{math.cos(a):+.3f} {math.sin(a):+.3f}]" in s,
                  f"relative {lang}: Up makes k = 2 and the block i=0 a rotation by 2 radians")
        finally:
            t.kill()


def test_article_scale():
    """The article, complete: view 1 states W_E's size at the article's 100,000 x 4096 whatever
    d_model is on screen; view 5 says where pos counts from (学习 is word 3) and that layer 1
    projects X_input to Q, K, V; the lesson says PE is computed, not learned or stored."""
    for lang, d in (("en", 64), ("zh", 512)):
        t = tt.Tmux(["--lang", lang, "-d", str(d), "我爱学习"], 80, 24)
        try:
            size = ("the article's W_E, 100,000 x 4096: 409.6 M, 1.6 GB fp32"
                    if lang == "en" else "文章的规模 100,000 x 4096：约 4.1 亿个参数，fp32 1.6 GB")
            s = t.wait(size, "the article's size", timeout=10)
            check(s is not None, f"article {lang} d={d}: view 1 states W_E at 100,000 x 4096")
            t.keys("5", "Down", "Down")
            word = ("pos from 0: 学习 is word 3, pos = 2" if lang == "en"
                    else "pos 从 0 数：「学习」是第 3 个词，pos = 2")
            qkv = (f"Q, K, V = X_input times W_Q, W_K, W_V (X_input is 3 x {d})" if lang == "en"
                   else f"Q、K、V = X_input 乘 W_Q、W_K、W_V（X_input 为 3 x {d}）")
            s = t.wait(lambda x: word in x and qkv in x, "view 5's lines", timeout=10)
            check(s is not None, f"article {lang}: view 5 says '{word}' and '{qkv}'")
        finally:
            t.kill()
    t = tt.Tmux(["--lang", "en", "--index-base", "1", "我爱学习"], 80, 24)
    try:
        t.wait("d_model=", "first frame")
        t.keys("5", "Down", "Down")
        s = t.wait("pos from 1, as the article: 学习 is word 3, pos = 3", "index base 1")
        check(s is not None, "article: with --index-base 1, 学习 is word 3 at pos 3")
    finally:
        t.kill()
    t = tt.Tmux(["--lesson", "--lang", "en", "我爱学习"], 80, 24)
    try:
        t.wait("lesson 1/12", "step 1")
        for _ in range(7):
            t.keys("NPage")
        s = t.wait("PE is computed, not learned or stored", "step 8")
        check(s is not None, "article: the lesson says PE is computed, not learned or stored")
    finally:
        t.kill()


def test_sum_grows():
    """View 5's bars grow with the terminal: at 120x40 and 200x60 each bar takes more than one
    row and the screen has fewer than 12 empty rows (19 when the bars stayed one row high)."""
    for w, h in ((120, 40), (200, 60)):
        t = tt.Tmux(["--lang", "en", "我爱学习"], w, h)
        try:
            t.wait("d_model=", "first frame")
            t.keys("5")
            s = t.wait(lambda x: "layer 1: Q, K, V" in x, "view 5")
            lines = (s or "").splitlines()
            blank = sum(1 for ln in lines[:-2] if not ln.strip())
            tall = any(ln.startswith(" " * 18 + UPPER) for ln in lines)
            check(s is not None and tall and blank < 12,
                  f"sum {w}x{h}: bars more than one row high, {blank} empty rows")
        finally:
            t.kill()


def test_training_kept():
    """The end of a training run changes no other view: the explorer keeps d_model and says
    what u would do; the lesson keeps its d_model through step 8, and u does nothing there."""
    t = tt.Tmux(["--lang", "en", "我爱学习"], 100, 30)
    try:
        t.wait("d_model=", "first frame")
        t.keys("8")
        for _ in range(7):
            t.keys(">")
        s = t.wait(lambda x: "u: views 1, 5 use these vectors (d_model = 50)" in x,
                   "the end of training", timeout=90)
        check(s is not None and "d_model=512" in tt.status_line(s),
              "explorer: the end of training keeps d_model = 512 and says u would make it 50")
        t.keys("2")
        s = t.wait(lambda x: formula(x) is not None, "view 2")
        m = formula(s)
        check(m is not None and m.group(5) == "512",
              f"explorer: view 2 still computes with d = 512 ({m and m.group(0)})")
    finally:
        t.kill()
    t = tt.Tmux(["--lesson", "--lang", "en", "我爱学习"], 100, 32)
    try:
        t.wait("lesson 1/12", "step 1")
        for _ in range(4):
            t.keys("NPage")
        t.wait(lambda x: "lesson 5/12" in x, "step 5")
        for _ in range(7):
            t.keys(">")
        s = t.wait("Training done, other steps unchanged", "the end of training",
                   timeout=90)
        check(s is not None, "lesson: step 5 says training is done and the other steps unchanged")
        t.keys("u")
        t.keys("Enter", "Enter", "Enter")
        s = t.wait(lambda x: "lesson 8/12" in x and "the heatmap's cell" in x, "step 8")
        check(s is not None and "/512) = " in s and "d_model=512" in tt.status_line(s),
              "lesson: step 8 still works with d_model = 512 after training and u")
    finally:
        t.kill()


LONG = ("我 爱 学习 机器 学习 很 有趣 我们 每天 都 在 教室 里 讨论 注意力 和 位置 编码 老师 说 "
        "词 向量 是 学 出来 的 位置 编码 是 算 出来 的")


def test_keys_while_computing():
    """At the article's scale the keys answer while the long work runs off the input path: view
    6's order experiment over a long sentence (seconds at d_model 4096) says it computes in the
    background, l switches the language while it still does (the line is then Chinese), and the
    numbers come when it ends. No bound on time: the screen must change in answer to a key
    while the work still runs, which a key path that computes cannot do."""
    t = tt.Tmux(["--lang", "en", "-d", "4096", "-n", "10000", LONG], 200, 60)
    try:
        t.wait("d_model=", "first frame")
        t.keys("6")
        s = t.wait("computing in the background (d_model = 4096, n = 10000)... keys still work",
                   "the computing line", timeout=60)
        check(s is not None, "busy: view 6 says it computes in the background at d_model 4096")
        t.keys("l")
        s = t.wait("后台计算中（d_model = 4096，n = 10000），按键照常可用", "the Chinese line",
                   timeout=60)
        check(s is not None, "busy: l is answered (the computing line turns Chinese) while the "
                             "order experiment still runs")
        s = t.wait(lambda x: "后台计算中" not in x and "无位置" in x, "the results", timeout=170)
        check(s is not None, "busy: the experiment's heatmaps follow when it ends")
    finally:
        t.kill()


def order_percents(s):
    """The status line's per-column changes of view 6: 'diff/max|Z|: 0 / 8.3% / 12.1%'."""
    m = re.search(r"diff/max\|Z\|: ([^|]*?)(?:\s{2,}|$)", s or "", re.M)
    return m.group(1).strip() if m else None


def test_stale_results():
    """Keys that replace the analysis while its work runs never let an older result show as
    the current one: view 6 entered at d_model 4096, then - - - at once (d_model 512), shows
    --print order's numbers at d_model 512, and q during a long run exits with the terminal
    restored."""
    import json
    ref = json.loads(tt.run("--print", "order", "--format", "json", "-d", "512",
                            "我爱学习").stdout)
    want = [100 * ref[m]["relative_diff"] for m in ("with_pe", "with_rope")]
    t = tt.Tmux(["--lang", "en", "-d", "4096", "-n", "10000", "我爱学习"], 200, 60)
    try:
        t.wait("d_model=", "first frame")
        t.keys("6", "-", "-", "-")
        s = t.wait(lambda x: "d_model=512" in x and order_percents(x) is not None
                   and "computing in the background" not in x, "d_model 512's results",
                   timeout=120)
        got = order_percents(s)
        nums = re.findall(r"([\d.]+)%", got or "")
        # each as rounded on screen: within half a unit of its last digit
        close = [abs(float(v) - w) <= 0.5 * 10 ** -len(v.partition(".")[2]) + 1e-9
                 for v, w in zip(nums, want)]
        check(len(nums) == 2 and all(close),
              f"stale: at d_model 512 view 6 shows {got}, --print order says "
              f"{[f'{w:.3f}' for w in want]} %")
    finally:
        t.kill()
    # the head the numbers come from is the one named: 我爱 at d_model 512 is reported by a head
    # other than the first, computed off the key path
    ref = json.loads(tt.run("--print", "order", "--format", "json", "我爱").stdout)
    t = tt.Tmux(["--lang", "en", "我爱"], 120, 40)
    try:
        t.wait("d_model=", "first frame")
        t.keys("6")
        s = t.wait(lambda x: order_percents(x) is not None, "view 6's numbers", timeout=60)
        m = re.search(r"head \((\d+) of (\d+)\)", s or "")
        check(ref["head_index"] > 0 and m is not None
              and (int(m[1]), int(m[2])) == (ref["head_index"] + 1, ref["heads_in_layer"]),
              f"stale: view 6 names head {m[0] if m else None}, --print order's head_index is "
              f"{ref['head_index']} of {ref['heads_in_layer']}")
    finally:
        t.kill()
    t = tt.Tmux(["--lang", "en", "-d", "4096", "-n", "10000", LONG], 120, 40)
    try:
        t.wait("d_model=", "first frame")
        t.keys("6")
        t.wait("computing in the background", "the computing line", timeout=60)
        t.keys("q")
        e = tt.exit_line(t.wait("__EXIT__", "exit", timeout=170))
        check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
              f"stale: q while the work runs exits cleanly ({e})")
    finally:
        t.kill()


# ---------------------------------------------------------------------------------------------
# view 6 / step 6: B in A's word order, the difference maps, labels and the whole table (issue 27)

SGR = re.compile(r"\x1b\[([0-9;]*)m")


def cells(line):
    """A captured line (capture-pane -e) as (column, character, fg, bg) per character."""
    import unicodedata
    out, fg, bg, col, i = [], None, None, 0, 0
    while i < len(line):
        m = SGR.match(line, i)
        if m:
            p = [int(x) if x else 0 for x in m[1].split(";")]
            k = 0
            while k < len(p):
                if p[k] == 0:
                    fg = bg = None
                elif p[k] in (38, 48) and k + 1 < len(p):
                    n = 3 if p[k + 1] == 5 else 5
                    v = tuple(p[k + 1:k + n])
                    fg, bg = (v, bg) if p[k] == 38 else (fg, v)
                    k += n - 1
                elif p[k] == 39:
                    fg = None
                elif p[k] == 49:
                    bg = None
                k += 1
            i = m.end()
            continue
        c = line[i]
        out.append((col, c, fg, bg))
        col += 2 if unicodedata.east_asian_width(c) in "WF" else 1
        i += 1
    return out


def order_maps(screen):
    """The heatmaps of view 6 from a capture with escapes: per map (left to right) its cells'
    colours row by row, (fg, bg) of each half block."""
    rows = []
    for line in screen.splitlines():
        cs = cells(line)
        runs, cur = [], []
        for col, c, fg, bg in cs:
            if c == UPPER:
                if cur and cur[-1][0] != col - 1:
                    runs.append(cur)
                    cur = []
                cur.append((col, (fg, bg)))
            elif cur:
                runs.append(cur)
                cur = []
        if cur:
            runs.append(cur)
        if runs:
            rows.append([[v for _, v in r] for r in runs])
    if not rows:
        return []
    n = len(rows[0])
    return [[r[k] for r in rows if len(r) == n] for k in range(n)]


def colours(m):
    """The colours of a map's pixels (the half blocks' fg and bg; a pixel with no data has
    none)."""
    return {c for row in m for cell in row for c in cell if c is not None}


def order_screen(args, width, height, lesson, keys=()):
    """tfviz on view 6 (or lesson step 6): (plain screen, screen with escapes) once drawn."""
    t = tt.Tmux((["--lesson"] if lesson else []) + args, width, height)
    try:
        if lesson:
            t.wait("1/12", "the lesson")
            t.keys("Enter", "Enter", "Enter", "Enter", "Enter")
        else:
            t.wait(lambda x: "C1-C4" in x or "Embedding" in x or "词嵌入" in x, "first frame")
            t.keys("6")
        s = t.wait(lambda x: "max|A-B|" in x and ("/max|Z|" in x or "#" in x), "view 6",
                   timeout=60)
        for k in keys:
            t.keys(k)
            time.sleep(0.3)
            s = t.wait(lambda x: "max|A-B|" in x, "view 6 again")
        return s, t.screen(escapes=True)
    finally:
        t.kill()


ORDER_CLASS = ["我爱学习", "猫追老鼠", "dog bites man", "小明喜欢小红", "猫追老鼠和狗跑",
               "the cat chased the big dog"]
if not os.environ.get("TFVIZ_ENGLISH_LIST"):  # without the English word list: letters, not words
    print("# skipped the English sentences: the English word list was not fetched at set-up")
    ORDER_CLASS = [x for x in ORDER_CLASS if not x.isascii()]


def order_rows(s):
    """The per-token table's token rows as (number, token), and the omitted count."""
    rows, omitted = tt.order_table(s)
    return [(int(r.split()[0]), r.split()[1]) for r in rows or []], omitted


def test_order_aligned():
    """View 6 and step 6 at 80x24 for the class's sentences of up to 6 words: B is drawn in A's
    word order, so without positions A's and B's heatmaps are the same cell for cell and the
    difference map is one colour (0), while with PE and RoPE they differ; every token of A has
    its table row (no "more rows"), the axes are named query and key, and the legend says B is
    in A's word order; o shows B in its own order."""
    for text in ORDER_CLASS:
        j = json.loads(tt.run("--print", "order", "--format", "json", text).stdout)
        toks = [t["text"] for t in json.loads(
            tt.run("--print", "tokens", "--format", "json", text).stdout)["tokens"]]
        T = len(toks)
        for lesson in (False, True):
            for lang in ("en", "zh"):
                tag = f"{'step' if lesson else 'view'} 6 {lang} {text}"
                s, e = order_screen(["--lang", lang, text], 80, 24, lesson)
                check(s is not None, f"{tag}: drawn")
                if s is None:
                    continue
                maps = order_maps(e)
                check(len(maps) == 9, f"{tag}: three modes of A, B and |A-B| ({len(maps)} maps)")
                if len(maps) != 9:
                    continue
                check(maps[0] == maps[1], f"{tag}: no PE, A and B the same cell by cell")
                check(len(colours(maps[2])) == 1, f"{tag}: no PE, |A-B| one colour (0)")
                for m, name in ((3, "PE"), (6, "RoPE")):
                    check(maps[m] != maps[m + 1], f"{tag}: {name}, A and B differ")
                    check(len(colours(maps[m + 2])) > 1,
                          f"{tag}: {name}, |A-B| not blank")
                rows, omitted = order_rows(s)
                check(rows == [(i + 1, toks[i]) for i in range(T)] and omitted == 0 and
                      "more rows" not in s and "另有" not in s,
                      f"{tag}: a table row for each of A's {T} tokens, in A's order ({rows})")
                en = lang == "en"
                check(("query" if en else "查询") in s and
                      re.search(r"^\s*(key|键) ", s, re.M) is not None,
                      f"{tag}: the axes are named query and key")
                check(("B, in A's word order" if en else "B（按 A 的词序）") in s,
                      f"{tag}: the legend says B is in A's word order")
                dm = [j[m]["diff_max"] for m in ("without_pe", "with_pe", "with_rope")]
                want = [f"{v:.3f}" for v in dm[1:]]
                check(all(w in s for w in want) and ("max|A-B| 0" in s),
                      f"{tag}: each mode's max|A-B| printed ({want})")
    # o: B in its own order; without positions it is then A's turned around
    s, e = order_screen(["--lang", "en", "猫追老鼠"], 80, 24, False, keys=("o",))
    maps = order_maps(e) if s else []
    check(s is not None and "B, in its own order" in s and len(maps) == 9 and maps[0] != maps[1],
          "o: B in its own order, its no-PE map is no longer A's")


if __name__ == "__main__":
    tt.run_group(globals())
