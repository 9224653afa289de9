#!/usr/bin/env python3
"""gen_bpe.py — convert a tiktoken encoder file (the npm package's encoders/NAME.json, with
"pat_str" and "bpe_ranks") into tfviz's binary rank table, read by model/bpe.c. Standard
library only; runs at build time, never at run time.

    gen_bpe.py ENCODER_JSON OUT_BIN

bpe_ranks is one or more lines "<label> <first rank> <base64 token> <base64 token> ...": the
tokens take consecutive ranks from the first one.

Layout (all integers little-endian):
    header, 64 bytes: magic "TFBPE002", u32 n_tokens (ranks 0..n-1), u32 blob_bytes,
                      u32 pat_bytes, u32 max_token_bytes, u32 n_vocab (ranks and the special
                      tokens' ids, as tiktoken's n_vocab), u32 slots (a power of two),
                      32 zero bytes
    u32 rank_off[n + 1]  token of rank r is blob[off[r]:off[r+1]]
    u32 table[slots]     hash table of the ranks: a token's slot is its 32-bit FNV-1a hash
                         modulo slots, then the next slots in turn (linear probing);
                         0xFFFFFFFF marks an empty slot
    pat                  the pre-tokenisation pattern (pat_str), UTF-8, then one NUL
    blob                 the tokens' bytes, concatenated in rank order
"""
import base64
import json
import os
import struct
import sys


def fnv1a(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_bpe.py ENCODER_JSON OUT_BIN")
    src, out = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        enc = json.load(f)
    ranks = {}
    for line in enc["bpe_ranks"].split("\n"):
        parts = line.split(" ")
        if len(parts) < 2:
            continue
        first = int(parts[1])
        for i, tok in enumerate(p for p in parts[2:] if p):
            ranks[first + i] = base64.b64decode(tok)
    n = len(ranks)
    if sorted(ranks) != list(range(n)):
        sys.exit("%s: ranks are not 0..%d" % (src, n - 1))
    toks = [ranks[r] for r in range(n)]
    if len(set(toks)) != n:
        sys.exit("%s: a token appears twice" % src)
    offs = [0]
    for t in toks:
        offs.append(offs[-1] + len(t))
    blob = b"".join(toks)
    pat = enc["pat_str"].encode("utf-8") + b"\0"
    n_vocab = max([n - 1] + list(enc.get("special_tokens", {}).values())) + 1
    slots = 1
    while slots < 2 * n:
        slots *= 2
    table = [0xFFFFFFFF] * slots
    for r, t in enumerate(toks):
        h = fnv1a(t) & (slots - 1)
        while table[h] != 0xFFFFFFFF:
            h = (h + 1) & (slots - 1)
        table[h] = r
    header = b"TFBPE002" + struct.pack("<IIIIII", n, len(blob), len(pat), max(map(len, toks)),
                                       n_vocab, slots)
    header += b"\0" * (64 - len(header))
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(header)
        f.write(struct.pack("<%dI" % (n + 1), *offs))
        f.write(struct.pack("<%dI" % slots, *table))
        f.write(pat)
        f.write(blob)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
