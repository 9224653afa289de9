#!/usr/bin/python3
"""bench_w2v.py — tfviz --train against gensim's Word2Vec, side by side: speed and quality.

    /usr/bin/python3 bench/bench_w2v.py [--tfviz build/app/tfviz] [--repeat 3] [--copies 10]
                                        [--dim 100] [--epochs 5] [--threads 2] [--json OUT]

Both train skip-gram with negative sampling (sg=1, negative=5, window=5) with the same vector
size, epochs, min_count and sample, 2 threads / 2 workers, on the same corpus: the built-in
corpus repeated --copies times (or --corpus FILE, segmented by spaces). Speed is corpus tokens
x epochs / training seconds (vocabulary building and file writing excluded on both sides; tfviz
reports its training time on stderr), the median of --repeat runs. Quality is measured twice:
  - a similarity test written for this corpus: for a word w, a word s of its class and a word o
    of another class, is cos(w, s) > cos(w, o)? (accuracy over all such triples);
  - the overlap of the top-10 neighbours of the probe words between the two programs, next to
    the overlap between two gensim runs with different seeds (the noise floor).
Needs Debian's python3-gensim (scripts/bootstrap.sh --bench installs it). bench/run.sh runs it
as a plug-in: TFVIZ names the binary, BENCH_QUICK=1 takes one run on 3 copies.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# word classes of the built-in corpus (assets/make_corpus.py)
CLASSES = {
    "love": ["爱", "喜欢", "热爱"],
    "study": ["学习", "读书"],
    "pet": ["猫", "狗", "兔子", "小鸟"],
    "city": ["北京", "上海", "广州", "深圳", "杭州", "南京", "成都", "西安"],
    "fruit": ["苹果", "香蕉", "橘子", "葡萄", "西瓜", "草莓"],
    "drink": ["茶", "咖啡", "牛奶", "果汁"],
    "vehicle": ["火车", "飞机", "汽车", "高铁"],
    "subject": ["数学", "历史", "音乐", "中文", "英语", "物理", "地理", "美术"],
    "hobby": ["运动", "旅行", "唱歌", "画画", "跑步", "游泳", "跳舞"],
}
PROBES = ["爱", "喜欢", "学习", "猫", "狗", "北京", "上海", "苹果", "香蕉", "咖啡", "火车", "数学"]

PUNCT = re.compile(r"^[\W_]+|[\W_]+$")


def words_of(line):
    """The same cut as tfviz on a space-segmented corpus: split at spaces, trim punctuation."""
    out = []
    for w in line.split():
        w = PUNCT.sub("", w)
        if w:
            out.append(w)
    return out


def read_vec(path):
    with open(path, encoding="utf-8") as f:
        n, dim = map(int, f.readline().split())
        table = {}
        for line in f:
            parts = line.rstrip().split(" ")
            table[parts[0]] = [float(x) for x in parts[1:]]
    return table


def unit(v):
    import math
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v]


class Space:
    """Cosine look-ups over a {word: vector} table."""

    def __init__(self, table):
        self.words = list(table)
        self.u = {w: unit(v) for w, v in table.items()}

    def cos(self, a, b):
        return sum(x * y for x, y in zip(self.u[a], self.u[b]))

    def top(self, w, k=10):
        sims = sorted(((self.cos(w, o), o) for o in self.words if o != w), reverse=True)
        return [o for _, o in sims[:k]]


def triples_accuracy(space):
    ok = total = 0
    for ca, wa in CLASSES.items():
        for w in wa:
            for s in wa:
                if s == w or w not in space.u or s not in space.u:
                    continue
                for cb, wb in CLASSES.items():
                    if cb == ca:
                        continue
                    for o in wb:
                        if o in space.u:
                            total += 1
                            ok += space.cos(w, s) > space.cos(w, o)
    return ok / total if total else float("nan"), total


def overlap(a, b, k=10):
    vals = [len(set(a.top(w, k)) & set(b.top(w, k))) / k for w in PROBES if w in a.u and w in b.u]
    return sum(vals) / len(vals) if vals else float("nan")


def run_tfviz(args, corpus, out):
    cmd = [args.tfviz, "--train", "--corpus", corpus, "-d", str(args.dim), "--epochs",
           str(args.epochs), "--window", "5", "--negative", "5", "--min-count",
           str(args.min_count), "--sample", str(args.sample), "--threads", str(args.threads),
           "-o", out]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    m = re.search(r"trained (\d+) tokens \((\d+) epochs\) in ([0-9.]+) s", p.stderr)
    tokens, secs = int(m.group(1)), float(m.group(3))
    return tokens / secs, secs, wall, tokens


def run_gensim(args, sentences, seed):
    from gensim.models import Word2Vec
    m = Word2Vec(vector_size=args.dim, sg=1, negative=5, hs=0, window=5,
                 min_count=args.min_count, sample=args.sample, workers=args.threads, seed=seed)
    m.build_vocab(sentences)
    n = sum(len(s) for s in sentences)
    kept = sum(1 for s in sentences for w in s if w in m.wv.key_to_index)
    t0 = time.perf_counter()
    m.train(sentences, total_examples=len(sentences), epochs=args.epochs)
    secs = time.perf_counter() - t0
    table = {w: m.wv[w].tolist() for w in m.wv.index_to_key}
    return kept * args.epochs / secs, secs, table, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # bench/run.sh names the binary (TFVIZ) and asks for a quick run (BENCH_QUICK)
    quick = bool(os.environ.get("BENCH_QUICK"))
    ap.add_argument("--tfviz", default=os.environ.get("TFVIZ") or
                    os.path.join(ROOT, "build", "app", "tfviz"))
    ap.add_argument("--corpus", help="a space-segmented corpus (default: the built-in one)")
    ap.add_argument("--copies", type=int, default=3 if quick else 10,
                    help="repeat the corpus (default 10, 3 with BENCH_QUICK)")
    ap.add_argument("--repeat", type=int, default=1 if quick else 3)
    ap.add_argument("--dim", type=int, default=100)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--min-count", type=int, default=5)
    ap.add_argument("--sample", type=float, default=1e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()
    try:
        import gensim
    except ImportError:
        sys.exit("bench_w2v: gensim is missing; install python3-gensim "
                 "(scripts/bootstrap.sh --bench) and run with /usr/bin/python3")

    src = args.corpus or os.path.join(ROOT, "assets", "corpus_zh.txt")
    text = open(src, encoding="utf-8").read()
    if not text.endswith("\n"):
        text += "\n"
    with tempfile.TemporaryDirectory() as d:
        corpus = os.path.join(d, "corpus.txt")
        with open(corpus, "w", encoding="utf-8") as f:
            f.write(text * args.copies)
        sentences = [ws for ws in (words_of(l) for l in (text * args.copies).splitlines()) if ws]
        n_tokens = sum(len(s) for s in sentences)

        tf_rates, tf_secs, g_rates, g_secs = [], [], [], []
        tf_table = g_table = g2_table = None
        for r in range(args.repeat):
            out = os.path.join(d, "tfviz.vec")
            rate, secs, _, _ = run_tfviz(args, corpus, out)
            tf_rates.append(rate)
            tf_secs.append(secs)
            if tf_table is None:
                tf_table = read_vec(out)
            rate, secs, table, _ = run_gensim(args, sentences, seed=1 + r)
            g_rates.append(rate)
            g_secs.append(secs)
            if g_table is None:
                g_table = table
            elif g2_table is None:
                g2_table = table
        if g2_table is None:
            g2_table = run_gensim(args, sentences, seed=99)[2]

    tf, g, g2 = Space(tf_table), Space(g_table), Space(g2_table)
    tf_acc, n_trip = triples_accuracy(tf)
    g_acc, _ = triples_accuracy(g)
    res = {
        "corpus": os.path.relpath(src, ROOT) if src.startswith(ROOT) else src,
        "copies": args.copies, "tokens": n_tokens, "dim": args.dim, "epochs": args.epochs,
        "threads": args.threads, "min_count": args.min_count, "sample": args.sample,
        "gensim_version": gensim.__version__, "repeat": args.repeat,
        "tfviz_tokens_per_s": statistics.median(tf_rates),
        "gensim_tokens_per_s": statistics.median(g_rates),
        "tfviz_train_s": statistics.median(tf_secs), "gensim_train_s": statistics.median(g_secs),
        "tfviz_similarity_accuracy": tf_acc, "gensim_similarity_accuracy": g_acc,
        "similarity_triples": n_trip,
        "top10_overlap_tfviz_gensim": overlap(tf, g),
        "top10_overlap_gensim_gensim": overlap(g, g2),
        "vocab_tfviz": len(tf_table), "vocab_gensim": len(g_table),
    }
    ratio = res["tfviz_tokens_per_s"] / res["gensim_tokens_per_s"]
    print(f"corpus {res['corpus']} x{args.copies}: {n_tokens} tokens, {args.epochs} epochs, "
          f"dim {args.dim}, {args.threads} threads, median of {args.repeat}")
    print(f"{'':32}{'tfviz':>14}{'gensim ' + gensim.__version__:>16}")
    print(f"{'vocabulary':32}{len(tf_table):>14}{len(g_table):>16}")
    print(f"{'training time (s)':32}{res['tfviz_train_s']:>14.3f}{res['gensim_train_s']:>16.3f}")
    print(f"{'tokens/s':32}{res['tfviz_tokens_per_s']:>14,.0f}{res['gensim_tokens_per_s']:>16,.0f}"
          f"   ratio {ratio:.2f}")
    print(f"{'similarity triples correct':32}{tf_acc:>14.3f}{g_acc:>16.3f}   of {n_trip}")
    print(f"{'top-10 overlap with gensim':32}{res['top10_overlap_tfviz_gensim']:>14.2f}"
          f"{res['top10_overlap_gensim_gensim']:>16.2f}   (gensim column: another seed)")
    print("neighbours of 爱:  tfviz " + " ".join(tf.top("爱", 5)) +
          "  |  gensim " + " ".join(g.top("爱", 5)))
    print("neighbours of 猫:  tfviz " + " ".join(tf.top("猫", 5)) +
          "  |  gensim " + " ".join(g.top("猫", 5)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
