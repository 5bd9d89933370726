/*
 * Luxor: the rule book's worked examples, every answer of its "Des questions ?" list, each D-LX
 * decision, each rule's refusal in plain words, the tie-break, both variants, random games
 * replayed through the notation with the invariants after every line, the notation's round
 * trip, legal drops, reconcile, and a fuzz of the notation parser.
 *
 * Positions from the book are built by editing an lx_state directly (put_tile, stand, ...):
 * every such fixture keeps the state consistent, which check_invariants asserts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "luxor_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RED, BLUE, GREEN, YELLOW };
enum { CURSE = 1, SPHINX = 2, TILE_PAIRS = 4 };

#define LEFT(animal) LX_WINDOW(LX_##animal, LX_LEFT)
#define RIGHT(animal) LX_WINDOW(LX_##animal, LX_RIGHT)

static void check_invariants(const lx_state *s)
{
    lx_error error = {""};
    if (lx_verify(s, &error) != LX_OK)
        fail_msg("invariant broken: %s", error.message);
}

/* Plays lines that must be accepted, checking the invariants after each. */
static void play(lx_state *s, const char *const *lines)
{
    for (; *lines; lines++) {
        lx_error error = {""};
        if (lx_play_line(s, *lines, NULL, &error) != LX_OK)
            fail_msg("'%s' refused: %s", *lines, error.message);
        check_invariants(s);
    }
}

#define PLAY(s, ...) play((s), (const char *const[]){__VA_ARGS__, NULL})

/* Plays a line that must be refused, leaving the state as it was, with this reason. */
static void refused(lx_state *s, const char *line, const char *reason)
{
    lx_state before = *s;
    lx_error error = {""};
    if (lx_play_line(s, line, NULL, &error) == LX_OK)
        fail_msg("'%s' accepted; expected a refusal with '%s'", line, reason);
    if (!strstr(error.message, reason))
        fail_msg("'%s': expected a reason with '%s', got '%s'", line, reason, error.message);
    assert_memory_equal(&before, s, sizeof before);
}

/* A game with the pillars camel mule snake hippo ibis crocodile cat, red to drop. */
static lx_state new_game(int seats, unsigned options)
{
    lx_config config;
    lx_config_default(&config);
    config.seats = seats;
    config.curse = (options & CURSE) != 0;
    config.sphinx = (options & SPHINX) != 0;
    config.tile_pairs = (options & TILE_PAIRS) != 0;
    lx_state s;
    lx_error error = {""};
    assert_int_equal(lx_init(&s, &config, &error), LX_OK);
    PLAY(&s, "pillars camel mule snake hippo ibis crocodile cat");
    assert_int_equal(s.phase, LX_PHASE_PLAY);
    return s;
}

/* ---- fixtures: a book's picture set up directly ---- */

/* Puts a tile into a slot (1-8, as in the notation) without playing it: no pairs, no turn. */
static void put_tile(lx_state *s, int slot, uint8_t top, uint8_t bottom)
{
    int k = slot - 1;
    assert_true(s->filled[k] * 2 < LX_ROWS);
    int row = LX_ROWS - 2 - 2 * s->filled[k];
    s->wall[row][k] = top;
    s->wall[row + 1][k] = bottom;
    s->filled[k]++;
    s->drops++;
}

/* The seat's archaeologist at the pillar (LX_NOBODY clears it), from and back to the hands. */
static void stand(lx_state *s, int animal, int seat)
{
    if (s->archaeologist[animal] != LX_NOBODY)
        s->hand[s->archaeologist[animal]]++;
    s->archaeologist[animal] = (int8_t)seat;
    if (seat != LX_NOBODY) {
        assert_true(s->hand[seat] > 0);
        s->hand[seat]--;
    }
}

static void set_scarabs(lx_state *s, int animal, int count)
{
    s->scarab_supply = (uint8_t)(s->scarab_supply + s->scarabs[animal] - count);
    s->scarabs[animal] = (uint8_t)count;
}

/* The pillar's front sarcophagus goes to the seat. */
static void give(lx_state *s, int animal, int seat)
{
    assert_true(s->opened[animal] < LX_EYES);
    s->owner[animal][s->opened[animal]++] = (int8_t)seat;
}

/* Fills the wall with 39 tiles that make no pair with each other (animals in a 2x2 pattern of
 * camel, mule, snake, hippo), leaving the top of slot 8 for "drop 8 mule> hippo>", which makes
 * no pair either and fills the wall. */
static uint8_t pattern(int row, int slot)
{
    return LX_WINDOW(2 * (row % 2) + slot % 2, (row / 2 + slot) % 2);
}

static void fill_wall_but_one(lx_state *s)
{
    for (int slot = 0; slot < LX_SLOTS; slot++)
        while (s->filled[slot] < (slot == LX_SLOTS - 1 ? 4 : 5)) {
            int row = LX_ROWS - 2 - 2 * s->filled[slot];
            put_tile(s, slot + 1, pattern(row, slot), pattern(row + 1, slot));
        }
    assert_int_equal(s->drops, LX_TILES_IN_WALL - 1);
    lx_pair pairs[LX_MAX_PAIRS];
    assert_int_equal(lx_pairs(s, 7, RIGHT(MULE), RIGHT(HIPPO), pairs), 0);
}

static int32_t score_of(const lx_state *s, int seat)
{
    int32_t scores[LX_MAX_SEATS];
    lx_scores(s, scores);
    return scores[seat];
}

/* ---- the rule book's examples ---- */

/* Example A: "the player formed a camel pair and a mule pair. He places one of his
 * archaeologists at the camel pillar (they look the same way). If an opponent's archaeologist
 * stands there, he takes its place. He then puts a scarab at each of the two pillars." */
