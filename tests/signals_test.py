#!/usr/bin/env python3
"""Every signal whose default action ends tfviz, in every mode that owns something to undo.

Usage: signals_test.py TFVIZ GROUP [--few]
  explorer, lesson   the interactive views on a pseudo-terminal: the terminal modes afterwards
                     are exactly those before (what `stty -g` prints) and the alternate screen is
                     left; a signal that asks tfviz to stop ends it with 128 + the signal, a
                     crash signal ends it by the signal
  output, export, train
                     -o, --export and --train -o while the temporary file exists: tfviz ends by
                     the signal, the temporary file is gone and the old file intact
  ignored            signals ignored by whoever started tfviz (nohup) stay ignored
  xfsz               a write past the file size limit (ulimit -f) is a "file too large" error
                     with the old file intact, not a death by SIGXFSZ
With --few only a handful of signals are sent (the sanitizer build: its report on a crash signal
is the sanitizer's, and the full sweep runs in the plain build).

Prints TAP-like "ok"/"not ok" lines (tests/harness.py)."""
import os
import pty  # noqa: F401 (openpty lives in os; pty documents the platform)
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import fcntl
import time

from harness import FAILS, check, run_group

TFVIZ = None
OLD = b"old contents, must survive\n"
CRASH = {signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGTRAP,
         signal.SIGABRT, signal.SIGSYS}
SMCUP, RMCUP = b"\x1b[?1049h", b"\x1b[?1049l"


def terminating():
    """The signals whose default action is to terminate (or dump core), SIGXFSZ aside."""
    names = ["SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
             "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT",
             "SIGXCPU", "SIGVTALRM", "SIGPROF", "SIGIO", "SIGPWR", "SIGSYS"]
    sigs = [getattr(signal, n) for n in names if hasattr(signal, n)]
    return sigs + list(range(signal.SIGRTMIN, signal.SIGRTMAX + 1))


def chosen():
    if "--few" in sys.argv:
        return [signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1, signal.SIGALRM, signal.SIGTERM,
                signal.SIGRTMIN]
    return terminating()


def name(sig):
    try:
        return signal.Signals(sig).name
    except ValueError:
        return f"SIGRTMIN+{sig - signal.SIGRTMIN}"


def defaults():
    """Every signal back to its default action in the child: a test run started in the
    background (SIGINT and SIGQUIT ignored) or under nohup (SIGHUP ignored) would otherwise hand
    its ignored signals on to tfviz, which rightly keeps them ignored."""
    for s in terminating():
        try:
            signal.signal(s, signal.SIG_DFL)
        except (OSError, ValueError):
            pass


def no_core():
    defaults()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def env():
    return dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", TERM="xterm-256color")


# ---------------------------------------------------------------------------------------------
# The interactive views on a pseudo-terminal

