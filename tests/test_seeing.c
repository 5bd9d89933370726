/* Seeing Expedition Luxor: the recogniser's stages on renders whose truth is known (the grid, the
 * art's turn and light, reading the types back), teaching, and the refusals. How well it reads
 * unseen photos is measured by bench/bench_seeing, not asserted here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "calibration.h"
#include "el_internal.h"
#include "vision.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const colours[] = {"orange", "black", "grey", "yellow"};

/* A render of a truth with its registration. */
typedef struct photo {
    vision_render_config config;
    vision_render_info info;
    vision_image frame;
    vision_registration registration;
} photo;

/* A render of truth with p->config, and its registration. */
static void shoot(photo *p, const vision_el_observation *truth)
{
    char error[256];
    assert_int_equal(vision_el_render(&p->config, truth, &p->frame, &p->info, error, sizeof error),
                     VISION_OK);
    assert_int_equal(vision_register(&p->frame, &p->config.mat, NULL, &p->registration, error,
                                     sizeof error),
                     VISION_OK);
}

/* p->config: box's art, scene's camera and light, without glare. */
static void scene_without_glare(photo *p, uint64_t box, uint64_t scene)
{
    vision_render_config_default(&p->config);
    p->config.box_seed = box;
    p->config.scene_seed = scene;
    p->config.glare = 0.0;
}

/* shoot, the scene without glare, lightly tilted. */
static void take(photo *p, const vision_el_observation *truth, uint64_t box, uint64_t scene)
{
    scene_without_glare(p, box, scene);
    p->config.tilt_deg = 15.0;
    shoot(p, truth);
}

/* A rows x cols layout of every type in turn, nothing on it. */
static void typed_layout(vision_el_observation *truth, int rows, int cols)
{
    memset(truth, 0, sizeof *truth);
    for (int i = 0; i < rows * cols; i++) {
        vision_el_tile *t = &truth->tiles[truth->tile_count++];
        t->row = i / cols;
        t->col = i % cols;
        t->type = (i * 5) % EL_TILE_TYPES;
        t->top = VISION_NONE;
        t->token = EL_NO_TOKEN;
        for (int k = 0; k < 4; k++)
            t->confidence[k] = 1.0f;
    }
}

/* shoot, box 1's scene 8 without glare, tilted 25 degrees, its lamp 40 degrees high from
 * azimuth 60: the stacks' shadows long and their images leaning. */
static void take_lamp_lit(photo *p, const vision_el_observation *truth)
{
    scene_without_glare(p, 1, 8);
    p->config.tilt_deg = 25.0;
    p->config.light_azimuth_deg = 60.0;
    p->config.light_elevation_deg = 40.0;
    shoot(p, truth);
}

/* A 6 x 7 layout of every type in turn, nothing on it. */
static void plain_layout(vision_el_observation *truth)
{
    typed_layout(truth, 6, 7);
}

/* A table of stacks on plain_layout's tiles (none on a lake): on every tile i with i % every ==
 * 0, and on the first extra others; how many, in layout's colours. */
static int stacked_layout(const vision_el_observation *layout, int every, int extra,
                          vision_el_observation *table)
{
    plain_layout(table);
    table->colour_count = layout->colour_count;
    memcpy(table->colours, layout->colours, sizeof table->colours);
    int stacks = 0;
    for (int i = 0; i < table->tile_count; i++) {
        vision_el_tile *t = &table->tiles[i];
        if (t->type == EL_LAKE || (i % every != 0 && extra-- <= 0))
            continue;
        t->height = 1 + i % 3;
        t->top = i % 4;
        stacks++;
    }
    return stacks;
}

/* The photo's table from above, the mat's colour its median, and the grid found on it. */
static void see_grid(const photo *p, el_table *table, el_grid *grid)
{
    char error[256];
    el_balance balance;
    assert_int_equal(el_balance_measure(&p->frame, &p->registration, &p->config.mat, &balance,
                                        error, sizeof error),
                     VISION_OK);
    float mat_colour[3];
    el_table_median(&p->frame, &p->registration, &p->config.mat, &balance, mat_colour);
    assert_int_equal(
        el_table_read(&p->frame, &p->registration, &p->config.mat, &balance, mat_colour, table),
        VISION_OK);
    assert_int_equal(el_grid_find(table, &p->config.mat, grid), VISION_OK);
}

static void test_seeing_grid_puts_every_tile_in_its_cell(void **state)
{
    (void)state;
    static vision_el_observation truth;
    plain_layout(&truth);
    for (uint64_t scene = 1; scene <= 8; scene++) {
        photo p;
        take(&p, &truth, scene <= 4 ? 5 : 2, scene);
        el_table table;
        el_grid grid;
        see_grid(&p, &table, &grid);
        int row0 = 0, col0 = 0;
        for (int i = 0; i < truth.tile_count; i++) {
            int row, col;
            double u, v;
            el_grid_locate(&grid, p.info.tiles[i].x_mm, p.info.tiles[i].y_mm, &row, &col, &u, &v);
            if (i == 0) {
                row0 = row;
                col0 = col;
            }
            /* The same cell as the truth says, and its centre within 3 mm of the tile's: tiles
             * lie a millimetre or so off any grid, and reading a tile's art looks 1.2 mm either
             * way. (At 6764e1e tiles lay up to 12 mm off in bench_seeing's photos.) */
            assert_int_equal(row - row0, truth.tiles[i].row);
            assert_int_equal(col - col0, truth.tiles[i].col);
            assert_true(fabs(u) * grid.pitch_mm < 3.0);
            assert_true(fabs(v) * grid.pitch_mm < 3.0);
            assert_true(grid.tile[row][col]);
        }
        /* The turn of the layout, within half a degree of the tiles' mean. */
        double mean = 0.0;
        for (int i = 0; i < truth.tile_count; i++)
            mean += p.info.tiles[i].angle_deg;
        mean /= truth.tile_count;
        assert_true(fabs(grid.angle * 180.0 / 3.14159265358979 - mean) < 0.5);
        el_table_free(&table);
        vision_image_free(&p.frame);
    }
}

/* Cells left empty inside the layout show the mat enclosed by tiles: no tile is seen there
 * (at b142a5a the hole was filled like a tile's dark pictogram, and read as a tile). */
static void test_seeing_grid_leaves_empty_cells_inside_the_layout_empty(void **state)
{
    (void)state;
    static vision_el_observation full, holed;
    plain_layout(&full);
    memset(&holed, 0, sizeof holed);
    for (int i = 0; i < full.tile_count; i++) {
        const vision_el_tile *t = &full.tiles[i];
        bool hole = (t->row == 2 && t->col == 2) || (t->row == 3 && t->col == 4);
        if (!hole)
            holed.tiles[holed.tile_count++] = *t;
    }
    for (uint64_t scene = 1; scene <= 4; scene++) {
        photo p;
        take(&p, &holed, 3, scene);
        el_table table;
        el_grid grid;
        see_grid(&p, &table, &grid);
        assert_int_equal(grid.tiles, holed.tile_count);
        /* The first tile (row 0, column 0) anchors the truth's rows on the grid's. */
        int row0, col0;
        double u, v;
        el_grid_locate(&grid, p.info.tiles[0].x_mm, p.info.tiles[0].y_mm, &row0, &col0, &u, &v);
        assert_false(grid.tile[row0 + 2][col0 + 2]);
        assert_false(grid.tile[row0 + 3][col0 + 4]);
        el_table_free(&table);
        vision_image_free(&p.frame);
    }
}

static void random_patch(el_patch *patch, unsigned seed)
{
    srand(seed);
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++)
            for (int c = 0; c < 3; c++)
                patch->colour[y][x][c] = (float)((rand() % 1000) / 1000.0 * 0.8 + 0.1);
}

/* The art matcher on a patch and an art as they are (el_planes_of, el_art_turns_of). */
static double patch_distance_masked(const el_patch *patch, const el_patch *art,
                                    const el_patch_mask *mask, el_match *match)
{
    el_planes *seen = malloc(sizeof *seen);
    el_art_turns *turns = malloc(sizeof *turns);
    assert_non_null(seen);
    assert_non_null(turns);
    el_planes_of(patch, mask, seen);
    el_art_turns_of(art, turns);
    double distance = el_planes_distance(seen, turns, match);
    free(seen);
    free(turns);
    return distance;
}

static double patch_distance(const el_patch *patch, const el_patch *art, el_match *match)
{
    return patch_distance_masked(patch, art, NULL, match);
}

static void test_seeing_patch_distance_finds_the_turn_and_the_light(void **state)
{
    (void)state;
    el_patch art;
    random_patch(&art, 7);
    for (int q = 0; q < 4; q++) {
        el_patch seen;
        for (int y = 0; y < EL_PATCH; y++)
            for (int x = 0; x < EL_PATCH; x++) {
                const float *a = el_patch_turned(&art, q, x, y);
                for (int c = 0; c < 3; c++) /* a dimmer lamp and a little glare */
                    seen.colour[y][x][c] = 0.8f * a[c] + 0.1f;
            }
        el_match match;
        double distance = patch_distance(&seen, &art, &match);
        assert_int_equal(match.quarter_turns, q);
        assert_true(distance < 1e-3);
        assert_true(fabs(match.gain - 0.8f) < 0.01f);
        assert_true(fabs(match.offset - 0.1f) < 0.01f);
        assert_true(match.outliers == 0.0);
    }
    /* Another art is far, and mostly outliers. */
    el_patch other;
    random_patch(&other, 8);
    el_match match;
    assert_true(patch_distance(&other, &art, &match) > 0.5);
}

/* What covers a third of the art (a stack and its shadow) does not bend the light it is
 * matched under: the rest of the art still finds the lamp's gain and the glare's offset, and
 * only what is covered counts as unlike the art. */
static void test_seeing_patch_distance_light_ignores_what_covers_the_art(void **state)
{
    (void)state;
    el_patch art, seen;
    random_patch(&art, 9);
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++)
            for (int c = 0; c < 3; c++)
                seen.colour[y][x][c] = y < EL_PATCH / 3 ? 0.02f : 0.8f * art.colour[y][x][c] + 0.1f;
    el_match match;
    patch_distance(&seen, &art, &match);
    assert_int_equal(match.quarter_turns, 0);
    assert_true(fabs(match.gain - 0.8f) < 0.01f);
    assert_true(fabs(match.offset - 0.1f) < 0.01f);
    assert_true(fabs(match.outliers - 1.0 / 3.0) < 0.02);
}

/* Glare on the mat beside the layout: a smooth bright blob, which any art matches only with
 * its contrast flattened to the least gain, and far even so; a real art under a dim lamp and a
 * little glare still shows its own. */
static void test_seeing_glare_shows_no_art(void **state)
{
    (void)state;
    el_patch art, glare, dim;
    random_patch(&art, 5);
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++) {
            double dx = x - EL_PATCH / 2.0, dy = y - EL_PATCH / 2.0;
            float bright = (float)(0.9 * exp(-(dx * dx + dy * dy) / 150.0));
            for (int c = 0; c < 3; c++) {
                glare.colour[y][x][c] = 0.15f + bright;
                dim.colour[y][x][c] = 0.75f * art.colour[y][x][c] + 0.05f;
            }
        }
    el_match match;
    double distance = patch_distance(&glare, &art, &match);
    assert_true(el_shows_no_art(distance, &match));
    distance = patch_distance(&dim, &art, &match);
    assert_false(el_shows_no_art(distance, &match));
}

/* Two arts alike but for a light band (nearly black in the other) and a small mark: a black
 * piece standing on the band makes the dark-banded art the nearer, unless what looks like a
 * piece is left out, when the mark tells them apart. */
