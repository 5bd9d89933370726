/*
 * Luxor's engine: how fast it plays, whether random games keep every invariant, and what
 * reconcile costs.
 *
 *   bench_luxor speed [GAMES]      random 4-player games on one core, without and with the
 *                                  variants: games per second (target >= 50,000)
 *   bench_luxor soak [GAMES]       random games of 2, 3 and 4 players over every combination of
 *                                  curse, sphinx and tile pairs (default 10,000 in all), each
 *                                  line fed back through the notation, lx_verify after every one
 *   bench_luxor reconcile [GAMES]  random 4-player games seen whole after every drop and
 *                                  every end-game line: how long lx_reconcile takes (DESIGN.md
 *                                  §5: <= 1 ms), what it answers, and whether the game that was
 *                                  played is among its explanations
 *
 * Reports; the soak exits 1 if an invariant breaks, naming the game and the line.
 */
#include "luxor_internal.h"

#include "bench_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static lx_state new_game(int seats, unsigned variant)
{
    lx_config config;
    lx_config_default(&config);
    config.seats = seats;
    config.curse = variant & 1;
    config.sphinx = variant & 2;
    config.tile_pairs = variant & 4;
    lx_state state;
    lx_init(&state, &config, NULL);
    return state;
}

static const char *variant_name(unsigned variant)
{
    static const char *const names[] = {"base game",        "curse",
                                        "sphinx",           "curse + sphinx",
                                        "tile pairs",       "curse + tile pairs",
                                        "sphinx + tile pairs", "curse + sphinx + tile pairs"};
    return names[variant & 7];
}

static int speed(long games, unsigned variant)
{
    lx_state state = new_game(4, variant);
    long sarcophagi = 0;
    double started = bench_seconds();
    for (long g = 0; g < games; g++) {
        lx_error error;
        if (lx_random_game(&state, (uint64_t)g, NULL, NULL, &error) != LX_OK) {
            fprintf(stderr, "game %ld: %s\n", g, error.message);
            return 1;
        }
        for (int s = 0; s < 4; s++)
            sarcophagi += lx_sarcophagi(&state, s);
    }
    double elapsed = bench_seconds() - started;
    printf("luxor random games, 4 players, %s: %ld games in %.2f s\n", variant_name(variant),
           games, elapsed);
    printf("  %.0f games/s on one core (target >= 50000), %.1f us a game, %.1f sarcophagi "
           "opened a game\n",
           (double)games / elapsed, elapsed * 1e6 / (double)games,
           (double)sarcophagi / (double)games);
    return 0;
}

typedef struct soak_replay {
    lx_state state;
    long line;
    bool failed;
    char reason[256];
} soak_replay;

static void soak_line(void *context, const char *line)
{
    soak_replay *r = context;
    if (r->failed)
        return;
    lx_error error;
    if (lx_play_line(&r->state, line, NULL, &error) != LX_OK ||
        lx_verify(&r->state, &error) != LX_OK) {
        r->failed = true;
        snprintf(r->reason, sizeof r->reason, "line %ld '%.60s': %.150s", r->line, line,
                 error.message);
    }
    r->line++;
}

static int soak(long games)
{
    double started = bench_seconds();
    long lines = 0, curses = 0;
    for (long g = 0; g < games; g++) {
        int players = 2 + (int)(g % 3);
        unsigned variant = (unsigned)(g / 3) % 8;
        lx_state played = new_game(players, variant);
        soak_replay *r = calloc(1, sizeof *r);
        r->state = new_game(players, variant);
        lx_error error;
        uint64_t seed = 0x1a0000u + (uint64_t)g;
        if (lx_random_game(&played, seed, soak_line, r, &error) != LX_OK || r->failed) {
            fprintf(stderr, "game %ld (seed %llu, %d players, %s): %s\n", g,
                    (unsigned long long)seed, players, variant_name(variant),
                    r->failed ? r->reason : error.message);
            free(r);
            return 1;
        }
        int32_t a[LX_MAX_SEATS], b[LX_MAX_SEATS];
        lx_scores(&played, a);
        lx_scores(&r->state, b);
        if (memcmp(a, b, sizeof a) != 0 || r->state.phase != LX_PHASE_OVER) {
            fprintf(stderr, "game %ld: the replay ended differently\n", g);
            free(r);
            return 1;
        }
        lines += r->line;
        curses += r->state.curses;
        free(r);
    }
    printf("luxor soak: %ld games (2-4 players, every combination of the variants), %ld lines "
           "(%ld curse rounds) replayed and verified in %.1f s: no invariant broken\n",
           games, lines, curses, bench_seconds() - started);
    return 0;
}

