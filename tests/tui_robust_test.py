#!/usr/bin/env python3
"""Terminal robustness of the interactive view, driven through tmux (the Tmux helper of
tui_test.py): TERM unset, a 20 x 10 terminal, a storm of resizes, a 10 KB paste into the
sentence editor, pastes that hold escape codes, line breaks and invalid bytes (they stay text),
Ctrl-C / SIGTERM / SIGHUP in every view, stdin not a terminal. Every case
checks that tfviz ends as expected and leaves the terminal as it found it.

Usage: tui_robust_test.py TFVIZ GROUP"""
import importlib.util
import os
import shlex
import signal
import sys
import tempfile
import time

_spec = importlib.util.spec_from_file_location(
    "tui_test", os.path.join(os.path.dirname(os.path.abspath(__file__)), "tui_test.py"))
tt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tt)
Tmux, check, exit_line = tt.Tmux, tt.check, tt.exit_line

VIEWS = 9


def ends(t, what, rc="0"):
    e = exit_line(t.wait("__EXIT__", f"{what}: exit", timeout=30))
    check(e is not None and e[1] == rc and e[2] == "TTY_RESTORED",
          f"{what}: exits {rc} with the terminal restored ({e})")
    check(not t.alternate_on(), f"{what}: leaves the alternate screen")


def test_term_unset():
    t = Tmux(["--lang", "en", "我爱学习"], 100, 30, env={"TERM": None})
    try:
        s = t.wait("__EXIT__", "report") and t.screen(history=True)
        check(bool(s) and "TERM is not set" in s and "Tokens and ids" in s,
              "TERM unset: one sentence, then the text report")
        ends(t, "TERM unset")
    finally:
        t.kill()


def test_tiny():
    t = Tmux(["--lang", "en"], 20, 10)
    try:
        s = t.wait(lambda x: "small" in x, "the too-small notice")
        check(s is not None, "20x10: says the window is too small")
        t.tmux("resize-window", "-x", "100", "-y", "30")
        check(t.wait("Embedding", "redraw at 100x30") is not None, "20x10 -> 100x30 redraws")
        t.keys("q")
        ends(t, "20x10")
    finally:
        t.kill()


def test_storm():
    t = Tmux(["--lang", "en"], 100, 30)
    try:
        check(t.wait("Embedding", "first frame") is not None, "storm: first frame")
        sizes = [(100, 30), (61, 21), (150, 45), (20, 10), (80, 24)]
        start = time.time()
        for i in range(48):  # dozens of SIGWINCH in about a second
            w, h = sizes[i % len(sizes)]
            t.tmux("resize-window", "-x", str(w), "-y", str(h))
        took = time.time() - start
        t.tmux("resize-window", "-x", "100", "-y", "30")
        check(t.tfviz_pid() is not None, f"storm: alive after 48 resizes in {took:.1f} s")
        t.keys("2")
        check(t.wait("PE(3, ", "view 2 after the storm") is not None,
              "storm: still answers keys and redraws")
        t.keys("q")
        ends(t, "storm")
    finally:
        t.kill()


