/*
 * The pipeline's stages alone: the side an arm reaches in from, read off a synthetic change
 * mask of the rectified mat; the seat of an azimuth; how far a registration moved (a renderer's
 * camera nudged against the same camera); the gate's change mask and gate_unread that the
 * pipeline builds on; and the demo table read on while a marker is covered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "calibration.h"
#include "gate.h"
#include "pipeline.h"
#include "recording.h"
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* A mask w x h with a thick line (an arm) from the point at azimuth from_deg beyond the edge to
 * the tip (x, y), in pixels. */
static void draw_arm(vision_image *mask, double tip_x, double tip_y, double from_deg,
                     double width)
{
    double dx = sin(from_deg * PI / 180), dy = cos(from_deg * PI / 180);
    for (int y = 0; y < mask->height; y++)
        for (int x = 0; x < mask->width; x++) {
            double px = x + 0.5 - tip_x, py = y + 0.5 - tip_y;
            double along = px * dx + py * dy, across = fabs(px * dy - py * dx);
            if (along >= 0 && across <= width / 2)
                mask->pixels[y * mask->stride + x] = 255;
        }
}

static double angle_between(double a, double b)
{
    double d = fmod(fabs(a - b), 360);
    return d > 180 ? 360 - d : d;
}

static void test_pipeline_finds_the_arms_side_from_a_mask(void **state)
{
    (void)state;
    static const double sides[] = {0, 45, 90, 135, 180, 225, 270, 315};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        vision_image mask;
        assert_int_equal(vision_image_new(140, 140, 1, &mask), VISION_OK);
        draw_arm(&mask, 70, 70, sides[i], 16); /* an arm 64 mm wide to the middle */
        double azimuth = -1;
        assert_int_equal(pipeline_arm_crossings(&mask, 3, &azimuth), 1);
        assert_true(angle_between(azimuth, sides[i]) < 3);
        vision_image_free(&mask);
    }
}

static void test_pipeline_tells_no_arm_two_arms_and_a_jolt(void **state)
{
    (void)state;
    vision_image mask;
    assert_int_equal(vision_image_new(140, 100, 1, &mask), VISION_OK);
    double azimuth = -1;
    assert_int_equal(pipeline_arm_crossings(&mask, 3, &azimuth), 0);
    mask.pixels[50 * mask.stride + 70] = 255; /* a piece placed in the middle */
    mask.pixels[99 * mask.stride + 20] = 255; /* a speck on the edge, narrower than an arm */
    assert_int_equal(pipeline_arm_crossings(&mask, 3, &azimuth), 0);
    assert_true(azimuth == -1);
    draw_arm(&mask, 40, 50, 0, 12);
    draw_arm(&mask, 100, 50, 180, 12); /* two players' arms */
    assert_int_equal(pipeline_arm_crossings(&mask, 3, &azimuth), 2);
    memset(mask.pixels, 255, (size_t)mask.stride * (size_t)mask.height); /* the view jumped */
    assert_int_equal(pipeline_arm_crossings(&mask, 3, &azimuth), -1);
    vision_image_free(&mask);

    /* an arm along the bottom right corner is one crossing, not two */
    assert_int_equal(vision_image_new(140, 100, 1, &mask), VISION_OK);
    draw_arm(&mask, 120, 80, 45, 20);
    assert_int_equal(pipeline_arm_crossings(&mask, 3, &azimuth), 1);
    assert_true(angle_between(azimuth, 45) < 15);
    vision_image_free(&mask);
}

/* The tip of an arm: where it reaches furthest in from its side, whatever else changed on the
 * mat (a tile laid before, not joined to the arm). */
static void test_pipeline_finds_the_arms_tip(void **state)
{
    (void)state;
    static const double from_deg[3] = {0, 90, 225};
    for (int k = 0; k < 3; k++) {
        vision_image mask;
        assert_int_equal(vision_image_new(200, 200, 1, &mask), VISION_OK);
        memset(mask.pixels, 0, (size_t)mask.stride * 200);
        draw_arm(&mask, 100, 110, from_deg[k], 20);
        /* a tile laid earlier, further in than the tip but apart from the arm */
        double away_x = 100 - 60 * sin(from_deg[k] * PI / 180);
        double away_y = 110 - 60 * cos(from_deg[k] * PI / 180);
        for (int y = (int)away_y - 8; y < (int)away_y + 8; y++)
            for (int x = (int)away_x - 8; x < (int)away_x + 8; x++)
                mask.pixels[y * mask.stride + x] = 255;
        double azimuth, tip[2];
        assert_int_equal(pipeline_arm_crossings(&mask, 3, &azimuth), 1);
        assert_true(pipeline_arm_tip(&mask, azimuth, tip));
        assert_true(hypot(tip[0] - 100, tip[1] - 110) < 12); /* within the arm's width */
        vision_image_free(&mask);
    }
    /* nothing touches the edge: no arm, no tip */
    vision_image mask;
    assert_int_equal(vision_image_new(50, 50, 1, &mask), VISION_OK);
    memset(mask.pixels, 0, (size_t)mask.stride * 50);
    mask.pixels[25 * mask.stride + 25] = 255;
    double tip[2];
    assert_false(pipeline_arm_tip(&mask, 0, tip));
    vision_image_free(&mask);
}

