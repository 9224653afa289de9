/* alibi.c — ALiBi slopes (alibi.h). */
#include "alibi.h"

#include <math.h>

/* Slope i (0-based) of the reference's get_slopes_power_of_2(n): start * ratio^i with
 * start = ratio = 2^(-2^-(log2 n - 3)). */
static double slope_pow2(int n, int i)
{
    double start = pow(2.0, -pow(2.0, -(log2((double)n) - 3.0)));
    return start * pow(start, (double)i);
}

void alibi_slopes(int heads, double *m)
{
    int p = 1;
    while (p <= heads / 2)
        p *= 2;
    for (int i = 0; i < heads && i < p; i++)
        m[i] = slope_pow2(p, i);
    /* H not a power of two: get_slopes(2P)[0::2][:H - P], 2P being a power of two */
    for (int i = 0; i < heads - p; i++)
        m[p + i] = slope_pow2(2 * p, 2 * i);
}
