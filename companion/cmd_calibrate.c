/* tablescribe calibrate: the markers sheet, the camera (a ChArUco board), the table (the mat
 * checked on a photo); teach is in cmd_teach.c. */
#include "cli.h"

#include "calibration.h"
#include "rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- calibrate markers, and the board of calibrate camera: sheets to print ---- */

/* --dpi, the same for the markers sheet and the camera's board. */
static cli_option dpi_option(int *dpi)
{
    return (cli_option){"dpi", CLI_OPTION_WHOLE, .whole = dpi, .low = 72, .high = 1200,
                        .expect = "a whole number from 72 to 1200"};
}

/* Draws one of the sheets calibrate prints, the markers (markers) or the camera's board (board,
 * when markers is NULL), and writes it to out, which must be named .png. Returns EXIT_OK, or
 * prints one line and returns the exit status. */
static int sheet_write(const cli_command *command, const char *out,
                       const calibration_sheet_config *markers,
                       const calibration_board_config *board)
{
    const char *sheet_name = markers ? "sheet" : "board";
    const char *extension = strrchr(out, '.');
    if (!extension || strcmp(extension, ".png") != 0)
        return cli_usage_error(command, "%s: the %s is written as PNG; name it .png", out,
                               sheet_name);
    vision_image sheet;
    vision_status status = markers ? calibration_markers_sheet(markers, &sheet)
                                   : calibration_board_sheet(board, &sheet);
    char error[512] = "";
    if (status == VISION_OK)
        status = vision_image_save(out, &sheet, error, sizeof error);
    else
        snprintf(error, sizeof error, "cannot draw the %s: %s", sheet_name,
                 vision_status_message(status));
    vision_image_free(&sheet);
    return cli_vision_result(command, status, error);
}

static int markers(const cli_command *command, int argc, char **argv)
{
    calibration_sheet_config config;
    calibration_sheet_config_default(&config);
    const char *out = NULL;
    const cli_option options[] = {
        {"out", CLI_OPTION_TEXT, .text = &out,
         .required = "--out FILE is required (a .png file)"},
        {"marker-mm", CLI_OPTION_NUMBER, .number = &config.marker_mm, .low = 10, .high = 90,
         .expect = "a side from 10 to 90 mm"},
        dpi_option(&config.dpi),
        {.name = NULL},
    };
    if (!cli_options_parse(command, "markers", options, false, argc, argv))
        return EXIT_BAD_INPUT;
    int code = sheet_write(command, out, &config, NULL);
    if (code != EXIT_OK)
        return code;
    printf("Wrote %s: four markers of %.0f mm on an A4 page at %d dpi. Print at 100%% scale,\n"
           "check the 100 mm ruler, and lay id 0 at the top-left corner of the play area,\n"
           "then clockwise 1, 2, 3.\n",
           out, config.marker_mm, config.dpi);
    return EXIT_OK;
}

/* ---- the profile the camera and table steps update ---- */

#define DEFAULT_GAME EL_GAME_ID

/* Loads the profile at path, or starts one for game (default expedition-luxor) when there is
 * none yet. Returns EXIT_OK, or prints one line and returns the exit status. */
static int profile_open(const cli_command *command, const char *path, const char *game,
                        calibration_profile *profile)
{
    char error[512] = "";
    vision_status status = calibration_profile_load(path, profile, error, sizeof error);
    if (status == VISION_OK) {
        if (game && strcmp(game, profile->game) != 0)
            return cli_usage_error(command, "%s: a profile of %s, not %s", path, profile->game,
                                   game);
        return EXIT_OK;
    }
    if (status != VISION_NOT_FOUND)
        return cli_vision_result(command, status, error);
    if (!game)
        game = DEFAULT_GAME;
    if (!rules_game_find(game))
        return cli_usage_error(command, "'%s' is not a game (tablescribe --help lists them)",
                               game);
    calibration_profile_init(profile, game);
    return EXIT_OK;
}

static int profile_write(const cli_command *command, const char *path,
                         const calibration_profile *profile)
{
    char error[512] = "";
    vision_status status = calibration_profile_save(path, profile, error, sizeof error);
    return cli_vision_result(command, status, error);
}

/* Loads an image; prints one line naming it on failure. */
static int image_open(const cli_command *command, const char *path, vision_image *image)
{
    char error[512] = "";
    vision_status status = vision_image_load(path, image, error, sizeof error);
    return cli_vision_result(command, status, error);
}

/* ---- calibrate camera ---- */

#define CAMERA_IMAGES_MAX 64

