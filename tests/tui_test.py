#!/usr/bin/env python3
"""TUI tests: drive the real tfviz binary inside tmux and read the screen back.

Usage: tui_test.py TFVIZ GROUP   (GROUP: one of the functions named test_<group>)

Every test starts its own tmux server on a unique socket (tmux -L NAME), polls capture-pane
until the expected text appears (with a timeout, never a fixed sleep), and kills only that
server. Expected numbers come from tfviz --print (the same analysis) and from Python's math
module, never from the screen itself."""
import csv
import io
import json
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

from harness import percent  # noqa: E402

TFVIZ = None
FAILS = []
_servers = 0


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print(f"not ok - {what}")
    else:
        print(f"ok - {what}")


def run(*args):
    p = subprocess.run([TFVIZ, *args], capture_output=True, timeout=60)
    return p


class Tmux:
    """One tmux server with one pane running tfviz; the pane's shell reports how it ended."""

    def __init__(self, args, width=120, height=40, env=None, cwd=None):
        global _servers
        _servers += 1
        self.sock = f"tfviz-test-{os.getpid()}-{_servers}"
        e = {"TERM": "tmux-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        e.update(env or {})
        assign = " ".join(f"{k}={shlex.quote(v)}" for k, v in e.items() if v is not None)
        unset = " ".join(f"-u {k}" for k, v in e.items() if v is None)
        # the shell survives Ctrl-C (as an interactive shell would) to report how tfviz ended
        cmd = (f"trap : INT; before=$(stty -g); env {unset} {assign} {shlex.quote(TFVIZ)} "
               f"{' '.join(shlex.quote(a) for a in args)}; rc=$?; after=$(stty -g); "
               f"if [ \"$before\" = \"$after\" ]; then t=TTY_RESTORED; else t=TTY_CHANGED; fi; "
               f"echo; echo \"__EXIT__ $rc $t\"; sleep 120")
        start = ["-c", cwd] if cwd else []
        subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "-u", "new-session", "-d",
                        *start, "-x", str(width), "-y", str(height), "sh", "-c", cmd], check=True,
                       env=dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8"))
        self.socket_path = self.tmux("display", "-p", "#{socket_path}").stdout.decode().strip()

    def tmux(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True,
                              check=check, env=dict(os.environ, LANG="C.UTF-8",
                                                    LC_ALL="C.UTF-8"))

    def screen(self, escapes=False, history=False):
        a = ["capture-pane", "-p"] + (["-e"] if escapes else []) + (["-S", "-"] if history else [])
        return self.tmux(*a).stdout.decode("utf-8", "replace")

    def wait(self, pred, what, timeout=30.0):
        """Poll the screen until pred(screen) holds; returns the screen (or the last one)."""
        end = time.time() + timeout
        s = ""
        holds = pred if callable(pred) else (lambda x: pred in x)
        while time.time() < end:
            s = self.screen()
            if holds(s):
                return self._settle(s, holds)
            time.sleep(0.05)
        print(f"# timed out waiting for {what}; last screen:\n" +
              "\n".join("# " + line for line in s.splitlines()))
        return None

    def _settle(self, s, holds, limit=0.6):
        """The terminal may still be drawing the frame whose first part made pred true: wait
        until two captures agree (a settled frame), at most `limit` seconds, since animated
        views never settle; return the newest capture for which pred holds."""
        end = time.time() + limit
        while time.time() < end:
            time.sleep(0.06)
            n = self.screen()
            if not holds(n):
                continue
            if n == s:
                return n
            s = n
        return s

    def keys(self, *keys, literal=False):
        self.tmux("send-keys", *(["-l"] if literal else []), *keys)

    def alternate_on(self):
        return self.tmux("display", "-p", "#{alternate_on}").stdout.decode().strip() == "1"

    def tfviz_pid(self):
        pane = int(self.tmux("display", "-p", "#{pane_pid}").stdout.decode().strip())
        try:
            with open(f"/proc/{pane}/task/{pane}/children") as f:
                kids = f.read().split()
        except OSError:
            return None
        return int(kids[0]) if kids else None

    def kill(self):
        """End this test's tmux server (only it) and remove its socket file."""
        self.tmux("kill-server", check=False)
        if self.socket_path and os.path.basename(self.socket_path) == self.sock:
            try:
                os.unlink(self.socket_path)
            except OSError:
                pass


def run_group(groups):
    """The main of a tmux test file: run test_<argv[2]> from groups against tfviz argv[1] and
    exit 1 when a check failed."""
    global TFVIZ
    TFVIZ = os.path.abspath(sys.argv[1])
    groups["test_" + sys.argv[2].replace("-", "_")]()
    if FAILS:
        print(f"# {len(FAILS)} failed")
        sys.exit(1)


def exit_line(s):
    for line in (s or "").splitlines():
        if line.startswith("__EXIT__"):
            return line.split()
    return None


def pe_csv(d, n, base=None):
    args = ["--print", "pe", "--format", "csv", "-d", str(d), "-n", str(n)]
    rows = list(csv.reader(io.StringIO(run(*args).stdout.decode())))
    return {int(r[0]): [float(x) for x in r[1:]] for r in rows[1:]}


def tokens_csv(text):
    rows = list(csv.DictReader(io.StringIO(run("--print", "tokens", "--format", "csv",
                                               text).stdout.decode())))
    return [(r["text"], int(r["id"])) for r in rows]


def pe_column_step(s):
    """How many dimensions a column of view 2's heatmap stands for, as the screen states it."""
    m = re.search(r"1 of (\d+) dims|每列取 (\d+) 维|, (\d+) per column|每列 (\d+) 维", s or "")
    return int(next(g for g in m.groups() if g)) if m else 1


def pe_column_dim(k, zc, d=None):
    """The dimension column k of view 2's heatmap shows (view_pe.c). The split layout (the
    default; d given): layout column k * zc, where the first d/2 hold the even (sin) dimensions
    and the rest the odd (cos) ones. The interleaved layout (s; d None): its first, or the next
    when that keeps sin and cos alternating."""
    if d is not None:
        u = k * zc
        return 2 * u if u < d // 2 else 2 * (u - d // 2) + 1
    return k * zc + (k & 1 if zc > 1 and zc % 2 == 0 else 0)


