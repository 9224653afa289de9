#!/usr/bin/env python3
"""options_docs.py — the man page's OPTIONS section and the shell completions, as the option
table (app/core/options_table.h) writes them, and the lesson's key table in the Markdown docs.

    scripts/options_docs.py GENERATOR SOURCE_ROOT --write   (meson compile -C build options-docs)
    scripts/options_docs.py GENERATOR SOURCE_ROOT --check   (the doc-options test)

GENERATOR is the built tfviz-options-docs. The man page keeps its hand-written sections; the
OPTIONS section is what lies between the lines `.\\" BEGIN OPTIONS` and `.\\" END OPTIONS`.
README.md, docs/guide.md and docs/lesson-plan.md hold the lesson's key table (app/core/
lesson_keys.c) between `<!-- BEGIN LESSON KEYS ... -->` and `<!-- END LESSON KEYS -->`.
--check prints TAP and fails when a checked-in file differs from what the table writes."""
import difflib
import os
import subprocess
import sys

BEGIN = '.\\" BEGIN OPTIONS: made from app/core/options_table.h by meson compile -C build options-docs\n'
END = '.\\" END OPTIONS\n'
KEYS_BEGIN = ("<!-- BEGIN LESSON KEYS: made from app/core/lesson_keys.c by meson compile -C build "
              "options-docs -->\n")
KEYS_END = "<!-- END LESSON KEYS -->\n"
MAN_KEYS_BEGIN = '.\\" BEGIN LESSON KEYS: made from app/core/lesson_keys.c\n'
MAN_KEYS_END = '.\\" END LESSON KEYS\n'
KEYS_DOCS = ("README.md", os.path.join("docs", "guide.md"), os.path.join("docs", "lesson-plan.md"))


def generated(gen, what):
    return subprocess.run([gen, what], capture_output=True, check=True).stdout.decode()


def section(path, begin, end, text, page=None):
    """The file (or page, its text so far) with what lies between its lines begin and end
    replaced by text, or None without them."""
    if page is None:
        with open(path, encoding="utf-8") as f:
            page = f.read()
    try:
        head, rest = page.split(begin, 1)
        _, tail = rest.split(end, 1)
    except ValueError:
        return page, None
    return page, head + begin + text + end + tail


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("--write", "--check"):
        sys.exit(__doc__)
    gen, src, mode = sys.argv[1:]
    files = {
        os.path.join(src, "completions", "tfviz.bash"): generated(gen, "bash"),
        os.path.join(src, "completions", "_tfviz"): generated(gen, "zsh"),
    }
    man = os.path.join(src, "docs", "tfviz.1")
    sections = [(man, BEGIN, END, generated(gen, "man")),
                (man, MAN_KEYS_BEGIN, MAN_KEYS_END, generated(gen, "lesson-keys-man"))]
    keys = generated(gen, "lesson-keys")
    sections += [(os.path.join(src, d), KEYS_BEGIN, KEYS_END, keys) for d in KEYS_DOCS]
    for path, begin, end, text in sections:
        _, new = section(path, begin, end, text, files.get(path))
        if new is None:
            print(f"not ok - {path} has no '{begin.strip()}' ... '{end.strip()}' lines")
            sys.exit(1)
        files[path] = new
    fails = 0
    for path, want in files.items():
        with open(path, encoding="utf-8") as f:
            have = f.read()
        rel = os.path.relpath(path, src)
        if mode == "--write":
            if have != want:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(want)
                print(f"options-docs: wrote {rel}")
            continue
        if have == want:
            print(f"ok - {rel} is what the option table writes")
        else:
            fails += 1
            print(f"not ok - {rel} differs from the option table; run "
                  f"meson compile -C build options-docs")
            for line in list(difflib.unified_diff(have.splitlines(), want.splitlines(), rel,
                                                  "table", lineterm=""))[:40]:
                print("# " + line)
    if mode == "--check":
        print(f"1..{len(files)}")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
