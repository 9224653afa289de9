/* isa.h — instruction-set variants of the fast kernels (function multiversioning).
 *
 * The release build targets baseline x86-64 (or arm64) and never uses -march=native. The few hot
 * loops (posenc_fill_f32, rope_apply_f32) are compiled several times from one body, once per
 * variant below, with the compiler's target attribute; the best variant this CPU supports is
 * chosen once at run time. Every variant does the same IEEE operations in the same order (no
 * fused multiply-add: ISO C mode keeps -ffp-contract=off), so they agree bit for bit and tests
 * can run each one the CPU supports. */
#ifndef TF_ISA_H
#define TF_ISA_H

typedef enum {
    TF_ISA_DEFAULT = 0, /* the baseline of the build target: SSE2 on x86-64, NEON on arm64 */
    TF_ISA_AVX2,        /* x86-64 with AVX2 */
    TF_ISA_AVX512,      /* x86-64 with AVX-512F */
    TF_ISA_COUNT
} tf_isa;

/* Variants are compiled only where the compiler and architecture allow (GCC or clang, x86-64);
 * -DTF_NO_ISA_VARIANTS leaves only the baseline (as on arm64). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(TF_NO_ISA_VARIANTS)
#define TF_ISA_X86       1
#define TF_TARGET_AVX2   __attribute__((target("avx2")))
#define TF_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2")))
#else
#define TF_ISA_X86 0
#endif

/* Marks a loop over independent elements for vectorisation with every variant, also where the
 * compiler's cost model would hesitate (many interleaved stores) and at -O2; the build adds
 * -fopenmp-simd where the compiler has it (no OpenMP runtime is involved). */
#ifdef TF_HAVE_OMP_SIMD
#define TF_SIMD _Pragma("omp simd")
#else
#define TF_SIMD
#endif

/* The best variant compiled in and supported by this CPU. */
tf_isa tf_isa_best(void);
/* Nonzero if variant isa is compiled in and this CPU can run it. */
int tf_isa_supported(tf_isa isa);
/* "default", "avx2", "avx512" ("unknown" out of range). */
const char *tf_isa_name(tf_isa isa);

#endif
