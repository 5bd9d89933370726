/* The motion gate on synthetic frames at 10 frames a second: a still table, a moving blob, a
 * blob that stops and rests, noise, a change of the light, a hand that comes and goes, a tile
 * laid on a dark mat a fifth covered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 640
#define HEIGHT 480
#define FRAME_MS 100.0 /* 10 frames a second */

typedef struct blob {
    int x, y, side; /* side 0: none */
    uint8_t value;
} blob;

typedef struct scene {
    double gain, offset; /* the light: level * gain + offset */
    double noise;        /* uniform noise of +-noise grey levels per pixel and channel */
    blob blobs[2];
    int tiles;           /* > 0: a dark mat with this many light tiles instead of the squares */
} scene;

enum { TILE_PX = 40, TILE_PITCH = 48, TILES_A_ROW = WIDTH / TILE_PITCH, TILE_LEVEL = 185 };

static uint64_t noise_state = 0x243f6a8885a308d3ull;
static double noise_uniform(void)
{
    noise_state ^= noise_state << 13;
    noise_state ^= noise_state >> 7;
    noise_state ^= noise_state << 17;
    return (double)(noise_state >> 11) / 9007199254740992.0 * 2 - 1;
}

/* A textured table: 32-pixel squares of two levels over a left-to-right ramp (60..190), so
 * that a change of light changes every level differently. */
static void draw(const scene *s, vision_image *frame)
{
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) {
            double level = 60 + ((x / 32 + y / 32) % 2) * 80 + x * 50.0 / WIDTH;
            if (s->tiles > 0) { /* a mat darker away from the lamp, tiles laid row by row */
                int k = (y / TILE_PITCH) * TILES_A_ROW + x / TILE_PITCH;
                bool on_tile = x % TILE_PITCH < TILE_PX && y % TILE_PITCH < TILE_PX &&
                               x / TILE_PITCH < TILES_A_ROW && k < s->tiles;
                level = on_tile ? TILE_LEVEL : 50 + x * 12.0 / WIDTH;
            }
            for (int b = 0; b < 2; b++) {
                const blob *o = &s->blobs[b];
                if (o->side && x >= o->x && x < o->x + o->side && y >= o->y &&
                    y < o->y + o->side)
                    level = o->value;
            }
            for (int c = 0; c < 3; c++) {
                double value = level * s->gain + s->offset + s->noise * noise_uniform();
                frame->pixels[(size_t)y * frame->stride + (size_t)x * 3 + (size_t)c] =
                    (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : lround(value));
            }
        }
}

typedef struct fixture {
    gate *gate;
    vision_image frame;
    double time_ms; /* of the next frame */
    scene scene;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char error[256];
    if (!f || gate_new(NULL, &f->gate, error, sizeof error) != VISION_OK ||
        vision_image_new(WIDTH, HEIGHT, 3, &f->frame) != VISION_OK)
        return -1;
    f->scene.gain = 1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    gate_free(f->gate);
    vision_image_free(&f->frame);
    free(f);
    return 0;
}

/* Draws the fixture's scene, feeds it at the next frame time and returns what the gate says. */
static gate_report feed(fixture *f)
{
    draw(&f->scene, &f->frame);
    gate_report report;
    char error[256];
    assert_int_equal(gate_feed(f->gate, &f->frame, f->time_ms, &report, error, sizeof error),
                     VISION_OK);
    f->time_ms += FRAME_MS;
    return report;
}

/* Feeds frames of the unchanged scene until STABLE or IDLE (at most 3 s); returns the state. */
static gate_state settle(fixture *f)
{
    for (int i = 0; i < 30; i++) {
        gate_report report = feed(f);
        if (report.state == GATE_STABLE || report.state == GATE_IDLE)
            return report.state;
    }
    fail_msg("the table never settled");
    return GATE_BUSY;
}

