/* test_order_model.c — the doer-pointing attention layer: every gradient of every scheme
 * against central finite differences, the input rows and RoPE's rotation against posenc.c and
 * rope.c, the same initial weights for every scheme, the bag-of-words property of `none`, the
 * causal mask, and the instruction-set variants agreeing bit for bit. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "order_model.h"
#include "posenc.h"
#include "rope.h"

/* A small task with every shape and a few repeated words; @test holds pairs. */
static const char *const TASK =
    "*猫 追 狗\n*狗 追 猫\n今天 *我 爱 学习\n今天 *学习 爱 我\n狗 被 *猫 追 了\n"
    "猫 被 *狗 追 了\n*猫 经常 在 院子里 追 狗\n*老师 把 学生 叫醒 了\n学生 突然 被 *老师 叫醒 了\n"
    "@test\n*狗 咬 猫\n*猫 咬 狗\n";

static order_task task(void)
{
    order_task t;
    order_parse_error e;
    assert_int_equal(order_task_parse(&t, TASK, strlen(TASK), 1, &e), TF_OK);
    return t;
}

static order_model_cfg small_cfg(void)
{
    order_model_cfg c;
    order_model_defaults(&c);
    c.d_model = 8;
    c.heads = 2;
    c.seed = 5;
    return c;
}

/* A model of scheme s over the small task's vocabulary, with its activations. */
typedef struct {
    order_model m;
    order_work w;
} fixture;

static void fixture_init(fixture *f, tf_scheme s, uint32_t V, const order_model_cfg *c)
{
    assert_int_equal(order_model_init(&f->m, s, V, c), TF_OK);
    assert_int_equal(order_work_init(&f->w, &f->m), TF_OK);
}

static void fixture_free(fixture *f)
{
    order_work_free(&f->w);
    order_model_free(&f->m);
}

/* ---------------------------------------------------------------------------------------------
 * Gradients */

/* Central differences of the mean loss over idx for every element of every tensor, against the
 * backward pass. Passes when each tensor's relative error ||g - g_fd|| / max(||g||, ||g_fd||) and
 * each element's |g - g_fd| / max(|g|, |g_fd|, 1e-4) are below 1e-5. */
static void gradient_check(order_model *m, const order_task *t, const char *label)
{
    order_work w;
    assert_int_equal(order_work_init(&w, m), TF_OK);
    uint32_t idx[64];
    size_t n = t->n_sent;
    if (n > 64)
        n = 64;
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
    order_model_zero_grad(m);
    order_model_batch(m, &w, t, idx, n, true, NULL);
    const double h = 1e-5;
    for (int k = 0; k < m->n_tensors; k++) {
        const order_tensor *T = &m->tensor[k];
        size_t count = (size_t)T->rows * T->cols;
        double num2 = 0.0, diff2 = 0.0, ana2 = 0.0, worst = 0.0;
        size_t at = 0;
        for (size_t i = 0; i < count; i++) {
            double keep = T->w[i];
            T->w[i] = keep + h;
            double up = order_model_batch(m, &w, t, idx, n, false, NULL);
            T->w[i] = keep - h;
            double down = order_model_batch(m, &w, t, idx, n, false, NULL);
            T->w[i] = keep;
            double fd = (up - down) / (2 * h), g = T->g[i];
            num2 += fd * fd;
            ana2 += g * g;
            diff2 += (fd - g) * (fd - g);
            double scale = fmax(fmax(fabs(fd), fabs(g)), 1e-4);
            if (fabs(fd - g) / scale > worst) {
                worst = fabs(fd - g) / scale;
                at = i;
            }
        }
        double rel = sqrt(diff2) / fmax(sqrt(num2), sqrt(ana2));
        if (!(rel < 1e-5) || !(worst < 1e-5))
            fprintf(stderr, "# %s %s: relative error %.3e, worst element %zu: %.3e (g %.9g)\n",
                    label, T->name, rel, at, worst, T->g[at]);
        assert_true(ana2 > 0.0); /* every tensor takes part */
        assert_true(rel < 1e-5);
        assert_true(worst < 1e-5);
    }
    order_work_free(&w);
}

