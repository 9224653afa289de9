/* test_learned_pe.c — the learned position table: the untrained one, one read from a file, its
 * similarity against offset (a table holding sinusoidal PE must give PE's closed form), its
 * dot-product matrix, and the end of the table. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "learned_pe.h"
#include "npy.h"
#include "posenc.h"
#include "tf_limits.h"

/* An .npy of a (rows, cols) float64 table in memory. */
static uint8_t *npy_f8(const double *v, int rows, int cols, size_t *len)
{
    size_t data = (size_t)rows * cols * sizeof *v;
    uint8_t *b = malloc(NPY_HEADER_CAP + data);
    size_t head = npy_write_header(b, NPY_HEADER_CAP, "<f8", (uint64_t)rows, (uint64_t)cols);
    assert_true(head > 0 && head % 64 == 0);
    memcpy(b + head, v, data);
    *len = head + data;
    return b;
}

static void test_random_table(void **state)
{
    (void)state;
    enum { N = 300, D = 64 };
    tf_learned_pe a, b;
    assert_int_equal(learned_pe_init_random(&a, N, D, 7), TF_OK);
    assert_int_equal(learned_pe_init_random(&b, N, D, 7), TF_OK);
    assert_false(a.trained);
    assert_null(a.name);
    assert_memory_equal(a.p, b.p, (size_t)N * D * sizeof *a.p);
    double lim = sqrt(3.0 / D), sq = 0;
    for (int i = 0; i < N * D; i++) {
        assert_true(fabs(a.p[i]) <= lim);
        sq += a.p[i] * a.p[i];
    }
    assert_close(sq / N, 1.0, 0.05); /* rows of length about 1, as W_E's */
    learned_pe_free(&b);
    assert_int_equal(learned_pe_init_random(&b, N, D, 8), TF_OK);
    assert_true(memcmp(a.p, b.p, D * sizeof *a.p) != 0);
    learned_pe_free(&b);
    /* unrelated rows: similarity 1 at offset 0, about 0 elsewhere */
    double sim[40];
    assert_int_equal(learned_pe_offset_similarity(&a, true, 0, 40, sim), TF_OK);
    assert_close(sim[0], 1.0, 1e-12);
    for (int k = 1; k < 40; k++)
        assert_true(fabs(sim[k]) < 0.05);
    learned_pe_free(&a);
    assert_int_equal(learned_pe_init_random(&a, 0, D, 1), TF_ERR_POSITIONS);
    assert_int_equal(learned_pe_init_random(&a, TF_MAX_POSITIONS + 1, D, 1), TF_ERR_POSITIONS);
    assert_int_equal(learned_pe_init_random(&a, 10, 0, 1), TF_ERR_DMODEL);
    assert_int_equal(learned_pe_init_random(&a, 1000000, 16384, 1), TF_ERR_TOO_BIG);
    assert_null(a.p);
}

/* A table that holds sinusoidal PE is a "learned" table that learned PE: its curve must be
 * PE's closed form (2/d) sum_i cos(k w_i) at every offset. */
