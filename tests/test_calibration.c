/* The profile file (round trip, refusals, damaged files) and the camera calibration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "calibration.h"
#include "cv_shim_geometry.h"
#include "test_support.h"
#include "vision.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t random_state = 0x9e3779b97f4a7c15ull;
static uint32_t random_next(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 7;
    random_state ^= random_state << 17;
    return (uint32_t)(random_state >> 11);
}
static float random_float(float low, float high)
{
    return low + (high - low) * (float)(random_next() % 1000003) / 1000003.0f;
}

/* A profile with every field set to something distinctive. */
static void full_profile(calibration_profile *profile)
{
    calibration_profile_init(profile, "expedition-luxor");
    profile->camera = (vision_camera){.known = 1, .width = 1920, .height = 1080,
                                      .fx = 1402.123456789012, .fy = 1399.5, .cx = 961.25,
                                      .cy = 538.0625,
                                      .distortion = {-0.1234567890123, 0.05, 1e-4, -2e-4, 0.001}};
    profile->mat = (vision_mat){.marker_mm = 45, .width_mm = 612.5, .height_mm = 587.25,
                                .tile_mm = 41.5};
    vision_el_model *el = &profile->el;
    el->images = 3;
    el->piece_diameter_mm = 14.25;
    el->piece_height_mm = 17.125;
    el->art_span = 0.875;
    for (int c = 0; c < 3; c++)
        el->mat_colour[c] = random_float(-0.2f, 1.2f);
    for (int t = 0; t < EL_TILE_TYPES; t++) {
        el->type_samples[t] = (int)(random_next() % 50);
        for (int y = 0; y < VISION_EL_PATCH; y++)
            for (int x = 0; x < VISION_EL_PATCH; x++)
                for (int c = 0; c < 3; c++)
                    el->type_art[t][y][x][c] = random_float(-0.1f, 1.1f);
    }
    static const char *const names[] = {"red", "dark blue", "123", "yes", "#fff", "o'neil"};
    el->colour_count = 6;
    for (int i = 0; i < el->colour_count; i++) {
        snprintf(el->colours[i], sizeof el->colours[i], "%s", names[i]);
        el->colour_samples[i] = 10 + i;
        for (int c = 0; c < 3; c++) {
            el->colour_mean[i][c] = random_float(0, 1);
            el->colour_spread[i][c] = random_float(0.01f, 0.2f);
        }
    }
    for (int k = 0; k < EL_TOKEN_TYPES; k++) {
        el->token_samples[k] = k;
        for (int c = 0; c < 3; c++) {
            el->token_mean[k][c] = random_float(0, 1);
            el->token_spread[k][c] = random_float(0.01f, 0.3f);
        }
        for (int j = 0; j < VISION_EL_TOKEN_PALETTE; j++) {
            el->token_palette_share[k][j] = random_float(0, 1);
            for (int c = 0; c < 3; c++)
                el->token_palette[k][j][c] = random_float(0, 1);
        }
    }
}

static void test_calibration_profile_init_is_the_defaults(void **state)
{
    (void)state;
    calibration_profile profile;
    memset(&profile, 0x5a, sizeof profile);
    calibration_profile_init(&profile, "luxor");
    assert_int_equal(profile.format, CALIBRATION_PROFILE_FORMAT);
    assert_string_equal(profile.game, "luxor");
    assert_int_equal(profile.camera.known, 0);
    vision_mat mat;
    vision_mat_default(&mat);
    assert_memory_equal(&profile.mat, &mat, sizeof mat);
    assert_int_equal(profile.el.images, 0);
    assert_int_equal(profile.el.colour_count, 0);
}

/* A profile with every field set, saved at path: *written as saved, *read allocated for the
 * test to load into; the test frees both. */
static void save_full_profile(const char *path, calibration_profile **written,
                              calibration_profile **read)
{
    *written = malloc(sizeof **written);
    *read = malloc(sizeof **read);
    assert_non_null(*written);
    assert_non_null(*read);
    memset(*written, 0, sizeof **written);
    full_profile(*written);
    char error[512] = "";
    if (calibration_profile_save(path, *written, error, sizeof error) != VISION_OK)
        fail_msg("%s", error);
}