static void test_gradients_every_scheme(void **state)
{
    (void)state;
    order_task t = task();
    for (int s = 0; s < SCHEME_COUNT; s++) {
        order_model_cfg c = small_cfg();
        order_model m;
        assert_int_equal(order_model_init(&m, (tf_scheme)s, t.V, &c), TF_OK);
        int extra = (s == SCHEME_LEARNED) + (s == SCHEME_T5);
        assert_int_equal(m.n_tensors, 6 + extra);
        gradient_check(&m, &t, scheme_name((tf_scheme)s));
        order_model_free(&m);
    }
    order_task_free(&t);
}

static void test_gradients_variants(void **state)
{
    (void)state;
    order_task t = task();
    /* RoPE's other pairing, symmetric ALiBi, one head of 8 and four heads of 4 (RoPE pairs
     * across a wider head), T5 with fewer buckets than distances, and unidirectional */
    struct {
        tf_scheme s;
        int heads, d;
        rope_style style;
        bool symmetric;
        int buckets, maxd;
        bool bidirectional;
    } v[] = {
        {SCHEME_ROPE, 2, 8, ROPE_INTERLEAVED, false, 32, 128, true},
        {SCHEME_ROPE, 1, 8, ROPE_HALF, false, 32, 128, true},
        {SCHEME_ALIBI, 2, 8, ROPE_HALF, true, 32, 128, true},
        {SCHEME_ALIBI, 4, 8, ROPE_HALF, false, 32, 128, true},
        {SCHEME_ALIBI, 3, 12, ROPE_HALF, false, 32, 128, true}, /* slopes of no power of two */
        {SCHEME_T5, 4, 8, ROPE_HALF, false, 8, 5, true},
        {SCHEME_T5, 2, 8, ROPE_HALF, false, 6, 4, false}, /* the decoder's: causal */
        {SCHEME_SINUSOIDAL, 1, 12, ROPE_HALF, false, 32, 128, true},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        order_model_cfg c = small_cfg();
        c.heads = v[i].heads;
        c.d_model = v[i].d;
        c.rope = v[i].style;
        c.alibi_mask = v[i].symmetric ? SCHEME_MASK_SYMMETRIC : SCHEME_MASK_CAUSAL;
        c.t5.num_buckets = v[i].buckets;
        c.t5.max_distance = v[i].maxd;
        c.t5.bidirectional = v[i].bidirectional;
        order_model m;
        assert_int_equal(order_model_init(&m, v[i].s, t.V, &c), TF_OK);
        gradient_check(&m, &t, scheme_name(v[i].s));
        order_model_free(&m);
    }
    order_task_free(&t);
}

/* ---------------------------------------------------------------------------------------------
 * What each scheme computes */

static void test_same_initial_weights(void **state)
{
    (void)state;
    order_model_cfg c = small_cfg();
    order_model m[SCHEME_COUNT];
    for (int s = 0; s < SCHEME_COUNT; s++)
        assert_int_equal(order_model_init(&m[s], (tf_scheme)s, 40, &c), TF_OK);
    size_t dd = (size_t)c.d_model * c.d_model;
    for (int s = 1; s < SCHEME_COUNT; s++) {
        assert_memory_equal(m[s].p.emb, m[0].p.emb, 40 * (size_t)c.d_model * sizeof(double));
        assert_memory_equal(m[s].p.wq, m[0].p.wq, dd * sizeof(double));
        assert_memory_equal(m[s].p.wk, m[0].p.wk, dd * sizeof(double));
        assert_memory_equal(m[s].p.wv, m[0].p.wv, dd * sizeof(double));
        assert_memory_equal(m[s].p.wo, m[0].p.wo, dd * sizeof(double));
        assert_memory_equal(m[s].p.wr, m[0].p.wr, (size_t)c.d_model * sizeof(double));
    }
    /* another seed, other numbers; reset restores the same ones */
    order_model_cfg c2 = c;
    c2.seed = 6;
    order_model o;
    assert_int_equal(order_model_init(&o, SCHEME_NONE, 40, &c2), TF_OK);
    assert_true(memcmp(o.p.wq, m[0].p.wq, dd * sizeof(double)) != 0);
    order_model_free(&o);
    double keep = m[0].p.wq[3];
    m[0].p.wq[3] += 1.0;
    order_model_reset(&m[0]);
    assert_true(m[0].p.wq[3] == keep);
    /* the initial scale: token rows of variance 1 per element, projections of 1/d */
    double s2 = 0.0;
    for (size_t i = 0; i < 40 * (size_t)c.d_model; i++)
        s2 += m[0].p.emb[i] * m[0].p.emb[i];
    assert_close(s2 / (40.0 * c.d_model), 1.0, 0.25);
    for (int s = 0; s < SCHEME_COUNT; s++)
        order_model_free(&m[s]);
}

