/* The scene renderer (vision_el_render): its truth, its determinism, its art, its refusals, and
 * the golden renders under fixtures/renders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "observation_json.h"
#include "render_internal.h"
#include "test_support.h"
#include "vision.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A config with nothing left to chance but the layout and the art: no noise, blur, JPEG, glare
 * or hands, a white light. */
static void clean_config(vision_render_config *config, uint64_t scene, uint64_t box)
{
    vision_render_config_default(config);
    config->scene_seed = scene;
    config->box_seed = box;
    config->width = 640;
    config->height = 360;
    config->noise = 0;
    config->blur_px = 0;
    config->jpeg_quality = 0;
    config->glare = 0;
    config->light_kelvin = 6500;
}

static vision_el_tile *add_tile(vision_el_observation *truth, int row, int col, int type)
{
    vision_el_tile *t = &truth->tiles[truth->tile_count++];
    memset(t, 0, sizeof *t);
    t->row = row;
    t->col = col;
    t->type = type;
    t->top = VISION_NONE;
    t->height = 0;
    t->token = EL_NO_TOKEN;
    for (int i = 0; i < 4; i++)
        t->confidence[i] = 1;
    return t;
}

static void stack_on(vision_el_observation *truth, vision_el_tile *t, const char *colour,
                     int height)
{
    t->top = vision_el_colour_index(truth, colour);
    t->height = height;
}

/* Every tile type, stacks of 1..5 in four colours, the boat and the snakes: 3 x 4 tiles. */
static void sample_truth(vision_el_observation *truth)
{
    memset(truth, 0, sizeof *truth);
    const char *colours[] = {"orange", "black", "grey", "yellow"};
    for (int i = 0; i < 4; i++)
        vision_el_colour_index(truth, colours[i]);
    for (int i = 0; i < 12; i++) {
        vision_el_tile *t = add_tile(truth, i / 4, i % 4, i % EL_TILE_TYPES);
        if (i % 3 == 1)
            stack_on(truth, t, colours[i % 4], 1 + i % 5);
    }
    truth->tiles[0].token = EL_BOAT;
    truth->tiles[5].token = EL_SNAKES;
}

/* sample_truth under clean_config's camera: the scene most tests draw. */
static void sample_scene(vision_el_observation *truth, vision_render_config *config,
                         uint64_t scene, uint64_t box)
{
    sample_truth(truth);
    clean_config(config, scene, box);
}

static double grey_at(const vision_image *image, vision_point p)
{
    int x = (int)lround(p.x), y = (int)lround(p.y);
    if (x < 0 || y < 0 || x >= image->width || y >= image->height)
        return NAN;
    const uint8_t *q = image->pixels + (size_t)y * (size_t)image->stride + (size_t)x * 3;
    return (q[0] + q[1] + q[2]) / 3.0;
}

static void test_render_is_deterministic(void **state)
{
    (void)state;
    vision_el_observation truth;
    sample_truth(&truth);
    vision_render_config config;
    vision_render_config_default(&config); /* noise, blur, JPEG and the rest drawn */
    config.scene_seed = 42;
    config.box_seed = 7;
    config.width = 480;
    config.height = 270;
    config.hands = 2;
    vision_image a, b, c;
    char error[256];
    assert_int_equal(vision_el_render(&config, &truth, &a, NULL, error, sizeof error), VISION_OK);
    assert_int_equal(vision_el_render(&config, &truth, &b, NULL, error, sizeof error), VISION_OK);
    assert_int_equal(a.width, 480);
    assert_int_equal(a.height, 270);
    assert_int_equal(a.channels, 3);
    assert_memory_equal(a.pixels, b.pixels, (size_t)a.stride * (size_t)a.height);
    config.scene_seed = 43;
    assert_int_equal(vision_el_render(&config, &truth, &c, NULL, error, sizeof error), VISION_OK);
    assert_memory_not_equal(a.pixels, c.pixels, (size_t)a.stride * (size_t)a.height);
    vision_image_free(&a);
    vision_image_free(&b);
    vision_image_free(&c);
}

/*
 * Each marker's 6 x 6 modules, and the white paper around them, are where info's camera (its
 * lens included, through vision_project) puts them: black modules dark, white ones light.
 */
