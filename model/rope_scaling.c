/* rope_scaling.c — inverse frequencies of RoPE's context-extension methods (rope_scaling.h). */
#include "rope_scaling.h"

#include <math.h>
#include <string.h>

#include "rope.h"
#include "tf_limits.h"

static const char *const kind_names[ROPE_SCALING_COUNT] = {"none",    "linear", "ntk",
                                                           "dynamic", "yarn",   "llama3"};

const char *rope_scaling_name(rope_scaling_kind k)
{
    return (unsigned)k < ROPE_SCALING_COUNT ? kind_names[k] : NULL;
}

rope_scaling_kind rope_scaling_parse(const char *name)
{
    for (int k = 0; name && k < ROPE_SCALING_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return (rope_scaling_kind)k;
    return ROPE_SCALING_COUNT;
}

void rope_scaling_defaults(rope_scaling_kind kind, rope_scaling_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->base = TF_DEFAULT_BASE;
    c->factor = kind == ROPE_SCALING_NONE ? 1.0 : 4.0;
    c->original = 4096;
    c->beta_fast = 32.0;
    c->beta_slow = 1.0;
    c->truncate = true;
    c->low_freq_factor = 1.0;
    c->high_freq_factor = 4.0;
    if (kind == ROPE_SCALING_LLAMA3) {
        c->base = 500000.0;
        c->factor = 8.0;
        c->original = 8192;
    }
}

static tf_status range(const char **why, const char *what)
{
    if (why)
        *why = what;
    return TF_ERR_RANGE;
}

static bool finite_at_least(double x, double lo)
{
    return isfinite(x) && x >= lo;
}

tf_status rope_scaling_check(const rope_scaling_cfg *c, int d, const char **why)
{
    if (why)
        *why = NULL;
    if ((unsigned)c->kind >= ROPE_SCALING_COUNT)
        return range(why, "the scaling method must be none, linear, ntk, dynamic, yarn or llama3");
    if (d < TF_MIN_DMODEL || d > TF_MAX_DMODEL || d % 2)
        return TF_ERR_DMODEL;
    if (d < 4 && (c->kind == ROPE_SCALING_NTK || c->kind == ROPE_SCALING_DYNAMIC)) {
        if (why)
            *why = "NTK-aware scaling needs d of at least 4 (its exponent is d/(d-2))";
        return TF_ERR_DMODEL;
    }
    if (!(isfinite(c->base) && c->base > 1.0))
        return TF_ERR_BASE;
    if (!finite_at_least(c->factor, 1.0) || c->factor > 1e6)
        return range(why, "the scaling factor must be a number from 1 to 1,000,000 (the "
                          "context is extended factor times)");
    if (c->original < 1 || c->original > 1000000000L)
        return range(why, "the original context length must be from 1 to 1,000,000,000");
    if (c->seq_len < 0 || c->seq_len > 1000000000L)
        return range(why, "the sequence length must be from 0 to 1,000,000,000");
    if (c->kind == ROPE_SCALING_YARN) {
        if (!(isfinite(c->beta_fast) && c->beta_fast > 0 && isfinite(c->beta_slow) &&
              c->beta_slow > 0))
            return range(why, "YaRN's beta_fast and beta_slow must be positive numbers");
        if (c->beta_fast < c->beta_slow)
            return range(why, "YaRN's beta_fast must be at least beta_slow (fast pairs turn "
                              "more often: 32 and 1)");
        if (!finite_at_least(c->mscale, 0) || !finite_at_least(c->mscale_all_dim, 0) ||
            !finite_at_least(c->attention_factor, 0))
            return range(why, "YaRN's mscale, mscale_all_dim and attention factor must be "
                              "numbers of at least 0 (0: not set)");
    }
    if (c->kind == ROPE_SCALING_LLAMA3) {
        if (!(isfinite(c->low_freq_factor) && c->low_freq_factor > 0))
            return range(why, "Llama 3's low_freq_factor must be a positive number (1)");
        if (!(isfinite(c->high_freq_factor) && c->high_freq_factor > c->low_freq_factor))
            return range(why, "Llama 3's high_freq_factor must be greater than low_freq_factor "
                              "(4 and 1)");
    }
    return TF_OK;
}

/* The pair index that turns `rotations` times within L positions. */
static double yarn_correction_dim(double rotations, int d, double base, double L)
{
    return d * log(L / (rotations * 2.0 * M_PI)) / (2.0 * log(base));
}

void rope_scaling_yarn_range(const rope_scaling_cfg *c, int d, double *lo, double *hi)
{
    double l = yarn_correction_dim(c->beta_fast, d, c->base, (double)c->original);
    double h = yarn_correction_dim(c->beta_slow, d, c->base, (double)c->original);
    if (c->truncate) {
        l = floor(l);
        h = ceil(h);
    }
    *lo = fmax(l, 0.0);
    *hi = fmin(h, (double)(d - 1));
}

/* 0.1 m ln s + 1: YaRN's temperature for scale s (1 when nothing is extended). */
static double yarn_mscale(double s, double m)
{
    return s <= 1.0 ? 1.0 : 0.1 * m * log(s) + 1.0;
}

/* theta (d/2) becomes YaRN's inv_freq in place. */
static void yarn(const rope_scaling_cfg *c, int d, double *theta, double *attn)
{
    double s = c->factor, lo, hi;
    rope_scaling_yarn_range(c, d, &lo, &hi);
    if (lo == hi)
        hi += 0.001; /* as the reference: no division by zero */
    for (int i = 0; i < d / 2; i++) {
        double ramp = fmin(fmax((i - lo) / (hi - lo), 0.0), 1.0);
        double keep = 1.0 - ramp; /* the share of theta_i kept (extrapolation) */
        theta[i] = theta[i] / s * (1.0 - keep) + theta[i] * keep;
    }
    if (c->attention_factor > 0)
        *attn = c->attention_factor;
    else if (c->mscale > 0 && c->mscale_all_dim > 0)
        *attn = yarn_mscale(s, c->mscale) / yarn_mscale(s, c->mscale_all_dim);
    else
        *attn = yarn_mscale(s, 1.0);
}

/* theta (d/2) becomes Llama 3.1's inv_freq in place. */
static void llama3(const rope_scaling_cfg *c, int d, double *theta)
{
    double s = c->factor, L = (double)c->original;
    double low_wavelen = L / c->low_freq_factor, high_wavelen = L / c->high_freq_factor;
    for (int i = 0; i < d / 2; i++) {
        double wavelen = 2.0 * M_PI / theta[i];
        if (wavelen > low_wavelen) {
            theta[i] /= s;
        } else if (!(wavelen < high_wavelen)) {
            double g =
                (L / wavelen - c->low_freq_factor) / (c->high_freq_factor - c->low_freq_factor);
            theta[i] = (1.0 - g) * theta[i] / s + g * theta[i];
        }
    }
}

double rope_scaling_base(const rope_scaling_cfg *c, int d)
{
    double s = c->factor, exponent = d > 2 ? (double)d / (d - 2) : 1.0;
    if (c->kind == ROPE_SCALING_NTK)
        return c->base * pow(s, exponent);
    if (c->kind == ROPE_SCALING_DYNAMIC) {
        double L = (double)c->original;
        double len = c->seq_len > 0 ? (double)c->seq_len : s * L;
        if (len > L)
            return c->base * pow(s * len / L - (s - 1.0), exponent);
    }
    return c->base;
}

tf_status rope_scaling_inv_freq(const rope_scaling_cfg *c, int d, double *inv_freq,
                                double *original, double *attention_factor)
{
    tf_status st = rope_scaling_check(c, d, NULL);
    if (st != TF_OK)
        return st;
    double attn = 1.0, s = c->factor;
    rope_thetas(d, c->base, inv_freq);
    if (original)
        memcpy(original, inv_freq, (size_t)(d / 2) * sizeof *original);
    switch (c->kind) {
    case ROPE_SCALING_LINEAR:
        for (int i = 0; i < d / 2; i++)
            inv_freq[i] /= s;
        break;
    case ROPE_SCALING_NTK:
    case ROPE_SCALING_DYNAMIC:
        rope_thetas(d, rope_scaling_base(c, d), inv_freq);
        break;
    case ROPE_SCALING_YARN:
        yarn(c, d, inv_freq, &attn);
        break;
    case ROPE_SCALING_LLAMA3:
        llama3(c, d, inv_freq);
        break;
    default:
        break;
    }
    if (attention_factor)
        *attention_factor = attn;
    return TF_OK;
}

double rope_scaling_unseen(const double *inv_freq, const double *original, int d, long trained,
                           double k)
{
    int unseen = 0, pairs = d / 2; /* d is even */
    double span = (double)(trained > 0 ? trained - 1 : 0), dist = fabs(k);
    for (int i = 0; i < pairs; i++) {
        double seen = span * original[i]; /* the largest angle pair i reached in training */
        if (seen < 2.0 * M_PI && dist * inv_freq[i] > seen)
            unseen++;
    }
    return pairs > 0 ? (double)unseen / pairs : 0.0;
}
