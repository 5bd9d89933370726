/*
 * Odyssée-land (RULES.md §4 and the expansion "Roi et Princesse", seeds/004) on the stand-in
 * map of fixtures/boards: the rule texts' examples (the base game's turn, a fight of 11 made 15
 * with an herb, the score sheets of adventures 2 and 3, the giant beaten with exactly 30, the
 * creatures advancing from I7, K5 and G6), every rule of a turn and of each adventure with its
 * refusal in plain words, the end, random games replayed through the notation with the
 * invariants after every line, the notation's round trip, the legal moves, and a fuzz of the
 * notation.
 *
 * States are built by playing lines (play, refused). The cards a turn owes but a test does not
 * care about come from a list of harmless fields in the north-east (fill2). A few fixtures set
 * fields of od_state directly, each to make a scoring or end position that would take hundreds
 * of lines to reach, each saying so where it does and keeping od_verify true.
 *
 * The stand-in map (rows 1-10 from the top, columns A-K; C city, M mountain, F forest,
 * R river, N fog):
 *
 *        A B C D E F G H I J K
 *     1  M M M M M M F F M M M
 *     2  M F F M M F F C C C M
 *     3  M M F F M M F C C C N
 *     4  F M M F F C M F F R R
 *     5  F C M M C C M N N R N
 *     6  N C C F M M N R R R C
 *     7  R R C N F N R R N M C
 *     8  N R R R N R R N F C C
 *     9  C C N R R R M F C C C
 *    10  C C C F N M C C C C C
 *
 * capital K6-K10 J8-J10 I9 I10 H10 G10; city of 6 H2 I2 J2 H3 I3 J3; of 5 A9 B9 A10 B10 C10;
 * of 4 B5 B6 C6 C7; of 3 E5 F4 F5; the river's course A7 B7 B8 C8 D8 D9 E9 F9 F8 G8 G7 H7 H6
 * I6 J6 J5 J4 K4.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "board_file.h"
#include "odysseeland_internal.h"
#include "rules.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLACK, GREEN, VIOLET, ORANGE };

#define LINE_LENGTH RULES_TEXT_MAX

static od_board board; /* the stand-in map, loaded once by setup_board */
static int board_handle;

static int setup_board(void **state_)
{
    (void)state_;
    const char *text = NULL;
    size_t length = 0;
    char error[256] = "";
    if (!board_file_builtin("odysseeland", &text, &length) ||
        !board_file_parse_odysseeland(text, length, "the built-in board", &board, error,
                                      sizeof error)) {
        print_error("the built-in Odyssée-land board is refused: %s\n", error);
        return -1;
    }
    board_handle = od_board_add(&board);
    return board_handle ? 0 : -1;
}

/* ---- the board by name ---- */

static int F(const char *name)
{
    int place = od_place_parse(name, strlen(name));
    if (place == OD_NONE)
        fail_msg("'%s' is not a place", name);
    return place;
}

static od_place *at(od_state *s, const char *name)
{
    return &s->places[F(name)];
}

static const char *name_of(int place)
{
    static char names[8][12];
    static int next;
    char *name = names[next++ % 8];
    od_place_name(place, name);
    return name;
}

/* ---- playing lines ---- */

static void check_invariants(const od_state *s)
{
    char message[200] = "";
    if (!od_verify(s, message, sizeof message))
        fail_msg("invariant broken: %s", message);
}

/* Plays a line that must be accepted, then checks the invariants. */
static void play(od_state *s, const char *line)
{
    od_line parsed;
    od_error error = {""};
    if (od_play_line(s, line, &parsed, &error) != OD_OK)
        fail_msg("'%s' refused: %s", line, error.message);
    check_invariants(s);
}

