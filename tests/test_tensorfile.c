/* test_tensorfile.c — the .npy and .safetensors readers on files built here byte by byte: every
 * element type's conversion against known bit patterns, and each way a file can be wrong with
 * the status and the sentence it earns (files written by numpy itself: schemes_reference_test.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "npy.h"
#include "safetensors.h"
#include "tensorfile.h"
#include "tf_limits.h"

/* ---------------------------------------------------------------------------------------------
 * Building files */

typedef struct {
    uint8_t b[1 << 16];
    size_t n;
} buf;

static void put(buf *f, const void *p, size_t n)
{
    assert_true(f->n + n <= sizeof f->b);
    memcpy(f->b + f->n, p, n);
    f->n += n;
}

static void put_str(buf *f, const char *s)
{
    put(f, s, strlen(s));
}

static void put_le(buf *f, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        uint8_t c = (uint8_t)(v >> (8 * i));
        put(f, &c, 1);
    }
}

/* An .npy of format version major.0 with the header dict given and the data bytes. */
static void npy(buf *f, int major, const char *dict, const void *data, size_t n)
{
    f->n = 0;
    put_str(f, "\x93NUMPY");
    uint8_t v[2] = {(uint8_t)major, 0};
    put(f, v, 2);
    size_t pre = major == 1 ? 10 : 12, len = strlen(dict) + 1;
    size_t pad = (64 - (pre + len) % 64) % 64;
    put_le(f, len + pad, major == 1 ? 2 : 4);
    put_str(f, dict);
    for (size_t i = 0; i < pad; i++)
        put_str(f, " ");
    put_str(f, "\n");
    put(f, data, n);
}

/* A .safetensors with the JSON header given and the data bytes. */
static void st(buf *f, const char *json, const void *data, size_t n)
{
    f->n = 0;
    put_le(f, strlen(json), 8);
    put_str(f, json);
    put(f, data, n);
}

static tf_status read_buf(const buf *f, const char *name, tf_tensor *t, tensor_diag *dg)
{
    return tensorfile_read_mem(f->b, f->n, TENSORFILE_AUTO, name, NULL, NULL, t, dg);
}

/* The read fails with status want and a message containing every word given. */
#define expect_fail(f, name, want, ...)                                                            \
    do {                                                                                           \
        tf_tensor t_;                                                                              \
        tensor_diag dg_;                                                                           \
        tf_status st_ = read_buf((f), (name), &t_, &dg_);                                          \
        const char *words_[] = {__VA_ARGS__, NULL};                                                \
        if (st_ != (want))                                                                         \
            fprintf(stderr, "# status %d, want %d: %s\n", st_, (want), dg_.msg);                   \
        assert_int_equal(st_, (want));                                                             \
        assert_null(t_.data);                                                                      \
        for (int w_ = 0; words_[w_]; w_++)                                                         \
            if (!strstr(dg_.msg, words_[w_]))                                                      \
                fail_msg("'%s' is not in: %s", words_[w_], dg_.msg);                               \
    } while (0)

