/* order_model.c — the doer-pointing attention layer (order_model.h): forward and backward. */
#include "order_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alibi.h"
#include "isa.h"
#include "posenc.h"
#include "rng.h"
#include "t5bias.h"

#define MAXT ORDER_MAX_TOKENS

void order_model_defaults(order_model_cfg *c)
{
    c->d_model = 32;
    c->heads = 2;
    c->base = 10000.0;
    c->rope = ROPE_HALF;
    c->alibi_mask = SCHEME_MASK_CAUSAL;
    t5_buckets_defaults(&c->t5);
    c->seed = 42;
}

tf_status order_model_check(const order_model_cfg *c, const char **why)
{
    const char *w = NULL;
    tf_status st = TF_OK;
    if (c->heads < 1 || c->heads > ORDER_MAX_HEADS) {
        w = "the number of heads must be 1 to 4";
        st = TF_ERR_RANGE;
    } else if (c->d_model < ORDER_MIN_DMODEL || c->d_model > ORDER_MAX_DMODEL ||
               c->d_model % (2 * c->heads) != 0) {
        w = "d_model must be 4 to 256 and a multiple of twice the number of heads";
        st = TF_ERR_DMODEL;
    } else if (!(c->base > 1.0) || !isfinite(c->base)) {
        w = "the frequency base must be a finite number greater than 1";
        st = TF_ERR_BASE;
    } else if ((unsigned)c->rope >= ROPE_STYLE_COUNT) {
        w = "unknown RoPE pairing";
        st = TF_ERR_RANGE;
    } else if ((unsigned)c->alibi_mask >= SCHEME_MASK_COUNT) {
        w = "unknown ALiBi mask";
        st = TF_ERR_RANGE;
    } else if (t5_buckets_check(&c->t5) != TF_OK) {
        w = "T5's buckets: 2 to 4096 (at least 4 when bidirectional) and a max distance above "
            "the exact ones";
        st = TF_ERR_RANGE;
    }
    if (why)
        *why = w;
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * Allocation: one block, then views */

enum { T_EMB = 0, T_POS, T_WQ, T_WK, T_WV, T_WO, T_WR, T_REL };

/* Initial values of tensor `which`, row r: uniform, keyed by (seed, tensor, row), so a tensor's
 * numbers do not depend on the scheme, the vocabulary size or anything allocated before it. */
static void init_rows(uint64_t seed, int which, double *w, int rows, int cols, double scale)
{
    float buf[ORDER_MAX_DMODEL];
    for (int r = 0; r < rows; r++) {
        uint64_t key =
            rng_row_key(seed, RNG_STREAM_ORDER_MODEL, (uint64_t)which << 32 | (uint64_t)r);
        rng_fill_uniform(key, (size_t)cols, (float)scale, buf);
        for (int j = 0; j < cols; j++)
            w[(size_t)r * cols + j] = buf[j];
    }
}

void order_model_reset(order_model *m)
{
    int d = m->d;
    /* uniform(-a, a) has variance a^2 / 3: token rows of variance 1 per element (length about
     * sqrt(d), as sinusoidal PE's sqrt(d/2)); projections and readout of variance 1/d, so q, k,
     * v and the scores start of order 1; the learned table starts as the token rows do */
    double unit = sqrt(3.0), proj = sqrt(3.0 / d);
    init_rows(m->c.seed, T_EMB, m->p.emb, (int)m->V, d, unit);
    if (m->p.pos)
        init_rows(m->c.seed, T_POS, m->p.pos, MAXT, d, unit);
    init_rows(m->c.seed, T_WQ, m->p.wq, d, d, proj);
    init_rows(m->c.seed, T_WK, m->p.wk, d, d, proj);
    init_rows(m->c.seed, T_WV, m->p.wv, d, d, proj);
    init_rows(m->c.seed, T_WO, m->p.wo, d, d, proj);
    init_rows(m->c.seed, T_WR, m->p.wr, 1, d, proj);
    if (m->p.rel)
        init_rows(m->c.seed, T_REL, m->p.rel, m->H, m->c.t5.num_buckets, proj);
    order_model_zero_grad(m);
}

void order_model_zero_grad(order_model *m)
{
    memset(m->grads, 0, m->n_params * sizeof *m->grads);
}

/* The parameter and gradient views into their blocks, in the same order in both, and the list
 * of the tensors the scheme has. */
static void set_views(order_model *m, size_t n_emb, size_t n_pos, size_t n_sq, size_t n_rel)
{
    size_t d = (size_t)m->d;
    order_params *views[2] = {&m->p, &m->g};
    double *base[2] = {m->params, m->grads};
    for (int b = 0; b < 2; b++) {
        double *at = base[b];
        order_params *v = views[b];
        v->emb = at, at += n_emb;
        v->pos = n_pos ? at : NULL, at += n_pos;
        v->wq = at, at += n_sq;
        v->wk = at, at += n_sq;
        v->wv = at, at += n_sq;
        v->wo = at, at += n_sq;
        v->wr = at, at += d;
        v->rel = n_rel ? at : NULL;
    }
    const order_tensor all[] = {
        {"emb", m->p.emb, m->g.emb, (int)m->V, m->d},
        {"pos", m->p.pos, m->g.pos, MAXT, m->d},
        {"wq", m->p.wq, m->g.wq, m->d, m->d},
        {"wk", m->p.wk, m->g.wk, m->d, m->d},
        {"wv", m->p.wv, m->g.wv, m->d, m->d},
        {"wo", m->p.wo, m->g.wo, m->d, m->d},
        {"wr", m->p.wr, m->g.wr, 1, m->d},
        {"rel", m->p.rel, m->g.rel, m->H, m->c.t5.num_buckets},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i].w) /* pos and rel only where the scheme has them */
            m->tensor[m->n_tensors++] = all[i];
}

