/* Reading an Expedition Luxor table: stages of el_internal.h, in order, each timed. */
#include "el_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLARE_UNTOUCHED 0.02 /* a tile a glare whitens less than this is read as before it was
                                taken off (its art's match takes that much as it takes a lamp) */
#define GLARE_PROBE_MM 4.0   /* where glare_reached_mat looks */
#define SAME_GRID_MM 0.5     /* grids whose corner cells lie this near are one */
#define PATCH_KEPT 0.05f     /* a tile's patch this near the last read's is the same tile, */
#define RECALL_MM 5.0        /* where its cell's centre lies this near the one then */
#define HIDDEN_SHARE 0.5    /* a cell more than half unlike any art is hidden (a hand, glare) */
#define PIECE_EXPLAINS 1.0f /* a colour this near a piece's (EL_OUTLIER² units) may be one's,
                               shaded: looser than EL_PIECE_LIKE, as it only tells a tile
                               covered by its stack from one hidden by a hand or glare */
#define PIECE_MIXED 16.0    /* a flat thing's mean colour this near a piece's may be a stack's
                               (its sides, top and shadow mixed; EL_OUTLIER² units) */
#define MISSED_FILLED 0.15  /* a missed stack's best capsule is at least this much piece */
#define STACK_DOUBTED 0.3   /* a stack whose capsule is this much piece, or less, is no stack */
#define STACK_SURE 0.8      /* and this much or more is surely one (bench/README.md) */
#define ART_DOUBTED_STACK 0.7f /* a stack on a tile whose type is a guess at most this sure */
#define SHADOW_TELLS 20     /* a stack's shadow tells whether it stands where it covers this
                               many pixels outside its image, */
#define SHADOW_LIT (-0.1)   /* a shadow this much more lit than darkened says no stack, */
#define SHADOW_DARK 0.1     /* this much more darkened, a stack (bench/README.md); */
#define SHADOW_CAST 0.3     /* this much, on a tile read without one, a stack missed */
#define ART_SEEN_SURE 0.8   /* a tile whose art is seen this much may be sure of its type */
#define RATIO_DOUBTED 0.95  /* a type whose art is this near, over its runner-up's, is a guess; */
#define RATIO_SURE 0.8      /* this much nearer, as sure as its margin (bench/README.md) */
#define TOKEN_SHARE 0.12    /* a token covers at least this share of its tile's art */
#define TOKEN_SURE_SHARE 0.24 /* a token's colours over this share of its tile are surely its
                               print; over less, a shadow or glare tinted like it may be them */
#define STACK_OUTLIERS 0.02 /* a tile this much unlike its art has something on it */
#define COLOUR_UNFIT 4.5    /* a top further than this (in spreads) from every colour is unknown */
#define READ_AGAIN 5 /* the nearest arts read again with the pieces left out (each more costs
                        time for less and less: bench/README.md) */
#define WASHED_OUT_AMID 3  /* a cell showing no art beside this many that do is a tile */
#define TOKEN_OVER_STACK 0.5 /* a token this sure is read where a stack was fitted */
#define PALETTE_NEAR 1.0f    /* a colour this near a palette's or a piece's (EL_OUTLIER² units) */
#define PALETTE_LIKE 0.75    /* a token's colours spread over its palette at least this alike */
#define TOKEN_SHADE_NEAR 0.5f /* a colour this near the art in shade (EL_OUTLIER² units),
                                 where a stack's shadow falls, is no token's print (read_token) */
#define SHADOW_CASTER_FILLED 0.3 /* a capsule this much piece may be a stack the fit missed:
                                    its shadow is marked too (mark_shadows) */
#define LIGHT_LEAN_MM 1.5 /* the light is found from the stacks whose images lean this much a
                             piece: their heights, which its shadows' lengths are measured by,
                             are read without it */
#define MIN_LEAN_MM 1.2     /* a piece must lean its image, or move its shadow's tip, this far
                               for a height to be read */
#define RULE_SURE 0.5 /* a tile this sure of its type holds no more than the rules let it
                         (el_most_adventurers), whatever seems to stand there */
#define HEIGHT_OR_BELOW 1.0f /* a height less sure than this, as the capsules' scores tell,
                                names its runner-up too */

_Static_assert(READ_AGAIN <= EL_TILE_TYPES, "more arts read again than there are");

static float clamp01(double value)
{
    return (float)(value < 0.0 ? 0.0 : value > 1.0 ? 1.0 : value);
}

/* The distance, in spreads, from a colour to a learnt one. */
static double colour_distance(const float colour[3], const float mean[3], const float spread[3])
{
    double sum = 0.0;
    for (int c = 0; c < 3; c++) {
        double d = (colour[c] - mean[c]) / (spread[c] > 0.0f ? spread[c] : 0.04f);
        sum += d * d;
    }
    return sqrt(sum / 3.0);
}

typedef struct cell_reading {
    int type, second;
    int nearest_at_first; /* the nearest art at the first look, which decides the second */
    double distance, second_distance;
    el_match match;
} cell_reading;

/* How sure a cell's type is by its art's margin: its distance's margin over the runner-up's,
 * and no surer than the share of its art seen allows (what covers the art may hide what tells
 * it from another: a camp's tents). */
static float type_by_margin(const cell_reading *reading)
{
    return fminf(clamp01(1.0 - exp(-(reading->second_distance - reading->distance) / 0.04)),
                 clamp01((1.0 - reading->match.outliers) / ART_SEEN_SURE));
}

/* How sure a cell's type may be by how much nearer its art is than the runner-up's, in
 * proportion. A tile seen badly (small, a stack's shadow over it) is far from every art, and a
 * margin between two far arts is their noise. */
static float type_by_ratio(const cell_reading *reading)
{
    double ratio = reading->second_distance > 0.0 ? reading->distance / reading->second_distance
                                                  : 1.0;
    return clamp01((RATIO_DOUBTED - ratio) / (RATIO_DOUBTED - RATIO_SURE));
}

/* How sure a cell's type is, as reported: by its margin and by that proportion. */
static float type_confidence(const cell_reading *reading)
{
    return fminf(type_by_margin(reading), type_by_ratio(reading));
}

/* Whether the rules say how many adventurers a cell may hold: its type is sure enough by its
 * margin. The stack is fitted up to the type's most even where the proportion doubts the type
 * (heights read worse without it: bench/README.md). */
static bool rules_hold(const cell_reading *reading)
{
    return reading->type >= 0 && type_by_margin(reading) >= RULE_SURE;
}

/* The most a cell's stack is fitted up to: what the rules let it hold, once its type is sure
 * enough to tell. A lake's is fitted as any tile's but a camp's, and dropped in read_stacks
 * after it explained its pixels (leaving lakes out of the fits read no better: bench/README). */
static int most_on(const cell_reading *reading)
{
    if (!rules_hold(reading))
        return VISION_EL_STACK_MAX;
    int most = el_most_adventurers((el_tile_type)reading->type);
    return most > 0 ? most : el_most_adventurers(EL_DESERT);
}

/* What reading a tile's type needs besides the tile: the model's arts as the matcher reads
 * them (el_art_turns_of, once a picture), and room for a tile's patch and views. */
typedef struct type_reader {
    const vision_el_model *model;
    el_art_turns arts[EL_TILE_TYPES];
    el_planes patch;
    el_tile_views views;
} type_reader;

static const int every_type[EL_TILE_TYPES] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
_Static_assert(EL_TILE_TYPES == 9, "every_type lists each tile type");

static type_reader *type_reader_new(const vision_el_model *model)
{
    type_reader *reader = malloc(sizeof *reader);
    if (!reader)
        return NULL;
    reader->model = model;
    for (int type = 0; type < EL_TILE_TYPES; type++)
        el_art_turns_of(el_model_art(model, type), &reader->arts[type]);
    return reader;
}

/* Reads the cell's type among the arts of types (count of them; all EL_TILE_TYPES in the order
 * of el_tile_type for a tile read afresh). */
static void read_type(type_reader *reader, const el_patch *patch, const el_table *table,
                      const el_grid *grid, const vision_mat *mat, int row, int col,
                      const int *types, int count, cell_reading *reading)
{
    double distance[EL_TILE_TYPES];
    el_match match[EL_TILE_TYPES];
    int order[EL_TILE_TYPES]; /* the types, nearest first */
    el_planes *seen = &reader->patch;
    el_planes_of(patch, NULL, seen);
    for (int i = 0; i < count; i++) {
        int type = types[i];
        match[type] = (el_match){{0.0, 0.0}, 0, 1.0f, 0.0f, 0.0};
        distance[type] = el_planes_distance(seen, &reader->arts[type], &match[type]);
        int at = i;
        while (at > 0 && distance[order[at - 1]] > distance[type]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = type;
    }
    /* The nearest arts again, each where it fits best around the cell's centre and with what
     * looks like a piece left out, unless the nearest fits as it is. */
    int again = match[order[0]].outliers < 0.01 ? 0 : (count < READ_AGAIN ? count : READ_AGAIN);
    if (again > 0) {
        el_tile_views_sample(table, grid, mat, reader->model->art_span, row, col, reader->model,
                             &reader->views);
        for (int i = 0; i < again; i++)
            distance[order[i]] =
                el_tile_distance(&reader->views, &reader->arts[order[i]], &match[order[i]]);
    }
    reading->type = reading->second = -1;
    reading->nearest_at_first = order[0];
    reading->distance = reading->second_distance = INFINITY;
    for (int i = 0; i < (again > 0 ? again : count); i++) {
        int type = order[i];
        if (distance[type] < reading->distance) {
            reading->second = reading->type;
            reading->second_distance = reading->distance;
            reading->type = type;
            reading->distance = distance[type];
            reading->match = match[type];
        } else if (distance[type] < reading->second_distance) {
            reading->second = type;
            reading->second_distance = distance[type];
        }
    }
}

/*
 * The share of the patch that neither its art (under some shade) nor a piece explains: what a
 * hand, glare or anything else unknown covers. A tall stack with its long shadow can cover
 * more than half a tile's art, yet the rest of the art still tells its type.
 */
static double unexplained_share(const vision_el_model *model, const el_patch *patch,
                                const el_patch *art, const el_match *match)
{
    int unexplained = 0;
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++) {
            float expected[3];
            el_match_expected(art, match, x, y, expected);
            const float *seen = patch->colour[y][x];
            if (el_shadowed_distance(seen, expected) > EL_OUTLIER * EL_OUTLIER &&
                el_piece_distance(model, seen) > PIECE_EXPLAINS)
                unexplained++;
        }
    return (double)unexplained / (EL_PATCH * EL_PATCH);
}

