#!/usr/bin/env python3
"""embed.py — turn a data file into a C source that holds its bytes.

    embed.py INPUT OUTPUT.c SYMBOL

defines `const unsigned char SYMBOL[]` (the bytes plus a NUL) and `const size_t SYMBOL_len`.
"""
import sys


def main():
    src, dst, sym = sys.argv[1:4]
    data = open(src, "rb").read()
    with open(dst, "w") as f:
        f.write(f"/* generated from {src.rsplit('/', 1)[-1]} by embed.py; do not edit */\n")
        f.write("#include <stddef.h>\n")
        f.write(f"extern const unsigned char {sym}[];\nextern const size_t {sym}_len;\n")
        f.write(f"const unsigned char {sym}[] = {{\n")
        for i in range(0, len(data), 20):
            f.write("".join(f"{b},"for b in data[i:i + 20]) + "\n")
        f.write("0};\n")
        f.write(f"const size_t {sym}_len = {len(data)};\n")


if __name__ == "__main__":
    main()
