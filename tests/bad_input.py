#!/usr/bin/env python3
"""The bad-input matrix: run tfviz once per line of bad_input.data and check the outcome.

Usage: bad_input.py TFVIZ bad_input.data [DOC]
Prints TAP, one test per case. With DOC (docs/bad-input.md), also checks that every case id
appears in the document's table, so the table and the tests cannot drift apart."""
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

OLD = b"old contents, must survive\n"
# Under a wrapper (valgrind, tests/meson.build's memcheckcli setup) these sections are left to the
# plain and the sanitizer build (whose AddressSanitizer checks the same memory): they test how
# output is written (figures through cairo and pango, the output-file module, pipes), and
# valgrind makes each of their cases take several seconds.
NOT_WRAPPED = ("output files",)
# TFVIZ_WRAPPER (e.g. valgrind) runs before tfviz; TFVIZ_TIME_SCALE stretches time limits for it
WRAPPER = [w.encode() for w in os.environ.get("TFVIZ_WRAPPER", "").split()]
TIME_SCALE = float(os.environ.get("TFVIZ_TIME_SCALE", "1"))


def unescape(s):
    """\\xHH -> that byte, \\uXXXX and \\t -> UTF-8; everything else as UTF-8."""
    out = bytearray()
    i = 0
    while i < len(s):
        if s.startswith("\\x", i):
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
        elif s.startswith("\\u", i):
            out += chr(int(s[i + 2:i + 6], 16)).encode()
            i += 6
        elif s.startswith("\\t", i):
            out += b"\t"
            i += 2
        elif s.startswith("\\n", i):
            out += b"\n"
            i += 2
        else:
            out += s[i].encode()
            i += 1
    return bytes(out)


def parse(path):
    cases = []
    section = ""
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("# --- "):
            section = line[6:].strip()
        if not line.strip() or line.startswith("#"):
            continue
        f = [x.strip() for x in line.rstrip("\n").split("|", 4)]
        if len(f) != 5:
            raise SystemExit(f"{path}:{n}: expected 5 fields")
        setup = {}
        for item in filter(None, (x.strip() for x in f[3].split(","))):
            k, _, v = item.partition("=")
            setup[k] = v
        lex = shlex.shlex(f[4], posix=True)
        lex.whitespace_split, lex.escape = True, ""  # backslashes are ours (\xHH), not the shell's
        cases.append({"id": f[0], "exit": f[1], "needle": f[2], "setup": setup, "args": list(lex),
                      "section": section})
    return cases


def stdin_bytes(spec):
    m = re.fullmatch(r"(\d+)([KM]?)\*(.*)", spec, re.S)
    if m:
        n = int(m.group(1)) * {"": 1, "K": 1024, "M": 1 << 20}[m.group(2)]
        return unescape(m.group(3)) * n
    return unescape(spec)


def temp_files(d):
    return [x for x in os.listdir(d) if ".tmp-" in x]