def pe_column_of(j, zc, d):
    """The heatmap column of view 2's split layout that holds dimension j."""
    return (j // 2 if j % 2 == 0 else d // 2 + j // 2) // zc


def status_line(s):
    lines = [line for line in s.splitlines() if line.strip()]
    return lines[-1] if lines else ""


# ------------------------------------------------------------------------------------------
# Views


def views_at(width, height):
    toks = tokens_csv("我爱学习")
    pe = pe_csv(512, 8)
    t = Tmux(["--lang", "en", "我爱学习"], width, height)
    try:
        # wait for the whole first frame, not just its first line: tmux may show a frame
        # that the terminal is still drawing
        s = t.wait(lambda x: "Embedding" in x and "51.2 M" in x and
                   all(text in x and str(tid) in x for text, tid in toks), "the first frame")
        check(s is not None, f"{width}x{height}: the first frame appears")
        if s is None:
            return
        check(t.alternate_on(), f"{width}x{height}: the TUI uses the alternate screen")
        for text, tid in toks:
            check(text in s and str(tid) in s, f"{width}x{height} view 1: token {text} with id {tid}")
        check("100,000 x 512" in s, f"{width}x{height} view 1: W_E is 100,000 x 512")
        check("51.2 M" in s, f"{width}x{height} view 1: 51.2 M parameters")
        t.keys("c")
        s = t.wait("max |onehot . W_E - row k| = 0.0e+00", "the one-hot check")
        check(s is not None, f"{width}x{height} view 1: onehot . W_E equals the row exactly")

        t.keys("2")
        # the heatmap opens on all 512 dimensions, zc to a column; the cursor starts at
        # position 3 on the dimension its column shows
        s = t.wait(lambda x: re.search(r"PE\(3, \d+\) = ", x), "the PE formula")
        zc = pe_column_step(s)
        j = pe_column_dim(pe_column_of(16, zc, 512), zc, 512)
        fn = "cos" if j % 2 else "sin"
        ang = 3 * 10000 ** (-(j - j % 2) / 512)
        want = f"PE(3, {j}) = {fn}(3 / 10000^({j - j % 2}/512)) = {fn}({ang:.6f}) = "
        check(s is not None and want in s,
              f"{width}x{height} view 2: the formula with numbers filled in ({want})")
        if s:
            val = f"{pe[3][j]:.6f}"
            check(f"= {val}" in s, f"{width}x{height} view 2: PE(3,{j}) on screen = --print pe's {val}")
            check(f"PE(3,{j})={val}" in status_line(s),
                  f"{width}x{height} view 2: the status line shows the value under the cursor")
        t.keys("Down", "Right", "Right")
        j2 = pe_column_dim(pe_column_of(j, zc, 512) + 2, zc, 512)
        val = f"{pe[4][j2]:.6f}"
        s = t.wait(f"PE(4,{j2})={val}", "the moved cursor")
        check(s is not None,
              f"{width}x{height} view 2: after Down Right Right (two columns), PE(4,{j2}) = {val}")

        t.keys("3")
        s = t.wait("wavelength 2pi/w_i", "view 3")
        check(s is not None and "i=0" in s, f"{width}x{height} view 3: wavelengths and clocks")

        t.keys("4")
        rel = json.loads(run("--print", "relative", "--format", "json").stdout)
        p0, p1 = rel['min_distance_pair']
        want = f"all at distance {rel['min_distance']:.6f}"
        def panel(x):  # the right panel's words, read past the square's cells
            return " ".join(" ".join(r.split("\u2580")[-1].split()) for r in x.splitlines())
        s = t.wait(lambda x: want in panel(x) and
                   f"every pair {abs(p1 - p0)} apart ({p0} and {p1}," in panel(x), "view 4")
        check(s is not None, f"{width}x{height} view 4: {want}")

        t.keys("5")
        s = t.wait("X_input = 1 * X_emb + PE", "view 5")
        check(s is not None and "16.000" in s,
              f"{width}x{height} view 5: |PE| = sqrt(d/2) = 16.000 at d = 512")
        t.keys("s")
        s = t.wait(f"X_input = {math.sqrt(512):g} * X_emb", "scaling on")
        check(s is not None, f"{width}x{height} view 5: s scales X_emb by sqrt(512)")

        t.keys("6")
        s = t.wait("/max|Z|", "view 6")
        check(s is not None, f"{width}x{height} view 6: the difference table")
        if s:
            row = [line for line in s.splitlines() if line.strip().startswith("max ")]
            vals = row[0].split()[1:4] if row else []
            ok = len(vals) == 3 and float(vals[0]) < 1e-12 and float(vals[1]) > 1e-4 \
                and float(vals[2]) > 1e-8
            check(ok, f"{width}x{height} view 6: no PE ~0, with PE and RoPE non-zero ({vals})")

        t.keys("7")
        s = t.wait(lambda x: "RoFormer decay bound" in x and "same curve: max dev" in x,
                   "view 7")
        check(s is not None, f"{width}x{height} view 7: RoPE panels")

        t.keys("8")
        s = t.wait(lambda x: "/frame" in x and "爱-喜欢" in status_line(x), "view 8")
        check(s is not None, f"{width}x{height} view 8: training runs, cosines on the status line")

        t.keys("9")
        s = t.wait(lambda x: "A: none" in x and "B: sinusoidal" in x, "view 9")
        check(s is not None, f"{width}x{height} view 9: none beside sinusoidal, the order of "
              "--print schemes")
        t.keys("S", "S", "S")
        s = t.wait(lambda x: "B: alibi" in x and "m=0.5" in x, "view 9, S S S")
        check(s is not None, f"{width}x{height} view 9: S S S turns B to ALiBi (head 1, m = 1/2)")
        t.keys("S")
        s = t.wait(lambda x: "B: t5" in x and "L=128" in x, "view 9, S")
        check(s is not None, f"{width}x{height} view 9: S turns B to T5, trained up to 128")

        t.keys("0")
        s = t.wait(lambda x: "held-out" in x and "none" in status_line(x), "view 10")
        check(s is not None, f"{width}x{height} view 10: order training runs, accuracies on the "
              "status line")

        t.keys("Tab")
        s = t.wait(lambda x: "maps each token" in x or "token -> id k" in x, "Tab wraps to view 1")
        check(s is not None, f"{width}x{height}: Tab goes from view 10 to view 1")

        t.keys("?")
        s = t.wait("press any key to close", "help")
        check(s is not None and "export this view" in s, f"{width}x{height}: ? shows the help")
        t.keys("x")
        s = t.wait(lambda x: "press any key to close" not in x, "help closed")
        check(s is not None, f"{width}x{height}: any key closes the help")

        t.keys("q")
        s = t.wait("__EXIT__", "the exit")
        e = exit_line(s)
        check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
              f"{width}x{height}: q exits 0 and restores the terminal ({e})")
        check(not t.alternate_on(), f"{width}x{height}: the alternate screen is left")
    finally:
        t.kill()


def test_views120():
    views_at(120, 40)


def test_views80():
    views_at(80, 24)


def test_edit():
    t = Tmux(["--lang", "en", "我爱学习"], 100, 30)
    try:
        check(t.wait("Embedding", "first frame") is not None, "edit: first frame")
        t.keys("/")
        check(t.wait("Sentence:", "the editor") is not None, "edit: / opens the sentence editor")
        t.keys("C-u")
        t.keys("学习爱我", literal=True)
        t.keys("Enter")
        s = t.wait(lambda x: status_line(x).lstrip().startswith("学习爱我"), "the new sentence")
        check(s is not None, "edit: the status line shows the new sentence")
        if s:
            for text, tid in tokens_csv("学习爱我"):
                check(text in s and str(tid) in s, f"edit: view 1 shows {text} {tid}")
        t.keys(":")
        t.wait("Sentence:", "the editor again")
        t.keys("C-u")
        t.keys("Escape")
        s = t.wait(lambda x: "Sentence:" not in x, "cancel")
        check(s is not None and status_line(s).lstrip().startswith("学习爱我"),
              "edit: Esc cancels and keeps the sentence")
        t.keys("+")
        s = t.wait("d_model = 1024", "d_model doubled")
        check(s is not None and "100,000 x 1024" in s, "edit: + doubles d_model and re-runs")
        t.keys("]")
        s = t.wait("positions n = 128", "positions")
        check(s is not None, "edit: ] raises the positions")
        t.keys("l")
        s = t.wait("词嵌入", "Chinese")
        check(s is not None and "词元与编号" in s, "edit: l switches to Chinese")
        t.keys("e")
        s = t.wait(lambda x: "已导出 tfviz-embedding.png" in x or "e: " in x, "export message")
        check(s is not None and "已导出 tfviz-embedding.png" in s,
              "edit: e exports the view's figure and says where")
        # the pane runs in this directory: the figure is there, a real PNG; then tidy up
        try:
            with open("tfviz-embedding.png", "rb") as f:
                check(f.read(8) == b"\x89PNG\r\n\x1a\n", "edit: the exported file is a PNG")
            os.remove("tfviz-embedding.png")
        except OSError as err:
            check(False, f"edit: the exported file is there ({err})")
        t.keys("Escape")
        s = t.wait("__EXIT__", "exit")
        e = exit_line(s)
        check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
              f"edit: Esc quits and restores the terminal ({e})")
    finally:
        t.kill()


