/*
 * Odyssée-land (RULES.md §4; the expansion "Roi et Princesse" in seeds/004): adventurers cross
 * an 11x10 board south and east, pick up herbs, swords, gold and companions, and fight the fog
 * creatures; one of six adventures sets the goal and the scoring.
 *
 *   od_board (data: terrain, cities, the river's course, start spaces) ─▶ od_board_check
 *                                                                            │
 *   od_init(config, board) ─▶ od_state (a value, the board copied in) ◀──────┘
 *        │
 *        ├─ od_apply(od_turn) ◀─ od_parse (notation)   one line = one turn, or the setup
 *        ├─ od_legal_moves                            (the moves the seat to play may make)
 *        ├─ od_scores, od_ranks                       (running and final)
 *        ├─ od_observe ─▶ od_observation              (what a camera sees on the board)
 *        └─ od_reconcile(observation) ─▶ explanations (which turns lead there)
 *
 * Hidden information: the deck's order, the values of face-down herbs and swords, the dice,
 * the princess's field (adventure 4). Players enter what they turn, roll and spend; the engine
 * checks what it can (a card not yet turned, a creature still in the stack, a die 1-6, an herb
 * 2-4, a sword 0-3, the number of swords) and computes every sum and outcome itself. In a random
 * game the engine knows everything, and checks it too.
 *
 * Decisions this engine takes where RULES.md and the seed are silent (OL-ENGINE-n in the code):
 *   1. The water sprite travels along the river's course (the board file's order) towards the
 *      field it is sent to, in whichever direction that is, and sweeps every field it enters,
 *      the last one included: adventurers and their companions there leave the game (gold
 *      lying on those fields stays). It starts beside the board, before the course's first
 *      field.
 *   2. A group (adventure 2) or a troop (adventure 5) moves whole, or one colour of a troop
 *      with its own companions; a group never splits.
 *   3. The game ends (adventures 1-3) when neither companions nor swords are left in stock,
 *      after the round is finished (seat 0 would play next); at once when no adventurer can
 *      move. A card that would place an item the stock no longer has places nothing.
 *   4. Ties in a ranking (adventures 3 and 6) share the rank, and the next rank is skipped
 *      (1, 1, 3: the seed says so for adventure 6). A seat with none of what is counted is not
 *      ranked.
 *   5. Adventure 4: the princess's card is the first card of the deck, never turned. The game
 *      ends with the giant's victory when the ordinary end (3) comes first. Buying a key is a
 *      step of one's own turn, any number of times; keys are 4 of each colour.
 *   6. Adventure 5: the 14 extraordinary creatures' combat values are entered at setup (their
 *      print is not in the seed); a creature that cannot advance straight is placed on any
 *      field of the capital or the city of 5 without a creature. Adventurers of any colours
 *      share a field; a troop's companions pool for an extraordinary one, which joins the seat
 *      that made it. The result is the number of cards left when the last creature falls:
 *      0 good, 1-7 very good, 8 or more excellent (the seed says "up to 4" and "8 or more").
 *   7. Adventure 6: the king's next guardian has the same combat value, else the nearest lower,
 *      else the nearest higher; a displaced adventurer goes to the first free field (no
 *      adventurer, creature or sprite; it takes what lies there) outside the capital straight
 *      north or straight west, the active seat choosing, else to the start space of that column
 *      or row. An extraordinary companion counts 5 in strength too. The sprite follows gold
 *      that leaves the river, not gold moving along it. The game also ends when no adventurer
 *      can move.
 *   8. Adventure 2's herbs and swords are scored by their values, entered at the end
 *      (`reveal`); until then they count 0.
 *
 * Everything here is libc only, allocates nothing, and does no I/O.
 */
#ifndef TS_ODYSSEELAND_H
#define TS_ODYSSEELAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OD_GAME_ID "odysseeland" /* its id in the game table, the archive and observations */
#define OD_MAX_SEATS 4
#define OD_COLOUR_MAX 16
#define OD_COLUMNS 11              /* A..K */
#define OD_ROWS 10                 /* 1..10 */
#define OD_FIELDS 110
#define OD_START_SPACES 10         /* in front of rows 1-5, above columns A-E */
#define OD_PLACES (OD_FIELDS + OD_START_SPACES)
#define OD_CITIES 5
#define OD_CREATURES 14
#define OD_SETUP_CARDS 8
#define OD_ID_MAX 32
#define OD_NONE (-1)

/* Places: field row r (0..9), column c (0..10) is r * 11 + c; the start space in front of
 * row r (0..4) is OD_FIELDS + r, the one above column c (0..4) is OD_FIELDS + 5 + c. */
#define OD_FIELD(row, column) ((row) * OD_COLUMNS + (column))
#define OD_START_ROW(row) (OD_FIELDS + (row))
#define OD_START_COLUMN(column) (OD_FIELDS + 5 + (column))

