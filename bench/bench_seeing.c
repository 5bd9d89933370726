/*
 * Seeing Expedition Luxor: how often the recogniser reads a rendered table right, and how fast
 * registration and recognition are (issue 7's targets; DESIGN.md §5 for the times).
 *
 *   bench_seeing accuracy [--boxes N] [--per-box M] [--seed S] [--hands] [--save DIR]
 *                         [--true-size] [--heights-known] [--true-light]
 *       N boxes (default 30; box b has box seed S*1000+b and 2, 3 or 4 players by b), each
 *       taught from one render of the teaching layout (calibration_teach_layout) at a scene of
 *       its own (box seed * 1000; when the learner refuses it, as a user would, another at
 *       box seed * 1000 + 501.., four photos at most, counted in the report), then M (default 10) renders of random games (expansion on:
 *       boats and snakes) stopped at random points, every other one in the game's last tenth
 *       (layouts up to 10x10, stacks up to 5), 1920x1080, at scene seeds box seed * 1000 + 1..M:
 *       registered (no camera), recognised and compared with the truth. The renderer draws the
 *       camera, lens, noise, blur and JPEG loss; the bench draws the light and the glare (none
 *       in half the images), which the renderer does not report. Reports the shares right,
 *       wrong and unknown against issue 7's targets, the same per condition (tilt, camera
 *       height, light colour and elevation, glare, hands, stack height, and for heights how far
 *       one piece moves a stack's image in the photo), the tile types most often read as
 *       another, how often a confident element is wrong, and the worst images with the
 *       commands that reproduce them. --hands puts 1-2 hands over every third image.
 *       --save DIR writes each failing image (at most SAVE_MAX, and every one registration or
 *       recognition refused beyond) with its truth, what was seen and the commands that draw
 *       and read it again (-commands.txt: the
 *       render's --info tells where each stack stands and the light), and its box's teaching
 *       photo, truth and profile. --true-size gives each
 *       taught model its box's true adventurer size (the render info's), to measure what the
 *       size costs the heights. --heights-known reads each image a second time after telling
 *       its memory the true heights of its stacks (vision_el_memory_know_stacks, as a tracker
 *       does once its committed game shows a table as read), and counts that read: what the
 *       game's heights are worth to the light and the heights at best (the tracker tells the
 *       last table's, of which only the tiles unchanged since count; not issue 7's figures,
 *       which are without the rules' help). --true-light tells each read the light the render
 *       drew and its pieces' true height (vision_el_memory_know_light): what the stacks' fit
 *       reads with neither to find, the ceiling the light's search and the pieces' height are
 *       measured under (not issue 7's figures either; not with --heights-known, whose second
 *       read searches for the light).
 *   bench_seeing speed [--runs N] [--seed S]
 *       one OpenCV thread: N (default 30) 1080p renders of the largest table of 200 random
 *       4-player games (10x10, about 120 adventurers): median and p95 of registration (target
 *       <= 10 ms) and recognition (target <= 30 ms) with their stages, and of the render for
 *       information.
 *   bench_seeing teaching [--boxes N] [--seed S]
 *       N boxes (default 30) taught as the accuracy mode teaches them, no game read: how many
 *       photos each took, the boxes never taught, and the refusals counted by what the learner
 *       said.
 *
 * Reports; never fails for a figure. Exits 1 only when nothing could be measured, 2 on bad
 * usage.
 */
#include "calibration.h"
#include "cv_shim_geometry.h"
#include "observation_json.h"
#include "pipeline.h"
#include "table_plane_internal.h"
#include "vision.h"

#include "bench_support.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GAME EL_GAME_ID
#define CONFIDENT 0.9f   /* an element reported this sure should (almost) never be wrong */
#define CONFIDENCE_BINS 5 /* heights by their confidence: 0-0.2, ..., 0.8-1 */
#define ALIGN_REACH 10   /* rows or columns the recogniser may have lost, or seen beyond the
                            layout, at an edge: as many as a table has (2 before session 24:
                            three rows of phantom tiles then put a whole table one row off) */
#define WORST_SHOWN 8
#define SAVE_MAX 100     /* failing images written by --save at most */
#define WHAT_MAX 480
#define SURE_WRONG_SHOWN 40 /* images whose confident but wrong elements are listed */
#define CONFUSIONS_SHOWN 8  /* the tile types most often read as another, listed */
#define UNSURE_TYPE 0.05f   /* a type read with less confidence than this is unknown in all but
                               name */

static const char *const player_colours[EL_MAX_SEATS] = {"orange", "black", "grey", "yellow"};

/* A generator of the bench's own choices (stop points, light), apart from the renderer's. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- a random game, stopped where the bench likes ---- */

typedef struct game_lines {
    char **lines;
    int count, capacity;
    bool failed;
} game_lines;

static void keep_line(void *context, const char *line)
{
    game_lines *game = context;
    if (game->failed)
        return;
    if (game->count == game->capacity) {
        int capacity = game->capacity ? game->capacity * 2 : 256;
        char **grown = realloc(game->lines, (size_t)capacity * sizeof *grown);
        if (!grown) {
            game->failed = true;
            return;
        }
        game->lines = grown;
        game->capacity = capacity;
    }
    size_t length = strlen(line) + 1;
    char *copy = malloc(length);
    if (!copy) {
        game->failed = true;
        return;
    }
    memcpy(copy, line, length);
    game->lines[game->count++] = copy;
}

static void game_lines_free(game_lines *game)
{
    for (int i = 0; i < game->count; i++)
        free(game->lines[i]);
    free(game->lines);
    memset(game, 0, sizeof *game);
}

static el_state new_game(int players)
{
    el_config config;
    el_config_default(&config);
    config.seats = players;
    config.expansion = true; /* the boat and the snakes lie on tiles: the camera reads them */
    el_state state;
    el_init(&state, &config, NULL);
    return state;
}

/* Plays random game seed and replays its first `played` lines (0: all) into *state. The
 * number of lines the game has goes to *total. Returns false, with why, when the engine
 * refuses its own game. */
static bool game_at(int players, uint64_t seed, int played, bool near_end, uint64_t *choice,
                    el_state *state, int *total, int *stopped, char *why, size_t size)
{
    game_lines game;
    memset(&game, 0, sizeof game);
    el_state whole = new_game(players);
    el_error error;
    if (el_random_game(&whole, seed, keep_line, &game, &error) != EL_OK || game.failed ||
        game.count == 0) {
        snprintf(why, size, "random game %llu: %s", (unsigned long long)seed,
                 game.failed ? "out of memory" : error.message);
        game_lines_free(&game);
        return false;
    }
    *total = game.count;
    if (played <= 0) {
        /* near the end: the last tenth of the lines; else anywhere after the start */
        int from = near_end ? game.count - game.count / 10 : 1;
        played = from + (int)(next_random(choice) % (uint64_t)(game.count - from + 1));
    }
    played = played > game.count ? game.count : played;
    *state = new_game(players);
    for (int i = 0; i < played; i++)
        if (el_play_line(state, game.lines[i], NULL, &error) != EL_OK) {
            snprintf(why, size, "random game %llu, line %d '%.60s': %s",
                     (unsigned long long)seed, i + 1, game.lines[i], error.message);
            game_lines_free(&game);
            return false;
        }
    *stopped = played;
    game_lines_free(&game);
    return true;
}

/* ---- the conditions of a photo ---- */

typedef struct scene_condition {
    double tilt_deg;          /* the optical axis from straight down */
    double camera_height_mm;
    double light_kelvin, light_elevation_deg, glare;
    int hands;
    /* The light the recogniser fitted the stacks in against the render's, both as a shadow's
     * move per mm of height in the model's pieces: its length over the render's (0: none
     * found; NAN: the image not read) and how far its direction is off (degrees). */
    double light_ratio, light_off_deg;
    /* the pieces' height the stacks were fitted with in that light over the render's (0: no
     * light found; NAN: the image not read) */
    double piece_ratio;
    double model_piece_ratio; /* the model's own pieces' height over the render's */
} scene_condition;

/*
 * The light and the glare, drawn here within the renderer's ranges, because the renderer does
 * not say what it drew for them (its info gives the camera only). Giving them does not move
 * the renderer's other draws (each value is drawn whether given or not). Glare: none in half
 * of the images, any strength in the other half (the renderer alone would always put some).
 */
static void draw_light(uint64_t scene_seed, vision_render_config *config)
{
    uint64_t state = scene_seed ^ 0x11647c0ffeeULL;
    double unit[4];
    for (int k = 0; k < 4; k++)
        unit[k] = (double)(next_random(&state) >> 11) * 0x1.0p-53;
    /* Rounded so that the values printed for `tablescribe render` are the values drawn: whole
     * kelvin, tenths of a degree, hundredths of glare. */
    config->light_kelvin = (double)lround(2700.0 + unit[0] * (6500.0 - 2700.0));
    config->light_elevation_deg = (double)lround(300.0 + unit[1] * 550.0) / 10.0;
    config->glare = unit[2] < 0.5 ? 0.0 : (double)(1 + lround(unit[3] * 99.0)) / 100.0;
}

/* The conditions of a render: the camera from the info (its projection's third row is the
 * optical axis), the light and hands as the config gave them. */
static void condition_of(const vision_render_config *given, const vision_render_info *info,
                         scene_condition *condition)
{
    const double *p = info->camera.projection;
    double axis = sqrt(p[8] * p[8] + p[9] * p[9] + p[10] * p[10]);
    double down = axis > 0.0 ? fabs(p[10]) / axis : 1.0;
    condition->tilt_deg = acos(down > 1.0 ? 1.0 : down) * 180.0 / 3.14159265358979323846;
    condition->camera_height_mm = info->camera.camera_mm[2];
    condition->light_kelvin = given->light_kelvin;
    condition->light_elevation_deg = given->light_elevation_deg;
    condition->glare = given->glare;
    condition->hands = given->hands;
}

/* The light the read found (vision_el_memory_light) against the render's, both in the model's
 * pieces (the render's shadows per mm of its own pieces' height): the length's ratio (0: none
 * found) and the direction's difference in degrees (NAN: none found). */
static void light_against_render(const vision_el_memory *memory, const vision_render_info *info,
                                 const vision_el_model *model, double *ratio, double *off_deg,
                                 double *piece_ratio)
{
    double found[2], piece;
    *ratio = *piece_ratio = 0.0;
    *off_deg = NAN;
    if (!vision_el_memory_light(memory, found))
        return;
    if (vision_el_memory_piece(memory, &piece) && info->piece_height_mm > 0.0)
        *piece_ratio = piece / info->piece_height_mm;
    double truth[2];
    vision_el_render_light(info, model, truth);
    double length = hypot(truth[0], truth[1]);
    if (!(length > 0.0))
        return;
    *ratio = hypot(found[0], found[1]) / length;
    double turn = atan2(found[1], found[0]) - atan2(truth[1], truth[0]);
    *off_deg = fabs(remainder(turn, 2.0 * 3.14159265358979323846)) * 180.0 /
               3.14159265358979323846;
}

/* Reads the image again (into seen; the time reported is the first read's) once the memory of
 * its first read knows the true heights of its stacks, each at its tile's true centre. */
