/*
 * Expéditions – Autour du Monde (RULES.md §3) on the stand-in world map: the setup, the rule
 * book's "exemple de début de partie" (fixtures/games/expeditions-book-example.txt), each rule
 * of a turn and its refusal in plain words, each EX-ENGINE decision of rules/expeditions.h, the
 * end and the scores, random games replayed through the notation with the invariants after
 * every line, the notation's round trip, the legal steps, reconcile, and a fuzz of the notation.
 *
 * Games are driven through the notation (play, refused); far places are reached along routes
 * the test finds with a breadth-first search over the board's graph (route, walk), never along
 * routes written by hand. Three fixtures edit a state directly, each keeping the invariants
 * (ex_verify) and saying so where it does: the ticket supply emptied, the deck emptied, the
 * deck cut to two cards and then one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "board_file.h"
#include "expeditions_internal.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GREEN, PURPLE, ORANGE, BLACK, WHITE, PINK };
enum { YELLOW = EX_YELLOW, RED = EX_RED, BLUE = EX_BLUE };

#define LINE_LENGTH 1024 /* the notation's longest line (RULES_TEXT_MAX) */
#define PLACES 80
#define ALL_ARROWS (EX_EXPEDITIONS * EX_ARROWS)

static int board_handle;      /* the stand-in map, loaded once by setup_board */
static const ex_board *board;

static int setup_board(void **state_)
{
    (void)state_;
    const char *text = NULL;
    size_t length = 0;
    if (!board_file_builtin("expeditions", &text, &length))
        return -1;
    ex_board *loaded = malloc(sizeof *loaded);
    char error[256] = "";
    bool read = loaded && board_file_parse(text, length, "the built-in board", loaded, error,
                                           sizeof error);
    int handle = read ? ex_board_add(loaded) : 0;
    free(loaded);
    if (!read) {
        print_error("the built-in board is refused: %s\n", error);
        return -1;
    }
    board_handle = handle;
    board = ex_board_get(handle);
    return board ? 0 : -1;
}

/* ---- the board by name ---- */

static int circle(const char *id)
{
    int c = ex_board_circle(board, id, strlen(id));
    if (c == EX_NONE)
        fail_msg("'%s' is not a circle of the stand-in map", id);
    return c;
}

static int node(const char *id)
{
    return board->circles[circle(id)].node;
}

static int card(const char *id)
{
    int c = board->nodes[node(id)].card;
    if (c == EX_NONE)
        fail_msg("'%s' is not a place", id);
    return c;
}

static const char *id_of(int n)
{
    return ex_node_id(board, n);
}

/* The node at the other end of a segment. */
static int across(int segment, int from)
{
    const ex_segment *s = &board->segments[segment];
    return s->node[0] == from ? s->node[1] : s->node[0];
}

/* ---- playing lines ---- */

static void check_invariants(const ex_state *s)
{
    ex_error error = {""};
    if (ex_verify(s, &error) != EX_OK)
        fail_msg("invariant broken: %s", error.message);
}

/* Plays a line that must be accepted, then checks the invariants. */
static void play(ex_state *s, const char *line)
{
    ex_error error = {""};
    if (ex_play_line(s, line, NULL, &error) != EX_OK)
        fail_msg("'%s' refused: %s", line, error.message);
    check_invariants(s);
}

