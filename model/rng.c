/* rng.c — counter-based uniform values (splitmix64 over (seed, stream, row, col)). */
#include "rng.h"

uint64_t rng_row_key(uint64_t seed, uint32_t stream, uint64_t row)
{
    uint64_t k = rng_mix(seed ^ 0x6a09e667f3bcc909ULL);
    k = rng_mix(k ^ ((uint64_t)stream * 0x9e3779b97f4a7c15ULL));
    return rng_mix(k ^ (row * 0xd1b54a32d192ed03ULL + 0x3c6ef372fe94f82bULL));
}

void rng_fill_uniform(uint64_t key, size_t n, float scale, float *out)
{
    /* u = (top 24 bits) / 2^23 - 1 lies in [-1, 1) on a grid of 2^-23: exact in float. */
    for (size_t j = 0; j < n; j++) {
        uint64_t h = rng_mix(key + (uint64_t)j * 0x9e3779b97f4a7c15ULL);
        float u = (float)(int32_t)(h >> 40) * (1.0f / 8388608.0f) - 1.0f;
        out[j] = u * scale;
    }
}
