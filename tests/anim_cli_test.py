#!/usr/bin/python3
"""Animations and inline figures from the command line: tfviz --export FILE.gif / DIR/ and
tfviz --show FIGURE, the files and bytes read back independently.

    anim_cli_test.py TFVIZ GROUP   (GROUP: gif frames show refusals)

  gif       Pillow reads each animation's GIF: frame count, size, frame delay, loop; the frames
            move (the first and the middle one differ); the same bytes twice; an old file kept
            when the new one cannot be written;
  frames    a folder of numbered PNG frames: names, count, size; the same pictures as the GIF's
            frames (up to its palette); a shorter export removes the extra frames only;
  show      --show with a forced protocol on a pipe: sixel decoded by term_image_test.py's own
            reader to the size the window asks for, kitty's header, symbols' rows; without a
            terminal, or on TERM=dumb in a pseudo-terminal, one sentence and exit 2;
  explorer  the g key in a pseudo-terminal with a forced protocol: view 2's sixel picture decoded
            to the content area's pixels (120 x 34 cells of 10 x 20); kitty's picture deleted by
            its id when the view changes, a new one for the new view, none left after q;
  slow_terminal  g on a terminal that answers only after the wait: one sentence, the late
            reply not taken for keys;
  refusals  animations to .png, still figures to .gif, --fps/--frames out of range or without
            an animation, --show of an animation: exit 2 and one sentence each;
  huge      --show in every mode in a pseudo-terminal of 1600 x 500 cells (10 x 20 pixels):
            exit 0, a smaller picture within 4,194,304 pixels, peak memory under the 200 MB of
            docs/limits.md (not measured under a sanitizer) and what reaches the terminal
            bounded; 2500 columns drawn, not refused; the explorer's g on view 2 in a 1000 x 300
            window; a 5000 x 3 window named as it is.
Pillow is Debian's python3-pil (scripts/bootstrap.sh installs it)."""
import fcntl
import os
import pty
import re
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run_group  # noqa: E402
from PIL import Image, ImageChops, ImageStat  # noqa: E402

TFVIZ = None
ANIMS = []  # the animations of the table of figures, as tfviz-options-docs figures writes it


def run(*args, env=None, ok=True, **kw):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([TFVIZ, *args], capture_output=True, timeout=300, env=e, **kw)
    if ok and p.returncode != 0:
        raise AssertionError(f"tfviz {' '.join(args)} exited {p.returncode}: "
                             f"{p.stderr.decode()}")
    return p


def one_sentence(p):
    err = p.stderr.decode()
    return err.count("\n") == 1 and err.startswith("tfviz: ")


def differ(a, b):
    """Mean absolute difference of two pictures, 0..255."""
    d = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(d).mean) / 3


def test_gif():
    with tempfile.TemporaryDirectory() as d:
        for name in ANIMS:
            path = os.path.join(d, name + ".gif")
            run("我爱学习", "--export", path, "--figure", name, "--frames", "8", "--fps", "12.5",
                "--dpi", "60")
            im = Image.open(path)
            check(im.n_frames == 8, f"gif {name}: 8 frames ({im.n_frames})")
            # 6.4 in x 3.6 in at 60 dpi
            check(im.size == (384, 216), f"gif {name}: 384 x 216 pixels ({im.size})")
            check(im.info.get("duration") == 80, f"gif {name}: 80 ms a frame at 12.5 fps "
                                                 f"({im.info.get('duration')})")
            check(im.info.get("loop") == 0, f"gif {name}: loops forever")
            im.seek(0)
            first = im.convert("RGB")
            im.seek(4)
            middle = im.convert("RGB")
            check(differ(first, middle) > 0.5, f"gif {name}: the frames move "
                                               f"({differ(first, middle):.2f})")
            again = os.path.join(d, name + "-2.gif")
            run("我爱学习", "--export", again, "--figure", name, "--frames", "8", "--fps", "12.5",
                "--dpi", "60")
            with open(path, "rb") as f1, open(again, "rb") as f2:
                check(f1.read() == f2.read(), f"gif {name}: the same bytes twice")
        # the defaults: a 16:9 slide, 960 x 540
        path = os.path.join(d, "rr.gif")
        run("我爱学习", "--export", path, "--figure", "rope-rotation")
        im = Image.open(path)
        check(im.size == (960, 540) and im.n_frames == 96,
              f"gif: rope-rotation by default 96 frames of 960 x 540 ({im.n_frames}, {im.size})")
        # a failed write (a full disk: a file size limit) leaves the old file and no temporary
        def small_disk():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))
        p = run("我爱学习", "--export", path, "--figure", "pe-waves", "--frames", "6", ok=False,
                preexec_fn=small_disk)
        check(p.returncode == 1 and one_sentence(p) and b"nothing was changed" in p.stderr,
              f"gif: a full disk: exit 1, one sentence ({p.stderr.decode().strip()[:100]})")
        check(Image.open(path).n_frames == 96, "gif: the old file is intact")
        check(not [f for f in os.listdir(d) if f.startswith(".")], "gif: no temporary file")