static void test_gate_still_table_is_stable_once_after_settle(void **state)
{
    fixture *f = *state;
    gate_config config;
    gate_config_default(&config);
    int stable = 0;
    for (int i = 0; i < 30; i++) {
        double time_ms = f->time_ms;
        gate_report report = feed(f);
        assert_int_not_equal(report.state, GATE_BUSY);
        if (time_ms < config.settle_ms) {
            assert_int_equal(report.state, GATE_SETTLING);
            assert_true(report.changed); /* nothing read yet */
        } else if (time_ms == config.settle_ms) {
            assert_int_equal(report.state, GATE_STABLE);
            assert_string_equal(gate_state_name(report.state), "stable");
            assert_true(report.changed);
            assert_true(report.still_ms >= config.settle_ms);
            stable++;
        } else {
            assert_int_equal(report.state, GATE_IDLE);
            assert_false(report.changed);
            assert_true(report.change < config.change_share);
        }
    }
    assert_int_equal(stable, 1);
}

static void test_gate_moving_blob_is_busy(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    gate_config config;
    gate_config_default(&config);
    for (int i = 0; i < 20; i++) {
        f->scene.blobs[0] = (blob){40 + 24 * i, 200, 64, 230};
        gate_report report = feed(f);
        assert_int_equal(report.state, GATE_BUSY);
        assert_true(report.motion >= config.motion_share);
        assert_true(report.changed);
        assert_true(report.still_ms == 0);
    }
}

/* A blob moves, then rests: STABLE exactly once, settle_ms after it stopped, then IDLE. */
static void test_gate_blob_that_stops_is_stable_once_after_settle(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    gate_config config;
    gate_config_default(&config);
    for (int i = 0; i < 8; i++) {
        f->scene.blobs[0] = (blob){40 + 24 * i, 120, 64, 230};
        assert_int_equal(feed(f).state, GATE_BUSY);
    }
    /* the first frame at rest still differs from the last moving one: the rest begins here */
    double stopped_ms = f->time_ms;
    f->scene.blobs[0].x += 24;
    assert_int_equal(feed(f).state, GATE_BUSY);
    int stable = 0;
    for (int i = 0; i < 25; i++) {
        double time_ms = f->time_ms;
        gate_report report = feed(f);
        if (time_ms - stopped_ms < config.settle_ms) {
            assert_int_equal(report.state, GATE_SETTLING);
        } else if (!stable) {
            assert_int_equal(report.state, GATE_STABLE);
            assert_true(time_ms - stopped_ms < config.settle_ms + FRAME_MS);
            assert_true(report.changed); /* the blob was not there at the last read */
            stable++;
        } else {
            assert_int_equal(report.state, GATE_IDLE);
            assert_false(report.changed);
        }
    }
    assert_int_equal(stable, 1);
}

static void test_gate_noise_below_threshold_stays_still(void **state)
{
    fixture *f = *state;
    f->scene.noise = 12; /* a cheap webcam's noise in the dark, at full size */
    gate_config config;
    gate_config_default(&config);
    int stable = 0;
    for (int i = 0; i < 30; i++) {
        gate_report report = feed(f);
        assert_int_not_equal(report.state, GATE_BUSY);
        if (i > 0)
            assert_true(report.motion < config.change_share);
        stable += report.state == GATE_STABLE;
    }
    assert_int_equal(stable, 1);
}

/* The light becomes level * gain + offset on a settled table: ten frames, each idle and
 * unchanged. */
static void assert_light_change_is_no_change(fixture *f, double gain, double offset)
{
    f->scene.gain = gain;
    f->scene.offset = offset;
    for (int i = 0; i < 10; i++) {
        gate_report report = feed(f);
        assert_int_equal(report.state, GATE_IDLE);
        assert_false(report.changed);
    }
}

/* A lamp switched on, then the exposure creeping: the table has not changed. */
static void test_gate_global_brightness_change_is_not_motion(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    assert_light_change_is_no_change(f, 1.25, -15);
    for (int i = 0; i < 10; i++) {
        f->scene.gain -= 0.04;
        f->scene.offset += 2;
        gate_report report = feed(f);
        assert_int_equal(report.state, GATE_IDLE);
        assert_false(report.changed);
    }
}

