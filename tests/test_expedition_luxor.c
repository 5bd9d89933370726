/*
 * Expedition Luxor: the rule books' worked examples, every D-EL decision, each rule's refusal
 * in plain words, random games with invariants after every action, the notation's round trip,
 * legal move generation, reconcile, and a fuzz of the notation parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "expedition_luxor_internal.h"
#include "rules.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ORANGE, BLACK, GREY, YELLOW };

/* Plays lines that must be accepted. */
static void play(el_state *state, const char *const *lines)
{
    for (; *lines; lines++) {
        el_error error = {""};
        el_status status = el_play_line(state, *lines, NULL, &error);
        if (status != EL_OK)
            fail_msg("'%s' refused: %s", *lines, error.message);
    }
}

/* Plays a line that must be refused, leaving the state as it was, with this reason. */
static void refused(el_state *state, const char *line, const char *reason)
{
    el_state before = *state;
    el_error error = {""};
    assert_int_not_equal(el_play_line(state, line, NULL, &error), EL_OK);
    if (!strstr(error.message, reason))
        fail_msg("'%s': expected a reason with '%s', got '%s'", line, reason, error.message);
    assert_memory_equal(&before, state, sizeof before);
}

/* A test fixture: puts adventurers (bottom first) on a tile without playing the moves that
 * would have brought them, to set up a rule book's picture directly. */
static void stack_on(el_state *state, int row, int col, int count, const int *seats)
{
    el_cell *cell = &state->cells[row + EL_ORIGIN][col + EL_ORIGIN];
    assert_true(cell->has_tile);
    for (int i = 0; i < count; i++) {
        cell->stack[cell->height++] = (uint8_t)seats[i];
        state->supply[seats[i]]--;
    }
}

static const el_cell *cell(const el_state *state, int row, int col)
{
    return &state->cells[row + EL_ORIGIN][col + EL_ORIGIN];
}

static const char *const start_2p[] = {
    "start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1", NULL};

/* ---- the rule books' examples ---- */

/* "Grey places 5 of their adventurers on the camp just played, moves 4 to the adjacent temple,
 * and the 2 surplus on the temple on to the pyramid: no one can enter the temple or the pyramid
 * any more, they hold 4 each." (both books) */
static void test_el_book_grey_camp_of_five_to_temple_and_pyramid(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(3, false);
    play(&s, (const char *const[]){"start desert@0,0 desert@0,1 desert@0,2 mountain@1,0 "
                                   "mountain@1,1 desert-temple@1,2",
                                   "orange: desert@1,3", "desert@1,4", "oasis-temple@0,4", "end",
                                   "black: desert-pyramid@0,5", "end", NULL});
    /* the picture: two adventurers each on the temple and the pyramid already */
    int two_orange[] = {ORANGE, ORANGE}, two_black[] = {BLACK, BLACK};
    stack_on(&s, 0, 4, 2, two_orange);
    stack_on(&s, 0, 5, 2, two_black);
    refused(&s, "grey: desert-camp@0,3 x5 > e 2 2 1", "only the 4 extra ones placed");
    play(&s, (const char *const[]){"grey: desert-camp@0,3 x5 > e 2 2", NULL});
    assert_int_equal(cell(&s, 0, 3)->height, 1);
    assert_int_equal(cell(&s, 0, 4)->height, 4);
    assert_int_equal(cell(&s, 0, 5)->height, 4);
    assert_int_equal(cell(&s, 0, 4)->stack[3], GREY);
    assert_int_equal(cell(&s, 0, 5)->stack[3], GREY);
    assert_int_equal(s.supply[GREY], EL_ADVENTURERS - 5);
    /* "no other adventurer can enter the temple or the pyramid any more" */
    play(&s, (const char *const[]){"end", NULL});
    refused(&s, "orange: oasis-camp@-1,4 x4 > s 2", "would hold 6 adventurers; 4 at most");
    refused(&s, "orange: desert-camp@-1,5 x2 > s 1", "would hold 5 adventurers; 4 at most");
}

/* "Grey must put one adventurer on the desert camp and decides to add 3 more (4 in all)." */
static void test_el_book_camp_takes_mandatory_plus_extras_up_to_five(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    refused(&s, "desert-camp@0,2 x6", "1 to 5 adventurers");
    refused(&s, "oasis-camp@0,2 x1", "2 to 5 adventurers");
    refused(&s, "desert@0,2 x1", "only a camp takes adventurers");
    play(&s, (const char *const[]){"desert-camp@0,2 x4", NULL});
    assert_int_equal(cell(&s, 0, 2)->height, 4);
    assert_int_equal(s.supply[ORANGE], 26);
    /* a camp without a count takes its mandatory adventurers */
    play(&s, (const char *const[]){"oasis-camp@1,2", NULL});
    assert_int_equal(cell(&s, 1, 2)->height, 2);
}

/* The expansion's example: "black moves their adventurer from the mountain to the temple where
 * they have the majority, and takes orange's and grey's adventurers." */
static void test_el_book_sandstorm_takes_the_others(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(3, true);
    play(&s, (const char *const[]){"start desert@0,0 mountain@0,1 desert-temple@0,2 desert@1,0 "
                                   "desert@1,1 desert@1,2",
                                   "desert@2,0", "end", NULL});
    int mountain[] = {BLACK}, temple[] = {ORANGE, BLACK, GREY, BLACK};
    stack_on(&s, 0, 1, 1, mountain);
    stack_on(&s, 0, 2, 4, temple);
    refused(&s, "black: sandstorm 0,1 > 0,2", "after placing tiles");
    play(&s, (const char *const[]){"black: desert@2,1", NULL});
    /* 4 there already: black would have 3 after the storm, within the limit */
    play(&s, (const char *const[]){"black: sandstorm 0,1 > 0,2", NULL});
    assert_int_equal(cell(&s, 0, 2)->height, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(cell(&s, 0, 2)->stack[i], BLACK);
    assert_int_equal(cell(&s, 0, 1)->height, 0);
    assert_int_equal(s.captured[BLACK][ORANGE], 1);
    assert_int_equal(s.captured[BLACK][GREY], 1);
    int32_t scores[EL_MAX_SEATS];
    el_scores(&s, scores);
    assert_int_equal(scores[BLACK], 2 + 2); /* the temple and the two captured */
    refused(&s, "black: caravan 0,1 > 0,0", "one action token a turn");
}

/* The books' scoring pictures: only the top adventurer scores, 1 camp, 2 temple, 3 pyramid;
 * other tiles nothing. */
static void test_el_book_scoring_counts_top_adventurers_only(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(4, false);
    play(&s, (const char *const[]){"start desert@0,0 desert@0,1 desert@0,2 desert@0,3 "
                                   "mountain@1,0 desert-temple@1,1 desert-temple@1,2 mountain@1,3",
                                   "desert-pyramid@2,0", "oasis-camp@2,1 x2", "oasis-pyramid@2,2",
                                   "end", NULL});
    int camp_top_black[] = {BLACK};
    int temple1[] = {YELLOW, BLACK}, temple2[] = {BLACK, GREY}, pyramid1[] = {GREY},
        pyramid2[] = {GREY, ORANGE}, desert[] = {YELLOW, YELLOW}, mountain[] = {GREY};
    stack_on(&s, 2, 1, 1, camp_top_black); /* orange 2 then black on top */
    stack_on(&s, 1, 1, 2, temple1);
    stack_on(&s, 1, 2, 2, temple2);
    stack_on(&s, 2, 0, 1, pyramid1);
    stack_on(&s, 2, 2, 2, pyramid2);
    stack_on(&s, 0, 0, 2, desert);
    stack_on(&s, 1, 0, 1, mountain);
    int32_t scores[EL_MAX_SEATS];
    el_scores(&s, scores);
    assert_int_equal(scores[ORANGE], 3);        /* oasis pyramid */
    assert_int_equal(scores[BLACK], 1 + 2);     /* camp, temple */
    assert_int_equal(scores[GREY], 2 + 3);      /* temple, desert pyramid */
    assert_int_equal(scores[YELLOW], 0);        /* a desert and nothing else */
}

static void test_el_ties_go_to_the_larger_supply_then_are_shared(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(3, false);
    play(&s, (const char *const[]){"start desert@0,0 desert@0,1 desert@0,2 mountain@1,0 "
                                   "mountain@1,1 desert-temple@1,2",
                                   "desert-temple@1,3", "end", NULL});
    int black[] = {BLACK}, grey[] = {GREY, GREY, GREY};
    stack_on(&s, 1, 2, 1, black); /* black: 2 points, 29 left */
    stack_on(&s, 1, 3, 3, grey);  /* grey: 2 points, 27 left */
    int32_t scores[EL_MAX_SEATS], ranks[EL_MAX_SEATS];
    el_scores(&s, scores);
    assert_int_equal(scores[BLACK], 2);
    assert_int_equal(scores[GREY], 2);
    el_ranks(&s, ranks);
    assert_int_equal(ranks[BLACK], 1);
    assert_int_equal(ranks[GREY], 2);
    assert_int_equal(ranks[ORANGE], 3);
    s.supply[GREY] = s.supply[BLACK];
    el_ranks(&s, ranks);
    assert_int_equal(ranks[BLACK], 1);
    assert_int_equal(ranks[GREY], 1); /* still tied: a shared victory */
}

/* ---- the decisions of RULES.md ---- */

static void test_el_d1_deck_order_is_checked_only_when_asked(void **state_)
{
    (void)state_;
    el_state free_deck = test_el_new_game(2, false);
    play(&free_deck, start_2p);
    play(&free_deck, (const char *const[]){"oasis-pyramid@0,2", NULL}); /* allowed by default */

    el_config config;
    el_config_default(&config);
    config.seats = 2;
    config.check_deck = true;
    el_state s;
    el_error error;
    assert_int_equal(el_init(&s, &config, &error), EL_OK);
    refused(&s, "start desert-pyramid@0,0 mountain@0,1 desert-temple@1,0 desert@1,1",
            "the start tiles are 1-tiles");
    play(&s, start_2p);
    /* the hand: the 1-camp and a kept 1-tile; the oasis pyramid is a 3 */
    refused(&s, "oasis-pyramid@0,2", "cannot hold a oasis-pyramid yet");
    /* the lake is a 2: drawn after the first placement */
    refused(&s, "lake@0,2", "cannot hold a lake yet");
    play(&s, (const char *const[]){"desert-camp@0,2 x1", "lake@0,3", NULL});
    /* a second desert camp: the 2-pile has one, drawn by now */
    play(&s, (const char *const[]){"desert-camp@1,2 x1", "end", NULL});
    play(&s, (const char *const[]){"desert-camp@-1,0 x1", "end", NULL});
    /* orange has drawn 3 of the 2-pile; a third desert camp needs the 3-pile */
    refused(&s, "desert-camp@1,3 x1", "cannot hold a desert-camp yet");
}

static void test_el_d2_any_connected_start_layout_of_the_right_size(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    refused(&s, "start desert@0,0 mountain@0,1 desert-temple@1,0", "has 4 tiles with 2 players");
    refused(&s, "start desert@0,0 mountain@0,1 desert-temple@1,1 desert@2,2",
            "not connected edge to edge");
    refused(&s, "start desert@1,0 mountain@1,1 desert-temple@2,0 desert@2,1",
            "smallest row and column are 0");
    refused(&s, "start desert-camp@0,0 mountain@0,1 desert-temple@1,0 desert@1,1",
            "a camp never starts");
    refused(&s, "desert@0,2", "the start layout comes first");
    play(&s, (const char *const[]){"start desert@0,0 desert@1,0 desert@2,0 mountain@2,1", NULL});
    assert_int_equal(s.tiles, 4);
    refused(&s, "start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1", "laid once");
}

static void test_el_d3_short_supply_places_all_that_remain(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    s.supply[ORANGE] = 1;
    refused(&s, "oasis-camp@0,2 x2", "exactly 1 adventurers (1 in supply)");
    play(&s, (const char *const[]){"oasis-camp@0,2", NULL});
    assert_int_equal(cell(&s, 0, 2)->height, 1);
    assert_int_equal(s.supply[ORANGE], 0);
    play(&s, (const char *const[]){"desert-camp@1,2 x0", NULL});
    assert_int_equal(cell(&s, 1, 2)->height, 0);
}

static void test_el_d4_movers_go_straight_and_never_cross_a_gap(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, (const char *const[]){"start desert@0,0 mountain@0,1 lake@1,0 desert@1,1", NULL});
    refused(&s, "desert-camp@0,2 x5 > w 2 2", "the mountain at 0,1 is entered by leaving 3");
    refused(&s, "desert-camp@0,2 x5 > e 1", "no tile at 0,3 to enter");
    play(&s, (const char *const[]){"desert-camp@1,2 x5 > w 1", NULL});
    refused(&s, "desert-camp@2,0 x5 > n 1", "the lake at 1,0 cannot be entered");
    play(&s, (const char *const[]){"desert-camp@0,2 x5 > w 3 1", NULL});
    assert_int_equal(cell(&s, 0, 1)->height, 3);
    assert_int_equal(cell(&s, 0, 0)->height, 1);
    assert_int_equal(cell(&s, 0, 2)->height, 1);
    assert_int_equal(cell(&s, 1, 2)->height, 4);
}

