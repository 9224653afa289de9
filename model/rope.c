/* rope.c — rotary position embedding: both pairings, the relative check, the decay bound. */
#include "rope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "posenc.h"

static const char *const style_names[ROPE_STYLE_COUNT] = {"interleaved", "half"};

const char *rope_style_name(rope_style s)
{
    return (unsigned)s < ROPE_STYLE_COUNT ? style_names[s] : "unknown";
}

rope_style rope_style_parse(const char *name)
{
    for (int s = 0; s < ROPE_STYLE_COUNT; s++)
        if (strcmp(name, style_names[s]) == 0)
            return (rope_style)s;
    return ROPE_STYLE_COUNT;
}

/* theta_i = base^(-2i/d) are PE's frequencies w_i: RoPE turns each pair by the angle m w_i that
 * PE writes down as (sin, cos), so both take it from posenc. */
void rope_thetas(int d, double base, double *theta) { posenc_freqs(d, base, theta); }

void rope_pair(rope_style s, int d, int i, int *a, int *b)
{
    if (s == ROPE_HALF) {
        *a = i;
        *b = i + d / 2;
    } else {
        *a = 2 * i;
        *b = 2 * i + 1;
    }
}

/* (ya, yb) = (xa, xb) turned by the angle whose cosine and sine are c, sn. */
static inline void turn(double xa, double xb, double c, double sn, double *ya, double *yb)
{
    *ya = xa * c - xb * sn;
    *yb = xa * sn + xb * c;
}

/* Rotate pair (a, b) of x by ang into out (out may equal x). */
static inline void rotate_pair(const double *x, int a, int b, double ang, double *out)
{
    double ya, yb;
    turn(x[a], x[b], cos(ang), sin(ang), &ya, &yb);
    out[a] = ya;
    out[b] = yb;
}

void rope_rotate_thetas(const double *x, int d, const double *theta, double pos, rope_style s,
                        double *out)
{
    for (int i = 0; i < d / 2; i++) {
        int a, b;
        rope_pair(s, d, i, &a, &b);
        rotate_pair(x, a, b, pos * theta[i], out);
    }
}

void rope_rotate(const double *x, int d, double base, double pos, rope_style s, double *out)
{
    for (int i = 0; i < d / 2; i++) {
        int a, b;
        rope_pair(s, d, i, &a, &b);
        rotate_pair(x, a, b, pos * posenc_omega(i, d, base), out);
    }
}

/* The fast in-place float32 path is posenc's row kernel: no transcendental call per element,
 * the (sin, cos) of m theta_i advanced by angle addition from row to row in float64 and the
 * rotation rounded once to float32 (posenc.c). */
void rope_apply_f32_isa(tf_isa isa, float *x, long n, int d, double base, long pos0,
                        rope_style s)
{
    posenc_rows_f32(isa, s == ROPE_HALF ? POSENC_ROTATE_HALF : POSENC_ROTATE_INTERLEAVED, x, n, d,
                    base, pos0);
}

void rope_apply_f32(float *x, long n, int d, double base, long pos0, rope_style s)
{
    rope_apply_f32_isa(tf_isa_best(), x, n, d, base, pos0, s);
}

double rope_offset_max_dev(const double *q, const double *k, int d, double base, rope_style s,
                           long npos)
{
    /* rows: theta (d/2), then R_m q for m in [0, npos), R_n k for n in [0, npos), and
     * R_r q for r in (-npos, npos) */
    size_t h = (size_t)d / 2, nq = (size_t)npos, nr = 2 * (size_t)npos - 1;
    double *mem = malloc((h + (2 * nq + nr) * (size_t)d) * sizeof *mem);
    if (!mem)
        return NAN;
    double *theta = mem, *qm = mem + h, *kn = qm + nq * d, *qr = kn + nq * d;
    rope_thetas(d, base, theta);
    for (long m = 0; m < npos; m++) {
        rope_rotate_thetas(q, d, theta, (double)m, s, qm + m * d);
        rope_rotate_thetas(k, d, theta, (double)m, s, kn + m * d);
    }
    for (long r = -(npos - 1); r < npos; r++)
        rope_rotate_thetas(q, d, theta, (double)r, s, qr + (r + npos - 1) * d);
    double worst = 0.0;
    for (long m = 0; m < npos; m++)
        for (long n = 0; n < npos; n++) {
            double lhs = la_dot(qm + m * d, kn + n * d, (size_t)d);
            double rhs = la_dot(qr + (m - n + npos - 1) * d, k, (size_t)d);
            worst = fmax(worst, fabs(lhs - rhs));
        }
    free(mem);
    return worst;
}

double rope_score_thetas(const double *q, const double *k, int d, const double *theta,
                         rope_style s, double r)
{
    double acc = 0.0;
    for (int i = 0; i < d / 2; i++) {
        int a, b;
        double ya, yb;
        rope_pair(s, d, i, &a, &b);
        turn(q[a], q[b], cos(r * theta[i]), sin(r * theta[i]), &ya, &yb);
        acc += ya * k[a] + yb * k[b];
    }
    return acc;
}

tf_status rope_score_run(const double *q, const double *k, int d, const double *theta,
                         rope_style s, double r0, long n, double *out)
{
    int h = d / 2;
    double *ab = malloc((size_t)(h > 0 ? h : 1) * 2 * sizeof *ab);
    if (!ab)
        return TF_ERR_NOMEM;
    for (int i = 0; i < h; i++) {
        int a, b;
        rope_pair(s, d, i, &a, &b);
        /* (R q)_a k_a + (R q)_b k_b with (R q) = (q_a c - q_b s, q_a s + q_b c) */
        ab[i] = q[a] * k[a] + q[b] * k[b];
        ab[h + i] = q[a] * k[b] - q[b] * k[a];
    }
    tf_status st = posenc_trig_sums(ab, ab + h, theta, h, r0, n, out);
    free(ab);
    return st;
}

/* The decay bound with theta_i from the table theta, or base^(-2i/d) when theta is NULL. */
static double decay_bound(int d, const double *theta, double base, double r)
{
    double re = 0.0, im = 0.0, acc = 0.0;
    for (int j = 1; j <= d / 2; j++) {
        /* S_j adds the term k = j-1 */
        double ang = r * (theta ? theta[j - 1] : posenc_omega(j - 1, d, base));
        re += cos(ang);
        im += sin(ang);
        acc += hypot(re, im);
    }
    return acc / (d / 2.0);
}

double rope_decay_bound(int d, double base, double r) { return decay_bound(d, NULL, base, r); }

double rope_decay_bound_thetas(int d, const double *theta, double r)
{
    return decay_bound(d, theta, 0.0, r);
}
