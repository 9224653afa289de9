#!/usr/bin/env python3
"""Command-line tests of learned embeddings: --train, --vectors, --print neighbors/similarity.
Expected values are recomputed here from the files with Python's math module.

Usage: w2v_cli_test.py TFVIZ FIXTURES_DIR GROUP"""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from harness import FAILS, check, run_group, run_tfviz  # noqa: E402

TFVIZ = None
FIXTURES = None


def run(*args, ok=True):
    return run_tfviz(TFVIZ, args, ok=ok)


def read_vec(path):
    """word2vec text or binary, read independently of tfviz."""
    data = open(path, "rb").read()
    nl = data.index(b"\n")
    n, dim = map(int, data[:nl].split())
    rest = data[nl + 1:]
    table = {}
    order = []
    if path.endswith(".bin"):
        i = 0
        for _ in range(n):
            while rest[i:i + 1] == b"\n":
                i += 1
            sp = rest.index(b" ", i)
            w = rest[i:sp].decode()
            vals = struct.unpack(f"<{dim}f", rest[sp + 1:sp + 1 + 4 * dim])
            i = sp + 1 + 4 * dim
            table[w] = list(vals)
            order.append(w)
    else:
        for line in rest.decode().splitlines():
            if not line.strip():
                continue
            parts = line.split()
            table[parts[0]] = [float(x) for x in parts[1:]]
            order.append(parts[0])
    assert len(table) == n and all(len(v) == dim for v in table.values())
    return dim, table, order


def cos(a, b):
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    return sum(x * y for x, y in zip(a, b)) / (na * nb) if na and nb else 0.0


def neighbours(table, word, k):
    sims = [(cos(table[word], v), w) for w, v in table.items() if w != word]
    sims.sort(key=lambda t: -t[0])
    return sims[:k]


# ------------------------------------------------------------------------------------------

# The kinds of words of the built-in corpus (assets/make_corpus.py), written out here: a probe's
# nearest words should mostly be of its own kind.
KINDS = {
    "爱": "爱 喜欢 热爱 讨厌 害怕 想念 关心 担心 珍惜 怀念 羡慕 享受 开心 高兴 难过 生气 伤心 快乐",
    "猫": "猫 狗 兔子 小鸟 马 牛 羊 熊猫 老虎 猴子 鸭子 大象 狮子 松鼠 乌龟 鹦鹉 小鸡 猪 狐狸 长颈鹿",
    "北京": "北京 上海 广州 深圳 杭州 南京 成都 西安 重庆 武汉 天津 苏州 长沙 青岛 厦门 昆明 大连 "
            "郑州 沈阳 哈尔滨",
    "老师": "老师 医生 学生 警察 司机 护士 厨师 农民 律师 记者 工人 校长 我 你 他 她 我们 他们 小明 "
            "小红 妈妈 爸爸 哥哥 姐姐 弟弟 妹妹 爷爷 奶奶 朋友 同学 邻居 孩子",
    "苹果": "苹果 香蕉 橘子 葡萄 西瓜 草莓 面包 米饭 面条 饺子 鸡蛋 蛋糕 包子 桃子 梨 饼干 馒头 豆腐 "
            "土豆 西红柿 茶 咖啡 牛奶 果汁",
}


# The same kinds in the English built-in corpus (assets/make_corpus_en.py), for --lang en.
KINDS_EN = {
    "love": "love like adore hate fear miss value dread cherish envy admire enjoy happy glad sad "
            "angry upset cheerful",
    "cat": "cat dog rabbit bird horse cow sheep panda tiger monkey duck elephant lion squirrel "
           "turtle parrot chick pig fox giraffe",
    "London": "London Paris Berlin Rome Madrid Tokyo Sydney Chicago Boston Toronto Dublin Vienna "
              "Prague Lisbon Seattle Denver Moscow Cairo Athens Oslo",
    "teacher": "teacher doctor student officer driver nurse chef farmer lawyer reporter worker "
               "principal I you he she we they Tom Anna mom dad brother sister uncle aunt "
               "grandpa grandma friend classmate neighbor child",
    "apple": "apple banana orange grape melon strawberry bread rice pasta soup egg cake pie peach "
             "pear cheese tofu potato tomato honey tea coffee milk juice",
}


