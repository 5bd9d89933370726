/* tablescribe calibrate teach: a box's tiles, pieces and tokens learnt from photos and their
 * truths, written into the profile. */
#include "cli.h"

#include "calibration.h"
#include "observation_json.h"
#include "vision.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PAIRS 16

/* Splits "a,b,c" into names (pointers into text, which is changed). */
static int split_colours(char *text, const char **names, int max)
{
    int count = 0;
    for (char *part = strtok(text, ","); part; part = strtok(NULL, ",")) {
        if (count == max)
            return -1;
        names[count++] = part;
    }
    return count;
}

static int print_layout(const cli_command *command, const char *colour_list, const char *out)
{
    const char *names[VISION_COLOURS_MAX];
    int count = EL_MAX_SEATS;
    /* The names are cut apart in a copy: the list belongs to the caller. */
    char *list = colour_list ? strdup(colour_list) : NULL;
    if (colour_list && !list) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    if (list) {
        count = split_colours(list, names, VISION_COLOURS_MAX);
        if (count < 1) {
            free(list);
            return cli_usage_error(command, "--colours: one to %d names separated by commas",
                                   VISION_COLOURS_MAX);
        }
    } else {
        /* The box's own colours, as the rules know them. */
        static el_config config;
        el_config_default(&config);
        for (int i = 0; i < EL_MAX_SEATS; i++)
            names[i] = config.colours[i];
    }
    vision_el_observation *layout = malloc(sizeof *layout);
    vision_status status =
        layout ? calibration_teach_layout(names, count, layout) : VISION_NOMEM;
    free(list);
    if (!layout) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    if (status != VISION_OK) {
        free(layout);
        return cli_usage_error(command, "--colours: names of 1 to %d letters, each once",
                               VISION_COLOUR_NAME_MAX - 1);
    }
    char *json = observation_el_format(layout, true, false);
    int code = EXIT_OK;
    if (!json) {
        cli_error(command, "out of memory");
        code = EXIT_FAILURE_OTHER;
    } else if (out) {
        FILE *file = fopen(out, "w");
        if (!file || fprintf(file, "%s\n", json) < 0 || fclose(file) != 0) {
            cli_error(command, "%s: cannot write the layout", out);
            code = EXIT_BAD_INPUT;
        }
    }
    if (code == EXIT_OK) {
        printf("Lay these 16 tiles in 4 rows of 4, edges touching, in the middle of the mat,\n"
               "the markers at its corners (tablescribe calibrate markers), and photograph the\n"
               "table from where the camera will watch the games:\n\n");
        for (int row = 0; row < 4; row++) {
            printf("  row %d:", row + 1);
            for (int col = 0; col < 4; col++) {
                const vision_el_tile *tile = &layout->tiles[row * 4 + col];
                char what[64];
                snprintf(what, sizeof what, "%s", el_tile_name((el_tile_type)tile->type));
                if (tile->height)
                    snprintf(what + strlen(what), sizeof what - strlen(what), " +%d %s",
                             tile->height, layout->colours[tile->top]);
                if (tile->token != EL_NO_TOKEN)
                    snprintf(what + strlen(what), sizeof what - strlen(what), " +%s",
                             el_token_name((el_token)tile->token));
                printf("%s %-22s", col ? "" : "", what);
            }
            printf("\n");
        }
        printf("\n(+N colour: a stack of N adventurers, that colour on top; +boat, +snakes: the\n"
               "token.) Then: tablescribe calibrate teach --image PHOTO --truth %s --profile P\n",
               out ? out : "LAYOUT.json (written by --out)");
        if (!out)
            printf("\n%s\n", json);
    }
    free(json);
    free(layout);
    return code;
}

/* Learns one pair into the profile; prints the reason naming the file on failure. */
static int learn_pair(const cli_command *command, calibration_profile *profile,
                      const char *image_path, const char *truth_path,
                      vision_el_observation *truth, vision_image *frame,
                      vision_registration *registration)
{
    char error[512];
    vision_status status = observation_el_load(truth_path, truth, error, sizeof error);
    if (status == VISION_OK)
        status = vision_image_load(image_path, frame, error, sizeof error);
    if (status != VISION_OK)
        return cli_vision_result(command, status, error);
    status = calibration_teach_image(profile, frame, truth, registration, error, sizeof error);
    if (status != VISION_OK) {
        vision_image_free(frame);
        cli_error(command, "%s: %s", image_path, status == VISION_NOMEM ? "out of memory" : error);
        return cli_vision_exit_code(status);
    }
    return EXIT_OK;
}

/* How much of the truth a recognition with the new model reads back. */
static void self_check(const vision_image *frame, const vision_registration *registration,
                       const calibration_profile *profile, const vision_el_observation *truth,
                       const char *image_path)
{
    vision_el_read_back read;
    char error[256];
    if (calibration_read_back(profile, frame, registration, truth, &read, error,
                              sizeof error) != VISION_OK) {
        printf("  %s: cannot be read back with what was learnt\n", image_path);
        return;
    }
    printf("  %s read back: %d of %d tile types, %d of %d tops, %d of %d heights\n", image_path,
           read.types, truth->tile_count, read.tops, read.stacks, read.heights, read.stacks);
}

