#!/usr/bin/python3
"""Inline images and animations, through tests/timg_probe.c, decoded here independently.

    term_image_test.py PROBE GROUP   (GROUP: sixel kitty iterm symbols detect detect-tmux gif
                                      frames)

  sixel        the bytes decoded by the sixel reader below (written from the VT330/340
               manual's description) and by libsixel's sixel2png when installed: the picture's
               size, and its pixels against the figure's own;
  kitty        the kitty graphics commands parsed, the base64 payload decoded: its keys (s, v,
               c, r, i, q, C), its length s * v * 4 and its pixels;
  iterm        the OSC 1337 payload decoded (a TIFF file, read by Pillow): size and pixels;
  symbols      the cells counted after removing colour sequences: rows lines of cols cells, one
               column each; the colours of flat cells against the figure's;
  detect       term_graphics_detect through a pseudo-terminal whose far side plays kitty, xterm
               with sixel, iTerm2, a VT100, a silent and a slow terminal, forced modes;
  detect-tmux  no pictures in tmux: no query is even written; and inside a real tmux server;
  gif          Pillow reads the GIF: frame count, size, delays, loop count, pixels against the
               PNG frames; the same bytes twice; an old file kept when writing fails;
  frames       the numbered PNG frames: names, count, size, DPI; frames of a longer earlier run
               removed, other files kept.
Pillow is Debian's python3-pil (scripts/bootstrap.sh installs it): skipped without it.
"""
import base64
import io
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
import fcntl
import struct
import unicodedata
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run_group  # noqa: E402

try:
    from PIL import Image
except ImportError:
    print("# skipped: Pillow is not installed (apt-get install python3-pil)")
    sys.exit(77)

PROBE = None
TMP = tempfile.mkdtemp(prefix="tfviz-timg-")


def path(name):
    return os.path.join(TMP, name)


def encode(mode, cols, rows, cw, ch, *extra):
    """Run the probe's encoder; return (bytes, info, the figure's pixels as an RGB image)."""
    png = path(f"src-{mode}.png")
    p = subprocess.run([PROBE, "encode", mode, str(cols), str(rows), str(cw), str(ch), *extra],
                       capture_output=True, timeout=120, env={**os.environ, "TIMG_PROBE_PNG": png})
    if p.returncode != 0:
        raise AssertionError(f"timg_probe encode {mode} exited {p.returncode}: {p.stderr.decode()}")
    info = json.loads(p.stderr.decode().strip().splitlines()[-1])
    return p.stdout, info, Image.open(png).convert("RGB")


def compare(got, want, what, mean_tol, big_tol=60, big_share=0.01):
    """Pixels of two RGB images of one size: the mean absolute difference per channel, and the
    share of pixels off by more than big_tol in some channel."""
    check(got.size == want.size, f"{what}: size {got.size} == {want.size}")
    if got.size != want.size:
        return
    g, w = got.tobytes(), want.tobytes()
    total = 0
    big = 0
    for i in range(0, len(g), 3):
        d = max(abs(g[i] - w[i]), abs(g[i + 1] - w[i + 1]), abs(g[i + 2] - w[i + 2]))
        total += abs(g[i] - w[i]) + abs(g[i + 1] - w[i + 1]) + abs(g[i + 2] - w[i + 2])
        big += d > big_tol
    n = len(g) // 3
    mean = total / (3 * n)
    check(mean <= mean_tol, f"{what}: mean |difference| {mean:.2f} <= {mean_tol}")
    check(big <= big_share * n, f"{what}: {big} of {n} pixels differ by more than {big_tol}")


# ------------------------------------------------------------------------------------------------
# sixel