static void playf(od_state *s, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void playf(od_state *s, const char *format, ...)
{
    char line[LINE_LENGTH];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    play(s, line);
}

/* Plays a line that must be refused with this status and words in the message, leaving the
 * state as it was. */
static void refused_as(od_state *s, const char *line, od_status status, const char *words)
{
    od_state before = *s;
    od_line parsed;
    od_error error = {""};
    od_status got = od_play_line(s, line, &parsed, &error);
    if (got == OD_OK)
        fail_msg("'%s' accepted; expected a refusal with '%s'", line, words);
    if (!strstr(error.message, words))
        fail_msg("'%s': expected '%s' in '%s'", line, words, error.message);
    if (got != status)
        fail_msg("'%s': status %d, expected %d (%s)", line, got, status, error.message);
    assert_memory_equal(&before, s, sizeof before);
}

static void refused(od_state *s, const char *line, const char *words)
{
    refused_as(s, line, OD_ILLEGAL, words);
}

static void bad_notation(od_state *s, const char *line, const char *words)
{
    refused_as(s, line, OD_BAD_NOTATION, words);
}

static void refusedf(od_state *s, const char *words, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void refusedf(od_state *s, const char *words, const char *format, ...)
{
    char line[LINE_LENGTH];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    refused(s, line, words);
}

/* ---- games ---- */

static od_state new_config_game(const od_config *config)
{
    od_state s;
    od_error error = {""};
    if (od_init(&s, config, &board, &error) != OD_OK)
        fail_msg("od_init: %s", error.message);
    check_invariants(&s);
    return s;
}

static od_state new_game(int seats, int adventure)
{
    od_config config;
    od_config_default(&config, seats, adventure);
    return new_config_game(&config);
}

/* Cards a test does not care about: fields away from the routes the tests take, the
 * north-east's mountains and forests first (jumping their items is allowed; nobody ends on
 * them unless a test says so). The first unturned ones with nobody standing there are used;
 * the setup turns the first 8. */
static const char *const filler_fields[] = {
    "K1", "K2", "H1", "G1", "I1", "G3", "F3", "E3", "G4", "G5", "H4", "E4", "F2", "F1",
    "E2", "E1", "B3", "F6", "I8", "H9", "G9", "F10", "D10", "H3", "I3", "B9", "B10", "C10",
    "E5", "F5", "D4", "D5", "C5", "C4", "C3", "D1", "C1", "C2", "B2", "A3", "I4", "B4",
    "A10", "K8", "K9", "K10", "J9", "J10", "I9", "I10", "H10",
};

static int next_filler(const od_state *s, int skip)
{
    for (size_t i = 0; i < sizeof filler_fields / sizeof filler_fields[0]; i++) {
        int f = F(filler_fields[i]);
        if (f != skip && !s->turned[f] && f != s->princess &&
            od_fighters(s, f, OD_NONE) == 0)
            return f;
    }
    fail_msg("no filler card left");
    return OD_NONE;
}

/* "turn X, turn Y": the two cards a turn owes, from the filler fields (valid until the next
 * call). */
static const char *fill2(const od_state *s)
{
    static char text[2][40];
    static int next;
    char *out = text[next++ % 2];
    int a = next_filler(s, OD_NONE);
    int b = next_filler(s, a);
    snprintf(out, 40, "turn %s, turn %s", name_of(a), name_of(b));
    return out;
}

/* One filler card ("turn X"). */
static const char *fill1(const od_state *s, int skip)
{
    static char text[2][20];
    static int next;
    char *out = text[next++ % 2];
    snprintf(out, 20, "turn %s", name_of(next_filler(s, skip)));
    return out;
}

/* A turn of two filler cards and no move. */
static void pass_turn(od_state *s)
{
    play(s, fill2(s));
}

/* The setup: 8 filler cards, and for adventures 5 and 6 `creatures` (the 14 laid) first. */
static void setup_with(od_state *s, const char *creatures)
{
    char line[LINE_LENGTH] = "setup";
    if (creatures && *creatures)
        snprintf(line, sizeof line, "setup %s", creatures);
    if (s->config.adventure != OD_KING)
        for (int i = 0; i < OD_SETUP_CARDS; i++) {
            size_t n = strlen(line);
            snprintf(line + n, sizeof line - n, "%s%s", n > 5 ? ", " : " ",
                     filler_fields[i]);
        }
    play(s, line);
    assert_int_equal(s->phase, OD_PHASE_TURN);
}

static void setup_plain(od_state *s)
{
    setup_with(s, NULL);
}

/* Adventure 6's 14 creatures in the order turned up, the first 8 on A6 (the king's), the
 * values the base stack holds (D-OL-1: 4 x 8, 4 x 10, 3 x 12, 2 x 14, 1 x 16). */
static const char base_creatures[] =
    "creature A6 8, creature D7 8, creature E8 8, creature C9 8, creature K3 10, "
    "creature H5 10, creature I5 10, creature K5 10, creature G6 12, creature F7 12, "
    "creature I7 12, creature A8 14, creature H8 14, creature E10 16";

/* ---- the seats' pieces ---- */

static int adventurers(const od_state *s, int seat)
{
    return od_adventurers_left(s, seat);
}

static int32_t score_of(const od_state *s, int seat)
{
    int32_t scores[OD_MAX_SEATS] = {0};
    od_scores(s, scores);
    return scores[seat];
}

/* Every adventurer and companion off the board (start spaces included), for positions set up
 * directly. */
static void clear_board(od_state *s)
{
    for (int p = 0; p < OD_PLACES; p++)
        for (int seat = 0; seat < OD_MAX_SEATS; seat++) {
            s->places[p].adventurers[seat] = s->places[p].companions[seat] = 0;
            s->places[p].supers[seat] = s->places[p].gold[seat] = 0;
        }
}

/* Puts adventurers and companions of a seat on a place, the companions from the stock (a
 * position set up directly). */
static void put(od_state *s, const char *place, int seat, int adventurers_, int companions)
{
    od_place *p = at(s, place);
    p->adventurers[seat] = (uint8_t)(p->adventurers[seat] + adventurers_);
    p->companions[seat] = (uint8_t)(p->companions[seat] + companions);
    s->companions -= companions;
    assert_true(s->companions >= 0);
}

/* Gives a seat defeated creatures (combat values), taken from the stack (a position set up
 * directly). */
static void give_creatures(od_state *s, int seat, const int *values, int count)
{
    for (int i = 0; i < count; i++) {
        int v = values[i];
        assert_true(s->creature_stack[v / 2 - 4] > 0);
        s->creature_stack[v / 2 - 4]--;
        s->seat[seat].creatures++;
        s->seat[seat].laurels = (uint8_t)(s->seat[seat].laurels + v / 2);
    }
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

/* Plays cards-only turns (cities, mountains and forests where nobody stands) until the game
 * is over or in its reveal: adventures 1-4 end so when the stocks or the deck run out. */
static void run_out(od_state *s)
{
    for (int turns = 0; s->phase == OD_PHASE_TURN; turns++) {
        assert_true(turns < 200);
        char line[LINE_LENGTH] = "";
        int owed = s->deck < 2 ? s->deck : 2;
        for (int f = 0, n = 0; f < OD_FIELDS && n < owed; f++) {
            int t = s->board.terrain[f];
            if (s->turned[f] || f == s->princess || od_fighters(s, f, OD_NONE) ||
                t == OD_FOG || t == OD_RIVER)
                continue;
            size_t length = strlen(line);
            snprintf(line + length, sizeof line - length, "%sturn %s", n ? ", " : "",
                     name_of(f));
            n++;
        }
        if (!*line)
            snprintf(line, sizeof line, "pass");
        play(s, line);
    }
}

/* Black (seat 0, to play, its column-A adventurer at the start and A6-D8 untouched) picks up 4
 * gold in three turns, the other seats passing: A7 and B7 turned (the sprite ends on B7), A7
 * reached; B8 and C8 turned (the sprite on C8), B7 and B8 reached; D8 turned, C8 reached. */
static void collect_four_gold(od_state *s)
{
    assert_int_equal(s->active, BLACK);
    int gold = s->seat[BLACK].gold;
    play(s, "turn A7, turn B7, column-A south 7");
    for (int i = 1; i < s->config.seats; i++)
        pass_turn(s);
    play(s, "turn B8, turn C8, A7 east 1, B7 south 1");
    for (int i = 1; i < s->config.seats; i++)
        pass_turn(s);
    playf(s, "turn D8, %s, B8 east 1", fill1(s, OD_NONE));
    for (int i = 1; i < s->config.seats; i++)
        pass_turn(s);
    assert_int_equal(s->seat[BLACK].gold, gold + 4);
    assert_int_equal(od_sprite_field(s), F("D8"));
}

/* ---- 1. the rule texts' examples ---- */

/* RULES.md §4's example of a turn: J3 (a city) gives a companion, D7 (fog) a creature and one
 * card more, I4 (a forest) an herb face down. */
static void test_od_example_base_turn_companion_creature_and_extra_card(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    int deck = s.deck, companions = s.companions, herbs = s.herbs;
    refused(&s, "turn J3, turn D7 creature 10", "2 cards turned, 3 owed");
    refused(&s, "turn J3, turn D7, turn I4", "not 0");
    refused(&s, "turn J3, turn D7 creature 9, turn I4", "not 9");
    refused(&s, "turn J3 creature 10, turn I4", "no creature comes with its card");
    play(&s, "turn J3, turn D7 creature 10, turn I4");
    assert_int_equal(at(&s, "J3")->waiting, 1);
    assert_int_equal(s.companions, companions - 1);
    assert_int_equal(at(&s, "D7")->creature, 10);
    assert_int_equal(s.creature_stack[10 / 2 - 4], 3);
    assert_int_equal(at(&s, "I4")->item, OD_ITEM_HERB);
    assert_int_equal(s.herbs, herbs - 1);
    assert_int_equal(s.deck, deck - 3);
    assert_int_equal(s.active, GREEN);
}

/* Black's adventurer with 2 companions (B5, B6), an herb (D6) and a sword (E6), all by real
 * turns, facing a creature of combat value 14 (laurel 7) on E8. */
static od_state fight_example(void)
{
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    play(&s, "turn B5, turn B6, column-B south 5, B5 south 1");
    pass_turn(&s);
    pass_turn(&s);
    play(&s, "turn E6, turn D6, B6 east 2, D6 east 1");
    playf(&s, "turn E8 creature 14, %s", fill2(&s));
    pass_turn(&s);
    assert_int_equal(at(&s, "E6")->adventurers[BLACK], 1);
    assert_int_equal(at(&s, "E6")->companions[BLACK], 2);
    assert_int_equal(s.seat[BLACK].swords, 1);
    assert_int_equal(s.seat[BLACK].herbs, 1);
    assert_int_equal(s.seat[BLACK].points, 1 + 2); /* adventure 1: companions 1 and 2 */
    return s;
}

/* 1 adventurer + 2 companions + a sword of 2 with a die of 6 = 11 against 14: lost, and the
 * adventurer, its companions and the sword leave the game. The herb of 4 makes it 15: won,
 * the creature taken, the herb spent, the sword kept. */
static void test_od_example_fight_of_eleven_made_fifteen_with_an_herb(void **state_)
{
    (void)state_;
    od_state ready = fight_example();
    int companions = ready.companions;

    od_state s = ready;
    refusedf(&s, "uses 2 swords and has 1", "%s, E6 south 2 fight swords 2 2 dice 6 6",
             fill2(&s));
    refusedf(&s, "uses 2 herbs and has 1", "%s, E6 south 2 fight herbs 4 4", fill2(&s));
    playf(&s, "%s, E6 south 2 fight swords 2 dice 6", fill2(&s));
    assert_int_equal(od_fighters(&s, F("E8"), OD_NONE), 0);
    assert_int_equal(od_fighters(&s, F("E6"), OD_NONE), 0);
    assert_int_equal(at(&s, "E8")->creature, 14);
    assert_int_equal(adventurers(&s, BLACK), 8 - 1);
    assert_int_equal(s.seat[BLACK].swords, 0);
    assert_int_equal(s.seat[BLACK].herbs, 1);
    assert_int_equal(s.seat[BLACK].creatures, 0);
    assert_int_equal(s.companions, companions); /* lost companions leave the game */
    assert_int_equal(score_of(&s, BLACK), 3);

    s = ready;
    playf(&s, "%s, E6 south 2 fight swords 2 dice 6 herbs 4", fill2(&s));
    assert_int_equal(at(&s, "E8")->creature, 0);
    assert_int_equal(at(&s, "E8")->adventurers[BLACK], 1);
    assert_int_equal(at(&s, "E8")->companions[BLACK], 2);
    assert_int_equal(s.seat[BLACK].creatures, 1);
    assert_int_equal(s.seat[BLACK].laurels, 7);
    assert_int_equal(s.seat[BLACK].herbs, 0);
    assert_int_equal(s.seat[BLACK].swords, 1);
    assert_int_equal(score_of(&s, BLACK), 3 + 7);
}

/* Adventure 2's score sheet, played: creatures of laurels 5 and 6 (2 x 11 = 22), the largest
 * group 3 adventurers + 4 companions (7 x 3 = 21), 4 gold (8), herbs 3 and 4 (7) and swords 2
 * and 1 (3) revealed at the end: 61. Before the reveal herbs and swords count 0: 51. */
static void test_od_example_adventure2_score_sheet_of_61(void **state_)
{
    (void)state_;
    od_state s = new_game(2, OD_MAGNIFICENT);
    setup_plain(&s);
    /* the group: 3 adventurers meet on B5, then collect the companions of B6, C6 and C7 */
    play(&s, "turn B5, turn B6, column-B south 5, row-5 east 2");
    pass_turn(&s);
    play(&s, "turn C6, turn C7, row-4 east 2, B4 south 1");
    pass_turn(&s);
    playf(&s, "%s, B5 south 1, B6 east 1", fill2(&s));
    pass_turn(&s);
    play(&s, "turn A1, turn A4, C6 south 1, row-1 east 1");
    pass_turn(&s);
    assert_int_equal(at(&s, "C7")->adventurers[BLACK], 3);
    assert_int_equal(at(&s, "C7")->companions[BLACK], 4);
    /* two herbs (A4, A5) and a second sword (A2) */
    play(&s, "turn A5, turn A2, A1 south 3, A4 south 1");
    pass_turn(&s);
    /* the group beats 10 (7 + sword 2 + die 1) and 12 (7 + swords 2, 1 + dice 1, 1) */
    playf(&s, "turn D7 creature 10, %s, row-2 east 1, C7 east 1 fight swords 2 dice 1",
          fill2(&s));
    playf(&s, "turn E8 creature 12, %s", fill2(&s));
    playf(&s, "%s, D7 east 1, E7 south 1 fight swords 2 1 dice 1 1", fill2(&s));
    pass_turn(&s);
    /* 4 gold */
    collect_four_gold(&s);
    const od_seat *black = &s.seat[BLACK];
    assert_int_equal(black->laurels, 11);
    assert_int_equal(black->creatures, 2);
    assert_int_equal(black->herbs, 2);
    assert_int_equal(black->swords, 2);
    assert_int_equal(black->gold, 4);
    assert_int_equal(at(&s, "E8")->adventurers[BLACK] + at(&s, "E8")->companions[BLACK], 7);
    assert_int_equal(score_of(&s, BLACK), 22 + 21 + 8);

    refused(&s, "reveal black herbs 3 4 swords 2 1", "when adventure 2 is over");
    run_out(&s);
    assert_int_equal(s.phase, OD_PHASE_REVEAL);
    bad_notation(&s, "black: reveal black herbs 3 4 swords 2 1",
                 "a colour prefix goes only before a turn");
    assert_int_equal(s.end, OD_END_STOCK);
    assert_int_equal(score_of(&s, BLACK), 51);
    refused(&s, "pass", "herbs and swords to reveal");
    refused(&s, "reveal black herbs 3 swords 2 1", "holds 2 herbs and 2 swords, not 1 and 2");
    refused(&s, "reveal black herbs 3 5 swords 2 1", "an herb is worth 2 to 4, not 5");
    refused(&s, "reveal black herbs 3 4 swords 2 4", "a sword's extra value is 0 to 3, not 4");
    bad_notation(&s, "reveal herbs 3 4", "reveal COLOUR");
    play(&s, "reveal black herbs 3 4 swords 2 1");
    assert_int_equal(s.phase, OD_PHASE_OVER);
    assert_int_equal(score_of(&s, BLACK), 61);
    assert_int_equal(score_of(&s, GREEN), 3); /* a lone adventurer is a group of one */
    refused(&s, "reveal black herbs 3 4 swords 2 1", "adventure 2 is over");
}

/* Adventure 3's score sheet of 34 for black, on a position set up directly (the seats' pieces
 * in and out of the cities, their creatures and gold; D7's creature turned for real):
 *   creatures, laurels 4 + 5      9     most creatures (2), 1st   7
 *   gold 3 x 2                    6     most gold (3), 2nd        3
 *   city of 6 (1 figure), 2nd     3     city of 3, 1st            3
 *   city of 4, 1st                4     1 adventurer outside x 1 creature on the board  -1
 * Green: laurel 6, creatures 2nd 3, gold 4 x 2 = 8, gold 1st 7, city of 6 1st (2 figures) 6:
 * 30. Violet: gold 2, gold 3rd 1, the capital alone 12, its adventurer on a start space -1:
 * 14. */
static void test_od_example_adventure3_score_sheet_of_34(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_CITIES_ESCAPE);
    play(&s, "setup D7 creature 12, K1, K2, H1, G1, I1, G3, F3, E3");
    clear_board(&s);
    put(&s, "H2", BLACK, 1, 0);
    put(&s, "F4", BLACK, 1, 0);
    put(&s, "B5", BLACK, 1, 0);
    put(&s, "A1", BLACK, 1, 0);
    put(&s, "I2", GREEN, 1, 1);
    put(&s, "K10", VIOLET, 1, 0);
    put(&s, "row-1", VIOLET, 1, 0);
    give_creatures(&s, BLACK, (const int[]){8, 10}, 2);
    give_creatures(&s, GREEN, (const int[]){12}, 1);
    s.seat[BLACK].gold = 3;
    s.seat[GREEN].gold = 4;
    s.seat[VIOLET].gold = 1;
    s.gold_stock -= 8;
    check_invariants(&s);
    int32_t scores[OD_MAX_SEATS], ranks[OD_MAX_SEATS];
    od_scores(&s, scores);
    assert_int_equal(scores[BLACK], 9 + 7 + 6 + 3 + 3 + 3 + 4 - 1);
    assert_int_equal(scores[BLACK], 34);
    assert_int_equal(scores[GREEN], 6 + 3 + 8 + 7 + 6);
    assert_int_equal(scores[VIOLET], 2 + 1 + 12 - 1);
    od_ranks(&s, ranks);
    assert_int_equal(ranks[BLACK], 1);
    assert_int_equal(ranks[GREEN], 2);
    assert_int_equal(ranks[VIOLET], 3);
    /* a tie shares the rank and skips the next (OL-ENGINE-4): green's adventurer on C7 is 1st
     * in the city of 4 with black; the sheets 34, 34, 14 rank 1, 1, 3 */
    od_state tie = s;
    put(&tie, "C7", GREEN, 1, 0);
    od_scores(&tie, scores);
    assert_int_equal(scores[BLACK], 34);
    assert_int_equal(scores[GREEN], 30 + 4);
    od_ranks(&tie, ranks);
    assert_int_equal(ranks[BLACK], 1);
    assert_int_equal(ranks[GREEN], 1);
    assert_int_equal(ranks[VIOLET], 3);
    /* the creature falls: nobody loses a point for being outside */
    at(&s, "D7")->creature = 0;
    s.seat[GREEN].creatures++; /* green beats it: creatures 2 and 2, a shared 1st */
    s.seat[GREEN].laurels = (uint8_t)(s.seat[GREEN].laurels + 6);
    od_scores(&s, scores);
    assert_int_equal(scores[BLACK], 9 + 7 + 6 + 3 + 3 + 3 + 4);
    assert_int_equal(scores[GREEN], 12 + 7 + 8 + 7 + 6);
    assert_int_equal(scores[VIOLET], 2 + 1 + 12);
}

/* Adventure 4, 2 players: black holds the 5 keys, creatures of laurels 6 + 5 + 4, herbs and
 * swords to spend and 2 gold: set directly (collecting 5 keys takes a game); the fight itself
 * is played. */
static od_state giant_position(int seats, bool colossal)
{
    od_config config;
    od_config_default(&config, seats, OD_PRINCESS);
    config.colossal = colossal;
    od_state s = new_config_game(&config);
    setup_plain(&s);
    s.seat[BLACK].keys = (1u << OD_CITIES) - 1;
    for (int c = 0; c < OD_CITIES; c++)
        s.keys_left[c]--;
    give_creatures(&s, BLACK, (const int[]){12, 10, 8}, 3);
    s.seat[BLACK].herbs = 2;
    s.herbs -= 2;
    s.seat[BLACK].swords = 2;
    s.swords -= 2;
    s.seat[BLACK].gold = 2;
    s.gold_stock -= 2;
    check_invariants(&s);
    return s;
}

/* The seed's example: 1 (the adventurer alone) + 5 + 2 (two swords' dice) + 6 + 5 + 4 (the
 * laurels) + 3 + 2 (herbs) + 1 + 1 (gold) = exactly 30, the giant's strength with 2 players:
 * the princess is freed and black wins. With the herb of 2 left out (28) the giant wins: the
 * adventurer and the swords are lost, and black may try again with another adventurer. */
static void test_od_example_giant_beaten_with_exactly_30(void **state_)
{
    (void)state_;
    od_state ready = giant_position(2, false);
    assert_int_equal(od_giant_strength(&ready), 30);
    /* the princess's card lies on the giant, never in the deck */
    assert_int_equal(ready.deck, OD_FIELDS - 1 - OD_SETUP_CARDS);

    od_state s = ready;
    playf(&s, "%s, row-1 east 1 giant fight swords 0 0 dice 5 2 herbs 3 2 gold 2",
          fill2(&s));
    assert_int_equal(s.phase, OD_PHASE_OVER);
    assert_int_equal(s.end, OD_END_PRINCESS);
    assert_int_equal(s.winner, BLACK);
    assert_int_equal(s.princess, F("A1"));
    int32_t ranks[OD_MAX_SEATS];
    od_ranks(&s, ranks);
    assert_int_equal(ranks[BLACK], 1);
    assert_int_equal(ranks[GREEN], 2);
    /* keys 5 x 4, laurels 15, gold spent */
    assert_int_equal(score_of(&s, BLACK), 20 + 15);
    refused(&s, "pass", "the game is over");

    s = ready;
    playf(&s, "%s, row-1 east 1 giant fight swords 0 0 dice 5 2 herbs 3 gold 2", fill2(&s));
    assert_int_equal(s.phase, OD_PHASE_TURN);
    assert_int_equal(s.winner, OD_NONE);
    assert_int_equal(od_fighters(&s, F("A1"), OD_NONE), 0);
    assert_int_equal(adventurers(&s, BLACK), 10 - 1);
    assert_int_equal(s.seat[BLACK].swords, 0);
    assert_int_equal(s.seat[BLACK].herbs, 1);
    assert_int_equal(s.seat[BLACK].gold, 0);
    assert_int_equal(s.princess, F("A1"));
    /* green knows the field now, but has no keys */
    refusedf(&s, "needs the 5 keys and 14 laurels", "%s, column-A south 1 giant fight",
             fill2(&s));
    refused(&s, "turn A1, turn K1", "the card A1 lies on the giant");
    pass_turn(&s);
    refusedf(&s, "the princess is not on B2", "%s, row-2 east 2 giant fight", fill2(&s));
    refusedf(&s, "give it", "%s, column-A south 1 giant", fill2(&s));
    playf(&s, "%s, column-A south 1 giant fight herbs 2", fill2(&s)); /* 1 + 15 + 2 = 18 */
    assert_int_equal(s.phase, OD_PHASE_TURN);
    assert_int_equal(adventurers(&s, BLACK), 10 - 2);
    assert_int_equal(s.seat[BLACK].herbs, 0);
}

/* The giant is fought with the 5 keys and at least 14 laurels (2 players; 10 with 3, 6 with
 * 4), at the princess's field only, never on a fog creature, in adventure 4 only. */
static void test_od_giant_needs_five_keys_and_the_laurels(void **state_)
{
    (void)state_;
    od_state s = giant_position(2, false);
    s.seat[BLACK].keys &= (uint8_t)~(1u << OD_CITY5);
    s.keys_left[OD_CITY5]++;
    refusedf(&s, "needs the 5 keys and 14 laurels", "%s, row-1 east 1 giant fight",
             fill2(&s));

    s = giant_position(2, false);
    s.seat[BLACK].laurels = 13; /* creatures of 12 and 14: a position set directly */
    refusedf(&s, "needs the 5 keys and 14 laurels", "%s, row-1 east 1 giant fight",
             fill2(&s));
    s.seat[BLACK].laurels = 14;
    playf(&s, "%s, row-1 east 1 giant fight", fill2(&s));

    od_state three = giant_position(3, false);
    assert_int_equal(od_giant_laurels(&three), 10);
    assert_int_equal(od_giant_strength(&three), 25);
    od_state four = giant_position(4, false);
    assert_int_equal(od_giant_laurels(&four), 6);
    assert_int_equal(od_giant_strength(&four), 20);

    od_state fellowship = new_game(2, OD_FELLOWSHIP);
    setup_plain(&fellowship);
    refusedf(&fellowship, "the giant belongs to adventure 4", "%s, row-1 east 1 giant fight",
             fill2(&fellowship));
}

/* The laurels fight the giant even when the seat spends nothing: `giant fight` alone with 5
 * keys and 29 laurels is 1 + 29 = 30, the giant's strength. */
static void test_od_giant_laurels_count_without_anything_spent(void **state_)
{
    (void)state_;
    od_state s = giant_position(2, false);
    s.seat[BLACK].laurels = 29; /* a position set directly */
    playf(&s, "%s, row-1 east 1 giant fight", fill2(&s));
    assert_int_equal(s.winner, BLACK);
    assert_int_equal(s.phase, OD_PHASE_OVER);
}

/* The colossal giant (RULES_FLAG_COLOSSAL): strength 40, 30, 25 for 2, 3, 4 players, fought
 * with up to 4 swords (a creature still with 3); its key prices are in
 * test_od_princess_keys_bought_with_gold. */
static void test_od_colossal_giant_strength_and_four_swords(void **state_)
{
    (void)state_;
    const rules_game *game = rules_game_find("odysseeland");
    assert_non_null(game);
    assert_true(game->flags & RULES_FLAG_COLOSSAL);
    od_state engine_state;
    rules_options options = {.seats = 2, .flags = RULES_FLAG_COLOSSAL, .board = board_handle,
                             .adventure = OD_PRINCESS};
    char error[200] = "";
    assert_int_equal(game->engine->init(&engine_state, &options, error, sizeof error),
                     RULES_OK);
    assert_true(engine_state.config.colossal);
    assert_int_equal(od_giant_strength(&engine_state), 40);
    options.adventure = OD_FELLOWSHIP;
    assert_int_equal(game->engine->init(&engine_state, &options, error, sizeof error),
                     RULES_BAD_CONFIG);
    assert_non_null(strstr(error, "the colossal giant belongs to adventure 4"));

    assert_int_equal(od_giant_strength(&(od_state){.config = {.seats = 3, .colossal = true}}),
                     30);
    assert_int_equal(od_giant_strength(&(od_state){.config = {.seats = 4, .colossal = true}}),
                     25);

    /* 4 swords: 1 + 4 x (3 + 6) + 15 = 52 against 40 */
    od_state s = giant_position(2, true);
    s.seat[BLACK].swords = 4; /* set directly, with the rest */
    s.swords -= 2;
    od_state plain = giant_position(2, false);
    plain.seat[BLACK].swords = 4;
    plain.swords -= 2;
    refusedf(&plain, "4 swords: a fight takes 3 at most",
             "%s, row-1 east 1 giant fight swords 3 3 3 3 dice 6 6 6 6", fill2(&plain));
    playf(&s, "%s, row-1 east 1 giant fight swords 3 3 3 3 dice 6 6 6 6", fill2(&s));
    assert_int_equal(s.winner, BLACK);

    /* a creature is still fought with 3 swords at most */
    s = giant_position(2, true);
    s.seat[BLACK].swords = 4;
    s.swords -= 2;
    playf(&s, "turn A6 creature 16, %s", fill2(&s));
    pass_turn(&s);
    refusedf(&s, "4 swords: a fight takes 3 at most",
             "%s, column-A south 6 fight swords 3 3 3 3 dice 6 6 6 6", fill2(&s));

}

/* Adventure 4: a key is bought for 3 gold with 2 players, 2 with 3 or 4 (the colossal giant: 4
 * and 3), once per colour and seat, as a step of the seat's own turn; the gold collected by
 * real turns (collect_four_gold). */
static void test_od_princess_keys_bought_with_gold(void **state_)
{
    (void)state_;
    od_state s;
    static const struct {
        int seats;
        bool colossal;
        int price;
    } prices[] = {{2, false, 3}, {2, true, 4}, {3, false, 2}, {3, true, 3}, {4, false, 2}};
    for (size_t i = 0; i < sizeof prices / sizeof prices[0]; i++) {
        od_config config;
        od_config_default(&config, prices[i].seats, OD_PRINCESS);
        config.colossal = prices[i].colossal;
        s = new_config_game(&config);
        setup_plain(&s);
        collect_four_gold(&s);
        playf(&s, "%s, buy blue key", fill2(&s));
        assert_int_equal(s.seat[BLACK].gold, 4 - prices[i].price);
        assert_int_equal(s.seat[BLACK].keys, 1u << OD_CITY5);
        assert_int_equal(s.keys_left[OD_CITY5], 3);
        for (int k = 1; k < prices[i].seats; k++)
            pass_turn(&s);
        refusedf(&s, "has the blue key already", "%s, buy blue key", fill2(&s));
        int gold = 4 - prices[i].price;
        if (gold >= prices[i].price) {
            playf(&s, "%s, buy grey key", fill2(&s));
            gold -= prices[i].price;
            for (int k = 1; k < prices[i].seats; k++)
                pass_turn(&s);
        }
        char words[80];
        snprintf(words, sizeof words, "a key costs %d gold, black has %d", prices[i].price,
                 gold);
        refusedf(&s, words, "%s, buy red key", fill2(&s));
    }
}

/* Adventure 5's creatures: K5 a 12 (the seed's troop example), A6 a 1 (beaten by an adventurer
 * alone), the others 10. */
static const char uprising_creatures[] =
    "creature K3 10, creature H5 10, creature I5 10, creature K5 12, creature A6 1, "
    "creature G6 10, creature D7 10, creature F7 10, creature I7 10, creature A8 10, "
    "creature E8 10, creature H8 10, creature C9 10, creature E10 10";

static od_state uprising_game(int seats)
{
    od_state s = new_game(seats, OD_UPRISING);
    setup_with(&s, uprising_creatures);
    return s;
}

/* The fields a creature on `from` may advance to, sorted, as names "I9 I10 K7". */
static void advance_targets(const od_state *s, const char *from, char *out, size_t size)
{
    int targets[OD_FIELDS];
    int n = od_advance_targets(s, F(from), targets);
    for (int i = 1; i < n; i++) /* insertion sort by field */
        for (int j = i; j > 0 && targets[j - 1] > targets[j]; j--) {
            int t = targets[j];
            targets[j] = targets[j - 1];
            targets[j - 1] = t;
        }
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t length = strlen(out);
        snprintf(out + length, size - length, "%s%s", i ? " " : "", name_of(targets[i]));
    }
}

/* The seed's examples of adventure 5: from I7 a creature reaches K7, I9 or I10; from K5 any of
 * K6-K10; from G6, with creatures on K6 and G10, nothing straight, and it is then placed on
 * any field of the capital or the city of 5 without a creature (OL-ENGINE-6). */
static void test_od_example_uprising_advance_targets_i7_k5_g6(void **state_)
{
    (void)state_;
    od_state s = uprising_game(4);
    char targets[200];
    advance_targets(&s, "I7", targets, sizeof targets);
    assert_string_equal(targets, "K7 I9 I10");
    advance_targets(&s, "K5", targets, sizeof targets);
    assert_string_equal(targets, "K6 K7 K8 K9 K10");
    advance_targets(&s, "G6", targets, sizeof targets);
    assert_string_equal(targets, "K6 G10");
    advance_targets(&s, "E10", targets, sizeof targets);
    assert_string_equal(targets, "G10 H10 I10 J10 K10");

    refusedf(&s, "the creature on K5 advances: say where", "turn K5, %s", fill2(&s));
    playf(&s, "turn K5 to K6, turn E10 to G10, %s", fill2(&s));
    assert_int_equal(at(&s, "K5")->creature, 0);
    assert_int_equal(at(&s, "K6")->creature, 12);
    assert_int_equal(at(&s, "G10")->creature, 10);
    advance_targets(&s, "G6", targets, sizeof targets);
    assert_string_equal(targets, "");
    refusedf(&s, "say where", "turn G6, %s", fill2(&s));
    refusedf(&s, "cannot advance to K6", "turn G6 to K6, %s", fill2(&s));
    refusedf(&s, "cannot advance to G10", "turn G6 to G10, %s", fill2(&s));
    refusedf(&s, "cannot advance to D8", "turn G6 to D8, %s", fill2(&s));
    refusedf(&s, "cannot advance to H3", "turn G6 to H3, %s", fill2(&s)); /* the city of 6 */
    playf(&s, "turn G6 to A9, %s", fill2(&s)); /* the city of 5, far from G6 */
    assert_int_equal(at(&s, "A9")->creature, 10);
    assert_int_equal(at(&s, "G6")->creature, 0);
    /* a companion appearing under a creature is removed */
    int companions = s.companions;
    playf(&s, "turn A9, %s", fill1(&s, OD_NONE));
    assert_int_equal(s.companions, companions - 1);
    assert_int_equal(at(&s, "A9")->waiting, 0);
    /* a fog card whose creature is gone (A6's 1, beaten by an adventurer alone): nothing
     * happens, and it still owes a card more */
    pass_turn(&s);
    playf(&s, "%s, column-A south 6 fight", fill2(&s));
    assert_int_equal(at(&s, "A6")->creature, 0);
    assert_int_equal(at(&s, "A6")->adventurers[BLACK], 1);
    refusedf(&s, "no creature is left on A6", "turn A6 to A10, %s", fill2(&s));
    refusedf(&s, "2 cards turned, 3 owed", "turn A6, %s", fill1(&s, OD_NONE));
    playf(&s, "turn A6, %s", fill2(&s));
    assert_int_equal(at(&s, "A6")->adventurers[BLACK], 1);
}

/* I7 turned: `to J7` (a mountain, not in a city) is refused; a companion waiting on K7 leaves
 * the game when the creature advances there. */
static void test_od_example_uprising_i7_removes_the_companion_on_k7(void **state_)
{
    (void)state_;
    od_state s = uprising_game(4);
    playf(&s, "turn K7, %s", fill1(&s, OD_NONE));
    assert_int_equal(at(&s, "K7")->waiting, 1);
    int companions = s.companions;
    refusedf(&s, "cannot advance to J7", "turn I7 to J7, %s", fill2(&s));
    refusedf(&s, "say where", "turn I7, %s", fill2(&s));
    playf(&s, "turn I7 to K7, %s", fill2(&s));
    assert_int_equal(at(&s, "K7")->creature, 10);
    assert_int_equal(at(&s, "K7")->waiting, 0);
    assert_int_equal(at(&s, "I7")->creature, 0);
    assert_int_equal(s.companions, companions); /* gone from the game, not back to the stock */
}

/* Violet (a sword from J1) and orange (an herb from G2) meet on K7 by real turns, a troop of
 * two colours (4 players, adventure 5). */
static od_state troop_on_k7(void)
{
    od_state s = uprising_game(4);
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "turn J1, %s, row-1 east 10, J1 south 6", fill1(&s, OD_NONE));
    playf(&s, "turn G2, %s, row-2 east 7, G2 east 3", fill1(&s, OD_NONE));
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "%s, J7 east 1", fill2(&s));
    playf(&s, "%s, J2 south 5, J7 east 1", fill2(&s));
    assert_int_equal(at(&s, "K7")->adventurers[VIOLET], 1);
    assert_int_equal(at(&s, "K7")->adventurers[ORANGE], 1);
    assert_int_equal(s.seat[VIOLET].swords, 1);
    assert_int_equal(s.seat[ORANGE].herbs, 1);
    assert_int_equal(s.active, BLACK);
    return s;
}

