/*
 * Expéditions – Autour du Monde (RULES.md §3): three shared expeditions of coloured arrows grow
 * over a world map; players race them to the places on their cards.
 *
 *   ex_board (data: circles, wrap points, segments) ─▶ ex_board_add ─▶ a handle
 *                                                                        │
 *   ex_init(handle) ─▶ ex_state (a value) ◀─ ex_apply(ex_move) ◀─ ex_parse (notation)
 *                        │                         ▲
 *                        ├─ ex_legal_steps ────────┘      (what the seat to play may do next)
 *                        ├─ ex_scores, ex_ranks           (running and final)
 *                        ├─ ex_observe ─▶ ex_observation  (what a camera would see)
 *                        └─ ex_reconcile(observation) ─▶ explanations (which steps lead there)
 *
 * The map is data: a board is loaded once (companion/ reads the board files), checked by
 * ex_board_prepare, and kept in a small table; a state names its board by handle, so that a
 * state stays a pointer-free value and the map is never copied.
 *
 * One line of notation is one whole turn: its arrows, tickets, the claims announced and the
 * common objective turned up. Hidden information: hands and the deck are never known. Players
 * announce claims; the engine checks that the place was reached this turn and derives every
 * hand size from the deal, the claims and the swaps.
 *
 * Decisions this engine takes where RULES.md is silent (named EX-ENGINE-n in the code):
 *   1. An expedition never lays a second arrow on a segment it already uses, in either
 *      direction: "never back along the segment just arrived by" is the case the book names,
 *      and after a loop the new base may have several arrival segments.
 *   2. The restart after a loop is owed at once (RULES.md: "at once places"): the turn may not
 *      go on with anything else, nor end, until it is placed, unless no arrow of that colour is
 *      left or no segment from a visited circle is free. A blue circle's bonus arrow may be
 *      declined (the book: "peut"), and comes at once or not at all: a ticket used before it
 *      ends it. A loop at a blue circle owes the restart first.
 *   3. A claim names a place reached during this turn (by an arrow, or as the tip left by a
 *      removed arrow); a common objective is taken only on an arrow's arrival, and the new one
 *      must be entered right after (`new objective PLACE`) unless the deck is empty.
 *   4. A token is recovered only when its owner lays that card. Another seat may claim a
 *      place holding a token only after the token's owner swapped a card (the key card may be
 *      the one they discarded).
 *   5. The game ends at once when, at the end of a turn, all 135 arrows are on the board or no
 *      expedition can take an arrow; when a hand is empty at the end of a turn, the round is
 *      finished first. An expedition that can take no arrow (none left, or no free segment)
 *      cannot be chosen; a turn without its arrow is allowed only when none can take one.
 *   6. A swap needs 2 cards in the deck; a ticket is taken only while the supply (40, 3 to
 *      each seat at the start) has one.
 *   7. The seats' default colours are green, purple, orange, black, white and pink (the seed
 *      does not name the tokens' colours); yellow, red and blue name the expeditions.
 *
 * Everything here is libc only, allocates nothing, and does no I/O.
 */
#ifndef TS_EXPEDITIONS_H
#define TS_EXPEDITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EX_GAME_ID "expeditions" /* its id in the game table, the archive and observations */
#define EX_MAX_SEATS 6
#define EX_COLOUR_MAX 16
#define EX_EXPEDITIONS 3           /* yellow, red, blue */
#define EX_ARROWS 45               /* per expedition */
#define EX_OBJECTIVES 6            /* common objectives face up */
#define EX_TOKENS 4                /* key-location tokens per seat */
#define EX_TICKETS 40              /* in the box */
#define EX_START_TICKETS 3
#define EX_TICKETS_PER_TURN 2
#define EX_MIN_DISTANCE 3          /* objectives at setup and key locations: segments from start */

/* ---- the board ---- */

#define EX_MAX_CIRCLES 192
#define EX_MAX_SEGMENTS 384
#define EX_MAX_DEGREE 8            /* segments at one circle (a wrap point: both halves) */
#define EX_MIN_PLACES 64           /* enough cards for 6 players, the objectives and swaps */
#define EX_MAX_PLACES 128
#define EX_ID_MAX 24               /* "caspian-sea": lower-case letters, digits, '-' */
#define EX_NAME_MAX 48             /* "Caspian Sea", UTF-8 */
#define EX_NONE (-1)