typedef enum { OD_CITY, OD_MOUNTAIN, OD_FOREST, OD_RIVER, OD_FOG, OD_TERRAINS } od_terrain;

/* The cities by size: the key colours of adventure 4 name them. */
typedef enum { OD_CAPITAL, OD_CITY6, OD_CITY5, OD_CITY4, OD_CITY3 } od_city;

/* "city", "mountain", ...; NULL out of range. */
const char *od_terrain_name(int terrain);
/* "A1".."K10" for fields, "row-1".."row-5", "column-A".."column-E" for start spaces. */
void od_place_name(int place, char out[12]);
/* The place a name gives, or OD_NONE. Accepts "A1" and "a1". */
int od_place_parse(const char *text, size_t length);

/* ---- the board ---- */

typedef struct od_board {
    char id[OD_ID_MAX];
    uint8_t terrain[OD_FIELDS];      /* od_terrain */
    int8_t city[OD_FIELDS];          /* od_city for city fields, OD_NONE elsewhere */
    uint8_t river[OD_FIELDS];        /* the river's course: field indices, river_length of them */
    int river_length;
    /* derived by od_board_check */
    int8_t river_index[OD_FIELDS];   /* a field's position on the course, OD_NONE off it */
    uint8_t city_size[OD_CITIES];
} od_board;

/* The counts the components fix: one card per field, one item per card. */
#define OD_CITY_FIELDS 30
#define OD_MOUNTAIN_FIELDS 28
#define OD_FOREST_FIELDS 20
#define OD_RIVER_FIELDS 18
#define OD_FOG_FIELDS 14

/* Checks a board whose id, terrain, city (for city fields: which city) and river (the course)
 * are filled, and derives the rest: terrain counts 30/28/20/18/14; cities connected, of 12, 6,
 * 5, 4 and 3 fields (the capital is the one of 12, around K10); the course covers every river
 * field once, each next to the one before, and enters from the left edge. False with one line
 * naming the field or city in message. */
bool od_board_check(od_board *board, char *message, size_t size);

/* Keeps a checked copy of the board in a small table for the game-agnostic engine
 * (rules_options.board); returns its handle (1..), or 0 when the board fails od_board_check,
 * the table is full, or another board has the same id. Set up once at start-up. */
int od_board_add(const od_board *board);
const od_board *od_board_get(int handle);

/* ---- configuration ---- */

typedef enum {
    OD_FELLOWSHIP = 1,   /* 1 The Fellowship */
    OD_MAGNIFICENT,      /* 2 The Magnificent */
    OD_CITIES_ESCAPE,    /* 3 Escape to the Cities */
    OD_PRINCESS,         /* 4 The Princess (seed) */
    OD_UPRISING,         /* 5 The Uprising (seed, cooperative) */
    OD_KING,             /* 6 Free the King (seed) */
} od_adventure;

typedef struct od_config {
    int seats;                               /* 2-4 */
    char colours[OD_MAX_SEATS][OD_COLOUR_MAX]; /* black, green, violet, orange by default */
    int adventure;                           /* od_adventure */
    bool colossal;                           /* adventure 4: the colossal giant */
} od_config;

void od_config_default(od_config *config, int seats, int adventure);

typedef enum { OD_OK, OD_ILLEGAL, OD_BAD_NOTATION, OD_BAD_CONFIG } od_status;

typedef struct od_error {
    char message[160];
} od_error;

/* ---- the state ---- */

typedef enum { OD_ITEM_NONE, OD_ITEM_HERB, OD_ITEM_SWORD, OD_ITEM_GOLD } od_item;

/* What stands on a field or a start space. Companions on a place with adventurers belong to
 * them, per seat; a companion alone waits on its city field. */
typedef struct od_place {
    uint8_t adventurers[OD_MAX_SEATS];
    uint8_t companions[OD_MAX_SEATS];
    uint8_t supers[OD_MAX_SEATS];   /* extraordinary companions (adventures 5, 6), worth 5 */
    uint8_t gold[OD_MAX_SEATS];     /* gold carried (adventure 6) */
    uint8_t waiting;                /* companions alone on the field (0 or 1) */
    uint8_t item;                   /* od_item lying face down (herb, sword) or up (gold) */
    uint8_t creature;               /* its combat value, 0 when none */
    uint8_t pad;
} od_place;

typedef struct od_seat {
    int16_t points;      /* points already scored (adventures 1 and 6) */
    uint8_t herbs, swords, gold; /* in the seat's supply (gold: not adventure 6) */
    uint8_t creatures;   /* defeated */
    uint8_t laurels;     /* their laurels */
    uint8_t keys;        /* adventure 4: bit c for the key of od_city c */
    bool revealed;       /* adventure 2: the values of its herbs and swords were entered */
    int16_t revealed_value;
} od_seat;