static void test_calibration_profile_round_trip_is_exact(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "table.yml");
    calibration_profile *written, *read;
    save_full_profile(path, &written, &read);
    char error[512] = "";
    memset(read, 0x77, sizeof *read);
    vision_status status = calibration_profile_load(path, read, error, sizeof error);
    if (status != VISION_OK)
        fail_msg("%s", error);
    assert_memory_equal(&read->camera, &written->camera, sizeof written->camera);
    assert_memory_equal(&read->mat, &written->mat, sizeof written->mat);
    assert_memory_equal(&read->el, &written->el, sizeof written->el);
    assert_string_equal(read->game, written->game);
    assert_int_equal(read->format, CALIBRATION_PROFILE_FORMAT);
    assert_int_equal(test_folder_entries(folder), 1); /* no temporary file left behind */

    /* A fresh profile too, and saving over an existing file. */
    calibration_profile_init(written, "odysseeland");
    assert_int_equal(calibration_profile_save(path, written, error, sizeof error), VISION_OK);
    assert_int_equal(calibration_profile_load(path, read, error, sizeof error), VISION_OK);
    assert_string_equal(read->game, "odysseeland"); /* any game: the commands check it */
    assert_int_equal(read->el.colour_count, 0);
    assert_memory_equal(&read->mat, &written->mat, sizeof written->mat);
    size_t size;
    char *text = test_read_file(path, &size);
    assert_non_null(strstr(text, "format: 3"));
    assert_non_null(strstr(text, "marker_mm"));
    free(text);
    assert_int_equal(test_folder_entries(folder), 1);
    free(written);
    free(read);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

/* A full profile saved at path as an older format writes it (format 1 or 2: no art_span, and
 * that format's number), *written as saved, loaded into *read; the test frees both. */
static void load_older_format(const char *path, int format, calibration_profile **written,
                              calibration_profile **read)
{
    save_full_profile(path, written, read);
    size_t size;
    char *text = test_read_file(path, &size);
    char *at = strstr(text, "format: 3");
    assert_non_null(at);
    at[strlen("format: ")] = (char)('0' + format);
    char *line = strstr(text, "art_span:"), *end = line ? strchr(line, '\n') : NULL;
    assert_non_null(end);
    while (line > text && line[-1] == ' ') /* the whole line, its indent too */
        line--;
    memmove(line, end + 1, size - (size_t)(end + 1 - text) + 1);
    test_write_file(path, text, strlen(text));
    free(text);
    char error[512] = "";
    if (calibration_profile_load(path, *read, error, sizeof error) != VISION_OK)
        fail_msg("%s", error);
    assert_int_equal((*read)->format, CALIBRATION_PROFILE_FORMAT);
}

/* Saves profile at path and loads it back into again: written as the format of today. */
static void save_again(const char *path, const calibration_profile *profile,
                       calibration_profile *again)
{
    char error[512] = "";
    assert_int_equal(calibration_profile_save(path, profile, error, sizeof error), VISION_OK);
    size_t size;
    char *text = test_read_file(path, &size);
    assert_non_null(strstr(text, "format: 3"));
    assert_non_null(strstr(text, "art_span:"));
    free(text);
    assert_int_equal(calibration_profile_load(path, again, error, sizeof error), VISION_OK);
}

/* A profile of format 2 (before art_span) is still read: its tiles' art was learnt over 0.84
 * of a tile's side, and is read so; any save writes it as the format of today. */
static void test_calibration_profile_reads_format_2(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "old.yml");
    calibration_profile *written, *read;
    load_older_format(path, 2, &written, &read);
    assert_true(read->el.art_span == 0.84);
    assert_memory_equal(read->el.type_art, written->el.type_art, sizeof written->el.type_art);
    assert_memory_equal(read->el.token_palette, written->el.token_palette,
                        sizeof written->el.token_palette);
    save_again(path, read, written);
    assert_true(written->el.art_span == 0.84);
    free(written);
    free(read);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

/* A profile of format 1 (before the tokens' palettes) is still read: its palettes are empty,
 * its art read over 0.84 of a tile as format 2's, and any save writes it as the format of
 * today. */
static void test_calibration_profile_reads_format_1(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "old.yml");
    calibration_profile *written, *read;
    load_older_format(path, 1, &written, &read);
    assert_true(read->el.art_span == 0.84);
    assert_memory_equal(read->el.token_mean, written->el.token_mean, sizeof written->el.token_mean);
    for (int k = 0; k < EL_TOKEN_TYPES; k++)
        for (int j = 0; j < VISION_EL_TOKEN_PALETTE; j++)
            assert_true(read->el.token_palette_share[k][j] == 0.0f);
    save_again(path, read, written);
    free(written);
    free(read);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

/* Saves a default profile, replaces the first occurrence of from with to in its text, and
 * expects load to refuse it with a message naming the file and holding needle. */
