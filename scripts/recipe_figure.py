#!/usr/bin/env python3
"""recipe_figure.py — docs/architecture.md's recipe for a new figure as C: the row of the table
and the draw function, the two ```c blocks of "### A new figure" as they stand, for the
figure_recipe test to compile and draw (a recipe that no longer builds fails the suite).

    scripts/recipe_figure.py docs/architecture.md OUT.h"""
import re
import sys


def main(doc, out):
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("### A new figure"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```c\n(.*?)```", section, re.S)
    if len(blocks) != 2:
        sys.exit(f"{doc}: '### A new figure' has {len(blocks)} C blocks, not the row and "
                 "the draw function")
    row, function = blocks
    name = re.search(r"\.draw = (\w+)", row)
    if not name:
        sys.exit(f"{doc}: the recipe's row names no .draw function")
    with open(out, "w", encoding="utf-8") as f:
        f.write("/* Made by scripts/recipe_figure.py from docs/architecture.md: do not edit. */\n")
        f.write(f"tf_status {name.group(1)}(fig_ctx *c);\n\n{function}\n")
        f.write(f"static const fig_entry recipe_rows[] = {{\n{row}}};\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
