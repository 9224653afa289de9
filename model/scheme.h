/* scheme.h — the position schemes a Transformer can use, by name.
 *
 * One enum for every place that chooses how positions reach attention (the order experiment,
 * the trained order model, the schemes comparison), so `--scheme NAME[,NAME...]` means the
 * same thing everywhere:
 *   none        nothing (NoPE): attention sees a bag of words
 *   sinusoidal  PE(pos, 2i) = sin(pos w_i), PE(pos, 2i+1) = cos(pos w_i), added to the input
 *   learned     a position table P (n_pos, d) added to the input (trained, or read from a file)
 *   rope        q and k rotated by pos * theta_i after projection (RoFormer)
 *   alibi       a bias -m_h |i - j| added to the scores (Press et al. 2022)
 *   t5          a learned bias per relative-position bucket added to the scores (Raffel et al.)
 */
#ifndef TF_SCHEME_H
#define TF_SCHEME_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    SCHEME_NONE = 0,
    SCHEME_SINUSOIDAL,
    SCHEME_LEARNED,
    SCHEME_ROPE,
    SCHEME_ALIBI,
    SCHEME_T5,
    SCHEME_COUNT
} tf_scheme;

/* Which keys a query may see, for the schemes that act on the scores (alibi, t5, none):
 *   causal     a decoder (GPT-2, BLOOM, T5's decoder): key j > query i is masked (score -inf,
 *              softmax weight 0), so only distances i - j >= 0 occur;
 *   symmetric  an encoder (BERT, T5's encoder): every key is seen, and ALiBi's bias is
 *              -m |i - j| on both sides. */
typedef enum { SCHEME_MASK_CAUSAL = 0, SCHEME_MASK_SYMMETRIC, SCHEME_MASK_COUNT } scheme_mask;

/* "none", "sinusoidal", "learned", "rope", "alibi", "t5"; NULL outside the enum. */
const char *scheme_name(tf_scheme s);
/* SCHEME_COUNT for an unknown name. Accepts the names above and the aliases "nope" (none),
 * "pe" and "sin" (sinusoidal). */
tf_scheme scheme_parse(const char *name);
/* Parse a comma-separated list such as "none,rope" into out[0 .. *n) (at most cap entries, no
 * duplicates kept). False on an unknown or empty name, with *bad_at set to the byte offset of
 * the offending name. */
bool scheme_parse_list(const char *list, tf_scheme *out, size_t cap, size_t *n, size_t *bad_at);
/* True when the scheme changes the input rows (sinusoidal, learned); false when it acts on the
 * scores or on q and k (rope, alibi, t5) or does nothing (none). */
bool scheme_adds_to_input(tf_scheme s);

/* "causal", "symmetric"; NULL outside the enum. */
const char *scheme_mask_name(scheme_mask m);
/* SCHEME_MASK_COUNT for an unknown name; "bidirectional" is an alias of "symmetric". */
scheme_mask scheme_mask_parse(const char *name);

#endif
