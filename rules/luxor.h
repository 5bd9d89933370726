/*
 * Luxor, Ravensburger 2001 (RULES.md §2): hieroglyph tiles dropped into a vertical wall,
 * archaeologists at the pillars, scarabs, sarcophagi.
 *
 *   lx_init ─▶ lx_state (a value: copy it to snapshot) ◀─ lx_apply(lx_move) ◀─ lx_parse (notation)
 *                 │                                          ▲
 *                 ├─ lx_pairs / lx_legal_drops ──────────────┘   (what a drop makes, what may be done)
 *                 ├─ lx_scores, lx_ranks                          (running and final)
 *                 ├─ lx_curse_find                                (the curse variant's triples)
 *                 ├─ lx_observe ─▶ lx_observation                 (what a camera would see)
 *                 └─ lx_reconcile(observation) ─▶ explanations    (which moves lead there)
 *
 * The wall is 10 rows of 8 windows, row 0 at the top; a tile covers two windows of one slot and
 * falls to the lowest free position. Pillars are kept by animal (the order they stand in is
 * only for people and cameras).
 *
 * Hidden information: hands, the pharaoh cards and the sarcophagus values. The engine follows
 * everything public (who holds which pillar, the scarabs, which sarcophagus each seat took) and
 * completes the scores as values are entered; a game is over once the end-game scarab moves are
 * done and every value that counts is known.
 *
 * Decisions this engine takes where RULES.md is silent (named LX-ENGINE-n in the code):
 *   1. Same-animal pairs of one drop differ only in their facing; the notation names pairs by
 *      animal, and the engine gives each `+` the pair that allows the placement (a same-facing
 *      one when an opponent stands there) and each plain entry a different-facing one first.
 *   2. A pair beyond the 2-scarabs-a-turn limit, or at a pillar with 3 scarabs that stay, still
 *      lets its player place an archaeologist: the limits are on scarabs, not on pairs.
 *   3. Curse variant: the hands are dealt from the starting pile of 20 (the two piles hold all
 *      49 tiles), so curse rounds happen only at draws after the first 20 - 3 x players.
 *      Curse rounds are entered after the drop whose draw revealed them. A victim must hold a
 *      sarcophagus; `curse` without a transfer means nobody found it (or nobody could give).
 *   4. Eyes of the Sphinx: a line that goes from 1 to 3 of an animal with the two new ones of
 *      a tile gives one pair, same-facing if either new animal faces like the old one.
 *   5. The sarcophagus values are checked against their eye category only (1 eye 3-4, 2 eyes
 *      5-6, 3 eyes 7, 8 or 10); how many of each value a box holds is not known.
 *
 * Everything here is libc only, allocates nothing, and does no I/O.
 */
#ifndef TS_LUXOR_H
#define TS_LUXOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LX_GAME_ID "luxor" /* its id in the game table, the archive and observations */
#define LX_MAX_SEATS 4
#define LX_ROWS 10
#define LX_SLOTS 8
#define LX_TILES_IN_WALL (LX_ROWS * LX_SLOTS / 2) /* 40: the wall is full */
#define LX_TILES 49
#define LX_HAND 3
#define LX_SCARABS 16
#define LX_ARCHAEOLOGISTS 5  /* per seat */
#define LX_EYES 3            /* sarcophagi per pillar: 1, 2 and 3 eyes, front to back */
#define LX_CURSE_TILES 6
#define LX_FIRST_PILE 20     /* the curse variant's starting pile */
#define LX_PHARAOH_BONUS 7
#define LX_COLOUR_MAX 16
#define LX_MAX_PAIRS 16      /* pairs one drop can make: 13 by adjacency, 8 along lines */
#define LX_MAX_SCARAB_MOVES 16 /* end-game moves written on one line */

typedef enum { LX_CAMEL, LX_MULE, LX_SNAKE, LX_HIPPO, LX_IBIS, LX_CROCODILE, LX_CAT, LX_ANIMALS } lx_animal;

typedef enum { LX_LEFT, LX_RIGHT } lx_facing;

