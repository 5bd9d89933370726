/* Images through the OpenCV shim, and the markers sheet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "calibration.h"
#include "test_support.h"
#include "vision.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_vision_png_round_trip_is_exact(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "image.png");
    vision_image image;
    assert_int_equal(vision_image_new(37, 21, 3, &image), VISION_OK);
    for (int y = 0; y < image.height; y++)
        for (int x = 0; x < image.width; x++)
            for (int c = 0; c < 3; c++)
                image.pixels[y * image.stride + x * 3 + c] = (uint8_t)(x * 7 + y * 3 + c * 50);
    char error[256];
    assert_int_equal(vision_image_save(path, &image, error, sizeof error), VISION_OK);
    vision_image loaded;
    assert_int_equal(vision_image_load(path, &loaded, error, sizeof error), VISION_OK);
    assert_int_equal(loaded.width, 37);
    assert_int_equal(loaded.height, 21);
    assert_int_equal(loaded.channels, 3);
    for (int y = 0; y < image.height; y++)
        assert_memory_equal(loaded.pixels + y * loaded.stride, image.pixels + y * image.stride,
                            (size_t)image.width * 3);
    assert_int_equal(test_folder_entries(folder), 1); /* no temporary file left behind */
    vision_image_free(&image);
    vision_image_free(&loaded);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

static void test_vision_load_names_the_file_and_the_problem(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *missing = test_path(folder, "missing.png"), *text = test_path(folder, "notes.png");
    test_write_file(text, "not an image", 12);
    vision_image image;
    char error[256];
    assert_int_equal(vision_image_load(missing, &image, error, sizeof error), VISION_NOT_FOUND);
    assert_non_null(strstr(error, missing));
    assert_null(image.pixels);
    assert_int_equal(vision_image_load(text, &image, error, sizeof error), VISION_UNREADABLE);
    assert_non_null(strstr(error, text));
    char *no_extension = test_path(folder, "sheet");
    assert_int_equal(vision_image_new(4, 4, 1, &image), VISION_OK);
    assert_int_equal(vision_image_save(no_extension, &image, error, sizeof error),
                     VISION_BAD_INPUT);
    vision_image_free(&image);
    test_remove_tree(folder);
    free(missing);
    free(text);
    free(no_extension);
    free(folder);
}

static void test_vision_image_new_refuses_bad_sizes(void **state)
{
    (void)state;
    vision_image image;
    assert_int_equal(vision_image_new(0, 10, 3, &image), VISION_BAD_INPUT);
    assert_int_equal(vision_image_new(10, 10, 2, &image), VISION_BAD_INPUT);
    assert_null(image.pixels);
    vision_image_free(&image); /* freeing a failed image is harmless */
}

/* The marker's outer ring of modules is black and the sheet around it white: a detector needs
 * both (the quiet zone of DESIGN.md §3.3). */
static void test_calibration_sheet_has_four_markers_in_white_margins(void **state)
{
    (void)state;
    calibration_sheet_config config;
    calibration_sheet_config_default(&config);
    vision_image sheet;
    assert_int_equal(calibration_markers_sheet(&config, &sheet), VISION_OK);
    assert_int_equal(sheet.width, 2480); /* A4 at 300 dpi */
    assert_int_equal(sheet.height, 3508);
    int side = 472;                      /* 40 mm at 300 dpi */
    int module = side / 6;
    int black_borders = 0;
    /* Scan for the markers' top-left corners: a black pixel with white above and left. */
    for (int y = module; y < sheet.height - side; y++)
        for (int x = module; x < sheet.width - side; x++) {
            const uint8_t *p = sheet.pixels + y * sheet.stride + x;
            if (p[0] != 0 || p[-1] != 255 || p[-sheet.stride] != 255)
                continue;
            bool border = true;
            for (int i = 0; i < side && border; i++)
                border = p[i] == 0 && p[i * sheet.stride] == 0 &&
                         p[(side - 1) * sheet.stride + i] == 0 &&
                         p[i * sheet.stride + side - 1] == 0;
            bool quiet = true;
            for (int i = -module; i < side + module && quiet; i++)
                quiet = p[-module * sheet.stride + i] == 255 && p[i * sheet.stride - module] == 255;
            black_borders += border && quiet;
        }
    assert_int_equal(black_borders, 4);
    vision_image_free(&sheet);

    config.marker_mm = 95;
    assert_int_equal(calibration_markers_sheet(&config, &sheet), VISION_BAD_INPUT);
}

typedef struct game_script {
    char lines[400][128];
    int count;
} game_script;

static void keep_script_line(void *context, const char *line)
{
    game_script *script = context;
    if (script->count < 400)
        snprintf(script->lines[script->count++], sizeof script->lines[0], "%s", line);
}

/* The truth of a state is what the engine's own observation says, tile for tile, with the
 * whole stack besides: checked after every line of random 2- and 4-player games (the
 * expansion on, for the boat and the snakes). */