/* The seed's K5 example: black turns K5 and sends its creature (12) to K7, where violet and
 * orange fight it together, each with its own: 2 adventurers + a sword of 2 with a die of 5
 * + an herb of 3 = 12. Both contributions are spent (the herb; the sword is kept, the fight
 * being won); with a die of 4 the troop loses and both adventurers leave the game. */
static void test_od_example_uprising_k5_troop_fights_together(void **state_)
{
    (void)state_;
    od_state ready = troop_on_k7();
    char targets[200];
    advance_targets(&ready, "K5", targets, sizeof targets);
    assert_string_equal(targets, "K6 K7 K8 K9 K10");

    od_state s = ready;
    refusedf(&s, "give it", "turn K5 to K7, %s", fill2(&s));
    refusedf(&s, "black has no adventurer in this fight",
             "turn K5 to K7 fight black swords 2 dice 5, %s", fill2(&s));
    refusedf(&s, "a seat named twice",
             "turn K5 to K7 fight violet swords 2 dice 5 violet swords 2 dice 5, %s",
             fill2(&s));
    playf(&s, "turn K5 to K7 fight violet swords 2 dice 5 orange herbs 3, %s", fill2(&s));
    assert_int_equal(at(&s, "K7")->creature, 0);
    assert_int_equal(at(&s, "K5")->creature, 0);
    assert_int_equal(at(&s, "K7")->adventurers[VIOLET], 1);
    assert_int_equal(at(&s, "K7")->adventurers[ORANGE], 1);
    assert_int_equal(s.seat[ORANGE].herbs, 0);
    assert_int_equal(s.seat[VIOLET].swords, 1);
    assert_int_equal(s.seat[VIOLET].creatures + s.seat[ORANGE].creatures, 1);
    assert_int_equal(score_of(&s, BLACK), 0); /* no points in adventure 5 */

    s = ready;
    playf(&s, "turn K5 to K7 fight violet swords 2 dice 4 orange herbs 3, %s", fill2(&s));
    assert_int_equal(at(&s, "K7")->creature, 12);
    assert_int_equal(od_fighters(&s, F("K7"), OD_NONE), 0);
    assert_int_equal(s.seat[ORANGE].herbs, 0);
    assert_int_equal(s.seat[VIOLET].swords, 0);
    assert_int_equal(adventurers(&s, VIOLET), 7);
    assert_int_equal(adventurers(&s, ORANGE), 7);
}

/* ---- 2. every rule: the setup ---- */

/* Adventurers: one of each colour on each start space, rows 1-5 and columns A-E with 2
 * players (10 each), rows 1-4 and columns A-D with 3 or 4 (8 each). The stocks: adventures 1-3
 * send 8/5/2 companions and swords back to the box (22/25/28 companions, 20/23/26 swords);
 * adventures 4-6 keep all 30 and 28. */
static void test_od_setup_adventurers_and_stocks_by_player_count(void **state_)
{
    (void)state_;
    for (int adventure = OD_FELLOWSHIP; adventure <= OD_KING; adventure++)
        for (int seats = 2; seats <= OD_MAX_SEATS; seats++) {
            od_state s = new_game(seats, adventure);
            int starts = seats == 2 ? 5 : 4;
            for (int seat = 0; seat < OD_MAX_SEATS; seat++) {
                for (int i = 0; i < 5; i++) {
                    int want = seat < seats && i < starts;
                    assert_int_equal(s.places[OD_START_ROW(i)].adventurers[seat], want);
                    assert_int_equal(s.places[OD_START_COLUMN(i)].adventurers[seat], want);
                }
                if (seat < seats)
                    assert_int_equal(adventurers(&s, seat), seats == 2 ? 10 : 8);
            }
            for (int f = 0; f < OD_FIELDS; f++)
                assert_int_equal(od_fighters(&s, f, OD_NONE), 0);
            bool sorted = adventure <= OD_CITIES_ESCAPE;
            assert_int_equal(s.companions, sorted ? 30 - (seats == 2 ? 8 : seats == 3 ? 5 : 2)
                                                  : 30);
            assert_int_equal(s.swords, sorted ? 28 - (seats == 2 ? 8 : seats == 3 ? 5 : 2)
                                              : 28);
            assert_int_equal(s.herbs, 20);
            assert_int_equal(s.gold_stock, 18);
            assert_int_equal(s.supers, adventure >= OD_UPRISING ? 6 : 0);
            assert_int_equal(s.deck, adventure == OD_KING ? 0
                                     : adventure == OD_PRINCESS ? OD_FIELDS - 1 : OD_FIELDS);
            assert_int_equal(s.keys_left[OD_CAPITAL], adventure == OD_PRINCESS ? 4 : 0);
            assert_int_equal(s.sprite, OD_NONE);
            assert_int_equal(s.phase, OD_PHASE_SETUP);
            refused(&s, "turn K1, turn K2", "the setup comes first");
        }
    { /* od_init's refusals */
        od_config config;
        od_state s;
        od_error error = {""};
        od_config_default(&config, 1, OD_FELLOWSHIP);
        assert_int_equal(od_init(&s, &config, &board, &error), OD_BAD_CONFIG);
        od_config_default(&config, 5, OD_FELLOWSHIP);
        assert_int_equal(od_init(&s, &config, &board, &error), OD_BAD_CONFIG);
        od_config_default(&config, 2, 7);
        assert_int_equal(od_init(&s, &config, &board, &error), OD_BAD_CONFIG);
        assert_non_null(strstr(error.message, "adventures 1 to 6"));
        od_config_default(&config, 2, OD_FELLOWSHIP);
        assert_int_equal(od_init(&s, &config, NULL, &error), OD_BAD_CONFIG);
        config.colossal = true;
        assert_int_equal(od_init(&s, &config, &board, &error), OD_BAD_CONFIG);
        assert_non_null(strstr(error.message, "colossal giant belongs to adventure 4"));
    }
}

/* The setup turns 8 cards and one more per fog card among them: fewer or more are refused. */
static void test_od_setup_eight_cards_and_one_more_per_fog_card(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    refused(&s, "setup K1, K2, H1, G1, I1, G3, F3", "7 cards turned, 8 owed");
    refused(&s, "setup K1, K2, H1, G1, I1, G3, F3, E3, G4",
            "9 cards turned at the setup, only 8 owed");
    refused(&s, "setup D7 creature 10, K1, K2, H1, G1, I1, G3, F3", "8 cards turned, 9 owed");
    refused(&s, "setup D7 creature 10, E8 creature 8, K1, K2, H1, G1, I1, G3, F3",
            "9 cards turned, 10 owed");
    refused(&s, "setup K1, K2, H1, G1, I1, G3, F3, K1", "the card K1 was turned already");
    refused(&s, "setup creature D7 10, K1, K2, H1, G1, I1, G3, F3, E3",
            "creatures come with fog cards");
    bad_notation(&s, "setup K1, , K2", "an empty step in the setup");
    play(&s, "setup D7 creature 10, K1, K2, H1, G1, I1, G3, F3, E3");
    assert_int_equal(s.deck, OD_FIELDS - 9);
    assert_int_equal(at(&s, "D7")->creature, 10);
    assert_int_equal(at(&s, "K1")->item, OD_ITEM_SWORD);
    assert_int_equal(at(&s, "H1")->item, OD_ITEM_HERB);
    assert_int_equal(s.active, BLACK);
    refused(&s, "setup G4, G5, H4, E4, F2, F1, E2, E1", "the setup is done already");

    /* adventures 5 and 6 lay the 14 creatures first */
    od_state uprising = new_game(2, OD_UPRISING);
    refused(&uprising, "setup K1, K2, H1, G1, I1, G3, F3, E3", "14 fog fields");
    refused(&uprising, "setup creature K3 10, K1, K2, H1, G1, I1, G3, F3, E3",
            "1 creatures laid, one per fog field: 14");
    od_state king = new_game(2, OD_KING);
    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "setup %s", base_creatures);
    char *twelve = strstr(line, "creature G6 12");
    memcpy(twelve, "creature G6 16", 14);
    refused(&king, line, "a value left in the stack (8, 10, 12, 14, 16; D-OL-1), not 16");
    snprintf(line, sizeof line, "setup %s", base_creatures);
    memcpy(strstr(line, "creature G6"), "creature G5", 11);
    refused(&king, line, "creature on G5: one per fog field");
    snprintf(line, sizeof line, "setup %s, K1", base_creatures);
    refused(&king, line, "without terrain cards");
}

/* ---- the cards of a turn ---- */

