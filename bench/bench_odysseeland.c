/*
 * Odyssée-land's engine on the built-in stand-in board: how fast it plays, whether random games
 * keep every invariant, and what reconcile costs and finds.
 *
 *   bench_odysseeland speed [GAMES]      random games (default 20,000) on one core, adventures
 *                                        1-6 and 2-4 players in turn, seeds 1..GAMES: games
 *                                        per second overall and per adventure (target >= 5,000)
 *   bench_odysseeland soak [GAMES]       random games (default 10,000), adventures and seat
 *                                        counts in turn, each line fed back through the notation
 *                                        into a fresh game, od_verify after every one, the same
 *                                        final scores
 *   bench_odysseeland reconcile [GAMES]  random games (default 200), adventures and seat counts
 *                                        in turn, seen after every turn: how long od_reconcile
 *                                        takes (DESIGN.md §5: <= 1 ms), what it answers, and
 *                                        whether the turn played is among its explanations
 *                                        (BENCH_VERBOSE=1 prints the slow and unexplained turns
 *                                        and the explanations refused)
 *
 * Reports; the soak exits 1 if an invariant breaks, naming the seed and the line (it plays
 * every game first, to tell how many break).
 */
#include "board_file.h"
#include "odysseeland_internal.h" /* od_step_apply, as reconcile plays a step */

#include "bench_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ADVENTURES 6
#define SEAT_COUNTS (OD_MAX_SEATS - 1) /* 2, 3, 4 */

static od_board board;

static const char *const adventure_names[ADVENTURES + 1] = {
    "", "1 The Fellowship", "2 The Magnificent", "3 Escape to the Cities", "4 The Princess",
    "5 The Uprising", "6 Free the King",
};

static const char *const end_names[] = {"none", "stock", "stuck", "deck", "princess", "victory"};
#define ENDS ((int)(sizeof end_names / sizeof end_names[0]))

static int load_board(void)
{
    const char *text;
    size_t length;
    char error[256] = "no built-in board";
    if (!board_file_builtin(OD_GAME_ID, &text, &length) ||
        !board_file_parse_odysseeland(text, length, "the built-in board", &board, error,
                                      sizeof error)) {
        fprintf(stderr, "the built-in board: %s\n", error);
        return 1;
    }
    return 0;
}

/* Game g (0..) of a run: adventures 1-6 in turn, and each round of six, the next seat count. */
static int adventure_of(long g) { return 1 + (int)(g % ADVENTURES); }
static int seats_of(long g) { return 2 + (int)(g / ADVENTURES % SEAT_COUNTS); }

/* New games, one per adventure and seat count, made once. */
static od_state fresh[ADVENTURES + 1][OD_MAX_SEATS + 1];

static int make_fresh_games(void)
{
    for (int a = 1; a <= ADVENTURES; a++)
        for (int seats = 2; seats <= OD_MAX_SEATS; seats++) {
            od_config config;
            od_config_default(&config, seats, a);
            od_error error;
            if (od_init(&fresh[a][seats], &config, &board, &error) != OD_OK) {
                fprintf(stderr, "adventure %d, %d players: %s\n", a, seats, error.message);
                return 1;
            }
        }
    return 0;
}

static const od_state *new_game(long g) { return &fresh[adventure_of(g)][seats_of(g)]; }

static int speed(long games)
{
    static od_state state;
    long played[ADVENTURES + 1] = {0}, turns[ADVENTURES + 1] = {0}, all_turns = 0;
    double spent[ADVENTURES + 1] = {0};
    double started = bench_seconds();
    for (long g = 0; g < games; g++) {
        int a = adventure_of(g);
        double game_started = bench_seconds();
        state = *new_game(g);
        od_error error;
        if (od_random_game(&state, (uint64_t)g + 1, NULL, NULL, &error) != OD_OK) {
            fprintf(stderr, "adventure %d, %d players, seed %ld: %s\n", a, seats_of(g), g + 1,
                    error.message);
            return 1;
        }
        spent[a] += bench_seconds() - game_started;
        played[a]++;
        turns[a] += state.turns;
        all_turns += state.turns;
    }
    double elapsed = bench_seconds() - started;
    double rate = (double)games / elapsed;
    printf("speed: %ld games (seeds 1..%ld, adventures 1-6 and 2-4 players in turn): %.0f games/s "
           "on one core (target >= 5000: %s), %.1f us a game, %.1f turns a game\n",
           games, games, rate, rate >= 5000 ? "met" : "MISSED", elapsed * 1e6 / (double)games,
           (double)all_turns / (double)games);
    for (int a = 1; a <= ADVENTURES; a++)
        if (played[a])
            printf("  %-24s %8.0f games/s, %7.1f us a game, %6.1f turns a game\n",
                   adventure_names[a], (double)played[a] / spent[a],
                   spent[a] * 1e6 / (double)played[a], (double)turns[a] / (double)played[a]);
    return 0;
}