/* The scheme's fixed tables in `fixed`: n_pe values of PE rows (posenc.c), n_rope of RoPE's
 * cosines and sines (rope.c's angles and pairs). */
static void fixed_tables(order_model *m, double *fixed, size_t n_pe, size_t n_rope)
{
    size_t d = (size_t)m->d, half = (size_t)m->e / 2;
    if (n_pe) {
        m->pe = fixed;
        for (int p = 0; p < MAXT; p++)
            posenc_row(p, m->d, m->c.base, m->pe + (size_t)p * d);
    }
    if (n_rope) {
        double theta[ORDER_MAX_DMODEL / 2];
        m->rope_cos = fixed + n_pe;
        m->rope_sin = m->rope_cos + MAXT * half;
        rope_thetas(m->e, m->c.base, theta);
        for (int i = 0; i < (int)half; i++)
            rope_pair(m->c.rope, m->e, i, &m->rope_a[i], &m->rope_b[i]);
        for (int p = 0; p < MAXT; p++)
            for (size_t i = 0; i < half; i++) {
                m->rope_cos[p * half + i] = cos(p * theta[i]);
                m->rope_sin[p * half + i] = sin(p * theta[i]);
            }
    }
}

tf_status order_model_init(order_model *m, tf_scheme s, uint32_t V, const order_model_cfg *c)
{
    memset(m, 0, sizeof *m);
    if ((unsigned)s >= SCHEME_COUNT || V < 1 || V > ORDER_MAX_VOCAB_MODEL)
        return TF_ERR_RANGE;
    tf_status st = order_model_check(c, NULL);
    if (st != TF_OK)
        return st;
    m->c = *c;
    m->scheme = s;
    m->V = V;
    m->d = c->d_model;
    m->H = c->heads;
    m->e = c->d_model / c->heads;
    size_t d = (size_t)m->d, half = (size_t)m->e / 2;
    /* 1. the sizes of the tensors this scheme has */
    size_t n_emb = V * d, n_pos = s == SCHEME_LEARNED ? MAXT * d : 0, n_sq = d * d;
    size_t n_rel = s == SCHEME_T5 ? (size_t)m->H * c->t5.num_buckets : 0;
    m->n_params = n_emb + n_pos + 4 * n_sq + d + n_rel;
    size_t n_pe = s == SCHEME_SINUSOIDAL ? MAXT * d : 0;
    size_t n_rope = s == SCHEME_ROPE ? 2 * MAXT * half : 0;
    /* 2. one allocation: parameters, gradients, fixed tables */
    m->params = malloc((2 * m->n_params + n_pe + n_rope) * sizeof *m->params);
    if (!m->params)
        return TF_ERR_NOMEM;
    m->grads = m->params + m->n_params;
    double *fixed = m->grads + m->n_params;
    /* 3. the views, in the same order in both blocks */
    set_views(m, n_emb, n_pos, n_sq, n_rel);
    /* 4. the fixed tables: PE rows (posenc.c), RoPE angles and pairs (rope.c), ALiBi slopes,
     * T5 buckets */
    fixed_tables(m, fixed, n_pe, n_rope);
    st = alibi_slopes(m->H, m->slope);
    if (st != TF_OK) {
        order_model_free(m);
        return st;
    }
    for (int r = -(MAXT - 1); r <= MAXT - 1; r++)
        m->bucket[r + MAXT - 1] = t5_bucket(&c->t5, r);
    m->isa = tf_isa_best();
    order_model_reset(m);
    return TF_OK;
}

