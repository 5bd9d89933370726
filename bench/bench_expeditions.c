/*
 * Expéditions' engine on the built-in stand-in map: how fast it plays, whether random games
 * keep every invariant, and what reconcile costs.
 *
 *   bench_expeditions speed [GAMES]      random games of 2 to 6 players on one core: games per
 *                                        second (target >= 20,000)
 *   bench_expeditions soak [GAMES]       random games of every seat count (default 10,000 in
 *                                        all), each line fed back through the notation,
 *                                        ex_verify after every one, the same final scores
 *   bench_expeditions reconcile [GAMES]  random 4-player games seen after every turn: how long
 *                                        ex_reconcile takes (DESIGN.md §5: <= 1 ms), what it
 *                                        answers, and whether the arrows and tokens of the turn
 *                                        played are among its explanations
 *
 * Reports; the soak exits 1 if an invariant breaks, naming the game and the line.
 */
#include "board_file.h"
#include "expeditions_internal.h"

#include "bench_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int board_handle;

static int load_board(void)
{
    const char *text;
    size_t length;
    static ex_board board;
    char error[256];
    if (!board_file_builtin(EX_GAME_ID, &text, &length) ||
        !board_file_parse(text, length, "the built-in board", &board, error, sizeof error)) {
        fprintf(stderr, "the built-in board: %s\n", error);
        return 1;
    }
    board_handle = ex_board_add(&board);
    return 0;
}

static ex_state new_game(int seats)
{
    ex_config config;
    ex_config_default(&config, seats);
    config.board = board_handle;
    ex_state state;
    ex_init(&state, &config, NULL);
    return state;
}

static int speed(long games)
{
    for (int seats = 2; seats <= EX_MAX_SEATS; seats++) {
        long turns = 0, arrows = 0, laid = 0;
        ex_state fresh = new_game(seats), state;
        double started = bench_seconds();
        for (long g = 0; g < games; g++) {
            state = fresh;
            ex_error error;
            if (ex_random_game(&state, (uint64_t)g, NULL, NULL, &error) != EX_OK) {
                fprintf(stderr, "%d players, game %ld: %s\n", seats, g, error.message);
                return 1;
            }
            turns += state.turns;
            for (int e = 0; e < EX_EXPEDITIONS; e++)
                arrows += state.trails[e].count;
            for (int s = 0; s < seats; s++)
                laid += ex_cards_laid(&state, s);
        }
        double elapsed = bench_seconds() - started;
        printf("%d players: %.0f games/s on one core (target >= 20000), %.1f us a game; "
               "%.0f turns, %.0f arrows and %.1f cards laid a game\n",
               seats, (double)games / elapsed, elapsed * 1e6 / (double)games,
               (double)turns / (double)games, (double)arrows / (double)games,
               (double)laid / (double)games);
    }
    return 0;
}

typedef struct replay {
    ex_state state;
    long line;
    bool failed;
    char reason[300];
} replay;

static void replay_line(void *context, const char *line)
{
    replay *r = context;
    if (r->failed)
        return;
    r->line++;
    ex_error error;
    if (ex_play_line(&r->state, line, NULL, &error) != EX_OK ||
        ex_verify(&r->state, &error) != EX_OK) {
        r->failed = true;
        snprintf(r->reason, sizeof r->reason, "line %ld '%.120s': %.160s", r->line, line,
                 error.message);
    }
}

static int soak(long games)
{
    long lines = 0, over = 0;
    for (long g = 0; g < games; g++) {
        int seats = 2 + (int)(g % (EX_MAX_SEATS - 1));
        ex_state state = new_game(seats);
        replay r = {.state = state};
        ex_error error;
        if (ex_random_game(&state, (uint64_t)g * 977 + 3, replay_line, &r, &error) != EX_OK) {
            fprintf(stderr, "game %ld (%d players): %s\n", g, seats, error.message);
            return 1;
        }
        int32_t a[EX_MAX_SEATS], b[EX_MAX_SEATS];
        ex_scores(&state, a);
        ex_scores(&r.state, b);
        if (r.failed || memcmp(a, b, sizeof a) != 0 || r.state.phase != EX_PHASE_OVER) {
            fprintf(stderr, "game %ld (%d players): %s\n", g, seats,
                    r.failed ? r.reason : "the replay ends elsewhere");
            return 1;
        }
        lines += r.line;
        over += state.ending;
    }
    printf("soak: %ld games of 2-6 players, %ld lines replayed through the notation with "
           "ex_verify after each: no invariant broken, the same final scores\n", games, lines);
    printf("  %ld games ended by an empty hand, %ld by the arrows\n", over, games - over);
    return 0;
}

typedef struct seen_turns {
    ex_state before;
    long turns, answers[4], truth_found, objective;
    double *times;
    long time_count, time_capacity;
    bool failed;
} seen_turns;