static vision_status read_knowing_heights(const vision_image *frame,
                                          const vision_registration *registration,
                                          const vision_mat *mat, const vision_el_model *model,
                                          const vision_el_observation *truth,
                                          const vision_render_info *info,
                                          vision_el_memory *memory, vision_el_observation *seen,
                                          char *error, size_t size)
{
    vision_el_known_stack *known = malloc(VISION_EL_TILES_MAX * sizeof *known);
    if (!known)
        return VISION_NOMEM;
    int count = 0;
    for (int i = 0; i < truth->tile_count && i < info->tile_count; i++)
        if (truth->tiles[i].height > 0)
            known[count++] = (vision_el_known_stack){info->tiles[i].x_mm, info->tiles[i].y_mm,
                                                     truth->tiles[i].height};
    vision_el_memory_know_stacks(memory, known, count);
    free(known);
    return vision_el_recognise_again(frame, registration, mat, model, memory, seen, NULL, error,
                                     size);
}

/* ---- comparing what was seen with the truth ---- */

typedef struct rwu {
    long right, wrong, unknown;
} rwu;

/* How far one piece moves a stack's image in the photo, in pixels (the true camera, lens
 * distortion aside): what tells its height. Right under the camera it is nothing. */
#define LEAN_BINS 5
static const double lean_bin_low[LEAN_BINS] = {0.0, 1.0, 2.0, 3.0, 5.0};

static int lean_bin(const vision_render_info *info, int tile)
{
    const double *p = info->camera.projection;
    double x = info->tiles[tile].stack_x_mm, y = info->tiles[tile].stack_y_mm;
    double at[2][2];
    for (int k = 0; k < 2; k++) {
        /* on the tile's face (2 mm up, as the recogniser's EL_TILE_THICKNESS_MM), one piece up */
        double z = 2.0 + k * info->piece_height_mm;
        double w = p[8] * x + p[9] * y + p[10] * z + p[11];
        at[k][0] = (p[0] * x + p[1] * y + p[2] * z + p[3]) / w;
        at[k][1] = (p[4] * x + p[5] * y + p[6] * z + p[7]) / w;
    }
    double lean = hypot(at[1][0] - at[0][0], at[1][1] - at[0][1]);
    int bin = 0;
    while (bin + 1 < LEAN_BINS && lean >= lean_bin_low[bin + 1])
        bin++;
    return bin;
}

/* How long a shadow one piece casts on the table in the render (mm): under a lamp nearly
 * overhead, a piece moves its shadow's tip too little to tell; under a low one the shadow leaves
 * the tile. */
#define SHADOW_BINS 7
static const double shadow_bin_low[SHADOW_BINS] = {0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0};

static int shadow_bin(const vision_render_info *info)
{
    double shadow = info->piece_height_mm * hypot(info->shadow_per_mm[0], info->shadow_per_mm[1]);
    int bin = 0;
    while (bin + 1 < SHADOW_BINS && shadow >= shadow_bin_low[bin + 1])
        bin++;
    return bin;
}

/* Stacks' heights in one bin of a condition (lean_bin, shadow_bin): right, wrong, unknown; read
 * as no stack; read one piece off. */
typedef struct height_bin {
    rwu height;
    long missed, off_one;
} height_bin;

/* A stack's height against the truth, by the colour on top (bright pieces and dark ones err
 * differently). */
enum { HEIGHT_RIGHT, HEIGHT_LOW, HEIGHT_HIGH, HEIGHT_UNKNOWN };

typedef struct tally {
    long images, exact, failed; /* failed: registration or recognition refused the image */
    long tiles, stacks;
    rwu type, top, height, token; /* type and token over tiles; top and height over stacks */
    long height_pair, height_pair_right; /* heights read with a runner-up; the truth either */
    long height_in_read;          /* the truth is the height read or its runner-up */
    long height_by_confidence[CONFIDENCE_BINS][3]; /* stacks read (on empty tiles too), by
                                                      their height's confidence: how many,
                                                      right, right or the runner-up */
    long height_used, height_used_wrong; /* heights the tracker's rules use (confidence at least
                                            tracker_uses()), and of them neither it nor its
                                            runner-up the truth */
    long type_used, type_used_wrong; /* tile types the tracker's rules use (confidence at least
                                        tracker_uses(); tiles seen where none lies too), and
                                        of them the wrong ones */
    rwu tokens_lying;             /* over the tiles a token lies on */
    long token_seen, token_seen_sure; /* a token seen where none lies, and of them CONFIDENT */
    long extra;                   /* tiles seen where the truth has none */
    long phantom;                 /* an adventurer seen on a tile without any */
    long empty_unknown;           /* a tile without adventurers whose top or height is unknown */
    long confident, confident_wrong;
    long confident_of[4], confident_wrong_of[4]; /* the same per element: VISION_EL_TYPE.. */
    rwu top_by_height[VISION_EL_STACK_MAX + 1], height_by_height[VISION_EL_STACK_MAX + 1];
    long height_read[VISION_EL_STACK_MAX + 1][VISION_EL_STACK_MAX + 2]; /* [truth][read; unknown] */
    long height_by_colour[EL_MAX_SEATS][4]; /* [the true top's colour][HEIGHT_RIGHT..] */
    height_bin by_lean[LEAN_BINS];     /* by how far one piece moves the stack's image */
    height_bin by_shadow[SHADOW_BINS]; /* by how long a shadow one piece casts */
    /* tiles typed wrong: [truth][read], and of them read with confidence under UNSURE_TYPE */
    long type_confused[EL_TILE_TYPES][EL_TILE_TYPES][2];
} tally;

static void rwu_add(rwu *into, const rwu *from)
{
    into->right += from->right;
    into->wrong += from->wrong;
    into->unknown += from->unknown;
}

static void height_bin_add(height_bin *into, const height_bin *from)
{
    rwu_add(&into->height, &from->height);
    into->missed += from->missed;
    into->off_one += from->off_one;
}

static void tally_add(tally *into, const tally *from)
{
    into->images += from->images;
    into->exact += from->exact;
    into->failed += from->failed;
    into->tiles += from->tiles;
    into->stacks += from->stacks;
    rwu_add(&into->type, &from->type);
    rwu_add(&into->top, &from->top);
    rwu_add(&into->height, &from->height);
    rwu_add(&into->token, &from->token);
    into->height_pair += from->height_pair;
    into->height_pair_right += from->height_pair_right;
    into->height_in_read += from->height_in_read;
    into->type_used += from->type_used;
    into->type_used_wrong += from->type_used_wrong;
    into->height_used += from->height_used;
    into->height_used_wrong += from->height_used_wrong;
    for (int b = 0; b < CONFIDENCE_BINS; b++)
        for (int k = 0; k < 3; k++)
            into->height_by_confidence[b][k] += from->height_by_confidence[b][k];
    rwu_add(&into->tokens_lying, &from->tokens_lying);
    into->token_seen += from->token_seen;
    into->token_seen_sure += from->token_seen_sure;
    into->extra += from->extra;
    into->phantom += from->phantom;
    into->empty_unknown += from->empty_unknown;
    into->confident += from->confident;
    into->confident_wrong += from->confident_wrong;
    for (int k = 0; k < 4; k++) {
        into->confident_of[k] += from->confident_of[k];
        into->confident_wrong_of[k] += from->confident_wrong_of[k];
    }
    for (int h = 0; h <= VISION_EL_STACK_MAX; h++) {
        rwu_add(&into->top_by_height[h], &from->top_by_height[h]);
        rwu_add(&into->height_by_height[h], &from->height_by_height[h]);
        for (int r = 0; r < VISION_EL_STACK_MAX + 2; r++)
            into->height_read[h][r] += from->height_read[h][r];
    }
    for (int c = 0; c < EL_MAX_SEATS; c++)
        for (int k = 0; k < 4; k++)
            into->height_by_colour[c][k] += from->height_by_colour[c][k];
    for (int b = 0; b < LEAN_BINS; b++)
        height_bin_add(&into->by_lean[b], &from->by_lean[b]);
    for (int b = 0; b < SHADOW_BINS; b++)
        height_bin_add(&into->by_shadow[b], &from->by_shadow[b]);
    for (int t = 0; t < EL_TILE_TYPES; t++)
        for (int r = 0; r < EL_TILE_TYPES; r++)
            for (int k = 0; k < 2; k++)
                into->type_confused[t][r][k] += from->type_confused[t][r][k];
}

typedef enum { RIGHT, WRONG, UNKNOWN } verdict;

static void count(rwu *into, verdict v)
{
    if (v == RIGHT)
        into->right++;
    else if (v == WRONG)
        into->wrong++;
    else
        into->unknown++;
}

/* A confidence claim: reported (not unknown) with confidence >= CONFIDENT. True when it is
 * wrong: the caller says which it was. */
static bool claim(tally *one, int element, verdict v, const float *confidence)
{
    if (v == UNKNOWN || confidence[element] < CONFIDENT)
        return false;
    one->confident++;
    one->confident_wrong += v == WRONG;
    one->confident_of[element]++;
    one->confident_wrong_of[element] += v == WRONG;
    return v == WRONG;
}

/* The confidence from which the tracker's rules use a field: the pipeline's default. */
static float tracker_uses(void)
{
    pipeline_config config;
    pipeline_config_default(&config);
    return config.min_confidence;
}

/* A tile's type the tracker's rules would take (its confidence tracker_uses() or more). */
static void type_used(tally *one, verdict v, const float *confidence)
{
    if (v == UNKNOWN || confidence[VISION_EL_TYPE] < tracker_uses())
        return;
    one->type_used++;
    one->type_used_wrong += v == WRONG;
}