typedef enum { EX_KIND_START, EX_KIND_PLACE, EX_KIND_BLUE, EX_KIND_RED, EX_KINDS } ex_kind;

/* "start", "place", "blue", "red"; NULL out of range. */
const char *ex_kind_name(ex_kind kind);

typedef struct ex_circle {
    char id[EX_ID_MAX];
    char name[EX_NAME_MAX];   /* places: the card's name; others may leave it empty */
    char region[EX_NAME_MAX]; /* places: the card's locating help, may be empty */
    uint8_t kind;             /* ex_kind; the halves of a wrap point are red */
    float x_mm, y_mm;         /* on the board, from its top-left corner */
    /* filled by ex_board_prepare: */
    int16_t node;             /* the circle as the graph knows it (the halves of a wrap point
                               * are one node) */
} ex_circle;

typedef struct ex_segment {
    int16_t circle[2];        /* the circles at its ends, as drawn (a half of a wrap point) */
    /* filled by ex_board_prepare: */
    int16_t node[2];
} ex_segment;

typedef struct ex_node {
    int16_t circle;           /* its first circle (for a wrap point, the first half listed) */
    uint8_t kind;
    int8_t distance;          /* segments from the start, at most 127 */
    int16_t card;             /* places: the card number 0..places-1, else EX_NONE */
    uint8_t degree;
    int16_t segment[EX_MAX_DEGREE]; /* the segments joined to it */
} ex_node;

typedef struct ex_board {
    char id[EX_ID_MAX];       /* names the board in archives: "stand-in-world-1" */
    char title[96];
    float width_mm, height_mm;
    int start_degree;         /* the circles the start must be joined to (6 on the printed map) */
    int circle_count;
    ex_circle circles[EX_MAX_CIRCLES];
    int wrap_count;
    int16_t wraps[EX_MAX_CIRCLES / 2][2]; /* the two halves of each wrap point */
    int segment_count;
    ex_segment segments[EX_MAX_SEGMENTS];
    /* filled by ex_board_prepare: */
    int node_count;
    ex_node nodes[EX_MAX_CIRCLES];
    int16_t start;            /* the start's node */
    int place_count;          /* = cards */
    int16_t place_node[EX_MAX_PLACES]; /* card -> node */
} ex_board;

typedef struct ex_error {
    char message[256];
} ex_error;

/* Checks a board as filled from a file and derives its graph. False, with one line naming the
 * circle or segment and the problem (the board is then partly overwritten), when: a count is
 * beyond its array, start_degree is outside 1..EX_MAX_DEGREE or the size is not positive; an id
 * is empty, malformed or repeated; a kind is unknown; a place has no name; there is not exactly
 * one start; the start is not joined to start_degree circles; a segment names a circle index
 * out of range (the file reader reports unknown ids by name), joins a circle to itself, or
 * joins two circles already joined; a wrap point's halves are not two red circles at the board's two side edges
 * at the same height; a circle has no segment or more than EX_MAX_DEGREE; a circle cannot be
 * reached from the start; or there are fewer than EX_MIN_PLACES or more than EX_MAX_PLACES
 * places. */
bool ex_board_prepare(ex_board *board, ex_error *error);

/* Keeps a copy of a prepared board and returns its handle (1..), or 0 when the table is full
 * (4 boards) or the board fails ex_board_prepare. Adding a board whose id is already there
 * returns that board's handle if the two are identical, else 0. Not thread-safe: call at
 * start-up, before any state refers to it. */
int ex_board_add(const ex_board *board);

/* The board of a handle, or NULL. */
const ex_board *ex_board_get(int handle);

/* The circle with this id (either half of a wrap point), or EX_NONE. */
int ex_board_circle(const ex_board *board, const char *id, size_t length);

/* The segment joining two nodes, or EX_NONE. */
int ex_board_segment(const ex_board *board, int node_a, int node_b);

