/* bpe.h — byte-level byte-pair encoding with OpenAI's rank tables (cl100k_base, o200k_base).
 *
 * The text is first cut into pieces by the vocabulary's own regular expression (pat_str, run
 * with PCRE2 in UTF + UCP mode); each piece's bytes are then merged pairwise, always merging
 * the adjacent pair whose concatenation has the lowest rank, until no pair is in the table.
 * The rank of the final byte string is its token id. A token may hold part of a UTF-8
 * character: 爱 (E7 88 B1) is two tokens in cl100k_base. */
#ifndef TF_BPE_H
#define TF_BPE_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct tf_bpe tf_bpe;

/* Map dir/name (tfviz-cl100k.bin or tfviz-o200k.bin) and compile its pattern. Missing file or
 * a build without PCRE2: TF_ERR_UNAVAILABLE; a corrupt file: TF_ERR_FORMAT. */
tf_status bpe_open(const char *dir, const char *name, tf_bpe **out);
void bpe_free(tf_bpe *b);

/* Ranks 0..bpe_count-1 are byte strings; n_vocab also counts the special tokens' ids. */
uint32_t bpe_count(const tf_bpe *b);
uint32_t bpe_n_vocab(const tf_bpe *b);
const char *bpe_pattern(const tf_bpe *b);
/* Rank of the byte string s[0..len), or -1. */
int64_t bpe_rank(const tf_bpe *b, const void *s, size_t len);
/* The bytes of rank r (r < bpe_count), not NUL-terminated. */
const unsigned char *bpe_bytes(const tf_bpe *b, uint32_t r, size_t *len);

/* Merge one piece: writes its tokens' ranks into ranks and their byte lengths into lens (both
 * with room for len entries) and returns how many there are. */
size_t bpe_merge(const tf_bpe *b, const unsigned char *s, size_t len, uint32_t *ranks,
                 uint32_t *lens);

/* Encode text[0..len) (valid UTF-8): pre-tokenise with the pattern, merge each piece, and call
 * fn for every token with its rank, byte range and the index of its piece. Stops with fn's
 * status if it is not TF_OK. */
typedef tf_status (*bpe_emit_fn)(void *ctx, uint32_t rank, size_t start, size_t end, size_t piece);
tf_status bpe_encode(const tf_bpe *b, const char *text, size_t len, bpe_emit_fn fn, void *ctx);

#endif