static void test_vision_truth_of_state_is_the_engines_observation(void **state)
{
    (void)state;
    game_script *script = malloc(sizeof *script);
    el_state *game = malloc(sizeof *game);
    vision_el_observation *truth = malloc(sizeof *truth);
    el_observation *seen = malloc(sizeof *seen);
    assert_non_null(script);
    assert_non_null(game);
    assert_non_null(truth);
    assert_non_null(seen);
    int lines_checked = 0, tokens_seen = 0;
    for (int players = 2; players <= 4; players += 2) {
        el_config config;
        el_config_default(&config);
        config.seats = players;
        config.expansion = true;
        assert_int_equal(el_init(game, &config, NULL), EL_OK);
        script->count = 0;
        assert_int_equal(el_random_game(game, 40 + (uint64_t)players, keep_script_line, script,
                                        NULL),
                         EL_OK);
        assert_int_equal(el_init(game, &config, NULL), EL_OK);
        for (int i = 0; i < script->count; i++) {
            assert_int_equal(el_play_line(game, script->lines[i], NULL, NULL), EL_OK);
            int adventurers = vision_el_truth_of_state(game, truth);
            el_observe(game, seen);
            assert_int_equal(truth->tile_count, seen->count);
            assert_int_equal(truth->colour_count, players);
            int on_table = 0;
            for (int t = 0; t < seen->count; t++) {
                const vision_el_tile *tile = &truth->tiles[t];
                assert_int_equal(tile->row, seen->tiles[t].row);
                assert_int_equal(tile->col, seen->tiles[t].col);
                assert_int_equal(tile->type, seen->tiles[t].type);
                assert_int_equal(tile->height, seen->tiles[t].height);
                assert_int_equal(tile->top, seen->tiles[t].top == EL_EMPTY ? VISION_NONE
                                                                           : seen->tiles[t].top);
                if (tile->top >= 0)
                    assert_string_equal(truth->colours[tile->top],
                                        config.colours[seen->tiles[t].top]);
                int token = seen->tiles[t].token;
                assert_int_equal(tile->token,
                                 token == EL_BOAT || token == EL_SNAKES ? token : EL_NO_TOKEN);
                tokens_seen += tile->token != EL_NO_TOKEN;
                assert_true(tile->stack_known);
                if (tile->height > 0)
                    assert_int_equal(tile->stack[tile->height - 1], tile->top);
                on_table += tile->height;
            }
            assert_int_equal(adventurers, on_table);
            lines_checked++;
        }
    }
    assert_true(lines_checked > 100);
    assert_true(tokens_seen > 0);
    free(script);
    free(game);
    free(truth);
    free(seen);
}

/* vision's reading as the rules take it: tops as seats, unsure fields unseen (an unsure type
 * too, on a tile still), a second height with a height kept, an unread type an unknown cell, a
 * colour of no seat refused. */
static void test_vision_el_to_rules_reads_seats_and_drops_unsure_fields(void **state)
{
    (void)state;
    vision_el_observation *seen = calloc(1, sizeof *seen);
    int black = vision_el_colour_index(seen, "black");
    seen->tiles[0] = (vision_el_tile){.row = 0, .col = 0, .type = EL_DESERT_CAMP, .top = black,
                                      .height = 2, .token = EL_NO_TOKEN,
                                      .confidence = {1, 0.9f, 0.3f, 1}};
    seen->tiles[1] = (vision_el_tile){.row = 0, .col = 1, .type = VISION_UNKNOWN,
                                      .top = VISION_NONE, .height = 0, .token = EL_NO_TOKEN,
                                      .confidence = {1, 1, 1, 1}};
    seen->tiles[2] = (vision_el_tile){.row = 1, .col = 0, .type = EL_LAKE, .top = VISION_NONE,
                                      .height = 0, .token = EL_BOAT, .confidence = {1, 1, 1, 0.8f}};
    seen->tile_count = 3;
    const char colours[2][EL_COLOUR_MAX] = {"orange", "black"};
    el_observation out;
    float confidence = 0;
    char error[160] = "";
    assert_int_equal(vision_el_to_rules(seen, colours, 2, 0.5f, &out, &confidence, error,
                                        sizeof error), VISION_OK);
    assert_int_equal(out.count, 2);
    assert_int_equal(out.tiles[0].top, 1); /* black is seat 1 */
    assert_int_equal(out.tiles[0].height, EL_UNSEEN);
    assert_int_equal(out.tiles[1].top, EL_EMPTY);
    assert_int_equal(out.tiles[1].token, EL_BOAT);
    assert_int_equal(out.unknown_count, 1);
    assert_int_equal(out.unknown[0].col, 1);
    assert_true(confidence > 0.79f && confidence < 0.81f);

    /* a height kept keeps the runner-up the recogniser could not rule out; one dropped does
     * not */
    seen->tiles[0].height_or = 3;
    assert_int_equal(vision_el_to_rules(seen, colours, 2, 0.5f, &out, NULL, error, sizeof error),
                     VISION_OK);
    assert_int_equal(out.tiles[0].height, EL_UNSEEN);
    assert_int_equal(out.tiles[0].height_or, 0);
    seen->tiles[0].confidence[VISION_EL_HEIGHT] = 0.6f;
    assert_int_equal(vision_el_to_rules(seen, colours, 2, 0.5f, &out, NULL, error, sizeof error),
                     VISION_OK);
    assert_int_equal(out.tiles[0].height, 2);
    assert_int_equal(out.tiles[0].height_or, 3);
    assert_int_equal(out.tiles[1].height_or, 0);

    /* a type read unsure: still a tile, of unseen type, its other fields as read */
    seen->tiles[2].confidence[VISION_EL_TYPE] = 0.3f;
    assert_int_equal(vision_el_to_rules(seen, colours, 2, 0.5f, &out, NULL, error, sizeof error),
                     VISION_OK);
    assert_int_equal(out.count, 2);
    assert_int_equal(out.unknown_count, 1);
    assert_int_equal(out.tiles[1].type, EL_UNSEEN);
    assert_int_equal(out.tiles[1].token, EL_BOAT);
    seen->tiles[2].confidence[VISION_EL_TYPE] = 1.0f;

    seen->tiles[0].top = vision_el_colour_index(seen, "red");
    assert_int_equal(vision_el_to_rules(seen, colours, 2, 0.5f, &out, NULL, error, sizeof error),
                     VISION_BAD_INPUT);
    assert_string_equal(error, "tiles[0] at 0,0: top 'red' is no seat's colour");
    assert_int_equal(out.count, 0);
    free(seen);
}

