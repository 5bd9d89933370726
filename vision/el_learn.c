/* Teaching a box of Expedition Luxor: what its tiles, pieces and tokens look like. */
#include "el_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPREAD_FLOOR 0.08f        /* no colour is learnt tighter than this (balanced units) */

void vision_el_model_init(vision_el_model *model)
{
    memset(model, 0, sizeof *model);
    model->piece_diameter_mm = VISION_EL_PIECE_DIAMETER_MM;
    model->piece_height_mm = VISION_EL_PIECE_HEIGHT_MM;
    model->art_span = VISION_EL_ART_SPAN;
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
    if (n > 0) { /* how the learnt art looks here */
        el_tile_views views;
        el_art_turns turns;
        el_tile_views_sample(table, grid, mat, model->art_span, row, col, NULL, &views);
        el_art_turns_of(el_model_art(model, type), &turns);
        el_tile_distance(&views, &turns, &match);
    }
    el_patch sample;
    el_patch_sample_at(table, grid, mat, model->art_span, row, col, match.shift_mm, &sample);
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

/*
 * A token's palette: k-means of the colours it showed (count of them), started from the
 * palette learnt before when there is one (earlier is how many colours that palette was
 * learnt from), else from colours far apart; then averaged with it, each by its colours.
 */
static void learn_palette(vision_el_model *model, int token, float (*pixels)[3], int count,
                          int earlier)
{
    enum { K = VISION_EL_TOKEN_PALETTE, ROUNDS = 12 };
    float centre[K][3];
    if (earlier > 0) {
        memcpy(centre, model->token_palette[token], sizeof centre);
    } else { /* the first far from the mean, each next far from those before */
        float mean[3] = {0, 0, 0};
        for (int i = 0; i < count; i++)
            for (int c = 0; c < 3; c++)
                mean[c] += pixels[i][c] / (float)count;
        for (int k = 0; k < K; k++) {
            int far = 0;
            float farthest = -1.0f;
            for (int i = 0; i < count; i++) {
                float nearest = k == 0 ? el_squared_distance(pixels[i], mean) : INFINITY;
                for (int j = 0; j < k; j++)
                    nearest = fminf(nearest, el_squared_distance(pixels[i], centre[j]));
                if (nearest > farthest) {
                    farthest = nearest;
                    far = i;
                }
            }
            memcpy(centre[k], pixels[far], sizeof centre[k]);
        }
    }
    int members[K];
    for (int round = 0; round < ROUNDS; round++) {
        float sum[K][3];
        memset(sum, 0, sizeof sum);
        memset(members, 0, sizeof members);
        for (int i = 0; i < count; i++) {
            int best = 0;
            float nearest = el_squared_distance(pixels[i], centre[0]);
            for (int k = 1; k < K; k++) {
                float d = el_squared_distance(pixels[i], centre[k]);
                if (d < nearest) {
                    nearest = d;
                    best = k;
                }
            }
            members[best]++;
            for (int c = 0; c < 3; c++)
                sum[best][c] += pixels[i][c];
        }
        for (int k = 0; k < K; k++)
            for (int c = 0; c < 3; c++)
                if (members[k])
                    centre[k][c] = sum[k][c] / (float)members[k];
    }
    for (int k = 0; k < K; k++) {
        float before = earlier > 0 ? model->token_palette_share[token][k] * (float)earlier : 0.0f;
        float now = (float)members[k];
        for (int c = 0; c < 3; c++)
            model->token_palette[token][k][c] =
                before + now > 0.0f
                    ? (model->token_palette[token][k][c] * before + centre[k][c] * now) /
                          (before + now)
                    : centre[k][c];
        model->token_palette_share[token][k] = (before + now) / (float)(earlier + count);
    }
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

#define MIN_TEACH_LEAN_MM 1.5 /* a piece must lean its image this far for its size to be fitted */
#define TRUTH_UNSEEN_MOST 2 /* tiles of the truth the image may fail to show, beside others, */
#define TRUTH_UNSEEN_SHOWS 0.05 /* if this share of their cell is unlike the mat (bare mat: 0) */
#define READ_BACK_SHARE 0.75  /* of the teaching photo's tile types, read back with what it taught */

/* The stacks of the truth, where the art under them is known: tile indices. */
static int stacks_of(const vision_el_observation *truth, const el_scenery *scenery, int row0,
                     int col0, int *tiles)
{
    int count = 0;
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        if (t->height >= 1 && t->top >= 0 && scenery->art[row0 + t->row][col0 + t->col])
            tiles[count++] = i;
    }
    return count;
}

/* How well pieces of this size explain every stack of the truth: the sum of their capsules'
 * scores, each at its best foot. */
static double size_score(el_evidence *evidence, const vision_registration *registration,
                         const vision_el_observation *truth, const int *tiles, int count,
                         int row0, int col0, double radius, double piece)
{
    double sum = 0.0;
    for (int i = 0; i < count; i++) {
        const vision_el_tile *t = &truth->tiles[tiles[i]];
        el_stack_fit fit;
        el_stack_fit_tile(evidence, registration, row0 + t->row, col0 + t->col, radius, piece,
                          t->height, t->height, NULL, NULL, &fit);
        sum += fit.score[t->height];
    }
    return sum;
}

/* The pieces' radius and height: the size whose capsules best cover the stacks, found one
 * measure at a time (each is sharp: a capsule too wide or too long covers art). Needs stacks
 * of two heights at least, or height and lean cannot be told apart, and stacks far enough
 * from the camera's foot for their images to lean; false otherwise, *radius and *piece
 * unchanged. */
static bool fit_piece_size(el_evidence *evidence, const vision_registration *registration,
                           const vision_el_observation *truth, const int *tiles, int count,
                           int row0, int col0, double *radius, double *piece)
{
    int low = 99, high = 0;
    for (int i = 0; i < count; i++) {
        int h = truth->tiles[tiles[i]].height;
        low = h < low ? h : low;
        high = h > high ? h : high;
    }
    if (count < 2 || low == high)
        return false;
    /* A stack's height shows as how far its image leans away from the camera's foot: right
     * under the camera a piece leans its image less than a pixel or two. */
    double lean = 0.0;
    for (int i = 0; i < count; i++) {
        const vision_el_tile *t = &truth->tiles[tiles[i]];
        double x, y;
        el_grid_centre(evidence->scenery->grid, row0 + t->row, col0 + t->col, &x, &y);
        double away = hypot(x - registration->camera_mm[0], y - registration->camera_mm[1]);
        lean = fmax(lean, away * VISION_EL_PIECE_HEIGHT_MM / registration->camera_mm[2]);
    }
    if (lean < MIN_TEACH_LEAN_MM)
        return false;
    double r = VISION_EL_PIECE_DIAMETER_MM / 2.0, h = VISION_EL_PIECE_HEIGHT_MM;
    static const struct {
        bool radius;
        double low, high, step;
    } passes[] = {{false, 5.0, 14.0, 0.5}, {true, 4.0, 10.0, 0.25}, {false, -0.5, 0.5, 0.1},
                  {true, -0.25, 0.25, 0.05}};
    for (size_t p = 0; p < sizeof passes / sizeof passes[0]; p++) {
        double centre = p < 2 ? 0.0 : passes[p].radius ? r : h;
        double best = -INFINITY, best_value = passes[p].radius ? r : h;
        for (double v = centre + passes[p].low; v <= centre + passes[p].high + 1e-9;
             v += passes[p].step) {
            double score = passes[p].radius
                               ? size_score(evidence, registration, truth, tiles, count, row0,
                                            col0, v, h)
                               : size_score(evidence, registration, truth, tiles, count, row0,
                                            col0, r, v);
            if (score > best) {
                best = score;
                best_value = v;
            }
        }
        if (passes[p].radius)
            r = best_value;
        else
            h = best_value;
    }
    *radius = r;
    *piece = h;
    return true;
}

#define DIAMETER_REACH_MM 2.5 /* a diameter measured further from the game's than this measured
                                 something else (a shadow, a neighbour): the game's is kept */

/*
 * The pieces' diameter: the mean of what each photo taught measured (fit_piece_size, against
 * the art as shade allows and with the pieces' colours known), the game's for a photo whose
 * stacks cannot tell it. Their height stays the game's: one photo's few stacks measure it
 * worse than it is known (bench/README.md).
 */
static vision_status learn_diameter(const vision_registration *registration,
                                    const el_table *table, el_scenery *scenery,
                                    const vision_el_observation *truth, const int *stacks,
                                    int stack_count, int row0, int col0, vision_el_model *learnt)
{
    scenery->unshaded = false;
    el_evidence evidence;
    vision_status status = el_evidence_init(&evidence, table, scenery, learnt);
    if (status != VISION_OK)
        return status;
    double r = VISION_EL_PIECE_DIAMETER_MM / 2.0, h = VISION_EL_PIECE_HEIGHT_MM;
    fit_piece_size(&evidence, registration, truth, stacks, stack_count, row0, col0, &r, &h);
    el_evidence_free(&evidence);
    double measured = fabs(2.0 * r - VISION_EL_PIECE_DIAMETER_MM) <= DIAMETER_REACH_MM
                          ? 2.0 * r
                          : VISION_EL_PIECE_DIAMETER_MM;
    learnt->piece_diameter_mm =
        (learnt->piece_diameter_mm * learnt->images + measured) / (learnt->images + 1);
    learnt->piece_height_mm = VISION_EL_PIECE_HEIGHT_MM;
    return VISION_OK;
}

/* Whether (r, c) is a cell of the grid. */
static bool on_grid(const el_grid *grid, int r, int c)
{
    return r >= 0 && c >= 0 && r < grid->rows && c < grid->cols;
}

/* Whether the grid holds a tile at (r, c); false off the grid. */
static bool held(const el_grid *grid, int r, int c)
{
    return on_grid(grid, r, c) && grid->tile[r][c];
}

/* Finds the grid and where the truth lies on it (truth row r, column c at grid row row0 + r,
 * column col0 + c; a truth's rows and columns may start anywhere, negative ones too): the
 * placement that covers the most cells seen to hold something (a lamp's glare may look like
 * more). Every tile of the truth must be seen, but for a few beside the others (below), which
 * the grid then holds. */
static vision_status place_truth(const el_table *table, const vision_mat *mat,
                                 const vision_el_observation *truth, el_grid *grid, int *row0,
                                 int *col0, char *error, size_t size)
{
    vision_status status = el_grid_find(table, mat, grid);
    if (status == VISION_NOMEM)
        return status;
    if (status != VISION_OK) {
        snprintf(error, size, "no tiles seen on the mat");
        return VISION_BAD_INPUT;
    }
    int low_row = INT_MAX, low_col = INT_MAX;
    for (int i = 0; i < truth->tile_count; i++) {
        low_row = truth->tiles[i].row < low_row ? truth->tiles[i].row : low_row;
        low_col = truth->tiles[i].col < low_col ? truth->tiles[i].col : low_col;
    }
    int best = -1;
    *row0 = -low_row;
    *col0 = -low_col;
    for (int dr = -low_row; dr < grid->rows - low_row; dr++)
        for (int dc = -low_col; dc < grid->cols - low_col; dc++) {
            int hits = 0;
            for (int i = 0; i < truth->tile_count; i++)
                hits += held(grid, dr + truth->tiles[i].row, dc + truth->tiles[i].col);
            if (hits > best) {
                best = hits;
                *row0 = dr;
                *col0 = dc;
            }
        }
    /* A tile whose art is much like the mat may not stand out from it (an oasis as dark as a
     * maroon mat): where the truth puts one beside tiles the image shows, and only a few such,
     * the truth is taken for it; the read-back check then tells whether it was right. */
    bool unseen[VISION_EL_TILES_MAX] = {false};
    int unseen_count = 0;
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        int r = *row0 + t->row, c = *col0 + t->col;
        if (held(grid, r, c))
            continue;
        bool beside = false;
        for (int j = 0; j < truth->tile_count && !beside; j++) {
            int dr = truth->tiles[j].row - t->row, dc = truth->tiles[j].col - t->col;
            beside = abs(dr) + abs(dc) == 1 &&
                     held(grid, *row0 + truth->tiles[j].row, *col0 + truth->tiles[j].col);
        }
        if (on_grid(grid, r, c) && beside && unseen_count < TRUTH_UNSEEN_MOST &&
            el_cell_foreground(table, grid, mat, r, c) >= TRUTH_UNSEEN_SHOWS) {
            unseen[i] = true;
            unseen_count++;
            continue;
        }
        snprintf(error, size,
                 "the truth has a tile at row %d, column %d, but the image shows none there "
                 "(the truth has %d tiles; %d of them are where the image shows tiles)",
                 t->row, t->col, truth->tile_count, best);
        return VISION_BAD_INPUT;
    }
    for (int i = 0; i < truth->tile_count; i++)
        if (unseen[i]) {
            grid->tile[*row0 + truth->tiles[i].row][*col0 + truth->tiles[i].col] = true;
            grid->tiles++;
        }
    return VISION_OK;
}

