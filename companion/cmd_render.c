/* tablescribe render: an observation (the truth) drawn as a camera would see it. */
#include "cli.h"

#include "observation_json.h"
#include "rules.h"
#include "vision.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPTION_GAME = 256,
    OPTION_OBSERVATION,
    OPTION_OUT,
    OPTION_SEED,
    OPTION_BOX,
    OPTION_WIDTH,
    OPTION_HEIGHT,
    OPTION_CAMERA_HEIGHT,
    OPTION_TILT,
    OPTION_AZIMUTH,
    OPTION_DISTORTION,
    OPTION_LIGHT_KELVIN,
    OPTION_LIGHT_AZIMUTH,
    OPTION_LIGHT_ELEVATION,
    OPTION_GLARE,
    OPTION_NOISE,
    OPTION_BLUR,
    OPTION_JPEG_QUALITY,
    OPTION_HANDS,
    OPTION_LAYOUT_ANGLE,
    OPTION_MARKER_MM,
    OPTION_MAT,
    OPTION_TILE_MM,
    OPTION_INFO,
    OPTION_SCRIPT,
    OPTION_FPS,
    OPTION_PAUSE,
    OPTION_PLAYERS,
    OPTION_EXPANSION,
    OPTION_FORMAT,
    OPTION_RESTING_HAND,
    OPTION_NUDGE,
    OPTION_SHADOW,
};

static const struct option options[] = {
    {"game", required_argument, NULL, OPTION_GAME},
    {"observation", required_argument, NULL, OPTION_OBSERVATION},
    {"out", required_argument, NULL, OPTION_OUT},
    {"seed", required_argument, NULL, OPTION_SEED},
    {"box", required_argument, NULL, OPTION_BOX},
    {"width", required_argument, NULL, OPTION_WIDTH},
    {"height", required_argument, NULL, OPTION_HEIGHT},
    {"camera-height", required_argument, NULL, OPTION_CAMERA_HEIGHT},
    {"tilt", required_argument, NULL, OPTION_TILT},
    {"azimuth", required_argument, NULL, OPTION_AZIMUTH},
    {"distortion", required_argument, NULL, OPTION_DISTORTION},
    {"light-kelvin", required_argument, NULL, OPTION_LIGHT_KELVIN},
    {"light-azimuth", required_argument, NULL, OPTION_LIGHT_AZIMUTH},
    {"light-elevation", required_argument, NULL, OPTION_LIGHT_ELEVATION},
    {"glare", required_argument, NULL, OPTION_GLARE},
    {"noise", required_argument, NULL, OPTION_NOISE},
    {"blur", required_argument, NULL, OPTION_BLUR},
    {"jpeg-quality", required_argument, NULL, OPTION_JPEG_QUALITY},
    {"hands", required_argument, NULL, OPTION_HANDS},
    {"layout-angle", required_argument, NULL, OPTION_LAYOUT_ANGLE},
    {"marker-mm", required_argument, NULL, OPTION_MARKER_MM},
    {"mat", required_argument, NULL, OPTION_MAT},
    {"tile-mm", required_argument, NULL, OPTION_TILE_MM},
    {"info", required_argument, NULL, OPTION_INFO},
    {"script", required_argument, NULL, OPTION_SCRIPT},
    {"fps", required_argument, NULL, OPTION_FPS},
    {"pause", required_argument, NULL, OPTION_PAUSE},
    {"players", required_argument, NULL, OPTION_PLAYERS},
    {"expansion", no_argument, NULL, OPTION_EXPANSION},
    {"format", required_argument, NULL, OPTION_FORMAT},
    {"resting-hand", no_argument, NULL, OPTION_RESTING_HAND},
    {"nudge", no_argument, NULL, OPTION_NUDGE},
    {"shadow", no_argument, NULL, OPTION_SHADOW},
    {NULL, 0, NULL, 0},
};

/* The options that are one number in a range: where each goes and what the message says. */
typedef struct number_option {
    int id;
    double low, high;
    bool whole;
    const char *range; /* for the message: "from 0 to 35 degrees" */
} number_option;