static void check_markers(uint64_t scene, double k1)
{
    vision_el_observation truth;
    vision_render_config config;
    sample_scene(&truth, &config, scene, scene + 100);
    config.width = 960;
    config.height = 540;
    config.distortion_k1 = k1;
    vision_image frame;
    vision_render_info info;
    char error[256];
    assert_int_equal(vision_el_render(&config, &truth, &frame, &info, error, sizeof error),
                     VISION_OK);
    assert_int_equal(info.camera.image_width, 960);
    assert_int_equal(info.camera.image_height, 540);
    assert_true(info.camera.camera_mm[2] >= 500);
    const vision_mat *mat = &config.mat;
    double module = mat->marker_mm / 6;
    for (int id = 0; id < 4; id++) {
        vision_image pattern;
        assert_int_equal(vision_image_new(60, 60, 1, &pattern), VISION_OK);
        assert_int_equal(vision_draw_marker(&pattern, id, 0, 0, 60), VISION_OK);
        double x0 = ((id == 1 || id == 2) ? mat->width_mm : 0) - mat->marker_mm / 2;
        double y0 = (id >= 2 ? mat->height_mm : 0) - mat->marker_mm / 2;
        double dark = 0, light = 1e9;
        double black[64], white[64];
        int blacks = 0, whites = 0;
        /* modules -1 and 6: the white margin; 0..5 the marker */
        for (int row = -1; row <= 6; row++)
            for (int col = -1; col <= 6; col++) {
                bool inside = row >= 0 && row < 6 && col >= 0 && col < 6;
                bool is_black =
                    inside && pattern.pixels[(row * 10 + 5) * pattern.stride + col * 10 + 5] < 128;
                vision_point p = vision_project(&info.camera, x0 + (col + 0.5) * module,
                                                y0 + (row + 0.5) * module, 0);
                double grey = grey_at(&frame, p);
                assert_false(isnan(grey));
                if (is_black)
                    black[blacks++] = grey;
                else
                    white[whites++] = grey;
            }
        for (int i = 0; i < blacks; i++)
            dark = fmax(dark, black[i]);
        for (int i = 0; i < whites; i++)
            light = fmin(light, white[i]);
        if (dark + 40 >= light)
            fail_msg("marker %d (scene %llu, k1 %g): darkest white %.0f, lightest black %.0f", id,
                     (unsigned long long)scene, k1, light, dark);
        /* info's corners are where the marker's corners show in the frame, lens included */
        vision_point corner =
            vision_project(&info.camera, x0 + mat->marker_mm, y0 + mat->marker_mm, 0);
        assert_float_equal(info.camera.markers[id][2].x, corner.x, 1e-6);
        assert_float_equal(info.camera.markers[id][2].y, corner.y, 1e-6);
        vision_image_free(&pattern);
    }
    vision_image_free(&frame);
}

static void test_render_markers_sit_where_info_says(void **state)
{
    (void)state;
    check_markers(1, 0);
    check_markers(2, 0);
    check_markers(3, -0.1); /* a barrel lens: vision_project applies it */
    check_markers(4, 0.04);
}