static const char npy_f4[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";

/* ---------------------------------------------------------------------------------------------
 * Values */

static void test_decode_bit_patterns(void **state)
{
    (void)state;
    double out[8];
    /* float16: 1, -2, 65504 (the largest), 2^-24 (the smallest subnormal), 2^-14, -0 */
    const uint8_t f16[] = {0x00, 0x3C, 0x00, 0xC0, 0xFF, 0x7B, 0x01, 0x00, 0x00, 0x04, 0x00, 0x80};
    assert_int_equal(tensor_decode(f16, 6, TENSOR_F16, false, out), 6);
    const double want16[] = {1.0, -2.0, 65504.0, ldexp(1, -24), ldexp(1, -14), -0.0};
    check_max_diff("f16", out, want16, 6, 0.0);
    assert_true(signbit(out[5]));
    /* bfloat16: 1, -2.5, 3.140625 */
    const uint8_t bf16[] = {0x80, 0x3F, 0x20, 0xC0, 0x49, 0x40};
    assert_int_equal(tensor_decode(bf16, 3, TENSOR_BF16, false, out), 3);
    const double wantbf[] = {1.0, -2.5, 3.140625};
    check_max_diff("bf16", out, wantbf, 3, 0.0);
    /* float32 0.1 and float64 0.1, little- and big-endian */
    const uint8_t f32le[] = {0xCD, 0xCC, 0xCC, 0x3D}, f32be[] = {0x3D, 0xCC, 0xCC, 0xCD};
    assert_int_equal(tensor_decode(f32le, 1, TENSOR_F32, false, out), 1);
    assert_int_equal(tensor_decode(f32be, 1, TENSOR_F32, true, out + 1), 1);
    assert_true(out[0] == (double)0.1f && out[1] == (double)0.1f);
    const uint8_t f64be[] = {0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A};
    assert_int_equal(tensor_decode(f64be, 1, TENSOR_F64, true, out), 1);
    assert_true(out[0] == 0.1);
    /* non-finite values stop the conversion at their index: f16 inf, NaN; bf16 inf */
    const uint8_t bad16[] = {0x00, 0x3C, 0x00, 0x7C}, nan16[] = {0x01, 0x7E};
    assert_int_equal(tensor_decode(bad16, 2, TENSOR_F16, false, out), 1);
    assert_int_equal(tensor_decode(nan16, 1, TENSOR_F16, false, out), 0);
    const uint8_t infbf[] = {0x80, 0xFF};
    assert_int_equal(tensor_decode(infbf, 1, TENSOR_BF16, false, out), 0);
}

static void test_helpers(void **state)
{
    (void)state;
    uint64_t r;
    assert_true(tensor_mul_ok(1u << 31, 1u << 31, &r) && r == 1ull << 62);
    assert_false(tensor_mul_ok(UINT64_MAX / 2, 3, &r));
    assert_true(tensor_mul_ok(0, UINT64_MAX, &r) && r == 0);
    char out[32];
    tensor_safe_name(out, sizeof out, "a\x1b[2Jb", 6, 80);
    assert_string_equal(out, "a?[2Jb");
    tensor_safe_name(out, sizeof out,
                     "\xe2\x80\xae"
                     "x\xff",
                     5, 80); /* U+202E, bad byte */
    assert_string_equal(out, "?x?");
    tensor_safe_name(out, sizeof out, "位置编码", 12, 7);
    assert_string_equal(out, "位置...");
    tensor_safe_name(out, 8, "abcdefghijkl", 12, 80); /* 7 bytes and the NUL */
    assert_string_equal(out, "abcd...");
    const uint64_t sh[3] = {1024, 768, 2};
    tensor_shape_str(sh, 2, out, sizeof out);
    assert_string_equal(out, "(1024, 768)");
    tensor_shape_str(sh, 1, out, sizeof out);
    assert_string_equal(out, "(1024,)");
    tensor_shape_str(sh, 0, out, sizeof out);
    assert_string_equal(out, "()");
    assert_string_equal(tensor_dtype_name(TENSOR_BF16), "BF16");
    assert_int_equal(tensor_dtype_size(TENSOR_F64), 8);
    assert_null(tensor_dtype_name(TENSOR_DTYPE_COUNT));
}

/* ---------------------------------------------------------------------------------------------
 * .npy */

static void test_npy_versions_and_orders(void **state)
{
    (void)state;
    static buf f;
    const float v[6] = {1, 2, 3, 4, 5, 6.5f};
    for (int major = 1; major <= 3; major++) {
        npy(&f, major, npy_f4, v, sizeof v);
        tf_tensor t;
        tensor_diag dg;
        assert_int_equal(read_buf(&f, NULL, &t, &dg), TF_OK);
        assert_int_equal(t.rows, 2);
        assert_int_equal(t.cols, 3);
        assert_int_equal(t.kind, TENSORFILE_NPY);
        assert_int_equal(t.dtype, TENSOR_F32);
        assert_null(t.name);
        for (int i = 0; i < 6; i++)
            assert_true(t.data[i] == v[i]);
        tensor_free(&t);
    }
    /* keys in another order, double quotes, a Python 2 "L", no trailing comma; big-endian f8 */
    const uint8_t be[16] = {0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18, /* pi */
                            0xBF, 0xF0, 0,    0,    0,    0,    0,    0};   /* -1 */
    npy(&f, 1, "{\"shape\": (1L, 2), 'fortran_order': False, 'descr': '>f8'}", be, sizeof be);
    tf_tensor t;
    tensor_diag dg;
    assert_int_equal(read_buf(&f, NULL, &t, &dg), TF_OK);
    assert_true(t.data[0] == 3.141592653589793 && t.data[1] == -1.0);
    assert_int_equal(t.dtype, TENSOR_F64);
    tensor_free(&t);
    /* the parsed header itself */
    npy(&f, 2, npy_f4, v, sizeof v);
    npy_header h;
    assert_int_equal(npy_parse_header(f.b, f.n, f.n, &h, &dg), TF_OK);
    assert_int_equal(h.major, 2);
    assert_int_equal(h.ndim, 2);
    assert_int_equal(h.data_offset, 128);
    assert_int_equal(h.data_bytes, 24);
    assert_int_equal(h.numel, 6);
}

static void test_npy_malformed(void **state)
{
    (void)state;
    static buf f;
    const float v[6] = {0};
    npy(&f, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", v, sizeof v);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "Fortran", "np.ascontiguousarray");
    npy(&f, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "signed integers", "'<i8'");
    npy(&f, 1, "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "pickled Python objects");
    npy(&f, 1, "{'descr': '<f16', 'fortran_order': False, 'shape': (1, 1), }", v, 16);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "'<f16'", "float size");
    npy(&f, 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 3), }", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "structured");
    npy(&f, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "(6,)", "1-D");
    npy(&f, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", v, 4);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "()", "0-D");
    npy(&f, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6), }", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "(n,)");
    npy(&f, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", v, 0);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "no numbers");
    npy(&f, 1, "{'descr': '<f4', 'fortran_order': False}", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "lacks one of");
    npy(&f, 1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "twice");
    npy(&f, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } x", v, 24);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "follows the closing");
    npy(&f, 1, npy_f4, v, 20);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "promises 24 bytes", "has 20", "truncated");
    npy(&f, 1, npy_f4, v, sizeof v);
    put(&f, v, 4);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "28 bytes of data", "describe 24");
    npy(&f, 1, npy_f4, v, sizeof v);
    f.b[6] = 9;
    expect_fail(&f, NULL, TF_ERR_FORMAT, "version is 9.0");
    npy(&f, 1, npy_f4, v, sizeof v);
    f.n = 9;
    expect_fail(&f, NULL, TF_ERR_FORMAT, "preamble");
    npy(&f, 2, npy_f4, v, sizeof v);
    f.b[8] = 0xFF, f.b[9] = 0xFF, f.b[10] = 0xFF, f.b[11] = 0x7F; /* a 2 GB header */
    expect_fail(&f, NULL, TF_ERR_FORMAT, "claims to be 2147483647 bytes");
    /* a value that is not finite: at its row, column and byte offset */
    float w[6] = {0, 1, 2, 3, 4, 5};
    w[4] = NAN;
    npy(&f, 1, npy_f4, w, sizeof w);
    tf_tensor t;
    tensor_diag dg;
    assert_int_equal(read_buf(&f, NULL, &t, &dg), TF_ERR_FORMAT);
    assert_non_null(strstr(dg.msg, "row 1, column 1"));
    assert_true(dg.has_offset);
    assert_int_equal(dg.offset, 128 + 4 * 4); /* the data starts at 128 */
    /* a name for an .npy */
    npy(&f, 1, npy_f4, v, sizeof v);
    expect_fail(&f, "wpe.weight", TF_ERR_NOT_FOUND, "one unnamed array");
}