static const number_option number_options[] = {
    {OPTION_WIDTH, 32, 8192, true, "a whole number of pixels from 32 to 8192"},
    {OPTION_HEIGHT, 32, 8192, true, "a whole number of pixels from 32 to 8192"},
    {OPTION_CAMERA_HEIGHT, 500, 1200, false, "from 500 to 1200 mm"},
    {OPTION_TILT, 0, 35, false, "from 0 to 35 degrees"},
    {OPTION_AZIMUTH, 0, 359.999999, false, "from 0 to 360 degrees (360 excluded)"},
    {OPTION_DISTORTION, -0.12, 0.04, false, "a k1 from -0.12 to 0.04"},
    {OPTION_LIGHT_KELVIN, 2700, 6500, false, "from 2700 to 6500 K"},
    {OPTION_LIGHT_AZIMUTH, 0, 359.999999, false, "from 0 to 360 degrees (360 excluded)"},
    {OPTION_LIGHT_ELEVATION, 30, 85, false, "from 30 to 85 degrees"},
    {OPTION_GLARE, 0, 1, false, "from 0 to 1"},
    {OPTION_NOISE, 0, 6, false, "from 0 to 6 grey levels"},
    {OPTION_BLUR, 0, 1.5, false, "from 0 to 1.5 pixels"},
    {OPTION_JPEG_QUALITY, 0, 95, true, "0 (none) or a whole number from 60 to 95"},
    {OPTION_HANDS, 0, 2, true, "0, 1 or 2"},
    {OPTION_LAYOUT_ANGLE, -8, 8, false, "from -8 to 8 degrees"},
    {OPTION_MARKER_MM, 10, 200, false, "from 10 to 200 mm"},
    {OPTION_TILE_MM, 10, 200, false, "from 10 to 200 mm"},
    {OPTION_FPS, 1, 60, true, "a whole number of frames per second from 1 to 60"},
    {OPTION_PAUSE, 300, 20000, true, "a whole number of milliseconds from 300 to 20000"},
    {OPTION_PLAYERS, 2, EL_MAX_SEATS, true, "2, 3 or 4"},
};

static bool parse_seed(const char *text, uint64_t *seed)
{
    if (!text[0] || strspn(text, "0123456789") != strlen(text))
        return false;
    errno = 0;
    unsigned long long value = strtoull(text, NULL, 10);
    if (errno)
        return false;
    *seed = (uint64_t)value;
    return true;
}

static bool parse_mat(const char *text, double *width, double *height)
{
    const char *x = strchr(text, 'x');
    if (!x || x == text || !x[1])
        return false;
    char first[64];
    size_t length = (size_t)(x - text);
    if (length >= sizeof first)
        return false;
    memcpy(first, text, length);
    first[length] = '\0';
    return cli_parse_number(first, 100, 3000, false, width) &&
           cli_parse_number(x + 1, 100, 3000, false, height);
}

static void set_number(vision_render_config *config, int id, double value)
{
    switch (id) {
    case OPTION_WIDTH:
        config->width = (int)value;
        break;
    case OPTION_HEIGHT:
        config->height = (int)value;
        break;
    case OPTION_CAMERA_HEIGHT:
        config->camera_height_mm = value;
        break;
    case OPTION_TILT:
        config->tilt_deg = value;
        break;
    case OPTION_AZIMUTH:
        config->azimuth_deg = value;
        break;
    case OPTION_DISTORTION:
        config->distortion_k1 = value;
        break;
    case OPTION_LIGHT_KELVIN:
        config->light_kelvin = value;
        break;
    case OPTION_LIGHT_AZIMUTH:
        config->light_azimuth_deg = value;
        break;
    case OPTION_LIGHT_ELEVATION:
        config->light_elevation_deg = value;
        break;
    case OPTION_GLARE:
        config->glare = value;
        break;
    case OPTION_NOISE:
        config->noise = value;
        break;
    case OPTION_BLUR:
        config->blur_px = value;
        break;
    case OPTION_JPEG_QUALITY:
        config->jpeg_quality = (int)value;
        break;
    case OPTION_HANDS:
        config->hands = (int)value;
        break;
    case OPTION_LAYOUT_ANGLE:
        config->layout_angle_deg = value;
        break;
    case OPTION_MARKER_MM:
        config->mat.marker_mm = value;
        break;
    case OPTION_TILE_MM:
        config->mat.tile_mm = value;
        break;
    default: /* the script's own numbers: see cli_render */
        break;
    }
}

static json_t *numbers(const double *values, int count)
{
    json_t *array = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(array, json_real(values[i]));
    return array;
}

static json_t *point(vision_point p)
{
    double xy[2] = {p.x, p.y};
    return numbers(xy, 2);
}

