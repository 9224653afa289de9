#!/usr/bin/env python3
"""gen_hmm.py — convert jieba's HMM for unknown words (finalseg: prob_start.py, prob_trans.py,
prob_emit.py of Debian's python3-jieba) into tfviz's binary table, read by model/hmm.c.
Standard library only; the tables are read as Python literals (ast.literal_eval), never run;
runs at build time, never at run time.

    gen_hmm.py PROB_START_PY PROB_TRANS_PY PROB_EMIT_PY OUT_BIN

The model labels each character of a run B (begins a word), M (inside), E (ends) or S (a word
alone); every table holds natural logarithms of probabilities. A pair or character the tables
lack has jieba's MIN_FLOAT, -3.14e100. The values are written as the doubles Python reads from
the files (repr round-trips), so the C Viterbi adds exactly the numbers jieba adds.

Layout (little-endian):
    header, 16 bytes: magic "TFHMM001", u32 n_chars, u32 0
    f64 start[4]            state order B M E S
    f64 trans[4][4]         trans[from][to]
    u32 chars[n_chars]      the code points any emission table names, ascending
    f64 emit[n_chars][4]    emit[c][state]
"""
import ast
import os
import struct
import sys

STATES = "BMES"
MIN_FLOAT = -3.14e100


def read_table(src):
    """The dictionary assigned to P in a prob_*.py file."""
    with open(src, encoding="utf-8") as f:
        text = f.read()
    at = text.find("P=")
    if at < 0:
        at = text.find("P =")
    if at < 0:
        sys.exit("%s: no 'P=' table" % src)
    try:
        table = ast.literal_eval(text[text.index("{", at):])
    except (ValueError, SyntaxError) as e:
        sys.exit("%s: not a table of literals: %s" % (src, e))
    if not isinstance(table, dict) or set(table) - set(STATES):
        sys.exit("%s: expected a table keyed by B M E S" % src)
    return table


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: gen_hmm.py PROB_START_PY PROB_TRANS_PY PROB_EMIT_PY OUT_BIN")
    start, trans, emit = (read_table(p) for p in sys.argv[1:4])
    chars = sorted({ord(c) for s in STATES for c in emit.get(s, {})})
    out = sys.argv[4]
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(b"TFHMM001" + struct.pack("<II", len(chars), 0))
        f.write(struct.pack("<4d", *(float(start.get(s, MIN_FLOAT)) for s in STATES)))
        f.write(struct.pack("<16d", *(float(trans.get(a, {}).get(b, MIN_FLOAT))
                                      for a in STATES for b in STATES)))
        f.write(struct.pack("<%dI" % len(chars), *chars))
        for c in chars:
            ch = chr(c)
            f.write(struct.pack("<4d", *(float(emit.get(s, {}).get(ch, MIN_FLOAT))
                                         for s in STATES)))
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