/* Whether the tile's art is hidden (a hand, glare): unexplained_share of its art where its
 * match was found (one of el_tile_views' views). */
static bool hidden(const vision_el_model *model, const el_table *table, const el_grid *grid,
                   const vision_mat *mat, int row, int col, const cell_reading *reading)
{
    el_patch patch;
    el_patch_sample_at(table, grid, mat, model->art_span, row, col, reading->match.shift_mm,
                       &patch);
    return unexplained_share(model, &patch, el_model_art(model, reading->type),
                             &reading->match) > HIDDEN_SHARE;
}

/* The top's colour: the nearest learnt one, or unknown when none fits or two fit alike. */
static void read_top(const vision_el_model *model, const float colour[3], vision_el_tile *tile)
{
    double best = INFINITY, second = INFINITY;
    int index = VISION_UNKNOWN;
    for (int i = 0; i < model->colour_count; i++) {
        double d = colour_distance(colour, model->colour_mean[i], model->colour_spread[i]);
        if (d < best) {
            second = best;
            best = d;
            index = i;
        } else if (d < second) {
            second = d;
        }
    }
    if (best > COLOUR_UNFIT) {
        tile->top = VISION_UNKNOWN;
        tile->confidence[VISION_EL_TOP] = 0.0f;
        return;
    }
    tile->top = index;
    tile->confidence[VISION_EL_TOP] = clamp01(1.0 - exp(-(second - best) / 1.5));
}

static double nearest_piece(const vision_el_model *model, const float colour[3])
{
    double best = INFINITY;
    for (int i = 0; i < model->colour_count; i++)
        best = fmin(best, el_squared_distance(colour, model->colour_mean[i]));
    return best;
}

static double nearest_token(const vision_el_model *model, const float colour[3])
{
    double best = INFINITY;
    for (int token = EL_BOAT; token <= EL_SNAKES; token++)
        if (model->token_samples[token])
            best = fmin(best, el_squared_distance(colour, model->token_mean[token]));
    return best;
}

/* The tokens are read by their palettes once both were taught, else by their mean colour. */
static bool tokens_by_palette(const vision_el_model *model)
{
    return el_has_palette(model, EL_BOAT) && el_has_palette(model, EL_SNAKES);
}

/* What covers a tile's art, colour by colour (cover_add): each pixel unlike the art goes to the
 * nearest of the pieces' colours and the tokens' palettes' colours, when one is near. */
typedef struct cover {
    int piece;
    int token[EL_TOKEN_TYPES];
    int palette[EL_TOKEN_TYPES][VISION_EL_TOKEN_PALETTE];
} cover;

static void cover_add(const vision_el_model *model, const float seen[3], cover *what)
{
    float best = el_piece_distance(model, seen);
    int token = EL_NO_TOKEN, colour = 0;
    for (int t = EL_BOAT; t <= EL_SNAKES; t++)
        for (int k = 0; k < VISION_EL_TOKEN_PALETTE; k++) {
            if (model->token_palette_share[t][k] <= 0.0f) /* no palette, or a colour unused */
                continue;
            /* a little shade: a neighbour's shadow, the light's fall-off */
            float d = el_shaded_distance(seen, model->token_palette[t][k], 0.9f, 1.2f) /
                      (EL_OUTLIER * EL_OUTLIER);
            if (d < best) {
                best = d;
                token = t;
                colour = k;
            }
        }
    if (best > PALETTE_NEAR)
        return;
    if (token == EL_NO_TOKEN)
        what->piece++;
    else {
        what->token[token]++;
        what->palette[token][colour]++;
    }
}

/* How alike the spread of a token's pixels over its palette is to the learnt one
 * (Bhattacharyya, 0..1). */
static double palette_likeness(const vision_el_model *model, const cover *what, int token)
{
    if (what->token[token] == 0)
        return 0.0;
    double sum = 0.0;
    for (int k = 0; k < VISION_EL_TOKEN_PALETTE; k++)
        sum += sqrt((double)what->palette[token][k] / what->token[token] *
                    model->token_palette_share[token][k]);
    return sum;
}

/* read_token by the tokens' palettes: the token whose colours cover most of what lies on the
 * art, spread over its palette as taught, unless a piece's colours cover more. */
static int read_token_by_palette(const vision_el_model *model, const float (*unlike)[3],
                                 int count, double least, float *confidence, bool *piece_like)
{
    cover what;
    memset(&what, 0, sizeof what);
    for (int i = 0; i < count; i++)
        cover_add(model, unlike[i], &what);
    int best = what.token[EL_BOAT] >= what.token[EL_SNAKES] ? EL_BOAT : EL_SNAKES;
    int other = best == EL_BOAT ? EL_SNAKES : EL_BOAT;
    *piece_like = what.piece > what.token[best];
    double likeness = palette_likeness(model, &what, best);
    if (what.token[best] < least / 2 || likeness < PALETTE_LIKE || *piece_like)
        return VISION_UNKNOWN;
    /* as sure as its colours are the token's, not the other's or a piece's, and cover as
     * much of the tile as a token's print */
    double rival = fmax(what.token[other], what.piece);
    double sure = TOKEN_SURE_SHARE * EL_PATCH * EL_PATCH;
    float covered = clamp01((what.token[best] - least / 2) / (sure - least / 2));
    *confidence = fminf(clamp01((1.0 - rival / what.token[best]) * (likeness - PALETTE_LIKE) /
                                (1.0 - PALETTE_LIKE) * 2.0),
                        covered);
    return best;
}

/* read_token by the mean colour of what lies on the art: for profiles taught before the
 * palettes (format 1). */
static int read_token_by_mean(const vision_el_model *model, const float mean[3],
                              float *confidence, bool *piece_like)
{
    int best = VISION_UNKNOWN;
    double best_distance = INFINITY, second = INFINITY;
    for (int token = EL_BOAT; token <= EL_SNAKES; token++) {
        if (!model->token_samples[token])
            continue;
        double d = colour_distance(mean, model->token_mean[token], model->token_spread[token]);
        if (d < best_distance) {
            second = best_distance;
            best_distance = d;
            best = token;
        } else if (d < second) {
            second = d;
        }
    }
    /* Near a piece's colour, and nearer it than any token's: a stack the capsules missed (a
     * black one on dark art), not a token. Measured plainly, not in spreads: a token's many
     * colours seen as a whole spread wide and a piece's narrow, so in spreads any mixed colour
     * (a stack's sides, top and shadow) would be nearer a token. */
    double piece = nearest_piece(model, mean);
    *piece_like =
        piece < PIECE_MIXED * EL_OUTLIER * EL_OUTLIER && piece < nearest_token(model, mean);
    if (best_distance > 2.5)
        return VISION_UNKNOWN;
    *confidence = clamp01(1.0 - exp(-(second - best_distance) / 0.5));
    return best;
}

/* What lies flat on a tile: a token, when its colours are one a token was taught with;
 * *piece_like when they are rather a piece's (a stack the capsules missed). shaded: where a
 * shadow may fall on the patch (shadows_on), which a read by the palettes asks (may be NULL
 * for a profile without them). */
static int read_token(const vision_el_model *model, const el_patch *patch, const el_patch *art,
                      const el_match *match, const bool (*shaded)[EL_PATCH], float *confidence,
                      bool *piece_like)
{
    *piece_like = false;
    float unlike[EL_PATCH * EL_PATCH][3];
    int count = el_unlike_art(patch, art, match, NULL, 0.0f, unlike);
    /* A token covers a good part of its tile; a few marks (a neighbour's shadow or its image
     * leaning over, glare, a tile a little off its art) are none. */
    double least = TOKEN_SHARE * EL_PATCH * EL_PATCH;
    if (count < least) {
        *confidence = clamp01(1.0 - count / least);
        return EL_NO_TOKEN;
    }
    /* Where a stack's shadow falls, read by the colours the art in shade does not explain. A
     * print's tan ground can be the desert's in shade, so that a shadow spreads over the
     * palette as the print does: read with them, 193 tiles of bench_seeing's 16,795 showed a
     * token where none lay, 13 of them surely (the stack casting it often missed); without
     * them where a shadow falls, 35, 1 surely, and as many tokens are read (without them
     * anywhere, 28 of the 234 are lost): bench/README.md, session 39. */
    if (tokens_by_palette(model)) {
        count = el_unlike_art(patch, art, match, shaded, TOKEN_SHADE_NEAR, unlike);
        return read_token_by_palette(model, (const float(*)[3])unlike, count, least, confidence,
                                     piece_like);
    }
    float mean[3] = {0, 0, 0};
    for (int i = 0; i < count; i++)
        for (int c = 0; c < 3; c++)
            mean[c] += unlike[i][c] / (float)count;
    return read_token_by_mean(model, mean, confidence, piece_like);
}