static void playf(ex_state *s, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void playf(ex_state *s, const char *format, ...)
{
    char line[LINE_LENGTH];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    play(s, line);
}

#define PLAY(s, ...)                                                                              \
    do {                                                                                          \
        static const char *const lines_[] = {__VA_ARGS__, NULL};                                  \
        for (const char *const *l_ = lines_; *l_; l_++)                                           \
            play((s), *l_);                                                                       \
    } while (0)

/* Plays a line that must be refused with this status and words in the message, leaving the
 * state as it was. */
static void refused_as(ex_state *s, const char *line, ex_status status, const char *words)
{
    ex_state before = *s;
    ex_error error = {""};
    ex_status got = ex_play_line(s, line, NULL, &error);
    if (got == EX_OK)
        fail_msg("'%s' accepted; expected a refusal with '%s'", line, words);
    if (!strstr(error.message, words))
        fail_msg("'%s': expected '%s' in '%s'", line, words, error.message);
    if (got != status)
        fail_msg("'%s': status %d, expected %d (%s)", line, got, status, error.message);
    assert_memory_equal(&before, s, sizeof before);
}

static void refused(ex_state *s, const char *line, const char *words)
{
    refused_as(s, line, EX_ILLEGAL, words);
}

static void bad_notation(ex_state *s, const char *line, const char *words)
{
    refused_as(s, line, EX_BAD_NOTATION, words);
}

/* ---- games ---- */

static ex_state new_game(int seats)
{
    ex_config config;
    ex_config_default(&config, seats);
    config.board = board_handle;
    ex_state s;
    ex_error error = {""};
    if (ex_init(&s, &config, &error) != EX_OK)
        fail_msg("ex_init: %s", error.message);
    return s;
}

/* The common objectives of ready_game: away from the routes the tests take, but Troy, three
 * arrows from the start (start, rome, b3, troy). */
static const char objectives_line[] =
    "objectives troy angkor-wat great-wall easter-island cape-horn milford-sound";

/* The key locations of each seat in ready_game, all at least 3 segments from the start. */
static const char *const key_locations[EX_MAX_SEATS][EX_TOKENS] = {
    {"harappa", "lhasa", "uluru", "mount-fuji"},             /* green */
    {"babylon", "guatemala", "victoria-falls", "galapagos"}, /* purple */
    {"samarkand", "timbuktu", "komodo", "bagan"},            /* orange */
    {"el-dorado", "kilimanjaro", "angel-falls", "taj-mahal"}, /* black */
    {"persepolis", "everest", "kakadu", "banff"},            /* white */
    {"petra", "denali", "churchill", "yellowstone"},         /* pink */
};

/* A game in its play phase: objectives_line, then every seat's key_locations in turn. */
static ex_state ready_game(int seats)
{
    ex_state s = new_game(seats);
    play(&s, objectives_line);
    for (int k = 0; k < EX_TOKENS; k++)
        for (int seat = 0; seat < seats; seat++)
            playf(&s, "token %s", key_locations[seat][k]);
    assert_int_equal(s.phase, EX_PHASE_PLAY);
    assert_int_equal(s.active, GREEN);
    return s;
}

static int32_t score(const ex_state *s, int seat)
{
    int32_t scores[EX_MAX_SEATS];
    ex_scores(s, scores);
    return scores[seat];
}

static bool is_objective(const ex_state *s, int c)
{
    for (int k = 0; k < EX_OBJECTIVES; k++)
        if (s->objectives[k] == c)
            return true;
    return false;
}

static int arrows_on_board(const ex_state *s)
{
    int n = 0;
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        n += s->trails[e].count;
    return n;
}

/* The node the expedition's last arrow points to. */
static int last_to(const ex_state *s, int e)
{
    const ex_trail *t = &s->trails[e];
    assert_true(t->count > 0);
    return ex_arrow_to(board, t->arrows[t->count - 1]);
}

/*
 * A shortest way for the expedition from its tip to target through circles it has not visited
 * and past no common objective (the target may be one): the nodes after the tip, the target
 * last. Its length, or 0 when there is none.
 */
static int route(const ex_state *s, int e, int target, int path[EX_MAX_CIRCLES])
{
    int tip = ex_tip(s, e);
    assert_true(tip != EX_NONE);
    int previous[EX_MAX_CIRCLES], queue[EX_MAX_CIRCLES], head = 0, tail = 0;
    for (int i = 0; i < EX_MAX_CIRCLES; i++)
        previous[i] = -2;
    previous[tip] = -1;
    queue[tail++] = tip;
    while (head < tail && previous[target] == -2) {
        int n = queue[head++];
        const ex_node *x = &board->nodes[n];
        for (int i = 0; i < x->degree; i++) {
            int m = across(x->segment[i], n);
            int c = board->nodes[m].card;
            if (previous[m] != -2 || ex_visited(s, e, m) ||
                (m != target && c != EX_NONE && is_objective(s, c)))
                continue;
            previous[m] = n;
            queue[tail++] = m;
        }
    }
    if (previous[target] == -2)
        return 0;
    int length = 0;
    for (int n = target; n != tip; n = previous[n])
        length++;
    int at = length;
    for (int n = target; n != tip; n = previous[n])
        path[--at] = n;
    return length;
}

/* Leads the expedition to target along route(), one arrow a turn, the seats playing in turn
 * (blue circles' bonus arrows declined). */
static void walk(ex_state *s, int e, const char *target)
{
    int path[EX_MAX_CIRCLES];
    int length = route(s, e, node(target), path);
    if (length == 0)
        fail_msg("no way for %s to %s", ex_expedition_name(e), target);
    for (int i = 0; i < length; i++)
        playf(s, "%s %s", ex_expedition_name(e), id_of(path[i]));
    assert_int_equal(last_to(s, e), node(target));
}

/* ---- random numbers of the test (deterministic) ---- */

static uint64_t next_random(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

static int below(uint64_t *rng, int n)
{
    return (int)(next_random(rng) % (uint64_t)n);
}

/* ---- turns built step by step, then played as a line ---- */

/* A random free arrow of the expedition, to a circle it has not visited when there is one. */
static ex_step free_arrow(const ex_state *s, int e, uint64_t *rng)
{
    ex_step steps[512];
    size_t n = ex_free_arrows(s, e, EX_STEP_ARROW, steps, 512);
    assert_true(n > 0 && n <= 512);
    int fresh[512], k = 0;
    for (size_t i = 0; i < n; i++)
        if (!ex_visited(s, e, board->circles[steps[i].to].node))
            fresh[k++] = (int)i;
    return k ? steps[fresh[below(rng, k)]] : steps[below(rng, (int)n)];
}

/* A card that may be turned up as a new objective: not laid, not face up, no token. */
static int spare_card(const ex_state *s)
{
    for (int c = 0; c < board->place_count; c++)
        if (s->laid[c] == EX_NOBODY && !is_objective(s, c) && s->token[c] == EX_NOBODY)
            return c;
    fail_msg("no spare card");
    return EX_NONE;
}

static void take(ex_state *g, ex_turn *t, ex_move *move, const ex_step *st)
{
    ex_error error = {""};
    if (ex_turn_step(g, t, st, &error) != EX_OK)
        fail_msg("a step of the test's own turn is refused: %s", error.message);
    assert_true(move->count < EX_MAX_STEPS);
    move->steps[move->count++] = *st;
}

/* One turn that extends the expedition by a random free arrow and pays what it owes (the card
 * turned up, the restart after a loop), played through the notation. */
static void extend(ex_state *s, int e, uint64_t *rng)
{
    ex_state g = *s;
    ex_turn t;
    ex_turn_begin(&g, &t);
    ex_move move = {.kind = EX_MOVE_TURN};
    ex_step st = free_arrow(&g, e, rng);
    take(&g, &t, &move, &st);
    for (;;) {
        if (t.objective_pending != EX_NONE) {
            st = (ex_step){.kind = EX_STEP_OBJECTIVE, .card = (uint8_t)spare_card(&g),
                           .from = EX_NONE, .to = EX_NONE};
        } else if (t.restart != EX_NONE) {
            st = free_arrow(&g, t.restart, rng);
        } else {
            break;
        }
        take(&g, &t, &move, &st);
    }
    char line[LINE_LENGTH];
    ex_format_move(s, &move, line, sizeof line);
    play(s, line);
}

/* An arrow from the expedition's free tip to a circle it visited, on a free segment: the
 * arrow that closes a loop. Its circle, or EX_NONE. */
static int loop_closer(const ex_state *s, int e)
{
    int tip = ex_tip(s, e);
    if (tip == EX_NONE)
        return EX_NONE;
    const ex_node *x = &board->nodes[tip];
    for (int i = 0; i < x->degree; i++) {
        int m = across(x->segment[i], tip);
        if (!ex_segment_used(s, e, x->segment[i]) && ex_visited(s, e, m))
            return board->nodes[m].circle;
    }
    return EX_NONE;
}

/* Yellow with 44 arrows, its free tip next to a circle it visited: made by playing random
 * extensions (extend) from ready_game, seed after seed until one ends that way. */
static ex_state yellow_at_44(void)
{
    for (uint64_t seed = 1; seed < 500; seed++) {
        ex_state s = ready_game(4);
        uint64_t rng = seed;
        while (s.trails[YELLOW].count < EX_ARROWS - 1)
            extend(&s, YELLOW, &rng);
        if (s.trails[YELLOW].count == EX_ARROWS - 1 && loop_closer(&s, YELLOW) != EX_NONE)
            return s;
    }
    fail_msg("no seed leaves yellow at 44 arrows next to a loop");
    return new_game(4);
}

/* ---- random games ---- */

/* A random game (its lines in lines when not NULL); returns the final state it played. */
static ex_state random_game(int seats, uint64_t seed, test_lines *lines)
{
    ex_state s = new_game(seats);
    ex_error error = {""};
    if (ex_random_game(&s, seed, lines ? test_lines_collect : NULL, lines, &error) != EX_OK)
        fail_msg("random game of %d seats, seed %llu: %s", seats, (unsigned long long)seed,
                 error.message);
    assert_int_equal(s.phase, EX_PHASE_OVER);
    return s;
}

/* The same game: every field that the rules read, compared one by one. */
static bool same_state(const ex_state *a, const ex_state *b)
{
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        const ex_trail *x = &a->trails[e], *y = &b->trails[e];
        if (x->count != y->count || x->closed != y->closed ||
            memcmp(x->visited, y->visited, sizeof x->visited) != 0 ||
            memcmp(x->used, y->used, sizeof x->used) != 0)
            return false;
        for (int i = 0; i < x->count; i++)
            if (x->arrows[i].segment != y->arrows[i].segment ||
                x->arrows[i].forward != y->arrows[i].forward)
                return false;
    }
    return a->phase == b->phase && a->active == b->active && a->turns == b->turns &&
           memcmp(a->objectives, b->objectives, sizeof a->objectives) == 0 &&
           memcmp(a->laid, b->laid, sizeof a->laid) == 0 &&
           memcmp(a->token, b->token, sizeof a->token) == 0 &&
           memcmp(a->hand, b->hand, sizeof a->hand) == 0 &&
           memcmp(a->tokens_placed, b->tokens_placed, sizeof a->tokens_placed) == 0 &&
           memcmp(a->tokens_recovered, b->tokens_recovered, sizeof a->tokens_recovered) == 0 &&
           memcmp(a->tickets, b->tickets, sizeof a->tickets) == 0 &&
           memcmp(a->swaps, b->swaps, sizeof a->swaps) == 0 &&
           a->ticket_supply == b->ticket_supply && a->deck == b->deck && a->ending == b->ending;
}

/* The conservation laws, counted here rather than trusted to ex_verify. */
static void check_conservation(const ex_state *s)
{
    int seats = s->config.seats;
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        assert_true(s->trails[e].count <= EX_ARROWS);
    int cards = s->deck, tickets = s->ticket_supply;
    for (int k = 0; k < EX_OBJECTIVES; k++)
        cards += s->objectives[k] != EX_NO_CARD;
    for (int c = 0; c < board->place_count; c++)
        cards += s->laid[c] != EX_NOBODY;
    for (int i = 0; i < seats; i++) {
        cards += s->hand[i];
        tickets += s->tickets[i];
        int on_board = 0;
        for (int c = 0; c < board->place_count; c++)
            on_board += s->token[c] == i;
        if (s->phase >= EX_PHASE_PLAY)
            assert_int_equal(s->tokens_placed[i], EX_TOKENS);
        assert_int_equal(on_board + s->tokens_recovered[i], s->tokens_placed[i]);
    }
    if (s->phase != EX_PHASE_OBJECTIVES)
        assert_int_equal(cards, PLACES);
    assert_int_equal(tickets, EX_TICKETS);
}

/* ---- 1. the setup ---- */

static void test_ex_setup_objectives_three_segments_away(void **state_)
{
    (void)state_;
    assert_int_equal(board->place_count, PLACES);
    ex_state s = new_game(4);
    refused(&s, "objectives rome angkor-wat tunguska troy great-wall easter-island",
            "rome is 1 segment from the start: a common objective at the setup needs 3");
    refused(&s, "objectives troy angkor-wat tunguska caspian-sea great-wall easter-island",
            "caspian-sea is 2 segments from the start");
    refused(&s, "objectives troy angkor-wat tunguska troy great-wall easter-island",
            "troy is named twice");
    bad_notation(&s, "objectives troy angkor-wat tunguska atlantis great-wall easter-island",
                 "'atlantis' is not a circle of board stand-in-world-1");
    bad_notation(&s, "objectives troy angkor-wat tunguska b4 great-wall easter-island",
                 "'b4' is a blue circle, not a place");
    bad_notation(&s, "objectives troy angkor-wat r2 tunguska great-wall easter-island",
                 "'r2' is a red circle, not a place");
    bad_notation(&s, "objectives troy angkor-wat tunguska great-wall easter-island",
                 "the setup's objectives are 6 places");
    refused(&s, "token harappa", "the common objectives come first");
    refused(&s, "yellow rome", "the setup is not finished");

    play(&s, "objectives troy angkor-wat tunguska el-dorado great-wall easter-island");
    assert_int_equal(s.phase, EX_PHASE_TOKENS);
    assert_int_equal(s.active, GREEN);
    assert_int_equal(s.objectives[0], card("troy"));
    assert_int_equal(s.objectives[5], card("easter-island"));
    assert_int_equal(s.deck, PLACES - 4 * 9 - EX_OBJECTIVES);
    refused(&s, "objectives troy angkor-wat tunguska el-dorado great-wall easter-island",
            "the common objectives are set once");
}

static void test_ex_setup_key_locations_in_seat_order(void **state_)
{
    (void)state_;
    ex_state s = new_game(4);
    play(&s, objectives_line);
    refused(&s, "purple: token harappa", "it is green's turn, not purple's");
    refused(&s, "token rome", "rome is 1 segment from the start: a key location needs 3");
    refused(&s, "token zagorsk", "zagorsk is 2 segments from the start");
    refused(&s, "token troy", "troy is a common objective");
    bad_notation(&s, "token b1", "'b1' is a blue circle, not a place");
    refused(&s, "yellow rome", "the setup is not finished");
    play(&s, "green: token harappa");
    assert_int_equal(s.token[card("harappa")], GREEN);
    assert_int_equal(s.active, PURPLE);
    refused(&s, "token harappa", "harappa already holds green's token: one card per place");
    for (int k = 0; k < EX_TOKENS; k++)
        for (int seat = 0; seat < 4; seat++) {
            if (k == 0 && seat == GREEN)
                continue;
            assert_int_equal(s.phase, EX_PHASE_TOKENS);
            assert_int_equal(s.active, seat);
            assert_int_equal(s.tokens_placed[seat], k);
            playf(&s, "%s: token %s", s.config.colours[seat], key_locations[seat][k]);
        }
    assert_int_equal(s.phase, EX_PHASE_PLAY);
    assert_int_equal(s.active, GREEN);
    for (int seat = 0; seat < 4; seat++) {
        assert_int_equal(s.tokens_placed[seat], EX_TOKENS);
        for (int k = 0; k < EX_TOKENS; k++)
            assert_int_equal(s.token[card(key_locations[seat][k])], seat);
    }
    refused(&s, "token persepolis", "the key locations are all marked");
    assert_int_equal(s.turns, 0);
}

static void test_ex_setup_deal_tickets_and_colours(void **state_)
{
    (void)state_;
    for (int seats = 2; seats <= EX_MAX_SEATS; seats++) {
        int dealt = seats <= 3 ? 12 : 9;
        assert_int_equal(ex_deal_size(seats), dealt);
        ex_state s = new_game(seats);
        for (int i = 0; i < EX_MAX_SEATS; i++) {
            assert_int_equal(s.hand[i], i < seats ? dealt : 0);
            assert_int_equal(s.tickets[i], i < seats ? EX_START_TICKETS : 0);
        }
        assert_int_equal(s.deck, PLACES - seats * dealt);
        assert_int_equal(s.ticket_supply, EX_TICKETS - EX_START_TICKETS * seats);
        for (int e = 0; e < EX_EXPEDITIONS; e++) {
            assert_int_equal(s.trails[e].count, 0);
            assert_int_equal(ex_tip(&s, e), board->start);
        }
        check_invariants(&s);
        s = ready_game(seats);
        assert_int_equal(s.deck, PLACES - seats * dealt - EX_OBJECTIVES);
        check_conservation(&s);
        for (int i = 0; i < seats; i++)
            assert_int_equal(score(&s, i), -dealt - EX_TOKENS);
    }
    /* EX-ENGINE-7: the seats' default colours; yellow, red and blue name the expeditions */
    ex_config config;
    ex_config_default(&config, 6);
    static const char *const colours[] = {"green", "purple", "orange", "black", "white", "pink"};
    for (int i = 0; i < EX_MAX_SEATS; i++)
        assert_string_equal(config.colours[i], colours[i]);
    ex_state s;
    ex_error error = {""};
    config.board = board_handle;
    snprintf(config.colours[1], EX_COLOUR_MAX, "red");
    assert_int_equal(ex_init(&s, &config, &error), EX_BAD_CONFIG);
    assert_non_null(strstr(error.message, "EX-ENGINE-7"));
    ex_config_default(&config, 7);
    config.board = board_handle;
    assert_int_equal(ex_init(&s, &config, &error), EX_BAD_CONFIG);
    assert_non_null(strstr(error.message, "played by 2 to 6"));
    ex_config_default(&config, 1);
    assert_int_equal(ex_init(&s, &config, &error), EX_BAD_CONFIG);
    ex_config_default(&config, 3);
    assert_int_equal(ex_init(&s, &config, &error), EX_BAD_CONFIG);
    assert_non_null(strstr(error.message, "no board"));
}

/* ---- 2. the rule book's example ---- */

/* The book's steps 1-5, the fixture script played line by line, each step checked. Seats:
 * green Philippe, purple Morgane, orange Bernard, black Charles. */
static void test_ex_book_example_steps_one_to_five(void **state_)
{
    (void)state_;
    /* after each step: arrows of yellow, red, blue; then per seat the score, the tickets and the
     * cards in hand */
    static const int arrows[5][EX_EXPEDITIONS] = {
        {1, 0, 0}, {1, 2, 0}, {1, 4, 0}, {1, 4, 3}, {1, 4, 3}};
    static const int scores[5][4] = {{-13, -13, -13, -13},
                                     {-13, -13, -13, -13},
                                     {-13, -13, -9, -13},
                                     {-13, -13, -9, -12},
                                     {-11, -13, -9, -12}};
    static const int tickets[5][4] = {
        {3, 3, 3, 3}, {3, 3, 3, 3}, {3, 3, 2, 3}, {3, 3, 2, 2}, {2, 3, 2, 2}};
    static const int hands[5][4] = {
        {9, 9, 9, 9}, {9, 9, 9, 9}, {9, 9, 8, 9}, {9, 9, 8, 9}, {8, 9, 8, 9}};
    static const char *const tips[5][EX_EXPEDITIONS] = {
        {"rome", "start", "start"},
        {"rome", "caspian-sea", "start"},
        {"rome", "harappa", "start"},
        {"rome", "harappa", "putorana-plateau"},
        {"rome", "petra", "putorana-plateau"}};
    size_t size = 0;
    char *script = test_read_file(FIXTURES_DIR "/games/expeditions-book-example.txt", &size);
    assert_non_null(script);
    ex_state s = new_game(4);
    int step = 0;
    for (char *line = strtok(script, "\n"); line; line = strtok(NULL, "\n")) {
        uint16_t turns = s.turns;
        play(&s, line);
        if (s.turns == turns)
            continue;
        assert_true(step < 5);
        int32_t score_now[EX_MAX_SEATS];
        ex_scores(&s, score_now);
        for (int e = 0; e < EX_EXPEDITIONS; e++) {
            assert_int_equal(s.trails[e].count, arrows[step][e]);
            assert_int_equal(ex_tip(&s, e), node(tips[step][e]));
        }
        for (int seat = 0; seat < 4; seat++) {
            assert_int_equal(score_now[seat], scores[step][seat]);
            assert_int_equal(s.tickets[seat], tickets[step][seat]);
            assert_int_equal(s.hand[seat], hands[step][seat]);
        }
        assert_int_equal(s.active, (step + 1) % 4);
        switch (++step) {
        case 2: /* Morgane's red arrow reached the blue circle: its bonus, no ticket */
            assert_true(ex_visited(&s, RED, node("b1")));
            break;
        case 3: /* Bernard laid Harappa, his key location, and took his token back */
            assert_int_equal(s.laid[card("harappa")], ORANGE);
            assert_int_equal(s.token[card("harappa")], EX_NOBODY);
            assert_int_equal(s.tokens_recovered[ORANGE], 1);
            assert_int_equal(s.ticket_supply, EX_TICKETS - 12 + 1);
            break;
        case 4: /* Charles took the Putorana Plateau, a common objective; a new card is up */
            assert_int_equal(s.laid[card("putorana-plateau")], BLACK);
            assert_int_equal(ex_cards_laid(&s, BLACK), 1);
            assert_int_equal(s.objectives[0], card("teotihuacan"));
            assert_false(is_objective(&s, card("putorana-plateau")));
            assert_int_equal(s.deck, PLACES - 36 - EX_OBJECTIVES - 1);
            break;
        case 5: /* Philippe took red back from Harappa and led it to Petra, his objective */
            assert_false(ex_visited(&s, RED, node("harappa")));
            assert_int_equal(s.laid[card("petra")], GREEN);
            assert_int_equal(s.laid[card("harappa")], ORANGE); /* a laid card stays laid */
            assert_int_equal(s.tokens_recovered[ORANGE], 1);
            break;
        default:
            break;
        }
    }
    free(script);
    assert_int_equal(step, 5);
    assert_int_equal(s.turns, 5);
}

/* ---- 3. arrows ---- */

static bool same_step(const ex_step *a, const ex_step *b)
{
    return a->kind == b->kind && a->expedition == b->expedition && a->from == b->from &&
           a->to == b->to;
}

static bool listed(const ex_step *steps, size_t n, const ex_step *step)
{
    for (size_t i = 0; i < n; i++)
        if (same_step(&steps[i], step))
            return true;
    return false;
}

static void test_ex_arrow_first_leaves_the_start(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    refused(&s, "yellow troy", "no segment joins start and troy");
    refused(&s, "yellow caspian-sea", "no segment joins start and caspian-sea");
    refused(&s, "red zagorsk from b1", "the red expedition goes on from its tip, start");
    ex_turn turn;
    ex_turn_begin(&s, &turn);
    ex_step steps[256];
    size_t n = ex_free_arrows(&s, YELLOW, EX_STEP_ARROW, steps, 256);
    assert_int_equal(n, 6);
    static const char *const joined[] = {"rome", "b1", "geirangerfjord", "stonehenge", "r1",
                                         "b2"};
    for (int i = 0; i < 6; i++) {
        ex_step arrow = {.kind = EX_STEP_ARROW, .expedition = YELLOW, .from = EX_NONE,
                         .to = (int16_t)circle(joined[i])};
        assert_true(listed(steps, n, &arrow));
        ex_state copy = s;
        playf(&copy, "yellow %s", joined[i]);
        assert_int_equal(copy.trails[YELLOW].count, 1);
        assert_int_equal(ex_arrow_from(board, copy.trails[YELLOW].arrows[0]), board->start);
    }
    /* naming the start as the circle it leaves from is the same arrow */
    ex_state named = s, plain = s;
    play(&named, "yellow rome from start");
    play(&plain, "yellow rome");
    assert_true(same_state(&named, &plain));
}

static void test_ex_arrow_never_back_and_ex_engine_1(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    play(&s, "yellow rome");
    refused(&s, "yellow start", "never back along the segment just arrived by");
    play(&s, "yellow b2");
    refused(&s, "yellow rome", "never back along the segment just arrived by");
    /* b2 to the start closes a loop; the restart may not take a segment yellow already uses,
     * in either direction (EX-ENGINE-1) */
    refused(&s, "yellow start, yellow rome from start",
            "the yellow expedition already has an arrow between start and rome (EX-ENGINE-1)");
    refused(&s, "yellow start, yellow start from rome",
            "the yellow expedition already has an arrow between rome and start (EX-ENGINE-1)");
    refused(&s, "yellow start, yellow b2 from start",
            "never back along the segment just arrived by");
    refused(&s, "yellow start, yellow mont-saint-michel from b2, ticket yellow b2",
            "never back along the segment just arrived by");
    play(&s, "yellow start, yellow stonehenge from start");
    assert_int_equal(s.trails[YELLOW].count, 4);
    assert_int_equal(ex_tip(&s, YELLOW), node("stonehenge"));
}

static void test_ex_arrow_colours_share_segments(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    PLAY(&s, "yellow rome", "red rome", "blue b2", "yellow b2", "blue rome");
    /* yellow rome->b2 and blue b2->rome: one segment, both directions, two colours */
    int segment = ex_board_segment(board, node("rome"), node("b2"));
    assert_true(ex_segment_used(&s, YELLOW, segment));
    assert_true(ex_segment_used(&s, BLUE, segment));
    assert_false(ex_segment_used(&s, RED, segment));
    play(&s, "red b2");
    assert_true(ex_segment_used(&s, RED, segment));
    for (int e = 0; e < EX_EXPEDITIONS; e++)
        assert_int_equal(s.trails[e].closed, 0);
}

/* EX-ENGINE-5 and the end of an expedition: 45 arrows, the last closing a loop, which then owes
 * no restart; a full expedition cannot be chosen. The 44 arrows before are played as lines
 * (yellow_at_44), not set in the state. */
static void test_ex_arrow_full_expedition_and_last_loop(void **state_)
{
    (void)state_;
    ex_state s = yellow_at_44();
    int closer = loop_closer(&s, YELLOW);
    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "yellow %s", board->circles[closer].id);
    play(&s, line); /* a loop with no arrow left owes nothing */
    assert_int_equal(s.trails[YELLOW].count, EX_ARROWS);
    assert_int_equal(s.trails[YELLOW].closed, 1);
    assert_int_equal(ex_tip(&s, YELLOW), EX_NONE);
    assert_false(ex_can_extend(&s, YELLOW));
    assert_true(ex_can_extend(&s, RED));
    refused(&s, "yellow rome from start", "the yellow expedition has all its 45 arrows");
    refused(&s, "ticket yellow rome from start", "the yellow expedition has all its 45 arrows");
    ex_turn turn;
    ex_turn_begin(&s, &turn);
    ex_step steps[2048];
    size_t n = ex_legal_steps(&s, &turn, steps, 2048);
    assert_true(n > 0 && n <= 2048);
    for (size_t i = 0; i < n; i++)
        assert_true(steps[i].kind == EX_STEP_REMOVE || steps[i].kind == EX_STEP_SWAP ||
                    steps[i].expedition != YELLOW);
    refused(&s, "pass", "a turn extends one expedition by an arrow");
    play(&s, "red rome");
    /* a removal gives yellow an arrow back: the tip before the loop is free again */
    int tip = ex_arrow_from(board, s.trails[YELLOW].arrows[EX_ARROWS - 1]);
    play(&s, "ticket remove yellow, red b3");
    assert_int_equal(s.trails[YELLOW].count, EX_ARROWS - 1);
    assert_int_equal(ex_tip(&s, YELLOW), tip);
    assert_true(ex_can_extend(&s, YELLOW));
}