def test_resize():
    t = Tmux(["--lang", "en"], 120, 40)
    try:
        check(t.wait("Embedding", "first frame") is not None, "resize: first frame")
        t.keys("2")
        t.wait("PE(3, ", "view 2")
        t.tmux("resize-window", "-x", "80", "-y", "24")
        # the cursor keeps position 3, on the dimension its column shows at the new width
        s = t.wait(lambda x: len(x.splitlines()) <= 24 and "PE(3, " in x, "80x24 redraw")
        check(s is not None, "resize: 120x40 -> 80x24 redraws view 2")
        t.tmux("resize-window", "-x", "50", "-y", "15")
        s = t.wait("too small", "small-size notice")
        check(s is not None and "60 x 20" in s, "resize: below 60x20 it says what size is needed")
        t.tmux("resize-window", "-x", "200", "-y", "60")
        s = t.wait("PE(3, ", "200x60 redraw")
        check(s is not None, "resize: 200x60 redraws")
        t.keys("q")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", "resize: terminal restored")
    finally:
        t.kill()


def test_signals():
    for how in ("C-c", "TERM"):
        t = Tmux([], 100, 30)
        try:
            check(t.wait("词嵌入", "first frame") is not None, f"signals {how}: first frame")
            if how == "C-c":
                t.keys("C-c")
            else:
                pid = t.tfviz_pid()
                check(pid is not None, "signals: found tfviz's pid")
                if pid:
                    os.kill(pid, signal.SIGTERM)
            e = exit_line(t.wait("__EXIT__", "exit"))
            want = str(128 + (signal.SIGINT if how == "C-c" else signal.SIGTERM))
            check(e is not None and e[1] == want and e[2] == "TTY_RESTORED",
                  f"signals: {how} ends tfviz ({want}) with the terminal restored ({e})")
            check(not t.alternate_on(), f"signals: {how} leaves the alternate screen")
        finally:
            t.kill()


def test_fallbacks():
    p = run("我爱学习")  # stdout is a pipe here
    out = p.stdout.decode()
    check(p.returncode == 0 and "Tokens and ids" in out and "\033[" not in out,
          "fallback: stdout not a terminal prints the text report")
    t = Tmux(["我爱学习"], 100, 30, env={"TERM": "dumb"})
    try:
        s = t.wait("__EXIT__", "exit") and t.screen(history=True)
        check(s is not None and "TERM is dumb" in s and "Tokens and ids" in s,
              "fallback: TERM=dumb gives one sentence and the text report")
    finally:
        t.kill()
    t = Tmux(["--lang", "en"], 100, 30, env={"LANG": "C", "LC_ALL": "C"})
    try:
        s = t.wait("not UTF-8", "the ASCII notice")
        check(s is not None and "U+6211" in s, "fallback: LANG=C shows U+6211 for 我 and a notice")
        if s:
            check(all(ord(ch) < 128 for ch in s), "fallback: LANG=C draws ASCII only")
        t.keys("2")
        s = t.wait("PE(3, ", "view 2 in ASCII")
        check(s is not None and any(c in s for c in "@#%*"), "fallback: ASCII shading in view 2")
        t.keys("q")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", "fallback: LANG=C restores the terminal")
    finally:
        t.kill()


def area_lines(s, height):
    """The content area of a screen: the rows between the caption and the message line."""
    return (s or "").splitlines()[4:height - 2]


BLOCKS = set(chr(c) for c in range(0x2580, 0x25A0))


def quit_restores(t, what):
    """q ends tfviz with status 0 and the terminal's modes as they were."""
    t.keys("q")
    e = exit_line(t.wait("__EXIT__", "exit"))
    check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED", what)


def test_pictures():
    """g: where no picture can be shown (tmux) nothing changes but the message line; with
    TFVIZ_GRAPHICS=symbols the area becomes the figure in block characters and g again brings
    back exactly the cells that were there; a dumb locale gets one sentence."""
    t = Tmux(["--lang", "en", "我爱学习"], 120, 40)
    try:
        t.keys("2")
        s0 = t.wait("PE(3, ", "view 2")
        t.keys("g")
        s1 = t.wait("g: no pictures here", "the no-pictures sentence")
        check(s1 is not None and "tmux and screen pass no pictures through" in s1,
              "pictures: in tmux g says why no picture can be shown")
        if s0 and s1:
            a0, a1 = s0.splitlines(), s1.splitlines()
            same = [i for i in range(len(a0)) if i != 38 and a0[i] == a1[i]]
            check(len(same) == len(a0) - 1, "pictures: in tmux g changes no row but the message")
        t.keys("g")
        s2 = t.wait("g: no pictures here", "the sentence again")
        check(s2 is not None and "PE(3, " in s2, "pictures: a second g changes nothing either")
        quit_restores(t, "pictures: q after g restores the terminal")
    finally:
        t.kill()

    t = Tmux(["--lang", "en", "我爱学习"], 120, 40, env={"TFVIZ_GRAPHICS": "symbols"})
    try:
        t.keys("2")
        s0 = t.wait("PE(3, ", "view 2")
        t.keys("g")
        s1 = t.wait(lambda x: "g: this view's figure (symbols)" in x and
                    sum(ch in BLOCKS for ch in x) > 500, "the figure in symbols")
        check(s1 is not None, "pictures: TFVIZ_GRAPHICS=symbols: g shows the figure")
        if s0 and s1:
            blocks = sum(ch in BLOCKS for line in area_lines(s1, 40) for ch in line)
            check(blocks > 500, f"pictures: the area is drawn in block characters ({blocks})")
            check("PE(3, " not in "\n".join(area_lines(s1, 40)),
                  "pictures: the view's own cells are gone from the area")
            check(s1.splitlines()[0] == s0.splitlines()[0] and
                  status_line(s1).split()[:3] == status_line(s0).split()[:3],
                  "pictures: the tab bar and the status line stay")
        t.keys("g")
        s2 = t.wait("g: back to the text cells", "the text cells again")
        check(s2 is not None and area_lines(s2, 40) == area_lines(s0, 40),
              "pictures: g again gives back exactly the cells (no debris)")
        # a picture follows the view and the size, and leaves nothing behind
        t.keys("g")
        t.wait("g: this view's figure", "the figure again")
        t.keys("3")
        s3 = t.wait(lambda x: "10000^(-2i/d)" in x and sum(ch in BLOCKS for ch in x) > 500,
                    "view 3's figure")
        check(s3 is not None, "pictures: another view shows its own figure")
        t.tmux("resize-window", "-x", "100", "-y", "30")
        s4 = t.wait(lambda x: len(x.splitlines()[0]) <= 100 and "10000^(-2i/d)" in x and
                    sum(ch in BLOCKS for ch in x) > 300, "the figure after a resize")
        check(s4 is not None, "pictures: the figure is drawn again after a resize")
        if s4:
            check(all(len(line) <= 100 for line in s4.splitlines()),
                  "pictures: no line of the old size is left")
        t.keys("g")
        s5 = t.wait("g: back to the text cells", "the cells at 100x30")
        check(s5 is not None and not any(ch in BLOCKS for line in area_lines(s5, 30)
                                         for ch in line if ch not in "▁▂▃▄▅▆▇█"),
              "pictures: after a resize g leaves no picture cells behind")
        quit_restores(t, "pictures: q restores the terminal after a picture")
    finally:
        t.kill()

    t = Tmux(["--lang", "en"], 100, 30, env={"LANG": "C", "LC_ALL": "C",
                                             "TFVIZ_GRAPHICS": "symbols"})
    try:
        t.keys("2")
        t.wait("PE(3, ", "view 2 in ASCII")
        t.keys("g")
        s = t.wait("g: no pictures here", "the sentence")
        check(s is not None and "need a UTF-8 locale" in s,
              "pictures: LANG=C: g says block pictures need a UTF-8 locale")
    finally:
        t.kill()


