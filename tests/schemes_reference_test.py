#!/usr/bin/python3
"""Position schemes against independent references, through tests/schemes_probe.c.

    schemes_reference_test.py PROBE GROUP      (GROUP: alibi t5 rope_scaling npy safetensors
                                                 malformed learned)

The references are written here from their sources, in Python and numpy, not taken from the C:
  alibi         get_slopes of the ALiBi paper's code (ofirpress/attention_with_linear_biases,
                fairseq/models/transformer.py);
  t5            _relative_position_bucket of mesh-tensorflow / Hugging Face T5, in float32 as
                they compute it;
  rope_scaling  Hugging Face's _compute_{linear_scaling,dynamic_ntk,yarn,llama3}_parameters
                (modeling_rope_utils.py) and the NTK-aware base change, in numpy float64;
  npy           files written by numpy itself (np.save, format versions 1.0, 2.0, 3.0);
  safetensors   files written by the small writer below, which follows the format's README;
  malformed     damaged and unsupported files, each with the one status and message it earns;
  learned       the similarity-against-offset curve of a table, recomputed in numpy.
Needs numpy (Debian's python3-numpy, installed by scripts/bootstrap.sh): skipped without it.
"""
import io
import json
import math
import os
import pickle
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, run_group  # noqa: E402

try:
    import numpy as np
except ImportError:
    print("# skipped: numpy is not installed (apt-get install python3-numpy)")
    sys.exit(77)

PROBE = None
TMP = tempfile.mkdtemp(prefix="tfviz-schemes-")


def probe(*args):
    p = subprocess.run([PROBE, *map(str, args)], capture_output=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"schemes_probe {' '.join(map(str, args))} exited {p.returncode}: "
                             f"{p.stderr.decode()}")
    return json.loads(p.stdout)


def path(name):
    return os.path.join(TMP, name)


def max_rel(got, want):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return math.inf
    if got.size == 0:
        return 0.0
    return float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300)))


# -------------------------------------------------------------------------------------------
# ALiBi: the paper's get_slopes


def ref_slopes(n):
    def power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + ref_slopes(2 * closest)[0::2][: n - closest]


def test_alibi():
    worst = 0.0
    for h in list(range(1, 33)) + [40, 48, 64, 80, 96, 112, 128, 200, 256]:
        got = probe("alibi", h)["slopes"]
        want = ref_slopes(h)
        diff = max(abs(a - b) for a, b in zip(got, want)) if len(got) == len(want) else math.inf
        worst = max(worst, diff)
        check(len(got) == h and diff == 0.0, f"H = {h}: slopes equal get_slopes exactly "
                                            f"(max |diff| {diff:.1e})")
    # the closed forms the paper states
    check(probe("alibi", 8)["slopes"] == [2.0 ** -k for k in range(1, 9)],
          "H = 8: 1/2, 1/4, ..., 1/256")
    s12 = probe("alibi", 12)["slopes"]
    want12 = [2.0 ** -k for k in range(1, 9)] + [2.0 ** -x for x in (0.5, 1.5, 2.5, 3.5)]
    check(max_rel(s12, want12) < 1e-15, "H = 12: 2^-1..2^-8 then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5")
    check(probe("alibi", 0).get("status") == "range", "H = 0 is refused")
    check(probe("alibi", 257).get("status") == "range", "H = 257 is refused")
    print(f"# alibi: max |C - reference| = {worst:.1e} over 41 head counts")


# -------------------------------------------------------------------------------------------
# T5: _relative_position_bucket, float32 as torch / mesh-tensorflow compute it


def ref_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    rp = np.asarray(relative_position, dtype=np.int64)
    ret = np.zeros_like(rp)
    if bidirectional:
        num_buckets //= 2
        ret += (rp > 0).astype(np.int64) * num_buckets
        n = np.abs(rp)
    else:
        n = -np.minimum(rp, np.zeros_like(rp))
    max_exact = num_buckets // 2
    is_small = n < max_exact
    with np.errstate(divide="ignore", invalid="ignore"):
        x = (np.log(n.astype(np.float32) / np.float32(max_exact))
             / np.float32(math.log(max_distance / max_exact))
             * np.float32(num_buckets - max_exact))
        large = max_exact + np.where(np.isfinite(x), x, 0).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return ret + np.where(is_small, n, large)


