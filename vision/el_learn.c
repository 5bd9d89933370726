/* Teaching a box of Expedition Luxor: what its tiles, pieces and tokens look like. */
#include "el_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_TOP_REACH_MM 60.0 /* the tallest stack a search allows for before the size is learnt */
#define SPREAD_FLOOR 0.04f        /* no colour is learnt tighter than this (balanced units) */

void vision_el_model_init(vision_el_model *model)
{
    memset(model, 0, sizeof *model);
}

/* Adds a colour sample to a mean and spread of count samples (Welford, population). */
static void add_sample(float mean[3], float spread[3], int *count, const float value[3])
{
    int n = *count;
    for (int c = 0; c < 3; c++) {
        float old_mean = mean[c];
        float variance = spread[c] * spread[c];
        mean[c] = old_mean + (value[c] - old_mean) / (float)(n + 1);
        variance = ((float)n * variance + (value[c] - old_mean) * (value[c] - mean[c])) / (float)(n + 1);
        spread[c] = sqrtf(variance > 0.0f ? variance : 0.0f);
    }
    *count = n + 1;
}

/* Adds a tile's art to its type's, placed, turned and lit to match what was learnt before. */
static void learn_art(vision_el_model *model, int type, const el_table *table, const el_grid *grid,
                      const vision_mat *mat, int row, int col)
{
    int n = model->type_samples[type];
    el_match match = {{0.0, 0.0}, 0, 1.0f, 0.0f, 0.0};
    if (n > 0) /* how the learnt art looks here */
        el_tile_distance(table, grid, mat, row, col, el_model_art(model, type), &match);
    el_patch sample;
    el_patch_sample_at(table, grid, mat, row, col, match.shift_mm, &sample);
    const el_patch *patch = &sample;
    el_patch *art = (el_patch *)(void *)model->type_art[type];
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++) {
            /* The art's (x, y) is where the turned art shows it in the patch. */
            int px = x, py = y;
            const int last = EL_PATCH - 1;
            switch (match.quarter_turns) {
            case 1: px = last - y; py = x; break;
            case 2: px = last - x; py = last - y; break;
            case 3: px = y; py = last - x; break;
            default: break;
            }
            const float *p = patch->colour[py][px];
            for (int c = 0; c < 3; c++) {
                float value = (p[c] - match.offset) / match.gain;
                art->colour[y][x][c] += (value - art->colour[y][x][c]) / (float)(n + 1);
            }
        }
    model->type_samples[type] = n + 1;
}

static int model_colour(vision_el_model *model, const char *name)
{
    for (int i = 0; i < model->colour_count; i++)
        if (strcmp(model->colours[i], name) == 0)
            return i;
    if (model->colour_count == VISION_COLOURS_MAX)
        return -1;
    snprintf(model->colours[model->colour_count], VISION_COLOUR_NAME_MAX, "%s", name);
    return model->colour_count++;
}

typedef struct stack_sample {
    int tile; /* index into the truth */
    el_stack stack;
} stack_sample;

/* The pieces' radius and height that best explain how far each stack of known height reaches.
 * Needs stacks of two heights at least; false otherwise. */
static bool fit_piece_size(const vision_registration *registration, const vision_el_observation *truth,
                           const stack_sample *samples, int count, double *radius, double *height)
{
    int low = 99, high = 0;
    for (int i = 0; i < count; i++) {
        int h = truth->tiles[samples[i].tile].height;
        low = h < low ? h : low;
        high = h > high ? h : high;
    }
    if (count < 2 || low == high)
        return false;
    double camera_height = registration->camera_mm[2];
    double best = INFINITY;
    for (double r = 4.0; r <= 10.0; r += 0.05)
        for (double h = 5.0; h <= 14.0; h += 0.05) {
            double cost = 0.0;
            for (int i = 0; i < count; i++) {
                const el_stack *s = &samples[i].stack;
                double z = truth->tiles[samples[i].tile].height * h;
                if (z >= camera_height * 0.9) {
                    cost = INFINITY;
                    break;
                }
                double predicted = (s->base_reach_mm + 2.0 * r) * camera_height / (camera_height - z);
                cost += (predicted - s->reach_mm) * (predicted - s->reach_mm);
            }
            if (cost < best) {
                best = cost;
                *radius = r;
                *height = h;
            }
        }
    return isfinite(best);
}