static void expect_refused_edit(const char *folder, const char *from, const char *to,
                                const char *needle)
{
    char *path = test_path(folder, "edited.yml");
    calibration_profile profile, before;
    calibration_profile_init(&profile, "expedition-luxor");
    char error[512] = "";
    assert_int_equal(calibration_profile_save(path, &profile, error, sizeof error), VISION_OK);
    size_t size;
    char *text = test_read_file(path, &size);
    char *at = strstr(text, from);
    if (!at)
        fail_msg("'%s' is not in the profile", from);
    size_t edited_size = size - strlen(from) + strlen(to);
    char *edited = malloc(edited_size + 1);
    memcpy(edited, text, (size_t)(at - text));
    memcpy(edited + (at - text), to, strlen(to));
    memcpy(edited + (at - text) + strlen(to), at + strlen(from),
           size - (size_t)(at - text) - strlen(from));
    test_write_file(path, edited, edited_size);
    memset(&profile, 0x3c, sizeof profile);
    before = profile;
    vision_status status = calibration_profile_load(path, &profile, error, sizeof error);
    printf("refused: %s\n", error);
    assert_int_equal(status, VISION_BAD_INPUT);
    assert_non_null(strstr(error, path));
    assert_non_null(strstr(error, needle));
    assert_null(strchr(error, '\n'));
    assert_memory_equal(&profile, &before, sizeof before);
    free(edited);
    free(text);
    free(path);
}