/* The read back counts a truth's fields where the truth puts them, its rows and columns from
 * its first, and tops by their colour's name (the two observations number colours apart). */
static void test_vision_el_read_back_counts_where_the_truth_puts_them(void **state)
{
    (void)state;
    vision_el_observation *truth = calloc(1, sizeof *truth);
    vision_el_observation *seen = calloc(1, sizeof *seen);
    int grey = vision_el_colour_index(truth, "grey");
    int black = vision_el_colour_index(truth, "black");
    truth->tiles[0] = (vision_el_tile){.row = 2, .col = 3, .type = EL_DESERT_CAMP, .top = grey,
                                       .height = 3};
    truth->tiles[1] = (vision_el_tile){.row = 2, .col = 4, .type = EL_OASIS_CAMP, .top = black,
                                       .height = 1};
    truth->tiles[2] = (vision_el_tile){.row = 3, .col = 3, .type = EL_LAKE, .top = VISION_NONE};
    truth->tile_count = 3;
    int seen_black = vision_el_colour_index(seen, "black"),
        seen_grey = vision_el_colour_index(seen, "grey");
    seen->tiles[0] = (vision_el_tile){.row = 0, .col = 0, .type = EL_DESERT_CAMP, .top = seen_grey,
                                      .height = 2};
    seen->tiles[1] = (vision_el_tile){.row = 0, .col = 1, .type = EL_DESERT_CAMP, .top = seen_black,
                                      .height = 1};
    seen->tiles[2] = (vision_el_tile){.row = 1, .col = 0, .type = EL_LAKE, .top = VISION_NONE};
    seen->tile_count = 3;
    vision_el_read_back read;
    vision_el_read_back_of(truth, seen, &read);
    assert_int_equal(read.types, 2);   /* the oasis camp read as a desert camp */
    assert_int_equal(read.stacks, 2);
    assert_int_equal(read.tops, 2);    /* grey and black by name */
    assert_int_equal(read.heights, 1); /* the grey three read as two */
    assert_int_equal(read.other_tops, 0);
    assert_int_equal(read.first_other, -1);

    /* the black top read grey: counted another colour only when the reading is sure of it */
    seen->tiles[1].top = seen_grey;
    vision_el_read_back_of(truth, seen, &read);
    assert_int_equal(read.tops, 1);
    assert_int_equal(read.other_tops, 0);
    seen->tiles[1].confidence[VISION_EL_TOP] = 0.5f;
    vision_el_read_back_of(truth, seen, &read);
    assert_int_equal(read.other_tops, 1);
    assert_int_equal(read.first_other, 1);
    assert_string_equal(read.first_other_read, "grey");
    seen->tiles[1].top = seen_black;

    /* one row off: nothing is where the truth puts it */
    for (int i = 0; i < seen->tile_count; i++)
        seen->tiles[i].row++;
    vision_el_read_back_of(truth, seen, &read);
    assert_int_equal(read.types, 0);
    assert_int_equal(read.tops + read.heights, 0);
    assert_int_equal(read.stacks, 2);
    free(truth);
    free(seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vision_png_round_trip_is_exact),
        cmocka_unit_test(test_vision_load_names_the_file_and_the_problem),
        cmocka_unit_test(test_vision_image_new_refuses_bad_sizes),
        cmocka_unit_test(test_calibration_sheet_has_four_markers_in_white_margins),
        cmocka_unit_test(test_vision_truth_of_state_is_the_engines_observation),
        cmocka_unit_test(test_vision_el_to_rules_reads_seats_and_drops_unsure_fields),
        cmocka_unit_test(test_vision_el_read_back_counts_where_the_truth_puts_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
