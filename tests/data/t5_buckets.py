#!/usr/bin/env python3
"""t5_buckets.py — write t5_buckets.txt: T5's relative position buckets from an independent
reference, for tests/test_t5bias.c.

The function is Hugging Face's T5Attention._relative_position_bucket (the same as
mesh-tensorflow's), transcribed with numpy: relative_position = key - query, the logarithm in
float32 as torch computes it on a float tensor, truncation towards zero (.to(torch.long)).

    /usr/bin/python3 tests/data/t5_buckets.py > tests/data/t5_buckets.txt
"""
import math

import numpy as np


def bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_position = np.asarray(relative_position, dtype=np.int64)
    relative_buckets = np.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).astype(np.int64) * num_buckets
        relative_position = np.abs(relative_position)
    else:
        relative_position = -np.minimum(relative_position, np.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    with np.errstate(divide="ignore"):
        large = np.log(relative_position.astype(np.float32) / np.float32(max_exact))
    large = large / np.float32(math.log(max_distance / max_exact)) * np.float32(num_buckets - max_exact)
    large = max_exact + np.where(is_small, 0, large).astype(np.int64)  # trunc toward zero
    large = np.minimum(large, np.full_like(large, num_buckets - 1))
    return relative_buckets + np.where(is_small, relative_position, large)


def main():
    print("# bidirectional num_buckets max_distance rel bucket (rel = key - query)")
    rel = np.arange(-200, 201)
    for bidir, nb, md in [(1, 32, 128), (0, 32, 128), (1, 16, 64), (1, 8, 20), (0, 10, 40)]:
        for r, b in zip(rel, bucket(rel, bool(bidir), nb, md)):
            print(bidir, nb, md, int(r), int(b))


if __name__ == "__main__":
    main()