/* How surely a fit's scores put height over every other height: in pieces' worth (one piece
 * more or less moves the capsule's end by lean_mm, over its width: piece_score, when all of
 * it looks like a piece), negative when another scores better. */
static double height_margin(const el_stack_fit *fit, int height)
{
    double other = -INFINITY;
    for (int k = 1; k <= VISION_EL_STACK_MAX; k++)
        if (k != height && fit->score[k] > other)
            other = fit->score[k];
    return (fit->score[height] - other) / fit->piece_score;
}

/* How well each height explains the tile (vision_el_tile.height_support): its capsules' best
 * score against the best's, in pieces' worth (fit->piece_score). No stack scores 0: on a
 * tile read flat, a stack's capsule holding more art than piece is evidence against it. */
static void height_support(const el_stack_fit *fit, bool flat, vision_el_tile *tile)
{
    if (!(fit->piece_score > 0.0))
        return;
    double best = flat ? 0.0 : fit->score[fit->height];
    for (int k = 0; k <= VISION_EL_STACK_MAX; k++) {
        double score = k ? fit->score[k] : 0.0; /* -INFINITY: a height not tried */
        double support = (score - best) / fit->piece_score;
        tile->height_support[k] = (float)fmax(-VISION_EL_SUPPORT_LEAST, fmin(0.0, support));
    }
}

/* Every tile unlike its art may hold a stack: each fitted on its own, then the best fit
 * taken first and what it covers explained, so that a stack leaning its image over a
 * neighbour is not seen twice; the fits it touched are fitted again. stacked says which
 * tiles' fits were taken. */
static void fit_stacks(el_evidence *evidence, const vision_registration *registration,
                       const el_grid *grid, int patch_of[EL_CELLS_MAX][EL_CELLS_MAX],
                       cell_reading readings[EL_CELLS_MAX][EL_CELLS_MAX], double radius,
                       double piece, el_stack_fit fits[EL_CELLS_MAX][EL_CELLS_MAX],
                       bool stacked[EL_CELLS_MAX][EL_CELLS_MAX])
{
    bool candidate[EL_CELLS_MAX][EL_CELLS_MAX], stale[EL_CELLS_MAX][EL_CELLS_MAX];
    memset(candidate, 0, sizeof candidate);
    memset(stale, 0, sizeof stale);
    memset(stacked, 0, sizeof(bool[EL_CELLS_MAX][EL_CELLS_MAX]));
    /* Each tile's scores, kept for its refits: a refit follows the one explained stack that
     * reached what it read (the others reached none of its capsules), and reads again only
     * where that stack's capsule and shadow lie. */
    el_fit_memory(*memory)[EL_CELLS_MAX] = calloc(1, sizeof(el_fit_memory[EL_CELLS_MAX][EL_CELLS_MAX]));
    el_box changed = {0, -1, 0, -1};
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++)
            if (patch_of[r][c] >= 0 && readings[r][c].match.outliers >= STACK_OUTLIERS) {
                candidate[r][c] = true;
                el_stack_fit_tile(evidence, registration, r, c, radius, piece, 0,
                                  most_on(&readings[r][c]), memory ? &memory[r][c] : NULL, NULL,
                                  &fits[r][c]);
            }
    for (;;) {
        int best_r = -1, best_c = -1;
        double best = -INFINITY;
        for (int r = 0; r < grid->rows; r++)
            for (int c = 0; c < grid->cols; c++) {
                if (!candidate[r][c])
                    continue;
                if (stale[r][c]) {
                    el_stack_fit_tile(evidence, registration, r, c, radius, piece, 0,
                                      most_on(&readings[r][c]), memory ? &memory[r][c] : NULL,
                                      &changed, &fits[r][c]);
                    stale[r][c] = false;
                }
                const el_stack_fit *fit = &fits[r][c];
                if (fit->found && fit->score[fit->height] > best) {
                    best = fit->score[fit->height];
                    best_r = r;
                    best_c = c;
                }
            }
        if (best_r < 0)
            break;
        candidate[best_r][best_c] = false;
        stacked[best_r][best_c] = true;
        el_evidence_explain(evidence, registration, &fits[best_r][best_c], radius, piece,
                            &changed);
        /* A fit that read what the explained capsule or its shadow covers may have leant on
         * it (a long shadow reaches past the next tile); any other would come out the same. */
        for (int r = 0; r < grid->rows; r++)
            for (int c = 0; c < grid->cols; c++)
                if (candidate[r][c] && el_box_overlaps(&fits[r][c].read, &changed))
                    stale[r][c] = true;
    }
    for (int r = 0; memory && r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++)
            el_fit_memory_free(&memory[r][c]);
    free(memory);
}

/* Once the shadows' search has found the light, the stacks are fitted in it and in it made a
 * tenth and a fifth shorter, and the fit whose stacks score best together is kept with its
 * light. The search scores each stack at its first fit's height or a piece either way, with
 * the image already explained by that fit: a piece less costs the image nothing, so a longer
 * light with lower stacks comes cheap, and it finds the light too long more often than too
 * short. The whole fit, every stack's foot and height free, tells the length better
 * (bench/README.md, session 32). */
static const double LIGHT_SCALES[] = {1.0, 0.9, 0.8}; /* the light as found first */
#define LIGHT_SCALES_COUNT ((int)(sizeof LIGHT_SCALES / sizeof LIGHT_SCALES[0]))

/* Then, in the light kept, the pieces made 8% shorter and taller, each stack's shadow as long,
 * and where one of those fits better, the other lights with it. A box's adventurers are 8 to
 * 10 mm tall, teaching cannot tell from its photo (its stacks stand near the camera's foot and
 * lean too little), and a stack's image leans by its height in mm: the game's 9 mm read a
 * 5-stack of 10 mm pieces as 5.6. The same whole fit tells it better than the model's alone
 * (bench/README.md, session 33; every light with every height read no better for 9 fits). */
static const double PIECE_SCALES[] = {0.92, 1.08};
#define PIECE_SCALES_COUNT ((int)(sizeof PIECE_SCALES / sizeof PIECE_SCALES[0]))

/* The stacks fitted in one light and pieces' height, against the best fit so far. */
typedef struct fit_trials {
    double found[2];   /* the light the search found, per mm of the model's pieces */
    double piece;      /* the model's pieces' height */
    double best;       /* the best fit's stacks' scores summed (-INFINITY: none yet) */
    double light_scale, piece_scale; /* its light's length and its pieces' height, as scales */
    el_stack_fit (*fits)[EL_CELLS_MAX]; /* its fits and which tiles they stacked */
    bool (*stacked)[EL_CELLS_MAX];
} fit_trials;

/* The light of a trial: the light found made light_scale as long, and per mm of pieces
 * piece_scale as tall, so that a stack of k pieces casts a shadow as long whatever their
 * height. */
static void trial_light(const fit_trials *trials, double light_scale, double piece_scale,
                        double shadow_per_mm[2])
{
    shadow_per_mm[0] = trials->found[0] * light_scale / piece_scale;
    shadow_per_mm[1] = trials->found[1] * light_scale / piece_scale;
}

static void fit_trial(fit_trials *trials, double light_scale, double piece_scale,
                      el_evidence *evidence, const vision_registration *registration,
                      const el_grid *grid, int patch_of[EL_CELLS_MAX][EL_CELLS_MAX],
                      cell_reading readings[EL_CELLS_MAX][EL_CELLS_MAX], double radius,
                      el_stack_fit fits[EL_CELLS_MAX][EL_CELLS_MAX],
                      bool stacked[EL_CELLS_MAX][EL_CELLS_MAX])
{
    trial_light(trials, light_scale, piece_scale, evidence->shadow_per_mm);
    el_evidence_forget(evidence);
    fit_stacks(evidence, registration, grid, patch_of, readings, radius,
               trials->piece * piece_scale, fits, stacked);
    double total = 0.0;
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++)
            if (stacked[r][c])
                total += fits[r][c].score[fits[r][c].height];
    if (total > trials->best) {
        trials->best = total;
        trials->light_scale = light_scale;
        trials->piece_scale = piece_scale;
        memcpy(trials->fits, fits, sizeof(el_stack_fit[EL_CELLS_MAX][EL_CELLS_MAX]));
        memcpy(trials->stacked, stacked, sizeof(bool[EL_CELLS_MAX][EL_CELLS_MAX]));
    }
}

/* What the whole fit may try beyond the light found and the model's pieces. */
typedef enum fit_refinement {
    FIT_AS_FOUND,         /* neither (a teaching photo read back, a few stacks) */
    FIT_PIECES,           /* the pieces' height (a light whose length the game's heights gave) */
    FIT_LIGHT_AND_PIECES, /* both */
} fit_refinement;