/* What the renderer knows that the image does not say, for tests and benches. */
static char *info_json(const vision_render_config *config, const vision_el_observation *truth,
                       const vision_render_info *info)
{
    const vision_registration *r = &info->camera;
    json_t *camera = json_object();
    json_object_set_new(camera, "table_to_image", numbers(r->table_to_image, 9));
    json_object_set_new(camera, "image_to_table", numbers(r->image_to_table, 9));
    json_object_set_new(camera, "projection", numbers(r->projection, 12));
    json_object_set_new(camera, "camera_mm", numbers(r->camera_mm, 3));
    json_object_set_new(camera, "focal_px", json_real(r->focal_px));
    vision_point centre = {r->intrinsics.cx, r->intrinsics.cy};
    json_object_set_new(camera, "principal_point", point(centre));
    json_object_set_new(camera, "distortion_k1", json_real(info->distortion_k1));
    json_t *markers = json_array();
    for (int id = 0; id < 4; id++) {
        json_t *corners = json_array();
        for (int k = 0; k < 4; k++)
            json_array_append_new(corners, point(r->markers[id][k]));
        json_array_append_new(markers, json_pack("{s:i, s:o}", "id", id, "corners", corners));
    }
    json_object_set_new(camera, "markers", markers);
    json_object_set_new(camera, "residual_mm", json_real(r->residual_mm));
    json_object_set_new(camera, "image_width", json_integer(r->image_width));
    json_object_set_new(camera, "image_height", json_integer(r->image_height));

    json_t *tiles = json_array();
    for (int i = 0; i < info->tile_count; i++) {
        json_t *tile = json_object();
        json_object_set_new(tile, "row", json_integer(truth->tiles[i].row));
        json_object_set_new(tile, "col", json_integer(truth->tiles[i].col));
        json_object_set_new(tile, "x_mm", json_real(info->tiles[i].x_mm));
        json_object_set_new(tile, "y_mm", json_real(info->tiles[i].y_mm));
        json_object_set_new(tile, "angle_deg", json_real(info->tiles[i].angle_deg));
        json_object_set_new(tile, "stack_x_mm", json_real(info->tiles[i].stack_x_mm));
        json_object_set_new(tile, "stack_y_mm", json_real(info->tiles[i].stack_y_mm));
        json_object_set_new(tile, "quarter_turns", json_integer(info->tiles[i].quarter_turns));
        json_object_set_new(tile, "hand_cover", json_real(info->tiles[i].hand_cover));
        json_array_append_new(tiles, tile);
    }
    json_t *root = json_object();
    json_object_set_new(root, "game", json_string(EL_GAME_ID));
    json_object_set_new(root, "box_seed", json_integer((json_int_t)config->box_seed));
    json_object_set_new(root, "scene_seed", json_integer((json_int_t)config->scene_seed));
    json_object_set_new(root, "camera", camera);
    json_object_set_new(root, "piece_diameter_mm", json_real(info->piece_diameter_mm));
    json_object_set_new(root, "piece_height_mm", json_real(info->piece_height_mm));
    json_t *shadow = json_array();
    json_array_append_new(shadow, json_real(info->shadow_per_mm[0]));
    json_array_append_new(shadow, json_real(info->shadow_per_mm[1]));
    json_object_set_new(root, "shadow_per_mm", shadow);
    json_object_set_new(root, "tiles", tiles);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(root);
    return text;
}

/* Writes text beside path, for a rename once the image is written; *temporary is malloc'd.
 * On failure *failure is the errno. */