static void test_lx_book_example_a_camel_and_mule_pairs(void **state_)
{
    (void)state_;
    lx_state s = new_game(4, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    stand(&s, LX_CAMEL, BLUE);
    check_invariants(&s);
    lx_pair pairs[LX_MAX_PAIRS];
    assert_int_equal(lx_pairs(&s, 1, RIGHT(CAMEL), LEFT(MULE), pairs), 2);
    assert_int_equal(pairs[0].animal, LX_CAMEL);
    assert_true(pairs[0].same_facing);
    assert_int_equal(pairs[1].animal, LX_MULE);
    assert_false(pairs[1].same_facing);

    lx_state other_order = s;
    PLAY(&s, "red: drop 2 camel> mule<, camel+, mule");
    assert_int_equal(s.wall[8][1], RIGHT(CAMEL));
    assert_int_equal(s.wall[9][1], LEFT(MULE));
    assert_int_equal(s.archaeologist[LX_CAMEL], RED);
    assert_int_equal(s.hand[RED], LX_ARCHAEOLOGISTS - 1);
    assert_int_equal(s.hand[BLUE], LX_ARCHAEOLOGISTS); /* back to its owner */
    assert_int_equal(s.archaeologist[LX_MULE], LX_NOBODY);
    assert_int_equal(s.scarabs[LX_CAMEL], 1);
    assert_int_equal(s.scarabs[LX_MULE], 1);
    assert_int_equal(s.scarab_supply, LX_SCARABS - 2);
    assert_int_equal(s.active, BLUE);

    /* the pairs in the other order: the same game */
    PLAY(&other_order, "drop 2 camel> mule<, mule, camel+");
    assert_true(lx_same_game(&s, &other_order));
}

/* Example B: "the player formed two camel pairs. He places one of his archaeologists at the
 * camel pillar (same direction), displacing an opponent's, then puts 2 scarabs there." A third
 * camel pair in the same drop gives no third scarab (at most 2 a pillar a turn), but still
 * allows the placement (LX-ENGINE-2). */
static void test_lx_book_example_b_two_camel_pairs_two_scarabs(void **state_)
{
    (void)state_;
    lx_state s = new_game(4, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    put_tile(&s, 3, RIGHT(CAMEL), RIGHT(SNAKE));
    stand(&s, LX_CAMEL, BLUE);
    lx_pair pairs[LX_MAX_PAIRS];
    assert_int_equal(lx_pairs(&s, 1, RIGHT(CAMEL), LEFT(HIPPO), pairs), 2);
    assert_true(pairs[0].animal == LX_CAMEL && pairs[0].same_facing);
    assert_true(pairs[1].animal == LX_CAMEL && pairs[1].same_facing);
    refused(&s, "drop 2 camel> hippo<, camel+", "this drop makes the pairs camel x2");
    PLAY(&s, "drop 2 camel> hippo<, camel+, camel");
    assert_int_equal(s.archaeologist[LX_CAMEL], RED);
    assert_int_equal(s.hand[BLUE], LX_ARCHAEOLOGISTS);
    assert_int_equal(s.scarabs[LX_CAMEL], 2);
    assert_int_equal(s.scarab_supply, LX_SCARABS - 2);

    /* three camel pairs: two facing alike, one not */
    lx_state t = new_game(4, 0);
    put_tile(&t, 1, RIGHT(CAMEL), RIGHT(MULE));
    put_tile(&t, 3, RIGHT(CAMEL), LEFT(CAMEL));
    stand(&t, LX_CAMEL, BLUE);
    assert_int_equal(lx_pairs(&t, 1, RIGHT(CAMEL), LEFT(HIPPO), pairs), 3);
    lx_state late = t;
    PLAY(&t, "drop 2 camel> hippo<, camel+, camel, camel");
    assert_int_equal(t.scarabs[LX_CAMEL], 2);
    assert_int_equal(t.scarab_supply, LX_SCARABS - 2);
    assert_int_equal(t.archaeologist[LX_CAMEL], RED);
    /* LX-ENGINE-2: the third pair, which brings no scarab, still places (and displaces) */
    PLAY(&late, "drop 2 camel> hippo<, camel, camel, camel+");
    assert_int_equal(late.scarabs[LX_CAMEL], 2);
    assert_int_equal(late.scarab_supply, LX_SCARABS - 2);
    assert_int_equal(late.archaeologist[LX_CAMEL], RED);
    assert_int_equal(late.hand[BLUE], LX_ARCHAEOLOGISTS);
}

/* The end-game example: player A stands at the camel pillar (1 scarab, the 2-eye sarcophagus
 * in front) and at the snake pillar (2 scarabs, the 3-eye in front). Moving the camel's scarab
 * to the snake opens the 3-eye; moving the snake's two to the camel would open the 2-eye,
 * "but that would have brought him fewer points". */
static void test_lx_book_end_game_scarab_move(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    fill_wall_but_one(&s);
    stand(&s, LX_CAMEL, RED);
    stand(&s, LX_SNAKE, RED);
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_SNAKE, BLUE);
    give(&s, LX_SNAKE, BLUE);
    set_scarabs(&s, LX_CAMEL, 1);
    set_scarabs(&s, LX_SNAKE, 2);
    check_invariants(&s);
    refused(&s, "scarabs camel to snake", "scarabs move only once the wall is full");
    PLAY(&s, "red: drop 8 mule> hippo>");
    assert_int_equal(s.phase, LX_PHASE_SCARABS);
    assert_int_equal(s.active, RED);

    /* red's choices: nothing, camel to snake, snake to camel */
    lx_move moves[16];
    assert_int_equal(lx_legal_scarab_moves(&s, moves, 16), 3);
    refused(&s, "scarabs mule to snake", "only between pillars where their own archaeologists");
    refused(&s, "scarabs camel to snake, camel to snake", "no scarab at the camel pillar");

    lx_state alternative = s;
    PLAY(&s, "red: scarabs camel to snake");
    assert_int_equal(s.owner[LX_SNAKE][2], RED);
    assert_int_equal(s.opened[LX_SNAKE], 3);
    assert_int_equal(s.scarabs[LX_SNAKE], 0);
    assert_int_equal(s.scarabs[LX_CAMEL], 0);
    assert_int_equal(s.scarab_supply, LX_SCARABS); /* the three back on the slab */
    assert_int_equal(s.active, BLUE);
    PLAY(&s, "blue: scarabs none", "value camel 1-eye 3", "value snake 1-eye 4",
         "value snake 2-eye 5", "value snake 3-eye 10", "pharaoh red hippo", "pharaoh blue ibis");
    assert_int_equal(s.phase, LX_PHASE_OVER);

    PLAY(&alternative, "red: scarabs snake to camel, snake to camel");
    assert_int_equal(alternative.owner[LX_CAMEL][1], RED);
    assert_int_equal(alternative.opened[LX_CAMEL], 2);
    assert_int_equal(alternative.opened[LX_SNAKE], 2);
    assert_int_equal(alternative.scarabs[LX_CAMEL], 0);
    assert_int_equal(alternative.scarabs[LX_SNAKE], 0);
    PLAY(&alternative, "blue: scarabs none", "value camel 1-eye 3", "value camel 2-eye 6",
         "value snake 1-eye 4", "value snake 2-eye 5", "pharaoh red hippo", "pharaoh blue ibis");
    assert_int_equal(alternative.phase, LX_PHASE_OVER);

    assert_int_equal(score_of(&s, RED), 10);
    assert_int_equal(score_of(&alternative, RED), 6);
    assert_true(score_of(&s, RED) > score_of(&alternative, RED));
}

/* ---- "Des questions ?" ---- */

/* "A player must play: even if he cannot or will not make a pair, he pushes a tile in." */
static void test_lx_q_the_drop_is_mandatory(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    refused(&s, "pass", "'pass' is not an action");
    refused(&s, "drop", "a drop is `drop SLOT TOP BOTTOM`");
    /* a drop without a pair is a turn like any other */
    lx_move moves[64];
    assert_int_equal(lx_legal_drops(&s, RIGHT(CAMEL), LEFT(MULE), moves, 64), LX_SLOTS);
    PLAY(&s, "drop 3 camel< mule>");
    assert_int_equal(s.active, BLUE);
    assert_int_equal(s.scarab_supply, LX_SCARABS);
    /* only a full wall ends the drops */
    lx_state full = new_game(2, 0);
    fill_wall_but_one(&full);
    PLAY(&full, "drop 8 mule> hippo>");
    refused(&full, "drop 1 camel> mule<", "the wall is full");
    assert_int_equal(lx_legal_drops(&full, RIGHT(CAMEL), LEFT(MULE), moves, 64), 0);
}

/* "All the pairs a player makes count, even when he must put a scarab at an opponent's
 * pillar", and "the player who wins the sarcophagus is not necessarily the one who put the
 * scarab." */
static void test_lx_q_all_pairs_count_even_at_an_opponents_pillar(void **state_)
{
    (void)state_;
    lx_state s = new_game(3, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    stand(&s, LX_MULE, BLUE);
    set_scarabs(&s, LX_MULE, 2);
    refused(&s, "drop 2 hippo> mule<", "this drop makes the pairs mule x1");
    refused(&s, "drop 2 hippo> mule<, mule+", "face different ways: they cannot displace blue");
    PLAY(&s, "red: drop 2 hippo> mule<, mule");
    assert_int_equal(s.owner[LX_MULE][0], BLUE);
    assert_int_equal(s.opened[LX_MULE], 1);
    assert_int_equal(s.scarabs[LX_MULE], 0);
    assert_int_equal(s.scarab_supply, LX_SCARABS);
    assert_int_equal(lx_sarcophagi(&s, BLUE), 1);
    assert_int_equal(lx_sarcophagi(&s, RED), 0);
}

/* "The player who makes several pairs resolves them in the order he likes": with 2 scarabs at a
 * pillar, the order decides who opens the sarcophagus. */
static void test_lx_q_the_player_chooses_the_order(void **state_)
{
    (void)state_;
    /* two camel pairs, one facing alike, one not; blue at the camel with 2 scarabs */
    lx_state s = new_game(3, 0);
    put_tile(&s, 1, RIGHT(CAMEL), LEFT(CAMEL));
    stand(&s, LX_CAMEL, BLUE);
    set_scarabs(&s, LX_CAMEL, 2);
    lx_state displace_first = s;
    PLAY(&s, "drop 2 camel> hippo<, camel, camel+");
    assert_int_equal(s.owner[LX_CAMEL][0], BLUE); /* the third scarab came before red */
    assert_int_equal(s.archaeologist[LX_CAMEL], RED);
    assert_int_equal(s.scarabs[LX_CAMEL], 1);
    PLAY(&displace_first, "drop 2 camel> hippo<, camel+, camel");
    assert_int_equal(displace_first.owner[LX_CAMEL][0], RED);
    assert_int_equal(displace_first.archaeologist[LX_CAMEL], RED);
    assert_int_equal(displace_first.scarabs[LX_CAMEL], 1);
    assert_false(lx_same_game(&s, &displace_first));

    /* pairs of two animals: red, with no archaeologist in hand, stands at the mule with 2
     * scarabs, and moves to the camel before or after the mule's third scarab */
    lx_state t = new_game(3, 0);
    put_tile(&t, 1, RIGHT(CAMEL), RIGHT(MULE));
    stand(&t, LX_MULE, RED);
    stand(&t, LX_SNAKE, RED);
    stand(&t, LX_HIPPO, RED);
    stand(&t, LX_IBIS, RED);
    stand(&t, LX_CAT, RED);
    set_scarabs(&t, LX_MULE, 2);
    check_invariants(&t);
    lx_state move_first = t;
    PLAY(&t, "drop 2 camel> mule<, mule, camel+mule");
    assert_int_equal(t.owner[LX_MULE][0], RED);
    assert_int_equal(t.scarabs[LX_MULE], 0);
    assert_int_equal(t.archaeologist[LX_CAMEL], RED);
    assert_int_equal(t.archaeologist[LX_MULE], LX_NOBODY);
    PLAY(&move_first, "drop 2 camel> mule<, camel+mule, mule");
    assert_int_equal(move_first.opened[LX_MULE], 0); /* nobody there: the 3 stay (D-LX-4) */
    assert_int_equal(move_first.scarabs[LX_MULE], 3);
    assert_int_equal(move_first.archaeologist[LX_CAMEL], RED);
}

/* "There are never more than 3 scarabs at a pillar." */
static void test_lx_q_never_more_than_three_scarabs(void **state_)
{
    (void)state_;
    /* three camel pairs at a pillar with 2 scarabs and nobody there */
    lx_state s = new_game(2, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    put_tile(&s, 3, RIGHT(CAMEL), LEFT(CAMEL));
    set_scarabs(&s, LX_CAMEL, 2);
    PLAY(&s, "drop 2 camel> hippo<, camel, camel, camel");
    assert_int_equal(s.scarabs[LX_CAMEL], 3);
    assert_int_equal(s.scarab_supply, LX_SCARABS - 3);
    /* and a later pair there brings none */
    put_tile(&s, 5, RIGHT(CAMEL), RIGHT(SNAKE));
    PLAY(&s, "drop 6 camel< hippo<, camel");
    assert_int_equal(s.scarabs[LX_CAMEL], 3);
    assert_int_equal(s.scarab_supply, LX_SCARABS - 3);
}

/* "With 2 scarabs at a pillar and two to put there, the player puts one, opens the
 * sarcophagus (3 scarabs), then puts the second." */
static void test_lx_q_two_due_at_a_pillar_with_two_open_between(void **state_)
{
    (void)state_;
    lx_state s = new_game(3, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    put_tile(&s, 3, RIGHT(CAMEL), RIGHT(SNAKE));
    stand(&s, LX_CAMEL, GREEN);
    set_scarabs(&s, LX_CAMEL, 2);
    lx_state short_supply = s;
    PLAY(&s, "drop 2 camel> hippo<, camel, camel");
    assert_int_equal(s.owner[LX_CAMEL][0], GREEN);
    assert_int_equal(s.opened[LX_CAMEL], 1);
    assert_int_equal(s.scarabs[LX_CAMEL], 1);
    assert_int_equal(s.scarab_supply, LX_SCARABS - 1);
    assert_int_equal(s.archaeologist[LX_CAMEL], GREEN);

    /* one scarab left on the slab: the opening returns three, so the second is placed too */
    set_scarabs(&short_supply, LX_HIPPO, 3);
    set_scarabs(&short_supply, LX_IBIS, 3);
    set_scarabs(&short_supply, LX_CROCODILE, 3);
    set_scarabs(&short_supply, LX_CAT, 3);
    set_scarabs(&short_supply, LX_SNAKE, 1);
    assert_int_equal(short_supply.scarab_supply, 1);
    check_invariants(&short_supply);
    PLAY(&short_supply, "drop 2 camel> hippo<, camel, camel");
    assert_int_equal(short_supply.owner[LX_CAMEL][0], GREEN);
    assert_int_equal(short_supply.scarabs[LX_CAMEL], 1);
    assert_int_equal(short_supply.scarab_supply, 2);
}

/* "Even with no sarcophagus left at a pillar, the players keep putting scarabs there." */
static void test_lx_q_scarabs_still_placed_where_no_sarcophagus_is_left(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_CAMEL, RED);
    check_invariants(&s);
    PLAY(&s, "drop 2 camel> hippo<, camel");
    assert_int_equal(s.scarabs[LX_CAMEL], 1);
    assert_int_equal(s.scarab_supply, LX_SCARABS - 1);
}

/* "3 scarabs at a pillar without sarcophagus stay there until the end", and D-LX-4: so do 3
 * at a pillar without archaeologist. */
static void test_lx_q_three_scarabs_stay_without_sarcophagus_or_archaeologist(void **state_)
{
    (void)state_;
    /* no sarcophagus, red's archaeologist there */
    lx_state s = new_game(2, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_CAMEL, BLUE);
    stand(&s, LX_CAMEL, RED);
    set_scarabs(&s, LX_CAMEL, 2);
    PLAY(&s, "drop 2 camel> hippo<, camel");
    assert_int_equal(s.scarabs[LX_CAMEL], 3);
    assert_int_equal(s.scarab_supply, LX_SCARABS - 3);
    assert_int_equal(lx_sarcophagi(&s, RED), 0);

    /* sarcophagi, nobody there: the 3 stay, and the sarcophagus stays closed even when an
     * archaeologist arrives later (no scarab is placed then) */
    lx_state t = new_game(2, 0);
    put_tile(&t, 1, RIGHT(CAMEL), RIGHT(MULE));
    put_tile(&t, 5, RIGHT(CAMEL), RIGHT(SNAKE));
    set_scarabs(&t, LX_CAMEL, 2);
    PLAY(&t, "drop 2 camel> hippo<, camel");
    assert_int_equal(t.scarabs[LX_CAMEL], 3);
    assert_int_equal(t.opened[LX_CAMEL], 0);
    assert_int_equal(t.archaeologist[LX_CAMEL], LX_NOBODY);
    PLAY(&t, "blue: drop 6 camel> hippo<, camel+");
    assert_int_equal(t.archaeologist[LX_CAMEL], BLUE);
    assert_int_equal(t.scarabs[LX_CAMEL], 3);
    assert_int_equal(t.opened[LX_CAMEL], 0);
}

/* "It is also allowed to take the place of an archaeologist at a pillar without sarcophagus." */
static void test_lx_q_displacing_at_a_pillar_without_sarcophagus(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_CAMEL, BLUE);
    stand(&s, LX_CAMEL, BLUE);
    PLAY(&s, "drop 2 camel> hippo<, camel+");
    assert_int_equal(s.archaeologist[LX_CAMEL], RED);
    assert_int_equal(s.hand[BLUE], LX_ARCHAEOLOGISTS);
    assert_int_equal(s.hand[RED], LX_ARCHAEOLOGISTS - 1);
    assert_int_equal(s.scarabs[LX_CAMEL], 1);
}

/* "A player who may place an archaeologist but has none left in front of him may move one of
 * his own on the board." Not while one is left in front of him. */
static void test_lx_q_moving_own_archaeologist_when_the_hand_is_empty(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    stand(&s, LX_MULE, RED);
    stand(&s, LX_SNAKE, RED);
    stand(&s, LX_HIPPO, RED);
    stand(&s, LX_IBIS, RED);
    lx_state one_left = s;
    refused(&one_left, "drop 2 camel> hippo<, camel+mule",
            "red still has an archaeologist in front of them");
    PLAY(&one_left, "drop 2 camel> hippo<, camel+");
    assert_int_equal(one_left.hand[RED], 0);

    stand(&s, LX_CROCODILE, RED);
    assert_int_equal(s.hand[RED], 0);
    refused(&s, "drop 2 camel> hippo<, camel+", "red has no archaeologist left in front of them");
    refused(&s, "drop 2 camel> hippo<, camel+cat", "red has no archaeologist at the cat pillar");
    PLAY(&s, "drop 2 camel> hippo<, camel+mule");
    assert_int_equal(s.archaeologist[LX_CAMEL], RED);
    assert_int_equal(s.archaeologist[LX_MULE], LX_NOBODY);
    assert_int_equal(s.hand[RED], 0);
    assert_int_equal(s.scarabs[LX_CAMEL], 1);
}

/* "It often happens that some sarcophagi were never opened at the end." */
static void test_lx_q_unopened_sarcophagi_at_the_end(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    fill_wall_but_one(&s);
    stand(&s, LX_CAT, BLUE);
    PLAY(&s, "drop 8 mule> hippo>", "scarabs none", "scarabs none");
    assert_int_equal(s.phase, LX_PHASE_REVEAL);
    PLAY(&s, "pharaoh red camel", "pharaoh blue cat");
    assert_int_equal(s.phase, LX_PHASE_OVER);
    for (int a = 0; a < LX_ANIMALS; a++)
        assert_int_equal(s.opened[a], 0);
    assert_int_equal(score_of(&s, RED), 0);
    assert_int_equal(score_of(&s, BLUE), LX_PHARAOH_BONUS);
    int32_t ranks[LX_MAX_SEATS];
    lx_ranks(&s, ranks);
    assert_int_equal(ranks[BLUE], 1);
    assert_int_equal(ranks[RED], 2);
}

/* ---- the decisions of RULES.md ---- */

static void test_lx_d1_animal_names(void **state_)
{
    (void)state_;
    static const char *const names[LX_ANIMALS] = {"camel", "mule",      "snake", "hippo",
                                                  "ibis",  "crocodile", "cat"};
    for (int a = 0; a < LX_ANIMALS; a++) {
        assert_string_equal(lx_animal_name((lx_animal)a), names[a]);
        assert_int_equal(lx_animal_of(names[a], strlen(names[a])), a);
    }
    assert_null(lx_animal_name(LX_ANIMALS));
    assert_int_equal(lx_animal_of("dog", 3), -1);
}

/* D-LX-2: seven pharaoh cards, one per animal: two seats cannot hold the same. */
static void test_lx_d2_one_pharaoh_card_per_animal(void **state_)
{
    (void)state_;
    lx_state s = new_game(3, 0);
    PLAY(&s, "pharaoh red camel");
    refused(&s, "pharaoh blue camel", "there is one camel card, and it is red's");
    refused(&s, "pharaoh red mule", "red's pharaoh card was entered already (camel)");
    refused(&s, "pharaoh purple mule", "'purple' is not a colour of this game");
    PLAY(&s, "pharaoh blue mule");
    assert_int_equal(s.pharaoh[RED], LX_CAMEL);
    assert_int_equal(s.pharaoh[BLUE], LX_MULE);
    assert_int_equal(s.pharaoh[GREEN], LX_NOBODY);
    lx_state broken = s;
    broken.pharaoh[GREEN] = LX_CAMEL;
    lx_error error = {""};
    assert_int_equal(lx_verify(&broken, &error), LX_ILLEGAL);
    assert_non_null(strstr(error.message, "two seats hold the camel card"));
}

/* D-LX-3: the two animals of one tile do not pair with each other, unless the option says so. */
static void test_lx_d3_a_tiles_own_animals_pair_only_with_the_option(void **state_)
{
    (void)state_;
    lx_pair pairs[LX_MAX_PAIRS];
    lx_state s = new_game(2, 0);
    assert_int_equal(lx_pairs(&s, 0, RIGHT(CAMEL), LEFT(CAMEL), pairs), 0);
    refused(&s, "drop 1 camel> camel<, camel", "this drop makes no pair");
    PLAY(&s, "drop 1 camel> camel<");
    assert_int_equal(s.scarabs[LX_CAMEL], 0);

    lx_state t = new_game(2, TILE_PAIRS);
    assert_int_equal(lx_pairs(&t, 0, RIGHT(CAMEL), LEFT(CAMEL), pairs), 1);
    assert_false(pairs[0].same_facing);
    refused(&t, "drop 1 camel> camel<", "this drop makes the pairs camel x1");
    PLAY(&t, "drop 1 camel> camel<, camel+");
    assert_int_equal(t.scarabs[LX_CAMEL], 1);
    assert_int_equal(t.archaeologist[LX_CAMEL], RED);
    /* the tile's pair counts once, and not again when the next tile comes on top */
    assert_int_equal(lx_pairs(&t, 0, RIGHT(MULE), RIGHT(HIPPO), pairs), 0);
    assert_int_equal(lx_pairs(&t, 0, RIGHT(HIPPO), RIGHT(CAMEL), pairs), 1);
    assert_true(pairs[0].same_facing);
}

/* D-LX-5: when the wall is full, each seat once, in seat order, moves scarabs; then the values
 * and cards are entered; the game is over when every held sarcophagus has its value and every
 * pharaoh card is known. The pharaoh bonus needs the seat's own archaeologist at the pillar. */
static void test_lx_d5_end_game_in_seat_order_then_reveal(void **state_)
{
    (void)state_;
    lx_state s = new_game(3, 0);
    fill_wall_but_one(&s);
    stand(&s, LX_CAMEL, RED);
    stand(&s, LX_MULE, GREEN);
    give(&s, LX_SNAKE, RED);
    give(&s, LX_HIPPO, GREEN);
    check_invariants(&s);
    PLAY(&s, "red: drop 8 mule> hippo>");
    assert_int_equal(s.phase, LX_PHASE_SCARABS);
    assert_int_equal(s.drops, LX_TILES_IN_WALL);
    assert_int_equal(s.active, RED);
    refused(&s, "blue: scarabs none", "it is red's turn, not blue's");
    PLAY(&s, "red: scarabs none");
    assert_int_equal(s.active, BLUE);
    refused(&s, "red: scarabs none", "it is blue's turn, not red's");
    PLAY(&s, "blue: scarabs none");
    assert_int_equal(s.phase, LX_PHASE_SCARABS);
    PLAY(&s, "green: scarabs none");
    assert_int_equal(s.phase, LX_PHASE_REVEAL);
    refused(&s, "scarabs none", "scarabs move only once the wall is full");
    refused(&s, "drop 1 camel> mule<", "the wall is full");

    PLAY(&s, "pharaoh red camel", "pharaoh blue mule", "pharaoh green snake");
    assert_int_equal(s.phase, LX_PHASE_REVEAL); /* two values missing */
    PLAY(&s, "value snake 1-eye 4");
    assert_int_equal(s.phase, LX_PHASE_REVEAL);
    assert_true(lx_unvalued(&s, GREEN) == 1 && lx_unvalued(&s, RED) == 0);
    PLAY(&s, "value hippo 1-eye 3");
    assert_int_equal(s.phase, LX_PHASE_OVER);
    assert_int_equal(score_of(&s, RED), 4 + LX_PHARAOH_BONUS); /* red stands at the camel */
    assert_int_equal(score_of(&s, BLUE), 0);                   /* green stands at the mule */
    assert_int_equal(score_of(&s, GREEN), 3);                  /* nobody at the snake */
    refused(&s, "value snake 1-eye 3", "the game is over");

    /* values may come first, the cards last: the last card ends the game */
    lx_state t = new_game(2, 0);
    fill_wall_but_one(&t);
    give(&t, LX_CAT, BLUE);
    PLAY(&t, "value cat 1-eye 4", "drop 8 mule> hippo>", "scarabs none", "scarabs none",
         "pharaoh blue cat");
    assert_int_equal(t.phase, LX_PHASE_REVEAL);
    PLAY(&t, "pharaoh red ibis");
    assert_int_equal(t.phase, LX_PHASE_OVER);
    assert_int_equal(score_of(&t, BLUE), 4);
}

/* ---- each rule's refusal in plain words ---- */

static void test_lx_refusals_of_placements(void **state_)
{
    (void)state_;
    lx_state s = new_game(4, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    stand(&s, LX_CAMEL, BLUE);
    /* a pair facing different ways cannot displace an opponent */
    refused(&s, "drop 2 camel< hippo<, camel+", "the camel pairs face different ways: they "
                                                "cannot displace blue's archaeologist");
    lx_state keep = s;
    PLAY(&keep, "drop 2 camel< hippo<, camel");
    assert_int_equal(keep.archaeologist[LX_CAMEL], BLUE);
    assert_int_equal(keep.scarabs[LX_CAMEL], 1);
    /* with nobody there, a pair facing different ways places */
    lx_state free_pillar = s;
    stand(&free_pillar, LX_CAMEL, LX_NOBODY);
    PLAY(&free_pillar, "drop 2 camel< hippo<, camel+");
    assert_int_equal(free_pillar.archaeologist[LX_CAMEL], RED);
    /* not where one's own archaeologist stands */
    stand(&s, LX_CAMEL, RED);
    refused(&s, "drop 2 camel> hippo<, camel+", "red's archaeologist stands at the camel pillar");
    refused(&s, "drop 2 camel> hippo<, camel+mule", "red's archaeologist stands at the camel");
    /* pairs are named as the drop makes them */
    refused(&s, "drop 2 camel> mule<", "this drop makes the pairs camel x1, mule x1");
    refused(&s, "drop 2 camel> mule<, camel", "this drop makes the pairs camel x1, mule x1");
    refused(&s, "drop 2 camel> hippo<, camel, mule", "this drop makes the pairs camel x1");
    refused(&s, "drop 5 camel> hippo<, camel", "this drop makes no pair");
}

static void test_lx_refusals_of_the_wall_and_the_turn(void **state_)
{
    (void)state_;
    lx_config config;
    lx_config_default(&config);
    lx_state s;
    lx_error error;
    assert_int_equal(lx_init(&s, &config, &error), LX_OK);
    refused(&s, "drop 1 camel> mule<", "the pillars are not set yet");
    refused(&s, "pillars camel mule snake hippo ibis crocodile", "pillars names the 7 animals");
    refused(&s, "pillars camel mule snake hippo ibis crocodile camel", "the camel pillar is given "
                                                                      "twice");
    PLAY(&s, "pillars cat crocodile ibis hippo snake mule camel");
    refused(&s, "pillars camel mule snake hippo ibis crocodile cat", "the pillars stand already");
    refused(&s, "blue: drop 1 camel> mule<", "it is red's turn, not blue's");
    refused(&s, "purple: drop 1 camel> mule<", "'purple' is not a colour of this game");
    refused(&s, "red: value camel 1-eye 3", "a colour prefix goes only before drop and scarabs");
    refused(&s, "drop 9 camel> mule<", "SLOT 1 to 8");
    refused(&s, "drop 0 camel> mule<", "SLOT 1 to 8");
    refused(&s, "drop 1 camel mule<", "such as camel< or mule>");
    refused(&s, "drop 1 dog> mule<", "such as camel< or mule>");
    refused(&s, "drop 1 camel> mule<,", "an empty item between commas");
    for (int i = 0; i < 5; i++)
        put_tile(&s, 1, RIGHT(CAT), LEFT(IBIS));
    refused(&s, "drop 1 camel> mule<", "slot 1 is full");
    /* the state's own checks, reached without the notation */
    lx_move move = {.kind = LX_MOVE_DROP, .slot = 8, .top = RIGHT(CAMEL), .bottom = 1};
    assert_int_equal(lx_check(&s, &move, &error), LX_ILLEGAL);
    assert_non_null(strstr(error.message, "slots 1 to 8"));
    move.slot = 2;
    move.bottom = 0;
    assert_int_equal(lx_check(&s, &move, &error), LX_ILLEGAL);
    assert_non_null(strstr(error.message, "a tile shows two animals"));
    /* bad configurations */
    config.seats = 5;
    assert_int_equal(lx_init(&s, &config, &error), LX_BAD_CONFIG);
    assert_non_null(strstr(error.message, "played by 2 to 4, not 5"));
    config.seats = 2;
    snprintf(config.colours[1], LX_COLOUR_MAX, "red");
    assert_int_equal(lx_init(&s, &config, &error), LX_BAD_CONFIG);
    assert_non_null(strstr(error.message, "two seats are red"));
}

/* Values: within the eye category (LX-ENGINE-5), for an opened sarcophagus, once. */
static void test_lx_refusals_of_values(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    give(&s, LX_CAMEL, RED);
    give(&s, LX_CAMEL, RED);
    give(&s, LX_CAMEL, BLUE);
    check_invariants(&s);
    refused(&s, "value camel 1-eye 5", "a 1-eye sarcophagus is worth 3 or 4, not 5");
    refused(&s, "value camel 1-eye 2", "a 1-eye sarcophagus is worth 3 or 4, not 2");
    refused(&s, "value camel 2-eye 4", "a 2-eye sarcophagus is worth 5 or 6, not 4");
    refused(&s, "value camel 2-eye 7", "a 2-eye sarcophagus is worth 5 or 6, not 7");
    refused(&s, "value camel 3-eye 9", "a 3-eye sarcophagus is worth 7, 8 or 10, not 9");
    refused(&s, "value camel 3-eye 6", "a 3-eye sarcophagus is worth 7, 8 or 10, not 6");
    refused(&s, "value camel 3-eye 11", "a 3-eye sarcophagus is worth 7, 8 or 10, not 11");
    refused(&s, "value hippo 1-eye 3", "the 1-eye sarcophagus of the hippo pillar is not open");
    refused(&s, "value camel 4-eye 3", "a value is `value camel 2-eye 6`");
    PLAY(&s, "value camel 1-eye 4", "value camel 2-eye 5", "value camel 3-eye 10");
    refused(&s, "value camel 1-eye 3", "the camel 1-eye sarcophagus was entered already (4)");
    assert_int_equal(score_of(&s, RED), 9);
    assert_int_equal(score_of(&s, BLUE), 10);
    for (int v = 0; v < 12; v++) {
        assert_int_equal(lx_value_possible(1, v), v == 3 || v == 4);
        assert_int_equal(lx_value_possible(2, v), v == 5 || v == 6);
        assert_int_equal(lx_value_possible(3, v), v == 7 || v == 8 || v == 10);
    }
}

/* "With no scarab left in the supply none is placed" (the placement is still allowed). */
static void test_lx_empty_scarab_supply_places_no_scarab(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    set_scarabs(&s, LX_SNAKE, 3);
    set_scarabs(&s, LX_HIPPO, 3);
    set_scarabs(&s, LX_IBIS, 3);
    set_scarabs(&s, LX_CROCODILE, 3);
    set_scarabs(&s, LX_CAT, 3);
    set_scarabs(&s, LX_MULE, 1);
    assert_int_equal(s.scarab_supply, 0);
    check_invariants(&s);
    PLAY(&s, "drop 2 camel> hippo<, camel+");
    assert_int_equal(s.scarabs[LX_CAMEL], 0);
    assert_int_equal(s.scarab_supply, 0);
    assert_int_equal(s.archaeologist[LX_CAMEL], RED);
}

/* lx_verify catches each broken invariant. */
static void test_lx_verify_catches_broken_invariants(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    check_invariants(&s);
    lx_error error;
    lx_state broken = s;
    broken.scarab_supply--;
    assert_int_equal(lx_verify(&broken, &error), LX_ILLEGAL);
    broken = s;
    broken.scarabs[LX_CAMEL] = 4;
    broken.scarab_supply -= 4;
    assert_int_equal(lx_verify(&broken, &error), LX_ILLEGAL);
    assert_non_null(strstr(error.message, "4 scarabs at the camel pillar"));
    broken = s;
    broken.hand[BLUE]--;
    assert_int_equal(lx_verify(&broken, &error), LX_ILLEGAL);
    assert_non_null(strstr(error.message, "blue has 4 archaeologists"));
    broken = s;
    broken.owner[LX_CAMEL][1] = RED; /* the 2-eye taken before the 1-eye */
    assert_int_equal(lx_verify(&broken, &error), LX_ILLEGAL);
    broken = s;
    broken.wall[0][0] = RIGHT(CAT); /* a floating window */
    assert_int_equal(lx_verify(&broken, &error), LX_ILLEGAL);
    broken = s;
    broken.drops++;
    assert_int_equal(lx_verify(&broken, &error), LX_ILLEGAL);
}

/* ---- the tie-break ---- */

/* "In case of a tie, the winner is the player with the most sarcophagi"; a full tie shares. */
static void test_lx_ties_more_sarcophagi_then_shared(void **state_)
{
    (void)state_;
    lx_state s = new_game(4, 0);
    give(&s, LX_CAMEL, RED);
    give(&s, LX_CAMEL, RED);
    give(&s, LX_MULE, GREEN);
    give(&s, LX_MULE, GREEN);
    give(&s, LX_MULE, BLUE);
    check_invariants(&s);
    PLAY(&s, "value camel 1-eye 4", "value camel 2-eye 6", "value mule 1-eye 3",
         "value mule 2-eye 5", "value mule 3-eye 10");
    int32_t scores[LX_MAX_SEATS], ranks[LX_MAX_SEATS];
    lx_scores(&s, scores);
    assert_int_equal(scores[RED], 10);
    assert_int_equal(scores[BLUE], 10);
    assert_int_equal(scores[GREEN], 8);
    assert_int_equal(scores[YELLOW], 0);
    lx_ranks(&s, ranks);
    assert_int_equal(ranks[RED], 1); /* two sarcophagi against one */
    assert_int_equal(ranks[BLUE], 2);
    assert_int_equal(ranks[GREEN], 3);
    assert_int_equal(ranks[YELLOW], 4);

    /* yellow: 10 with two sarcophagi too: red and yellow share the victory */
    give(&s, LX_SNAKE, YELLOW);
    give(&s, LX_SNAKE, YELLOW);
    PLAY(&s, "value snake 1-eye 4", "value snake 2-eye 6");
    lx_ranks(&s, ranks);
    assert_int_equal(ranks[RED], 1);
    assert_int_equal(ranks[YELLOW], 1);
    assert_int_equal(ranks[BLUE], 3);
    assert_int_equal(ranks[GREEN], 4);
}

/* ---- the curse of the pharaoh ---- */

/* 4 seats, the curse variant, 8 tiles in the wall (the first pile's last draw: 20 - 3 x 4),
 * red to drop: the triple camel-snake-mule in the bottom row (facings mixed), crocodiles
 * elsewhere; red holds the hippo's 1-eye sarcophagus. */
static lx_state curse_game(void)
{
    lx_state s = new_game(4, CURSE);
    put_tile(&s, 1, LEFT(CROCODILE), RIGHT(SNAKE));
    put_tile(&s, 2, RIGHT(CROCODILE), LEFT(CAMEL));
    put_tile(&s, 3, LEFT(CROCODILE), RIGHT(MULE));
    for (int slot = 4; slot <= 7; slot++)
        put_tile(&s, slot, RIGHT(CROCODILE), LEFT(CROCODILE));
    put_tile(&s, 4, LEFT(CROCODILE), LEFT(CROCODILE));
    give(&s, LX_HIPPO, RED);
    check_invariants(&s);
    assert_int_equal(s.drops, LX_FIRST_PILE - LX_HAND * 4);
    return s;
}

/* LX-ENGINE-3: the curse tiles are in the second pile, reached at the draw after the first
 * 20 - 3 x players drops. */
static void test_lx_curse_waits_for_the_second_pile(void **state_)
{
    (void)state_;
    lx_state s = curse_game();
    refused(&s, "curse camel mule snake", "the first (20 tiles, 12 of them dealt)");
    PLAY(&s, "drop 8 cat> hippo<", "curse camel mule snake");
    assert_int_equal(s.curses, 1);

    lx_state two = new_game(2, CURSE), three = new_game(3, CURSE);
    two.drops = 14;
    three.drops = 11;
    assert_false(lx_second_pile_in_use(&two));
    assert_false(lx_second_pile_in_use(&three));
    two.drops = 15;
    three.drops = 12;
    assert_true(lx_second_pile_in_use(&two));
    assert_true(lx_second_pile_in_use(&three));
}

/* "If the 3 animals of the tile stand next to each other, in any order, somewhere in the wall,
 * horizontally, vertically or diagonally... the direction the animals look does not matter." */
/* Every order of camel, mule and snake is found exactly once, at this first window and step. */
static void expect_one_triple(const lx_state *s, int row, int slot, int drow, int dslot)
{
    static const uint8_t triples[6][3] = {
        {LX_CAMEL, LX_MULE, LX_SNAKE}, {LX_CAMEL, LX_SNAKE, LX_MULE}, {LX_MULE, LX_CAMEL, LX_SNAKE},
        {LX_MULE, LX_SNAKE, LX_CAMEL}, {LX_SNAKE, LX_CAMEL, LX_MULE}, {LX_SNAKE, LX_MULE, LX_CAMEL}};
    lx_triple found[4];
    for (int t = 0; t < 6; t++) {
        assert_int_equal(lx_curse_find(s, triples[t], found, 4), 1);
        assert_true(found[0].row == row && found[0].slot == slot);
        assert_true(found[0].drow == drow && found[0].dslot == dslot);
    }
}

static void test_lx_curse_find_lines_in_any_order(void **state_)
{
    (void)state_;
    static const uint8_t camel_mule_snake[3] = {LX_CAMEL, LX_MULE, LX_SNAKE};
    lx_triple found[4];

    /* a row: snake camel mule at the bottom of slots 1-3 */
    lx_state row = new_game(2, 0);
    put_tile(&row, 1, LEFT(CROCODILE), RIGHT(SNAKE));
    put_tile(&row, 2, LEFT(CROCODILE), LEFT(CAMEL));
    put_tile(&row, 3, LEFT(CROCODILE), RIGHT(MULE));
    expect_one_triple(&row, 9, 0, 0, 1);

    /* a column: snake over camel over mule in slot 5 */
    lx_state column = new_game(2, 0);
    put_tile(&column, 5, LEFT(CAMEL), RIGHT(MULE));
    put_tile(&column, 5, LEFT(CROCODILE), RIGHT(SNAKE));
    expect_one_triple(&column, 7, 4, 1, 0);

    /* a diagonal down to the right (row, slot 1-8): (7,1) mule, (8,2) snake, (9,3) camel */
    lx_state diagonal = new_game(2, 0);
    put_tile(&diagonal, 1, LEFT(CROCODILE), LEFT(CROCODILE));
    put_tile(&diagonal, 1, LEFT(CROCODILE), RIGHT(MULE));
    put_tile(&diagonal, 2, RIGHT(SNAKE), LEFT(CROCODILE));
    put_tile(&diagonal, 3, LEFT(CROCODILE), LEFT(CAMEL));
    expect_one_triple(&diagonal, 7, 0, 1, 1);

    /* a diagonal down to the left (row, slot 1-8): (7,3) camel, (8,2) mule, (9,1) snake */
    lx_state anti = new_game(2, 0);
    put_tile(&anti, 1, LEFT(CROCODILE), RIGHT(SNAKE));
    put_tile(&anti, 2, LEFT(MULE), LEFT(CROCODILE));
    put_tile(&anti, 3, LEFT(CROCODILE), LEFT(CROCODILE));
    put_tile(&anti, 3, LEFT(CROCODILE), RIGHT(CAMEL));
    expect_one_triple(&anti, 7, 2, 1, -1);

    /* not side by side: a crocodile between, or a gap */
    lx_state apart = new_game(2, 0);
    put_tile(&apart, 1, LEFT(CROCODILE), RIGHT(SNAKE));
    put_tile(&apart, 2, LEFT(CROCODILE), LEFT(CROCODILE));
    put_tile(&apart, 3, LEFT(CROCODILE), LEFT(CAMEL));
    put_tile(&apart, 4, LEFT(CROCODILE), RIGHT(MULE));
    put_tile(&apart, 6, LEFT(CROCODILE), RIGHT(SNAKE));
    assert_int_equal(lx_curse_find(&apart, camel_mule_snake, found, 4), 0);
    /* an animal twice is not the third */
    uint8_t crocodiles[3] = {LX_CROCODILE, LX_CROCODILE, LX_CROCODILE};
    assert_true(lx_curse_find(&apart, crocodiles, found, 4) >= 1);
    uint8_t two_snakes[3] = {LX_SNAKE, LX_SNAKE, LX_CAMEL};
    assert_int_equal(lx_curse_find(&apart, two_snakes, found, 4), 0);
    /* max limits what is written, not what is counted */
    assert_int_equal(lx_curse_find(&row, camel_mule_snake, NULL, 0), 1);
}

/* "The first player who finds it decides which opponent is struck; that one gives him one of
 * the sarcophagi he has won, of his choice." */
static void test_lx_curse_exchange(void **state_)
{
    (void)state_;
    lx_state s = curse_game();
    PLAY(&s, "drop 8 cat> hippo<");
    refused(&s, "curse hippo ibis cat, red gives hippo 1-eye to blue",
            "hippo, ibis and cat stand nowhere side by side in a line");
    refused(&s, "curse camel mule snake, red gives hippo 1-eye to red",
            "the finder chooses an opponent");
    refused(&s, "curse camel mule snake, blue gives hippo 1-eye to red",
            "blue does not hold that sarcophagus");
    refused(&s, "curse camel mule snake, red gives hippo 2-eye to blue",
            "red does not hold that sarcophagus");
    refused(&s, "curse camel mule snake, red gives hippo 1-eye to purple",
            "the exchange names two colours of this game");
    PLAY(&s, "curse snake camel mule, red gives hippo 1-eye to blue");
    assert_int_equal(s.owner[LX_HIPPO][0], BLUE);
    assert_int_equal(s.curses, 1);
    assert_int_equal(lx_sarcophagi(&s, RED), 0);
    assert_int_equal(lx_sarcophagi(&s, BLUE), 1);
    PLAY(&s, "value hippo 1-eye 4");
    assert_int_equal(score_of(&s, BLUE), 4);
    /* nobody found it, or nobody could give: the tile leaves the game all the same */
    PLAY(&s, "curse hippo ibis cat");
    assert_int_equal(s.curses, 2);
}

static void test_lx_curse_six_rounds_at_most(void **state_)
{
    (void)state_;
    lx_state s = curse_game();
    PLAY(&s, "drop 8 cat> hippo<");
    for (int i = 0; i < LX_CURSE_TILES; i++)
        PLAY(&s, "curse hippo ibis cat");
    assert_int_equal(s.curses, LX_CURSE_TILES);
    refused(&s, "curse hippo ibis cat", "all 6 curse tiles were turned already");
}

static void test_lx_curse_needs_the_variant(void **state_)
{
    (void)state_;
    lx_state s = new_game(4, 0);
    for (int slot = 1; slot <= 8; slot++)
        put_tile(&s, slot, RIGHT(CROCODILE), LEFT(CROCODILE));
    put_tile(&s, 1, RIGHT(CAT), LEFT(CAT));
    refused(&s, "curse camel mule snake", "curse rounds belong to the Curse of the Pharaoh variant");
    lx_state fresh = new_game(4, CURSE);
    refused(&fresh, "curse camel mule snake", "a curse round comes at a draw, after a drop");
    refused(&fresh, "curse camel mule", "a curse round is `curse A B C`");
}

/* A refusal's reason reaches the player whole: lx_play_line puts the action before it, and the
 * reason must not be cut short. */
static void test_lx_refusal_messages_are_whole(void **state_)
{
    (void)state_;
    lx_state s = curse_game();
    lx_error error = {""};
    assert_int_equal(lx_play_line(&s, "curse camel mule snake", NULL, &error), LX_ILLEGAL);
    if (!strstr(error.message, "is not empty yet"))
        fail_msg("the reason is cut: '%s'", error.message);

    /* a drop that makes crocodile and camel pairs, the crocodiles left out */
    lx_state t = new_game(2, 0);
    put_tile(&t, 1, RIGHT(CROCODILE), RIGHT(CAMEL));
    assert_int_equal(lx_play_line(&t, "drop 2 crocodile> camel<, camel", NULL, &error),
                     LX_ILLEGAL);
    assert_non_null(strstr(error.message, "this drop makes the pairs camel x1, crocodile x1"));
    if (!strstr(error.message, "(`, crocodile` or `, crocodile+`)"))
        fail_msg("the reason is cut: '%s'", error.message);
}

/* ---- the eyes of the sphinx ---- */

/* "The animals need not stand right next to each other, only anywhere on the same line." */
static void test_lx_sphinx_pair_along_a_row_with_a_gap(void **state_)
{
    (void)state_;
    lx_pair pairs[LX_MAX_PAIRS];
    lx_state base = new_game(2, 0);
    put_tile(&base, 1, RIGHT(CROCODILE), RIGHT(CAMEL));
    assert_int_equal(lx_pairs(&base, 5, RIGHT(IBIS), LEFT(CAMEL), pairs), 0);

    lx_state s = new_game(2, SPHINX);
    put_tile(&s, 1, RIGHT(CROCODILE), RIGHT(CAMEL));
    assert_int_equal(lx_pairs(&s, 5, RIGHT(IBIS), LEFT(CAMEL), pairs), 1);
    assert_int_equal(pairs[0].animal, LX_CAMEL);
    assert_false(pairs[0].same_facing);
    assert_int_equal(lx_pairs(&s, 5, RIGHT(IBIS), RIGHT(CAMEL), pairs), 1);
    assert_true(pairs[0].same_facing);
    refused(&s, "drop 6 ibis> camel<", "this drop makes the pairs camel x1");
    PLAY(&s, "drop 6 ibis> camel<, camel+");
    assert_int_equal(s.scarabs[LX_CAMEL], 1);
    assert_int_equal(s.archaeologist[LX_CAMEL], RED);
}

/* "If a third identical animal, or more, stands on the same line, no further scarab." */
static void test_lx_sphinx_a_third_animal_on_the_line_gives_no_pair(void **state_)
{
    (void)state_;
    lx_pair pairs[LX_MAX_PAIRS];
    lx_state s = new_game(2, SPHINX);
    put_tile(&s, 1, RIGHT(CROCODILE), RIGHT(CAMEL));
    put_tile(&s, 3, RIGHT(CROCODILE), LEFT(CAMEL));
    assert_int_equal(lx_pairs(&s, 5, RIGHT(IBIS), LEFT(CAMEL), pairs), 0);
    refused(&s, "drop 6 ibis> camel<, camel", "this drop makes no pair");
    PLAY(&s, "drop 6 ibis> camel<");
    assert_int_equal(s.scarabs[LX_CAMEL], 0);
    assert_int_equal(s.scarab_supply, LX_SCARABS);
}

/* One pair a line: a camel on two lines that each hold one camel makes two pairs; a tile that
 * takes a column from one camel to three makes one (LX-ENGINE-4). */
static void test_lx_sphinx_one_pair_per_line(void **state_)
{
    (void)state_;
    lx_pair pairs[LX_MAX_PAIRS];
    lx_state s = new_game(2, SPHINX);
    put_tile(&s, 1, RIGHT(CROCODILE), RIGHT(CAMEL)); /* the bottom row */
    put_tile(&s, 5, RIGHT(CAMEL), LEFT(CROCODILE));  /* the diagonal up to the left */
    assert_int_equal(lx_pairs(&s, 5, RIGHT(IBIS), LEFT(CAMEL), pairs), 2);
    PLAY(&s, "drop 6 ibis> camel<, camel, camel");
    assert_int_equal(s.scarabs[LX_CAMEL], 2);

    lx_state column = new_game(2, SPHINX);
    put_tile(&column, 1, RIGHT(CROCODILE), RIGHT(CAMEL));
    assert_int_equal(lx_pairs(&column, 0, RIGHT(CAMEL), RIGHT(CAMEL), pairs), 1);
    assert_true(pairs[0].same_facing);
    refused(&column, "drop 1 camel> camel>, camel, camel", "this drop makes the pairs camel x1");
    PLAY(&column, "drop 1 camel> camel>, camel+");
    assert_int_equal(column.scarabs[LX_CAMEL], 1);
    /* the next camel on that column (now three) makes none there */
    assert_int_equal(lx_pairs(&column, 0, RIGHT(HIPPO), RIGHT(CAMEL), pairs), 0);
}

/* ---- random games: invariants after every line, and the round trip ---- */

#define MAX_LEGAL 4096

typedef struct replay {
    lx_state state;
    int lines, drops;
    int legal_every;     /* check lx_legal_drops at every n-th drop (0: never) */
    int reconcile_every; /* reconcile every n-th drop (0: never) */
    int legal_checked, reconciled, explained, ambiguous, unlisted, unseen_checked;
} replay;

/* The line parses to a move whose canonical text is the line, and that text re-parses to the
 * same text. */
static void check_round_trip(const lx_state *s, const char *line, const lx_line *parsed)
{
    char text[512], again[512];
    lx_line reparsed;
    lx_error error = {""};
    if (parsed->kind == LX_LINE_PILLARS) {
        assert_int_equal(lx_parse(s, line, &reparsed, &error), LX_OK);
        assert_memory_equal(reparsed.pillars, parsed->pillars, LX_ANIMALS);
        return;
    }
    assert_int_equal(parsed->kind, LX_LINE_MOVE);
    int length = lx_format_move(s, &parsed->move, text, sizeof text);
    assert_int_equal(length, (int)strlen(text));
    assert_string_equal(text, line);
    if (lx_parse(s, text, &reparsed, &error) != LX_OK)
        fail_msg("'%s' does not re-parse: %s", text, error.message);
    lx_format_move(s, &reparsed.move, again, sizeof again);
    assert_string_equal(text, again);
}

/* Every legal drop is accepted, their outcomes differ, and the drop played is among them. */
static void check_legal_drops(const lx_state *s, const lx_move *played)
{
    static lx_move moves[MAX_LEGAL];
    static lx_state outcomes[MAX_LEGAL];
    size_t count = lx_legal_drops(s, played->top, played->bottom, moves, MAX_LEGAL);
    assert_true(count >= 1 && count <= MAX_LEGAL);
    lx_error error = {""};
    for (size_t i = 0; i < count; i++) {
        if (lx_check(s, &moves[i], &error) != LX_OK) {
            char text[512];
            lx_format_move(s, &moves[i], text, sizeof text);
            fail_msg("legal drop '%s' refused: %s", text, error.message);
        }
        outcomes[i] = *s;
        assert_int_equal(lx_apply(&outcomes[i], &moves[i], &error), LX_OK);
        for (size_t j = 0; j < i; j++)
            if (lx_same_game(&outcomes[i], &outcomes[j])) {
                char a[512], b[512];
                lx_format_move(s, &moves[i], a, sizeof a);
                lx_format_move(s, &moves[j], b, sizeof b);
                fail_msg("legal drops '%s' and '%s' lead to the same game", a, b);
            }
    }
    lx_state truth = *s;
    assert_int_equal(lx_apply(&truth, played, &error), LX_OK);
    bool found = false;
    for (size_t i = 0; i < count && !found; i++)
        found = lx_same_game(&truth, &outcomes[i]);
    if (!found) {
        char text[512];
        lx_format_move(s, played, text, sizeof text);
        fail_msg("the drop played, '%s', is not among the %zu legal drops", text, count);
    }
}

/* Whether one of the explanations, replayed from `before`, leads to `after`. Returns the
 * index, or -1. */
static int explanation_of(const lx_state *before, const lx_state *after,
                          const lx_reconcile_result *result)
{
    int listed = result->count < 4 ? result->count : 4;
    for (int e = 0; e < listed; e++) {
        const lx_explanation *x = &result->explanations[e];
        lx_state replayed = *before;
        lx_error error = {""};
        if (x->pillars)
            assert_int_equal(lx_set_pillars(&replayed, x->pillar_order, &error), LX_OK);
        for (int m = 0; m < x->count; m++)
            if (lx_apply(&replayed, &x->moves[m], &error) != LX_OK)
                fail_msg("explanation %d, move %d refused: %s", e, m, error.message);
        if (lx_same_game(&replayed, after))
            return e;
    }
    return -1;
}

static void check_reconcile(replay *r, const lx_state *before, const lx_state *after,
                            const lx_move *move)
{
    static lx_reconcile_result result;
    lx_observation seen;
    lx_observe(after, &seen);
    lx_reconcile(before, &seen, &result);
    if (result.answer != LX_EXPLAINED && result.answer != LX_AMBIGUOUS) {
        char text[512];
        lx_format_move(before, move, text, sizeof text);
        fail_msg("reconcile of '%s': answer %d", text, result.answer);
    }
    assert_true(result.count >= 1);
    r->reconciled++;
    r->explained += result.answer == LX_EXPLAINED;
    r->ambiguous += result.answer == LX_AMBIGUOUS;
    if (explanation_of(before, after, &result) < 0) {
        /* only the first 4 games are listed */
        if (result.count <= 4) {
            char text[512];
            lx_format_move(before, move, text, sizeof text);
            fail_msg("reconcile of '%s': the real game is not among %d explanations", text,
                     result.count);
        }
        r->unlisted++;
    }

    /* the same state: unchanged */
    lx_observation same;
    lx_observe(before, &same);
    lx_reconcile(before, &same, &result);
    assert_int_equal(result.answer, LX_UNCHANGED);

    /* a pillar with 5 scarabs: no legal sequence */
    lx_observation five = seen;
    five.pillars[r->drops % LX_ANIMALS].scarabs = 5;
    lx_reconcile(before, &five, &result);
    assert_int_equal(result.answer, LX_UNEXPLAINED);

    /* a tile floating over an empty position */
    for (int slot = 0; slot < LX_SLOTS; slot++)
        if (after->filled[slot] <= 3) {
            lx_observation floating = seen;
            int row = LX_ROWS - 2 - 2 * (after->filled[slot] + 1);
            floating.wall[row][slot] = RIGHT(CAT);
            floating.wall[row + 1][slot] = LEFT(CAT);
            lx_reconcile(before, &floating, &result);
            assert_int_equal(result.answer, LX_UNEXPLAINED);
            break;
        }

    /* one window of the new tile unseen: still explained */
    lx_observation unseen = seen;
    int row = LX_ROWS - 2 - 2 * before->filled[move->slot];
    unseen.wall[row + (r->drops % 2)][move->slot] = LX_UNSEEN;
    lx_reconcile(before, &unseen, &result);
    if (result.answer != LX_EXPLAINED && result.answer != LX_AMBIGUOUS) {
        char text[512];
        lx_format_move(before, move, text, sizeof text);
        fail_msg("reconcile of '%s' with a window unseen: answer %d", text, result.answer);
    }
    if (explanation_of(before, after, &result) < 0 && result.count <= 4) {
        char text[512];
        lx_format_move(before, move, text, sizeof text);
        fail_msg("reconcile of '%s' with a window unseen: the real game is not among %d", text,
                 result.count);
    }
    r->unseen_checked++;
}

/* Feeds every line of a random game back through the notation, checking after each. */
static void replay_line(void *context, const char *line)
{
    replay *r = context;
    lx_line parsed;
    lx_error error = {""};
    if (lx_parse(&r->state, line, &parsed, &error) != LX_OK)
        fail_msg("'%s' does not parse: %s", line, error.message);
    check_round_trip(&r->state, line, &parsed);
    bool drop = parsed.kind == LX_LINE_MOVE && parsed.move.kind == LX_MOVE_DROP;
    if (drop && r->legal_every && r->drops % r->legal_every == 0) {
        check_legal_drops(&r->state, &parsed.move);
        r->legal_checked++;
    }
    lx_state before = r->state;
    if (lx_play_line(&r->state, line, NULL, &error) != LX_OK)
        fail_msg("replaying '%s': %s", line, error.message);
    check_invariants(&r->state);
    if (parsed.kind == LX_LINE_PILLARS) {
        char text[128];
        lx_format_pillars(&r->state, text, sizeof text);
        assert_string_equal(text, line);
    }
    if (drop && r->reconcile_every && r->drops % r->reconcile_every == 0)
        check_reconcile(r, &before, &r->state, &parsed.move);
    r->drops += drop;
    r->lines++;
}

static lx_config config_of(int seats, unsigned options)
{
    lx_config config;
    lx_config_default(&config);
    config.seats = seats;
    config.curse = (options & CURSE) != 0;
    config.sphinx = (options & SPHINX) != 0;
    config.tile_pairs = (options & TILE_PAIRS) != 0;
    return config;
}

static void random_game(replay *r, int seats, unsigned options, uint64_t seed)
{
    lx_config config = config_of(seats, options);
    lx_state played;
    lx_error error = {""};
    assert_int_equal(lx_init(&played, &config, &error), LX_OK);
    assert_int_equal(lx_init(&r->state, &config, &error), LX_OK);
    r->drops = 0;
    if (lx_random_game(&played, seed, replay_line, r, &error) != LX_OK)
        fail_msg("random game %d seats, options %u, seed %llu: %s", seats, options,
                 (unsigned long long)seed, error.message);
    assert_int_equal(played.phase, LX_PHASE_OVER);
    assert_int_equal(r->state.phase, LX_PHASE_OVER);
    assert_int_equal(r->drops, LX_TILES_IN_WALL);
    assert_int_equal(played.drops, LX_TILES_IN_WALL);
    assert_true(lx_same_game(&played, &r->state));
    int32_t played_scores[LX_MAX_SEATS], replayed_scores[LX_MAX_SEATS];
    lx_scores(&played, played_scores);
    lx_scores(&r->state, replayed_scores);
    assert_memory_equal(played_scores, replayed_scores, sizeof played_scores);
    for (int s = 0; s < seats; s++)
        assert_int_equal(lx_unvalued(&r->state, s), 0);
    check_invariants(&played);
}

static void random_games(int seats, int games)
{
    int sarcophagi = 0, curses = 0;
    replay *r = calloc(1, sizeof *r);
    for (unsigned options = 0; options < 8; options++)
        for (int g = 0; g < games; g++) {
            memset(r, 0, sizeof *r);
            random_game(r, seats, options, 7919u * (uint64_t)seats + 131u * options + (uint64_t)g);
            for (int s = 0; s < seats; s++)
                sarcophagi += lx_sarcophagi(&r->state, s);
            curses += r->state.curses;
            lx_error error = {""};
            lx_state over = r->state;
            assert_int_not_equal(lx_play_line(&over, "drop 1 camel> mule<", NULL, &error), LX_OK);
            assert_non_null(strstr(error.message, "the game is over"));
        }
    print_message("%d seats: %d sarcophagi opened, %d curse rounds in %d games\n", seats,
                  sarcophagi, curses, 8 * games);
    assert_true(sarcophagi > 8 * games); /* the games do open sarcophagi */
    assert_true(curses > 0);
    free(r);
}

static void test_lx_random_games_2_players(void **state_) { (void)state_; random_games(2, 9); }
static void test_lx_random_games_3_players(void **state_) { (void)state_; random_games(3, 9); }
static void test_lx_random_games_4_players(void **state_) { (void)state_; random_games(4, 9); }

/* The notation's canonical forms, written by hand. */
static void test_lx_format_and_parse_round_trip(void **state_)
{
    (void)state_;
    lx_state s = new_game(4, CURSE);
    static const char *const lines[] = {
        "drop 3 camel< mule>", "drop 3 camel< mule>, camel+, mule", "drop 5 snake> hippo<, snake+camel",
        "drop 8 cat> crocodile<, cat, cat+, crocodile", "scarabs none",
        "scarabs camel to snake, hippo to snake", "value camel 2-eye 6", "value ibis 3-eye 10",
        "pharaoh yellow crocodile", "curse camel mule snake",
        "curse ibis cat hippo, red gives hippo 1-eye to blue"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        lx_line line;
        lx_error error = {""};
        if (lx_parse(&s, lines[i], &line, &error) != LX_OK)
            fail_msg("'%s': %s", lines[i], error.message);
        char text[128];
        lx_format_move(&s, &line.move, text, sizeof text);
        assert_string_equal(text, lines[i]);
    }
    /* spacing, comments and a prefix do not change the move */
    lx_line a, b;
    lx_error error;
    assert_int_equal(lx_parse(&s, "  red:   drop 3  camel<   mule> ,camel+,mule   # A", &a, &error),
                     LX_OK);
    assert_int_equal(a.seat, RED);
    assert_int_equal(lx_parse(&s, "drop 3 camel< mule>, camel+, mule", &b, &error), LX_OK);
    assert_memory_equal(&a.move, &b.move, sizeof a.move);
    assert_int_equal(lx_parse(&s, "   # nothing", &a, &error), LX_OK);
    assert_int_equal(a.kind, LX_LINE_EMPTY);
    /* a short buffer: the length needed is returned, the text cut and terminated */
    char small[8];
    int needed = lx_format_move(&s, &b.move, small, sizeof small);
    assert_int_equal(needed, (int)strlen("drop 3 camel< mule>, camel+, mule"));
    assert_int_equal(strlen(small), sizeof small - 1);
}

/* ---- legal drops ---- */

static bool lists(const lx_state *s, const lx_move *moves, size_t count, const char *text)
{
    for (size_t i = 0; i < count; i++) {
        char formatted[512];
        lx_format_move(s, &moves[i], formatted, sizeof formatted);
        if (strcmp(formatted, text) == 0)
            return true;
    }
    return false;
}

static void test_lx_legal_drops_offer_every_choice_once(void **state_)
{
    (void)state_;
    static lx_move moves[MAX_LEGAL];
    lx_error error;
    lx_state s = new_game(4, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    /* a pair at an empty pillar: with and without an archaeologist; 7 other slots, no pair */
    size_t count = lx_legal_drops(&s, RIGHT(CAMEL), LEFT(HIPPO), moves, MAX_LEGAL);
    assert_int_equal(count, 9);
    assert_true(lists(&s, moves, count, "drop 2 camel> hippo<, camel"));
    assert_true(lists(&s, moves, count, "drop 2 camel> hippo<, camel+"));
    assert_true(lists(&s, moves, count, "drop 1 camel> hippo<"));
    for (size_t i = 0; i < count; i++)
        assert_int_equal(lx_check(&s, &moves[i], &error), LX_OK);
    /* max limits what is written, not what is counted */
    assert_int_equal(lx_legal_drops(&s, RIGHT(CAMEL), LEFT(HIPPO), moves, 2), 9);

    /* an opponent there and a pair facing different ways: no placement */
    stand(&s, LX_CAMEL, BLUE);
    count = lx_legal_drops(&s, LEFT(CAMEL), LEFT(HIPPO), moves, MAX_LEGAL);
    assert_int_equal(count, 8);
    assert_true(lists(&s, moves, count, "drop 2 camel< hippo<, camel"));

    /* Example A: the two orders of the pairs lead to one game, listed once */
    count = lx_legal_drops(&s, RIGHT(CAMEL), LEFT(MULE), moves, MAX_LEGAL);
    size_t in_slot_2 = 0;
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(lx_check(&s, &moves[i], &error), LX_OK);
        in_slot_2 += moves[i].slot == 1;
    }
    /* camel: none or displacing; mule: none or placing -> 4 games */
    assert_int_equal(in_slot_2, 4);
    assert_int_equal(count, 7 + 4);

    /* the hand empty: moving from each own pillar is a choice of its own */
    lx_state t = new_game(2, 0);
    put_tile(&t, 1, RIGHT(CAMEL), RIGHT(MULE));
    stand(&t, LX_MULE, RED);
    stand(&t, LX_SNAKE, RED);
    stand(&t, LX_HIPPO, RED);
    stand(&t, LX_IBIS, RED);
    stand(&t, LX_CAT, RED);
    count = lx_legal_drops(&t, RIGHT(CAMEL), LEFT(HIPPO), moves, MAX_LEGAL);
    assert_int_equal(count, 7 + 1 + 5);
    assert_true(lists(&t, moves, count, "drop 2 camel> hippo<, camel+cat"));
    assert_false(lists(&t, moves, count, "drop 2 camel> hippo<, camel+"));

    /* no drop outside the play phase */
    lx_config config;
    lx_config_default(&config);
    lx_state setup;
    assert_int_equal(lx_init(&setup, &config, &error), LX_OK);
    assert_int_equal(lx_legal_drops(&setup, RIGHT(CAMEL), LEFT(HIPPO), moves, MAX_LEGAL), 0);
}

/* From random games of every variant: each legal drop accepted, outcomes distinct, the drop
 * played among them. */
static void test_lx_legal_drops_in_random_games(void **state_)
{
    (void)state_;
    replay *r = calloc(1, sizeof *r);
    int checked = 0;
    for (unsigned options = 0; options < 8; options++)
        for (int seats = 2; seats <= 4; seats++) {
            memset(r, 0, sizeof *r);
            r->legal_every = 3;
            random_game(r, seats, options, 500u + 10u * options + (uint64_t)seats);
            checked += r->legal_checked;
        }
    print_message("legal drops checked at %d positions\n", checked);
    assert_true(checked >= 24 * 13);
    free(r);
}

/* ---- reconcile ---- */

static void test_lx_reconcile_example_a(void **state_)
{
    (void)state_;
    lx_state s = new_game(4, 0);
    put_tile(&s, 1, RIGHT(CAMEL), RIGHT(MULE));
    stand(&s, LX_CAMEL, BLUE);
    lx_state after = s;
    PLAY(&after, "drop 2 camel> mule<, camel+, mule");
    lx_observation seen;
    lx_observe(&after, &seen);
    static lx_reconcile_result result;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_EXPLAINED);
    assert_int_equal(result.count, 1);
    assert_int_equal(result.explanations[0].count, 1);
    assert_int_equal(explanation_of(&s, &after, &result), 0);

    /* the camel window under a hand: only a camel looking right explains the pillars */
    seen.wall[8][1] = LX_UNSEEN;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_EXPLAINED);
    assert_int_equal(result.explanations[0].moves[0].top, RIGHT(CAMEL));
    assert_int_equal(explanation_of(&s, &after, &result), 0);

    /* the pillar's archaeologist unseen: with or without red's placement, two games */
    lx_observe(&after, &seen);
    seen.pillars[LX_CAMEL].archaeologist = LX_UNSEEN;
    seen.pillars[LX_MULE].archaeologist = LX_UNSEEN;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_AMBIGUOUS);
    assert_int_equal(result.count, 4);
    assert_true(explanation_of(&s, &after, &result) >= 0);

    /* unchanged; a floating tile; five scarabs */
    lx_observe(&s, &seen);
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_UNCHANGED);
    seen.wall[0][5] = RIGHT(CAT);
    seen.wall[1][5] = RIGHT(CAT);
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_UNEXPLAINED);
    lx_observe(&after, &seen);
    seen.pillars[LX_CAMEL].scarabs = 5;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_UNEXPLAINED);
    /* half a tile */
    lx_observe(&after, &seen);
    seen.wall[8][1] = 0;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_UNEXPLAINED);
    /* an old window changed */
    lx_observe(&after, &seen);
    seen.wall[9][0] = LEFT(MULE);
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_UNEXPLAINED);
}