/* A turn turns 2 cards, one more per fog card, all before the moves; a card is turned once. */
static void test_od_turn_two_cards_and_one_more_per_fog_card_before_the_moves(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    refused(&s, "turn G4", "1 cards turned, 2 owed");
    refused(&s, "pass", "0 cards turned, 2 owed");
    refused(&s, "turn G4, turn G5, turn H4", "3 cards turned, only 2 owed");
    refused(&s, "turn D7 creature 10, turn G4", "2 cards turned, 3 owed");
    refused(&s, "turn D7 creature 10, turn E8 creature 8, turn G4", "3 cards turned, 4 owed");
    refused(&s, "column-A south 1", "0 cards turned, 2 owed before moving");
    refused(&s, "turn G4, column-A south 1, turn G5", "1 cards turned, 2 owed before moving");
    refused(&s, "turn G4, turn G5, column-A south 1, turn H4",
            "the cards are turned before the moves");
    refused(&s, "turn K1, turn G4", "the card K1 was turned already"); /* at the setup */
    refused(&s, "turn G4, turn G4", "the card G4 was turned already");
    refused(&s, "green: turn G4, turn G5", "it is black's turn, not green's");
    bad_notation(&s, "turn L4, turn G5", "a card is `turn FIELD`");
    bad_notation(&s, "turn G4, , turn G5", "an empty step between commas");
    bad_notation(&s, "blue: turn G4, turn G5", "'blue' is not a colour of this game");
    play(&s, "black: turn D7 creature 10, turn E8 creature 8, turn G4, turn G5, column-A south 1");
    assert_int_equal(s.deck, OD_FIELDS - OD_SETUP_CARDS - 4);
    assert_int_equal(s.active, GREEN);
    play(&s, "turn H4, turn E4"); /* a turn of cards and no move */
    assert_int_equal(s.active, VIOLET);
}

/* ---- moves ---- */

/* Moves go south or east only; a start space in front of a row goes east, one above a column
 * south; 3 and 4 players use rows 1-4 and columns A-D; the moving seat needs an adventurer
 * there; a move stays on the board. */
static void test_od_move_only_south_or_east_from_the_seats_start_spaces(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    const char *cards = fill2(&s);
    refusedf(&s, "cannot go south 1 from row-1", "%s, row-1 south 1", cards);
    refusedf(&s, "cannot go east 1 from column-A", "%s, column-A east 1", cards);
    refusedf(&s, "black has no adventurer on row-5", "%s, row-5 east 1", cards);
    refusedf(&s, "black has no adventurer on column-E", "%s, column-E south 1", cards);
    refusedf(&s, "cannot go east 12 from row-1", "%s, row-1 east 12", cards);
    refusedf(&s, "cannot go south 11 from column-A", "%s, column-A south 11", cards);
    refusedf(&s, "black has no adventurer on B2", "%s, B2 south 1", cards);
    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "%s, row-1 north 1", cards);
    bad_notation(&s, line, "a move goes `south N` or `east N`");
    snprintf(line, sizeof line, "%s, row-1 east 0", cards);
    bad_notation(&s, line, "a move goes `south N` or `east N`");
    snprintf(line, sizeof line, "%s, row-1 east", cards);
    bad_notation(&s, line, "a move is `C3 south 2`");
    snprintf(line, sizeof line, "%s, row-1 east 1 over", cards);
    bad_notation(&s, line, "after a move");
    playf(&s, "%s, row-1 east 1, A1 east 10", cards);
    assert_int_equal(at(&s, "K1")->adventurers[BLACK], 1);
    pass_turn(&s);
    pass_turn(&s);
    refusedf(&s, "cannot go east 1 from K1", "%s, K1 east 1", fill2(&s));
    playf(&s, "%s, K1 south 9", fill2(&s));
    assert_int_equal(at(&s, "K10")->adventurers[BLACK], 1);

    od_state two = new_game(2, OD_FELLOWSHIP);
    setup_plain(&two);
    playf(&two, "%s, row-5 east 1, column-E south 1", fill2(&two));
    assert_int_equal(at(&two, "A5")->adventurers[BLACK], 1);
    assert_int_equal(at(&two, "E1")->adventurers[BLACK], 1);
}

/* Moves jump adventurers, waiting companions and items, never a fog creature or the water
 * sprite (adventure 4 jumps the sprite), never end on an adventurer or the sprite; two moves a
 * turn at most. */
static void test_od_move_jumps_pieces_and_items_not_creatures_or_the_sprite(void **state_)
{
    (void)state_;
    for (int adventure = OD_FELLOWSHIP; adventure <= OD_PRINCESS; adventure += 3) {
        od_state s = new_game(2, adventure);
        setup_plain(&s);
        play(&s, "turn C1, turn B5, row-1 east 3, column-B south 6");
        assert_int_equal(at(&s, "C1")->adventurers[BLACK], 1);
        assert_int_equal(s.seat[BLACK].swords, 1);
        assert_int_equal(at(&s, "B5")->waiting, 1); /* jumped, not taken */
        refused(&s, "turn B1, turn D7 creature 10, turn B7, row-1 east 3",
                "C1: another adventurer stands there");
        refused(&s, "turn B1, turn D7 creature 10, turn B7, column-D south 8",
                "column-D to D8 would jump a fog creature or the water sprite");
        play(&s, "turn B1, turn D7 creature 10, turn B7, row-1 east 5, column-D south 6");
        assert_int_equal(at(&s, "E1")->adventurers[GREEN], 1); /* over a sword and black */
        assert_int_equal(at(&s, "B1")->item, OD_ITEM_SWORD);
        assert_int_equal(at(&s, "D6")->adventurers[GREEN], 1);
        assert_int_equal(od_sprite_field(&s), F("B7"));
        refusedf(&s, "B7: the water sprite stands there", "%s, B6 south 1", fill2(&s));
        refusedf(&s, "two moves a turn at most",
                 "%s, column-A south 1, column-D south 1, column-E south 1", fill2(&s));
        if (adventure == OD_PRINCESS) {
            playf(&s, "%s, B6 south 2", fill2(&s)); /* over the sprite on B7 */
            assert_int_equal(at(&s, "B8")->adventurers[BLACK], 1);
        } else {
            refusedf(&s, "B6 to B8 would jump a fog creature or the water sprite",
                     "%s, B6 south 2", fill2(&s));
        }
    }
}

/* ---- items, companions, the water sprite ---- */

/* What a card places under an adventurer is taken at once (a sword, an herb, a companion that
 * joins; on the river the gold, before the sprite arrives and sweeps the adventurer away);
 * what lies on a field is taken on arrival. */
static void test_od_items_taken_on_arrival_and_under_an_adventurer(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    play(&s, "turn A1, turn C3, column-A south 1, row-2 east 1");
    assert_int_equal(s.seat[BLACK].swords, 1);         /* A1's sword, on arrival */
    assert_int_equal(at(&s, "A1")->item, OD_ITEM_NONE);
    assert_int_equal(at(&s, "C3")->item, OD_ITEM_HERB); /* lying, nobody there */
    pass_turn(&s);
    pass_turn(&s);
    play(&s, "turn A2, turn B5, column-B south 4, column-C south 7"); /* A2 under black */
    assert_int_equal(s.seat[BLACK].swords, 2);
    assert_int_equal(at(&s, "A2")->item, OD_ITEM_NONE);
    pass_turn(&s);
    pass_turn(&s);
    int companions = s.companions;
    play(&s, "turn B4, turn C7, B4 south 1, row-3 east 3"); /* C7's companion under black */
    assert_int_equal(at(&s, "C7")->companions[BLACK], 1);
    assert_int_equal(at(&s, "B5")->companions[BLACK], 1); /* B5's, on arrival */
    assert_int_equal(at(&s, "B5")->waiting, 0);
    assert_int_equal(s.companions, companions - 1); /* B5's left the stock earlier */
    assert_int_equal(s.seat[BLACK].herbs, 1);
    assert_int_equal(s.seat[BLACK].swords, 3); /* B4's, turned under black */
    assert_int_equal(s.seat[BLACK].points, 1 + 1); /* each adventurer's first companion */
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "%s, A1 south 6", fill2(&s));
    pass_turn(&s);
    pass_turn(&s);
    int left = adventurers(&s, BLACK);
    playf(&s, "turn A7, %s", fill1(&s, OD_NONE)); /* gold under black, then the sprite */
    assert_int_equal(s.seat[BLACK].gold, 1);
    assert_int_equal(s.seat[BLACK].points, 2 + 2);
    assert_int_equal(adventurers(&s, BLACK), left - 1);
    assert_int_equal(od_sprite_field(&s), F("A7"));
    assert_int_equal(at(&s, "A7")->item, OD_ITEM_NONE);
}

/* OL-ENGINE-1: a river card sends the sprite along the course, in either direction, to the
 * card's field; every adventurer on a field it enters leaves the game with its companions;
 * gold lying there stays. */
static void test_od_sprite_sweeps_the_course_both_ways(void **state_)
{
    (void)state_;
    od_state s = new_game(2, OD_FELLOWSHIP);
    setup_plain(&s);
    playf(&s, "%s, column-B south 7, column-C south 8", fill2(&s));
    playf(&s, "%s, column-D south 8, column-E south 9", fill2(&s));
    assert_int_equal(od_sprite_field(&s), OD_NONE);
    playf(&s, "turn K4, %s", fill1(&s, OD_NONE)); /* from beside the board to the last field */
    assert_int_equal(od_sprite_field(&s), F("K4"));
    assert_int_equal(s.sprite, board.river_length - 1);
    static const char *const swept[] = {"B7", "C8", "D8", "E9"};
    for (int i = 0; i < 4; i++)
        assert_int_equal(od_fighters(&s, F(swept[i]), OD_NONE), 0);
    assert_int_equal(adventurers(&s, BLACK), 8);
    assert_int_equal(adventurers(&s, GREEN), 8);
    assert_int_equal(at(&s, "K4")->item, OD_ITEM_GOLD);

    pass_turn(&s);
    playf(&s, "turn B5, %s, row-5 east 2, B5 south 3", fill1(&s, OD_NONE));
    assert_int_equal(at(&s, "B8")->companions[BLACK], 1);
    playf(&s, "%s, row-5 east 10", fill2(&s));
    assert_int_equal(at(&s, "J5")->adventurers[GREEN], 1);
    int companions = s.companions;
    playf(&s, "turn A7, %s", fill1(&s, OD_NONE)); /* back from K4 to A7 */
    assert_int_equal(od_sprite_field(&s), F("A7"));
    assert_int_equal(od_fighters(&s, F("J5"), OD_NONE), 0);
    assert_int_equal(od_fighters(&s, F("B8"), OD_NONE), 0);
    assert_int_equal(adventurers(&s, BLACK), 7);
    assert_int_equal(adventurers(&s, GREEN), 7);
    assert_int_equal(s.companions, companions); /* the companion left the game */
    assert_int_equal(at(&s, "K4")->item, OD_ITEM_GOLD);
    assert_int_equal(at(&s, "A7")->item, OD_ITEM_GOLD);
    assert_int_equal(s.seat[BLACK].gold + s.seat[GREEN].gold, 0);
}

/* ---- fights ---- */

/* Black with 4 swords, an herb and 4 gold, all by real turns, on D3 above a creature of 16 on
 * D7 (2 players, adventure 1). */
static od_state armed_black(void)
{
    od_state s = new_game(2, OD_FELLOWSHIP);
    setup_plain(&s);
    playf(&s, "%s, row-1 east 1, row-2 east 1", fill2(&s));
    pass_turn(&s);
    play(&s, "turn A1, turn A2, A1 east 1, A2 east 3"); /* two swords turned under black */
    pass_turn(&s);
    play(&s, "turn B1, turn D2");
    pass_turn(&s);
    playf(&s, "turn D3, turn D7 creature 16, %s, D2 south 1", fill1(&s, OD_NONE));
    pass_turn(&s);
    collect_four_gold(&s);
    assert_int_equal(s.seat[BLACK].swords, 4);
    assert_int_equal(s.seat[BLACK].herbs, 1);
    assert_int_equal(s.seat[BLACK].gold, 4);
    assert_int_equal(at(&s, "D3")->adventurers[BLACK], 1);
    return s;
}

/* What a fight may name: a die 1-6, a sword's extra value 0-3, an herb 2-4, no more swords,
 * herbs or gold than the seat holds, 3 swords at most, a re-roll only with a die, one die per
 * sword; a fight is declared where a creature is, and only there. */
