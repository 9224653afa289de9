#!/usr/bin/env python3
"""Command-line tests: run the built tfviz and check --print output against independent
reference values computed here with Python's math module (not with tfviz's own code).

Usage: cli_test.py TFVIZ GROUP   (GROUP: one of the functions named test_<group>)"""
import csv
import io
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile

from harness import FAILS, check, run_group  # noqa: E402

TFVIZ = None


# TFVIZ_WRAPPER (e.g. valgrind) runs before tfviz; TFVIZ_TIME_SCALE stretches time limits for it
WRAPPER = os.environ.get("TFVIZ_WRAPPER", "").split()
TIME_SCALE = float(os.environ.get("TFVIZ_TIME_SCALE", "1"))


def run(*args, stdin=None, ok=True, env=None):
    p = subprocess.run([*WRAPPER, TFVIZ, *args], input=stdin, capture_output=True,
                       timeout=60 * TIME_SCALE, env=env)
    if ok and p.returncode != 0:
        raise AssertionError(f"tfviz {' '.join(args)} exited {p.returncode}: {p.stderr.decode()}")
    return p


def js(*args):
    return json.loads(run(*args, "--format", "json").stdout)


def close(a, b, tol):
    return abs(a - b) <= tol


def pe_ref(pos, j, d, base=10000.0):
    w = base ** (-2 * (j // 2) / d)
    return math.sin(pos * w) if j % 2 == 0 else math.cos(pos * w)


def load_npy(data):
    assert data[:6] == b"\x93NUMPY", "not an npy file"
    hlen = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hlen].decode("latin1")
    hdr = eval(header, {"__builtins__": {}}, {"False": False, "True": True})  # a dict literal
    assert (10 + hlen) % 64 == 0, "npy header not aligned to 64"
    fmt = {"<f4": "f", "<f8": "d"}[hdr["descr"]]
    shape = hdr["shape"]
    rows, cols = math.prod(shape[:-1]), shape[-1]  # more than 2-D: the leading axes flattened
    vals = struct.unpack(f"<{rows * cols}{fmt}", data[10 + hlen:])
    return hdr, [list(vals[r * cols:(r + 1) * cols]) for r in range(rows)]


# ------------------------------------------------------------------------------------------

def test_usage():
    p = run("--help")
    out = p.stdout.decode()
    check("--print WHAT" in out and "--d-model" in out and "--rope-style" in out, "help lists options")
    check(run("-V").stdout.decode().startswith("tfviz "), "version")
    check("cl100k" in out and "--vocab-size" in out, "help lists the tokenizers")
    p = run(stdin=None)  # stdout is a pipe: the text report
    out = p.stdout.decode()
    check("我" in out and "PE(pos, 2i)" in out and "RoPE" in out, "report when stdout is not a terminal")


def test_tokens():
    j = js("--print", "tokens", "我爱学习")
    check(j["text"] == "我爱学习" and j["vocab_size"] == 100000, "tokens header")
    check(j["tokenizer"] == "word" and j["vocab"] == "jieba", "word mode is the default")
    check([t["text"] for t in j["tokens"]] == ["我", "爱", "学习"], "我/爱/学习")
    check([(t["start"], t["end"]) for t in j["tokens"]] == [(0, 3), (3, 6), (6, 12)],
          "byte offsets")
    check(all(t["in_vocab"] and t["status"] == "in_vocab" for t in j["tokens"]), "all in vocab")
    check(all(t["id"] == 3 + t["rank"] for t in j["tokens"]), "id = 4 + 0-based frequency rank")
    for words, text in ((["我", "喜欢", "自然语言", "处理"], "我喜欢自然语言处理"),
                        (["研究", "生命", "的", "起源"], "研究生命的起源")):
        check(segments(js("--print", "tokens", text)) == words, "/".join(words))
    # a jieba word outside the vocabulary becomes the vocabulary words it is made of
    for text, want in (("今天天气很好", [("今天", "split"), ("天气", "split"), ("很", "in_vocab"),
                                     ("好", "in_vocab")]),
                       ("基础知识", [("基础", "split"), ("知识", "split")]),
                       ("全长约6300公里", [("全长", "split"), ("约", "split"),
                                       ("6300", "in_vocab"), ("公里", "in_vocab")])):
        j = js("--print", "tokens", text)
        check([(t["text"], t["status"]) for t in j["tokens"]] == want,
              f"{text}: {' '.join(t['text'] + '/' + t['status'] for t in j['tokens'])}")
        check(all(t["in_vocab"] == (t["status"] in ("in_vocab", "split")) and t["rank"] and
                  t["id"] == 3 + t["rank"] for t in j["tokens"] if t["text"] != "6300"),
              f"{text}: split tokens are vocabulary words with their ids")
    j = js("--print", "tokens", "今天天气很好")
    check(j["tokens"][0]["word"] == j["tokens"][1]["word"] != j["tokens"][2]["word"],
          "今天 and 天气 keep jieba's one word 今天天气")
    out = run("--print", "tokens", "今天天气很好").stdout.decode()
    check("~ 今天" in out and "split of 今天天气" in out and "~ split:" in out,
          "the text table marks split tokens, names their word and has a legend")
    out = run("--print", "tokens", "--vocab-size", "1000", "自然语言").stdout.decode()
    check("* fallback:" in out, "the legend of fallback characters")
    p = run("--print", "tokens", "I love learning")
    note = "no English word list" in p.stdout.decode()
    check(note == (not os.environ.get("TFVIZ_ENGLISH_LIST")),
          "the report says when English words fall back for want of the word list")
    rows = list(csv.DictReader(io.StringIO(run("--print", "tokens", "--format", "csv",
                                               "今天天气").stdout.decode())))
    check([r["status"] for r in rows] == ["split", "split"] and
          list(rows[0].keys())[:12] == ["index", "text", "id", "start", "end", "pos", "status",
                                       "rank", "frequency", "in_vocab", "word", "bytes"],
          "csv keeps its columns and says split")
    j = js("--print", "tokens", "--tokenizer", "char", "我爱学习")
    check([t["text"] for t in j["tokens"]] == ["我", "爱", "学", "习"], "char tokens")
    check([(t["start"], t["end"]) for t in j["tokens"]] == [(0, 3), (3, 6), (6, 9), (9, 12)],
          "char byte offsets")
    ids = [t["id"] for t in j["tokens"]]
    check(len(set(ids)) == 4 and all(0 <= i < 100000 for i in ids), "ids distinct and in range")
    j2 = js("--print", "tokens", "--tokenizer", "char", "学习爱我")
    check(sorted(ids) == sorted(t["id"] for t in j2["tokens"]), "same ids in another order")
    j3 = js("--print", "tokens", "--tokenizer", "char", "hello 世界")
    check(j3["tokens"][5]["start"] == 6, "offsets skip the space")
    j3 = js("--print", "tokens", "hello 世界")
    check([(t["text"], t["start"]) for t in j3["tokens"]][-1] == ("世界", 6), "words skip the space")
    rows = list(csv.reader(io.StringIO(run("--print", "tokens", "--format", "csv", "a,b").stdout.decode())))
    check(rows[0][:3] == ["index", "text", "id"] and rows[2][1] == ",", "csv quotes a comma token")
    t = run("--print", "tokens", "我爱学习").stdout.decode()
    check("学习" in t and "id" in t, "text table")


def segments(j):
    """jieba's words: the tokens grouped by their "word" index."""
    raw, spans = j["text"].encode(), {}
    for t in j["tokens"]:
        s, e = spans.get(t["word"], (t["start"], t["end"]))
        spans[t["word"]] = (min(s, t["start"]), max(e, t["end"]))
    return [raw[s:e].decode() for _, (s, e) in sorted(spans.items())]


def test_vocab():
    ref = dict_reference()
    # the vocabulary is the dictionary ranked by frequency: the first word ids, independently
    # from jieba's dict.txt (ties in byte order)
    rows = list(csv.reader(io.StringIO(run("--print", "vocab", "--format", "csv",
                                           "--vocab-size", "1000").stdout.decode())))
    check(rows[0] == ["id", "token", "frequency"] and len(rows) == 1001, "vocab csv, V rows")
    check([r[1] for r in rows[1:5]] == ["[PAD]", "[UNK]", "[BOS]", "[EOS]"], "special tokens")
    freq = [int(r[2]) for r in rows[5:]]
    check(freq == sorted(freq, reverse=True), "frequencies descend")
    ref = dict_reference()
    if ref:
        want = sorted(ref.items(), key=lambda kv: (-kv[1], kv[0].encode()))[:996]
        check([(r[1], int(r[2])) for r in rows[5:]] == want, "top words = dict.txt by frequency")
    # a word outside V is split into the vocabulary words it holds, the rest falls back to its
    # characters; a character outside to [UNK]
    j = js("--print", "tokens", "--vocab-size", "1000", "自然语言")
    st = [(t["text"], t["status"]) for t in j["tokens"]]
    check(st[0] == ("自然", "split") and {s for _, s in st[1:]} <= {"split", "fallback", "unk"}
          and "".join(t for t, _ in st) == "自然语言" and len(st) == 3 and
          len({t["word"] for t in j["tokens"]}) == 1,
          "自然语言 outside V=1000: 自然 and two characters")
    j = js("--print", "tokens", "--vocab-size", "16", "我爱学习")
    check(all(t["status"] == "unk" and t["id"] == 1 for t in j["tokens"][1:]), "unk at V=16")
    t = run("--print", "tokens", "--vocab-size", "1000", "自然语言").stdout.decode()
    check("fallback" in t and "词表外" in t, "the text table says a fallback happened")
    # the default V holds the base alphabet after the words, then the numbers: Latin letters,
    # full-width punctuation and every CJK character have ids; [UNK] is left for an emoji
    rows = list(csv.reader(io.StringIO(run("--print", "vocab", "--format", "csv").stdout.decode())))
    check(len(rows) == 100001 and [int(r[0]) for r in rows[1:]] == list(range(100000)),
          "vocab csv lists every id of V = 100,000")
    ids = {r[1]: int(r[0]) for r in rows[1:]}
    base = [chr(c) for a, b in ((0x20, 0x7E), (0x3000, 0x303F), (0x4E00, 0x9FFF),
                                (0xFF00, 0xFFEF)) for c in range(a, b + 1)]
    check(all(c in ids for c in base), "every base character has an id")
    if ref:
        # the layout worked out here: W words, as many as leave room for the base characters
        # that are not among them; those follow in code-point order up to V - 1
        words = sorted(ref.items(), key=lambda kv: (-kv[1], kv[0].encode()))
        numbers = [f"{x:0{n}d}" for n in (2, 3, 4) for x in range(10 ** n)]
        bset, rest, W = set(base), len(base), 0
        while W + 1 + rest - (words[W][0] in bset) <= 100000 - 4 - len(numbers):
            rest -= words[W][0] in bset
            W += 1
        taken = {w for w, _ in words[:W]}
        check([(r[1], int(r[2])) for r in rows[5:5 + W]] == words[:W],
              "the words before the alphabet keep id = 4 + frequency rank")
        tail = [(c, ref.get(c, 0)) for c in base if c not in taken]
        check([(r[1], int(r[2])) for r in rows[5 + W:5 + W + len(tail)]] == tail,
              "then the other base characters, code-point order, their frequency or 0")
        check([(r[1], int(r[2])) for r in rows[5 + W + len(tail):]] == [(x, 0) for x in numbers],
              "then the numbers 00 .. 9999")
    text = "我喜欢Python和自然语言处理，你呢？😀"
    for fmt in ("json", "csv"):
        out = run("--print", "tokens", "--format", fmt, text).stdout.decode()
        toks = (json.loads(out)["tokens"] if fmt == "json" else
                list(csv.DictReader(io.StringIO(out))))
        st = {t["text"]: t["status"] for t in toks}
        english = bool(os.environ.get("TFVIZ_ENGLISH_LIST"))
        python = ["Python"] if english else ["P", "y", "t", "h", "o", "n"]
        check([t["text"] for t in toks][:2 + len(python) + 1] == ["我", "喜欢", *python, "和"] and
              [t["text"] for t in toks][-5:] == ["处理", "，", "你", "呢", "？", "😀"][-5:],
              f"{fmt}: Python is " + ("a word" if english else "its letters"))
        check(st.get("P", "fallback") == "fallback" and st["，"] == "in_vocab" and
              st["？"] == "in_vocab" and st["😀"] == "unk" and
              [t["status"] for t in toks].count("unk") == 1 and
              all(int(t["id"]) == ids[t["text"]] for t in toks
                  if t["text"] not in ("😀", "Python")),
              f"{fmt}: only the emoji is [UNK]")
    j = js("--print", "tokens", "--tokenizer", "char", "鿏丂㐀")
    check([t["status"] for t in j["tokens"]] == ["in_vocab", "in_vocab", "unk"],
          "char mode: every U+4E00-U+9FFF character has an id (U+3400 is outside)")
    j = js("--print", "tokens", "--vocab-size", "21394", "Python")
    check({t["status"] for t in j["tokens"]} <= {"unk", "split"} and
          all(t["id"] == 1 for t in j["tokens"] if t["status"] == "unk"),
          "V < 21,395: the alphabet does not fit (letters are words or [UNK])")
    rows = list(csv.reader(io.StringIO(run("--print", "vocab", "--format", "csv",
                                           "--vocab-size", "21395").stdout.decode())))
    ids21 = {r[1]: int(r[0]) for r in rows[1:]}
    j = js("--print", "tokens", "--vocab-size", "21395", "Python")
    check(len(rows) == 21396 and all(c in ids21 for c in base) and
          ids21["P"] - ids21[" "] == ord("P") - ord(" ") and
          all(t["status"] == "fallback" and t["id"] == ids21[t["text"]] for t in j["tokens"]),
          "V = 21,395: the alphabet just fits")


def dict_reference():
    """The vocabulary frequencies worked out here: jieba's dict.txt, and the English list
    (TFVIZ_ENGLISH_LIST, when the build has it) scaled to jieba's total."""
    path = "/usr/lib/python3/dist-packages/jieba/dict.txt"
    if not os.path.exists(path):
        return None
    freq, total = {}, 0
    for line in open(path, encoding="utf-8"):
        parts = line.split()
        if len(parts) >= 2:
            freq[parts[0]] = int(parts[1])
            total += int(parts[1])  # every line, as jieba sums them
    en = os.environ.get("TFVIZ_ENGLISH_LIST")
    if en:
        counts = {}
        for e in json.load(open(en, encoding="utf-8")):
            w = e["word"]
            if w.isascii() and w.isalpha():
                w = w if w.islower() or (w[0].isupper() and w[1:].islower()) or len(w) == 1 \
                    else w.lower()
                counts[w] = counts.get(w, 0) + e["count"]
        en_total = sum(counts.values())
        for w, c in counts.items():
            freq[w] = freq.get(w, 0) + (c * total + en_total // 2) // en_total
    return freq


def test_english():
    """English words of the list are whole tokens, in any case, ranked with the Chinese words."""
    ref = dict_reference()
    words = sorted(ref.items(), key=lambda kv: (-kv[1], kv[0].encode()))
    rank = {w: r for r, (w, _) in enumerate(words)}
    for text, entries in (("I love learning", ["I", "love", "learning"]),
                          ("I like cats", ["I", "like", "cats"]),
                          ("LOVE Learning i Python", ["love", "learning", "I", "python"])):
        j = js("--print", "tokens", text)
        check([t["text"] for t in j["tokens"]] == text.split() and
              all(t["status"] == "in_vocab" for t in j["tokens"]) and
              [t["id"] for t in j["tokens"]] == [4 + rank[w] for w in entries],
              f"{text}: whole words, id = 4 + rank among Chinese and English words")
    check(rank["love"] < rank["学习"] < rank["learning"], "love, 学习, learning on one scale")
    # an unknown Latin word: known pieces before letters
    j = js("--print", "tokens", "ChatGPT")
    check("".join(t["text"] for t in j["tokens"]) == "ChatGPT" and j["tokens"][0]["text"] == "Chat"
          and all(t["status"] == "split" for t in j["tokens"]), "ChatGPT: Chat and known pieces")
    out = run("--print", "tokens", "I love learning").stdout.decode()
    check("no English word list" not in out, "no note when the list is built in")


def test_bpe():
    for mode, want in (("cl100k", [37046, 76207, 109, 48864, 18259, 254]),
                       ("o200k", [7522, 6414, 64550])):
        j = js("--print", "tokens", "--tokenizer", mode, "我爱学习")
        check([t["id"] for t in j["tokens"]] == want, mode + " ids of 我爱学习")
    j = js("--print", "tokens", "--tokenizer", "cl100k", "我爱学习")
    check(j["vocab_size"] == 100277 and j["vocab"] == "cl100k_base", "cl100k size")
    check(j["tokens"][1]["partial"] and j["tokens"][1]["bytes"] == [0xE7, 0x88] and
          j["tokens"][1]["text"] == "\\xE7\\x88", "爱 is two byte tokens, shown as bytes")
    out = run("--print", "tokens", "--tokenizer", "cl100k", "我爱学习").stdout.decode()
    check("\ufffd" not in out and "\\xE7\\x88" in out, "no replacement character")
    p = run("--print", "tokens", "--tokenizer", "o200k", "--vocab-size", "1000", ok=False)
    check(p.returncode == 2 and b"fixed size" in p.stderr, "--vocab-size with BPE is refused")


def test_data():
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TFVIZ_DATA_DIR=d)
        p = run("--print", "tokens", "--tokenizer", "word", "我爱学习", ok=False, env=env)
        check(p.returncode == 2 and b"python3-jieba" in p.stderr and
              len(p.stderr.decode().strip().splitlines()) == 1, "missing dictionary: one sentence")
        p = run("--print", "tokens", "--format", "json", "我爱学习", env=env)
        check(b"python3-jieba" in p.stderr and len(json.loads(p.stdout)["tokens"]) == 4,
              "default mode without the dictionary: a note, then characters")
        p = run("--print", "tokens", "--tokenizer", "cl100k", ok=False, env=env)
        check(p.returncode == 2 and b"bootstrap" in p.stderr, "missing BPE: how to get it")
        j = json.loads(run("--print", "tokens", "--tokenizer", "char", "--format", "json",
                           env=env).stdout)
        check(j["vocab"] == "codepoint" and len(j["tokens"]) == 4, "char mode works without data")
        with open(os.path.join(d, "tfviz-dict.bin"), "wb") as f:
            f.write(b"TFDICT01" + b"\0" * 100)
        p = run("--print", "tokens", "--tokenizer", "word", ok=False, env=env)
        check(p.returncode == 2 and b"damaged" in p.stderr, "corrupt dictionary: rebuild")


def test_embedding():
    j = js("--print", "embedding", "-d", "64", "--vocab-size", "5000")
    check(j["vocab_size"] == 5000 and j["d_model"] == 64 and j["seed"] == 42, "embedding header")
    check(all(len(t["row"]) == 64 for t in j["tokens"]), "row length d_model")
    check(j["onehot_max_abs_diff"] == 0, "onehot . W_E equals the row exactly")
    lim = math.sqrt(3 / 64)
    check(all(abs(v) <= lim for t in j["tokens"] for v in t["row"]), "rows within the init range")
    j2 = js("--print", "embedding", "-d", "64", "--vocab-size", "5000", "我")
    check(j2["tokens"][0]["row"] == j["tokens"][0]["row"], "a row depends on the id only")
    j3 = js("--print", "embedding", "-d", "64", "--seed", "7")
    check(j3["tokens"][0]["row"] != j["tokens"][0]["row"], "another seed, another W_E")
    t = run("--print", "embedding", "-d", "4096").stdout.decode()
    check("409.6 M parameters" in t, "100,000 x 4096 = 409.6 M parameters")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "e.npy")
        run("--print", "embedding", "-d", "16", "--format", "npy", "-o", path)
        hdr, m = load_npy(open(path, "rb").read())
        j4 = js("--print", "embedding", "-d", "16")
        check(hdr["shape"] == (len(j4["tokens"]), 16) and hdr["descr"] == "<f4",
              "embedding npy shape")
        check(all(abs(m[0][k] - j4["tokens"][0]["row"][k]) < 1e-7 for k in range(16)), "npy = json")