/* Tiles numbered in the order the hands laid them: B by the first reach, which went furthest
 * in on it (passing over A's place on its way); C, passed by the second reach on its way to A,
 * where it ended (a camp whose adventurers moved on from C to A); A last; D, no reach near it,
 * not numbered. */
static void test_pipeline_ranks_tiles_in_the_order_reached(void **state)
{
    (void)state;
    vision_el_observation *seen = calloc(1, sizeof *seen);
    assert_non_null(seen);
    static const double at[4][2] = {{100, 100}, {140, 100}, {180, 100}, {300, 300}};
    for (int j = 0; j < 4; j++) {
        seen->tiles[j].x_mm = at[j][0];
        seen->tiles[j].y_mm = at[j][1];
    }
    seen->tile_count = 4;
    const double ends[2][2] = {{141, 101}, {99, 99}};
    const double tips[6][2] = {{60, 100}, {100, 102}, {141, 101}, {230, 100}, {181, 99}, {99, 99}};
    const int tip_reach[6] = {0, 0, 0, 1, 1, 1};
    pipeline_reaches reaches = {ends, 2, tips, tip_reach, 6};
    int rank[4];
    pipeline_rank_reached(seen, 40, &reaches, rank);
    assert_int_equal(rank[1], 1); /* B */
    assert_int_equal(rank[2], 2); /* C */
    assert_int_equal(rank[0], 3); /* A */
    assert_int_equal(rank[3], 0); /* D */
    /* no reach at all: nothing numbered */
    pipeline_reaches none = {ends, 0, tips, tip_reach, 0};
    pipeline_rank_reached(seen, 40, &none, rank);
    for (int j = 0; j < 4; j++)
        assert_int_equal(rank[j], 0);
    free(seen);
}

static void test_pipeline_takes_the_nearest_seat_or_none(void **state)
{
    (void)state;
    const double two[] = {0, 180}, four[] = {0, 90, 180, 270}, three[] = {0, 120, 240};
    assert_int_equal(pipeline_nearest_seat(10, two, 2, 10), 0);
    assert_int_equal(pipeline_nearest_seat(350, two, 2, 10), 0);
    assert_int_equal(pipeline_nearest_seat(200, two, 2, 10), 1);
    assert_int_equal(pipeline_nearest_seat(85, two, 2, 10), -1); /* halfway: no one's */
    assert_int_equal(pipeline_nearest_seat(275, two, 2, 10), -1);
    assert_int_equal(pipeline_nearest_seat(100, four, 4, 10), 1);
    assert_int_equal(pipeline_nearest_seat(300, four, 4, 10), 3);
    assert_int_equal(pipeline_nearest_seat(310, four, 4, 10), -1);
    assert_int_equal(pipeline_nearest_seat(230, three, 3, 10), 2);
    assert_int_equal(pipeline_nearest_seat(62, three, 3, 10), -1);
    const double elsewhere[] = {30, 150}; /* --seats-at 30,150 */
    assert_int_equal(pipeline_nearest_seat(160, elsewhere, 2, 10), 1);
}

/* The markers of a render, registered; the same camera nudged a degree moves them by pixels. */
static vision_registration registered(double tilt, double azimuth)
{
    vision_render_config config;
    vision_render_config_default(&config);
    config.width = 960;
    config.height = 540;
    config.box_seed = config.scene_seed = 5;
    config.tilt_deg = tilt;
    config.azimuth_deg = azimuth;
    config.camera_height_mm = 900;
    config.noise = config.blur_px = config.glare = 0;
    config.jpeg_quality = 0;
    vision_el_observation empty;
    memset(&empty, 0, sizeof empty);
    vision_image frame;
    char error[256];
    if (vision_el_render(&config, &empty, &frame, NULL, error, sizeof error) != VISION_OK)
        fail_msg("render: %s", error);
    vision_mat mat;
    vision_mat_default(&mat);
    vision_registration registration;
    if (vision_register(&frame, &mat, NULL, &registration, error, sizeof error) != VISION_OK)
        fail_msg("register: %s", error);
    vision_image_free(&frame);
    return registration;
}