void order_model_free(order_model *m)
{
    free(m->params);
    memset(m, 0, sizeof *m);
}

tf_status order_work_init(order_work *w, const order_model *m)
{
    memset(w, 0, sizeof *w);
    size_t ld = (size_t)MAXT * m->d;
    size_t n = 12 * ld + 4 * (size_t)m->d * m->d + (size_t)m->H * MAXT * MAXT + 3 * MAXT;
    w->mem = calloc(n, sizeof *w->mem);
    if (!w->mem)
        return TF_ERR_NOMEM;
    double *at = w->mem;
    double **rows[] = {&w->x,  &w->q,   &w->k,  &w->v,  &w->o,  &w->y,
                       &w->dy, &w->dob, &w->dq, &w->dk, &w->dv, &w->dx};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        *rows[i] = at, at += ld;
    w->wt = at, at += 4 * (size_t)m->d * m->d;
    w->a = at, at += (size_t)m->H * MAXT * MAXT;
    w->z = at, at += MAXT;
    w->pr = at, at += MAXT;
    w->da = at;
    return TF_OK;
}

void order_work_free(order_work *w)
{
    free(w->mem);
    memset(w, 0, sizeof *w);
}

/* ---------------------------------------------------------------------------------------------
 * Small kernels. Rows are contiguous; every loop that TF_SIMD vectorises runs over independent
 * elements (no reduction), so each number is computed by the same operations in the same order
 * in every instruction-set variant (isa.h): the variants agree bit for bit. */

#define INLINE static inline __attribute__((always_inline))

/* out (L, n) += x (L, k) . w (k, n) */
INLINE void matmul_acc(const double *restrict x, const double *restrict w, int L, int k, int n,
                       double *restrict out)
{
    for (int t = 0; t < L; t++) {
        double *o = out + (size_t)t * n;
        for (int r = 0; r < k; r++) {
            double xr = x[(size_t)t * k + r];
            const double *wr = w + (size_t)r * n;
            TF_SIMD
            for (int c = 0; c < n; c++)
                o[c] += xr * wr[c];
        }
    }
}

/* out (L, n) = x (L, k) . w (k, n) */
INLINE void matmul(const double *restrict x, const double *restrict w, int L, int k, int n,
                   double *restrict out)
{
    memset(out, 0, (size_t)L * n * sizeof *out);
    matmul_acc(x, w, L, k, n, out);
}

/* g (k, n) += x^T (k, L) . dy (L, n) */
INLINE void matmul_tn_acc(const double *restrict x, const double *restrict dy, int L, int k, int n,
                          double *restrict g)
{
    for (int t = 0; t < L; t++) {
        const double *dyt = dy + (size_t)t * n;
        for (int r = 0; r < k; r++) {
            double xr = x[(size_t)t * k + r];
            double *gr = g + (size_t)r * n;
            TF_SIMD
            for (int c = 0; c < n; c++)
                gr[c] += xr * dyt[c];
        }
    }
}

/* wt (n, k) = w^T for w (k, n) */
INLINE void transpose(const double *restrict w, int k, int n, double *restrict wt)
{
    for (int r = 0; r < k; r++)
        for (int c = 0; c < n; c++)
            wt[(size_t)c * k + r] = w[(size_t)r * n + c];
}

/* Rotate the e-dimensional head vector x at position p by R_p (sign +1) or by R_p^T = R_-p
 * (sign -1, the backward pass). */