/* The info's table-image maps are each other's inverse and agree with the projection. */
static void test_render_info_is_one_camera(void **state)
{
    (void)state;
    vision_el_observation truth;
    vision_render_config config;
    sample_scene(&truth, &config, 5, 5);
    vision_image frame;
    vision_render_info info;
    assert_int_equal(vision_el_render(&config, &truth, &frame, &info, NULL, 0), VISION_OK);
    const vision_registration *r = &info.camera;
    for (int i = 0; i < 20; i++) {
        double x = 37.0 * i - 100, y = 500 - 29.0 * i;
        const double *h = r->table_to_image, *p = r->projection;
        double w = h[6] * x + h[7] * y + h[8];
        vision_point pixel = {(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w};
        double pw = p[8] * x + p[9] * y + p[11];
        assert_float_equal(pixel.x, (p[0] * x + p[1] * y + p[3]) / pw, 1e-6);
        const double *g = r->image_to_table;
        double v = g[6] * pixel.x + g[7] * pixel.y + g[8];
        assert_float_equal((g[0] * pixel.x + g[1] * pixel.y + g[2]) / v, x, 1e-6);
        assert_float_equal((g[3] * pixel.x + g[4] * pixel.y + g[5]) / v, y, 1e-6);
    }
    /* the camera's centre projects to nothing: P (C, 1) = 0 */
    const double *p = r->projection;
    for (int row = 0; row < 3; row++)
        assert_float_equal(p[row * 4] * r->camera_mm[0] + p[row * 4 + 1] * r->camera_mm[1] +
                               p[row * 4 + 2] * r->camera_mm[2] + p[row * 4 + 3],
                           0, 1e-6 * fabs(p[row * 4 + 3]) + 1e-9);
    assert_true(info.piece_diameter_mm >= 13 && info.piece_diameter_mm <= 16);
    assert_true(info.piece_height_mm >= 8 && info.piece_height_mm <= 10);
    /* a light 30 to 85 degrees high: a shadow moves cot(elevation) a mm of height */
    double shadow = hypot(info.shadow_per_mm[0], info.shadow_per_mm[1]);
    const double degree = 3.14159265358979323846 / 180;
    assert_true(shadow >= 1.0 / tan(85 * degree) - 1e-9);
    assert_true(shadow <= 1.0 / tan(30 * degree) + 1e-9);
    assert_int_equal(info.tile_count, truth.tile_count);
    /* neighbours one pitch apart (tile plus a gap of 0.5 to 2.5 mm, jitter within the gap) */
    double dx = info.tiles[1].x_mm - info.tiles[0].x_mm,
           dy = info.tiles[1].y_mm - info.tiles[0].y_mm;
    double pitch = hypot(dx, dy);
    assert_true(pitch > config.mat.tile_mm && pitch < config.mat.tile_mm + 2.5 + 2.1);
    for (int i = 0; i < info.tile_count; i++) {
        assert_true(info.tiles[i].quarter_turns >= 0 && info.tiles[i].quarter_turns <= 3);
        assert_true(info.tiles[i].x_mm > 0 && info.tiles[i].x_mm < config.mat.width_mm);
        assert_true(fabs(info.tiles[i].stack_x_mm - info.tiles[i].x_mm) < config.mat.tile_mm / 2);
        assert_true(info.tiles[i].hand_cover == 0);
    }
    vision_image_free(&frame);
}

/* The registration finds the markers of renders (hands over the table too) and, told the true
 * lens, puts every tile within a fraction of a pixel of where info says. */
static void test_render_registers_where_info_says(void **state)
{
    (void)state;
    vision_el_observation truth;
    sample_truth(&truth);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        vision_render_config config;
        vision_render_config_default(&config); /* every effect drawn */
        config.scene_seed = seed;
        config.box_seed = seed;
        config.width = 1920; /* the design's input: markers of 40 mm about 45 px wide */
        config.height = 1080;
        config.hands = (int)(seed % 3);
        vision_image frame;
        vision_render_info info;
        char error[256];
        assert_int_equal(vision_el_render(&config, &truth, &frame, &info, error, sizeof error),
                         VISION_OK);
        vision_registration registration;
        if (vision_register(&frame, &config.mat, &info.camera.intrinsics, &registration, error,
                            sizeof error) != VISION_OK)
            fail_msg("scene %llu: %s", (unsigned long long)seed, error);
        for (int i = 0; i < info.tile_count; i++) {
            vision_point seen =
                vision_project(&registration, info.tiles[i].x_mm, info.tiles[i].y_mm, 2);
            vision_point true_point =
                vision_project(&info.camera, info.tiles[i].x_mm, info.tiles[i].y_mm, 2);
            double off = hypot(seen.x - true_point.x, seen.y - true_point.y);
            if (off > 0.5)
                fail_msg("scene %llu, tile %d: registered %.2f px from the truth",
                         (unsigned long long)seed, i, off);
        }
        vision_image_free(&frame);
    }
}

/* The colours of a tile's top, in its art's upright frame, 12 x 12 samples inside its border,
 * each divided by the patch's mean (so that exposure and light do not count). */