static void test_el_d5_token_moved_adventurer_goes_on_top(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, true);
    play(&s, start_2p);
    int mountain[] = {BLACK, ORANGE, BLACK}, desert[] = {BLACK, BLACK};
    stack_on(&s, 0, 1, 3, mountain);
    stack_on(&s, 0, 0, 2, desert);
    play(&s, (const char *const[]){"desert@0,2", "caravan 0,1 > 0,0", NULL});
    assert_int_equal(cell(&s, 0, 0)->height, 3);
    assert_int_equal(cell(&s, 0, 0)->stack[2], ORANGE);
    /* EL-ENGINE-1: orange's only adventurer there left; black's order kept */
    assert_int_equal(cell(&s, 0, 1)->height, 2);
    assert_int_equal(cell(&s, 0, 1)->stack[0], BLACK);
    assert_int_equal(cell(&s, 0, 1)->stack[1], BLACK);
}

/* ---- rules, one refusal each ---- */

static void test_el_placement_needs_an_edge_and_the_size_limit(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    refused(&s, "oasis-temple@4,4", "oasis-temple@4,4: not adjacent to any tile");
    refused(&s, "desert@2,2", "not adjacent to any tile"); /* a corner only */
    refused(&s, "desert@1,1", "a tile is already there");
    /* 2 players: 7 wide at most */
    play(&s, (const char *const[]){"desert@0,2", "desert@0,3", "desert-temple@0,4", "end",
                                   "desert@0,5", "desert@0,6", "end", NULL});
    refused(&s, "desert-pyramid@0,7", "the layout would be 8x2; 7x7 at most with 2 players");
    refused(&s, "desert-pyramid@0,-1", "8x2");
}

/* What a tile may ever hold, which the recogniser reads stacks by: 5 on a camp, none on a
 * lake, 4 on any other; the invariants refuse more. */
static void test_el_most_adventurers_a_tile_may_hold(void **state_)
{
    (void)state_;
    for (int type = 0; type < EL_TILE_TYPES; type++) {
        int most = el_most_adventurers((el_tile_type)type);
        if (type == EL_DESERT_CAMP || type == EL_OASIS_CAMP)
            assert_int_equal(most, 5);
        else if (type == EL_LAKE)
            assert_int_equal(most, 0);
        else
            assert_int_equal(most, 4);
    }
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_cell *cell = &s.cells[0 + EL_ORIGIN][0 + EL_ORIGIN]; /* a start tile: no camp */
    int most = el_most_adventurers((el_tile_type)cell->type);
    el_error error;
    for (int height = most; height <= most + 1; height++) { /* as many as it may hold, one more */
        for (int i = 0; i < height; i++)
            cell->stack[i] = ORANGE;
        s.supply[ORANGE] = (uint8_t)(s.supply[ORANGE] + cell->height - height);
        cell->height = (uint8_t)height;
        assert_int_equal(el_verify(&s, &error), height <= most ? EL_OK : EL_ILLEGAL);
    }
    /* under a token: none under the boat or the snakes, as many as the tile holds without */
    assert_int_equal(el_most_adventurers_under(EL_NO_TOKEN), EL_STACK_MAX);
    assert_int_equal(el_most_adventurers_under(EL_BOAT), 0);
    assert_int_equal(el_most_adventurers_under(EL_SNAKES), 0);
    cell->height = 1;
    s.supply[ORANGE] = (uint8_t)(s.supply[ORANGE] + most + 1 - 1);
    assert_int_equal(el_verify(&s, &error), EL_OK);
    cell->token = EL_SNAKES;
    assert_int_equal(el_verify(&s, &error), EL_ILLEGAL);
    assert_non_null(strstr(error.message, "none may stand"));
}

static void test_el_a_seventh_desert_camp_is_refused(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    play(&s, (const char *const[]){
                 "orange: desert-camp@-1,0 x1", "desert-camp@-1,1 x1", "desert-camp@-2,0 x1", "end",
                 "black: desert@2,0", "end",
                 "orange: desert-camp@-2,1 x1", "desert-camp@-3,0 x1", "desert-camp@-3,1 x1", "end",
                 "black: desert@2,1", "end", NULL});
    refused(&s, "desert-camp@-4,0 x1", "orange has placed all 6 desert-camp tiles of the box");
    play(&s, (const char *const[]){"orange: oasis-camp@-4,0 x2", NULL}); /* another type is fine */
}

static void test_el_turn_structure(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, true);
    play(&s, start_2p);
    refused(&s, "end", "places at least one tile");
    refused(&s, "pass", "still has 22 tiles to place");
    refused(&s, "black: desert@0,2", "it is orange's turn, not black's");
    refused(&s, "boat 0,1 > 0,0", "after placing tiles");
    play(&s, (const char *const[]){"orange: desert@0,2", "desert@0,3", "desert@1,2", NULL});
    refused(&s, "desert-temple@1,3", "3 tiles at most");
    refused(&s, "snakes 0,1 > 1,3", "adventurers on a mountain");
    play(&s, (const char *const[]){"end", NULL});
    assert_int_equal(s.active, BLACK);
}

static void test_el_tokens_need_a_mountain_and_two_of_a_kind_at_most(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, true);
    play(&s, (const char *const[]){"start desert@0,0 mountain@0,1 lake@1,0 mountain@1,1", NULL});
    int climbers[] = {ORANGE, ORANGE, ORANGE, ORANGE};
    stack_on(&s, 0, 1, 4, climbers);
    play(&s, (const char *const[]){"desert@0,2", "boat 0,1 > 1,0", "end", NULL});
    assert_int_equal(cell(&s, 1, 0)->token, EL_BOAT);
    assert_int_equal(s.supply[ORANGE], EL_ADVENTURERS - 4 + 1);
    play(&s, (const char *const[]){"black: desert@2,0", "end", "orange: desert-camp@2,1 x1", NULL});
    refused(&s, "boat 0,1 > 1,0", "a lake without a token");
    refused(&s, "snakes 0,1 > 2,1", "without adventurers or token");
    play(&s, (const char *const[]){"snakes 0,1 > 2,0", "end", "black: desert@3,0", "end", NULL});
    /* nobody may enter the snakes' tile */
    refused(&s, "orange: desert-camp@2,-1 x2 > e 1", "the snakes at 2,0 bar the way");
    play(&s, (const char *const[]){"desert-pyramid@0,3", "snakes 0,1 > 0,3", "end",
                                   "black: desert-temple@3,1", "end", "orange: oasis-temple@0,4",
                                   NULL});
    refused(&s, "snakes 0,1 > 0,4", "orange has used both snakes tokens");
    /* the boat: a point for each camp, temple or pyramid beside its lake */
    int32_t before[EL_MAX_SEATS], after[EL_MAX_SEATS];
    el_scores(&s, before);
    play(&s, (const char *const[]){"desert-temple@1,-1", NULL});
    el_scores(&s, after);
    assert_int_equal(after[ORANGE], before[ORANGE] + 1);
    assert_int_equal(after[BLACK], before[BLACK]);
    assert_int_equal(before[ORANGE], 1); /* the camp at 2,1 */
}