/* Learns from the table seen from above; vision_el_learn's body. */
static vision_status learn(const vision_registration *registration, const vision_mat *mat,
                           const vision_el_observation *truth, vision_el_model *model,
                           const float mat_colour[3], const el_table *seen_table,
                           bool game_size, bool *measured, char *error, size_t size)
{
    const el_table table = *seen_table;
    el_grid grid;
    int row0, col0;
    vision_status status = place_truth(&table, mat, truth, &grid, &row0, &col0, error, size);
    if (status != VISION_OK)
        return status;

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
    scenery.span = learnt.art_span;
    memcpy(scenery.mat_colour, mat_colour, sizeof scenery.mat_colour);
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        int r = row0 + t->row, c = col0 + t->col;
        if (t->type < 0 || learnt.type_samples[t->type] == 0)
            continue;
        el_tile_views views;
        el_art_turns turns;
        el_tile_views_sample(&table, &grid, mat, learnt.art_span, r, c, NULL, &views);
        el_art_turns_of(el_model_art(&learnt, t->type), &turns);
        el_tile_distance(&views, &turns, &scenery.match[r][c]);
        scenery.art[r][c] = el_model_art(&learnt, t->type);
    }

    /* The pieces' colours, twice: the first time from what is unlike the art alone (a yellow
     * top on sand may pass for shaded sand), the second with the colours found. Their tops are
     * found with the size that best explains this photo's stacks, unless game_size or they
     * cannot tell it (*measured says which), else with the game's; heights are read with the
     * game's size (vision_el_model_init), which one photo's few stacks measure worse than it is
     * known (bench/README.md). */
    int stacks[VISION_EL_TILES_MAX];
    int stack_count = stacks_of(truth, &scenery, row0, col0, stacks);
    /* Against the art as this photo shows it, no shade allowed: a grey piece passes for shaded
     * sand and a black one for shaded tents, and the truth says where the stacks are anyway. */
    scenery.unshaded = true;
    vision_el_model guess = learnt; /* the pieces as the last round saw them */
    for (int round = 0; round < 2; round++) {
        vision_el_model next = learnt; /* what earlier photos taught, and this round's pieces */
        el_evidence evidence;
        status = el_evidence_init(&evidence, &table, &scenery, round == 0 ? NULL : &guess);
        if (status != VISION_OK)
            return status;
        /* the game's size where this photo's stacks cannot tell theirs */
        double r = VISION_EL_PIECE_DIAMETER_MM / 2.0, h = VISION_EL_PIECE_HEIGHT_MM;
        *measured = !game_size && fit_piece_size(&evidence, registration, truth, stacks,
                                                 stack_count, row0, col0, &r, &h);
        for (int i = 0; i < stack_count; i++) {
            const vision_el_tile *t = &truth->tiles[stacks[i]];
            int colour = model_colour(&next, truth->colours[t->top]);
            if (colour < 0) {
                el_evidence_free(&evidence);
                snprintf(error, size, "more than %d colours to learn", VISION_COLOURS_MAX);
                return VISION_BAD_INPUT;
            }
            el_stack_fit fit;
            el_stack_fit_tile(&evidence, registration, row0 + t->row, col0 + t->col, r, h,
                              t->height, t->height, NULL, NULL, &fit);
            if (fit.found)
                add_sample(next.colour_mean[colour], next.colour_spread[colour],
                           &next.colour_samples[colour], fit.top_colour);
        }
        el_evidence_free(&evidence);
        guess = next;
    }
    learnt = guess;
    /* A colour never seen would keep a mean of 0, which reads as black. */
    for (int i = 0; i < stack_count; i++) {
        const vision_el_tile *t = &truth->tiles[stacks[i]];
        int colour = model_colour(&learnt, truth->colours[t->top]);
        if (colour >= 0 && learnt.colour_samples[colour] == 0) {
            snprintf(error, size,
                     "the %s adventurers were not found (the stack at row %d, column %d): take "
                     "the photo again with that stack in plain view, no hand or glare over it",
                     truth->colours[t->top], t->row, t->col);
            return VISION_BAD_INPUT;
        }
    }
    status = learn_diameter(registration, &table, &scenery, truth, stacks, stack_count, row0,
                            col0, &learnt);
    if (status != VISION_OK)
        return status;

    /* Tokens: the colours on their tile that are not its art. */
    enum { MAX_TOKEN_PIXELS = 4 * EL_PATCH * EL_PATCH };
    float(*token_pixels)[MAX_TOKEN_PIXELS][3] =
        malloc(EL_TOKEN_TYPES * sizeof *token_pixels);
    if (!token_pixels)
        return VISION_NOMEM;
    int token_pixel_count[EL_TOKEN_TYPES] = {0};
    int token_samples_before[EL_TOKEN_TYPES];
    memcpy(token_samples_before, learnt.token_samples, sizeof token_samples_before);
    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        int r = row0 + t->row, c = col0 + t->col;
        if ((t->token != EL_BOAT && t->token != EL_SNAKES) || !scenery.art[r][c])
            continue;
        el_patch patch;
        el_patch_sample_at(&table, &grid, mat, learnt.art_span, r, c,
                           scenery.match[r][c].shift_mm, &patch);
        /* every colour of the print, those the art in shade would show too */
        float unlike[EL_PATCH * EL_PATCH][3];
        int count = el_unlike_art(&patch, scenery.art[r][c], &scenery.match[r][c], NULL,
                                  0.0f, unlike);
        for (int k = 0; k < count; k++) {
            add_sample(learnt.token_mean[t->token], learnt.token_spread[t->token],
                       &learnt.token_samples[t->token], unlike[k]);
            if (token_pixel_count[t->token] < MAX_TOKEN_PIXELS)
                memcpy(token_pixels[t->token][token_pixel_count[t->token]++], unlike[k],
                       sizeof unlike[k]);
        }
    }
    for (int token = EL_BOAT; token <= EL_SNAKES; token++) {
        /* A model from a profile of format 1 has samples but no palette: it starts afresh. */
        if (token_pixel_count[token] > 0)
            learn_palette(&learnt, token, token_pixels[token], token_pixel_count[token],
                          el_has_palette(&learnt, token) ? token_samples_before[token] : 0);
    }
    free(token_pixels);
    for (int i = 0; i < learnt.colour_count; i++)
        for (int c = 0; c < 3; c++)
            if (learnt.colour_spread[i][c] < SPREAD_FLOOR)
                learnt.colour_spread[i][c] = SPREAD_FLOOR;
    learnt.images++;
    *model = learnt;
    return VISION_OK;
}