INLINE void rope_head(const order_model *m, double *x, int p, double sign)
{
    int half = m->e / 2;
    const double *cs = m->rope_cos + (size_t)p * half, *sn = m->rope_sin + (size_t)p * half;
    for (int i = 0; i < half; i++) {
        double a = x[m->rope_a[i]], b = x[m->rope_b[i]], s = sign * sn[i];
        x[m->rope_a[i]] = a * cs[i] - b * s;
        x[m->rope_b[i]] = a * s + b * cs[i];
    }
}

/* ---------------------------------------------------------------------------------------------
 * Forward */

bool order_model_causal(const order_model *m)
{
    return (m->scheme == SCHEME_ALIBI && m->c.alibi_mask == SCHEME_MASK_CAUSAL) ||
           (m->scheme == SCHEME_T5 && !m->c.t5.bidirectional);
}

/* Long: the forward pass is one sequence of numbered steps, the formulas of docs/math.md in
 * order, and backward_body walks the same steps in reverse; apart, the two could no longer be
 * read side by side. Instantiated once per instruction set (INLINE). */
INLINE double forward_body(const order_model *m, order_work *w, const uint32_t *tok, int L,
                           int target, int *pred)
{
    const int d = m->d, H = m->H, e = m->e;
    const double inv = 1.0 / sqrt((double)e);
    w->L = L;
    w->target = target;
    memcpy(w->tok, tok, (size_t)L * sizeof *tok);
    /* 1. input rows: token embedding plus the position rows of this scheme */
    for (int p = 0; p < L; p++) {
        double *x = w->x + (size_t)p * d;
        const double *er = m->p.emb + (size_t)(tok[p] < m->V ? tok[p] : ORDER_UNK) * d;
        const double *pr = m->pe      ? m->pe + (size_t)p * d
                           : m->p.pos ? m->p.pos + (size_t)p * d
                                      : NULL;
        if (pr) {
            TF_SIMD
            for (int j = 0; j < d; j++)
                x[j] = er[j] + pr[j];
        } else {
            memcpy(x, er, (size_t)d * sizeof *x);
        }
    }
    /* 2. projections; RoPE turns each head's q and k by its position */
    matmul(w->x, m->p.wq, L, d, d, w->q);
    matmul(w->x, m->p.wk, L, d, d, w->k);
    matmul(w->x, m->p.wv, L, d, d, w->v);
    if (m->scheme == SCHEME_ROPE)
        for (int p = 0; p < L; p++)
            for (int h = 0; h < H; h++) {
                rope_head(m, w->q + (size_t)p * d + h * e, p, 1.0);
                rope_head(m, w->k + (size_t)p * d + h * e, p, 1.0);
            }
    /* 3. per head: scores, bias or mask, softmax over keys, weighted values */
    bool causal = order_model_causal(m);
    memset(w->o, 0, (size_t)L * d * sizeof *w->o);
    for (int h = 0; h < H; h++) {
        for (int p = 0; p < L; p++) {
            double *a = w->a + ((size_t)h * L + p) * L;
            const double *q = w->q + (size_t)p * d + h * e;
            int last = causal ? p : L - 1;
            double mx = -INFINITY;
            for (int j = 0; j <= last; j++) {
                const double *k = w->k + (size_t)j * d + h * e;
                double s = 0.0;
                for (int c = 0; c < e; c++)
                    s += q[c] * k[c];
                s *= inv;
                if (m->scheme == SCHEME_ALIBI)
                    s += alibi_bias_at(m->slope[h], p - j, m->c.alibi_mask);
                else if (m->scheme == SCHEME_T5)
                    s += m->p.rel[h * m->c.t5.num_buckets + m->bucket[j - p + MAXT - 1]];
                a[j] = s;
                mx = s > mx ? s : mx;
            }
            double sum = 0.0;
            for (int j = 0; j <= last; j++)
                sum += a[j] = exp(a[j] - mx);
            double *o = w->o + (size_t)p * d + h * e;
            for (int j = 0; j <= last; j++) {
                a[j] /= sum;
                const double *v = w->v + (size_t)j * d + h * e;
                double aj = a[j];
                TF_SIMD
                for (int c = 0; c < e; c++)
                    o[c] += aj * v[c];
            }
            for (int j = last + 1; j < L; j++)
                a[j] = 0.0;
        }
    }
    /* 4. residual, readout, softmax over positions */
    memcpy(w->y, w->x, (size_t)L * d * sizeof *w->y);
    matmul_acc(w->o, m->p.wo, L, d, d, w->y);
    double zmax = -INFINITY;
    int best = 0;
    for (int p = 0; p < L; p++) {
        const double *y = w->y + (size_t)p * d;
        double z = 0.0;
        for (int j = 0; j < d; j++)
            z += m->p.wr[j] * y[j];
        w->z[p] = z;
        if (z > zmax) {
            zmax = z;
            best = p;
        }
    }
    double sum = 0.0;
    for (int p = 0; p < L; p++)
        sum += w->pr[p] = exp(w->z[p] - zmax);
    for (int p = 0; p < L; p++)
        w->pr[p] /= sum;
    if (pred)
        *pred = best;
    /* -log P(target) = log sum_p exp(z_p) - z_target, in the shifted form */
    return target >= 0 ? log(sum) + zmax - w->z[target] : 0.0;
}