static void test_el_pass_and_the_end_of_the_game(void **state_)
{
    (void)state_;
    /* A whole random 2-player game ends when every tile is placed, with passes in between. */
    el_state s = test_el_new_game(2, false);
    el_error error;
    assert_int_equal(el_random_game(&s, 7, NULL, NULL, &error), EL_OK);
    assert_int_equal(s.phase, EL_PHASE_OVER);
    assert_int_equal(s.tiles, 48);
    assert_int_equal(el_tiles_left(&s, 0), 0);
    assert_int_equal(el_tiles_left(&s, 1), 0);
    refused(&s, "desert@0,2", "the game is over");
    el_move moves[4];
    assert_int_equal(el_legal_moves(&s, moves, 4), 0);
}

/* ---- random games: invariants after every action, and the round trip ---- */

static void check_invariants(const el_state *s)
{
    el_error error = {""};
    if (el_verify(s, &error) != EL_OK)
        fail_msg("invariant broken: %s", error.message);
}

/* The fast position scan must agree with the rule, cell by cell over the whole grid: a tile
 * may go where it is empty, beside a tile, and keeps the layout within the size limit. */
static void check_positions_against_the_rule(const el_state *s)
{
    int8_t positions[EL_MAX_POSITIONS][2];
    int count = el_legal_positions(s, positions, EL_MAX_POSITIONS);
    int expected = 0, limit = s->config.seats == 2 ? 7 : s->config.seats == 3 ? 9 : 10;
    for (int row = -EL_ORIGIN; row < EL_GRID - EL_ORIGIN; row++)
        for (int col = -EL_ORIGIN; col < EL_GRID - EL_ORIGIN; col++) {
            const el_cell *c = cell(s, row, col);
            bool beside = false;
            for (int d = 0; d < 4; d++) {
                int r = row + (d == 0) - (d == 1), k = col + (d == 2) - (d == 3);
                beside |= r >= -EL_ORIGIN && r < EL_GRID - EL_ORIGIN && k >= -EL_ORIGIN &&
                          k < EL_GRID - EL_ORIGIN && cell(s, r, k)->has_tile;
            }
            int min_row = row < s->min_row ? row : s->min_row, max_row = row > s->max_row ? row : s->max_row;
            int min_col = col < s->min_col ? col : s->min_col, max_col = col > s->max_col ? col : s->max_col;
            bool legal = !c->has_tile && beside && max_row - min_row < limit && max_col - min_col < limit;
            bool listed = false;
            for (int i = 0; i < count; i++)
                listed |= positions[i][0] == row && positions[i][1] == col;
            assert_int_equal(listed, legal);
            expected += legal;
        }
    assert_int_equal(count, expected);
}

typedef struct replay {
    el_state state;
    int lines;
    bool check_legal_moves;
} replay;

/* Feeds every line of a random game back through the notation, checking after each. */
static void replay_line(void *context, const char *line)
{
    replay *r = context;
    if (r->check_legal_moves && r->lines % 7 == 0 && r->state.phase == EL_PHASE_PLAY) {
        static el_move moves[20000];
        size_t count = el_legal_moves(&r->state, moves, 20000);
        assert_true(count > 0 && count <= 20000);
        for (size_t i = 0; i < count; i += 1 + count / 50) {
            el_error error;
            assert_int_equal(el_check(&r->state, &moves[i], &error), EL_OK);
        }
    }
    if (r->check_legal_moves && r->state.phase == EL_PHASE_PLAY)
        check_positions_against_the_rule(&r->state);
    el_error error = {""};
    if (el_play_line(&r->state, line, NULL, &error) != EL_OK)
        fail_msg("replaying '%s': %s", line, error.message);
    check_invariants(&r->state);
    r->lines++;
}

static void random_games(int seats, bool expansion, int games)
{
    for (int g = 0; g < games; g++) {
        el_state played = test_el_new_game(seats, expansion);
        replay *r = calloc(1, sizeof *r);
        r->state = test_el_new_game(seats, expansion);
        r->check_legal_moves = g < 3;
        el_error error = {""};
        if (el_random_game(&played, 1000u * (unsigned)seats + (unsigned)g + (expansion ? 500 : 0),
                           replay_line, r, &error) != EL_OK)
            fail_msg("random game: %s", error.message);
        assert_int_equal(played.phase, EL_PHASE_OVER);
        assert_int_equal(r->state.phase, EL_PHASE_OVER);
        int32_t played_scores[EL_MAX_SEATS], replayed_scores[EL_MAX_SEATS];
        el_scores(&played, played_scores);
        el_scores(&r->state, replayed_scores);
        assert_memory_equal(played_scores, replayed_scores, sizeof played_scores);
        assert_memory_equal(played.cells, r->state.cells, sizeof played.cells);
        assert_int_equal(played.tiles, seats * EL_TILES_PER_SEAT);
        free(r);
    }
}

static void test_el_random_games_2_players(void **state_) { (void)state_; random_games(2, false, 40); }
static void test_el_random_games_3_players(void **state_) { (void)state_; random_games(3, false, 40); }
static void test_el_random_games_4_players(void **state_) { (void)state_; random_games(4, false, 40); }
static void test_el_random_games_2_players_expansion(void **state_) { (void)state_; random_games(2, true, 40); }
static void test_el_random_games_3_players_expansion(void **state_) { (void)state_; random_games(3, true, 40); }
static void test_el_random_games_4_players_expansion(void **state_) { (void)state_; random_games(4, true, 40); }

static void test_el_random_game_uses_tokens_with_the_expansion(void **state_)
{
    (void)state_;
    int tokens = 0;
    for (int g = 0; g < 20; g++) {
        el_state s = test_el_new_game(4, true);
        el_error error;
        assert_int_equal(el_random_game(&s, (uint64_t)g, NULL, NULL, &error), EL_OK);
        for (int seat = 0; seat < 4; seat++)
            for (int t = EL_BOAT; t < EL_TOKEN_TYPES; t++)
                tokens += s.tokens_used[seat][t];
    }
    assert_true(tokens > 20);
}

/* el_verify itself: each invariant, broken on purpose, is caught. */
static void test_el_verify_catches_broken_invariants(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_error error;
    assert_int_equal(el_verify(&s, &error), EL_OK);
    el_state broken = s;
    broken.supply[BLACK]--;
    assert_int_equal(el_verify(&broken, &error), EL_ILLEGAL);
    assert_non_null(strstr(error.message, "black"));
    broken = s;
    int five[] = {ORANGE, ORANGE, ORANGE, ORANGE, ORANGE};
    stack_on(&broken, 0, 0, 5, five); /* 5 on a desert, not a camp */
    assert_int_equal(el_verify(&broken, &error), EL_ILLEGAL);
    broken = s;
    int one[] = {ORANGE};
    stack_on(&broken, 1, 1, 1, one);
    broken.cells[1 + EL_ORIGIN][1 + EL_ORIGIN].token = EL_SNAKES;
    assert_int_equal(el_verify(&broken, &error), EL_ILLEGAL);
    broken = s;
    broken.placed_by_type[ORANGE][EL_LAKE] = 2;
    broken.placed[ORANGE] = 2;
    assert_int_equal(el_verify(&broken, &error), EL_ILLEGAL);
}

/* ---- legal moves ---- */

static bool contains_move(const el_move *moves, size_t count, const el_move *move)
{
    for (size_t i = 0; i < count; i++)
        if (memcmp(&moves[i], move, sizeof *move) == 0)
            return true;
    return false;
}

static void test_el_legal_moves_list_camps_with_every_movement(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    static el_move moves[20000];
    size_t count = el_legal_placements(&s, EL_DESERT_CAMP, moves, 20000);
    el_line line;
    el_error error;
    assert_int_equal(el_parse(&s, "desert-camp@0,2 x5 > w 3 1", &line, &error), EL_OK);
    assert_true(contains_move(moves, count, &line.move)); /* 3 on the mountain, 1 beyond */
    assert_int_equal(el_parse(&s, "desert-camp@0,2 x5 > w 2 2", &line, &error), EL_OK);
    assert_false(contains_move(moves, count, &line.move)); /* the mountain needs 3 */
    assert_int_equal(el_parse(&s, "desert-camp@1,2 x5 > w 1 1", &line, &error), EL_OK);
    assert_true(contains_move(moves, count, &line.move));
    assert_int_equal(el_parse(&s, "desert-camp@1,2 x5 > w 2 2", &line, &error), EL_OK);
    assert_true(contains_move(moves, count, &line.move));
    assert_int_equal(el_parse(&s, "desert-camp@1,2 x3 > w 1", &line, &error), EL_OK);
    assert_true(contains_move(moves, count, &line.move));
    for (size_t i = 0; i < count; i++)
        assert_int_equal(el_check(&s, &moves[i], &error), EL_OK);
    size_t all = el_legal_moves(&s, moves, 20000);
    assert_true(all > count);
    /* no end or pass before a tile: every move is a placement */
    for (size_t i = 0; i < all; i++)
        assert_int_equal(moves[i].kind, EL_MOVE_PLACE);
}