def test_paste():
    t = Tmux(["--lang", "en"], 100, 30)
    try:
        check(t.wait("Embedding", "first frame") is not None, "paste: first frame")
        t.keys("/")
        check(t.wait("Sentence:", "the editor") is not None, "paste: the editor opens")
        t.keys("C-u")
        chunk = "我爱学习 hello 世界 "  # 10 KB pasted as one tmux buffer
        text = (chunk * (10240 // len(chunk.encode()) + 1))[:3500]
        t.tmux("set-buffer", "--", text)
        t.tmux("paste-buffer")
        time.sleep(0.5)
        check(t.tfviz_pid() is not None, f"paste: alive after {len(text.encode())} bytes")
        t.keys("Enter")
        time.sleep(0.5)
        check(t.tfviz_pid() is not None, "paste: alive after Enter on the long sentence")
        t.keys("Escape")
        t.keys("q")
        ends(t, "paste")
    finally:
        t.kill()

def editor_line(t):
    """The sentence editor's line on the screen (after "Sentence: "), or None."""
    for line in t.screen().splitlines():
        if "Sentence:" in line:
            return line.split("Sentence:", 1)[1].strip()
    return None


def paste(t, d, data, bracketed=True):
    """Paste the bytes data as tmux pastes a buffer (line feeds as carriage returns; bracketed
    when the program asked for it and bracketed is true)."""
    f = os.path.join(d, "buffer")
    with open(f, "wb") as fh:
        fh.write(data)
    t.tmux("load-buffer", f)
    t.tmux("paste-buffer", *(["-p"] if bracketed else []))
    time.sleep(0.5)


def test_paste_text():
    with tempfile.TemporaryDirectory() as d:
        t = Tmux(["--lang", "en"], 100, 30, cwd=d)
        try:
            check(t.wait("Embedding", "first frame") is not None, "paste-text: first frame")
            t.keys("/")
            check(t.wait("Sentence:", "the editor") is not None, "paste-text: the editor opens")
            t.keys("C-u")
            # Esc, [ (halve n), 2 (view 2) and e (export) would run as keys
            paste(t, d, "猫追狗\x1b[2Je".encode())
            line = editor_line(t)
            check(line == "猫追狗e", f"paste-text: an escape code in a paste is no key ({line!r})")
            check(os.listdir(d) == ["buffer"], f"paste-text: nothing exported ({os.listdir(d)})")
            t.keys("C-u")
            paste(t, d, b"ab\ncd\tq\n")
            line = editor_line(t)
            check(line == "ab cd q", f"paste-text: line breaks and tabs in a paste are spaces "
                                      f"({line!r})")
            t.keys("C-u")
            paste(t, d, b"x\ny", bracketed=False)
            line = editor_line(t)
            check(line == "x y", f"paste-text: a line break with more bytes at once is a space "
                                 f"on a terminal without bracketed paste ({line!r})")
            t.keys("C-u")
            paste(t, d, b"a\xffb")
            t.tmux("send-keys", "-H", "ff")
            t.keys("c")
            time.sleep(0.3)
            line = editor_line(t)
            check(line == "a\ufffdb\ufffdc", f"paste-text: invalid bytes are U+FFFD, the next "
                                              f"character kept ({line!r})")
            t.keys("Escape")
            check(t.wait(lambda x: "Sentence:" not in x, "the editor closes") is not None,
                  "paste-text: Esc alone still cancels")
            t.keys("q")
            ends(t, "paste-text")
        finally:
            t.kill()


def test_signals_every_view():
    for how, sig in (("C-c", signal.SIGINT), ("TERM", signal.SIGTERM), ("HUP", signal.SIGHUP)):
        for view in range(1, VIEWS + 1):
            t = Tmux(["--lang", "en"], 100, 30)
            try:
                first = t.wait(lambda x: "Embedding" in x or "too small" in x, "first frame")
                check(first is not None, f"{how} view {view}: first frame")
                t.keys(str(view))
                time.sleep(0.3)
                if how == "C-c":
                    t.keys("C-c")
                else:
                    pid = t.tfviz_pid()
                    if pid:
                        os.kill(pid, sig)
                ends(t, f"{how} in view {view}", str(128 + sig))
            finally:
                t.kill()


def test_stdin_not_tty():
    # stdout is the terminal, stdin is /dev/null: a wrapper script redirects it
    real = tt.TFVIZ
    with tempfile.TemporaryDirectory() as d:
        wrap = os.path.join(d, "tfviz-stdin-null")
        with open(wrap, "w") as f:
            f.write(f"#!/bin/sh\nexec {shlex.quote(real)} \"$@\" </dev/null\n")
        os.chmod(wrap, 0o755)
        tt.TFVIZ = wrap
        t = Tmux(["--lang", "en", "我爱学习"], 100, 30)
        tt.TFVIZ = real
        try:
            s = t.wait("__EXIT__", "report with stdin from /dev/null") and t.screen(history=True)
            check(bool(s) and "Tokens and ids" in s, "stdin not a terminal: the text report")
            ends(t, "stdin not a terminal")
        finally:
            t.kill()


def main():
    tt.TFVIZ = os.path.abspath(sys.argv[1])
    globals()["test_" + sys.argv[2].replace("-", "_")]()
    if tt.FAILS:
        print(f"# {len(tt.FAILS)} failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