static void test_input_rows_and_rotation(void **state)
{
    (void)state;
    order_task t = task();
    order_model_cfg c = small_cfg();
    c.d_model = 16;
    c.heads = 2;
    order_model none, sin, learned, rope[ROPE_STYLE_COUNT];
    assert_int_equal(order_model_init(&none, SCHEME_NONE, t.V, &c), TF_OK);
    assert_int_equal(order_model_init(&sin, SCHEME_SINUSOIDAL, t.V, &c), TF_OK);
    assert_int_equal(order_model_init(&learned, SCHEME_LEARNED, t.V, &c), TF_OK);
    order_work wn, ws, wl, wr;
    assert_int_equal(order_work_init(&wn, &none), TF_OK);
    assert_int_equal(order_work_init(&ws, &none), TF_OK);
    assert_int_equal(order_work_init(&wl, &none), TF_OK);
    assert_int_equal(order_work_init(&wr, &none), TF_OK);
    uint32_t s = 6; /* 猫 经常 在 院子里 追 狗 */
    const uint32_t *tok = order_task_tokens(&t, s);
    int L = (int)order_task_len(&t, s);
    order_model_forward(&none, &wn, tok, L, t.doer[s], NULL);
    order_model_forward(&sin, &ws, tok, L, t.doer[s], NULL);
    order_model_forward(&learned, &wl, tok, L, t.doer[s], NULL);
    for (int p = 0; p < L; p++) {
        /* none: the token's row; sinusoidal: + the article's PE (posenc.c); learned: + P_p */
        double pe[16], want[16];
        posenc_row(p, 16, 10000.0, pe);
        check_max_diff("none x", wn.x + p * 16, none.p.emb + tok[p] * 16, 16, 0);
        for (int j = 0; j < 16; j++)
            want[j] = none.p.emb[tok[p] * 16 + j] + pe[j];
        check_max_diff("sinusoidal x", ws.x + p * 16, want, 16, 0);
        for (int j = 0; j < 16; j++)
            want[j] = none.p.emb[tok[p] * 16 + j] + learned.p.pos[p * 16 + j];
        check_max_diff("learned x", wl.x + p * 16, want, 16, 0);
    }
    /* rope: the queries and keys of `none` (same weights) turned by rope_rotate, head by head */
    for (int style = 0; style < ROPE_STYLE_COUNT; style++) {
        c.rope = (rope_style)style;
        assert_int_equal(order_model_init(&rope[style], SCHEME_ROPE, t.V, &c), TF_OK);
        order_model_forward(&rope[style], &wr, tok, L, t.doer[s], NULL);
        for (int p = 0; p < L; p++)
            for (int h = 0; h < 2; h++) {
                double q[8], k[8];
                rope_rotate(wn.q + p * 16 + h * 8, 8, 10000.0, p, (rope_style)style, q);
                rope_rotate(wn.k + p * 16 + h * 8, 8, 10000.0, p, (rope_style)style, k);
                check_max_diff("rope q", wr.q + p * 16 + h * 8, q, 8, 1e-13);
                check_max_diff("rope k", wr.k + p * 16 + h * 8, k, 8, 1e-13);
            }
        /* values are not rotated */
        check_max_diff("rope v", wr.v, wn.v, (size_t)L * 16, 0);
        order_model_free(&rope[style]);
    }
    order_work_free(&wn);
    order_work_free(&ws);
    order_work_free(&wl);
    order_work_free(&wr);
    order_model_free(&none);
    order_model_free(&sin);
    order_model_free(&learned);
    order_task_free(&t);
}