/* From the setup: the pillars the camera sees are set first, then the drop. */
static void test_lx_reconcile_from_the_setup(void **state_)
{
    (void)state_;
    lx_config config;
    lx_config_default(&config);
    lx_state s;
    lx_error error;
    assert_int_equal(lx_init(&s, &config, &error), LX_OK);
    lx_state after = s;
    PLAY(&after, "pillars cat mule snake hippo ibis crocodile camel", "drop 3 camel< mule>");
    lx_observation seen;
    lx_observe(&after, &seen);
    static lx_reconcile_result result;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_EXPLAINED);
    assert_true(result.explanations[0].pillars);
    assert_int_equal(result.explanations[0].pillar_order[0], LX_CAT);
    assert_int_equal(result.explanations[0].count, 1);
    assert_int_equal(explanation_of(&s, &after, &result), 0);
    /* a pillar given twice is no setup */
    seen.pillars[1].animal = LX_CAT;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_UNEXPLAINED);
}

/* Many games look alike: a window and every pillar unseen leave 18 games (a camel or a mule
 * either way round, each with or without red's archaeologist, and 10 tiles that make no pair).
 * More than reconcile keeps: it must say so, list 4, and stay within its memory. */
static void test_lx_reconcile_more_games_than_it_keeps(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    PLAY(&s, "drop 1 camel> mule>");
    lx_state after = s;
    PLAY(&after, "drop 2 camel> hippo<, camel+");
    lx_observation seen;
    lx_observe(&after, &seen);
    seen.wall[8][1] = LX_UNSEEN;
    for (int i = 0; i < LX_ANIMALS; i++) {
        seen.pillars[i].archaeologist = LX_UNSEEN;
        seen.pillars[i].scarabs = LX_UNSEEN;
        seen.pillars[i].sarcophagi = LX_UNSEEN;
    }
    static lx_reconcile_result result;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_AMBIGUOUS);
    assert_true(result.count == 18 || result.search_cut);
    /* the 4 listed are legal and lead to 4 different games */
    lx_state games[4];
    for (int e = 0; e < 4; e++) {
        games[e] = s;
        lx_error error = {""};
        for (int m = 0; m < result.explanations[e].count; m++)
            assert_int_equal(lx_apply(&games[e], &result.explanations[e].moves[m], &error), LX_OK);
        for (int f = 0; f < e; f++)
            assert_false(lx_same_game(&games[e], &games[f]));
    }
}