/* A window: 0 when empty, else LX_WINDOW(animal, facing). */
#define LX_WINDOW(animal, facing) ((uint8_t)(1 + 2 * (animal) + (facing)))
#define LX_WINDOW_ANIMAL(window) (((window) - 1) / 2)
#define LX_WINDOW_FACING(window) (((window) - 1) % 2)
#define LX_WINDOW_KINDS (2 * LX_ANIMALS)

/* "camel", ...; NULL out of range. D-LX-1 names the three animals no public source names. */
const char *lx_animal_name(lx_animal animal);

typedef struct lx_config {
    int seats;                                 /* 2..4 */
    char colours[LX_MAX_SEATS][LX_COLOUR_MAX]; /* play order; default red, blue, green, yellow */
    bool curse;                                /* variant: Curse of the Pharaoh */
    bool sphinx;                               /* variant: Eyes of the Sphinx */
    bool tile_pairs;                           /* D-LX-3's option: a tile's own animals pair */
} lx_config;

/* 4 seats, the default colours, no variant. */
void lx_config_default(lx_config *config);

typedef enum {
    LX_PHASE_SETUP,  /* waiting for the pillar order */
    LX_PHASE_PLAY,   /* tiles are dropped */
    LX_PHASE_SCARABS, /* the wall is full: each seat once moves scarabs (D-LX-5) */
    LX_PHASE_REVEAL, /* waiting for the sarcophagus values and pharaoh cards that count */
    LX_PHASE_OVER
} lx_phase;

#define LX_NOBODY (-1)

/* The whole game, without pointers: assignment is a snapshot. */
typedef struct lx_state {
    lx_config config;
    uint8_t phase;                   /* lx_phase */
    uint8_t active;                  /* the seat to drop (or to move scarabs) */
    uint8_t wall[LX_ROWS][LX_SLOTS]; /* windows, row 0 at the top */
    uint8_t filled[LX_SLOTS];        /* tiles in each slot, 0..5 */
    uint8_t drops;                   /* tiles in the wall */
    uint8_t pillar_order[LX_ANIMALS]; /* the animal of each pillar, left to right */
    int8_t archaeologist[LX_ANIMALS]; /* by animal: the seat standing there, or LX_NOBODY */
    uint8_t scarabs[LX_ANIMALS];     /* by animal */
    uint8_t scarab_supply;
    uint8_t hand[LX_MAX_SEATS];      /* archaeologists in front of each seat */
    uint8_t opened[LX_ANIMALS];      /* sarcophagi taken from the pillar, front first */
    int8_t owner[LX_ANIMALS][LX_EYES]; /* [animal][eyes - 1]: holder, or LX_NOBODY */
    uint8_t value[LX_ANIMALS][LX_EYES]; /* 0 until entered */
    int8_t pharaoh[LX_MAX_SEATS];    /* animal of the seat's card, or LX_NOBODY until entered */
    uint8_t curses;                  /* curse rounds so far */
} lx_state;

/* ---- moves ---- */

typedef enum {
    LX_MOVE_DROP,    /* the active seat drops a tile and resolves its pairs */
    LX_MOVE_SCARABS, /* end game: the active seat's scarab moves (maybe none) */
    LX_MOVE_VALUE,   /* a sarcophagus value is entered */
    LX_MOVE_PHARAOH, /* a seat's pharaoh card is entered */
    LX_MOVE_CURSE    /* a curse round */
} lx_move_kind;

typedef enum {
    LX_PLACE_NONE,  /* a scarab only */
    LX_PLACE_HAND,  /* and an archaeologist from the seat's supply */
    LX_PLACE_MOVED  /* and the seat's archaeologist moved from another pillar */
} lx_place;

/* One pair as its player resolves it. */
typedef struct lx_resolution {
    uint8_t animal;
    uint8_t place; /* lx_place */
    uint8_t from;  /* LX_PLACE_MOVED: the animal of the pillar it leaves */
} lx_resolution;

typedef struct lx_move {
    uint8_t kind;    /* lx_move_kind */
    /* DROP */
    uint8_t slot;    /* 0..7, left to right */
    uint8_t top, bottom; /* windows of the tile */
    uint8_t count;   /* DROP: resolutions; SCARABS: moves */
    lx_resolution resolutions[LX_MAX_PAIRS]; /* in the order the player chose */
    /* SCARABS: one scarab from from[i] to to[i], in order */
    uint8_t from[LX_MAX_SCARAB_MOVES], to[LX_MAX_SCARAB_MOVES];
    /* VALUE: animal of the pillar, eyes (1..3), value; PHARAOH: seat, animal */
    int8_t seat;
    uint8_t animal, eyes, value;
    /* CURSE: the three animals; giver gives finder its sarcophagus (animal, eyes), or
     * giver LX_NOBODY */
    uint8_t curse[3];
    int8_t giver, finder;
} lx_move;