static void test_seeing_patch_distance_leaves_out_the_pieces(void **state)
{
    (void)state;
    el_patch light, dark;
    random_patch(&light, 11);
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++)
            for (int c = 0; c < 3; c++) {
                bool band = y >= 6 && y < 16, mark = y >= 18 && x < 6;
                if (band)
                    light.colour[y][x][c] = 0.85f;
                dark.colour[y][x][c] = band ? 0.08f : mark ? 0.9f - light.colour[y][x][c]
                                                          : light.colour[y][x][c];
            }
    el_patch seen = light; /* the light-banded art, a black stack over its band */
    for (int y = 6; y < 16; y++)
        for (int x = 0; x < EL_PATCH; x++)
            for (int c = 0; c < 3; c++)
                seen.colour[y][x][c] = 0.06f;
    static vision_el_model pieces;
    vision_el_model_init(&pieces);
    pieces.colour_count = 1;
    for (int c = 0; c < 3; c++)
        pieces.colour_mean[0][c] = 0.05f;
    el_match match;
    assert_true(patch_distance(&seen, &dark, &match) <
                patch_distance(&seen, &light, &match));
    el_patch_mask mask;
    el_patch_mask_pieces(&seen, &pieces, &mask);
    assert_true(mask.ignore[10][3] && !mask.ignore[2][3]);
    assert_true(patch_distance_masked(&seen, &light, &mask, &match) <
                patch_distance_masked(&seen, &dark, &mask, &match));
    /* What was left out still counts as unlike the art: the tile has something on it. */
    assert_true(match.outliers >= 10.0 / EL_PATCH);
}

/* Teaching takes this photo of truth into model. */
static void assert_teaching_taken(const photo *p, const vision_el_observation *truth,
                                  vision_el_model *model)
{
    char error[256] = "";
    vision_status status = vision_el_learn(&p->frame, &p->registration, &p->config.mat, truth,
                                           model, error, sizeof error);
    if (status != VISION_OK)
        fail_msg("teaching refused the photo: %s", error);
}

/* A fresh model taught from p alone, which teaching must take. */
static void teach_from(const photo *p, const vision_el_observation *truth, vision_el_model *model)
{
    vision_el_model_init(model);
    assert_teaching_taken(p, truth, model);
}

static void test_seeing_types_read_back_from_the_teaching_photo(void **state)
{
    (void)state;
    static vision_el_observation layout, seen;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo p;
    take(&p, &layout, 1, 7);
    static vision_el_model model;
    vision_el_model_init(&model);
    char error[256];
    assert_teaching_taken(&p, &layout, &model);
    assert_int_equal(model.images, 1);
    /* the adventurers' diameter is what this photo's stacks measure, their height the game's */
    assert_true(fabs(model.piece_diameter_mm - p.info.piece_diameter_mm) < 1.0);
    assert_true(model.piece_diameter_mm != VISION_EL_PIECE_DIAMETER_MM);
    assert_true(model.piece_height_mm == VISION_EL_PIECE_HEIGHT_MM);
    for (int type = 0; type < EL_TILE_TYPES; type++)
        assert_int_equal(model.type_samples[type], 1 + (type == EL_MOUNTAIN)); /* clear ones */
    assert_int_equal(model.token_samples[EL_BOAT] > 0, 1);
    assert_int_equal(model.token_samples[EL_SNAKES] > 0, 1);
    assert_int_equal(model.colour_count, 4);
    for (int i = 0; i < model.colour_count; i++) /* black and grey too, which pass for shade */
        assert_true(model.colour_samples[i] > 0);
    vision_el_timing timing;
    assert_int_equal(vision_el_recognise(&p.frame, &p.registration, &p.config.mat, &model, &seen,
                                         &timing, error, sizeof error),
                     VISION_OK);
    /* Every tile without pieces on it is read as the type it was taught as. */
    int clean = 0, right = 0;
    for (int i = 0; i < layout.tile_count; i++) {
        const vision_el_tile *t = &layout.tiles[i];
        if (t->height > 0 || t->token != EL_NO_TOKEN)
            continue;
        clean++;
        for (int j = 0; j < seen.tile_count; j++)
            right += seen.tiles[j].row == t->row && seen.tiles[j].col == t->col &&
                     seen.tiles[j].type == t->type;
    }
    assert_int_equal(right, clean);
    assert_true(timing.total_ms > 0.0);
    /* Each stack read gives how well every height explains it: its own best, no stack worse;
     * the rules get it in tenths. */
    char seats[4][EL_COLOUR_MAX];
    for (int i = 0; i < 4; i++)
        snprintf(seats[i], sizeof seats[i], "%s", colours[i]);
    el_observation rules;
    assert_int_equal(vision_el_to_rules(&seen, (const char(*)[EL_COLOUR_MAX])seats, 4, 0.5f,
                                        &rules, NULL, error, sizeof error),
                     VISION_OK);
    assert_int_equal(rules.count, seen.tile_count);
    int stacks = 0;
    for (int j = 0; j < seen.tile_count; j++) {
        const vision_el_tile *s = &seen.tiles[j];
        for (int k = 0; k <= VISION_EL_STACK_MAX; k++) {
            assert_true(s->height_support[k] <= 0.0f);
            assert_true(s->height_support[k] >= -VISION_EL_SUPPORT_LEAST);
            assert_int_equal(rules.tiles[j].support[k], (int)lroundf(10 * s->height_support[k]));
        }
        if (s->height <= 0)
            continue;
        stacks++;
        assert_true(s->height_support[s->height] == 0.0f);
        assert_true(s->height_support[0] < 0.0f);
    }
    assert_true(stacks >= 3);
    vision_image_free(&p.frame);
}

/* The cell (row, col) of an observation, or NULL. */
static const vision_el_tile *tile_at(const vision_el_observation *o, int row, int col)
{
    for (int i = 0; i < o->tile_count; i++)
        if (o->tiles[i].row == row && o->tiles[i].col == col)
            return &o->tiles[i];
    return NULL;
}

/* Two readings of the same table alike in their stacks: each top, height (and the height it
 * could be) and how well every height explains the image, and how sure of each, to the
 * float's rounding. A lake's top is as sure as its type, and a type recalled from the last
 * read and one read afresh can differ in the last digit: since the light is refined (session
 * 32), the moved photo's lake at row 3, column 6 below is 0.99999994 sure one way, 1 the
 * other. */
static void assert_stacks_alike(const vision_el_observation *a, const vision_el_observation *b)
{
    assert_int_equal(a->tile_count, b->tile_count);
    for (int i = 0; i < a->tile_count; i++) {
        const vision_el_tile *s = &a->tiles[i], *t = &b->tiles[i];
        assert_int_equal(s->top, t->top);
        assert_int_equal(s->height, t->height);
        assert_int_equal(s->height_or, t->height_or);
        assert_memory_equal(s->height_support, t->height_support, sizeof s->height_support);
        assert_true(fabsf(s->confidence[VISION_EL_TOP] - t->confidence[VISION_EL_TOP]) <= 1e-6f);
        assert_true(fabsf(s->confidence[VISION_EL_HEIGHT] - t->confidence[VISION_EL_HEIGHT]) <=
                    1e-6f);
    }
}

/* model taught from box 1's scene 7 of layout, the teaching layout (calibration_teach_layout). */
static void teach_the_layout(const vision_el_observation *layout, vision_el_model *model)
{
    photo teach;
    take(&teach, layout, 1, 7);
    teach_from(&teach, layout, model);
    vision_image_free(&teach.frame);
}

/* Read again with the memory of the last read, a tile that looks as it did is matched against
 * the types that decided its reading, and one that does not against every type: the same
 * photo read again is matched so tile by tile and reads the same; a photo where one tile was
 * swapped for another type and one was laid beside the layout reads both as they are now,
 * spares most of the others, and reads what a read without the memory reads (its four stacks
 * are too few to keep the light they told). */
static void test_seeing_a_tile_unchanged_since_the_last_read_keeps_its_reading(void **state)
{
    (void)state;
    static vision_el_observation layout, changed, first, again, fresh;
    static vision_el_model model, other;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo before, after;
    teach_the_layout(&layout, &model);

    /* the layout where scene 8 puts it, held there as a recording holds it while it grows */
    take(&before, &layout, 1, 8);
    double origin[2] = {NAN, NAN};
    for (int i = 0; i < before.info.tile_count; i++)
        if (layout.tiles[i].row == 0 && layout.tiles[i].col == 0) {
            origin[0] = before.info.tiles[i].x_mm;
            origin[1] = before.info.tiles[i].y_mm;
        }
    assert_false(isnan(origin[0]));
    vision_image_free(&before.frame);
    before.config.layout_x_mm = origin[0];
    before.config.layout_y_mm = origin[1];
    shoot(&before, &layout);
    vision_el_memory *memory = vision_el_memory_new();
    assert_non_null(memory);
    vision_el_timing timing;
    char error[256];
    const vision_mat *mat = &before.config.mat;
    assert_int_equal(vision_el_recognise_again(&before.frame, &before.registration, mat, &model,
                                               memory, &first, &timing, error, sizeof error),
                     VISION_OK);
    assert_int_equal(timing.tiles_typed, layout.tile_count);
    assert_int_equal(timing.tiles_recalled, 0);
    assert_int_equal(vision_el_recognise_again(&before.frame, &before.registration, mat, &model,
                                               memory, &again, &timing, error, sizeof error),
                     VISION_OK);
    assert_int_equal(timing.tiles_recalled, layout.tile_count);
    assert_memory_equal(&again, &first, sizeof first);
    /* read with another model (a copy: the same readings), the memory is not used */
    other = model;
    assert_int_equal(vision_el_recognise_again(&before.frame, &before.registration, mat, &other,
                                               memory, &again, &timing, error, sizeof error),
                     VISION_OK);
    assert_int_equal(timing.tiles_recalled, 0);
    assert_memory_equal(&again, &first, sizeof first);
    assert_int_equal(vision_el_recognise_again(&before.frame, &before.registration, mat, &model,
                                               memory, &again, &timing, error, sizeof error),
                     VISION_OK);

    /* a clear tile becomes another type; a desert temple is laid below the layout's first
     * column */
    changed = layout;
    int swapped = -1;
    for (int i = 0; i < changed.tile_count && swapped < 0; i++)
        if (changed.tiles[i].height == 0 && changed.tiles[i].token == EL_NO_TOKEN &&
            changed.tiles[i].type != EL_DESERT && changed.tiles[i].type != EL_MOUNTAIN)
            swapped = i;
    assert_true(swapped >= 0);
    int was = changed.tiles[swapped].type;
    changed.tiles[swapped].type = was == EL_LAKE ? EL_MOUNTAIN : EL_LAKE;
    vision_el_tile *laid = &changed.tiles[changed.tile_count++];
    *laid = changed.tiles[swapped];
    laid->type = EL_DESERT_TEMPLE;
    laid->row = 4;
    laid->col = 0;
    after.config = before.config;
    shoot(&after, &changed);
    assert_int_equal(vision_el_recognise_again(&after.frame, &after.registration, mat, &model,
                                               memory, &again, &timing, error, sizeof error),
                     VISION_OK);
    assert_int_equal(timing.tiles_typed, changed.tile_count);
    assert_true(timing.tiles_recalled >= layout.tile_count - 4);
    assert_true(timing.tiles_recalled <= layout.tile_count - 1);
    const vision_el_tile *now = tile_at(&again, changed.tiles[swapped].row,
                                        changed.tiles[swapped].col);
    assert_non_null(now);
    assert_int_equal(now->type, changed.tiles[swapped].type);
    now = tile_at(&again, 4, 0);
    assert_non_null(now);
    assert_int_equal(now->type, EL_DESERT_TEMPLE);
    assert_int_equal(vision_el_recognise(&after.frame, &after.registration, mat, &model, &fresh,
                                         NULL, error, sizeof error),
                     VISION_OK);
    assert_false(timing.light_kept);
    assert_memory_equal(&again, &fresh, sizeof fresh);
    vision_el_memory_free(memory);
    vision_image_free(&before.frame);
    vision_image_free(&after.frame);
}

