/*
 * rules: the four games' engines and the table that names them.
 *
 *   rules_games() ──▶ rules_game { id, title, players, engine }
 *                                              │
 *                                              └─▶ one engine per game (later issues): a state
 *                                                  value without pointers, move generation,
 *                                                  notation, scoring, reconcile
 *
 * The tracker, the archive and the live view work through this table and never name a game.
 * This module depends on libc and libm only.
 */
#ifndef TS_RULES_H
#define TS_RULES_H

#include <stddef.h>

/* The most seats any supported game has (Expéditions: 6). */
#define RULES_MAX_SEATS 6

/* An engine's functions. Declared here, defined when the first engine lands. */
struct rules_engine;

typedef struct rules_game {
    const char *id;            /* stable id used on the command line and in the archive */
    const char *title;         /* the name printed on the box, for people and exports */
    int min_players;
    int max_players;
    const struct rules_engine *engine; /* NULL: this game's engine is not available yet */
} rules_game;

/* All supported games, in a stable order. *count receives their number. Static storage. */
const rules_game *rules_games(size_t *count);

/* The game with this id, or NULL when there is none. Static storage. */
const rules_game *rules_game_find(const char *id);

#endif