typedef enum {
    OD_PHASE_SETUP,   /* the setup line is owed */
    OD_PHASE_TURN,    /* a seat's turn is owed */
    OD_PHASE_REVEAL,  /* adventure 2 over: herbs and swords to be revealed */
    OD_PHASE_OVER,
} od_phase;

/* How a game ended, for the summary. */
typedef enum {
    OD_END_NONE,
    OD_END_STOCK,      /* the ordinary end: no companion and no sword left, or the deck out
                        * (round finished) */
    OD_END_STUCK,      /* no adventurer can move */
    OD_END_DECK,       /* adventure 5: the last card turned */
    OD_END_PRINCESS,   /* adventure 4: freed */
    OD_END_VICTORY,    /* adventure 5: every creature defeated; adventure 6: the king freed and
                        * the capital full */
} od_end;

typedef struct od_state {
    od_config config;
    od_board board;
    od_place places[OD_PLACES];
    od_seat seat[OD_MAX_SEATS];
    uint8_t turned[OD_FIELDS];      /* 1 once the field's card is turned */
    int deck;                       /* cards not turned (the princess's included) */
    int companions, swords, herbs, gold_stock, supers; /* stocks */
    uint8_t creature_stack[5];      /* base creatures not yet out, by laurel 4..8 (D-OL-1) */
    uint8_t keys_left[OD_CITIES];
    int8_t sprite;                  /* its position on the river's course, OD_NONE beside it */
    int8_t princess;                /* adventure 4: the field, OD_NONE while unknown (in play,
                                     * until a fight against the giant reveals it) */
    int8_t king;                    /* adventure 6: the guardian's field; OD_NONE when freed */
    int8_t winner;                  /* adventure 4: the seat that freed the princess */
    uint8_t phase;                  /* od_phase */
    uint8_t end;                    /* od_end */
    bool last_round;                /* the ordinary end has come: finish the round */
    int active;
    int turns;
} od_state;

od_status od_init(od_state *state, const od_config *config, const od_board *board,
                  od_error *error);

/* ---- a turn ---- */

#define OD_MAX_CONTRIBUTORS 4
#define OD_MAX_DICE 4
#define OD_MAX_HERBS_USED 12

/* What one seat brings to a fight. */
typedef struct od_contribution {
    int seat;
    int swords;                       /* swords used, one die each */
    uint8_t sword_values[OD_MAX_DICE];
    uint8_t dice[OD_MAX_DICE];        /* the dice as they lie after any re-roll */
    int herbs;
    uint8_t herb_values[OD_MAX_HERBS_USED];
    int gold;                         /* gold spent as +1 each */
    int rerolls;                      /* gold spent on re-rolls */
} od_contribution;

typedef struct od_fight {
    int contributors;                 /* 0: nothing spent, the fighters alone */
    od_contribution by[OD_MAX_CONTRIBUTORS];
    int king;                         /* adventure 6: the king's next field, OD_NONE if none */
} od_fight;

typedef enum {
    OD_STEP_CARD,      /* a terrain card turned */
    OD_STEP_MOVE,      /* an adventurer (group, troop part) moves */
    OD_STEP_BUY_KEY,   /* adventure 4 */
    OD_STEP_SUPER,     /* adventures 5, 6: 5 companions for an extraordinary one */
} od_step_kind;

typedef enum { OD_SOUTH, OD_EAST, OD_NORTH, OD_WEST } od_direction;

typedef struct od_step {
    uint8_t kind;                     /* od_step_kind */
    int place;                        /* the card's field; the mover's place; SUPER's place */
    int creature;                     /* CARD on fog: the creature's combat value (0 none) */
    int target;                       /* CARD, adventure 5: where the creature advances */
    int direction, distance;          /* MOVE */
    int seat;                         /* MOVE in a troop: the colour moving, OD_NONE = all */
    int key;                          /* BUY_KEY: od_city */
    bool giant;                       /* MOVE onto the princess's field to fight the giant */
    int displace;                     /* MOVE, adventure 6: where the displaced adventurer goes,
                                       * OD_NORTH or OD_WEST; OD_NONE when nobody is displaced */
    bool fights;                      /* a fight follows this step */
    od_fight fight;
} od_step;

#define OD_MAX_STEPS 24

typedef struct od_turn {
    int steps;
    od_step step[OD_MAX_STEPS];
} od_turn;

/* The setup line: the cards turned before the first turn (adventures 1-5) and, for adventures
 * 5 and 6, the creatures laid on the fog fields, in the order they were turned up. */
typedef struct od_setup {
    int cards;
    od_step card[40];
    int creatures;
    uint8_t creature_field[OD_CREATURES];
    uint8_t creature_value[OD_CREATURES];
} od_setup;

