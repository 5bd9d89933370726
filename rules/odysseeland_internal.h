/* What the Odyssée-land engine's files share and nobody else needs. */
#ifndef TS_ODYSSEELAND_INTERNAL_H
#define TS_ODYSSEELAND_INTERNAL_H

#include "odysseeland.h"
#include "rules_internal.h"
#include "rules_text.h"

/* Writes the reason into error (when not NULL) and returns status: the engine's one way to
 * refuse. */
#define od_fail(error, status, ...) \
    ((od_status)rules_fail((error), sizeof(error)->message, status, __VA_ARGS__))

/* The most swords a fight may use: 3; 4 in adventure 5 and against the colossal giant. */
int od_max_swords(const od_state *state, bool giant);

/* Adventure 4: the laurels a seat needs before it may fight the giant, and its strength. */
int od_giant_laurels(const od_state *state);
int od_giant_strength(const od_state *state);
/* Adventure 4: whether the seat holds the five keys and enough laurels. */
bool od_giant_ready(const od_state *state, int seat);

/* The key colours by city (adventure 4): yellow (3), green (4), blue (5), grey (6), red
 * (capital). */
const char *od_key_name(int city);

/* The field the sprite stands on, OD_NONE beside the board. */
int od_sprite_field(const od_state *state);

/* Whether a seat has pieces (adventurers) on a place. */
static inline bool od_has(const od_state *state, int place, int seat)
{
    return state->places[place].adventurers[seat] > 0;
}

/* The field `distance` fields from place going south or east, OD_NONE off the board or
 * against a start space's one way (in front of a row: east; above a column: south). */
int od_destination(int place, int direction, int distance);

/* Adventure 6: where an adventurer displaced from `field` goes northwards or westwards
 * (OL-ENGINE-7), OD_NONE when nowhere. */
int od_displaced_to(const od_state *state, int field, int direction);

/* Adventure 5: the fields a creature on `field` may advance to (straight south or east into the
 * capital or the city of 5, not onto another creature); returns the count. */
int od_advance_targets(const od_state *state, int field, int *targets);

/* Adventure 6: the fields the king may go to after its guardian on `field` falls. */
int od_king_targets(const od_state *state, int field, int *targets);

/* A step of this kind at place, everything else empty (OD_NONE where "none" is not 0). */
void od_step_init(od_step *step, int kind, int place);

/* One step on a scratch state, without the turn's bookkeeping (random games, reconcile): the
 * state may be left half-changed on failure. */
od_status od_step_apply(od_state *state, const od_step *step, od_error *error);

/* A move in 8 bytes: searches list many moves and expand few. */
typedef struct od_compact_move {
    uint8_t place, direction, distance;
    int8_t part, displace;
    bool giant, fights;
} od_compact_move;

/* Every move of the active seat in od_legal_moves' order; returns the count (at most
 * OD_MAX_MOVES written). */
int od_compact_moves(const od_state *state, od_compact_move *moves);
void od_expand_move(const od_compact_move *move, od_step *step);
/* The index-th of od_legal_moves' moves, without writing the others. */
bool od_nth_move(const od_state *state, int index, od_step *move);

/* Appends one step in the canonical notation. */
void od_format_step(const od_state *state, const od_step *step, rules_writer *writer);

#endif
