/*
 * Expedition Luxor (RULES.md §1): tiles on a growing grid, stacked adventurers, the "New
 * Adventures" expansion.
 *
 *   el_init ─▶ el_state (a value: copy it to snapshot) ◀─ el_apply(el_move) ◀─ el_parse (notation)
 *                 │                                          ▲
 *                 ├─ el_legal_moves / el_legal_placements ───┘   (what the active seat may do)
 *                 ├─ el_scores, el_ranks                          (running and final)
 *                 ├─ el_observe ─▶ el_observation                 (what a camera would see)
 *                 └─ el_reconcile(observation) ─▶ explanations    (which moves lead there)
 *
 * Hidden information: the engine never knows a hand or an action token. It refuses what no box
 * could produce (a seventh desert camp from one player, a token type used a third time) and,
 * with check_deck, tiles that D-EL-1's deck order could not have put in the player's hand yet.
 *
 * Decisions this engine takes where RULES.md is silent (named EL-ENGINE-n in the code):
 *   1. A token that takes an adventurer from a mountain takes the player's topmost one there.
 *   2. A sandstorm may not leave more than 4 adventurers on its target (the general limit).
 *   3. Every turn is closed by `end` (or `pass` for a seat without tiles): the notation never
 *      ends a turn by itself, so a script says exactly what happened.
 *   4. The start layout's bounding box has its top-left at (0,0); with check_deck, each seat's
 *      kept 1-tile may be any type the start layout leaves over (which seat put which tile in
 *      the middle is not recorded).
 *
 * Everything here is libc only, allocates nothing, and does no I/O.
 */
#ifndef TS_EXPEDITION_LUXOR_H
#define TS_EXPEDITION_LUXOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EL_GAME_ID "expedition-luxor" /* its id in the game table, the archive and observations */
#define EL_MAX_SEATS 4
#define EL_ADVENTURERS 30          /* per seat */
#define EL_TILES_PER_SEAT 24
#define EL_START_TILES_PER_SEAT 2
#define EL_STACK_MAX 5             /* a camp may hold 5 when placed; any other tile 4 */
#define EL_TOKENS_PER_TYPE 2
#define EL_GRID 21                 /* rows and columns -10..10 around the start layout */
#define EL_ORIGIN 10               /* grid index of row 0 and column 0 */
#define EL_COLOUR_MAX 16
#define EL_MAX_TILES (EL_MAX_SEATS * EL_TILES_PER_SEAT)
#define EL_MAX_STOPS 4             /* tiles a camp's movers can enter: at most 4 movers */

typedef enum {
    EL_LAKE,
    EL_MOUNTAIN,
    EL_DESERT,
    EL_DESERT_CAMP,
    EL_DESERT_TEMPLE,
    EL_DESERT_PYRAMID,
    EL_OASIS_CAMP,
    EL_OASIS_TEMPLE,
    EL_OASIS_PYRAMID,
    EL_TILE_TYPES
} el_tile_type;

typedef enum { EL_NO_TOKEN, EL_BOAT, EL_SNAKES, EL_SANDSTORM, EL_CARAVAN, EL_TOKEN_TYPES } el_token;

typedef enum { EL_NORTH, EL_EAST, EL_SOUTH, EL_WEST, EL_NO_DIRECTION } el_direction;

/* "desert-camp", ...; NULL for a value out of range. Static storage. */
const char *el_tile_name(el_tile_type type);
const char *el_token_name(el_token token);

/* The most adventurers a tile of this type may ever hold: 5 on a camp (as placed, all of one
 * colour), none on a lake (none may enter one, and no token moves one there), 4 on any other
 * (a move or a token never leaves more). */
int el_most_adventurers(el_tile_type type);

/* The most adventurers a tile under this token may hold: none under the snakes (nobody may
 * enter it) or the boat (it lies on a lake), EL_STACK_MAX with no token. */
int el_most_adventurers_under(el_token token);

typedef struct el_config {
    int seats;                              /* 2..4 */
    char colours[EL_MAX_SEATS][EL_COLOUR_MAX]; /* play order; default orange, black, grey, yellow */
    bool expansion;                         /* "New Adventures": the action tokens */
    bool check_deck;                        /* refuse tiles D-EL-1's deck order rules out */
} el_config;