static int print_board(const cli_command *command, const char *out, int dpi)
{
    calibration_board_config config;
    calibration_board_config_default(&config);
    config.dpi = dpi;
    int code = sheet_write(command, out, NULL, &config);
    if (code != EXIT_OK)
        return code;
    printf("Wrote %s: a ChArUco board of %d x %d squares of %.0f mm on an A4 landscape page at "
           "%d dpi.\nPrint it, lay it flat, and photograph it 10 or more times from different "
           "angles with the\ncamera that will watch the table; then: tablescribe calibrate "
           "camera --image A --image B ... --profile P\n",
           out, config.squares_x, config.squares_y, config.square_mm, config.dpi);
    return EXIT_OK;
}

static int camera(const cli_command *command, int argc, char **argv)
{
    const char *board_out = NULL, *profile_path = NULL, *game = NULL;
    const char *paths[CAMERA_IMAGES_MAX];
    int path_count = 0, dpi = 300;
    const cli_option options[] = {
        {"print-board", CLI_OPTION_TEXT, .text = &board_out},
        dpi_option(&dpi),
        {"image", CLI_OPTION_LIST, .list = paths, .count = &path_count, .max = CAMERA_IMAGES_MAX,
         .expect = "images"},
        {"profile", CLI_OPTION_TEXT, .text = &profile_path},
        {"game", CLI_OPTION_TEXT, .text = &game},
        {.name = NULL},
    };
    if (!cli_options_parse(command, "camera", options, false, argc, argv))
        return EXIT_BAD_INPUT;
    if (board_out) {
        if (path_count || profile_path)
            return cli_usage_error(command, "camera: --print-board takes no --image or --profile");
        return print_board(command, board_out, dpi);
    }
    if (path_count == 0 || !profile_path)
        return cli_usage_error(command, "camera: --image FILE (several) and --profile P are "
                                        "required, or --print-board FILE.png");

    calibration_profile *profile = malloc(sizeof *profile);
    vision_image *views = calloc((size_t)path_count, sizeof *views);
    int *found = calloc((size_t)path_count, sizeof *found);
    int code = profile && views && found ? EXIT_OK : EXIT_FAILURE_OTHER;
    if (code != EXIT_OK)
        cli_error(command, "out of memory");
    if (code == EXIT_OK)
        code = profile_open(command, profile_path, game, profile);
    for (int i = 0; code == EXIT_OK && i < path_count; i++)
        code = image_open(command, paths[i], &views[i]);
    calibration_board_config board;
    calibration_board_config_default(&board);
    calibration_camera_result result;
    if (code == EXIT_OK) {
        char error[512] = "";
        vision_status status =
            calibration_camera(&board, views, path_count, found, &result, error, sizeof error);
        code = cli_vision_result(command, status, error);
    }
    if (code == EXIT_OK) {
        printf("The board shows in %d of %d images (%d corners).\n", result.views_used,
               path_count, result.corners_used);
        for (int i = 0; i < path_count; i++)
            if (found[i] < CALIBRATION_CAMERA_CORNERS_MIN)
                printf("  %s: %d corners, not used\n", paths[i], found[i]);
        const vision_camera *measured = &result.camera;
        printf("Camera at %d x %d: focal length %.1f x %.1f px, centre (%.1f, %.1f), distortion "
               "k1 %.4f k2 %.4f p1 %.5f p2 %.5f k3 %.4f.\n",
               measured->width, measured->height, measured->fx, measured->fy, measured->cx,
               measured->cy, measured->distortion[0], measured->distortion[1],
               measured->distortion[2], measured->distortion[3], measured->distortion[4]);
        printf("Reprojection error %.3f px (RMS) over %d views%s\n", result.rms_px,
               result.views_used,
               result.rms_px > 1.0 ? ": high; a board that was not flat, or blurred photos?"
                                   : ".");
        profile->camera = result.camera;
        code = profile_write(command, profile_path, profile);
        if (code == EXIT_OK)
            printf("Wrote %s.\n", profile_path);
    }
    for (int i = 0; views && i < path_count; i++)
        vision_image_free(&views[i]);
    free(views);
    free(found);
    free(profile);
    return code;
}

/* ---- calibrate table ---- */

static const char *focal_source_text(vision_focal_source source)
{
    switch (source) {
    case VISION_FOCAL_CALIBRATED:
        return "from the camera's calibration";
    case VISION_FOCAL_MARKERS:
        return "measured from the markers' perspective";
    case VISION_FOCAL_HINT:
        return "the profile's earlier estimate: the camera looks too straight down to measure it";
    case VISION_FOCAL_DEFAULT:
        return "assumed (a 78 degree field of view): the camera looks too straight down to "
               "measure it, so the height is only as good as that guess";
    }
    return "";
}

/* The mat's size, between marker centres. */
typedef struct mat_size {
    double width_mm, height_mm;
} mat_size;