static bool write_beside(const char *path, const char *text, char **temporary, int *failure,
                         char *error, size_t size)
{
    *failure = ENOMEM;
    size_t length = strlen(path) + 16;
    *temporary = malloc(length);
    if (!*temporary) {
        snprintf(error, size, "out of memory");
        return false;
    }
    snprintf(*temporary, length, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(*temporary);
    if (fd < 0) {
        *failure = errno;
        snprintf(error, size, "%s: %s", path, strerror(errno));
        free(*temporary);
        *temporary = NULL;
        return false;
    }
    size_t total = strlen(text);
    bool ok = write(fd, text, total) == (ssize_t)total && write(fd, "\n", 1) == 1 && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (!ok) {
        *failure = saved;
        snprintf(error, size, "%s: %s", path, strerror(saved));
        unlink(*temporary);
        free(*temporary);
        *temporary = NULL;
    }
    return ok;
}

/* Only expedition-luxor is drawn so far; another game is a capability still to come. */
static int check_game(const cli_command *command, const char *game)
{
    size_t count;
    const rules_game *games = rules_games(&count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(games[i].id, game) == 0) {
            if (strcmp(game, OBSERVATION_EL_GAME) == 0)
                return EXIT_OK;
            cli_error(command, "not available yet for %s: only expedition-luxor is drawn so far",
                      game);
            return EXIT_FAILURE_OTHER;
        }
    return cli_usage_error(command, "--game %s: not a game (tablescribe --help lists them)", game);
}

int cli_render(const cli_command *command, int argc, char **argv)
{
    vision_render_config config;
    vision_render_config_default(&config);
    const char *game = NULL, *observation_path = NULL, *out = NULL, *info_path = NULL;
    bool box_given = false, hands_given = false, script_only = false;
    render_script_request script = {0};
    recording_options_default(&script.options);
    opterr = 0;
    optind = 1;
    int option;
    while ((option = getopt_long(argc, argv, "+", options, NULL)) != -1) {
        switch (option) {
        case OPTION_GAME:
            game = optarg;
            continue;
        case OPTION_OBSERVATION:
            observation_path = optarg;
            continue;
        case OPTION_OUT:
            out = optarg;
            continue;
        case OPTION_INFO:
            info_path = optarg;
            continue;
        case OPTION_SCRIPT:
            script.script = optarg;
            continue;
        case OPTION_EXPANSION:
            script.options.expansion = script_only = true;
            continue;
        case OPTION_RESTING_HAND:
            script.options.resting_hand = script_only = true;
            continue;
        case OPTION_NUDGE:
            script.options.nudge = script_only = true;
            continue;
        case OPTION_SHADOW:
            script.options.shadow = script_only = true;
            continue;
        case OPTION_FORMAT:
            if (strcmp(optarg, "png") != 0 && strcmp(optarg, "jpg") != 0)
                return cli_usage_error(command, "--format %s: png or jpg", optarg);
            script.png = strcmp(optarg, "png") == 0;
            script_only = true;
            continue;
        case OPTION_SEED:
            if (!parse_seed(optarg, &config.scene_seed))
                return cli_usage_error(command, "--seed %s: a whole number from 0", optarg);
            continue;
        case OPTION_BOX:
            if (!parse_seed(optarg, &config.box_seed))
                return cli_usage_error(command, "--box %s: a whole number from 0", optarg);
            box_given = true;
            continue;
        case OPTION_MAT:
            if (!parse_mat(optarg, &config.mat.width_mm, &config.mat.height_mm))
                return cli_usage_error(command,
                                       "--mat %s: WIDTHxHEIGHT in mm, each from 100 to 3000 "
                                       "(e.g. 560x560)",
                                       optarg);
            continue;
        case ':':
            return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
        case '?':
            return cli_usage_error(command, "unknown option %s", argv[optind - 1]);
        default:
            break;
        }
        for (size_t i = 0; i < sizeof number_options / sizeof number_options[0]; i++) {
            const number_option *n = &number_options[i];
            if (n->id != option)
                continue;
            double value;
            bool ok = cli_parse_number(optarg, n->low, n->high, n->whole, &value);
            if (ok && option == OPTION_JPEG_QUALITY && value != 0 && value < 60)
                ok = false;
            if (!ok) {
                const char *long_name = "";
                for (const struct option *o = options; o->name; o++)
                    if (o->val == option)
                        long_name = o->name;
                return cli_usage_error(command, "--%s %s: %s", long_name, optarg, n->range);
            }
            set_number(&config, option, value);
            hands_given |= option == OPTION_HANDS;
            script_only |= option == OPTION_FPS || option == OPTION_PAUSE ||
                           option == OPTION_PLAYERS;
            if (option == OPTION_FPS)
                script.options.fps = (int)value;
            else if (option == OPTION_PAUSE)
                script.options.pause_ms = (int)value;
            else if (option == OPTION_PLAYERS)
                script.options.players = (int)value;
        }
    }
    if (optind < argc)
        return cli_usage_error(command, "unexpected argument '%s'", argv[optind]);
    if (!game)
        return cli_usage_error(command, "--game G is required (expedition-luxor)");
    int exit_code = check_game(command, game);
    if (exit_code != EXIT_OK)
        return exit_code;
    if (!box_given)
        config.box_seed = config.scene_seed;
    if (script.script) {
        if (observation_path || info_path || hands_given)
            return cli_usage_error(command, "--script records a game: %s is not one of its options",
                                   observation_path ? "--observation" : info_path ? "--info"
                                                                                  : "--hands (the "
                                                                                    "script's hands "
                                                                                    "come with its "
                                                                                    "actions)");
        if (!out)
            return cli_usage_error(command, "--out DIR is required (the frame folder to create)");
        script.out = out;
        return cli_render_script(command, &config, &script);
    }
    if (script_only)
        return cli_usage_error(command, "--fps, --pause, --players, --expansion, --format, "
                                        "--resting-hand, --nudge and --shadow go with --script");
    if (!observation_path)
        return cli_usage_error(command, "--observation FILE is required (the truth to draw, "
                                        "observation JSON)");
    if (!out)
        return cli_usage_error(command, "--out IMAGE is required (a .png or .jpg file)");
    const char *extension = strrchr(out, '.');
    if (!extension || strchr(extension, '/') ||
        (strcmp(extension, ".png") != 0 && strcmp(extension, ".jpg") != 0 &&
         strcmp(extension, ".jpeg") != 0))
        return cli_usage_error(command,
                               "%s: the image is written as PNG or JPEG; name it .png "
                               "or .jpg",
                               out);
    if (info_path && strcmp(info_path, out) == 0)
        return cli_usage_error(command, "--info %s: the same file as --out", info_path);

    vision_el_observation *truth = malloc(sizeof *truth);
    vision_render_info *info = malloc(sizeof *info);
    char error[512] = "";
    if (!truth || !info) {
        free(truth);
        free(info);
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    vision_status status = observation_el_load(observation_path, truth, error, sizeof error);
    if (status != VISION_OK) {
        free(truth);
        free(info);
        cli_error(command, "%s", error);
        return cli_vision_exit_code(status);
    }
    vision_image frame;
    char detail[400] = "";
    status = vision_el_render(&config, truth, &frame, info, detail, sizeof detail);
    if (status != VISION_OK) {
        free(truth);
        free(info);
        if (status == VISION_BAD_INPUT) {
            cli_error(command, "%s: %s", observation_path, detail);
            return EXIT_BAD_INPUT;
        }
        cli_error(command, "cannot draw %s: %s", observation_path,
                  detail[0] ? detail : vision_status_message(status));
        return EXIT_FAILURE_OTHER;
    }

    /* The truth's JSON first, beside its place; the image appears whole; then the JSON. */
    char *temporary = NULL;
    if (info_path) {
        char *text = info_json(&config, truth, info);
        int failure = ENOMEM;
        bool ok = text && write_beside(info_path, text, &temporary, &failure, error, sizeof error);
        if (!text)
            snprintf(error, sizeof error, "out of memory");
        free(text);
        if (!ok) {
            vision_image_free(&frame);
            free(truth);
            free(info);
            cli_error(command, "%s", error);
            /* A folder that is missing or not writable is the caller's input. */
            return failure == ENOENT || failure == ENOTDIR || failure == EACCES ||
                           failure == EROFS || failure == EISDIR
                       ? EXIT_BAD_INPUT
                       : EXIT_FAILURE_OTHER;
        }
    }
    status = vision_image_save(out, &frame, error, sizeof error);
    if (status == VISION_OK && temporary && rename(temporary, info_path) != 0) {
        snprintf(error, sizeof error, "%s: %s", info_path, strerror(errno));
        status = VISION_IO;
    }
    if (temporary) {
        if (status != VISION_OK)
            unlink(temporary);
        free(temporary);
    }
    int width = frame.width, height = frame.height;
    double camera_height = info->camera.camera_mm[2];
    vision_image_free(&frame);
    free(truth);
    free(info);
    if (status != VISION_OK) {
        cli_error(command, "%s", error);
        return cli_vision_exit_code(status);
    }
    printf("Wrote %s: %d x %d, box %llu, scene %llu, the camera %.0f mm above the table%s%s.\n",
           out, width, height, (unsigned long long)config.box_seed,
           (unsigned long long)config.scene_seed, camera_height,
           info_path ? "; what it knows in " : "", info_path ? info_path : "");
    return EXIT_OK;
}