/* Fits the stacks in the light found (evidence->light_known) and the model's pieces (*piece),
 * and as refine says, in it made LIGHT_SCALES as long, with the pieces PIECE_SCALES as tall,
 * and the other lights with the pieces' height kept: keeps the fit whose stacks score best
 * together, its light, and its pieces' height in *piece (the evidence is left as the last fit
 * explained it). Out of memory: fits, stacked, the light as found and *piece as it was. */
static vision_status fit_in_light(el_evidence *evidence, const vision_registration *registration,
                                  const el_grid *grid,
                                  int patch_of[EL_CELLS_MAX][EL_CELLS_MAX],
                                  cell_reading readings[EL_CELLS_MAX][EL_CELLS_MAX],
                                  double radius, double *piece, fit_refinement refine,
                                  el_stack_fit fits[EL_CELLS_MAX][EL_CELLS_MAX],
                                  bool stacked[EL_CELLS_MAX][EL_CELLS_MAX])
{
    if (refine == FIT_AS_FOUND) {
        el_evidence_forget(evidence);
        fit_stacks(evidence, registration, grid, patch_of, readings, radius, *piece, fits,
                   stacked);
        return VISION_OK;
    }
    fit_trials trials = {.found = {evidence->shadow_per_mm[0], evidence->shadow_per_mm[1]},
                         .piece = *piece,
                         .best = -INFINITY,
                         .light_scale = 1.0,
                         .piece_scale = 1.0,
                         .fits = malloc(sizeof(el_stack_fit[EL_CELLS_MAX][EL_CELLS_MAX])),
                         .stacked = malloc(sizeof(bool[EL_CELLS_MAX][EL_CELLS_MAX]))};
    if (!trials.fits || !trials.stacked) {
        free(trials.fits);
        free(trials.stacked);
        return VISION_NOMEM;
    }
    int lights = refine == FIT_LIGHT_AND_PIECES ? LIGHT_SCALES_COUNT : 1;
    for (int i = 0; i < lights; i++)
        fit_trial(&trials, LIGHT_SCALES[i], 1.0, evidence, registration, grid, patch_of,
                  readings, radius, fits, stacked);
    double light_scale = trials.light_scale;
    for (int i = 0; i < PIECE_SCALES_COUNT; i++)
        fit_trial(&trials, light_scale, PIECE_SCALES[i], evidence, registration, grid,
                  patch_of, readings, radius, fits, stacked);
    double piece_scale = trials.piece_scale;
    for (int i = 0; piece_scale != 1.0 && i < lights; i++)
        if (LIGHT_SCALES[i] != light_scale)
            fit_trial(&trials, LIGHT_SCALES[i], piece_scale, evidence, registration, grid,
                      patch_of, readings, radius, fits, stacked);
    memcpy(fits, trials.fits, sizeof(el_stack_fit[EL_CELLS_MAX][EL_CELLS_MAX]));
    memcpy(stacked, trials.stacked, sizeof(bool[EL_CELLS_MAX][EL_CELLS_MAX]));
    trial_light(&trials, trials.light_scale, trials.piece_scale, evidence->shadow_per_mm);
    *piece = trials.piece * trials.piece_scale;
    free(trials.fits);
    free(trials.stacked);
    return VISION_OK;
}

/* The tiles of a table as read_tiles found them, for read_stacks. */
typedef struct tiles_read {
    bool any;       /* a grid was found: tiles lie on the mat */
    el_grid found;  /* the grid as found, */
    el_grid grid;   /* and without the cells hidden */
    int sampled[EL_CELLS_MAX][EL_CELLS_MAX]; /* each cell's patch, hidden or not (-1: none) */
    el_scenery scenery; /* its grid is the grid above */
    cell_reading readings[EL_CELLS_MAX][EL_CELLS_MAX];
    el_patch patches[VISION_EL_TILES_MAX];
    int patch_of[EL_CELLS_MAX][EL_CELLS_MAX]; /* -1: no tile read there */
    /* the tile looks as the memory's read saw it (a first reading: one after a glare was taken
     * off is read without the memory) */
    bool recalled[EL_CELLS_MAX][EL_CELLS_MAX];
} tiles_read;

/* What a read of a table keeps for the next read of the same table (vision_el_memory): the
 * first reading of its tiles (the types that decided each), before any glare was taken off,
 * and the patches they were read from. */
struct vision_el_memory {
    const vision_el_model *model;            /* what it was read with */
    /* The light the stacks' shadows told (el_evidence_find_light), how many stacks whose
     * images lean (LIGHT_LEAN_MM) the read that found it fitted, and how many the last read
     * fitted: a lamp does not move between two reads of a table that looks as it did, and its
     * search costs as much as a stack fit. */
    bool light_known;
    double shadow_per_mm[2];
    double piece_mm; /* the pieces' height the stacks were fitted with in that light */
    int light_found_from, leaning_last_read;
    /* The stacks the game knows (vision_el_memory_know_stacks): of the last read's table, so
     * for the next read alone (told for it: known_for_next); and whether the light was
     * searched for with some of them: one searched for without is not kept once some are
     * known. */
    vision_el_known_stack known[VISION_EL_TILES_MAX];
    int known_count;
    bool known_for_next, light_from_game;
    /* The light and pieces' height told for the next read alone (vision_el_memory_know_light),
     * kept when the model changes: they are the table's, not the model's. */
    bool light_told;
    double told_shadow_per_mm[2], told_piece_mm;
    bool any;                                /* a grid was found */
    el_grid found;                           /* the grid as found */
    int sampled[EL_CELLS_MAX][EL_CELLS_MAX]; /* each cell's patch (-1: none) */
    cell_reading readings[EL_CELLS_MAX][EL_CELLS_MAX];
    el_patch patches[VISION_EL_TILES_MAX];
};

vision_el_memory *vision_el_memory_new(void)
{
    return calloc(1, sizeof(vision_el_memory));
}

void vision_el_memory_free(vision_el_memory *memory)
{
    free(memory);
}

bool vision_el_memory_light(const vision_el_memory *memory, double shadow_per_mm[2])
{
    if (!memory->light_known)
        return false;
    double scale = memory->piece_mm / memory->model->piece_height_mm;
    shadow_per_mm[0] = memory->shadow_per_mm[0] * scale;
    shadow_per_mm[1] = memory->shadow_per_mm[1] * scale;
    return true;
}

bool vision_el_memory_piece(const vision_el_memory *memory, double *piece_mm)
{
    if (!memory->light_known)
        return false;
    *piece_mm = memory->piece_mm;
    return true;
}

void vision_el_render_light(const vision_render_info *info, const vision_el_model *model,
                            double shadow_per_mm[2])
{
    double scale = info->piece_height_mm / model->piece_height_mm;
    shadow_per_mm[0] = info->shadow_per_mm[0] * scale;
    shadow_per_mm[1] = info->shadow_per_mm[1] * scale;
}

void vision_el_memory_know_stacks(vision_el_memory *memory, const vision_el_known_stack *stacks,
                                  int count)
{
    memory->known_count = 0;
    for (int i = 0; i < count && memory->known_count < VISION_EL_TILES_MAX; i++)
        if (stacks[i].height >= 1 && stacks[i].height <= VISION_EL_STACK_MAX)
            memory->known[memory->known_count++] = stacks[i];
    memory->known_for_next = true;
}

void vision_el_memory_know_light(vision_el_memory *memory, const double shadow_per_mm[2],
                                 double piece_mm)
{
    memory->light_told = piece_mm > 0.0 && isfinite(piece_mm) && isfinite(shadow_per_mm[0]) &&
                         isfinite(shadow_per_mm[1]);
    memory->told_shadow_per_mm[0] = shadow_per_mm[0];
    memory->told_shadow_per_mm[1] = shadow_per_mm[1];
    memory->told_piece_mm = piece_mm;
}

static void forget(vision_el_memory *memory)
{
    memory->any = false;
    memory->light_known = false;
    memory->known_count = 0;
}

/* A tile's centre, read twice, moves a millimetre or two (tiles float, the grid is found
 * again); a neighbour's lies a tile away. */
#define KNOWN_NEAR_MM 10.0

/* The height the game knows for the stack on the grid's cell (row, col), or 0: where the tile
 * looked as the last read saw it when first read (a stack changed since changes how its tile
 * looks; first: the tiles before a glare was taken off, whose grid may be another). */
static int known_height(const vision_el_memory *memory, const tiles_read *first,
                        const el_grid *grid, int row, int col)
{
    if (!memory)
        return 0;
    double x, y, u, v;
    int then_row, then_col;
    el_grid_centre(grid, row, col, &x, &y);
    el_grid_locate(&first->grid, x, y, &then_row, &then_col, &u, &v);
    if (then_row < 0 || then_col < 0 || then_row >= first->grid.rows ||
        then_col >= first->grid.cols || !first->recalled[then_row][then_col])
        return 0;
    for (int i = 0; i < memory->known_count; i++)
        if (hypot(memory->known[i].x_mm - x, memory->known[i].y_mm - y) <= KNOWN_NEAR_MM)
            return memory->known[i].height;
    return 0;
}