/* Appends a note on what went wrong to what (bounded). */
static void note(char *what, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void note(char *what, const char *format, ...)
{
    size_t used = strlen(what);
    if (used + 4 >= WHAT_MAX)
        return;
    if (used) {
        what[used++] = ';';
        what[used++] = ' ';
        what[used] = '\0';
    }
    va_list args;
    va_start(args, format);
    vsnprintf(what + used, WHAT_MAX - used, format, args);
    va_end(args);
}

static const char *type_name(int type)
{
    const char *name = type >= 0 ? el_tile_name((el_tile_type)type) : NULL;
    return name ? name : "unknown";
}

static const char *token_name(int token)
{
    if (token == EL_NO_TOKEN)
        return "none";
    const char *name = token >= 0 ? el_token_name((el_token)token) : NULL;
    return name ? name : "unknown";
}

static const char *top_name(const vision_el_observation *observation, int top)
{
    if (top == VISION_NONE)
        return "none";
    if (top >= 0 && top < observation->colour_count)
        return observation->colours[top];
    return "unknown";
}

#define GRID_SPAN 48 /* cells of the look-up grids (truth rows 0..20, seen rows shifted) */

static bool seen_unknown_at(const vision_el_observation *seen, int row, int col)
{
    for (int i = 0; i < seen->unknown_count; i++)
        if (seen->unknown[i].row == row && seen->unknown[i].col == col)
            return true;
    return false;
}

/* The translation (seen cell + offset = truth cell, within ±ALIGN_REACH) under which the most
 * seen tiles fall on truth tiles of their type, the fewest on no tile; the smallest wins ties. */
static void align(const vision_el_observation *truth, int truth_at[GRID_SPAN][GRID_SPAN],
                  const vision_el_observation *seen, int *row_offset, int *col_offset)
{
    long best = -1000000;
    *row_offset = *col_offset = 0;
    for (int reach = 0; reach <= 2 * ALIGN_REACH; reach++)
        for (int dr = -ALIGN_REACH; dr <= ALIGN_REACH; dr++)
            for (int dc = -ALIGN_REACH; dc <= ALIGN_REACH; dc++) {
                if (abs(dr) + abs(dc) != reach)
                    continue;
                long score = 0;
                for (int i = 0; i < seen->tile_count; i++) {
                    int r = seen->tiles[i].row + dr, c = seen->tiles[i].col + dc;
                    int t = r >= 0 && c >= 0 && r < GRID_SPAN && c < GRID_SPAN ? truth_at[r][c]
                                                                              : -1;
                    if (t < 0)
                        score -= 2;
                    else
                        score += 1 + (truth->tiles[t].type == seen->tiles[i].type) * 2;
                }
                if (score > best) {
                    best = score;
                    *row_offset = dr;
                    *col_offset = dc;
                }
            }
}

/*
 * Compares one image: every truth tile's type, token, and (where adventurers stand) top and
 * height; the tiles seen where there are none. seen NULL: nothing was read (every element
 * unknown). info NULL (the render failed): heights are not tallied by lean. Notes what went
 * wrong in what, and in sure_wrong what of that it claimed with confidence (claim); returns
 * how bad the image is (0: exactly right).
 */
static int compare(const vision_el_observation *truth, const vision_render_info *info,
                   const vision_el_observation *seen, tally *one, char *what, char *sure_wrong)
{
    static const vision_el_observation nothing;
    if (!seen)
        seen = &nothing;
    int truth_at[GRID_SPAN][GRID_SPAN];
    for (int r = 0; r < GRID_SPAN; r++)
        for (int c = 0; c < GRID_SPAN; c++)
            truth_at[r][c] = -1;
    for (int i = 0; i < truth->tile_count; i++)
        truth_at[truth->tiles[i].row][truth->tiles[i].col] = i;

    /* Both translated so that the smallest tile row and column are 0. */
    vision_el_observation *shifted = malloc(sizeof *shifted);
    if (!shifted) {
        fprintf(stderr, "bench_seeing: out of memory\n");
        exit(1);
    }
    *shifted = *seen;
    int row0 = 0, col0 = 0;
    for (int i = 0; i < shifted->tile_count; i++) {
        row0 = i == 0 || shifted->tiles[i].row < row0 ? shifted->tiles[i].row : row0;
        col0 = i == 0 || shifted->tiles[i].col < col0 ? shifted->tiles[i].col : col0;
    }
    for (int i = 0; i < shifted->tile_count; i++) {
        shifted->tiles[i].row -= row0;
        shifted->tiles[i].col -= col0;
    }
    for (int i = 0; i < shifted->unknown_count; i++) {
        shifted->unknown[i].row -= row0;
        shifted->unknown[i].col -= col0;
    }
    int dr, dc;
    align(truth, truth_at, shifted, &dr, &dc);
    if (dr || dc)
        note(what, "seen shifted by %+d,%+d", dr, dc);

    int badness = 0, missing = 0;
    one->images = 1;
    bool exact = shifted->unknown_count == 0;
    if (shifted->unknown_count)
        note(what, "%d cells unknown", shifted->unknown_count);

    int seen_at[GRID_SPAN][GRID_SPAN];
    for (int r = 0; r < GRID_SPAN; r++)
        for (int c = 0; c < GRID_SPAN; c++)
            seen_at[r][c] = -1;
    for (int i = 0; i < shifted->tile_count; i++) {
        int r = shifted->tiles[i].row + dr, c = shifted->tiles[i].col + dc;
        if (r >= 0 && c >= 0 && r < GRID_SPAN && c < GRID_SPAN && truth_at[r][c] >= 0) {
            seen_at[r][c] = i;
            continue;
        }
        one->extra++;
        badness += 2;
        exact = false;
        if (claim(one, VISION_EL_TYPE, WRONG, shifted->tiles[i].confidence))
            note(sure_wrong, "extra %s at r%dc%d (%.2f)", type_name(shifted->tiles[i].type), r,
                 c, shifted->tiles[i].confidence[VISION_EL_TYPE]);
        type_used(one, WRONG, shifted->tiles[i].confidence);
        note(what, "extra %s at r%dc%d", type_name(shifted->tiles[i].type), r, c);
    }

    for (int i = 0; i < truth->tile_count; i++) {
        const vision_el_tile *t = &truth->tiles[i];
        int s_index = seen_at[t->row][t->col];
        const vision_el_tile *s = s_index >= 0 ? &shifted->tiles[s_index] : NULL;
        bool hidden = seen_unknown_at(shifted, t->row - dr, t->col - dc);
        if (hidden)
            s = NULL;
        one->tiles++;

        verdict type = !s || s->type == VISION_UNKNOWN ? UNKNOWN
                       : s->type == t->type            ? RIGHT
                                                       : WRONG;
        count(&one->type, type);
        if (type == WRONG && t->type >= 0 && t->type < EL_TILE_TYPES && s->type >= 0 &&
            s->type < EL_TILE_TYPES)
            one->type_confused[t->type][s->type][s->confidence[VISION_EL_TYPE] < UNSURE_TYPE]++;
        if (s) {
            if (claim(one, VISION_EL_TYPE, type, s->confidence))
                note(sure_wrong, "r%dc%d %s read %s (%.2f)", t->row, t->col, type_name(t->type),
                     type_name(s->type), s->confidence[VISION_EL_TYPE]);
            type_used(one, type, s->confidence);
        }
        if (!s && !hidden && seen != &nothing) {
            if (missing++ < 3)
                note(what, "r%dc%d %s missing", t->row, t->col, type_name(t->type));
        } else if (type == WRONG)
            note(what, "r%dc%d %s read %s (%.2f)", t->row, t->col, type_name(t->type),
                 type_name(s->type), s->confidence[VISION_EL_TYPE]);
        else if (type == UNKNOWN && s)
            note(what, "r%dc%d type unknown", t->row, t->col);

        verdict token = !s || s->token == VISION_UNKNOWN ? UNKNOWN
                        : s->token == t->token           ? RIGHT
                                                         : WRONG;
        count(&one->token, token);
        if (t->token != EL_NO_TOKEN)
            count(&one->tokens_lying, token);
        else if (token == WRONG) {
            one->token_seen++;
            one->token_seen_sure += s->confidence[VISION_EL_TOKEN] >= CONFIDENT;
        }
        if (s && claim(one, VISION_EL_TOKEN, token, s->confidence))
            note(sure_wrong, "r%dc%d token %s read %s (%.2f)", t->row, t->col,
                 token_name(t->token), token_name(s->token), s->confidence[VISION_EL_TOKEN]);
        if (s && token != RIGHT)
            note(what, "r%dc%d token %s read %s", t->row, t->col, token_name(t->token),
                 token_name(s->token));

        verdict top, height;
        if (t->height > 0) {
            one->stacks++;
            const char *truth_top = top_name(truth, t->top);
            top = !s || s->top == VISION_UNKNOWN ? UNKNOWN
                  : s->top >= 0 && strcmp(top_name(shifted, s->top), truth_top) == 0 ? RIGHT
                                                                                      : WRONG;
            height = !s || s->height == VISION_UNKNOWN ? UNKNOWN
                     : s->height == t->height          ? RIGHT
                                                       : WRONG;
            count(&one->top, top);
            count(&one->height, height);
            if (s && s->height_or > 0) {
                one->height_pair++;
                one->height_pair_right += s->height == t->height || s->height_or == t->height;
            }
            one->height_in_read += s && (s->height == t->height || s->height_or == t->height);
            count(&one->top_by_height[t->height], top);
            count(&one->height_by_height[t->height], height);
            if (info) {
                height_bin *bins[2] = {&one->by_lean[lean_bin(info, i)],
                                       &one->by_shadow[shadow_bin(info)]};
                for (int k = 0; k < 2; k++) {
                    count(&bins[k]->height, height);
                    bins[k]->missed += s && s->height == 0;
                    bins[k]->off_one += s && s->height > 0 && abs(s->height - t->height) == 1;
                }
            }
            int read = !s || s->height == VISION_UNKNOWN || s->height < 0 ||
                               s->height > VISION_EL_STACK_MAX
                           ? VISION_EL_STACK_MAX + 1
                           : s->height;
            one->height_read[t->height][read]++;
            for (int c = 0; c < EL_MAX_SEATS; c++)
                if (strcmp(player_colours[c], truth_top) == 0)
                    one->height_by_colour[c][height == UNKNOWN     ? HEIGHT_UNKNOWN
                                             : height == RIGHT     ? HEIGHT_RIGHT
                                             : s->height < t->height ? HEIGHT_LOW
                                                                     : HEIGHT_HIGH]++;
            if (s && (top != RIGHT || height != RIGHT)) {
                char read_height[16] = "?";
                if (s->height != VISION_UNKNOWN)
                    snprintf(read_height, sizeof read_height, "%d", s->height);
                note(what, "r%dc%d stack %s x%d read %s x%s", t->row, t->col, truth_top,
                     t->height, top_name(shifted, s->top), read_height);
            }
        } else {
            /* no adventurer: the top must read none and the height 0 */
            top = !s || s->top == VISION_UNKNOWN ? UNKNOWN : s->top == VISION_NONE ? RIGHT : WRONG;
            height = !s || s->height == VISION_UNKNOWN ? UNKNOWN : s->height == 0 ? RIGHT : WRONG;
            if (s && (top == WRONG || height == WRONG)) {
                one->phantom++;
                char read_height[16] = "?";
                if (s->height != VISION_UNKNOWN)
                    snprintf(read_height, sizeof read_height, "%d", s->height);
                note(what, "r%dc%d no stack read %s x%s", t->row, t->col,
                     top_name(shifted, s->top), read_height);
            } else if (s && (top == UNKNOWN || height == UNKNOWN)) {
                one->empty_unknown++;
                note(what, "r%dc%d (no stack) top/height unknown", t->row, t->col);
            }
        }
        if (s && claim(one, VISION_EL_TOP, top, s->confidence))
            note(sure_wrong, "r%dc%d top %s read %s (%.2f)", t->row, t->col,
                 top_name(truth, t->top), top_name(shifted, s->top),
                 s->confidence[VISION_EL_TOP]);
        if (s && claim(one, VISION_EL_HEIGHT, height, s->confidence))
            note(sure_wrong, "r%dc%d height %d read %d (%.2f)", t->row, t->col, t->height,
                 s->height, s->confidence[VISION_EL_HEIGHT]);
        /* Every stack read, on an empty tile too (the rules would take it as adventurers). */
        if (s && s->height > 0) {
            int bin = (int)(s->confidence[VISION_EL_HEIGHT] * CONFIDENCE_BINS);
            bin = bin < 0 ? 0 : bin >= CONFIDENCE_BINS ? CONFIDENCE_BINS - 1 : bin;
            one->height_by_confidence[bin][0]++;
            one->height_by_confidence[bin][1] += s->height == t->height;
            one->height_by_confidence[bin][2] +=
                s->height == t->height || s->height_or == t->height;
            if (s->confidence[VISION_EL_HEIGHT] >= tracker_uses()) {
                one->height_used++;
                one->height_used_wrong += s->height != t->height && s->height_or != t->height;
            }
        }
        verdict all[4] = {type, top, height, token};
        for (int k = 0; k < 4; k++) {
            if (all[k] != RIGHT)
                exact = false;
            badness += all[k] == WRONG ? 2 : all[k] == UNKNOWN ? 1 : 0;
        }
    }
    if (missing > 3)
        note(what, "%d tiles missing in all", missing);
    one->exact = exact;
    free(shifted);
    return badness;
}

/* ---- the accuracy run ---- */

enum {
    BIN_ALL,
    BIN_READ,
    BIN_TILT_0,
    BIN_TILT_10,
    BIN_TILT_20,
    BIN_CAMERA_LOW,
    BIN_CAMERA_HIGH,
    BIN_CAMERA_RAISED,
    BIN_WARM,
    BIN_COOL,
    BIN_LIGHT_LOW,
    BIN_LIGHT_HIGH,
    BIN_NO_GLARE,
    BIN_GLARE,
    BIN_NO_HANDS,
    BIN_HANDS,
    BIN_LIGHT_FOUND,
    BIN_LIGHT_WRONG,
    BIN_LIGHT_NONE,
    BIN_LIGHT_SHORT,
    BIN_LIGHT_LITTLE_SHORT,
    BIN_LIGHT_LENGTH_RIGHT,
    BIN_LIGHT_LITTLE_LONG,
    BIN_LIGHT_LONG,
    BIN_COUNT
};

static const char *const bin_names[BIN_COUNT] = {
    [BIN_ALL] = "all images",
    [BIN_READ] = "images read",
    [BIN_TILT_0] = "tilt 0-10 deg",
    [BIN_TILT_10] = "tilt 10-20 deg",
    [BIN_TILT_20] = "tilt 20-35 deg",
    [BIN_CAMERA_LOW] = "camera 500-800 mm",
    [BIN_CAMERA_HIGH] = "camera 800-1200 mm",
    [BIN_CAMERA_RAISED] = "camera > 1200 mm",
    [BIN_WARM] = "light < 4000 K",
    [BIN_COOL] = "light >= 4000 K",
    [BIN_LIGHT_LOW] = "light elevation < 50",
    [BIN_LIGHT_HIGH] = "light elevation >= 50",
    [BIN_NO_GLARE] = "no glare",
    [BIN_GLARE] = "some glare",
    [BIN_NO_HANDS] = "no hands",
    [BIN_HANDS] = "1-2 hands",
    [BIN_LIGHT_FOUND] = "shadows' light +-10%",
    [BIN_LIGHT_WRONG] = "shadows' light off",
    [BIN_LIGHT_NONE] = "no light found",
    [BIN_LIGHT_SHORT] = "found/true < 0.9",
    [BIN_LIGHT_LITTLE_SHORT] = "found/true 0.9-0.97",
    [BIN_LIGHT_LENGTH_RIGHT] = "found/true 0.97-1.03",
    [BIN_LIGHT_LITTLE_LONG] = "found/true 1.03-1.1",
    [BIN_LIGHT_LONG] = "found/true > 1.1",
};

/* The bins an image of these conditions counts in (BIN_ALL first; BIN_READ when registration
 * and recognition took it, so that what the recogniser reads shows apart from what it was
 * never given). Returns how many. */
#define LIGHT_FOUND_WITHIN 0.1 /* a light found this near the render's, in length */
#define PIECE_FOUND_WITHIN 0.04 /* a pieces' height fitted this near the render's */
#define LIGHT_FOUND_TURN 10.0  /* and in direction (degrees), where it is long enough to say */
#define BINS_OF_MAX 12

/* Whether the light found is the render's: its length within LIGHT_FOUND_WITHIN, and its
 * direction within LIGHT_FOUND_TURN unless the render's light casts shadows under 0.2 mm a mm
 * (a lamp above about 80 degrees: no direction to speak of). */
static bool light_found_right(const scene_condition *c)
{
    return c->light_ratio > 0.0 && fabs(c->light_ratio - 1.0) <= LIGHT_FOUND_WITHIN &&
           (c->light_off_deg <= LIGHT_FOUND_TURN ||
            tan((90.0 - c->light_elevation_deg) * 3.14159265358979323846 / 180.0) < 0.2);
}

static int bins_of(const scene_condition *c, bool read, int bins[BINS_OF_MAX])
{
    int n = 0;
    bins[n++] = BIN_ALL;
    if (read)
        bins[n++] = BIN_READ;
    bins[n++] = c->tilt_deg < 10.0 ? BIN_TILT_0 : c->tilt_deg < 20.0 ? BIN_TILT_10 : BIN_TILT_20;
    /* the renderer raises the camera above its drawn height until the whole mat is in view */
    bins[n++] = c->camera_height_mm < 800.0    ? BIN_CAMERA_LOW
                : c->camera_height_mm <= 1200.0 ? BIN_CAMERA_HIGH
                                                : BIN_CAMERA_RAISED;
    if (!isnan(c->light_kelvin))
        bins[n++] = c->light_kelvin < 4000.0 ? BIN_WARM : BIN_COOL;
    if (!isnan(c->light_elevation_deg))
        bins[n++] = c->light_elevation_deg < 50.0 ? BIN_LIGHT_LOW : BIN_LIGHT_HIGH;
    if (!isnan(c->glare))
        bins[n++] = c->glare > 0.0 ? BIN_GLARE : BIN_NO_GLARE;
    bins[n++] = c->hands > 0 ? BIN_HANDS : BIN_NO_HANDS;
    if (read && !isnan(c->light_ratio))
        bins[n++] = c->light_ratio == 0.0      ? BIN_LIGHT_NONE
                    : light_found_right(c)     ? BIN_LIGHT_FOUND
                                               : BIN_LIGHT_WRONG;
    /* the light's length alone (its direction aside): how the heights bear a light too short
     * or too long */
    if (c->light_ratio > 0.0)
        bins[n++] = c->light_ratio < 0.9    ? BIN_LIGHT_SHORT
                    : c->light_ratio < 0.97 ? BIN_LIGHT_LITTLE_SHORT
                    : c->light_ratio <= 1.03 ? BIN_LIGHT_LENGTH_RIGHT
                    : c->light_ratio <= 1.1 ? BIN_LIGHT_LITTLE_LONG
                                            : BIN_LIGHT_LONG;
    return n;
}

typedef struct image_record {
    int box, players;
    uint64_t box_seed, scene_seed, game_seed;
    int lines_played, lines_total, tiles, adventurers;
    scene_condition condition;
    int badness;
    bool exact, failed;
    char what[WHAT_MAX];
    char sure_wrong[WHAT_MAX]; /* what it claimed with confidence and read wrong */
} image_record;

/* The commands that draw the image again (the info their --info writes says what it does
 * not) and read it with its box's profile, the files named as --save writes them in dir. */
static void print_commands(FILE *out, const char *indent, const char *dir, const image_record *r)
{
    const scene_condition *c = &r->condition;
    char stem[1024];
    snprintf(stem, sizeof stem, "%s/box-%d-scene-%llu", dir, r->box,
             (unsigned long long)r->scene_seed);
    fprintf(out,
            "%stablescribe render --game " GAME " --observation %s-truth.json --box %llu "
            "--seed %llu --light-kelvin %.0f --light-elevation %.1f --glare %.2f --hands %d "
            "--out %s-again.png --info %s-info.json\n"
            "%stablescribe recognise --game " GAME " --profile %s/box-%d.yaml %s.png\n",
            indent, stem, (unsigned long long)r->box_seed, (unsigned long long)r->scene_seed,
            c->light_kelvin, c->light_elevation_deg, c->glare, c->hands, stem, stem, indent,
            dir, r->box, stem);
}

typedef struct accuracy_options {
    int boxes, per_box;
    uint64_t seed;
    bool hands;
    bool true_size; /* each model given its box's true adventurer size */
    bool heights_known; /* each image read again once its memory knows the true heights */
    bool true_light;    /* each read told the render's light and pieces' height */
    const char *save;
} accuracy_options;

static double share(long part, long whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : NAN;
}

static void print_rwu(const char *name, const rwu *r, const char *target)
{
    long whole = r->right + r->wrong + r->unknown;
    printf("  %-24s %7.3f%% right  %6.3f%% wrong  %6.3f%% unknown  of %6ld%s%s\n", name,
           share(r->right, whole), share(r->wrong, whole), share(r->unknown, whole), whole,
           target ? "   target " : "", target ? target : "");
}

static bool write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    if (!file)
        return false;
    bool ok = fputs(text, file) >= 0 && fputc('\n', file) != EOF;
    return fclose(file) == 0 && ok;
}

