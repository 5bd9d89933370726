/*
 * rules: the four games' engines and the table that names them.
 *
 *   rules_games() ──▶ rules_game { id, title, players, flags, engine }
 *                                                     │
 *                      rules_engine (game-agnostic) ◀─┘  init, play_line, scores, ranks, ...
 *                                │
 *                                └─▶ one engine per game, with its own header for what only
 *                                    that game has (moves, observations, reconcile):
 *                                    expedition_luxor.h, luxor.h, expeditions.h,
 *                                    odysseeland.h
 *
 * The tracker, the archive and the live view work through this table and never name a game.
 * This module depends on libc and libm only.
 */
#ifndef TS_RULES_H
#define TS_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "expedition_luxor.h"
#include "expeditions.h"
#include "luxor.h"
#include "odysseeland.h"

/* The most seats any supported game has (Expéditions: 6). */
#define RULES_MAX_SEATS 6
#define RULES_COLOUR_MAX 16

/* X(name, message): the statuses every engine answers with. */
#define RULES_STATUS_TABLE(X)              \
    X(RULES_OK, "ok")                      \
    X(RULES_ILLEGAL, "illegal")            \
    X(RULES_BAD_NOTATION, "bad notation")  \
    X(RULES_BAD_CONFIG, "bad configuration")

typedef enum {
#define RULES_STATUS_ENUM(name, message) name,
    RULES_STATUS_TABLE(RULES_STATUS_ENUM)
#undef RULES_STATUS_ENUM
} rules_status;

/* Options of a game, whatever the game: seats, colours, and flags whose meaning each game
 * documents (an engine refuses a flag it does not know). */
typedef struct rules_options {
    int seats;
    int colour_count; /* 0: the game's default colours */
    char colours[RULES_MAX_SEATS][RULES_COLOUR_MAX];
    unsigned flags;   /* RULES_FLAG_* */
    int board;        /* games played on a board file (Expéditions, Odyssée-land): its handle
                       * from the game's board table (ex_board_add, od_board_add); 0 for the
                       * others */
    int adventure;    /* Odyssée-land: the adventure played, 1-6 (0: the first) */
} rules_options;

#define RULES_FLAG_EXPANSION 1u  /* Expedition Luxor: "New Adventures" */
#define RULES_FLAG_CHECK_DECK 2u /* Expedition Luxor: D-EL-1's deck order */
#define RULES_FLAG_CURSE 4u      /* Luxor: the Curse of the Pharaoh variant */
#define RULES_FLAG_SPHINX 8u     /* Luxor: the Eyes of the Sphinx variant */
#define RULES_FLAG_TILE_PAIRS 16u /* Luxor: D-LX-3's option, a tile's own two animals pair */
#define RULES_FLAG_COLOSSAL 32u  /* Odyssée-land, adventure 4: the colossal giant */

/* A flag as the command line and the archive name it: `--curse`, {"curse": true}. */
typedef struct rules_flag {
    unsigned flag;
    const char *option; /* the command-line option without its dashes */
    const char *key;    /* the key in a game's stored options */
} rules_flag;

/* Every flag, in a stable order. *count receives their number. Static storage. */
const rules_flag *rules_flags(size_t *count);

#define RULES_MAX_COUNTERS 4

/* What one line of notation did. */
typedef struct rules_played {
    bool acted;          /* false: a blank or comment line */
    int seat;            /* the seat that acted, or -1 (the setup, such as a start layout) */
    char notation[1024]; /* the action in the game's canonical notation (an Expéditions turn
                          * is one line of up to 1023 characters) */
} rules_played;

/* ---- what a camera sees, reconciled with the game (the tracker's question) ---- */

/* X(name, word): the answers to "which legal actions lead from the game to this table?". */
#define RULES_ANSWER_TABLE(X)           \
    X(RULES_UNCHANGED, "unchanged")     \
    X(RULES_EXPLAINED, "explained")     \
    X(RULES_AMBIGUOUS, "ambiguous")     \
    X(RULES_UNEXPLAINED, "unexplained")

typedef enum {
#define RULES_ANSWER_ENUM(name, word) name,
    RULES_ANSWER_TABLE(RULES_ANSWER_ENUM)
#undef RULES_ANSWER_ENUM
} rules_answer;

/* "unchanged", "explained", ...; "?" out of range. Static storage. */
const char *rules_answer_name(rules_answer answer);

#define RULES_CANDIDATES 16           /* explanations kept, best first */
#define RULES_EXPLANATION_TEXT 2048   /* bytes of one explanation's lines */
#define RULES_REASON_MAX 192

/* One way the table came about: actions in the game's notation, one a line ('\n' between
 * them, none after the last), each with the acting seat's colour as prefix ("black: end"), so
 * that play_line takes each line as it is; the setup (a start layout) has no prefix. */
typedef struct rules_explanation {
    int actions;     /* the actions the table shows (an action only the stacks' heights would
                        show, which the camera may miss, is not counted): the rank */
    int turns_ended; /* of them, the actions that close a turn */
    char lines[RULES_EXPLANATION_TEXT];
} rules_explanation;

typedef struct rules_reconciled {
    rules_answer answer;
    int count;        /* candidates found: distinct resulting games, best first */
    rules_explanation candidates[RULES_CANDIDATES];
    bool more;        /* more games fit, ranked after the candidates kept */
    bool search_cut;  /* the search hit its limit: the answer may be incomplete */
    /* UNEXPLAINED: why, one line ("desert@5,5: not adjacent to any tile"); UNCHANGED while a
     * game waits for its setup: what it waits for; "" otherwise. */
    char reason[RULES_REASON_MAX];
} rules_reconciled;

