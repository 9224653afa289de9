#!/usr/bin/env python3
"""check_structure.py — the shape docs/architecture.md draws, checked on the sources.

    scripts/check_structure.py [SOURCE_ROOT]     (the `structure` test; `ninja -C build lint`)

Prints TAP. It checks:

1. Layers. Every #include "..." of model/, render/ and app/ names a file that exists, and only
   downward or within its own folder:

       model  <  render  <  app/core  <  app/learn  <  app/print, app/figures, app/tui  <  app/*.c
                                                     (front-ends: never each other)

   model/ is the mathematics and includes only itself; render/ draws and may use model/; the
   core of app/ (errors, output files, strings, options) may use both; app/learn (the training
   that --print's learned topics, --train and view 8 share) sits on the core; the front-ends
   include the core, learn, render and model but not each other; only the top (main.c, cli.c,
   docs_main.c) knows every front-end. Headers of app/ are named with their folder
   ("core/err.h"), so a name says where it lives.
2. No include circle among the headers.
3. No function longer than 80 lines unless the comment above it says why, with a line that
   starts "Long:" (a table that reads better whole, a state machine, ...).
4. The figures are listed in one place, the table of app/figures/export.c: no other source,
   test or script quotes four of their names within a few lines (a list kept by hand, which a
   new figure would miss; they read the table through tfviz-options-docs figures), and the
   figure table of docs/guide.md has a row for each.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
ROOT = os.path.abspath(ROOT)
MAX_LINES = 80

# folder -> layer; peers share a layer and may not include each other
LAYERS = {"model": 0, "render": 1, "app/core": 2, "app/learn": 3, "app/print": 4,
          "app/figures": 4, "app/tui": 4, "app": 5}
GENERATED = {"tf_config.h",  # made by meson in the build directory
             "core/strings_en.h"}  # scripts/gen_strings_en.py, from app/core/strings.c

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

results = []


def check(cond, what, detail=""):
    results.append((cond, what, detail))


def sources():
    for top in ("model", "render", "app"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, f), ROOT)


def folder(path):
    return os.path.dirname(path)


def resolve(src, name):
    """The file an #include "name" in src means, or None (generated or missing)."""
    if name in GENERATED:
        return None
    here = folder(src)
    candidates = []
    if here.startswith("app"):
        candidates.append(os.path.join("app", name))  # "core/err.h"; app/ is the include root
        if "/" not in name:
            candidates += [os.path.join("model", name), os.path.join("render", name)]
            if here == "app":
                candidates.insert(0, os.path.join("app", name))
    else:
        candidates += [os.path.join(here, name), os.path.join("model", name),
                       os.path.join("render", name)]
    for c in candidates:
        if os.path.isfile(os.path.join(ROOT, c)):
            return c
    return False


def check_layers(files):
    graph = {}
    bad = []
    for src in files:
        with open(os.path.join(ROOT, src), encoding="utf-8") as f:
            text = f.read()
        graph[src] = []
        for name in INCLUDE.findall(text):
            dst = resolve(src, name)
            if dst is None:
                continue
            if dst is False:
                bad.append(f'{src}: #include "{name}" names no file of model/, render/ or app/')
                continue
            graph[src].append(dst)
            a, b = folder(src), folder(dst)
            if a.startswith("app/") and b == a and "/" not in name:
                bad.append(f'{src}: #include "{name}": name the folder ("{b[4:]}/{name}")')
            if a == b:
                continue
            la, lb = LAYERS.get(a), LAYERS.get(b)
            if la is None or lb is None:
                bad.append(f"{src}: {a or b} is not a folder of docs/architecture.md")
            elif lb > la:
                bad.append(f'{src} ({a}) includes "{name}" from {b}, a layer above it')
            elif lb == la:
                bad.append(f'{src} ({a}) includes "{name}" from {b}: front-ends do not include '
                           f"each other (main.c and cli.c join them)")
    check(not bad, "includes go only down the layers (model < render < core < learn < "
          "front-ends < main)", "\n".join(bad))
    return graph