/* Replays a random game; after every drop and end-game line, reconciles the table seen before
 * it with the table seen after it. */
typedef struct timer {
    lx_state state;
    double *times;
    long count, capacity;
    long answers[4];
    long truth_missing;
} timer;

static void time_line(void *context, const char *line)
{
    timer *t = context;
    lx_state before = t->state;
    lx_line parsed;
    if (lx_play_line(&t->state, line, &parsed, NULL) != LX_OK || parsed.kind != LX_LINE_MOVE ||
        (parsed.move.kind != LX_MOVE_DROP && parsed.move.kind != LX_MOVE_SCARABS))
        return;
    lx_observation observation;
    lx_observe(&t->state, &observation);
    lx_reconcile_result result;
    double started = bench_seconds();
    lx_reconcile(&before, &observation, &result);
    double elapsed = bench_seconds() - started;
    if (t->count < t->capacity)
        t->times[t->count++] = elapsed * 1000.0;
    t->answers[result.answer]++;
    /* the game played must be among the explanations (an unchanged table explains itself) */
    bool found = result.answer == LX_UNCHANGED;
    for (int i = 0; i < result.count && i < 4 && !found; i++) {
        lx_state replay = before;
        bool ok = true;
        for (int m = 0; m < result.explanations[i].count && ok; m++)
            ok = lx_apply(&replay, &result.explanations[i].moves[m], NULL) == LX_OK;
        found = ok && lx_same_game(&replay, &t->state);
    }
    t->truth_missing += !found;
}

static int reconcile(long games)
{
    timer *t = calloc(1, sizeof *t);
    t->capacity = games * 60;
    t->times = malloc((size_t)t->capacity * sizeof *t->times);
    for (long g = 0; g < games; g++) {
        lx_state played = new_game(4, 0);
        t->state = new_game(4, 0);
        lx_error error;
        if (lx_random_game(&played, 0x1acc00u + (uint64_t)g, time_line, t, &error) != LX_OK) {
            fprintf(stderr, "game %ld: %s\n", g, error.message);
            return 1;
        }
    }
    qsort(t->times, (size_t)t->count, sizeof *t->times, bench_compare_doubles);
    printf("luxor reconcile, each drop and end-game line of %ld random 4-player games "
           "(%ld tables)\n", games, t->count);
    printf("  median %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms  (target: <= 1 ms)\n",
           t->times[t->count / 2], t->times[t->count * 95 / 100], t->times[t->count * 99 / 100],
           t->times[t->count - 1]);
    printf("  answers: %ld explained, %ld ambiguous, %ld unchanged, %ld unexplained; "
           "the game played missing from the explanations: %ld\n",
           t->answers[LX_EXPLAINED], t->answers[LX_AMBIGUOUS], t->answers[LX_UNCHANGED],
           t->answers[LX_UNEXPLAINED], t->truth_missing);
    free(t->times);
    free(t);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "speed";
    long games = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
    if (strcmp(mode, "speed") == 0)
        return speed(games > 0 ? games : 50000, 0) || speed(games > 0 ? games : 50000, 1) ||
               speed(games > 0 ? games : 50000, 2);
    if (strcmp(mode, "soak") == 0)
        return soak(games > 0 ? games : 10000);
    if (strcmp(mode, "reconcile") == 0)
        return reconcile(games > 0 ? games : 200);
    fprintf(stderr, "usage: bench_luxor speed|soak|reconcile [GAMES]\n");
    return 2;
}