def test_pe():
    for d, n in ((4, 3), (6, 7), (512, 20)):
        out = run("--print", "pe", "--format", "csv", "-d", str(d), "-n", str(n)).stdout.decode()
        rows = list(csv.reader(io.StringIO(out)))
        check(rows[0] == ["pos"] + [str(j) for j in range(d)], f"pe header d={d}")
        check(len(rows) == n + 1, f"pe rows n={n}")
        worst = max(abs(float(rows[1 + p][1 + j]) - pe_ref(p, j, d)) for p in range(n) for j in range(d))
        check(worst < 1e-9, f"pe values d={d} (max diff {worst:.2e})")
        check(all(len(v.lstrip("-").replace(".", "").split("e")[0].lstrip("0")) >= 9
                  for v in rows[2][1:3]), f"at least 9 significant digits (d={d})")
    # docs/claims.md reference, d = 4
    rows = list(csv.reader(io.StringIO(run("--print", "pe", "--format", "csv", "-d", "4", "-n", "3").stdout.decode())))
    ref1 = [0.841471, 0.540302, 0.010000, 0.999950]
    check(all(close(float(rows[2][1 + j]), ref1[j], 5e-7) for j in range(4)), "PE(1) d=4 reference")
    # index base 1: first row is pos 1
    rows = list(csv.reader(io.StringIO(run("--print", "pe", "--format", "csv", "-d", "4", "-n", "2", "--index-base", "1").stdout.decode())))
    check(rows[1][0] == "1" and close(float(rows[1][1]), math.sin(1), 1e-9), "index base 1")
    # base
    rows = list(csv.reader(io.StringIO(run("--print", "pe", "--format", "csv", "-d", "8", "-n", "5", "--base", "500000").stdout.decode())))
    check(close(float(rows[4][3]), pe_ref(3, 2, 8, 500000.0), 1e-9), "base 500000")
    # npy: float32 fast path within 1e-6 of the reference, past the re-anchoring interval
    with tempfile.TemporaryDirectory() as dd:
        path = os.path.join(dd, "pe.npy")
        run("--print", "pe", "--format", "npy", "-d", "32", "-n", "600", "-o", path)
        hdr, m = load_npy(open(path, "rb").read())
        check(hdr["shape"] == (600, 32) and hdr["descr"] == "<f4", "pe npy header")
        worst = max(abs(m[p][j] - pe_ref(p, j, 32)) for p in range(0, 600, 7) for j in range(32))
        check(worst < 1e-6, f"pe npy values (max diff {worst:.2e})")
    j = js("--print", "pe", "-d", "4", "-n", "2")
    check(j["d_model"] == 4 and len(j["pe"]) == 2 and j["pe"][0] == [0, 1, 0, 1], "pe json")