/* The end-game example seen by the camera: the scarab line that explains it. */
static void test_lx_reconcile_end_game_scarab_lines(void **state_)
{
    (void)state_;
    lx_state s = new_game(2, 0);
    fill_wall_but_one(&s);
    stand(&s, LX_CAMEL, RED);
    stand(&s, LX_SNAKE, RED);
    give(&s, LX_CAMEL, BLUE);
    give(&s, LX_SNAKE, BLUE);
    give(&s, LX_SNAKE, BLUE);
    set_scarabs(&s, LX_CAMEL, 1);
    set_scarabs(&s, LX_SNAKE, 2);
    PLAY(&s, "drop 8 mule> hippo>");
    static lx_reconcile_result result;
    lx_observation seen;
    char text[128];

    lx_state after = s;
    PLAY(&after, "scarabs camel to snake");
    lx_observe(&after, &seen);
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_EXPLAINED);
    assert_int_equal(explanation_of(&s, &after, &result), 0);
    lx_format_move(&s, &result.explanations[0].moves[0], text, sizeof text);
    assert_string_equal(text, "scarabs camel to snake");

    after = s;
    PLAY(&after, "scarabs snake to camel, snake to camel");
    lx_observe(&after, &seen);
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_EXPLAINED);
    assert_int_equal(explanation_of(&s, &after, &result), 0);
    lx_format_move(&s, &result.explanations[0].moves[0], text, sizeof text);
    assert_string_equal(text, "scarabs snake to camel, snake to camel");

    /* three sarcophagi gone from the snake pillar and the camel's scarab still there: no
     * scarab line does that */
    lx_observe(&after, &seen);
    seen.pillars[LX_SNAKE].sarcophagi = 0;
    lx_reconcile(&s, &seen, &result);
    assert_int_equal(result.answer, LX_UNEXPLAINED);
}