typedef struct replay {
    od_state state;
    long line;
    bool failed;
    char reason[400];
} replay;

static void replay_line(void *context, const char *line)
{
    replay *r = context;
    if (r->failed)
        return;
    r->line++;
    od_error error;
    char message[160];
    if (od_play_line(&r->state, line, NULL, &error) != OD_OK) {
        r->failed = true;
        snprintf(r->reason, sizeof r->reason, "line %ld '%.200s': %.160s", r->line, line,
                 error.message);
    } else if (!od_verify(&r->state, message, sizeof message)) {
        r->failed = true;
        snprintf(r->reason, sizeof r->reason, "line %ld '%.200s': od_verify: %.160s", r->line,
                 line, message);
    }
}

static int soak(long games)
{
    static od_state state;
    static replay r;
    long lines = 0, broken_games = 0, broken[ADVENTURES + 1] = {0}, ends[ADVENTURES + 1][ENDS];
    memset(ends, 0, sizeof ends);
    for (long g = 0; g < games; g++) {
        int a = adventure_of(g), seats = seats_of(g);
        uint64_t seed = (uint64_t)g * 977 + 3;
        state = *new_game(g);
        r.state = state;
        r.line = 0;
        r.failed = false;
        od_error error;
        char message[160];
        int32_t played[OD_MAX_SEATS] = {0}, replayed[OD_MAX_SEATS] = {0};
        const char *broke = NULL;
        if (od_random_game(&state, seed, replay_line, &r, &error) != OD_OK) {
            broke = r.failed ? r.reason : error.message;
        } else {
            od_scores(&state, played);
            od_scores(&r.state, replayed);
            broke = r.failed ? r.reason
                    : !od_verify(&state, message, sizeof message) ? message
                    : memcmp(played, replayed, sizeof played) != 0
                        ? "the replay's final scores differ"
                    : r.state.phase != OD_PHASE_OVER || state.phase != OD_PHASE_OVER
                        ? "the replay ends elsewhere"
                        : NULL;
        }
        lines += r.line;
        if (broke) { /* go on, to tell how many break; the exit status says so */
            if (broken_games++ < 20)
                fprintf(stderr, "adventure %d, %d players, seed %llu: %s\n", a, seats,
                        (unsigned long long)seed, broke);
            broken[a]++;
            continue;
        }
        ends[a][state.end < ENDS ? state.end : 0]++;
    }
    printf("soak: %ld games (adventures 1-6, 2-4 players), %ld lines replayed through the "
           "notation with od_verify after each: ", games, lines);
    if (broken_games)
        printf("%ld games broke an invariant (%ld printed above)\n", broken_games,
               broken_games < 20 ? broken_games : 20);
    else
        printf("no invariant broken, the same final scores\n");
    for (int a = 1; a <= ADVENTURES; a++) {
        printf("  %-24s ended by", adventure_names[a]);
        for (int e = 1; e < ENDS; e++)
            if (ends[a][e])
                printf(" %s %ld", end_names[e], ends[a][e]);
        if (broken[a])
            printf("; %ld broken", broken[a]);
        printf("\n");
    }
    return broken_games ? 1 : 0;
}

/* ---- reconcile ---- */

typedef struct tally {
    long tables, answers[4], by_board, exactly, stepwise, refused, astray;
} tally;

typedef struct seen_turns {
    od_state before;
    int adventure;
    tally all, per[ADVENTURES + 1];
    double *times;
    long time_count, time_capacity;
    bool failed;
    char reason[400];
} seen_turns;

/* od_observe clears the whole observation first (and it has no padding), as reconcile compares
 * it. */