/* A lamp that clips the lightest squares at white: what went white says nothing of the light,
 * and the rest is matched as for any lamp. */
static void test_gate_light_whitening_part_of_the_table_is_not_motion(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    assert_light_change_is_no_change(f, 1.3, 12);
}

/* A hand comes and goes without moving anything: busy, then idle, nothing to read. */
static void test_gate_hand_that_leaves_nothing_changed_is_idle(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    for (int i = 0; i < 5; i++) {
        f->scene.blobs[0] = (blob){100 + 30 * i, 150, 120, 210};
        assert_int_equal(feed(f).state, GATE_BUSY);
    }
    f->scene.blobs[0].side = 0;
    assert_int_equal(feed(f).state, GATE_BUSY);
    for (int i = 0; i < 20; i++) {
        gate_report report = feed(f);
        assert_int_not_equal(report.state, GATE_STABLE);
        assert_int_not_equal(report.state, GATE_BUSY);
        assert_false(report.changed);
    }
}

/* A white box lid a third of the table, lifted off as a lamp comes on: the light is fitted
 * without the lid's grey level, which no longer shows the light (left in, it bends the fitted
 * line and the whole table reads as changed). */
static void test_gate_lid_lifted_as_the_lamp_comes_on_changes_the_lid(void **state)
{
    fixture *f = *state;
    f->scene.blobs[0] = (blob){100, 60, 330, 250};
    assert_int_equal(settle(f), GATE_STABLE);
    /* the lid, and its outline blurred two pixels of the gate's small copy (8 pixels) each way */
    double lid = 330.0 * 330.0 / (WIDTH * HEIGHT);
    double edge = (362.0 * 362.0 - 330.0 * 330.0) / (WIDTH * HEIGHT);
    f->scene.blobs[0].side = 0;
    f->scene.gain = 1.15;
    f->scene.offset = 5;
    gate_report report = feed(f);
    assert_true(report.change >= lid - edge);
    assert_true(report.change <= lid + edge);
}

/* A hand resting still looks like a settled change: STABLE with changed, for the tracker to
 * judge; when it leaves, the table differs from that read and is STABLE again. */
static void test_gate_resting_hand_is_reported_as_changed(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    f->scene.blobs[0] = (blob){200, 100, 160, 200};
    assert_int_equal(feed(f).state, GATE_BUSY);
    gate_state state_after = settle(f);
    assert_int_equal(state_after, GATE_STABLE);
    f->scene.blobs[0].side = 0;
    assert_int_equal(feed(f).state, GATE_BUSY);
    assert_int_equal(settle(f), GATE_STABLE);
}

/* A piece that topples with no hand near: too small for motion, but the still period starts
 * again and the table is read once it has settled. */
static void test_gate_small_change_without_motion_is_read(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    /* one pixel of the 80 x 60 copy, dark on a light square: about 0.1% of it changes */
    f->scene.blobs[0] = (blob){320, 240, 8, 20};
    gate_report report = feed(f);
    assert_int_equal(report.state, GATE_SETTLING);
    assert_true(report.changed);
    assert_true(report.still_ms == 0);
    assert_int_equal(settle(f), GATE_STABLE);
}

/* A layout growing over a fifth of the mat: each tile laid is that tile's change, not the
 * whole layout's (the light was matched by the pictures' 20th and 80th percentiles, and the
 * 80th leapt from the mat's grey to the tiles'); a lamp brightening it is no change at all. */
static void test_gate_each_tile_laid_on_a_dark_mat_changes_that_tile(void **state)
{
    fixture *f = *state;
    /* a tile, blurred a pixel of the gate's small copy (8 pixels) each way */
    double tile_share = (double)((TILE_PX + 16) * (TILE_PX + 16)) / (WIDTH * HEIGHT);
    f->scene.tiles = 24; /* 12.5% of the picture, then tile by tile to 26.6% */
    assert_int_equal(settle(f), GATE_STABLE);
    for (int i = 0; i < 27; i++) {
        f->scene.tiles++;
        gate_report report = feed(f);
        assert_true(report.changed);
        assert_true(report.change <= tile_share);
        assert_int_equal(settle(f), GATE_STABLE);
    }
    assert_light_change_is_no_change(f, 1.2, -8);
}