/* 4 seats, the default colours, no expansion, no deck check. */
void el_config_default(el_config *config);

typedef struct el_cell {
    uint8_t has_tile;
    uint8_t type;                /* el_tile_type */
    uint8_t height;              /* adventurers on it */
    uint8_t token;               /* EL_NO_TOKEN, EL_BOAT or EL_SNAKES lying on it */
    uint8_t token_seat;          /* who placed that token */
    uint8_t stack[EL_STACK_MAX]; /* seats, bottom first */
} el_cell;

typedef enum { EL_PHASE_SETUP, EL_PHASE_PLAY, EL_PHASE_OVER } el_phase;

/* The whole game, without pointers: assignment is a snapshot. */
typedef struct el_state {
    el_config config;
    uint8_t phase;            /* el_phase */
    uint8_t active;           /* the seat whose turn it is */
    uint8_t placed_this_turn; /* tiles the active seat placed this turn, 0..3 */
    uint8_t token_this_turn;  /* the active seat used its action token this turn */
    int8_t min_row, max_row, min_col, max_col; /* bounding box of the tiles */
    uint16_t tiles;           /* on the table */
    uint16_t turns;           /* turns completed */
    uint8_t supply[EL_MAX_SEATS];
    uint8_t captured[EL_MAX_SEATS][EL_MAX_SEATS]; /* [captor][victim]: taken by sandstorms */
    uint8_t placed[EL_MAX_SEATS];      /* tiles placed after the start layout */
    uint8_t placed_by_type[EL_MAX_SEATS][EL_TILE_TYPES];
    uint8_t start_by_type[EL_TILE_TYPES];
    uint8_t tokens_used[EL_MAX_SEATS][EL_TOKEN_TYPES];
    el_cell cells[EL_GRID][EL_GRID];   /* [row + EL_ORIGIN][col + EL_ORIGIN] */
    /* Bit col + EL_ORIGIN of tile_rows[row + EL_ORIGIN] is set where a tile lies: a cache of
     * cells[].has_tile, so that finding where a tile may go takes a few word operations a row
     * (random play and the tracker's search do it at every placement). */
    uint32_t tile_rows[EL_GRID];
} el_state;

typedef enum { EL_MOVE_PLACE, EL_MOVE_TOKEN, EL_MOVE_END, EL_MOVE_PASS } el_move_kind;

/* One action of the notation (the start layout is not a move: see el_start). */
typedef struct el_move {
    uint8_t kind;            /* el_move_kind */
    uint8_t what;            /* PLACE: el_tile_type; TOKEN: el_token */
    int8_t row, col;         /* PLACE: the tile; TOKEN: the target tile */
    int8_t from_row, from_col; /* TOKEN: the mountain the adventurer leaves */
    uint8_t adventurers;     /* PLACE of a camp: adventurers put on it in all */
    uint8_t direction;       /* PLACE of a camp: el_direction of the movers, or EL_NO_DIRECTION */
    uint8_t stop_count;      /* tiles entered */
    uint8_t stops[EL_MAX_STOPS]; /* movers that stop on the 1st, 2nd, ... tile entered */
} el_move;

typedef struct el_start_tile {
    int8_t row, col;
    uint8_t type;
} el_start_tile;

/* Status of the engine's checks. X(name, message). */
#define EL_STATUS_TABLE(X)            \
    X(EL_OK, "ok")                    \
    X(EL_ILLEGAL, "illegal")          \
    X(EL_BAD_NOTATION, "bad notation") \
    X(EL_BAD_CONFIG, "bad configuration")

typedef enum {
#define EL_STATUS_ENUM(name, message) name,
    EL_STATUS_TABLE(EL_STATUS_ENUM)
#undef EL_STATUS_ENUM
} el_status;

/* A reason for a refusal, in plain words ("not adjacent to any tile"). */
typedef struct el_error {
    char message[160];
} el_error;

/* A new game waiting for its start layout. EL_BAD_CONFIG for seats outside 2..4, an empty or
 * repeated colour; the state is then undefined. */
el_status el_init(el_state *state, const el_config *config, el_error *error);