def meaning(lang, kinds, pair, control):
    """A --train run in lang learns meaning: the 5 nearest words of each probe, computed here
    from the written vectors, are mostly (3 of 5 at least) of their own kind; the baseline band
    (every pair of the 200 commonest words, the file's first 200 rows) has a mean of at most
    +0.2 and is what --train prints; the control pair sits inside the band or below it, the
    similar pair above it and at least 0.4 higher. Returns (similar, control, band mean)."""
    with tempfile.TemporaryDirectory() as d:
        vec = os.path.join(d, "a.vec")
        p = run("--train", "--lang", lang, "-o", vec)
        out = p.stdout.decode()
        dim, t, order = read_vec(vec)
        for probe, kind in kinds.items():
            near = [w for _, w in neighbours(t, probe, 5)]
            own = [w for w in near if w in kind.split()]
            check(len(own) >= 3, f"{probe}'s 5 nearest words are mostly of its kind: {near}")
        top = order[:200]
        cs = [cos(t[a], t[b]) for i, a in enumerate(top) for b in top[i + 1:]]
        mean = sum(cs) / len(cs)
        sd = math.sqrt(max(sum(c * c for c in cs) / len(cs) - mean * mean, 0))
        check(mean <= 0.2, f"the band's mean {mean:+.3f} is at most +0.2 (sd {sd:.3f})")
        want = f"every pair of the 200 commonest words, mean {mean:+.3f}, sd {sd:.3f}"
        check(want in out, f"--train prints the band: {want}")
        ctrl = cos(t[control[0]], t[control[1]])
        check(ctrl <= mean + sd, f"the control {'-'.join(control)} {ctrl:+.3f} is inside or "
                                 f"below the band {mean:+.3f} +- {sd:.3f}")
        love = cos(t[pair[0]], t[pair[1]])
        check(love > mean + sd and love > ctrl + 0.4,
              f"{'-'.join(pair)} {love:+.3f} stands above the band and the control")
        check(f"{pair[0]}" in out and f"{control[1]}" in out and "control" in out,
              f"--train's summary follows the pairs of its language ({pair}, {control})")
        # --print training trains the same way: its last step holds the file's cosines
        j = json.loads(run("--print", "training", "--lang", lang, "--format", "json").stdout)
        last = j["steps"][-1]["cosine"]
        check(j["pairs"][0] == list(pair) and j["pairs"][-1] == list(control) and
              abs(last[0] - love) < 1e-3 and abs(last[-1] - ctrl) < 1e-3,
              f"--print training --lang {lang}: {j['pairs'][0]} {last[0]:+.3f}, "
              f"{j['pairs'][-1]} {last[-1]:+.3f}")
        return love, ctrl, mean


def test_meaning():
    """The Chinese built-in corpus learns meaning (issue 28), and the English one (--lang en,
    issue 29) as well as it: its similar pair love-like is as close as 爱-喜欢 (within 0.1),
    the controls both far below."""
    zh = meaning("zh", KINDS, ("爱", "喜欢"), ("爱", "北京"))
    en = meaning("en", KINDS_EN, ("love", "like"), ("love", "London"))
    print(f"# cos(爱, 喜欢) {zh[0]:+.3f}, cos(爱, 北京) {zh[1]:+.3f}; "
          f"cos(love, like) {en[0]:+.3f}, cos(love, London) {en[1]:+.3f}")
    check(abs(en[0] - zh[0]) < 0.1 and en[1] < en[0] - 0.4,
          f"English trains as Chinese: love-like {en[0]:+.3f} vs 爱-喜欢 {zh[0]:+.3f}")