/* ---- reconcile ---- */

/* Plays a random 3-player game with the expansion up to `actions`, then keeps the state at the
 * start of the next turn and the state after that whole turn. */
typedef struct turn_capture {
    el_state state;
    el_state before;
    int lines, stop_after;
    bool captured, in_turn;
    el_state after;
    int turn_moves;
} turn_capture;

static void capture_line(void *context, const char *line)
{
    turn_capture *c = context;
    el_error error;
    if (c->lines == c->stop_after) {
        c->before = c->state;
        c->in_turn = true;
    }
    assert_int_equal(el_play_line(&c->state, line, NULL, &error), EL_OK);
    c->lines++;
    if (c->in_turn && !c->captured) {
        bool ended = strstr(line, ": end") || strstr(line, ": pass");
        if (ended) {
            c->captured = true;
        } else {
            c->after = c->state;
            c->turn_moves++;
        }
    }
}

static void test_el_reconcile_explains_whole_turns_of_random_games(void **state_)
{
    (void)state_;
    int explained = 0, ambiguous = 0, unchanged = 0;
    for (int g = 0; g < 30; g++) {
        turn_capture *c = calloc(1, sizeof *c);
        c->state = test_el_new_game(3, g % 2 == 0);
        c->stop_after = 8 + (g * 7) % 120;
        el_state played = c->state;
        el_error error;
        assert_int_equal(el_random_game(&played, (uint64_t)(100 + g), capture_line, c, &error), EL_OK);
        /* skip captures that landed on an `end` line: the turn must start there */
        if (!c->captured || c->before.placed_this_turn != 0 || c->turn_moves == 0) {
            free(c);
            continue;
        }
        el_observation observation;
        el_observe(&c->after, &observation);
        el_reconcile_result result;
        el_reconcile(&c->before, &observation, &result);
        assert_true(result.answer == EL_EXPLAINED || result.answer == EL_AMBIGUOUS);
        /* the truth is among the explanations: replaying one leads to the same table */
        bool found = false;
        for (int e = 0; e < result.count && !found; e++) {
            el_state replayed = c->before;
            for (int m = 0; m < result.explanations[e].count; m++)
                assert_int_equal(el_apply(&replayed, &result.explanations[e].moves[m], &error), EL_OK);
            found = memcmp(replayed.cells, c->after.cells, sizeof replayed.cells) == 0 &&
                    replayed.active == c->after.active;
        }
        assert_true(found);
        explained += result.answer == EL_EXPLAINED;
        ambiguous += result.answer == EL_AMBIGUOUS;

        el_observe(&c->before, &observation);
        el_reconcile(&c->before, &observation, &result);
        assert_int_equal(result.answer, EL_UNCHANGED);
        unchanged++;
        free(c);
    }
    print_message("reconcile: %d explained, %d ambiguous, %d unchanged\n", explained, ambiguous,
                  unchanged);
    assert_true(explained >= 10);
}

/* A 2-player start, then orange's desert camp at 1,2 with 4 adventurers sending 2 west: the
 * game before it (*before) and the table after it as a camera sees it (*after, *seen). */
static void camp_sends_two_west(el_state *before, el_state *after, el_observation *seen)
{
    *before = test_el_new_game(2, false);
    play(before, start_2p);
    *after = *before;
    play(after, (const char *const[]){"desert-camp@1,2 x4 > w 2", NULL});
    el_observe(after, seen);
}

static void test_el_reconcile_with_hidden_heights_tops_and_an_unknown_cell(void **state_)
{
    (void)state_;
    el_state s, after;
    el_observation o;
    camp_sends_two_west(&s, &after, &o);
    el_reconcile_result r;

    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
    assert_int_equal(r.explanations[0].count, 1);
    char text[64];
    el_format_move(&r.explanations[0].moves[0], text, sizeof text);
    assert_string_equal(text, "desert-camp@1,2 x4 > w 2");

    /* heights hidden: x4 > w 2 and x3 > w 1 and x2 > w 1 ... all look alike */
    for (int i = 0; i < o.count; i++)
        o.tiles[i].height = EL_UNSEEN;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_AMBIGUOUS);
    assert_true(r.count >= 2);

    /* heights seen, the camp's top hidden: still one explanation */
    el_observe(&after, &o);
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].row == 1 && o.tiles[i].col == 2)
            o.tiles[i].top = EL_UNSEEN;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);

    /* the start tile at (0,0) under a hand: the rest still explains the move */
    el_observe(&after, &o);
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].row == 0 && o.tiles[i].col == 0) {
            o.tiles[i] = o.tiles[--o.count];
            break;
        }
    o.unknown[o.unknown_count].row = 0;
    o.unknown[o.unknown_count].col = 0;
    o.unknown_count++;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
}

/* Orange's camp sent 3 adventurers to the mountain at 0,1 and kept 1; in its next turn orange
 * placed a tile: a sandstorm or a caravan from the mountain onto the camp now leaves every top
 * as it was. */
static el_state tokens_may_hide(void)
{
    el_state s = test_el_new_game(2, true);
    play(&s, start_2p);
    play(&s, (const char *const[]){"desert-camp@0,2 x4 > w 3", "end", "black: desert@2,0",
                                   "end", "orange: desert@0,3", NULL});
    return s;
}

static void unseen_heights(el_observation *o)
{
    for (int i = 0; i < o->count; i++)
        o->tiles[i].height = EL_UNSEEN;
}

/* The mountain's and the camp's heights unread (the state's smallest row and column are 0, as
 * the observation's). */
static void unseen_token_heights(el_observation *o)
{
    for (int i = 0; i < o->count; i++)
        if (o->tiles[i].row == 0 && (o->tiles[i].col == 1 || o->tiles[i].col == 2))
            o->tiles[i].height = EL_UNSEEN;
}

/* The tokens a camera that cannot read heights would not see, and none where it reads them. */
static void test_el_hidden_tokens_are_those_the_table_does_not_show(void **state_)
{
    (void)state_;
    el_state s = tokens_may_hide(), after = s;
    play(&after, (const char *const[]){"sandstorm 0,1 > 0,2", NULL});
    el_observation o;
    el_observe(&after, &o);
    el_move moves[8];
    assert_int_equal(el_hidden_tokens(&s, &o, moves, 8), 0); /* the heights show it */

    unseen_heights(&o);
    size_t count = el_hidden_tokens(&s, &o, moves, 8);
    char text[2][64];
    assert_int_equal(count, 2);
    for (size_t k = 0; k < count; k++)
        el_format_move(&moves[k], text[k], sizeof text[k]);
    assert_string_equal(text[0], "sandstorm 0,1 > 0,2");
    assert_string_equal(text[1], "caravan 0,1 > 0,2");
    assert_int_equal(el_hidden_tokens(&s, &o, moves, 1), 1); /* at most max */

    /* one the table does show (the snakes lie on their tile) is not hidden */
    el_state snakes = s;
    play(&snakes, (const char *const[]){"snakes 0,1 > 1,1", NULL});
    el_observe(&snakes, &o);
    unseen_heights(&o);
    assert_int_equal(el_hidden_tokens(&s, &o, moves, 8), 0);

    /* nor one after the seat's token, or before it placed a tile */
    el_observe(&after, &o);
    unseen_heights(&o);
    assert_int_equal(el_hidden_tokens(&after, &o, moves, 8), 0);
    el_state early = test_el_new_game(2, true);
    play(&early, start_2p);
    play(&early, (const char *const[]){"desert-camp@0,2 x4 > w 3", "end", "black: desert@2,0",
                                       "end", NULL});
    el_observe(&early, &o);
    unseen_heights(&o);
    assert_int_equal(el_hidden_tokens(&early, &o, moves, 8), 0);
}

/* Black's camp shows that orange's turn ended; whether a token went before the end the table
 * cannot tell without the heights, so the games rank alike: ambiguous, not the end alone
 * because it is one move fewer. */
static void test_el_reconcile_ranks_a_hidden_token_as_no_move(void **state_)
{
    (void)state_;
    el_state s = tokens_may_hide(), after = s;
    play(&after, (const char *const[]){"sandstorm 0,1 > 0,2", "end", "black: desert-camp@2,1 x1",
                                       NULL});
    el_observation o;
    el_observe(&after, &o);
    el_reconcile_result r;
    el_reconcile(&s, &o, &r);
    /* the heights show a token (a sandstorm that captures nobody, or a caravan: the same) */
    assert_int_equal(r.answer, EL_AMBIGUOUS);
    assert_int_equal(r.count, 2);
    for (int k = 0; k < r.count; k++) {
        assert_int_equal(r.explanations[k].count, 3);
        assert_int_equal(r.explanations[k].hidden, 1);
    }

    unseen_token_heights(&o);
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_AMBIGUOUS);
    assert_int_equal(r.count, 3); /* the end alone, or after the sandstorm or the caravan */
    int alone = 0;
    for (int k = 0; k < r.count; k++) {
        alone += r.explanations[k].count == 2;
        assert_int_equal(r.explanations[k].count - r.explanations[k].hidden, 2);
    }
    assert_int_equal(alone, 1);
}

/* A height the camera could not tell from a second one: a game with either matches, one with
 * neither does not, and the reason names both. */
