/* The recording module: a scripted game's frames and truth, the passing shadow against the
 * motion gate, a random game's truth against the engine, the demo box's profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "calibration.h"
#include "gate.h"
#include "recording.h"
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCRIPT FIXTURES_DIR "/games/el-2p-short.txt"

/* A small, quick render: the recording's frames at 320 x 180. */
static void small_render(vision_render_config *config, uint64_t seed)
{
    vision_render_config_default(config);
    config->scene_seed = seed;
    config->box_seed = seed;
    config->width = 320;
    config->height = 180;
}

static recording *open_script(const recording_options *options, uint64_t seed)
{
    size_t length;
    char *text = test_read_file(SCRIPT, &length);
    assert_non_null(text);
    vision_render_config config;
    small_render(&config, seed);
    recording *r = NULL;
    char error[512] = "";
    vision_status status =
        recording_from_script(text, "el-2p-short.txt", &config, options, &r, error, sizeof error);
    if (status != VISION_OK)
        fail_msg("recording_from_script: %s", error);
    free(text);
    return r;
}

static void draw(recording *r, int index, vision_image *frame)
{
    char error[512];
    vision_status status = recording_draw(r, index, frame, error, sizeof error);
    if (status != VISION_OK)
        fail_msg("frame %d: %s", index, error);
}

static bool same_pixels(const vision_image *a, const vision_image *b)
{
    return a->width == b->width && a->height == b->height &&
           memcmp(a->pixels, b->pixels, (size_t)a->stride * (size_t)a->height) == 0;
}

/* The first disturbance of kind, or fails. */
static recording_disturbance find_disturbance(const recording *r, const char *kind)
{
    recording_disturbance d;
    for (int i = 0; i < recording_disturbance_count(r); i++)
        if (recording_disturbance_at(r, i, &d) && strcmp(d.kind, kind) == 0)
            return d;
    fail_msg("no %s in the recording", kind);
    return d;
}

/* A script's recording: a table for the start and each action, frames that follow the tables
 * in order at 1000 / fps ms apart, and repeats pointing back at a frame with the same pixels. */
static void test_recording_plays_the_script_table_by_table(void **state)
{
    (void)state;
    recording_options options;
    recording_options_default(&options);
    options.pause_ms = 600;
    recording *r = open_script(&options, 9);
    assert_int_equal(recording_table_count(r), recording_action_count(r) + 1);
    assert_int_equal(strncmp(recording_table_action(r, 0), "start ", 6), 0);
    assert_null(recording_table_state(r, recording_table_count(r)));
    int count = recording_frame_count(r), table = 0;
    assert_true(count > 10 * recording_action_count(r));
    for (int i = 0; i < count; i++) {
        assert_true(recording_frame_time_ms(r, i) == i * 100.0);
        int shown = recording_frame_table(r, i);
        assert_true(shown == table || shown == table + 1);
        table = shown;
        assert_true(recording_frame_first(r, i) <= i);
    }
    assert_int_equal(table, recording_table_count(r) - 1);
    /* a repeat is the same picture */
    int repeat = 1;
    while (recording_frame_first(r, repeat) == repeat)
        repeat++;
    vision_image a, b;
    draw(r, repeat, &a);
    draw(r, recording_frame_first(r, repeat), &b);
    assert_true(same_pixels(&a, &b));
    vision_image_free(&a);
    vision_image_free(&b);
    /* the truth of the last table holds every tile the engine laid */
    static vision_el_observation truth;
    const el_state *last = recording_table_state(r, recording_table_count(r) - 1);
    assert_true(recording_table_truth(r, recording_table_count(r) - 1, &truth));
    assert_int_equal(truth.tile_count, last->tiles);
    assert_false(recording_table_truth(r, -1, &truth));
    recording_free(r);
    recording_free(NULL);
}

