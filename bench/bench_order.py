"""bench_order.py — the order model trained by the code a researcher would write with numpy, next
to tfviz's C trainer (bench_order.c), on the same task.

bench/run.sh: plug-in

The peer is the same model written from docs/math.md: token embedding (+ sinusoidal PE, a
learned table, or RoPE's rotation of q and k), one attention layer, a residual, a linear
readout over positions, cross-entropy; the backward pass by hand, batched over padded
sentences; AdamW with the C trainer's defaults (d_model 32, 2 heads, batch 16, lr 0.005, weight
decay 1, 10 epochs) and an evaluation of both splits after every epoch, as the C trainer does.
Its weights and batch order come from numpy's generator, so its curves are not the C trainer's
numbers; its accuracies are reported as a check that it learns the same thing.

Prints for bench/run.sh: numpy_order_train_4 (the four schemes one after another, ms, one BLAS
thread) and the ratio to order_train_4_1thread, and a report of the peer's held-out accuracy.

  /usr/bin/python3 bench/bench_order.py [--quick]       (TFVIZ, BENCH_BUILD from bench/run.sh)
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread, as the C trainer per scheme
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

D, H, BATCH, LR, WD, EPOCHS, BASE = 32, 2, 16, 0.005, 1.0, 10, 10000.0
MAXT = 32


def read_task(path):
    """The file format of docs/math.md: tokens between spaces, the doer marked with *."""
    vocab = {"[UNK]": 0}
    split = {"train": [], "test": []}
    where = "train"
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] in ("@train", "@test"):
                where = words[0][1:]
                continue
            ids, doer = [], -1
            for i, w in enumerate(words):
                if w.startswith("*"):
                    doer, w = i, w[1:]
                ids.append(vocab.setdefault(w, len(vocab)))
            split[where].append((ids, doer))
    return vocab, split


def pad(sentences):
    """(ids, doers, mask): (n, L) int, (n,) int, (n, L) bool, L the longest."""
    L = max(len(s) for s, _ in sentences)
    ids = np.zeros((len(sentences), L), dtype=np.int64)
    mask = np.zeros((len(sentences), L), dtype=bool)
    for i, (s, _) in enumerate(sentences):
        ids[i, : len(s)] = s
        mask[i, : len(s)] = True
    return ids, np.array([d for _, d in sentences]), mask


class Model:
    def __init__(self, scheme, V, rng):
        u = lambda shape, a: rng.uniform(-a, a, size=shape)  # noqa: E731
        self.scheme = scheme
        self.p = {"emb": u((V, D), 3 ** 0.5), "wq": u((D, D), (3 / D) ** 0.5),
                  "wk": u((D, D), (3 / D) ** 0.5), "wv": u((D, D), (3 / D) ** 0.5),
                  "wo": u((D, D), (3 / D) ** 0.5), "wr": u((D,), (3 / D) ** 0.5)}
        if scheme == "learned":
            self.p["pos"] = u((MAXT, D), 3 ** 0.5)
        pos = np.arange(MAXT)[:, None]
        w = BASE ** (-np.arange(0, D, 2) / D)
        self.pe = np.zeros((MAXT, D))
        self.pe[:, 0::2], self.pe[:, 1::2] = np.sin(pos * w), np.cos(pos * w)
        e = D // H
        th = BASE ** (-np.arange(0, e, 2) / e)  # RoPE, half pairing: (i, i + e/2)
        ang = pos * th
        self.cos = np.concatenate([np.cos(ang), np.cos(ang)], 1)
        self.sin = np.concatenate([np.sin(ang), np.sin(ang)], 1)
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    @staticmethod
    def heads(x):  # (B, L, D) -> (B, H, L, e)
        B, L, _ = x.shape
        return x.reshape(B, L, H, D // H).transpose(0, 2, 1, 3)

    @staticmethod
    def merge(x):  # (B, H, L, e) -> (B, L, D)
        B, _, L, e = x.shape
        return x.transpose(0, 2, 1, 3).reshape(B, L, H * e)

    @staticmethod
    def rot(x):  # rotate_half: (x1, x2) -> (-x2, x1)
        h = x.shape[-1] // 2
        return np.concatenate([-x[..., h:], x[..., :h]], -1)

    @staticmethod
    def rot_t(y):  # its transpose: (y1, y2) -> (y2, -y1)
        h = y.shape[-1] // 2
        return np.concatenate([y[..., h:], -y[..., :h]], -1)

    def forward(self, ids, doer, mask):
        p, B, L = self.p, ids.shape[0], ids.shape[1]
        x = p["emb"][ids]
        if self.scheme == "sinusoidal":
            x = x + self.pe[:L]
        elif self.scheme == "learned":
            x = x + p["pos"][:L]
        q, k, v = self.heads(x @ p["wq"]), self.heads(x @ p["wk"]), self.heads(x @ p["wv"])
        if self.scheme == "rope":
            c, s = self.cos[:L], self.sin[:L]
            q, k = q * c + self.rot(q) * s, k * c + self.rot(k) * s
        sc = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D // H)
        sc = np.where(mask[:, None, None, :], sc, -np.inf)
        a = np.exp(sc - sc.max(-1, keepdims=True))
        a /= a.sum(-1, keepdims=True)
        o = self.merge(a @ v)
        y = x + o @ p["wo"]
        z = np.where(mask, y @ p["wr"], -np.inf)
        pr = np.exp(z - z.max(-1, keepdims=True))
        pr /= pr.sum(-1, keepdims=True)
        loss = -np.log(pr[np.arange(B), doer])
        cache = (ids, mask, x, q, k, v, a, o, y, pr, doer)
        return loss, pr.argmax(-1), cache

    def backward(self, cache):
        ids, mask, x, q, k, v, a, o, y, pr, doer = cache
        p, B, L = self.p, ids.shape[0], ids.shape[1]
        g = {}
        dz = pr.copy()
        dz[np.arange(B), doer] -= 1
        dz /= B
        g["wr"] = np.einsum("bl,bld->d", dz, y)
        dy = dz[..., None] * p["wr"]
        g["wo"] = o.reshape(-1, D).T @ dy.reshape(-1, D)
        do = self.heads(dy @ p["wo"].T)
        da = do @ v.transpose(0, 1, 3, 2)
        dv = a.transpose(0, 1, 3, 2) @ do
        ds = a * (da - (da * a).sum(-1, keepdims=True)) / np.sqrt(D // H)
        dq, dk = ds @ k, ds.transpose(0, 1, 3, 2) @ q
        if self.scheme == "rope":
            c, s = self.cos[:L], self.sin[:L]
            dq, dk = dq * c + self.rot_t(dq * s), dk * c + self.rot_t(dk * s)
        dq, dk, dv = self.merge(dq), self.merge(dk), self.merge(dv)
        xf = x.reshape(-1, D)
        g["wq"], g["wk"], g["wv"] = (xf.T @ t.reshape(-1, D) for t in (dq, dk, dv))
        dx = dy + dq @ p["wq"].T + dk @ p["wk"].T + dv @ p["wv"].T
        dx = dx * mask[..., None]
        g["emb"] = np.zeros_like(p["emb"])
        np.add.at(g["emb"], ids, dx)
        if self.scheme == "learned":
            g["pos"] = np.zeros_like(p["pos"])
            g["pos"][:L] = dx.sum(0)
        return g

    def adamw(self, g, b1=0.9, b2=0.999, eps=1e-8):
        self.t += 1
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for name, w in self.p.items():
            m, v = self.m[name], self.v[name]
            m *= b1
            m += (1 - b1) * g[name]
            v *= b2
            v += (1 - b2) * g[name] ** 2
            w -= LR * ((m / c1) / (np.sqrt(v / c2) + eps) + WD * w)


def evaluate(model, data):
    right = 0
    for i in range(0, len(data), 512):
        ids, doer, mask = pad(data[i:i + 512])
        _, pred, _ = model.forward(ids, doer, mask)
        right += int((pred == doer).sum())
    return right / len(data)


def train(scheme, vocab, split, seed):
    rng = np.random.default_rng(seed)
    model = Model(scheme, len(vocab), rng)
    train_set, test_set = split["train"], split["test"]
    curve = [evaluate(model, test_set)]
    evaluate(model, train_set)
    for _ in range(EPOCHS):
        order = rng.permutation(len(train_set))
        for i in range(0, len(order), BATCH):
            ids, doer, mask = pad([train_set[j] for j in order[i:i + BATCH]])
            _, _, cache = model.forward(ids, doer, mask)
            model.adamw(model.backward(cache))
        evaluate(model, train_set)
        curve.append(evaluate(model, test_set))
    return curve


def main():
    quick = "--quick" in sys.argv or os.environ.get("BENCH_QUICK") == "1"
    build = os.environ.get("BENCH_BUILD", "build-bench")
    driver = os.path.join(build, "bench", "bench_order")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "order_task.txt")
        subprocess.run([driver, "--write-task", path], check=True)
        vocab, split = read_task(path)
    schemes = ["none", "sinusoidal", "learned", "rope"]
    times, curves = [], {}
    for r in range(1 if quick else 3):
        t0 = time.perf_counter()
        for s in schemes:
            curves[s] = train(s, vocab, split, seed=r)
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"numpy_order_train_4\t{statistics.median(times):.4g}\tms\t{min(times):.4g}\t"
          f"{max(times):.4g}\t", flush=True)
    print("ratio\torder training, 4 schemes: speed-up vs numpy (1 thread each)\t"
          "numpy_order_train_4\torder_train_4_1thread\t>=5")
    print(f"\nbench_order.py: the numpy peer's held-out accuracy per epoch "
          f"({len(split['train'])} training, {len(split['test'])} held-out sentences):")
    for s in schemes:
        print(f"  {s:<10}" + "".join(f" {100 * a:5.1f}" for a in curves[s]))


if __name__ == "__main__":
    main()
