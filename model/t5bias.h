/* t5bias.h — T5's relative position buckets (Raffel et al., "Exploring the Limits of Transfer
 * Learning with a Unified Text-to-Text Transformer", JMLR 2020; the bucket function of
 * mesh-tensorflow and of Hugging Face's T5Attention._relative_position_bucket).
 *
 * Head h adds a learned scalar b_h[bucket(j - i)] to its score of query i against key j. The
 * relative position r = j - i (key minus query) is put in a bucket:
 *   bidirectional: half of the buckets for r > 0 (offset by num_buckets / 2), half for r <= 0,
 *                  then n = |r|;  otherwise n = max(-r, 0) (keys after the query share bucket 0)
 *   with B the buckets of one side and E = B / 2:
 *     n < E:  bucket n (one bucket per distance)
 *     n >= E: E + trunc(log(n / E) / log(max_distance / E) * (B - E)), at most B - 1
 * so near distances are told apart exactly and far ones logarithmically. The logarithm is taken
 * in float32, as the reference computes it. T5 uses 32 buckets and max_distance 128. */
#ifndef TF_T5BIAS_H
#define TF_T5BIAS_H

#include <stdbool.h>

#define T5_DEFAULT_BUCKETS      32
#define T5_DEFAULT_MAX_DISTANCE 128

/* The bucket of relative position rel = key - query; num_buckets >= 2 (even when
 * bidirectional), max_distance > num_buckets / 2 (per side: / 4 when bidirectional). */
int t5_bucket(long rel, bool bidirectional, int num_buckets, int max_distance);

#endif