def test_t5():
    rp = np.arange(-200, 201)
    configs = [(True, 32, 128), (False, 32, 128), (True, 64, 256), (False, 16, 64),
               (True, 8, 20), (False, 2, 5), (True, 33, 100), (False, 128, 1000)]
    mismatches = 0
    for bidir, nb, md in configs:
        got = probe("t5", "bidirectional" if bidir else "unidirectional", nb, md, -200, 200)
        want = ref_bucket(rp, bidir, nb, md).tolist()
        bad = sum(1 for a, b in zip(got["buckets"], want) if a != b)
        mismatches += bad
        check(got["buckets"] == want,
              f"{'bi' if bidir else 'uni'}directional, {nb} buckets, max distance {md}: "
              f"buckets of -200..200 equal the reference ({bad} differ)")
    # the defaults' shape: exact buckets 0..7, the last bucket from 128 on, the future half
    b = dict(zip(rp.tolist(), probe("t5", "bidirectional", 32, 128, -200, 200)["buckets"]))
    check([b[-k] for k in range(8)] == list(range(8)), "bidirectional: r = 0..-7 -> 0..7")
    # the last bucket begins where int(log(n/8) / log(16) * 8) reaches 7: n >= 8 * 16^(7/8)
    check(b[-90] == 14 and b[-91] == 15 and b[-128] == 15 and b[-200] == 15,
          "r <= -91 share the last bucket, 15 (8 * 16^(7/8) = 90.5)")
    check(b[1] == 17 and b[200] == 31, "keys after the query use buckets 16..31")
    u = dict(zip(rp.tolist(), probe("t5", "unidirectional", 32, 128, -200, 200)["buckets"]))
    check(all(u[k] == 0 for k in range(0, 201)), "unidirectional: every future key -> bucket 0")
    check(u[-15] == 15 and u[-16] == 16 and u[-112] == 30 and u[-113] == 31 and u[-128] == 31,
          "unidirectional: 16 exact buckets, the last from 16 * 8^(15/16) = 112.4 on")
    check(probe("t5", "bidirectional", 2, 128, 0, 0).get("status") == "range",
          "2 buckets bidirectional is refused (no exact bucket)")
    print(f"# t5: {mismatches} mismatches over {len(configs)} configurations x 401 distances")


# -------------------------------------------------------------------------------------------
# RoPE scaling: Hugging Face's computations, re-written in numpy float64


def ref_default(d, base):
    return 1.0 / (base ** (np.arange(0, d, 2, dtype=np.int64).astype(np.float64) / d))


def ref_linear(d, base, factor):
    return ref_default(d, base) / factor, 1.0


def ref_ntk(d, base, factor):
    return ref_default(d, base * factor ** (d / (d - 2))), 1.0


def ref_dynamic(d, base, factor, max_pos, seq_len):
    seq_len = seq_len if seq_len > max_pos else max_pos
    base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (d / (d - 2))
    return ref_default(d, base), 1.0


def ref_yarn(d, base, factor, max_pos, beta_fast=32, beta_slow=1, mscale=None,
             mscale_all_dim=None, attention_factor=None, truncate=True):
    def get_mscale(scale, m=1):
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim)
        else:
            attention_factor = get_mscale(factor)

    def correction_dim(rot):
        return (d * math.log(max_pos / (rot * 2 * math.pi))) / (2 * math.log(base))

    low, high = correction_dim(beta_fast), correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2, dtype=np.float64) - low) / (high - low), 0, 1)
    pos_freqs = base ** (np.arange(0, d, 2).astype(np.float64) / d)
    extrapolation, interpolation = 1.0 / pos_freqs, 1.0 / (factor * pos_freqs)
    keep = 1 - ramp
    return interpolation * (1 - keep) + extrapolation * keep, attention_factor


def ref_llama3(d, base, factor, low_freq_factor, high_freq_factor, old_context_len):
    inv_freq = ref_default(d, base)
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_llama = np.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * inv_llama / factor + smooth * inv_llama
    medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return np.where(medium, smoothed, inv_llama), 1.0