static void remember(const vision_el_model *model, const tiles_read *read,
                     vision_el_memory *memory)
{
    memory->model = model;
    memory->any = read->any;
    if (!read->any) {
        memory->light_known = false;
        return;
    }
    memory->found = read->found;
    memcpy(memory->sampled, read->sampled, sizeof memory->sampled);
    memcpy(memory->readings, read->readings, sizeof memory->readings);
    int tiles = 0;
    for (int r = 0; r < read->found.rows; r++)
        for (int c = 0; c < read->found.cols; c++)
            if (read->sampled[r][c] >= 0)
                tiles = read->sampled[r][c] + 1 > tiles ? read->sampled[r][c] + 1 : tiles;
    memcpy(memory->patches, read->patches, (size_t)tiles * sizeof memory->patches[0]);
}

/* Whether the tile in the grid's cell (r, c) is one the memory read, unchanged: the cell of
 * then's grid its centre lies in (tiles float: a grid found again after a tile was laid may lie
 * a millimetre or two off the last one), sampled as then, looks as it did then (no pixel
 * further than PATCH_KEPT in any channel, which the sensor's noise stays within and a piece, a
 * token, a hand, a shadow or a sudden change of light do not). If so, types gets the types
 * that decided its reading then (*count of them): the two it was nearest and the one nearest at
 * the first look, whose match decides whether the nearest are looked at again; matched against
 * them alone, the same patch reads as matched against every art. */
static bool recall(const vision_el_memory *memory, const el_table *table, const el_grid *grid,
                   const vision_mat *mat, double span, int r, int c, int types[3], int *count)
{
    const el_grid *then = &memory->found;
    double x, y, u, v;
    int row, col;
    el_grid_centre(grid, r, c, &x, &y);
    el_grid_locate(then, x, y, &row, &col, &u, &v);
    if (row < 0 || col < 0 || row >= then->rows || col >= then->cols ||
        memory->sampled[row][col] < 0 || hypot(u, v) * then->pitch_mm > RECALL_MM)
        return false;
    el_patch now;
    el_patch_sample(table, then, mat, span, row, col, &now);
    const float *a = &memory->patches[memory->sampled[row][col]].colour[0][0][0];
    const float *b = &now.colour[0][0][0];
    float most = 0.0f;
    for (int i = 0; i < EL_PATCH * EL_PATCH * 3; i++)
        most = fmaxf(most, fabsf(a[i] - b[i]));
    if (most > PATCH_KEPT)
        return false;
    const cell_reading *reading = &memory->readings[row][col];
    *count = 0;
    if (reading->type >= 0)
        types[(*count)++] = reading->type;
    if (reading->second >= 0)
        types[(*count)++] = reading->second;
    if (reading->nearest_at_first != reading->type && reading->nearest_at_first != reading->second)
        types[(*count)++] = reading->nearest_at_first;
    return *count > 0;
}

/* Whether a read can keep a tile as an earlier read of the same grid read it: the glare taken
 * off since reached none of it (at most GLARE_UNTOUCHED white anywhere on it). */
static bool untouched(const tiles_read *before, const el_grid *grid, const el_glare *glare,
                      const vision_mat *mat, int r, int c)
{
    if (!before || !glare || before->sampled[r][c] < 0)
        return false;
    double x, y;
    el_grid_centre(grid, r, c, &x, &y);
    return el_glare_near(glare, x, y, mat->tile_mm * sqrt(0.5)) < GLARE_UNTOUCHED;
}

/* Whether the glare whitened any of the table outside the grid's tiles: bare mat that may have
 * passed for tiles, or hidden them, so that the grid must be found again once it is off. */
static bool glare_reached_mat(const el_table *table, const el_grid *grid, const el_glare *glare)
{
    for (double y = 0.5; y < table->height; y += GLARE_PROBE_MM)
        for (double x = 0.5; x < table->width; x += GLARE_PROBE_MM) {
            if (el_glare_near(glare, x, y, 0.0) < GLARE_UNTOUCHED)
                continue;
            int row, col;
            double u, v;
            el_grid_locate(grid, x, y, &row, &col, &u, &v);
            if (row < 0 || col < 0 || row >= grid->rows || col >= grid->cols ||
                !grid->tile[row][col])
                return true;
        }
    return false;
}

/* Whether two grids put the same tiles in the same cells, within a fraction of a millimetre
 * over the whole layout. */
static bool same_grid(const el_grid *a, const el_grid *b)
{
    if (a->rows != b->rows || a->cols != b->cols || a->tiles != b->tiles ||
        memcmp(a->tile, b->tile, sizeof a->tile) != 0)
        return false;
    for (int corner = 0; corner < 4; corner++) {
        int r = corner & 1 ? a->rows - 1 : 0, c = corner & 2 ? a->cols - 1 : 0;
        double ax, ay, bx, by;
        el_grid_centre(a, r, c, &ax, &ay);
        el_grid_centre(b, r, c, &bx, &by);
        if (hypot(ax - bx, ay - by) > SAME_GRID_MM)
            return false;
    }
    return true;
}

/* The tile grid and each tile's type (vision_el_recognise's first half); seen gets the cells
 * that are hidden. A tile the memory (not NULL) read looking as now is matched against the
 * arts that decided that reading only. Read again after a glare was taken off (before and
 * glare not NULL), the tiles it did not reach keep before's reading when the grid is the
 * same. */
static vision_status read_tiles(const vision_mat *mat, const vision_el_model *model,
                                const el_table *table_seen, vision_el_observation *seen,
                                vision_el_timing *clock, const vision_el_memory *memory,
                                const tiles_read *before, const el_glare *glare,
                                tiles_read *read)
{
    const el_table table = *table_seen;
    double mark = vision_clock_ms();
    memset(read, 0, sizeof *read);
    el_grid *grid = &read->grid;
    vision_status status = VISION_OK;
    if (before && before->any && !glare_reached_mat(&table, &before->found, glare))
        *grid = before->found; /* no mat changed: the same grid */
    else
        status = el_grid_find(&table, mat, grid);
    clock->grid_ms += vision_clock_ms() - mark;
    mark = vision_clock_ms();
    if (status == VISION_NOMEM)
        return status;
    if (status != VISION_OK) /* an empty mat is an observation too: no tiles */
        return VISION_OK;
    read->any = true;
    read->found = *grid;
    /* the same grid as before: before's, so that what the glare did not reach reads as then */
    if (before && before->any && same_grid(&before->found, grid))
        *grid = before->found;
    else
        before = NULL;
    if (memory && !memory->any)
        memory = NULL;

    el_scenery *scenery = &read->scenery;
    scenery->grid = grid;
    scenery->mat = mat;
    scenery->span = model->art_span;
    memcpy(scenery->mat_colour, model->mat_colour, sizeof scenery->mat_colour);
    cell_reading (*readings)[EL_CELLS_MAX] = read->readings;
    el_patch *patches = read->patches;
    int (*patch_of)[EL_CELLS_MAX] = read->patch_of;
    int tiles = 0;
    bool flat[EL_CELLS_MAX][EL_CELLS_MAX]; /* el_shows_no_art */
    type_reader *reader = type_reader_new(model);
    if (!reader)
        return VISION_NOMEM;
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++) {
            patch_of[r][c] = read->sampled[r][c] = -1;
            flat[r][c] = false;
            scenery->art[r][c] = NULL;
            if (!grid->tile[r][c] || tiles == VISION_EL_TILES_MAX)
                continue;
            if (untouched(before, grid, glare, mat, r, c)) {
                patches[tiles] = before->patches[before->sampled[r][c]];
                readings[r][c] = before->readings[r][c];
            } else {
                el_patch_sample(&table, grid, mat, model->art_span, r, c, &patches[tiles]);
                /* a tile that looks as the last read saw it is matched against the arts that
                 * decided its reading then, not every art */
                int recalled[3], count = 0;
                bool kept = memory && recall(memory, &table, grid, mat, model->art_span, r, c,
                                             recalled, &count);
                read->recalled[r][c] = kept;
                if (!glare) { /* the first reading, not one after a glare was taken off */
                    clock->tiles_typed++;
                    clock->tiles_recalled += kept;
                }
                read_type(reader, &patches[tiles], &table, grid, mat, r, c,
                          kept ? recalled : every_type, kept ? count : EL_TILE_TYPES,
                          &readings[r][c]);
            }
            flat[r][c] = el_shows_no_art(readings[r][c].distance, &readings[r][c].match);
            patch_of[r][c] = read->sampled[r][c] = tiles++;
        }
    free(reader);
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++) {
            if (patch_of[r][c] < 0)
                continue;
            /* A cell that shows no art amid tiles that do is a tile washed out (a stack and its
             * shadow); beside the layout it is glare on the mat, and so is one that shows art
             * but not a tile's edges (a glare on a mat passes for a plain desert). */
            int amid = 0;
            static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (int k = 0; k < 4; k++) {
                int rr = r + step[k][0], cc = c + step[k][1];
                amid += rr >= 0 && cc >= 0 && rr < grid->rows && cc < grid->cols &&
                        patch_of[rr][cc] >= 0 && !flat[rr][cc];
            }
            bool no_art = (flat[r][c] && amid < WASHED_OUT_AMID) ||
                          el_sides_without_edge(&table, grid, mat, r, c,
                                                readings[r][c].match.shift_mm) >= EL_EDGES_MISSING;
            if (no_art || (readings[r][c].match.outliers > HIDDEN_SHARE &&
                           hidden(model, &table, grid, mat, r, c, &readings[r][c]))) {
                grid->tile[r][c] = false; /* reported unknown, never guessed */
                patch_of[r][c] = -1;
                if (seen->unknown_count < VISION_EL_TILES_MAX) {
                    seen->unknown[seen->unknown_count].row = r;
                    seen->unknown[seen->unknown_count].col = c;
                    seen->unknown_count++;
                }
                continue;
            }
            scenery->art[r][c] = el_model_art(model, readings[r][c].type);
            scenery->match[r][c] = readings[r][c].match;
        }
    clock->types_ms += vision_clock_ms() - mark;
    return VISION_OK;
}

