/* What the benches share: a monotonic clock, and sorting times for their percentiles. */
#ifndef TS_BENCH_SUPPORT_H
#define TS_BENCH_SUPPORT_H

#include <time.h>

static inline double bench_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* For qsort over doubles. */
static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
