/*
 * The random numbers of the engines' random games: splitmix64, small, fast, and the same
 * sequence on every machine, so that `play --random SEED` prints the same game everywhere.
 * Internal to rules/.
 */
#ifndef TS_RULES_RANDOM_H
#define TS_RULES_RANDOM_H

#include <stdint.h>

static inline uint64_t rules_random_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* 0..n-1 (n > 0). */
static inline int rules_random_below(uint64_t *rng, int n)
{
    return (int)(rules_random_next(rng) % (uint64_t)n);
}

/* Fisher-Yates. */
static inline void rules_random_shuffle(uint64_t *rng, uint8_t *items, int count)
{
    for (int i = count - 1; i > 0; i--) {
        int j = rules_random_below(rng, i + 1);
        uint8_t swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}

#endif
