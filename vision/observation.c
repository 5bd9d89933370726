/* The observation types' small helpers, the mat's defaults, and a game state as a truth. */
#include "vision.h"

#include <string.h>

void vision_mat_default(vision_mat *mat)
{
    mat->marker_mm = 40.0;
    mat->width_mm = 560.0;
    mat->height_mm = 560.0;
    mat->tile_mm = 40.0;
}

int vision_el_colour_index(vision_el_observation *observation, const char *name)
{
    size_t length = strlen(name);
    if (length == 0 || length >= VISION_COLOUR_NAME_MAX)
        return -1;
    for (int i = 0; i < observation->colour_count; i++)
        if (strcmp(observation->colours[i], name) == 0)
            return i;
    if (observation->colour_count == VISION_COLOURS_MAX)
        return -1;
    memcpy(observation->colours[observation->colour_count], name, length + 1);
    return observation->colour_count++;
}

int vision_el_truth_of_state(const el_state *state, vision_el_observation *truth)
{
    memset(truth, 0, sizeof *truth);
    for (int seat = 0; seat < state->config.seats; seat++)
        vision_el_colour_index(truth, state->config.colours[seat]);
    int adventurers = 0;
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = &state->cells[row + EL_ORIGIN][col + EL_ORIGIN];
            if (!cell->has_tile || truth->tile_count == VISION_EL_TILES_MAX)
                continue;
            vision_el_tile *tile = &truth->tiles[truth->tile_count++];
            tile->row = row - state->min_row;
            tile->col = col - state->min_col;
            tile->type = cell->type;
            tile->height = cell->height;
            tile->top = cell->height ? cell->stack[cell->height - 1] : VISION_NONE;
            /* only the boat and the snakes lie on a tile; the other tokens leave no trace */
            tile->token = cell->token == EL_BOAT || cell->token == EL_SNAKES ? cell->token
                                                                              : EL_NO_TOKEN;
            tile->stack_known = 1;
            for (int k = 0; k < cell->height && k < VISION_EL_STACK_MAX; k++)
                tile->stack[k] = cell->stack[k];
            for (int k = 0; k < 4; k++)
                tile->confidence[k] = 1.0f;
            adventurers += cell->height;
        }
    return adventurers;
}