/* A read keeps the light the stacks' shadows told for the next read of the same table while
 * it looks lit as it was, and searches for it again once the lamp has moved. */
static void test_seeing_a_read_keeps_the_light_while_the_table_looks_lit_as_before(void **state)
{
    (void)state;
    static vision_el_observation layout, table, first, again, fresh;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo lit, moved;
    teach_the_layout(&layout, &model);

    /* A 10 x 10 table with more stacks than a light is kept from, all in its first rows: a
     * lamp moved changes how those rows look, not how the others do. */
    typed_layout(&table, 10, 10);
    table.colour_count = layout.colour_count;
    memcpy(table.colours, layout.colours, sizeof table.colours);
    int stacks = 0;
    for (int i = 0; i < table.tile_count; i++) {
        vision_el_tile *t = &table.tiles[i];
        if (t->type != EL_LAKE && stacks < 22) {
            t->height = 1 + i % 3;
            t->top = i % 4;
            stacks++;
        }
    }

    take_lamp_lit(&lit, &table);
    vision_el_memory *memory = vision_el_memory_new();
    assert_non_null(memory);
    vision_el_timing timing;
    char error[256];
    const vision_mat *mat = &lit.config.mat;
    assert_int_equal(vision_el_recognise_again(&lit.frame, &lit.registration, mat, &model, memory,
                                               &first, &timing, error, sizeof error),
                     VISION_OK);
    assert_false(timing.light_kept);
    assert_int_equal(vision_el_recognise_again(&lit.frame, &lit.registration, mat, &model, memory,
                                               &again, &timing, error, sizeof error),
                     VISION_OK);
    assert_true(timing.light_kept);
    assert_memory_equal(&again, &first, sizeof first); /* the light found is the one kept */

    /* the lamp moved: its shadows fall elsewhere, and the light is searched for again */
    moved.config = lit.config;
    moved.config.light_azimuth_deg = 200.0;
    moved.config.light_elevation_deg = 60.0;
    shoot(&moved, &table);
    assert_int_equal(vision_el_recognise_again(&moved.frame, &moved.registration, mat, &model,
                                               memory, &again, &timing, error, sizeof error),
                     VISION_OK);
    /* most tiles look as they did: the shadows, not the tiles, tell the lamp moved */
    assert_true(2 * timing.tiles_recalled >= timing.tiles_typed);
    assert_false(timing.light_kept);
    assert_int_equal(vision_el_recognise(&moved.frame, &moved.registration, mat, &model, &fresh,
                                         NULL, error, sizeof error),
                     VISION_OK);
    assert_stacks_alike(&again, &fresh);
    assert_int_equal(vision_el_recognise_again(&moved.frame, &moved.registration, mat, &model,
                                               memory, &again, &timing, error, sizeof error),
                     VISION_OK);
    assert_true(timing.light_kept);
    vision_el_memory_free(memory);
    vision_image_free(&lit.frame);
    vision_image_free(&moved.frame);
}

/* A light kept is searched for again once many more stacks could tell it than it was found
 * from: at the read after the one that fitted them (the memory counts a read's stacks after
 * fitting them), and then kept again. */
static void test_seeing_a_light_kept_is_found_again_from_more_stacks(void **state)
{
    (void)state;
    static vision_el_observation layout, fewer, more, seen;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo few, many;
    teach_the_layout(&layout, &model);
    /* a few more stacks: most tiles look as they did */
    int stacks_fewer = stacked_layout(&layout, 2, 0, &fewer);
    int stacks_more = stacked_layout(&layout, 2, 8, &more);
    assert_true(stacks_fewer >= 16);
    assert_true(stacks_more > 1.4 * stacks_fewer);

    take_lamp_lit(&few, &fewer);
    many.config = few.config;
    shoot(&many, &more);
    vision_el_memory *memory = vision_el_memory_new();
    assert_non_null(memory);
    vision_el_timing timing;
    char error[256];
    const vision_mat *mat = &few.config.mat;
    const photo *reads[] = {&few, &few, &many, &many, &many};
    const bool kept[] = {false, true, true, false, true};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(vision_el_recognise_again(&reads[i]->frame, &reads[i]->registration, mat,
                                                   &model, memory, &seen, &timing, error,
                                                   sizeof error),
                         VISION_OK);
        assert_int_equal(timing.light_kept, kept[i]);
    }
    vision_el_memory_free(memory);
    vision_image_free(&few.frame);
    vision_image_free(&many.frame);
}

/* The light the memory's last read fitted the stacks in, its length over the render's (both in
 * the model's pieces: the render's shadows per mm of its own pieces), or 0 when it knew none. */
static double light_found_over_true(const vision_el_memory *memory, const photo *p,
                                    const vision_el_model *model)
{
    double found[2], drawn[2];
    if (!vision_el_memory_light(memory, found))
        return 0.0;
    vision_el_render_light(&p->info, model, drawn);
    return hypot(found[0], found[1]) / hypot(drawn[0], drawn[1]);
}

/* The stacks of truth at their heights, where p drew them (each tile's centre). */
static int known_stacks(const vision_el_observation *truth, const photo *p,
                        vision_el_known_stack *known)
{
    int count = 0;
    for (int i = 0; i < truth->tile_count; i++)
        if (truth->tiles[i].height > 0)
            known[count++] = (vision_el_known_stack){p->info.tiles[i].x_mm, p->info.tiles[i].y_mm,
                                                     truth->tiles[i].height};
    return count;
}

/* Told the heights the game knows, a memory searches for the light again at the next read
 * (the light it kept was found without them), finds it nearer the render's, and keeps that
 * one; heights told of tiles the read does not see leave the light searched as without them.
 * The model's pieces are taken three-tenths shorter than taught: a stack's image then reads a
 * piece too high here and there, and the light that fits those heights is too short, as in many
 * of the bench's tables (bench/README.md). (A fifth shorter, the game's 9 mm against a box's
 * 8-10, misled this photo's search until the art was read to 0.94 of a tile: no longer.) */
static void test_seeing_a_light_is_found_again_from_the_heights_the_game_knows(void **state)
{
    (void)state;
    static vision_el_observation layout, table, seen;
    static vision_el_model model;
    static vision_el_known_stack known[VISION_EL_TILES_MAX];
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    teach_the_layout(&layout, &model);
    model.piece_height_mm *= 0.7;
    int stacks = stacked_layout(&layout, 1, 0, &table);
    assert_true(stacks >= 16); /* enough to keep a light from */
    photo lit;
    take_lamp_lit(&lit, &table);
    vision_image_free(&lit.frame); /* the lamp elsewhere */
    lit.config.light_azimuth_deg = 0.0;
    lit.config.light_elevation_deg = 45.0;
    shoot(&lit, &table);
    vision_el_memory *memory = vision_el_memory_new();
    assert_non_null(memory);
    vision_el_timing timing;
    char error[256];
    const vision_mat *mat = &lit.config.mat;
    double ratio[5];
    bool kept[5];
    for (int i = 0; i < 5; i++) {
        int count = i == 2 || i == 3 ? known_stacks(&table, &lit, known) : 0;
        for (int k = 0; k < count && i == 2; k++)
            known[k].x_mm += 20.0; /* half a tile off: on no tile read */
        if (count > 0)
            vision_el_memory_know_stacks(memory, known, count);
        assert_int_equal(vision_el_recognise_again(&lit.frame, &lit.registration, mat, &model,
                                                   memory, &seen, &timing, error, sizeof error),
                         VISION_OK);
        ratio[i] = light_found_over_true(memory, &lit, &model);
        kept[i] = timing.light_kept;
    }
    assert_false(kept[0]);
    assert_true(ratio[0] > 0.0 && ratio[0] < 0.85); /* searched from the pictures alone */
    assert_true(kept[1]);
    assert_true(ratio[1] == ratio[0]);
    /* heights told of no tile the read fits a stack on: searched again, as without them */
    assert_false(kept[2]);
    assert_true(ratio[2] == ratio[0]);
    assert_false(kept[3]); /* searched again with the heights known */
    assert_true(fabs(ratio[3] - 1.0) < 0.05);
    assert_true(kept[4]);
    assert_true(ratio[4] == ratio[3]);
    vision_el_memory_free(memory);
    vision_image_free(&lit.frame);
}

/* Box 1's lamp-lit photo of the teaching layout with stacks of 1 to 5 on it (table), and the
 * model taught from the layout (layout), its pieces taken 8% shorter than this box's. */
static void lamp_lit_stacks_of_one_to_five(vision_el_observation *layout, vision_el_model *model,
                                           vision_el_observation *table, photo *lit)
{
    assert_int_equal(calibration_teach_layout(colours, 4, layout), VISION_OK);
    teach_the_layout(layout, model);
    model->piece_height_mm *= 0.92; /* this box's are 9.07 mm */
    stacked_layout(layout, 1, 0, table);
    for (int i = 0; i < table->tile_count; i++)
        if (table->tiles[i].height > 0)
            table->tiles[i].height = 1 + i % 5;
    take_lamp_lit(lit, table);
}

/* A box's adventurers are 8 to 10 mm tall, and the model's are the game's 9 mm: once the light
 * is found, the whole fit tries them 8% shorter and taller too, and keeps the height whose fit
 * scores best with its light (which of them reads an image's heights best, the bench measures:
 * bench/README.md, session 33). The light is kept with that height: a read that keeps the
 * light fits the stacks with it, and reads what the read that found them read; and the light
 * is given per mm of the model's pieces whichever height was kept. Box 1's lamp-lit photo of
 * stacks of 1 to 5, its pieces 9.07 mm and the model's 8% shorter: the whole fit keeps them 8%
 * taller than the model's. */
static void test_seeing_keeps_the_pieces_height_fitted_with_the_light(void **state)
{
    (void)state;
    static vision_el_observation layout, table, first, again;
    static vision_el_model model;
    photo lit;
    lamp_lit_stacks_of_one_to_five(&layout, &model, &table, &lit);
    vision_el_memory *memory = vision_el_memory_new();
    assert_non_null(memory);
    vision_el_timing timing;
    char error[256];
    const vision_mat *mat = &lit.config.mat;
    double piece[2], light[2][2];
    vision_el_observation *read[2] = {&first, &again};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(vision_el_recognise_again(&lit.frame, &lit.registration, mat, &model,
                                                   memory, read[i], &timing, error,
                                                   sizeof error),
                         VISION_OK);
        assert_true(timing.light_kept == (i == 1));
        assert_true(vision_el_memory_piece(memory, &piece[i]));
        assert_true(vision_el_memory_light(memory, light[i]));
    }
    assert_true(fabs(piece[0] / model.piece_height_mm - 1.08) < 1e-9);
    assert_true(piece[1] == piece[0]);
    assert_true(light[1][0] == light[0][0] && light[1][1] == light[0][1]);
    assert_int_equal(again.tile_count, first.tile_count);
    for (int i = 0; i < first.tile_count; i++) {
        assert_int_equal(again.tiles[i].height, first.tiles[i].height);
        assert_int_equal(again.tiles[i].top, first.tiles[i].top);
    }
    vision_el_memory_free(memory);
    vision_image_free(&lit.frame);
}

/* Told the light and the pieces' height (a bench's ceiling for the stacks' fit), the next read
 * fits the stacks in them, searching for neither, and keeps them as a light it found: the
 * light given back per mm of the model's pieces is the render's (vision_el_render_light), the
 * pieces' height the one told, not the 8% taller the whole fit keeps for this photo (the test
 * above). The read after it, told nothing, keeps that light; a height of 0 tells nothing. */