/* Without positions the score of a token does not depend on the order: both orders of a pair
 * give each token the same score (up to the rounding of sums taken in another order) and name the
 * same token. With positions they do not. */
static void test_bag_of_words(void **state)
{
    (void)state;
    order_task t = task();
    for (int s = 0; s < SCHEME_COUNT; s++) {
        order_model_cfg c = small_cfg();
        fixture f;
        fixture_init(&f, (tf_scheme)s, t.V, &c);
        order_model *m = &f.m;
        order_work wa = f.w, wb;
        assert_int_equal(order_work_init(&wb, m), TF_OK);
        double most = 0.0;
        for (uint32_t a = 0; a < t.n_sent; a++) {
            if (t.pair[a] < 0)
                continue;
            uint32_t b = (uint32_t)t.pair[a];
            int pa, pb;
            const uint32_t *ta = order_task_tokens(&t, a), *tb = order_task_tokens(&t, b);
            int L = (int)order_task_len(&t, a);
            order_model_forward(m, &wa, ta, L, -1, &pa);
            order_model_forward(m, &wb, tb, L, -1, &pb);
            for (int p = 0; p < L; p++)
                for (int q = 0; q < L; q++)
                    if (ta[p] == tb[q])
                        most = fmax(most, fabs(wa.z[p] - wb.z[q]));
            if (s == SCHEME_NONE)
                assert_int_equal(ta[pa], tb[pb]);
        }
        if (s == SCHEME_NONE)
            assert_true(most < 1e-12);
        else
            assert_true(most > 1e-3); /* positions make the scores differ */
        order_work_free(&wb);
        fixture_free(&f);
    }
    order_task_free(&t);
}

/* Symmetric ALiBi's bias -m|p - j| does not change when a sentence is read backwards, and
 * 猫 追 狗 read backwards is 狗 追 猫: on such mirror-image pairs it names the same word for both,
 * as `none` does. The causal form does not. */
static void test_symmetric_alibi_mirror(void **state)
{
    (void)state;
    order_task t = task();
    const uint32_t mirror[][2] = {{0, 1}, {9, 10}}; /* 猫 追 狗 / 狗 追 猫, 狗 咬 猫 / 猫 咬 狗 */
    for (int sym = 0; sym < 2; sym++) {
        order_model_cfg c = small_cfg();
        c.alibi_mask = sym ? SCHEME_MASK_SYMMETRIC : SCHEME_MASK_CAUSAL;
        fixture f;
        fixture_init(&f, SCHEME_ALIBI, t.V, &c);
        order_work wb;
        assert_int_equal(order_work_init(&wb, &f.m), TF_OK);
        double most = 0.0;
        for (size_t i = 0; i < 2; i++) {
            const uint32_t *ta = order_task_tokens(&t, mirror[i][0]);
            const uint32_t *tb = order_task_tokens(&t, mirror[i][1]);
            assert_true(ta[0] == tb[2] && ta[1] == tb[1] && ta[2] == tb[0]);
            int pa, pb;
            order_model_forward(&f.m, &f.w, ta, 3, -1, &pa);
            order_model_forward(&f.m, &wb, tb, 3, -1, &pb);
            for (int p = 0; p < 3; p++)
                most = fmax(most, fabs(f.w.z[p] - wb.z[2 - p]));
            if (sym)
                assert_int_equal(ta[pa], tb[pb]);
        }
        if (sym)
            assert_true(most < 1e-12);
        else
            assert_true(most > 1e-3);
        order_work_free(&wb);
        fixture_free(&f);
    }
    order_task_free(&t);
}