def test_frames():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "frames") + "/"
        run("我爱学习", "--export", out, "--figure", "pe-waves", "--frames", "12", "--dpi", "50")
        names = sorted(os.listdir(out))
        check(names == [f"frame_{k:04d}.png" for k in range(1, 13)],
              f"frames: frame_0001.png .. frame_0012.png ({names[:2]} .. {names[-1:]})")
        sizes = {Image.open(os.path.join(out, n)).size for n in names}
        check(sizes == {(320, 180)}, f"frames: each 320 x 180 ({sizes})")
        gif = os.path.join(d, "pw.gif")
        run("我爱学习", "--export", gif, "--figure", "pe-waves", "--frames", "12", "--dpi", "50")
        im = Image.open(gif)
        worst = 0.0
        for k in (0, 5, 11):
            im.seek(k)
            worst = max(worst, differ(im, Image.open(os.path.join(out, names[k]))))
        check(worst < 6, f"frames: the PNG frames are the GIF's frames ({worst:.2f} of 255)")
        open(os.path.join(out, "notes.txt"), "w").write("mine")
        run("我爱学习", "--export", out.rstrip("/"), "--figure", "pe-waves", "--frames", "5",
            "--dpi", "50")
        names = sorted(os.listdir(out))
        check(names == [f"frame_{k:04d}.png" for k in range(1, 6)] + ["notes.txt"],
              f"frames: a shorter export removes frames 6..12 and keeps other files ({names})")
        # a frame that cannot be written after others were: the sentence says which are
        # (it said "nothing was changed" with frames 1-2 written); a full disk (a file size
        # limit between the second frame's size and the third's: pe-waves' frames grow), and a
        # folder where frame 3 would go
        sizes = [os.path.getsize(os.path.join(out, f"frame_{k:04d}.png")) for k in (1, 2, 3)]
        full = os.path.join(d, "full") + "/"
        limit = (max(sizes[:2]) + sizes[2]) // 2

        def small_disk():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        if sizes[2] > max(sizes[:2]):
            p = run("我爱学习", "--export", full, "--figure", "pe-waves", "--frames", "5",
                    "--dpi", "50", ok=False, preexec_fn=small_disk)
            check(p.returncode == 1 and one_sentence(p) and
                  b"frames 1 to 2 of this export are written, frame 3 and those after it are not"
                  in p.stderr and sorted(os.listdir(full)) == ["frame_0001.png",
                                                               "frame_0002.png"],
                  f"frames: a full disk at frame 3 says frames 1-2 are written "
                  f"({p.stderr.decode().strip()[:160]})")
        blocked = os.path.join(d, "blocked")
        os.makedirs(os.path.join(blocked, "frame_0003.png"))
        p = run("我爱学习", "--export", blocked + "/", "--figure", "pe-waves", "--frames", "5",
                "--dpi", "50", ok=False)
        check(p.returncode == 1 and one_sentence(p) and b"frames 1 to 2 of this export are "
              b"written" in p.stderr, f"frames: frame 3 blocked by a folder says frames 1-2 are "
              f"written ({p.stderr.decode().strip()[:160]})")


def expected_cells(cols, rows, aspect, cw=10, ch=20):
    """show.c's arithmetic: the window's width at the figure's proportions, at most its height
    less two rows."""
    want = round(cols * cw * aspect / ch)
    if want > rows - 2:
        want = rows - 2
        cols = round(want * ch / (aspect * cw))
    return cols, want