/* Lays the start layout: 2 tiles a seat, edge-connected, no camp, top-left of its bounding box
 * at (0,0). On failure the state is unchanged. */
el_status el_start(el_state *state, const el_start_tile *tiles, int count, el_error *error);

/* Checks the move for the active seat without changing anything. */
el_status el_check(const el_state *state, const el_move *move, el_error *error);

/* Checks and plays the move. On failure the state is unchanged. */
el_status el_apply(el_state *state, const el_move *move, el_error *error);

/* Writes every legal move of the active seat into moves (at most max) and returns how many
 * there are in all (more than max when they did not fit): placements of every tile type the
 * seat may still hold, with every adventurer count and every legal movement of a camp; tokens;
 * end; pass. */
size_t el_legal_moves(const el_state *state, el_move *moves, size_t max);

/* The same, only placements of one tile type (a hand the caller knows, as in a random game). */
size_t el_legal_placements(const el_state *state, el_tile_type type, el_move *moves, size_t max);

/* Tiles the seat has still to place (0: it passes). */
int el_tiles_left(const el_state *state, int seat);

/* The score of each seat if the game ended now: camps 1, temples 2, pyramids 3 to the top
 * adventurer's seat; a boat 1 per camp, temple or pyramid beside it; 1 per captured adventurer. */
void el_scores(const el_state *state, int32_t scores[EL_MAX_SEATS]);

/* Ranks from el_scores: 1 is best; ties broken by adventurers left in supply, then shared. */
void el_ranks(const el_state *state, int32_t ranks[EL_MAX_SEATS]);

/* Adventurers of other seats the seat has captured (a point each at the end). */
int el_captured(const el_state *state, int seat);

/* Checks the state's invariants: each colour's 30 adventurers accounted for between supply,
 * tiles and captures; at most 4 on a tile, 5 only on a camp all of one colour; no adventurer
 * on a lake or under snakes; the size limit; each seat's tiles within its box; token uses.
 * Returns EL_OK or EL_ILLEGAL with the first broken one. */
el_status el_verify(const el_state *state, el_error *error);

/* The seat of a colour of the game, or -1. */
int el_seat_of(const el_state *state, const char *colour);

/* ---- notation ---- */

typedef enum { EL_LINE_EMPTY, EL_LINE_START, EL_LINE_MOVE } el_line_kind;

typedef struct el_line {
    uint8_t kind;          /* el_line_kind */
    int8_t seat;           /* the seat prefix (`orange: `), or -1 */
    el_move move;          /* EL_LINE_MOVE */
    int start_count;       /* EL_LINE_START */
    el_start_tile start[2 * EL_MAX_SEATS];
} el_line;

/* Parses one line of the notation (comments and blank lines give EL_LINE_EMPTY). Colour
 * prefixes are looked up in the state's colours. EL_BAD_NOTATION says what is wrong. */
el_status el_parse(const el_state *state, const char *text, el_line *line, el_error *error);

/* Parses, checks (the seat prefix must be the active seat) and plays one line. *played (may be
 * NULL) receives the line as played, a camp's implicit adventurer count filled in. The error
 * message starts with the offending action ("oasis-temple@4,4: not adjacent to any tile").
 * On failure the state is unchanged. */
el_status el_play_line(el_state *state, const char *text, el_line *played, el_error *error);

/* The move in canonical notation (no seat prefix). Returns the length written. */
int el_format_move(const el_move *move, char *out, size_t size);

/* The start layout in notation ("start desert@0,0 ..."). */
int el_format_start(const el_state *state, char *out, size_t size);

/* ---- a random game ---- */

typedef struct el_random {
    uint64_t seed;
} el_random;

/* Plays a whole random legal game from a fresh state (its config is kept): the physical game
 * simulated with real hands and stacks (D-EL-1's deck, shuffled per number), a random start
 * layout, random placements, camps, movements and tokens. Calls emit(context, line) with every
 * line of the notation, the start first, so that the game can be fed back in. Returns EL_OK
 * or, should the engine refuse its own move (a bug), EL_ILLEGAL with the reason. */
el_status el_random_game(el_state *state, uint64_t seed,
                         void (*emit)(void *context, const char *line), void *context,
                         el_error *error);

