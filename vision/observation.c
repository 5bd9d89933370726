/* The observation types' small helpers, the mat's defaults, and a game state as a truth. */
#include "vision.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
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

void vision_el_read_back_of(const vision_el_observation *truth, const vision_el_observation *seen,
                            vision_el_read_back *read)
{
    memset(read, 0, sizeof *read);
    read->first_other = -1;
    int row0 = INT_MAX, col0 = INT_MAX;
    for (int i = 0; i < truth->tile_count; i++) {
        row0 = truth->tiles[i].row < row0 ? truth->tiles[i].row : row0;
        col0 = truth->tiles[i].col < col0 ? truth->tiles[i].col : col0;
    }
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        read->stacks += t->height > 0;
        for (int j = 0; j < seen->tile_count; j++) {
            const vision_el_tile *s = &seen->tiles[j];
            if (s->row != t->row - row0 || s->col != t->col - col0)
                continue;
            read->types += s->type == t->type;
            if (t->height > 0) {
                bool named = s->top >= 0 && t->top >= 0;
                bool same = named && strcmp(seen->colours[s->top], truth->colours[t->top]) == 0;
                read->tops += same;
                read->heights += s->height == t->height;
                if (named && !same && s->confidence[VISION_EL_TOP] >= 0.5f) {
                    if (read->other_tops++ == 0) {
                        read->first_other = i;
                        snprintf(read->first_other_read, sizeof read->first_other_read, "%s",
                                 seen->colours[s->top]);
                    }
                }
            }
        }
    }
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

/* One field as the rules take it: its value, or EL_UNSEEN when unread or too unsure. */
static int8_t kept(int value, float confidence, float min_confidence, float *lowest)
{
    if (value == VISION_UNKNOWN || confidence < min_confidence)
        return EL_UNSEEN;
    if (confidence < *lowest)
        *lowest = confidence;
    return (int8_t)value;
}

vision_status vision_el_to_rules(const vision_el_observation *seen,
                                 const char (*colours)[EL_COLOUR_MAX], int seats,
                                 float min_confidence, el_observation *out, float *confidence,
                                 char *error, size_t size)
{
    memset(out, 0, sizeof *out);
    float lowest = 1.0f;
    for (int i = 0; i < seen->tile_count; i++) {
        const vision_el_tile *tile = &seen->tiles[i];
        if (tile->row < 0 || tile->col < 0 || tile->row >= EL_GRID || tile->col >= EL_GRID ||
            out->count + out->unknown_count >= EL_MAX_TILES) {
            memset(out, 0, sizeof *out);
            return vision_fail(error, size, VISION_BAD_INPUT,
                               "tiles[%d] at %d,%d: beyond the %dx%d cells the game holds", i,
                               tile->row, tile->col, EL_GRID, EL_GRID);
        }
        if (tile->type < 0 || tile->type >= EL_TILE_TYPES) {
            out->unknown[out->unknown_count].row = (int8_t)tile->row;
            out->unknown[out->unknown_count].col = (int8_t)tile->col;
            out->unknown_count++;
            continue;
        }
        int top = tile->top;
        if (top >= 0) {
            int seat = -1;
            for (int s = 0; s < seats && seat < 0; s++)
                if (top < seen->colour_count && strcmp(seen->colours[top], colours[s]) == 0)
                    seat = s;
            if (seat < 0) {
                memset(out, 0, sizeof *out);
                return vision_fail(error, size, VISION_BAD_INPUT,
                                   "tiles[%d] at %d,%d: top '%s' is no seat's colour", i,
                                   tile->row, tile->col,
                                   top < seen->colour_count ? seen->colours[top] : "?");
            }
            top = seat;
        } else if (top == VISION_NONE) {
            top = EL_EMPTY;
        }
        el_seen_tile *rules_tile = &out->tiles[out->count++];
        rules_tile->row = (int8_t)tile->row;
        rules_tile->col = (int8_t)tile->col;
        /* A type too unsure to keep is unseen, the tile still a tile: were its cell unknown,
         * the rules could explain the table without it (a camp read unsure, then a tile placed
         * beside it, committed as if it came first). */
        rules_tile->type = kept(tile->type, tile->confidence[VISION_EL_TYPE], min_confidence,
                                &lowest);
        rules_tile->top = top == EL_EMPTY ? (tile->confidence[VISION_EL_TOP] < min_confidence
                                                 ? EL_UNSEEN : EL_EMPTY)
                                          : kept(top, tile->confidence[VISION_EL_TOP],
                                                 min_confidence, &lowest);
        rules_tile->height = kept(tile->height, tile->confidence[VISION_EL_HEIGHT],
                                  min_confidence, &lowest);
        /* A height sure enough to keep keeps its runner-up: the rules take either. One too
         * unsure stays unseen, not a pair: given as a pair, the rules found wrong games that
         * fit it (bench/README.md). */
        if (rules_tile->height > 0 && tile->height_or > 0 &&
            tile->height_or <= EL_STACK_MAX && tile->height_or != tile->height)
            rules_tile->height_or = (int8_t)tile->height_or;
        rules_tile->token = kept(tile->token, tile->confidence[VISION_EL_TOKEN], min_confidence,
                                 &lowest);
        /* in tenths of a piece's worth: the rules' values are whole numbers */
        for (int k = 0; k <= EL_STACK_MAX && k <= VISION_EL_STACK_MAX; k++) {
            float support = fmaxf(-VISION_EL_SUPPORT_LEAST, fminf(0.0f, tile->height_support[k]));
            rules_tile->support[k] = (int8_t)lroundf(10.0f * support);
        }
    }
    for (int i = 0; i < seen->unknown_count && out->count + out->unknown_count < EL_MAX_TILES;
         i++) {
        out->unknown[out->unknown_count].row = (int8_t)seen->unknown[i].row;
        out->unknown[out->unknown_count].col = (int8_t)seen->unknown[i].col;
        out->unknown_count++;
    }
    if (confidence)
        *confidence = lowest;
    return VISION_OK;
}