static void test_seeing_a_light_told_is_the_light_read(void **state)
{
    (void)state;
    static vision_el_observation layout, table, seen;
    static vision_el_model model;
    photo lit;
    lamp_lit_stacks_of_one_to_five(&layout, &model, &table, &lit);
    vision_el_memory *memory = vision_el_memory_new();
    assert_non_null(memory);
    vision_el_timing timing;
    char error[256];
    const vision_mat *mat = &lit.config.mat;
    double drawn[2], light[2], piece;
    vision_el_render_light(&lit.info, &model, drawn);
    vision_el_memory_know_light(memory, lit.info.shadow_per_mm, lit.info.piece_height_mm);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(vision_el_recognise_again(&lit.frame, &lit.registration, mat, &model,
                                                   memory, &seen, &timing, error, sizeof error),
                         VISION_OK);
        assert_true(timing.light_kept == (i == 1));
        assert_true(vision_el_memory_light(memory, light));
        assert_true(vision_el_memory_piece(memory, &piece));
        assert_true(fabs(light[0] - drawn[0]) < 1e-9 && fabs(light[1] - drawn[1]) < 1e-9);
        assert_true(piece == lit.info.piece_height_mm);
    }
    vision_el_memory_free(memory);

    memory = vision_el_memory_new(); /* told a height of 0: searched for as untold */
    assert_non_null(memory);
    vision_el_memory_know_light(memory, lit.info.shadow_per_mm, 0.0);
    assert_int_equal(vision_el_recognise_again(&lit.frame, &lit.registration, mat, &model,
                                               memory, &seen, &timing, error, sizeof error),
                     VISION_OK);
    assert_true(vision_el_memory_piece(memory, &piece));
    assert_true(fabs(piece / model.piece_height_mm - 1.08) < 1e-9);
    vision_el_memory_free(memory);
    vision_image_free(&lit.frame);
}

/* A light found from a few stacks is fitted as found: the whole fit cannot tell it from one
 * half as long with the stacks twice as tall (a shadow is as long), which only the images'
 * lean tells apart, and a few stacks lean too little to. Box 2's teaching photo of the layout
 * as `bench_replay` takes it (scene 1000, a low lamp: shadows a stack's height long), whose
 * four stacks of 1 to 4 were read 2, 3, 4 and 5 with the light refined (found 1.01, made 0.81
 * with the pieces 8% shorter), reads them right. */
static void test_seeing_a_light_found_from_a_few_stacks_is_not_refined(void **state)
{
    (void)state;
    static vision_el_observation layout, seen;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo teach;
    scene_without_glare(&teach, 2, 1000);
    shoot(&teach, &layout);
    teach_from(&teach, &layout, &model);
    vision_el_memory *memory = vision_el_memory_new();
    assert_non_null(memory);
    char error[256];
    assert_int_equal(vision_el_recognise_again(&teach.frame, &teach.registration,
                                               &teach.config.mat, &model, memory, &seen, NULL,
                                               error, sizeof error),
                     VISION_OK);
    double light[2], piece;
    assert_true(vision_el_memory_light(memory, light));
    assert_true(vision_el_memory_piece(memory, &piece));
    assert_true(piece == model.piece_height_mm);
    vision_el_read_back read;
    vision_el_read_back_of(&layout, &seen, &read);
    assert_int_equal(read.stacks, 4);
    assert_int_equal(read.heights, 4);
    vision_el_memory_free(memory);
    vision_image_free(&teach.frame);
}

/* What `calibrate teach` tells its user: the photo taught from read back as a game's first
 * table is, counted against its truth; a profile taught nothing reads nothing back, and says
 * so, the count untouched. */
static void test_seeing_a_teaching_photo_reads_back_as_a_first_table(void **state)
{
    (void)state;
    static vision_el_observation layout, seen;
    static calibration_profile profile, untaught;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo teach;
    scene_without_glare(&teach, 3, 11);
    shoot(&teach, &layout);
    calibration_profile_init(&profile, EL_GAME_ID);
    char error[256];
    vision_registration registration;
    assert_int_equal(calibration_teach_image(&profile, &teach.frame, &layout, &registration, error,
                                             sizeof error),
                     VISION_OK);
    vision_el_read_back read, first;
    assert_int_equal(calibration_read_back(&profile, &teach.frame, &registration, &layout, &read,
                                           error, sizeof error),
                     VISION_OK);
    assert_int_equal(vision_el_recognise(&teach.frame, &registration, &profile.mat, &profile.el,
                                         &seen, NULL, error, sizeof error),
                     VISION_OK);
    vision_el_read_back_of(&layout, &seen, &first);
    assert_int_equal(read.stacks, 4);
    assert_int_equal(read.types, first.types);
    assert_int_equal(read.tops, first.tops);
    assert_int_equal(read.heights, first.heights);
    assert_true(4 * read.types >= 3 * layout.tile_count);

    calibration_profile_init(&untaught, EL_GAME_ID);
    vision_el_read_back none = {.types = -1};
    assert_int_equal(calibration_read_back(&untaught, &teach.frame, &registration, &layout, &none,
                                           error, sizeof error),
                     VISION_NOT_TAUGHT);
    assert_int_equal(none.types, -1);
    vision_image_free(&teach.frame);
}

/* The tokens are read by their print's colours (their palettes), also where a stack's could
 * pass for them: a boat on a lake (its sail near orange) is a boat, not an orange stack. And
 * without the palettes, a lake still holds no stack. */
static void test_seeing_reads_the_tokens_by_their_palettes(void **state)
{
    (void)state;
    static vision_el_observation layout, table, seen;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo teach;
    take(&teach, &layout, 1, 7);
    vision_el_model_init(&model);
    char error[256] = "";
    assert_teaching_taken(&teach, &layout, &model);
    /* A second photo adds to the palettes, and so does one taught into a model that has
     * token samples but no palette (a profile of format 1): the shares still make a whole. */
    photo again;
    take(&again, &layout, 1, 8);
    static vision_el_model without;
    without = model;
    memset(without.token_palette_share, 0, sizeof without.token_palette_share);
    assert_teaching_taken(&again, &layout, &model);
    assert_teaching_taken(&again, &layout, &without);
    vision_image_free(&again.frame);
    for (int token = EL_BOAT; token <= EL_SNAKES; token++) {
        float shares = 0.0f, fresh = 0.0f;
        for (int k = 0; k < VISION_EL_TOKEN_PALETTE; k++) {
            shares += model.token_palette_share[token][k];
            fresh += without.token_palette_share[token][k];
        }
        assert_true(fabsf(shares - 1.0f) < 1e-3f);
        assert_true(fabsf(fresh - 1.0f) < 1e-3f);
    }
    table = layout; /* the boat moved from its desert to the lake */
    for (int i = 0; i < table.tile_count; i++) {
        vision_el_tile *t = &table.tiles[i];
        if (t->token == EL_BOAT)
            t->token = EL_NO_TOKEN;
        if (t->type == EL_LAKE)
            t->token = EL_BOAT;
    }
    photo p;
    take(&p, &table, 1, 11);
    assert_int_equal(vision_el_recognise(&p.frame, &p.registration, &p.config.mat, &model, &seen,
                                         NULL, error, sizeof error),
                     VISION_OK);
    int tokens = 0;
    for (int i = 0; i < table.tile_count; i++) {
        const vision_el_tile *t = &table.tiles[i];
        for (int j = 0; j < seen.tile_count; j++) {
            const vision_el_tile *s = &seen.tiles[j];
            if (s->row != t->row || s->col != t->col)
                continue;
            if (t->token != EL_NO_TOKEN) {
                tokens++;
                assert_int_equal(s->token, t->token);
                assert_int_equal(s->height, 0);
            } else if (s->token != EL_NO_TOKEN) {
                fail_msg("a %s seen at row %d, column %d, where there is none",
                         s->token == EL_BOAT ? "boat" : "token", s->row, s->col);
            }
        }
    }
    assert_int_equal(tokens, 2);

    /* Without the palettes, the boat's print could pass for a stack; but a lake never holds
     * adventurers (none may enter one), so none is read there. */
    without = model;
    memset(without.token_palette_share, 0, sizeof without.token_palette_share);
    assert_int_equal(vision_el_recognise(&p.frame, &p.registration, &p.config.mat, &without,
                                         &seen, NULL, error, sizeof error),
                     VISION_OK);
    int lakes = 0;
    for (int j = 0; j < seen.tile_count; j++)
        if (seen.tiles[j].type == EL_LAKE) {
            lakes++;
            const vision_el_tile *s = &seen.tiles[j]; /* (a grey 5 before the rule) */
            assert_int_equal(s->height, 0);
            assert_int_equal(s->top, VISION_NONE);
            /* as sure as the tile is a lake, no surer */
            assert_true(s->confidence[VISION_EL_HEIGHT] <= s->confidence[VISION_EL_TYPE]);
        }
    assert_true(lakes > 0);
    vision_image_free(&teach.frame);
    vision_image_free(&p.frame);
}

/* The layout with its stacks taken off. */
static void without_stacks(const vision_el_observation *layout, vision_el_observation *bare)
{
    *bare = *layout;
    for (int i = 0; i < bare->tile_count; i++) {
        bare->tiles[i].height = 0;
        bare->tiles[i].top = VISION_NONE;
    }
}

/* A second photo with no stack on it (more art, other light) teaches too: no photo needs the
 * adventurers once they are taught, nor stacks leaning their images. */
static void test_seeing_teaches_from_a_second_photo_without_stacks(void **state)
{
    (void)state;
    static vision_el_observation layout, bare;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    without_stacks(&layout, &bare);
    photo first, second;
    take(&first, &layout, 1, 7);
    take(&second, &bare, 1, 8);
    teach_from(&first, &layout, &model);
    assert_teaching_taken(&second, &bare, &model);
    assert_int_equal(model.images, 2);
    assert_int_equal(model.type_samples[EL_DESERT_CAMP], 1 + 5); /* the camps now clear */
    vision_image_free(&first.frame);
    vision_image_free(&second.frame);
}

/* The seeing bench's box 7 (box seed 1007), taught from its own teaching photo: the size its
 * four stacks measure (their shadows run along their lean) puts the grey stack's top off the
 * piece, where teaching once learnt a brown for grey. The model kept is the one that reads the
 * photo's tops back: its grey is a grey, and every top reads back. */
static void test_seeing_teaching_keeps_the_tops_that_read_back(void **state)
{
    (void)state;
    static const char *const three[] = {"orange", "black", "grey"};
    static vision_el_observation layout, seen;
    assert_int_equal(calibration_teach_layout(three, 3, &layout), VISION_OK);
    photo p;
    vision_render_config_default(&p.config);
    p.config.box_seed = 1007;
    p.config.scene_seed = 1007000; /* as bench_seeing renders it: the scene draws the rest */
    shoot(&p, &layout);
    char error[256];
    static vision_el_model model;
    teach_from(&p, &layout, &model);
    int grey = -1;
    for (int i = 0; i < model.colour_count; i++)
        if (strcmp(model.colours[i], "grey") == 0)
            grey = i;
    assert_true(grey >= 0);
    const float *g = model.colour_mean[grey];
    float low = fminf(g[0], fminf(g[1], g[2])), high = fmaxf(g[0], fmaxf(g[1], g[2]));
    assert_true(high - low < 0.1f); /* no hue: the brown was 0.01, 0.09, 0.21 */
    assert_true(low > 0.3f);        /* and light */
    assert_int_equal(vision_el_recognise(&p.frame, &p.registration, &p.config.mat, &model, &seen,
                                         NULL, error, sizeof error),
                     VISION_OK);
    vision_el_read_back read;
    vision_el_read_back_of(&layout, &seen, &read);
    assert_int_equal(read.stacks, 4);
    assert_int_equal(read.tops, 4);
    vision_image_free(&p.frame);
}

/* Teaching refuses the photo with truth, says so (its message holds says), and leaves model
 * as it was: nothing is learnt from a refused photo. */