static void test_pipeline_sees_a_moved_camera_in_its_registration(void **state)
{
    (void)state;
    vision_registration a = registered(15, 10), again = registered(15, 10);
    vision_registration nudged = registered(16, 12);
    assert_true(pipeline_registration_shift(&a, &again) < 0.5);
    assert_true(pipeline_registration_shift(&a, &nudged) > 2);
    vision_registration smaller = a;
    smaller.image_width = 640;
    assert_true(isinf(pipeline_registration_shift(&a, &smaller)));
}

/* A gate as the pipeline keeps one (its change mask kept), settling in 100 ms, and a bare
 * 200 x 200 mat of grey 120 for it. */
static gate *mat_gate(vision_image *frame)
{
    gate_config config;
    gate_config_default(&config);
    config.scale = 2;
    config.row_step = 1;
    config.settle_ms = 100;
    config.keep_change_mask = true;
    gate *g = NULL;
    char error[128];
    assert_int_equal(gate_new(&config, &g, error, sizeof error), VISION_OK);
    assert_int_equal(vision_image_new(200, 200, 1, frame), VISION_OK);
    memset(frame->pixels, 120, (size_t)frame->stride * 200);
    return g;
}

/* The gate's mask shows a change where it is; gate_unread takes the last read back. */
static void test_pipeline_gate_mask_and_unread(void **state)
{
    (void)state;
    vision_image frame;
    gate *g = mat_gate(&frame);
    char error[128];
    gate_report report;
    double t = 0;
    for (; t <= 200; t += 50)
        assert_int_equal(gate_feed(g, &frame, t, &report, error, sizeof error), VISION_OK);
    const vision_image *still = gate_change_mask(g); /* read at 100 ms, unchanged since */
    assert_non_null(still);
    double none;
    assert_int_equal(pipeline_arm_crossings(still, 3, &none), 0);
    /* a hand at the bottom edge, at rest */
    draw_arm(&frame, 100, 120, 0, 30);
    report.state = GATE_BUSY;
    while (report.state != GATE_STABLE && t < 2000) {
        assert_int_equal(gate_feed(g, &frame, t, &report, error, sizeof error), VISION_OK);
        t += 50;
    }
    assert_int_equal(report.state, GATE_STABLE);
    const vision_image *mask = gate_change_mask(g);
    assert_non_null(mask);
    double azimuth;
    assert_int_equal(pipeline_arm_crossings(mask, 3, &azimuth), 1);
    assert_true(angle_between(azimuth, 0) < 5);
    gate_unread(g);
    /* the hand leaves: the table is as it was read before it came, so nothing to read */
    memset(frame.pixels, 120, (size_t)frame.stride * 200);
    bool stable = false;
    for (int i = 0; i < 10; i++, t += 50) {
        assert_int_equal(gate_feed(g, &frame, t, &report, error, sizeof error), VISION_OK);
        stable |= report.state == GATE_STABLE;
    }
    assert_false(stable);
    assert_int_equal(report.state, GATE_IDLE);
    vision_image_free(&frame);
    gate_free(g);
}

/* Feeds frame until the gate is STABLE (fails after 2 s). */
static void settle_stable(gate *g, const vision_image *frame, double *t)
{
    gate_report report = {.state = GATE_BUSY};
    char error[128];
    for (; report.state != GATE_STABLE && *t < 20000; *t += 50)
        assert_int_equal(gate_feed(g, frame, *t, &report, error, sizeof error), VISION_OK);
    assert_int_equal(report.state, GATE_STABLE);
}

/* A hand at rest across the edge when a table was read (the camera had just been nudged): the
 * next table, the hand gone and a tile laid, shows a change across the edge that has left, not
 * arrived, so it is read; an arm arriving is not taken for one leaving. */