/*
 * An engine, seen without its game's types. The state is a value of state_size bytes that
 * the caller owns (copy it to snapshot); every function leaves it unchanged on failure and
 * writes the reason, one line, into error (size bytes).
 */
typedef struct rules_engine {
    size_t state_size;
    rules_status (*init)(void *state, const rules_options *options, char *error, size_t size);
    /* One line of the game's notation: checked, then played; *played tells what it was. */
    rules_status (*play_line)(void *state, const char *line, rules_played *played, char *error,
                              size_t size);
    int (*seat_count)(const void *state);
    const char *(*colour)(const void *state, int seat);
    int (*active_seat)(const void *state);
    bool (*is_over)(const void *state);
    /* The running score of every seat (what each would score if the game ended now). */
    void (*scores)(const void *state, int32_t *scores);
    /* 1 = winner, ties share a rank. */
    void (*ranks)(const void *state, int32_t *ranks);
    /* A whole random legal game from an initialised state, each line handed to emit. */
    rules_status (*random_game)(void *state, uint64_t seed,
                                void (*emit)(void *context, const char *line), void *context,
                                char *error, size_t size);
    /* For summaries (`play --json`): what the game counts per seat besides the score
     * (Expedition Luxor: "supply", "captured"; Luxor: "sarcophagi", "unvalued";
     * Expéditions: "cards_laid", "in_hand", "tokens_recovered", "tickets"). */
    int counter_count;
    const char *counter_names[RULES_MAX_COUNTERS];
    int (*seat_counter)(const void *state, int seat, int counter);
    /* For `tablescribe play --help`: the game's options and notation, lines ending in \n. */
    const char *help;

    /* What a camera sees of the game: observation_size bytes of the game's own observation
     * (Expedition Luxor: el_observation). 0 and NULLs: not available yet for this game. */
    size_t observation_size;
    /* What a camera above the table would see of the state, every field seen. */
    void (*observe)(const void *state, void *observation);
    /* Which legal actions of this and the following turns (the setup too) lead from the state
     * to a table that looks like the observation? Unseen fields match anything. Allocates
     * nothing, leaves the state unchanged; *result is always filled. */
    void (*reconcile)(const void *state, const void *observation, rules_reconciled *result);
    /* How well the picture the observation was read from supports the state's game: 0 at
     * best, lower for a game the picture shows worse (Expedition Luxor: el_support). Ranks
     * the games that all fit a table, the likeliest first, when the players are asked. NULL:
     * the camera ranks none. */
    int (*support)(const void *state, const void *observation);
    /* What the players corrected (NULLs and 0: nothing is forgiven). The players' lines took
     * the game from before to after while the camera read reading (before NULL: the players
     * say the table is as after has it): what reading shows otherwise of the cells they
     * changed (every cell) is noted in misreads (misreads_size bytes, zeroed at first: none
     * noted), so that forgive later takes it out of an observation that reads it alike: the
     * camera misreads a still stack, a shadow, the same way on every table. */
    size_t misreads_size;
    void (*note_misreads)(const void *before, const void *after, const void *reading,
                          void *misreads);
    void (*forgive)(const void *state, const void *misreads, void *observation);
    /* The misreads as one line for the archive, and back, so that a game resumed after a cut
     * forgives what the players corrected before it: format returns the length the line needs
     * (as snprintf; "" holds none), parse reads such a line whole or says why not
     * (RULES_BAD_NOTATION, misreads then none). */
    int (*format_misreads)(const void *state, const void *misreads, char *text, size_t size);
    rules_status (*parse_misreads)(const void *state, const char *text, void *misreads,
                                   char *error, size_t size);
    /* When the rules leave the active seat one action only (a pass without tiles, the end of a
     * turn that can do nothing more), writes it as a line for play_line (with the seat's
     * prefix) into line (size bytes) and returns true; false when there is a choice or the game
     * is not being played. */
    bool (*forced)(const void *state, char *line, size_t size);
    /* The action that closes the active seat's turn now, as a line for play_line, when the
     * players say the turn is over ("black: end", or "black: pass" for a seat without tiles);
     * false when the turn cannot end yet (nothing placed) or the game is not being played. */
    bool (*close_turn)(const void *state, char *line, size_t size);
    /* The actions the active seat may have played unseen before closing its turn: legal now,
     * and the table still looks like the observation after each (Expedition Luxor: a
     * sandstorm or caravan onto a stack of the seat's own colour, el_hidden_tokens). Each is
     * a candidate of one line, in result (answer RULES_AMBIGUOUS when there are any,
     * RULES_UNCHANGED when none). NULL: the game has none. */
    void (*hidden_actions)(const void *state, const void *observation, rules_reconciled *result);
} rules_engine;

typedef struct rules_game {
    const char *id;            /* stable id used on the command line and in the archive */
    const char *title;         /* the name printed on the box, for people and exports */
    int min_players;
    int max_players;
    unsigned flags;            /* the RULES_FLAG_* this game understands */
    int adventures;            /* how many adventures (rules_options.adventure) it offers, 0
                                * when none */
    const rules_engine *engine; /* NULL: this game's engine is not available yet */
} rules_game;

/* All supported games, in a stable order. *count receives their number. Static storage. */
const rules_game *rules_games(size_t *count);

/* The game with this id, or NULL when there is none. Static storage. */
const rules_game *rules_game_find(const char *id);

#endif