def test_show():
    from term_image_test import decode_sixel
    env = {"COLUMNS": "60", "LINES": "30"}
    p = run("我爱学习", "--show", "pe", env=dict(env, TFVIZ_GRAPHICS="sixel"))
    cols, rows = expected_cells(60, 30, 0.8)
    img, declared, (maxx, maxy) = decode_sixel(p.stdout[p.stdout.find(b"\x1bP"):])
    want = (cols * 10, rows * 20 // 6 * 6)
    check(declared == want, f"show sixel: the picture is {want} ({declared})")
    non_white = sum(1 for px in img.getdata() if px != (255, 255, 255))
    check(non_white > 0.2 * want[0] * want[1],
          f"show sixel: the figure is drawn ({non_white} coloured pixels)")
    p = run("我爱学习", "--show", "rope", env=dict(env, TFVIZ_GRAPHICS="kitty"))
    m = re.search(rb"\x1b_G([^;]*);", p.stdout)
    keys = dict(kv.split(b"=") for kv in m.group(1).split(b",")) if m else {}
    cols, rows = expected_cells(60, 30, 1.45)
    check(keys.get(b"c") == str(cols).encode() and keys.get(b"r") == str(rows).encode(),
          f"show kitty: the picture covers {cols} x {rows} cells ({keys})")
    p = run("我爱学习", "--show", "freq", env=dict(env, TFVIZ_GRAPHICS="symbols"))
    text = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]|\x1b[78]|\r", b"", p.stdout).decode()
    lines = [ln for ln in text.split("\n") if ln.strip()]
    cols, rows = expected_cells(60, 30, 1.15)
    check(len(lines) == rows and all(len(ln) == cols for ln in lines),
          f"show symbols: {rows} rows of {cols} cells ({len(lines)}, "
          f"{sorted({len(ln) for ln in lines})})")
    p = run("我爱学习", "--show", "pe", ok=False)
    check(p.returncode == 2 and one_sentence(p) and b"not one" in p.stderr,
          f"show: standard output not a terminal: one sentence ({p.stderr.decode().strip()})")
    p = run("--show", "pe", env={"TFVIZ_GRAPHICS": "paper"}, ok=False)
    check(p.returncode == 2 and one_sentence(p) and b"kitty, sixel, iterm, symbols or none"
          in p.stderr, "show: an unknown TFVIZ_GRAPHICS is named")
    # a dumb terminal: a pseudo-terminal with TERM=dumb
    master, slave = pty.openpty()
    e = dict(os.environ, TERM="dumb", LANG="C", LC_ALL="C")
    e.pop("TFVIZ_GRAPHICS", None)
    q = subprocess.run([TFVIZ, "--show", "pe"], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                       env=e, timeout=60)
    os.close(slave)
    os.close(master)
    check(q.returncode == 2 and q.stderr.decode().count("\n") == 1 and
          b"TERM is unset or dumb" in q.stderr and b"TFVIZ_GRAPHICS=symbols" in q.stderr,
          f"show: TERM=dumb: one sentence that says what works ({q.stderr.decode().strip()})")


class Explorer:
    """tfviz's explorer in a pseudo-terminal of 120 x 40 cells (unless told) of 10 x 20 pixels;
    what it writes is collected."""

    def __init__(self, mode, cols=120, rows=40):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                               "TFVIZ_GRAPHICS": mode or ""})
            for v in ("TMUX", "STY", "TERM_PROGRAM", "LC_TERMINAL"):
                os.environ.pop(v, None)
            os.execv(TFVIZ, [TFVIZ, "--lang", "en", "我爱学习"])
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ,
                    struct.pack("HHHH", rows, cols, cols * 10, rows * 20))
        self.out = b""

    def pump(self, until, timeout=20.0):
        """Read until until(bytes so far) holds or the time is up; True when it held."""
        end = time.time() + timeout
        while time.time() < end:
            if until(self.out):
                return True
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    self.out += os.read(self.fd, 1 << 20)
                except OSError:
                    break
        return until(self.out)

    def keys(self, k):
        os.write(self.fd, k.encode())

    def picture_of_view2(self, timeout):
        """2 then g with a sixel terminal: True when a whole sixel picture arrived; self.out
        holds what was written since g."""
        self.pump(lambda b: b"Positional" in b or b"Embedding" in b, 20)
        self.keys("2")
        self.pump(lambda b: b"PE(3, 10)" in b, 20)
        self.out = b""
        self.keys("g")
        return self.pump(lambda b: b"\x1bP" in b and b"\x1b\\" in b[b.find(b"\x1bP"):],
                         timeout)

    def close(self):
        self.keys("q")
        self.pump(lambda b: False, 1.0)
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return status