def decode_sixel(data):
    """A DEC sixel string to an RGB image (unset pixels white). Understands what a sixel encoder
    may write: DCS P1;P2;P3 q, raster attributes "Pan;Pad;Ph;Pv, colour definitions
    #Pc;2;R;G;B (percent) and #Pc;1;H;L;S, colour selection #Pc, repeats !Pn, carriage return
    $ and next line -. Returns (image, declared (width, height), furthest pixel drawn)."""
    s = data.decode("latin-1")
    m = re.match(r"\x1bP([0-9;]*)q", s)
    if not m:
        raise AssertionError("no DCS ... q introducer")
    end = s.find("\x1b\\", m.end())
    if end < 0:
        raise AssertionError("no string terminator")
    body = s[m.end():end]
    i = 0
    declared = None
    if body.startswith('"'):
        m2 = re.match(r'"(\d+);(\d+);(\d+);(\d+)', body)
        declared = (int(m2.group(3)), int(m2.group(4)))
        i = m2.end()
    w, h = declared if declared else (0, 0)
    pixels = {}
    palette = {}
    colour = 0
    x = y = 0
    maxx = maxy = -1

    def hls_to_rgb(hh, ll, ss):
        import colorsys
        r, g, b = colorsys.hls_to_rgb(((hh + 240) % 360) / 360, ll / 100, ss / 100)
        return (round(r * 255), round(g * 255), round(b * 255))

    while i < len(body):
        c = body[i]
        if c == "#":
            m3 = re.match(r"#(\d+)(?:;(\d+);(\d+);(\d+);(\d+))?", body[i:])
            n = int(m3.group(1))
            if m3.group(2):
                u, a, b, cc = (int(m3.group(k)) for k in range(2, 6))
                palette[n] = ((round(a * 255 / 100), round(b * 255 / 100), round(cc * 255 / 100))
                              if u == 2 else hls_to_rgb(a, b, cc))
            else:
                colour = n
            i += m3.end()
            continue
        if c == "!":
            m4 = re.match(r"!(\d+)(.)", body[i:])
            count, ch = int(m4.group(1)), m4.group(2)
            i += m4.end()
        elif "?" <= c <= "~":
            count, ch = 1, c
            i += 1
        elif c == "$":
            x = 0
            i += 1
            continue
        elif c == "-":
            x = 0
            y += 6
            i += 1
            continue
        else:
            i += 1
            continue
        bits = ord(ch) - 63
        for _ in range(count):
            for k in range(6):
                if bits >> k & 1:
                    pixels[(x, y + k)] = palette.get(colour, (0, 0, 0))
                    maxx, maxy = max(maxx, x), max(maxy, y + k)
            x += 1
    img = Image.new("RGB", (max(w, maxx + 1), max(h, maxy + 1)), (255, 255, 255))
    px = img.load()
    for (a, b), rgb in pixels.items():
        px[a, b] = rgb
    return img, declared, (maxx, maxy)


def test_sixel():
    # 40 x 12 cells of 9 x 18 pixels: 360 x 216 (216 is whole bands of 6)
    data, info, src = encode("sixel", 40, 12, 9, 18)
    check((info["px_w"], info["px_h"]) == (360, 216), f"pixel size {info['px_w']} x {info['px_h']}")
    img, declared, (maxx, maxy) = decode_sixel(data)
    check(declared == (360, 216), f"raster attributes say {declared}")
    check(maxx < 360 and maxy < 216, f"no pixel past the picture (furthest {maxx}, {maxy})")
    check(maxx == 359 and maxy == 215, "the picture is filled to its edges")
    compare(img.crop((0, 0, 360, 216)), src, "sixel (own decoder) against the figure", 4.0)
    # cells of 10 x 20: 14 rows are 280 pixels, which sixel shows as 276 (46 whole bands)
    data2, info2, src2 = encode("sixel", 30, 14, 10, 20)
    img2, declared2, (mx2, my2) = decode_sixel(data2)
    check((info2["px_w"], info2["px_h"]) == (300, 276) and declared2 == (300, 276),
          f"a height of 280 pixels is sent as whole bands: {declared2}")
    check(my2 < 280, "nothing reaches the row below the picture's cells")
    # libsixel's own decoder, when installed (libsixel-bin)
    sixel2png = shutil.which("sixel2png")
    if sixel2png:
        with open(path("a.six"), "wb") as f:
            f.write(data)
        p = subprocess.run([sixel2png, "-i", path("a.six"), "-o", path("a.png")],
                           capture_output=True, timeout=60)
        check(p.returncode == 0, f"sixel2png reads it ({p.stderr.decode().strip()})")
        if p.returncode == 0:
            lib = Image.open(path("a.png")).convert("RGB")
            check(lib.size == (360, 216), f"sixel2png: size {lib.size}")
            compare(lib, src, "sixel (libsixel) against the figure", 4.0)
    else:
        print("# sixel2png not installed: the second decoder was not run")
    again, _, _ = encode("sixel", 40, 12, 9, 18)
    check(again == data, "the same figure gives the same sixel bytes")