def test_train():
    with tempfile.TemporaryDirectory() as d:
        vec, vec2, binf = (os.path.join(d, n) for n in ("a.vec", "b.vec", "c.bin"))
        p = run("--train", "-o", vec)
        out = p.stdout.decode()
        check("爱" in out and "喜欢" in out and "control" in out, "summary lists the pairs")
        check(b"tokens/s" in p.stderr, "speed reported on stderr")
        dim, t, order = read_vec(vec)
        check(dim == 50 and len(t) > 150, f"text file: {len(t)} words x {dim}")
        love, ctrl = cos(t["爱"], t["喜欢"]), cos(t["爱"], t["北京"])
        check(love > 0.6 and love > ctrl + 0.4, f"cos(爱,喜欢) {love:.3f} > cos(爱,北京) {ctrl:.3f}")
        check("狗" in [w for _, w in neighbours(t, "猫", 5)], "猫's neighbours include 狗")
        check(order[0] in ("我", "的", "在", "很"), f"rows ranked by frequency (first: {order[0]})")
        quick = ("-d", "8", "--epochs", "1")  # settings for the checks that need no quality
        run("--train", *quick, "-o", vec)
        run("--train", *quick, "-o", vec2)
        check(open(vec, "rb").read() == open(vec2, "rb").read(), "same seed, same bytes")
        run("--train", "--seed", "7", "-d", "16", "--epochs", "1", "-o", binf)
        dim, tb, _ = read_vec(binf)
        check(dim == 16 and set(tb) == set(t), "binary file, -d 16, same vocabulary")
        p = run("--train", *quick, "--threads", "2", "--window", "3", "--negative", "3",
                "--sample", "0", "--min-count", "5")
        check("Nearest" in p.stdout.decode(), "threads 2 and settings run")
        run("--train", "--tokenizer", "char", "-d", "16", "-o", vec2)
        j = json.loads(run("--vectors", vec2, "--print", "similarity", "--format", "json",
                           "--tokenizer", "char", "我爱喜欢").stdout)
        check(j["row_source"] == ["loaded"] * 4, "--tokenizer char trains rows for every character")
        check(j["cosine"][1][2] > 0.6, f"cos(爱,喜) {j['cosine'][1][2]:.3f} in char vectors")
        corpus = os.path.join(d, "c.txt")
        with open(corpus, "w") as f:
            f.write("今天天气很好。\n我们去公园散步吧。\n" * 30)
        p = run("--train", "--corpus", corpus, "--min-count", "1", "-o", vec)
        _, tc, _ = read_vec(vec)
        check(len(tc) > 0 and "。" not in tc, f"unsegmented corpus tokenized ({len(tc)} words)")
        with open(corpus, "w") as f:
            f.write("the cat sat on the mat.\nthe dog sat on the log!\n" * 20)
        run("--train", "--corpus", corpus, "--min-count", "1", "-o", vec)
        _, te, _ = read_vec(vec)
        check(set(te) == {"the", "cat", "sat", "on", "mat", "dog", "log"},
              f"English text split at spaces: {sorted(te)}")


def fixtures(d):
    """gensim's own files: made now when gensim is installed, else the committed copies."""
    probe = subprocess.run(["/usr/bin/python3", "-c", "import gensim"], capture_output=True) \
        if os.path.exists("/usr/bin/python3") else None
    if probe is not None and probe.returncode == 0:
        subprocess.run(["/usr/bin/python3", os.path.join(FIXTURES, "make_gensim_vectors.py"), d],
                       check=True)
        print("# fixtures written by gensim now")
    else:
        for n in ("gensim.vec", "gensim.bin"):
            shutil.copy(os.path.join(FIXTURES, n), d)
        print("# committed gensim fixtures")
    # fastText writes a space after the last number of every row
    with open(os.path.join(d, "fasttext.vec"), "w") as f:
        _, t, order = read_vec(os.path.join(d, "gensim.vec"))
        f.write(f"{len(order)} 4\n")
        for w in order:
            f.write(w + " " + " ".join(f"{x:.4f}" for x in t[w]) + " \n")


def test_vectors():
    with tempfile.TemporaryDirectory() as d:
        fixtures(d)
        for name in ("gensim.vec", "gensim.bin", "fasttext.vec"):
            path = os.path.join(d, name)
            _, t, _ = read_vec(path)
            j = json.loads(run("--print", "neighbors", "--vectors", path, "--word", "爱",
                               "--top", "3", "--format", "json").stdout)
            want = neighbours(t, "爱", 3)
            got = [(n["cosine"], n["word"]) for n in j["neighbors"]]
            check([w for _, w in got] == [w for _, w in want] and
                  all(abs(a - b) < 1e-6 for (a, _), (b, _) in zip(got, want)),
                  f"{name}: neighbours of 爱 {[w for _, w in got]}")
            check(j["dim"] == 4 and j["rows"] == 7, f"{name}: shape")
            # as W_E: single-character words replace the rows of their characters
            j = json.loads(run("--vectors", path, "--print", "similarity", "--format", "json",
                               "--tokenizer", "char", "猫爱学").stdout)
            check(j["row_source"] == ["loaded", "loaded", "random"], f"{name}: row sources")
            check(abs(j["cosine"][0][1] - cos(t["猫"], t["爱"])) < 1e-6, f"{name}: cos(猫,爱)")
            e = json.loads(run("--vectors", path, "--print", "embedding", "--format", "json",
                               "--tokenizer", "char", "猫").stdout)
            check(e["d_model"] == 4 and all(abs(a - b) < 1e-6 for a, b in
                                            zip(e["tokens"][0]["row"], t["猫"])),
                  f"{name}: W_E row of 猫 is the file's, d_model follows the file")
            # word mode (the default when the dictionary is built): 喜欢 is one token, its row
            # is the file's
            j = json.loads(run("--vectors", path, "--print", "similarity", "--format", "json",
                               "我爱喜欢").stdout)
            if j["tokens"] == ["我", "爱", "喜欢"]:
                check(j["row_source"] == ["random", "loaded", "loaded"] and
                      abs(j["cosine"][1][2] - cos(t["爱"], t["喜欢"])) < 1e-6,
                      f"{name}: word mode loads the row of 喜欢")
            else:
                print(f"# no word dictionary in this build: tokens {j['tokens']}")
        p = run("--vectors", os.path.join(d, "gensim.vec"), "--print", "embedding", "猫")
        check(b"trained/loaded" in p.stdout and b"*" in p.stdout, "text report marks loaded rows")
        csv = run("--print", "neighbors", "--vectors", os.path.join(d, "gensim.bin"), "--word",
                  "北京", "--top", "1", "--format", "csv").stdout.decode().splitlines()
        check(csv[0] == "rank,word,cosine" and csv[1].startswith("1,上海,"), "neighbors csv")


