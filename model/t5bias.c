/* t5bias.c — T5's relative position buckets (t5bias.h). */
#include "t5bias.h"

#include <math.h>

int t5_bucket(long rel, bool bidirectional, int num_buckets, int max_distance)
{
    int bucket = 0;
    long n;
    if (bidirectional) {
        num_buckets /= 2;
        if (rel > 0)
            bucket += num_buckets;
        n = rel < 0 ? -rel : rel;
    } else {
        n = rel < 0 ? -rel : 0;
    }
    int max_exact = num_buckets / 2;
    if (n < max_exact)
        return bucket + (int)n;
    /* float32 throughout, as torch computes relative_position.float() / max_exact etc. */
    float x = logf((float)n / (float)max_exact) /
              (float)log((double)max_distance / (double)max_exact) *
              (float)(num_buckets - max_exact);
    long large = max_exact + (long)x;
    if (large > num_buckets - 1)
        large = num_buckets - 1;
    return bucket + (int)large;
}
