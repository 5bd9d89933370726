/* Shared by the Expedition Luxor source files; not part of the module's interface. */
#ifndef TS_EXPEDITION_LUXOR_INTERNAL_H
#define TS_EXPEDITION_LUXOR_INTERNAL_H

#include "expedition_luxor.h"
#include "rules_internal.h"

/* Writes the reason into *error (an el_error, or NULL) and returns status: how the engine
 * refuses. */
#define el_fail(error, status, ...) \
    ((el_status)rules_fail((error), sizeof (error)->message, status, __VA_ARGS__))

extern const uint8_t el_box_count[EL_TILE_TYPES];

/* D-EL-1: the five tiles behind each back number 1 to 5 (the 1-pile has four; its fifth
 * entry is EL_TILE_TYPES, no tile). */
extern const uint8_t el_deck_group[5][5];

/* Room for every position a tile could go: never more than the grid's cells. */
#define EL_MAX_POSITIONS (EL_GRID * EL_GRID)

bool el_is_camp(int type);
int el_mandatory(int type);
int el_size_limit(int seats);
/* Whether one more tile at (row, col) keeps the layout's bounding box within the limit; the
 * box's size with it in *width, *height. The box only grows: a cell beyond it now always is. */
bool el_fits_size_limit(const el_state *state, int row, int col, int *width, int *height);
int el_entry_requirement(int type);
int el_tile_value(int type);

/* The cell at (row, col), or NULL outside the grid. */
const el_cell *el_cell_at(const el_state *state, int row, int col);

/* The adventurers the active seat's camp of this type takes: least..most. */
void el_camp_range(const el_state *state, int type, int *least, int *most);

/* The active seat may place a tile of this type as far as its box (and deck) tell. */
bool el_may_place_type(const el_state *state, int type);

/* Positions where any tile may go now; returns the count (positions holds up to max). */
int el_legal_positions(const el_state *state, int8_t (*positions)[2], int max);

/* Every way to place a tile of this type at a legal position (row, col). */
size_t el_placements_at(const el_state *state, int type, int row, int col, el_move *moves,
                        size_t max);

/* Every legal use of one token type by the active seat. */
size_t el_legal_token_moves(const el_state *state, el_token token, el_move *moves, size_t max);

bool el_has_adventurer_on_mountain(const el_state *state, int seat);

#endif