static void assert_teaching_refused(const photo *p, const vision_el_observation *truth,
                                    vision_el_model *model, const char *says)
{
    int images = model->images;
    char error[256] = "";
    assert_int_equal(vision_el_learn(&p->frame, &p->registration, &p->config.mat, truth, model,
                                     error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, says));
    assert_int_equal(model->images, images);
}

/* A photo whose stacks' tops teaching learns wrong: what it taught reads one of its own tops
 * back as another colour, and every game's would read so. The seeing bench's box 3 (box seed
 * 1003, two players), taught from its own teaching photo, reads its orange top at row 3, column
 * 2 back as black (`bench_seeing teaching` lists it; box 23's photo, which this test took until
 * the art was read to 0.94 of a tile, now teaches its yellow right). The photo is refused,
 * naming the stack, and nothing is learnt. */
static void test_seeing_refuses_a_photo_whose_tops_read_back_as_other_colours(void **state)
{
    (void)state;
    static vision_el_observation layout;
    assert_int_equal(calibration_teach_layout(colours, 2, &layout), VISION_OK);
    photo p;
    vision_render_config_default(&p.config);
    p.config.box_seed = 1003;
    p.config.scene_seed = 1003000; /* as bench_seeing renders it */
    shoot(&p, &layout);
    static vision_el_model model;
    vision_el_model_init(&model);
    assert_teaching_refused(&p, &layout, &model,
                            "reads the orange adventurers on top of the stack at row 3, column 2 "
                            "back as black");
    assert_int_equal(model.colour_count, 0);
    vision_image_free(&p.frame);
}

/* A truth whose stacks the photo does not show: the pieces' colours are never seen, and would
 * read as black (a mean of 0), so the photo is refused, naming the stack, and nothing is
 * learnt. */
static void test_seeing_refuses_a_photo_without_the_truths_stacks(void **state)
{
    (void)state;
    static vision_el_observation layout, bare;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    without_stacks(&layout, &bare);
    photo p;
    take(&p, &bare, 1, 7);
    vision_el_model_init(&model);
    assert_teaching_refused(&p, &layout, &model,
                            "adventurers were not found (the stack at row 3, column");
    assert_int_equal(model.colour_count, 0);
    vision_image_free(&p.frame);
}

static void test_seeing_refuses_what_it_was_not_taught(void **state)
{
    (void)state;
    static vision_el_observation layout, seen;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo p;
    take(&p, &layout, 2, 3);
    vision_el_model_init(&model);
    char error[256] = "";
    assert_int_equal(vision_el_recognise(&p.frame, &p.registration, &p.config.mat, &model, &seen,
                                         NULL, error, sizeof error),
                     VISION_NOT_TAUGHT);
    assert_non_null(strstr(error, "lake"));
    vision_image_free(&p.frame);
}

static void test_seeing_refuses_a_truth_the_photo_does_not_show(void **state)
{
    (void)state;
    static vision_el_observation layout, wrong;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo p;
    take(&p, &layout, 2, 4);
    wrong = layout;
    vision_el_tile *far = &wrong.tiles[wrong.tile_count++];
    *far = wrong.tiles[0];
    far->row = 9;
    far->col = 9;
    vision_el_model_init(&model);
    assert_teaching_refused(&p, &wrong, &model, "row 9, column 9");
    vision_image_free(&p.frame);
}

/* The first photo `bench_seeing` teaches box box_seed from: the teaching layout for that many
 * players, the renderer's own camera, light and glare for scene box_seed * 1000. */
static void bench_teaching_photo(photo *p, vision_el_observation *layout, int players,
                                 uint64_t box_seed)
{
    assert_int_equal(calibration_teach_layout(colours, players, layout), VISION_OK);
    vision_render_config_default(&p->config);
    p->config.box_seed = box_seed;
    p->config.scene_seed = box_seed * 1000;
    shoot(p, layout);
}

/* The bench's box 5003 (`bench_seeing accuracy --seed 5`, box 3): its oasis-temple is as dark
 * as the maroon mat, so the grid does not hold its cell. The truth puts a tile
 * there, beside the others, and part of the cell is unlike the mat: the learner takes the
 * truth's word for it and learns the oasis-temple, where it refused the photo before (and
 * every retake of that box). */
static void test_seeing_teaching_takes_the_truth_for_a_tile_like_the_mat(void **state)
{
    (void)state;
    static vision_el_observation layout;
    static vision_el_model model;
    photo p;
    bench_teaching_photo(&p, &layout, 2, 5003);
    el_table table;
    el_grid grid;
    see_grid(&p, &table, &grid);
    assert_true(grid.tiles < layout.tile_count); /* the premise: a tile the grid does not see */
    el_table_free(&table);
    teach_from(&p, &layout, &model);
    assert_int_equal(model.images, 1);
    assert_true(model.type_samples[EL_OASIS_TEMPLE] > 0);
    vision_image_free(&p.frame);
}

/* A truth's rows and columns may start anywhere (observation JSON allows -64 to 64): the
 * learner places it on the grid all the same, and learns what the same truth starting at 0
 * teaches. (It once looked for the placement from row and column 0 only, and read the grid
 * at negative rows: UBSan's bounds check in the sanitized build.) */
static void test_seeing_teaching_places_a_truth_with_negative_rows(void **state)
{
    (void)state;
    static vision_el_observation layout, shifted;
    static vision_el_model model, model_shifted;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    shifted = layout;
    for (int i = 0; i < shifted.tile_count; i++) {
        shifted.tiles[i].row -= 3;
        shifted.tiles[i].col -= 2;
    }
    photo p;
    take(&p, &layout, 2, 4);
    teach_from(&p, &layout, &model);
    teach_from(&p, &shifted, &model_shifted);
    assert_memory_equal(&model, &model_shifted, sizeof model);
    vision_image_free(&p.frame);
}

/* The bench's box 5009 (`bench_seeing teaching --seed 5`, box 9): a lamp's glare on the mat
 * washes more cells than the 16 of the teaching layout. The grid kept the largest group of
 * cells, the glare, the learner placed the truth there, and refused the photo: "the orange
 * adventurers were not found". Of two groups the grid now keeps the one whose cells show a
 * tile's edges. */
static void test_seeing_grid_keeps_the_layout_over_a_larger_glare(void **state)
{
    (void)state;
    static vision_el_observation layout;
    static vision_el_model model;
    photo p;
    bench_teaching_photo(&p, &layout, 2, 5009);
    el_table table;
    el_grid grid;
    see_grid(&p, &table, &grid);
    /* every held cell within a tile of the layout's tiles as the render put them */
    for (int r = 0; r < grid.rows; r++)
        for (int c = 0; c < grid.cols; c++) {
            if (!grid.tile[r][c])
                continue;
            double x, y, nearest = INFINITY;
            el_grid_centre(&grid, r, c, &x, &y);
            for (int i = 0; i < p.info.tile_count; i++)
                nearest = fmin(nearest, hypot(x - p.info.tiles[i].x_mm, y - p.info.tiles[i].y_mm));
            assert_true(nearest < p.config.mat.tile_mm);
        }
    assert_true(grid.tiles >= layout.tile_count - 2);
    el_table_free(&table);
    teach_from(&p, &layout, &model);
    vision_image_free(&p.frame);
}

/* The truth's tile where the photo shows only the mat: refused, though beside the others. */
static void test_seeing_refuses_a_truth_tile_on_the_bare_mat(void **state)
{
    (void)state;
    static vision_el_observation layout, shown;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    shown = layout;
    int corner = -1;
    for (int i = 0; i < shown.tile_count; i++)
        if (shown.tiles[i].row == 0 && shown.tiles[i].col == 0)
            corner = i;
    assert_true(corner >= 0);
    shown.tiles[corner] = shown.tiles[--shown.tile_count];
    photo p;
    take(&p, &shown, 2, 4);
    vision_el_model_init(&model);
    assert_teaching_refused(&p, &layout, &model, "row 0, column 0");
    vision_image_free(&p.frame);
}

/* A photo with a tile its truth does not have, above the layout: the learner places the truth
 * right, but the recogniser counts rows from the extra tile, so the photo does not read back
 * and is refused, the model unchanged. */
static void test_seeing_refuses_a_photo_that_does_not_read_back(void **state)
{
    (void)state;
    static vision_el_observation layout, shown;
    static vision_el_model model;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    shown = layout;
    for (int i = 0; i < shown.tile_count; i++)
        shown.tiles[i].row++;
    vision_el_tile *extra = &shown.tiles[shown.tile_count++];
    *extra = layout.tiles[0];
    extra->row = 0;
    for (int i = 0; i < layout.tile_count; i++)
        layout.tiles[i].row++; /* the truth: the layout where the photo shows it, no extra */
    photo p;
    take(&p, &shown, 1, 7);
    vision_el_model_init(&model);
    assert_teaching_refused(&p, &layout, &model, "reads back only");
    /* The same photo with its whole truth is taught. */
    assert_teaching_taken(&p, &shown, &model);
    assert_int_equal(model.images, 1);
    vision_image_free(&p.frame);
}

static void test_seeing_refuses_markers_without_contrast(void **state)
{
    (void)state;
    static vision_el_observation layout;
    assert_int_equal(calibration_teach_layout(colours, 4, &layout), VISION_OK);
    photo p;
    take(&p, &layout, 2, 5);
    /* The same registration over a grey frame: no white paper, no black squares. */
    memset(p.frame.pixels, 128, (size_t)p.frame.stride * (size_t)p.frame.height);
    el_balance balance;
    char error[256] = "";
    assert_int_equal(el_balance_measure(&p.frame, &p.registration, &p.config.mat, &balance, error,
                                        sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "markers"));
    vision_image_free(&p.frame);
}

static void test_seeing_teach_layout_refuses_bad_colours(void **state)
{
    (void)state;
    static vision_el_observation layout;
    const char *twice[] = {"orange", "orange"};
    const char *empty[] = {""};
    assert_int_equal(calibration_teach_layout(twice, 2, &layout), VISION_BAD_INPUT);
    assert_int_equal(calibration_teach_layout(empty, 1, &layout), VISION_BAD_INPUT);
    assert_int_equal(calibration_teach_layout(colours, 0, &layout), VISION_BAD_INPUT);
    assert_int_equal(calibration_teach_layout(colours, 2, &layout), VISION_OK);
    /* Stacks of 1 to 4, the colours in turn, and every type without pieces somewhere. */
    int stacks = 0, clean_types = 0;
    bool seen_type[EL_TILE_TYPES] = {false};
    for (int i = 0; i < layout.tile_count; i++) {
        const vision_el_tile *t = &layout.tiles[i];
        if (t->height > 0) {
            assert_int_equal(t->height, ++stacks);
            assert_int_equal(t->top, (stacks - 1) % 2);
        } else if (t->token == EL_NO_TOKEN && !seen_type[t->type]) {
            seen_type[t->type] = true;
            clean_types++;
        }
    }
    assert_int_equal(stacks, 4);
    assert_int_equal(clean_types, EL_TILE_TYPES);
}

/* Plain tan tiles, rows x cols with cell 0,0 centred at (first_mm, first_mm), and orange
 * pieces: the scenery and the model the stack evidence's tests draw their tables against. */
static const float art_tan[3] = {0.75f, 0.50f, 0.30f}, piece_orange[3] = {0.90f, 0.45f, 0.10f};

typedef struct tan_tiles {
    vision_mat mat;
    el_grid grid;
    el_patch art;
    el_scenery scenery; /* points into this struct: not to be copied */
    vision_el_model model;
} tan_tiles;