def test_freq():
    rows = list(csv.reader(io.StringIO(run("--print", "freq", "--format", "csv", "-d", "16").stdout.decode())))
    check(rows[0] == ["i", "omega", "wavelength"] and len(rows) == 9, "freq header and d/2 rows")
    ok = all(close(float(r[1]), 10000 ** (-2 * int(r[0]) / 16), 1e-12) and
             close(float(r[2]), 2 * math.pi * 10000 ** (2 * int(r[0]) / 16), 1e-6) for r in rows[1:])
    check(ok, "omega_i and wavelength_i")
    ratios = [float(rows[i + 1][1]) / float(rows[i][1]) for i in range(1, 8)]
    check(max(ratios) - min(ratios) < 1e-12, "frequencies fall geometrically")


def test_input():
    j = js("--print", "input", "-d", "8")
    for t, tok in enumerate(j["tokens"]):
        check(tok["pos"] == t, f"input pos {t}")
        check(all(close(tok["pe"][k], pe_ref(t, k, 8), 1e-10) for k in range(8)), f"input pe {t}")
        check(all(close(tok["input"][k], tok["embedding"][k] + tok["pe"][k], 1e-10) for k in range(8)),
              f"input = embedding + pe ({t})")
    e = js("--print", "embedding", "-d", "8")
    check(all(close(j["tokens"][0]["embedding"][k], e["tokens"][0]["row"][k], 1e-8) for k in range(8)),
          "input embedding = W_E row")
    s = js("--print", "input", "-d", "8", "--scale-embedding")
    check(close(s["embedding_scale"], math.sqrt(8), 1e-12) and
          all(close(s["tokens"][1]["embedding"][k], math.sqrt(8) * j["tokens"][1]["embedding"][k], 1e-9)
              for k in range(8)), "--scale-embedding multiplies by sqrt(d)")
    b = js("--print", "input", "-d", "8", "--index-base", "1")
    check(b["tokens"][2]["pos"] == 3, "index base 1: the third token is pos 3")