static void test_ex_arrow_blue_circle_bonus(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    ex_state declined = s, taken = s, other = s;
    play(&declined, "red b1"); /* the bonus may be declined (EX-ENGINE-2) */
    assert_int_equal(declined.trails[RED].count, 1);
    assert_int_equal(declined.active, PURPLE);
    play(&taken, "red b1, red caspian-sea");
    assert_int_equal(taken.trails[RED].count, 2);
    play(&other, "red b1, yellow rome"); /* for any expedition */
    assert_int_equal(other.trails[YELLOW].count, 1);
    refused(&s, "red b1, red caspian-sea, yellow rome",
            "the turn's arrow is placed: another needs a blue circle or a ticket");
    refused(&s, "yellow rome, red r1", "another needs a blue circle or a ticket");
    /* the bonus comes at once or not at all: a ticket used first ends it (EX-ENGINE-2) */
    refused(&s, "red b1, ticket swap, yellow rome", "another needs a blue circle or a ticket");
    ex_state lapsed = s;
    play(&lapsed, "red b1, ticket swap");
    assert_int_equal(lapsed.trails[RED].count, 1);
    /* two blue circles in a row give two bonus arrows */
    walk(&s, BLUE, "zagorsk");
    play(&s, "blue b10, blue b7, blue samarkand");
    assert_int_equal(ex_tip(&s, BLUE), node("samarkand"));
}

static void test_ex_arrow_red_circle_ticket(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    play(&s, "yellow r1");
    assert_int_equal(s.tickets[GREEN], EX_START_TICKETS + 1);
    assert_int_equal(s.ticket_supply, EX_TICKETS - 12 - 1);
    /* EX-ENGINE-6: with the supply empty, a red circle gives nothing. Fixture: the supply's
     * tickets handed to black (the invariants hold). */
    s.tickets[BLACK] = (uint8_t)(s.tickets[BLACK] + s.ticket_supply);
    s.ticket_supply = 0;
    check_invariants(&s);
    assert_int_equal(s.active, PURPLE);
    play(&s, "red r1");
    assert_int_equal(s.tickets[PURPLE], EX_START_TICKETS);
    assert_int_equal(s.ticket_supply, 0);
    /* a ticket spent goes back to the supply, and the next red circle takes it */
    play(&s, "ticket swap, blue r1");
    assert_int_equal(s.tickets[ORANGE], EX_START_TICKETS);
    assert_int_equal(s.ticket_supply, 0);
}

/* The wrap points: the two halves are one circle, a ticket on arrival, either half named, the
 * canonical text naming the half the arrow touches. */
static void test_ex_arrow_wrap_points(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    int wrap = node("wrap-north-east");
    assert_int_equal(wrap, node("wrap-north-west"));
    walk(&s, YELLOW, "r11");
    ex_line line;
    ex_error error = {""};
    assert_int_equal(ex_parse(&s, "yellow wrap-north-west", &line, &error), EX_OK);
    char text[LINE_LENGTH];
    ex_format_move(&s, &line.move, text, sizeof text);
    assert_string_equal(text, "yellow wrap-north-east"); /* r11 touches the east half */
    ex_state by_east = s;
    play(&by_east, "yellow wrap-north-east");
    int seat = s.active, tickets = s.tickets[seat];
    play(&s, "yellow wrap-north-west");
    assert_true(same_state(&s, &by_east));
    assert_int_equal(s.tickets[seat], tickets + 1);
    assert_int_equal(ex_tip(&s, YELLOW), wrap);

    /* on from either half's segments: Denali (west) or Kamchatka (east) */
    ex_step steps[64];
    size_t n = ex_free_arrows(&s, YELLOW, EX_STEP_ARROW, steps, 64);
    assert_int_equal(n, 2);
    ex_state west = s;
    seat = s.active;
    play(&west, "yellow denali");
    assert_int_equal(ex_tip(&west, YELLOW), node("denali"));
    assert_int_equal(ex_arrow_from(board, west.trails[YELLOW].arrows[west.trails[YELLOW].count - 1]),
                     wrap);
    assert_int_equal(west.tickets[seat], s.tickets[seat]); /* a place: no ticket */
    play(&s, "yellow kamchatka");
    /* back to r11 from Kamchatka: a loop, the restart from the wrap point named by either
     * half, its canonical text naming the west half that the arrow to Denali leaves */
    ex_state copy = s;
    assert_int_equal(ex_parse(&copy, "yellow r11, yellow denali from wrap-north-east", &line,
                              &error),
                     EX_OK);
    ex_format_move(&copy, &line.move, text, sizeof text);
    assert_string_equal(text, "yellow r11, yellow denali from wrap-north-west");
    play(&copy, "yellow r11, yellow denali from wrap-north-east");
    play(&s, text);
    assert_true(same_state(&s, &copy));
    assert_int_equal(ex_tip(&s, YELLOW), node("denali"));
}

/* ---- 4. claims ---- */

static void test_ex_claim_only_a_place_reached_this_turn(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    refused(&s, "yellow rome, green claims stonehenge",
            "stonehenge was not reached this turn: a card is laid when an expedition arrives");
    refused(&s, "purple claims rome, yellow rome", "rome was not reached this turn");
    play(&s, "yellow rome, purple claims rome"); /* not necessarily the seat that played */
    assert_int_equal(s.laid[card("rome")], PURPLE);
    assert_int_equal(s.hand[PURPLE], 8);
    assert_int_equal(s.hand[GREEN], 9);
    assert_int_equal(ex_cards_laid(&s, PURPLE), 1);
    refused(&s, "yellow b3, orange claims rome", "rome was not reached this turn");
    refused(&s, "red rome, orange claims rome", "the card of rome is already laid, by purple");
    refused(&s, "red stonehenge, orange claims stonehenge, orange claims stonehenge",
            "the card of stonehenge is already laid, by orange");
    bad_notation(&s, "red stonehenge, grey claims stonehenge", "'grey' is not a colour of this game");
    bad_notation(&s, "red stonehenge, yellow claims stonehenge", "an arrow is `red rome`");
    bad_notation(&s, "red stonehenge, claims stonehenge", "a step is");
    /* the claims of a turn: several seats, any expedition, in any order after the arrival */
    play(&s, "red b2, ticket red mont-saint-michel, black claims mont-saint-michel");
    assert_int_equal(s.laid[card("mont-saint-michel")], BLACK);
}


/* EX-ENGINE-4: a key location's token blocks every other seat's claim until its owner has
 * swapped a card; its owner's claim takes the token back. */