/* Parses "WxH" in mm into a mat_size; false, and size unchanged, when text is not one. */
static bool parse_mat_size(const char *text, void *size)
{
    char *end = NULL;
    double w = strtod(text, &end);
    if (end == text || (*end != 'x' && *end != 'X'))
        return false;
    const char *rest = end + 1;
    double h = strtod(rest, &end);
    if (end == rest || *end)
        return false;
    if (!(w > 0 && w <= 5000 && h > 0 && h <= 5000))
        return false;
    *(mat_size *)size = (mat_size){w, h};
    return true;
}

static int table(const cli_command *command, int argc, char **argv)
{
    const char *image_path = NULL, *profile_path = NULL, *game = NULL;
    double marker_mm = 0, tile_mm = 0;
    mat_size size = {0, 0};
    const cli_option options[] = {
        {"image", CLI_OPTION_TEXT, .text = &image_path},
        {"profile", CLI_OPTION_TEXT, .text = &profile_path,
         .required = "--profile P is required (created if missing)"},
        {"marker-mm", CLI_OPTION_NUMBER, .number = &marker_mm, .low = 5, .high = 200,
         .expect = "a side from 5 to 200 mm"},
        {"mat", CLI_OPTION_PARSED, .parse = parse_mat_size, .parsed = &size,
         .expect = "WIDTHxHEIGHT in mm between marker centres, e.g. 560x560 (up to 5000)"},
        {"tile-mm", CLI_OPTION_NUMBER, .number = &tile_mm, .low = 5, .high = 500,
         .expect = "a cell from 5 to 500 mm"},
        {"game", CLI_OPTION_TEXT, .text = &game},
        {.name = NULL},
    };
    if (!cli_options_parse(command, "table", options, false, argc, argv))
        return EXIT_BAD_INPUT;

    calibration_profile *profile = malloc(sizeof *profile);
    if (!profile) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    int code = profile_open(command, profile_path, game, profile);
    vision_mat *mat = &profile->mat;
    if (code == EXIT_OK) {
        if (marker_mm > 0)
            mat->marker_mm = marker_mm;
        if (size.width_mm > 0) {
            mat->width_mm = size.width_mm;
            mat->height_mm = size.height_mm;
        }
        if (tile_mm > 0)
            mat->tile_mm = tile_mm;
        if (!(mat->width_mm > mat->marker_mm + 1 && mat->height_mm > mat->marker_mm + 1))
            code = cli_usage_error(command,
                                   "a mat of %g x %g mm (--mat) cannot hold markers of %g mm "
                                   "(--marker-mm) at its corners",
                                   mat->width_mm, mat->height_mm, mat->marker_mm);
    }
    vision_image image = {0};
    if (code == EXIT_OK && image_path)
        code = image_open(command, image_path, &image);
    if (code == EXIT_OK && image_path) {
        calibration_table_report report;
        char error[512] = "";
        vision_status status =
            calibration_table(&image, mat, &profile->camera, &report, error, sizeof error);
        if (status != VISION_OK) {
            cli_error(command, "%s: %s", image_path, error);
            code = cli_vision_exit_code(status);
        } else {
            const vision_registration *seen = &report.registration;
            printf("%s (%d x %d): markers 0 1 2 3 found; the worst corner is %.1f mm from where "
                   "the mat puts it.\n",
                   image_path, image.width, image.height, seen->residual_mm);
            printf("Camera about %.0f mm above the table, over (%.0f, %.0f) mm from marker 0, "
                   "tilted %.1f degrees from straight down.\n",
                   report.height_mm, seen->camera_mm[0], seen->camera_mm[1], report.tilt_deg);
            printf("Focal length %.0f px, %s.\n", seen->focal_px,
                   focal_source_text(seen->focal_source));
            calibration_keep_focal(&profile->camera, seen);
        }
    }
    vision_image_free(&image);
    if (code == EXIT_OK)
        code = profile_write(command, profile_path, profile);
    if (code == EXIT_OK)
        printf("Wrote %s: the mat %g x %g mm between marker centres, markers %g mm, cells "
               "%g mm.\n",
               profile_path, mat->width_mm, mat->height_mm, mat->marker_mm, mat->tile_mm);
    free(profile);
    return code;
}

int cli_calibrate(const cli_command *command, int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(command, "which step? markers, camera, table or teach "
                                        "(try tablescribe calibrate --help)");
    const char *step = argv[1];
    if (strcmp(step, "markers") == 0)
        return markers(command, argc - 1, argv + 1);
    if (strcmp(step, "camera") == 0)
        return camera(command, argc - 1, argv + 1);
    if (strcmp(step, "table") == 0)
        return table(command, argc - 1, argv + 1);
    if (strcmp(step, "teach") == 0)
        return cli_calibrate_teach(command, argc - 1, argv + 1);
    return cli_usage_error(command, "'%s' is not a step: markers, camera, table or teach", step);
}