static void test_npy_limits(void **state)
{
    (void)state;
    static buf f;
    const uint16_t h[4] = {0};
    /* claims checked against the file first: a huge shape in a small file is a lie */
    npy(&f, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (100000, 100000), }", h,
        sizeof h);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "truncated");
    npy(&f, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967295), }", h,
        sizeof h);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "more bytes than any file");
    /* a shape that the file holds but the limits refuse, before any allocation */
    npy(&f, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }", h, sizeof h);
    tensor_limits lim = {.max_rows = 1};
    tf_tensor t;
    tensor_diag dg;
    assert_int_equal(tensorfile_read_mem(f.b, f.n, TENSORFILE_AUTO, NULL, NULL, &lim, &t, &dg),
                     TF_ERR_TOO_BIG);
    assert_non_null(strstr(dg.msg, "2 rows"));
    lim = (tensor_limits){.max_values = 3};
    assert_int_equal(tensorfile_read_mem(f.b, f.n, TENSORFILE_AUTO, NULL, NULL, &lim, &t, &dg),
                     TF_ERR_TOO_BIG);
    assert_non_null(strstr(dg.msg, "2 x 2 values"));
    assert_int_equal(tensor_check_limits(1000001, 1, NULL, &dg), TF_ERR_TOO_BIG);
    assert_int_equal(tensor_check_limits(1, 16385, NULL, &dg), TF_ERR_TOO_BIG);
    assert_int_equal(tensor_check_limits(1024, 8192, NULL, &dg), TF_OK);
    assert_int_equal(tensor_check_limits(1025, 8192, NULL, &dg), TF_ERR_TOO_BIG);
    assert_int_equal(tensor_check_limits(UINT64_MAX, UINT64_MAX, NULL, &dg), TF_ERR_TOO_BIG);
}

