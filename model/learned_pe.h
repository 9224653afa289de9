/* learned_pe.h — a learned absolute position table (GPT-2, BERT, OPT, BART).
 *
 * The model owns a matrix P of n_pos x d trained with everything else, and its row is added to
 * the token's embedding, exactly where sinusoidal PE is added:
 *     X_input(pos) = X_emb(token at pos) + P[pos],        pos = 0 .. n_pos - 1
 * Gehring et al. 2017 (ConvS2S, arXiv 1705.03122) learned such positions; Vaswani et al. 2017
 * (arXiv 1706.03762, section 3.5) found them "nearly identical" to sinusoids and kept sinusoids
 * because they "may allow the model to extrapolate to sequence lengths longer than the ones
 * encountered during training"; GPT-2 (Radford et al. 2019: wpe, 1024 x 768) and BERT (Devlin
 * et al. 2019, arXiv 1810.04805: 512 x 768) learn them. Nothing ties row p to row p + 1 but
 * training, and there is no row n_pos: a longer input cannot be encoded at all.
 *
 * Without a file the table is seeded random, as an untrained model's is: element (p, j)
 * uniform in [-sqrt(3/d), sqrt(3/d)) (variance 1/d, like W_E), so its rows are unrelated and
 * the similarity of PE(p) and PE(p + k) is about 0 for every k != 0 — what training has to
 * change. A table from a real model shows what it did learn (GPT-2: neighbouring rows similar,
 * the similarity falling with the offset, much as sinusoidal PE's). */
#ifndef TF_LEARNED_PE_H
#define TF_LEARNED_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "tensorfile.h"

typedef struct {
    long n_pos;         /* rows: the positions the model has (GPT-2: 1024) */
    int d;              /* columns: d_model */
    double *p;          /* (n_pos, d) row-major */
    bool trained;       /* false: the seeded random table of an untrained model */
    uint64_t seed;      /* the random table's seed */
    tensor_dtype dtype; /* a loaded table's element type in its file */
    char *name;         /* a loaded table's tensor name (.safetensors), NULL otherwise */
} tf_learned_pe;

/* The name endings of position tables in Hugging Face checkpoints, NULL-terminated:
 * "wpe.weight" (GPT-2), "position_embeddings.weight" (BERT, RoBERTa),
 * "embed_positions.weight" (OPT, BART; OPT's first two rows are an offset, not positions). */
extern const char *const learned_pe_tensor_suffixes[];

/* The untrained table: n_pos in [1, TF_MAX_POSITIONS], d in [1, TF_MAX_DMODEL], n_pos * d at
 * most TF_MAX_TABLE_VALUES (TF_ERR_POSITIONS, TF_ERR_DMODEL, TF_ERR_TOO_BIG). */
tf_status learned_pe_init_random(tf_learned_pe *t, long n_pos, int d, uint64_t seed);
/* A trained table from an .npy or .safetensors file (tensorfile.h; tensor NULL: the file's
 * position table, found by learned_pe_tensor_suffixes). trained is true. */
tf_status learned_pe_load(tf_learned_pe *t, const char *path, const char *tensor,
                          tensor_diag *diag);
/* The same from a file held in memory. */
tf_status learned_pe_load_mem(tf_learned_pe *t, const uint8_t *buf, size_t len, const char *tensor,
                              tensor_diag *diag);
void learned_pe_free(tf_learned_pe *t);

/* sqrt(mean over p of |P[p]|^2): the root-mean-square length of the rows (0 for no rows). */
double learned_pe_rms_norm(const tf_learned_pe *t);

/* Rows p0 .. p0+n-1 into out (n, d). TF_ERR_POSITIONS when a row is past the table: a learned
 * table cannot encode position n_pos or later. */
tf_status learned_pe_rows(const tf_learned_pe *t, long p0, long n, double *out /* (n, d) */);

/* Similarity against offset: out[i] for offset k = k0 + i is the mean over p in
 * [0, n_pos - |k|) of cos(P[p], P[p + |k|]) (cosine), or of P[p] . P[p + |k|] (!cosine);
 * NaN where |k| >= n_pos (no pair of rows is that far apart). A zero row counts as cosine 0. */
tf_status learned_pe_offset_similarity(const tf_learned_pe *t, bool cosine, long k0, long n,
                                       double *out /* (n) */);
/* The same at the offsets k[0 .. n-1]. */
tf_status learned_pe_offset_similarity_at(const tf_learned_pe *t, bool cosine, const long *k,
                                          long n, double *out /* (n) */);

/* The similarity of learned_pe_offset_similarity (cosine) at offsets 0 .. n-1 of the n rows
 * whose dot products gram holds ((n, n), learned_pe_gram without cosine): the same mean of
 * cosines, each from the gram's entries (a pass over the gram instead of over the rows). */
void learned_pe_offset_similarity_gram(const double *gram, long n, double *out /* (n) */);

/* out[a][b] = P[p0 + a] . P[p0 + b], or their cosine; rows inside the table
 * (TF_ERR_POSITIONS), n at most TF_MAX_DOT_POSITIONS. */
tf_status learned_pe_gram(const tf_learned_pe *t, bool cosine, long p0, long n,
                          double *out /* (n, n) */);

#endif