def test_relative():
    j = js("--print", "relative", "-d", "64", "-n", "50", "--offset", "7")
    check(j["offset"] == 7, "relative offset echoed")
    check(j["max_residual"] < 1e-9, f"M_k residual {j['max_residual']:.2e}")
    # independent brute force for the minimum distance
    d, n = 64, 50
    rows = [[pe_ref(p, k, d) for k in range(d)] for p in range(n)]
    best = min((math.dist(rows[p], rows[q]), p, q) for p in range(n) for q in range(p + 1, n))
    check(close(j["min_distance"], best[0], 1e-9), "min distance against brute force")
    p, q = j["min_distance_pair"]
    check(close(math.dist(rows[p], rows[q]), best[0], 1e-9), "min distance pair attains it")


def test_dot():
    j = js("--print", "dot", "-d", "16", "-n", "12")
    m = j["dot"]
    check(len(m) == 12 and all(len(r) == 12 for r in m), "dot shape")
    ok = all(close(m[p][q], sum(math.cos((p - q) * 10000 ** (-2 * i / 16)) for i in range(8)), 1e-9)
             for p in range(12) for q in range(12))
    check(ok, "dot = sum cos((p-q) w_i)")
    check(close(m[3][3], 8.0, 1e-12), "diagonal = d/2")


def test_rope():
    for style in ("interleaved", "half"):
        j = js("--print", "rope", "-d", "8", "--rope-style", style)
        check(j["style"] == style and len(j["theta"]) == 4, f"rope header {style}")
        check(all(close(j["theta"][i], 10000 ** (-2 * i / 8), 1e-13) for i in range(4)), "theta_i")
        for tok in j["tokens"]:
            m = tok["pos"]
            for i in range(4):
                a, b = (2 * i, 2 * i + 1) if style == "interleaved" else (i, i + 4)
                c, s = math.cos(m * j["theta"][i]), math.sin(m * j["theta"][i])
                qa, qb = tok["q"][a], tok["q"][b]
                ok = close(tok["q_rot"][a], qa * c - qb * s, 1e-9) and close(tok["q_rot"][b], qa * s + qb * c, 1e-9)
                if not ok:
                    break
            check(ok, f"q_rot is q rotated ({style}, pos {m})")
        check(j["score_offset_max_dev"] < 1e-9, f"score depends on m-n only ({style})")
    j = js("--print", "rope", "-d", "8", "--base", "500000")
    check(close(j["theta"][1], 500000 ** (-2 / 8), 1e-13), "rope base 500000")


def test_decay():
    rows = list(csv.reader(io.StringIO(run("--print", "decay", "-d", "128", "-n", "101", "--format", "csv").stdout.decode())))
    v = {int(r[0]): float(r[1]) for r in rows[1:]}
    check(close(v[0], 32.50, 0.005) and close(v[10], 17.95, 0.005) and close(v[100], 10.23, 0.005),
          f"RoFormer decay reference ({v[0]:.3f}, {v[10]:.3f}, {v[100]:.3f})")