/* ---------------------------------------------------------------------------------------------
 * .safetensors */

static const char st_two[] =
    "{\"__metadata__\": {\"format\": \"pt\", \"n\": [1, {\"a\": null}]},"
    " \"wpe.weight\": {\"dtype\": \"F32\", \"shape\": [2, 2], \"data_offsets\": [8, 24]},"
    " \"b\": {\"dtype\": \"F16\", \"data_offsets\": [0, 8], \"shape\": [4, 1], \"x\": true}}  ";

static void test_safetensors_read(void **state)
{
    (void)state;
    static buf f;
    uint8_t data[24];
    const uint16_t halves[4] = {0x3C00, 0x4000, 0x4200, 0xC400}; /* 1, 2, 3, -4 */
    const float fl[4] = {0.5f, -1.5f, 1e-3f, 1e6f};
    memcpy(data, halves, 8);
    memcpy(data + 8, fl, 16);
    st(&f, st_two, data, sizeof data);
    safetensors_header h;
    tensor_diag dg;
    assert_true(safetensors_is(f.b, f.n));
    assert_int_equal(safetensors_parse_header(f.b, f.n, f.n, &h, &dg), TF_OK);
    assert_int_equal(h.n, 2);
    assert_string_equal(h.items[0].name, "wpe.weight");
    assert_int_equal(h.items[1].known, TENSOR_F16);
    assert_int_equal(safetensors_find(&h, "b"), 1);
    assert_int_equal(safetensors_find(&h, "__metadata__"), -1);
    assert_int_equal(h.data_bytes, 24);
    safetensors_header_free(&h);

    tf_tensor t;
    assert_int_equal(read_buf(&f, "b", &t, &dg), TF_OK);
    assert_int_equal(t.rows, 4);
    assert_int_equal(t.kind, TENSORFILE_SAFETENSORS);
    assert_string_equal(t.name, "b");
    const double want16[4] = {1, 2, 3, -4};
    check_max_diff("F16 tensor", t.data, want16, 4, 0.0);
    tensor_free(&t);
    /* no name: the one tensor with a suffix asked for */
    const char *const sfx[] = {"wpe.weight", NULL};
    assert_int_equal(tensorfile_read_mem(f.b, f.n, TENSORFILE_AUTO, NULL, sfx, NULL, &t, &dg),
                     TF_OK);
    assert_string_equal(t.name, "wpe.weight");
    for (int i = 0; i < 4; i++)
        assert_true(t.data[i] == fl[i]);
    tensor_free(&t);
    /* no name and no suffix: two 2-D tensors, so it must be named */
    expect_fail(&f, NULL, TF_ERR_NOT_FOUND, "holds 2 tensors", "wpe.weight (2, 2)", "b (4, 1)");
    expect_fail(&f, "wpe", TF_ERR_NOT_FOUND, "no tensor 'wpe'", "wpe.weight (2, 2)");
}