/* A refused line, bad options: one line naming the script's line or the option. */
static void test_recording_refuses_a_bad_script_in_one_line(void **state)
{
    (void)state;
    recording_options options;
    recording_options_default(&options);
    vision_render_config config;
    small_render(&config, 1);
    recording *r = (recording *)1;
    char error[512];
    assert_int_equal(recording_from_script("start desert@0,0 lake@0,1 mountain@1,0 "
                                           "desert@1,1\norange: lake@5,5\n",
                                           "bad.txt", &config, &options, &r, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_null(r);
    assert_non_null(strstr(error, "bad.txt:2:"));
    assert_null(strchr(error, '\n'));
    assert_int_equal(recording_from_script("# nothing\n", "empty.txt", &config, &options, &r,
                                           error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "no start layout"));
    options.fps = 61;
    assert_int_equal(recording_from_script("", "x", &config, &options, &r, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "61 frames a second"));
}

/* A passing shadow: its frames show the table its pause shows (the truth unchanged), move (a
 * gate should see them busy), and once it has passed the table looks as it did before, pixel
 * for pixel. Without --shadow the plan is the same but for the shadows' pauses. */
static void test_recording_a_passing_shadow_touches_nothing(void **state)
{
    (void)state;
    recording_options options;
    recording_options_default(&options);
    options.pause_ms = 600;
    options.shadow = true;
    recording *r = open_script(&options, 9);
    recording_disturbance shadow = find_disturbance(r, "passing-shadow");
    assert_true(shadow.last_frame - shadow.first_frame + 1 >=
                (int)(RECORDING_SHADOW_MS * 10 / 1000) - 1);
    for (int i = shadow.first_frame; i <= shadow.last_frame; i++) {
        assert_int_equal(recording_frame_table(r, i), shadow.table);
        assert_true(recording_frame_moving(r, i));
    }
    int before = shadow.first_frame - 1, after = shadow.last_frame + 1;
    assert_int_equal(recording_frame_table(r, before), shadow.table);
    assert_int_equal(recording_frame_table(r, after), shadow.table);
    assert_false(recording_frame_moving(r, before));
    assert_int_equal(recording_frame_first(r, after), recording_frame_first(r, before));
    vision_image a, middle, b;
    draw(r, before, &a);
    draw(r, (shadow.first_frame + shadow.last_frame) / 2, &middle);
    draw(r, after, &b);
    assert_true(same_pixels(&a, &b));
    assert_false(same_pixels(&a, &middle));
    vision_image_free(&a);
    vision_image_free(&middle);
    vision_image_free(&b);
    /* the same game without shadows: the same tables, fewer frames */
    options.shadow = false;
    recording *plain = open_script(&options, 9);
    assert_int_equal(recording_table_count(plain), recording_table_count(r));
    assert_true(recording_frame_count(plain) < recording_frame_count(r));
    for (int d = 0; d < recording_disturbance_count(plain); d++) {
        recording_disturbance x;
        assert_true(recording_disturbance_at(plain, d, &x));
        assert_string_not_equal(x.kind, "passing-shadow");
    }
    recording_free(plain);
    recording_free(r);
}

/* The motion gate against a passing shadow: the table settles and is read before it, the gate
 * goes busy while it crosses and never settles on a shadowed table, and once it has passed the
 * table is still and unchanged (IDLE, never a second STABLE): nothing to read, nothing moved.
 * Over seeds 1 to 16 (by hand, at this size): every one. */
static void test_recording_the_gate_is_busy_while_a_shadow_passes(void **state)
{
    (void)state;
    recording_options options;
    recording_options_default(&options);
    options.shadow = true;
    recording *r = open_script(&options, 4);
    recording_disturbance shadow = find_disturbance(r, "passing-shadow");
    gate *g;
    char error[256];
    assert_int_equal(gate_new(NULL, &g, error, sizeof error), VISION_OK);
    int busy = 0, stable_before = 0, stable_during = 0, stable_after = 0, idle_after = 0;
    int from = shadow.first_frame - 12, to = shadow.last_frame + 12;
    for (int i = from; i <= to; i++) {
        vision_image frame;
        draw(r, i, &frame);
        gate_report report;
        assert_int_equal(gate_feed(g, &frame, recording_frame_time_ms(r, i), &report, error,
                                   sizeof error),
                         VISION_OK);
        vision_image_free(&frame);
        if (i < shadow.first_frame)
            stable_before += report.state == GATE_STABLE;
        else if (i <= shadow.last_frame) {
            busy += report.state == GATE_BUSY;
            stable_during += report.state == GATE_STABLE;
        } else {
            stable_after += report.state == GATE_STABLE;
            idle_after += report.state == GATE_IDLE;
        }
    }
    assert_int_equal(stable_before, 1);
    assert_true(busy >= 1);
    assert_int_equal(stable_during, 0);
    assert_int_equal(stable_after, 0);
    assert_true(idle_after > 0);
    gate_free(g);
    recording_free(r);
}

/* A random game's tables are the engine's: the same seed played line by line gives, after
 * each placement and token, the state the recording holds for that table, to the end of the
 * game. */
static void test_recording_a_random_game_follows_the_engine(void **state)
{
    (void)state;
    const uint64_t seed = 5;
    vision_render_config config;
    small_render(&config, seed);
    recording_options options;
    recording_options_default(&options);
    options.players = 2;
    recording *r = NULL;
    char error[512];
    assert_int_equal(recording_from_random(seed, &config, &options, &r, error, sizeof error),
                     VISION_OK);
    el_config game;
    el_config_default(&game);
    game.seats = 2;
    static el_state played;
    el_error refused;
    assert_int_equal(el_init(&played, &game, &refused), EL_OK);
    test_lines lines = {0};
    assert_int_equal(el_random_game(&played, seed, test_lines_collect, &lines, &refused), EL_OK);
    assert_int_equal(el_init(&played, &game, &refused), EL_OK);
    int table = -1;
    for (int i = 0; i < lines.count; i++) {
        el_line line;
        assert_int_equal(el_play_line(&played, lines.lines[i], &line, &refused), EL_OK);
        if (line.kind == EL_LINE_START ||
            (line.kind == EL_LINE_MOVE &&
             (line.move.kind == EL_MOVE_PLACE || line.move.kind == EL_MOVE_TOKEN))) {
            table++;
            const el_state *held = recording_table_state(r, table);
            assert_non_null(held);
            assert_memory_equal(held, &played, sizeof played);
        }
    }
    assert_int_equal(played.phase, EL_PHASE_OVER);
    assert_int_equal(table + 1, recording_table_count(r));
    assert_int_equal(recording_table_state(r, table)->tiles, played.tiles);
    assert_int_equal(played.tiles, 2 * EL_TILES_PER_SEAT);
    /* the script kept is the game's lines */
    assert_int_equal(strncmp(recording_script(r), lines.lines[0], strlen(lines.lines[0])), 0);
    test_lines_free(&lines);
    recording_free(r);
}

/* The demo box is taught as its owner would teach it: the profile is written, loads, is of
 * Expedition Luxor, has learnt every tile type from one image and the box's colours; a path
 * that cannot be written is an error with nothing left behind. */
static void test_recording_the_demo_profile_teaches(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "demo.yaml");
    char error[512] = "";
    vision_status status = recording_demo_profile(7, path, error, sizeof error);
    if (status != VISION_OK)
        fail_msg("recording_demo_profile: %s", error);
    static calibration_profile profile;
    assert_int_equal(calibration_profile_load(path, &profile, error, sizeof error), VISION_OK);
    assert_string_equal(profile.game, EL_GAME_ID);
    assert_int_equal(profile.el.images, 1);
    assert_int_equal(calibration_teach_missing_type(&profile), -1);
    assert_int_equal(profile.el.colour_count, EL_MAX_SEATS);
    assert_true(profile.el.piece_height_mm > 0);
    char *missing = test_path(folder, "no/such/folder/demo.yaml");
    assert_int_not_equal(recording_demo_profile(7, missing, error, sizeof error), VISION_OK);
    assert_null(strchr(error, '\n'));
    assert_int_equal(test_folder_entries(folder), 1);
    test_remove_tree(folder);
    free(missing);
    free(path);
    free(folder);
}

/* The demo table is one a tracker can watch: its empty table registers (all four markers where
 * the mat puts them), at the default size, for seeds whose first scene does not (1 and 6: a
 * glare by a marker) as for the others. */
static void test_recording_the_demo_table_registers(void **state)
{
    (void)state;
    static const uint64_t seeds[] = {1, 2, 6};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        recording *r = NULL;
        char error[512];
        assert_int_equal(recording_demo(seeds[i], 1280, 720, 10, &r, error, sizeof error),
                         VISION_OK);
        vision_image frame;
        draw(r, 0, &frame);
        vision_mat mat;
        vision_mat_default(&mat);
        vision_registration registration;
        vision_status status = vision_register(&frame, &mat, NULL, &registration, error,
                                               sizeof error);
        if (status != VISION_OK)
            fail_msg("demo %llu: %s", (unsigned long long)seeds[i], error);
        vision_image_free(&frame);
        recording_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recording_plays_the_script_table_by_table),
        cmocka_unit_test(test_recording_refuses_a_bad_script_in_one_line),
        cmocka_unit_test(test_recording_a_passing_shadow_touches_nothing),
        cmocka_unit_test(test_recording_the_gate_is_busy_while_a_shadow_passes),
        cmocka_unit_test(test_recording_a_random_game_follows_the_engine),
        cmocka_unit_test(test_recording_the_demo_profile_teaches),
        cmocka_unit_test(test_recording_the_demo_table_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