static void test_attention_rows(void **state)
{
    (void)state;
    order_task t = task();
    uint32_t s = 8; /* 学生 突然 被 老师 叫醒 了: six tokens */
    int L = (int)order_task_len(&t, s);
    for (int sym = 0; sym < 2; sym++) {
        order_model_cfg c = small_cfg();
        c.alibi_mask = sym ? SCHEME_MASK_SYMMETRIC : SCHEME_MASK_CAUSAL;
        fixture f;
        fixture_init(&f, SCHEME_ALIBI, t.V, &c);
        order_work w = f.w;
        int pred;
        double loss = order_model_forward(&f.m, &w, order_task_tokens(&t, s), L, t.doer[s], &pred);
        assert_close(loss, -log(w.pr[t.doer[s]]), 1e-12);
        double psum = 0.0;
        for (int p = 0; p < L; p++) {
            psum += w.pr[p];
            assert_true(w.z[p] <= w.z[pred]);
        }
        assert_close(psum, 1.0, 1e-12);
        for (int h = 0; h < f.m.H; h++)
            for (int p = 0; p < L; p++) {
                double sum = 0.0;
                for (int j = 0; j < L; j++) {
                    double a = w.a[(h * L + p) * L + j];
                    sum += a;
                    if (!sym && j > p)
                        assert_true(a == 0.0); /* causal: later keys are masked */
                    else
                        assert_true(a > 0.0);
                }
                assert_close(sum, 1.0, 1e-12);
            }
        fixture_free(&f);
    }
    order_task_free(&t);
}

static void test_isa_variants_agree(void **state)
{
    (void)state;
    order_task t = task();
    for (int s = 0; s < SCHEME_COUNT; s++) {
        order_model_cfg c = small_cfg();
        c.d_model = 24; /* rows that are no multiple of the vector width */
        c.heads = 3;
        fixture f;
        fixture_init(&f, (tf_scheme)s, t.V, &c);
        order_model *m = &f.m;
        order_work *w = &f.w;
        uint32_t idx[] = {0, 2, 4, 6, 7, 8};
        m->isa = TF_ISA_DEFAULT;
        order_model_zero_grad(m);
        double want = order_model_batch(m, w, &t, idx, 6, true, NULL);
        double *g0 = malloc(m->n_params * sizeof *g0);
        memcpy(g0, m->grads, m->n_params * sizeof *g0);
        for (int isa = 1; isa < TF_ISA_COUNT; isa++) {
            if (!tf_isa_supported((tf_isa)isa))
                continue;
            m->isa = (tf_isa)isa;
            order_model_zero_grad(m);
            double got = order_model_batch(m, w, &t, idx, 6, true, NULL);
            assert_memory_equal(&got, &want, sizeof got);
            assert_memory_equal(m->grads, g0, m->n_params * sizeof *g0);
        }
        free(g0);
        fixture_free(&f);
    }
    order_task_free(&t);
}

static void test_config_checks(void **state)
{
    (void)state;
    order_model_cfg c = small_cfg();
    const char *why;
    assert_int_equal(order_model_check(&c, &why), TF_OK);
    assert_null(why);
    c.heads = 5;
    assert_int_equal(order_model_check(&c, &why), TF_ERR_RANGE);
    assert_non_null(why);
    c = small_cfg();
    c.d_model = 10; /* heads of 5: RoPE needs pairs */
    assert_int_equal(order_model_check(&c, &why), TF_ERR_DMODEL);
    c.d_model = 512;
    assert_int_equal(order_model_check(&c, &why), TF_ERR_DMODEL);
    c = small_cfg();
    c.base = 1.0;
    assert_int_equal(order_model_check(&c, &why), TF_ERR_BASE);
    c = small_cfg();
    c.t5.num_buckets = 3; /* bidirectional needs 4 at least */
    assert_int_equal(order_model_check(&c, &why), TF_ERR_RANGE);
    order_model m;
    c = small_cfg();
    assert_int_equal(order_model_init(&m, SCHEME_COUNT, 10, &c), TF_ERR_RANGE);
    assert_int_equal(order_model_init(&m, SCHEME_NONE, 0, &c), TF_ERR_RANGE);
    order_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gradients_every_scheme),
        cmocka_unit_test(test_gradients_variants),
        cmocka_unit_test(test_same_initial_weights),
        cmocka_unit_test(test_input_rows_and_rotation),
        cmocka_unit_test(test_bag_of_words),
        cmocka_unit_test(test_symmetric_alibi_mirror),
        cmocka_unit_test(test_attention_rows),
        cmocka_unit_test(test_isa_variants_agree),
        cmocka_unit_test(test_config_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