static void test_gate_reset_and_a_new_size_start_afresh(void **state)
{
    fixture *f = *state;
    assert_int_equal(settle(f), GATE_STABLE);
    assert_int_equal(feed(f).state, GATE_IDLE);
    gate_reset(f->gate);
    assert_int_equal(feed(f).state, GATE_SETTLING);
    assert_int_equal(settle(f), GATE_STABLE); /* unchanged, but nothing read since the reset */

    vision_image smaller;
    assert_int_equal(vision_image_new(WIDTH / 2, HEIGHT / 2, 1, &smaller), VISION_OK);
    gate_report report;
    char error[256];
    assert_int_equal(gate_feed(f->gate, &smaller, f->time_ms, &report, error, sizeof error),
                     VISION_OK);
    assert_int_equal(report.state, GATE_SETTLING);
    assert_true(report.changed);
    vision_image_free(&smaller);

    /* frames smaller than the scale and the row step still give a copy of a pixel */
    vision_image tiny;
    assert_int_equal(vision_image_new(3, 2, 3, &tiny), VISION_OK);
    assert_int_equal(gate_feed(f->gate, &tiny, f->time_ms, &report, error, sizeof error),
                     VISION_OK);
    assert_int_equal(report.state, GATE_SETTLING);
    vision_image_free(&tiny);
}

static void test_gate_refuses_bad_config_and_frames(void **state)
{
    fixture *f = *state;
    static const char *const fields[] = {"scale",           "blur_sigma",   "settle_ms",
                                         "pixel_threshold", "motion_share", "change_share",
                                         "row_step"};
    for (int i = 0; i < 7; i++) {
        gate_config config;
        gate_config_default(&config);
        switch (i) {
        case 0: config.scale = 0; break;
        case 1: config.blur_sigma = NAN; break;
        case 2: config.settle_ms = -1; break;
        case 3: config.pixel_threshold = 0; break;
        case 4: config.motion_share = 1.5; break;
        case 5: config.change_share = config.motion_share * 2; break;
        default: config.row_step = config.scale + 1; break;
        }
        gate *g = (gate *)1;
        char error[256] = "";
        assert_int_equal(gate_new(&config, &g, error, sizeof error), VISION_BAD_INPUT);
        assert_null(g);
        assert_non_null(strstr(error, fields[i]));
    }
    gate_free(NULL);

    f->time_ms = 1000;
    assert_int_equal(feed(f).state, GATE_SETTLING);
    gate_report report;
    char error[256];
    assert_int_equal(gate_feed(f->gate, &f->frame, 500, &report, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "500"));
    assert_int_equal(report.state, 0);
    vision_image empty = {0};
    assert_int_equal(gate_feed(f->gate, &empty, f->time_ms, &report, error, sizeof error),
                     VISION_BAD_INPUT);
    /* the gate is as it was: the still period begun at 1000 ms settles on time */
    f->time_ms = 1600;
    assert_int_equal(feed(f).state, GATE_STABLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gate_still_table_is_stable_once_after_settle, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_gate_moving_blob_is_busy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gate_blob_that_stops_is_stable_once_after_settle,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_gate_noise_below_threshold_stays_still, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_gate_global_brightness_change_is_not_motion, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_gate_light_whitening_part_of_the_table_is_not_motion, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gate_hand_that_leaves_nothing_changed_is_idle, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_gate_lid_lifted_as_the_lamp_comes_on_changes_the_lid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gate_resting_hand_is_reported_as_changed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_gate_small_change_without_motion_is_read, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_gate_each_tile_laid_on_a_dark_mat_changes_that_tile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gate_reset_and_a_new_size_start_afresh, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_gate_refuses_bad_config_and_frames, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