# ------------------------------------------------------------------------------------------------
# kitty


def parse_kitty(data):
    """The kitty graphics commands ESC _ G keys ; payload ESC \\ in order, as (keys, payload)."""
    cmds = []
    for m in re.finditer(rb"\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\", data):
        keys = dict(kv.split(b"=", 1) for kv in m.group(1).split(b",") if kv)
        cmds.append(({k.decode(): v.decode() for k, v in keys.items()}, m.group(2) or b""))
    return cmds


def test_kitty():
    data, info, src = encode("kitty", 40, 12, 9, 18)
    cmds = parse_kitty(data)
    stray = re.sub(rb"\x1b_G[^\x1b]*\x1b\\", b"", data)
    check(stray == b"", f"nothing but graphics commands ({len(stray)} other bytes)")
    first = cmds[0][0]
    check(first.get("a") == "T", f"transmit and show: {first}")
    check(first.get("f") == "24" and first.get("o") == "z", "RGB (an opaque page), deflated")
    check((first.get("s"), first.get("v")) == ("360", "216"), "s, v: 360 x 216 pixels")
    check((first.get("c"), first.get("r")) == ("40", "12"), "c, r: 40 x 12 cells")
    check(first.get("i") == "7" and info["id"] == 7, "i: the image id given")
    check(first.get("q") == "2", "q=2: the terminal sends no reply")
    check(first.get("C") == "1", "C=1: the cursor stays")
    check(all(c[0].get("m") == "1" for c in cmds[:-1]) and cmds[-1][0].get("m") == "0",
          f"chunks say m=1 until the last, m=0 ({len(cmds)} chunks)")
    check(all(len(p) <= 4096 and len(p) % 4 == 0 for _, p in cmds),
          "each chunk at most 4096 bytes of base64, a multiple of 4")
    check(all(set(c[0]) == {"m"} for c in cmds[1:]), "the keys only in the first command")
    payload = zlib.decompress(b"".join(base64.b64decode(p) for _, p in cmds))
    check(len(payload) == 360 * 216 * 3, f"payload {len(payload)} bytes = 360 * 216 * 3")
    if len(payload) == 360 * 216 * 3:
        img = Image.frombytes("RGB", (360, 216), payload)
        check(img.tobytes() == src.tobytes(), "the figure's pixels, exactly")
    check(len(data) < 360 * 216 * 3 / 4, f"compressed: {len(data)} bytes for {360 * 216} pixels")
    again, _, _ = encode("kitty", 40, 12, 9, 18)
    check(again == data, "the same figure gives the same kitty bytes")


# ------------------------------------------------------------------------------------------------
# iTerm2


def test_iterm():
    data, info, src = encode("iterm", 40, 12, 9, 18)
    m = re.fullmatch(rb"\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]*)\x07", data)
    check(m is not None, "one OSC 1337 File= sequence ended by BEL")
    if not m:
        return
    args = dict(kv.split(b"=", 1) for kv in m.group(1).split(b";"))
    check(args.get(b"inline") == b"1", "inline=1")
    check((args.get(b"width"), args.get(b"height")) == (b"40", b"12"), "width, height in cells")
    img = Image.open(io.BytesIO(base64.b64decode(m.group(2))))
    check(img.size == (360, 216), f"the file inside is 360 x 216 ({img.format} {img.size})")
    compare(img.convert("RGB"), src, "iTerm2 file against the figure", 1.0, 16, 0.002)


# ------------------------------------------------------------------------------------------------
# symbols


SGR = re.compile(r"\x1b\[([0-9;]*)m")


def test_symbols():
    for extra, label in (((), "256 colours"), (("truecolor",), "24-bit colour")):
        data, info, src = encode("symbols", 48, 14, 10, 20, *extra)
        text = data.decode("utf-8")
        lines = text.split("\r\n")
        check(lines[-1] == "" and len(lines) == 15, f"{label}: 14 lines, each ended ({len(lines) - 1})")
        plain = [SGR.sub("", l) for l in lines[:-1]]
        check(all(len(l) == 48 for l in plain), f"{label}: 48 cells a line "
              f"({sorted(set(len(l) for l in plain))})")
        wide = [c for l in plain for c in l if unicodedata.east_asian_width(c) in "WF"]
        check(not wide, f"{label}: no double-width character")
        ctrl = [c for l in plain for c in l if ord(c) < 32]
        check(not ctrl, f"{label}: no control character")
        codes = set()
        for m in SGR.finditer(text):
            codes.add(m.group(1).split(";")[0] if m.group(1) else "0")
        want = {"38", "0"}
        check(codes <= want, f"{label}: only colour and reset sequences ({codes})")
        if extra:
            # a space shows its background, a full block its foreground: against the figure's
            # mean colour over that cell (10 x 20 pixels)
            diffs = []
            for y, l in enumerate(lines[:-1]):
                fg = bg = None
                x = 0
                pos = 0
                while pos < len(l):
                    m = SGR.match(l, pos)
                    if m:
                        v = [int(t) for t in m.group(1).split(";") if t]
                        if len(v) >= 10 and v[0] == 38:
                            fg, bg = tuple(v[2:5]), tuple(v[7:10])
                        pos = m.end()
                        continue
                    ch = l[pos]
                    pos += 1
                    if ch in " \u2588":
                        want_rgb = bg if ch == " " else fg
                        block = src.crop((x * 10, y * 20, x * 10 + 10, y * 20 + 20))
                        mean = [sum(c) / len(c) for c in zip(*block.getdata())]
                        diffs.append(max(abs(a - b) for a, b in zip(want_rgb, mean)))
                    x += 1
            check(len(diffs) > 50, f"{label}: {len(diffs)} flat cells to compare")
            diffs.sort()
            check(diffs[len(diffs) // 2] <= 12, f"{label}: a flat cell's colour is its area's "
                  f"(median difference {diffs[len(diffs) // 2]:.1f})")
        again, _, _ = encode("symbols", 48, 14, 10, 20, *extra)
        check(again == data, f"{label}: the same figure gives the same bytes")


# ------------------------------------------------------------------------------------------------
# detection through a pseudo-terminal


class FakeTerminal:
    """The far side of a pty, answering the queries as a terminal would, in order."""

    def __init__(self, kitty=False, da1=b"\x1b[?62;22c", version=None, cell=None, delay=0.0):
        self.kitty, self.da1, self.version, self.cell, self.delay = kitty, da1, version, cell, delay
        self.received = b""

    def answer(self, master, stop):
        buf = b""
        while not stop.is_set():
            r, _, _ = select.select([master], [], [], 0.02)
            if not r:
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.received += chunk
            buf += chunk
            out = b""
            while True:
                m = re.search(rb"\x1b_G[^\x1b]*\x1b\\|\x1b\[>0q|\x1b\[16t|\x1b\[c", buf)
                if not m:
                    break
                q = m.group(0)
                buf = buf[m.end():]
                if q.startswith(b"\x1b_G") and self.kitty:
                    out += b"\x1b_Gi=31;OK\x1b\\"
                elif q == b"\x1b[>0q" and self.version:
                    out += b"\x1bP>|" + self.version + b"\x1b\\"
                elif q == b"\x1b[16t" and self.cell:
                    out += b"\x1b[6;%d;%dt" % (self.cell[1], self.cell[0])
                elif q == b"\x1b[c" and self.da1 is not None:
                    out += self.da1
            if out:
                if self.delay:
                    time.sleep(self.delay)
                os.write(master, out)


def detect(term, env_extra=None, timeout_ms=300, winsize=(24, 80, 0, 0)):
    """Run the probe's detection on a pty played by term; returns (result, seconds taken,
    bytes the terminal received, whether the pty's modes were restored)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", *winsize))
    before = termios.tcgetattr(slave)
    env = {k: v for k, v in os.environ.items()
           if k not in ("TMUX", "STY", "TFVIZ_GRAPHICS", "TERM_PROGRAM", "LC_TERMINAL",
                        "KITTY_WINDOW_ID", "COLORTERM")}
    env["TERM"] = "xterm-256color"
    env.update(env_extra or {})
    stop = threading.Event()
    t = threading.Thread(target=term.answer, args=(master, stop), daemon=True)
    t.start()
    start = time.monotonic()
    p = subprocess.run([PROBE, "detect", str(timeout_ms)], stdin=slave, stdout=slave,
                       stderr=subprocess.PIPE, env=env, timeout=30)
    took = time.monotonic() - start
    time.sleep(0.05)
    stop.set()
    t.join(1)
    after = termios.tcgetattr(slave)
    os.close(slave)
    os.close(master)
    res = json.loads(p.stderr.decode().strip().splitlines()[-1])
    return res, took, term.received, before == after


def test_detect():
    cases = [
        ("kitty", FakeTerminal(kitty=True, cell=(9, 18)), {}, "kitty", (9, 18)),
        ("xterm with sixel", FakeTerminal(da1=b"\x1b[?63;1;2;4;6;9;15;22c", cell=(10, 20),
                                          version=b"XTerm(379)"), {}, "sixel", (10, 20)),
        ("sixel without a cell size", FakeTerminal(da1=b"\x1b[?63;1;2;4;6c"), {}, "none", (0, 0)),
        ("iTerm2 by its version reply", FakeTerminal(version=b"iTerm2 3.5.0", cell=(8, 16)), {},
         "iterm", (8, 16)),
        ("iTerm2 by TERM_PROGRAM", FakeTerminal(), {"TERM_PROGRAM": "iTerm.app"}, "iterm", (0, 0)),
        ("a VT100", FakeTerminal(da1=b"\x1b[?1;2c"), {}, "none", (0, 0)),
        ("VTE (no pictures)", FakeTerminal(da1=b"\x1b[?65;1;9c", cell=(9, 19)), {}, "none", (9, 19)),
        ("kitty's window variable, no answer to the query", FakeTerminal(),
         {"KITTY_WINDOW_ID": "1"}, "none", (0, 0)),
        ("a slow kitty (80 ms)", FakeTerminal(kitty=True, cell=(9, 18), delay=0.08), {}, "kitty",
         (9, 18)),
        ("TERM=dumb", FakeTerminal(kitty=True), {"TERM": "dumb"}, "none", (0, 0)),
        ("forced symbols", FakeTerminal(kitty=True), {"TFVIZ_GRAPHICS": "symbols"}, "symbols",
         (0, 0)),
        ("forced sixel on a VT100", FakeTerminal(da1=b"\x1b[?1;2c", cell=(7, 14)),
         {"TFVIZ_GRAPHICS": "SIXEL"}, "sixel", (7, 14)),
        ("forced none on kitty", FakeTerminal(kitty=True), {"TFVIZ_GRAPHICS": "none"}, "none",
         (0, 0)),
    ]
    for label, term, env, mode, cell in cases:
        res, took, got, restored = detect(term, env)
        check(res["mode"] == mode, f"{label}: {res['mode']} ({res['why']}), want {mode}")
        check((res["cell_w"], res["cell_h"]) == cell,
              f"{label}: cell {res['cell_w']} x {res['cell_h']}, want {cell[0]} x {cell[1]}")
        check(restored, f"{label}: the terminal's modes are restored")
        forced_quiet = env.get("TFVIZ_GRAPHICS", "").lower() in ("symbols", "none") or \
            env.get("TERM") == "dumb"
        check((got == b"") == forced_quiet, f"{label}: queries written only when needed "
              f"({len(got)} bytes)")
        if res["answered"]:
            check(took < 2.0, f"{label}: an answering terminal ends the wait ({took:.2f} s)")

    # the window size in pixels (TIOCGWINSZ) gives the cell size without asking for it
    res, _, _, _ = detect(FakeTerminal(da1=b"\x1b[?62;4c"), winsize=(24, 80, 800, 480))
    check(res["mode"] == "sixel" and (res["cell_w"], res["cell_h"]) == (10, 20),
          f"cell size from the window's pixels: {res['mode']} {res['cell_w']} x {res['cell_h']}")
    # a silent terminal: none, after the timeout and not much later
    res, took, got, restored = detect(FakeTerminal(da1=None), timeout_ms=300)
    check(res["mode"] == "none" and not res["answered"], f"silent terminal: {res['mode']}")
    check(0.25 <= took < 1.5, f"silent terminal: gave up after {took:.2f} s (timeout 0.3 s)")
    check(restored, "silent terminal: modes restored")
    # a terminal slower than the timeout is not waited for
    res, took, _, _ = detect(FakeTerminal(kitty=True, delay=0.6), timeout_ms=150)
    check(res["mode"] == "none", f"a reply after the timeout is not taken: {res['mode']}")
    # a word TFVIZ_GRAPHICS does not know
    res, _, got, _ = detect(FakeTerminal(kitty=True), {"TFVIZ_GRAPHICS": "sixels"})
    check(res["status"] == "range" and res["mode"] == "none" and "TFVIZ_GRAPHICS" in res["why"],
          f"TFVIZ_GRAPHICS=sixels: {res['status']}, {res['why']}")
    # COLORTERM chooses 24-bit symbols
    res, _, _, _ = detect(FakeTerminal(), {"TFVIZ_GRAPHICS": "symbols", "COLORTERM": "truecolor"})
    check(res["truecolor"], "COLORTERM=truecolor: 24-bit symbols")
    # not a terminal at all
    p = subprocess.run([PROBE, "detect", "100"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=30,
                       env={**os.environ, "TFVIZ_GRAPHICS": ""})
    res = json.loads(p.stderr.decode().strip().splitlines()[-1])
    check(res["mode"] == "none" and not res["asked"] and p.stdout == b"",
          f"no terminal: {res['mode']}, nothing written")


def test_detect_tmux():
    # the variables tmux and screen set: no query is written, nothing changes
    for env in ({"TMUX": "/tmp/tmux-0/default,1,0"}, {"TERM": "tmux-256color"},
                {"TERM": "screen.xterm-256color"}, {"STY": "123.pts-0.host"}):
        res, _, got, restored = detect(FakeTerminal(kitty=True, da1=b"\x1b[?62;4c", cell=(9, 18)),
                                       env)
        check(res["mode"] == "none" and got == b"" and restored,
              f"{env}: {res['mode']} ({res['why']}), {len(got)} bytes of queries")
    tmux = shutil.which("tmux")
    if not tmux:
        print("# tmux not installed: the real tmux server was not tried")
        return
    out = path("tmux.json")
    socks = []
    try:
        for label, prefix, want_asked in (("inside tmux", "", False),
                                          ("inside tmux without $TMUX", "env -u TMUX TERM=xterm-256color ",
                                           True)):
            # a server of its own each time: the first one may still be shutting down after its
            # only session ended, and a new session on its socket would fail
            sock = f"tfviz-timg-{os.getpid()}-{len(socks)}"
            socks.append(sock)
            if os.path.exists(out):
                os.unlink(out)
            cmd = f"{prefix}{PROBE} detect 3000 2> {out}.tmp; mv {out}.tmp {out}"
            subprocess.run([tmux, "-L", sock, "-f", "/dev/null", "new-session", "-d", "-x", "80",
                            "-y", "24", cmd], check=True, timeout=30,
                           env={k: v for k, v in os.environ.items() if k != "TMUX"})
            deadline = time.monotonic() + 20
            while not os.path.exists(out) and time.monotonic() < deadline:
                time.sleep(0.05)
            check(os.path.exists(out), f"{label}: the probe ran")
            if not os.path.exists(out):
                continue
            res = json.loads(open(out).read().strip().splitlines()[-1])
            check(res["mode"] == "none", f"{label}: {res['mode']} ({res['why']})")
            check(res["asked"] == want_asked, f"{label}: queries written: {res['asked']}")
            if want_asked:
                check(res["answered"], f"{label}: tmux answered for itself")
    finally:
        for sock in socks:
            subprocess.run([tmux, "-L", sock, "kill-server"], capture_output=True, timeout=30)


# ------------------------------------------------------------------------------------------------
# animations


def run_probe(*args, ok=True):
    p = subprocess.run([PROBE, *map(str, args)], capture_output=True, timeout=300)
    if ok and p.returncode != 0:
        raise AssertionError(f"timg_probe {' '.join(map(str, args))} exited {p.returncode}: "
                             f"{p.stderr.decode()}")
    return p


def gif_delays(fps, n):
    """Each frame's delay in 1/100 s: the frame start times rounded (half up), as anim.h says."""
    start = [int(100 * i / fps + 0.5) for i in range(n + 1)]
    return [start[i + 1] - start[i] for i in range(n)]


def test_gif():
    gif = path("a.gif")
    run_probe("gif", gif, 12, 320, 200, 30)
    run_probe("frames", path("frames"), 12, 320, 200)
    im = Image.open(gif)
    check(im.format == "GIF" and im.size == (320, 200), f"a GIF of 320 x 200 ({im.format} {im.size})")
    check(getattr(im, "n_frames", 1) == 12, f"12 frames ({getattr(im, 'n_frames', 1)})")
    check(im.info.get("loop") == 0, f"loops for ever (loop={im.info.get('loop')})")
    durations, worst = [], 0.0
    for k in range(im.n_frames):
        im.seek(k)
        durations.append(im.info.get("duration"))
        frame = im.convert("RGB")
        png = Image.open(path(f"frames/frame_{k + 1:04d}.png")).convert("RGB")
        if k in (0, 5, 11):
            compare(frame, png, f"GIF frame {k + 1} against PNG frame {k + 1}", 3.0, 48, 0.01)
    want = [10 * d for d in gif_delays(30, 12)]
    check(durations == want, f"delays {durations} ms == {want} (30 fps)")
    check(sum(want) == 400, "12 frames at 30 fps last 0.4 s")
    with open(gif, "rb") as f:
        first = f.read()
    run_probe("gif", gif, 12, 320, 200, 30)
    with open(gif, "rb") as f:
        check(f.read() == first, "the same frames give the same bytes")
    # frames that change little are stored small: the GIF is far below 12 full frames
    check(len(first) < 12 * 320 * 200 // 2, f"{len(first)} bytes for 12 frames of 320 x 200")

    run_probe("gif", path("b.gif"), 4, 200, 120, 25, 3)
    b = Image.open(path("b.gif"))
    check(b.info.get("loop") == 3 and b.n_frames == 4, f"loop=3, 4 frames ({b.info.get('loop')})")
    b.seek(1)
    check(b.info.get("duration") == 40, "25 fps: 40 ms a frame")
    run_probe("gif", path("c.gif"), 3, 100, 80, 50)
    c = Image.open(path("c.gif"))
    c.seek(2)
    check(c.info.get("duration") == 20, "50 fps: 20 ms a frame")
    # failures keep the old file: 0 frames, a bad rate, a missing folder
    for args in ((0, 320, 200, 30), (2, 320, 200, 60), (2, 320, 200, 0)):
        p = run_probe("gif", gif, *args, ok=False)
        check(p.returncode != 0, f"gif {args}: refused ({p.stderr.decode().strip()})")
        with open(gif, "rb") as f:
            check(f.read() == first, f"gif {args}: the old file is intact")
    leftovers = [n for n in os.listdir(TMP) if ".tmp-" in n]
    check(not leftovers, f"no temporary file left ({leftovers})")
    p = run_probe("gif", path("no/such/dir/a.gif"), 2, 100, 80, 10, ok=False)
    check(p.returncode != 0 and not os.path.exists(path("no")), "a missing folder is refused")


def test_frames():
    d = path("frames")
    os.makedirs(d, exist_ok=True)
    for keep in ("notes.txt", "frame_7.png", "frame_0009.png.bak", "frame_12345.png"):
        with open(os.path.join(d, keep), "w") as f:
            f.write("keep")
    run_probe("frames", d + "/", 6, 320, 200)
    names = sorted(n for n in os.listdir(d) if re.fullmatch(r"frame_\d{4}\.png", n))
    check(names == [f"frame_{i:04d}.png" for i in range(1, 7)], f"frame_0001 .. frame_0006 ({names})")
    for n in names:
        im = Image.open(os.path.join(d, n))
        check(im.size == (320, 200), f"{n}: 320 x 200")
    im = Image.open(os.path.join(d, names[0]))
    dpi = im.info.get("dpi", (0, 0))
    check(abs(dpi[0] - 80) < 0.5, f"DPI from the page: 320 px for 4 in = 80 ({dpi})")
    check(im.info.get("tfviz") == "sample", "the parameters in iTXt")
    first = open(os.path.join(d, names[0]), "rb").read()
    last = open(os.path.join(d, names[-1]), "rb").read()
    check(first != last, "frames differ")
    # a shorter run replaces the frames and removes the ones past its end, nothing else
    run_probe("frames", d, 3, 320, 200)
    names = sorted(os.listdir(d))
    check(names == sorted(["frame_0001.png", "frame_0002.png", "frame_0003.png", "notes.txt",
                           "frame_7.png", "frame_0009.png.bak", "frame_12345.png"]),
          f"frames 4..6 removed, other files kept ({names})")
    check(open(os.path.join(d, "frame_0001.png"), "rb").read() == first, "same frame, same bytes")
    # a file where the folder should be, and a missing parent
    with open(path("file"), "w") as f:
        f.write("x")
    p = run_probe("frames", path("file"), 2, 100, 80, ok=False)
    check(p.returncode != 0 and "Not a directory" in p.stderr.decode(),
          f"a file is not a folder ({p.stderr.decode().strip()})")
    p = run_probe("frames", path("no/such"), 2, 100, 80, ok=False)
    check(p.returncode != 0 and not os.path.exists(path("no")), "a missing parent is refused")


if __name__ == "__main__":
    PROBE = sys.argv[1]
    try:
        rc = run_group(globals(), sys.argv[2].replace("-", "_"))
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(rc)
