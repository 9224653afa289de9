/* rng.c — counter-based uniform values (splitmix64 over (seed, stream, row, col)). */
#include "rng.h"

#include "isa.h"

uint64_t rng_row_key(uint64_t seed, uint32_t stream, uint64_t row)
{
    uint64_t k = rng_mix(seed ^ 0x6a09e667f3bcc909ULL);
    k = rng_mix(k ^ ((uint64_t)stream * 0x9e3779b97f4a7c15ULL));
    return rng_mix(k ^ (row * 0xd1b54a32d192ed03ULL + 0x3c6ef372fe94f82bULL));
}

/* Element j is rng_uniform_at(key, j) * scale. */
static inline __attribute__((always_inline)) void fill_body(uint64_t key, size_t n, float scale,
                                                            float *restrict out)
{
    TF_SIMD
    for (size_t j = 0; j < n; j++)
        out[j] = rng_uniform_at(key, j) * scale;
}

static void fill_default(uint64_t key, size_t n, float scale, float *out)
{
    fill_body(key, n, scale, out);
}

#if TF_ISA_X86
TF_TARGET_AVX2 static void fill_avx2(uint64_t key, size_t n, float scale, float *out)
{
    fill_body(key, n, scale, out);
}

/* AVX-512DQ multiplies 64-bit lanes in one instruction (vpmullq) */
TF_TARGET_AVX512 static void fill_avx512(uint64_t key, size_t n, float scale, float *out)
{
    fill_body(key, n, scale, out);
}
#endif

void rng_fill_uniform_isa(tf_isa isa, uint64_t key, size_t n, float scale, float *out)
{
    if (!tf_isa_supported(isa))
        isa = TF_ISA_DEFAULT;
    switch (isa) {
#if TF_ISA_X86
    case TF_ISA_AVX512:
        fill_avx512(key, n, scale, out);
        break;
    case TF_ISA_AVX2:
        fill_avx2(key, n, scale, out);
        break;
#endif
    default:
        fill_default(key, n, scale, out);
    }
}

void rng_fill_uniform(uint64_t key, size_t n, float scale, float *out)
{
    rng_fill_uniform_isa(tf_isa_best(), key, n, scale, out);
}

void rng_fill_rows_f64(uint64_t seed, uint32_t stream, size_t rows, size_t cols, float scale,
                       double *out)
{
    for (size_t r = 0; r < rows; r++) {
        uint64_t key = rng_row_key(seed, stream, r);
        for (size_t j = 0; j < cols; j++)
            out[r * cols + j] = rng_uniform_at(key, j) * scale;
    }
}