static void test_pipeline_gate_tells_an_arm_that_left(void **state)
{
    (void)state;
    vision_image frame;
    gate *g = mat_gate(&frame);
    double t = 0;
    settle_stable(g, &frame, &t);
    assert_false(gate_change_left(g, 2)); /* nothing read before */

    draw_arm(&frame, 100, 120, 0, 30); /* arrives and rests */
    for (int y = 120; y < 200; y++)
        for (int x = 85; x < 115; x++)
            frame.pixels[y * frame.stride + x] = 40;
    settle_stable(g, &frame, &t);
    double azimuth;
    assert_int_equal(pipeline_arm_crossings(gate_change_mask(g), 2, &azimuth), 1);
    assert_false(gate_change_left(g, 2));

    memset(frame.pixels, 120, (size_t)frame.stride * 200); /* gone, and a tile laid */
    for (int y = 60; y < 100; y++)
        for (int x = 60; x < 100; x++)
            frame.pixels[y * frame.stride + x] = 200;
    settle_stable(g, &frame, &t);
    assert_int_equal(pipeline_arm_crossings(gate_change_mask(g), 2, &azimuth), 1);
    assert_true(gate_change_left(g, 2));
    vision_image_free(&frame);
    gate_free(g);
}

/* The camera moved as a hand came to rest across the edge: the settled frame, rectified anew,
 * is compared again with the copy read before, so that the hand shows as a change across the
 * edge (not read), and the bare table after it as nothing new; the same with no hand shows
 * none. */
static void test_pipeline_gate_rebase_compares_with_the_copy_read(void **state)
{
    (void)state;
    vision_image frame, moved;
    gate *g = mat_gate(&frame);
    assert_int_equal(vision_image_new(200, 200, 1, &moved), VISION_OK);
    memset(moved.pixels, 120, (size_t)moved.stride * 200); /* rectified with the old view: */
    for (int y = 0; y < 200; y++)                             /* the mat shifted in it */
        memset(moved.pixels + y * moved.stride, 30, 20);
    double t = 0;
    char error[128];
    settle_stable(g, &frame, &t);
    settle_stable(g, &moved, &t);
    assert_int_equal(gate_rebase(g, &frame, error, sizeof error), VISION_OK);
    double azimuth;
    assert_int_equal(pipeline_arm_crossings(gate_change_mask(g), 2, &azimuth), 0);

    settle_stable(g, &moved, &t);
    draw_arm(&frame, 100, 120, 0, 30);
    assert_int_equal(gate_rebase(g, &frame, error, sizeof error), VISION_OK);
    assert_int_equal(pipeline_arm_crossings(gate_change_mask(g), 2, &azimuth), 1);
    assert_false(gate_change_left(g, 2));
    gate_unread(g);
    memset(frame.pixels, 120, (size_t)frame.stride * 200);
    gate_report report;
    for (int i = 0; i < 10; i++, t += 50)
        assert_int_equal(gate_feed(g, &frame, t, &report, error, sizeof error), VISION_OK);
    assert_int_equal(report.state, GATE_IDLE);

    vision_image small;
    assert_int_equal(vision_image_new(100, 100, 1, &small), VISION_OK);
    settle_stable(g, &moved, &t);
    assert_int_equal(gate_rebase(g, &small, error, sizeof error), VISION_BAD_INPUT);
    vision_image_free(&small);
    vision_image_free(&moved);
    vision_image_free(&frame);
    gate_free(g);
}

/* What the pipeline said, counted: the markers' notes, the new registrations and the tables
 * not read. */
typedef struct heard {
    int markers_missing, markers_found, reregistered, unread_markers, other_unread;
    char last_markers[320];
} heard;

static void hear(void *context, const pipeline_event *event)
{
    heard *h = context;
    h->reregistered += event->kind == PIPELINE_REREGISTERED;
    if (event->kind == PIPELINE_MARKERS) {
        snprintf(h->last_markers, sizeof h->last_markers, "%s", event->text);
        h->markers_missing += strstr(event->text, "not found") != NULL;
        h->markers_found += strstr(event->text, "found again") != NULL;
    } else if (event->kind == PIPELINE_UNREAD) {
        h->unread_markers += strstr(event->text, "markers not confirmed") != NULL;
        h->other_unread += strstr(event->text, "markers not confirmed") == NULL;
    }
}