def test_rope_scaling():
    cases = []
    for d in (4, 8, 16, 64, 128):
        for base in (10000.0, 500000.0):
            for factor in (1.0, 2.0, 4.0, 8.0, 32.5):
                cases.append(("linear", d, dict(base=base, factor=factor),
                              ref_linear(d, base, factor)))
                cases.append(("ntk", d, dict(base=base, factor=factor), ref_ntk(d, base, factor)))
                for L, seq in ((4096, 4096), (4096, 10000), (2048, 65536)):
                    cases.append(("dynamic", d, dict(base=base, factor=factor, original=L,
                                                     seq_len=seq),
                                  ref_dynamic(d, base, factor, L, seq)))
                for L in (2048, 4096, 32768):
                    cases.append(("yarn", d, dict(base=base, factor=factor, original=L),
                                  ref_yarn(d, base, factor, L)))
            cases.append(("llama3", d, dict(base=base), ref_llama3(d, base, 8, 1, 4, 8192)))
    # YaRN's options; Llama 3.1's exact configuration and variants
    cases += [
        ("yarn", 16, dict(factor=16, original=4096, truncate=0),
         ref_yarn(16, 10000.0, 16, 4096, truncate=False)),
        ("yarn", 64, dict(factor=40, original=4096, beta_fast=16, beta_slow=2),
         ref_yarn(64, 10000.0, 40, 4096, beta_fast=16, beta_slow=2)),
        ("yarn", 64, dict(base=10000, factor=40, original=4096, mscale=1, mscale_all_dim=0.707),
         ref_yarn(64, 10000.0, 40, 4096, mscale=1, mscale_all_dim=0.707)),
        ("yarn", 32, dict(factor=4, original=4096, attention_factor=1.25),
         ref_yarn(32, 10000.0, 4, 4096, attention_factor=1.25)),
        ("yarn", 8, dict(factor=4, original=64, beta_fast=32, beta_slow=32),
         ref_yarn(8, 10000.0, 4, 64, beta_fast=32, beta_slow=32)),
        ("llama3", 128, dict(), ref_llama3(128, 500000.0, 8, 1, 4, 8192)),
        ("llama3", 8, dict(), ref_llama3(8, 500000.0, 8, 1, 4, 8192)),
        ("llama3", 64, dict(base=10000, factor=4, low_freq_factor=2, high_freq_factor=8,
                            original=4096),
         ref_llama3(64, 10000.0, 4, 2, 8, 4096)),
    ]
    worst = {}
    for method, d, params, (want_inv, want_attn) in cases:
        args = [f"{k}={v}" for k, v in params.items()]
        got = probe("rope-scaling", method, d, *args)
        if "inv_freq" not in got:
            check(False, f"{method} d={d} {params}: {got}")
            continue
        diff = max(max_rel(got["inv_freq"], want_inv),
                   abs(got["attention_factor"] - want_attn) / want_attn)
        worst[method] = max(worst.get(method, 0.0), diff)
        check(diff < 1e-13, f"{method} d={d} {params}: inv_freq and attention factor equal "
                            f"the reference (max relative diff {diff:.1e})")
        orig = ref_default(d, params.get("base", 500000.0 if method == "llama3" else 10000.0))
        check(max_rel(got["original"], orig) < 1e-14, f"{method} d={d}: original thetas")
    for m, w in sorted(worst.items()):
        print(f"# rope-scaling {m}: max relative difference {w:.1e}")
    # what the methods mean
    g = probe("rope-scaling", "linear", 8, "factor=4")
    check(max_rel(np.array(g["inv_freq"]) * 4, g["original"]) < 1e-15, "linear: theta / 4")
    g = probe("rope-scaling", "ntk", 8, "factor=4")
    check(abs(g["inv_freq"][0] - 1.0) < 1e-15 and
          abs(g["inv_freq"][-1] * 4 / g["original"][-1] - 1) < 1e-12,
          "ntk: fastest pair kept, slowest slowed exactly 4 times")
    g = probe("rope-scaling", "llama3", 128)
    check(g["inv_freq"][0] == g["original"][0] and
          abs(g["inv_freq"][-1] * 8 / g["original"][-1] - 1) < 1e-15,
          "llama3: fast pairs kept, slow ones divided by 8")
    g = probe("rope-scaling", "yarn", 64, "factor=4")
    check(abs(g["attention_factor"] - (0.1 * math.log(4) + 1)) < 1e-15,
          "yarn: attention factor 0.1 ln s + 1")
    for bad in (["yarn", 8, "beta_fast=1", "beta_slow=32"], ["linear", 8, "factor=0.5"],
                ["ntk", 2, "factor=2"], ["llama3", 8, "low_freq_factor=4"], ["linear", 7]):
        check("status" in probe("rope-scaling", *bad), f"refused: {bad}")


