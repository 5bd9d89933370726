/*
 * Expedition Luxor's engine: how fast it plays, and whether 10,000 random games keep every
 * invariant.
 *
 *   bench_expedition_luxor speed [GAMES]   random 4-player games with the expansion, on one
 *                                          core: games per second (target >= 20,000: the
 *                                          tracker searches with this engine)
 *   bench_expedition_luxor soak [GAMES]    random games of 2, 3 and 4 players with and without
 *                                          the expansion (default 10,000 in all), each line fed
 *                                          back through the notation, el_verify after every one
 *   bench_expedition_luxor reconcile [GAMES]  random 4-player games with the expansion, seen
 *                                          whole by a camera after every turn, then after every
 *                                          action: how long el_reconcile takes (DESIGN.md §5:
 *                                          <= 1 ms) and what it answers
 *   bench_expedition_luxor hidden [GAMES]  random games with the expansion (default 200 each
 *                                          of 2, 3 and 4 players, seeds 7000 on): at how many
 *                                          turn ends a token could have gone unseen by a camera
 *                                          that reads no height (el_hidden_tokens: the tracker
 *                                          then asks), and how many tokens played changed no
 *                                          top and laid no token
 *
 * Reports; the soak exits 1 if an invariant breaks, naming the game and the line.
 */
#include "rules.h"

#include "bench_support.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int speed(long games)
{
    el_state state = test_el_new_game(4, true);
    long tiles = 0;
    double started = bench_seconds();
    for (long g = 0; g < games; g++) {
        el_error error;
        if (el_random_game(&state, (uint64_t)g, NULL, NULL, &error) != EL_OK) {
            fprintf(stderr, "game %ld: %s\n", g, error.message);
            return 1;
        }
        tiles += state.tiles;
    }
    double elapsed = bench_seconds() - started;
    printf("expedition-luxor random games, 4 players, expansion: %ld games in %.2f s\n", games,
           elapsed);
    printf("  %.0f games/s on one core (target >= 20000), %.1f us a game, %ld tiles placed\n",
           (double)games / elapsed, elapsed * 1e6 / (double)games, tiles);
    return 0;
}

typedef struct soak_replay {
    el_state state;
    long line;
    bool failed;
    char reason[256];
} soak_replay;

static void soak_line(void *context, const char *line)
{
    soak_replay *r = context;
    if (r->failed)
        return;
    el_error error;
    if (el_play_line(&r->state, line, NULL, &error) != EL_OK ||
        el_verify(&r->state, &error) != EL_OK) {
        r->failed = true;
        snprintf(r->reason, sizeof r->reason, "line %ld '%.60s': %.150s", r->line, line,
                 error.message);
    }
    r->line++;
}

static int soak(long games)
{
    static const int seats[] = {2, 3, 4};
    double started = bench_seconds();
    long lines = 0;
    for (long g = 0; g < games; g++) {
        int players = seats[g % 3];
        bool expansion = (g / 3) % 2 == 1;
        el_state played = test_el_new_game(players, expansion);
        soak_replay *r = calloc(1, sizeof *r);
        r->state = test_el_new_game(players, expansion);
        el_error error;
        uint64_t seed = 0x5eed0000u + (uint64_t)g;
        if (el_random_game(&played, seed, soak_line, r, &error) != EL_OK || r->failed) {
            fprintf(stderr, "game %ld (seed %llu, %d players%s): %s\n", g,
                    (unsigned long long)seed, players, expansion ? ", expansion" : "",
                    r->failed ? r->reason : error.message);
            free(r);
            return 1;
        }
        int32_t a[EL_MAX_SEATS], b[EL_MAX_SEATS];
        el_scores(&played, a);
        el_scores(&r->state, b);
        if (memcmp(a, b, sizeof a) != 0 || r->state.phase != EL_PHASE_OVER) {
            fprintf(stderr, "game %ld: the replay ended differently\n", g);
            free(r);
            return 1;
        }
        lines += r->line;
        free(r);
    }
    printf("expedition-luxor soak: %ld games (2-4 players, with and without the expansion), "
           "%ld lines replayed and verified in %.1f s: no invariant broken\n",
           games, lines, bench_seconds() - started);
    return 0;
}

/* Replays a random game; at every turn's end, reconciles the table seen at the turn's start
 * with the table seen at its end, timing each call. */
typedef struct turn_timer {
    el_state state, turn_start;
    bool per_action; /* reconcile after every action instead of every turn */
    double *times;
    long count, capacity;
    long answers[4];
    long truth_missing;
} turn_timer;

static void time_turn(void *context, const char *line)
{
    turn_timer *t = context;
    el_line parsed;
    el_play_line(&t->state, line, &parsed, NULL);
    bool ends = parsed.kind == EL_LINE_MOVE &&
                (parsed.move.kind == EL_MOVE_END || parsed.move.kind == EL_MOVE_PASS);
    if (parsed.kind == EL_LINE_START) {
        t->turn_start = t->state;
        return;
    }
    if (!ends && !t->per_action)
        return;
    if (ends && t->per_action) {
        t->turn_start = t->state;
        return;
    }
    /* the table as it stood before the `end`, seen whole */
    el_state before_end = t->state;
    el_observation observation;
    el_observe(&before_end, &observation);
    el_reconcile_result result;
    double started = bench_seconds();
    el_reconcile(&t->turn_start, &observation, &result);
    double elapsed = bench_seconds() - started;
    if (t->count < t->capacity)
        t->times[t->count++] = elapsed * 1000.0;
    t->answers[result.answer]++;
    if (result.answer == EL_UNEXPLAINED)
        t->truth_missing++;
    t->turn_start = t->state;
}