/* The tiles read, lit as their art's match found them (for el_glare_find): how many. */
static int lit_tiles(const tiles_read *read, el_lit_tile *lit)
{
    int count = 0;
    const el_grid *grid = &read->grid;
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++) {
            if (read->patch_of[r][c] < 0)
                continue;
            const el_match *match = &read->scenery.match[r][c];
            el_art_centre(grid, r, c, match->shift_mm, &lit[count].x_mm, &lit[count].y_mm);
            lit[count++].offset = match->offset;
        }
    return count;
}

/* A light found from this many stacks' shadows at least is kept for the next read (one found
 * from fewer is found again, from the stacks the table has by then: camera alone, the 50 short
 * games of bench/README.md, whose tables hold a few stacks, committed 124 moves right keeping
 * every light found, 133 searching at every read); it is searched for again once the stacks
 * whose images lean are this much more than it was found from. */
#define LIGHT_KEPT_FROM 16
#define LIGHT_STACKS_GROWN 1.25

/* A light found from fewer stacks' shadows than this is fitted as found, neither made
 * shorter nor with other pieces' heights: a shadow is as long under a light half as long with
 * the stacks twice as tall, and only the images' lean tells the two apart, which a few stacks
 * do too little to. The teaching layout's photo as bench_replay takes it (a low lamp; four
 * stacks, 5 or 6 fitted stacks telling the light) read back 23 of 52 heights over 13 boxes
 * refined, 34 not (bench_seeing teaching --boxes 13 --seed 0 --scene 1000); where it read all
 * of a box's stacks one piece too high, the light was made four-fifths as long as found and the
 * pieces 8% shorter (bench/README.md, session 34). */
#define LIGHT_REFINED_FROM 8

/* Whether a read may try the light its memory kept instead of searching for it: the light was
 * found from enough stacks, most tiles typed look as the last read saw them (a camera nudged or
 * a hand's shadow over the table does not leave them so), and the last read fitted not many
 * more leaning stacks than the read that found it (a read that fits many more keeps the light
 * still; the next one searches for it again). */
static bool may_keep_light(const vision_el_memory *memory, const vision_el_timing *clock)
{
    return memory && memory->light_known && memory->light_found_from >= LIGHT_KEPT_FROM &&
           (memory->known_count == 0 || memory->light_from_game) &&
           clock->tiles_typed > 0 &&
           2 * clock->tiles_recalled >= clock->tiles_typed &&
           memory->leaning_last_read <= LIGHT_STACKS_GROWN * memory->light_found_from;
}

/* Whether a stack taken tells the light: its image leans enough for its shadow to be told from
 * it (el_evidence_find_light takes such stacks). */
static bool tells_light(bool stacked, const el_stack_fit *fit)
{
    return stacked && fit->lean_mm >= LIGHT_LEAN_MM;
}

/* Whether the stacks fitted in a light still see their shadows in it: those whose images lean,
 * as the light's search takes them, darkened more than lit by EL_LIGHT_TELLS a pixel over them
 * all, as a light found must be (a stricter test than the search's: each at its fitted height,
 * and a shadow a stack taken earlier explained counts as neither). A lamp moved leaves the
 * tiles as bright as they were (a flat surface is lit the same from anywhere the lamp shines
 * on it from), not the shadows. */
static bool shadows_still_tell(const el_grid *grid, bool stacked[EL_CELLS_MAX][EL_CELLS_MAX],
                               el_stack_fit fits[EL_CELLS_MAX][EL_CELLS_MAX])
{
    double darkened = 0.0;
    long pixels = 0;
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++)
            if (tells_light(stacked[r][c], &fits[r][c])) {
                darkened += fits[r][c].shadow_darkened * fits[r][c].shadow_pixels;
                pixels += fits[r][c].shadow_pixels;
            }
    return pixels > 0 && darkened >= EL_LIGHT_TELLS * (double)pixels;
}

/* The stacks a light was found from, as their first fits read them. */
typedef struct light_tellers {
    int count;
    el_stack_fit *lean; /* count of them */
    int at[VISION_EL_TILES_MAX][2]; /* each one's row and column */
} light_tellers;

/*
 * How sure a stack's height may be when the light's length was found from the tellers' own
 * heights as their first fits guessed them (no height the game knows; too few of them for the
 * whole fit to weigh other lengths, LIGHT_REFINED_FROM): shadows as long fall from stacks a
 * piece taller under a shorter light, so the light and the heights are one guess, and a fit in
 * that light confirms its own guess. A teller is no surer than its first fit was of the height
 * read; a stack that leans too little to tell the light is no surer than the surest teller (the
 * scale it was read at). Not for a teaching photo read back (light_refined false): its four
 * stacks always leave the scale a guess, and what its read back checks is the colours taught
 * (a top read back surely as another colour refuses the photo). The top of a stack whose
 * runner-up height would show another colour is no surer than the height, so no surer either.
 * Camera alone, bench_replay's game 23 (a camp of three, two of them moved west) was committed
 * as a camp of five with three moved: both stacks read a piece high at 0.91, in a light found
 * from the western stack and another one, their first fits sure of them at 0.28 and 0.67
 * (bench/README.md, session 38).
 */
static double guessed_scale_sure(const light_tellers *tellers,
                                 bool stacked[EL_CELLS_MAX][EL_CELLS_MAX],
                                 el_stack_fit fits[EL_CELLS_MAX][EL_CELLS_MAX], int r, int c)
{
    double surest = 0.0;
    for (int i = 0; i < tellers->count; i++) {
        int tr = tellers->at[i][0], tc = tellers->at[i][1];
        if (!stacked[tr][tc])
            continue;
        /* the first fit's margin: its image's lean alone, unless a shadow fell where its
         * capsules read */
        double sure = height_margin(&tellers->lean[i], fits[tr][tc].height);
        if (tr == r && tc == c)
            return sure;
        surest = fmax(surest, sure);
    }
    return surest;
}

/* The light the stacks were fitted in (known false: none) and the pieces' height, kept for
 * the next read; from_game: searched for with heights the game knew. */
static void keep_light(vision_el_memory *memory, bool known, const double shadow_per_mm[2],
                       double piece, bool from_game)
{
    memory->light_known = known;
    memcpy(memory->shadow_per_mm, shadow_per_mm, sizeof memory->shadow_per_mm);
    memory->piece_mm = piece;
    memory->light_from_game = from_game;
}

/* Marks where the stacks' shadows fall in the light found: each stack's, and each capsule's
 * that is partly piece (a stack the fit may have missed still casts one). */
static void mark_shadows(const vision_registration *registration, const double shadow_per_mm[2],
                         const el_grid *grid, bool stacked[EL_CELLS_MAX][EL_CELLS_MAX],
                         el_stack_fit fits[EL_CELLS_MAX][EL_CELLS_MAX], double radius,
                         double piece, const el_table *table, unsigned char *shaded)
{
    for (int r = 0; r < grid->rows; r++)
        for (int c = 0; c < grid->cols; c++)
            if (fits[r][c].height > 0 &&
                (stacked[r][c] || fits[r][c].filled >= SHADOW_CASTER_FILLED))
                el_mark_shadow(registration, shadow_per_mm, &fits[r][c], radius, piece, table,
                               shaded);
}

/* Where on a tile's patch (as el_patch_sample_at samples it) a shadow may fall: where one was
 * marked, or anywhere when none was (the light not found). */
static void shadows_on(const unsigned char *shaded, const el_table *table, const el_grid *grid,
                       const vision_mat *mat, double span, int row, int col,
                       const double shift_mm[2], bool shadow[EL_PATCH][EL_PATCH])
{
    if (!shaded) {
        memset(shadow, true, sizeof(bool[EL_PATCH][EL_PATCH]));
        return;
    }
    double points[EL_PATCH][EL_PATCH][2];
    el_patch_points(grid, mat, span, row, col, shift_mm, points);
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++) {
            int tx = (int)floor(points[y][x][0]), ty = (int)floor(points[y][x][1]);
            shadow[y][x] = tx >= 0 && ty >= 0 && tx < table->width && ty < table->height &&
                           shaded[(size_t)ty * table->width + tx];
        }
}

/* Each tile's stack and token, from the tiles read (vision_el_recognise's second half; first:
 * their first reading, read itself unless a glare was taken off since). memory (may be NULL)
 * gives the light to fit the stacks in when may_keep_light says so and the shadows still tell
 * it, and the stacks the game knows to find it from, and keeps the light found. */