# -------------------------------------------------------------------------------------------
# .npy files written by numpy


def save_npy(name, a, version=None):
    with open(path(name), "wb") as f:
        if version is None:
            np.save(f, a)
        else:
            np.lib.format.write_array(f, a, version=version)
    return path(name)


def test_npy():
    rng = np.random.default_rng(19)
    worst = 0.0
    for dtype in ("<f4", "<f8", "<f2", ">f4", ">f8", ">f2"):
        for version in (None, (1, 0), (2, 0), (3, 0)):
            for shape in ((1, 1), (3, 5), (64, 48)):
                a = (rng.standard_normal(shape) * 3).astype(dtype)
                p = save_npy(f"t_{dtype[1:]}_{'be' if dtype[0] == '>' else 'le'}.npy", a,
                             version)
                got = probe("tensor", p)
                ok = got.get("status") == "ok" and got["rows"] == shape[0] and \
                    got["cols"] == shape[1]
                diff = max_rel(got["values"], a.astype(np.float64).ravel()) if ok else math.inf
                worst = max(worst, diff)
                check(ok and diff == 0.0 and got["dtype"] == "F" + str(8 * int(dtype[2:])),
                      f"np.save {dtype} version {version or 'default'} {shape}: exact values")
    # a GPT-2-sized table, and the learned-table loader on it
    a = rng.standard_normal((1024, 768)).astype(np.float32) * 0.02
    got = probe("learned", save_npy("wpe.npy", a))
    check(got.get("status") == "ok" and got["trained"] and got["rows"] == 1024 and
          got["cols"] == 768 and max_rel(got["values"], a.ravel()) == 0,
          "a 1024 x 768 float32 table loads exactly as a trained position table")
    # a T5 bias table saved with numpy
    b = rng.standard_normal((32, 8)).astype(np.float32)
    got = probe("t5table", save_npy("t5.npy", b))
    check(got.get("status") == "ok" and got["rows"] == 32 and got["cols"] == 8 and
          max_rel(got["values"], b.ravel()) == 0, "a (32, 8) T5 bias table loads")
    # a non-contiguous slice is written in C order by np.save
    c = rng.standard_normal((10, 12))[:, ::2]
    got = probe("tensor", save_npy("slice.npy", c))
    check(got.get("status") == "ok" and max_rel(got["values"], np.ascontiguousarray(c).ravel())
          == 0, "a strided slice saved by numpy reads back in C order")
    # the header tfviz writes is byte for byte numpy's
    for descr, shape in (("<f4", (3, 5)), ("<f8", (1024, 768)), ("<f8", (1, 1)),
                         ("<f4", (1000000, 16384))):
        b = io.BytesIO()
        np.lib.format.write_array_header_1_0(b, {"descr": descr, "fortran_order": False,
                                                 "shape": shape})
        got = probe("npy-header", descr, *shape)["hex"]
        check(got == b.getvalue().hex(), f"npy_write_header {descr} {shape} = numpy's bytes")
    print(f"# npy: max |C - numpy| = {worst:.1e} over 72 files")


# -------------------------------------------------------------------------------------------
# .safetensors from a hand-made writer (format: 8-byte little-endian header size, JSON header
# padded with spaces, then the data buffer)


def bf16_bytes(a):
    """Truncate float32 to bfloat16 (the upper 16 bits), as raw little-endian bytes."""
    u = np.asarray(a, dtype="<f4").view("<u4") >> 16
    return u.astype("<u2").tobytes()


def bf16_values(a):
    u = (np.asarray(a, dtype="<f4").view("<u4") >> 16) << 16
    return u.astype("<u4").view("<f4").astype(np.float64)