/* ---------------------------------------------------------------------------------------------
 * Backward: the forward's passes in reverse, each gradient named after what it differentiates */

/* Long: forward_body's steps in reverse, one gradient after another (see forward_body). */
INLINE void backward_body(order_model *m, order_work *w, double scale)
{
    const int d = m->d, H = m->H, e = m->e, L = w->L;
    const double inv = 1.0 / sqrt((double)e);
    const size_t ld = (size_t)L * d, dd = (size_t)d * d;
    double *wqt = w->wt, *wkt = wqt + dd, *wvt = wkt + dd, *wot = wvt + dd;
    /* 4. softmax + cross-entropy: dz_p = P(p) - [p = target]; readout; residual */
    for (int p = 0; p < L; p++) {
        double dz = scale * (w->pr[p] - (p == w->target ? 1.0 : 0.0));
        const double *y = w->y + (size_t)p * d;
        double *dy = w->dy + (size_t)p * d;
        TF_SIMD
        for (int j = 0; j < d; j++) {
            m->g.wr[j] += dz * y[j];
            dy[j] = dz * m->p.wr[j];
        }
    }
    memcpy(w->dx, w->dy, ld * sizeof *w->dx); /* y = x + o W_O */
    matmul_tn_acc(w->o, w->dy, L, d, d, m->g.wo);
    transpose(m->p.wo, d, d, wot);
    matmul(w->dy, wot, L, d, d, w->dob);
    /* 3. attention, per head: values, softmax, scores (and the T5 bias) */
    memset(w->dq, 0, ld * sizeof *w->dq);
    memset(w->dk, 0, ld * sizeof *w->dk);
    memset(w->dv, 0, ld * sizeof *w->dv);
    bool causal = order_model_causal(m);
    for (int h = 0; h < H; h++) {
        for (int p = 0; p < L; p++) {
            const double *a = w->a + ((size_t)h * L + p) * L;
            const double *dop = w->dob + (size_t)p * d + h * e;
            const double *q = w->q + (size_t)p * d + h * e;
            double *dq = w->dq + (size_t)p * d + h * e;
            int last = causal ? p : L - 1;
            /* da_j = do_p . v_j;  dv_j += a_j do_p */
            double dot = 0.0;
            for (int j = 0; j <= last; j++) {
                const double *v = w->v + (size_t)j * d + h * e;
                double *dv = w->dv + (size_t)j * d + h * e;
                double s = 0.0, aj = a[j];
                for (int c = 0; c < e; c++)
                    s += dop[c] * v[c];
                TF_SIMD
                for (int c = 0; c < e; c++)
                    dv[c] += aj * dop[c];
                w->da[j] = s;
                dot += aj * s;
            }
            /* softmax: ds_j = a_j (da_j - sum_j' a_j' da_j'); scores: s = q.k / sqrt(e) + b */
            for (int j = 0; j <= last; j++) {
                double ds = a[j] * (w->da[j] - dot);
                if (m->scheme == SCHEME_T5)
                    m->g.rel[h * m->c.t5.num_buckets + m->bucket[j - p + MAXT - 1]] += ds;
                ds *= inv;
                const double *k = w->k + (size_t)j * d + h * e;
                double *dk = w->dk + (size_t)j * d + h * e;
                TF_SIMD
                for (int c = 0; c < e; c++) {
                    dq[c] += ds * k[c];
                    dk[c] += ds * q[c];
                }
            }
        }
    }
    /* 2. RoPE's rotation is orthogonal: its backward is the rotation by -p */
    if (m->scheme == SCHEME_ROPE)
        for (int p = 0; p < L; p++)
            for (int h = 0; h < H; h++) {
                rope_head(m, w->dq + (size_t)p * d + h * e, p, -1.0);
                rope_head(m, w->dk + (size_t)p * d + h * e, p, -1.0);
            }
    matmul_tn_acc(w->x, w->dq, L, d, d, m->g.wq);
    matmul_tn_acc(w->x, w->dk, L, d, d, m->g.wk);
    matmul_tn_acc(w->x, w->dv, L, d, d, m->g.wv);
    transpose(m->p.wq, d, d, wqt);
    transpose(m->p.wk, d, d, wkt);
    transpose(m->p.wv, d, d, wvt);
    matmul_acc(w->dq, wqt, L, d, d, w->dx);
    matmul_acc(w->dk, wkt, L, d, d, w->dx);
    matmul_acc(w->dv, wvt, L, d, d, w->dx);
    /* 1. the input rows: token embedding and the learned table (sinusoidal PE is fixed) */
    for (int p = 0; p < L; p++) {
        const double *dx = w->dx + (size_t)p * d;
        double *ge = m->g.emb + (size_t)(w->tok[p] < m->V ? w->tok[p] : ORDER_UNK) * d;
        TF_SIMD
        for (int j = 0; j < d; j++)
            ge[j] += dx[j];
        if (m->g.pos) {
            double *gp = m->g.pos + (size_t)p * d;
            TF_SIMD
            for (int j = 0; j < d; j++)
                gp[j] += dx[j];
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * The instruction-set variants and their dispatch */

static double forward_default(const order_model *m, order_work *w, const uint32_t *tok, int L,
                              int target, int *pred)
{
    return forward_body(m, w, tok, L, target, pred);
}

static void backward_default(order_model *m, order_work *w, double scale)
{
    backward_body(m, w, scale);
}

#if TF_ISA_X86
TF_TARGET_AVX2 static double forward_avx2(const order_model *m, order_work *w, const uint32_t *tok,
                                          int L, int target, int *pred)
{
    return forward_body(m, w, tok, L, target, pred);
}

TF_TARGET_AVX2 static void backward_avx2(order_model *m, order_work *w, double scale)
{
    backward_body(m, w, scale);
}

TF_TARGET_AVX512 static double forward_avx512(const order_model *m, order_work *w,
                                              const uint32_t *tok, int L, int target, int *pred)
{
    return forward_body(m, w, tok, L, target, pred);
}

TF_TARGET_AVX512 static void backward_avx512(order_model *m, order_work *w, double scale)
{
    backward_body(m, w, scale);
}
#endif

double order_model_forward(const order_model *m, order_work *w, const uint32_t *tok, int L,
                           int target, int *pred)
{
    switch (m->isa) {
#if TF_ISA_X86
    case TF_ISA_AVX512:
        return forward_avx512(m, w, tok, L, target, pred);
    case TF_ISA_AVX2:
        return forward_avx2(m, w, tok, L, target, pred);
#endif
    default:
        return forward_default(m, w, tok, L, target, pred);
    }
}

void order_model_backward(order_model *m, order_work *w, double scale)
{
    switch (m->isa) {
#if TF_ISA_X86
    case TF_ISA_AVX512:
        backward_avx512(m, w, scale);
        break;
    case TF_ISA_AVX2:
        backward_avx2(m, w, scale);
        break;
#endif
    default:
        backward_default(m, w, scale);
    }
}

double order_model_batch(order_model *m, order_work *w, const order_task *t, const uint32_t *idx,
                         size_t n, bool grads, size_t *correct)
{
    double loss = 0.0;
    size_t right = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t s = idx[i];
        int pred;
        loss += order_model_forward(m, w, order_task_tokens(t, s), (int)order_task_len(t, s),
                                    t->doer[s], &pred);
        right += pred == t->doer[s];
        if (grads)
            order_model_backward(m, w, 1.0 / (double)n);
    }
    if (correct)
        *correct = right;
    return n ? loss / (double)n : 0.0;
}