def test_order():
    j = js("--print", "order", "-d", "32")
    check(j["a"] == "我爱学习" and j["b"] == "学习爱我" and j["permutation"] == [2, 1, 0],
          "default: the words reversed")
    j = js("--print", "order", "-d", "32", "--tokenizer", "char")
    check(j["a"] == "我爱学习" and j["b"] == "习学爱我" and j["permutation"] == [3, 2, 1, 0], "default: reversed")
    check(j["without_pe"]["max_token_diff"] < 1e-6 and j["without_pe"]["pooled_diff"] < 1e-6,
          "without PE attention is order-blind")
    check(j["with_pe"]["max_token_diff"] > 1e-3, "with PE the order shows")
    check(j["with_rope"]["max_token_diff"] > 1e-5, "with RoPE the order shows")
    j = js("--print", "order", "-d", "32", "--compare", "学习爱我", "--tokenizer", "char")
    check(j["b"] == "学习爱我" and j["permutation"] == [2, 3, 1, 0], "--compare permutation")
    j = js("--print", "order", "-d", "32", "--vocab-size", "1000", "我喜欢Python和自然语言处理")
    check(j["b"] == "处理自然语言和Python喜欢我", "word mode: a fallback word is not reversed")
    j = js("--print", "order", "-d", "32", "小明喜欢小红")
    check(j["b"] == "小红喜欢小明" and j["permutation"] == [3, 4, 2, 0, 1],
          "word mode: names found by jieba's HMM move as whole words")
    j = js("--print", "order", "-d", "32", "--no-hmm", "小明喜欢小红")
    check(j["b"] == "红小喜欢明小", "--no-hmm: the names are characters, reversed one by one")
    p = run("--print", "order", "--compare", "我爱你", ok=False)
    check(p.returncode == 2 and b"same tokens" in p.stderr, "--compare with other tokens is refused")
    order_head()


def test_order_bpe():
    # BPE: the words (pre-token pieces) are reversed, never a character split into bytes
    for mode in ("cl100k", "o200k"):
        for text in ("我爱学习", "我喜欢Python和自然语言处理，你呢？", "I love NLP, 你呢?"):
            p = run("--print", "order", "-d", "32", "--tokenizer", mode, "--format", "json", text)
            j = json.loads(p.stdout)  # strict UTF-8: fails on a stray byte
            n = len(js("--print", "tokens", "--tokenizer", mode, text)["tokens"])
            check("\ufffd" not in j["b"] and sorted(j["permutation"]) == list(range(n)) and
                  j["without_pe"]["max_token_diff"] < 1e-6, f"{mode} order of {text}: valid b")


MODES = ("without_pe", "with_pe", "with_rope")


def order_claims(j, d, tag):
    """The order experiment's claims, checked on the matrices themselves: rows of A_a and A_b
    sum to 1; without positions B's weights are A's permuted and the outputs match; with PE and
    with RoPE the outputs move by >= 5 % of max|Z_A| and B's weights are not A's permuted; every
    row of A_a is visibly non-uniform (max - min >= 0.02) for T <= 8."""
    p = j["permutation"]
    T = len(p)
    for m in MODES:
        r = j[m]
        for key in ("A_a", "A_b"):
            A = r[key]
            check(len(A) == T and all(len(row) == T for row in A) and
                  all(abs(sum(row) - 1) < 1e-12 and min(row) > 0 for row in A),
                  f"{tag} {m}: {key} is {T} x {T}, rows sum to 1")
        check(close(r["relative_diff"], r["max_token_diff"] / r["max_abs_output"], 1e-12) and
              close(r["max_token_diff"], max(r["token_diff"]), 0),
              f"{tag} {m}: relative_diff = max_token_diff / max_abs_output")
        perm_dev = max(abs(r["A_b"][t][u] - r["A_a"][p[t]][p[u]]) for t in range(T) for u in range(T))
        check(close(perm_dev, r["max_weight_diff"], 1e-12), f"{tag} {m}: max_weight_diff")
        spread = min(max(row) - min(row) for row in r["A_a"])
        if m == "without_pe":
            check(r["max_token_diff"] < 1e-9 and r["zero_up_to_rounding"] and perm_dev < 1e-9,
                  f"{tag}: without PE, B = A permuted ({perm_dev:.1e}) and the outputs match "
                  f"({r['max_token_diff']:.1e})")
        else:
            check(r["relative_diff"] >= 0.05 and not r["zero_up_to_rounding"] and perm_dev >= 0.02,
                  f"{tag} {m}: outputs move by {100 * r['relative_diff']:.1f} % of max|Z_A|, "
                  f"weights by up to {perm_dev:.3f}")
        if T <= 8:
            check(spread >= 0.02 and close(spread, r["min_row_range"], 1e-12),
                  f"{tag} {m}: every row of A_a non-uniform (smallest range {spread:.3f})")
    check(j["norm"] == "layernorm" and close(j["embedding_scale"], math.sqrt(d), 1e-9) and
          close(j["score_scale"], 1 / math.sqrt(d), 1e-12) and j["d_model"] == d and
          "random" in j["weights"], f"{tag}: the head's keys (LayerNorm, sqrt(d), random weights)")
    # the reported head of the layer, and the rule that picked it: the first whose visibility
    # (the weakest of the changes over 5 % and, for T <= 8, of the row ranges over 0.02) is >= 1
    vis = min(min(j[m]["relative_diff"] for m in MODES[1:]) / j["visible_change"],
              min(j[m]["max_weight_diff"] for m in MODES[1:]) / j["visible_weight_diff"])
    if T <= 8:
        vis = min([vis] + [j[m]["min_row_range"] / j["visible_row_range"] for m in MODES])
    check(j["heads_in_layer"] == 16 and 0 <= j["head_index"] < 16 and
          j["heads_tried"] == j["head_index"] + 1 and close(j["head_visibility"], vis, 1e-12) and
          vis >= 1 and j["visible_change"] == 0.05 and j["visible_row_range"] == 0.02 and
          "first" in j["head_rule"],
          f"{tag}: head {j['head_index']} of {j['heads_in_layer']} by the stated rule "
          f"(visibility {vis:.2f})")