def safetensors(tensors, metadata=None, pad_to=8, order=None, edit=None, tail=b""):
    """tensors: [(name, dtype, shape, raw bytes)]; the data in the given order (default: as
    listed); edit(header dict) may damage the header before it is written."""
    header, data, off = {}, b"", 0
    for name, dtype, shape, raw in (order or tensors):
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + len(raw)]}
        off += len(raw)
        data += raw
    if metadata is not None:
        header["__metadata__"] = metadata
    if edit:
        edit(header)
    h = header if isinstance(header, bytes) else json.dumps(header).encode()
    h += b" " * ((pad_to - len(h) % pad_to) % pad_to)
    return struct.pack("<Q", len(h)) + h + data + tail


def write(name, blob):
    with open(path(name), "wb") as f:
        f.write(blob)
    return path(name)


def gpt2_like(rng, rows=1024, cols=768):
    wpe = rng.standard_normal((rows, cols)).astype(np.float32) * 0.02
    tensors = [
        ("wte.weight", "F32", (50, cols), rng.standard_normal((50, cols)).astype("<f4").tobytes()),
        ("wpe.weight", "F32", (rows, cols), wpe.astype("<f4").tobytes()),
        ("h.0.attn.bias", "F32", (1, 1, 4, 4), np.ones((1, 1, 4, 4), "<f4").tobytes()),
        ("h.0.ln_1.weight", "F32", (cols,), np.ones(cols, "<f4").tobytes()),
        ("h.0.attn.masked_bias", "I64", (), struct.pack("<q", -10000)),
    ]
    return wpe, tensors


def test_safetensors():
    rng = np.random.default_rng(1024)
    wpe, tensors = gpt2_like(rng)
    p = write("gpt2.safetensors", safetensors(tensors, metadata={"format": "pt"}))
    got = probe("learned", p)
    check(got.get("status") == "ok" and got["name"] == "wpe.weight" and got["rows"] == 1024 and
          got["cols"] == 768 and max_rel(got["values"], wpe.ravel()) == 0,
          "a GPT-2-like file: wpe.weight (1024, 768) found by its name and read exactly")
    got = probe("tensor", p, "wte.weight")
    check(got.get("status") == "ok" and got["rows"] == 50, "a tensor chosen by name")
    # the data in another order than the header's keys
    p2 = write("shuffled.safetensors", safetensors(tensors, order=tensors[::-1]))
    got = probe("learned", p2)
    check(got.get("status") == "ok" and max_rel(got["values"], wpe.ravel()) == 0,
          "tensors stored in another order than listed")
    # every dtype tfviz converts
    a = (rng.standard_normal((6, 10)) * 100).astype(np.float64)
    for dtype, raw, want in (("F32", a.astype("<f4").tobytes(), a.astype(np.float32)),
                             ("F64", a.astype("<f8").tobytes(), a),
                             ("F16", a.astype("<f2").tobytes(), a.astype(np.float16)),
                             ("BF16", bf16_bytes(a.astype(np.float32)),
                              bf16_values(a.astype(np.float32)))):
        q = write(f"{dtype}.safetensors", safetensors([("t", dtype, (6, 10), raw)]))
        got = probe("tensor", q)
        check(got.get("status") == "ok" and got["dtype"] == dtype and
              max_rel(got["values"], np.asarray(want, np.float64).ravel()) == 0,
              f"{dtype}: exact values")
    # names with escapes and non-ASCII letters; padding with spaces; no metadata
    names = ["pos\u00e9mb", 'q"uoted\\name', "位置.weight"]
    t3 = [(n, "F32", (2, 2), np.full((2, 2), i, "<f4").tobytes()) for i, n in enumerate(names)]
    q = write("names.safetensors", safetensors(t3, pad_to=64))
    for i, n in enumerate(names):
        got = probe("tensor", q, n)
        check(got.get("status") == "ok" and got["values"] == [float(i)] * 4,
              f"a tensor named {n!r}")
    # the T5 table: two candidates, so a name is needed
    enc = rng.standard_normal((32, 8)).astype(np.float32)
    t5 = [("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "F32",
           (32, 8), enc.tobytes()),
          ("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "F32",
           (32, 8), enc[::-1].copy().tobytes()),
          ("shared.weight", "F32", (4, 8), np.zeros((4, 8), "<f4").tobytes())]
    q = write("t5.safetensors", safetensors(t5))
    got = probe("t5table", q)
    check(got.get("status") == "not_found" and "encoder.block.0" in got["message"] and
          "decoder.block.0" in got["message"], "two T5 bias tables: the names are listed")
    got = probe("t5table", q, t5[0][0])
    check(got.get("status") == "ok" and got["rows"] == 32 and got["cols"] == 8 and
          max_rel(got["values"], enc.ravel()) == 0, "the encoder's T5 bias table by name")


