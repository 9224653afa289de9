/* rng.h — a counter-based generator: the value at (seed, stream, row, col) is a pure function
 * of those four numbers, so any row of any seeded matrix can be produced on demand, in any
 * order, without storing the matrix (W_E of 100,000 x 4096 costs nothing until a row is read). */
#ifndef TF_RNG_H
#define TF_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"

/* Streams: one per seeded matrix, so W_E and W_Q never share numbers. */
enum { RNG_STREAM_EMBEDDING = 0, RNG_STREAM_WQ = 1, RNG_STREAM_WK = 2, RNG_STREAM_WV = 3,
       RNG_STREAM_QK_PROBE = 4, RNG_STREAM_TRAIN = 5, RNG_STREAM_POSITION = 6,
       RNG_STREAM_T5_BIAS = 7, RNG_STREAM_ORDER_TASK = 8,
       RNG_STREAM_ORDER_MODEL = 9, RNG_STREAM_ORDER_SHUFFLE = 10 };

/* The splitmix64 finaliser: a bijective 64-bit mix with full avalanche. */
static inline uint64_t rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The per-row key from which every element of that row is derived. */
uint64_t rng_row_key(uint64_t seed, uint32_t stream, uint64_t row);

/* Element j of the row keyed by key: u = (top 24 bits) / 2^23 - 1, uniform in [-1, 1) on a grid
 * of 2^-23, exact in float. Integer arithmetic and one float rounding, so every instruction-set
 * variant gives the same bits. */
static inline float rng_uniform_at(uint64_t key, uint64_t j)
{
    uint64_t h = rng_mix(key + j * 0x9e3779b97f4a7c15ULL);
    return (float)(int32_t)(h >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

/* Fill out[0..n) with uniform values in [-scale, scale), element j keyed by (key, j).
 * Exactly representable: 24 random bits per value, so float and double agree. */
void rng_fill_uniform(uint64_t key, size_t n, float scale, float *out /* (n) */);
/* The same with a chosen instruction-set variant (tests, benchmarks); all give the same bits. */
void rng_fill_uniform_isa(tf_isa isa, uint64_t key, size_t n, float scale, float *out /* (n) */);

/* A seeded (rows, cols) matrix in float64: row r is rng_fill_uniform's row keyed by
 * rng_row_key(seed, stream, r), the same float values widened. */
void rng_fill_rows_f64(uint64_t seed, uint32_t stream, size_t rows, size_t cols, float scale,
                       double *out /* (rows, cols) */);

#endif