/* Learns from the table seen from above; vision_el_learn's body. */
static vision_status learn(const vision_image *frame, const vision_registration *registration,
                           const vision_mat *mat, const vision_el_observation *truth,
                           vision_el_model *model, const el_balance *balance_seen,
                           const float mat_colour[3], const el_table *seen_table, char *error,
                           size_t size)
{
    const el_table table = *seen_table;
    el_balance balance = *balance_seen;
    el_grid grid;
    vision_status status = el_grid_find(&table, mat, &grid);
    if (status == VISION_NOMEM)
        return status;
    if (status != VISION_OK) {
        snprintf(error, size, "no tiles seen on the mat");
        return VISION_BAD_INPUT;
    }

    /* Where the truth lies on the grid: the placement that covers the most cells seen to hold
     * something (a lamp's glare may look like more). Every tile of the truth must be seen. */
    int row0 = 0, col0 = 0, best = -1;
    for (int dr = 0; dr < grid.rows; dr++)
        for (int dc = 0; dc < grid.cols; dc++) {
            int hits = 0;
            for (int i = 0; i < truth->tile_count; i++) {
                int r = dr + truth->tiles[i].row, c = dc + truth->tiles[i].col;
                hits += r < grid.rows && c < grid.cols && grid.tile[r][c];
            }
            if (hits > best) {
                best = hits;
                row0 = dr;
                col0 = dc;
            }
        }
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        int r = row0 + t->row, c = col0 + t->col;
        if (r >= grid.rows || c >= grid.cols || !grid.tile[r][c]) {
            snprintf(error, size,
                     "the truth has a tile at row %d, column %d, but the image shows none there "
                     "(the truth has %d tiles; %d of them are where the image shows tiles)",
                     t->row, t->col, truth->tile_count, best);
            return VISION_BAD_INPUT;
        }
    }

    /* The art: from tiles with nothing on them. */
    vision_el_model learnt = *model;
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        if (t->type < 0 || t->height > 0 || t->top >= 0 || t->token != EL_NO_TOKEN)
            continue;
        learn_art(&learnt, t->type, &table, &grid, mat, row0 + t->row, col0 + t->col);
    }
    for (int c = 0; c < 3; c++)
        learnt.mat_colour[c] = (learnt.mat_colour[c] * (float)learnt.images + mat_colour[c]) /
                               (float)(learnt.images + 1);

    /* What lies on the tiles, against that art. */
    el_scenery scenery;
    memset(&scenery, 0, sizeof scenery);
    scenery.grid = &grid;
    scenery.mat = mat;
    memcpy(scenery.mat_colour, mat_colour, sizeof scenery.mat_colour);
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        int r = row0 + t->row, c = col0 + t->col;
        if (t->type < 0 || learnt.type_samples[t->type] == 0)
            continue;
        el_tile_distance(&table, &grid, mat, r, c, el_model_art(&learnt, t->type),
                         &scenery.match[r][c]);
        scenery.art[r][c] = el_model_art(&learnt, t->type);
    }

    stack_sample stacks[VISION_EL_TILES_MAX];
    int stack_count = 0;
    double radius = learnt.piece_diameter_mm > 0 ? learnt.piece_diameter_mm / 2.0 : 7.0;
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        if (t->height < 1 || t->top < 0 || !scenery.art[row0 + t->row][col0 + t->col])
            continue;
        stacks[stack_count].tile = i;
        el_stack_measure(&table, registration, &scenery, row0 + t->row, col0 + t->col,
                         radius, DEFAULT_TOP_REACH_MM, &stacks[stack_count].stack);
        if (stacks[stack_count].stack.found && !stacks[stack_count].stack.blocked)
            stack_count++;
    }
    if (learnt.piece_height_mm <= 0.0) {
        double r = 0.0, h = 0.0;
        if (!fit_piece_size(registration, truth, stacks, stack_count, &r, &h)) {
            snprintf(error, size,
                     "cannot measure the adventurers: the image needs stacks of two heights at "
                     "least (tablescribe calibrate teach --print-layout shows a layout that has "
                     "them)");
            return VISION_BAD_INPUT;
        }
        learnt.piece_diameter_mm = 2.0 * r;
        learnt.piece_height_mm = h;
    }
    radius = learnt.piece_diameter_mm / 2.0;
    for (int i = 0; i < stack_count; i++) {
        const vision_el_tile *t = &truth->tiles[stacks[i].tile];
        int colour = model_colour(&learnt, truth->colours[t->top]);
        if (colour < 0) {
            snprintf(error, size, "more than %d colours to learn", VISION_COLOURS_MAX);
            return VISION_BAD_INPUT;
        }
        /* Re-measured with the size learnt, so that the foot is where the top is looked for. */
        el_stack stack;
        el_stack_measure(&table, registration, &scenery, row0 + t->row, col0 + t->col,
                         radius, learnt.piece_height_mm * (VISION_EL_STACK_MAX + 0.5), &stack);
        if (!stack.found)
            continue;
        float top[3];
        el_stack_top_colour(frame, registration, &balance, &stack, radius,
                            t->height * learnt.piece_height_mm, top);
        add_sample(learnt.colour_mean[colour], learnt.colour_spread[colour],
                   &learnt.colour_samples[colour], top);
    }

    /* Tokens: the colours on their tile that are not its art. */
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        int r = row0 + t->row, c = col0 + t->col;
        if ((t->token != EL_BOAT && t->token != EL_SNAKES) || !scenery.art[r][c])
            continue;
        el_patch patch;
        el_patch_sample_at(&table, &grid, mat, r, c, scenery.match[r][c].shift_mm, &patch);
        for (int y = 0; y < EL_PATCH; y++)
            for (int x = 0; x < EL_PATCH; x++) {
                float a[3];
                el_match_expected(scenery.art[r][c], &scenery.match[r][c], x, y, a);
                const float *p = patch.colour[y][x];
                float d = (p[0] - a[0]) * (p[0] - a[0]) + (p[1] - a[1]) * (p[1] - a[1]) +
                          (p[2] - a[2]) * (p[2] - a[2]);
                if (d > EL_OUTLIER * EL_OUTLIER)
                    add_sample(learnt.token_mean[t->token], learnt.token_spread[t->token],
                               &learnt.token_samples[t->token], p);
            }
    }
    for (int i = 0; i < learnt.colour_count; i++)
        for (int c = 0; c < 3; c++)
            if (learnt.colour_spread[i][c] < SPREAD_FLOOR)
                learnt.colour_spread[i][c] = SPREAD_FLOOR;
    learnt.images++;
    *model = learnt;
    return VISION_OK;
}

vision_status vision_el_learn(const vision_image *frame, const vision_registration *registration,
                              const vision_mat *mat, const vision_el_observation *truth,
                              vision_el_model *model, char *error, size_t size)
{
    el_balance balance;
    vision_status status = el_balance_measure(frame, registration, mat, &balance, error, size);
    if (status != VISION_OK)
        return status;
    float mat_colour[3];
    el_table_median(frame, registration, mat, &balance, mat_colour);
    el_table table;
    status = el_table_read(frame, registration, mat, &balance, mat_colour, &table);
    if (status != VISION_OK) {
        snprintf(error, size, "cannot see the table from above: %s", vision_status_message(status));
        return status;
    }
    status = learn(frame, registration, mat, truth, model, &balance, mat_colour, &table, error,
                   size);
    el_table_free(&table);
    return status;
}