/* ---- the game ---- */

typedef enum { EX_YELLOW, EX_RED, EX_BLUE } ex_expedition;

/* "yellow", "red", "blue"; NULL out of range. */
const char *ex_expedition_name(int expedition);

typedef struct ex_config {
    int seats;                                 /* 2..6 */
    char colours[EX_MAX_SEATS][EX_COLOUR_MAX]; /* play order (EX-ENGINE-7 for the defaults) */
    int board;                                 /* a handle from ex_board_add */
} ex_config;

/* The seats and default colours; board 0 (none: ex_init then refuses). */
void ex_config_default(ex_config *config, int seats);

typedef enum {
    EX_PHASE_OBJECTIVES, /* waiting for the 6 common objectives of the setup */
    EX_PHASE_TOKENS,     /* the key locations, one token a line in seat order */
    EX_PHASE_PLAY,
    EX_PHASE_OVER
} ex_phase;

#define EX_NOBODY (-1)
#define EX_NO_CARD 0xff

/* An arrow on the board: a segment and the end it points to. */
typedef struct ex_arrow {
    uint16_t segment;
    uint8_t forward; /* 1: from segments[].circle[0] to circle[1] */
} ex_arrow;

typedef struct ex_trail {
    uint8_t count;                  /* arrows placed */
    uint8_t closed;                 /* the last arrow reached a circle already visited: a loop,
                                     * no free tip */
    ex_arrow arrows[EX_ARROWS];     /* in the order placed; the last one is the tip */
    uint64_t visited[EX_MAX_CIRCLES / 64];   /* nodes, the start included once started */
    uint64_t used[EX_MAX_SEGMENTS / 64];     /* segments carrying an arrow of this colour */
} ex_trail;

/* The whole game, without pointers: assignment is a snapshot. */
typedef struct ex_state {
    ex_config config;
    uint8_t phase;                      /* ex_phase */
    uint8_t active;                     /* the seat to play */
    uint16_t turns;                     /* whole turns played (not counting the setup) */
    ex_trail trails[EX_EXPEDITIONS];
    uint8_t objectives[EX_OBJECTIVES];  /* cards face up, EX_NO_CARD where none */
    int8_t laid[EX_MAX_PLACES];         /* the seat that laid the card, or EX_NOBODY */
    int8_t token[EX_MAX_PLACES];        /* the seat whose token is on the place, or EX_NOBODY */
    uint8_t hand[EX_MAX_SEATS];         /* cards in hand (derived) */
    uint8_t tokens_placed[EX_MAX_SEATS];
    uint8_t tokens_recovered[EX_MAX_SEATS];
    uint8_t tickets[EX_MAX_SEATS];
    uint8_t swaps[EX_MAX_SEATS];        /* swaps made (EX-ENGINE-4) */
    uint8_t ticket_supply;
    uint8_t deck;                       /* cards face down */
    bool ending;                        /* a hand emptied: the round is being finished */
} ex_state;

/* ---- moves: one turn of steps ---- */

typedef enum {
    EX_STEP_ARROW,        /* an arrow: the main one, a blue circle's bonus or a loop's restart */
    EX_STEP_TICKET_ARROW, /* a ticket: an extra arrow */
    EX_STEP_REMOVE,       /* a ticket: the last arrow of an expedition taken back */
    EX_STEP_SWAP,         /* a ticket: a card swapped (or two drawn and discarded) */
    EX_STEP_CLAIM,        /* a seat lays the card of a place reached this turn */
    EX_STEP_OBJECTIVE     /* the card turned up as a new common objective */
} ex_step_kind;

typedef struct ex_step {
    uint8_t kind;       /* ex_step_kind */
    uint8_t expedition; /* ARROW, TICKET_ARROW, REMOVE */
    int8_t seat;        /* CLAIM */
    int16_t from;       /* ARROW, TICKET_ARROW: the circle it starts at (EX_NONE: the tip) */
    int16_t to;         /* ARROW, TICKET_ARROW: the circle it points to */
    uint8_t card;       /* CLAIM, OBJECTIVE */
} ex_step;

#define EX_MAX_STEPS 32