static void tile_patch(const vision_image *frame, const vision_render_info *info,
                       const vision_mat *mat, int tile, double patch[12][12][3])
{
    double a = (info->tiles[tile].angle_deg + 90.0 * info->tiles[tile].quarter_turns) *
               3.14159265358979323846 / 180;
    double mean[3] = {0, 0, 0};
    for (int row = 0; row < 12; row++)
        for (int col = 0; col < 12; col++) {
            double u = ((col + 0.5) / 12 - 0.5) * mat->tile_mm * 0.8;
            double v = ((row + 0.5) / 12 - 0.5) * mat->tile_mm * 0.8;
            double x = info->tiles[tile].x_mm + u * cos(a) - v * sin(a);
            double y = info->tiles[tile].y_mm + u * sin(a) + v * cos(a);
            vision_point p = vision_project(&info->camera, x, y, 2.0);
            int px = (int)lround(p.x), py = (int)lround(p.y);
            assert_true(px >= 0 && py >= 0 && px < frame->width && py < frame->height);
            for (int c = 0; c < 3; c++) {
                patch[row][col][c] = frame->pixels[py * frame->stride + px * 3 + c];
                mean[c] += patch[row][col][c] / 144;
            }
        }
    for (int row = 0; row < 12; row++)
        for (int col = 0; col < 12; col++)
            for (int c = 0; c < 3; c++)
                patch[row][col][c] /= fmax(mean[c], 1) / 100;
}

static double patch_distance(double a[12][12][3], double b[12][12][3])
{
    double sum = 0;
    for (int row = 0; row < 12; row++)
        for (int col = 0; col < 12; col++)
            for (int c = 0; c < 3; c++)
                sum += fabs(a[row][col][c] - b[row][col][c]);
    return sum / (12 * 12 * 3);
}

/* A box's art is the same in every photo of it, and another box's is not. */
static void test_render_art_belongs_to_the_box(void **state)
{
    (void)state;
    int types[] = {EL_DESERT_CAMP, EL_OASIS_TEMPLE, EL_DESERT_PYRAMID, EL_LAKE, EL_MOUNTAIN};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        vision_el_observation truth;
        memset(&truth, 0, sizeof truth);
        add_tile(&truth, 0, 0, types[k]);
        double patches[3][12][12][3];
        uint64_t boxes[3] = {11, 11, 12}, scenes[3] = {1, 2, 3};
        for (int i = 0; i < 3; i++) {
            vision_render_config config;
            clean_config(&config, scenes[i], boxes[i]);
            config.width = 1280;
            config.height = 720;
            config.camera_height_mm = 500;
            config.tilt_deg = 10.0 * i;
            config.light_kelvin = 3000 + 1500.0 * i;
            vision_image frame;
            vision_render_info info;
            assert_int_equal(vision_el_render(&config, &truth, &frame, &info, NULL, 0), VISION_OK);
            tile_patch(&frame, &info, &config.mat, 0, patches[i]);
            vision_image_free(&frame);
        }
        double same = patch_distance(patches[0], patches[1]);
        double other = patch_distance(patches[0], patches[2]);
        if (getenv("TS_VERBOSE"))
            print_message("type %d: same box %.1f apart, another box %.1f\n", types[k], same,
                          other);
        if (!(same < 12 && other > 2 * same && other > 15))
            fail_msg("type %d: same box %.1f apart, another box %.1f", types[k], same, other);
    }
}

/* The painted art of 30 boxes: each building covers at least 30 % of its tile, and the nine
 * types stay far apart within each box. */
static void test_render_art_types_stay_distinct(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        render_box box;
        assert_int_equal(render_box_make(seed, &box), VISION_OK);
        const vision_image *desert = &box.tile_art[EL_DESERT];
        int buildings[] = {EL_DESERT_CAMP, EL_DESERT_TEMPLE, EL_DESERT_PYRAMID};
        for (int b = 0; b < 3; b++) {
            const vision_image *art = &box.tile_art[buildings[b]];
            int changed = 0;
            for (int i = 0; i < art->height * art->width; i++) {
                const uint8_t *p = art->pixels + i * 3, *q = desert->pixels + i * 3;
                double d = fabs((double)p[0] - q[0]) + fabs((double)p[1] - q[1]) +
                           fabs((double)p[2] - q[2]);
                changed += d > 60;
            }
            double share = (double)changed / (art->width * art->height);
            if (share < 0.3)
                fail_msg("box %llu, type %d: the pictogram covers %.0f %%",
                         (unsigned long long)seed, buildings[b], 100 * share);
        }
        for (int t = 0; t < EL_TILE_TYPES; t++)
            for (int u = t + 1; u < EL_TILE_TYPES; u++) {
                const vision_image *a = &box.tile_art[t], *b = &box.tile_art[u];
                double sum = 0;
                for (int i = 0; i < a->height * a->width * 3; i++)
                    sum += fabs((double)a->pixels[i] - b->pixels[i]);
                double distance = sum / (a->height * a->width * 3);
                if (distance < 12)
                    fail_msg("box %llu: types %d and %d only %.1f apart", (unsigned long long)seed,
                             t, u, distance);
            }
        render_box_free(&box);
    }
}

