#!/usr/bin/env python3
"""Output files and other people's links: -o, --export and --train -o never follow a symbolic
link to decide where to write, and never hand on a set-user-ID, set-group-ID or sticky bit.

Usage: outfile_owner_test.py TFVIZ GROUP
  root   tfviz runs as root; the links and files are planted by the user `nobody` in a sticky,
         world-writable folder (as in /tmp): the file a link names is never written, the link
         itself is replaced by a root-owned file, and a nobody-owned 4755 file replaced by root
         does not become a root-owned set-user-ID program
  user   tfviz runs as an ordinary user (nobody, when the test runs as root): a link to a file
         the user cannot write is replaced, not written through; a hard link keeps the old
         contents; the user's own set-user-ID file loses the bit when replaced
Skipped (exit 77, with the reason) where the users cannot be switched: not root for `root`, and
neither runuser nor setpriv for either group when running as root. The program run as nobody is
staged first, with its data and the leak suppressions, in a temporary folder nobody can read: the
build may sit in a home other users cannot enter (root's is 0700).

Prints TAP-like "ok"/"not ok" lines (tests/harness.py)."""
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run_group  # noqa: E402

TFVIZ = None
SECRET = b"the victim's own contents\n"


def skip(reason):
    print(f"# skipped: {reason}")
    sys.exit(77)


def as_nobody():
    """The command prefix that runs a program as nobody (runuser, else setpriv)."""
    try:
        pw = pwd.getpwnam("nobody")
    except KeyError:
        skip("there is no user nobody to plant the files")
    if shutil.which("runuser"):
        return ["runuser", "-u", "nobody", "--"], pw
    if shutil.which("setpriv"):
        return ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups"], pw
    skip("neither runuser nor setpriv is installed to act as another user")


def nobody(prefix, *cmd):
    subprocess.run([*prefix, *cmd], check=True, timeout=30)


def tfviz(prefix, args, cwd, staged=None):
    """Runs tfviz as prefix says: the build's own, or the copy staged for another user."""
    env = dict(os.environ, LC_ALL="C.UTF-8")
    program = TFVIZ
    if staged:
        program = staged["tfviz"]
        env.update(staged["env"])
    return subprocess.run([*prefix, program, *args], cwd=cwd, capture_output=True, env=env,
                          timeout=120)


def stage():
    """A copy of tfviz, its data folder and the leak suppressions in a temporary folder anyone
    may read and run from, for a user who cannot enter the folders the build is in."""
    top = tempfile.mkdtemp(prefix="tfviz-staged-")
    os.chmod(top, 0o755)
    program = os.path.join(top, "tfviz")
    shutil.copy2(TFVIZ, program)
    os.chmod(program, 0o755)
    env = {}
    data = os.environ.get("TFVIZ_DATA_DIR")
    if data and os.path.isdir(data):
        env["TFVIZ_DATA_DIR"] = os.path.join(top, "data")
        shutil.copytree(data, env["TFVIZ_DATA_DIR"], symlinks=False)
    lsan = os.environ.get("LSAN_OPTIONS", "")
    m = re.search(r"suppressions=([^:]+)", lsan)
    if m and os.path.isfile(m.group(1)):
        supp = os.path.join(top, "lsan.supp")
        shutil.copy2(m.group(1), supp)
        env["LSAN_OPTIONS"] = lsan.replace(m.group(0), "suppressions=" + supp)
    for root, dirs, files in os.walk(top):
        for n in dirs:
            os.chmod(os.path.join(root, n), 0o755)
        for n in files:
            path = os.path.join(root, n)
            os.chmod(path, os.stat(path).st_mode | 0o444)
    return {"top": top, "tfviz": program, "env": env}


def writers(path):
    """The three ways tfviz writes a file, each onto path."""
    return [("-o", ["--print", "pe", "-d", "4", "-n", "2", "--format", "csv", "-o", path]),
            ("--export", ["--export", path]),
            ("--train -o", ["--train", "--epochs", "1", "-d", "8", "-o", path])]


def shared_folder():
    d = tempfile.mkdtemp(prefix="tfviz-sticky-")
    os.chmod(d, 0o1777)
    return d


def victim_folder():
    v = tempfile.mkdtemp(prefix="tfviz-victim-")
    victim = os.path.join(v, "victim.txt")
    with open(victim, "wb") as f:
        f.write(SECRET)
    os.chmod(victim, 0o600)
    os.chmod(v, 0o755)  # nobody may name the victim, not write it
    return v, victim