static void test_sinusoidal_table(void **state)
{
    (void)state;
    enum { N = 64, D = 16 };
    double *pe = malloc(N * D * sizeof *pe);
    for (int p = 0; p < N; p++)
        posenc_row(p, D, 10000, pe + p * D);
    size_t len;
    uint8_t *file = npy_f8(pe, N, D, &len);
    tf_learned_pe t;
    tensor_diag dg;
    assert_int_equal(learned_pe_load_mem(&t, file, len, NULL, &dg), TF_OK);
    assert_true(t.trained);
    assert_int_equal(t.n_pos, N);
    assert_int_equal(t.d, D);
    assert_int_equal(t.dtype, TENSOR_F64);
    double sim[2 * N + 4], dot[2 * N + 4], want[2 * N + 4];
    long k0 = -N - 1;
    assert_int_equal(learned_pe_offset_similarity(&t, true, k0, 2 * N + 3, sim), TF_OK);
    assert_int_equal(learned_pe_offset_similarity(&t, false, k0, 2 * N + 3, dot), TF_OK);
    for (int i = 0; i < 2 * N + 3; i++) {
        long k = k0 + i;
        if (labs(k) >= N) {
            assert_true(isnan(sim[i]) && isnan(dot[i])); /* no pair of rows that far apart */
            continue;
        }
        want[i] = posenc_dot_offset((double)k, D, 10000);
        assert_close(dot[i], want[i], 1e-12);
        assert_close(sim[i], want[i] / (D / 2.0), 1e-13);
    }
    /* at offsets in any order, one pass over the rows' norms: PE's closed form again */
    const long at[] = {5, -3, N, 0, N - 1};
    double some[5];
    assert_int_equal(learned_pe_offset_similarity_at(&t, true, at, 5, some), TF_OK);
    for (int i = 0; i < 5; i++) {
        if (labs(at[i]) >= N)
            assert_true(isnan(some[i]));
        else
            assert_close(some[i], posenc_dot_offset((double)at[i], D, 10000) / (D / 2.0), 1e-13);
    }
    /* the dot-product matrix is PE's own */
    double *g = malloc(N * N * sizeof *g), *g2 = malloc(N * N * sizeof *g2);
    assert_int_equal(learned_pe_gram(&t, false, 0, N, g), TF_OK);
    assert_int_equal(posenc_gram(0, N, D, 10000, g2), TF_OK);
    check_max_diff("gram", g, g2, N * N, 1e-12);
    /* the offset similarity read from the gram: the rows' own, PE's closed form */
    double from_gram[N];
    learned_pe_offset_similarity_gram(g, N, from_gram);
    for (int k = 0; k < N; k++)
        assert_close(from_gram[k], posenc_dot_offset((double)k, D, 10000) / (D / 2.0), 1e-13);
    assert_int_equal(learned_pe_gram(&t, true, 10, 20, g), TF_OK);
    for (int a = 0; a < 20; a++)
        assert_close(g[a * 20 + a], 1.0, 1e-14);
    /* the end of the table */
    double row[D];
    assert_int_equal(learned_pe_rows(&t, N - 1, 1, row), TF_OK);
    check_max_diff("last row", row, pe + (N - 1) * D, D, 0.0);
    assert_int_equal(learned_pe_rows(&t, N, 1, row), TF_ERR_POSITIONS);
    assert_int_equal(learned_pe_rows(&t, N - 1, 2, row), TF_ERR_POSITIONS);
    assert_int_equal(learned_pe_gram(&t, false, 60, 5, g), TF_ERR_POSITIONS);
    free(g);
    free(g2);
    learned_pe_free(&t);
    free(file);
    free(pe);
}

static void test_safetensors_table(void **state)
{
    (void)state;
    /* two tensors; the position table is found by its name */
    const char *json = "{\"wte.weight\": {\"dtype\": \"F32\", \"shape\": [1, 2], \"data_offsets\": "
                       "[0, 8]}, \"transformer.wpe.weight\": {\"dtype\": \"F32\", \"shape\": "
                       "[2, 2], \"data_offsets\": [8, 24]}}";
    size_t hl = strlen(json), len = 8 + hl + 24;
    uint8_t *b = calloc(1, len);
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(hl >> (8 * i));
    memcpy(b + 8, json, hl);
    const float v[6] = {9, 9, 1, 0, 0, 1};
    memcpy(b + 8 + hl, v, sizeof v);
    tf_learned_pe t;
    tensor_diag dg;
    assert_int_equal(learned_pe_load_mem(&t, b, len, NULL, &dg), TF_OK);
    assert_string_equal(t.name, "transformer.wpe.weight");
    assert_int_equal(t.n_pos, 2);
    assert_true(t.p[0] == 1 && t.p[3] == 1);
    double sim[2];
    assert_int_equal(learned_pe_offset_similarity(&t, true, 0, 2, sim), TF_OK);
    assert_true(sim[0] == 1.0 && sim[1] == 0.0); /* orthogonal rows */
    learned_pe_free(&t);
    assert_int_equal(learned_pe_load_mem(&t, b, len, "wte", &dg), TF_ERR_NOT_FOUND);
    assert_non_null(strstr(dg.msg, "transformer.wpe.weight (2, 2)"));
    assert_null(t.p);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_table),
        cmocka_unit_test(test_sinusoidal_table),
        cmocka_unit_test(test_safetensors_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
