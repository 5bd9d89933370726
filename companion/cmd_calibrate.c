/* tablescribe calibrate: the markers sheet now; camera, table and teach land with issue 7. */
#include "cli.h"

#include "calibration.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static int markers(const cli_command *command, int argc, char **argv)
{
    static const struct option options[] = {
        {"out", required_argument, NULL, 'o'},
        {"marker-mm", required_argument, NULL, 'm'},
        {"dpi", required_argument, NULL, 'd'},
        {NULL, 0, NULL, 0},
    };
    calibration_sheet_config config;
    calibration_sheet_config_default(&config);
    const char *out = NULL;
    opterr = 0;
    optind = 1;
    int option;
    double number;
    while ((option = getopt_long(argc, argv, "+", options, NULL)) != -1) {
        switch (option) {
        case 'o':
            out = optarg;
            break;
        case 'm':
            if (!cli_parse_number(optarg, 10, 90, false, &number))
                return cli_usage_error(command, "--marker-mm %s: a side from 10 to 90 mm", optarg);
            config.marker_mm = number;
            break;
        case 'd':
            if (!cli_parse_number(optarg, 72, 1200, true, &number))
                return cli_usage_error(command, "--dpi %s: a whole number from 72 to 1200", optarg);
            config.dpi = (int)number;
            break;
        case ':':
            return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error(command, "markers: unknown option %s", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error(command, "markers: unexpected argument '%s'", argv[optind]);
    if (!out)
        return cli_usage_error(command, "markers: --out FILE is required (a .png file)");
    const char *extension = strrchr(out, '.');
    if (!extension || strcmp(extension, ".png") != 0)
        return cli_usage_error(command, "%s: the sheet is written as PNG; name it .png", out);

    vision_image sheet;
    vision_status status = calibration_markers_sheet(&config, &sheet);
    char error[512] = "";
    if (status == VISION_OK)
        status = vision_image_save(out, &sheet, error, sizeof error);
    else
        snprintf(error, sizeof error, "cannot draw the sheet: %s", vision_status_message(status));
    vision_image_free(&sheet);
    if (status != VISION_OK) {
        cli_error(command, "%s", error);
        return status == VISION_BAD_INPUT || status == VISION_NOT_FOUND ? EXIT_BAD_INPUT
                                                                          : EXIT_FAILURE_OTHER;
    }
    printf("Wrote %s: four markers of %.0f mm on an A4 page at %d dpi. Print at 100%% scale,\n"
           "check the 100 mm ruler, and lay id 0 at the top-left corner of the play area,\n"
           "then clockwise 1, 2, 3.\n",
           out, config.marker_mm, config.dpi);
    return EXIT_OK;
}

int cli_calibrate(const cli_command *command, int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(command, "which step? markers, camera, table or teach "
                                        "(try tablescribe calibrate --help)");
    const char *step = argv[1];
    if (strcmp(step, "markers") == 0)
        return markers(command, argc - 1, argv + 1);
    if (strcmp(step, "camera") == 0 || strcmp(step, "table") == 0 || strcmp(step, "teach") == 0) {
        cli_error(command, "%s: not available yet: it lands with issue 7 (seeing Expedition Luxor)",
                  step);
        return EXIT_FAILURE_OTHER;
    }
    return cli_usage_error(command, "'%s' is not a step: markers, camera, table or teach", step);
}