static tan_tiles *tan_tiles_new(int rows, int cols, double first_mm)
{
    tan_tiles *t = calloc(1, sizeof *t);
    assert_non_null(t);
    vision_mat_default(&t->mat);
    t->grid.pitch_mm = t->mat.tile_mm + 2.0;
    t->grid.origin_mm[0] = t->grid.origin_mm[1] = first_mm;
    t->grid.rows = rows;
    t->grid.cols = cols;
    t->grid.tiles = rows * cols;
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++)
            memcpy(t->art.colour[y][x], art_tan, sizeof art_tan);
    t->scenery.grid = &t->grid;
    t->scenery.mat = &t->mat;
    t->scenery.span = VISION_EL_ART_SPAN;
    memcpy(t->scenery.mat_colour, art_tan, sizeof art_tan);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            t->grid.tile[r][c] = true;
            t->scenery.art[r][c] = &t->art;
            t->scenery.match[r][c].gain = 1.0f;
        }
    vision_el_model_init(&t->model);
    t->model.colour_count = 1;
    memcpy(t->model.colour_mean[0], piece_orange, sizeof piece_orange);
    return t;
}

/* The mat's colour, and the camera's white under the balance the glare test gives. */
static const float glare_mat[3] = {0.15f, 0.35f, 0.55f}, glare_white[3] = {1.0625f, 1.0625f,
                                                                          1.0625f};

/* The white a spot {x, y, spread, peak} adds at (x, y). */
static double glare_at(double x, double y, const double spot[4])
{
    double d2 = (x - spot[0]) * (x - spot[0]) + (y - spot[1]) * (y - spot[1]);
    return spot[3] * exp(-d2 / (2.0 * spot[2] * spot[2]));
}

/* A 560 mm mat of one colour, lit times lit_left at its left edge to lit_right at its right
 * (a lamp's light falling off), nine tiles' worth of art in its middle, and the spot (none at
 * peak 0): seen = (1 - w) colour + w white; tiles gets the nine tiles as their art's match
 * would light them. */
static void glared_table(el_table *table, double lit_left, double lit_right, const double spot[4],
                         el_lit_tile *tiles)
{
    table->width = table->height = 560;
    table->colour = calloc((size_t)560 * 560 * 3, sizeof(float));
    table->foreground = calloc((size_t)560 * 560, 1);
    assert_non_null(table->colour);
    assert_non_null(table->foreground);
    for (int y = 0; y < 560; y++)
        for (int x = 0; x < 560; x++) {
            bool tile = fabs(x + 0.5 - 280.0) < 62.0 && fabs(y + 0.5 - 280.0) < 62.0;
            double lit = lit_left + (lit_right - lit_left) * (x + 0.5) / 560.0;
            double w = glare_at(x + 0.5, y + 0.5, spot);
            float *p = table->colour + ((size_t)y * 560 + (size_t)x) * 3;
            for (int c = 0; c < 3; c++)
                p[c] = (float)((1.0 - w) * lit * (tile ? art_tan[c] : glare_mat[c]) +
                               w * glare_white[c]);
        }
    /* the tiles as their art's match lights them: the glare at their middles is their offset */
    for (int k = 0; k < 9; k++) {
        tiles[k].x_mm = 280.0 + 42.0 * (k % 3 - 1);
        tiles[k].y_mm = 280.0 + 42.0 * (k / 3 - 1);
        double w = glare_at(tiles[k].x_mm, tiles[k].y_mm, spot);
        tiles[k].offset = (float)(w * glare_white[0]);
    }
}

/* A lamp's glare on the mat and the tiles is found where it lies, as wide and as strong as it
 * is, and taken off: the mat under it shows its own colour again. A lamp's light falling off
 * across the table, or no glare at all, is no glare. */
static void test_seeing_finds_and_takes_off_a_glare(void **state)
{
    (void)state;
    vision_mat mat;
    vision_mat_default(&mat);
    el_balance balance = {{0, 0, 0}, {1.0f / 240, 1.0f / 240, 1.0f / 240}}; /* white 1.0625 */
    const double spot[4] = {200.0, 330.0, 50.0, 0.6};
    el_table table;
    el_lit_tile tiles[9];
    el_glare glare;
    glared_table(&table, 1.0, 1.0, spot, tiles);
    el_glare_find(&table, &mat, &balance, glare_mat, tiles, 9, &glare);
    assert_true(glare.found);
    assert_true(fabs(glare.x_mm - spot[0]) <= 8.0 && fabs(glare.y_mm - spot[1]) <= 8.0);
    assert_true(glare.spread_mm >= 40.0 && glare.spread_mm <= 65.0);
    assert_true(fabs(glare.peak - spot[3]) <= 0.1);
    /* the mat under its middle: far from its colour, then near it (the art's match takes what
     * little is left, as it takes a lamp's light) */
    const float *middle = table.colour + ((size_t)330 * 560 + 200) * 3;
    assert_true(el_squared_distance(middle, glare_mat) > 0.3f * 0.3f);
    el_glare_undo(&table, &glare);
    assert_true(el_squared_distance(middle, glare_mat) < 0.1f * 0.1f);
    el_table_free(&table);

    const double none[4] = {0.0, 0.0, 50.0, 0.0};
    glared_table(&table, 0.8, 1.2, none, tiles);
    el_glare_find(&table, &mat, &balance, glare_mat, tiles, 9, &glare);
    assert_false(glare.found);
    el_table_free(&table);
    glared_table(&table, 1.0, 1.0, none, tiles);
    el_glare_find(&table, &mat, &balance, glare_mat, tiles, 9, &glare);
    assert_false(glare.found);
    el_table_free(&table);
}

/* A 60 x 60 mm table of one tan tile with the colours given side by side across its middle,
 * from (26, 30). */
static void one_tile_table(el_table *table, const float (*shown)[3], int count)
{
    table->width = table->height = 60;
    table->colour = calloc((size_t)table->width * (size_t)table->height * 3, sizeof(float));
    assert_non_null(table->colour);
    for (int i = 0; i < count; i++)
        memcpy(table->colour + ((size_t)30 * (size_t)table->width + (size_t)(26 + i)) * 3,
               shown[i], sizeof shown[i]);
}

/* What the stack fit counts, pixel by pixel, on one tile of plain tan art with orange pieces:
 * the art and its shadow are the scenery; a piece's top and its side turned from a high light
 * (darker than the art's shadow allows for, near it) are a piece; a blend of the two (the
 * image's blurred edge) says neither, so that it neither lengthens a bright stack's capsule nor
 * shortens a dull one's; nor does a colour only a little nearer a piece's than the art's. */
static void test_seeing_stack_evidence_leaves_blurred_edges_out(void **state)
{
    (void)state;
    const float *tan = art_tan, *orange = piece_orange;
    tan_tiles *tiles = tan_tiles_new(1, 1, 30.0);
    enum { SHOWN = 6 };
    float shown[SHOWN][3];
    const int says[SHOWN] = {0, 1, -1, 1, 0, -1};
    for (int c = 0; c < 3; c++) {
        shown[0][c] = tan[c];                          /* the art */
        shown[1][c] = orange[c];                       /* a piece's top */
        shown[2][c] = 0.5f * tan[c] + 0.5f * orange[c]; /* the edge between them */
        shown[3][c] = 0.42f * orange[c];               /* a side turned from a high light */
        shown[4][c] = 0.5f * tan[c];                   /* the art in a piece's shadow */
        /* dim, between a side and the art in shade: nearer a piece's than the art's, but not
         * far nearer */
        shown[5][c] = 0.2475f * orange[c] + 0.2025f * tan[c];
    }
    el_table table;
    one_tile_table(&table, (const float(*)[3])shown, SHOWN);
    el_evidence evidence;
    assert_int_equal(el_evidence_init(&evidence, &table, &tiles->scenery, &tiles->model),
                     VISION_OK);
    for (int i = 0; i < SHOWN; i++)
        assert_int_equal(el_evidence_at(&evidence, 26 + i, 30), says[i]);
    /* Off the grid: cannot say. */
    assert_int_equal(el_evidence_at(&evidence, 2, 2), -1);
    el_evidence_free(&evidence);
    free(table.colour);
    free(tiles);
}

/* A tile's four sides show their edges: the step to the mat, and the gap to a neighbour; a
 * glare on the mat beside them, as bright as the tiles at its middle, shows none where it
 * faces the mat, only the tile's edge where it touches one (a spot 40 mm wide: the renderer
 * draws them 35 to 80). */
static void test_seeing_glare_beside_the_layout_shows_no_tile_edges(void **state)
{
    (void)state;
    tan_tiles *tiles = tan_tiles_new(2, 2, 40.0);
    const float mat[3] = {0.30f, 0.18f, 0.12f};
    double pitch = tiles->grid.pitch_mm, half = tiles->mat.tile_mm / 2.0;
    el_table table = {.width = 140, .height = 140};
    table.colour = calloc((size_t)table.width * (size_t)table.height * 3, sizeof(float));
    assert_non_null(table.colour);
    srand(7); /* the mat's and the tiles' grain, as random_patch draws its art */
    for (int y = 0; y < table.height; y++)
        for (int x = 0; x < table.width; x++) {
            double px = x + 0.5, py = y + 0.5;
            /* tiles at cells (0, 0) and (0, 1), a glare's middle on cell (1, 0) */
            bool on_tile = false;
            for (int col = 0; col < 2; col++)
                on_tile |= fabs(px - (40.0 + col * pitch)) < half && fabs(py - 40.0) < half;
            double gx = px - 40.0, gy = py - (40.0 + pitch);
            float glare = (float)(0.6 * exp(-(gx * gx + gy * gy) / (2.0 * 40.0 * 40.0)));
            float grain = (float)(rand() % 1000) / 1000.0f * 0.04f - 0.02f;
            for (int c = 0; c < 3; c++)
                table.colour[((size_t)y * (size_t)table.width + (size_t)x) * 3 + (size_t)c] =
                    (on_tile ? art_tan[c] : mat[c] + glare) + grain;
        }
    const double centred[2] = {0.0, 0.0};
    assert_int_equal(el_sides_without_edge(&table, &tiles->grid, &tiles->mat, 0, 0, centred), 0);
    assert_int_equal(el_sides_without_edge(&table, &tiles->grid, &tiles->mat, 0, 1, centred), 0);
    assert_int_equal(el_sides_without_edge(&table, &tiles->grid, &tiles->mat, 1, 0, centred), 3);
    /* the tiles' edges found a few millimetres from where their cells put them */
    const double off[2] = {3.0, -2.5};
    assert_int_equal(el_sides_without_edge(&table, &tiles->grid, &tiles->mat, 0, 0, off), 0);
    free(table.colour);
    free(tiles);
}

/* Whether a pixel shows the scenery lit or darkened, for a stack's shadow: the art is lit, the
 * art at half its light is in a shadow, the art at three quarters (a shadow's soft edge) or a
 * piece's colour is neither, so that it neither confirms a shadow nor rules one out. */
static void test_seeing_stack_evidence_tells_shadow_from_lit_art(void **state)
{
    (void)state;
    tan_tiles *tiles = tan_tiles_new(1, 1, 30.0);
    enum { SHOWN = 5 };
    const float light[SHOWN] = {1.0f, 0.5f, 0.75f, 1.05f};
    const signed char says[SHOWN] = {0, 1, -1, 0, -1};
    float shown[SHOWN][3];
    for (int i = 0; i < SHOWN; i++)
        for (int c = 0; c < 3; c++)
            shown[i][c] = i == SHOWN - 1 ? piece_orange[c] : light[i] * art_tan[c];
    el_table table;
    one_tile_table(&table, (const float(*)[3])shown, SHOWN);
    el_evidence evidence;
    assert_int_equal(el_evidence_init(&evidence, &table, &tiles->scenery, &tiles->model),
                     VISION_OK);
    for (int i = 0; i < SHOWN; i++) {
        el_evidence_at(&evidence, 26 + i, 30);
        assert_int_equal(evidence.shade[30 * table.width + 26 + i], says[i]);
    }
    el_evidence_free(&evidence);
    free(table.colour);
    free(tiles);
}

/* A token's print may be tinted like the art in shade: the colours the art in shade explains
 * are left out only where a shadow may fall, and what is unlike the art in any light (a piece,
 * a print's other colours) never. */