static void test_od_fight_checks_what_is_spent(void **state_)
{
    (void)state_;
    od_state s = armed_black();
    const char *cards = fill2(&s);
    static const struct {
        const char *fight, *words;
    } refusals[] = {
        {"swords 3 dice 7", "a die shows 1 to 6, not 7"},
        {"swords 3 dice 0", "a die shows 1 to 6, not 0"},
        {"swords 4 dice 3", "a sword's extra value is 0 to 3, not 4"},
        {"herbs 5", "an herb is worth 2 to 4, not 5"},
        {"herbs 1", "an herb is worth 2 to 4, not 1"},
        {"herbs 2 2", "black uses 2 herbs and has 1"},
        {"swords 0 0 0 0 dice 1 1 1 1", "4 swords: a fight takes 3 at most"},
        {"gold 5", "black spends 5 gold and has 4"},
        {"gold 3 rerolls 2", "black spends 5 gold and has 4"},
        {"rerolls 1", "a re-roll needs a die: no sword was used"},
        {"green herbs 2", "green has no adventurer in this fight"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        refusedf(&s, refusals[i].words, "%s, D3 south 4 fight %s", cards, refusals[i].fight);
    static const struct {
        const char *fight, *words;
    } notation[] = {
        {"swords 3", "one die per sword"},
        {"swords 3 3 dice 6", "one die per sword"},
        {"swords 0 0 0 0 0 dice 1", "too many swords in one fight"},
        {"swords dice 4", "`swords` is followed by their values"},
        {"gold", "`gold` is followed by a count"},
        {"gold many", "`gold` is followed by a count"},
        {"magic 3", "'magic' in a fight"},
        {"king", "`king` names a field"},
    };
    char line[LINE_LENGTH];
    for (size_t i = 0; i < sizeof notation / sizeof notation[0]; i++) {
        snprintf(line, sizeof line, "%s, D3 south 4 fight %s", cards, notation[i].fight);
        bad_notation(&s, line, notation[i].words);
    }
    refusedf(&s, "a fight at D7: give it", "%s, D3 south 4", cards);
    refusedf(&s, "nothing to fight on D4", "%s, D3 south 1 fight", cards);
    refusedf(&s, "nobody fights at A4", "turn A4 fight, %s", fill1(&s, F("A4")));

    od_state lost = s;
    playf(&lost, "%s, D3 south 4 fight swords 1 dice 5 rerolls 1", cards); /* 7 against 16 */
    assert_int_equal(lost.seat[BLACK].gold, 3);
    assert_int_equal(lost.seat[BLACK].swords, 3);
    assert_int_equal(at(&lost, "D7")->creature, 16);
    playf(&s, "%s, D3 south 4 fight swords 3 3 3 dice 6 6 6 herbs 4 gold 4", cards);
    assert_int_equal(at(&s, "D7")->creature, 0);
    assert_int_equal(s.seat[BLACK].laurels, 8);
    assert_int_equal(s.seat[BLACK].swords, 4);
    assert_int_equal(s.seat[BLACK].herbs, 0);
    assert_int_equal(s.seat[BLACK].gold, 0);
    assert_int_equal(s.seat[BLACK].points, 8 + 4 * 2); /* laurel 8, and 2 per gold taken */
}

/* A creature turned up under an adventurer is fought at once, within the card's step: black
 * brings D1's sword to D7, then D7 is turned. */
static void test_od_fight_a_creature_turned_up_under_an_adventurer(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    playf(&s, "turn D1, %s, column-D south 1", fill1(&s, OD_NONE));
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "%s, D1 south 6", fill2(&s));
    pass_turn(&s);
    pass_turn(&s);
    refusedf(&s, "a fight at D7: give it", "turn D7 creature 8, %s", fill2(&s));
    od_state lost = s;
    playf(&lost, "turn D7 creature 8 fight, %s", fill2(&lost)); /* 1 against 8 */
    assert_int_equal(at(&lost, "D7")->creature, 8);
    assert_int_equal(adventurers(&lost, BLACK), 7);
    assert_int_equal(lost.seat[BLACK].swords, 1); /* not used, so not lost */
    playf(&s, "turn D7 creature 8 fight swords 3 dice 6, %s", fill2(&s)); /* 1 + 3 + 6 */
    assert_int_equal(at(&s, "D7")->creature, 0);
    assert_int_equal(at(&s, "D7")->adventurers[BLACK], 1);
    assert_int_equal(s.seat[BLACK].creatures, 1);
    assert_int_equal(s.seat[BLACK].points, 4);
    assert_int_equal(s.seat[BLACK].swords, 1);
}

/* ---- the end ---- */

/* OL-ENGINE-3: when neither companions nor swords are left in stock the round is finished (the
 * seats after the one that emptied them still play), then the game ends; a card that would
 * place an item the stock no longer has places nothing. */
static void test_od_end_when_companions_and_swords_run_out_the_round_finishes(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    int emptied_by = OD_NONE, turns_after = 0;
    for (int turns = 0; s.phase == OD_PHASE_TURN; turns++) {
        assert_true(turns < 100);
        int seat = s.active;
        char line[LINE_LENGTH] = "";
        /* city and mountain cards first, where nobody stands */
        for (int f = 0, n = 0; f < OD_FIELDS && n < 2; f++)
            if (!s.turned[f] && (s.board.terrain[f] == OD_CITY ||
                                 (s.board.terrain[f] == OD_MOUNTAIN && s.swords > 0) ||
                                 (s.companions == 0 && s.swords == 0 &&
                                  s.board.terrain[f] == OD_FOREST))) {
                size_t length = strlen(line);
                snprintf(line + length, sizeof line - length, "%sturn %s", n++ ? ", " : "",
                         name_of(f));
            }
        if (emptied_by != OD_NONE)
            turns_after++;
        if (s.companions == 0 && emptied_by == OD_NONE)
            for (int f = 0; f < OD_FIELDS; f++)
                if (!s.turned[f] && s.board.terrain[f] == OD_CITY) {
                    /* a city card with no companion left in stock places nothing */
                    od_state probe = s;
                    playf(&probe, "turn %s, %s", name_of(f), fill1(&probe, f));
                    assert_int_equal(probe.places[f].waiting, 0);
                    break;
                }
        play(&s, line);
        if (emptied_by == OD_NONE && s.companions == 0 && s.swords == 0) {
            emptied_by = seat;
            assert_true(s.last_round);
        }
    }
    assert_true(emptied_by != OD_NONE);
    assert_int_equal(s.phase, OD_PHASE_OVER);
    assert_int_equal(s.end, OD_END_STOCK);
    assert_int_equal(turns_after, 3 - 1 - emptied_by);
    assert_int_equal(s.active, 3 - 1);
    refused(&s, "turn A1, turn A2", "the game is over");
}

/* Adventure 4, every card turned (fog cards with creatures from the stack): the deck runs out,
 * the round is finished and the giant wins (OL-ENGINE-5: nobody is the winner); the
 * princess's field is the one card left. A last turn with one card left owes one card. */
static void test_od_end_when_the_deck_runs_out(void **state_)
{
    (void)state_;
    od_state s = new_game(2, OD_PRINCESS);
    setup_plain(&s);
    int next_field = 0, last_turn_cards = -1;
    for (int turns = 0; s.phase == OD_PHASE_TURN; turns++) {
        assert_true(turns < 100);
        char line[LINE_LENGTH] = "";
        int owed = 2, n = 0;
        uint8_t stack[5];
        memcpy(stack, s.creature_stack, sizeof stack);
        for (; next_field < OD_FIELDS && n < owed && n < s.deck; next_field++) {
            int f = next_field;
            if (s.turned[f])
                continue;
            size_t length = strlen(line);
            snprintf(line + length, sizeof line - length, "%sturn %s", n++ ? ", " : "",
                     name_of(f));
            if (s.board.terrain[f] == OD_FOG) {
                int v = 8;
                while (!stack[v / 2 - 4])
                    v += 2;
                stack[v / 2 - 4]--;
                length = strlen(line);
                snprintf(line + length, sizeof line - length, " creature %d", v);
                owed++;
            }
        }
        last_turn_cards = n;
        play(&s, line);
    }
    assert_int_equal(s.deck, 0);
    assert_int_equal(last_turn_cards, 1); /* 109 cards: 8 at the setup, then 101 */
    assert_int_equal(s.phase, OD_PHASE_OVER);
    assert_int_equal(s.winner, OD_NONE);
    int unturned = 0;
    for (int f = 0; f < OD_FIELDS; f++)
        unturned += !s.turned[f];
    assert_int_equal(unturned, 1);
}

/* The game ends at once when no adventurer can move: a position set up directly (black's
 * last adventurer on K10, green's on J10 and violet's on I10, each blocked by the one east of
 * it or the board's edge). */
static void test_od_end_when_no_adventurer_can_move(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    clear_board(&s);
    put(&s, "K10", BLACK, 1, 0);
    put(&s, "J10", GREEN, 1, 0);
    put(&s, "H10", VIOLET, 1, 0);
    check_invariants(&s);
    assert_true(od_any_move(&s)); /* violet may still go to I10 */
    pass_turn(&s);
    pass_turn(&s);
    assert_int_equal(s.phase, OD_PHASE_TURN);
    playf(&s, "%s, H10 east 1", fill2(&s));
    assert_false(od_any_move(&s));
    assert_int_equal(s.phase, OD_PHASE_OVER);
    assert_int_equal(s.end, OD_END_STUCK);
}

/* ---- adventure 1: points at once ---- */

/* The Fellowship scores at once: each adventurer's k-th companion k, each gold 2, each creature
 * its laurel (the fight examples). */
static void test_od_fellowship_scores_companions_and_gold_at_once(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_FELLOWSHIP);
    setup_plain(&s);
    play(&s, "turn B5, turn B6, column-B south 5, B5 south 1");
    assert_int_equal(s.seat[BLACK].points, 1 + 2);
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "turn C6, %s, B6 east 1", fill1(&s, OD_NONE));
    assert_int_equal(s.seat[BLACK].points, 1 + 2 + 3);
    pass_turn(&s);
    pass_turn(&s);
    collect_four_gold(&s);
    assert_int_equal(s.seat[BLACK].points, 6 + 4 * 2);
    assert_int_equal(score_of(&s, BLACK), 14);
    assert_int_equal(score_of(&s, GREEN), 0);
}

/* ---- adventure 2: groups ---- */

/* The Magnificent: adventurers of one colour share a field and move as a group, whole
 * (OL-ENGINE-2); other colours never end on them; in the other adventures nobody shares. */
static void test_od_magnificent_groups_of_one_colour(void **state_)
{
    (void)state_;
    od_state other = new_game(2, OD_FELLOWSHIP);
    setup_plain(&other);
    refusedf(&other, "B5: another adventurer stands there", "%s, column-B south 5, row-5 east 2",
             fill2(&other));

    od_state s = new_game(2, OD_MAGNIFICENT);
    setup_plain(&s);
    playf(&s, "turn B5, %s, column-B south 5, row-5 east 2", fill1(&s, OD_NONE));
    assert_int_equal(at(&s, "B5")->adventurers[BLACK], 2);
    assert_int_equal(at(&s, "B5")->companions[BLACK], 1);
    refusedf(&s, "B5: another adventurer stands there", "%s, column-B south 5", fill2(&s));
    playf(&s, "%s, row-4 east 2", fill2(&s));
    refusedf(&s, "B4: another adventurer stands there", "%s, row-4 east 2", fill2(&s));
    playf(&s, "%s, B5 south 1", fill2(&s));
    assert_int_equal(od_fighters(&s, F("B5"), OD_NONE), 0);
    assert_int_equal(at(&s, "B6")->adventurers[BLACK], 2);
    assert_int_equal(at(&s, "B6")->companions[BLACK], 1);
    refusedf(&s, "B6: another adventurer stands there", "%s, B4 south 2", fill2(&s));
    playf(&s, "%s, B4 east 1", fill2(&s));
    playf(&s, "%s, row-1 east 2, B1 south 5", fill2(&s)); /* a third joins the group */
    assert_int_equal(at(&s, "B6")->adventurers[BLACK], 3);
    assert_int_equal(od_fighters(&s, F("B6"), BLACK), 4);
    assert_int_equal(score_of(&s, BLACK), 4 * 3);
}

/* ---- adventure 4: keys ---- */

/* The seed's table of figures (adventurers and companions of one seat in a city) for a key:
 * city of 3 (yellow) 1/1/1, of 4 (green) 2/1/1, of 5 (blue) 4/3/2, of 6 (grey) 3/2/1, the
 * capital (red) 10/7/5 for 2/3/4 players. Played where the figures are few, then the whole
 * table on positions set up directly (the figures put in the city, one short, then one more). */
static void test_od_princess_keys_by_figures_in_a_city(void **state_)
{
    (void)state_;
    od_state s = new_game(3, OD_PRINCESS);
    setup_plain(&s);
    playf(&s, "%s, row-4 east 6", fill2(&s)); /* F4, city of 3 */
    assert_int_equal(s.seat[BLACK].keys, 1u << OD_CITY3);
    assert_int_equal(s.keys_left[OD_CITY3], 3);
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "%s, F4 east 1", fill2(&s)); /* a key is kept outside the city */
    assert_int_equal(s.seat[BLACK].keys, 1u << OD_CITY3);

    od_state two = new_game(2, OD_PRINCESS);
    setup_plain(&two);
    playf(&two, "%s, column-B south 5", fill2(&two));
    assert_int_equal(two.seat[BLACK].keys, 0); /* 1 of the 2 figures the city of 4 needs */
    pass_turn(&two);
    playf(&two, "%s, column-C south 6", fill2(&two));
    assert_int_equal(two.seat[BLACK].keys, 1u << OD_CITY4);

    od_state four = new_game(4, OD_PRINCESS);
    setup_plain(&four);
    playf(&four, "%s, column-A south 9, column-B south 9", fill2(&four)); /* A9, B9 */
    assert_int_equal(four.seat[BLACK].keys, 1u << OD_CITY5);
    pass_turn(&four);
    pass_turn(&four);
    pass_turn(&four);
    playf(&four, "%s, row-2 east 8", fill2(&four)); /* H2, city of 6 */
    assert_int_equal(four.seat[BLACK].keys, (1u << OD_CITY5) | (1u << OD_CITY6));

    static const int need[OD_CITIES][3] = {
        [OD_CAPITAL] = {10, 7, 5}, [OD_CITY6] = {3, 2, 1}, [OD_CITY5] = {4, 3, 2},
        [OD_CITY4] = {2, 1, 1},    [OD_CITY3] = {1, 1, 1},
    };
    for (int seats = 2; seats <= 4; seats++)
        for (int city = 0; city < OD_CITIES; city++) {
            od_state g = new_game(seats, OD_PRINCESS);
            setup_plain(&g);
            clear_board(&g);
            int figures = need[city][seats - 2], placed = 0;
            for (int f = 0; f < OD_FIELDS && placed < figures - 1; f++)
                if (g.board.city[f] == city && !g.turned[f]) {
                    g.places[f].adventurers[GREEN] = 1;
                    placed++;
                }
            put(&g, "row-1", GREEN, 1, 0);
            put(&g, "row-1", BLACK, 1, 0);
            check_invariants(&g);
            pass_turn(&g);
            assert_int_equal(g.seat[GREEN].keys, 0);
            for (int f = 0; f < OD_FIELDS; f++) /* one more figure: a companion */
                if (g.board.city[f] == city && (g.places[f].adventurers[GREEN] || figures == 1)) {
                    if (figures == 1)
                        g.places[f].adventurers[GREEN] = 1;
                    else
                        put(&g, name_of(f), GREEN, 0, 1);
                    g.places[OD_START_ROW(0)].adventurers[GREEN] = 0;
                    break;
                }
            check_invariants(&g);
            pass_turn(&g);
            if (g.seat[GREEN].keys != 1u << city)
                fail_msg("%d players, %d figures in city %d: keys %#x", seats, figures, city,
                         g.seat[GREEN].keys);
        }

    od_state fellowship = new_game(2, OD_FELLOWSHIP);
    setup_plain(&fellowship);
    refusedf(&fellowship, "keys belong to adventure 4", "%s, buy blue key", fill2(&fellowship));
    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "%s, buy purple key", fill2(&fellowship));
    bad_notation(&fellowship, line, "a key is bought as `buy blue key`");
}

/* ---- adventure 5: troops, extraordinary companions, the result ---- */

/* A troop moves whole, or one colour of it (`only COLOUR`), moved by any seat in it
 * (OL-ENGINE-2); adventurers of any colours share a field. */
static void test_od_uprising_troops_move_whole_or_one_colour(void **state_)
{
    (void)state_;
    od_state s = troop_on_k7();
    pass_turn(&s);
    pass_turn(&s);
    refusedf(&s, "black has no adventurer on K7", "%s, K7 south 1 only black", fill2(&s));
    refusedf(&s, "only violet's own adventurer leaves row-2", "%s, row-2 east 1 only green",
             fill2(&s));
    playf(&s, "%s, K7 south 1 only orange", fill2(&s)); /* violet moves orange's part */
    assert_int_equal(at(&s, "K7")->adventurers[VIOLET], 1);
    assert_int_equal(at(&s, "K7")->adventurers[ORANGE], 0);
    assert_int_equal(at(&s, "K8")->adventurers[ORANGE], 1);
    pass_turn(&s);
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "%s, K7 south 1", fill2(&s)); /* violet joins orange */
    assert_int_equal(at(&s, "K8")->adventurers[VIOLET], 1);
    playf(&s, "%s, K8 south 1", fill2(&s)); /* orange moves the whole troop */
    assert_int_equal(at(&s, "K9")->adventurers[VIOLET], 1);
    assert_int_equal(at(&s, "K9")->adventurers[ORANGE], 1);
    assert_int_equal(od_fighters(&s, F("K8"), OD_NONE), 0);
}

/* Adventure 5 fights with up to 4 swords (the base game 3); collected by real turns: swords
 * turned under black on A1, A2, B1 and D2. */
static void test_od_uprising_fights_with_four_swords(void **state_)
{
    (void)state_;
    for (int adventure = OD_FELLOWSHIP; adventure <= OD_UPRISING; adventure += 4) {
        od_state s = adventure == OD_UPRISING ? uprising_game(2) : new_game(2, adventure);
        if (adventure != OD_UPRISING)
            setup_plain(&s);
        playf(&s, "%s, row-1 east 1, row-2 east 1", fill2(&s));
        pass_turn(&s);
        play(&s, "turn A1, turn A2, A1 east 1, A2 east 3");
        pass_turn(&s);
        play(&s, "turn B1, turn D2");
        if (adventure != OD_UPRISING)
            playf(&s, "turn D7 creature 10, %s", fill2(&s));
        else
            pass_turn(&s);
        assert_int_equal(s.seat[BLACK].swords, 4);
        const char *line = "%s, D2 south 5 fight swords 0 0 0 0 dice 1 1 1 1";
        if (adventure == OD_UPRISING) {
            playf(&s, line, fill2(&s)); /* 1 + 4 against 10: lost, but fought */
            assert_int_equal(s.seat[BLACK].swords, 0);
        } else {
            refusedf(&s, "4 swords: a fight takes 3 at most", line, fill2(&s));
        }
    }
}

/* 5 companions of an adventurer (or a troop) become one extraordinary companion, worth 5 in a
 * fight, in adventures 5 and 6 only: black collects H2, I2, J2, J3 and J8's. */
static void test_od_uprising_five_companions_make_an_extraordinary_one(void **state_)
{
    (void)state_;
    od_state s = uprising_game(4);
    play(&s, "turn H2, turn I2, row-2 east 8, H2 east 1");
    pass_turn(&s);
    pass_turn(&s);
    pass_turn(&s);
    refused(&s, "turn J2, turn J3, I2 east 1, J2 south 1, super J3",
            "5 companions on J3 make an extraordinary one, not 4");
    play(&s, "turn J2, turn J3, I2 east 1, J2 south 1");
    pass_turn(&s);
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "turn J8, %s, J3 south 5, super J8", fill1(&s, OD_NONE));
    assert_int_equal(at(&s, "J8")->companions[BLACK], 0);
    assert_int_equal(at(&s, "J8")->supers[BLACK], 1);
    assert_int_equal(s.supers, 5);
    assert_int_equal(od_fighters(&s, F("J8"), BLACK), 1 + 5);
    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "%s, super", fill2(&s));
    bad_notation(&s, line, "`super K7`");

    od_state fellowship = new_game(2, OD_FELLOWSHIP);
    setup_plain(&fellowship);
    refusedf(&fellowship, "extraordinary companions belong to adventures 5 and 6",
             "%s, super J8", fill2(&fellowship));
}

/* The seed (adventure 5): "échanger 5 frères d'armes accompagnant un aventurier ou une troupe"
 * - the 5 companions may be a troop's, of several colours. Violet (3) and orange (2) on K7:
 * a position set directly on the troop of troop_on_k7. */
static void test_od_uprising_a_troops_five_companions_make_an_extraordinary_one(void **state_)
{
    (void)state_;
    od_state s = troop_on_k7();
    put(&s, "K7", VIOLET, 0, 3);
    put(&s, "K7", ORANGE, 0, 2);
    check_invariants(&s);
    pass_turn(&s);
    pass_turn(&s);
    playf(&s, "%s, super K7", fill2(&s));
    const od_place *k7 = at(&s, "K7");
    assert_int_equal(k7->companions[VIOLET] + k7->companions[ORANGE], 0);
    assert_int_equal(k7->supers[VIOLET] + k7->supers[ORANGE], 1);
    assert_int_equal(od_fighters(&s, F("K7"), OD_NONE), 2 + 5);
}