/* Status of the engine's checks. X(name, message). */
#define LX_STATUS_TABLE(X)             \
    X(LX_OK, "ok")                     \
    X(LX_ILLEGAL, "illegal")           \
    X(LX_BAD_NOTATION, "bad notation") \
    X(LX_BAD_CONFIG, "bad configuration")

typedef enum {
#define LX_STATUS_ENUM(name, message) name,
    LX_STATUS_TABLE(LX_STATUS_ENUM)
#undef LX_STATUS_ENUM
} lx_status;

typedef struct lx_error {
    char message[256];
} lx_error;

/* A new game waiting for its pillar order. LX_BAD_CONFIG for seats outside 2..4 or an empty or
 * repeated colour; the state is then undefined. */
lx_status lx_init(lx_state *state, const lx_config *config, lx_error *error);

/* Sets the pillars, left to right: the 7 animals, each once. */
lx_status lx_set_pillars(lx_state *state, const uint8_t order[LX_ANIMALS], lx_error *error);

/* Checks the move without changing anything. */
lx_status lx_check(const lx_state *state, const lx_move *move, lx_error *error);

/* Checks and plays the move. On failure the state is unchanged. */
lx_status lx_apply(lx_state *state, const lx_move *move, lx_error *error);

/* One pair made by a drop. */
typedef struct lx_pair {
    uint8_t animal;
    bool same_facing;
} lx_pair;

/* The pairs the tile would make dropped into the slot, in the order of the windows they are
 * found at. Returns their number (0 for a slot without room). */
int lx_pairs(const lx_state *state, int slot, uint8_t top, uint8_t bottom,
             lx_pair pairs[LX_MAX_PAIRS]);

/* Every legal drop of this tile for the active seat: each slot with room, each order of its
 * pairs and each placement choice that changes the game (orders and choices that lead to the
 * same game are given once). Writes at most max; returns how many there are in all. The search
 * of one slot stops after 100,000 steps; the count is then a lower bound. */
size_t lx_legal_drops(const lx_state *state, uint8_t top, uint8_t bottom, lx_move *moves,
                      size_t max);

/* Every legal end-game scarab move of the active seat as one-move lines, plus the empty line
 * (no move). Writes at most max; returns how many there are in all. */
size_t lx_legal_scarab_moves(const lx_state *state, lx_move *moves, size_t max);

/* The score of each seat as far as it is known: entered sarcophagus values, plus the pharaoh
 * bonus where the card is entered and the seat stands at that animal's pillar. */
void lx_scores(const lx_state *state, int32_t scores[LX_MAX_SEATS]);

/* Ranks from lx_scores: 1 is best; ties broken by most sarcophagi, then shared. */
void lx_ranks(const lx_state *state, int32_t ranks[LX_MAX_SEATS]);

/* Sarcophagi the seat holds, and how many of them still have no value entered. */
int lx_sarcophagi(const lx_state *state, int seat);
int lx_unvalued(const lx_state *state, int seat);

/* Checks the invariants: 16 scarabs between supply and pillars, at most 3 a pillar; every
 * seat's 5 archaeologists between its supply and the pillars, at most one a pillar; the 21
 * sarcophagi (the opened ones owned, front first); the wall filled from the bottom. Returns
 * LX_OK or LX_ILLEGAL with the first broken one. */
lx_status lx_verify(const lx_state *state, lx_error *error);

/* ---- the curse variant ---- */

typedef struct lx_triple {
    int8_t row, slot;  /* the first window */
    int8_t drow, dslot; /* the step to the next: (0,1), (1,0), (1,1) or (1,-1) */
} lx_triple;

/* Every place where the three animals stand in three adjacent windows of one straight line, in
 * any order, facing ignored. Writes at most max; returns how many there are in all. */
int lx_curse_find(const lx_state *state, const uint8_t animals[3], lx_triple *found, int max);