/* vision_el_learn before its check: learns the frame into model. */
static vision_status learn_frame(const vision_image *frame,
                                 const vision_registration *registration, const vision_mat *mat,
                                 const vision_el_observation *truth, vision_el_model *model,
                                 bool game_size, bool *measured, char *error, size_t size)
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
    status = learn(registration, mat, truth, model, mat_colour, &table, game_size, measured, error,
                   size);
    el_table_free(&table);
    return status;
}

/* A model taught from the photo, and how much of the photo it reads back. */
typedef struct taught {
    vision_el_model model;
    bool measured; /* its tops were found with the size measured from the photo's stacks */
    vision_el_observation seen;
    vision_el_read_back back;
} taught;

static int fields_read_back(const vision_el_read_back *back)
{
    return back->types + back->tops + back->heights;
}

/* Whether a taught model reads its photo back better than another: none of its stacks' tops
 * surely another colour first, then the more fields read back. */
static bool reads_back_better(const vision_el_read_back *a, const vision_el_read_back *b)
{
    if ((a->other_tops == 0) != (b->other_tops == 0))
        return a->other_tops == 0;
    return fields_read_back(a) > fields_read_back(b);
}

vision_status vision_el_learn(const vision_image *frame, const vision_registration *registration,
                              const vision_mat *mat, const vision_el_observation *truth,
                              vision_el_model *model, char *error, size_t size)
{
    taught *tries = calloc(2, sizeof *tries);
    if (!tries) {
        snprintf(error, size, "out of memory");
        return VISION_NOMEM;
    }
    /* The tops are found with the size measured from this photo's stacks, then with the game's,
     * and the model that reads back more of the photo is kept: a shadow cast along the stacks
     * makes them look taller than they are, which puts a top off the piece (bench/README.md).
     * A photo the model cannot read back taught it wrong (a grid off by a tile, art learnt
     * under glare): refused, so that the owner takes another, rather than a box that misreads
     * every game. A model still missing a type or the pieces (more photos to come) is not
     * checked. */
    vision_status status = VISION_OK;
    int best = -1;
    for (int k = 0; k < 2; k++) {
        taught *t = &tries[k];
        char scratch[512], why[256];
        char *message = k == 0 ? error : scratch; /* the second try's failure only costs it */
        size_t message_size = k == 0 ? size : sizeof scratch;
        t->model = *model;
        vision_status learnt = learn_frame(frame, registration, mat, truth, &t->model, k == 1,
                                           &t->measured, message, message_size);
        if (learnt == VISION_OK) {
            learnt = el_read_back(frame, registration, mat, &t->model, &t->seen, why,
                                  sizeof why);
            if (learnt == VISION_OK)
                vision_el_read_back_of(truth, &t->seen, &t->back);
            else if (learnt == VISION_NOT_TAUGHT) {
                t->back.types = truth->tile_count;
                learnt = VISION_OK;
            } else
                snprintf(message, message_size, "reading back what this photo taught: %s", why);
        }
        if (learnt == VISION_OK && (best < 0 || reads_back_better(&t->back, &tries[best].back)))
            best = k;
        if (k == 0 || learnt == VISION_NOMEM)
            status = learnt;
        if (status != VISION_OK || !t->measured)
            break; /* nothing taught, or taught with the game's size already */
    }
    if (status == VISION_OK && tries[best].back.types < READ_BACK_SHARE * truth->tile_count) {
        snprintf(error, size,
                 "what this photo taught reads back only %d of its %d tile types where the "
                 "truth puts them: a tile the truth does not have, or glare taken for one, "
                 "shifts them; take it again (even light, no glare, only the layout's tiles)",
                 tries[best].back.types, truth->tile_count);
        status = VISION_BAD_INPUT;
    }
    /* A colour learnt from a top read half off its piece (its side in shade, the sand beside
     * it) reads the photo's own top as another colour, and every game's with it. */
    if (status == VISION_OK && tries[best].back.other_tops > 0) {
        const vision_el_tile *t = &truth->tiles[tries[best].back.first_other];
        snprintf(error, size,
                 "what this photo taught reads the %s adventurers on top of the stack at row "
                 "%d, column %d back as %s: their colour was not seen clearly; take it again "
                 "(even light, no glare, the stacks in plain view)",
                 truth->colours[t->top], t->row, t->col, tries[best].back.first_other_read);
        status = VISION_BAD_INPUT;
    }
    if (status == VISION_OK)
        *model = tries[best].model;
    else if (status == VISION_NOMEM)
        snprintf(error, size, "out of memory");
    free(tries);
    return status;
}