/* How far from the stack's foot, in the image, the pixels a stack changes reach. */
static double stack_reach(int height)
{
    vision_el_observation truth;
    memset(&truth, 0, sizeof truth);
    vision_el_colour_index(&truth, "red");
    add_tile(&truth, 0, 0, EL_DESERT);
    vision_render_config config;
    clean_config(&config, 9, 9);
    config.width = 1280;
    config.height = 720;
    config.camera_height_mm = 600;
    config.tilt_deg = 30;
    config.light_elevation_deg = 85;
    vision_image empty, stacked;
    vision_render_info info;
    assert_int_equal(vision_el_render(&config, &truth, &empty, &info, NULL, 0), VISION_OK);
    stack_on(&truth, &truth.tiles[0], "red", height);
    assert_int_equal(vision_el_render(&config, &truth, &stacked, &info, NULL, 0), VISION_OK);
    vision_point foot =
        vision_project(&info.camera, info.tiles[0].stack_x_mm, info.tiles[0].stack_y_mm, 2.0);
    double reach = 0;
    for (int y = 0; y < empty.height; y++)
        for (int x = 0; x < empty.width; x++) {
            const uint8_t *p = empty.pixels + y * empty.stride + x * 3;
            const uint8_t *q = stacked.pixels + y * stacked.stride + x * 3;
            if (abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]) > 60)
                reach = fmax(reach, hypot(x - foot.x, y - foot.y));
        }
    vision_image_free(&empty);
    vision_image_free(&stacked);
    return reach;
}

static void test_render_a_stack_of_five_stands_taller(void **state)
{
    (void)state;
    double one = stack_reach(1), five = stack_reach(5);
    if (!(one > 5 && five > 2 * one))
        fail_msg("a stack of 1 reaches %.1f px, of 5 %.1f px", one, five);
}

/* Hands cover some tiles, and say which: a covered tile's pixels change. */
static void test_render_hands_cover_tiles(void **state)
{
    (void)state;
    vision_el_observation truth;
    vision_render_config config;
    sample_scene(&truth, &config, 21, 4);
    config.hands = 2;
    vision_image frame;
    vision_render_info info;
    assert_int_equal(vision_el_render(&config, &truth, &frame, &info, NULL, 0), VISION_OK);
    double most = 0;
    for (int i = 0; i < info.tile_count; i++) {
        assert_true(info.tiles[i].hand_cover >= 0 && info.tiles[i].hand_cover <= 1);
        most = fmax(most, info.tiles[i].hand_cover);
    }
    assert_true(most > 0.2);
    vision_image_free(&frame);
}

/* The mean of |a - b| over the 5 x 5 pixels around p, every channel. */
static double change_at(const vision_image *a, const vision_image *b, vision_point p)
{
    int cx = (int)lround(p.x), cy = (int)lround(p.y);
    assert_true(cx >= 2 && cy >= 2 && cx < a->width - 2 && cy < a->height - 2);
    double sum = 0;
    for (int y = cy - 2; y <= cy + 2; y++)
        for (int x = cx - 2; x <= cx + 2; x++)
            for (int c = 0; c < 3; c++) {
                size_t at = (size_t)y * (size_t)a->stride + (size_t)x * 3 + (size_t)c;
                sum += fabs((double)a->pixels[at] - (double)b->pixels[at]);
            }
    return sum / 75;
}

/* A passing shadow darkens the table where it lies, leaves the far side of the mat as it was,
 * moves no tile (info unchanged) and is refused when too dark. */