def order_head():
    """--print order with the realistic head: the default sentence and others, three widths."""
    j = js("--print", "order")
    order_claims(j, 512, "default")
    pe, rope = j["with_pe"]["relative_diff"], j["with_rope"]["relative_diff"]
    check(0.05 <= min(pe, rope) and max(pe, rope) <= 10 * min(pe, rope) and max(pe, rope) < 1,
          f"default: PE and RoPE of one order of magnitude ({pe:.3f}, {rope:.3f})")
    # --scale-embedding belongs to the other views: the experiment's head scales by sqrt(d) anyway
    j2 = js("--print", "order", "--scale-embedding")
    check(all(j2[m]["A_a"] == j[m]["A_a"] for m in MODES), "--scale-embedding leaves the head alone")
    ji = js("--print", "input", "--scale-embedding", "-d", "64", "我爱")
    check(close(ji["embedding_scale"], 8.0, 0), "--scale-embedding still scales view 5's X_emb")
    # other sentences at three widths (4096 is left out under valgrind), two and three tokens
    # among them, where one random head often misses and the layer's rule picks another
    dims = (64, 512) if WRAPPER else (64, 512, 4096)
    texts = ("猫追老鼠", "我爱", "I run", "狗咬人", "run fast now")
    if not WRAPPER:
        texts += ("我喜欢你", "老师表扬了学生", "人工智能改变世界", "爱我", "猫叫", "run I", "鱼游",
                  "天气好", "good morning")
    for text in texts:
        for d in dims:
            order_claims(js("--print", "order", "-d", str(d), text), d, f"{text} d={d}")
    for d in (8, 24, 1000) if not WRAPPER else (8,):
        for text in ("我爱", "鸟飞", "run I"):
            order_claims(js("--print", "order", "-d", str(d), "--seed", "5", text), d,
                         f"{text} d={d} seed 5")
    j = js("--print", "order", "-d", "64", "--compare", "学习我爱")
    order_claims(j, 64, "--compare 学习我爱")
    # csv: one row per mode, sentence and token with its row of weights; npy: (3, 2, T, T)
    j = js("--print", "order", "-d", "64", "猫追老鼠")
    T = len(j["permutation"])
    rows = list(csv.DictReader(io.StringIO(
        run("--print", "order", "-d", "64", "--format", "csv", "猫追老鼠").stdout.decode())))
    check(len(rows) == 3 * 2 * T, f"csv: {len(rows)} rows = 3 modes x 2 sentences x {T} tokens")
    ok = True
    for r in rows:
        m, sb, t = r["mode"], r["sentence"], int(r["row"])
        w = [float(r[str(u)]) for u in range(T)]
        ok = ok and all(close(a, b, 1e-13) for a, b in zip(w, j[m]["A_" + sb][t]))
        ok = ok and close(float(r["relative_diff"]), j[m]["relative_diff"], 1e-13)
        ok = ok and close(float(r["max_token_diff"]), j[m]["max_token_diff"], 1e-13)
    check(ok, "csv: the weights and the summary are the JSON's")
    hdr, flat = load_npy(run("--print", "order", "-d", "64", "--format", "npy", "猫追老鼠").stdout)
    check(hdr["shape"] == (3, 2, T, T), f"npy: shape {hdr['shape']} = (3, 2, {T}, {T})")
    vals = [v for row in flat for v in row]
    want = [v for m in MODES for k in ("A_a", "A_b") for row in j[m][k] for v in row]
    check(len(vals) == len(want) and max(abs(a - b) for a, b in zip(vals, want)) < 1e-14,
          "npy: the matrices, mode by mode, A then B")
    # the text report names the head, says the weights are random, and reads each mode
    out = run("--print", "order").stdout.decode()
    check("LayerNorm" in out and "random" in out and "0 up to rounding" in out and
          "% of max|Z_A|" in out and "of a layer of 16 random heads" in out,
          "text: the head, which of the layer's, the random weights and a reading per mode")


# every key --print order --format json gave before B was drawn in A's order
ORDER_KEYS = {"a", "b", "permutation", "d_model", "seed", "norm", "norm_eps", "embedding_scale",
              "score_scale", "weights", "head", "head_index", "heads_in_layer", "heads_tried",
              "head_visibility", "head_rule", "visible_change", "visible_row_range",
              "visible_weight_diff", "rope_style", "base", "first_position"} | set(MODES)
ORDER_MODE_KEYS = {"max_token_diff", "pooled_diff", "token_diff", "max_abs_output",
                   "relative_diff", "zero_up_to_rounding", "score_std", "min_row_range",
                   "max_weight_diff", "A_a", "A_b"}
ORDER_WORDS = ("猫", "追", "老鼠", "我", "爱", "学习", "老师", "表扬", "学生", "狗", "咬", "人",
               "今天", "天气", "很好", "北京", "喜欢", "音乐")


def order_aligned_check(j, tag):
    """B in A's order: perm inverts permutation; per mode A_b_aligned is A_b with rows and
    columns put back into A's token order, diff_map = |A_a - A_b_aligned|, diff_max its max:
    <= 1e-12 without positions, >= 0.02 with PE and with RoPE."""
    p, where = j["permutation"], j["perm"]
    T = len(p)
    check(ORDER_KEYS <= set(j) and sorted(where) == list(range(T)) and
          all(p[where[i]] == i for i in range(T)), f"{tag}: old keys kept; perm[i] = index in B "
          f"of A's token i ({where})")
    for m in MODES:
        r = j[m]
        check(ORDER_MODE_KEYS <= set(r), f"{tag} {m}: old keys kept")
        al = [[r["A_b"][where[i]][where[k]] for k in range(T)] for i in range(T)]
        diff = [[abs(r["A_a"][i][k] - al[i][k]) for k in range(T)] for i in range(T)]
        dmax = max(max(row) for row in diff)
        check(r["A_b_aligned"] == al and
              all(close(a, b, 1e-13) for x, y in zip(r["diff_map"], diff) for a, b in zip(x, y))
              and close(r["diff_max"], dmax, 1e-13),
              f"{tag} {m}: A_b_aligned, diff_map and diff_max ({dmax:.3g}) from A_a, A_b and perm")
        if m == "without_pe":
            check(r["diff_max"] <= 1e-12, f"{tag}: without positions diff_max {r['diff_max']:.1e}")
        else:
            check(r["diff_max"] >= 0.02, f"{tag} {m}: diff_max {r['diff_max']:.3f} >= 0.02")


def test_order_aligned():
    """--print order's B in A's order over the default sentence and 60 sentences of 3-12 words
    (at least two different words, words drawn with repeats), reversed and typed orders."""
    import random
    order_aligned_check(js("--print", "order"), "default")
    order_aligned_check(js("--print", "order", "--compare", "学习我爱"), "--compare 学习我爱")
    order_aligned_check(js("--print", "order", "dog bites man"), "dog bites man")
    rng = random.Random(27)
    n = 12 if WRAPPER else 60
    for k in range(n):
        T = 3 + k % 10
        while True:
            words = [rng.choice(ORDER_WORDS) for _ in range(T)]
            if len(set(words)) >= 2:
                break
        text = " ".join(words)
        args = ["--print", "order", text]
        if k % 3 == 2:  # an order of the class's own: the words shuffled
            other = words[:]
            while other == words:
                rng.shuffle(other)
            args = ["--print", "order", "--compare", " ".join(other), text]
        order_aligned_check(js(*args), " ".join(args[2:]))


def alibi_slopes(n):
    """The ALiBi paper's get_slopes, written out here."""
    def power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start ** i for i in range(n)]
    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + alibi_slopes(2 * closest)[0::2][: n - closest]


def write_npy(path, rows, dtype="<f8", fortran=False):
    """An .npy file written by hand (numpy's format 1.0), float64 or float32, C order."""
    fmt = {"<f8": "d", "<f4": "f", "<i4": "i"}[dtype]
    shape = (len(rows), len(rows[0]))
    header = ("{'descr': '%s', 'fortran_order': %s, 'shape': (%d, %d), }"
              % (dtype, fortran, *shape))
    header += " " * (-(10 + len(header) + 1) % 64) + "\n"
    flat = [v for r in rows for v in r]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack(f"<{len(flat)}{fmt}", *flat))