/* Adventure 2 at the end: the values of a seat's herbs and swords. */
typedef struct od_reveal {
    int seat;
    int herbs, swords;
    uint8_t herb_values[24];
    uint8_t sword_values[32];
} od_reveal;

od_status od_setup_apply(od_state *state, const od_setup *setup, od_error *error);
/* A whole turn of the active seat, checked step by step; the state is unchanged on failure. */
od_status od_apply(od_state *state, const od_turn *turn, od_error *error);
od_status od_reveal_apply(od_state *state, const od_reveal *reveal, od_error *error);

/* ---- notation ---- */

typedef enum { OD_LINE_EMPTY, OD_LINE_SETUP, OD_LINE_TURN, OD_LINE_REVEAL } od_line_kind;

typedef struct od_line {
    od_line_kind kind;
    int seat;          /* the seat a `colour:` prefix named, OD_NONE when none */
    od_setup setup;
    od_turn turn;
    od_reveal reveal;
} od_line;

/* Parses a line (see the README's notation) against the state: OD_BAD_NOTATION with the
 * reason when it does not read. */
od_status od_parse(const od_state *state, const char *text, od_line *line, od_error *error);
/* Parses and applies; the state is unchanged on failure. line may be NULL. */
od_status od_play_line(od_state *state, const char *text, od_line *line, od_error *error);
/* Canonical text of a parsed line; returns the length needed (snprintf convention). */
size_t od_format(const od_state *before, const od_line *line, char *out, size_t size);

/* ---- what is derived ---- */

/* Strength of the fighters on a place for seat's fight (adventurers, companions, supers x 5). */
int od_fighters(const od_state *state, int place, int seat);
/* Scores as they stand (adventure 5: the cards left once won, else 0, for every seat). */
void od_scores(const od_state *state, int32_t *scores);
void od_ranks(const od_state *state, int32_t *ranks);
/* The adventurers a seat still has in play (board and start spaces). */
int od_adventurers_left(const od_state *state, int seat);
/* Whether any adventurer of any seat can make a move. */
bool od_any_move(const od_state *state);
/* Consistency of a state (counts conserved, stocks within the box); false with the reason. */
bool od_verify(const od_state *state, char *message, size_t size);

/* ---- moves, random games, reconcile ---- */

#define OD_MAX_MOVES 512

/* Every move the active seat may make next as a MOVE step (fights flagged, their details left
 * empty), in a stable order. Returns the count (at most max written). */
int od_legal_moves(const od_state *state, od_step *moves, int max);

od_status od_random_game(od_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         od_error *error);

/* What a camera sees on the board: per field the adventurers and companions by colour (an
 * extraordinary companion as itself), the item lying there (herb, sword, gold; face down or
 * not), the creature's value; the sprite's field. */
typedef struct od_observed_place {
    uint8_t adventurers[OD_MAX_SEATS];
    uint8_t companions;               /* all companions on the place, waiting or joined */
    uint8_t supers;
    uint8_t item;
    uint8_t creature;
} od_observed_place;

typedef struct od_observation {
    od_observed_place places[OD_PLACES];
    int sprite_field;                 /* OD_NONE when beside the board */
    int king_field;                   /* adventure 6: the creature guarding the king, or OD_NONE */
} od_observation;

void od_observe(const od_state *state, od_observation *observation);

typedef enum {
    OD_RECONCILE_UNCHANGED,
    OD_RECONCILE_EXPLAINED,   /* exactly one explanation */
    OD_RECONCILE_AMBIGUOUS,   /* several */
    OD_RECONCILE_NONE,        /* no legal turn leads there */
} od_reconcile_answer;

#define OD_MAX_EXPLANATIONS 8

/* An explanation is a turn whose fights carry their outcome only (contributors = -1: won,
 * -2: lost); the dice and what was spent are for the players to enter, and so are the cards
 * that left no trace on the board (`unseen`: an item taken at once by an adventurer standing
 * there, or a card whose stock is empty). */
typedef struct od_explanation {
    od_turn turn;
    int unseen;                       /* cards turned that the board does not show */
    int fights;
} od_explanation;

typedef struct od_reconcile_result {
    od_reconcile_answer answer;
    int count;
    od_explanation explanations[OD_MAX_EXPLANATIONS];
} od_reconcile_result;

/* Which turns of the active seat turn the board of `state` into the one observed: the cards
 * read from what appeared, then up to two moves, then extraordinary companions; ranked by
 * fewest fights, then fewest steps. Limits: a giant's fight is explained only where the
 * princess's field is known; a second move that leaves the first move's origin looking as it
 * did is not searched. */
void od_reconcile(const od_state *state, const od_observation *observation,
                  od_reconcile_result *result);

#endif