static vision_status read_stacks(const vision_registration *registration, const vision_mat *mat,
                                 const vision_el_model *model, const el_table *table_seen,
                                 const tiles_read *first, tiles_read *read,
                                 vision_el_memory *memory, bool light_refined,
                                 vision_el_observation *seen, vision_el_timing *clock)
{
    if (!read->any)
        return VISION_OK;
    const el_table table = *table_seen;
    double mark = vision_clock_ms();
    el_grid grid = read->grid;
    el_scenery scenery = read->scenery;
    scenery.grid = &grid;
    cell_reading (*readings)[EL_CELLS_MAX] = read->readings;
    el_patch *patches = read->patches;
    int (*patch_of)[EL_CELLS_MAX] = read->patch_of;
    double radius = model->piece_diameter_mm / 2.0, piece = model->piece_height_mm;
    el_evidence evidence;
    /* zeroed: a tile never fitted (no candidate) holds no stack, casts no shadow */
    el_stack_fit(*fits)[EL_CELLS_MAX] = calloc(1, sizeof(el_stack_fit[EL_CELLS_MAX][EL_CELLS_MAX]));
    vision_status status =
        fits ? el_evidence_init(&evidence, &table, &scenery, model) : VISION_NOMEM;
    if (status != VISION_OK) {
        free(fits);
        return status;
    }
    /* The stacks fitted once, the light found from their shadows (the same for every stack),
     * and all fitted again with their shadows where it casts them: a shadow tells a stack's
     * height where its image leans too little to, and a shadow taken for a piece (or a piece
     * in shade for a shadow) no longer lengthens or shortens a stack. The light the memory
     * kept, when there is one to keep, is tried first: the stacks fitted in it once, unless
     * their shadows no longer show in it. */
    bool stacked[EL_CELLS_MAX][EL_CELLS_MAX];
    light_tellers tellers = {0};
    bool scale_guessed = false; /* the light's length and the heights one guess: see
                                   guessed_scale_sure */
    bool told = memory && memory->light_told;
    if (told) { /* fitted once in the light told: nothing searched, nothing refined */
        evidence.light_known = true;
        memcpy(evidence.shadow_per_mm, memory->told_shadow_per_mm,
               sizeof evidence.shadow_per_mm);
        piece = memory->told_piece_mm;
        fit_stacks(&evidence, registration, &grid, patch_of, readings, radius, piece, fits,
                   stacked);
        keep_light(memory, true, evidence.shadow_per_mm, piece, false);
    } else if (may_keep_light(memory, clock)) {
        evidence.light_known = true;
        memcpy(evidence.shadow_per_mm, memory->shadow_per_mm, sizeof evidence.shadow_per_mm);
        piece = memory->piece_mm; /* the light was found with its pieces' height */
        fit_stacks(&evidence, registration, &grid, patch_of, readings, radius, piece, fits,
                   stacked);
        clock->light_kept = shadows_still_tell(&grid, stacked, fits);
        if (!clock->light_kept) {
            evidence.light_known = false;
            el_evidence_forget(&evidence);
            piece = model->piece_height_mm;
        }
    }
    if (!told && !clock->light_kept) {
        fit_stacks(&evidence, registration, &grid, patch_of, readings, radius, piece, fits,
                   stacked);
        tellers.lean = malloc(sizeof(el_stack_fit) * VISION_EL_TILES_MAX);
        int known[VISION_EL_TILES_MAX], known_count = 0;
        for (int r = 0; tellers.lean && r < grid.rows; r++)
            for (int c = 0; c < grid.cols; c++)
                if (tells_light(stacked[r][c], &fits[r][c])) {
                    known[tellers.count] = known_height(memory, first, &grid, r, c);
                    known_count += known[tellers.count] > 0;
                    tellers.at[tellers.count][0] = r;
                    tellers.at[tellers.count][1] = c;
                    tellers.lean[tellers.count++] = fits[r][c];
                }
        if (tellers.count > 0)
            el_evidence_find_light(&evidence, registration, tellers.lean, known, tellers.count,
                                   radius, piece);
        /* A light found from heights the game knows has its length from them; one found from
         * heights guessed is made shorter where the whole fit says so. The pieces' height the
         * heights do not give: the images' lean does. A few stacks tell neither. */
        bool refinable = light_refined && tellers.count >= LIGHT_REFINED_FROM;
        scale_guessed = light_refined && evidence.light_known && known_count == 0 && !refinable;
        fit_refinement refine = !refinable        ? FIT_AS_FOUND
                                : known_count > 0 ? FIT_PIECES
                                                  : FIT_LIGHT_AND_PIECES;
        if (evidence.light_known)
            status = fit_in_light(&evidence, registration, &grid, patch_of, readings, radius,
                                  &piece, refine, fits, stacked);
        if (memory) { /* a read that failed leaves no light to keep */
            keep_light(memory, evidence.light_known && status == VISION_OK,
                       evidence.shadow_per_mm, piece, known_count > 0);
        }
    }
    unsigned char *shaded = NULL; /* where the stacks' shadows fall (shadows_on), for the
                                     tokens read by their palettes (read_token) */
    if (status == VISION_OK && evidence.light_known && tokens_by_palette(model)) {
        shaded = calloc((size_t)table.width * table.height, 1);
        if (shaded)
            mark_shadows(registration, evidence.shadow_per_mm, &grid, stacked, fits, radius,
                         piece, &table, shaded);
        else
            status = VISION_NOMEM;
    }
    el_evidence_free(&evidence);
    if (status != VISION_OK) {
        free(tellers.lean);
        free(fits);
        return status;
    }
    if (memory) {
        memory->leaning_last_read = 0;
        for (int r = 0; r < grid.rows; r++)
            for (int c = 0; c < grid.cols; c++)
                memory->leaning_last_read += tells_light(stacked[r][c], &fits[r][c]);
        if (!clock->light_kept) /* counted on the same fit as every read's after it */
            memory->light_found_from = memory->leaning_last_read;
    }

    int row0 = EL_CELLS_MAX, col0 = EL_CELLS_MAX;
    for (int r = 0; r < grid.rows; r++)
        for (int c = 0; c < grid.cols; c++) {
            if (patch_of[r][c] < 0)
                continue;
            row0 = r < row0 ? r : row0;
            col0 = c < col0 ? c : col0;
            const cell_reading *reading = &readings[r][c];
            vision_el_tile *tile = &seen->tiles[seen->tile_count++];
            tile->row = r;
            tile->col = c;
            el_grid_centre(&grid, r, c, &tile->x_mm, &tile->y_mm);
            tile->type = reading->type;
            tile->confidence[VISION_EL_TYPE] = type_confidence(reading);
            tile->top = VISION_NONE;
            tile->height = 0;
            tile->token = EL_NO_TOKEN;
            tile->confidence[VISION_EL_TOP] = tile->confidence[VISION_EL_HEIGHT] =
                tile->confidence[VISION_EL_TOKEN] = 1.0f;
            if (reading->match.outliers < STACK_OUTLIERS)
                continue;
            bool missed = false; /* a stack whose capsule was too little piece to be found */
            float confidence = 0.0f;
            bool piece_like = false, token_read = false;
            int token = EL_NO_TOKEN;
            /* A lake never holds adventurers (el_most_adventurers): what the capsules took for
             * a stack on one is the boat's print or a mark the art did not have. */
            bool lake = rules_hold(reading) && el_most_adventurers((el_tile_type)tile->type) == 0;
            if (lake)
                stacked[r][c] = false;
            if (!stacked[r][c] || tokens_by_palette(model)) {
                el_patch_sample_at(&table, &grid, mat, model->art_span, r, c,
                                   scenery.match[r][c].shift_mm,
                                   &patches[patch_of[r][c]]);
                bool shadow[EL_PATCH][EL_PATCH]; /* a palette's read alone asks (read_token) */
                if (tokens_by_palette(model))
                    shadows_on(shaded, &table, &grid, mat, model->art_span, r, c,
                               scenery.match[r][c].shift_mm, shadow);
                token = read_token(model, &patches[patch_of[r][c]], scenery.art[r][c],
                                   &scenery.match[r][c],
                                   tokens_by_palette(model) ? (const bool(*)[EL_PATCH])shadow
                                                            : NULL,
                                   &confidence, &piece_like);
                token_read = true;
            }
            /* A token no adventurer may stand under (el_most_adventurers_under): what the
             * capsules took for a stack is its print (the boat's sail, the snakes' ground are
             * near orange) when its colours spread over the token's palette. */
            bool keeps_out = token_read && token >= EL_BOAT &&
                             el_most_adventurers_under((el_token)token) == 0;
            if (stacked[r][c] && keeps_out && confidence >= TOKEN_OVER_STACK)
                stacked[r][c] = false;
            if (!stacked[r][c]) {
                /* Flat: a token, or a mark the art did not have (glare, a shadow). */
                tile->token = token;
                tile->confidence[VISION_EL_TOKEN] = confidence;
                /* Its best capsule must hold some piece (a neighbour's leaning image is
                 * explained already, and leaves this tile's capsules little). */
                missed = !lake && piece_like && fits[r][c].height > 0 &&
                         fits[r][c].filled >= MISSED_FILLED;
                if (missed) /* not a token: as sure as it is a stack (below) */
                    tile->token = EL_NO_TOKEN;
            }
            if (lake) { /* no stack: as sure as the tile is a lake */
                tile->confidence[VISION_EL_TOP] = tile->confidence[VISION_EL_HEIGHT] =
                    tile->confidence[VISION_EL_TYPE];
                continue;
            }
            if (!stacked[r][c] && !missed) {
                /* No stack: as sure as the best capsule on the tile was short of one. */
                float flat = (float)clamp01(1.0 - fits[r][c].filled / EL_STACK_FILLED);
                if (tile->token == VISION_UNKNOWN)
                    flat = fminf(flat, 0.5f);
                /* and as its best capsule's shadow was not seen darkened: a stack the capsules
                 * missed still casts one */
                if (fits[r][c].shadow_pixels >= SHADOW_TELLS)
                    flat = fminf(flat, clamp01(1.0 - (fits[r][c].shadow_darkened - SHADOW_DARK) /
                                                         (SHADOW_CAST - SHADOW_DARK)));
                tile->confidence[VISION_EL_TOP] = tile->confidence[VISION_EL_HEIGHT] = flat;
                if (fits[r][c].height > 0)
                    height_support(&fits[r][c], true, tile);
                continue;
            }
            const el_stack_fit *fit = &fits[r][c];
            read_top(model, fit->top_colour, tile);
            /* The runner-up is a height the tile may hold; the margin is over every other,
             * so that a taller stack than the tile may hold scoring better (an image longer
             * than any it may show) leaves the height unsure. */
            double second_held = -INFINITY;
            int runner_up = 0, most = most_on(reading);
            for (int k = 1; k <= most && k <= VISION_EL_STACK_MAX; k++)
                if (k != fit->height && fit->score[k] > second_held) {
                    second_held = fit->score[k];
                    runner_up = k;
                }
            if (fit->lean_mm < MIN_LEAN_MM && fit->shadow_mm < MIN_LEAN_MM) {
                tile->height = VISION_UNKNOWN;
                tile->confidence[VISION_EL_HEIGHT] = 0.0f;
            } else {
                tile->height = fit->height;
                tile->confidence[VISION_EL_HEIGHT] = clamp01(height_margin(fit, fit->height));
                if (scale_guessed)
                    tile->confidence[VISION_EL_HEIGHT] =
                        fminf(tile->confidence[VISION_EL_HEIGHT],
                              clamp01(guessed_scale_sure(&tellers, stacked, fits, r, c)));
                height_support(fit, false, tile);
                /* Not sure of it: the runner-up too, which the tracker's rules may take.
                 * (A stack whose capsule was too little piece to be found is doubted below,
                 * but as a stack at all: no second height says that.) */
                if (tile->confidence[VISION_EL_HEIGHT] < HEIGHT_OR_BELOW)
                    tile->height_or = runner_up;
            }
            /* The top is read where the height puts it: where the runner-up's would show
             * another colour, no surer than that height. */
            if (tile->height_or > 0 && tile->top >= 0) {
                float other_colour[3];
                el_stack_top_colour(&table, registration, fit, tile->height_or, radius, piece,
                                    other_colour);
                vision_el_tile other = *tile;
                read_top(model, other_colour, &other);
                if (other.top != tile->top)
                    tile->confidence[VISION_EL_TOP] =
                        fminf(tile->confidence[VISION_EL_TOP], tile->confidence[VISION_EL_HEIGHT]);
            }
            /* No surer than the capsule was a stack: phantoms (a temple's or a mountain's dark
             * print the art placed a little off) are mostly little more piece than not. */
            float stack = (float)clamp01((fit->filled - STACK_DOUBTED) /
                                         (STACK_SURE - STACK_DOUBTED));
            /* and than its shadow was seen: where the light casts one, a stack's falls on
             * darkened scenery, a print's on lit */
            if (fit->shadow_pixels >= SHADOW_TELLS)
                stack = fminf(stack, clamp01((fit->shadow_darkened - SHADOW_LIT) /
                                             (SHADOW_DARK - SHADOW_LIT)));
            /* and than the art it was read against was the tile's: a capsule is scored against
             * the scenery of the type read, which is not there when the type is a guess (the
             * cap leaves the tracker's rules the field, ART_DOUBTED_STACK above 0.5) */
            stack = fminf(stack, ART_DOUBTED_STACK + type_by_ratio(reading));
            tile->confidence[VISION_EL_TOP] = fminf(tile->confidence[VISION_EL_TOP], stack);
            tile->confidence[VISION_EL_HEIGHT] = fminf(tile->confidence[VISION_EL_HEIGHT], stack);
            /* No such token where adventurers stand: as sure as the stack, and as the token
             * read under it was not. */
            float no_token = stack;
            if (keeps_out)
                no_token = fminf(no_token, 1.0f - confidence);
            tile->confidence[VISION_EL_TOKEN] = no_token;
        }
    free(tellers.lean);
    free(shaded);
    free(fits);
    for (int i = 0; i < seen->tile_count; i++) {
        seen->tiles[i].row -= row0;
        seen->tiles[i].col -= col0;
    }
    for (int i = 0; i < seen->unknown_count; i++) {
        seen->unknown[i].row -= row0 == EL_CELLS_MAX ? 0 : row0;
        seen->unknown[i].col -= col0 == EL_CELLS_MAX ? 0 : col0;
    }
    clock->stacks_ms += vision_clock_ms() - mark;
    return VISION_OK;
}

