/* What the Luxor engine's files share and nobody else needs. */
#ifndef TS_LUXOR_INTERNAL_H
#define TS_LUXOR_INTERNAL_H

#include "luxor.h"

/* A drop in progress: the tile is in the wall, its pairs wait to be resolved one by one.
 * lx_apply, the legal drops and the random game all go through these steps, so that there is
 * one place where a pair's consequences are decided. */
typedef struct lx_turn {
    int pair_count;
    lx_pair pairs[LX_MAX_PAIRS];
    bool resolved[LX_MAX_PAIRS];
    uint8_t turn_scarabs[LX_ANIMALS]; /* scarabs placed at each pillar this turn (at most 2) */
} lx_turn;

/* Puts the tile into the slot (phase PLAY, slot with room, valid windows: checked by the
 * caller) and finds its pairs. */
void lx_turn_begin(lx_state *state, lx_turn *turn, int slot, uint8_t top, uint8_t bottom);

/* Resolves one pair of the named animal as the resolution says. LX_ILLEGAL with the reason when
 * there is no such pair left or the placement is not allowed; the state may then be changed
 * (callers work on a copy). */
lx_status lx_turn_resolve(lx_state *state, lx_turn *turn, const lx_resolution *resolution,
                          lx_error *error);

/* Whether the resolution's placement would be allowed now (no side effect). */
bool lx_turn_allows(const lx_state *state, const lx_turn *turn, const lx_resolution *resolution);

/* Closes the drop: the next seat, or the end-game phase when the wall is full. */
void lx_turn_end(lx_state *state);

/* Moves one end-game scarab (checked by the caller), opening a sarcophagus where 3 meet. */
void lx_move_scarab(lx_state *state, int from, int to);

/* Whether the seat may move one end-game scarab from one pillar to the other, and why not. */
bool lx_scarab_move_allowed(const lx_state *state, int seat, int from, int to, lx_error *error);

/* Whether the game records every value that counts (then the reveal phase is over). */
bool lx_all_revealed(const lx_state *state);

/* Draws after the deal at which the curse variant's second pile is in use. */
bool lx_second_pile_in_use(const lx_state *state);

/* The same game: the fields that matter compared one by one (padding never is). */
bool lx_same_game(const lx_state *a, const lx_state *b);

/* The animal of a name, or -1. */
int lx_animal_of(const char *name, size_t length);

/* The value ranges of the eye categories (LX-ENGINE-5). */
bool lx_value_possible(int eyes, int value);

#endif