/* The players win together when the last creature falls; the result is the number of cards
 * left (0 good, up to 7 very good, 8 or more excellent), every seat's score, all ranked 1. A
 * position set up directly: the 13 other creatures already gone, A6's 1 left. */
static void test_od_uprising_result_is_the_cards_left(void **state_)
{
    (void)state_;
    od_state s = uprising_game(3);
    for (int f = 0; f < OD_FIELDS; f++)
        if (f != F("A6"))
            s.places[f].creature = 0;
    check_invariants(&s);
    assert_int_equal(score_of(&s, BLACK), 0);
    playf(&s, "%s, column-A south 6 fight", fill2(&s)); /* 1 against 1 */
    assert_int_equal(s.phase, OD_PHASE_OVER);
    assert_int_equal(s.end, OD_END_VICTORY);
    assert_int_equal(s.deck, OD_FIELDS - OD_SETUP_CARDS - 2);
    int32_t scores[OD_MAX_SEATS], ranks[OD_MAX_SEATS];
    od_scores(&s, scores);
    od_ranks(&s, ranks);
    for (int seat = 0; seat < 3; seat++) {
        assert_int_equal(scores[seat], s.deck);
        assert_int_equal(ranks[seat], 1);
    }
}

/* The game ends when the last card is turned, after that turn's moves; creatures left on the
 * board: everybody loses (0). A position set up directly: every card turned but 3. */
static void test_od_uprising_ends_when_the_deck_runs_out(void **state_)
{
    (void)state_;
    od_state s = uprising_game(2);
    static const char *const last[] = {"G4", "G5", "H4"};
    for (int f = 0; f < OD_FIELDS; f++)
        s.turned[f] = 1;
    for (int i = 0; i < 3; i++) {
        int field = F(last[i]);
        if (field >= 0 && field < OD_FIELDS) /* G4..H4 are fields (GCC's -O3 cannot see it) */
            s.turned[field] = 0;
    }
    s.deck = 3;
    check_invariants(&s);
    play(&s, "turn G4, turn G5, column-A south 1");
    assert_int_equal(s.phase, OD_PHASE_TURN);
    refused(&s, "turn H4, turn G4", "the card G4 was turned already");
    play(&s, "turn H4, column-B south 1"); /* the last card, then the moves */
    assert_int_equal(s.deck, 0);
    assert_int_equal(s.phase, OD_PHASE_OVER);
    assert_int_equal(s.end, OD_END_DECK);
    assert_int_equal(score_of(&s, BLACK), 0);
    assert_int_equal(at(&s, "B1")->adventurers[GREEN], 1);
}

/* ---- adventure 6: free the king ---- */

static od_state king_game(int seats)
{
    od_state s = new_game(seats, OD_KING);
    setup_with(&s, base_creatures);
    return s;
}

/* No cards: everything is laid at the setup (herbs on forests, swords on mountains, gold on the
 * river, a companion on every city field), the creatures in the order turned up, the king on
 * the first of value 8. */
static void test_od_king_setup_lays_everything_and_the_king_on_the_first_8(void **state_)
{
    (void)state_;
    od_state s = king_game(3);
    for (int f = 0; f < OD_FIELDS; f++) {
        const od_place *p = &s.places[f];
        switch (s.board.terrain[f]) {
        case OD_FOREST: assert_int_equal(p->item, OD_ITEM_HERB); break;
        case OD_MOUNTAIN: assert_int_equal(p->item, OD_ITEM_SWORD); break;
        case OD_RIVER: assert_int_equal(p->item, OD_ITEM_GOLD); break;
        case OD_CITY: assert_int_equal(p->waiting, 1); break;
        default: assert_true(p->creature >= 8); break;
        }
    }
    assert_int_equal(s.herbs + s.swords + s.gold_stock + s.companions, 0);
    assert_int_equal(s.king, F("A6"));
    assert_int_equal(s.deck, 0);
    assert_int_equal(s.sprite, OD_NONE); /* beside the board, at row 7 */
    refused(&s, "turn A1", "adventure 6 is played without terrain cards");
    play(&s, "column-B south 1"); /* moves only, no card owed */
    assert_int_equal(s.seat[BLACK].swords, 1);
    play(&s, "pass");

    od_state other = new_game(2, OD_KING);
    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "setup creature D7 8, %s", base_creatures);
    char *a6 = strstr(line, "creature A6 8, ");
    memmove(a6, a6 + 15, strlen(a6 + 15) + 1);
    snprintf(line + strlen(line), sizeof line - strlen(line), ", creature A6 8");
    char *d7 = strstr(line + 20, "creature D7 8, ");
    memmove(d7, d7 + 15, strlen(d7 + 15) + 1);
    play(&other, line);
    assert_int_equal(other.king, F("D7"));
}

/* The king's guardian beaten: its laurel and 5 more at once, and the king goes to a creature of
 * the same value (`king FIELD`, the player choosing among several), else the nearest lower,
 * else the nearest higher (OL-ENGINE-7); when none is left the king is free. */
static void test_od_king_guardian_beaten_plus_5_and_the_king_moves_on(void **state_)
{
    (void)state_;
    od_state s = king_game(2);
    play(&s, "column-B south 1");
    play(&s, "column-C south 1");
    refused(&s, "column-A south 6 fight swords 3 dice 6",
            "the king goes to a creature of the same value, else the nearest (`king D7`");
    refused(&s, "column-A south 6 fight swords 3 dice 6 king K3", "`king D7`");
    od_state lost = s;
    play(&lost, "column-A south 6 fight swords 3 dice 1"); /* 5 against 8: the king stays */
    assert_int_equal(lost.king, F("A6"));
    assert_int_equal(lost.seat[BLACK].points, 0);
    play(&s, "column-A south 6 fight swords 3 dice 6 king E8");
    assert_int_equal(s.king, F("E8"));
    assert_int_equal(s.seat[BLACK].points, 4 + 5);
    assert_int_equal(s.seat[BLACK].laurels, 4);
    assert_int_equal(score_of(&s, BLACK), 9 + 7); /* and the most creatures, 7 */

    /* the nearest lower, then the nearest higher: creature values edited directly */
    int targets[OD_CREATURES];
    od_state g = s;
    at(&g, "E8")->creature = 12;  /* the king's guardian, now a 12 */
    at(&g, "D7")->creature = 0;
    at(&g, "C9")->creature = 0;
    int n = od_king_targets(&g, F("E8"), targets); /* 12s: G6, F7, I7 */
    assert_int_equal(n, 3);
    at(&g, "G6")->creature = at(&g, "F7")->creature = at(&g, "I7")->creature = 0;
    n = od_king_targets(&g, F("E8"), targets); /* no 12: the 10s, lower */
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i++)
        assert_int_equal(g.places[targets[i]].creature, 10);
    static const char *const tens[] = {"K3", "H5", "I5", "K5"};
    for (int i = 0; i < 4; i++)
        at(&g, tens[i])->creature = 0;
    n = od_king_targets(&g, F("E8"), targets); /* nothing lower: the 14s, higher */
    assert_int_equal(n, 2);
    assert_int_equal(g.places[targets[0]].creature, 14);

    /* the last creature: the king is free */
    od_state last = king_game(2);
    for (int f = 0; f < OD_FIELDS; f++)
        if (f != F("A6"))
            last.places[f].creature = 0; /* a position set directly: the others beaten */
    play(&last, "column-B south 1");
    play(&last, "pass");
    refused(&last, "column-A south 6 fight swords 3 dice 6 king D7",
            "the king is free: no creature is left to guard it");
    play(&last, "column-A south 6 fight swords 3 dice 6");
    assert_int_equal(last.king, OD_NONE);
}

/* Gold is carried by the adventurer that took it (not the seat), spent only in its fights, and
 * lost with it; when an adventurer leaves the river with gold the sprite follows to the field
 * it left, sweeping the fields on its way (OL-ENGINE-1). */
static void test_od_king_gold_carried_and_the_sprite_following_it(void **state_)
{
    (void)state_;
    od_state s = king_game(2);
    play(&s, "column-B south 7");
    assert_int_equal(at(&s, "B7")->gold[BLACK], 1);
    assert_int_equal(s.seat[BLACK].gold, 0);
    play(&s, "column-C south 1, column-B south 8"); /* C1's sword; over black to B8's gold */
    assert_int_equal(at(&s, "B8")->gold[GREEN], 1);
    assert_int_equal(od_sprite_field(&s), OD_NONE);
    refused(&s, "column-A south 6 fight gold 1 king D7", "black spends 1 gold and has 0 here");
    play(&s, "column-D south 1");
    play(&s, "B8 south 1"); /* green leaves the river with gold: the sprite comes to B8 */
    assert_int_equal(od_sprite_field(&s), F("B8"));
    assert_int_equal(od_fighters(&s, F("B7"), OD_NONE), 0); /* swept on the way, with its gold */
    assert_int_equal(adventurers(&s, BLACK), 9);
    assert_int_equal(at(&s, "B9")->gold[GREEN], 1);
    assert_int_equal(at(&s, "B9")->companions[GREEN], 1);
    play(&s, "D1 south 1");
    refused(&s, "B9 east 1 fight swords 3 dice 6 gold 2", "green spends 2 gold and has 1 here");
    play(&s, "B9 east 1 fight swords 3 dice 5 gold 1"); /* 2 + 8 + 1 against C9's 8 */
    assert_int_equal(at(&s, "C9")->creature, 0);
    assert_int_equal(at(&s, "C9")->gold[GREEN], 0);
    assert_int_equal(s.seat[GREEN].points, 4);
    int carried = 0; /* black's went with the sprite, green's was spent */
    for (int p = 0; p < OD_PLACES; p++)
        carried += s.places[p].gold[GREEN] + s.places[p].gold[BLACK];
    assert_int_equal(carried, 0);
}

/* In the capital an adventurer may end on another one if strictly stronger (adventurer,
 * companions and gold 1 each): the weaker goes to the first empty field north or west outside
 * the capital (the mover choosing, `displace north|west`; OL-ENGINE-7). */
/* Adventure 6, 2 players, green to play: black on J8 with a companion (strength 2), green on
 * J3 with two (3), by real turns. */
static od_state displacement_position(void)
{
    od_state s = king_game(2);
    play(&s, "row-1 east 10, J1 south 7"); /* J1's sword, J8's companion: strength 2 */
    assert_int_equal(at(&s, "J8")->companions[BLACK], 1);
    refused(&s, "row-2 east 10, J2 south 6 displace north", "green is not stronger than black");
    refused(&s, "row-2 east 1 displace north", "nobody to displace on A2");
    play(&s, "row-2 east 10, J2 south 1"); /* J2's and J3's companions: strength 3 */
    play(&s, "column-A south 1");
    return s;
}

static void test_od_king_displacement_in_the_capital(void **state_)
{
    (void)state_;
    od_state s = displacement_position();
    refused(&s, "J3 south 5", "displaces black: say where (`displace north` or `displace west`)");
    /* OL-ENGINE-7: the first field outside the capital nobody stands on, items or not */
    assert_int_equal(od_displaced_to(&s, F("J8"), OD_WEST), F("I8"));
    assert_int_equal(od_displaced_to(&s, F("J8"), OD_NORTH), F("J7"));
    int swords = s.seat[BLACK].swords;
    assert_int_equal(at(&s, "J7")->item, OD_ITEM_SWORD);
    play(&s, "J3 south 5 displace north");
    assert_int_equal(at(&s, "J8")->adventurers[GREEN], 1);
    assert_int_equal(at(&s, "J8")->companions[GREEN], 2);
    assert_int_equal(at(&s, "J8")->adventurers[BLACK], 0);
    assert_int_equal(at(&s, "J7")->adventurers[BLACK], 1);
    assert_int_equal(at(&s, "J7")->companions[BLACK], 1);
    assert_int_equal(s.seat[BLACK].swords, swords + 1); /* it takes what lay there */
    /* a start space when the column is full */
    assert_int_equal(od_displaced_to(&s, F("A1"), OD_NORTH), OD_START_COLUMN(0));
    assert_int_equal(od_displaced_to(&s, F("A2"), OD_WEST), OD_START_ROW(1));
}

/* The final sheet: creatures' laurels and the king's 5 (points), 10 for K10, and 7/3/1 for the
 * most creatures, adventurers, companions (an extraordinary one 5) and gold in the capital,
 * ties sharing the rank and the next rank skipped (1, 1, 3). A position set up directly. */
static void test_od_king_final_majorities_ties_and_k10(void **state_)
{
    (void)state_;
    od_state s = king_game(4);
    clear_board(&s);
    for (int f = 0; f < OD_FIELDS; f++)
        s.places[f].creature = 0;
    s.king = OD_NONE;
    static const char *const taken[] = {"K8", "K9", "J8", "K10"};
    for (int i = 0; i < 4; i++)
        at(&s, taken[i])->waiting = 0; /* taken by the adventurers that stand there */
    s.seat[BLACK].creatures = 3, s.seat[BLACK].points = 20;
    s.seat[GREEN].creatures = 3, s.seat[GREEN].points = 15;
    s.seat[VIOLET].creatures = 1, s.seat[VIOLET].points = 4;
    at(&s, "K8")->adventurers[BLACK] = 1, at(&s, "K8")->companions[BLACK] = 1;
    at(&s, "K9")->adventurers[BLACK] = 1;
    at(&s, "J8")->adventurers[GREEN] = 1, at(&s, "J8")->supers[GREEN] = 1;
    s.supers--;
    at(&s, "K10")->adventurers[VIOLET] = 1, at(&s, "K10")->gold[VIOLET] = 2;
    at(&s, "A7")->item = at(&s, "B7")->item = OD_ITEM_NONE; /* the gold violet carries */
    at(&s, "A1")->adventurers[ORANGE] = 1;
    check_invariants(&s);
    int32_t scores[OD_MAX_SEATS], ranks[OD_MAX_SEATS];
    od_scores(&s, scores);
    /* points, creatures, adventurers, companions, gold, K10 */
    assert_int_equal(scores[BLACK], 20 + 7 + 7 + 3 + 0);
    assert_int_equal(scores[GREEN], 15 + 7 + 3 + 7 + 0);
    assert_int_equal(scores[VIOLET], 4 + 1 + 3 + 0 + 7 + 10);
    assert_int_equal(scores[ORANGE], 0);
    od_ranks(&s, ranks);
    assert_int_equal(ranks[BLACK], 1);
    assert_int_equal(ranks[GREEN], 2);
    assert_int_equal(ranks[VIOLET], 3);
    assert_int_equal(ranks[ORANGE], 4);
}

/* The game ends at once when every creature is beaten and every field of the capital holds an
 * adventurer; not while a creature is left. A position set up directly: 11 capital fields
 * taken, the creatures gone, black on G9 above the last one, G10. */
static void test_od_king_ends_when_the_capital_is_full_and_the_creatures_beaten(void **state_)
{
    (void)state_;
    for (int creature_left = 0; creature_left <= 1; creature_left++) {
        od_state s = king_game(2);
        clear_board(&s);
        for (int f = 0; f < OD_FIELDS; f++)
            if (!creature_left || f != F("A6"))
                s.places[f].creature = 0;
        if (!creature_left)
            s.king = OD_NONE;
        static const char *const capital[] = {"K6", "K7", "K8", "K9", "K10", "J8",
                                              "J9", "J10", "I9", "I10", "H10"};
        for (int i = 0; i < 11; i++) {
            at(&s, capital[i])->waiting = 0;
            at(&s, capital[i])->adventurers[i < 6 ? BLACK : GREEN] = 1;
        }
        at(&s, "G9")->adventurers[BLACK] = 1;
        at(&s, "A1")->adventurers[GREEN] = 1;
        check_invariants(&s);
        play(&s, "G9 south 1");
        assert_int_equal(s.phase, creature_left ? OD_PHASE_TURN : OD_PHASE_OVER);
        if (!creature_left) {
            assert_int_equal(s.end, OD_END_VICTORY);
            /* K10, the most adventurers (7), the most companions (G10's) */
            assert_int_equal(score_of(&s, BLACK), 10 + 7 + 7);
        }
    }
}

/* ---- clauses that mean nothing where they are written ---- */

/* A clause the adventure gives no meaning must be refused, not ignored: the archive keeps the
 * line as written, so `turn D7 creature 10 to K7` in adventure 1 would record a creature
 * advancing that never did. */