static void save_observation(const char *path, const vision_el_observation *observation,
                             bool with_confidence)
{
    char *text = observation_el_format(observation, true, with_confidence);
    if (!text || !write_text(path, text))
        fprintf(stderr, "bench_seeing: cannot write %s\n", path);
    free(text);
}

static void save_image(const char *path, const vision_image *image)
{
    char error[512];
    if (vision_image_save(path, image, error, sizeof error) != VISION_OK)
        fprintf(stderr, "bench_seeing: %s\n", error);
}

#define TEACH_TAKES 4 /* teaching photos a box is given at most */

/* A box: its colours, the teaching render, registration and model. */
typedef struct box_taught {
    int players;
    uint64_t box_seed, scene_seed;
    vision_el_observation truth;
    vision_image frame;
    calibration_profile profile; /* as `calibrate teach` writes it: the model, and the focal
                                    length teaching measured, if it did */
    bool ready, saved;
    bool true_size;     /* --true-size: the model gets the render's adventurer size */
    bool without_glare; /* the teaching photo drawn without a lamp's glare (bench_replay's) */
    vision_registration registration; /* where the photo taught from lay */
    int retakes;        /* teaching photos taken again after a refusal */
    char why[1024];
    char refused[TEACH_TAKES][1024]; /* each photo's refusal (bench_seeing teaching) */
} box_taught;

static void teach_once(box_taught *box)
{
    char error[512];
    box->ready = false;
    if (calibration_teach_layout(player_colours, box->players, &box->truth) != VISION_OK) {
        snprintf(box->why, sizeof box->why, "calibration_teach_layout refused %d colours",
                 box->players);
        return;
    }
    vision_render_config config;
    vision_render_config_default(&config);
    config.box_seed = box->box_seed;
    config.scene_seed = box->scene_seed;
    if (box->without_glare)
        config.glare = 0.0;
    /* the render's info only for --true-size: the size it drew */
    vision_render_info *info = box->true_size ? calloc(1, sizeof *info) : NULL;
    bool no_memory = box->true_size && !info;
    vision_status status =
        no_memory ? VISION_NOMEM
                  : vision_el_render(&config, &box->truth, &box->frame, info, error, sizeof error);
    double true_diameter = info ? info->piece_diameter_mm : 0.0;
    double true_height = info ? info->piece_height_mm : 0.0;
    free(info);
    if (status != VISION_OK) {
        snprintf(box->why, sizeof box->why, "render of the teaching layout: %s%s%s",
                 vision_status_message(status), no_memory ? "" : ": ", no_memory ? "" : error);
        return;
    }
    calibration_profile_init(&box->profile, GAME);
    status = calibration_teach_image(&box->profile, &box->frame, &box->truth, &box->registration,
                                     error, sizeof error);
    if (status != VISION_OK) {
        snprintf(box->why, sizeof box->why, "teaching from the layout's photo: %s: %s",
                 vision_status_message(status), error);
        return;
    }
    if (box->true_size) {
        box->profile.el.piece_diameter_mm = true_diameter;
        box->profile.el.piece_height_mm = true_height;
    }
    box->ready = true;
}

/* The scene of a box's teaching photo taken again, the take-th (1 and more): box seed * 1000
 * + 500 + take (evaluation scenes are 1..M). */
static uint64_t retake_scene(uint64_t box_seed, int take)
{
    return box_seed * 1000 + 500 + (uint64_t)take;
}

/* Teaches the box as its owner would: when the learner refuses the photo (its message says
 * how to take a better one) or a marker is not seen, another photo is taken, at most
 * TEACH_TAKES in all, at retake_scene. */
static void teach_box(box_taught *box)
{
    uint64_t first = box->scene_seed;
    for (int take = 0; take < TEACH_TAKES; take++) {
        if (take > 0) {
            vision_image_free(&box->frame);
            box->scene_seed = retake_scene(box->box_seed, take);
            box->retakes++;
        }
        teach_once(box);
        if (box->ready)
            return;
        snprintf(box->refused[take], sizeof box->refused[take], "%s", box->why);
    }
    box->scene_seed = first;
}

