"""peers.py — the notebook code tfviz is compared with, timed in this process.

Prints tab-separated lines for bench/run.sh: name, median, unit, min, max.
  numpy_pe        the TensorFlow tutorial's positional_encoding (angles for every (pos, j),
                  sin on even columns, cos on odd), cast to float32
  torch_pe        the PyTorch tutorial's PositionalEncoding buffer (position * div_term,
                  div_term = exp(-ln(10000) * 2i / d)), one thread
  torch_rope_half Hugging Face's apply_rotary_pos_emb with rotate_half on an 8192 x 4096 float32
                  matrix, cos/sin tables prepared beforehand, one thread
  torch_rope_half_tables  the same plus building the cos/sin tables (the rotary module's forward)
Each is written here from the published formulas; run with Debian's python3 (/usr/bin/python3).

  /usr/bin/python3 bench/peers.py [--quick] [--reps N]
"""
import math
import statistics
import sys
import time

N_POS, D = 8192, 4096


def timed(name, fn, reps):
    fn()  # warm-up: allocation, library initialisation
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"{name}\t{statistics.median(times):.4g}\tms\t{min(times):.4g}\t{max(times):.4g}\t",
          flush=True)


def numpy_peers(reps):
    import numpy as np

    def positional_encoding(length, depth):
        # angle(pos, j) = pos / 10000^(2 (j // 2) / depth)
        pos = np.arange(length)[:, np.newaxis]
        j = np.arange(depth)[np.newaxis, :]
        angles = pos * (1 / np.power(10000, (2 * (j // 2)) / np.float32(depth)))
        angles[:, 0::2] = np.sin(angles[:, 0::2])
        angles[:, 1::2] = np.cos(angles[:, 1::2])
        return angles[np.newaxis, ...].astype(np.float32)

    pe = positional_encoding(N_POS, D)
    # the peer's own accuracy against a float64 evaluation of the same formula
    ref = np.empty((N_POS, D))
    w = 10000.0 ** (-(2 * (np.arange(D) // 2)) / D)
    ang = np.arange(N_POS)[:, None] * w[None, :]
    ref[:, 0::2] = np.sin(ang[:, 0::2])
    ref[:, 1::2] = np.cos(ang[:, 1::2])
    err = float(np.max(np.abs(pe[0] - ref)))
    print(f"numpy_pe_max_error\t{err:.3g}\tabs\t{err:.3g}\t{err:.3g}\t", flush=True)
    del ref, ang, pe
    timed("numpy_pe", lambda: positional_encoding(N_POS, D), reps)


def torch_peers(reps):
    import torch

    torch.set_num_threads(1)

    def pe_buffer(max_len, d_model):
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        return pe

    timed("torch_pe", lambda: pe_buffer(N_POS, D), reps)

    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    def apply_rotary(x, cos, sin):
        return x * cos + rotate_half(x) * sin

    def cos_sin(n, dim, base=10000.0):
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        freqs = torch.outer(torch.arange(n, dtype=torch.float32), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()

    gen = torch.Generator().manual_seed(1)
    x = torch.rand(N_POS, D, generator=gen) * 2 - 1
    cos, sin = cos_sin(N_POS, D)
    timed("torch_rope_half", lambda: apply_rotary(x, cos, sin), reps)
    timed("torch_rope_half_tables", lambda: apply_rotary(x, *cos_sin(N_POS, D)), reps)
    # the peer's own accuracy (float32 angles) against float64 on the first 1024 rows
    xd = x[:1024].double()
    inv = 1.0 / (10000.0 ** (torch.arange(0, D, 2, dtype=torch.float64) / D))
    ang = torch.outer(torch.arange(1024, dtype=torch.float64), inv)
    emb = torch.cat((ang, ang), dim=-1)
    ref = xd * emb.cos() + rotate_half(xd) * emb.sin()
    err = float((apply_rotary(x, cos, sin)[:1024].double() - ref).abs().max())
    print(f"torch_rope_half_max_error\t{err:.3g}\tabs\t{err:.3g}\t{err:.3g}\t", flush=True)


def main():
    reps = 7
    args = sys.argv[1:]
    if "--quick" in args:
        reps = 3
    if "--reps" in args:
        reps = int(args[args.index("--reps") + 1])
    for peer in (numpy_peers, torch_peers):
        try:
            peer(reps)
        except ImportError as e:
            print(f"# {peer.__name__}: {e} (scripts/bootstrap.sh --bench installs it)", flush=True)


if __name__ == "__main__":
    main()
