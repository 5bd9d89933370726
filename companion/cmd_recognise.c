/* tablescribe recognise: still images to observations. */
#include "cli.h"

#include "calibration.h"
#include "observation_json.h"
#include "vision.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads one image and its observation into *json (malloc'd). Returns an exit code; on failure
 * the reason is printed, naming the image. */
static int recognise_one(const cli_command *command, const calibration_profile *profile,
                         const char *path, bool several, bool timing, char **json)
{
    char error[512];
    vision_image frame;
    vision_status status = vision_image_load(path, &frame, error, sizeof error);
    if (status != VISION_OK) {
        cli_error(command, "%s", error);
        return cli_vision_exit_code(status);
    }
    vision_registration registration;
    status = vision_register(&frame, &profile->mat, &profile->camera, &registration, error,
                             sizeof error);
    if (status != VISION_OK) {
        vision_image_free(&frame);
        cli_error(command, "%s: %s", path, error);
        return cli_vision_exit_code(status);
    }
    vision_el_observation *seen = malloc(sizeof *seen);
    vision_el_timing stages;
    status = seen ? vision_el_recognise(&frame, &registration, &profile->mat, &profile->el, seen,
                                        &stages, error, sizeof error)
                  : VISION_NOMEM;
    vision_image_free(&frame);
    if (status != VISION_OK) {
        free(seen);
        cli_error(command, "%s: %s", path, status == VISION_NOMEM ? "out of memory" : error);
        return cli_vision_exit_code(status);
    }
    if (timing) {
        fprintf(stderr,
                "%s: rectify %.1f ms, grid %.1f ms, types %.1f ms, stacks %.1f ms, total %.1f ms",
                path, stages.rectify_ms, stages.grid_ms, stages.types_ms, stages.stacks_ms,
                stages.total_ms);
        if (stages.glare_peak > 0.0)
            fprintf(stderr, " (a glare taken off, %.2f white at its middle: the tiles it reached "
                            "read twice)",
                    stages.glare_peak);
        fputc('\n', stderr);
    }
    char *text = observation_el_format(seen, !several, true);
    free(seen);
    if (!text) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    if (several) {
        /* One object a line, each naming its image (readers ignore members they do not know). */
        size_t length = strlen(text) + strlen(path) * 2 + 32;
        char *named = malloc(length);
        if (named) {
            json_t *name = json_string(path);
            char *quoted = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
            json_decref(name);
            snprintf(named, length, "{\"image\":%s,%s", quoted ? quoted : "null", text + 1);
            free(quoted);
        }
        free(text);
        text = named;
        if (!text) {
            cli_error(command, "out of memory");
            return EXIT_FAILURE_OTHER;
        }
    }
    *json = text;
    return EXIT_OK;
}

int cli_recognise(const cli_command *command, int argc, char **argv)
{
    enum { OPTION_GAME = 1, OPTION_PROFILE, OPTION_TIMING };
    static const struct option options[] = {
        {"game", required_argument, NULL, OPTION_GAME},
        {"profile", required_argument, NULL, OPTION_PROFILE},
        {"timing", no_argument, NULL, OPTION_TIMING},
        {NULL, 0, NULL, 0},
    };
    const char *game = NULL, *profile_path = NULL;
    bool timing = false;
    opterr = 0;
    optind = 1;
    int option;
    while ((option = getopt_long(argc, argv, "+:", options, NULL)) != -1) {
        switch (option) {
        case OPTION_GAME:
            game = optarg;
            break;
        case OPTION_PROFILE:
            profile_path = optarg;
            break;
        case OPTION_TIMING:
            timing = true;
            break;
        case ':':
            return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error(command, "unknown option %s", argv[optind - 1]);
        }
    }
    if (!game)
        return cli_usage_error(command, "--game G is required (expedition-luxor)");
    if (!profile_path)
        return cli_usage_error(command, "--profile P is required (made by tablescribe calibrate teach)");
    if (optind >= argc)
        return cli_usage_error(command, "which images? (tablescribe recognise --game G --profile P IMAGE...)");
    int code = cli_check_seeing_game(command, game);
    if (code != EXIT_OK)
        return code;
    calibration_profile *profile = malloc(sizeof *profile);
    if (!profile) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    code = cli_profile_load(command, profile_path, game, true, profile);
    int count = argc - optind;
    char **outputs = calloc((size_t)count, sizeof *outputs);
    if (code == EXIT_OK && !outputs) {
        cli_error(command, "out of memory");
        code = EXIT_FAILURE_OTHER;
    }
    /* Every image is read before anything is printed: a bad one leaves no partial output. */
    for (int i = 0; code == EXIT_OK && i < count; i++)
        code = recognise_one(command, profile, argv[optind + i], count > 1, timing, &outputs[i]);
    for (int i = 0; code == EXIT_OK && i < count; i++)
        printf("%s\n", outputs[i]);
    for (int i = 0; outputs && i < count; i++)
        free(outputs[i]);
    free(outputs);
    free(profile);
    return code;
}