/* Writes the box's teaching image, truth and profile once, so that a failing image of it can
 * be recognised again with `tablescribe recognise --profile DIR/box-B.yaml`. */
static void save_box(const char *dir, int b, box_taught *box)
{
    if (box->saved)
        return;
    box->saved = true;
    char path[1024], error[512];
    snprintf(path, sizeof path, "%s/box-%d-teach.png", dir, b);
    if (box->frame.pixels)
        save_image(path, &box->frame);
    snprintf(path, sizeof path, "%s/box-%d-teach-truth.json", dir, b);
    save_observation(path, &box->truth, false);
    if (!box->ready)
        return;
    snprintf(path, sizeof path, "%s/box-%d.yaml", dir, b);
    if (calibration_profile_save(path, &box->profile, error, sizeof error) != VISION_OK)
        fprintf(stderr, "bench_seeing: %s\n", error);
}

/* How well the reads found the light their stacks' shadows cast (light_against_render). */
static void print_lights(const image_record *records, int count)
{
    double *ratios = malloc((size_t)(count > 0 ? count : 1) * sizeof *ratios);
    if (!ratios)
        return;
    int read = 0, found = 0, right = 0, within[3] = {0}, turned = 0;
    static const double share[3] = {0.05, 0.1, 0.2};
    for (int i = 0; i < count; i++) {
        const scene_condition *c = &records[i].condition;
        if (isnan(c->light_ratio))
            continue;
        read++;
        if (c->light_ratio == 0.0)
            continue;
        ratios[found++] = c->light_ratio;
        right += light_found_right(c);
        for (int k = 0; k < 3; k++)
            within[k] += fabs(c->light_ratio - 1.0) <= share[k];
        turned += c->light_off_deg <= LIGHT_FOUND_TURN;
    }
    qsort(ratios, (size_t)found, sizeof *ratios, bench_compare_doubles);
    printf("  the light the shadows told, found in %d of the %d images read: its length against "
           "the render's (in the model's pieces) within 5%% in %d, 10%% in %d, 20%% in %d "
           "(found / true: median %.2f, quartiles %.2f-%.2f); its direction within %.0f deg in "
           "%d; \"+-10%%\" below: both (the direction where it says anything) in %d\n",
           found, read, within[0], within[1], within[2],
           found ? ratios[found / 2] : NAN, found ? ratios[found / 4] : NAN,
           found ? ratios[(3 * found) / 4] : NAN, LIGHT_FOUND_TURN, turned, right);
    /* The pieces' height fitted with that light, and the model's own, against the render's. */
    int pieces = 0, piece_right = 0, model_right = 0;
    for (int i = 0; i < count; i++) {
        const scene_condition *c = &records[i].condition;
        if (!(c->piece_ratio > 0.0))
            continue;
        ratios[pieces++] = c->piece_ratio;
        piece_right += fabs(c->piece_ratio - 1.0) <= PIECE_FOUND_WITHIN;
        model_right += fabs(c->model_piece_ratio - 1.0) <= PIECE_FOUND_WITHIN;
    }
    qsort(ratios, (size_t)pieces, sizeof *ratios, bench_compare_doubles);
    printf("  the pieces' height the stacks were fitted with in that light, against the render's: "
           "within %.0f%% in %d of %d (the model's %.0f mm in %d; fitted / true: median %.2f, "
           "quartiles %.2f-%.2f)\n",
           100.0 * PIECE_FOUND_WITHIN, piece_right, pieces, VISION_EL_PIECE_HEIGHT_MM,
           model_right, pieces ? ratios[pieces / 2] : NAN, pieces ? ratios[pieces / 4] : NAN,
           pieces ? ratios[(3 * pieces) / 4] : NAN);
    free(ratios);
}

static int compare_records(const void *a, const void *b)
{
    const image_record *x = a, *y = b;
    return (y->badness > x->badness) - (y->badness < x->badness);
}

static void print_condition_table(const tally bins[BIN_COUNT])
{
    printf("\nper condition (shares right; an element unknown is not right; \"images read\": "
           "those registration and recognition took, so the recogniser's reading apart from "
           "the images it was never given; the conditions below count every image):\n");
    printf("  %-22s %6s %8s %8s %8s %8s %8s %6s %7s %9s\n", "condition", "images", "exact",
           "type", "top", "height", "token", "extra", "failed", "conf.wrong");
    for (int b = 0; b < BIN_COUNT; b++) {
        const tally *t = &bins[b];
        if (t->images == 0) {
            printf("  %-22s %6d\n", bin_names[b], 0);
            continue;
        }
        long types = t->type.right + t->type.wrong + t->type.unknown;
        long tops = t->top.right + t->top.wrong + t->top.unknown;
        long heights = t->height.right + t->height.wrong + t->height.unknown;
        long tokens = t->token.right + t->token.wrong + t->token.unknown;
        printf("  %-22s %6ld %7.1f%% %7.3f%% %7.3f%% %7.2f%% %7.3f%% %6ld %7ld %8.3f%%\n",
               bin_names[b], t->images, share(t->exact, t->images), share(t->type.right, types),
               share(t->top.right, tops), share(t->height.right, heights),
               share(t->token.right, tokens), t->extra, t->failed,
               share(t->confident_wrong, t->confident));
    }
}

static void print_stack_heights(const tally *all)
{
    printf("\nper true stack height (top colour and height; read: what the height was read as):\n");
    printf("  %-6s %7s %9s %8s %8s %9s %8s %8s   read 0/1/2/3/4/5/unknown\n", "height",
           "stacks", "top right", "wrong", "unknown", "height ok", "wrong", "unknown");
    for (int h = 1; h <= VISION_EL_STACK_MAX; h++) {
        const rwu *top = &all->top_by_height[h], *height = &all->height_by_height[h];
        long n = top->right + top->wrong + top->unknown;
        printf("  %-6d %7ld %8.2f%% %7.2f%% %7.2f%% %8.2f%% %7.2f%% %7.2f%%   ", h, n,
               share(top->right, n), share(top->wrong, n), share(top->unknown, n),
               share(height->right, n), share(height->wrong, n), share(height->unknown, n));
        for (int r = 0; r <= VISION_EL_STACK_MAX + 1; r++)
            printf("%s%ld", r ? "/" : "", all->height_read[h][r]);
        printf("\n");
    }
}

static void print_heights_by_colour(const tally *all)
{
    printf("\nstack height by the colour on top (too low includes read as no stack):\n");
    printf("  %-8s %7s %9s %8s %9s %8s\n", "colour", "stacks", "height ok", "too low",
           "too high", "unknown");
    for (int c = 0; c < EL_MAX_SEATS; c++) {
        const long *k = all->height_by_colour[c];
        long n = k[HEIGHT_RIGHT] + k[HEIGHT_LOW] + k[HEIGHT_HIGH] + k[HEIGHT_UNKNOWN];
        if (n == 0)
            continue;
        printf("  %-8s %7ld %8.2f%% %7.2f%% %8.2f%% %7.2f%%\n", player_colours[c], n,
               share(k[HEIGHT_RIGHT], n), share(k[HEIGHT_LOW], n), share(k[HEIGHT_HIGH], n),
               share(k[HEIGHT_UNKNOWN], n));
    }
}

/* The tile types most often read as another, with how many of those were read unsure. */
static void print_type_confusions(const tally *all)
{
    long wrong = 0, unsure = 0;
    for (int t = 0; t < EL_TILE_TYPES; t++)
        for (int r = 0; r < EL_TILE_TYPES; r++) {
            wrong += all->type_confused[t][r][0] + all->type_confused[t][r][1];
            unsure += all->type_confused[t][r][1];
        }
    printf("\ntile types read as another: %ld, %ld of them with confidence under %.2f; most "
           "often:\n",
           wrong, unsure, (double)UNSURE_TYPE);
    bool shown[EL_TILE_TYPES][EL_TILE_TYPES] = {{false}};
    for (int k = 0; k < CONFUSIONS_SHOWN; k++) {
        int best_t = -1, best_r = -1;
        long best = 0;
        for (int t = 0; t < EL_TILE_TYPES; t++)
            for (int r = 0; r < EL_TILE_TYPES; r++) {
                long n = all->type_confused[t][r][0] + all->type_confused[t][r][1];
                if (!shown[t][r] && n > best) {
                    best = n;
                    best_t = t;
                    best_r = r;
                }
            }
        if (best_t < 0)
            break;
        shown[best_t][best_r] = true;
        printf("  %-14s read %-14s %5ld (%ld unsure)\n", type_name(best_t), type_name(best_r),
               best, all->type_confused[best_t][best_r][1]);
    }
}

/* Stacks' heights by one condition's bins, each from lows[b] (the last open-ended). */
static void print_height_bins(const char *title, const char *unit, const double *lows, int count,
                              const height_bin *bins)
{
    printf("\n%s:\n", title);
    printf("  %-10s %7s %9s %8s %8s   %9s %9s\n", unit, "stacks", "height ok", "wrong", "unknown",
           "read as 0", "one off");
    for (int b = 0; b < count; b++) {
        const rwu *h = &bins[b].height;
        long n = h->right + h->wrong + h->unknown;
        char name[32];
        if (b + 1 < count)
            snprintf(name, sizeof name, "%.0f-%.0f", lows[b], lows[b + 1]);
        else
            snprintf(name, sizeof name, ">= %.0f", lows[b]);
        printf("  %-10s %7ld %8.2f%% %7.2f%% %7.2f%%   %8.2f%% %8.2f%%\n", name, n,
               share(h->right, n), share(h->wrong, n), share(h->unknown, n),
               share(bins[b].missed, n), share(bins[b].off_one, n));
    }
}

static const char *met(double value, double target, bool at_least)
{
    if (isnan(value))
        return "not measured";
    return (at_least ? value >= target : value <= target) ? "met" : "NOT met";
}