/* Whether playing the explanation from before gives these arrows and tokens. */
static bool leads_to(const ex_state *before, const ex_explanation *x, const ex_observation *seen)
{
    ex_state game = *before;
    if (x->move.kind == EX_MOVE_TOKEN) {
        if (ex_apply(&game, &x->move, NULL) != EX_OK)
            return false;
    } else {
        game.deck = 0; /* as reconcile plays it: the card turned up is not seen */
        ex_turn turn;
        ex_turn_begin(&game, &turn);
        for (int i = 0; i < x->move.count; i++)
            if (ex_turn_step(&game, &turn, &x->move.steps[i], NULL) != EX_OK)
                return false;
    }
    ex_observation got;
    ex_observe(&game, &got);
    return memcmp(got.arrows, seen->arrows, sizeof got.arrows) == 0 &&
           got.token_count == seen->token_count &&
           memcmp(got.tokens, seen->tokens, sizeof got.tokens[0] * (size_t)got.token_count) == 0;
}

static void reconcile_line(void *context, const char *line)
{
    seen_turns *t = context;
    ex_state after = t->before;
    if (t->failed || ex_play_line(&after, line, NULL, NULL) != EX_OK) {
        t->failed = true;
        return;
    }
    if (t->before.phase != EX_PHASE_OBJECTIVES) {
        ex_observation seen;
        ex_observe(&after, &seen);
        ex_reconcile_result result;
        double started = bench_seconds();
        ex_reconcile(&t->before, &seen, &result);
        double ms = (bench_seconds() - started) * 1e3;
        if (t->time_count == t->time_capacity) {
            t->time_capacity = t->time_capacity ? 2 * t->time_capacity : 4096;
            t->times = realloc(t->times, sizeof *t->times * (size_t)t->time_capacity);
        }
        t->times[t->time_count++] = ms;
        if (ms > 1.0 && getenv("BENCH_VERBOSE"))
        {
            fprintf(stderr, "slow (%.1f ms, answer %d, cut %d, count %d): %s\n", ms, result.answer,
                    result.search_cut, result.count, line);
            for (int i = 0; i < result.count && i < 4; i++) {
                char text[1024];
                ex_state g = t->before;
                g.deck = 0;
                ex_format_move(&g, &result.explanations[i].move, text, sizeof text);
                fprintf(stderr, "    %d tickets: %s\n", result.explanations[i].tickets, text);
            }
        }
        t->turns++;
        t->answers[result.answer]++;
        bool found = result.answer == EX_UNCHANGED;
        int kept = result.count < 4 ? result.count : 4;
        for (int i = 0; i < kept && !found; i++) {
            found = leads_to(&t->before, &result.explanations[i], &seen);
            t->objective += found && result.explanations[i].objective_taken;
        }
        t->truth_found += found;
        if (!found && getenv("BENCH_VERBOSE"))
            fprintf(stderr, "not explained (answer %d): %s\n", result.answer, line);
    }
    t->before = after;
}

static int reconcile(long games)
{
    seen_turns t = {0};
    for (long g = 0; g < games && !t.failed; g++) {
        ex_state state = new_game(4);
        t.before = state;
        if (ex_random_game(&state, (uint64_t)g + 500, reconcile_line, &t, NULL) != EX_OK)
            t.failed = true;
    }
    if (t.failed || !t.time_count) {
        fprintf(stderr, "reconcile: a random game did not replay\n");
        free(t.times);
        return 1;
    }
    qsort(t.times, (size_t)t.time_count, sizeof *t.times, bench_compare_doubles);
    long n = t.time_count;
    printf("reconcile: %ld games, %ld tables (each key location and each turn)\n", games, n);
    printf("  time: median %.3f ms, p95 %.3f, p99 %.3f, max %.3f (budget 1 ms)\n", t.times[n / 2],
           t.times[n * 95 / 100], t.times[n * 99 / 100], t.times[n - 1]);
    printf("  answers: %ld explained, %ld ambiguous, %ld unchanged, %ld unexplained\n",
           t.answers[EX_EXPLAINED], t.answers[EX_AMBIGUOUS], t.answers[EX_UNCHANGED],
           t.answers[EX_UNEXPLAINED]);
    printf("  the turn played among the explanations (arrows and tokens): %ld of %ld; %ld of "
           "them took a common objective\n", t.truth_found, t.turns, t.objective);
    free(t.times);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "speed";
    long games = argc > 2 ? atol(argv[2]) : 0;
    if (load_board() != 0)
        return 1;
    if (strcmp(mode, "speed") == 0)
        return speed(games > 0 ? games : 20000);
    if (strcmp(mode, "soak") == 0)
        return soak(games > 0 ? games : 10000);
    if (strcmp(mode, "reconcile") == 0)
        return reconcile(games > 0 ? games : 200);
    fprintf(stderr, "usage: bench_expeditions speed|soak|reconcile [GAMES]\n");
    return 2;
}