static void test_ex_claim_key_locations_ex_engine_4(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    PLAY(&s, "red b1", "red caspian-sea", "red babylon");
    assert_int_equal(s.active, BLACK);
    ex_state owner = s, other = s;
    refused(&other, "red harappa, purple claims harappa",
            "harappa holds green's token: green holds its card (EX-ENGINE-4)");
    /* its owner lays it: +1 laid, +1 recovered, and the -1 of a token on the board is gone */
    assert_int_equal(score(&owner, GREEN), -9 - 4);
    play(&owner, "red harappa, green claims harappa");
    assert_int_equal(owner.token[card("harappa")], EX_NOBODY);
    assert_int_equal(owner.tokens_recovered[GREEN], 1);
    assert_int_equal(owner.laid[card("harappa")], GREEN);
    assert_int_equal(owner.hand[GREEN], 8);
    assert_int_equal(score(&owner, GREEN), 1 + 1 - 8 - 3);

    /* once green has swapped a card, anyone may hold Harappa's card; the token stays */
    PLAY(&s, "yellow rome", "green: ticket swap, yellow b3");
    assert_int_equal(s.swaps[GREEN], 1);
    assert_int_equal(s.hand[GREEN], 9);
    assert_int_equal(s.tickets[GREEN], EX_START_TICKETS - 1);
    ex_state objective = s;
    play(&s, "red harappa, purple claims harappa");
    assert_int_equal(s.laid[card("harappa")], PURPLE);
    assert_int_equal(s.token[card("harappa")], GREEN);
    assert_int_equal(s.tokens_recovered[GREEN], 0);
    assert_int_equal(score(&s, GREEN), -9 - 4);
    assert_int_equal(score(&s, PURPLE), 1 - 8 - 4);
    /* the same for a card turned up as a common objective (refused before the swap in
     * test_ex_objective_taken_on_arrival_and_replaced) */
    play(&objective, "yellow troy, new objective harappa");
    assert_true(is_objective(&objective, card("harappa")));
    assert_int_equal(objective.token[card("harappa")], GREEN);
}

/* A seat may claim only while it holds cards. The 9 claims that empty purple's hand are
 * played as lines: arrows to places purple may claim, found from the expeditions' tips. */
static bool claimable(const ex_state *s, int seat, int *expedition, int *to)
{
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        int tip = ex_tip(s, e);
        if (tip == EX_NONE || s->trails[e].count >= EX_ARROWS)
            continue;
        const ex_node *x = &board->nodes[tip];
        for (int i = 0; i < x->degree; i++) {
            int m = across(x->segment[i], tip), c = board->nodes[m].card;
            if (ex_segment_used(s, e, x->segment[i]) || ex_visited(s, e, m) || c == EX_NONE ||
                s->laid[c] != EX_NOBODY || is_objective(s, c) ||
                (s->token[c] != EX_NOBODY && s->token[c] != seat))
                continue;
            *expedition = e;
            *to = m;
            return true;
        }
    }
    return false;
}

/* An arrow from a free tip to a circle its expedition has not visited, no common objective;
 * the expeditions taken in turn from `turn`. */
static bool plain_arrow(const ex_state *s, int turn, int *expedition, int *to)
{
    for (int k = 0; k < EX_EXPEDITIONS; k++) {
        int e = (turn + k) % EX_EXPEDITIONS, tip = ex_tip(s, e);
        if (tip == EX_NONE || s->trails[e].count >= EX_ARROWS)
            continue;
        const ex_node *x = &board->nodes[tip];
        for (int i = 0; i < x->degree; i++) {
            int m = across(x->segment[i], tip), c = board->nodes[m].card;
            if (ex_segment_used(s, e, x->segment[i]) || ex_visited(s, e, m) ||
                (c != EX_NONE && is_objective(s, c)))
                continue;
            *expedition = e;
            *to = m;
            return true;
        }
    }
    return false;
}

static void play_plain_arrow(ex_state *s)
{
    int e, to;
    if (!plain_arrow(s, s->turns, &e, &to))
        fail_msg("no plain arrow left");
    playf(s, "%s %s", ex_expedition_name(e), id_of(to));
}

/* Plays turns until purple holds one card, then until green may make purple's last claim. */
static ex_state purple_with_one_card_green_to_play(void)
{
    ex_state s = ready_game(4);
    int e, to;
    for (int guard = 0; s.hand[PURPLE] > 1; guard++) {
        assert_true(guard < 200);
        if (claimable(&s, PURPLE, &e, &to))
            playf(&s, "%s %s, purple claims %s", ex_expedition_name(e), id_of(to), id_of(to));
        else
            play_plain_arrow(&s);
    }
    for (int guard = 0; !(s.active == GREEN && claimable(&s, PURPLE, &e, &to)); guard++) {
        assert_true(guard < 200);
        play_plain_arrow(&s);
    }
    return s;
}

static void test_ex_claim_and_swap_need_a_card_in_hand(void **state_)
{
    (void)state_;
    ex_state s = purple_with_one_card_green_to_play();
    int e, to;
    assert_true(claimable(&s, PURPLE, &e, &to));
    playf(&s, "%s %s, purple claims %s", ex_expedition_name(e), id_of(to), id_of(to));
    assert_int_equal(s.hand[PURPLE], 0);
    assert_int_equal(ex_cards_laid(&s, PURPLE), 9);
    /* purple to play, with no card: no swap */
    assert_int_equal(s.active, PURPLE);
    assert_true(plain_arrow(&s, s.turns, &e, &to));
    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "ticket swap, %s %s", ex_expedition_name(e), id_of(to));
    refused(&s, line, "purple has no card to swap");
    play_plain_arrow(&s);
    /* nor a claim */
    assert_int_equal(s.active, ORANGE);
    if (!claimable(&s, ORANGE, &e, &to))
        fail_msg("orange has no place to reach");
    snprintf(line, sizeof line, "%s %s, purple claims %s", ex_expedition_name(e), id_of(to),
             id_of(to));
    refused(&s, line, "purple has no card left in hand");
}

static void test_ex_claim_at_the_tip_a_removal_leaves(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    PLAY(&s, "yellow rome", "yellow b3");
    refused(&s, "ticket remove yellow, orange claims troy", "troy was not reached this turn");
    play(&s, "ticket remove yellow, orange claims rome, yellow r2");
    assert_int_equal(s.laid[card("rome")], ORANGE);
    assert_int_equal(s.hand[ORANGE], 8);
    assert_int_equal(s.tickets[ORANGE], EX_START_TICKETS - 1 + 1); /* r2 gave one back */
    assert_int_equal(ex_tip(&s, YELLOW), node("r2"));
    /* a removal back to the start reaches nothing */
    ex_state start = ready_game(4);
    play(&start, "red r1");
    play(&start, "ticket remove red, blue rome");
    assert_int_equal(start.trails[RED].count, 0);
    assert_int_equal(ex_tip(&start, RED), board->start);
    assert_int_equal(start.tickets[PURPLE], EX_START_TICKETS - 1);
}

/* ---- 5. common objectives ---- */

static void test_ex_objective_taken_on_arrival_and_replaced(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    PLAY(&s, "yellow rome, green claims rome", "yellow b3, ticket red stonehenge");
    assert_int_equal(s.active, ORANGE);
    refused(&s, "yellow troy", "a common objective was taken: enter the card turned up "
                               "(new objective PLACE)");
    refused(&s, "yellow troy, ticket yellow b4",
            "a common objective was taken: the card turned up comes first");
    refused(&s, "new objective stonehenge, yellow troy",
            "no common objective was taken: none is turned up");
    refused(&s, "yellow troy, new objective rome", "the card of rome is already laid, by green");
    refused(&s, "yellow troy, new objective troy", "the card of troy is already laid, by orange");
    refused(&s, "yellow troy, new objective angkor-wat", "angkor-wat is already a common objective");
    refused(&s, "yellow troy, new objective harappa",
            "harappa holds green's token: green holds its card (EX-ENGINE-4)");
    bad_notation(&s, "yellow troy, new objective b4", "'b4' is a blue circle, not a place");
    int deck = s.deck;
    /* Stonehenge, red's tip, already visited, is turned up */
    play(&s, "yellow troy, new objective stonehenge");
    assert_int_equal(s.laid[card("troy")], ORANGE);
    assert_int_equal(ex_cards_laid(&s, ORANGE), 1);
    assert_int_equal(s.hand[ORANGE], 9);
    assert_int_equal(s.objectives[0], card("stonehenge"));
    assert_int_equal(s.deck, deck - 1);
    assert_int_equal(score(&s, ORANGE), 1 - 9 - 4);
    /* visited before it was turned up: taken only when an expedition reaches it again */
    play(&s, "red mont-saint-michel");
    assert_true(is_objective(&s, card("stonehenge")));
    assert_int_equal(s.laid[card("stonehenge")], EX_NOBODY);
    refused(&s, "blue stonehenge, green claims stonehenge",
            "the card of stonehenge is already laid, by green");
    play(&s, "blue stonehenge, new objective mont-saint-michel");
    assert_int_equal(s.laid[card("stonehenge")], GREEN);
    assert_int_equal(ex_cards_laid(&s, GREEN), 2);
    /* a removal's tip never takes an objective: Mont Saint-Michel, red's tip, turned up
     * after red reached it, is red's tip again once red's next arrow is taken back */
    play(&s, "red alhambra");
    assert_int_equal(s.active, ORANGE);
    ex_state claim = s;
    refused(&claim, "ticket remove red, orange claims mont-saint-michel, yellow b4",
            "mont-saint-michel is a common objective: nobody holds its card");
    play(&s, "ticket remove red, yellow b4");
    assert_int_equal(ex_tip(&s, RED), node("mont-saint-michel"));
    assert_true(is_objective(&s, card("mont-saint-michel")));
    assert_int_equal(s.laid[card("mont-saint-michel")], EX_NOBODY);
    /* an arrow arriving there does */
    play(&s, "blue mont-saint-michel, new objective geysir");
    assert_int_equal(s.laid[card("mont-saint-michel")], BLACK);
    assert_true(is_objective(&s, card("geysir")));
}

static void test_ex_objective_with_an_empty_deck(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    PLAY(&s, "yellow rome", "yellow b3");
    /* fixture: the deck's cards handed to black (the invariants hold) */
    s.hand[BLACK] = (uint8_t)(s.hand[BLACK] + s.deck);
    s.deck = 0;
    check_invariants(&s);
    refused(&s, "yellow troy, new objective stonehenge",
            "no common objective was taken: none is turned up");
    play(&s, "yellow troy");
    assert_int_equal(s.laid[card("troy")], ORANGE);
    assert_int_equal(s.objectives[0], EX_NO_CARD);
    refused(&s, "ticket swap, yellow b4", "a swap draws 2 cards; the deck has 0 (EX-ENGINE-6)");
}

/* ---- 6. tickets ---- */

static void test_ex_tickets_two_a_turn_and_the_turns_own_arrow(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    refused(&s, "ticket yellow rome, ticket red b1, ticket blue stonehenge",
            "two tickets a turn at most");
    refused(&s, "ticket yellow rome", "a turn extends one expedition by an arrow");
    refused(&s, "ticket swap", "a turn extends one expedition by an arrow");
    refused(&s, "ticket remove red, yellow rome", "the red expedition has no arrow to remove");
    refused(&s, "pass", "a turn extends one expedition by an arrow");
    /* before and after the turn's arrow */
    play(&s, "ticket yellow rome, red b1, ticket swap");
    assert_int_equal(s.tickets[GREEN], EX_START_TICKETS - 2);
    assert_int_equal(s.ticket_supply, EX_TICKETS - 12 + 2);
    assert_int_equal(s.swaps[GREEN], 1);
    assert_int_equal(s.hand[GREEN], 9);
    assert_int_equal(s.deck, PLACES - 36 - EX_OBJECTIVES);
    PLAY(&s, "yellow b3", "yellow giza-pyramids", "yellow abu-simbel",
         "green: ticket red caspian-sea, blue rome", "blue b2", "blue mont-saint-michel",
         "blue alhambra");
    assert_int_equal(s.tickets[GREEN], 0);
    refused(&s, "green: ticket swap, red babylon", "green has no ticket");
    refused(&s, "green: red babylon, ticket red harappa", "green has no ticket");
    play(&s, "green: red babylon");
}