def test_explorer():
    from term_image_test import decode_sixel
    e = Explorer("sixel")
    ok = e.picture_of_view2(20)
    check(ok, "explorer sixel: g writes a sixel picture")
    if ok:
        i = e.out.find(b"\x1bP")
        img, declared, _ = decode_sixel(e.out[i:e.out.find(b"\x1b\\", i) + 2])
        # the content area: rows 4 .. 37 of 40 (tabs, two caption lines, a blank; message and
        # status lines below): 34 x 20 = 680 pixels, 678 in whole sixel bands
        check(declared == (1200, 678), f"explorer sixel: the picture fills 120 x 34 cells "
                                       f"({declared})")
        dark = sum(1 for px in img.getdata() if sum(px) < 200)
        check(dark > 20000, f"explorer sixel: a heatmap is drawn ({dark} dark pixels)")
        check(e.out[:i].endswith(b"\x1b7\x1b[5;1H"),
              f"explorer sixel: the picture is placed at the content area's first cell "
              f"({e.out[max(0, i - 12):i]!r})")
    status = e.close()
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "explorer sixel: q exits 0")

    e = Explorer("kitty")
    e.pump(lambda b: b"Embedding" in b, 10)
    e.keys("2")
    e.pump(lambda b: b"PE(3, 10)" in b, 10)
    e.keys("g")
    ok = e.pump(lambda b: re.search(rb"\x1b_Ga=T[^;]*i=(\d+)", b) is not None, 20)
    first = re.search(rb"\x1b_Ga=T[^;]*i=(\d+)", e.out)
    check(ok, "explorer kitty: g writes a kitty picture")
    e.out = b""
    e.keys("3")
    ok = e.pump(lambda b: re.search(rb"\x1b_Ga=T[^;]*i=(\d+)", b) is not None, 20)
    if first:
        gone = b"\x1b_Ga=d,d=I,i=" + first.group(1) in e.out
        check(gone, "explorer kitty: view 3 deletes view 2's picture by its id")
    second = re.search(rb"\x1b_Ga=T[^;]*i=(\d+)", e.out)
    check(ok and second and first and second.group(1) != first.group(1),
          "explorer kitty: view 3 gets a picture of its own")
    e.out = b""
    e.close()
    check(second is not None and b"\x1b_Ga=d,d=I,i=" + second.group(1) in e.out,
          "explorer kitty: q deletes the picture before the terminal is restored")


def test_slow_terminal():
    """A terminal that answers the queries of g only after the wait: no pictures, one sentence,
    and its late replies are not taken for keys (their Esc would quit)."""
    e = Explorer(None)
    e.pump(lambda b: b"Embedding" in b, 10)
    e.out = b""
    e.keys("g")
    asked = e.pump(lambda b: b"\x1b[c" in b, 10)
    check(asked, "slow terminal: g asks the terminal (device attributes)")
    time.sleep(0.8)  # well past the quarter of a second tfviz waits
    os.write(e.fd, b"\x1b[?62;4;22c")
    said = e.pump(lambda b: b"no pictures here" in b, 10)
    # (on a machine so loaded that tfviz had not yet given up, the reply was in time)
    check(said and (b"did not answer" in e.out or b"shows no kitty" in e.out),
          "slow terminal: g says the terminal did not answer in time")
    e.pump(lambda b: False, 1.0)
    alive = os.waitpid(e.pid, os.WNOHANG) == (0, 0)
    check(alive, "slow terminal: the late reply did not end the explorer")
    e.out = b""
    e.keys("2")
    check(e.pump(lambda b: b"PE(3, 10)" in b, 10), "slow terminal: keys still work")
    status = e.close() if alive else 0
    check(alive and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
          "slow terminal: q exits 0")


def test_refusals():
    with tempfile.TemporaryDirectory() as d:
        cases = [
            (["--export", os.path.join(d, "a.png"), "--figure", "pe-waves"], "is an animation"),
            (["--export", os.path.join(d, "a.gif"), "--figure", "pe"], "is a still figure"),
            (["--export", os.path.join(d, "a.gif"), "--figure", "training", "--fps", "0"],
             "--fps must be"),
            (["--export", os.path.join(d, "a.gif"), "--figure", "training", "--frames", "0"],
             "--frames"),
            (["--export", os.path.join(d, "a.png"), "--fps", "10"], "--fps and --frames"),
            (["--fps", "10"], "--fps applies to --export"),
            (["--show", "rope-rotation"], "is an animation"),
            (["--show", "nope"], "--show must be one of"),
            (["--show", "pe", "--print", "pe"], "choose one"),
        ]
        for args, words in cases:
            p = run("我爱学习", *args, ok=False)
            check(p.returncode == 2 and one_sentence(p) and words in p.stderr.decode(),
                  f"refusals: {' '.join(a.replace(d, 'D') for a in args)}: exit 2, "
                  f"'{words}' ({p.stderr.decode().strip()[:120]})")
        check(os.listdir(d) == [], "refusals: nothing was written")