static void test_od_notation_clauses_without_meaning_are_refused(void **state_)
{
    (void)state_;
    od_state s = new_game(2, OD_FELLOWSHIP);
    setup_plain(&s);
    playf(&s, "turn D1, %s, column-D south 1", fill1(&s, OD_NONE));
    pass_turn(&s);
    od_state before = s;
    od_line line;
    od_error error = {""};
    char text[LINE_LENGTH];
    snprintf(text, sizeof text, "turn D7 creature 10 to K7, %s", fill2(&s));
    assert_int_not_equal(od_play_line(&s, text, &line, &error), OD_OK);
    s = before;
    snprintf(text, sizeof text, "turn D7 creature 8, %s, D1 south 6 fight swords 3 dice 6 king A1",
             fill2(&s));
    assert_int_not_equal(od_play_line(&s, text, &line, &error), OD_OK);

    od_state uprising = uprising_game(2);
    snprintf(text, sizeof text, "turn I7 creature 16 to K7, %s", fill2(&uprising));
    assert_int_not_equal(od_play_line(&uprising, text, &line, &error), OD_OK);
}

/* ---- 3. random games ---- */

/* 300 random games over the 6 adventures and 2-4 players, played once and kept for the tests
 * of sections 3-6 (free_random_games, the group's teardown). */
#define RANDOM_GAMES 300

typedef struct random_game {
    int seats, adventure;
    uint64_t seed;
    test_lines lines;
    od_state final;
} random_game;

static random_game *games;

static void make_random_games(void)
{
    if (games)
        return;
    games = calloc(RANDOM_GAMES, sizeof *games);
    assert_non_null(games);
    for (int g = 0; g < RANDOM_GAMES; g++) {
        random_game *game = &games[g];
        game->adventure = 1 + g % 6;
        game->seats = 2 + (g / 6) % 3;
        game->seed = 9000u + (uint64_t)g;
        od_state s = new_game(game->seats, game->adventure);
        od_error error = {""};
        if (od_random_game(&s, game->seed, test_lines_collect, &game->lines, &error) != OD_OK)
            fail_msg("random game %d (adventure %d, %d players, seed %llu): %s", g,
                     game->adventure, game->seats, (unsigned long long)game->seed,
                     error.message);
        game->final = s;
    }
}

static int free_random_games(void **state_)
{
    (void)state_;
    if (games)
        for (int g = 0; g < RANDOM_GAMES; g++)
            test_lines_free(&games[g].lines);
    free(games);
    games = NULL;
    return 0;
}

/* ---- reconcile ---- */

/* Plays an explanation's steps on a copy of the state before (its fights carry their outcome
 * only, and cards left unseen are missing, so step by step) and tells whether the camera would
 * see what it saw. */
static bool explanation_leads_there(const od_state *before, const od_explanation *e,
                                    const od_observation *seen)
{
    od_state s = *before;
    od_error error;
    for (int i = 0; i < e->turn.steps; i++)
        if (od_step_apply(&s, &e->turn.step[i], &error) != OD_OK)
            return false;
    od_observation now;
    od_observe(&s, &now);
    return memcmp(&now, seen, sizeof now) == 0;
}

/* A turn whose two cards both show and whose move leaves its trace has one explanation: those
 * cards and that move; a board nobody touched is unchanged; an adventurer gone north is
 * explained by nothing. */
static void test_od_reconcile_a_plain_turn(void **state_)
{
    (void)state_;
    od_state s = new_game(2, OD_FELLOWSHIP);
    setup_plain(&s);
    od_state before = s;
    od_observation seen;
    od_reconcile_result result;
    od_observe(&s, &seen);
    od_reconcile(&before, &seen, &result);
    assert_int_equal(result.answer, OD_RECONCILE_UNCHANGED);

    char line[LINE_LENGTH];
    snprintf(line, sizeof line, "%s, row-2 east 2", fill2(&s));
    od_state two = s;
    play(&two, line);
    od_observe(&two, &seen);
    od_reconcile(&before, &seen, &result);
    /* two fields east: one move of 2 or two of 1, which the board cannot tell apart; the
     * fewer steps first */
    assert_int_equal(result.answer, OD_RECONCILE_AMBIGUOUS);
    assert_int_equal(result.count, 2);
    assert_int_equal(result.explanations[0].turn.steps, 3);
    assert_int_equal(result.explanations[1].turn.steps, 4);

    snprintf(line, sizeof line, "%s, row-2 east 1", fill2(&s));
    play(&s, line);
    od_observe(&s, &seen);
    od_reconcile(&before, &seen, &result);
    assert_int_equal(result.answer, OD_RECONCILE_EXPLAINED);
    assert_int_equal(result.explanations[0].unseen, 0);
    od_line explained = {.kind = OD_LINE_TURN, .turn = result.explanations[0].turn};
    char text[LINE_LENGTH];
    od_format(&before, &explained, text, sizeof text);
    assert_string_equal(text, line);

    seen.places[F("A2")].adventurers[BLACK] = 0; /* it went back to where it came from */
    seen.places[OD_START_ROW(1)].adventurers[BLACK] = 1;
    seen.places[F("A1")].adventurers[BLACK] = 1;
    od_reconcile(&before, &seen, &result);
    assert_int_equal(result.answer, OD_RECONCILE_NONE);
    assert_int_equal(result.count, 0);
}

/* On every turn of the random games: each explanation, played on the state before, shows the
 * board the turn left (reconcile never offers a turn that does not lead there), and the answer
 * agrees with the count. How often the turn played is among them is measured by
 * bench_odysseeland, not asserted. */
static void test_od_reconcile_explanations_lead_to_the_board_seen(void **state_)
{
    (void)state_;
    make_random_games();
    int turns = 0, explanations = 0;
    for (int g = 0; g < RANDOM_GAMES; g += 5) {
        od_state s = new_game(games[g].seats, games[g].adventure);
        for (int i = 0; i < games[g].lines.count; i++) {
            od_state before = s;
            od_line line;
            od_error error;
            assert_int_equal(od_play_line(&s, games[g].lines.lines[i], &line, &error), OD_OK);
            if (line.kind != OD_LINE_TURN)
                continue;
            od_observation seen;
            od_observe(&s, &seen);
            od_reconcile_result result;
            od_reconcile(&before, &seen, &result);
            turns++;
            assert_true(result.count <= OD_MAX_EXPLANATIONS);
            assert_true(result.answer != OD_RECONCILE_EXPLAINED || result.count == 1);
            assert_true(result.answer != OD_RECONCILE_AMBIGUOUS || result.count > 1);
            assert_true(result.answer != OD_RECONCILE_NONE || result.count == 0);
            for (int k = 0; k < result.count; k++) {
                explanations++;
                if (!explanation_leads_there(&before, &result.explanations[k], &seen))
                    fail_msg("game %d line %d (%s): explanation %d leads elsewhere", g, i + 1,
                             games[g].lines.lines[i], k);
            }
        }
    }
    print_message("reconcile: %d turns, %d explanations, each leading to the board seen\n",
                  turns, explanations);
}

/* Every random game ends; replayed line by line from a new game through od_play_line it keeps
 * od_verify's invariants after every line and reaches the same scores and ranks; the
 * princess's card is never turned. */
static void test_od_random_games_replayed_with_the_invariants(void **state_)
{
    (void)state_;
    make_random_games();
    int lines = 0, fights = 0, ends[OD_END_VICTORY + 1] = {0}, by_adventure[7] = {0};
    int giants_won = 0, uprisings_won = 0, kings_freed = 0, reveals = 0, supers = 0, keys = 0;
    for (int g = 0; g < RANDOM_GAMES; g++) {
        const random_game *game = &games[g];
        const od_state *played = &game->final;
        assert_int_equal(played->phase, OD_PHASE_OVER);
        assert_true(played->end != OD_END_NONE);
        od_state s = new_game(game->seats, game->adventure);
        for (int i = 0; i < game->lines.count; i++) {
            const char *text = game->lines.lines[i];
            od_line parsed;
            od_error error = {""};
            if (od_play_line(&s, text, &parsed, &error) != OD_OK)
                fail_msg("game %d (seed %llu), line %d '%s': %s", g,
                         (unsigned long long)game->seed, i + 1, text, error.message);
            char message[200] = "";
            if (!od_verify(&s, message, sizeof message))
                fail_msg("game %d (seed %llu), after line %d '%s': %s", g,
                         (unsigned long long)game->seed, i + 1, text, message);
            lines++;
            fights += strstr(text, "fight") != NULL;
            reveals += parsed.kind == OD_LINE_REVEAL;
            supers += strstr(text, "super") != NULL;
            keys += strstr(text, "buy") != NULL;
        }
        assert_int_equal(s.phase, OD_PHASE_OVER);
        assert_int_equal(s.end, played->end);
        int32_t a[OD_MAX_SEATS], b[OD_MAX_SEATS];
        od_scores(played, a);
        od_scores(&s, b);
        assert_memory_equal(a, b, sizeof(int32_t) * (size_t)game->seats);
        od_ranks(played, a);
        od_ranks(&s, b);
        assert_memory_equal(a, b, sizeof(int32_t) * (size_t)game->seats);
        if (game->adventure == OD_PRINCESS) {
            assert_true(played->princess >= 0 && played->princess < OD_FIELDS);
            assert_false(played->turned[played->princess]);
            giants_won += played->end == OD_END_PRINCESS;
        }
        uprisings_won += game->adventure == OD_UPRISING && played->end == OD_END_VICTORY;
        kings_freed += game->adventure == OD_KING && played->king == OD_NONE;
        ends[played->end]++;
        by_adventure[game->adventure]++;
        refused(&s, "pass", "the game is over");
    }
    print_message("%d random games, %d lines, %d with a fight, %d reveals, %d supers, %d keys "
                  "bought; ended: %d stock or deck, %d stuck, %d deck (5), %d princess, %d "
                  "victory; giant beaten %d, uprisings won %d, kings freed %d\n",
                  RANDOM_GAMES, lines, fights, reveals, supers, keys, ends[OD_END_STOCK],
                  ends[OD_END_STUCK], ends[OD_END_DECK], ends[OD_END_PRINCESS],
                  ends[OD_END_VICTORY], giants_won, uprisings_won, kings_freed);
    for (int adventure = OD_FELLOWSHIP; adventure <= OD_KING; adventure++)
        assert_int_equal(by_adventure[adventure], RANDOM_GAMES / 6);
    assert_true(fights > 0 && reveals > 0 && supers > 0 && keys > 0);
}

/* ---- 4. the notation's round trip ---- */

/* Every line of the random games, parsed before it is played, formats back to the same text;
 * that text parses to the same od_line. */
static void test_od_notation_round_trip_of_every_random_line(void **state_)
{
    (void)state_;
    make_random_games();
    int checked = 0;
    static od_line line, again;
    for (int g = 0; g < RANDOM_GAMES; g++) {
        od_state s = new_game(games[g].seats, games[g].adventure);
        for (int i = 0; i < games[g].lines.count; i++) {
            const char *text = games[g].lines.lines[i];
            od_error error = {""};
            if (od_parse(&s, text, &line, &error) != OD_OK)
                fail_msg("'%s' does not parse: %s", text, error.message);
            char formatted[LINE_LENGTH], formatted_again[LINE_LENGTH];
            size_t length = od_format(&s, &line, formatted, sizeof formatted);
            assert_true(length < sizeof formatted);
            assert_int_equal(length, strlen(formatted));
            assert_string_equal(formatted, text);
            assert_int_equal(od_parse(&s, formatted, &again, &error), OD_OK);
            od_format(&s, &again, formatted_again, sizeof formatted_again);
            assert_string_equal(formatted_again, formatted);
            assert_memory_equal(&line, &again, sizeof line);
            play(&s, text);
            checked++;
        }
    }
    print_message("round trip: %d lines\n", checked);
    assert_true(checked > 1000);
}

/* ---- 5. legal moves ---- */

/* The moves of a turn come after its cards, and od_apply plays a whole turn at once; so a
 * position is taken inside a real turn of a random game: the steps of that turn before its
 * first (or second) move are applied to a copy with od_step_apply, as the random player does,
 * and od_legal_moves is asked there. Each move it lists is then played as a line (the same
 * steps, formatted, then the move, its fight with nothing spent: `fight`) from the state
 * before the turn and must be accepted; and every move a brute force builds (each place of
 * the seat to play, south and east, every distance, with `only COLOUR` in a troop and
 * `displace north|west` onto an occupied capital field) is accepted exactly when listed. Giant
 * fights are left out: they need the princess's field, which only a random game knows. */
typedef struct move_key {
    int place, direction, distance, seat, displace;
} move_key;

static move_key key_of(const od_step *m)
{
    return (move_key){m->place, m->direction, m->distance, m->seat, m->displace};
}

static bool same_key(move_key a, move_key b)
{
    return a.place == b.place && a.direction == b.direction && a.distance == b.distance &&
           a.seat == b.seat && a.displace == b.displace;
}

/* Plays the prefix steps then the move, as one line, on a copy of before. */
static od_status try_move(const od_state *before, const od_turn *prefix, const od_step *move,
                          char *text, size_t size, od_error *error)
{
    static od_line line;
    memset(&line, 0, sizeof line);
    line.kind = OD_LINE_TURN;
    line.seat = OD_NONE;
    line.turn = *prefix;
    line.turn.step[line.turn.steps++] = *move;
    od_format(before, &line, text, size);
    od_state s = *before;
    od_status status = od_play_line(&s, text, NULL, error);
    if (status == OD_OK)
        check_invariants(&s);
    return status;
}

/* The king's next field when a move fights its guardian (any: the fight is won or lost). */
static void name_the_king(const od_state *s, od_step *move)
{
    int dest = od_destination(move->place, move->direction, move->distance);
    if (move->fights && s->config.adventure == OD_KING && dest == s->king) {
        int targets[OD_CREATURES];
        move->fight.king = od_king_targets(s, dest, targets) ? targets[0] : OD_NONE;
    }
}

static int legal_positions, legal_listed, brute_tried, troop_parts, displacements;

static void check_legal_moves(const od_state *before, const od_turn *prefix)
{
    od_state scratch = *before;
    for (int i = 0; i < prefix->steps; i++)
        if (od_step_apply(&scratch, &prefix->step[i], NULL) != OD_OK)
            fail_msg("a step of a random game's own turn is refused");
    if (scratch.phase != OD_PHASE_TURN)
        return;
    static od_step moves[OD_MAX_MOVES];
    int n = od_legal_moves(&scratch, moves, OD_MAX_MOVES);
    assert_true(n <= OD_MAX_MOVES);
    static move_key listed[OD_MAX_MOVES];
    int count = 0;
    char text[LINE_LENGTH];
    for (int i = 0; i < n; i++) {
        if (moves[i].giant)
            continue;
        assert_int_equal(moves[i].kind, OD_STEP_MOVE);
        assert_int_equal(moves[i].fight.contributors, 0);
        for (int j = 0; j < count; j++)
            assert_false(same_key(listed[j], key_of(&moves[i])));
        listed[count++] = key_of(&moves[i]);
        od_step move = moves[i];
        name_the_king(&scratch, &move);
        od_error error = {""};
        if (try_move(before, prefix, &move, text, sizeof text, &error) != OD_OK)
            fail_msg("'%s' is listed but refused: %s", text, error.message);
        legal_listed++;
    }
    int seat = scratch.active, accepted = 0;
    for (int place = 0; place < OD_PLACES; place++) {
        const od_place *p = &scratch.places[place];
        if (!p->adventurers[seat])
            continue;
        int parts[OD_MAX_SEATS + 1] = {OD_NONE}, part_count = 1, colours = 0;
        for (int o = 0; o < scratch.config.seats; o++)
            colours += p->adventurers[o] > 0;
        if (colours > 1 && place < OD_FIELDS)
            for (int o = 0; o < scratch.config.seats; o++)
                if (p->adventurers[o])
                    parts[part_count++] = o;
        for (int direction = OD_SOUTH; direction <= OD_EAST; direction++)
            for (int distance = 1; distance <= 11; distance++) {
                int dest = od_destination(place, direction, distance);
                if (dest == OD_NONE)
                    continue;
                const od_place *d = &scratch.places[dest];
                bool occupied = od_fighters(&scratch, dest, OD_NONE) > 0 &&
                                scratch.config.adventure == OD_KING &&
                                scratch.board.city[dest] == OD_CAPITAL;
                for (int k = 0; k < part_count; k++)
                    for (int v = 0; v < (occupied ? 2 : 1); v++) {
                        od_step move = {.kind = OD_STEP_MOVE, .place = place,
                                        .direction = direction, .distance = distance,
                                        .seat = parts[k], .target = OD_NONE, .key = OD_NONE,
                                        .displace = occupied ? OD_NORTH + v : OD_NONE,
                                        .fights = d->creature != 0,
                                        .fight = {.king = OD_NONE}};
                        name_the_king(&scratch, &move);
                        bool is_listed = false;
                        for (int j = 0; j < count; j++)
                            is_listed |= same_key(listed[j], key_of(&move));
                        brute_tried++;
                        od_error error = {""};
                        bool ok = try_move(before, prefix, &move, text, sizeof text, &error) ==
                                  OD_OK;
                        if (ok && !is_listed)
                            fail_msg("'%s' is accepted but not listed", text);
                        accepted += ok;
                        troop_parts += ok && move.seat != OD_NONE;
                        displacements += ok && move.displace != OD_NONE;
                    }
            }
    }
    assert_int_equal(accepted, count);
    legal_positions++;
}