def check_circles(graph):
    headers = {k: [d for d in v if d.endswith(".h")] for k, v in graph.items() if k.endswith(".h")}
    circles = []
    state = {}

    def visit(n, stack):
        state[n] = 1
        stack.append(n)
        for m in headers.get(n, []):
            if state.get(m) == 1:
                circles.append(" -> ".join(stack[stack.index(m):] + [m]))
            elif m not in state:
                visit(m, stack)
        stack.pop()
        state[n] = 2

    for h in sorted(headers):
        if h not in state:
            visit(h, [])
    check(not circles, "no include circle among the headers", "\n".join(circles))


# A function definition in the house style: its head starts at column 0, "{" stands alone on
# the next line and "}" alone at column 0 ends it. (One-line functions are short anyway.)
NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def functions(path):
    """(name, first line, number of lines, the comment above) of each function in path."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    for j, brace in enumerate(lines):
        if brace != "{":
            continue
        i = j - 1  # back to the head's first line: the one at column 0
        while i > 0 and lines[i][:1] in (" ", "\t"):
            i -= 1
        head = " ".join(lines[i:j])
        m = NAME.search(head)
        if not m or head.startswith(("typedef", "struct", "enum", "union", "#")):
            continue
        k = j + 1
        while k < len(lines) and lines[k] != "}":
            k += 1
        c = i  # the comment above: back to the blank line
        while c > 0 and lines[c - 1].strip() and lines[c - 1] != "}":
            c -= 1
        yield m.group(1), i + 1, k - i + 1, "\n".join(lines[c:i])


def check_lengths(files):
    long_ = []
    for src in files:
        if not src.endswith(".c"):
            continue
        for name, line, n, comment in functions(src):
            if n > MAX_LINES and not re.search(r"^\s*(/\*|\*)\s*Long:", comment, re.M):
                long_.append(f"{src}:{line}: {name} is {n} lines; split it, or say why in its "
                             f'comment ("Long: ...")')
    check(not long_, f"no function over {MAX_LINES} lines without a reason", "\n".join(long_))


# A document named in the code, the tests or the docs ("docs/claims.md", "claims.md").
DOC = re.compile(r"(?<![\w./-])((?:docs/)?[a-z][a-z0-9-]*\.md)\b")


def check_cited_docs(files):
    """Every markdown file the sources, tests, scripts and docs cite is in the repository."""
    cited = list(files)
    for top in ("tests", "scripts", "docs"):
        for d, _, names in os.walk(os.path.join(ROOT, top)):
            cited += [os.path.relpath(os.path.join(d, f), ROOT) for f in names
                      if f.endswith((".c", ".h", ".py", ".sh", ".md", ".build"))]
    missing = []
    for src in sorted(cited):
        with open(os.path.join(ROOT, src), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name in sorted(set(DOC.findall(text))):
            base = name[5:] if name.startswith("docs/") else name
            if not any(os.path.isfile(os.path.join(ROOT, p)) for p in (base, "docs/" + base)):
                missing.append(f"{src}: cites {name}, which is not in the repository")
    check(not missing, "every document the code, tests and docs cite exists", "\n".join(missing))


def check_view_count():
    """docs/architecture.md counts the views app/tui/view.h declares (TUI_VIEWS)."""
    with open(os.path.join(ROOT, "app/tui/view.h"), encoding="utf-8") as f:
        n = int(re.search(r"#define TUI_VIEWS (\d+)", f.read()).group(1))
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
             "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"]
    with open(os.path.join(ROOT, "docs/architecture.md"), encoding="utf-8") as f:
        said = re.findall(r"the (\w+) views", f.read())
    wrong = [w for w in said if w in words and words.index(w) != n]
    check(said and not wrong, f"docs/architecture.md counts the {n} views of view.h",
          f"it says: {', '.join(said) or 'no count'}")


# What only app/core/tempfile.c and signals.c do: temporary files and the state signal handlers
# read (git keeps tempfile.c and lockfile.c apart from its object code too).
FILE_STATE = re.compile(r"\b(rename|unlink|remove|mkstemp|mkdtemp)\s*\(|\bO_CREAT\b|"
                        r"\bsig_atomic_t\b|<signal\.h>")


def check_model_pure(files):
    """model/ computes: it creates, renames and removes no file and keeps no signal state."""
    bad = []
    for src in files:
        if not src.startswith("model/"):
            continue
        with open(os.path.join(ROOT, src), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if FILE_STATE.search(line):
                    bad.append(f"{src}:{n}: {line.strip()} (temporary files and signal state "
                               f"live in app/core/tempfile.c and signals.c)")
    check(not bad, "model/ makes no files and keeps no signal state", "\n".join(bad))


# A front-end's own list of every position scheme ("static const tf_scheme all[] = {...}").
SCHEME_LIST = re.compile(r"\btf_scheme\s+\w+\s*\[\w*\]\s*=\s*\{([^}]*)\}")
SCHEMES = ("NONE", "SINUSOIDAL", "LEARNED", "ROPE", "ALIBI", "T5")


def check_scheme_lists(files):
    """All six schemes side by side come from model/ (posctx_curves_list), in one order: app/
    keeps no list of them of its own (a list of some, such as the order training's default,
    is a choice, not the list)."""
    bad = []
    for src in files:
        if not src.startswith("app/"):
            continue
        with open(os.path.join(ROOT, src), encoding="utf-8") as f:
            text = f.read()
        for m in SCHEME_LIST.finditer(text):
            if all(re.search(r"\bSCHEME_" + s + r"\b", m.group(1)) for s in SCHEMES):
                n = text.count("\n", 0, m.start()) + 1
                bad.append(f"{src}:{n}: every scheme listed again; take posctx_curves_list's "
                           f"(model/positions.h)")
    check(not bad, "app/ lists the position schemes only through model/", "\n".join(bad))


TABLE = "app/figures/export.c"
LIST_LINES = 6  # four names quoted within this many lines are a list


def figure_names():
    with open(os.path.join(ROOT, TABLE), encoding="utf-8") as f:
        text = f.read()
    table = text[text.index("figures[] = {"):]
    table = table[:table.index("\n};")]
    return re.findall(r'\{\s*\.name = "([a-z0-9-]+)"', table)


def topic_names():
    """The --print topics: many share a figure's name (pe, rope, order, ...)."""
    found = set()
    for d, _, fs in os.walk(os.path.join(ROOT, "app", "print")):
        for f in fs:
            if f.endswith(".c"):
                with open(os.path.join(d, f), encoding="utf-8") as fp:
                    found |= set(re.findall(r'\.name = "([a-z0-9-]+)"', fp.read()))
    return found