def show_in_pty(cols, rows, mode, *args):
    """tfviz --show ... in a pseudo-terminal of cols x rows cells of 10 x 20 pixels: (exit
    status, bytes written, peak resident KB)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                           "TFVIZ_GRAPHICS": mode})
        # (meson's MALLOC_PERTURB_ fills every block malloc hands out, so memory allocated but
        # never touched, as chafa's sixel buffers, would count as resident)
        for v in ("TMUX", "STY", "COLUMNS", "LINES", "MALLOC_PERTURB_"):
            os.environ.pop(v, None)
        os.execv(TFVIZ, [TFVIZ, "--lang", "en", *args])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, cols * 10, rows * 20))
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 1 << 20)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    out = b"".join(chunks)
    _, status, usage = os.wait4(pid, 0)
    os.close(fd)
    return status, out, usage.ru_maxrss


def sixel_size(out):
    """The size a sixel picture declares (its raster attributes "1;1;W;H)."""
    m = re.search(rb"\x1bP[0-9;]*q\"\d+;\d+;(\d+);(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def test_huge():
    sanitized = bool(os.environ.get("TFVIZ_SANITIZED"))
    for mode in ("sixel", "iterm", "kitty", "symbols"):
        status, out, kb = show_in_pty(1600, 500, mode, "--show", "pe")
        ok = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        check(ok, f"huge: --show pe in {mode} at 1600 x 500 cells exits 0 ({status}: "
                  f"{out[-200:]!r})")
        check(sanitized or kb < 200 * 1024,
              f"huge: --show pe in {mode} peaks at {kb // 1024} MB (< 200 MB)")
        # the ARGB32 page at 4,194,304 pixels is 16 MB; an iTerm2 TIFF in base64 some 22 MB
        check(len(out) < 32 << 20, f"huge: {mode} writes {len(out) >> 20} MB (< 32 MB)")
        if mode == "sixel" and ok:
            w, h = sixel_size(out)
            check(0 < w * h <= 4194304 and w % 10 == 0,
                  f"huge: the sixel picture is {w} x {h} pixels, within 4,194,304 and whole "
                  f"cells")
    # 2,500 columns: 25,000 pixels a side ("a value is outside its valid range" before)
    status, out, _ = show_in_pty(2500, 100, "kitty", "--show", "pe")
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and b"valid range" not in out,
          f"huge: --show pe at 2500 x 100 cells draws a smaller picture ({out[-160:]!r})")
    status, out, _ = show_in_pty(5000, 3, "sixel", "--show", "pe")
    check(os.WEXITSTATUS(status) == 2 and b"(5000 x 3 cells)" in out,
          f"huge: a 5000 x 3 window is named as it is ({out.strip()[-160:]!r})")
    e = Explorer("sixel", cols=1000, rows=300)
    ok = e.picture_of_view2(60)
    check(ok, "huge: g on view 2 at 1000 x 300 cells writes a sixel picture")
    if ok:
        w, h = sixel_size(e.out)
        check(0 < w * h <= 4194304, f"huge: the explorer's picture is {w} x {h} pixels")
    # a storm of resizes with the picture on (each size a new picture job on its thread)
    e.out = b""
    for i in range(24):
        cols, rows = [(1600, 500), (2000, 600), (120, 40), (1000, 300)][i % 4]
        fcntl.ioctl(e.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, cols * 10,
                                                           rows * 20))
        e.pump(lambda b: False, 0.05)
    e.pump(lambda b: False, 2.0)
    alive = os.waitpid(e.pid, os.WNOHANG) == (0, 0)
    check(alive and b"Sanitizer" not in e.out and b"allocate" not in e.out,
          "huge: 24 resizes up to 2000 x 600 with the picture on: alive, no report")
    status = e.close()
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
          f"huge: the explorer at 1000 x 300 exits 0 ({status})")


if __name__ == "__main__":
    TFVIZ = os.path.abspath(sys.argv[1])
    docs = os.path.join(os.path.dirname(TFVIZ), "tfviz-options-docs")
    table = subprocess.run([docs, "figures"], capture_output=True, check=True).stdout.decode()
    ANIMS.extend(line.split("\t")[0] for line in table.splitlines()
                 if line.split("\t")[1] == "animation")
    sys.exit(run_group(globals(), sys.argv[2]))