static void test_ex_tickets_removal_consequences(void **state_)
{
    (void)state_;
    /* a blue tip: its bonus arrow */
    ex_state s = ready_game(4);
    PLAY(&s, "yellow b2", "yellow rome");
    refused(&s, "yellow r2, red stonehenge", "another needs a blue circle or a ticket");
    play(&s, "ticket remove yellow, yellow mont-saint-michel, red stonehenge");
    assert_int_equal(s.trails[YELLOW].count, 2);
    assert_int_equal(ex_tip(&s, YELLOW), node("mont-saint-michel"));
    assert_int_equal(s.trails[RED].count, 1);

    /* a red tip: a ticket (spent one, got one) */
    s = ready_game(4);
    PLAY(&s, "yellow r1", "yellow north-cape");
    int supply = s.ticket_supply;
    play(&s, "ticket remove yellow, yellow b1");
    assert_int_equal(s.tickets[ORANGE], EX_START_TICKETS);
    assert_int_equal(s.ticket_supply, supply);
    assert_int_equal(ex_tip(&s, YELLOW), node("b1"));

    /* a loop re-formed: its restart owed at once, and the turn's own arrow still */
    s = ready_game(4);
    PLAY(&s, "yellow rome", "yellow b2", "yellow start, yellow stonehenge from start");
    assert_int_equal(s.trails[YELLOW].count, 4);
    refused(&s, "ticket remove yellow", "the yellow expedition closed a loop: place its next "
                                        "arrow from a circle it visited");
    refused(&s, "ticket remove yellow, red b1",
            "the yellow expedition closed a loop: its next arrow, from a circle it visited, "
            "comes first");
    refused(&s, "ticket remove yellow, yellow geirangerfjord from start",
            "a turn extends one expedition by an arrow");
    play(&s, "ticket remove yellow, yellow geirangerfjord from start, red b1");
    assert_int_equal(s.trails[YELLOW].count, 4);
    assert_int_equal(ex_tip(&s, YELLOW), node("geirangerfjord"));
    assert_int_equal(s.tickets[BLACK], EX_START_TICKETS - 1);
}

/* EX-ENGINE-6: a swap draws 2 cards. Fixture: the deck cut to 2, then 1, its other cards
 * handed to black (the invariants hold). */
static void test_ex_tickets_swap_needs_two_cards_in_the_deck(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    s.hand[BLACK] = (uint8_t)(s.hand[BLACK] + s.deck - 2);
    s.deck = 2;
    check_invariants(&s);
    ex_state one = s;
    one.hand[BLACK]++;
    one.deck = 1;
    check_invariants(&one);
    refused(&one, "ticket swap, yellow rome", "a swap draws 2 cards; the deck has 1 (EX-ENGINE-6)");
    play(&s, "ticket swap, yellow rome");
    assert_int_equal(s.deck, 2);
    assert_int_equal(s.hand[GREEN], 9);
    assert_int_equal(s.swaps[GREEN], 1);
    play(&s, "yellow b3, ticket swap, ticket swap");
    assert_int_equal(s.swaps[PURPLE], 2);
    assert_int_equal(s.tickets[PURPLE], EX_START_TICKETS - 2);
}

/* ---- 7. loops ---- */

static void test_ex_loop_restart_owed_at_once(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    PLAY(&s, "yellow rome", "yellow b2");
    refused(&s, "yellow start", "the yellow expedition closed a loop");
    refused(&s, "yellow start, red b1", "the yellow expedition closed a loop: its next arrow");
    refused(&s, "yellow start, ticket swap", "the yellow expedition closed a loop");
    refused(&s, "yellow start, ticket red b1", "the yellow expedition closed a loop");
    refused(&s, "yellow start, ticket remove yellow", "the yellow expedition closed a loop");
    refused(&s, "yellow start, yellow stonehenge",
            "the yellow expedition closed a loop: say which circle it visited its next arrow "
            "starts from (yellow stonehenge from CIRCLE)");
    refused(&s, "yellow start, yellow troy from b3", "the yellow expedition has not visited b3");
    refused(&s, "yellow start, yellow troy from rome", "no segment joins rome and troy");
    /* the turn in progress: no free tip, a restart owed */
    ex_state g = s;
    ex_turn turn;
    ex_turn_begin(&g, &turn);
    ex_step closing = {.kind = EX_STEP_ARROW, .expedition = YELLOW, .from = EX_NONE,
                       .to = (int16_t)circle("start")};
    ex_error error = {""};
    assert_int_equal(ex_turn_step(&g, &turn, &closing, &error), EX_OK);
    assert_int_equal(turn.restart, YELLOW);
    assert_int_equal(ex_tip(&g, YELLOW), EX_NONE);
    assert_false(ex_turn_can_end(&g, &turn, &error));
    assert_non_null(strstr(error.message, "closed a loop"));
    /* from any circle it visited, the start included */
    static const char *const restarts[] = {
        "yellow start, yellow stonehenge from start", "yellow start, yellow b3 from rome",
        "yellow start, yellow r2 from rome", "yellow start, yellow mont-saint-michel from b2"};
    for (size_t i = 0; i < sizeof restarts / sizeof restarts[0]; i++) {
        ex_state copy = s;
        play(&copy, restarts[i]);
        assert_int_equal(copy.trails[YELLOW].count, 4);
        assert_true(ex_tip(&copy, YELLOW) != EX_NONE);
        assert_int_equal(copy.active, BLACK);
    }
    /* from then on, `from` names only the tip */
    play(&s, "yellow start, yellow b3 from rome");
    refused(&s, "yellow troy from rome", "the yellow expedition goes on from its tip, b3");
    play(&s, "yellow troy from b3, new objective geysir");
}

/* The rule book's picture: the expedition comes through Angel Falls, closes the triangle of
 * Iguazu Falls, Pantanal and Sugarloaf Mountain, and starts again from Iguazu Falls; "it could
 * have started from any other circle it visited, Angel Falls for instance". */
static void test_ex_loop_the_rule_books_triangle(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    walk(&s, YELLOW, "angel-falls");
    PLAY(&s, "yellow el-dorado", "yellow amazon-rainforest", "yellow pantanal",
         "yellow iguazu-falls", "yellow sugarloaf-mountain");
    refused(&s, "yellow pantanal", "the yellow expedition closed a loop");
    refused(&s, "yellow pantanal, yellow lake-titicaca from lake-titicaca",
            "the yellow expedition has not visited lake-titicaca");
    refused(&s, "yellow pantanal, yellow sugarloaf-mountain from iguazu-falls",
            "the yellow expedition already has an arrow between iguazu-falls and "
            "sugarloaf-mountain (EX-ENGINE-1)");
    ex_state from_iguazu = s;
    play(&from_iguazu, "yellow pantanal, yellow r18 from iguazu-falls");
    assert_int_equal(ex_tip(&from_iguazu, YELLOW), node("r18"));
    /* Angel Falls: the segment the route did not come by */
    const ex_node *angel = &board->nodes[node("angel-falls")];
    int free_segment = EX_NONE;
    for (int i = 0; i < angel->degree; i++)
        if (!ex_segment_used(&s, YELLOW, angel->segment[i]))
            free_segment = angel->segment[i];
    assert_true(free_segment != EX_NONE);
    int next = across(free_segment, node("angel-falls"));
    ex_state from_angel = s;
    playf(&from_angel, "yellow pantanal, yellow %s from angel-falls", id_of(next));
    assert_int_equal(ex_tip(&from_angel, YELLOW), next);
    int count = s.trails[YELLOW].count;
    assert_int_equal(from_angel.trails[YELLOW].count, count + 2);
    assert_int_equal(from_iguazu.trails[YELLOW].count, count + 2);
}

static void test_ex_loop_several_in_one_turn(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    PLAY(&s, "yellow rome", "yellow b2");
    int tickets = s.tickets[ORANGE];
    /* start (a loop), restart to r1 (a ticket), a ticket's arrow to b1 (a bonus), its bonus
     * arrow to the start (a second loop), the second restart */
    play(&s, "yellow start, yellow r1 from start, ticket yellow b1, yellow start, "
             "yellow geirangerfjord from start");
    assert_int_equal(s.trails[YELLOW].count, 7);
    assert_int_equal(ex_tip(&s, YELLOW), node("geirangerfjord"));
    assert_int_equal(s.tickets[ORANGE], tickets);
}

static void test_ex_loop_at_a_blue_circle_restart_then_bonus(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    /* yellow: start, rome, b2, start (a loop), stonehenge, Mont Saint-Michel, then b2 again */
    PLAY(&s, "yellow rome", "yellow b2", "yellow start, yellow stonehenge from start",
         "yellow mont-saint-michel");
    ex_state g = s;
    ex_turn turn;
    ex_turn_begin(&g, &turn);
    ex_step closing = {.kind = EX_STEP_ARROW, .expedition = YELLOW, .from = EX_NONE,
                       .to = (int16_t)circle("b2")};
    assert_int_equal(ex_turn_step(&g, &turn, &closing, NULL), EX_OK);
    assert_int_equal(turn.restart, YELLOW);
    assert_int_equal(turn.bonus, 1);
    refused(&s, "yellow b2, red b1", "the yellow expedition closed a loop");
    ex_state declined = s;
    play(&declined, "yellow b2, yellow alhambra from mont-saint-michel");
    assert_int_equal(declined.trails[RED].count, 0);
    play(&s, "yellow b2, yellow alhambra from mont-saint-michel, red b1");
    assert_int_equal(s.trails[YELLOW].count, 7);
    assert_int_equal(s.trails[RED].count, 1);
    refused(&s, "blue b2, blue rome, red caspian-sea, blue r2",
            "another needs a blue circle or a ticket");
}

/* ---- 8. the end and the scores ---- */

static void test_ex_end_a_hand_emptied_finishes_the_round(void **state_)
{
    (void)state_;
    ex_state s = purple_with_one_card_green_to_play();
    int e, to;
    assert_true(claimable(&s, PURPLE, &e, &to));
    playf(&s, "green: %s %s, purple claims %s", ex_expedition_name(e), id_of(to), id_of(to));
    assert_int_equal(s.hand[PURPLE], 0);
    assert_true(s.ending);
    assert_int_equal(s.phase, EX_PHASE_PLAY);
    for (int seat = PURPLE; seat <= BLACK; seat++) {
        assert_int_equal(s.phase, EX_PHASE_PLAY);
        assert_int_equal(s.active, seat);
        play_plain_arrow(&s);
    }
    assert_int_equal(s.phase, EX_PHASE_OVER);
    assert_int_equal(s.active, BLACK);
    refused(&s, "yellow rome", "the game is over");
    int recovered = s.tokens_recovered[PURPLE];
    assert_int_equal(score(&s, PURPLE), 9 + recovered - 0 - (EX_TOKENS - recovered));
    check_conservation(&s);
}

/* Every term of the score, and the ranks: ties broken by tickets, then shared. */
static void test_ex_end_scores_and_ranks(void **state_)
{
    (void)state_;
    ex_state s = ready_game(2);
    assert_int_equal(score(&s, GREEN), -12 - 4);
    play(&s, "yellow rome, green claims rome"); /* +1 laid, -1 in hand */
    assert_int_equal(score(&s, GREEN), 1 - 11 - 4);
    play(&s, "yellow b3, ticket yellow troy, new objective stonehenge"); /* +1 laid */
    assert_int_equal(score(&s, PURPLE), 1 - 12 - 4);
    PLAY(&s, "red b1, red caspian-sea", "red babylon, purple claims babylon");
    assert_int_equal(score(&s, PURPLE), 2 + 1 - 11 - 3); /* +1 recovered, one -1 fewer */
    play(&s, "red harappa, green claims harappa");
    int32_t scores[EX_MAX_SEATS], ranks[EX_MAX_SEATS];
    ex_scores(&s, scores);
    assert_int_equal(scores[GREEN], 2 + 1 - 10 - 3);
    assert_int_equal(scores[PURPLE], 2 + 1 - 11 - 3);
    ex_ranks(&s, ranks);
    assert_int_equal(ranks[GREEN], 1);
    assert_int_equal(ranks[PURPLE], 2);

    s = ready_game(4);
    ex_ranks(&s, ranks);
    for (int i = 0; i < 4; i++)
        assert_int_equal(ranks[i], 1); /* all tied: a shared first place */
    play(&s, "ticket swap, yellow rome"); /* green: one ticket fewer */
    ex_ranks(&s, ranks);
    assert_int_equal(ranks[GREEN], 4);
    assert_int_equal(ranks[PURPLE], 1);
    play(&s, "yellow r2"); /* purple: one ticket more */
    ex_ranks(&s, ranks);
    assert_int_equal(ranks[PURPLE], 1);
    assert_int_equal(ranks[ORANGE], 2);
    assert_int_equal(ranks[BLACK], 2);
    assert_int_equal(ranks[GREEN], 4);
    play(&s, "yellow alhambra, orange claims alhambra");
    ex_ranks(&s, ranks);
    assert_int_equal(ranks[ORANGE], 1);
    assert_int_equal(ranks[PURPLE], 2);
    assert_int_equal(ranks[BLACK], 3);
    assert_int_equal(ranks[GREEN], 4);
}

/* EX-ENGINE-5: the game ends at once when the 135th arrow is placed, without finishing the
 * round. Found among random games: one that ends so, no hand empty, before the last seat. */