static void test_od_legal_moves_in_random_positions(void **state_)
{
    (void)state_;
    make_random_games();
    legal_positions = legal_listed = brute_tried = troop_parts = displacements = 0;
    int by_adventure[7] = {0};
    static od_line line;
    for (int g = 0; g < RANDOM_GAMES && legal_positions < 200; g++) {
        od_state s = new_game(games[g].seats, games[g].adventure);
        int positions = legal_positions;
        for (int i = 0; i < games[g].lines.count && legal_positions < positions + 2; i++) {
            const char *text = games[g].lines.lines[i];
            assert_int_equal(od_parse(&s, text, &line, NULL), OD_OK);
            if (line.kind == OD_LINE_TURN && s.phase == OD_PHASE_TURN &&
                i % 13 == 1 + g % 11) {
                /* before the first move, and before the second when there is one */
                od_turn prefix = {0};
                for (int k = 0, moves = 0; k <= line.turn.steps; k++) {
                    bool end = k == line.turn.steps;
                    if (end || line.turn.step[k].kind == OD_STEP_MOVE) {
                        if (!end || moves == 0)
                            check_legal_moves(&s, &prefix);
                        if (end || ++moves == 2)
                            break;
                    }
                    prefix.step[prefix.steps++] = line.turn.step[k];
                }
            }
            play(&s, text);
        }
        by_adventure[games[g].adventure] += legal_positions - positions;
    }
    print_message("legal moves: %d positions (adventures 1-6: %d %d %d %d %d %d), %d moves "
                  "listed and played, %d brute-force moves tried (%d moves of a troop's part, %d "
                  "displacing)\n", legal_positions, by_adventure[1], by_adventure[2],
                  by_adventure[3], by_adventure[4], by_adventure[5], by_adventure[6],
                  legal_listed, brute_tried, troop_parts, displacements);
    assert_true(legal_positions >= 200);
    for (int adventure = OD_FELLOWSHIP; adventure <= OD_KING; adventure++)
        assert_true(by_adventure[adventure] > 10);
    assert_true(legal_listed > 1000);
}

/* The same check on positions the random games seldom reach: a displacement in the capital
 * (adventure 6), a troop of two colours (adventure 5), a group (adventure 2), the sprite
 * jumped (adventure 4). */
static void check_legal_moves_after(const od_state *before, const char *cards)
{
    static od_line line;
    od_error error = {""};
    if (od_parse(before, cards, &line, &error) != OD_OK)
        fail_msg("'%s': %s", cards, error.message);
    check_legal_moves(before, &line.turn);
}

/* Whether od_legal_moves lists `text` (a move line) after the cards. */
static bool listed_move(const od_state *before, const char *cards, const char *text)
{
    static od_line line, move;
    assert_int_equal(od_parse(before, cards, &line, NULL), OD_OK);
    assert_int_equal(od_parse(before, text, &move, NULL), OD_OK);
    od_state scratch = *before;
    for (int i = 0; i < line.turn.steps; i++)
        assert_int_equal(od_step_apply(&scratch, &line.turn.step[i], NULL), OD_OK);
    static od_step moves[OD_MAX_MOVES];
    int n = od_legal_moves(&scratch, moves, OD_MAX_MOVES);
    for (int i = 0; i < n; i++)
        if (same_key(key_of(&moves[i]), key_of(&move.turn.step[0])) &&
            moves[i].fights == move.turn.step[0].fights)
            return true;
    return false;
}

static void test_od_legal_moves_in_positions_set_up_by_play(void **state_)
{
    (void)state_;
    legal_positions = legal_listed = brute_tried = troop_parts = displacements = 0;
    od_state s = displacement_position();
    check_legal_moves_after(&s, "pass");
    assert_true(listed_move(&s, "pass", "J3 south 5 displace north"));
    assert_true(listed_move(&s, "pass", "J3 south 5 displace west"));
    assert_int_equal(displacements, 2);

    s = troop_on_k7();
    pass_turn(&s);
    pass_turn(&s);
    char cards[40];
    snprintf(cards, sizeof cards, "%s", fill2(&s));
    check_legal_moves_after(&s, cards);
    assert_true(listed_move(&s, cards, "K7 south 1 only orange"));
    assert_true(listed_move(&s, cards, "K7 south 3"));
    assert_false(listed_move(&s, cards, "K7 south 1 only black"));
    assert_int_equal(troop_parts, 2 * 3); /* violet's and orange's parts, K8-K10 */

    s = new_game(2, OD_MAGNIFICENT);
    setup_plain(&s);
    playf(&s, "turn B5, %s, column-B south 5, row-5 east 2", fill1(&s, OD_NONE));
    pass_turn(&s);
    snprintf(cards, sizeof cards, "%s", fill2(&s));
    check_legal_moves_after(&s, cards);
    assert_true(listed_move(&s, cards, "row-4 east 1"));
    assert_true(listed_move(&s, cards, "B5 south 5"));

    s = new_game(2, OD_PRINCESS);
    setup_plain(&s);
    playf(&s, "%s, column-B south 6", fill2(&s));
    playf(&s, "turn B7, %s", fill1(&s, OD_NONE));
    snprintf(cards, sizeof cards, "%s", fill2(&s));
    check_legal_moves_after(&s, cards);
    assert_true(listed_move(&s, cards, "B6 south 2"));
    assert_false(listed_move(&s, cards, "B6 south 1"));
    assert_int_equal(legal_positions, 4);
}

/* ---- 6. a fuzz of the notation ---- */

/* 50,000 lines of random games mutated (bits flipped, cut short, a clause doubled, words of the
 * grammar put in or taken out): nothing crashes; a line is accepted (and the invariants hold,
 * its canonical text fits a line) or refused with a one-line message and the state as it
 * was. */
static const char *const vocabulary[] = {
    "turn", "fight", "swords", "sword", "dice", "die", "herbs", "herb", "gold", "rerolls",
    "reroll", "king", "creature", "to", "only", "displace", "north", "west", "south", "east",
    "giant", "buy", "key", "blue", "red", "grey", "green", "yellow", "super", "setup",
    "reveal", "pass", "black", "violet", "orange", "black:", "green:", "row-1", "row-5",
    "column-A", "column-E", "A1", "K10", "D7", "I7", "K5", "E9", "J8", "L3", "A0", "A11",
    "0", "1", "2", "3", "4", "5", "6", "7", "10", "12", "16", "99", "255", "256", "999",
    "1000", "-1", ",", ", ,", "#", "::", "\t", "",
};

typedef struct fuzz_base {
    od_state state;
    char line[LINE_LENGTH];
} fuzz_base;

static int fuzz_accepted, fuzz_refused;

static void fuzz_one(const od_state *base, const char *text)
{
    static od_line line;
    od_error error = {""};
    od_status status = od_parse(base, text, &line, &error);
    if (status != OD_OK && status != OD_BAD_NOTATION)
        fail_msg("od_parse('%s') returned %d", text, status);
    if (status == OD_OK) {
        char canonical[LINE_LENGTH];
        size_t length = od_format(base, &line, canonical, sizeof canonical);
        if (length >= sizeof canonical)
            fail_msg("'%s': its canonical text needs %zu characters", text, length);
    }
    od_state s = *base;
    od_error play_error = {""};
    if (od_play_line(&s, text, &line, &play_error) != OD_OK) {
        if (memcmp(&s, base, sizeof s) != 0)
            fail_msg("'%s' refused (%s) but the state changed", text, play_error.message);
        if (!play_error.message[0] || strchr(play_error.message, '\n'))
            fail_msg("'%s' refused with the message '%s'", text, play_error.message);
        fuzz_refused++;
        return;
    }
    check_invariants(&s);
    fuzz_accepted++;
}

/* Appends text to out (size LINE_LENGTH) if it fits. */
static void append(char *out, const char *text, size_t n)
{
    size_t length = strlen(out);
    if (length + n < LINE_LENGTH - 1) {
        memcpy(out + length, text, n);
        out[length + n] = '\0';
    }
}

static void mutate(char *text, uint64_t *rng)
{
    size_t length = strlen(text);
    char out[LINE_LENGTH] = "";
    switch (below(rng, 6)) {
    case 0: /* bits flipped */
        for (int e = 0, edits = 1 + below(rng, 3); e < edits && length; e++) {
            size_t at_ = (size_t)below(rng, (int)length);
            text[at_] = (char)(text[at_] ^ (1 << below(rng, 8)));
            length = strlen(text);
        }
        return;
    case 1: /* cut short */
        if (length)
            text[below(rng, (int)length)] = '\0';
        return;
    case 2: { /* a clause doubled */
        const char *clauses[64];
        size_t lengths[64];
        int n = 0;
        for (const char *c = text; n < 64;) {
            const char *comma = strchr(c, ',');
            clauses[n] = c;
            lengths[n++] = comma ? (size_t)(comma - c) : strlen(c);
            if (!comma)
                break;
            c = comma + 1;
        }
        int twice = below(rng, n);
        for (int i = 0; i < n; i++) {
            if (i)
                append(out, ",", 1);
            append(out, clauses[i], lengths[i]);
            if (i == twice) {
                append(out, ",", 1);
                append(out, clauses[i], lengths[i]);
            }
        }
        break;
    }
    default: { /* words of the grammar put in, one taken out */
        const char *words[200];
        size_t lengths[200];
        int n = 0;
        for (const char *c = text; *c && n < 200;) {
            while (*c == ' ')
                c++;
            if (!*c)
                break;
            const char *end = c;
            while (*end && *end != ' ')
                end++;
            words[n] = c;
            lengths[n++] = (size_t)(end - c);
            c = end;
        }
        int drop = below(rng, 3) == 0 && n ? below(rng, n) : -1;
        int insert = below(rng, n + 1);
        const char *word = vocabulary[below(rng, (int)(sizeof vocabulary / sizeof *vocabulary))];
        for (int i = 0; i <= n; i++) {
            if (i == insert) {
                append(out, word, strlen(word));
                append(out, " ", 1);
            }
            if (i < n && i != drop) {
                append(out, words[i], lengths[i]);
                append(out, " ", 1);
            }
        }
        break;
    }
    }
    snprintf(text, LINE_LENGTH, "%s", out);
}

static void test_od_notation_fuzz(void **state_)
{
    (void)state_;
    make_random_games();
    enum { BASES = 1200, LINES = 50000 };
    fuzz_base *bases = malloc(sizeof *bases * BASES);
    assert_non_null(bases);
    int count = 0;
    for (int g = 0; g < RANDOM_GAMES && count < BASES; g += 5) {
        od_state s = new_game(games[g].seats, games[g].adventure);
        for (int i = 0; i < games[g].lines.count && count < BASES; i++) {
            if (i < 3 || i % 4 == 0 || i == games[g].lines.count - 1) {
                bases[count].state = s;
                snprintf(bases[count].line, LINE_LENGTH, "%s", games[g].lines.lines[i]);
                count++;
            }
            play(&s, games[g].lines.lines[i]);
        }
    }
    fuzz_accepted = fuzz_refused = 0;
    uint64_t rng = 50000;
    char text[LINE_LENGTH];
    for (int i = 0; i < LINES; i++) {
        const fuzz_base *base = &bases[below(&rng, count)];
        snprintf(text, sizeof text, "%s", base->line);
        for (int m = 0, mutations = 1 + below(&rng, 3); m < mutations; m++)
            mutate(text, &rng);
        fuzz_one(&base->state, text);
    }
    print_message("fuzz: %d mutated lines from %d, %d accepted, %d refused\n", LINES, count,
                  fuzz_accepted, fuzz_refused);
    assert_int_equal(fuzz_accepted + fuzz_refused, LINES);
    assert_true(fuzz_accepted > 0 && fuzz_refused > LINES / 2);
    free(bases);
}

/* ==== MAIN ==== */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_od_example_base_turn_companion_creature_and_extra_card),
        cmocka_unit_test(test_od_example_fight_of_eleven_made_fifteen_with_an_herb),
        cmocka_unit_test(test_od_example_adventure2_score_sheet_of_61),
        cmocka_unit_test(test_od_example_adventure3_score_sheet_of_34),
        cmocka_unit_test(test_od_example_giant_beaten_with_exactly_30),
        cmocka_unit_test(test_od_giant_needs_five_keys_and_the_laurels),
        cmocka_unit_test(test_od_giant_laurels_count_without_anything_spent),
        cmocka_unit_test(test_od_colossal_giant_strength_and_four_swords),
        cmocka_unit_test(test_od_princess_keys_bought_with_gold),
        cmocka_unit_test(test_od_example_uprising_advance_targets_i7_k5_g6),
        cmocka_unit_test(test_od_example_uprising_i7_removes_the_companion_on_k7),
        cmocka_unit_test(test_od_example_uprising_k5_troop_fights_together),
        cmocka_unit_test(test_od_setup_adventurers_and_stocks_by_player_count),
        cmocka_unit_test(test_od_setup_eight_cards_and_one_more_per_fog_card),
        cmocka_unit_test(test_od_turn_two_cards_and_one_more_per_fog_card_before_the_moves),
        cmocka_unit_test(test_od_move_only_south_or_east_from_the_seats_start_spaces),
        cmocka_unit_test(test_od_move_jumps_pieces_and_items_not_creatures_or_the_sprite),
        cmocka_unit_test(test_od_items_taken_on_arrival_and_under_an_adventurer),
        cmocka_unit_test(test_od_sprite_sweeps_the_course_both_ways),
        cmocka_unit_test(test_od_fight_checks_what_is_spent),
        cmocka_unit_test(test_od_fight_a_creature_turned_up_under_an_adventurer),
        cmocka_unit_test(test_od_end_when_companions_and_swords_run_out_the_round_finishes),
        cmocka_unit_test(test_od_end_when_the_deck_runs_out),
        cmocka_unit_test(test_od_end_when_no_adventurer_can_move),
        cmocka_unit_test(test_od_fellowship_scores_companions_and_gold_at_once),
        cmocka_unit_test(test_od_magnificent_groups_of_one_colour),
        cmocka_unit_test(test_od_princess_keys_by_figures_in_a_city),
        cmocka_unit_test(test_od_uprising_troops_move_whole_or_one_colour),
        cmocka_unit_test(test_od_uprising_fights_with_four_swords),
        cmocka_unit_test(test_od_uprising_five_companions_make_an_extraordinary_one),
        cmocka_unit_test(test_od_uprising_a_troops_five_companions_make_an_extraordinary_one),
        cmocka_unit_test(test_od_uprising_result_is_the_cards_left),
        cmocka_unit_test(test_od_uprising_ends_when_the_deck_runs_out),
        cmocka_unit_test(test_od_king_setup_lays_everything_and_the_king_on_the_first_8),
        cmocka_unit_test(test_od_king_guardian_beaten_plus_5_and_the_king_moves_on),
        cmocka_unit_test(test_od_king_gold_carried_and_the_sprite_following_it),
        cmocka_unit_test(test_od_king_displacement_in_the_capital),
        cmocka_unit_test(test_od_king_final_majorities_ties_and_k10),
        cmocka_unit_test(test_od_king_ends_when_the_capital_is_full_and_the_creatures_beaten),
        cmocka_unit_test(test_od_notation_clauses_without_meaning_are_refused),
        cmocka_unit_test(test_od_random_games_replayed_with_the_invariants),
        cmocka_unit_test(test_od_notation_round_trip_of_every_random_line),
        cmocka_unit_test(test_od_legal_moves_in_random_positions),
        cmocka_unit_test(test_od_legal_moves_in_positions_set_up_by_play),
        cmocka_unit_test(test_od_notation_fuzz),
        cmocka_unit_test(test_od_reconcile_a_plain_turn),
        cmocka_unit_test(test_od_reconcile_explanations_lead_to_the_board_seen),
    };
    return cmocka_run_group_tests(tests, setup_board, free_random_games);
}