static void test_el_reconcile_takes_either_of_two_heights(void **state_)
{
    (void)state_;
    el_state s, after;
    el_observation o;
    camp_sends_two_west(&s, &after, &o);
    int stack = -1;
    for (int i = 0; i < o.count && stack < 0; i++)
        if (o.tiles[i].height > 0)
            stack = i;
    assert_true(stack >= 0);
    /* the camp kept 2 and sent 2 west: no move leaves 5 or 4 beside the other 2 */
    int height = o.tiles[stack].height;
    assert_int_equal(height, 2);
    el_reconcile_result r;

    o.tiles[stack].height = 5;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);

    /* 5, or the true height: the move again */
    o.tiles[stack].height_or = (int8_t)height;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
    char text[64];
    el_format_move(&r.explanations[0].moves[0], text, sizeof text);
    assert_string_equal(text, "desert-camp@1,2 x4 > w 2");

    /* the true height first, a wrong one as the second: the same */
    o.tiles[stack].height = (int8_t)height;
    o.tiles[stack].height_or = 5;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);

    /* a stack of 2 that a camp still to be placed raises to 3, read "1 or 3": the game
     * before the camp has more than the 1 but fewer than the 3, so the camp may mend it */
    el_state before = s;
    play(&before, (const char *const[]){"desert-camp@1,2 x4 > w 2", NULL});
    el_state raised = before;
    play(&raised, (const char *const[]){"desert-camp@2,1 x2 > n 1", NULL});
    el_observation seen;
    el_observe(&raised, &seen);
    for (int i = 0; i < seen.count; i++)
        if (seen.tiles[i].row == 1 && seen.tiles[i].col == 1) {
            assert_int_equal(seen.tiles[i].height, 3);
            seen.tiles[i].height = 1;
            seen.tiles[i].height_or = 3;
        }
    el_reconcile(&before, &seen, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
    el_format_move(&r.explanations[0].moves[0], text, sizeof text);
    assert_string_equal(text, "desert-camp@2,1 x2 > n 1");

    /* neither is the game's: unexplained, and the reason says what was seen */
    o.tiles[stack].height = 5;
    o.tiles[stack].height_or = 4;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    assert_non_null(strstr(r.reason, "5 or 4"));
}

/* The tile an observation shows at a state's cell (el_observe translates by the state's
 * smallest row and column). */
static el_seen_tile *seen_cell(el_observation *o, const el_state *state, int row, int col)
{
    for (int i = 0; i < o->count; i++)
        if (o->tiles[i].row == row - state->min_row && o->tiles[i].col == col - state->min_col)
            return &o->tiles[i];
    fail_msg("no tile seen at %d,%d", row, col);
    return NULL;
}

/* The camera did not see the tile at all. */
static void drop_seen(el_observation *o, el_seen_tile *tile)
{
    o->count--;
    *tile = o->tiles[o->count];
}

/* A camp's stack the camera counts one too many on every table: once the players have said
 * what was played, the same misread on a later table is left unseen, and a later table is
 * explained; a stack read otherwise is kept as read. A tile not seen at all is taken as an
 * unknown cell; a tile seen where there is none, once the players say the table is as the game
 * has it, is not seen again while it reads alike. */
static void test_el_forgive_unsees_what_the_players_corrected(void **state_)
{
    (void)state_;
    el_state s, after;
    el_observation o;
    camp_sends_two_west(&s, &after, &o);
    seen_cell(&o, &after, 1, 2)->height = 3; /* the camp kept 2 */
    seen_cell(&o, &after, 0, 0)->type = EL_MOUNTAIN; /* a start tile misread: not noted */
    el_misreads misreads;
    memset(&misreads, 0, sizeof misreads);
    el_note_misreads(&s, &after, &o, &misreads);
    assert_int_equal(misreads.count, 1);
    assert_int_equal(misreads.missed_count + misreads.phantom_count, 0);
    assert_int_equal(misreads.fields[0].row, 1);
    assert_int_equal(misreads.fields[0].col, 2);
    assert_int_equal(misreads.fields[0].height, 3);
    assert_int_equal(misreads.fields[0].type, EL_UNSEEN);
    assert_int_equal(misreads.fields[0].top, EL_UNSEEN);

    /* the next table: a new camp, the old one misread alike */
    el_state next = after;
    play(&next, (const char *const[]){"desert-camp@2,1 x1", NULL});
    el_observation later;
    el_observe(&next, &later);
    seen_cell(&later, &next, 1, 2)->height = 3;
    el_reconcile_result r;
    el_reconcile(&after, &later, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    el_observation kept = later;
    el_forgive(&after, &misreads, &kept);
    assert_int_equal(seen_cell(&kept, &next, 1, 2)->height, EL_UNSEEN);
    assert_int_equal(seen_cell(&kept, &next, 1, 1)->height, 2); /* the rest as read */
    el_reconcile(&after, &kept, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
    char text[64];
    el_format_move(&r.explanations[0].moves[0], text, sizeof text);
    assert_string_equal(text, "desert-camp@2,1 x1");

    /* read otherwise (4): not the misread the players corrected, kept */
    seen_cell(&later, &next, 1, 2)->height = 4;
    kept = later;
    el_forgive(&after, &misreads, &kept);
    assert_int_equal(seen_cell(&kept, &next, 1, 2)->height, 4);

    /* a tile the camera did not see at all: noted, and taken as an unknown cell later */
    el_observation missing;
    el_observe(&after, &missing);
    drop_seen(&missing, seen_cell(&missing, &after, 1, 2));
    memset(&misreads, 0, sizeof misreads);
    el_note_misreads(&s, &after, &missing, &misreads);
    assert_int_equal(misreads.missed_count, 1);
    el_observe(&next, &later);
    drop_seen(&later, seen_cell(&later, &next, 1, 2));
    el_reconcile(&after, &later, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    el_forgive(&after, &misreads, &later);
    assert_int_equal(later.unknown_count, 1);
    el_reconcile(&after, &later, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);

    /* a shadow read as a desert beyond the size limit (7 rows with 2 players), another within
     * it, and the start's mountain misread: the players say the table is as the game has it
     * (before NULL), every cell noted; of the shadows, only the one where no tile may ever
     * lie (a tile laid where the other is would be taken for it) */
    el_observe(&after, &o);
    o.tiles[o.count++] = (el_seen_tile){.row = 7, .col = 0, .type = EL_DESERT, .top = EL_EMPTY,
                                        .height = 0, .token = EL_NO_TOKEN};
    o.tiles[o.count++] = (el_seen_tile){.row = 5, .col = 0, .type = EL_DESERT, .top = EL_EMPTY,
                                        .height = 0, .token = EL_NO_TOKEN};
    seen_cell(&o, &after, 0, 1)->type = EL_LAKE;
    memset(&misreads, 0, sizeof misreads);
    el_note_misreads(NULL, &after, &o, &misreads);
    assert_int_equal(misreads.count, 1);
    assert_int_equal(misreads.fields[0].type, EL_LAKE);
    assert_int_equal(misreads.phantom_count, 1);
    assert_int_equal(misreads.phantom[0].row, 7);
    el_observe(&next, &later);
    later.tiles[later.count++] = (el_seen_tile){.row = 7, .col = 0, .type = EL_DESERT,
                                                .top = EL_EMPTY, .token = EL_NO_TOKEN};
    seen_cell(&later, &next, 0, 1)->type = EL_LAKE;
    el_reconcile(&after, &later, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    kept = later;
    el_forgive(&after, &misreads, &kept);
    assert_int_equal(kept.count, later.count - 1);
    el_reconcile(&after, &kept, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
    /* the shadow read as another type: a tile, as read */
    later.tiles[later.count - 1].type = EL_LAKE;
    kept = later;
    el_forgive(&after, &misreads, &kept);
    assert_int_equal(kept.count, later.count);
}

/* The picture's support for a game: the sum over the tiles seen of the support of the height
 * the game has there, wherever the observation's rows and columns start. */
static void test_el_support_ranks_games_by_the_heights_they_show(void **state_)
{
    (void)state_;
    el_state s, after;
    el_observation o;
    camp_sends_two_west(&s, &after, &o);
    assert_int_equal(el_support(&after, &o), 0); /* no tile tells a height apart */
    int camp = -1, other = -1;
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].height > 0 && camp < 0)
            camp = i;
        else if (o.tiles[i].height > 0)
            other = i;
    assert_true(camp >= 0 && other >= 0);
    for (int k = 0; k <= EL_STACK_MAX; k++) {
        o.tiles[camp].support[k] = (int8_t)(k == 2 ? 0 : -15);
        o.tiles[other].support[k] = (int8_t)(k == 3 ? 0 : -7);
    }
    /* the game has 2 on each: the first as the picture shows it, the second 0.7 of a piece's
     * worth from its best */
    assert_int_equal(el_support(&after, &o), -7);
    el_state taller = after;
    el_cell *cell = &taller.cells[o.tiles[camp].row + after.min_row + EL_ORIGIN]
                                 [o.tiles[camp].col + after.min_col + EL_ORIGIN];
    assert_int_equal(cell->height, 2);
    cell->height = 3;
    assert_int_equal(el_support(&taller, &o), -22);
    /* the observation seen from elsewhere: laid on the game's tiles all the same */
    for (int i = 0; i < o.count; i++) {
        o.tiles[i].row = (int8_t)(o.tiles[i].row + 3);
        o.tiles[i].col = (int8_t)(o.tiles[i].col - 2);
    }
    assert_int_equal(el_support(&after, &o), -7);
}

/* The game's heights on the tiles an observation shows, when it shows the game as it is,
 * wherever its rows and columns start; nothing when it shows a move more, a height the game
 * does not have, or nothing at all. */
static void test_el_heights_if_unchanged_lays_the_game_on_the_tiles_seen(void **state_)
{
    (void)state_;
    el_state s, after;
    el_observation o;
    camp_sends_two_west(&s, &after, &o);
    int8_t heights[EL_MAX_TILES];
    for (int shift = 0; shift < 2; shift++) {
        memset(heights, 99, sizeof heights);
        assert_true(el_heights_if_unchanged(&after, &o, heights));
        int stacks = 0;
        for (int i = 0; i < o.count; i++) {
            assert_int_equal(heights[i], o.tiles[i].height); /* el_observe saw them all */
            stacks += heights[i] > 0;
        }
        assert_true(stacks >= 2);
        for (int i = 0; i < o.count; i++) { /* seen from elsewhere */
            o.tiles[i].row = (int8_t)(o.tiles[i].row + 3);
            o.tiles[i].col = (int8_t)(o.tiles[i].col - 2);
        }
    }
    /* the game before the camp sent its two: the table shows moves it has not played */
    heights[0] = 42;
    assert_false(el_heights_if_unchanged(&s, &o, heights));
    /* a height unseen fits; a height the game does not have does not */
    el_observe(&after, &o);
    int stack = 0;
    while (o.tiles[stack].height == 0)
        stack++;
    o.tiles[stack].height = EL_UNSEEN;
    assert_true(el_heights_if_unchanged(&after, &o, heights));
    assert_true(heights[stack] > 0);
    o.tiles[stack].height = (int8_t)(heights[stack] + 1);
    heights[0] = 42;
    assert_false(el_heights_if_unchanged(&after, &o, heights));
    el_observation none = {0};
    assert_false(el_heights_if_unchanged(&after, &none, heights));
    assert_int_equal(heights[0], 42);
}

/* A plain tile placed by the seat that placed a camp before it, by the next seat or by the one
 * after: once the turns have ended, the games have the same cells and the same seat to play,
 * and are still three games (who placed the tile), all reported. */
static void test_el_reconcile_keeps_games_that_differ_only_in_who_placed(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(3, false);
    play(&s, (const char *const[]){"start desert@0,0 mountain@0,1 desert-temple@0,2 desert@1,0 "
                                   "mountain@1,1 desert-temple@1,2",
                                   "desert-camp@-1,0 x1", NULL});
    el_state after = s;
    play(&after, (const char *const[]){"desert-temple@2,1", "end", "black: desert-camp@-1,2 x1",
                                       "end", "grey: desert-camp@0,3 x1", NULL});
    el_observation o;
    el_observe(&after, &o);
    el_reconcile_result r;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_AMBIGUOUS);
    assert_false(r.search_cut);
    bool placed_after_ends[3] = {false}; /* the temple after 0, 1 or 2 turn ends: by each seat */
    for (int k = 0; k < r.count; k++) {
        int ends = 0;
        for (int m = 0; m < r.explanations[k].count; m++) {
            char text[64];
            el_format_move(&r.explanations[k].moves[m], text, sizeof text);
            ends += strcmp(text, "end") == 0;
            if (strcmp(text, "desert-temple@2,1") == 0 && ends < 3)
                placed_after_ends[ends] = true;
        }
    }
    for (int seat = 0; seat < 3; seat++)
        assert_true(placed_after_ends[seat]);
}

/* Reads the type of the tile seen at (row, col) as unread; returns its index. */
static int type_unread_at(el_observation *o, int row, int col)
{
    for (int i = 0; i < o->count; i++)
        if (o->tiles[i].row == row && o->tiles[i].col == col) {
            o->tiles[i].type = EL_UNSEEN;
            return i;
        }
    fail_msg("no tile seen at %d,%d", row, col);
    return -1;
}

/* A tile whose type the camera could not read is still a tile: a new one must be placed, as
 * any type that fits, and an old one matches whatever it is. */
static void test_el_reconcile_places_a_tile_of_unread_type(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_state after = s;
    play(&after, (const char *const[]){"desert-camp@0,2 x3", "desert@1,2", NULL});
    el_observation o;
    el_observe(&after, &o);
    int camp = type_unread_at(&o, 0, 2);
    el_reconcile_result r;
    el_reconcile(&s, &o, &r);
    /* never the desert alone: every explanation places a tile, a camp, where the camp is */
    assert_true(r.answer == EL_EXPLAINED || r.answer == EL_AMBIGUOUS);
    bool truth = false;
    assert_int_equal(r.explanations[0].count, 2);
    for (int e = 0; e < r.count; e++) {
        bool placed_there = false;
        for (int m = 0; m < r.explanations[e].count; m++) {
            const el_move *move = &r.explanations[e].moves[m];
            if (move->kind == EL_MOVE_PLACE && move->row == 0 && move->col == 2) {
                placed_there = true;
                assert_true(el_is_camp((el_tile_type)move->what));
            }
        }
        assert_true(placed_there);
        char first[64];
        el_format_move(&r.explanations[e].moves[0], first, sizeof first);
        truth |= strcmp(first, "desert-camp@0,2 x3") == 0;
    }
    assert_true(truth);

    /* the camp known, its type unread later: the table is the game's */
    el_observe(&after, &o);
    o.tiles[camp].type = EL_UNSEEN;
    el_reconcile(&after, &o, &r);
    assert_int_equal(r.answer, EL_UNCHANGED);

    /* a camp of unread type that sent movers: a desert or an oasis camp, both explain it (a
     * tile of unread type may be a camp that reaches the stacks beside it) */
    el_state sent;
    camp_sends_two_west(&s, &sent, &o);
    type_unread_at(&o, 1, 2);
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_AMBIGUOUS);

    /* the first known tile, by which the table is aligned, read of unread type: still aligned */
    el_observe(&s, &o);
    type_unread_at(&o, 0, 0);
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNCHANGED);
    el_observe(&sent, &o);
    type_unread_at(&o, 0, 0);
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);

    /* a new tile of unread type where no tile can go: unexplained, and said so */
    s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_observe(&s, &o);
    o.tiles[o.count++] = (el_seen_tile){.row = 5, .col = 5, .type = EL_UNSEEN, .top = EL_EMPTY,
                                        .height = 0, .token = EL_NO_TOKEN};
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    assert_non_null(strstr(r.reason, "whose type is unread"));
}