static void test_ex_end_all_arrows_placed_ends_at_once(void **state_)
{
    (void)state_;
    for (uint64_t seed = 1; seed < 3000; seed++) {
        int seats = 2 + (int)(seed % 5);
        ex_state played = random_game(seats, 50000 + seed, NULL);
        if (arrows_on_board(&played) != ALL_ARROWS || played.ending ||
            played.active == seats - 1)
            continue;
        test_lines lines = {0};
        random_game(seats, 50000 + seed, &lines);
        ex_state s = new_game(seats);
        for (int i = 0; i < lines.count - 1; i++)
            play(&s, lines.lines[i]);
        assert_int_equal(s.phase, EX_PHASE_PLAY);
        assert_true(arrows_on_board(&s) < ALL_ARROWS);
        play(&s, lines.lines[lines.count - 1]);
        assert_int_equal(s.phase, EX_PHASE_OVER);
        assert_int_equal(arrows_on_board(&s), ALL_ARROWS);
        for (int e = 0; e < EX_EXPEDITIONS; e++)
            assert_false(ex_can_extend(&s, e));
        assert_true(same_state(&s, &played));
        print_message("all 135 arrows: seed %llu, %d seats, over after %s's turn %d\n",
                      (unsigned long long)(50000 + seed), seats, s.config.colours[s.active],
                      s.turns);
        test_lines_free(&lines);
        return;
    }
    fail_msg("no random game ends with all 135 arrows placed");
}

/* ---- 9. random games ---- */

typedef struct game_stats {
    int games, lines, turns, hand_emptied, all_arrows, blocked, claims, objectives, swaps,
        removals, loops;
} game_stats;

/* Replays a random game's lines on a fresh state, checking the invariants after each. */
static void replay_game(int seats, uint64_t seed, game_stats *stats)
{
    test_lines lines = {0};
    ex_state played = random_game(seats, seed, &lines);
    ex_state s = new_game(seats);
    for (int i = 0; i < lines.count; i++) {
        ex_line parsed;
        ex_error error = {""};
        if (ex_play_line(&s, lines.lines[i], &parsed, &error) != EX_OK)
            fail_msg("seed %llu, line %d '%s': %s", (unsigned long long)seed, i + 1,
                     lines.lines[i], error.message);
        check_invariants(&s);
        if (i % 8 == 0 || i == lines.count - 1)
            check_conservation(&s);
        stats->lines++;
        if (parsed.move.kind != EX_MOVE_TURN)
            continue;
        stats->turns++;
        for (int k = 0; k < parsed.move.count; k++) {
            const ex_step *st = &parsed.move.steps[k];
            stats->claims += st->kind == EX_STEP_CLAIM;
            stats->objectives += st->kind == EX_STEP_OBJECTIVE;
            stats->swaps += st->kind == EX_STEP_SWAP;
            stats->removals += st->kind == EX_STEP_REMOVE;
            stats->loops += st->from != EX_NONE && (st->kind == EX_STEP_ARROW ||
                                                    st->kind == EX_STEP_TICKET_ARROW);
        }
    }
    assert_int_equal(s.phase, EX_PHASE_OVER);
    if (!same_state(&s, &played))
        fail_msg("seed %llu: the replayed game differs from the one played",
                 (unsigned long long)seed);
    int32_t a[EX_MAX_SEATS], b[EX_MAX_SEATS];
    ex_scores(&played, a);
    ex_scores(&s, b);
    assert_memory_equal(a, b, sizeof a);
    /* how it ended: a hand emptied (after the round), all arrows, or none can move */
    if (arrows_on_board(&s) == ALL_ARROWS) {
        stats->all_arrows++;
    } else if (s.ending) {
        stats->hand_emptied++;
        assert_int_equal(s.active, seats - 1);
    } else {
        stats->blocked++;
        for (int e = 0; e < EX_EXPEDITIONS; e++)
            assert_false(ex_can_extend(&s, e));
    }
    bool empty = false;
    for (int i = 0; i < seats; i++)
        empty |= s.hand[i] == 0;
    assert_true(empty == s.ending);
    ex_state over = s;
    refused(&over, "yellow rome", "the game is over");
    stats->games++;
    test_lines_free(&lines);
}

static void test_ex_random_games_replayed(void **state_)
{
    (void)state_;
    game_stats stats = {0};
    for (int seats = 2; seats <= EX_MAX_SEATS; seats++)
        for (int g = 0; g < 60; g++)
            replay_game(seats, 1000u * (uint64_t)seats + (uint64_t)g, &stats);
    print_message("%d random games, %d lines, %d turns: %d claims, %d objectives turned up, "
                  "%d swaps, %d removals, %d restarts; ended: %d hand emptied, %d all arrows, "
                  "%d no arrow possible\n",
                  stats.games, stats.lines, stats.turns, stats.claims, stats.objectives,
                  stats.swaps, stats.removals, stats.loops, stats.hand_emptied, stats.all_arrows,
                  stats.blocked);
    assert_int_equal(stats.games, 300);
    assert_true(stats.claims > 0 && stats.objectives > 0 && stats.swaps > 0 &&
                stats.removals > 0 && stats.loops > 0);
}

/* ---- 10. the notation's round trip ---- */

/* The other half of a wrap point, or the circle itself. */
static int other_half(int c)
{
    for (int w = 0; w < board->wrap_count; w++) {
        if (board->wraps[w][0] == c)
            return board->wraps[w][1];
        if (board->wraps[w][1] == c)
            return board->wraps[w][0];
    }
    return c;
}

/* The move written otherwise: `from` the tip named where the canonical text leaves it out,
 * the other half of each wrap point named (the move must be legal from s). */
static ex_move rewritten(const ex_state *s, const ex_move *move)
{
    ex_move variant = *move;
    if (move->kind != EX_MOVE_TURN)
        return variant;
    ex_state g = *s;
    ex_turn turn;
    ex_turn_begin(&g, &turn);
    for (int i = 0; i < move->count; i++) {
        ex_step *st = &variant.steps[i];
        if (st->kind == EX_STEP_ARROW || st->kind == EX_STEP_TICKET_ARROW) {
            int tip = ex_tip(&g, st->expedition);
            if (st->from == EX_NONE && tip != EX_NONE)
                st->from = board->nodes[tip].circle;
            if (st->from != EX_NONE)
                st->from = (int16_t)other_half(st->from);
            st->to = (int16_t)other_half(st->to);
        }
        assert_int_equal(ex_turn_step(&g, &turn, &move->steps[i], NULL), EX_OK);
    }
    return variant;
}

static int round_trips, rewritten_lines;

static void check_round_trip(const ex_state *before, const char *text)
{
    ex_line line;
    ex_error error = {""};
    if (ex_parse(before, text, &line, &error) != EX_OK)
        fail_msg("'%s' does not parse: %s", text, error.message);
    char canonical[LINE_LENGTH], again[LINE_LENGTH];
    ex_format_move(before, &line.move, canonical, sizeof canonical);
    ex_state by_line = *before, by_canonical = *before, by_variant = *before;
    play(&by_line, text);
    play(&by_canonical, canonical);
    if (!same_state(&by_line, &by_canonical))
        fail_msg("'%s' and its canonical text '%s' give different games", text, canonical);
    /* the canonical text is a fixed point */
    ex_line reparsed;
    assert_int_equal(ex_parse(before, canonical, &reparsed, &error), EX_OK);
    ex_format_move(before, &reparsed.move, again, sizeof again);
    assert_string_equal(canonical, again);
    /* written otherwise, the same arrows and the same canonical text */
    ex_move variant = rewritten(before, &line.move);
    rewritten_lines += memcmp(&variant, &line.move, sizeof variant) != 0;
    ex_format_move(before, &variant, again, sizeof again);
    assert_string_equal(canonical, again);
    if (ex_apply(&by_variant, &variant, &error) != EX_OK)
        fail_msg("'%s' written as '%s' is refused: %s", canonical, again, error.message);
    assert_true(same_state(&by_line, &by_variant));
    round_trips++;
}

static void test_ex_notation_round_trip(void **state_)
{
    (void)state_;
    round_trips = rewritten_lines = 0;
    for (int seats = 2; seats <= EX_MAX_SEATS; seats++)
        for (int g = 0; g < 3; g++) {
            test_lines lines = {0};
            random_game(seats, 2000u * (uint64_t)seats + (uint64_t)g, &lines);
            ex_state s = new_game(seats);
            for (int i = 0; i < lines.count; i++) {
                check_round_trip(&s, lines.lines[i]);
                play(&s, lines.lines[i]);
            }
            test_lines_free(&lines);
        }
    print_message("round trip: %d lines, %d written otherwise\n", round_trips, rewritten_lines);
    assert_true(rewritten_lines > 0);
}

/* ---- 11. legal steps ---- */

static int legal_positions, legal_accepted, unlisted_refused;

/* Every step listed is accepted, once; every arrow from a visited circle that is not listed,
 * every removal and swap not listed, is refused. */
static void check_legal_steps(const ex_state *s, const ex_turn *turn)
{
    static ex_step steps[4096];
    size_t n = ex_legal_steps(s, turn, steps, 4096);
    assert_true(n <= 4096);
    char text[LINE_LENGTH];
    for (size_t i = 0; i < n; i++) {
        ex_state g = *s;
        ex_turn t = *turn;
        ex_error error = {""};
        if (ex_turn_step(&g, &t, &steps[i], &error) != EX_OK) {
            ex_move move = {.kind = EX_MOVE_TURN, .count = 1, .steps = {steps[i]}};
            ex_format_move(s, &move, text, sizeof text);
            fail_msg("'%s' is listed but refused: %s", text, error.message);
        }
        for (size_t j = 0; j < i; j++)
            assert_false(same_step(&steps[i], &steps[j]));
        legal_accepted++;
    }
    static const uint8_t kinds[] = {EX_STEP_ARROW, EX_STEP_TICKET_ARROW};
    for (int e = 0; e < EX_EXPEDITIONS; e++) {
        int tip = ex_tip(s, e);
        for (int v = 0; v < board->node_count; v++) {
            if (!ex_visited(s, e, v))
                continue;
            const ex_node *x = &board->nodes[v];
            for (int i = 0; i < x->degree; i++) {
                const ex_segment *sg = &board->segments[x->segment[i]];
                int end = sg->node[0] == v; /* the other end, as the engine counts */
                for (int k = 0; k < 2; k++) {
                    ex_step st = {.kind = kinds[k], .expedition = (uint8_t)e,
                                  .from = v == tip ? (int16_t)EX_NONE : sg->circle[!end],
                                  .to = sg->circle[end]};
                    if (listed(steps, n, &st))
                        continue;
                    ex_state g = *s;
                    ex_turn t = *turn;
                    if (ex_turn_step(&g, &t, &st, NULL) == EX_OK) {
                        ex_move move = {.kind = EX_MOVE_TURN, .count = 1, .steps = {st}};
                        ex_format_move(s, &move, text, sizeof text);
                        fail_msg("'%s' is accepted but not listed", text);
                    }
                    unlisted_refused++;
                }
            }
        }
        ex_step remove = {.kind = EX_STEP_REMOVE, .expedition = (uint8_t)e, .from = EX_NONE,
                          .to = EX_NONE};
        ex_state g = *s;
        ex_turn t = *turn;
        assert_true(listed(steps, n, &remove) == (ex_turn_step(&g, &t, &remove, NULL) == EX_OK));
    }
    ex_step swap = {.kind = EX_STEP_SWAP, .from = EX_NONE, .to = EX_NONE};
    ex_state g = *s;
    ex_turn t = *turn;
    assert_true(listed(steps, n, &swap) == (ex_turn_step(&g, &t, &swap, NULL) == EX_OK));
    legal_positions++;
}

static void test_ex_legal_steps_in_random_positions(void **state_)
{
    (void)state_;
    legal_positions = legal_accepted = unlisted_refused = 0;
    for (int seats = 2; seats <= EX_MAX_SEATS; seats++) {
        test_lines lines = {0};
        random_game(seats, 3000u + (uint64_t)seats, &lines);
        ex_state s = new_game(seats);
        for (int i = 0; i < lines.count; i++) {
            if (s.phase == EX_PHASE_PLAY && i % 3 == 0) {
                /* the real turn, step by step, checked before each step and after the last */
                ex_line line;
                assert_int_equal(ex_parse(&s, lines.lines[i], &line, NULL), EX_OK);
                ex_state g = s;
                ex_turn turn;
                ex_turn_begin(&g, &turn);
                check_legal_steps(&g, &turn);
                for (int k = 0; k < line.move.count; k++) {
                    assert_int_equal(ex_turn_step(&g, &turn, &line.move.steps[k], NULL), EX_OK);
                    check_legal_steps(&g, &turn);
                }
            }
            play(&s, lines.lines[i]);
        }
        test_lines_free(&lines);
    }
    print_message("legal steps: %d positions, %d listed steps accepted, %d unlisted arrows "
                  "refused\n",
                  legal_positions, legal_accepted, unlisted_refused);
    assert_true(legal_positions > 100);
}

