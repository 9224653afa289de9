/* alibi.c — ALiBi's slopes and biases (alibi.h). */
#include "alibi.h"

#include <math.h>
#include <stdlib.h>

#include "tf_limits.h"

/* n a power of two: start = 2^(-2^-(log2 n - 3)) = 2^(-8/n), slope i = start * start^i, with
 * the reference code's own floating-point steps. */
static void slopes_power_of_2(int n, double *out)
{
    double start = pow(2.0, -pow(2.0, -(log2((double)n) - 3.0)));
    double ratio = start;
    for (int i = 0; i < n; i++)
        out[i] = start * pow(ratio, (double)i);
}

tf_status alibi_slopes(int heads, double *m)
{
    if (heads < 1 || heads > TF_MAX_HEADS)
        return TF_ERR_RANGE;
    int closest = 1;
    while (closest * 2 <= heads)
        closest *= 2;
    slopes_power_of_2(closest, m);
    if (closest == heads)
        return TF_OK;
    /* every other slope of 2 * closest: indices 0, 2, 4, ... */
    double *twice = malloc((size_t)(2 * closest) * sizeof *twice);
    if (!twice)
        return TF_ERR_NOMEM;
    slopes_power_of_2(2 * closest, twice);
    for (int h = closest; h < heads; h++)
        m[h] = twice[2 * (h - closest)];
    free(twice);
    return TF_OK;
}

double alibi_bias_at(double m, long k, scheme_mask mask)
{
    if (k < 0 && mask == SCHEME_MASK_CAUSAL)
        return -INFINITY;
    return k == 0 ? 0.0 : -m * (double)labs(k); /* +0 on the diagonal, never "-0" in print */
}

tf_status alibi_bias(const double *m, int heads, long n, scheme_mask mask, double *out)
{
    if (heads < 1 || heads > TF_MAX_HEADS || (unsigned)mask >= SCHEME_MASK_COUNT)
        return TF_ERR_RANGE;
    if (n < 1 || n > TF_MAX_DOT_POSITIONS)
        return TF_ERR_POSITIONS;
    if ((double)heads * n * n > TF_MAX_BIAS_VALUES)
        return TF_ERR_TOO_BIG;
    for (int h = 0; h < heads; h++)
        for (long i = 0; i < n; i++)
            for (long j = 0; j < n; j++)
                out[((size_t)h * n + i) * n + j] = alibi_bias_at(m[h], i - j, mask);
    return TF_OK;
}