def test_color():
    t = Tmux(["--lang", "en"], 100, 30)
    try:
        t.wait("Embedding", "first frame")
        t.keys("2")
        t.wait("PE(3, ", "view 2")
        s = t.screen(escapes=True)
        check("48;5;" in s or "48;2;" in s, "color: 256-colour backgrounds in the heatmap")
        t.keys("q")
    finally:
        t.kill()
    t = Tmux(["--lang", "en"], 100, 30, env={"NO_COLOR": "1"})
    try:
        t.wait("Embedding", "first frame")
        t.keys("2")
        s0 = t.wait("PE(3, ", "view 2")
        s = t.screen(escapes=True)
        check(s0 is not None and "48;5;" not in s and "38;5;" not in s and "48;2;" not in s,
              "color: NO_COLOR draws no colours")
        check(s0 is not None and any(c in s0 for c in "@#%*"), "color: NO_COLOR uses the ASCII ramp")
        t.keys("q")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", "color: NO_COLOR restores the terminal")
    finally:
        t.kill()


def click(t, x, y):
    """An X10 mouse press and release at 0-based (x, y), typed into the pane as raw bytes
    (the kmous sequence of tmux-256color), as a terminal reports a click."""
    seq = "\x1b[M" + chr(32) + chr(33 + x) + chr(33 + y) + "\x1b[M" + chr(35) + chr(33 + x) + \
        chr(33 + y)
    t.keys(seq, literal=True)


def test_mouse():
    pe = pe_csv(512, 8)
    t = Tmux(["--lang", "en"], 100, 30)
    try:
        s = t.wait("Embedding", "first frame")
        check(s is not None, "mouse: first frame")
        # the tab bar ("tfviz  1 Embedding  2 PE  3 Freq ..." or, when ten tabs do not fit,
        # "1 Embedding 2 PE 3 Freq ..."): click inside the third tab, wherever it is
        bar = s.splitlines()[0] if s else ""
        click(t, bar.find("3 Freq") + 2 if "3 Freq" in bar else 30, 0)
        s = t.wait("wavelength 2pi/w_i", "view 3 by a click")
        check(s is not None, "mouse: a click on tab 3 opens view 3")
        t.keys("2")
        s = t.wait("PE(3, ", "view 2")
        # the heatmap's first cell is at column 7 of the row after the axis labels (row 5 with
        # a two-line caption); cell (row 2, column 12) holds position 4 and the dimension
        # column 12 shows
        j = pe_column_dim(12, pe_column_step(s), 512)
        click(t, 7 + 12, 5 + 2)
        val = f"{pe[4][j]:.6f}"
        s = t.wait(f"PE(4,{j})={val}", "the clicked cell")
        check(s is not None, f"mouse: a click on the heatmap moves the cursor (PE(4,{j}) = {val})")
        t.keys("q")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", "mouse: terminal restored")
    finally:
        t.kill()


def test_big():
    """-d 4096 reads as the article's 100,000 x 4096 = 409.6 M parameters."""
    t = Tmux(["--lang", "en", "-d", "4096"], 120, 40)
    try:
        s = t.wait("409.6 M", "the article's sizes")
        check(s is not None and "100,000 x 4096" in s, "big: 100,000 x 4096 = 409.6 M parameters")
        t.keys("q")
    finally:
        t.kill()


# ------------------------------------------------------------------------------------------
# View 8: training while the student watches


def cosines(s, pairs=(("爱", "喜欢"), ("猫", "狗"), ("爱", "北京"))):
    """The three watched cosines from the status line, None when absent."""
    import re
    line = status_line(s or "")
    out = []
    for a, b in pairs:
        m = re.search(f"{a}-{b} ([+-][0-9.]+)", line)
        if not m:
            return None
        out.append(float(m.group(1)))
    return out


def training_csv():
    rows = list(csv.DictReader(io.StringIO(run("--print", "training", "--format",
                                               "csv").stdout.decode())))
    return rows


def learn_english():
    """In English with an English sentence, view 8 trains on the English built-in corpus (issue
    29): the pairs love-like, cat-dog and the control love-London, and no Chinese on the
    screen."""
    pairs = (("love", "like"), ("cat", "dog"), ("love", "London"))
    t = Tmux(["--lang", "en", "I love math"], 120, 40)
    try:
        check(t.wait("Embedding", "first frame") is not None, "learn en: first frame")
        t.keys("8")
        s = t.wait(lambda x: cosines(x, pairs) is not None and "trained epoch" in x,
                   "the end of training in English", timeout=90)
        c = cosines(s, pairs)
        check(c is not None and c[0] > 0.5 and c[1] > 0.5 and c[2] < c[0] - 0.3,
              f"learn en: love-like and cat-dog end similar, love-London lower ({c})")
        han = sorted(set(re.findall("[\u3400-\u9fff]", s or "")))
        check(s is not None and not han, f"learn en: no Chinese on view 8 ({''.join(han)})")
        t.keys("q")
        t.wait("__EXIT__", "exit")
    finally:
        t.kill()


def test_learn():
    rows = training_csv()
    check(len(rows) > 2, "learn: --print training gives the reference curve")
    total = rows[-1]["words"]  # epochs x kept corpus tokens
    t = Tmux(["我爱北京"], 120, 40)
    try:
        check(t.wait("词嵌入", "first frame") is not None, "learn: first frame")
        t.keys("8")
        t.keys(" ")  # pause at once
        s = t.wait(lambda s: "已暂停" in s and cosines(s) is not None, "paused")
        check(s is not None, "learn: Space pauses the training")
        t.keys("r")
        s = t.wait(lambda s: f" 0/{total} " in s, "reset to word 0")
        c = cosines(s)
        check(c is not None and all(abs(x) < 0.4 for x in c),
              f"learn: after r the random rows are unrelated, cosines near 0 ({c})")
        # the same start as --print training step 0 (same seed): columns 爱-喜欢, 猫-狗, 爱-北京
        ref = rows[0]
        keys = [k for k in ref if "喜欢" in k or "狗" in k or ("北京" in k and "爱" in k)]
        if c is not None and len(keys) == 3:
            want = [float(ref[k]) for k in keys]
            check(all(abs(a - b) < 2e-3 for a, b in zip(c, want)),
                  f"learn: start cosines match --print training step 0 ({c} vs {want})")
        t.keys("n")
        s = t.wait(lambda s: f"/{total}" in s and f" 0/{total}" not in s, "one step")
        check(s is not None, "learn: n trains one slice of words")
        time.sleep(0.5)
        s2 = t.screen()
        check(s is not None and cosines(s) == cosines(s2), "learn: still paused after n")
        start = time.time()
        t.keys(" ")
        s = t.wait(lambda s: f"{total}/{total}" in s, "the end of training", timeout=90)
        took = time.time() - start
        print(f"# training in the view took {took:.1f} s")
        c = cosines(s)
        check(c is not None and c[0] > 0.5 and c[1] > 0.5,
              f"learn: 爱-喜欢 and 猫-狗 end similar ({c})")
        check(c is not None and c[2] < c[0] - 0.3, f"learn: the control 爱-北京 stays lower ({c})")
        s = t.wait(lambda x: "u: views 1, 5" in x or "按 u" in x, "the end says what u does")
        check(s is not None and "d_model=512" in status_line(s),
              "learn: the end of training changes no other view (d_model stays 512) and says "
              "what u would do")
        t.keys("u")
        s = t.wait(lambda x: "d_model=50" in status_line(x), "u applies")
        check(s is not None, "learn: u hands the trained vectors to the analysis (d_model = 50)")
        t.keys("1")
        s = t.wait("训练/载入", "view 1 says the row is trained")
        check(s is not None, "learn: view 1 says its rows are trained")
        t.keys("5")
        s = t.wait("3/3", "view 5 counts trained rows")
        check(s is not None, "learn: view 5 says how many rows are trained")
        t.keys("q")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
              f"learn: q restores the terminal ({e})")
    finally:
        t.kill()
    learn_english()
    t = Tmux([], 80, 24)
    try:
        check(t.wait("词嵌入", "first frame") is not None, "learn80: first frame")
        t.keys("8")
        s = t.wait(lambda s: cosines(s) is not None and "最常见" in s, "view 8 at 80x24")
        check(s is not None, "learn80: view 8 draws at 80x24")
        t.keys("C-c")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", f"learn80: Ctrl-C restores ({e})")
    finally:
        t.kill()