static int reconcile(long games, bool per_action)
{
    turn_timer *t = calloc(1, sizeof *t);
    t->per_action = per_action;
    t->capacity = games * 200;
    t->times = malloc((size_t)t->capacity * sizeof *t->times);
    for (long g = 0; g < games; g++) {
        el_state played = test_el_new_game(4, true);
        t->state = test_el_new_game(4, true);
        el_error error;
        if (el_random_game(&played, 0xabc000u + (uint64_t)g, time_turn, t, &error) != EL_OK) {
            fprintf(stderr, "game %ld: %s\n", g, error.message);
            return 1;
        }
    }
    qsort(t->times, (size_t)t->count, sizeof *t->times, bench_compare_doubles);
    printf("expedition-luxor reconcile, %s of %ld random 4-player games with the "
           "expansion (%ld tables)\n", per_action ? "each action" : "whole turns", games, t->count);
    printf("  median %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms  (target: <= 1 ms)\n",
           t->times[t->count / 2], t->times[t->count * 95 / 100], t->times[t->count * 99 / 100],
           t->times[t->count - 1]);
    printf("  answers: %ld explained, %ld ambiguous, %ld unchanged, %ld unexplained\n",
           t->answers[EL_EXPLAINED], t->answers[EL_AMBIGUOUS], t->answers[EL_UNCHANGED],
           t->answers[EL_UNEXPLAINED]);
    free(t->times);
    free(t);
    return 0;
}

/* The lines of a random game, for replaying it (a random game has about 150; one that does not
 * fit is refused rather than replayed cut short). */
enum { GAME_LINES_MAX = 2048 };
typedef struct game_lines {
    int count;
    bool overflowed;
    char lines[GAME_LINES_MAX][256];
} game_lines;

static void keep_line(void *context, const char *line)
{
    game_lines *g = context;
    if (g->count < GAME_LINES_MAX)
        snprintf(g->lines[g->count++], sizeof g->lines[0], "%s", line);
    else
        g->overflowed = true;
}

/* What a camera that reads no height sees of the state. */
static void observe_without_heights(const el_state *state, el_observation *o)
{
    el_observe(state, o);
    for (int i = 0; i < o->count; i++)
        o->tiles[i].height = EL_UNSEEN;
}

static bool looks_the_same(const el_observation *a, const el_observation *b)
{
    if (a->count != b->count)
        return false;
    for (int i = 0; i < a->count; i++) {
        const el_seen_tile *x = &a->tiles[i], *y = &b->tiles[i];
        if (x->row != y->row || x->col != y->col || x->type != y->type || x->top != y->top ||
            x->token != y->token)
            return false;
    }
    return true;
}

static int hidden(long games)
{
    static game_lines played;
    for (int seats = 2; seats <= 4; seats++) {
        long ends = 0, asked = 0, tokens = 0, unseen = 0;
        for (long g = 0; g < games; g++) {
            el_state state = test_el_new_game(seats, true);
            el_error error;
            played.count = 0;
            played.overflowed = false;
            if (el_random_game(&state, 7000 + (uint64_t)g, keep_line, &played, &error) != EL_OK) {
                fprintf(stderr, "game %ld: %s\n", g, error.message);
                return 1;
            }
            if (played.overflowed) {
                fprintf(stderr, "game %ld: more than %d lines\n", g, GAME_LINES_MAX);
                return 1;
            }
            state = test_el_new_game(seats, true);
            for (int i = 0; i < played.count; i++) {
                const char *line = played.lines[i];
                el_observation before, after;
                el_line next;
                observe_without_heights(&state, &before);
                if (el_parse(&state, line, &next, &error) != EL_OK) {
                    fprintf(stderr, "game %ld: '%s': %s\n", g, line, error.message);
                    return 1;
                }
                if (next.kind == EL_LINE_MOVE && next.move.kind == EL_MOVE_END &&
                    state.placed_this_turn > 0 && !state.token_this_turn) {
                    el_move moves[1];
                    ends++;
                    asked += el_hidden_tokens(&state, &before, moves, 1) > 0;
                }
                if (el_play_line(&state, line, NULL, &error) != EL_OK) {
                    fprintf(stderr, "game %ld: '%s': %s\n", g, line, error.message);
                    return 1;
                }
                bool token = next.kind == EL_LINE_MOVE && next.move.kind == EL_MOVE_TOKEN;
                observe_without_heights(&state, &after);
                tokens += token;
                unseen += token && looks_the_same(&before, &after);
            }
        }
        printf("%d players, %ld games: %ld turn ends after a tile and no token, %ld where a token "
               "could have gone unseen (%.1f%%); %ld tokens played, %ld changed no top and laid "
               "no token (%.1f%%)\n",
               seats, games, ends, asked, 100.0 * asked / (ends ? ends : 1), tokens, unseen,
               100.0 * unseen / (tokens ? tokens : 1));
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "speed";
    long games = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
    if (strcmp(mode, "speed") == 0)
        return speed(games > 0 ? games : 20000);
    if (strcmp(mode, "soak") == 0)
        return soak(games > 0 ? games : 10000);
    if (strcmp(mode, "reconcile") == 0)
        return reconcile(games > 0 ? games : 100, false) ||
               reconcile(games > 0 ? games : 100, true);
    if (strcmp(mode, "hidden") == 0)
        return hidden(games > 0 ? games : 200);
    fprintf(stderr, "usage: bench_expedition_luxor speed|soak|reconcile|hidden [GAMES]\n");
    return 2;
}