static void test_safetensors_names(void **state)
{
    (void)state;
    static buf f;
    const float one = 1.0f;
    /* escapes: \u00e9 (é), a surrogate pair (U+1F600), \" and \\; a 2-byte-per-char name */
    st(&f,
       "{\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\\": {\"dtype\": \"F32\", \"shape\": [1, "
       "1], \"data_offsets\": [0, 4]}}",
       &one, 4);
    tf_tensor t;
    tensor_diag dg;
    assert_int_equal(read_buf(&f, "café 😀 \"q\" \\", &t, &dg), TF_OK);
    assert_true(t.data[0] == 1.0);
    tensor_free(&t);
    /* the only tensor is read without a name */
    assert_int_equal(read_buf(&f, NULL, &t, &dg), TF_OK);
    tensor_free(&t);
    /* broken escapes and strings */
    const char *bad[] = {
        "{\"a\\ud83d\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, 4]}}",
        "{\"a\\ude00\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, 4]}}",
        "{\"a\\x\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, 4]}}",
        "{\"a\xff\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, 4]}}",
        "{\"a\n\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, 4]}}",
        "{\"a\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, 4.0]}}",
        "{\"a\": {\"dtype\": \"F32\", \"shape\": [01, 1], \"data_offsets\": [0, 4]}}",
        "{\"a\": {\"dtype\": \"F32\", \"shape\": [-1, 1], \"data_offsets\": [0, 4]}}",
        "{\"a\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, 4]}, "
        "\"__metadata__\": {\"x\": 1e}}",
        "{\"a\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [0, "
        "18446744073709551616]}}",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        st(&f, bad[k], &one, 4);
        expect_fail(&f, NULL, TF_ERR_FORMAT, "not valid JSON");
    }
}

static void test_safetensors_malformed(void **state)
{
    (void)state;
    static buf f;
    static const uint8_t zero[64];
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [3, 2], \"data_offsets\": [0, 20]}}", zero, 20);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "'a' (F32, shape (3, 2)) needs 24 bytes", "span 20");
    st(&f,
       "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 2], \"data_offsets\": [0, 16]},"
       " \"b\": {\"dtype\": \"F32\", \"shape\": [2, 2], \"data_offsets\": [8, 24]}}",
       zero, 24);
    expect_fail(&f, "a", TF_ERR_FORMAT, "overlap");
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 2], \"data_offsets\": [4, 20]}}", zero, 20);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "bytes 0 to 4", "no holes");
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 2], \"data_offsets\": [0, 16]}}", zero, 12);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "ends at byte 16", "only 12", "truncated");
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 2], \"data_offsets\": [0, 16]}}", zero, 20);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "20 bytes of data", "use 16");
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 2], \"data_offsets\": [16, 0]}}", zero, 16);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "backwards");
    st(&f,
       "{\"a\": {\"dtype\": \"F32\", \"shape\": [4294967296, 4294967296], \"data_offsets\": "
       "[0, 16]}}",
       zero, 16);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "more elements than any file");
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 2]}}", zero, 0);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "lacks its data_offsets");
    st(&f, "{\"a\": 5}", zero, 0);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "not an object");
    st(&f, "{\"a\": {\"dtype\": \"I32\", \"shape\": [2, 2], \"data_offsets\": [0, 16]}}", zero, 16);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "holds I32 values");
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 1, 2], \"data_offsets\": [0, 16]}}", zero,
       16);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "(2, 1, 2)", "3-D");
    st(&f, "{\"a\": {\"dtype\": \"F32\", \"shape\": [0, 2], \"data_offsets\": [0, 0]}}", zero, 0);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "no numbers");
    /* a dtype tfviz does not know (a newer format's) is placed, not sized */
    st(&f,
       "{\"a\": {\"dtype\": \"F4\", \"shape\": [4], \"data_offsets\": [0, 2]},"
       " \"b\": {\"dtype\": \"F32\", \"shape\": [1, 1], \"data_offsets\": [2, 6]}}",
       zero, 6);
    tf_tensor t;
    tensor_diag dg;
    assert_int_equal(read_buf(&f, "b", &t, &dg), TF_OK);
    tensor_free(&t);
    expect_fail(&f, "a", TF_ERR_FORMAT, "holds F4 values");
    st(&f, "{}", zero, 0);
    expect_fail(&f, NULL, TF_ERR_NOT_FOUND, "no tensors");
    st(&f, "[1]", zero, 0);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "neither");
    /* a header length past the end, with the kind known from the extension */
    st(&f, "{}", zero, 0);
    f.b[0] = 0xFF;
    assert_int_equal(
        tensorfile_read_mem(f.b, f.n, TENSORFILE_SAFETENSORS, NULL, NULL, NULL, &t, &dg),
        TF_ERR_FORMAT);
    assert_non_null(strstr(dg.msg, "header length says 255 bytes"));
    /* nesting beyond the reader's depth in the metadata */
    char deep[400] = "{\"__metadata__\": {\"a\": ";
    for (int i = 0; i < 80; i++)
        strcat(deep, "[");
    strcat(deep, "}");
    st(&f, deep, zero, 0);
    expect_fail(&f, NULL, TF_ERR_FORMAT, "nested too deeply");
}