def accuracies(s):
    """{scheme: held-out %} from view 9's status line ("none 50%  sinusoidal 99% ...")."""
    words = status_line(s).split() if s else []
    out = {}
    for a, b in zip(words, words[1:]):
        if a in ("none", "sinusoidal", "learned", "rope") and b.endswith("%"):
            out[a] = float(b[:-1])
    return out


def test_train_class():
    """View 10 at 80 x 24 trains on the class's sentence (issue 27): 小明喜欢小红 and its other
    order are the first pair, titled as the class's and held out; at the end none names one doer
    for both orders and the schemes with positions the right one in each; the dashed 50 % line
    says what it is. A sentence of another shape (after /) says why in the message line and the
    built-in pair is watched."""
    light = ["--order-pairs", "300,100", "--epochs", "12", "-d", "16"] \
        if os.environ.get("TFVIZ_SANITIZED") else []
    t = Tmux(["--lang", "en", *light, "小明喜欢小红"], 80, 24)
    try:
        t.wait("Embedding", "first frame")
        t.keys("0")
        s = t.wait(lambda x: "小明 喜欢 小红 \u2192" in x and "小红 喜欢 小明 \u2192" in x,
                   "the class's pair")
        check(s is not None and "your sentence 1/" in s,
              "train_class: the first pair is the class's sentence, titled so")
        check(s is not None and "no positions: at most 50%" in s,
              "train_class: the dashed line says what it is")
        t.keys(">", ">", ">", ">", ">")
        s = t.wait(lambda x: " trained  epoch" in x, "the end", timeout=120)
        lines = s.splitlines() if s else []
        doer = lambda ln: ln.split("\u2192")[-1].split()[0] if "\u2192" in ln else None
        # the right column starts where its title does (the left one is one column a character)
        x0 = next((ln.index("your sentence") for ln in lines if "your sentence" in ln), 0)
        for name in ("none", "sinusoidal", "learned", "rope"):
            at = [i for i, ln in enumerate(lines) if ln[x0:].startswith(name + " ")]
            got = (doer(lines[at[0] + 1]), doer(lines[at[0] + 2])) if at else None
            want_same = name == "none"
            ok = got is not None and ((got[0] == got[1]) if want_same
                                      else got == ("小明", "小红"))
            check(ok, f"train_class: {name} names {got} for the two orders")
        t.keys("/")
        t.keys("C-u")
        t.keys("今天天气很好", literal=True)
        t.keys("Enter")
        s = t.wait(lambda x: "built-in pair" in x and "我 爱 学习 \u2192" in x,
                   "another shape", timeout=30)
        check(s is not None, "train_class: a sentence of another shape says why, the built-in "
              "pair is watched")
    finally:
        t.kill()


def test_train():
    """View 10 (key 0): the order model trains live; pause, one epoch, reset, head; keys answered while it
    trains; at the end none sits at chance and names one doer for both orders, the others learn;
    e exports the curves."""
    with tempfile.TemporaryDirectory() as tmp:
        # a sanitizer build trains ten to twenty times slower: a smaller task there
        light = ["--order-pairs", "300,100", "--epochs", "12", "-d", "16"] \
            if os.environ.get("TFVIZ_SANITIZED") else []
        t = Tmux(["--lang", "en", *light, "我爱学习"], 120, 40, cwd=tmp)
        try:
            t.wait("Embedding", "first frame")
            t.keys("0")
            s = t.wait(lambda x: len(accuracies(x)) == 4, "view 10")
            check(s is not None, "train: view 10 shows the four schemes' accuracies")
            # a key is answered while training runs (tmux polling adds its own delay)
            start = time.time()
            t.keys("h")
            s = t.wait("head 2/2", "head 2")
            took = time.time() - start
            print(f"# h answered in {took * 1000:.0f} ms while training")
            check(s is not None and took < 0.5, f"train: h answered in {took * 1000:.0f} ms")
            t.keys("p")
            s = t.wait(lambda x: "paused" in x.splitlines()[4], "paused")
            check(s is not None, "train: p pauses")
            time.sleep(0.5)
            check(accuracies(t.screen()) == accuracies(s), "train: nothing moves while paused")
            t.keys("r")
            s = t.wait("epoch 0/", "reset")
            check(s is not None, "train: r goes back to epoch 0")
            t.keys("p")
            t.keys(".")
            s = t.wait(lambda x: "epoch 1/" in x and "paused" in x.splitlines()[4], "one epoch")
            check(s is not None, "train: . trains one more epoch, then pauses")
            t.keys(">", ">", ">", ">", ">")  # full speed: the rest of the run in a few seconds
            s = t.wait("speed: full speed", "full speed")
            check(s is not None, "train: > raises the speed to full speed")
            t.keys("Space")
            s = t.wait(lambda x: "trained " in x.splitlines()[4], "the end", timeout=120)
            check(s is not None, "train: training runs to the end")
            acc = accuracies(s)
            print(f"# final held-out accuracies in the view: {acc}")
            check(acc.get("none", 100) <= 55, f"train: none at chance ({acc.get('none')} %)")
            check(all(acc.get(k, 0) >= 95 for k in ("sinusoidal", "learned", "rope")),
                  f"train: the schemes with positions learn ({acc})")
            lines = s.splitlines() if s else []
            at = [i for i, ln in enumerate(lines) if "none       held-out" in ln[50:]]
            if at:
                a, b = lines[at[0] + 1], lines[at[0] + 2]
                doer = lambda ln: ln.split("\u2192")[-1].split()[0] if "\u2192" in ln else None
                check(doer(a) is not None and doer(a) == doer(b),
                      f"train: none names the same doer for both orders ({doer(a)}, {doer(b)})")
            check(s is not None and "bag of words" in s, "train: the view says why none fails")
            t.keys("e")
            s = t.wait("exported tfviz-order-training.png", "export", timeout=60)
            path = os.path.join(tmp, "tfviz-order-training.png")
            check(s is not None and os.path.exists(path) and
                  "--figure order-training" in png_text(path),
                  "train: e exports the order-training figure")
            t.keys("q")
            e = exit_line(t.wait("__EXIT__", "exit"))
            check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
                  f"train: q restores the terminal ({e})")
        finally:
            t.kill()
    for env, want in (({}, "0 训练语序"), ({"LANG": "C", "LC_ALL": "C"}, "0 Train")):
        t = Tmux(["我爱学习"], 80, 24, env=env)
        tag = f"train80 {env.get('LANG', 'C.UTF-8')}"
        try:
            t.keys("0")
            s = t.wait(lambda x: len(accuracies(x)) >= 3 and want in x.splitlines()[0], "view 10")
            check(s is not None, f"{tag}: view 10 draws at 80x24 with its tab")
            check(s is not None and all(len(ln) <= 80 for ln in s.splitlines()),
                  f"{tag}: nothing runs past 80 columns")
            t.keys("C-c")
            e = exit_line(t.wait("__EXIT__", "exit"))
            check(e is not None and e[2] == "TTY_RESTORED", f"{tag}: Ctrl-C restores ({e})")
        finally:
            t.kill()


