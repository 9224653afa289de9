#!/usr/bin/env python3
"""gen_dict.py — convert jieba's dict.txt ("word freq tag" per line) into tfviz's binary
dictionary, read by model/dict.c. Standard library only; runs at build time, never at run time.

    gen_dict.py DICT_TXT OUT_BIN

Layout (all integers little-endian):
    header, 64 bytes: magic "TFDICT02", u32 n_words, u32 blob_bytes, u32 max_word_bytes,
                      u32 0, u64 total (sum of every line's frequency, as jieba sums them),
                      u64 n_lines, 24 zero bytes
    u32 word_off[n + 1]  words sorted by their UTF-8 bytes; word i is blob[off[i]:off[i+1]]
    u32 word_freq[n]     its frequency (the last line wins for a repeated word, as in jieba)
    u32 word_rank[n]     0-based rank by frequency, descending; ties by bytes, ascending
    u32 rank_word[n]     the inverse: the word at each rank
    u32 first[65537]     first[c] = index of the first word whose first code point is >= c, for
                         c < 65536, and first[65536] for words beyond the BMP: the words that
                         start with c are [first[c], first[c+1]) with no search
    blob                 the words' bytes, concatenated
"""
import os
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_dict.py DICT_TXT OUT_BIN")
    src, out = sys.argv[1], sys.argv[2]
    freq = {}
    total = 0
    n_lines = 0
    with open(src, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line:
                continue
            parts = line.split(b" ")
            if len(parts) < 2:
                sys.exit("%s:%d: expected 'word freq [tag]'" % (src, lineno))
            word = parts[0]
            try:
                word.decode("utf-8")
                value = int(parts[1])
            except (UnicodeDecodeError, ValueError):
                sys.exit("%s:%d: not 'word freq' in UTF-8" % (src, lineno))
            if value < 0 or value >= 1 << 32 or len(word) > 255:
                sys.exit("%s:%d: frequency or word length out of range" % (src, lineno))
            freq[word] = value
            total += value
            n_lines += 1
    words = sorted(freq)
    n = len(words)
    index = {w: i for i, w in enumerate(words)}
    by_rank = sorted(words, key=lambda w: (-freq[w], w))
    rank_word = [index[w] for w in by_rank]
    word_rank = [0] * n
    for r, i in enumerate(rank_word):
        word_rank[i] = r
    offs = [0]
    for w in words:
        offs.append(offs[-1] + len(w))
    blob = b"".join(words)
    first = [0] * 65537
    k = 0
    for c in range(65537):
        while k < n and ord(words[k].decode("utf-8")[0]) < c:
            k += 1
        first[c] = k
    header = b"TFDICT02" + struct.pack("<IIIIQQ", n, len(blob), max(map(len, words)), 0,
                                       total, n_lines)
    header += b"\0" * (64 - len(header))
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(header)
        f.write(struct.pack("<%dI" % (n + 1), *offs))
        f.write(struct.pack("<%dI" % n, *(freq[w] for w in words)))
        f.write(struct.pack("<%dI" % n, *word_rank))
        f.write(struct.pack("<%dI" % n, *rank_word))
        f.write(struct.pack("<65537I", *first))
        f.write(blob)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