static void test_seeing_unlike_art_leaves_out_shade_only_where_a_shadow_falls(void **state)
{
    (void)state;
    el_patch art, patch;
    bool shaded[EL_PATCH][EL_PATCH];
    for (int y = 0; y < EL_PATCH; y++)
        for (int x = 0; x < EL_PATCH; x++) {
            bool shade = x < EL_PATCH / 2, piece = !shade && y < EL_PATCH / 4;
            for (int c = 0; c < 3; c++) {
                art.colour[y][x][c] = art_tan[c];
                patch.colour[y][x][c] = shade   ? 0.6f * art_tan[c]
                                        : piece ? piece_orange[c]
                                                : art_tan[c];
            }
            shaded[y][x] = true;
        }
    const el_match lit = {{0.0, 0.0}, 0, 1.0f, 0.0f, 0.0};
    float unlike[EL_PATCH * EL_PATCH][3];
    const int half = EL_PATCH * EL_PATCH / 2, pieces = EL_PATCH / 2 * EL_PATCH / 4;
    assert_int_equal(el_unlike_art(&patch, &art, &lit, NULL, 0.5f, unlike), half + pieces);
    assert_int_equal(
        el_unlike_art(&patch, &art, &lit, (const bool(*)[EL_PATCH])shaded, 0.5f, unlike), pieces);
    for (int y = EL_PATCH / 2; y < EL_PATCH; y++) /* a shadow over the upper half only */
        for (int x = 0; x < EL_PATCH; x++)
            shaded[y][x] = false;
    assert_int_equal(
        el_unlike_art(&patch, &art, &lit, (const bool(*)[EL_PATCH])shaded, 0.5f, unlike),
        half / 2 + pieces);
}

/* A stack's shadow is marked from its foot along the light, as long as it stands high. */
static void test_seeing_marks_a_stacks_shadow_along_the_light(void **state)
{
    (void)state;
    vision_registration registration;
    memset(&registration, 0, sizeof registration);
    registration.camera_mm[0] = registration.camera_mm[1] = 100.0; /* right over the foot */
    registration.camera_mm[2] = 1000.0;
    el_table table = {.width = 200, .height = 200};
    unsigned char *shaded = calloc((size_t)table.width * table.height, 1);
    assert_non_null(shaded);
    el_stack_fit fit;
    memset(&fit, 0, sizeof fit);
    fit.height = 3;
    fit.foot_mm[0] = fit.foot_mm[1] = 100.0;
    const double light[2] = {1.0, 0.0}, radius = 6.0, piece = 10.0; /* a light 45 degrees high */
    el_mark_shadow(&registration, light, &fit, radius, piece, &table, shaded);
#define SHADED(x, y) shaded[(y) * table.width + (x)]
    assert_int_equal(SHADED(100, 100), 1); /* under the stack */
    assert_int_equal(SHADED(125, 100), 1); /* along the light, up to 3 pieces (30 mm) */
    assert_int_equal(SHADED(130, 104), 1);
    assert_int_equal(SHADED(140, 100), 0); /* beyond its tip's disc */
    assert_int_equal(SHADED(90, 100), 0);  /* towards the light */
    assert_int_equal(SHADED(115, 110), 0); /* beside it */
#undef SHADED
    free(shaded);
}

/* The squared distance from (x, y) to the segment from a to b. */
static double to_segment(double x, double y, const double a[2], const double b[2])
{
    double ux = b[0] - a[0], uy = b[1] - a[1], n = ux * ux + uy * uy;
    double t = n > 0.0 ? ((x - a[0]) * ux + (y - a[1]) * uy) / n : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    double dx = x - a[0] - t * ux, dy = y - a[1] - t * uy;
    return dx * dx + dy * dy;
}

/* The table of tiles (3 x 5, from 10 mm) with orange stacks on it, drawn as the camera at
 * camera_mm sees them from above, and their shadows where a far light casts them: each
 * point's shadow moves shadow_per_mm for each mm it stands higher. */
static void draw_stacks_and_shadows(const tan_tiles *tiles, const double camera_mm[3],
                                    const double shadow_per_mm[2], const el_stack_fit *stacks,
                                    int count, double radius, double piece, el_table *table)
{
    double cx = camera_mm[0], cy = camera_mm[1], height = camera_mm[2];
    table->width = (int)(20.0 + 5 * tiles->grid.pitch_mm);
    table->height = (int)(20.0 + 3 * tiles->grid.pitch_mm);
    table->colour = malloc((size_t)table->width * (size_t)table->height * 3 * sizeof(float));
    assert_non_null(table->colour);
    for (int y = 0; y < table->height; y++)
        for (int x = 0; x < table->width; x++) {
            float *p = table->colour + ((size_t)y * (size_t)table->width + (size_t)x) * 3;
            double px = x + 0.5, py = y + 0.5;
            float light = 1.0f;
            bool on_piece = false;
            for (int i = 0; i < count; i++) {
                const double *foot = stacks[i].foot_mm;
                double rise = stacks[i].height * piece;
                double tip[2] = {foot[0] + rise * shadow_per_mm[0],
                                 foot[1] + rise * shadow_per_mm[1]};
                if (to_segment(px, py, foot, tip) <= radius * radius)
                    light = 0.5f;
                /* the stack's image: every disc of it, from above, within the camera's view
                 * (its top's disc the widest) */
                double z = 2.0 + rise, k = z / (height - z);
                double top[2] = {foot[0] + k * (foot[0] - cx), foot[1] + k * (foot[1] - cy)};
                double wide = radius * height / (height - z);
                if (to_segment(px, py, foot, top) <= wide * wide)
                    on_piece = true;
            }
            for (int c = 0; c < 3; c++)
                p[c] = on_piece ? piece_orange[c] : light * art_tan[c];
        }
}

/* Four orange stacks on 3 x 5 tan tiles, their heights known, seen by a camera 800 mm above
 * the middle of the first column: one stack under it, three further off. */
typedef struct stacks_scene {
    tan_tiles *tiles;
    vision_registration registration;
    el_stack_fit stacks[4];
} stacks_scene;

static void stacks_scene_make(stacks_scene *scene)
{
    vision_mat mat;
    vision_mat_default(&mat);
    double pitch = mat.tile_mm + 2.0; /* as tan_tiles_new lays them, from 10 mm */
    scene->tiles = tan_tiles_new(3, 5, 10.0 + pitch / 2);
    memset(&scene->registration, 0, sizeof scene->registration);
    scene->registration.camera_mm[0] = 10.0 + pitch / 2;
    scene->registration.camera_mm[1] = 10.0 + 1.5 * pitch;
    scene->registration.camera_mm[2] = 800.0;
    memset(scene->stacks, 0, sizeof scene->stacks);
    const int rows[4] = {1, 0, 2, 1}, cols[4] = {0, 2, 3, 3}, heights[4] = {3, 2, 4, 1};
    for (int i = 0; i < 4; i++) {
        scene->stacks[i].height = heights[i];
        scene->stacks[i].foot_mm[0] = 10.0 + (cols[i] + 0.5) * pitch;
        scene->stacks[i].foot_mm[1] = 10.0 + (rows[i] + 0.5) * pitch;
    }
}

/* The light is found from the shadows of stacks whose heights are known, and then tells the
 * height of a stack right under the camera, whose image does not lean: its shadow, 9 mm a
 * piece long, shows it. */
static void test_seeing_finds_the_light_and_reads_heights_from_shadows(void **state)
{
    (void)state;
    const double radius = 7.0, piece = 9.0, light[2] = {0.9, -0.4};
    stacks_scene scene;
    stacks_scene_make(&scene);
    tan_tiles *tiles = scene.tiles;
    vision_registration registration = scene.registration;
    el_stack_fit *stacks = scene.stacks;
    el_table table;
    draw_stacks_and_shadows(tiles, registration.camera_mm, light, stacks, 4, radius, piece, &table);

    /* found from the three stacks away from the camera */
    el_evidence evidence;
    assert_int_equal(el_evidence_init(&evidence, &table, &tiles->scenery, &tiles->model),
                     VISION_OK);
    el_evidence_find_light(&evidence, &registration, stacks + 1, NULL, 3, radius, piece);
    assert_true(evidence.light_known);
    double off = hypot(evidence.shadow_per_mm[0] - light[0], evidence.shadow_per_mm[1] - light[1]);
    assert_true(off < 0.05 * hypot(light[0], light[1]));

    /* the stack under the camera: its shadow tells its height, its lean cannot */
    el_stack_fit fit;
    el_stack_fit_tile(&evidence, &registration, 1, 0, radius, piece, 0, VISION_EL_STACK_MAX,
                      NULL, NULL, &fit);
    assert_true(fit.found);
    assert_true(fit.lean_mm < 0.1);
    assert_true(fit.shadow_mm > 5.0);
    assert_int_equal(fit.height, 3);
    /* its shadow is seen darkened (where a print that casts none shows lit art: below) */
    assert_true(fit.shadow_pixels >= 20);
    assert_true(fit.shadow_darkened > 0.5);
    /* a tile that may hold 2 at most (as a tile other than a camp holds 4): the stack is the
     * best of 1 and 2, and the true 3, scored too, scores better (its confidence says so) */
    el_stack_fit_tile(&evidence, &registration, 1, 0, radius, piece, 0, 2, NULL, NULL, &fit);
    assert_true(fit.height >= 1 && fit.height <= 2);
    assert_true(fit.score[3] > fit.score[fit.height]);
    el_evidence_free(&evidence);
    free(table.colour);

    /* a light straight above: no shadow to find it by */
    const double none[2] = {0.0, 0.0};
    draw_stacks_and_shadows(tiles, registration.camera_mm, none, stacks, 4, radius, piece, &table);
    assert_int_equal(el_evidence_init(&evidence, &table, &tiles->scenery, &tiles->model),
                     VISION_OK);
    el_evidence_find_light(&evidence, &registration, stacks + 1, NULL, 3, radius, piece);
    assert_false(evidence.light_known);
    /* the same stacks as prints that cast no shadow, under the light found before: where
     * their shadows would fall, the art is seen lit */
    evidence.light_known = true;
    evidence.shadow_per_mm[0] = light[0];
    evidence.shadow_per_mm[1] = light[1];
    const int rows[4] = {1, 0, 2, 1}, cols[4] = {0, 2, 3, 3}; /* stacks_scene_make's */
    for (int i = 0; i < 4; i++) {
        el_stack_fit_tile(&evidence, &registration, rows[i], cols[i], radius, piece, 0,
                          VISION_EL_STACK_MAX, NULL, NULL, &fit);
        assert_true(fit.shadow_pixels >= 20);
        assert_true(fit.shadow_darkened < -0.5);
    }
    el_evidence_free(&evidence);
    free(table.colour);
    free(tiles);
}

/* The evidence of the scene's table (free it with el_evidence_free), the light known. */
static void evidence_lit(const stacks_scene *scene, const el_table *table, const double light[2],
                         el_evidence *evidence)
{
    assert_int_equal(el_evidence_init(evidence, table, &scene->tiles->scenery,
                                      &scene->tiles->model),
                     VISION_OK);
    evidence->light_known = true;
    memcpy(evidence->shadow_per_mm, light, sizeof evidence->shadow_per_mm);
}

/* A stack's fit on tile (2, 3) of the scene's table, the light known; with every pixel's
 * evidence worked out first when whole (else only what the fit asks for). */
static void fit_on(const stacks_scene *scene, const el_table *table, const double light[2],
                   bool whole, el_stack_fit *fit)
{
    el_evidence evidence;
    evidence_lit(scene, table, light, &evidence);
    for (int y = 0; whole && y < table->height; y++)
        for (int x = 0; x < table->width; x++)
            el_evidence_at(&evidence, x, y);
    el_stack_fit_tile(&evidence, &scene->registration, 2, 3, 7.0, 9.0, 0, VISION_EL_STACK_MAX,
                      NULL, NULL, fit);
    el_evidence_free(&evidence);
}