static void test_render_a_passing_shadow_darkens_and_moves_nothing(void **state)
{
    (void)state;
    vision_el_observation truth;
    vision_render_config config;
    sample_scene(&truth, &config, 33, 4);
    vision_image plain, shaded;
    static vision_render_info before, after;
    assert_int_equal(vision_el_render(&config, &truth, &plain, &before, NULL, 0), VISION_OK);
    double x = before.tiles[6].x_mm, y = before.tiles[6].y_mm;
    config.shadow = (vision_render_shadow){220, 110, x, y, 30, 0.5};
    char error[256];
    assert_int_equal(vision_el_render(&config, &truth, &shaded, &after, error, sizeof error),
                     VISION_OK);
    vision_point centre = vision_project(&before.camera, x, y, 0);
    assert_true(grey_at(&shaded, centre) < 0.8 * grey_at(&plain, centre));
    /* the marker farthest from the shadow is untouched */
    int far = 0;
    double farthest = 0;
    for (int id = 0; id < 4; id++) {
        double mx = (id == 1 || id == 2) * config.mat.width_mm;
        double my = (id >= 2) * config.mat.height_mm;
        if (hypot(mx - x, my - y) > farthest) {
            farthest = hypot(mx - x, my - y);
            far = id;
        }
    }
    assert_true(change_at(&plain, &shaded, before.camera.markers[far][0]) < 0.5);
    assert_memory_equal(before.tiles, after.tiles, sizeof before.tiles);
    vision_image_free(&shaded);
    config.shadow.darkness = 0.9;
    assert_int_equal(vision_el_render(&config, &truth, &shaded, NULL, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "shadow"));
    assert_null(shaded.pixels);
    vision_image_free(&plain);
}

/* A placed hand: its middle fingertip lands on the table point asked (the pixels there change
 * against the same scene without hands, those a little beyond the tip do not), its arm comes
 * from the side asked, and at reach 0 it has left the tile. */
static void test_render_a_placed_hand_lands_where_asked(void **state)
{
    (void)state;
    vision_el_observation truth;
    vision_render_config config;
    sample_scene(&truth, &config, 21, 4);
    config.light_elevation_deg = 85; /* short shadows: the hand's own stays under it */
    config.tilt_deg = 10;
    vision_image bare, reached, withdrawn;
    vision_render_info info, reached_info, withdrawn_info;
    assert_int_equal(vision_el_render(&config, &truth, &bare, &info, NULL, 0), VISION_OK);
    const int tile = 6; /* no stack on it */
    for (int from = 0; from < 360; from += 90) {
        double tip_x = info.tiles[tile].x_mm, tip_y = info.tiles[tile].y_mm, tip_h = 3;
        config.hands = 1;
        config.hand[0] = (vision_render_hand){.placed = 1, .tip_x_mm = tip_x, .tip_y_mm = tip_y,
                                              .tip_height_mm = tip_h, .from_deg = from,
                                              .reach = 1};
        assert_int_equal(vision_el_render(&config, &truth, &reached, &reached_info, NULL, 0),
                         VISION_OK);
        config.hand[0].reach = 0;
        assert_int_equal(vision_el_render(&config, &truth, &withdrawn, &withdrawn_info, NULL, 0),
                         VISION_OK);
        /* the arm's side, as the camera's azimuth: 0 towards +y, 90 towards +x */
        double back_x = sin(from * 3.14159265358979323846 / 180), back_y = cos(from * 3.14159265358979323846 / 180);
        vision_point tip = vision_project(&info.camera, tip_x, tip_y, tip_h);
        vision_point beyond = vision_project(&info.camera, tip_x - 25 * back_x,
                                             tip_y - 25 * back_y, 2);
        vision_point arm = vision_project(&info.camera, tip_x + 70 * back_x,
                                          tip_y + 70 * back_y, 2);
        vision_point across = vision_project(&info.camera, tip_x - 70 * back_x,
                                             tip_y - 70 * back_y, 2);
        double at_tip = change_at(&bare, &reached, tip);
        double past_tip = change_at(&bare, &reached, beyond);
        double on_arm = change_at(&bare, &reached, arm);
        double other_side = change_at(&bare, &reached, across);
        if (at_tip < 20 || past_tip > 4 || on_arm < 20 || other_side > 4)
            fail_msg("from %d degrees: change at the tip %.1f, 25 mm past it %.1f, 70 mm up the "
                     "arm %.1f, 70 mm the other way %.1f",
                     from, at_tip, past_tip, on_arm, other_side);
        assert_true(reached_info.tiles[tile].hand_cover > 0.2);
        assert_true(change_at(&bare, &withdrawn, tip) < 1);
        assert_true(withdrawn_info.tiles[tile].hand_cover == 0);
        vision_image_free(&reached);
        vision_image_free(&withdrawn);
    }
    vision_image_free(&bare);
}

/* A fixed layout: each tile lies, turns and carries its stack where it did before another tile
 * joined the layout, even one that moves the smallest row and column. */