static int accuracy(const accuracy_options *options)
{
    int total_images = options->boxes * options->per_box;
    image_record *records = calloc((size_t)total_images, sizeof *records);
    tally *bins = calloc(BIN_COUNT, sizeof *bins);
    box_taught *box = calloc(1, sizeof *box);
    vision_el_observation *truth = malloc(sizeof *truth), *seen = malloc(sizeof *seen);
    if (!records || !bins || !box || !truth || !seen) {
        fprintf(stderr, "bench_seeing: out of memory\n");
        return 1;
    }
    if (options->save && mkdir(options->save, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bench_seeing: cannot make %s: %s\n", options->save, strerror(errno));
        return 1;
    }
    vision_mat mat;
    vision_mat_default(&mat);
    double started = bench_seconds();
    double render_s = 0.0, register_s = 0.0, recognise_s = 0.0;
    /* registrations by where their focal length came from, and those that put the camera's
     * height more than 2% off the render's (heights of stacks are read against it) */
    long focal_from[4] = {0}, height_off = 0;
    /* by whether a glare was drawn: the images a glare was taken off in, of those read */
    long glare_off[2] = {0, 0}, glare_read[2] = {0, 0};
    int done = 0, saved = 0, boxes_failed = 0, retakes = 0, boxes_retaken = 0;
    long failures[4] = {0, 0, 0, 0}; /* render, register, recognise, game */
    char first_failure[4][600] = {"", "", "", ""};

    for (int b = 0; b < options->boxes; b++) {
        vision_image_free(&box->frame);
        memset(box, 0, sizeof *box);
        box->players = 2 + b % 3;
        box->box_seed = options->seed * 1000 + (uint64_t)b;
        box->scene_seed = box->box_seed * 1000; /* evaluation scenes are box_seed*1000 + 1.. */
        box->true_size = options->true_size;
        teach_box(box);
        retakes += box->retakes;
        boxes_retaken += box->retakes > 0;
        if (!box->ready) {
            boxes_failed++;
            fprintf(stderr, "box %d (box seed %llu): %s\n", b,
                    (unsigned long long)box->box_seed, box->why);
        }
        for (int i = 0; i < options->per_box; i++) {
            image_record *record = &records[done];
            record->box = b;
            record->players = box->players;
            record->box_seed = box->box_seed;
            record->scene_seed = box->box_seed * 1000 + 1 + (uint64_t)i;
            record->game_seed = record->scene_seed;
            el_state *state = malloc(sizeof *state);
            char why[600] = "";
            uint64_t choice = record->scene_seed ^ 0x5eed5eedULL; /* the stop: this image's own */
            if (!state) {
                fprintf(stderr, "bench_seeing: out of memory\n");
                return 1;
            }
            if (!game_at(box->players, record->game_seed, 0, i % 2 == 0, &choice, state,
                         &record->lines_total, &record->lines_played, why, sizeof why)) {
                failures[3]++;
                if (!first_failure[3][0])
                    snprintf(first_failure[3], sizeof first_failure[3], "%s", why);
                free(state);
                continue; /* no truth: the image is not counted */
            }
            record->adventurers = vision_el_truth_of_state(state, truth);
            free(state);
            record->tiles = truth->tile_count;

            vision_render_config config;
            vision_render_config_default(&config);
            config.box_seed = box->box_seed;
            config.scene_seed = record->scene_seed;
            config.hands = options->hands && i % 3 == 2 ? 1 + (i / 3) % 2 : 0;
            draw_light(record->scene_seed, &config);
            vision_render_info *info = calloc(1, sizeof *info);
            vision_image frame = {0};
            char error[512] = "";
            tally one;
            memset(&one, 0, sizeof one);
            bool have_seen = false;
            double light_ratio = NAN, light_off_deg = NAN, piece_ratio = NAN;
            int stage = -1; /* the stage that failed: 0 render, 1 register, 2 recognise */
            double t0 = bench_seconds();
            vision_status status = info ? vision_el_render(&config, truth, &frame, info, error,
                                                           sizeof error)
                                        : VISION_NOMEM;
            render_s += bench_seconds() - t0;
            if (status != VISION_OK) {
                stage = 0;
            } else {
                vision_registration registration;
                t0 = bench_seconds();
                status = vision_register(&frame, &mat, &box->profile.camera, &registration, error,
                                         sizeof error);
                register_s += bench_seconds() - t0;
                if (status == VISION_OK) {
                    focal_from[registration.focal_source & 3]++;
                    height_off += fabs(registration.camera_mm[2] / info->camera.camera_mm[2] -
                                       1.0) > 0.02;
                }
                if (status != VISION_OK) {
                    stage = 1;
                } else if (!box->ready) {
                    stage = 2;
                    snprintf(error, sizeof error, "the box was not taught: %.400s", box->why);
                    status = VISION_NOT_TAUGHT;
                } else {
                    /* a fresh read (a new memory), kept only to ask which light it found */
                    vision_el_memory *memory = vision_el_memory_new();
                    if (memory && options->true_light)
                        vision_el_memory_know_light(memory, info->shadow_per_mm,
                                                    info->piece_height_mm);
                    t0 = bench_seconds();
                    vision_el_timing timing;
                    status = memory ? vision_el_recognise_again(&frame, &registration, &mat,
                                                                &box->profile.el, memory, seen,
                                                                &timing, error, sizeof error)
                                    : VISION_NOMEM;
                    recognise_s += bench_seconds() - t0;
                    if (status != VISION_OK) {
                        stage = 2;
                    } else {
                        have_seen = true;
                        glare_off[config.glare > 0.0] += timing.glare_peak > 0.0;
                        glare_read[config.glare > 0.0]++;
                        if (options->heights_known)
                            status = read_knowing_heights(&frame, &registration, &mat,
                                                          &box->profile.el, truth, info, memory,
                                                          seen, error, sizeof error);
                        if (status != VISION_OK) {
                            stage = 2;
                            have_seen = false;
                        }
                        light_against_render(memory, info, &box->profile.el, &light_ratio,
                                             &light_off_deg, &piece_ratio);
                    }
                    vision_el_memory_free(memory);
                }
            }
            static const char *const stage_names[3] = {"render", "registration", "recognition"};
            if (stage >= 0) {
                failures[stage]++;
                one.failed = 1;
                note(record->what, "%s failed: %s: %s", stage_names[stage],
                     vision_status_message(status), error);
                if (!first_failure[stage][0])
                    snprintf(first_failure[stage], sizeof first_failure[stage],
                             "box %d, scene %llu: %s: %s", b,
                             (unsigned long long)record->scene_seed,
                             vision_status_message(status), error);
            }
            if (stage != 0 && info) {
                condition_of(&config, info, &record->condition);
                record->condition.light_ratio = light_ratio;
                record->condition.light_off_deg = light_off_deg;
                record->condition.piece_ratio = piece_ratio;
                record->condition.model_piece_ratio =
                    box->profile.el.piece_height_mm / info->piece_height_mm;
            } else {
                record->condition.light_ratio = record->condition.light_off_deg = NAN;
                record->condition.piece_ratio = record->condition.model_piece_ratio = NAN;
                record->condition.tilt_deg = record->condition.camera_height_mm = NAN;
                record->condition.light_kelvin = record->condition.light_elevation_deg = NAN;
                record->condition.glare = NAN;
                record->condition.hands = config.hands;
            }
            record->badness = compare(truth, stage != 0 ? info : NULL, have_seen ? seen : NULL,
                                      &one, record->what, record->sure_wrong);
            record->failed = one.failed;
            record->exact = one.exact;
            if (stage != 0) {
                int b_list[BINS_OF_MAX];
                int n = bins_of(&record->condition, have_seen, b_list);
                for (int k = 0; k < n; k++)
                    tally_add(&bins[b_list[k]], &one);
            } else {
                tally_add(&bins[BIN_ALL], &one);
            }

            if (options->save && !one.exact && (saved < SAVE_MAX || stage >= 0)) {
                char path[1024];
                save_box(options->save, b, box);
                snprintf(path, sizeof path, "%s/box-%d-scene-%llu", options->save, b,
                         (unsigned long long)record->scene_seed);
                size_t stem = strlen(path);
                if (frame.pixels) {
                    snprintf(path + stem, sizeof path - stem, ".png");
                    save_image(path, &frame);
                }
                snprintf(path + stem, sizeof path - stem, "-truth.json");
                save_observation(path, truth, false);
                if (have_seen) {
                    snprintf(path + stem, sizeof path - stem, "-seen.json");
                    save_observation(path, seen, true);
                }
                snprintf(path + stem, sizeof path - stem, "-commands.txt");
                FILE *commands = fopen(path, "w");
                if (commands) {
                    print_commands(commands, "", options->save, record);
                    if (fclose(commands) != 0)
                        fprintf(stderr, "bench_seeing: cannot write %s\n", path);
                } else {
                    fprintf(stderr, "bench_seeing: cannot write %s: %s\n", path, strerror(errno));
                }
                saved++;
            }
            vision_image_free(&frame);
            free(info);
            done++;
            if (done % 10 == 0 || done == total_images)
                fprintf(stderr, "bench_seeing: %d/%d images, %ld exact, %.0f s\n", done,
                        total_images, bins[BIN_ALL].exact, bench_seconds() - started);
        }
    }
    vision_image_free(&box->frame);
    double elapsed = bench_seconds() - started;

    const tally *all = &bins[BIN_ALL];
    printf("expedition-luxor seeing accuracy: %d boxes x %d images (seed %llu%s%s%s%s), "
           "1920x1080, %.0f s\n",
           options->boxes, options->per_box, (unsigned long long)options->seed,
           options->hands ? ", hands over a third" : "",
           options->true_size ? ", each box's true adventurer size" : "",
           options->heights_known ? ", read again knowing the heights" : "",
           options->true_light ? ", each read told the render's light and pieces' height" : "",
           elapsed);
    printf("  %ld images compared, %ld tiles, %ld stacks; render %.0f ms, registration %.1f ms, "
           "recognition %.1f ms an image on average\n",
           all->images, all->tiles, all->stacks, done ? render_s * 1e3 / done : 0.0,
           done ? register_s * 1e3 / done : 0.0, done ? recognise_s * 1e3 / done : 0.0);
    printf("  a lamp's glare found and taken off in %ld of the %ld images read without glare "
           "drawn, %ld of the %ld with\n",
           glare_off[0], glare_read[0], glare_off[1], glare_read[1]);
    print_lights(records, done);
    printf("  focal length measured from the markers in %ld images, the profile's (teaching's) in "
           "%ld, assumed in %ld; the camera's height more than 2%% off in %ld\n",
           focal_from[VISION_FOCAL_MARKERS], focal_from[VISION_FOCAL_HINT],
           focal_from[VISION_FOCAL_DEFAULT], height_off);
    static const char *const failure_names[4] = {"render", "registration", "recognition",
                                                 "random game"};
    for (int k = 0; k < 4; k++)
        if (failures[k])
            printf("  %s FAILED on %ld images (first: %s)\n", failure_names[k], failures[k],
                   first_failure[k]);
    if (retakes)
        printf("  %d teaching photos taken again (of %d boxes) after the learner refused one or "
               "a marker was not seen, as its message asks a user to\n",
               retakes, boxes_retaken);
    if (boxes_failed)
        printf("  %d of %d boxes could not be taught in %d photos (their images count as "
               "unread)\n",
               boxes_failed, options->boxes, TEACH_TAKES);

    long types = all->type.right + all->type.wrong + all->type.unknown;
    long tops = all->top.right + all->top.wrong + all->top.unknown;
    long heights = all->height.right + all->height.wrong + all->height.unknown;
    double type_share = share(all->type.right, types), top_share = share(all->top.right, tops);
    double height_share = share(all->height.right, heights);
    double exact_share = share(all->exact, all->images);
    double honesty = share(all->confident_wrong, all->confident);
    printf("\nagainst issue 7's targets:\n");
    printf("  tile type right       %8.3f%% of %ld tiles     (target >= 99.9%%: %s)\n", type_share,
           types, met(type_share, 99.9, true));
    printf("  top colour right      %8.3f%% of %ld stacks    (target >= 99.8%%: %s)\n", top_share,
           tops, met(top_share, 99.8, true));
    printf("  stack height exact    %8.3f%% of %ld stacks    (target >= 98%%: %s)\n",
           height_share, heights, met(height_share, 98.0, true));
    printf("  whole table exact     %8.3f%% of %ld images    (target >= 97%%: %s)\n", exact_share,
           all->images, met(exact_share, 97.0, true));
    printf("  confident but wrong   %8.3f%% of %ld elements reported with confidence >= %.1f "
           "(target < 0.1%%: %s)\n",
           honesty, all->confident, (double)CONFIDENT, met(honesty, 0.1 - 1e-12, false));
    static const char *const element_names[4] = {"type", "top", "height", "token"};
    printf("    of which");
    for (int k = 0; k < 4; k++)
        printf("%s %s %.3f%% of %ld", k ? "," : "", element_names[k],
               share(all->confident_wrong_of[k], all->confident_of[k]), all->confident_of[k]);
    printf("\n");
    /* each of them, where it is (the images in the order read) */
    int listed = 0;
    for (int i = 0; i < done; i++) {
        if (!records[i].sure_wrong[0])
            continue;
        if (listed++ == SURE_WRONG_SHOWN) {
            printf("    (and more)\n");
            break;
        }
        printf("    box %d, scene %llu: %s\n", records[i].box,
               (unsigned long long)records[i].scene_seed, records[i].sure_wrong);
    }

    const tally *read = &bins[BIN_READ];
    if (read->images < all->images)
        printf("  over the %ld images read alone (registered and recognised): type %.3f%%, "
               "top %.3f%%, height %.3f%%, exact %.1f%%\n",
               read->images,
               share(read->type.right, read->type.right + read->type.wrong + read->type.unknown),
               share(read->top.right, read->top.right + read->top.wrong + read->top.unknown),
               share(read->height.right,
                     read->height.right + read->height.wrong + read->height.unknown),
               share(read->exact, read->images));

    printf("\nevery element (an unknown one is neither right nor wrong):\n");
    print_rwu("tile type", &all->type, NULL);
    print_rwu("top colour (stacks)", &all->top, NULL);
    print_rwu("stack height (stacks)", &all->height, NULL);
    printf("  stack height, the one read or its runner-up (the rules may take either): %.3f%% "
           "right; %ld heights named a runner-up, %.3f%% of them rightly\n",
           share(all->height_in_read, all->stacks), all->height_pair,
           share(all->height_pair_right, all->height_pair));
    printf("  tile types the tracker's rules use (confidence >= %.1f; tiles seen where none lies "
           "too): %ld, %.3f%% of them wrong\n",
           tracker_uses(), all->type_used, share(all->type_used_wrong, all->type_used));
    printf("  stack heights the tracker's rules use (confidence >= %.1f; on empty tiles too): "
           "%ld, %.3f%% of them wrong with their runner-up\n",
           tracker_uses(), all->height_used, share(all->height_used_wrong, all->height_used));
    printf("  stack heights read (on empty tiles too), by their confidence (an honest confidence "
           "is the share right):");
    for (int b = 0; b < CONFIDENCE_BINS; b++) {
        const long *n = all->height_by_confidence[b];
        printf("%s %.1f-%.1f: %ld, %.1f%% right (%.1f%% with the runner-up)", b ? ";" : "",
               (double)b / CONFIDENCE_BINS, (double)(b + 1) / CONFIDENCE_BINS, n[0],
               share(n[1], n[0]), share(n[2], n[0]));
    }
    printf("\n");
    print_rwu("token (every tile)", &all->token, NULL);
    print_rwu("token (where one lies)", &all->tokens_lying, NULL);
    printf("  tokens seen where none lies: %ld, %ld of them with confidence >= %.1f\n",
           all->token_seen, all->token_seen_sure, CONFIDENT);
    printf("  tiles seen where there is none: %ld; adventurers seen on tiles without: %ld; "
           "empty tiles with top or height unknown: %ld\n",
           all->extra, all->phantom, all->empty_unknown);

    print_condition_table(bins);
    print_stack_heights(all);
    print_heights_by_colour(all);
    print_type_confusions(all);
    print_height_bins("stack height by how far one piece moves the stack's image in the photo "
                      "(near the camera's foot a height cannot be seen)",
                      "lean (px)", lean_bin_low, LEAN_BINS, all->by_lean);
    print_height_bins("stack height by how long a shadow one piece casts on the table (a lamp "
                      "nearly overhead: too short to tell; a low one: it leaves the tile)",
                      "shadow mm", shadow_bin_low, SHADOW_BINS, all->by_shadow);

    qsort(records, (size_t)done, sizeof *records, compare_records);
    printf("\nworst images read (at most 2 a box; `bench_seeing accuracy --seed %llu --boxes %d "
           "--per-box %d%s%s%s%s --save DIR` writes each failing one with its truth, and its "
           "box's teaching photo and profile, for the commands shown):\n",
           (unsigned long long)options->seed, options->boxes, options->per_box,
           options->hands ? " --hands" : "", options->true_size ? " --true-size" : "",
           options->heights_known ? " --heights-known" : "",
           options->true_light ? " --true-light" : "");
    int shown = 0;
    int *shown_of_box = calloc((size_t)options->boxes, sizeof *shown_of_box);
    for (int i = 0; i < done && shown < WORST_SHOWN && shown_of_box; i++) {
        const image_record *r = &records[i];
        if (r->exact)
            break;
        /* the images read, not those refused (counted above), and a few boxes, not one */
        if (r->failed || shown_of_box[r->box] == 2)
            continue;
        shown_of_box[r->box]++;
        const scene_condition *c = &r->condition;
        printf("  box %d (box seed %llu, %d players), scene %llu, game %llu at line %d/%d: %d "
               "tiles, %d adventurers; tilt %.1f deg, camera %.0f mm, light %.0f K at %.0f deg, "
               "glare %.2f, hands %d\n    %s\n",
               r->box, (unsigned long long)r->box_seed, r->players,
               (unsigned long long)r->scene_seed, (unsigned long long)r->game_seed,
               r->lines_played, r->lines_total, r->tiles, r->adventurers, c->tilt_deg,
               c->camera_height_mm, c->light_kelvin, c->light_elevation_deg, c->glare, c->hands,
               r->what);
        print_commands(stdout, "    ", options->save ? options->save : "DIR", r);
        shown++;
    }
    free(shown_of_box);
    if (shown == 0)
        printf("  none: every image read was read exactly\n");
    if (options->save)
        printf("\n%d failing images written to %s (at most %d)\n", saved, options->save,
               SAVE_MAX);

    int status = all->images > 0 && failures[0] < all->images ? 0 : 1;
    free(records);
    free(bins);
    free(box);
    free(truth);
    free(seen);
    return status;
}

/* ---- the speed run ---- */

/* The largest table random 4-player games reach: the most tiles, then the most adventurers. */
static bool largest_table(vision_el_observation *truth, int *adventurers, uint64_t *game_seed)
{
    int best_tiles = -1, best_adventurers = -1;
    el_state *state = malloc(sizeof *state);
    vision_el_observation *candidate = malloc(sizeof *candidate);
    if (!state || !candidate) {
        free(state);
        free(candidate);
        return false;
    }
    uint64_t unused = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        int total, stopped, count;
        char why[600];
        if (!game_at(4, seed, 1 << 30, true, &unused, state, &total, &stopped, why, sizeof why))
            continue;
        count = vision_el_truth_of_state(state, candidate);
        if (candidate->tile_count > best_tiles ||
            (candidate->tile_count == best_tiles && count > best_adventurers)) {
            best_tiles = candidate->tile_count;
            best_adventurers = count;
            *truth = *candidate;
            *game_seed = seed;
        }
    }
    *adventurers = best_adventurers;
    free(state);
    free(candidate);
    return best_tiles > 0;
}