def run_case(tfviz, c, d):
    out = os.path.join(d, c["setup"].get("out", "out.dat"))
    if "file" in c["setup"]:  # NAME:CONTENT, a data file the case reads
        name, _, body = c["setup"]["file"].partition(":")
        with open(os.path.join(d.encode(), unescape(name)), "wb") as f:
            f.write(unescape(body))
    if "mkdir" in c["setup"]:
        os.mkdir(os.path.join(d, c["setup"]["mkdir"]))
    subst = {"{out}": out, "{dir}": d, "{100k}": "a" * 100000, "{300x}": "x" * 300}
    args = []
    for a in c["args"]:
        for k, v in subst.items():
            a = a.replace(k, v)
        args.append(unescape(a))
    s = c["setup"]
    if "old" in s:
        with open(out, "wb") as f:
            f.write(OLD)
    within = float(s.get("within", 20)) * TIME_SCALE

    def preexec():
        # default actions whatever the runner ignores (a background job ignores SIGQUIT and
        # SIGINT, nohup SIGHUP): the "signal" cases expect tfviz to die of the signal it gets
        for n in ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGPIPE", "SIGXFSZ"):
            signal.signal(getattr(signal, n), signal.SIG_DFL)
        if "fsize" in s:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (int(s["fsize"]),) * 2)
        if "nopipesig" in s:
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    stdin, own_fd = subprocess.DEVNULL, None
    data = None
    if "stdin" in s:
        if s["stdin"] == "/":
            stdin = own_fd = os.open("/", os.O_RDONLY)
        else:
            stdin, data = subprocess.PIPE, stdin_bytes(s["stdin"])
    stdout = subprocess.PIPE
    if s.get("stdout") == "full":
        stdout = open("/dev/full", "wb")
    env = dict(os.environ, LC_ALL="C.UTF-8")
    if "data" in s:  # a data directory with a missing or damaged dictionary or BPE table
        dd = os.path.join(d, "data")
        env["TFVIZ_DATA_DIR"] = dd
        if s["data"] == "long":  # longer than PATH_MAX: no file can be opened under it
            env["TFVIZ_DATA_DIR"] = os.path.join(d, "x" * 5000)
        elif s["data"] != "missing":
            name, how = s["data"].split(":")
            os.mkdir(dd)
            target = os.path.join(dd, name)
            real_path = os.path.join(os.environ.get("TFVIZ_DATA_DIR", ""), name)
            real = open(real_path, "rb").read() if how in ("half", "hugecount", "hugevocab") else b""
            if how == "dir":
                os.mkdir(target)
            else:
                body = {"empty": b"", "garbage": b"\x00not a table\n" * 100,
                        "half": real[:len(real) // 2],
                        "hugecount": real[:8] + b"\xf0\xff\xff\xff" + real[12:],
                        "hugevocab": real[:24] + (20000000).to_bytes(4, "little") + real[28:]}[how]
                with open(target, "wb") as f:
                    f.write(body)
    t0 = time.monotonic()
    p = subprocess.Popen([*WRAPPER, tfviz.encode(), *args], stdin=stdin, stdout=stdout,
                         stderr=subprocess.PIPE, preexec_fn=preexec, env=env)
    if own_fd is not None:
        os.close(own_fd)
    if stdout is not subprocess.PIPE:
        stdout.close()

    def feed():  # the program may stop reading early: that is the point
        try:
            p.stdin.write(data)
        except (BrokenPipeError, OSError):
            pass
        try:
            p.stdin.close()
        except (BrokenPipeError, OSError):
            pass
    feeder = threading.Thread(target=feed) if data is not None else None
    if feeder:
        feeder.start()

    got_out = b""
    if "signal" in s:  # wait for the temporary file to grow, then interrupt
        sig = getattr(signal, s["signal"])
        while time.monotonic() - t0 < within and p.poll() is None:
            tmps = temp_files(d)
            if tmps and os.path.getsize(os.path.join(d, tmps[0])) > (1 << 20):
                p.send_signal(sig)
                break
            time.sleep(0.01)
    if "head" in s:  # read N bytes, then close the pipe as head does
        got_out = p.stdout.read(int(s["head"]))
        p.stdout.close()
    try:
        if p.stdout and not p.stdout.closed:
            got_out = p.stdout.read()
        err = p.stderr.read()
        p.wait(timeout=max(0.1, within - (time.monotonic() - t0)))
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return [f"did not end within {within:g} s"]
    elapsed = time.monotonic() - t0
    if feeder:
        feeder.join()

    problems = []
    rc = p.returncode
    want = c["exit"]
    if want.startswith("SIG"):
        if rc != -getattr(signal, want):
            problems.append(f"exit {rc}, want killed by {want}")
    elif rc != int(want):
        problems.append(f"exit {rc}, want {want}")
    if rc < 0 and not want.startswith("SIG"):
        problems.append(f"crashed with signal {-rc}")
    text = err.decode("utf-8", "replace")
    if c["needle"] == "-":
        if err:
            problems.append(f"stderr not empty: {text.strip()!r}")
    elif c["needle"] not in text:
        problems.append(f"stderr lacks {c['needle']!r}: {text.strip()!r}")
    if err.count(b"\n") > 1 or "Sanitizer" in text or "runtime error" in text:
        problems.append(f"stderr is more than one sentence: {text!r}")
    if re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", err):
        problems.append("raw control characters on stderr")
    if want == "2" and got_out:
        problems.append(f"standard output on a refusal: {got_out[:80]!r}")
    if s.get("stdout") == "safe":
        if not got_out:
            problems.append("no output")
        if re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xa8-\xae]|"
                     rb"\xe2\x81[\xa6-\xa9]", got_out):
            problems.append("raw control characters in standard output")
    if "nostdout" in s and unescape(s["nostdout"]) in got_out:
        problems.append(f"standard output holds {s['nostdout']!r}")
    if "old" in s and rc != 0:
        if not os.path.exists(out) or open(out, "rb").read() != OLD:
            problems.append("the old file was changed")
    if temp_files(d):
        problems.append(f"temporary files left: {temp_files(d)}")
    if elapsed > within:
        problems.append(f"took {elapsed:.1f} s (limit {within:g} s)")
    return problems


def main():
    tfviz, data = sys.argv[1], sys.argv[2]
    cases = parse(data)
    # rows that damage a real data file need it built (assets/meson.build)
    have = {"dict": os.path.isfile(os.path.join(os.environ.get("TFVIZ_DATA_DIR", ""), "tfviz-dict.bin")),
            "bpe": os.path.isfile(os.path.join(os.environ.get("TFVIZ_DATA_DIR", ""), "tfviz-cl100k.bin"))
            and os.environ.get("TFVIZ_HAVE_PCRE2", "1") == "1"}
    doc = open(sys.argv[3], encoding="utf-8").read() if len(sys.argv) > 3 else None
    every = cases
    if WRAPPER:
        cases = [c for c in cases if c["section"] not in NOT_WRAPPED]
        print(f"# under {WRAPPER[0].decode()}: {len(cases)} of {len(every)} cases (the sections "
              f"{', '.join(NOT_WRAPPED)} run in the plain and sanitizer builds)")
    print(f"1..{len(cases) + (1 if doc else 0)}")
    failed = 0
    for i, c in enumerate(cases, 1):
        need = c["setup"].get("needs")
        if need and not have[need]:
            print(f"ok {i} - {c['id']} # SKIP the {need} data file is not built")
            continue
        with tempfile.TemporaryDirectory(prefix="tfviz-bad-") as d:
            try:
                problems = run_case(tfviz, c, d)
            except Exception as e:  # the harness itself failing is a failure of the case
                problems = [f"harness: {e!r}"]
        if problems:
            failed += 1
            print(f"not ok {i} - {c['id']}: {'; '.join(problems)}")
        else:
            print(f"ok {i} - {c['id']}")
    if doc is not None:
        missing = [c["id"] for c in every if f"`{c['id']}`" not in doc]
        if missing:
            failed += 1
            print(f"not ok {len(cases) + 1} - docs/bad-input.md lacks rows: {', '.join(missing)}")
        else:
            print(f"ok {len(cases) + 1} - every case is in docs/bad-input.md")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
