/* rope_scaling.h — RoPE past its training length: five ways to rewrite the frequencies.
 *
 * A model trained with RoPE (rope.h) on L positions has seen pair i turn through the angles
 * m theta_i, m < L, theta_i = base^(-2i/d). Asked to read s L positions it meets angles it never
 * saw in the slow pairs, whose wavelength 2 pi / theta_i exceeds L. Each method below replaces
 * theta_i by an inverse frequency theta'_i (Hugging Face's inv_freq; the rotation is then
 * m theta'_i) and YaRN also scales the scores:
 *
 *   linear   position interpolation — Chen et al. 2023, "Extending Context Window of Large
 *            Language Models via Positional Interpolation" (arXiv 2306.15595); kaiokendev 2023:
 *                theta'_i = theta_i / s            (position m is read as m / s)
 *   ntk      "NTK-aware" scaling — bloc97 2023 (reddit r/LocalLLaMA), YaRN paper section 3.1:
 *                base' = base s^(d/(d-2)),  theta'_i = base'^(-2i/d)
 *            the fastest pair keeps its frequency, the slowest turns exactly s times slower
 *   dynamic  dynamic NTK — emozilla 2023; Hugging Face _compute_dynamic_ntk_parameters: for a
 *            sequence of l tokens, base' = base (s l / L - (s - 1))^(d/(d-2)) when l > L,
 *            base' = base otherwise
 *   yarn     Peng et al. 2023, "YaRN: Efficient Context Window Extension of Large Language
 *            Models" (arXiv 2309.00071); Hugging Face _compute_yarn_parameters:
 *                c(r) = d ln(L / (2 pi r)) / (2 ln base)   the pair index that turns r times in L
 *                lo = max(floor(c(beta_fast)), 0),  hi = min(ceil(c(beta_slow)), d - 1)
 *                     (without the floor and ceil when truncate is false; hi += 0.001 if lo = hi)
 *                ramp_i = clamp((i - lo) / (hi - lo), 0, 1)
 *                theta'_i = (theta_i / s) ramp_i + theta_i (1 - ramp_i)
 *            and cos, sin are multiplied by attention_factor, so every score by its square:
 *                attention_factor = 0.1 ln s + 1 (s > 1; 1 otherwise), or with mscale and
 *                mscale_all_dim both set (DeepSeek) mscale(s, mscale) / mscale(s, mscale_all_dim)
 *                with mscale(s, m) = 0.1 m ln s + 1; or as given
 *   llama3   Llama 3.1 (Meta 2024); Hugging Face _compute_llama3_parameters: wavelength
 *            lambda_i = 2 pi / theta_i, and with L the original context (8192)
 *                lambda_i < L / high_freq_factor:  theta'_i = theta_i       (fast pairs kept)
 *                lambda_i > L / low_freq_factor:   theta'_i = theta_i / s   (slow pairs scaled)
 *                otherwise:  g = (L / lambda_i - low_freq_factor)
 *                                / (high_freq_factor - low_freq_factor),
 *                            theta'_i = (1 - g) theta_i / s + g theta_i
 *            (Llama 3.1: s = 8, low_freq_factor 1, high_freq_factor 4, base 500000)
 *
 * The original thetas come from rope_thetas (rope.c), the one place they are computed. */
#ifndef TF_ROPE_SCALING_H
#define TF_ROPE_SCALING_H

#include <stdbool.h>

#include "status.h"

typedef enum {
    ROPE_SCALING_NONE = 0,
    ROPE_SCALING_LINEAR,
    ROPE_SCALING_NTK,
    ROPE_SCALING_DYNAMIC,
    ROPE_SCALING_YARN,
    ROPE_SCALING_LLAMA3,
    ROPE_SCALING_COUNT
} rope_scaling_kind;

typedef struct {
    rope_scaling_kind kind;
    double base;             /* theta base: 10000; Llama 3: 500000 */
    double factor;           /* s >= 1: the context is extended s times */
    long original;           /* L: the context the model was trained on */
    long seq_len;            /* dynamic: the sequence length l (0: s L) */
    double beta_fast;        /* yarn: 32 */
    double beta_slow;        /* yarn: 1 */
    double mscale;           /* yarn: 0 = unset */
    double mscale_all_dim;   /* yarn: 0 = unset */
    double attention_factor; /* yarn: 0 = from factor and mscale as above */
    bool truncate;           /* yarn: floor and ceil the correction range (true) */
    double low_freq_factor;  /* llama3: 1 */
    double high_freq_factor; /* llama3: 4 */
} rope_scaling_cfg;

/* "none", "linear", "ntk", "dynamic", "yarn", "llama3"; NULL outside the enum. */
const char *rope_scaling_name(rope_scaling_kind k);
/* ROPE_SCALING_COUNT for an unknown name. */
rope_scaling_kind rope_scaling_parse(const char *name);

/* The published defaults of a method: base 10000, s = 4, L = 4096 (Llama 2), beta_fast 32,
 * beta_slow 1, truncate; llama3: base 500000, s = 8, L = 8192, low 1, high 4; none: s = 1. */
void rope_scaling_defaults(rope_scaling_kind kind, rope_scaling_cfg *c);

/* TF_ERR_DMODEL (d odd, out of range, or under 4 for ntk and dynamic, whose exponent is
 * d/(d-2)), TF_ERR_BASE, or TF_ERR_RANGE with *why (if not NULL) a sentence naming the
 * parameter. */
tf_status rope_scaling_check(const rope_scaling_cfg *c, int d, const char **why);

/* inv_freq (d/2) = theta'_i; original (d/2, may be NULL) = theta_i; *attention_factor (may be
 * NULL) = the factor cos and sin are multiplied by (1 except for yarn). Checks c first. */
tf_status rope_scaling_inv_freq(const rope_scaling_cfg *c, int d, double *inv_freq,
                                double *original, double *attention_factor);

/* The base the frequencies follow: ntk base s^(d/(d-2)), dynamic
 * base (s l / L - (s - 1))^(d/(d-2)) for l > L, the base itself for the others. c checked. */
double rope_scaling_base(const rope_scaling_cfg *c, int d);

/* yarn: the correction range [lo, hi] in pair indices, as used by the ramp. */
void rope_scaling_yarn_range(const rope_scaling_cfg *c, int d, double *lo, double *hi);

/* The share of the d/2 pairs that, at relative distance k, are at an angle the model never saw
 * in training: |k| theta'_i > (L - 1) theta_i for a pair that did not complete a turn within
 * the L trained positions ((L - 1) theta_i < 2 pi). 0 everywhere up to L - 1 for every
 * method; unscaled RoPE past L - 1 is at unseen angles in every slow pair, linear interpolation
 * not before s (L - 1). */
double rope_scaling_unseen(const double *inv_freq /* (d/2) */, const double *original /* (d/2) */,
                           int d, long trained, double k);

#endif
