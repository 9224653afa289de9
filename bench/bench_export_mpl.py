#!/usr/bin/python3
"""The peer of `tfviz --export`: the same 512 x 512 sinusoidal PE heatmap with a colorbar, 3.5 x
2.8 in, 300 dpi, written the way a notebook would with numpy and matplotlib, with the labels
tfviz draws in the language asked for, in the same font at the same size (8 pt).

Usage: bench_export_mpl.py OUT.png|OUT.pdf|OUT.svg N D zh|en [FONT_FILE]
  FONT_FILE: the font to draw every label with (bench_export.py passes Noto Sans CJK SC for zh;
  en uses DejaVu Sans, matplotlib's own default and tfviz's Latin font)."""
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402

# tfviz's labels (app/core/strings.c: T_F_TITLE_PE, T_F_DIM, T_F_POS; the colour bar's label);
# bench_export.py checks that tfviz's PDF holds them
LABELS = {
    "zh": ("正弦位置编码", "维度 j", "位置 pos", "PE(pos, j)"),
    "en": ("Sinusoidal positional encoding", "dimension j", "position pos", "PE(pos, j)"),
}


def main(out, n=512, d=512, lang="en", font_file=None):
    family = "DejaVu Sans"
    if font_file:
        font_manager.fontManager.addfont(font_file)
        family = font_manager.FontProperties(fname=font_file).get_name()
    plt.rcParams.update({"font.family": [family], "font.size": 8, "axes.titlesize": 8,
                         "axes.labelsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8,
                         "axes.unicode_minus": True})
    title, xlabel, ylabel, cblabel = LABELS[lang]
    pos = np.arange(n)[:, None]
    i = np.arange(d // 2)[None, :]
    omega = 10000.0 ** (-2.0 * i / d)
    pe = np.empty((n, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(pos * omega)
    pe[:, 1::2] = np.cos(pos * omega)
    fig, ax = plt.subplots(figsize=(3.5, 2.8))
    im = ax.imshow(pe, cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.colorbar(im, ax=ax, label=cblabel)
    fig.tight_layout()
    fig.savefig(out, dpi=300)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], *(int(a) for a in args[1:3]), *args[3:5])