# -------------------------------------------------------------------------------------------
# Damaged and unsupported files: one status and one clear sentence each


def expect(args, status, *words, what):
    got = probe(*args)
    msg = got.get("message", "")
    ok = got.get("status") == status and all(w in msg for w in words)
    check(ok, f"{what}: {status} ({msg})")


def npy_with_header(header, data):
    h = header.encode("latin1")
    total = 10 + len(h) + 1
    h += b" " * ((64 - total % 64) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data


def test_malformed():
    a = np.arange(15, dtype=np.float32).reshape(3, 5)
    good = io.BytesIO()
    np.save(good, a)
    good = good.getvalue()
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }"
    # .npy
    expect(["tensor", save_npy("fortran.npy", np.asfortranarray(np.ones((3, 4))))], "format",
           "Fortran", what="Fortran order")
    expect(["tensor", save_npy("int.npy", np.ones((3, 4), np.int32))], "format", "integers",
           "'<i4'", what="an integer array")
    expect(["tensor", save_npy("complex.npy", np.ones((3, 4), np.complex64))], "format",
           "complex", what="a complex array")
    with open(path("object.npy"), "wb") as f:
        np.save(f, np.array([[1, "a"]], dtype=object), allow_pickle=True)
    expect(["tensor", path("object.npy")], "format", "Python objects", what="an object array")
    expect(["tensor", save_npy("struct.npy", np.zeros((3, 4), [("a", "<f4")]))], "format",
           "structured", what="a structured array")
    expect(["tensor", save_npy("one_d.npy", np.ones(7, np.float32))], "format", "(7,)", "1-D",
           what="a 1-D array")
    expect(["tensor", save_npy("three_d.npy", np.ones((2, 3, 4), np.float32))], "format",
           "(2, 3, 4)", "3-D", what="a 3-D array")
    expect(["tensor", save_npy("empty.npy", np.ones((0, 5), np.float32))], "format",
           "no numbers", what="an empty array")
    expect(["tensor", write("trunc.npy", good[:-7])], "format", "truncated",
           what="data cut short")
    expect(["tensor", write("extra.npy", good + b"\0" * 8)], "format", "does not match",
           what="bytes after the data")
    lie = npy_with_header(hdr.replace("(3, 5)", "(4, 5)"), a.tobytes())
    expect(["tensor", write("lie.npy", lie)], "format", "truncated",
           what="a header that claims more rows than the data holds")
    huge = npy_with_header(hdr.replace("(3, 5)", "(1000000000, 1000000000)"), a.tobytes())
    expect(["tensor", write("huge_lie.npy", huge)], "format", "truncated",
           what="a header claiming 10^18 values in a small file")
    over = npy_with_header(hdr.replace("(3, 5)", "(99999999999999999999, 5)"), a.tobytes())
    expect(["tensor", write("overflow.npy", over)], "format", "not a valid dict",
           what="a dimension past 2^63")
    nan = a.copy()
    nan[2, 3] = np.nan
    expect(["tensor", save_npy("nan.npy", nan)], "format", "row 2, column 3", "NaN",
           what="a NaN in the table")
    expect(["tensor", write("ver.npy", b"\x93NUMPY\x04\x00" + good[8:])], "format", "4.0",
           what="an unknown format version")
    expect(["tensor", write("keys.npy", npy_with_header(hdr[:-2] + "'x': 1, }", a.tobytes()))],
           "format", "key other than", what="an extra header key")
    expect(["tensor", write("notdict.npy", npy_with_header("[1, 2]", a.tobytes()))], "format",
           "not a valid dict", what="a header that is not a dict")
    expect(["tensor", write("hlen.npy", b"\x93NUMPY\x01\x00\xff\xff" + good[10:])], "format",
           "truncated", what="a header length past the end of the file")
    expect(["tensor", save_npy("named.npy", a), "wpe.weight"], "not_found", "one unnamed",
           what="a tensor name for an .npy")
    # shapes over the limits are refused before allocating
    expect(["tensor", save_npy("wide.npy", np.zeros((2, 16385), np.float16))], "too_big",
           "16385 columns", what="more columns than d_model may have")
    expect(["tensor", save_npy("long.npy", np.zeros((1000001, 1), np.float16))], "too_big",
           "1000001 rows", what="more rows than positions")
    expect(["tensor", save_npy("many.npy", np.zeros((8193, 1025), np.float16))], "too_big",
           "8193 x 1025", what="more values than a table may have")
    # other kinds of file
    with open(path("arrays.npz"), "wb") as f:
        np.savez(f, a=a, b=a)
    expect(["tensor", path("arrays.npz")], "format", "zip", what="an .npz archive")
    expect(["tensor", write("model.bin", pickle.dumps({"wpe": [1.0]}, protocol=2))], "format",
           "pickle", what="a pickled checkpoint")
    expect(["tensor", write("text.npy", b"hello, world\n")], "format", "not an .npy",
           what="a text file named .npy")
    expect(["tensor", write("text.txt", b"hello, world\n")], "format", "neither", what="text")
    expect(["tensor", write("zero.npy", b"")], "format", "empty", what="an empty file")
    expect(["tensor", path("missing.npy")], "io", "No such file", what="a missing file")
    expect(["tensor", TMP], "io", "folder", what="a folder")

    # .safetensors
    rng = np.random.default_rng(7)
    t = [("wpe.weight", "F32", (4, 3), rng.standard_normal((4, 3)).astype("<f4").tobytes()),
         ("other", "F32", (2, 3), np.zeros((2, 3), "<f4").tobytes())]

    def st(name, **kw):
        return write(name + ".safetensors", safetensors(t, **kw))

    expect(["tensor", st("ok"), "nope"], "not_found", "no tensor 'nope'", "wpe.weight (4, 3)",
           "other (2, 3)", what="a missing tensor name lists the names")
    expect(["tensor", st("ambiguous")], "not_found", "holds 2 tensors", "wpe.weight",
           what="two 2-D tensors and no name")

    def lie_shape(h):
        h["wpe.weight"]["shape"] = [5, 3]

    expect(["tensor", st("lie", edit=lie_shape), "wpe.weight"], "format", "(5, 3)",
           "needs 60 bytes", "span 48", what="a shape that does not match the offsets")

    def overlap(h):
        h["other"]["data_offsets"] = [24, 48]

    expect(["tensor", st("overlap", edit=overlap, tail=b""), "wpe.weight"], "format",
           "overlap", what="overlapping tensors")

    def hole(h):
        h["other"]["data_offsets"] = [56, 80]

    expect(["tensor", write("hole.safetensors", safetensors(t, edit=hole, tail=b"\0" * 8)),
            "wpe.weight"], "format", "belong to no tensor", what="a hole in the data")

    def out_of_range(h):
        h["other"]["data_offsets"] = [48, 96]
        h["other"]["shape"] = [4, 3]

    expect(["tensor", st("range", edit=out_of_range), "wpe.weight"], "format", "truncated",
           what="offsets past the end of the data")
    blob = safetensors(t)
    expect(["tensor", write("cut.safetensors", blob[:-5]), "wpe.weight"], "format", "truncated",
           what="a file cut short")
    expect(["tensor", write("hlen.safetensors", struct.pack("<Q", 10 ** 12) + blob[8:])],
           "format", "only", "follow", what="a header length past the end of the file")
    broken = b'{"a": {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]},}'
    expect(["tensor", write("json.safetensors", struct.pack("<Q", len(broken)) + broken +
                            b"\0" * 4)], "format", "not valid JSON", what="broken JSON")
    dup = b'{"x": {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}, ' \
          b'"x": {"dtype": "F32", "shape": [1, 1], "data_offsets": [4, 8]}}'
    expect(["tensor", write("dup.safetensors", struct.pack("<Q", len(dup)) + dup + b"\0" * 8)],
           "format", "listed twice", what="a tensor listed twice")
    trailing = json.dumps({"x": {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}})
    trailing = (trailing + " junk").encode()
    expect(["tensor", write("trail.safetensors",
                            struct.pack("<Q", len(trailing)) + trailing + b"\0" * 4)],
           "format", "follows the closing", what="text after the header's object")
    ints = [("ids", "I64", (2, 2), np.zeros((2, 2), "<i8").tobytes())]
    expect(["tensor", write("i64.safetensors", safetensors(ints))], "format", "I64",
           what="an integer tensor")
    t3d = [("wpe.weight", "F32", (1, 4, 3), np.zeros((1, 4, 3), "<f4").tobytes())]
    expect(["learned", write("3d.safetensors", safetensors(t3d))], "format", "(1, 4, 3)", "3-D",
           what="a 3-D position table")
    expect(["learned", write("empty.safetensors", safetensors([]))], "not_found", "no tensors",
           what="a file without tensors")
    big = [("wpe.weight", "F16", (1000001, 1), b"\0" * 2000002)]
    expect(["learned", write("big.safetensors", safetensors(big))], "too_big", "1000001 rows",
           what="a table with too many rows")
    nan = np.zeros((2, 2), "<f4")
    nan[1, 0] = np.inf
    expect(["tensor", write("inf.safetensors", safetensors([("x", "F32", (2, 2),
                                                              nan.tobytes())]))],
           "format", "row 1, column 0", what="an infinity in the table")
    ctrl = [("bad\x1b[2Jname", "F32", (1, 1), b"\0" * 4), ("b", "F32", (1, 1), b"\0" * 4)]
    got = probe("tensor", write("ctrl.safetensors", safetensors(ctrl)), "zzz")
    check(got.get("status") == "not_found" and "\x1b" not in got["message"] and
          "bad?[2Jname" in got["message"], "names are shown without control characters")