/* ---- notation ---- */

typedef enum { LX_LINE_EMPTY, LX_LINE_PILLARS, LX_LINE_MOVE } lx_line_kind;

typedef struct lx_line {
    uint8_t kind;       /* lx_line_kind */
    int8_t seat;        /* the seat prefix, or -1 */
    lx_move move;       /* LX_LINE_MOVE */
    uint8_t pillars[LX_ANIMALS]; /* LX_LINE_PILLARS */
} lx_line;

/* Parses one line (comments and blank lines give LX_LINE_EMPTY). */
lx_status lx_parse(const lx_state *state, const char *text, lx_line *line, lx_error *error);

/* Parses, checks (a seat prefix must name the active seat) and plays one line. The error
 * message starts with the offending action. On failure the state is unchanged. */
lx_status lx_play_line(lx_state *state, const char *text, lx_line *played, lx_error *error);

/* The move in canonical notation (no seat prefix). Returns the length it needs. */
int lx_format_move(const lx_state *state, const lx_move *move, char *out, size_t size);

/* "pillars camel mule ..." */
int lx_format_pillars(const lx_state *state, char *out, size_t size);

/* ---- a random game ---- */

/* Plays a whole random legal game from a fresh state (its config is kept): the box simulated
 * (49 tiles of 7 animals, the piles and curse tiles of the variant, sarcophagus values, pharaoh
 * cards), random pillars, drops, choices, end-game moves, then every hidden value entered.
 * emit(context, line) receives every line of the notation (emit may be NULL). Returns LX_OK or,
 * should the engine refuse its own move (a bug), LX_ILLEGAL with the reason. */
lx_status lx_random_game(lx_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         lx_error *error);

/* ---- what a camera sees, and reconciling it ---- */

#define LX_UNSEEN (-2) /* a field the camera could not read (LX_NOBODY is -1) */

typedef struct lx_seen_pillar {
    int8_t animal;        /* lx_animal, or LX_UNSEEN */
    int8_t archaeologist; /* seat, LX_NOBODY, or LX_UNSEEN */
    int8_t scarabs;       /* or LX_UNSEEN */
    int8_t sarcophagi;    /* left at the pillar, or LX_UNSEEN */
} lx_seen_pillar;

typedef struct lx_observation {
    int8_t wall[LX_ROWS][LX_SLOTS];   /* window code, 0 empty, or LX_UNSEEN */
    lx_seen_pillar pillars[LX_ANIMALS]; /* left to right */
} lx_observation;

/* What a camera in front of the wall would see of the state (every field seen). */
void lx_observe(const lx_state *state, lx_observation *observation);

#define LX_EXPLAIN_MAX_MOVES 6

typedef struct lx_explanation {
    int count;
    bool pillars;                          /* the pillar order was set first */
    uint8_t pillar_order[LX_ANIMALS];
    lx_move moves[LX_EXPLAIN_MAX_MOVES];   /* in order, from the given state */
} lx_explanation;

typedef enum {
    LX_UNCHANGED,   /* the observation is the state */
    LX_EXPLAINED,   /* one resulting game (explanations[0]) */
    LX_AMBIGUOUS,   /* several explanations lead to different games: ask */
    LX_UNEXPLAINED, /* no legal sequence leads there: an illegal move or a misread */
} lx_answer;

typedef struct lx_reconcile_result {
    lx_answer answer;
    int count;            /* distinct resulting games found, best first */
    lx_explanation explanations[4];
    bool search_cut;      /* the search hit its limit: the answer may be incomplete */
} lx_reconcile_result;

/*
 * Which legal drops (each with its pair choices) and end-game scarab moves lead from the state
 * to something that looks like the observation? The new tiles in the wall say which drops were
 * made; their order and the choices are searched. Unseen fields match anything; an unseen
 * window of a new tile is tried with every animal and facing; a tile position with both windows
 * unseen (a hand in front of the wall) is taken as empty, and search_cut says that the answer
 * may then be incomplete. Ranked by fewer actions; beyond 16 distinct games the count goes on
 * but only the first 16 are told apart (search_cut).
 */
void lx_reconcile(const lx_state *state, const lx_observation *observation,
                  lx_reconcile_result *result);

#endif