/* The median, p95 and max of times (sorted in place); against budget_ms when above 0. */
static void print_times(const char *name, double *times, int count, double budget_ms)
{
    if (count == 0) {
        printf("  %-16s not measured\n", name);
        return;
    }
    qsort(times, (size_t)count, sizeof *times, bench_compare_doubles);
    double median = times[count / 2], p95 = times[count * 95 / 100];
    printf("  %-16s median %7.2f ms  p95 %7.2f ms  max %7.2f ms", name, median, p95,
           times[count - 1]);
    if (budget_ms > 0)
        printf("   (target <= %g ms: median %s, p95 %s)", budget_ms,
               median <= budget_ms ? "met" : "NOT met", p95 <= budget_ms ? "met" : "NOT met");
    printf("\n");
}

static int speed(int runs, uint64_t seed)
{
    cv_geom_set_threads(1);
    vision_el_observation *truth = malloc(sizeof *truth);
    box_taught *box = calloc(1, sizeof *box);
    enum { RENDER, REGISTER, GREY, DETECT, REFINE, FIT, RECOGNISE, RECTIFY, GRID, TYPES, STACKS,
           SERIES };
    static const char *const series_names[SERIES] = {
        "render (info)", "registration", "  grey",  "  markers", "  corners", "  fit",
        "recognition",   "  rectify",    "  grid",  "  types",   "  stacks"};
    double *times[SERIES];
    int counts[SERIES] = {0};
    for (int s = 0; s < SERIES; s++)
        times[s] = malloc((size_t)runs * sizeof **times);
    vision_el_observation *seen = malloc(sizeof *seen);
    if (!truth || !box || !seen) {
        fprintf(stderr, "bench_seeing: out of memory\n");
        return 1;
    }
    int adventurers = 0;
    uint64_t game_seed = 0;
    if (!largest_table(truth, &adventurers, &game_seed)) {
        fprintf(stderr, "bench_seeing: no random game could be played\n");
        return 1;
    }
    int rows = 0, cols = 0;
    for (int i = 0; i < truth->tile_count; i++) {
        rows = truth->tiles[i].row + 1 > rows ? truth->tiles[i].row + 1 : rows;
        cols = truth->tiles[i].col + 1 > cols ? truth->tiles[i].col + 1 : cols;
    }
    box->players = 4;
    box->box_seed = seed * 1000;
    /* Only the times matter here: a teaching photo the recogniser cannot learn from is
     * replaced by another (the accuracy run counts such failures). */
    for (int attempt = 0; attempt < 20 && !box->ready; attempt++) {
        box->scene_seed = box->box_seed * 1000 + 999 - (uint64_t)attempt;
        vision_image_free(&box->frame);
        teach_once(box);
        if (!box->ready)
            fprintf(stderr, "bench_seeing: box %llu, teaching scene %llu: %s\n",
                    (unsigned long long)box->box_seed, (unsigned long long)box->scene_seed,
                    box->why);
    }
    if (!box->ready)
        fprintf(stderr, "bench_seeing: no teaching photo of box %llu was learnt: recognition "
                        "not timed\n",
                (unsigned long long)box->box_seed);
    vision_mat mat;
    vision_mat_default(&mat);
    long failed[3] = {0, 0, 0};
    char first[3][600] = {"", "", ""};
    for (int run = 0; run < runs; run++) {
        vision_render_config config;
        vision_render_config_default(&config);
        config.box_seed = box->box_seed;
        config.scene_seed = box->box_seed * 1000 + 1 + (uint64_t)run;
        vision_image frame = {0};
        char error[512] = "";
        double t0 = bench_seconds();
        vision_status status = vision_el_render(&config, truth, &frame, NULL, error, sizeof error);
        double elapsed = (bench_seconds() - t0) * 1e3;
        if (status != VISION_OK) {
            if (!failed[0]++)
                snprintf(first[0], sizeof first[0], "scene %llu: %s: %s",
                         (unsigned long long)config.scene_seed, vision_status_message(status),
                         error);
            continue;
        }
        times[RENDER][counts[RENDER]++] = elapsed;
        vision_registration registration;
        vision_register_timing stages;
        t0 = bench_seconds();
        status = vision_register_timed(&frame, &mat, &box->profile.camera, false, &registration,
                                       &stages, error, sizeof error);
        elapsed = (bench_seconds() - t0) * 1e3;
        if (status != VISION_OK) {
            if (!failed[1]++)
                snprintf(first[1], sizeof first[1], "scene %llu: %s: %s",
                         (unsigned long long)config.scene_seed, vision_status_message(status),
                         error);
            vision_image_free(&frame);
            continue;
        }
        times[REGISTER][counts[REGISTER]++] = elapsed;
        times[GREY][counts[GREY]++] = stages.grey_ms;
        times[DETECT][counts[DETECT]++] = stages.detect_ms;
        times[REFINE][counts[REFINE]++] = stages.refine_ms;
        times[FIT][counts[FIT]++] = stages.fit_ms;
        if (box->ready) {
            vision_el_timing timing;
            t0 = bench_seconds();
            status = vision_el_recognise(&frame, &registration, &mat, &box->profile.el, seen,
                                         &timing, error, sizeof error);
            elapsed = (bench_seconds() - t0) * 1e3;
            if (status != VISION_OK) {
                if (!failed[2]++)
                    snprintf(first[2], sizeof first[2], "scene %llu: %s: %s",
                             (unsigned long long)config.scene_seed,
                             vision_status_message(status), error);
            } else {
                times[RECOGNISE][counts[RECOGNISE]++] = elapsed;
                times[RECTIFY][counts[RECTIFY]++] = timing.rectify_ms;
                times[GRID][counts[GRID]++] = timing.grid_ms;
                times[TYPES][counts[TYPES]++] = timing.types_ms;
                times[STACKS][counts[STACKS]++] = timing.stacks_ms;
            }
        }
        vision_image_free(&frame);
        if ((run + 1) % 10 == 0)
            fprintf(stderr, "bench_seeing: %d/%d runs\n", run + 1, runs);
    }
    printf("expedition-luxor seeing speed: %d runs, one OpenCV thread, 1920x1080, a %dx%d "
           "layout of %d tiles and %d adventurers (4 players, random game %llu at its end), "
           "box seed %llu taught at scene %llu, scenes %llu..\n",
           runs, rows, cols, truth->tile_count, adventurers, (unsigned long long)game_seed,
           (unsigned long long)box->box_seed, (unsigned long long)box->scene_seed,
           (unsigned long long)(box->box_seed * 1000 + 1));
    static const char *const failure_names[3] = {"render", "registration", "recognition"};
    for (int k = 0; k < 3; k++)
        if (failed[k])
            printf("  %s FAILED %ld times (first: %s)\n", failure_names[k], failed[k], first[k]);
    for (int s = 0; s < SERIES; s++)
        print_times(series_names[s], times[s], counts[s],
                    s == REGISTER ? 10.0 : s == RECOGNISE ? 30.0 : 0.0);
    for (int s = 0; s < SERIES; s++)
        free(times[s]);
    vision_image_free(&box->frame);
    free(box);
    free(truth);
    free(seen);
    return counts[REGISTER] > 0 ? 0 : 1;
}

