/* isa.c — which kernel variant this CPU can run. */
#include "isa.h"

int tf_isa_supported(tf_isa isa)
{
    switch (isa) {
    case TF_ISA_DEFAULT:
        return 1;
#if TF_ISA_X86
    case TF_ISA_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    case TF_ISA_AVX512:
        /* libgcc checks that the OS saves the zmm state (XCR0) before reporting avx512f */
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2");
#endif
    default:
        return 0;
    }
}

tf_isa tf_isa_best(void)
{
    /* cheap enough to ask every time: __builtin_cpu_supports reads a table libgcc fills once */
    int best = TF_ISA_DEFAULT;
    for (int i = TF_ISA_DEFAULT + 1; i < TF_ISA_COUNT; i++)
        if (tf_isa_supported((tf_isa)i))
            best = i;
    return (tf_isa)best;
}

const char *tf_isa_name(tf_isa isa)
{
    static const char *const names[TF_ISA_COUNT] = {"default", "avx2", "avx512"};
    return (unsigned)isa < TF_ISA_COUNT ? names[isa] : "unknown";
}