static bool same_observation(const od_observation *a, const od_observation *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* Whether an explanation is the turn played: its cards among the played turn's, `unseen` fewer
 * (cards that left no trace are for the players to enter), in any order, and the same moves
 * (place, direction, distance) in the same order. Keys bought and extraordinary companions are
 * not compared. */
static bool same_cards_and_moves(const od_turn *explained, int unseen, const od_turn *played)
{
    int cards[OD_FIELDS] = {0}, extra = 0, moves_e = 0, moves_p = 0;
    const od_step *me[OD_MAX_STEPS], *mp[OD_MAX_STEPS];
    for (int i = 0; i < played->steps; i++) {
        const od_step *s = &played->step[i];
        if (s->kind == OD_STEP_CARD && s->place >= 0 && s->place < OD_FIELDS)
            cards[s->place]++, extra++;
        else if (s->kind == OD_STEP_MOVE)
            mp[moves_p++] = s;
    }
    for (int i = 0; i < explained->steps; i++) {
        const od_step *s = &explained->step[i];
        if (s->kind == OD_STEP_CARD) {
            if (s->place < 0 || s->place >= OD_FIELDS || cards[s->place]-- == 0)
                return false;
            extra--;
        } else if (s->kind == OD_STEP_MOVE) {
            me[moves_e++] = s;
        }
    }
    if (extra != unseen || moves_e != moves_p)
        return false;
    for (int i = 0; i < moves_e; i++)
        if (me[i]->place != mp[i]->place || me[i]->direction != mp[i]->direction ||
            me[i]->distance != mp[i]->distance)
            return false;
    return true;
}

/* The board after an explanation, played on a copy of before: through od_apply, or, when it
 * leaves out cards that left no trace (which od_apply counts as owed), step by step as
 * reconcile plays it. Returns 0 when od_apply took it, 1 step by step, -1 refused. */
static int play_explanation(const od_state *before, const od_explanation *x, od_observation *got,
                             od_error *error)
{
    static od_state game;
    game = *before;
    int how = 0;
    if (od_apply(&game, &x->turn, error) != OD_OK) {
        if (x->unseen <= 0)
            return -1;
        game = *before;
        for (int i = 0; i < x->turn.steps; i++)
            if (od_step_apply(&game, &x->turn.step[i], error) != OD_OK)
                return -1;
        how = 1;
    }
    od_observe(&game, got);
    return how;
}

static void record_time(seen_turns *t, double ms)
{
    if (t->time_count == t->time_capacity) {
        t->time_capacity = t->time_capacity ? 2 * t->time_capacity : 4096;
        double *grown = realloc(t->times, sizeof *t->times * (size_t)t->time_capacity);
        if (!grown) {
            fprintf(stderr, "reconcile: out of memory\n");
            exit(1);
        }
        t->times = grown;
    }
    t->times[t->time_count++] = ms;
}

static void reconcile_line(void *context, const char *line)
{
    seen_turns *t = context;
    static od_state after;
    static od_line parsed;
    static od_reconcile_result result;
    if (t->failed)
        return;
    after = t->before;
    od_error error;
    if (od_play_line(&after, line, &parsed, &error) != OD_OK) {
        t->failed = true;
        snprintf(t->reason, sizeof t->reason, "'%.200s': %.160s", line, error.message);
        return;
    }
    if (parsed.kind == OD_LINE_TURN) {
        od_observation seen, got;
        od_observe(&after, &seen);
        double started = bench_seconds();
        od_reconcile(&t->before, &seen, &result);
        double ms = (bench_seconds() - started) * 1e3;
        record_time(t, ms);

        tally *per = &t->per[t->adventure];
        bool by_board = false, exactly = false;
        if (result.answer == OD_RECONCILE_UNCHANGED) {
            od_observe(&t->before, &got);
            by_board = same_observation(&got, &seen);
            exactly = by_board;
            for (int i = 0; i < parsed.turn.steps; i++)
                exactly = exactly && parsed.turn.step[i].kind != OD_STEP_MOVE;
        }
        int kept = result.count < OD_MAX_EXPLANATIONS ? result.count : OD_MAX_EXPLANATIONS;
        for (int i = 0; i < kept; i++) {
            const od_explanation *x = &result.explanations[i];
            int how = play_explanation(&t->before, x, &got, &error);
            if (how < 0) {
                t->all.refused++, per->refused++;
                if (getenv("BENCH_VERBOSE"))
                    fprintf(stderr, "refused (adventure %d, unseen %d): %s: %s\n", t->adventure,
                            x->unseen, error.message, line);
                continue;
            }
            if (how > 0)
                t->all.stepwise++, per->stepwise++;
            if (same_observation(&got, &seen))
                by_board = true;
            else
                t->all.astray++, per->astray++;
            exactly = exactly || same_cards_and_moves(&x->turn, x->unseen, &parsed.turn);
        }
        int answer = result.answer >= 0 && result.answer < 4 ? (int)result.answer : 3;
        t->all.tables++, per->tables++;
        t->all.answers[answer]++, per->answers[answer]++;
        t->all.by_board += by_board, per->by_board += by_board;
        t->all.exactly += exactly, per->exactly += exactly;
        if (getenv("BENCH_VERBOSE") && (ms > 1.0 || !by_board))
            fprintf(stderr, "%s (adventure %d, %.3f ms, answer %d, %d explanations): %s\n",
                    by_board ? "slow" : "not explained", t->adventure, ms, answer, result.count,
                    line);
    }
    t->before = after;
}

static void print_answers(const char *label, const tally *c)
{
    printf("  %-24s %6ld turns: %ld unchanged, %ld explained, %ld ambiguous, %ld none; "
           "the turn played found by the board %ld (%.1f%%), exactly %ld (%.1f%%)\n",
           label, c->tables, c->answers[OD_RECONCILE_UNCHANGED],
           c->answers[OD_RECONCILE_EXPLAINED], c->answers[OD_RECONCILE_AMBIGUOUS],
           c->answers[OD_RECONCILE_NONE], c->by_board,
           c->tables ? 100.0 * (double)c->by_board / (double)c->tables : 0.0, c->exactly,
           c->tables ? 100.0 * (double)c->exactly / (double)c->tables : 0.0);
}

static int reconcile(long games)
{
    static seen_turns t;
    static od_state state;
    for (long g = 0; g < games && !t.failed; g++) {
        state = *new_game(g);
        t.before = state;
        t.adventure = adventure_of(g);
        od_error error;
        if (od_random_game(&state, (uint64_t)g + 500, reconcile_line, &t, &error) != OD_OK) {
            t.failed = true;
            snprintf(t.reason, sizeof t.reason, "%.160s", error.message);
        }
        if (t.failed)
            fprintf(stderr, "reconcile: adventure %d, %d players, seed %ld: %s\n",
                    adventure_of(g), seats_of(g), g + 500, t.reason);
    }
    if (t.failed || !t.time_count) {
        if (!t.failed)
            fprintf(stderr, "reconcile: no turn to reconcile\n");
        free(t.times);
        return 1;
    }
    qsort(t.times, (size_t)t.time_count, sizeof *t.times, bench_compare_doubles);
    long n = t.time_count;
    printf("reconcile: %ld games (adventures 1-6, 2-4 players), %ld turns seen\n", games, n);
    printf("  time: median %.3f ms, p95 %.3f, p99 %.3f, max %.3f (budget 1 ms)\n", t.times[n / 2],
           t.times[n * 95 / 100], t.times[n * 99 / 100], t.times[n - 1]);
    print_answers("all", &t.all);
    for (int a = 1; a <= ADVENTURES; a++)
        print_answers(adventure_names[a], &t.per[a]);
    printf("  explanations refused: %ld; played step by step (cards left unseen, which od_apply "
           "counts as owed): %ld; played but leading elsewhere: %ld\n", t.all.refused,
           t.all.stepwise, t.all.astray);
    printf("  (found by the board: one explanation, played on the state before, is observed as "
           "the turn played was; exactly: one has the turn's cards, but those left unseen, and "
           "the same moves, place, direction and distance)\n");
    free(t.times);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "speed";
    long games = argc > 2 ? atol(argv[2]) : 0;
    if (load_board() != 0 || make_fresh_games() != 0)
        return 1;
    if (strcmp(mode, "speed") == 0)
        return speed(games > 0 ? games : 20000);
    if (strcmp(mode, "soak") == 0)
        return soak(games > 0 ? games : 10000);
    if (strcmp(mode, "reconcile") == 0)
        return reconcile(games > 0 ? games : 200);
    fprintf(stderr, "usage: bench_odysseeland speed|soak|reconcile [GAMES]\n");
    return 2;
}