static void test_lx_reconcile_from_random_games(void **state_)
{
    (void)state_;
    replay *r = calloc(1, sizeof *r);
    int reconciled = 0, explained = 0, ambiguous = 0, unlisted = 0, unseen = 0;
    for (unsigned options = 0; options < 8; options++)
        for (int seats = 2; seats <= 4; seats++) {
            memset(r, 0, sizeof *r);
            r->reconcile_every = 2;
            random_game(r, seats, options, 900u + 10u * options + (uint64_t)seats);
            reconciled += r->reconciled;
            explained += r->explained;
            ambiguous += r->ambiguous;
            unlisted += r->unlisted;
            unseen += r->unseen_checked;
        }
    print_message("reconcile: %d drops, %d explained, %d ambiguous, %d real game not listed "
                  "(more than 4 games), %d with a window unseen\n",
                  reconciled, explained, ambiguous, unlisted, unseen);
    assert_int_equal(reconciled, 24 * LX_TILES_IN_WALL / 2);
    assert_true(explained > reconciled / 2);
    free(r);
}

/* ---- the notation, fuzzed ---- */

static uint64_t next_random(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

static void fuzz_one(const lx_state *base, const char *line)
{
    lx_line parsed;
    lx_error error = {""};
    lx_status status = lx_parse(base, line, &parsed, &error);
    if (status != LX_OK && status != LX_BAD_NOTATION)
        fail_msg("lx_parse('%s') returned %d", line, status);
    if (status == LX_BAD_NOTATION)
        assert_true(error.message[0] != '\0');
    if (status == LX_OK && parsed.kind == LX_LINE_MOVE) {
        /* what parses formats to something that parses to the same text */
        char text[600], again[600];
        lx_format_move(base, &parsed.move, text, sizeof text);
        lx_line reparsed;
        if (lx_parse(base, text, &reparsed, &error) != LX_OK)
            fail_msg("'%s' parsed, its format '%s' does not: %s", line, text, error.message);
        lx_format_move(base, &reparsed.move, again, sizeof again);
        assert_string_equal(text, again);
    }
    lx_state s = *base;
    lx_error play_error = {""};
    lx_status played = lx_play_line(&s, line, NULL, &play_error);
    if (played != LX_OK) {
        assert_memory_equal(&s, base, sizeof s);
        assert_true(play_error.message[0] != '\0');
    } else {
        check_invariants(&s);
    }
}

static void test_lx_notation_fuzz(void **state_)
{
    (void)state_;
    static const char *const seeds[] = {
        "drop 2 camel> mule<, camel+, mule", "red: drop 3 camel< hippo>, camel+hippo",
        "scarabs camel to snake, hippo to snake", "scarabs none", "value camel 2-eye 6",
        "pharaoh red camel", "curse camel mule snake, red gives hippo 1-eye to blue",
        "pillars camel mule snake hippo ibis crocodile cat", "drop 8 cat> cat<, cat # comment",
        "blue: scarabs none"};
    enum { SEEDS = sizeof seeds / sizeof seeds[0] };
    static const char alphabet[] = "<>+,:#- \t\r\n0123456789camelmulesnakehippoibiscrocodilecat"
                                   "todropnone-eyeredbluegivesvaluepharaohcursepillarsscarabs";
    /* three positions: a game under way (curse), the end-game moves, a fresh game */
    lx_state bases[3];
    bases[0] = curse_game();
    PLAY(&bases[0], "drop 8 cat> hippo<");
    bases[1] = new_game(2, 0);
    fill_wall_but_one(&bases[1]);
    stand(&bases[1], LX_CAMEL, RED);
    stand(&bases[1], LX_SNAKE, RED);
    set_scarabs(&bases[1], LX_CAMEL, 2);
    PLAY(&bases[1], "drop 8 mule> hippo>");
    bases[2] = new_game(3, SPHINX | TILE_PAIRS);
    uint64_t rng = 2001;
    for (int i = 0; i < 60000; i++) {
        const lx_state *base = &bases[i % 3];
        char line[700];
        if (i % 5 == 0) {
            /* random bytes, sometimes longer than a line may be */
            size_t length = next_random(&rng) % 600;
            for (size_t k = 0; k < length; k++)
                line[k] = (char)(1 + next_random(&rng) % 255);
            line[length] = '\0';
        } else {
            snprintf(line, sizeof line, "%s", seeds[(i / 3) % SEEDS]);
            size_t length = strlen(line);
            int edits = 1 + (int)(next_random(&rng) % 5);
            for (int e = 0; e < edits; e++) {
                size_t at = next_random(&rng) % (length + 1);
                char c = alphabet[next_random(&rng) % (sizeof alphabet - 1)];
                switch (next_random(&rng) % 4) {
                case 0:
                    if (at < length)
                        line[at] = c;
                    break;
                case 1:
                    if (length + 1 < 200) {
                        memmove(line + at + 1, line + at, length - at + 1);
                        line[at] = c;
                        length++;
                    }
                    break;
                case 2:
                    if (at < length) {
                        memmove(line + at, line + at + 1, length - at);
                        length--;
                    }
                    break;
                default: /* a whole seed appended after a comma */
                    snprintf(line + length, sizeof line - length, ", %s",
                             seeds[next_random(&rng) % SEEDS]);
                    length = strlen(line);
                }
            }
        }
        fuzz_one(base, line);
    }
    /* the edges: a line of 511 characters is read, one of 512 is too long */
    char long_line[600];
    memset(long_line, ' ', sizeof long_line);
    lx_line parsed;
    lx_error error;
    memcpy(long_line + 500, "scarabs none", 12);
    long_line[512] = '\0';
    assert_int_equal(lx_parse(&bases[1], long_line, &parsed, &error), LX_BAD_NOTATION);
    assert_non_null(strstr(error.message, "line too long"));
    long_line[511] = '\0';
    memcpy(long_line + 499, "scarabs none", 12);
    assert_int_equal(lx_parse(&bases[1], long_line, &parsed, &error), LX_OK);
    assert_int_equal(parsed.move.kind, LX_MOVE_SCARABS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lx_book_example_a_camel_and_mule_pairs),
        cmocka_unit_test(test_lx_book_example_b_two_camel_pairs_two_scarabs),
        cmocka_unit_test(test_lx_book_end_game_scarab_move),
        cmocka_unit_test(test_lx_q_the_drop_is_mandatory),
        cmocka_unit_test(test_lx_q_all_pairs_count_even_at_an_opponents_pillar),
        cmocka_unit_test(test_lx_q_the_player_chooses_the_order),
        cmocka_unit_test(test_lx_q_never_more_than_three_scarabs),
        cmocka_unit_test(test_lx_q_two_due_at_a_pillar_with_two_open_between),
        cmocka_unit_test(test_lx_q_scarabs_still_placed_where_no_sarcophagus_is_left),
        cmocka_unit_test(test_lx_q_three_scarabs_stay_without_sarcophagus_or_archaeologist),
        cmocka_unit_test(test_lx_q_displacing_at_a_pillar_without_sarcophagus),
        cmocka_unit_test(test_lx_q_moving_own_archaeologist_when_the_hand_is_empty),
        cmocka_unit_test(test_lx_q_unopened_sarcophagi_at_the_end),
        cmocka_unit_test(test_lx_d1_animal_names),
        cmocka_unit_test(test_lx_d2_one_pharaoh_card_per_animal),
        cmocka_unit_test(test_lx_d3_a_tiles_own_animals_pair_only_with_the_option),
        cmocka_unit_test(test_lx_d5_end_game_in_seat_order_then_reveal),
        cmocka_unit_test(test_lx_refusals_of_placements),
        cmocka_unit_test(test_lx_refusals_of_the_wall_and_the_turn),
        cmocka_unit_test(test_lx_refusals_of_values),
        cmocka_unit_test(test_lx_empty_scarab_supply_places_no_scarab),
        cmocka_unit_test(test_lx_verify_catches_broken_invariants),
        cmocka_unit_test(test_lx_ties_more_sarcophagi_then_shared),
        cmocka_unit_test(test_lx_curse_waits_for_the_second_pile),
        cmocka_unit_test(test_lx_curse_find_lines_in_any_order),
        cmocka_unit_test(test_lx_curse_exchange),
        cmocka_unit_test(test_lx_curse_six_rounds_at_most),
        cmocka_unit_test(test_lx_curse_needs_the_variant),
        cmocka_unit_test(test_lx_refusal_messages_are_whole),
        cmocka_unit_test(test_lx_sphinx_pair_along_a_row_with_a_gap),
        cmocka_unit_test(test_lx_sphinx_a_third_animal_on_the_line_gives_no_pair),
        cmocka_unit_test(test_lx_sphinx_one_pair_per_line),
        cmocka_unit_test(test_lx_random_games_2_players),
        cmocka_unit_test(test_lx_random_games_3_players),
        cmocka_unit_test(test_lx_random_games_4_players),
        cmocka_unit_test(test_lx_format_and_parse_round_trip),
        cmocka_unit_test(test_lx_legal_drops_offer_every_choice_once),
        cmocka_unit_test(test_lx_legal_drops_in_random_games),
        cmocka_unit_test(test_lx_reconcile_example_a),
        cmocka_unit_test(test_lx_reconcile_from_the_setup),
        cmocka_unit_test(test_lx_reconcile_end_game_scarab_lines),
        cmocka_unit_test(test_lx_notation_fuzz),
        /* last: under AddressSanitizer, reconcile's overflow past 16 games (see the test) ends
         * the run here */
        cmocka_unit_test(test_lx_reconcile_from_random_games),
        cmocka_unit_test(test_lx_reconcile_more_games_than_it_keeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