typedef enum {
    EX_MOVE_OBJECTIVES, /* setup: the 6 common objectives */
    EX_MOVE_TOKEN,      /* setup: the active seat's next key location */
    EX_MOVE_TURN        /* a turn: its steps (none: a pass) */
} ex_move_kind;

typedef struct ex_move {
    uint8_t kind;                     /* ex_move_kind */
    uint8_t card;                     /* TOKEN */
    uint8_t objectives[EX_OBJECTIVES]; /* OBJECTIVES */
    uint8_t count;                    /* TURN: steps */
    ex_step steps[EX_MAX_STEPS];
} ex_move;

#define EX_STATUS_TABLE(X)             \
    X(EX_OK, "ok")                     \
    X(EX_ILLEGAL, "illegal")           \
    X(EX_BAD_NOTATION, "bad notation") \
    X(EX_BAD_CONFIG, "bad configuration")

typedef enum {
#define EX_STATUS_ENUM(name, message) name,
    EX_STATUS_TABLE(EX_STATUS_ENUM)
#undef EX_STATUS_ENUM
} ex_status;

/* A new game waiting for its common objectives. EX_BAD_CONFIG for seats outside 2..6, a bad
 * colour (one of the expeditions' included) or an unknown board. */
ex_status ex_init(ex_state *state, const ex_config *config, ex_error *error);

/* The board the state plays on (never NULL once ex_init succeeded). */
const ex_board *ex_board_of(const ex_state *state);

/* Checks and plays the move; on failure the state is unchanged and error names the step. */
ex_status ex_apply(ex_state *state, const ex_move *move, ex_error *error);

/* The cards each seat is dealt: 12 with 2-3 players, 9 with 4-6. */
int ex_deal_size(int seats);

/* Whether the expedition can take an arrow now (arrows left and a free segment from its tip,
 * or from a visited circle when it has no free tip). */
bool ex_can_extend(const ex_state *state, int expedition);

/* The node an expedition extends from: its free tip, the start before its first arrow, or
 * EX_NONE when a loop left it without a free tip. */
int ex_tip(const ex_state *state, int expedition);

/* Score of each seat now: +1 a card laid, +1 a token recovered, -1 a card in hand, -1 a token
 * still on the board. */
void ex_scores(const ex_state *state, int32_t scores[EX_MAX_SEATS]);

/* Ranks from ex_scores: 1 is best; ties broken by most tickets, then shared. */
void ex_ranks(const ex_state *state, int32_t ranks[EX_MAX_SEATS]);

/* Cards the seat has laid (own and common objectives). */
int ex_cards_laid(const ex_state *state, int seat);

/* Checks the invariants: 135 arrows between the board and the supply, each expedition a
 * connected trail from the start; the board's cards (80 on the stand-in map, one per place)
 * between hands, deck, objectives and the laid ones; every seat's 4 tokens placed, recovered or still to place; the 40 tickets. EX_OK or
 * EX_ILLEGAL with the first broken one. */
ex_status ex_verify(const ex_state *state, ex_error *error);

/* ---- a turn step by step (the tracker's and the random game's view) ---- */

/* A turn in progress: what the steps so far owe and allow. */
typedef struct ex_turn {
    uint8_t steps;                 /* taken so far */
    uint8_t tickets_used;
    bool main_done;
    uint8_t bonus;                 /* bonus arrows owed by blue circles */
    int8_t restart;                /* the expedition owed a restart, or EX_NONE */
    int8_t objective_pending;      /* a common objective was taken: its slot, or EX_NONE */
    uint8_t reached_count;
    uint8_t reached[EX_MAX_STEPS]; /* cards of the places reached this turn */
} ex_turn;

/* Starts the active seat's turn (phase PLAY). */
void ex_turn_begin(const ex_state *state, ex_turn *turn);

/* Checks and takes one step; on failure state and turn are unchanged. */
ex_status ex_turn_step(ex_state *state, ex_turn *turn, const ex_step *step, ex_error *error);

/* Whether the turn may end now, and why not. */
bool ex_turn_can_end(const ex_state *state, const ex_turn *turn, ex_error *error);