static void test_other_files(void **state)
{
    (void)state;
    static buf f;
    f.n = 0;
    expect_fail(&f, NULL, TF_ERR_FORMAT, "empty");
    put_str(&f, "PK\x03\x04 rest of a zip");
    expect_fail(&f, NULL, TF_ERR_FORMAT, "zip archive");
    f.n = 0;
    put_str(&f, "\x80\x02}q\x00.");
    expect_fail(&f, NULL, TF_ERR_FORMAT, "pickle");
    f.n = 0;
    put_str(&f, "word 1 2 3\n");
    expect_fail(&f, NULL, TF_ERR_FORMAT, "neither an .npy nor a .safetensors");
    tf_tensor t;
    tensor_diag dg;
    assert_int_equal(tensorfile_read_mem(f.b, f.n, TENSORFILE_NPY, NULL, NULL, NULL, &t, &dg),
                     TF_ERR_FORMAT);
    assert_non_null(strstr(dg.msg, "not an .npy file"));
    assert_int_equal(tensorfile_read("/nonexistent/table.npy", NULL, NULL, NULL, &t, &dg),
                     TF_ERR_IO);
    assert_non_null(strstr(dg.msg, "cannot open"));
    assert_int_equal(tensorfile_read("/", NULL, NULL, NULL, &t, &dg), TF_ERR_IO);
    assert_non_null(strstr(dg.msg, "folder"));
    assert_int_equal(tensorfile_read("/dev/null", NULL, NULL, NULL, &t, &dg), TF_ERR_IO);
    assert_non_null(strstr(dg.msg, "not a regular file"));
}

/* The file reader and the memory reader agree, and a file is read without its other tensors. */
/* tensor_check_scale: max|v| x sqrt(width) up to TF_MAX_TABLE_NORM is kept, past it refused
 * with the numbers in the sentence. */
static void test_check_scale(void **state)
{
    (void)state;
    double v[4] = {0.5, -5e17, 1.0, 0.0}; /* 5e17 x sqrt(4) = 1e18: the limit itself */
    tf_tensor t = {.rows = 2, .cols = 2, .data = v};
    tensor_diag dg = {0};
    assert_int_equal(tensor_check_scale(&t, 4, &dg), TF_OK);
    v[1] = -5.0001e17;
    assert_int_equal(tensor_check_scale(&t, 4, &dg), TF_ERR_TOO_BIG);
    assert_non_null(strstr(dg.msg, "5e+17"));
    assert_non_null(strstr(dg.msg, "sqrt(4)"));
    v[1] = 1e300; /* a bias (width 1) */
    assert_int_equal(tensor_check_scale(&t, 1, &dg), TF_ERR_TOO_BIG);
    assert_non_null(strstr(dg.msg, "scores they are added to"));
    v[1] = 1e18;
    assert_int_equal(tensor_check_scale(&t, 1, &dg), TF_OK);
}