def display_col(line, i):
    """The terminal column of character i of a captured line (wide characters take two)."""
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line[:i])


ORDER_SENTENCES = ["爱", "我爱学习", "我爱学习了", "我爱学习今天天气很好，我们一起去公园玩吧！",
                   "我用Python写了一个GPT4模型😀，它在2024年学会了说Hello World!"]


def order_table(s):
    """View 6's per-token table on screen s: its token rows (whole lines) and the count of rows
    it says it left out; (None, None) without exactly one header."""
    lines = s.splitlines()
    head = [i for i, line in enumerate(lines) if line.split()[:2] in (["#", "token"],
                                                                       ["#", "词元"])]
    if len(head) != 1:
        return None, None
    rows, omitted = [], 0
    for line in lines[head[0] + 1:]:
        f = line.split()
        if f and f[0] == "...":
            omitted = int(f[1])
        elif len(f) == 5 and f[0].isdigit():
            rows.append(line)
        else:
            break
    return rows, omitted


def order_at(text, width, height):
    """View 6 degrades gracefully: heatmaps, an aligned table whose shown and omitted rows add
    up to the token count, notes for what is left out, and the conclusion line."""
    T = len(tokens_csv(text))
    tag = f"order {T} tokens {width}x{height}"
    t = Tmux(["--lang", "en", text], width, height)
    try:
        t.wait("Embedding", "first frame")
        t.keys("6")
        s = t.wait(lambda x: "/max|Z|" in x and "Without positions" in x, "view 6",
                   timeout=60)
        check(s is not None, f"{tag}: view 6 appears")
        if s is None:
            return
        lines = s.splitlines()
        check("Without positions: 0 up to rounding" in s, f"{tag}: the conclusion line is there")
        check(any("\u2580" in line for line in lines), f"{tag}: the heatmaps are drawn")
        rows, omitted = order_table(s)
        check(rows is not None, f"{tag}: one table header")
        if rows is None:
            return
        check(len(rows) + omitted == T, f"{tag}: {len(rows)} rows shown + {omitted} omitted = {T}")
        if omitted:
            check(f"... {omitted} more rows" in s, f"{tag}: the omitted rows are announced")
        # aligned by display width: every token starts in one column, every number ends in one
        starts, ends = set(), set()
        for line in rows:
            f = line.split()
            tok = line.index(f[1], line.index(f[0]) + len(f[0]))
            starts.add(display_col(line, tok))
            ends.add(display_col(line, line.index(f[2], tok + len(f[1])) + len(f[2])))
        check(len(starts) <= 1 and len(ends) <= 1,
              f"{tag}: tokens start and numbers end in one column ({starts}, {ends})")
        m = [line for line in lines if "heatmaps show the first" in line]
        if m:
            k = int(m[0].split("first")[1].split()[0])
            check(0 < k < T and f"of {T} tokens" in m[0], f"{tag}: the heatmaps note {m[0].strip()}")
        labels = [line for line in lines if " A: " in line]
        if T == 1:
            check("One token has no order" in s, f"{tag}: one token says why all is 0")
        if T == 3 and width == 80:
            check(labels and "1 我  2 爱  3 学习" in labels[0],
                  f"{tag}: narrow columns are numbered and the tokens listed whole")
        # nothing of the frame is cut: the tab bar ends with the last tab
        if width >= 80:
            # (at 80 columns ten tabs take their short names: "0 Train")
            check(lines[0].rstrip().endswith(("0 Train order", "0 Train")),
                  f"{tag}: the tab bar is whole")
    finally:
        t.kill()


def order_reads(width, height, lang):
    """View 6 with the realistic head: the note on the random head, a reading per mode whose
    shares are --print order's, the colour bar's range, and the status line's shares."""
    tag = f"order {lang} {width}x{height}"
    j = json.loads(run("--print", "order", "--format", "json", "我爱学习").stdout)
    pct = [percent(j[m]["relative_diff"]) for m in ("with_pe", "with_rope")]
    t = Tmux(["--lang", lang, "我爱学习"], width, height)
    try:
        t.wait("Embedding" if lang == "en" else "词嵌入", "first frame")
        t.keys("6")
        s = t.wait(lambda x: "/max|Z|" in x, "view 6", timeout=60)
        check(s is not None, f"{tag}: view 6 appears")
        if s is None:
            return
        en = lang == "en"
        check(("untrained" if en else "未训练") in s, f"{tag}: the head is said to be random")
        check(("same" if en else "相同") in s and all(p in s for p in pct),
              f"{tag}: a reading per mode, with PE and RoPE by {pct[0]} and {pct[1]} of max|Z|")
        check(all(f" {p}" in s.split("/max|Z|", 1)[1].splitlines()[0] for p in pct),
              f"{tag}: the table's /max|Z| row says {pct}")
        lo = min(min(min(r) for r in j[m][k]) for m in ("without_pe", "with_pe", "with_rope")
                 for k in ("A_a", "A_b"))
        hi = max(max(max(r) for r in j[m][k]) for m in ("without_pe", "with_pe", "with_rope")
                 for k in ("A_a", "A_b"))
        want = f"{math.floor(lo * 100) / 100:g}"
        bar = [line for line in s.splitlines()
               if line.strip().startswith(want + " ") and f"{math.ceil(hi * 100) / 100:g}" in line]
        check(len(bar) == 1, f"{tag}: the colour bar runs from {want} ({lo:.3f}) to "
              f"{math.ceil(hi * 100) / 100:g} ({hi:.3f})")
        check(f"diff/max|Z|: 0 / {pct[0]} / {pct[1]}" in status_line(s),
              f"{tag}: the status line gives the shares")
    finally:
        t.kill()


def order_shares(*args):
    """The status line's shares for --print order with args: "diff/max|Z|: 0 / 18% / 40%"."""
    j = json.loads(run("--print", "order", "--format", "json", *args).stdout)
    return "diff/max|Z|: 0 / " + " / ".join(percent(j[m]["relative_diff"])
                                           for m in ("with_pe", "with_rope"))