/* ---- teaching ---- */

/* A refusal's reason with its numbers, colours and the stack or tile it names taken out, so
 * that refusals for one reason count together. */
static void refusal_kind(const char *why, char *kind, size_t size)
{
    static const char *const prefixes[] = {"teaching from the layout's photo: ", "bad input: "};
    const char *from = why;
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++)
        if (strncmp(from, prefixes[k], strlen(prefixes[k])) == 0)
            from += strlen(prefixes[k]);
    size_t n = 0;
    for (const char *c = from; *c && *c != '(' && *c != ':' && n + 12 < size;) {
        bool colour = false;
        for (int k = 0; k < EL_MAX_SEATS && !colour; k++) /* the colours the boxes have */
            if (strncmp(c, player_colours[k], strlen(player_colours[k])) == 0) {
                n += (size_t)snprintf(kind + n, size - n, "<colour>");
                c += strlen(player_colours[k]);
                colour = true;
            }
        if (colour)
            continue;
        if (isdigit((unsigned char)*c)) {
            kind[n++] = 'N';
            while (isdigit((unsigned char)*c))
                c++;
            continue;
        }
        kind[n++] = *c++;
    }
    while (n > 0 && kind[n - 1] == ' ')
        n--;
    kind[n] = '\0';
}

/* How teaching goes over many boxes: each box's teaching layout photographed as in the
 * accuracy mode (scene box seed * 1000, retaken at box seed * 1000 + 501.. when refused), or
 * where scene is not 0, as bench_replay photographs it (that scene for every box, four
 * colours, no glare); how many photos it took, why the refused ones were, and how much of the
 * photo taught from `calibrate teach` reads back. No game is read. */
static int teaching(int boxes, uint64_t seed, uint64_t scene)
{
    enum { KINDS_MAX = 64 };
    box_taught *box = calloc(1, sizeof *box);
    struct {
        char text[160];
        int count;
        uint64_t box_seed, scene_seed; /* the first photo refused so */
    } *kinds = calloc(KINDS_MAX, sizeof *kinds);
    if (!box || !kinds) {
        free(box);
        free(kinds);
        fprintf(stderr, "bench_seeing: out of memory\n");
        return 1;
    }
    int taken_at[TEACH_TAKES] = {0}, untaught = 0, refusals = 0, kind_count = 0;
    vision_el_read_back read_back = {0}; /* summed over the photos taught from */
    int read_back_photos = 0, read_back_failed = 0, tiles_taught = 0;
    double started = bench_seconds();
    printf("expedition-luxor teaching: %d boxes (seed %llu), 1920x1080", boxes,
           (unsigned long long)seed);
    if (scene)
        printf(", every box's first photo at scene %llu without glare", (unsigned long long)scene);
    printf("\n");
    for (int b = 0; b < boxes; b++) {
        vision_image_free(&box->frame);
        memset(box, 0, sizeof *box);
        box->players = scene ? 4 : 2 + b % 3;
        box->without_glare = scene != 0;
        box->box_seed = seed * 1000 + (uint64_t)b;
        uint64_t first_scene = scene ? scene : box->box_seed * 1000;
        box->scene_seed = first_scene;
        teach_box(box); /* box->scene_seed: the photo taught from, or the first */
        if (box->ready)
            taken_at[box->retakes]++;
        else
            untaught++;
        vision_el_read_back read;
        char error[512];
        if (box->ready && calibration_read_back(&box->profile, &box->frame, &box->registration,
                                                &box->truth, &read, error,
                                                sizeof error) == VISION_OK) {
            read_back.types += read.types;
            read_back.stacks += read.stacks;
            read_back.tops += read.tops;
            read_back.heights += read.heights;
            tiles_taught += box->truth.tile_count;
            read_back_photos++;
        } else if (box->ready) {
            read_back_failed++;
        }
        int refused = box->ready ? box->retakes : TEACH_TAKES;
        for (int take = 0; take < refused; take++) {
            char kind[160];
            refusal_kind(box->refused[take], kind, sizeof kind);
            int k = 0;
            while (k < kind_count && strcmp(kinds[k].text, kind) != 0)
                k++;
            if (k == kind_count && kind_count < KINDS_MAX) {
                snprintf(kinds[kind_count].text, sizeof kinds[k].text, "%s", kind);
                kinds[kind_count].box_seed = box->box_seed;
                kinds[kind_count++].scene_seed =
                    take == 0 ? first_scene : retake_scene(box->box_seed, take);
            }
            if (k < kind_count)
                kinds[k].count++;
            refusals++;
        }
        if (!box->ready)
            printf("  box %d (box seed %llu) not taught: %s\n", b,
                   (unsigned long long)box->box_seed, box->why);
        if ((b + 1) % 10 == 0 || b + 1 == boxes)
            fprintf(stderr, "bench_seeing: %d/%d boxes, %d not taught, %.0f s\n", b + 1, boxes,
                    untaught, bench_seconds() - started);
    }
    printf("  taught from photo");
    for (int take = 0; take < TEACH_TAKES; take++)
        printf("%s %d: %d", take ? ";" : "", take + 1, taken_at[take]);
    printf("; not taught in %d photos: %d\n", TEACH_TAKES, untaught);
    printf("  photos refused: %d, by what the learner said (numbers as N, colours as <colour>):\n",
           refusals);
    for (int done = 0; done < kind_count; done++) { /* most said first */
        int most = -1;
        for (int k = 0; k < kind_count; k++)
            if (kinds[k].count > 0 && (most < 0 || kinds[k].count > kinds[most].count))
                most = k;
        if (most < 0)
            break;
        printf("    %4d  %s (first: box seed %llu, scene %llu)\n", kinds[most].count,
               kinds[most].text, (unsigned long long)kinds[most].box_seed,
               (unsigned long long)kinds[most].scene_seed);
        kinds[most].count = -kinds[most].count;
    }
    printf("  the photos taught from, read back as `calibrate teach` reads them (%d photos; %d "
           "not read): tile types %d of %d, tops %d of %d, heights %d of %d\n",
           read_back_photos, read_back_failed, read_back.types, tiles_taught, read_back.tops,
           read_back.stacks, read_back.heights, read_back.stacks);
    printf("  %.0f s in all\n", bench_seconds() - started);
    vision_image_free(&box->frame);
    free(box);
    free(kinds);
    return 0;
}

/* ---- the command line ---- */

static void usage(void)
{
    fprintf(stderr, "usage: bench_seeing accuracy [--boxes N] [--per-box M] [--seed S] "
                    "[--hands] [--save DIR] [--true-size] [--heights-known]\n"
                    "                             [--true-light]\n"
                    "       bench_seeing speed [--runs N] [--seed S]\n"
                    "       bench_seeing teaching [--boxes N] [--seed S] [--scene S]\n");
}

/* A whole number in [low, high] from text, or false. */
static bool whole_number(const char *text, long long low, long long high, long long *value)
{
    if (!text || !*text)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < low || v > high)
        return false;
    *value = v;
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    const char *mode = argv[1];
    bool is_accuracy = strcmp(mode, "accuracy") == 0, is_speed = strcmp(mode, "speed") == 0;
    bool is_teaching = strcmp(mode, "teaching") == 0;
    if (!is_accuracy && !is_speed && !is_teaching) {
        usage();
        return 2;
    }
    accuracy_options options = {.boxes = 30, .per_box = 10, .seed = 1};
    long long runs = 30, scene = 0, value;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--seed") == 0 && whole_number(next, 0, 1000000000LL, &value)) {
            options.seed = (uint64_t)value;
            i++;
        } else if ((is_accuracy || is_teaching) && strcmp(arg, "--boxes") == 0 &&
                   whole_number(next, 1, 100000, &value)) {
            options.boxes = (int)value;
            i++;
        } else if (is_accuracy && strcmp(arg, "--per-box") == 0 &&
                   whole_number(next, 1, 999, &value)) {
            options.per_box = (int)value;
            i++;
        } else if (is_accuracy && strcmp(arg, "--hands") == 0) {
            options.hands = true;
        } else if (is_accuracy && strcmp(arg, "--true-size") == 0) {
            options.true_size = true;
        } else if (is_accuracy && strcmp(arg, "--heights-known") == 0) {
            options.heights_known = true;
        } else if (is_accuracy && strcmp(arg, "--true-light") == 0) {
            options.true_light = true;
        } else if (is_accuracy && strcmp(arg, "--save") == 0 && next && *next) {
            options.save = next;
            i++;
        } else if (is_teaching && strcmp(arg, "--scene") == 0 &&
                   whole_number(next, 1, 1000000000LL, &value)) {
            scene = value;
            i++;
        } else if (is_speed && strcmp(arg, "--runs") == 0 &&
                   whole_number(next, 1, 100000, &value)) {
            runs = value;
            i++;
        } else {
            fprintf(stderr, "bench_seeing: bad argument '%s'%s\n", arg,
                    next && arg[0] == '-' && arg[1] == '-' ? " (or its value)" : "");
            usage();
            return 2;
        }
    }
    if (options.true_light && options.heights_known) {
        fprintf(stderr, "bench_seeing: --true-light and --heights-known measure different reads "
                        "(a light told, or one searched for from the heights): give one\n");
        return 2;
    }
    if (is_teaching)
        return teaching(options.boxes, options.seed, (uint64_t)scene);
    return is_accuracy ? accuracy(&options) : speed((int)runs, options.seed);
}