/* ---- 12. reconcile ---- */

/* Whether a card face up in `before` has been laid in `after`. */
static bool took_objective(const ex_state *before, const ex_state *after)
{
    for (int k = 0; k < EX_OBJECTIVES; k++)
        if (before->objectives[k] != EX_NO_CARD && after->laid[before->objectives[k]] != EX_NOBODY)
            return true;
    return false;
}

/* Plays an explanation on the state before the turn (a spare card turned up whenever a common
 * objective is taken); the game it leads to. Sets *taken when it took an objective. */
static ex_state apply_explanation(const ex_state *before, const ex_explanation *x, bool *taken)
{
    ex_state g = *before;
    ex_turn turn;
    ex_turn_begin(&g, &turn);
    ex_error error = {""};
    *taken = false;
    int tickets = 0;
    for (int i = 0; i < x->move.count; i++) {
        const ex_step *st = &x->move.steps[i];
        tickets += st->kind == EX_STEP_TICKET_ARROW || st->kind == EX_STEP_REMOVE;
        if (ex_turn_step(&g, &turn, st, &error) != EX_OK)
            fail_msg("step %d of an explanation is refused: %s", i + 1, error.message);
        if (turn.objective_pending != EX_NONE) {
            *taken = true;
            ex_step card_up = {.kind = EX_STEP_OBJECTIVE, .card = (uint8_t)spare_card(&g),
                               .from = EX_NONE, .to = EX_NONE};
            assert_int_equal(ex_turn_step(&g, &turn, &card_up, NULL), EX_OK);
        }
    }
    assert_int_equal(tickets, x->tickets);
    *taken |= took_objective(before, &g);
    if (!ex_turn_can_end(&g, &turn, &error))
        fail_msg("an explanation leaves its turn unfinished: %s", error.message);
    ex_turn_end(&g, &turn);
    return g;
}

typedef struct reconcile_counts {
    int turns, unchanged, explained, ambiguous, cut, listed, objective_turns, objective_agreed,
        perturbed;
} reconcile_counts;

/* A segment neither of whose circles the expedition visited: an arrow there has nothing to
 * start from. */
static int far_segment(const ex_state *s, int e)
{
    for (int k = 0; k < board->segment_count; k++) {
        const ex_segment *sg = &board->segments[k];
        if (!ex_visited(s, e, sg->node[0]) && !ex_visited(s, e, sg->node[1]))
            return k;
    }
    return EX_NONE;
}

static void check_reconcile(const ex_state *before, const ex_state *after, const ex_move *move,
                            reconcile_counts *c)
{
    ex_observation seen, old;
    ex_observe(after, &seen);
    ex_observe(before, &old);
    ex_reconcile_result result;
    ex_reconcile(before, &seen, &result);
    c->turns++;
    c->cut += result.search_cut;
    if (result.answer == EX_UNCHANGED) {
        /* the camera sees no change: an arrow taken back with a ticket and put back */
        assert_memory_equal(&old, &seen, sizeof old);
        bool removal = false;
        for (int i = 0; i < move->count; i++)
            removal |= move->steps[i].kind == EX_STEP_REMOVE;
        assert_true(removal);
        c->unchanged++;
        return;
    }
    if (result.answer != EX_EXPLAINED && result.answer != EX_AMBIGUOUS)
        fail_msg("turn %d: answer %d", before->turns + 1, result.answer);
    c->explained += result.answer == EX_EXPLAINED;
    c->ambiguous += result.answer == EX_AMBIGUOUS;
    int kept = result.count < 4 ? result.count : 4;
    assert_true(kept > 0);
    for (int i = 0; i < kept; i++) {
        bool taken = false;
        ex_state g = apply_explanation(before, &result.explanations[i], &taken);
        ex_observation got;
        ex_observe(&g, &got);
        assert_memory_equal(got.arrows, seen.arrows, sizeof got.arrows);
        assert_true(memcmp(g.token, after->token, sizeof g.token) == 0);
        assert_int_equal(result.explanations[i].objective_taken, taken);
        c->listed++;
    }
    if (result.answer == EX_EXPLAINED) {
        bool real = took_objective(before, after);
        c->objective_turns += real;
        c->objective_agreed += real && result.explanations[0].objective_taken;
    }
    if (before->turns % 50 == 25) {
        /* an arrow with nothing to start from, a token put down during play (each a second,
         * larger search before the answer: a few turns suffice) */
        int e = before->turns % EX_EXPEDITIONS, segment = far_segment(after, e);
        if (segment != EX_NONE) {
            ex_observation far = seen;
            far.arrows[e][(2 * segment) / 64] |= (uint64_t)1 << ((2 * segment) % 64);
            ex_reconcile(before, &far, &result);
            assert_int_equal(result.answer, EX_UNEXPLAINED);
        }
        for (int k = 0; k < board->place_count; k++)
            if (after->token[k] == EX_NOBODY && after->laid[k] == EX_NOBODY &&
                seen.token_count < EX_SEEN_MAX_TOKENS) {
                ex_observation token = seen;
                token.tokens[token.token_count].seat = (int8_t)before->active;
                token.tokens[token.token_count].card = (int16_t)k;
                token.token_count++;
                ex_reconcile(before, &token, &result);
                assert_int_equal(result.answer, EX_UNEXPLAINED);
                break;
            }
        c->perturbed++;
    }
}

static void test_ex_reconcile_simple_cases(void **state_)
{
    (void)state_;
    ex_observation seen;
    ex_reconcile_result result;
    /* unchanged */
    ex_state s = ready_game(4);
    ex_observe(&s, &seen);
    ex_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, EX_UNCHANGED);

    /* a key location at the setup */
    ex_state setup = new_game(4);
    play(&setup, objectives_line);
    ex_state marked = setup;
    play(&marked, "token harappa");
    ex_observe(&marked, &seen);
    ex_reconcile(&setup, &seen, &result);
    assert_int_equal(result.answer, EX_EXPLAINED);
    assert_int_equal(result.explanations[0].move.kind, EX_MOVE_TOKEN);
    assert_int_equal(result.explanations[0].move.card, card("harappa"));
    seen.tokens[0].seat = PURPLE; /* not the seat to play */
    ex_reconcile(&setup, &seen, &result);
    assert_int_equal(result.answer, EX_UNEXPLAINED);
    seen.tokens[0].seat = GREEN;
    seen.tokens[0].card = (int16_t)card("rome"); /* too near the start */
    ex_reconcile(&setup, &seen, &result);
    assert_int_equal(result.answer, EX_UNEXPLAINED);

    /* a common objective reached: objective_taken, its card for the players to enter */
    PLAY(&s, "yellow rome", "yellow b3");
    ex_state after = s;
    play(&after, "yellow troy, new objective stonehenge");
    ex_observe(&after, &seen);
    ex_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, EX_EXPLAINED);
    assert_true(result.explanations[0].objective_taken);
    assert_int_equal(result.explanations[0].tickets, 0);
    char text[LINE_LENGTH];
    ex_format_move(&s, &result.explanations[0].move, text, sizeof text);
    assert_string_equal(text, "yellow troy");

    /* an arrow far from any tip, a token put down during play */
    ex_observation far = seen;
    int segment = ex_board_segment(board, node("cape-horn"), node("r18"));
    far.arrows[RED][(2 * segment) / 64] |= (uint64_t)1 << ((2 * segment) % 64);
    ex_reconcile(&s, &far, &result);
    assert_int_equal(result.answer, EX_UNEXPLAINED);
    ex_observation token = seen;
    token.tokens[token.token_count].seat = ORANGE;
    token.tokens[token.token_count].card = (int16_t)card("geysir");
    token.token_count++;
    ex_reconcile(&s, &token, &result);
    assert_int_equal(result.answer, EX_UNEXPLAINED);
}

/* The book's steps 3 and 5 seen by a camera: the claim that took a token back is seen, the
 * claim of a card without a token is not. */
static void test_ex_reconcile_book_example(void **state_)
{
    (void)state_;
    size_t size = 0;
    char *script = test_read_file(FIXTURES_DIR "/games/expeditions-book-example.txt", &size);
    assert_non_null(script);
    ex_state s = new_game(4), before = s;
    char text[LINE_LENGTH];
    int checked = 0;
    for (char *line = strtok(script, "\n"); line; line = strtok(NULL, "\n")) {
        before = s;
        play(&s, line);
        if (s.turns == before.turns || (s.turns != 3 && s.turns != 5))
            continue;
        ex_observation seen;
        ex_observe(&s, &seen);
        ex_reconcile_result result;
        ex_reconcile(&before, &seen, &result);
        assert_int_equal(result.answer, EX_EXPLAINED);
        ex_format_move(&before, &result.explanations[0].move, text, sizeof text);
        assert_int_equal(result.explanations[0].tickets, 1);
        if (s.turns == 3)
            assert_string_equal(text, "red babylon, ticket red harappa, orange claims harappa");
        else
            assert_string_equal(text, "ticket remove red, red petra");
        checked++;
    }
    free(script);
    assert_int_equal(checked, 2);
}

static void test_ex_reconcile_every_turn_of_random_games(void **state_)
{
    (void)state_;
    reconcile_counts c = {0};
    int games = 0, tokens = 0;
    for (int g = 0; g < 100; g++) {
        int seats = 2 + g % 5;
        test_lines lines = {0};
        random_game(seats, 4000u + (uint64_t)g, &lines);
        ex_state s = new_game(seats);
        for (int i = 0; i < lines.count; i++) {
            ex_state before = s;
            ex_line line;
            assert_int_equal(ex_play_line(&s, lines.lines[i], &line, NULL), EX_OK);
            if (before.phase == EX_PHASE_PLAY) {
                check_reconcile(&before, &s, &line.move, &c);
            } else if (before.phase == EX_PHASE_TOKENS) {
                /* a key location: the token seen is the move */
                ex_observation seen;
                ex_observe(&s, &seen);
                ex_reconcile_result result;
                ex_reconcile(&before, &seen, &result);
                assert_int_equal(result.answer, EX_EXPLAINED);
                assert_int_equal(result.explanations[0].move.kind, EX_MOVE_TOKEN);
                assert_int_equal(result.explanations[0].move.card, line.move.card);
                tokens++;
            }
        }
        test_lines_free(&lines);
        games++;
    }
    print_message("reconcile over %d games: %d key locations explained; %d turns: %d explained, "
                  "%d ambiguous, %d unchanged (%d search cut); %d explanations replayed; "
                  "objective taken in %d explained turns, said so in %d; %d turns perturbed, all "
                  "unexplained\n",
                  games, tokens, c.turns, c.explained, c.ambiguous, c.unchanged, c.cut, c.listed,
                  c.objective_turns, c.objective_agreed, c.perturbed);
    assert_int_equal(c.turns, c.explained + c.ambiguous + c.unchanged);
    assert_true(c.explained > c.turns / 2);
}

/* ---- 13. the notation ---- */