static void test_render_a_fixed_layout_keeps_its_tiles_in_place(void **state)
{
    (void)state;
    vision_el_observation truth, grown;
    sample_truth(&truth);
    grown = truth;
    vision_el_tile *added = add_tile(&grown, -1, -1, EL_DESERT_CAMP);
    stack_on(&grown, added, "black", 2);
    vision_render_config config;
    clean_config(&config, 5, 2);
    config.layout_x_mm = 200;
    config.layout_y_mm = 220;
    vision_image a, b;
    vision_render_info before, after;
    assert_int_equal(vision_el_render(&config, &truth, &a, &before, NULL, 0), VISION_OK);
    assert_int_equal(vision_el_render(&config, &grown, &b, &after, NULL, 0), VISION_OK);
    for (int i = 0; i < truth.tile_count; i++) {
        assert_true(before.tiles[i].x_mm == after.tiles[i].x_mm);
        assert_true(before.tiles[i].y_mm == after.tiles[i].y_mm);
        assert_true(before.tiles[i].angle_deg == after.tiles[i].angle_deg);
        assert_true(before.tiles[i].stack_x_mm == after.tiles[i].stack_x_mm);
        assert_int_equal(before.tiles[i].quarter_turns, after.tiles[i].quarter_turns);
    }
    /* cell 0,0 at the point asked, within the jitter (about a millimetre) */
    assert_true(hypot(before.tiles[0].x_mm - 200, before.tiles[0].y_mm - 220) < 1.5);
    /* the added tile lies a pitch up and left of cell 0,0 */
    double pitch = hypot(after.tiles[12].x_mm - after.tiles[0].x_mm,
                         after.tiles[12].y_mm - after.tiles[0].y_mm) / sqrt(2);
    assert_true(pitch > config.mat.tile_mm && pitch < config.mat.tile_mm + 5);
    vision_image_free(&a);
    vision_image_free(&b);
    config.layout_x_mm = 20; /* on marker 0's paper */
    config.layout_y_mm = 20;
    char error[300];
    assert_int_equal(vision_el_render(&config, &truth, &a, NULL, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "does not fit"));
}