# -------------------------------------------------------------------------------------------
# The learned table's similarity against offset, recomputed in numpy


def test_learned():
    rng = np.random.default_rng(3)
    n, d = 40, 16
    # a table whose rows drift slowly, so the similarity falls with the offset
    table = np.cumsum(rng.standard_normal((n, d)), axis=0)
    table[5] = 0.0  # a zero row counts as cosine 0
    p = save_npy("drift.npy", table)
    got = probe("learned-sim", p, -3, 50)
    unit = table / np.maximum(np.linalg.norm(table, axis=1, keepdims=True), 1e-300)
    unit[5] = 0.0
    cos_ref, dot_ref = [], []
    for k in range(-3, 47):
        a = abs(k)
        if a >= n:
            cos_ref.append(None)
            dot_ref.append(None)
            continue
        cos_ref.append(float(np.mean(np.sum(unit[: n - a] * unit[a:], axis=1))))
        dot_ref.append(float(np.mean(np.sum(table[: n - a] * table[a:], axis=1))))
    nan_ok = all((c is None) == (g is None) for c, g in zip(cos_ref, got["cosine"]))
    check(nan_ok, "no value (null) exactly where no pair of rows is that far apart")
    pairs = [(g, c) for g, c in zip(got["cosine"], cos_ref) if c is not None]
    dc = max(abs(g - c) for g, c in pairs)
    pairs = [(g, c) for g, c in zip(got["dot"], dot_ref) if c is not None]
    dd = max(abs(g - c) / max(abs(c), 1) for g, c in pairs)
    check(dc < 1e-13 and dd < 1e-13, f"mean cosine and dot against offset equal numpy's "
                                      f"(max diff {dc:.1e}, {dd:.1e})")
    check(got["cosine"][3] > got["cosine"][3 + 10] > 0, "a drifting table: similarity falls")
    print(f"# learned: max |C - numpy| cosine {dc:.1e}, dot (relative) {dd:.1e}")


def main():
    global PROBE
    PROBE = sys.argv[1]
    try:
        return run_group(globals(), sys.argv[2])
    finally:
        for f in os.listdir(TMP):
            os.unlink(os.path.join(TMP, f))
        os.rmdir(TMP)


if __name__ == "__main__":
    sys.exit(main())