vision_status vision_el_recognise(const vision_image *frame,
                                  const vision_registration *registration,
                                  const vision_mat *mat, const vision_el_model *model,
                                  vision_el_observation *seen, vision_el_timing *timing,
                                  char *error, size_t size)
{
    return vision_el_recognise_again(frame, registration, mat, model, NULL, seen, timing, error,
                                     size);
}

/* vision_el_recognise_again; light_refined: the light found and the pieces' height refined
 * where the whole fit says so (fit_in_light), as a table is read, or not, as a teaching photo
 * is read back. */
static vision_status recognise(const vision_image *frame, const vision_registration *registration,
                               const vision_mat *mat, const vision_el_model *model,
                               vision_el_memory *memory, bool light_refined,
                               vision_el_observation *seen, vision_el_timing *timing,
                               char *error, size_t size)
{
    memset(seen, 0, sizeof *seen);
    vision_el_timing clock;
    memset(&clock, 0, sizeof clock);
    double start = vision_clock_ms(), mark = start;
    for (int type = 0; type < EL_TILE_TYPES; type++)
        if (!model->type_samples[type]) {
            snprintf(error, size, "the profile was never shown a %s tile: teach it again with "
                                  "the layout of tablescribe calibrate teach --print-layout",
                     el_tile_name((el_tile_type)type));
            return VISION_NOT_TAUGHT;
        }
    if (model->colour_count == 0 || model->piece_height_mm <= 0.0) {
        snprintf(error, size, "the profile was never shown the adventurers");
        return VISION_NOT_TAUGHT;
    }
    seen->colour_count = model->colour_count;
    memcpy(seen->colours, model->colours, sizeof seen->colours);

    el_balance balance;
    vision_status status = el_balance_measure(frame, registration, mat, &balance, error, size);
    if (status != VISION_OK)
        return status;
    el_table table;
    status = el_table_read(frame, registration, mat, &balance, model->mat_colour, &table);
    if (status != VISION_OK) {
        snprintf(error, size, "cannot see the table from above: %s", vision_status_message(status));
        return status;
    }
    clock.rectify_ms = vision_clock_ms() - mark;
    mark = vision_clock_ms();

    /* The tiles read; where a lamp's glare shows on them or the mat, it is taken off and they
     * are read again; then the stacks. */
    tiles_read *first = malloc(sizeof *first), *read = first;
    el_lit_tile *lit = malloc(VISION_EL_TILES_MAX * sizeof *lit);
    vision_el_observation blank = *seen;
    if (memory && memory->model != model)
        forget(memory);
    if (memory) { /* the stacks told are the last read's: for this read alone */
        if (!memory->known_for_next)
            memory->known_count = 0;
        memory->known_for_next = false;
    }
    status = first && lit ? read_tiles(mat, model, &table, seen, &clock, memory, NULL, NULL,
                                       first)
                          : VISION_NOMEM;
    if (memory) {
        if (status == VISION_OK)
            remember(model, first, memory);
        else
            forget(memory);
    }
    if (status == VISION_OK && first->any) {
        el_glare glare;
        el_glare_find(&table, mat, &balance, model->mat_colour, lit, lit_tiles(first, lit),
                      &glare);
        if (glare.found) {
            clock.glare_peak = glare.peak;
            el_glare_undo(&table, &glare);
            *seen = blank;
            read = malloc(sizeof *read);
            status = read ? el_table_find_foreground(&table, mat, model->mat_colour)
                          : VISION_NOMEM;
            if (status == VISION_OK)
                status = read_tiles(mat, model, &table, seen, &clock, NULL, first, &glare,
                                    read);
        }
    }
    if (status == VISION_OK)
        status = read_stacks(registration, mat, model, &table, first, read,
                             memory && memory->any ? memory : NULL, light_refined, seen, &clock);
    if (memory) /* told for this read alone */
        memory->light_told = false;
    if (read != first)
        free(read);
    free(first);
    free(lit);
    el_table_free(&table);
    clock.total_ms = vision_clock_ms() - start;
    if (timing)
        *timing = clock;
    return status;
}

vision_status vision_el_recognise_again(const vision_image *frame,
                                        const vision_registration *registration,
                                        const vision_mat *mat, const vision_el_model *model,
                                        vision_el_memory *memory, vision_el_observation *seen,
                                        vision_el_timing *timing, char *error, size_t size)
{
    return recognise(frame, registration, mat, model, memory, true, seen, timing, error, size);
}

vision_status el_read_back(const vision_image *frame, const vision_registration *registration,
                           const vision_mat *mat, const vision_el_model *model,
                           vision_el_observation *seen, char *error, size_t size)
{
    return recognise(frame, registration, mat, model, NULL, false, seen, NULL, error, size);
}