def test_similarity():
    j = json.loads(run("--print", "similarity", "--format", "json", "-d", "16", "--tokenizer",
                       "char", "我爱我").stdout)
    e = json.loads(run("--print", "embedding", "--format", "json", "-d", "16", "--tokenizer",
                       "char", "我爱我").stdout)
    rows = [t["row"] for t in e["tokens"]]
    worst = max(abs(j["cosine"][a][b] - cos(rows[a], rows[b])) for a in range(3) for b in range(3))
    check(worst < 1e-9, f"cosine matrix from the W_E rows (max diff {worst:.1e})")
    check(abs(j["cosine"][0][2] - 1) < 1e-12 and j["row_source"] == ["random"] * 3,
          "same token, cosine 1; rows random")
    out = run("--print", "similarity", "--format", "csv", "--tokenizer", "char",
              "我爱").stdout.decode().splitlines()
    check(out[0] == "token,我,爱" and len(out) == 3, "similarity csv")
    # without --vectors, neighbours come from vectors trained on the built-in corpus
    j = json.loads(run("--print", "neighbors", "--word", "猫", "--format", "json").stdout)
    check("狗" in [n["word"] for n in j["neighbors"][:5]], "neighbors of 猫 without a file")


def test_curves():
    import csv
    import io
    with tempfile.TemporaryDirectory() as d:
        vec = os.path.join(d, "v.vec")
        out = run("--train", "-o", vec).stdout.decode()
        m = re.search(r"corpus: built-in, \d+ sentences, (\d+) tokens", out)
        tokens = int(m.group(1)) if m else -1
        _, t, order = read_vec(vec)
        rows = list(csv.DictReader(io.StringIO(
            run("--print", "training", "--format", "csv").stdout.decode())))
        check(rows[0]["step"] == "0" and rows[0]["loss"] == "" and
              abs(float(rows[0]["cos_爱_喜欢"])) < 0.45, "step 0: the random start, no loss yet")
        last = rows[-1]
        # single-threaded training is the same however it is cut into steps: the last row
        # matches the file --train wrote (same seed)
        for a, b in (("爱", "喜欢"), ("猫", "狗"), ("爱", "北京")):
            want = cos(t[a], t[b])
            check(abs(float(last[f"cos_{a}_{b}"]) - want) < 1e-6,
                  f"last step cos({a},{b}) {float(last[f'cos_{a}_{b}']):.6f} = file {want:.6f}")
        check(float(last["loss"]) < 0.8 * float(rows[1]["loss"]), "the loss falls")
        check(int(last["words"]) == 5 * tokens and len(rows) > 50,
              f"{len(rows)} rows to the end, {last['words']} words = 5 epochs x {tokens} tokens")
        j = json.loads(run("--print", "training", "--format", "json", "--epochs", "1", "-d",
                           "8").stdout)
        check(j["pairs"][0] == ["爱", "喜欢"] and j["steps"][0]["loss"] is None and
              j["steps"][-1]["words"] == j["words_total"], "training json")

        n = 40
        j = json.loads(run("--print", "pca", "--vectors", vec, "--top", str(n), "--format",
                           "json").stdout)
        xs = [p["xy"][0] for p in j["points"]]
        ys = [p["xy"][1] for p in j["points"]]
        check([p["word"] for p in j["points"]] == order[:n], "pca maps the first rows")
        mean = lambda v: sum(v) / len(v)
        vx = mean([x * x for x in xs]) - mean(xs) ** 2
        vy = mean([y * y for y in ys]) - mean(ys) ** 2
        cxy = mean([x * y for x, y in zip(xs, ys)]) - mean(xs) * mean(ys)
        check(abs(mean(xs)) < 1e-9 and abs(mean(ys)) < 1e-9, "map centred")
        check(abs(vx - j["variance"][0]) < 1e-9 * max(1, vx) and
              abs(vy - j["variance"][1]) < 1e-9 * max(1, vy) and vx >= vy,
              "variance along each axis is its eigenvalue, first axis largest")
        check(abs(cxy) < 1e-6 * vx, "the two coordinates are uncorrelated")
        rows = [t[w] for w in order[:n]]
        dim = len(rows[0])
        mu = [mean([r[k] for r in rows]) for k in range(dim)]
        total = sum(mean([(r[k] - mu[k]) ** 2 for r in rows]) for k in range(dim))
        check(abs(total - j["variance_total"]) < 1e-6 * total, "total variance = trace")
        try:
            import numpy as np  # an independent eigen-solver, when available
        except ImportError:
            np = None
        if np is not None:
            x = np.array(rows) - np.array(mu)
            ev = np.linalg.eigvalsh(x.T @ x / n)[::-1]
            check(abs(ev[0] - vx) < 1e-6 * ev[0] and abs(ev[1] - vy) < 1e-6 * ev[0],
                  f"numpy eigenvalues {ev[0]:.6f} {ev[1]:.6f}")
        else:
            print("# numpy not installed for this python: eigenvalues checked through the "
                  "variances only")
        out = run("--print", "pca", "--vectors", vec, "--top", "3", "--format", "csv").stdout
        check(out.decode().splitlines()[0] == "word,x,y", "pca csv")