def write_safetensors(path, tensors, header_len=None):
    """A .safetensors file by hand: 8-byte header length, JSON header, float32 data."""
    head, blobs, off = {}, b"", 0
    for name, rows in tensors.items():
        data = struct.pack(f"<{len(rows) * len(rows[0])}f", *[v for r in rows for v in r])
        head[name] = {"dtype": "F32", "shape": [len(rows), len(rows[0])],
                      "data_offsets": [off, off + len(data)]}
        blobs += data
        off += len(data)
    h = json.dumps(head).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h) if header_len is None else header_len) + h + blobs)


def test_schemes():
    """The position schemes' --print contract (bias, rope-scaling, schemes, pe of a learned
    table) against values worked out here, and one sentence with exit 2 for a bad file."""
    # ALiBi: slopes of the paper's reference code (8 heads and 12, not a power of two)
    for heads in (8, 12):
        j = js("--print", "bias", "--scheme", "alibi", "--heads", str(heads), "-n", "5")
        want = alibi_slopes(heads)
        check(j["scheme"] == "alibi" and j["heads"] == heads and j["mask"] == "symmetric" and
              all(close(a, b, 1e-15) for a, b in zip(j["slopes"], want)) and
              len(j["slopes"]) == heads, f"ALiBi slopes of {heads} heads")
        check(len(j["bias"]) == heads and all(
            close(j["bias"][h][i][k], -want[h] * abs(i - k), 1e-12)
            for h in range(heads) for i in range(5) for k in range(5)),
            f"ALiBi bias [H][N][N] = -m_h |i - j| ({heads} heads)")
    j = js("--print", "bias", "--scheme", "alibi", "--heads", "4", "-n", "3", "--mask", "causal")
    check(j["mask"] == "causal" and j["bias"][0][0][1] is None and j["bias"][0][1][0] == -0.25,
          "causal ALiBi: keys after the query masked (null), -m |i - j| before")
    # T5: the bucket of key j for query i, bidirectional, 32 buckets up to 128
    j = js("--print", "bias", "--scheme", "t5", "-n", "40")
    b = j["buckets"]
    check(j["num_buckets"] == 32 and j["max_distance"] == 128 and j["bidirectional"] is True,
          "T5 keys")
    check(all(b[i][k] == (i - k if i >= k else 16 + k - i) for i in range(8) for k in range(8)),
          "T5: one bucket per distance under 8, keys after the query in the upper 16")
    check(all(b[i][k] == b[i + 1][k + 1] for i in range(39) for k in range(39)),
          "T5 buckets depend on j - i only")
    check(all(b[i][0] <= b[i + 1][0] for i in range(39)) and b[39][0] < 16,
          "T5 buckets grow with the distance")
    # RoPE scalings: linear divides every frequency by the factor
    j = js("--print", "rope-scaling", "--scaling", "linear", "--factor", "4", "-d", "8")
    want = [10000 ** (-2 * i / 8) for i in range(4)]
    check(j["scaling"] == "linear" and j["factor"] == 4 and j["base"] == 10000 and
          all(close(a, b, 1e-15) for a, b in zip(j["original"], want)) and
          all(close(a, b / 4, 1e-15) for a, b in zip(j["inv_freq"], want)),
          "linear: inv_freq = original / 4")
    j = js("--print", "rope-scaling", "--scaling", "llama3", "-d", "128")
    check(j["factor"] == 8 and j["original_context"] == 8192 and j["low_freq_factor"] == 1 and
          j["high_freq_factor"] == 4 and len(j["inv_freq"]) == 64, "llama3: Llama 3.1's defaults")
    # schemes: one curve per scheme against distance
    p = run("--print", "schemes", "-d", "16", "-n", "6", "--format", "csv")
    rows = list(csv.reader(io.StringIO(p.stdout.decode())))
    check(rows[0] == ["distance", "none", "sinusoidal", "learned", "rope", "alibi", "t5"],
          f"schemes CSV header: {rows[0]}")
    sin = [sum(math.cos(k * 10000 ** (-2 * i / 16)) for i in range(8)) / 8 for k in range(6)]
    check(all(close(float(r[2]), sin[k], 1e-12) and close(float(r[4]), sin[k], 1e-12) and
              float(r[1]) == 0 and close(float(r[5]), -0.5 * k, 1e-12)
              for k, r in enumerate(rows[1:])),
          "sinusoidal and RoPE (q = k): (2/d) sum cos(k w_i); ALiBi head 1: -k/2; NoPE: 0")
    j = js("--print", "schemes", "--scheme", "t5,learned", "-n", "4")
    check(list(j["schemes"]) == ["t5", "learned"] and
          j["schemes"]["learned"]["trained_length"] == 1024 and
          j["schemes"]["learned"]["trained"] is False and
          j["schemes"]["t5"]["trained_length"] == 128, "--scheme picks the curves, with L")
    # a learned table from a file: .npy (float64, float32) and .safetensors
    with tempfile.TemporaryDirectory() as d:
        table = [[math.sin(0.3 * p + k) for k in range(6)] for p in range(5)]
        f8, f4, st = (os.path.join(d, n) for n in ("t8.npy", "t4.npy", "gpt2.safetensors"))
        write_npy(f8, table)
        write_npy(f4, table, "<f4")
        write_safetensors(st, {"wte.weight": [[1.0] * 6] * 3, "h.0.wpe.weight": table})
        for path, tol in ((f8, 1e-14), (f4, 1e-7), (st, 1e-7)):  # JSON: 15 digits
            j = js("--print", "pe", "--pe-file", path)
            check(j["scheme"] == "learned" and j["trained"] is True and j["positions"] == 5 and
                  j["d_model"] == 6 and all(close(a, b, tol) for ra, rb in zip(j["pe"], table)
                                            for a, b in zip(ra, rb)),
                  f"--pe-file {os.path.basename(path)}: the table read back")
        check(js("--print", "pe", "--pe-file", st)["tensor"] == "h.0.wpe.weight",
              "safetensors: the position table found by its name")
        j = js("--print", "pe", "--pe-file", st, "--pe-tensor", "wte.weight")
        check(j["positions"] == 3, "--pe-tensor names another tensor")
        # -n N: the table's first N rows in every format (a 10^6-row table wrote 96 MB)
        j = js("--print", "pe", "--pe-file", st, "-n", "2")
        check(j["positions"] == 2 and len(j["pe"]) == 2 and
              all(close(a, b, 1e-7) for ra, rb in zip(j["pe"], table) for a, b in zip(ra, rb)),
              "--pe-file with -n 2: JSON holds rows 0 and 1")
        rows_csv = run("--print", "pe", "--pe-file", st, "-n", "2", "--format", "csv").stdout
        text = run("--print", "pe", "--pe-file", st, "-n", "2").stdout.decode()
        check(len(rows_csv.splitlines()) == 3 and "2 positions x 6" in text and
              "\n      2 " not in text, "--pe-file with -n 2: CSV and text hold two rows")
        # bad files: one sentence, exit 2, nothing on stdout
        bad = {}
        bad["truncated.npy"] = open(f8, "rb").read()[:-9]
        bad["junk.npy"] = b"not an npy file at all"
        bad["empty.npy"] = b""
        write_npy(os.path.join(d, "int.npy"), [[1, 2], [3, 4]], "<i4")
        write_npy(os.path.join(d, "fortran.npy"), table, fortran=True)
        write_safetensors(os.path.join(d, "lies.safetensors"), {"wpe.weight": table},
                          header_len=10 ** 12)
        h = json.dumps({"wpe.weight": {"dtype": "F32", "shape": [100000000, 100000],
                                       "data_offsets": [0, 16]}}).encode()
        bad["huge.safetensors"] = struct.pack("<Q", len(h)) + h + bytes(16)
        for name, data in bad.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        for name in ("truncated.npy", "junk.npy", "empty.npy", "int.npy", "fortran.npy",
                     "lies.safetensors", "huge.safetensors", "missing.npy"):
            p = run("--print", "pe", "--pe-file", os.path.join(d, name), ok=False)
            err = p.stderr.decode()
            check(p.returncode == 2 and p.stdout == b"" and err.count("\n") == 1 and
                  "--pe-file" in err, f"{name}: exit 2 and one sentence ({err.strip()})")
        p = run("--print", "pe", "--pe-file", st, "--pe-tensor", "nope", ok=False)
        check(p.returncode == 2 and b"wpe.weight" in p.stderr, "an unknown tensor: the names")
    # --scheme where nothing reads it is refused, not ignored
    for args in (["--print", "input"], ["--print", "dot"], ["--print", "tokens"]):
        p = run(*args, "--scheme", "learned", ok=False)
        check(p.returncode == 2 and b"--scheme" in p.stderr, f"{args[1]} refuses --scheme")
    p = run("--print", "bias", "--scheme", "rope", ok=False)
    check(p.returncode == 2 and b"--print schemes" in p.stderr, "bias of rope: says where to look")