int cli_calibrate_teach(const cli_command *command, int argc, char **argv)
{
    const char *images[MAX_PAIRS], *truths[MAX_PAIRS];
    int image_count = 0, truth_count = 0, learnt = 0;
    const char *profile_path = NULL, *game = EL_GAME_ID, *out = NULL, *colours = NULL;
    bool layout = false;
    const cli_option options[] = {
        {"image", CLI_OPTION_LIST, .list = images, .count = &image_count, .max = MAX_PAIRS,
         .expect = "images"},
        {"truth", CLI_OPTION_LIST, .list = truths, .count = &truth_count, .max = MAX_PAIRS,
         .expect = "images"},
        {"profile", CLI_OPTION_TEXT, .text = &profile_path},
        {"game", CLI_OPTION_TEXT, .text = &game},
        {"print-layout", CLI_OPTION_FLAG, .flag = &layout},
        {"colours", CLI_OPTION_TEXT, .text = &colours},
        {"out", CLI_OPTION_TEXT, .text = &out},
        {.name = NULL},
    };
    if (!cli_options_parse(command, "teach", options, true, argc, argv))
        return EXIT_BAD_INPUT;
    int code = cli_check_seeing_game(command, game);
    if (code != EXIT_OK)
        return code;
    if (layout)
        return print_layout(command, colours, out);
    if (image_count == 0 || image_count != truth_count)
        return cli_usage_error(command, "teach: give each --image its --truth (%d images, %d "
                                        "truths)",
                               image_count, truth_count);
    if (!profile_path)
        return cli_usage_error(command, "teach: --profile P is required (the file to write)");

    calibration_profile *profile = malloc(sizeof *profile);
    vision_el_observation *truth = malloc(sizeof *truth);
    vision_image *frames = calloc((size_t)image_count, sizeof *frames);
    vision_registration *registrations = calloc((size_t)image_count, sizeof *registrations);
    vision_el_observation *truth_copies = calloc((size_t)image_count, sizeof *truth_copies);
    if (!profile || !truth || !frames || !registrations || !truth_copies) {
        cli_error(command, "out of memory");
        code = EXIT_FAILURE_OTHER;
        goto done;
    }
    /* A profile that exists keeps its camera and mat (calibrate camera, calibrate table); what
     * it had learnt of a box is replaced. */
    code = EXIT_OK;
    if (access(profile_path, F_OK) == 0)
        code = cli_profile_load(command, profile_path, game, false, profile);
    else
        calibration_profile_init(profile, game);
    if (code != EXIT_OK)
        goto done;
    vision_el_model_init(&profile->el);
    for (; learnt < image_count && code == EXIT_OK; learnt++) {
        code = learn_pair(command, profile, images[learnt], truths[learnt], truth,
                          &frames[learnt], &registrations[learnt]);
        truth_copies[learnt] = *truth;
    }
    if (code != EXIT_OK) {
        learnt--;
        goto done;
    }
    int missing = calibration_teach_missing_type(profile);
    if (missing >= 0) {
        code = cli_usage_error(command,
                               "teach: no %s tile without pieces in the images: every type "
                               "needs one (tablescribe calibrate teach --print-layout)",
                               el_tile_name((el_tile_type)missing));
        goto done;
    }
    char error[512];
    vision_status status = calibration_profile_save(profile_path, profile, error, sizeof error);
    code = cli_vision_result(command, status, error);
    if (code != EXIT_OK)
        goto done;
    printf("Taught %s from %d image%s into %s:\n", game, image_count, image_count > 1 ? "s" : "",
           profile_path);
    printf("  adventurers %.1f mm across, %.1f mm tall (the game's height); colours",
           profile->el.piece_diameter_mm, profile->el.piece_height_mm);
    for (int i = 0; i < profile->el.colour_count; i++)
        printf("%s %s", i ? "," : "", profile->el.colours[i]);
    printf("; tokens:%s%s\n", profile->el.token_samples[EL_BOAT] ? " boat" : "",
           profile->el.token_samples[EL_SNAKES] ? " snakes" : "");
    bool measured = false;
    for (int i = 0; i < image_count; i++)
        measured |= registrations[i].focal_source == VISION_FOCAL_MARKERS;
    if (profile->camera.known)
        printf("  the camera calibrated: focal length %.0f px\n", profile->camera.fx);
    else if (measured)
        printf("  focal length %.0f px at %d x %d, measured from the markers: kept for frames "
               "that look straight down\n",
               profile->camera.fx, profile->camera.width, profile->camera.height);
    else if (profile->camera.fx > 0)
        printf("  focal length %.0f px at %d x %d, kept from before (these photos look too "
               "straight down to measure it)\n",
               profile->camera.fx, profile->camera.width, profile->camera.height);
    else
        printf("  focal length not measured (the photos look too straight down to measure it): "
               "heights are read against an assumed 78 degree field of view; a teaching photo "
               "a little tilted, or `calibrate camera`, measures it\n");
    for (int i = 0; i < image_count; i++)
        self_check(&frames[i], &registrations[i], profile, &truth_copies[i], images[i]);
done:
    for (int i = 0; frames && i < learnt && i < image_count; i++)
        vision_image_free(&frames[i]);
    free(frames);
    free(registrations);
    free(truth_copies);
    free(truth);
    free(profile);
    return code;
}