static void assert_same_fit(const el_stack_fit *a, const el_stack_fit *b)
{
    assert_int_equal(a->height, b->height);
    assert_memory_equal(a->foot_mm, b->foot_mm, sizeof a->foot_mm);
    assert_memory_equal(a->score, b->score, sizeof a->score);
    assert_memory_equal(a->top_colour, b->top_colour, sizeof a->top_colour);
}

/* The stacks scene drawn with its stacks and their shadows under one light, and the first
 * stack fitted on it (fit_on, worked out where asked): for the two tests below. */
static const double drawn_radius = 7.0, drawn_piece = 9.0, drawn_light[2] = {0.9, -0.4};

static void draw_and_fit(stacks_scene *scene, el_table *table, el_stack_fit *fit)
{
    stacks_scene_make(scene);
    draw_stacks_and_shadows(scene->tiles, scene->registration.camera_mm, drawn_light,
                            scene->stacks, 4, drawn_radius, drawn_piece, table);
    fit_on(scene, table, drawn_light, false, fit);
}

/* The colour on a stack's top disc at any height: at the fitted one, the fit's own top; at
 * another, what lies where that height's top would show (its disc painted blue here). */
static void test_seeing_top_colour_at_another_height(void **state)
{
    (void)state;
    const double radius = drawn_radius, piece = drawn_piece;
    stacks_scene scene;
    el_table table;
    el_stack_fit fit;
    draw_and_fit(&scene, &table, &fit);
    assert_true(fit.found);
    float colour[3];
    el_stack_top_colour(&table, &scene.registration, &fit, fit.height, radius, piece, colour);
    assert_memory_equal(colour, fit.top_colour, sizeof colour);

    const double *camera = scene.registration.camera_mm;
    double z = EL_TILE_THICKNESS_MM + 2 * piece, k = z / (camera[2] - z);
    double cx = fit.foot_mm[0] + k * (fit.foot_mm[0] - camera[0]);
    double cy = fit.foot_mm[1] + k * (fit.foot_mm[1] - camera[1]);
    double reach = radius * camera[2] / (camera[2] - z);
    static const float blue[3] = {0.9f, 0.1f, 0.1f}; /* blue green red */
    for (int y = 0; y < table.height; y++)
        for (int x = 0; x < table.width; x++)
            if (hypot(x + 0.5 - cx, y + 0.5 - cy) <= reach)
                memcpy(table.colour + ((size_t)y * (size_t)table.width + (size_t)x) * 3, blue,
                       sizeof blue);
    el_stack_top_colour(&table, &scene.registration, &fit, 2, radius, piece, colour);
    assert_memory_equal(colour, blue, sizeof colour);
    free(table.colour);
    free(scene.tiles);
}

/* What fit_stacks (el_recognise.c) relies on to make a fit again only when a stack explained
 * since changed what it read: a fit reads nothing outside fit.read (worked out beforehand
 * everywhere, or the table outside painted a piece's colour, it comes out the same), and
 * explaining a stack changes nothing outside the box it gives. */
static void test_seeing_a_stack_fit_reads_only_within_its_box(void **state)
{
    (void)state;
    const double radius = drawn_radius, piece = drawn_piece, *light = drawn_light;
    stacks_scene scene;
    el_table table;
    el_stack_fit asked, whole;
    draw_and_fit(&scene, &table, &asked);
    assert_true(asked.found);
    assert_int_equal(asked.height, 4);
    fit_on(&scene, &table, light, true, &whole);
    assert_same_fit(&asked, &whole);

    /* explaining the stack beside it changes the evidence within its box only */
    el_evidence evidence;
    evidence_lit(&scene, &table, light, &evidence);
    el_stack_fit neighbour;
    el_stack_fit_tile(&evidence, &scene.registration, 1, 3, radius, piece, 0, VISION_EL_STACK_MAX,
                      NULL, NULL, &neighbour);
    assert_true(neighbour.found);
    size_t pixels = (size_t)table.width * (size_t)table.height;
    signed char *value = malloc(pixels), *shade = malloc(pixels);
    assert_non_null(value);
    assert_non_null(shade);
    for (int y = 0; y < table.height; y++)
        for (int x = 0; x < table.width; x++)
            el_evidence_at(&evidence, x, y);
    memcpy(value, evidence.value, pixels);
    memcpy(shade, evidence.shade, pixels);
    el_box changed;
    el_evidence_explain(&evidence, &scene.registration, &neighbour, radius, piece, &changed);
    int inside = 0;
    for (int y = 0; y < table.height; y++)
        for (int x = 0; x < table.width; x++) {
            size_t at = (size_t)y * (size_t)table.width + (size_t)x;
            if (value[at] == evidence.value[at] && shade[at] == evidence.shade[at])
                continue;
            el_box pixel = {x, x, y, y};
            assert_true(el_box_overlaps(&pixel, &changed));
            inside++;
        }
    assert_true(inside > 0);
    assert_true(el_box_overlaps(&asked.read, &changed));
    el_evidence_free(&evidence);
    free(value);
    free(shade);

    /* the table outside the fit's box painted orange */
    for (int y = 0; y < table.height; y++)
        for (int x = 0; x < table.width; x++)
            if (x < asked.read.x0 || x > asked.read.x1 || y < asked.read.y0 ||
                y > asked.read.y1)
                memcpy(table.colour + ((size_t)y * (size_t)table.width + (size_t)x) * 3,
                       piece_orange, sizeof piece_orange);
    el_stack_fit painted;
    fit_on(&scene, &table, light, true, &painted);
    assert_same_fit(&asked, &painted);
    free(table.colour);
    free(scene.tiles);
}

/* A refit from memory (el_fit_memory: fit_stacks keeps one a tile) after the stack beside it
 * was explained: the same fit as one made afresh, with most coarse feet's scores taken from
 * what the first fit kept (only those the explained capsule and shadow reach are scored
 * again). */
static void test_seeing_a_refit_from_memory_is_a_fit_afresh(void **state)
{
    (void)state;
    const double radius = drawn_radius, piece = drawn_piece, *light = drawn_light;
    stacks_scene scene;
    el_table table;
    el_stack_fit first;
    draw_and_fit(&scene, &table, &first);
    el_evidence evidence;
    evidence_lit(&scene, &table, light, &evidence);
    el_fit_memory memory = {0};
    el_stack_fit fit, neighbour, again, afresh;
    el_stack_fit_tile(&evidence, &scene.registration, 2, 3, radius, piece, 0,
                      VISION_EL_STACK_MAX, &memory, NULL, &fit);
    assert_int_equal(memory.reused, 0);
    assert_same_fit(&fit, &first);
    el_stack_fit_tile(&evidence, &scene.registration, 1, 3, radius, piece, 0,
                      VISION_EL_STACK_MAX, NULL, NULL, &neighbour);
    el_box changed;
    el_evidence_explain(&evidence, &scene.registration, &neighbour, radius, piece, &changed);
    assert_true(el_box_overlaps(&fit.read, &changed));

    el_stack_fit_tile(&evidence, &scene.registration, 2, 3, radius, piece, 0,
                      VISION_EL_STACK_MAX, &memory, &changed, &again);
    el_stack_fit_tile(&evidence, &scene.registration, 2, 3, radius, piece, 0,
                      VISION_EL_STACK_MAX, NULL, NULL, &afresh);
    int feet = memory.per_height * VISION_EL_STACK_MAX;
    printf("refit: %d of %d coarse feet taken from memory\n", memory.reused, feet);
    assert_same_fit(&again, &afresh);
    assert_true(again.filled == afresh.filled && again.shadow_pixels == afresh.shadow_pixels);
    assert_true(memory.reused > 0 && memory.reused < feet);
    /* told nothing of what changed, it keeps nothing */
    el_stack_fit_tile(&evidence, &scene.registration, 2, 3, radius, piece, 0,
                      VISION_EL_STACK_MAX, &memory, NULL, &again);
    assert_int_equal(memory.reused, 0);
    assert_same_fit(&again, &afresh);
    el_fit_memory_free(&memory);
    el_evidence_free(&evidence);
    free(table.colour);
    free(scene.tiles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeing_grid_puts_every_tile_in_its_cell),
        cmocka_unit_test(test_seeing_grid_leaves_empty_cells_inside_the_layout_empty),
        cmocka_unit_test(test_seeing_patch_distance_finds_the_turn_and_the_light),
        cmocka_unit_test(test_seeing_patch_distance_light_ignores_what_covers_the_art),
        cmocka_unit_test(test_seeing_patch_distance_leaves_out_the_pieces),
        cmocka_unit_test(test_seeing_glare_shows_no_art),
        cmocka_unit_test(test_seeing_glare_beside_the_layout_shows_no_tile_edges),
        cmocka_unit_test(test_seeing_finds_and_takes_off_a_glare),
        cmocka_unit_test(test_seeing_stack_evidence_leaves_blurred_edges_out),
        cmocka_unit_test(test_seeing_stack_evidence_tells_shadow_from_lit_art),
        cmocka_unit_test(test_seeing_unlike_art_leaves_out_shade_only_where_a_shadow_falls),
        cmocka_unit_test(test_seeing_marks_a_stacks_shadow_along_the_light),
        cmocka_unit_test(test_seeing_finds_the_light_and_reads_heights_from_shadows),
        cmocka_unit_test(test_seeing_a_stack_fit_reads_only_within_its_box),
        cmocka_unit_test(test_seeing_a_refit_from_memory_is_a_fit_afresh),
        cmocka_unit_test(test_seeing_top_colour_at_another_height),
        cmocka_unit_test(test_seeing_types_read_back_from_the_teaching_photo),
        cmocka_unit_test(test_seeing_a_tile_unchanged_since_the_last_read_keeps_its_reading),
        cmocka_unit_test(test_seeing_a_read_keeps_the_light_while_the_table_looks_lit_as_before),
        cmocka_unit_test(test_seeing_a_light_kept_is_found_again_from_more_stacks),
        cmocka_unit_test(test_seeing_a_light_is_found_again_from_the_heights_the_game_knows),
        cmocka_unit_test(test_seeing_keeps_the_pieces_height_fitted_with_the_light),
        cmocka_unit_test(test_seeing_a_light_told_is_the_light_read),
        cmocka_unit_test(test_seeing_a_light_found_from_a_few_stacks_is_not_refined),
        cmocka_unit_test(test_seeing_a_teaching_photo_reads_back_as_a_first_table),
        cmocka_unit_test(test_seeing_teaching_keeps_the_tops_that_read_back),
        cmocka_unit_test(test_seeing_refuses_a_photo_without_the_truths_stacks),
        cmocka_unit_test(test_seeing_refuses_a_photo_whose_tops_read_back_as_other_colours),
        cmocka_unit_test(test_seeing_refuses_what_it_was_not_taught),
        cmocka_unit_test(test_seeing_refuses_a_truth_the_photo_does_not_show),
        cmocka_unit_test(test_seeing_teaching_takes_the_truth_for_a_tile_like_the_mat),
        cmocka_unit_test(test_seeing_refuses_a_truth_tile_on_the_bare_mat),
        cmocka_unit_test(test_seeing_grid_keeps_the_layout_over_a_larger_glare),
        cmocka_unit_test(test_seeing_teaching_places_a_truth_with_negative_rows),
        cmocka_unit_test(test_seeing_refuses_a_photo_that_does_not_read_back),
        cmocka_unit_test(test_seeing_teaches_from_a_second_photo_without_stacks),
        cmocka_unit_test(test_seeing_reads_the_tokens_by_their_palettes),
        cmocka_unit_test(test_seeing_refuses_markers_without_contrast),
        cmocka_unit_test(test_seeing_teach_layout_refuses_bad_colours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