class Pty:
    """tfviz on a fresh pseudo-terminal of 120 x 40; the output is read as it comes."""

    def __init__(self, args, preexec=None):
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        self.before = termios.tcgetattr(self.slave)

        def setup():
            no_core()
            if preexec:
                preexec()
        self.p = subprocess.Popen([TFVIZ, *args], stdin=self.slave, stdout=self.slave,
                                  stderr=self.slave, env=env(), preexec_fn=setup,
                                  start_new_session=True)
        self.out = b""

    def read(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            r, _, _ = select.select([self.master], [], [], max(0.0, end - time.monotonic()))
            if not r:
                break
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.out += chunk

    def wait_frame(self, timeout=20):
        """Until the alternate screen is up and drawing has paused for 0.2 s."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.p.poll() is None:
            n = len(self.out)
            self.read(0.2)
            if SMCUP in self.out and len(self.out) == n and len(self.out) - self.out.find(SMCUP) > 500:
                return True
        return False

    def finish(self, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.p.poll() is None:
            self.read(0.05)
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
            return None
        self.read(0.05)
        return self.p.returncode

    def restored(self):
        return termios.tcgetattr(self.slave) == self.before

    def left_screen(self):
        return self.out.rfind(RMCUP) > self.out.rfind(SMCUP)

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        os.close(self.master)
        os.close(self.slave)


def interactive(args, what):
    for sig in chosen():
        t = Pty(args)
        try:
            up = t.wait_frame()
            check(up, f"{what} {name(sig)}: first frame")
            if not up:
                continue
            os.kill(t.p.pid, sig)
            rc = t.finish()
            if sig in CRASH:  # ends by the signal (or a sanitizer's report of it)
                ok = rc is not None and rc != 0
            else:
                ok = rc == 128 + sig
            check(ok, f"{what} {name(sig)}: ends ({rc})")
            check(t.restored(), f"{what} {name(sig)}: terminal modes as before (stty -g)")
            check(t.left_screen(), f"{what} {name(sig)}: the alternate screen is left")
        finally:
            t.close()


def test_explorer():
    interactive(["--lang", "en"], "explorer")


def test_lesson():
    interactive(["--lesson", "--lang", "en"], "lesson")


# ---------------------------------------------------------------------------------------------
# Output files

def temporaries(d):
    return [x for x in os.listdir(d) if ".tmp-" in x]


def during_write(args, out_name, what, sig, cwd, grow=0):
    """Start tfviz writing out_name in cwd, send sig once its temporary file exists (and has
    grown past `grow` bytes); return (returncode, stderr)."""
    out = os.path.join(cwd, out_name)
    with open(out, "wb") as f:
        f.write(OLD)
    p = subprocess.Popen([TFVIZ, *args], cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env(),
                         preexec_fn=no_core)
    end = time.monotonic() + 60
    sent = False
    while time.monotonic() < end and p.poll() is None:
        tmps = temporaries(cwd)
        if tmps:
            try:
                size = os.path.getsize(os.path.join(cwd, tmps[0]))
            except OSError:
                size = -1
            if size >= grow:
                p.send_signal(sig)
                sent = True
                break
        time.sleep(0.002)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    check(sent, f"{what} {name(sig)}: the temporary file was there to interrupt")
    return p.returncode, err


def writer(args, out_name, what, grow=0):
    with tempfile.TemporaryDirectory(prefix="tfviz-sig-") as d:
        for sig in chosen():
            rc, err = during_write(args, out_name, what, sig, d, grow)
            if sig in CRASH:
                ok = rc is not None and rc != 0
            else:
                ok = rc == -sig
            check(ok, f"{what} {name(sig)}: ends by the signal ({rc}) {err[-200:]!r}")
            check(temporaries(d) == [], f"{what} {name(sig)}: no temporary file left")
            check(open(os.path.join(d, out_name), "rb").read() == OLD,
                  f"{what} {name(sig)}: the old file is intact")


def test_output():
    writer(["--print", "pe", "--format", "csv", "-d", "16", "-n", "1000000", "-o", "pe.csv"],
           "pe.csv", "-o", grow=1)


def test_export():
    writer(["--export", "fig.png", "--dpi", "1200", "--width", "5in", "--height", "5in"],
           "fig.png", "--export")


def corpus(d):
    """A corpus of 3,000 distinct words, each seen twice."""
    path = os.path.join(d, "corpus.txt")
    words = [f"w{i}" for i in range(3000)]
    with open(path, "w") as f:
        for k in range(0, len(words), 10):
            f.write(" ".join(words[k:k + 10]) + "\n")
            f.write(" ".join(reversed(words[k:k + 10])) + "\n")
    return path


def test_train():
    with tempfile.TemporaryDirectory(prefix="tfviz-corpus-") as c:
        writer(["--train", "--corpus", corpus(c), "-d", "300", "--epochs", "1", "-o", "v.vec"],
               "v.vec", "--train -o")


# ---------------------------------------------------------------------------------------------
# Ignored signals, and the file size limit

IGNORABLE = [signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2,
             signal.SIGPIPE, signal.SIGALRM, signal.SIGTERM, signal.SIGVTALRM, signal.SIGPROF,
             signal.SIGXFSZ]


def ignore_all():
    no_core()
    for s in IGNORABLE:
        signal.signal(s, signal.SIG_IGN)


def test_ignored():
    with tempfile.TemporaryDirectory(prefix="tfviz-sig-") as d:
        out = os.path.join(d, "pe.csv")
        p = subprocess.Popen([TFVIZ, "--print", "pe", "--format", "csv", "-d", "16", "-n",
                              "100000", "-o", out], cwd=d, stderr=subprocess.PIPE, env=env(),
                             preexec_fn=ignore_all)
        end = time.monotonic() + 30
        while time.monotonic() < end and not temporaries(d) and p.poll() is None:
            time.sleep(0.002)
        check(bool(temporaries(d)), "ignored: the temporary file was there to interrupt")
        for s in IGNORABLE:
            if p.poll() is None:
                p.send_signal(s)
        _, err = p.communicate(timeout=60)
        check(p.returncode == 0, f"ignored: nohup-style ignored signals do not end -o "
                                 f"({p.returncode}, {err.decode(errors='replace')!r})")
        rows = open(out, "rb").read().count(b"\n") if os.path.exists(out) else 0
        check(rows == 100001, f"ignored: the file is complete ({rows} lines)")
    t = Pty(["--lang", "en"], preexec=lambda: [signal.signal(s, signal.SIG_IGN)
                                               for s in (signal.SIGHUP, signal.SIGUSR1)])
    try:
        check(t.wait_frame(), "ignored: explorer's first frame")
        os.kill(t.p.pid, signal.SIGHUP)
        os.kill(t.p.pid, signal.SIGUSR1)
        t.read(0.5)
        check(t.p.poll() is None, "ignored: the explorer runs on after ignored HUP and USR1")
        os.write(t.master, b"q")
        rc = t.finish()
        check(rc == 0 and t.restored() and t.left_screen(),
              f"ignored: q still ends the explorer ({rc}), terminal restored")
    finally:
        t.close()


def test_xfsz():
    def limit():
        no_core()
        resource.setrlimit(resource.RLIMIT_FSIZE, (102400, 102400))
    cases = [("-o", ["--print", "pe", "--format", "csv", "-n", "2000", "-o", "out.csv"],
              "out.csv"),
             ("--export", ["--export", "fig.png", "--dpi", "600"], "fig.png"),
             ("stdout", ["--print", "pe", "--format", "csv", "-n", "2000"], None)]
    for what, args, out_name in cases:
        with tempfile.TemporaryDirectory(prefix="tfviz-xfsz-") as d:
            target = os.path.join(d, out_name or "redirected.csv")
            with open(target, "wb") as f:
                f.write(OLD)
            stdout = open(target, "ab") if out_name is None else subprocess.DEVNULL
            p = subprocess.run([TFVIZ, *args], cwd=d, stdout=stdout, stderr=subprocess.PIPE,
                               env=env(), preexec_fn=limit, timeout=60)
            if out_name is None:
                stdout.close()
            err = p.stderr.decode(errors="replace")
            check(p.returncode == 1, f"xfsz {what}: exit 1, not killed by SIGXFSZ "
                                     f"({p.returncode})")
            check("file size limit" in err and err.count("\n") == 1,
                  f"xfsz {what}: one sentence naming the file size limit ({err.strip()!r})")
            check(temporaries(d) == [], f"xfsz {what}: no temporary file left")
            if out_name:
                check(open(target, "rb").read() == OLD, f"xfsz {what}: the old file is intact")


def main():
    global TFVIZ
    TFVIZ = os.path.abspath(sys.argv[1])
    return run_group(globals(), sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