def order_compare():
    """c types order B in the explorer; a B with other tokens is refused; a new sentence
    brings back the words reversed."""
    t = Tmux(["--lang", "en", "我爱学习"], 100, 30)

    def edit_b(text, wait, what):
        t.keys("c")
        t.wait("Order B:", "the order B editor")
        t.keys("C-u")
        if text:
            t.keys(text, literal=True)
        t.keys("Enter")
        return t.wait(wait, what)

    try:
        t.wait("Embedding", "first frame")
        t.keys("6")
        t.wait("/max|Z|", "view 6")
        t.keys("c")
        s = t.wait("Order B:", "the order B editor")
        line = [ln for ln in (s or "").splitlines() if ln.startswith("Order B:")]
        check(line == ["Order B:"] and "starts empty" in s,
              f"order: c opens the editor empty (typing is order B), its hint says so {line}")
        t.keys("Escape")
        s = edit_b("学习我爱", lambda x: "order B: 学习我爱" in x and "/max|Z|" in x,
                   "order B typed")
        want = order_shares("--compare", "学习我爱", "我爱学习")
        check(s is not None and want in status_line(s), f"order: the typed B is used ({want})")
        s = edit_b("我爱你", "must use the same tokens", "refused")
        check(s is not None and want in status_line(s),
              "order: a B with other tokens is refused, the old B stays")
        # the experiment may come a moment after the message (it runs off the key path)
        s = edit_b("", lambda x: "order B: the words of A reversed" in x and "/max|Z|" in x,
                   "back to reversed")
        check(s is not None and order_shares("我爱学习") in status_line(s),
              "order: an empty B means the words reversed")
        edit_b("学习我爱", "order B: 学习我爱", "order B typed again")
        t.keys("/")
        t.wait("Sentence:", "the sentence editor")
        t.keys("C-u")
        t.keys("猫吃鱼", literal=True)
        t.keys("Enter")
        s = t.wait(lambda x: "new sentence: order B is its words reversed" in x and
                   "/max|Z|" in x, "B reset")
        check(s is not None and order_shares("猫吃鱼") in status_line(s),
              "order: a new sentence resets B to its words reversed")
    finally:
        t.kill()


def test_order():
    for width, height in ((80, 24), (120, 40), (200, 60), (60, 20)):
        for text in ORDER_SENTENCES:
            order_at(text, width, height)
    order_at("我爱学习今天天气很好" * 25, 120, 40)
    for width, height in ((80, 24), (120, 40), (200, 60)):
        for lang in ("en", "zh"):
            order_reads(width, height, lang)
    order_compare()


def test_wording():
    """Text fits 80x24 and says what it means: V-1 zeros, [UNK], no -0.00, whole labels."""
    t = Tmux(["--lang", "en", "我😀"], 80, 24)
    try:
        s = t.wait(lambda x: "Embedding" in x and "one-hot of" in x, "first frame")
        check(s is not None and "0 in the other 99,999 entries" in s,
              "wording: V = 100,000 means 99,999 zeros")
        t.keys("Right")
        s = t.wait("[UNK]: 1 at index 1", "the unknown token")
        check(s is not None and "1 [UNK]" in s, "wording: the emoji is named [UNK] in its box "
              "and its one-hot line")
        t.keys("l")
        s = t.wait("记为 [UNK]", "Chinese [UNK]")
        check(s is not None and "其余 99,999 位都是 0" in s, "wording: [UNK] and 99,999 in Chinese")
        check(s is not None and s.splitlines()[0].rstrip().endswith("0 训练语序"),
              "wording: the Chinese tab bar is whole at 80 columns")
        t.keys("l", "7")
        s = t.wait(lambda x: "same curve" in x and "theta=" in x, "view 7")
        check(s is not None, "wording: view 7 keeps theta= at 80 columns")
        check(s is not None and "-0.00" not in s, "wording: no -0.00 on view 7")
        if s:
            hint = s.splitlines()[-2]
            check(hint.rstrip().endswith("p pairing  b base"), f"wording: view 7 hint whole ({hint})")
        t.keys("8")
        s = t.wait(lambda x: "PCA axes 1-2" in x and "of variance" in x, "view 8")
        check(s is not None and "band, the control does not." in s and
              "nearest to 爱 (Up/Down: other word)" in s, "wording: view 8 text whole at 80x24")
        # a cosine of -0.004 is written -0.004; one that rounds to zero never -0.00
        check(s is not None and not re.search(r"-0\.00(?!\d)", s), "wording: no -0.00 on view 8")
    finally:
        t.kill()
    t = Tmux(["--lang", "zh", "我爱学习"], 60, 20)
    try:
        t.wait("tfviz", "first frame")
        t.keys("2")
        s = t.wait("位置编码是算出来的", "view 2")
        cap = s.splitlines()[2].rstrip() if s else ""
        check(cap.endswith("...") or cap.endswith("。"), f"wording: 60x20 caption ends with ... ({cap})")
    finally:
        t.kill()



# ------------------------------------------------------------------------------------------
# The status line, the d_model keys with trained vectors, export, the editor's limit, messages

LONG = ("Transformer 模型在处理我爱学习这个句子时，先分词，再查表得到每个词元的向量，"
        "然后加上位置编码，最后送进第一层注意力。")
FIELD_VALUES = {"V": "100000", "d_model": "512", "base": "10000", "n": "64"}


def status_ok(line, sentence, tag):
    """Every key=value on the status line shows its whole value; the sentence is whole or a
    prefix of it ending in an ellipsis; the position base is whole."""
    ok = True
    for key, want in FIELD_VALUES.items():
        for m in re.finditer(r"(?<![\w|(])" + key + r"=(\S+)", line):
            if m.group(1) != want:
                ok = False
                print(f"# {tag}: {key}={m.group(1)} on the status line, want {key}={want}")
    for m in re.finditer(r"pos( 起于| from)?( \S+)?", line.split("   ")[0]):
        if m.group(0) not in ("pos 起于 0", "pos from 0") and "pos=" not in m.group(0):
            ok = False
            print(f"# {tag}: a cut field '{m.group(0)}'")
    shown = line.strip().split(" | ")[0]
    if "=" not in shown and shown not in ("分词 word", "tokenizer word"):
        if not (shown == sentence or (shown.endswith("…") and
                                      sentence.startswith(shown[:-1].rstrip("…")))):
            ok = False
            print(f"# {tag}: the sentence shows as '{shown}'")
    if "\ufffd" in line or "?" in shown:
        ok = False
        print(f"# {tag}: a broken character on the status line")
    return ok


def status_session(width, height, lang, sentence):
    t = Tmux(["--lang", lang, sentence], width, height)
    try:
        first = "Embedding" if lang == "en" else "词嵌入"
        if width < 60 or height < 20:
            return
        check(t.wait(first, "first frame") is not None, f"status {width}x{height} {lang}: frame")
        for v in range(1, 10):
            t.keys(str(v))
            time.sleep(0.4)
            s = t.wait(lambda x: bool(status_line(x).strip()), f"view {v}")
            line = status_line(s or "")
            tag = f"status {width}x{height} {lang} view {v}"
            check(status_ok(line, sentence, tag), f"{tag}: whole fields ({line.strip()})")
        t.keys("q")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", f"status {width}x{height} {lang}: restored")
    finally:
        t.kill()


def lesson_session(width, height, lang):
    t = Tmux(["--lesson", "--lang", lang, "我爱学习"], width, height)
    try:
        check(t.wait(lambda x: "d_model=" in x or "n=64" in x, "lesson frame") is not None,
              f"lesson status {width}x{height} {lang}: frame")
        for step in range(11):
            s = t.wait(lambda x: bool(status_line(x).strip()), f"step {step + 1}")
            line = status_line(s or "")
            tag = f"lesson {width}x{height} {lang} step {step + 1}"
            check(status_ok(line, "我爱学习", tag), f"{tag}: whole fields ({line.strip()})")
            t.keys("NPage")
            time.sleep(0.3)
        t.keys("q")
        t.wait("__EXIT__", "exit")
    finally:
        t.kill()


def test_status():
    for w, h in ((60, 20), (80, 24), (120, 40), (200, 60)):
        for lang in ("zh", "en"):
            status_session(w, h, lang, "我爱学习" if w != 80 else LONG)
            lesson_session(w, h, lang)
    status_session(120, 40, "zh", LONG)