/* Two plain tiles laid in one turn and seen together: either order leads to the same game, and
 * the rules keep one; the order a hand was seen reaching them decides which. */
static void test_el_reconcile_places_new_tiles_in_the_order_hands_reached_them(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_state after = s;
    play(&after, (const char *const[]){"desert@0,2", "desert@2,0", NULL});
    el_observation o;
    el_observe(&after, &o);
    int first = -1, second = -1; /* the observation's tiles at 0,2 and 2,0 */
    for (int i = 0; i < o.count; i++) {
        if (o.tiles[i].row == 0 && o.tiles[i].col == 2)
            first = i;
        if (o.tiles[i].row == 2 && o.tiles[i].col == 0)
            second = i;
    }
    assert_true(first >= 0 && second >= 0);
    static const char *const orders[2][2] = {{"desert@0,2", "desert@2,0"},
                                             {"desert@2,0", "desert@0,2"}};
    for (int k = 0; k < 2; k++) {
        o.tiles[first].reached = (int8_t)(k == 0 ? 1 : 2);
        o.tiles[second].reached = (int8_t)(k == 0 ? 2 : 1);
        el_reconcile_result r;
        el_reconcile(&s, &o, &r);
        assert_int_equal(r.answer, EL_EXPLAINED);
        assert_int_equal(r.explanations[0].count, 2);
        char text[64];
        for (int m = 0; m < 2; m++) {
            el_format_move(&r.explanations[0].moves[m], text, sizeof text);
            assert_string_equal(text, orders[k][m]);
        }
    }
    /* a hand seen at the second only: that one first */
    o.tiles[first].reached = 0;
    o.tiles[second].reached = 1;
    el_reconcile_result r;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
    char text[64];
    el_format_move(&r.explanations[0].moves[0], text, sizeof text);
    assert_string_equal(text, "desert@2,0");
}

static void test_el_reconcile_says_none_for_what_no_rule_allows(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_observation o;
    el_observe(&s, &o);
    /* a tile floating away from the others */
    o.tiles[o.count++] = (el_seen_tile){.row = 4, .col = 4, .type = EL_DESERT, .top = EL_EMPTY,
                                        .height = 0, .token = EL_NO_TOKEN};
    el_reconcile_result r;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);

    /* an adventurer on a start tile with no camp to have sent it */
    el_observe(&s, &o);
    o.tiles[0].top = BLACK;
    o.tiles[0].height = 1;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);

    /* a camp topped by the wrong colour: black cannot have placed it in orange's turn */
    el_state after = s;
    play(&after, (const char *const[]){"desert-camp@0,2 x1", NULL});
    el_observe(&after, &o);
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].type == EL_DESERT_CAMP)
            o.tiles[i].top = BLACK;
    el_reconcile(&s, &o, &r);
    /* ...unless orange ended after a tile and black placed the camp: which needs a tile from
     * orange too, and there is none, so nothing explains it */
    assert_int_equal(r.answer, EL_UNEXPLAINED);
}

static void test_el_reconcile_follows_into_the_next_turn(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_state after = s;
    play(&after, (const char *const[]){"desert-camp@0,2 x1", "end", "black: desert-camp@1,2 x2",
                                       NULL});
    el_observation o;
    el_observe(&after, &o);
    el_reconcile_result r;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_EXPLAINED);
    assert_int_equal(r.explanations[0].turns_ended, 1);
    assert_int_equal(r.explanations[0].count, 3);
}

