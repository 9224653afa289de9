"""Shared by the command-line test scripts: "ok"/"not ok" lines, running tfviz, and running one
group of checks named on the command line (meson runs each group as its own test)."""
import subprocess
import sys

FAILS = []


def check(cond, what):
    """Report one check; a failed one is remembered and fails the group."""
    print(f"{'ok' if cond else 'not ok'} - {what}")
    if not cond:
        FAILS.append(what)


def percent(frac):
    """A share as tfviz writes it (emit_percent): 18%, 4.2%, 0.031%."""
    p = 100 * frac
    return f"{p:.0f}%" if p >= 9.95 else f"{p:.1f}%" if p >= 0.995 else f"{p:.2g}%"


def run_tfviz(tfviz, args, ok=True, timeout=120, **kw):
    """Run tfviz with args; with ok, a non-zero exit raises with its stderr."""
    p = subprocess.run([tfviz, *args], capture_output=True, timeout=timeout, **kw)
    if ok and p.returncode != 0:
        raise AssertionError(f"tfviz {' '.join(args)} exited {p.returncode}: {p.stderr.decode()}")
    return p


def run_group(namespace, group, *args):
    """Call test_<group>(*args) from namespace; return the exit status for meson."""
    fn = namespace.get(f"test_{group}")
    if fn is None:
        print(f"unknown group {group}", file=sys.stderr)
        return 2
    try:
        fn(*args)
    except Exception as e:  # a crash in a group is a failure, with its message
        FAILS.append(repr(e))
        print(f"not ok - {group}: {e!r}")
    if FAILS:
        print(f"{len(FAILS)} check(s) failed in {group}", file=sys.stderr)
        return 1
    return 0