static void test_ex_notation_documented_forms(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    ex_line line;
    ex_error error = {""};
    ex_state fresh = new_game(4);
    assert_int_equal(ex_parse(&fresh, "objectives troy angkor-wat tunguska el-dorado great-wall "
                                      "easter-island",
                              &line, &error),
                     EX_OK);
    assert_int_equal(line.kind, EX_LINE_MOVE);
    assert_int_equal(line.move.kind, EX_MOVE_OBJECTIVES);
    assert_int_equal(line.move.objectives[2], card("tunguska"));
    assert_int_equal(ex_parse(&s, "token harappa", &line, &error), EX_OK);
    assert_int_equal(line.move.kind, EX_MOVE_TOKEN);
    assert_int_equal(line.move.card, card("harappa"));

    static const struct {
        const char *text;
        int count;
        uint8_t kinds[4];
    } turns[] = {
        {"yellow rome", 1, {EX_STEP_ARROW}},
        {"red b1, red caspian-sea", 2, {EX_STEP_ARROW, EX_STEP_ARROW}},
        {"red babylon, ticket red harappa, green claims harappa", 3,
         {EX_STEP_ARROW, EX_STEP_TICKET_ARROW, EX_STEP_CLAIM}},
        {"blue putorana-plateau, new objective troy", 2, {EX_STEP_ARROW, EX_STEP_OBJECTIVE}},
        {"ticket remove red, red petra", 2, {EX_STEP_REMOVE, EX_STEP_ARROW}},
        {"red iguazu-falls, red angel-falls from iguazu-falls", 2, {EX_STEP_ARROW, EX_STEP_ARROW}},
        {"ticket swap", 1, {EX_STEP_SWAP}},
        {"pass", 0, {0}},
        {"black: yellow rome # a comment", 1, {EX_STEP_ARROW}},
        {"  yellow   rome ,red b1  ", 2, {EX_STEP_ARROW, EX_STEP_ARROW}},
    };
    for (size_t i = 0; i < sizeof turns / sizeof turns[0]; i++) {
        if (ex_parse(&s, turns[i].text, &line, &error) != EX_OK)
            fail_msg("'%s': %s", turns[i].text, error.message);
        assert_int_equal(line.move.kind, EX_MOVE_TURN);
        assert_int_equal(line.move.count, turns[i].count);
        for (int k = 0; k < turns[i].count; k++)
            assert_int_equal(line.move.steps[k].kind, turns[i].kinds[k]);
    }
    assert_int_equal(ex_parse(&s, "red iguazu-falls, red angel-falls from iguazu-falls", &line,
                              &error),
                     EX_OK);
    assert_int_equal(line.move.steps[1].expedition, RED);
    assert_int_equal(line.move.steps[1].from, circle("iguazu-falls"));
    assert_int_equal(line.move.steps[1].to, circle("angel-falls"));
    assert_int_equal(ex_parse(&s, "red babylon, ticket red harappa, green claims harappa", &line,
                              &error),
                     EX_OK);
    assert_int_equal(line.move.steps[2].seat, GREEN);
    assert_int_equal(line.move.steps[2].card, card("harappa"));
    assert_int_equal(ex_parse(&s, "black: yellow rome", &line, &error), EX_OK);
    assert_int_equal(line.seat, BLACK);
    static const char *const empty[] = {"", "   ", "# only a comment", "\t# x"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        assert_int_equal(ex_parse(&s, empty[i], &line, &error), EX_OK);
        assert_int_equal(line.kind, EX_LINE_EMPTY);
    }
    /* the canonical text of lines as the book's example plays them */
    static const char *const canonical[] = {"yellow rome", "red b1, red caspian-sea",
                                            "red babylon, ticket red harappa, orange claims harappa",
                                            "blue b1, blue zagorsk, ticket blue putorana-plateau, "
                                            "new objective teotihuacan",
                                            "ticket remove red, red petra, green claims petra"};
    ex_state book = new_game(4);
    play(&book, "objectives putorana-plateau angkor-wat tunguska troy great-wall easter-island");
    static const char *const tokens[] = {"machu-picchu", "niagara-falls", "harappa", "el-dorado",
                                         "iguazu-falls", "guatemala", "timbuktu", "kilimanjaro",
                                         "uluru", "victoria-falls", "lhasa", "angel-falls",
                                         "mount-fuji", "galapagos", "samarkand", "taj-mahal"};
    for (int i = 0; i < 16; i++)
        playf(&book, "token %s", tokens[i]);
    for (int i = 0; i < 5; i++) {
        char text[LINE_LENGTH];
        assert_int_equal(ex_parse(&book, canonical[i], &line, &error), EX_OK);
        ex_format_move(&book, &line.move, text, sizeof text);
        assert_string_equal(text, canonical[i]);
        play(&book, canonical[i]);
    }
    /* a turn line prefixed by the seat to play, or no prefix; another seat is refused */
    play(&s, "green: yellow rome");
    refused(&s, "green: yellow b3", "it is purple's turn, not green's");
    refused(&s, "orange: yellow b3", "it is purple's turn, not orange's");
    play(&s, "yellow b3");
    play(&s, "orange: yellow troy, new objective stonehenge");
}

static void test_ex_notation_refusals(void **state_)
{
    (void)state_;
    ex_state s = ready_game(4);
    static const struct {
        const char *line, *words;
    } bad[] = {
        {"yellow", "an arrow is `red rome`"},
        {"yellow rome babylon", "an arrow is `red rome`"},
        {"yellow rome to start", "an arrow is `red rome`"},
        {"yellow rome from", "an arrow is `red rome`"},
        {"yellow atlantis", "'atlantis' is not a circle of board stand-in-world-1"},
        {"yellow rome from atlantis", "'atlantis' is not a circle"},
        {"purple rome", "a step is `red rome`"},
        {"ticket", "a ticket is `ticket red rome`"},
        {"ticket swap now", "a ticket is"},
        {"ticket remove", "a removal is `ticket remove red`"},
        {"ticket remove green", "a removal is `ticket remove red`"},
        {"ticket remove red blue", "a removal is `ticket remove red`"},
        {"ticket yellow", "an arrow is"},
        {"new objective", "the card turned up is `new objective rome`"},
        {"new card rome", "the card turned up is"},
        {"new objective b1", "'b1' is a blue circle, not a place"},
        {"yellow rome, green claims r1", "'r1' is a red circle, not a place"},
        {"yellow rome, grey claims rome", "'grey' is not a colour of this game"},
        {"yellow rome, green claims", "a step is"},
        {"yellow rome,, red b1", "an empty step between commas"},
        {"yellow rome,", "an empty step between commas"},
        {",", "an empty step between commas"},
        {"green:", "an action is missing"},
        {"grey: yellow rome", "'grey' is not a colour of this game"},
        {"pass, yellow rome", "`pass` stands alone"},
        {"pass now", "`pass` stands alone"},
        {"objectives troy", "the setup's objectives are 6 places"},
        {"green: objectives troy angkor-wat tunguska el-dorado great-wall easter-island",
         "a colour prefix goes only before a turn or a token"},
        {"token", "a key location is `token harappa`"},
        {"token harappa, yellow rome", "a key location is"},
        /* a step of too many words reads as what it is not (Odyssée-land's fights made the
         * shared limit 32 words a step) */
        {"yellow rome from start to b1 and then r1 and", "an arrow is `red rome`"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        bad_notation(&s, bad[i].line, bad[i].words);
    char line[2048];
    line[0] = '\0';
    for (int i = 0; i < 33; i++)
        strcat(line, i ? ", yellow rome" : "yellow rome");
    bad_notation(&s, line, "more than 32 steps");
    memset(line, ' ', 1100);
    memcpy(line + 1090, "pass", 4);
    line[1100] = '\0';
    bad_notation(&s, line, "longer than");
    /* a line of 32 steps is read, and refused only by the rules */
    line[0] = '\0';
    for (int i = 0; i < 32; i++)
        strcat(line, i ? ", ticket swap" : "ticket swap");
    refused(&s, line, "two tickets a turn at most");
}

/* 60,000 lines of random games mutated (bytes flipped, deleted, duplicated, commas put in):
 * nothing crashes, a refused line leaves the state as it was with a message, an accepted one
 * keeps the invariants. */
typedef struct fuzz_base {
    ex_state state;
    char line[LINE_LENGTH];
} fuzz_base;

static void fuzz_one(const ex_state *base, const char *text, int *accepted)
{
    ex_line line;
    ex_error error = {""};
    ex_status status = ex_parse(base, text, &line, &error);
    if (status != EX_OK && status != EX_BAD_NOTATION)
        fail_msg("ex_parse('%s') returned %d", text, status);
    if (status == EX_BAD_NOTATION && error.message[0] == '\0')
        fail_msg("ex_parse('%s'): no message", text);
    if (status == EX_OK && line.kind == EX_LINE_MOVE) {
        char canonical[LINE_LENGTH];
        int length = ex_format_move(base, &line.move, canonical, sizeof canonical);
        assert_true(length >= 0 && (size_t)length < sizeof canonical);
    }
    ex_state s = *base;
    ex_error play_error = {""};
    if (ex_play_line(&s, text, NULL, &play_error) != EX_OK) {
        assert_memory_equal(&s, base, sizeof s);
        if (play_error.message[0] == '\0')
            fail_msg("'%s' refused without a message", text);
        return;
    }
    check_invariants(&s);
    (*accepted)++;
}

static void test_ex_notation_fuzz(void **state_)
{
    (void)state_;
    enum { BASES = 600 };
    fuzz_base *bases = malloc(sizeof *bases * BASES);
    assert_non_null(bases);
    int count = 0;
    for (int seats = 2; seats <= EX_MAX_SEATS && count < BASES; seats += 2) {
        test_lines lines = {0};
        random_game(seats, 5000u + (uint64_t)seats, &lines);
        ex_state s = new_game(seats);
        for (int i = 0; i < lines.count && count < BASES; i++) {
            bases[count].state = s;
            snprintf(bases[count].line, LINE_LENGTH, "%s", lines.lines[i]);
            count++;
            play(&s, lines.lines[i]);
        }
        test_lines_free(&lines);
    }
    uint64_t rng = 60000;
    int accepted = 0;
    char text[LINE_LENGTH];
    for (int i = 0; i < 60000; i++) {
        const fuzz_base *base = &bases[below(&rng, count)];
        snprintf(text, sizeof text, "%s", base->line);
        size_t length = strlen(text);
        int edits = 1 + below(&rng, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = length ? (size_t)below(&rng, (int)length) : 0;
            switch (below(&rng, 4)) {
            case 0: /* a bit flipped (a '\0' ends the line there) */
                if (length) {
                    text[at] = (char)(text[at] ^ (1 << below(&rng, 8)));
                    length = strlen(text);
                }
                break;
            case 1: { /* bytes deleted */
                size_t n = 1 + (size_t)below(&rng, 8);
                if (at + n > length)
                    n = length - at;
                memmove(text + at, text + at + n, length - at - n + 1);
                length -= n;
                break;
            }
            case 2: { /* a span duplicated */
                size_t n = 1 + (size_t)below(&rng, 16);
                if (at + n > length)
                    n = length - at;
                if (length + n < sizeof text - 1) {
                    memmove(text + at + n, text + at, length - at + 1);
                    length += n;
                }
                break;
            }
            default: /* a comma put in */
                if (length + 2 < sizeof text - 1) {
                    const char *comma = below(&rng, 2) ? "," : ", ";
                    size_t n = strlen(comma);
                    memmove(text + at + n, text + at, length - at + 1);
                    memcpy(text + at, comma, n);
                    length += n;
                }
            }
        }
        fuzz_one(&base->state, text, &accepted);
    }
    print_message("fuzz: 60000 mutated lines from %d, %d accepted\n", count, accepted);
    free(bases);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ex_setup_objectives_three_segments_away),
        cmocka_unit_test(test_ex_setup_key_locations_in_seat_order),
        cmocka_unit_test(test_ex_setup_deal_tickets_and_colours),
        cmocka_unit_test(test_ex_book_example_steps_one_to_five),
        cmocka_unit_test(test_ex_arrow_first_leaves_the_start),
        cmocka_unit_test(test_ex_arrow_never_back_and_ex_engine_1),
        cmocka_unit_test(test_ex_arrow_colours_share_segments),
        cmocka_unit_test(test_ex_arrow_full_expedition_and_last_loop),
        cmocka_unit_test(test_ex_arrow_blue_circle_bonus),
        cmocka_unit_test(test_ex_arrow_red_circle_ticket),
        cmocka_unit_test(test_ex_arrow_wrap_points),
        cmocka_unit_test(test_ex_claim_only_a_place_reached_this_turn),
        cmocka_unit_test(test_ex_claim_key_locations_ex_engine_4),
        cmocka_unit_test(test_ex_claim_and_swap_need_a_card_in_hand),
        cmocka_unit_test(test_ex_claim_at_the_tip_a_removal_leaves),
        cmocka_unit_test(test_ex_objective_taken_on_arrival_and_replaced),
        cmocka_unit_test(test_ex_objective_with_an_empty_deck),
        cmocka_unit_test(test_ex_tickets_two_a_turn_and_the_turns_own_arrow),
        cmocka_unit_test(test_ex_tickets_removal_consequences),
        cmocka_unit_test(test_ex_tickets_swap_needs_two_cards_in_the_deck),
        cmocka_unit_test(test_ex_loop_restart_owed_at_once),
        cmocka_unit_test(test_ex_loop_the_rule_books_triangle),
        cmocka_unit_test(test_ex_loop_several_in_one_turn),
        cmocka_unit_test(test_ex_loop_at_a_blue_circle_restart_then_bonus),
        cmocka_unit_test(test_ex_end_a_hand_emptied_finishes_the_round),
        cmocka_unit_test(test_ex_end_scores_and_ranks),
        cmocka_unit_test(test_ex_end_all_arrows_placed_ends_at_once),
        cmocka_unit_test(test_ex_random_games_replayed),
        cmocka_unit_test(test_ex_notation_round_trip),
        cmocka_unit_test(test_ex_legal_steps_in_random_positions),
        cmocka_unit_test(test_ex_reconcile_simple_cases),
        cmocka_unit_test(test_ex_reconcile_book_example),
        cmocka_unit_test(test_ex_reconcile_every_turn_of_random_games),
        cmocka_unit_test(test_ex_notation_documented_forms),
        cmocka_unit_test(test_ex_notation_refusals),
        cmocka_unit_test(test_ex_notation_fuzz),
    };
    return cmocka_run_group_tests(tests, setup_board, NULL);
}