static void test_el_reconcile_says_why_a_table_does_not_fit(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    el_observation o;
    el_reconcile_result r;

    el_observe(&s, &o);
    o.tiles[o.count++] = (el_seen_tile){.row = 4, .col = 4, .type = EL_DESERT, .top = EL_EMPTY,
                                        .height = 0, .token = EL_NO_TOKEN};
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    assert_non_null(strstr(r.reason, "desert@4,4: "));
    assert_non_null(strstr(r.reason, "adjacent"));

    /* a known tile read as another type: named with both types */
    el_observe(&s, &o);
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].row == 0 && o.tiles[i].col == 1)
            o.tiles[i].type = EL_LAKE;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    assert_string_equal(r.reason, "the tile at 0,1 was a mountain, the table shows a lake");

    /* adventurers no move brought */
    el_observe(&s, &o);
    o.tiles[0].top = BLACK;
    o.tiles[0].height = 1;
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNEXPLAINED);
    assert_non_null(strstr(r.reason, "no legal move explains 0,0"));

    /* explained tables carry no reason */
    el_observe(&s, &o);
    el_reconcile(&s, &o, &r);
    assert_int_equal(r.answer, EL_UNCHANGED);
    assert_string_equal(r.reason, "");
}

static void test_el_start_seen_takes_the_layout_a_table_shows(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false), started = s;
    play(&started, start_2p);
    el_observation o;
    el_observe(&started, &o);
    el_start_tile tiles[2 * EL_MAX_SEATS];
    int count;
    el_error error;
    assert_int_equal(el_start_seen(&s, &o, tiles, &count, &error), EL_OK);
    assert_int_equal(el_start(&s, tiles, count, &error), EL_OK);
    assert_memory_equal(s.cells, started.cells, sizeof s.cells);

    el_state fresh = test_el_new_game(2, false);
    o.count--;
    assert_int_equal(el_start_seen(&fresh, &o, tiles, &count, &error), EL_ILLEGAL);
    assert_int_equal(count, 3);
    assert_non_null(strstr(error.message, "the table shows 3"));
    o.count++;
    o.tiles[1].top = ORANGE;
    o.tiles[1].height = 1;
    assert_int_equal(el_start_seen(&fresh, &o, tiles, &count, &error), EL_ILLEGAL);
    assert_non_null(strstr(error.message, "adventurers on the start layout"));

    /* a table past the start (its first table missed): the count says so, not what a later
     * tile holds */
    play(&started, (const char *const[]){"desert-camp@0,2 x2", NULL});
    el_observe(&started, &o);
    assert_int_equal(el_start_seen(&fresh, &o, tiles, &count, &error), EL_ILLEGAL);
    assert_int_equal(count, 5);
    assert_non_null(strstr(error.message, "the start layout has 4 tiles with 2 players, the "
                                          "table shows 5"));
}

/* The game table's entries: the setup explained by a start line, explanations as lines with
 * the acting seat, forced passes and ends. */
static void test_el_engine_reconciles_in_lines_and_knows_forced_actions(void **state_)
{
    (void)state_;
    const rules_engine *engine = rules_game_find(EL_GAME_ID)->engine;
    assert_int_equal(engine->observation_size, sizeof(el_observation));
    el_state s = test_el_new_game(2, false), after = test_el_new_game(2, false);
    char line[64];
    play(&after, start_2p);
    el_observation o;
    engine->observe(&after, &o);
    rules_reconciled *r = malloc(sizeof *r);
    engine->reconcile(&s, &o, r);
    assert_int_equal(r->answer, RULES_EXPLAINED);
    assert_string_equal(r->candidates[0].lines, start_2p[0]);
    /* three tiles of four, one of them misread with a stack: a layout still being laid waits */
    el_observation laying = o;
    laying.count = 3;
    laying.tiles[0].top = ORANGE;
    laying.tiles[0].height = 1;
    engine->reconcile(&s, &laying, r);
    assert_int_equal(r->answer, RULES_UNCHANGED);

    play(&s, start_2p);
    assert_false(engine->close_turn(&s, line, sizeof line)); /* orange has placed nothing */
    play(&after, (const char *const[]){"desert-camp@0,2 x1", "end", "black: desert-camp@1,2 x2",
                                       NULL});
    engine->observe(&after, &o);
    engine->reconcile(&s, &o, r);
    assert_int_equal(r->answer, RULES_EXPLAINED);
    assert_string_equal(r->candidates[0].lines,
                        "orange: desert-camp@0,2 x1\norange: end\nblack: desert-camp@1,2 x2");
    assert_int_equal(r->candidates[0].actions, 3);
    assert_int_equal(r->candidates[0].turns_ended, 1);
    assert_string_equal(rules_answer_name(r->answer), "explained");
    /* a game whose start table was never read: that table's tiles are too many for a start */
    el_state waiting = test_el_new_game(2, false);
    engine->reconcile(&waiting, &o, r);
    assert_int_equal(r->answer, RULES_UNEXPLAINED);
    assert_non_null(strstr(r->reason, "the start layout has 4 tiles with 2 players, the table "
                                      "shows 6"));
    free(r);

    assert_false(engine->forced(&after, line, sizeof line)); /* black may place more */
    assert_true(engine->close_turn(&after, line, sizeof line));
    assert_string_equal(line, "black: end");
    play(&after, (const char *const[]){"desert@2,2", "desert@2,1", NULL});
    assert_true(engine->forced(&after, line, sizeof line)); /* three tiles: the turn is over */
    assert_string_equal(line, "black: end");
    after.placed[ORANGE] = EL_TILES_PER_SEAT - EL_START_TILES_PER_SEAT;
    play(&after, (const char *const[]){"end", NULL});
    assert_true(engine->forced(&after, line, sizeof line));
    assert_string_equal(line, "orange: pass");
}

/* ---- the notation ---- */

static void test_el_notation_errors_name_the_action_and_the_problem(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(2, false);
    play(&s, start_2p);
    refused(&s, "castle@1,1", "'castle' is not a tile type");
    refused(&s, "desert@1", "'1' is not a row,column");
    refused(&s, "desert@a,b", "is not a row,column");
    refused(&s, "desert-camp@0,2 x9", "1 to 5 adventurers");
    refused(&s, "desert-camp@0,2 xx", "'xx' is not an adventurer count");
    refused(&s, "desert-camp@0,2 x3 > q 1", "> n|e|s|w");
    refused(&s, "desert-camp@0,2 x3 > w", "names no stops");
    refused(&s, "desert-camp@0,2 x3 > w 0", "'0' is not a number");
    refused(&s, "desert@0,2 > w 1", "only a camp's adventurers move");
    refused(&s, "boat 1,1", "ROW,COL > ROW,COL");
    refused(&s, "purple: desert@0,2", "'purple' is not a colour");
    refused(&s, "orange:", "no action after it");
    refused(&s, "dance", "'dance' is not an action");
    refused(&s, "end now", "unexpected 'now'");
    play(&s, (const char *const[]){"   # a comment", "", "orange:   desert@0,2   # placed", NULL});
    assert_int_equal(s.tiles, 5);
}

static void test_el_format_and_parse_round_trip(void **state_)
{
    (void)state_;
    el_state s = test_el_new_game(4, true);
    const char *const lines[] = {"desert-camp@2,2 x5 > e 2 2", "oasis-camp@3,0 x2", "desert@-1,-3",
                                 "boat 1,1 > 4,4", "snakes 1,1 > 2,0", "end", "pass"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        el_line line;
        el_error error;
        assert_int_equal(el_parse(&s, lines[i], &line, &error), EL_OK);
        char text[96];
        el_format_move(&line.move, text, sizeof text);
        assert_string_equal(text, lines[i]);
    }
}

/* Edits line (size bytes) in place at random: 1 to 4 characters of alphabet replaced,
 * inserted or deleted, as a typing or a corrupt file would. */
static void mutate(char *line, size_t size, const char *alphabet, uint64_t *rng)
{
    size_t length = strlen(line), letters = strlen(alphabet);
    int edits = 1 + (int)(*rng % 4);
    for (int e = 0; e < edits; e++) {
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
        size_t at = (size_t)(*rng >> 33) % (length + 1);
        char c = alphabet[(*rng >> 20) % letters];
        switch ((*rng >> 40) % 3) {
        case 0: /* replace */
            if (at < length)
                line[at] = c;
            break;
        case 1: /* insert */
            if (length + 1 < size) {
                memmove(line + at + 1, line + at, length - at + 1);
                line[at] = c;
                length++;
            }
            break;
        default: /* delete */
            if (at < length) {
                memmove(line + at, line + at + 1, length - at);
                length--;
            }
        }
    }
}

/* Mutated lines never crash the parser and never change the state when refused. */
static void test_el_notation_fuzz(void **state_)
{
    (void)state_;
    static const char *const seeds[] = {
        "desert-camp@2,2 x5 > e 2 2", "orange: oasis-camp@3,0 x2", "boat 1,1 > 4,4",
        "start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1", "end", "pass",
        "snakes -1,-1 > 2,0 # c"};
    uint64_t rng = 42;
    el_state base = test_el_new_game(2, true);
    play(&base, start_2p);
    for (int i = 0; i < 100000; i++) {
        char line[80];
        snprintf(line, sizeof line, "%s", seeds[i % 7]);
        mutate(line, sizeof line, "@,x>-+ 0123456789#:neswabcdefghijklmnopqrstuvwxyz\t\r", &rng);
        el_state s = base;
        el_error error = {""};
        if (el_play_line(&s, line, NULL, &error) != EL_OK) {
            assert_memory_equal(&s, &base, sizeof s);
            assert_true(error.message[0] != '\0');
        } else {
            check_invariants(&s);
        }
    }
}

/* What the players corrected, written as a line for the archive and read back the same; a
 * line cut short says how long it needed to be. */
