/* nope.c — no position encoding: a zero bias, the causal mask at most (nope.h). */
#include "nope.h"

#include <math.h>

#include "tf_limits.h"

double nope_bias_at(long k, scheme_mask mask)
{
    return k < 0 && mask == SCHEME_MASK_CAUSAL ? -INFINITY : 0.0;
}

tf_status nope_bias(long n, scheme_mask mask, double *out)
{
    if ((unsigned)mask >= SCHEME_MASK_COUNT)
        return TF_ERR_RANGE;
    if (n < 1 || n > TF_MAX_DOT_POSITIONS)
        return TF_ERR_POSITIONS;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            out[i * n + j] = nope_bias_at(i - j, mask);
    return TF_OK;
}