def bad_file(d, name, data):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_errors():
    with tempfile.TemporaryDirectory() as d:
        f32 = struct.pack("<2f", 1.0, 2.0)
        cases = [
            ("header.vec", b"hello\n", "line 1"),
            ("short.vec", b"2 3\na 1 2 3\nb 1 2\n", "line 3"),
            ("nan.vec", b"1 2\na nan 1\n", "line 2"),
            ("inf.vec", b"1 2\na 1 -inf\n", "line 2"),
            ("utf8.vec", b"1 2\n\xff\xfe 1 2\n", "line 2"),
            ("trunc.bin", b"2 2\nab " + f32 + b"cd " + f32[:5], "byte 18"),
            ("huge.vec", b"9999999 2\na 1 2\n", "line 3"),
            ("toobig.vec", b"9999999 300\na 1 2\n", "--vectors-limit"),
            ("empty.vec", b"", "line 1"),
        ]
        out = os.path.join(d, "out.csv")
        for name, data, where in cases:
            path = bad_file(d, name, data)
            p = run("--print", "neighbors", "--vectors", path, "--word", "a", "-o", out, ok=False)
            err = p.stderr.decode()
            check(p.returncode == 2 and where in err and err.count("\n") == 1 and
                  "Traceback" not in err, f"{name}: exit 2, one sentence with '{where}': {err.strip()}")
            p = run("--vectors", path, "我", ok=False)
            check(p.returncode == 2, f"{name}: --vectors refuses it too")
        check(not os.path.exists(out), "no output file after errors")
        good = bad_file(d, "good.vec", b"2 2\n\xe7\x8c\xab 1 2\n\xe7\x8b\x97 2 1\n")
        odd = bad_file(d, "odd.vec", b"1 3\n\xe7\x8c\xab 1 2 3\n")
        for args, what in [
            (("--vectors", os.path.join(d, "missing.vec"), "猫"), "cannot read"),
            (("--print", "neighbors", "--vectors", good), "--word"),
            (("--print", "neighbors", "--vectors", good, "--word", "鱼"), "not among"),
            (("--vectors", good, "-d", "8", "猫"), "differs"),
            (("--vectors", odd, "猫"), "even"),
            (("--train", "--corpus", os.path.join(d, "missing.txt")), "cannot open"),
            (("--train", "--corpus", d), "cannot read"),
            (("--vectors", d, "猫"), "cannot read"),
            (("--train", "--corpus", bad_file(d, "bad.txt", b"ok\n\xff\n")), "line 2"),
            (("--train", "--epochs", "0"), "--epochs"),
            (("--train", "--sample", "2"), "--sample"),
            (("--train", "--corpus", bad_file(d, "one.txt", "甲乙丙".encode()), "--min-count", "5"),
             "min-count"),
            (("--train", "--print", "tokens"), "separate"),
        ]:
            p = run(*args, ok=False)
            err = p.stderr.decode()
            check(p.returncode == 2 and what in err, f"{' '.join(args[:3])}: {err.strip()}")


def main():
    global TFVIZ, FIXTURES
    TFVIZ, FIXTURES, group = sys.argv[1], sys.argv[2], sys.argv[3]
    return run_group(globals(), group)


if __name__ == "__main__":
    sys.exit(main())
