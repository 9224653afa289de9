#!/usr/bin/python3
"""The peer of `tfviz --export`: the same 512 x 512 sinusoidal PE heatmap with a colorbar, one
column wide (3.5 in), 300 dpi, written the way a notebook would with numpy and matplotlib.

Usage: bench_export_mpl.py OUT.png|OUT.pdf [N D]"""
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(out, n=512, d=512):
    pos = np.arange(n)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = 10000.0 ** (-2.0 * i / d)
    pe = np.empty((n, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(pos * omega)
    pe[:, 1::2] = np.cos(pos * omega)
    fig, ax = plt.subplots(figsize=(3.5, 2.8))
    im = ax.imshow(pe, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
    ax.set_title("Sinusoidal positional encoding")
    ax.set_xlabel("dimension j")
    ax.set_ylabel("position pos")
    fig.colorbar(im, ax=ax, label="PE(pos, j)")
    fig.tight_layout()
    fig.savefig(out, dpi=300)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], *(int(a) for a in args[1:3]))