def test_errors():
    cases = [
        (["-d", "7"], "even"), (["-d", "0"], "even"), (["-d", "-4"], "even"), (["-d", "12abc"], "whole number"),
        (["-d", "2147483648"], "even"), (["-n", "0"], "from 1"), (["-n", "99999999999"], "from 1"),
        (["--base", "1"], "greater than 1"), (["--base", "nan"], "greater than 1"), (["--base", "inf"], "greater than 1"),
        (["--index-base", "2"], "from 0 to 1"), (["--print", "nothing"], "unknown --print"),
        (["--format", "xml", "--print", "pe"], "--format"), (["--rope-style", "neox"], "interleaved or half"),
        (["--bogus"], "unknown option"), (["-d"], "needs a value"), (["--print", "tokens", "--format", "npy"], "matrices"),
        (["--offset", "64"], "below the number of positions"), (["--print", "dot", "-n", "5000"], "4096"),
        (["--seed", "-1"], "non-negative"),
    ]
    for args, needle in cases:
        p = run(*args, ok=False)
        err = p.stderr.decode()
        check(p.returncode == 2 and needle in err and err.count("\n") == 1 and not p.stdout,
              f"{' '.join(args)} -> one sentence with '{needle}' (got {p.returncode}: {err.strip()})")
    # --help and --version act in their turn: what comes after them is not judged
    p = run("--version", "--bogus", ok=False)
    check(p.returncode == 0 and b"tfviz" in p.stdout and not p.stderr, "--version --bogus: the version")
    p = run("--help", "-n", ok=False)
    check(p.returncode == 0 and b"Usage" in p.stdout and not p.stderr, "--help -n: the help")
    p = run("--print", "tokens", "-", stdin=b"\xe6\x88\x91\xff", ok=False)
    check(p.returncode == 2 and b"offset 3" in p.stderr, "invalid UTF-8 names the byte offset")
    p = run("--print", "tokens", "   ", ok=False)
    check(p.returncode == 2 and b"empty" in p.stderr, "empty text")
    # the report's sections past the work limit name their estimate and the limit
    out = run("-d", "16384", " ".join(["我"] * 200)).stdout.decode()
    m = re.search(r"skipped: about (\d+) s of work with these settings, past the limit of 20 s; "
                  r"tfviz --print order says", out)
    check(m is not None and int(m.group(1)) > 20, "a skipped section names its work and the limit")
    p = run("--print", "tokens", "-", stdin=b"x" * 70000, ok=False)
    check(p.returncode == 2 and b"longer than" in p.stderr, "too long text")
    p = run("--print", "tokens", "-", stdin=b"x" * 2000, ok=False)
    check(p.returncode == 2 and b"tokens" in p.stderr, "too many tokens")
    p = run("--print", "tokens", "\x1b[31mred")
    check(p.returncode == 0 and b"\x1b" not in p.stdout and b"\\x1B" in p.stdout, "escape sequences shown escaped")


def test_output():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "pe.csv")
        run("--print", "pe", "--format", "csv", "-d", "4", "-n", "3", "-o", path)
        check(open(path).read().startswith("pos,0,1,2,3\n"), "-o writes the file")
        check(os.listdir(d) == ["pe.csv"], "no temporary file left")
        p = run("--print", "pe", "-o", os.path.join(d, "no", "such", "dir.csv"), ok=False)
        check(p.returncode == 1 and b"cannot write" in p.stderr, "unwritable path: exit 1")
        p = run("--print", "pe", "-o", d, ok=False)
        check(p.returncode == 1 and b"directory" in p.stderr.lower(), "path is a directory")
        p = run("--print", "order", "--compare", "abc", "-o", path, ok=False)
        check(p.returncode == 2 and open(path).read().startswith("pos,0,1,2,3\n"), "failed run keeps the old file")
        check(sorted(os.listdir(d)) == ["pe.csv"], "still no temporary file")
    p = run("--format", "csv", ok=False)
    check(p.returncode == 2 and b"--print" in p.stderr, "--format without --print is refused")
    # the order model, tiny, so that the memcheck setup runs its front-end code under valgrind too
    # (tests/order_cli_test.py checks the numbers)
    tiny = ("--order-pairs", "8,2", "--epochs", "2", "-d", "8", "--threads", "2")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "curves.json")
        run("--print", "order-training", "--format", "json", *tiny, "-o", path)
        j = json.load(open(path))
        check(len(j["curves"]) == 3 * 4 and j["model"]["d_model"] == 8,
              "order-training: 3 points x 4 schemes")
        task = os.path.join(d, "task.txt")
        p = run("--train-order", *tiny, "-o", task)
        check(b"After training, epoch 2" in p.stdout and os.path.exists(task), "--train-order -o task")
        p = run("--train-order", "--order-task", task, "--epochs", "1", "-d", "8")
        check(b"sentences from" in p.stdout, "--order-task reads the written task back")
        check(sorted(os.listdir(d)) == ["curves.json", "task.txt"],
              "order model outputs, no temporary file")


def main():
    global TFVIZ
    TFVIZ, group = sys.argv[1], sys.argv[2]
    return run_group(globals(), group)


if __name__ == "__main__":
    sys.exit(main())