/* ---- what a camera sees, and reconciling it ---- */

#define EL_UNSEEN (-1) /* a field the camera could not read */
#define EL_EMPTY (-2)  /* top: no adventurer on the tile */

typedef struct el_seen_tile {
    int8_t row, col; /* translated so that the smallest row and column are 0 */
    int8_t type;     /* el_tile_type, or EL_UNSEEN: a tile is there, its type unread */
    int8_t top;      /* seat, EL_EMPTY, or EL_UNSEEN */
    int8_t height;   /* adventurers, or EL_UNSEEN */
    int8_t height_or; /* a second height the camera could not rule out (1..EL_STACK_MAX), or 0:
                         a game with either matches */
    int8_t token;    /* EL_NO_TOKEN, EL_BOAT, EL_SNAKES, or EL_UNSEEN */
    int8_t support[EL_STACK_MAX + 1]; /* how well each height (0: none) explains the picture:
                                         0 the best, -k k tenths of a piece's worth less (down
                                         to -100); all 0: the camera tells none apart.
                                         el_support ranks games by it; matching ignores it */
    int8_t reached;  /* k > 0: the k-th tile the hands were seen laying since the last table;
                        0: none seen. New tiles are placed in that order where the rules allow
                        either (the camera sees two tiles laid between its reads together) */
} el_seen_tile;

typedef struct el_observation {
    int count;
    el_seen_tile tiles[EL_MAX_TILES];
    int unknown_count; /* cells the camera could not read at all (a hand, glare) */
    struct {
        int8_t row, col;
    } unknown[EL_MAX_TILES];
} el_observation;

/* What a camera above the table would see of the state (every field seen). */
void el_observe(const el_state *state, el_observation *observation);

#define EL_EXPLAIN_MAX_MOVES 24

typedef struct el_explanation {
    int count;
    el_move moves[EL_EXPLAIN_MAX_MOVES]; /* in order, from the given state */
    int turns_ended;                     /* `end` and `pass` among them */
    int hidden; /* token moves among them that change no top and lay no token: only the
                   stacks' heights show them; not counted in the rank */
} el_explanation;

typedef enum {
    EL_UNCHANGED, /* the observation is the state: nothing happened */
    EL_EXPLAINED, /* one explanation stands out (explanations[0]) */
    EL_AMBIGUOUS, /* several explanations lead to different games: ask */
    EL_UNEXPLAINED, /* no legal sequence leads there: an illegal move or a misread */
} el_answer;

/* Distinct games an el_reconcile_result keeps: a camp of unseen count with movers fits a
 * dozen, and a tracker carries them all until a table or the players decide. */
#define EL_EXPLANATIONS 16

typedef struct el_reconcile_result {
    el_answer answer;
    int count;            /* explanations found (distinct resulting games), best first */
    el_explanation explanations[EL_EXPLANATIONS];
    bool more;            /* more games fit, ranked after those kept */
    bool search_cut;      /* the search hit its limit: the answer may be incomplete */
    char reason[160];     /* EL_UNEXPLAINED: why, one line, the first thing that does not fit
                           * ("desert@5,5: not adjacent to any tile", "the tile at 0,1 was a
                           * mountain, the table shows a desert"); "" otherwise */
} el_reconcile_result;

/*
 * Which legal action sequences of the current and following turns lead from the state to
 * something that looks like the observation? Ranked: fewer turns ended first, then fewer moves
 * (hidden token moves not counted: el_explanation.hidden).
 * Sequences that lead to the same game count once. Unseen fields and unknown cells match
 * anything; a tile of unseen type is a tile of any type (a new one must still be placed). The
 * observation's translation is found by aligning the tiles already known.
 */
void el_reconcile(const el_state *state, const el_observation *observation,
                  el_reconcile_result *result);

/*
 * How well the camera's picture supports the game in state: the sum, over the tiles seen, of
 * the support (el_seen_tile.support) of the height the state has there, in tenths of a piece's
 * worth; 0 at best, lower as the picture shows that game worse. The observation is laid on the
 * state's tiles as el_reconcile lays it. Games that all fit an observation are ranked by it;
 * how much lower is how much less likely the picture thinks them.
 */