static void expect_refusal(const vision_render_config *config, const vision_el_observation *truth,
                           const char *words)
{
    vision_image frame;
    vision_render_info info;
    char error[256] = "";
    assert_int_equal(vision_el_render(config, truth, &frame, &info, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_null(frame.pixels);
    if (!strstr(error, words))
        fail_msg("expected '%s' in: %s", words, error);
}

static void test_render_refuses_what_it_cannot_draw(void **state)
{
    (void)state;
    vision_el_observation truth;
    vision_render_config config;
    sample_scene(&truth, &config, 1, 1);

    vision_el_observation teal = truth;
    strcpy(teal.colours[2], "teal");
    expect_refusal(&config, &teal, "'teal'");

    /* 13 x 13 tiles (their border) do not fit between the default mat's markers; 11 x 11 do,
     * and 12 x 12 with the gaps drawn small */
    vision_el_observation large;
    for (int side = 13; side >= 11; side--) {
        memset(&large, 0, sizeof large);
        for (int i = 0; i < side * side; i++)
            if (i / side == 0 || i / side == side - 1 || i % side == 0 || i % side == side - 1 ||
                side == 11)
                add_tile(&large, i / side, i % side, i % EL_TILE_TYPES);
        if (side == 13) {
            expect_refusal(&config, &large, "13 rows x 13 columns");
            continue;
        }
        vision_image frame;
        assert_int_equal(vision_el_render(&config, &large, &frame, NULL, NULL, 0), VISION_OK);
        vision_image_free(&frame);
    }

    vision_el_observation unknown = truth;
    unknown.tiles[3].type = VISION_UNKNOWN;
    expect_refusal(&config, &unknown, "unknown");
    vision_el_observation twice = truth;
    twice.tiles[3].row = twice.tiles[2].row;
    twice.tiles[3].col = twice.tiles[2].col;
    expect_refusal(&config, &twice, "both lie");
    vision_el_observation tall = truth;
    tall.tiles[1].height = 6;
    expect_refusal(&config, &tall, "stack of 6");

    /* each config one field off the clean one, and the words its refusal says */
    const char *const words[] = {"tilt",    "camera height", "JPEG",       "image size",
                                 "hands",   "azimuth",       "distortion", "too small"};
    enum { BAD_CONFIGS = sizeof words / sizeof words[0] };
    vision_render_config bad[BAD_CONFIGS];
    for (int i = 0; i < BAD_CONFIGS; i++)
        bad[i] = config;
    bad[0].tilt_deg = 40;
    bad[1].camera_height_mm = 300;
    bad[2].jpeg_quality = 30;
    bad[3].width = 10;
    bad[4].hands = 3;
    bad[5].azimuth_deg = 360;
    bad[6].distortion_k1 = -0.2;
    bad[7].mat.marker_mm = 150;
    bad[7].mat.width_mm = 200;
    for (int i = 0; i < BAD_CONFIGS; i++)
        expect_refusal(&bad[i], &truth, words[i]);
}

/* ---- golden renders ----
 * Each is written by the command fixtures/README.md gives (the same config as here); the test
 * renders again and compares. TS_WRITE_FIXTURES=1 rewrites the PNGs after a deliberate change. */

typedef struct golden {
    const char *name;
    uint64_t seed, box;
    int width, height, hands;
} golden;

static const golden goldens[] = {
    {"small-layout", 3, 3, 640, 360, 0},
    {"full-table", 11, 5, 640, 360, 0},
    {"hands", 8, 2, 1280, 720, 2},
};

static void test_render_matches_the_golden_renders(void **state)
{
    (void)state;
    for (size_t g = 0; g < sizeof goldens / sizeof goldens[0]; g++) {
        const golden *gold = &goldens[g];
        char truth_path[512], image_path[512], error[512];
        snprintf(truth_path, sizeof truth_path, "%s/renders/%s.json", FIXTURES_DIR,
                 strcmp(gold->name, "hands") == 0 ? "full-table" : gold->name);
        snprintf(image_path, sizeof image_path, "%s/renders/%s.png", FIXTURES_DIR, gold->name);
        vision_el_observation truth;
        if (observation_el_load(truth_path, &truth, error, sizeof error) != VISION_OK)
            fail_msg("%s", error);
        vision_render_config config;
        vision_render_config_default(&config);
        config.scene_seed = gold->seed;
        config.box_seed = gold->box;
        config.width = gold->width;
        config.height = gold->height;
        config.hands = gold->hands;
        vision_image fresh, saved;
        assert_int_equal(vision_el_render(&config, &truth, &fresh, NULL, error, sizeof error),
                         VISION_OK);
        if (getenv("TS_WRITE_FIXTURES"))
            assert_int_equal(vision_image_save(image_path, &fresh, error, sizeof error), VISION_OK);
        if (vision_image_load(image_path, &saved, error, sizeof error) != VISION_OK)
            fail_msg("%s", error);
        assert_int_equal(saved.width, fresh.width);
        assert_int_equal(saved.height, fresh.height);
        double sum = 0;
        for (int y = 0; y < fresh.height; y++)
            for (int x = 0; x < fresh.width * 3; x++)
                sum += abs(fresh.pixels[y * fresh.stride + x] - saved.pixels[y * saved.stride + x]);
        double mean = sum / ((double)fresh.width * fresh.height * 3);
        if (mean >= 0.5)
            fail_msg("%s: %.2f grey levels from the golden render (a deliberate change: "
                     "TS_WRITE_FIXTURES=1)",
                     gold->name, mean);
        vision_image_free(&fresh);
        vision_image_free(&saved);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_is_deterministic),
        cmocka_unit_test(test_render_markers_sit_where_info_says),
        cmocka_unit_test(test_render_info_is_one_camera),
        cmocka_unit_test(test_render_registers_where_info_says),
        cmocka_unit_test(test_render_art_belongs_to_the_box),
        cmocka_unit_test(test_render_art_types_stay_distinct),
        cmocka_unit_test(test_render_a_stack_of_five_stands_taller),
        cmocka_unit_test(test_render_hands_cover_tiles),
        cmocka_unit_test(test_render_a_placed_hand_lands_where_asked),
        cmocka_unit_test(test_render_a_passing_shadow_darkens_and_moves_nothing),
        cmocka_unit_test(test_render_a_fixed_layout_keeps_its_tiles_in_place),
        cmocka_unit_test(test_render_refuses_what_it_cannot_draw),
        cmocka_unit_test(test_render_matches_the_golden_renders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
