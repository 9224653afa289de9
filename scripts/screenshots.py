#!/usr/bin/env python3
"""screenshots.py — capture text screenshots of every explorer view and every lesson step by
running the built tfviz inside tmux, into DOCS_DIR/screenshots/*.txt.

    scripts/screenshots.py TFVIZ DOCS_DIR     (or: meson compile -C build screenshots)

Each capture waits until the frame shows what it should and stops changing, so the files are
the same on every run for the same build."""
import os
import shlex
import subprocess
import sys
import time

SIZE_VIEWS = (100, 32)
SIZE_LESSON = (80, 24)
VIEWS = ["embed", "pe", "freq", "relative", "input", "order", "rope", "learned", "schemes",
         "train"]


class Pane:
    count = 0

    def __init__(self, tfviz, args, width, height):
        Pane.count += 1
        self.sock = f"tfviz-shots-{os.getpid()}-{Pane.count}"
        env = "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color NO_COLOR=1"
        cmd = f"{env} {shlex.quote(tfviz)} {' '.join(shlex.quote(a) for a in args)}; sleep 60"
        self.tmux("-f", "/dev/null", "-u", "new-session", "-d", "-x", str(width), "-y",
                  str(height), "sh", "-c", cmd)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True, check=True,
                              env=dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8"))

    def keys(self, *k):
        self.tmux("send-keys", *k)

    def settled(self, marker, timeout=20.0):
        """The screen once it contains marker and two captures 150 ms apart agree."""
        end, last = time.time() + timeout, None
        while time.time() < end:
            s = self.tmux("capture-pane", "-p").stdout.decode("utf-8", "replace")
            if marker in s and s == last:
                return s
            last = s
            time.sleep(0.15)
        raise SystemExit(f"screenshots: timed out waiting for '{marker}'")

    def started(self, markers, timeout=20.0):
        """Wait until one of markers is on the screen (for a screen that keeps changing)."""
        end = time.time() + timeout
        while time.time() < end:
            s = self.tmux("capture-pane", "-p").stdout.decode("utf-8", "replace")
            if any(m in s for m in markers):
                return s
            time.sleep(0.1)
        raise SystemExit(f"screenshots: timed out waiting for one of {markers}")

    def close(self):
        path = self.tmux("display", "-p", "#{socket_path}").stdout.decode().strip()
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True)
        if os.path.basename(path) == self.sock and os.path.exists(path):
            os.unlink(path)


TRAIN_STEPS = 40


def live_training_still(p):
    """View 8 trains while it is shown: pause it (. steps once and pauses), start again from the
    random rows (r keeps a paused run paused), then take a fixed number of single steps, so the
    picture is the same on every run."""
    p.started(("epoch ", "轮 "))
    p.keys(".")
    p.keys("r")
    for _ in range(TRAIN_STEPS):
        p.keys(".")
    time.sleep(0.3)


def order_training_still(p):
    """View 9 trains the order model while it is shown: at full speed from the start to the end,
    whose curves and answers are the same bits on every run."""
    p.started(("epoch ", "轮 "))
    for _ in range(6):
        p.keys(">")
    p.keys("r")
    p.started(("trained ", "训练完成"), timeout=120)


def save(path, screen, title):
    """The screen as plain text (trailing blanks cut); the title goes to the index."""
    lines = [ln.rstrip() for ln in screen.splitlines()]
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)
    INDEX.append((os.path.basename(path), title))


INDEX = []


def embed_in_readme(readme, out):
    """Rewrite the README's screenshot block (between its two marker comments) from the file it
    names, so the README shows the current program too."""
    if not os.path.exists(readme):
        return
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.find("<!-- screenshot ")
    end = text.find("<!-- end screenshot -->")
    if start < 0 or end < start:
        return
    name = text[start:].split()[2].rstrip(":")
    head = text[start:text.index("\n", start) + 1]
    with open(os.path.join(out, name + ".txt"), encoding="utf-8") as f:
        shot = f.read()
    new = text[:start] + head + "```\n" + shot + "```\n" + text[end:]
    if new != text:
        with open(readme + ".tmp", "w", encoding="utf-8") as f:
            f.write(new)
        os.replace(readme + ".tmp", readme)


def main():
    tfviz, docs = os.path.abspath(sys.argv[1]), sys.argv[2]
    out = os.path.join(docs, "screenshots")
    os.makedirs(out, exist_ok=True)
    n = 0
    w, h = SIZE_VIEWS
    p = Pane(tfviz, ["--lang", "en", "我爱学习"], w, h)
    try:
        p.settled("51.2 M")
        for i, name in enumerate(VIEWS):
            key = str((i + 1) % 10)  # the tenth view's key is 0
            p.keys(key)
            if name == "learned":
                live_training_still(p)
            if name == "train":
                order_training_still(p)
            s = p.settled(f" {key} ")
            save(os.path.join(out, f"view{i + 1}-{name}.txt"), s,
                 f"View {i + 1} ({name}), {w}x{h}: `tfviz --lang en 我爱学习`, key {key}")
            n += 1
    finally:
        p.close()
    w, h = SIZE_LESSON
    for lang in ("en", "zh"):
        p = Pane(tfviz, ["--lesson", "--lang", lang], w, h)
        try:
            for step in range(1, 13):
                if step > 1:
                    p.keys("NPage")  # the lesson's "next": Space belongs to steps 5, 7 and 9
                if step == 5:
                    live_training_still(p)
                if step == 7:
                    order_training_still(p)
                s = p.settled(f"{step}/12")
                save(os.path.join(out, f"lesson-{lang}-{step:02d}.txt"), s,
                     f"Lesson step {step} ({lang}), {w}x{h}: `tfviz --lesson --lang {lang}`")
                n += 1
        finally:
            p.close()
    w, h = SIZE_LESSON
    p = Pane(tfviz, ["--lesson", "--big", "--lang", "en"], w, h)
    try:
        s = p.settled("1/12")
        save(os.path.join(out, "lesson-big-01.txt"), s,
             f"Lesson step 1 with --big, {w}x{h}: `tfviz --lesson --big --lang en`")
        n += 1
    finally:
        p.close()
    with open(os.path.join(out, "README.md.tmp"), "w", encoding="utf-8") as f:
        f.write("# Text screenshots / 文字截图\n\nCaptured from the built tfviz through tmux by "
                "`meson compile -C build screenshots` (LANG=C.UTF-8, NO_COLOR=1).\n"
                "由 tmux 从构建好的 tfviz 截取，重新生成即可更新。\n\n")
        for name, title in INDEX:
            f.write(f"- [{name}]({name}): {title}\n")
    os.replace(os.path.join(out, "README.md.tmp"), os.path.join(out, "README.md"))
    embed_in_readme(os.path.join(docs, "..", "README.md"), out)
    print(f"screenshots: {n} screens in {out}")


if __name__ == "__main__":
    main()