static void test_calibration_profile_load_refuses_with_one_clear_line(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    expect_refused_edit(folder, "format: 3", "format: 4",
                        "written by a newer tablescribe (format 4); this one reads format 3");
    expect_refused_edit(folder, "format: 3", "format: 0", "not a profile");
    expect_refused_edit(folder, "format: 3", "formats: 3", "not a profile (no format number");
    expect_refused_edit(folder, "art_span: 9.", "art_span: 1.", "expedition_luxor/art_span");
    expect_refused_edit(folder, "art_span:", "art_spans:", "expedition_luxor/art_span: missing");
    expect_refused_edit(folder, "marker_mm: 40.", "marker_mm: -40.", "mat/marker_mm");
    expect_refused_edit(folder, "tile_mm: 40.", "tile_mm: .nan", "mat/tile_mm");
    expect_refused_edit(folder, "known: 0", "known: 7", "camera/known");
    expect_refused_edit(folder, "width_mm:", "widths_mm:", "mat/width_mm: missing");
    expect_refused_edit(folder, "cols: 5", "cols: 4", "camera/distortion");
    expect_refused_edit(folder, "images: 0", "images: many", "expedition_luxor/images");
    expect_refused_edit(folder, "token_palette:", "token_palettes:",
                        "expedition_luxor/token_palette: missing");
    expect_refused_edit(folder, "game: expedition-luxor", "game: \"Expedition Luxor!\"", "game");

    char *path = test_path(folder, "profile.yml");
    calibration_profile profile;
    char error[512];
    assert_int_equal(calibration_profile_load(path, &profile, error, sizeof error),
                     VISION_NOT_FOUND);
    assert_non_null(strstr(error, path));
    test_write_file(path, "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    assert_int_equal(calibration_profile_load(path, &profile, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, "not a profile"));
    test_write_file(path, "hello: [unclosed", 16);
    assert_int_equal(calibration_profile_load(path, &profile, error, sizeof error),
                     VISION_BAD_INPUT);
    printf("refused: %s\n", error);
    assert_non_null(strstr(error, "not a profile"));
    test_write_file(path, "", 0);
    assert_int_equal(calibration_profile_load(path, &profile, error, sizeof error),
                     VISION_BAD_INPUT);

    /* Saving refuses what loading would, and a missing folder is named. */
    calibration_profile_init(&profile, "expedition-luxor");
    profile.mat.width_mm = 0;
    assert_int_equal(calibration_profile_save(path, &profile, error, sizeof error),
                     VISION_BAD_INPUT);
    calibration_profile_init(&profile, "expedition-luxor");
    char *nowhere = test_path(folder, "no/such/profile.yml");
    assert_int_equal(calibration_profile_save(nowhere, &profile, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_non_null(strstr(error, nowhere));
    free(nowhere);
    free(path);
    test_remove_tree(folder);
    free(folder);
}

static void test_calibration_profile_load_survives_damaged_files(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "profile.yml"), *damaged_path = test_path(folder, "damaged.yml");
    calibration_profile *profile = malloc(sizeof *profile);
    assert_non_null(profile);
    memset(profile, 0, sizeof *profile);
    full_profile(profile);
    /* A smaller model keeps each parse quick: the art of one tile type. */
    memset(profile->el.type_art[1], 0, sizeof profile->el.type_art - sizeof profile->el.type_art[0]);
    char error[512];
    assert_int_equal(calibration_profile_save(path, profile, error, sizeof error), VISION_OK);
    size_t size;
    char *text = test_read_file(path, &size);
    char *damaged = malloc(size + 1);
    int loaded = 0, refused = 0;
    for (int round = 0; round < 300; round++) {
        memcpy(damaged, text, size);
        size_t damaged_size = size;
        int kind = (int)(random_next() % 4);
        if (kind == 0) { /* truncated */
            damaged_size = random_next() % size;
        } else {
            int flips = 1 + (int)(random_next() % 8);
            for (int f = 0; f < flips; f++) {
                /* Most damage near the top, where the small values live. */
                size_t at = kind == 1 ? random_next() % (size < 900 ? size : 900)
                                      : random_next() % size;
                if (kind == 3)
                    damaged[at] = "0123456789-.e:[]{}\" \n"[random_next() % 21];
                else
                    damaged[at] ^= (char)(1u << (random_next() % 8));
            }
        }
        test_write_file(damaged_path, damaged, damaged_size);
        memset(profile, 0x11, sizeof *profile);
        vision_status status = calibration_profile_load(damaged_path, profile, error, sizeof error);
        if (status == VISION_OK) {
            loaded++;
            /* What loads is in range: it saves again. */
            assert_int_equal(calibration_profile_save(damaged_path, profile, error, sizeof error),
                             VISION_OK);
        } else {
            refused++;
            assert_int_equal(status, VISION_BAD_INPUT);
            assert_non_null(strstr(error, damaged_path));
            assert_null(strchr(error, '\n'));
            for (size_t i = 0; i < sizeof *profile; i++)
                assert_int_equal(((unsigned char *)profile)[i], 0x11);
        }
    }
    printf("damaged profiles: %d loaded, %d refused\n", loaded, refused);
    assert_true(refused > 100);
    free(damaged);
    free(text);
    free(profile);
    free(path);
    free(damaged_path);
    test_remove_tree(folder);
    free(folder);
}

/* A focal length the markers measured is kept as the hint; nothing else is. */
static void test_calibration_keep_focal_only_what_the_markers_measured(void **state)
{
    (void)state;
    vision_registration seen;
    memset(&seen, 0, sizeof seen);
    seen.focal_px = 1234.5;
    seen.focal_source = VISION_FOCAL_MARKERS;
    seen.image_width = 1920;
    seen.image_height = 1080;
    vision_camera camera;
    memset(&camera, 0, sizeof camera);
    calibration_keep_focal(&camera, &seen);
    assert_int_equal(camera.known, 0);
    assert_true(camera.fx == 1234.5 && camera.fy == 1234.5);
    assert_int_equal(camera.width, 1920);
    assert_int_equal(camera.height, 1080);

    /* A focal length assumed or taken from the hint is not measured: the hint stays. */
    static const vision_focal_source not_measured[] = {VISION_FOCAL_DEFAULT, VISION_FOCAL_HINT,
                                                       VISION_FOCAL_CALIBRATED};
    for (size_t i = 0; i < sizeof not_measured / sizeof not_measured[0]; i++) {
        seen.focal_source = not_measured[i];
        seen.focal_px = 999.0;
        seen.image_width = 640;
        calibration_keep_focal(&camera, &seen);
        assert_true(camera.fx == 1234.5);
        assert_int_equal(camera.width, 1920);
    }

    /* A later measure replaces the hint, with its image's size. */
    seen.focal_source = VISION_FOCAL_MARKERS;
    seen.focal_px = 600.25;
    seen.image_width = 960;
    seen.image_height = 540;
    calibration_keep_focal(&camera, &seen);
    assert_true(camera.fx == 600.25 && camera.fy == 600.25);
    assert_int_equal(camera.width, 960);
    assert_int_equal(camera.height, 540);

    /* A calibrated camera keeps its own. */
    calibration_profile *profile = malloc(sizeof *profile);
    assert_non_null(profile);
    full_profile(profile);
    vision_camera calibrated = profile->camera;
    calibration_keep_focal(&profile->camera, &seen);
    assert_memory_equal(&profile->camera, &calibrated, sizeof calibrated);
    free(profile);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibration_profile_init_is_the_defaults),
        cmocka_unit_test(test_calibration_profile_round_trip_is_exact),
        cmocka_unit_test(test_calibration_profile_reads_format_2),
        cmocka_unit_test(test_calibration_profile_reads_format_1),
        cmocka_unit_test(test_calibration_profile_load_refuses_with_one_clear_line),
        cmocka_unit_test(test_calibration_profile_load_survives_damaged_files),
        cmocka_unit_test(test_calibration_keep_focal_only_what_the_markers_measured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