/* Paints marker id of a frame over with the mat's grey just outside its white margin. */
static void cover_marker(vision_image *frame, const vision_registration *registration, int id)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int c = 0; c < 4; c++) {
        x0 = fmin(x0, registration->markers[id][c].x);
        y0 = fmin(y0, registration->markers[id][c].y);
        x1 = fmax(x1, registration->markers[id][c].x);
        y1 = fmax(y1, registration->markers[id][c].y);
    }
    double margin = (x1 - x0) * 0.6 + 4;
    int left = (int)fmax(0, x0 - margin), top = (int)fmax(0, y0 - margin);
    int right = (int)fmin(frame->width - 1, x1 + margin);
    int bottom = (int)fmin(frame->height - 1, y1 + margin);
    int sample_y = top > 0 ? top - 1 : bottom + 1;
    const uint8_t *mat = frame->pixels + (size_t)sample_y * (size_t)frame->stride +
                         (size_t)left * 3;
    uint8_t grey[3] = {mat[0], mat[1], mat[2]};
    for (int y = top; y <= bottom; y++)
        for (int x = left; x <= right; x++)
            memcpy(frame->pixels + (size_t)y * (size_t)frame->stride + (size_t)x * 3, grey, 3);
}

/* The demo table watched while a cup stands over marker 0 for a while: the pipeline says the
 * marker is not found, keeps the table registered from the other three and reads it (before,
 * every settled table was "markers not confirmed, not read"), never takes the cup for a moved
 * camera, then says the marker is found again. */
static void test_pipeline_reads_on_with_a_marker_covered(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "demo.yaml");
    char error[512] = "";
    if (recording_demo_profile(2, path, error, sizeof error) != VISION_OK)
        fail_msg("recording_demo_profile: %s", error);
    static calibration_profile profile;
    assert_int_equal(calibration_profile_load(path, &profile, error, sizeof error), VISION_OK);
    recording *r = NULL;
    assert_int_equal(recording_demo(2, 1280, 720, 10, &r, error, sizeof error), VISION_OK);

    heard h = {0};
    pipeline_config config;
    pipeline_config_default(&config);
    config.profile = &profile;
    config.on_event = hear;
    config.context = &h;
    pipeline *p = NULL;
    if (pipeline_new(&config, &p) != TRACKER_OK)
        fail_msg("pipeline_new: %s", p ? pipeline_error(p) : "out of memory");
    vision_registration registration;
    long reads_before_cup = 0, reads_under_cup = 0;
    for (int i = 0; i < 210; i++) {
        capture_frame frame = {.time_ms = i * 100.0, .index = i};
        if (recording_draw(r, i, &frame.image, error, sizeof error) != VISION_OK)
            fail_msg("frame %d: %s", i, error);
        if (i == 0)
            assert_int_equal(vision_register(&frame.image, &profile.mat, &profile.camera,
                                             &registration, error, sizeof error),
                             VISION_OK);
        if (i == 70)
            reads_before_cup = pipeline_stats_get(p)->reads;
        if (i >= 70 && i < 140)
            cover_marker(&frame.image, &registration, 0);
        if (pipeline_feed(p, &frame) != TRACKER_OK)
            fail_msg("frame %d: %s", i, pipeline_error(p));
        if (i == 139)
            reads_under_cup = pipeline_stats_get(p)->reads - reads_before_cup;
        vision_image_free(&frame.image);
    }
    printf("tables read while marker 0 was covered: %ld; markers said missing %d, found %d; "
           "registered again %d; unread for the markers %d, for other reasons (hands) %d\n",
           reads_under_cup, h.markers_missing, h.markers_found, h.reregistered,
           h.unread_markers, h.other_unread);
    assert_int_equal(h.markers_missing, 1);
    assert_int_equal(h.markers_found, 1);
    assert_int_equal(h.reregistered, 0);
    assert_int_equal(h.unread_markers, 0);
    assert_true(reads_under_cup >= 1);
    assert_non_null(strstr(h.last_markers, "marker 0 (top-left) found again"));

    pipeline_free(p);
    recording_free(r);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_finds_the_arms_side_from_a_mask),
        cmocka_unit_test(test_pipeline_tells_no_arm_two_arms_and_a_jolt),
        cmocka_unit_test(test_pipeline_finds_the_arms_tip),
        cmocka_unit_test(test_pipeline_ranks_tiles_in_the_order_reached),
        cmocka_unit_test(test_pipeline_takes_the_nearest_seat_or_none),
        cmocka_unit_test(test_pipeline_sees_a_moved_camera_in_its_registration),
        cmocka_unit_test(test_pipeline_gate_mask_and_unread),
        cmocka_unit_test(test_pipeline_gate_tells_an_arm_that_left),
        cmocka_unit_test(test_pipeline_gate_rebase_compares_with_the_copy_read),
        cmocka_unit_test(test_pipeline_reads_on_with_a_marker_covered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