static void test_el_misreads_line_round_trip(void **state_)
{
    (void)state_;
    el_state game = test_el_new_game(4, true);
    el_misreads m, back;
    memset(&m, 0, sizeof m);
    m.fields[m.count++] = (el_seen_tile){.row = 2, .col = 1, .type = EL_UNSEEN, .top = 1,
                                         .height = 3, .token = EL_UNSEEN};
    m.fields[m.count++] = (el_seen_tile){.row = -3, .col = 0, .type = EL_OASIS_CAMP,
                                         .top = EL_EMPTY, .height = 0, .token = EL_SNAKES};
    m.fields[m.count++] = (el_seen_tile){.row = 0, .col = -1, .type = EL_UNSEEN,
                                         .top = EL_UNSEEN, .height = EL_UNSEEN,
                                         .token = EL_NO_TOKEN};
    m.missed[m.missed_count].row = 4;
    m.missed[m.missed_count++].col = -10;
    m.phantom[m.phantom_count].row = -5;
    m.phantom[m.phantom_count].col = 0;
    m.phantom[m.phantom_count++].type = EL_DESERT;
    m.phantom[m.phantom_count].row = 9;
    m.phantom[m.phantom_count].col = 9;
    m.phantom[m.phantom_count++].type = EL_UNSEEN;
    const char *expected = "2,1 read top black height 3; -3,0 read type oasis-camp top none "
                           "height 0 token snakes; 0,-1 read token none; 4,-10 missed; "
                           "-5,0 phantom desert; 9,9 phantom unread";
    char text[512];
    int length = el_format_misreads(&game, &m, text, sizeof text);
    assert_string_equal(text, expected);
    assert_int_equal(length, (int)strlen(expected));
    el_error error = {""};
    assert_int_equal(el_parse_misreads(&game, text, &back, &error), EL_OK);
    assert_memory_equal(&back, &m, sizeof m);

    char short_text[20];
    assert_int_equal(el_format_misreads(&game, &m, short_text, sizeof short_text), length);
    assert_int_equal(strlen(short_text), sizeof short_text - 1);
    assert_int_equal(strncmp(short_text, expected, sizeof short_text - 1), 0);

    memset(&m, 0, sizeof m); /* none: an empty line, read back as none */
    assert_int_equal(el_format_misreads(&game, &m, text, sizeof text), 0);
    assert_string_equal(text, "");
    assert_int_equal(el_parse_misreads(&game, "", &back, &error), EL_OK);
    assert_memory_equal(&back, &m, sizeof m);
}

/* A line that cannot be read whole is refused, naming the item and what is wrong with it,
 * and leaves no misread noted. */
static void test_el_misreads_line_errors_name_the_item(void **state_)
{
    (void)state_;
    el_state game = test_el_new_game(2, true);
    static const struct {
        const char *line, *says;
    } bad[] = {
        {"2,1", "a row,column and what"},
        {"2,1 read", "expected 'read' and fields"},
        {"2,1 read top", "expected 'read' and fields"},
        {"2,1 read top grey", "'grey' is not a colour of the game"},
        {"2,1 read height 6", "not a height from 0 to 5"},
        {"2,1 read height 3 height 2", "each once"},
        {"2,1 read colour black", "each once"},
        {"2,1 read token caravan-x", "not a token"},
        {"2,1 read type unread", "not a tile type"},
        {"x,1 missed", "'x,1' is not a row,column"},
        {"2,11 missed", "is not a row,column"},
        {"2,1 missed 3", "expected 'read' and fields"},
        {"2,1 phantom", "expected 'read' and fields"},
        {"2,1 phantom castle", "'castle' is not a tile type or unread"},
        {"1,1 missed; 2,1 read height 9", "'2,1 read height 9'"},
        {"1,1 missed;; 2,2 missed", "a row,column and what"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        el_misreads m;
        memset(&m, 0xff, sizeof m);
        el_error error = {""};
        assert_int_equal(el_parse_misreads(&game, bad[i].line, &m, &error), EL_BAD_NOTATION);
        if (!strstr(error.message, bad[i].says))
            fail_msg("'%s': '%s' does not say '%s'", bad[i].line, error.message, bad[i].says);
        el_misreads none;
        memset(&none, 0, sizeof none);
        assert_memory_equal(&m, &none, sizeof m);
    }
    char long_item[400];
    memset(long_item, 'x', sizeof long_item - 1);
    long_item[sizeof long_item - 1] = '\0';
    memcpy(long_item, "1,1 phantom ", 12);
    el_misreads m;
    el_error error = {""};
    assert_int_equal(el_parse_misreads(&game, long_item, &m, &error), EL_BAD_NOTATION);
    assert_non_null(strstr(error.message, "too long"));
}

/* Mutated misreads lines never crash the parser; what it reads, it writes back alike. */
static void test_el_misreads_line_fuzz(void **state_)
{
    (void)state_;
    el_state game = test_el_new_game(3, true);
    const char *seed = "2,1 read top black height 3; -3,0 read type oasis-camp top none "
                       "token snakes; 4,-10 missed; -5,0 phantom desert; 9,9 phantom unread";
    uint64_t rng = 7;
    int read = 0;
    for (int i = 0; i < 50000; i++) {
        char line[200];
        snprintf(line, sizeof line, "%s", seed);
        mutate(line, sizeof line, ";,- 0123456789abcdeghiklmnoprstuwxy\t", &rng);
        el_misreads m, again;
        el_error error = {""};
        if (el_parse_misreads(&game, line, &m, &error) != EL_OK) {
            assert_true(error.message[0] != '\0');
            continue;
        }
        read++;
        char text[1024];
        int length = el_format_misreads(&game, &m, text, sizeof text);
        assert_true(length >= 0 && (size_t)length < sizeof text);
        assert_int_equal(el_parse_misreads(&game, text, &again, &error), EL_OK);
        assert_memory_equal(&again, &m, sizeof m);
    }
    assert_true(read > 0); /* some mutations still read: both ways were tried */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_el_book_grey_camp_of_five_to_temple_and_pyramid),
        cmocka_unit_test(test_el_book_camp_takes_mandatory_plus_extras_up_to_five),
        cmocka_unit_test(test_el_book_sandstorm_takes_the_others),
        cmocka_unit_test(test_el_book_scoring_counts_top_adventurers_only),
        cmocka_unit_test(test_el_ties_go_to_the_larger_supply_then_are_shared),
        cmocka_unit_test(test_el_d1_deck_order_is_checked_only_when_asked),
        cmocka_unit_test(test_el_d2_any_connected_start_layout_of_the_right_size),
        cmocka_unit_test(test_el_d3_short_supply_places_all_that_remain),
        cmocka_unit_test(test_el_d4_movers_go_straight_and_never_cross_a_gap),
        cmocka_unit_test(test_el_d5_token_moved_adventurer_goes_on_top),
        cmocka_unit_test(test_el_placement_needs_an_edge_and_the_size_limit),
        cmocka_unit_test(test_el_most_adventurers_a_tile_may_hold),
        cmocka_unit_test(test_el_a_seventh_desert_camp_is_refused),
        cmocka_unit_test(test_el_turn_structure),
        cmocka_unit_test(test_el_tokens_need_a_mountain_and_two_of_a_kind_at_most),
        cmocka_unit_test(test_el_pass_and_the_end_of_the_game),
        cmocka_unit_test(test_el_random_games_2_players),
        cmocka_unit_test(test_el_random_games_3_players),
        cmocka_unit_test(test_el_random_games_4_players),
        cmocka_unit_test(test_el_random_games_2_players_expansion),
        cmocka_unit_test(test_el_random_games_3_players_expansion),
        cmocka_unit_test(test_el_random_games_4_players_expansion),
        cmocka_unit_test(test_el_random_game_uses_tokens_with_the_expansion),
        cmocka_unit_test(test_el_verify_catches_broken_invariants),
        cmocka_unit_test(test_el_legal_moves_list_camps_with_every_movement),
        cmocka_unit_test(test_el_reconcile_explains_whole_turns_of_random_games),
        cmocka_unit_test(test_el_reconcile_with_hidden_heights_tops_and_an_unknown_cell),
        cmocka_unit_test(test_el_reconcile_takes_either_of_two_heights),
        cmocka_unit_test(test_el_hidden_tokens_are_those_the_table_does_not_show),
        cmocka_unit_test(test_el_reconcile_ranks_a_hidden_token_as_no_move),
        cmocka_unit_test(test_el_support_ranks_games_by_the_heights_they_show),
        cmocka_unit_test(test_el_heights_if_unchanged_lays_the_game_on_the_tiles_seen),
        cmocka_unit_test(test_el_reconcile_keeps_games_that_differ_only_in_who_placed),
        cmocka_unit_test(test_el_reconcile_places_a_tile_of_unread_type),
        cmocka_unit_test(test_el_reconcile_places_new_tiles_in_the_order_hands_reached_them),
        cmocka_unit_test(test_el_reconcile_says_none_for_what_no_rule_allows),
        cmocka_unit_test(test_el_reconcile_follows_into_the_next_turn),
        cmocka_unit_test(test_el_reconcile_says_why_a_table_does_not_fit),
        cmocka_unit_test(test_el_forgive_unsees_what_the_players_corrected),
        cmocka_unit_test(test_el_start_seen_takes_the_layout_a_table_shows),
        cmocka_unit_test(test_el_engine_reconciles_in_lines_and_knows_forced_actions),
        cmocka_unit_test(test_el_notation_errors_name_the_action_and_the_problem),
        cmocka_unit_test(test_el_format_and_parse_round_trip),
        cmocka_unit_test(test_el_notation_fuzz),
        cmocka_unit_test(test_el_misreads_line_round_trip),
        cmocka_unit_test(test_el_misreads_line_errors_name_the_item),
        cmocka_unit_test(test_el_misreads_line_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