def hand_lists(path, names, topics):
    """The lines of path where a list of figure names kept by hand starts: four of them quoted
    within LIST_LINES lines, one at least no --print topic's name (a list of topics is none)."""
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    quoted = re.compile(r"""["']([a-z0-9-]+)["']""")
    found = []
    for i in range(len(lines)):
        window = " ".join(lines[i:i + LIST_LINES])
        named = {m for m in quoted.findall(window) if m in names}
        if len(named) >= 4 and named - topics:
            found.append(f"{path}:{i + 1}")
            break
    return found


def check_figure_lists(files):
    names = set(figure_names())
    check(len(names) >= 4, f"the table of figures in {TABLE} has rows ({len(names)})")
    others = [f for f in files if f != TABLE]
    for top, ext in (("tests", (".c", ".h", ".py")), ("scripts", (".sh", ".py")),
                     ("bench", (".py", ".sh"))):
        for d, _, fs in os.walk(os.path.join(ROOT, top)):
            others += [os.path.relpath(os.path.join(d, f), ROOT) for f in sorted(fs)
                       if f.endswith(ext)]
    topics = topic_names()
    lists = [where for path in others for where in hand_lists(path, names, topics)]
    check(not lists, "the figures are listed only in the table (others read it)",
          "\n".join(f"{w}: names four figures or more; take them from figures_names() or "
                    "tfviz-options-docs figures" for w in lists))
    with open(os.path.join(ROOT, "docs", "guide.md"), encoding="utf-8") as f:
        guide = f.read()
    missing = sorted(n for n in names if f"| `{n}` |" not in guide)
    check(not missing, "docs/guide.md's figure table has a row for every figure",
          f"missing: {', '.join(missing)}")


def main():
    files = sorted(sources())
    graph = check_layers(files)
    check_circles(graph)
    check_lengths(files)
    check_cited_docs(files)
    check_model_pure(files)
    check_scheme_lists(files)
    check_view_count()
    check_figure_lists(files)
    fails = 0
    for i, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
        if not ok:
            fails += 1
            for d in detail.splitlines():
                print("# " + d)
    print(f"1..{len(results)}")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