/* Ends the turn (ex_turn_can_end must hold): the next seat, or the end of the game. */
void ex_turn_end(ex_state *state, ex_turn *turn);

/* Every step the turn allows next, claims and objectives left out (they depend on hidden
 * cards): arrows, ticket arrows, removals and a swap. Writes at most max; returns how many
 * there are in all. */
size_t ex_legal_steps(const ex_state *state, const ex_turn *turn, ex_step *steps, size_t max);

/* ---- notation ---- */

typedef enum { EX_LINE_EMPTY, EX_LINE_MOVE } ex_line_kind;

typedef struct ex_line {
    uint8_t kind;  /* ex_line_kind */
    int8_t seat;   /* the seat prefix, or -1 */
    ex_move move;
} ex_line;

/* Parses one line (comments and blank lines give EX_LINE_EMPTY). */
ex_status ex_parse(const ex_state *state, const char *text, ex_line *line, ex_error *error);

/* Parses, checks (a seat prefix must name the active seat) and plays one line. The error
 * message starts with the offending action. On failure the state is unchanged. */
ex_status ex_play_line(ex_state *state, const char *text, ex_line *played, ex_error *error);

/* The move in canonical notation (no seat prefix), as state (before the move) would read it.
 * Returns the length it needs. */
int ex_format_move(const ex_state *state, const ex_move *move, char *out, size_t size);

/* ---- a random game ---- */

/* Plays a whole random legal game from a fresh state (its config is kept): the cards dealt
 * and the deck simulated, random objectives and key locations, turns with tickets, bonuses,
 * loops, swaps, and every claim its holder owes. emit(context, line) receives every line
 * (emit may be NULL). EX_OK, or EX_ILLEGAL with the reason should the engine refuse its own
 * move (a bug). */
ex_status ex_random_game(ex_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         ex_error *error);

/* ---- what a camera sees, and reconciling it ---- */

#define EX_SEEN_MAX_TOKENS (EX_MAX_SEATS * EX_TOKENS)

typedef struct ex_observation {
    /* arrows by expedition: a bit per (segment, direction): bit 2 * segment + forward */
    uint64_t arrows[EX_EXPEDITIONS][2 * EX_MAX_SEGMENTS / 64];
    int token_count;
    struct {
        int8_t seat;
        int16_t card;
    } tokens[EX_SEEN_MAX_TOKENS];
} ex_observation;

/* What a camera over the map would see of the state. */
void ex_observe(const ex_state *state, ex_observation *observation);

#define EX_EXPLAIN_MAX_STEPS 12

typedef struct ex_explanation {
    ex_move move;          /* the steps seen: arrows, ticket arrows, removals, the claims that
                            * recovered tokens; or a key location at setup */
    int tickets;           /* tickets the explanation spends */
    bool objective_taken;  /* a common objective was taken: its new card must be entered */
} ex_explanation;

typedef enum {
    EX_UNCHANGED,   /* the observation is the state */
    EX_EXPLAINED,   /* one explanation stands out (explanations[0]) */
    EX_AMBIGUOUS,   /* several lead to different games: ask */
    EX_UNEXPLAINED  /* no legal turn leads there: an illegal move or a misread */
} ex_answer;

typedef struct ex_reconcile_result {
    ex_answer answer;
    int count;
    ex_explanation explanations[4]; /* best first: fewer tickets, then fewer steps */
    bool search_cut;  /* the search stopped early or found more than 4 games */
} ex_reconcile_result;

/* Which turn of the active seat (or which key location at setup) leads from the state to the
 * observation? Arrows added and removed are searched as steps of one turn (arrows placed and
 * taken back within the turn in a second pass, when the first finds nothing); a token gone from
 * the board is its owner's claim. Hidden steps (swaps, the claims of cards without tokens,
 * the new objective's card) are for the players to add. EX_EXPLAINED when one game is found,
 * or when the best explanation spends fewer tickets than every other (a ticket is not spent
 * where a free arrow was owed). Orders of the same arrows that end with the same last arrow
 * of each expedition count once. */
void ex_reconcile(const ex_state *state, const ex_observation *observation,
                  ex_reconcile_result *result);

#endif