int el_support(const el_state *state, const el_observation *observation);

/* Whether the observation shows the state as it is (el_reconcile would answer EL_UNCHANGED),
 * laid on it one way alone; if so, the state's heights on the tiles seen: heights[i] for
 * observation->tiles[i]. False, heights untouched, when it shows another game, or the same
 * game laid two ways (a table too unread to tell where it lies). */
bool el_heights_if_unchanged(const el_state *state, const el_observation *observation,
                             int8_t *heights);

/*
 * The action tokens the active seat may have played since the table was observed as the state
 * has it, without the table showing it: the token moves legal now that change no top and lay
 * no token (el_explanation.hidden: a sandstorm or caravan from a mountain that keeps its top
 * onto a stack of the seat's own colour) after which the observation still matches (the camera
 * could not read those heights, or not surely). Written to moves (at most
 * max), their number returned; 0 when the observation is not the state's table or no token
 * may be played. Asked before a turn's end is taken: the end alone is then one game of
 * several.
 */
size_t el_hidden_tokens(const el_state *state, const el_observation *observation,
                        el_move *moves, size_t max);

/*
 * What the players corrected. When the camera misreads a cell the same way on every table (a
 * camp's stack counted one too many, a shadow taken for a tile), the players say what was
 * played, or that the table is as the game has it, and the same misread must not stop the next
 * table again. The game's own rows and columns, not an observation's translated ones.
 */
typedef struct el_misreads {
    int count;                       /* fields of tiles the game has, read otherwise: */
    el_seen_tile fields[EL_MAX_TILES]; /* each as read, the fields read right EL_UNSEEN */
    int missed_count;                /* tiles the game has that the camera did not see */
    struct {
        int8_t row, col;
    } missed[EL_MAX_TILES];
    int phantom_count;               /* tiles seen where none may ever lie (beyond the size
                                        limit), and their type */
    struct {
        int8_t row, col, type;
    } phantom[EL_MAX_TILES];
} el_misreads;

/*
 * el_note_misreads: the players' lines took the game from before to after while the camera read
 * reading: of the cells those lines changed, what reading shows otherwise than after is noted
 * in misreads, replacing what it held for those cells. before NULL: the players say the table
 * is as after has it, every cell; tiles seen where none may ever lie (beyond the size limit)
 * are noted too. A zeroed el_misreads holds none.
 *
 * el_forgive: observation (aligned on the state's tiles as el_reconcile aligns it) with every
 * field unseen that reads as noted, a tile noted as missed taken as an unknown cell when the
 * camera misses it again, and a noted phantom not seen when it reads as noted. It only ever
 * takes away: a cell read otherwise than noted (its stack grown) is kept as read.
 */
void el_note_misreads(const el_state *before, const el_state *after,
                      const el_observation *reading, el_misreads *misreads);
void el_forgive(const el_state *state, const el_misreads *misreads,
                el_observation *observation);

/*
 * The misreads as one line, for the archive, and back ("2,1 read top black height 3; 0,4
 * missed; -5,0 phantom desert": the fields read wrong, as read). el_format_misreads returns the
 * length the line needs, as snprintf does (out is cut short when size is less); "" holds none.
 * el_parse_misreads reads such a line whole, the state giving the colours, or says what it
 * cannot read (EL_BAD_NOTATION, misreads then none).
 */
int el_format_misreads(const el_state *state, const el_misreads *misreads, char *out,
                       size_t size);
el_status el_parse_misreads(const el_state *state, const char *text, el_misreads *misreads,
                            el_error *error);

/* The start layout a table shows, for a game in its setup: every tile seen (none unknown, no
 * adventurer, no token), 2 a seat, as el_start takes them (the observation's rows and columns
 * already start at 0). EL_ILLEGAL says what is missing or wrong ("the start layout has 4 tiles
 * with 2 players, the table shows 3", the count checked first), and then *count is the tiles
 * the table shows when they are too many or too few, else those taken before the one refused.
 * The layout's
 * own rules (edge-connected, no camp) are el_start's to check. */
el_status el_start_seen(const el_state *state, const el_observation *observation,
                        el_start_tile tiles[2 * EL_MAX_SEATS], int *count, el_error *error);

#endif