def intact(victim, what):
    st = os.stat(victim)
    check(open(victim, "rb").read() == SECRET and stat.S_IMODE(st.st_mode) == 0o600,
          f"{what}: the file the link named is untouched (mode {stat.S_IMODE(st.st_mode):o})")


def test_root():
    if os.geteuid() != 0:
        skip("the root case needs to run as root (CI runs as root)")
    prefix, pw = as_nobody()
    d = shared_folder()
    v, victim = victim_folder()
    try:
        for what, _ in writers(""):
            name = {"-o": "out.csv", "--export": "fig.png", "--train -o": "v.vec"}[what]
            link = os.path.join(d, name)
            nobody(prefix, "ln", "-s", victim, link)
            args = dict(writers(link))[what]
            p = tfviz([], args, d)
            check(p.returncode == 0, f"root {what} onto nobody's link: exit 0 ({p.returncode}, "
                                     f"{p.stderr.decode(errors='replace').strip()!r})")
            intact(victim, f"root {what}")
            st = os.lstat(link)
            check(stat.S_ISREG(st.st_mode) and st.st_uid == 0,
                  f"root {what}: the link itself is now root's regular file")
            # a dangling link: nothing is created where it pointed
            later = os.path.join(v, "later-" + name)
            dangling = os.path.join(d, "dangling-" + name)
            nobody(prefix, "ln", "-s", later, dangling)
            p = tfviz([], dict(writers(dangling))[what], d)
            check(p.returncode == 0 and not os.path.lexists(later) and
                  stat.S_ISREG(os.lstat(dangling).st_mode),
                  f"root {what} onto a dangling link: the link replaced, nothing made at its "
                  f"target")
            # nobody's set-user-ID file, replaced by root
            tool = os.path.join(d, "tool-" + name)
            nobody(prefix, "sh", "-c", f"echo x > '{tool}' && chmod 4755 '{tool}'")
            p = tfviz([], dict(writers(tool))[what], d)
            st = os.stat(tool)
            check(p.returncode == 0 and st.st_mode & 0o7000 == 0 and
                  stat.S_IMODE(st.st_mode) == 0o755,
                  f"root {what} over nobody's 4755 file: mode {stat.S_IMODE(st.st_mode):o}, no "
                  f"set-user-ID bit")
        check([x for x in os.listdir(d) if ".tmp-" in x] == [], "root: no temporary file left")
    finally:
        shutil.rmtree(d)
        shutil.rmtree(v)


def test_user():
    prefix, staged = [], None
    if os.geteuid() == 0:
        prefix, pw = as_nobody()
        staged = stage()
    u = tempfile.mkdtemp(prefix="tfviz-user-")
    v, victim = victim_folder()
    try:
        if prefix:
            os.chown(u, pwd.getpwnam("nobody").pw_uid, -1)
        else:  # an ordinary user: the victim is this user's own, made read-only
            os.chmod(victim, 0o600)
        link = os.path.join(u, "out.csv")
        os.symlink(victim, link)
        p = tfviz(prefix, dict(writers(link))["-o"], u, staged)
        check(p.returncode == 0, f"user -o onto a link to a file it cannot write: exit 0 "
                                 f"({p.returncode}, {p.stderr.decode(errors='replace').strip()!r})")
        intact(victim, "user -o")
        check(stat.S_ISREG(os.lstat(link).st_mode), "user -o: the link itself is replaced")
        # hard links: the name given gets the new file, the other name keeps the old one
        a, b = os.path.join(u, "a.csv"), os.path.join(u, "b.csv")
        sh = f"printf old > '{a}' && ln '{a}' '{b}' && chmod 4755 '{a}'"
        subprocess.run([*prefix, "sh", "-c", sh], check=True)
        p = tfviz(prefix, dict(writers(a))["-o"], u, staged)
        st = os.stat(a)
        check(p.returncode == 0 and open(b, "rb").read() == b"old" and
              open(a, "rb").read().startswith(b"pos,"),
              "user -o onto one of two hard links: the other keeps the old contents")
        check(st.st_mode & 0o7000 == 0 and stat.S_IMODE(st.st_mode) == 0o755,
              f"user -o over its own 4755 file: mode {stat.S_IMODE(st.st_mode):o}")
    finally:
        shutil.rmtree(u)
        shutil.rmtree(v)
        if staged:
            shutil.rmtree(staged["top"])


def main():
    global TFVIZ
    TFVIZ = os.path.abspath(sys.argv[1])
    return run_group(globals(), sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