def train_fast(t):
    t.keys("8")
    for _ in range(6):
        t.keys(">")
    s = t.wait(lambda x: "u: views 1, 5" in x or "按 u" in x, "training done", timeout=90)
    if s is None or "d_model=512" not in status_line(s):
        return None  # the end of a run must not change d_model by itself
    t.keys("u")
    return t.wait(lambda x: "d_model=50" in status_line(x), "u applies")


def test_vectors_dmodel():
    for lang, width, height in (("zh", 120, 40), ("en", 80, 24)):
        t = Tmux(["--lang", lang, "我爱学习"], width, height)
        try:
            t.wait("d_model=", "first frame")
            s = train_fast(t)
            check(s is not None, f"dmodel {lang}: the trained vectors set d_model=50")
            t.keys("1")
            s = t.wait("100,000 x 50", "view 1 at d=50")
            check(s is not None, f"dmodel {lang}: view 1 draws W_E with 50 columns")
            t.keys("+")
            s = t.wait(lambda x: "100,000 x 100" in x and "d_model=100" in status_line(x),
                       "d_model 100")
            msg = s.splitlines()[-2] if s else ""
            check(s is not None, f"dmodel {lang}: + goes to d_model=100 in the status and views")
            check("d_model = 100" in msg and "u" in msg and "must be" not in msg
                  and ("随机" in msg if lang == "zh" else "random" in msg),
                  f"dmodel {lang}: one message says W_E is random again and how to go back "
                  f"({msg.strip()})")
            check("cannot analyse" not in (s or "") and "无法分析" not in (s or ""),
                  f"dmodel {lang}: no error after +")
            t.keys("-")
            t.keys("-")
            s = t.wait(lambda x: "100,000 x 26" in x and "d_model=26" in status_line(x),
                       "d_model 26")
            check(s is not None, f"dmodel {lang}: - - gives d_model=26 everywhere")
            t.keys("8")
            t.keys("u")
            t.keys("1")
            s = t.wait(lambda x: "100,000 x 50" in x and "d_model=50" in status_line(x),
                       "vectors back")
            check(s is not None, f"dmodel {lang}: u in view 8 brings the trained vectors back")
            t.keys("q")
            e = exit_line(t.wait("__EXIT__", "exit"))
            check(e is not None and e[1] == "0" and e[2] == "TTY_RESTORED",
                  f"dmodel {lang}: q restores the terminal ({e})")
        finally:
            t.kill()


def png_text(path):
    """The PNG's tEXt/iTXt chunks as one string."""
    with open(path, "rb") as f:
        d = f.read()
    out, i = [], 8
    while i + 8 <= len(d):
        n = int.from_bytes(d[i:i + 4], "big")
        kind = d[i + 4:i + 8]
        if kind in (b"tEXt", b"iTXt"):
            out.append(d[i + 8:i + 8 + n].decode("utf-8", "replace"))
        i += 12 + n
    return "\n".join(out)


def test_export():
    with tempfile.TemporaryDirectory() as tmp:
        t = Tmux(["我爱学习"], 80, 24, cwd=tmp)
        try:
            t.wait("词嵌入", "first frame")
            t.keys("l")
            t.wait("Embedding", "English")
            t.keys("6")
            t.wait("/max|Z|", "view 6")
            t.keys("e")
            s = t.wait("exported tfviz-order.png", "first export", timeout=60)
            check(s is not None, "export: e names tfviz-order.png")
            t.keys("e")
            s = t.wait("exported tfviz-order-2.png", "second export", timeout=60)
            check(s is not None, "export: e again writes tfviz-order-2.png, not over the first")
            for name in ("tfviz-order.png", "tfviz-order-2.png"):
                path = os.path.join(tmp, name)
                meta = png_text(path) if os.path.exists(path) else ""
                check("--lang en" in meta and "Word order is invisible" in meta,
                      f"export: {name} has English labels after l")
            t.keys("l")
            t.keys("e")
            s = t.wait("已导出 tfviz-order-3.png", "third export", timeout=60)
            path = os.path.join(tmp, "tfviz-order-3.png")
            check(s is not None and os.path.exists(path) and "--lang zh" in png_text(path),
                  "export: back in Chinese, tfviz-order-3.png has Chinese labels")
            t.keys("8")
            t.keys("Space")
            t.keys("r")
            t.keys("e")
            s = t.wait("还没有训练出的词向量", "nothing trained")
            check(s is not None and not os.path.exists(os.path.join(tmp, "tfviz-embedding-map.png")),
                  "export: view 8 before training says to train first")
            t.keys("n")
            t.keys("e")
            s = t.wait("已导出 tfviz-embedding-map.png", "map export", timeout=60)
            path = os.path.join(tmp, "tfviz-embedding-map.png")
            check(s is not None and os.path.exists(path) and
                  "--figure embedding-map" in png_text(path),
                  "export: view 8 exports the map of the trained vectors")
            t.keys("q")
            e = exit_line(t.wait("__EXIT__", "exit"))
            check(e is not None and e[2] == "TTY_RESTORED", f"export: restored ({e})")
        finally:
            t.kill()


def test_editlimit():
    t = Tmux(["我爱学习"], 120, 40)
    try:
        t.wait("词嵌入", "first frame")
        # 801 characters, 601 tokens: the last one, 猫, is past the old 500-character cut
        t.keys("/")
        t.wait("句子", "editor")
        t.keys("C-u")
        t.tmux("set-buffer", "--", "我爱学习" * 200 + "猫")
        t.tmux("paste-buffer")
        s = t.wait(lambda x: "学习猫" in x, "the pasted tail")
        check(s is not None, "editlimit: the editor shows the end of an 801-character paste")
        t.keys("Enter")
        time.sleep(0.5)
        t.keys("/")
        s = t.wait(lambda x: "学习猫" in x, "the tail kept")
        check(s is not None, "editlimit: the whole 801 characters were kept")
        t.keys("Escape")
        # over the documented 65,536 bytes: the editor says where the text was cut
        t.keys("/")
        t.keys("C-u")
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("x" * 70000)  # too long for set-buffer's argument
            f.flush()
            t.tmux("load-buffer", f.name)
        t.tmux("paste-buffer")
        s = t.wait(lambda x: "65536" in x and "docs/limits.md" in x, "the cut notice",
                   timeout=60)
        check(s is not None, "editlimit: a paste over 65,536 bytes is cut, with a notice")
        t.keys("Enter")
        s = t.wait(lambda x: "无法分析这个句子" in x, "too many tokens", timeout=30)
        line = s.splitlines()[-2] if s else ""
        check(s is not None and "词元太多" in line and not re.search("[a-z]{3}", line),
              f"editlimit: the error is all Chinese ({line.strip()})")
        # the empty sentence, in both languages
        t.keys("/")
        t.keys("C-u")
        t.keys("Enter")
        s = t.wait("文本是空的", "empty")
        line = s.splitlines()[-2] if s else ""
        check(s is not None and not re.search("[a-z]{3}", line),
              f"editlimit: the empty-text error is all Chinese ({line.strip()})")
        t.keys("l")
        t.keys("/")
        t.keys("C-u")
        t.keys("Enter")
        s = t.wait("the text is empty", "empty en")
        check(s is not None and not re.search("[\u4e00-\u9fff]", s.splitlines()[-2]),
              "editlimit: in English the error is all English")
        t.keys("q")
        e = exit_line(t.wait("__EXIT__", "exit"))
        check(e is not None and e[2] == "TTY_RESTORED", f"editlimit: restored ({e})")
    finally:
        t.kill()


def main():
    global TFVIZ
    TFVIZ = os.path.abspath(sys.argv[1])
    group = sys.argv[2]
    globals()["test_" + group]()
    if FAILS:
        print(f"# {len(FAILS)} failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