/* A header of n empty tensors "0", "1", ... (hexadecimal names) in a new buffer of *len
 * bytes. */
static uint8_t *many_tensors(size_t n, size_t *len)
{
    size_t cap = 16 + n * 64;
    uint8_t *b = malloc(cap);
    assert_non_null(b);
    size_t o = 8;
    b[o++] = '{';
    for (size_t k = 0; k < n; k++)
        o += (size_t)snprintf((char *)b + o, cap - o,
                              "%s\"%zx\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}",
                              k ? "," : "", k);
    b[o++] = '}';
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)((o - 8) >> (8 * i));
    *len = o;
    return b;
}

/* A header listing more tensors than TF_MAX_SAFETENSORS_ENTRIES is refused as it is read (1.9
 * million tiny entries took 468 MB before); as many as the limit are read. */
static void test_safetensors_entries(void **state)
{
    (void)state;
    size_t len;
    safetensors_header h;
    tensor_diag dg;
    uint8_t *b = many_tensors(TF_MAX_SAFETENSORS_ENTRIES, &len);
    assert_int_equal(safetensors_parse_header(b, len, len, &h, &dg), TF_OK);
    assert_int_equal(h.n, TF_MAX_SAFETENSORS_ENTRIES);
    safetensors_header_free(&h);
    free(b);
    b = many_tensors(TF_MAX_SAFETENSORS_ENTRIES + 1, &len);
    assert_int_equal(safetensors_parse_header(b, len, len, &h, &dg), TF_ERR_TOO_BIG);
    assert_non_null(strstr(dg.msg, "more than 131072 tensors"));
    free(b);
}

static void test_file_equals_memory(void **state)
{
    (void)state;
    static buf f;
    uint8_t data[24];
    const uint16_t halves[4] = {0x3C00, 0x4000, 0x4200, 0xC400};
    const float fl[4] = {0.5f, -1.5f, 1e-3f, 1e6f};
    memcpy(data, halves, 8);
    memcpy(data + 8, fl, 16);
    st(&f, st_two, data, sizeof data);
    char path[] = "/tmp/tfviz-tensorfile-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(f.b, 1, f.n, fp), f.n);
    fclose(fp);
    tf_tensor a, b;
    tensor_diag dg;
    assert_int_equal(tensorfile_read(path, "wpe.weight", NULL, NULL, &a, &dg), TF_OK);
    assert_int_equal(read_buf(&f, "wpe.weight", &b, &dg), TF_OK);
    assert_int_equal(a.rows * a.cols, 4);
    assert_memory_equal(a.data, b.data, 4 * sizeof *a.data);
    tensor_free(&a);
    tensor_free(&b);
    /* cut short on disk: the same sentence as in memory */
    assert_int_equal(truncate(path, (off_t)f.n - 3), 0);
    assert_int_equal(tensorfile_read(path, "wpe.weight", NULL, NULL, &a, &dg), TF_ERR_FORMAT);
    assert_non_null(strstr(dg.msg, "truncated"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_bit_patterns),
        cmocka_unit_test(test_helpers),
        cmocka_unit_test(test_npy_versions_and_orders),
        cmocka_unit_test(test_npy_malformed),
        cmocka_unit_test(test_npy_limits),
        cmocka_unit_test(test_safetensors_read),
        cmocka_unit_test(test_safetensors_names),
        cmocka_unit_test(test_safetensors_malformed),
        cmocka_unit_test(test_other_files),
        cmocka_unit_test(test_check_scale),
        cmocka_unit_test(test_safetensors_entries),
        cmocka_unit_test(test_file_equals_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
