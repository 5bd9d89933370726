/*
 * tablescribe render --script: a whole scripted Expedition Luxor game recorded into a frame
 * folder, as a camera at a fixed rate would see it played (issue 8; the end-to-end tests and
 * the demo table are built on it).
 *
 *   script ──el_play_line──▶ tables        the state after the start and after each action
 *          ──plan──────────▶ segments      rests, a hand reaching for each action, disturbances
 *          ──frames────────▶ one descriptor a frame: the table shown, the hands, the camera
 *          ──draw──────────▶ NNNNNN.jpg    a descriptor drawn once; a repeat (the table at rest)
 *                                          is a hard link to the first file that showed it
 *          ──truth─────────▶ times.txt, script.txt, truth/NNNN.json, truth.json
 *
 * Everything is written into a temporary sibling folder, renamed to the folder asked for at
 * the end: a recording appears whole or not at all, and two never mix.
 */
#include "cli.h"

#include "observation_json.h"
#include "vision.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SCRIPT_MAX_BYTES (1 << 20)
#define REACH_MS 700.0      /* a hand from beyond the mat's edge to the tile, and back */
#define HOLD_MS 500.0       /* at the tile; the table changes halfway */
#define HOLD_STEP_MS 300.0  /* each further tile a camp's movers or a token reach */
#define TURN_MS 500.0       /* a turn's end: the next player takes over */
#define RESTING_REACH_MS 600.0
#define FINGER_ABOVE_MM 4.0 /* the fingertip above what it touches */
#define TARGETS_MAX (EL_MAX_STOPS + 1)

const char *const cli_render_script_help =
    "\n"
    "Recording a scripted game (--script): the game, in the notation tablescribe play reads,\n"
    "played on the table in front of a fixed camera, into the new folder DIR (it must not exist\n"
    "or be empty; written whole or not at all). The table rests, still, after each action; for\n"
    "each action (a tile placed, its camp's movers, a token) a hand reaches in from the acting\n"
    "player's side of the mat (seat k of N at azimuth 360 k / N) to the tile, stays, and\n"
    "withdraws; the table changes while it is there. `end` and `pass` add a pause. The camera,\n"
    "the light and the layout's place are drawn once from the seed; the tiles never move.\n"
    "  --fps N                frames per second, 1 to 60 (default 10)\n"
    "  --pause MS             the table at rest after each action, 300 to 20000 (default 1500)\n"
    "  --players N            2 to 4 (default: the start layout's tiles / 2)\n"
    "  --expansion            the action tokens (boat, snakes, ...)\n"
    "  --format jpg|png       the frames' files (default jpg, quality 95: a 1080p frame is about\n"
    "                         0.3 MB, as PNG 2 MB and slower to write); with jpg the renderer\n"
    "                         adds no JPEG loss of its own unless --jpeg-quality is given\n"
    "  --resting-hand         in about a quarter of the pauses (at least one) the next player's\n"
    "                         hand comes to rest on a tile near their side for a whole pause\n"
    "  --nudge                the camera is bumped once, in the middle third of the game: a\n"
    "                         degree or so of tilt and turn, a few mm of height\n"
    "DIR holds:\n"
    "  NNNNNN.jpg             the frames (one that repeats an earlier frame is a hard link to it)\n"
    "  times.txt              one line a frame: its file name and its time in milliseconds\n"
    "  script.txt             the script as given\n"
    "  truth/NNNN.json        the observation JSON of each settled table: the start layout,\n"
    "                         then the table after each action\n"
    "  truth.json             the index: per table its observation, script line, seat, action,\n"
    "                         the frames it is on view and its rests (frames where nothing\n"
    "                         moves, and whether a resting hand is there); per action its hand's\n"
    "                         frames; the disturbances (resting hands with the tiles a quarter\n"
    "                         or more under them, the nudge's frame); the camera pose and the\n"
    "                         layout's place\n";

/* ---- the game: one table per state the camera should settle on ---- */

typedef struct table_entry {
    el_state state;
    int line;           /* the script line (from 1) whose action laid this table */
    int seat;           /* who acted; -1 for the start layout */
    char notation[128]; /* the action as played, canonical */
    int first_frame, last_frame; /* on view (-1 when never) */
} table_entry;

typedef struct cell_point {
    int row, col;
} cell_point;

typedef struct action_entry {
    int table_before, table_after;
    int seat;
    int target_count;
    cell_point targets[TARGETS_MAX]; /* the tile placed and its movers' stops; a token's
                                        mountain and target */
    bool ends_turn;                  /* an `end` or `pass` follows before the next action */
    int first_frame, last_frame;
} action_entry;

typedef struct game_record {
    el_config config;
    table_entry *tables;
    int table_count;
    action_entry *actions;
    int action_count;
} game_record;

/* ---- the plan ---- */

enum { SEGMENT_REST, SEGMENT_ACTION, SEGMENT_RESTING_HAND };

typedef struct segment {
    int kind;
    double start_ms, length_ms;
    int table;  /* REST, RESTING_HAND: shown; ACTION: the table before */
    int action; /* ACTION: index; RESTING_HAND: index of the disturbance */
} segment;

typedef struct frame_plan {
    int table;
    int hands;
    vision_render_hand hand[2];
    int nudged;
    int moving; /* something moves: a tracker should see the table busy */
} frame_plan;

typedef struct disturbance {
    const char *kind; /* "resting-hand", "camera-nudge" */
    int table;
    int seat;
    double tip_x_mm, tip_y_mm, from_deg;
    int first_frame, last_frame;
    int covered_count;
    cell_point covered[VISION_EL_TILES_MAX]; /* cells (observation rows) under the hand */
    bool covered_known;
} disturbance;

typedef struct recording {
    const cli_command *command;
    const render_script_request *request;
    vision_render_config config; /* the pose resolved, the layout fixed */
    vision_render_config nudged; /* the same after the nudge */
    game_record game;
    double cell_x[EL_GRID][EL_GRID], cell_y[EL_GRID][EL_GRID];
    double piece_height_mm;
    double seat_from_deg[EL_MAX_SEATS];
    segment *segments;
    int segment_count, segment_capacity;
    disturbance *disturbances;
    int disturbance_count;
    double nudge_ms; /* INFINITY: no nudge */
    double total_ms;
    frame_plan *frames;
    int frame_count;
    int drawn;
    char *folder; /* the temporary folder, malloc'd */
    const char *extension;
} recording;

static volatile sig_atomic_t interrupted;

static void on_signal(int signal_number)
{
    (void)signal_number;
    interrupted = 1;
}

/* The recorder's own draws (pose, layout place, disturbances), apart from the renderer's. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *state, double low, double high)
{
    return low + (high - low) * (double)(next_random(state) >> 11) * 0x1.0p-53;
}

/* ---- reading and playing the script ---- */

static int read_script(const cli_command *command, const char *path, char **text, size_t *length)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return cli_usage_error(command, "--script %s: %s", path, strerror(errno));
    char *buffer = malloc(SCRIPT_MAX_BYTES + 1);
    if (!buffer) {
        fclose(file);
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    size_t got = fread(buffer, 1, SCRIPT_MAX_BYTES + 1, file);
    bool failed = ferror(file);
    fclose(file);
    if (failed || got > SCRIPT_MAX_BYTES) {
        free(buffer);
        return cli_usage_error(command, "--script %s: %s", path,
                               failed ? "cannot be read" : "larger than 1 MiB: not a script");
    }
    buffer[got] = '\0';
    if (memchr(buffer, '\0', got)) {
        free(buffer);
        return cli_usage_error(command, "--script %s: a binary file, not a script", path);
    }
    *text = buffer;
    *length = got;
    return EXIT_OK;
}

/* The next line of text from *cursor, without its line break, copied into line (size bytes);
 * false at the end. */
static bool next_line(const char **cursor, char *line, size_t size, bool *too_long)
{
    const char *p = *cursor;
    if (!*p)
        return false;
    size_t length = strcspn(p, "\n");
    *cursor = p + length + (p[length] == '\n');
    if (length && p[length - 1] == '\r')
        length--;
    *too_long = length >= size;
    length = length < size ? length : size - 1;
    memcpy(line, p, length);
    line[length] = '\0';
    return true;
}

static bool grow(void **items, int *capacity, int count, size_t item_size)
{
    if (count < *capacity)
        return true;
    int larger = *capacity ? *capacity * 2 : 64;
    void *grown = realloc(*items, (size_t)larger * item_size);
    if (!grown)
        return false;
    *items = grown;
    *capacity = larger;
    return true;
}

/* The seats from the start layout (2 tiles a seat), when --players is not given. */
static int seats_of_start(const cli_command *command, const char *path, const char *text,
                          int *seats)
{
    el_config config;
    el_config_default(&config);
    el_state *probe = malloc(sizeof *probe);
    if (!probe) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    el_init(probe, &config, NULL);
    const char *cursor = text;
    char line[1024];
    bool too_long;
    int number = 0, code = EXIT_OK;
    *seats = 0;
    while (next_line(&cursor, line, sizeof line, &too_long)) {
        number++;
        el_line parsed;
        el_error error;
        if (el_parse(probe, line, &parsed, &error) != EL_OK || parsed.kind == EL_LINE_EMPTY)
            continue;
        if (parsed.kind != EL_LINE_START) {
            code = cli_usage_error(command, "%s:%d: the game begins with its start layout "
                                            "(\"start TYPE@ROW,COL ...\")",
                                   path, number);
        } else if (parsed.start_count % 2 || parsed.start_count < 4 || parsed.start_count > 8) {
            code = cli_usage_error(command, "%s:%d: a start layout of %d tiles: 2 a seat for 2 to "
                                            "4 players (or give --players)",
                                   path, number, parsed.start_count);
        } else {
            *seats = parsed.start_count / 2;
        }
        break;
    }
    free(probe);
    if (code == EXIT_OK && *seats == 0)
        code = cli_usage_error(command, "%s: no start layout: the script holds no game", path);
    return code;
}

/* Plays every line on the engine; each action that changes the table makes a table. Nothing is
 * written before the whole script is known to be legal. */
static int play_script(recording *r, const char *text)
{
    const cli_command *command = r->command;
    const char *path = r->request->script;
    game_record *game = &r->game;
    el_config_default(&game->config);
    game->config.expansion = r->request->expansion;
    int seats = r->request->players;
    int code = seats ? EXIT_OK : seats_of_start(command, path, text, &seats);
    if (code != EXIT_OK)
        return code;
    game->config.seats = seats;
    el_state *state = malloc(sizeof *state);
    if (!state) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    el_error error;
    if (el_init(state, &game->config, &error) != EL_OK) {
        free(state);
        return cli_usage_error(command, "%s", error.message);
    }
    int table_capacity = 0, action_capacity = 0;
    const char *cursor = text;
    char line[1024];
    bool too_long;
    int number = 0;
    while (code == EXIT_OK && next_line(&cursor, line, sizeof line, &too_long)) {
        number++;
        if (too_long) {
            code = cli_usage_error(command, "%s:%d: a line longer than %zu characters", path,
                                   number, sizeof line - 1);
            break;
        }
        el_state before = *state;
        el_line played;
        if (el_play_line(state, line, &played, &error) != EL_OK) {
            code = cli_usage_error(command, "%s:%d: %s", path, number, error.message);
            break;
        }
        if (played.kind == EL_LINE_EMPTY)
            continue;
        bool acts = played.kind == EL_LINE_START ||
                    played.move.kind == EL_MOVE_PLACE || played.move.kind == EL_MOVE_TOKEN;
        if (!acts) {
            if (game->action_count > 0)
                game->actions[game->action_count - 1].ends_turn = true;
            continue;
        }
        if (!grow((void **)&game->tables, &table_capacity, game->table_count,
                  sizeof *game->tables) ||
            !grow((void **)&game->actions, &action_capacity, game->action_count,
                  sizeof *game->actions)) {
            cli_error(command, "out of memory");
            code = EXIT_FAILURE_OTHER;
            break;
        }
        table_entry *table = &game->tables[game->table_count];
        memset(table, 0, sizeof *table);
        table->state = *state;
        table->line = number;
        table->first_frame = table->last_frame = -1;
        if (played.kind == EL_LINE_START) {
            table->seat = -1;
            el_format_start(state, table->notation, sizeof table->notation);
            if (game->table_count > 0) {
                code = cli_usage_error(command, "%s:%d: a second start layout", path, number);
                break;
            }
            game->table_count++;
            continue;
        }
        const el_move *move = &played.move;
        table->seat = before.active;
        el_format_move(move, table->notation, sizeof table->notation);
        action_entry *action = &game->actions[game->action_count++];
        memset(action, 0, sizeof *action);
        action->table_before = game->table_count - 1;
        action->table_after = game->table_count;
        action->seat = before.active;
        action->first_frame = action->last_frame = -1;
        if (move->kind == EL_MOVE_PLACE) {
            action->targets[action->target_count++] = (cell_point){move->row, move->col};
            static const int step_row[4] = {-1, 0, 1, 0}, step_col[4] = {0, 1, 0, -1};
            for (int k = 0; move->direction < EL_NO_DIRECTION && k < move->stop_count; k++)
                action->targets[action->target_count++] = (cell_point){
                    move->row + step_row[move->direction] * (k + 1),
                    move->col + step_col[move->direction] * (k + 1)};
        } else {
            action->targets[action->target_count++] = (cell_point){move->from_row,
                                                                   move->from_col};
            action->targets[action->target_count++] = (cell_point){move->row, move->col};
        }
        game->table_count++;
    }
    free(state);
    if (code == EXIT_OK && game->table_count == 0)
        code = cli_usage_error(command, "%s: no start layout: the script holds no game", path);
    return code;
}

/* ---- the scene: the camera's pose, the layout's place, the seats' sides ---- */

/* The pose drawn once from the seed where not given (so that a nudge can move it), the
 * renderer's own ranges. */
static void resolve_pose(recording *r, uint64_t *draws)
{
    vision_render_config *c = &r->config;
    double height = uniform(draws, 500, 1200), tilt = uniform(draws, 0, 35);
    double azimuth = uniform(draws, 0, 360);
    if (isnan(c->camera_height_mm))
        c->camera_height_mm = height;
    if (isnan(c->tilt_deg))
        c->tilt_deg = tilt;
    if (isnan(c->azimuth_deg))
        c->azimuth_deg = azimuth >= 360 ? 0 : azimuth;
    /* the nudge: a bumped camera, a little lower or higher, turned and tilted a degree or so */
    r->nudged = *c;
    double sign[3];
    for (int i = 0; i < 3; i++)
        sign[i] = next_random(draws) & 1 ? 1 : -1;
    r->nudged.tilt_deg = fmin(35, fmax(0, c->tilt_deg + sign[0] * uniform(draws, 0.5, 1.5)));
    r->nudged.azimuth_deg = fmod(c->azimuth_deg + 360 + sign[1] * uniform(draws, 1, 3), 360);
    r->nudged.camera_height_mm =
        fmin(1200, fmax(500, c->camera_height_mm + sign[2] * uniform(draws, 5, 15)));
}

/*
 * Places the layout for the whole game: the last table (which holds every tile) centred on the
 * mat, a little off by the seed, turned by the angle given or drawn (halved until it fits).
 * A small render of the last table checks the fit and says where every cell lies.
 */
static int place_layout(recording *r, uint64_t *draws)
{
    const game_record *game = &r->game;
    const el_state *last = &game->tables[game->table_count - 1].state;
    vision_el_observation *truth = malloc(sizeof *truth);
    vision_render_info *info = malloc(sizeof *info);
    if (!truth || !info) {
        free(truth);
        free(info);
        cli_error(r->command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    vision_el_truth_of_state(last, truth);
    for (int i = 0; i < truth->tile_count; i++) {
        truth->tiles[i].row += last->min_row; /* the game's own rows: they never move */
        truth->tiles[i].col += last->min_col;
    }
    vision_render_config *c = &r->config;
    bool angle_given = !isnan(c->layout_angle_deg);
    double angle = angle_given ? c->layout_angle_deg : uniform(draws, -8, 8);
    double off_x = uniform(draws, -15, 15), off_y = uniform(draws, -15, 15);
    double middle_row = (last->min_row + last->max_row) / 2.0;
    double middle_col = (last->min_col + last->max_col) / 2.0;
    double pitch = c->mat.tile_mm + 1.5; /* about: the renderer draws the gap */
    vision_render_config trial = *c;
    trial.width = 96;
    trial.height = (int)fmax(32, round(96.0 * c->height / c->width));
    trial.hands = 0;
    char error[400] = "";
    vision_status status = VISION_BAD_INPUT;
    for (int attempt = 0; attempt < 12 && status == VISION_BAD_INPUT; attempt++) {
        if (attempt % 2 == 1) { /* centred, then a smaller turn */
            off_x = off_y = 0;
        } else if (attempt > 0 && !angle_given) {
            angle *= 0.5;
        }
        double a = angle * 3.14159265358979323846 / 180;
        double ox = middle_col * pitch, oy = middle_row * pitch;
        trial.layout_angle_deg = angle;
        trial.layout_x_mm = c->mat.width_mm / 2 + off_x - (ox * cos(a) - oy * sin(a));
        trial.layout_y_mm = c->mat.height_mm / 2 + off_y - (ox * sin(a) + oy * cos(a));
        vision_image frame;
        status = vision_el_render(&trial, truth, &frame, info, error, sizeof error);
        vision_image_free(&frame);
        if (status == VISION_BAD_INPUT && !strstr(error, "does not fit"))
            break;
    }
    int code = EXIT_OK;
    if (status != VISION_OK) {
        cli_error(r->command, "%s: the game's table cannot be drawn: %s", r->request->script,
                  error);
        code = cli_vision_exit_code(status);
    } else {
        c->layout_angle_deg = trial.layout_angle_deg;
        c->layout_x_mm = trial.layout_x_mm;
        c->layout_y_mm = trial.layout_y_mm;
        r->nudged.layout_angle_deg = c->layout_angle_deg;
        r->nudged.layout_x_mm = c->layout_x_mm;
        r->nudged.layout_y_mm = c->layout_y_mm;
        for (int i = 0; i < truth->tile_count; i++) {
            int row = truth->tiles[i].row + EL_ORIGIN, col = truth->tiles[i].col + EL_ORIGIN;
            r->cell_x[row][col] = info->tiles[i].x_mm;
            r->cell_y[row][col] = info->tiles[i].y_mm;
        }
        r->piece_height_mm = info->piece_height_mm;
    }
    free(truth);
    free(info);
    return code;
}

/* ---- the plan: segments, then one descriptor a frame ---- */

static bool add_segment(recording *r, int kind, double length_ms, int table, int action)
{
    if (!grow((void **)&r->segments, &r->segment_capacity, r->segment_count,
              sizeof *r->segments))
        return false;
    segment *s = &r->segments[r->segment_count++];
    *s = (segment){kind, r->total_ms, length_ms, table, action};
    r->total_ms += length_ms;
    return true;
}

static double action_hold_ms(const action_entry *action)
{
    return HOLD_MS + (action->target_count - 1) * HOLD_STEP_MS;
}

/* A resting hand: a seat's hand laid flat on the table, its fingertips on one of the three
 * tiles nearest its own side, so that the table settles with some cells hidden. */
static void resting_place(recording *r, int seat, int table, uint64_t *draws, disturbance *d)
{
    double from = r->seat_from_deg[seat] * 3.14159265358979323846 / 180;
    double back_x = sin(from), back_y = cos(from); /* towards the seat */
    const el_state *state = &r->game.tables[table].state;
    double best[3] = {-INFINITY, -INFINITY, -INFINITY};
    int best_cell[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            if (!state->cells[row + EL_ORIGIN][col + EL_ORIGIN].has_tile)
                continue;
            double x = r->cell_x[row + EL_ORIGIN][col + EL_ORIGIN];
            double y = r->cell_y[row + EL_ORIGIN][col + EL_ORIGIN];
            double towards = x * back_x + y * back_y;
            for (int k = 0; k < 3; k++)
                if (towards > best[k]) {
                    for (int m = 2; m > k; m--) {
                        best[m] = best[m - 1];
                        best_cell[m][0] = best_cell[m - 1][0];
                        best_cell[m][1] = best_cell[m - 1][1];
                    }
                    best[k] = towards;
                    best_cell[k][0] = row + EL_ORIGIN;
                    best_cell[k][1] = col + EL_ORIGIN;
                    break;
                }
        }
    int choices = best[2] > -INFINITY ? 3 : best[1] > -INFINITY ? 2 : 1;
    int pick = (int)(next_random(draws) % (uint64_t)choices);
    double back = uniform(draws, 0, 15); /* over the tile's near half */
    d->tip_x_mm = r->cell_x[best_cell[pick][0]][best_cell[pick][1]] + back_x * back;
    d->tip_y_mm = r->cell_y[best_cell[pick][0]][best_cell[pick][1]] + back_y * back;
    d->from_deg = r->seat_from_deg[seat];
    d->seat = seat;
}

static int plan(recording *r, uint64_t *draws)
{
    const render_script_request *q = r->request;
    game_record *game = &r->game;
    int seats = game->config.seats;
    for (int seat = 0; seat < seats; seat++)
        r->seat_from_deg[seat] = fmod(360.0 * seat / seats, 360);
    r->disturbances = calloc((size_t)game->action_count + 2, sizeof *r->disturbances);
    if (!r->disturbances)
        return EXIT_FAILURE_OTHER;
    /* which pauses a hand rests in (a quarter, at least one), and after which action the
     * camera is bumped (in the middle third of the game) */
    bool *resting = calloc((size_t)game->action_count + 1, sizeof *resting);
    if (!resting)
        return EXIT_FAILURE_OTHER;
    if (q->resting_hand && game->action_count > 0) {
        bool any = false;
        for (int i = 0; i < game->action_count; i++)
            any |= resting[i] = uniform(draws, 0, 1) < 0.25;
        if (!any)
            resting[next_random(draws) % (uint64_t)game->action_count] = true;
    }
    int nudge_after = -1;
    if (q->nudge && game->action_count > 0)
        nudge_after = game->action_count / 3 +
                      (int)(next_random(draws) % (uint64_t)(game->action_count / 3 + 1));
    r->nudge_ms = INFINITY;
    bool ok = add_segment(r, SEGMENT_REST, q->pause_ms + TURN_MS, 0, -1);
    for (int i = 0; ok && i < game->action_count; i++) {
        action_entry *action = &game->actions[i];
        ok = add_segment(r, SEGMENT_ACTION, 2 * REACH_MS + action_hold_ms(action),
                         action->table_before, i);
        if (ok && i == nudge_after) {
            r->nudge_ms = r->total_ms + q->pause_ms / 2.0;
            disturbance *d = &r->disturbances[r->disturbance_count++];
            d->kind = "camera-nudge";
            d->table = action->table_after;
            d->seat = -1;
            d->first_frame = d->last_frame = -1;
        }
        if (ok && resting[i]) {
            disturbance *d = &r->disturbances[r->disturbance_count];
            d->kind = "resting-hand";
            d->table = action->table_after;
            d->first_frame = d->last_frame = -1;
            resting_place(r, (action->seat + 1) % seats, action->table_after, draws, d);
            ok = add_segment(r, SEGMENT_REST, q->pause_ms, action->table_after, -1) &&
                 add_segment(r, SEGMENT_RESTING_HAND, 2 * RESTING_REACH_MS + q->pause_ms,
                             action->table_after, r->disturbance_count++);
        }
        if (ok)
            ok = add_segment(r, SEGMENT_REST, q->pause_ms + (action->ends_turn ? TURN_MS : 0),
                             action->table_after, -1);
    }
    free(resting);
    return ok ? EXIT_OK : EXIT_FAILURE_OTHER;
}

static double ease(double x)
{
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    return x * x * (3 - 2 * x);
}

/* Where the fingertip goes for an action on a cell: above the highest stack it sees there. */
static void cell_target(const recording *r, const action_entry *action, int k, double *x,
                        double *y, double *h)
{
    const cell_point *cell = &action->targets[k];
    int row = cell->row + EL_ORIGIN, col = cell->col + EL_ORIGIN;
    *x = r->cell_x[row][col];
    *y = r->cell_y[row][col];
    const el_cell *before = &r->game.tables[action->table_before].state.cells[row][col];
    const el_cell *after = &r->game.tables[action->table_after].state.cells[row][col];
    int height = before->height > after->height ? before->height : after->height;
    *h = 2.0 + height * r->piece_height_mm + FINGER_ABOVE_MM;
}

static frame_plan frame_at(const recording *r, const segment *s, double t_ms)
{
    frame_plan f;
    memset(&f, 0, sizeof f);
    f.table = s->table;
    f.nudged = t_ms >= r->nudge_ms;
    double u = t_ms - s->start_ms;
    if (s->kind == SEGMENT_ACTION) {
        const action_entry *action = &r->game.actions[s->action];
        double hold = action_hold_ms(action);
        vision_render_hand *hand = &f.hand[0];
        f.hands = 1;
        f.moving = 1;
        hand->placed = 1;
        hand->from_deg = r->seat_from_deg[action->seat];
        double x, y, h;
        if (u < REACH_MS) {
            hand->reach = ease(u / REACH_MS);
            cell_target(r, action, 0, &x, &y, &h);
        } else if (u < REACH_MS + hold) {
            hand->reach = 1;
            double along = (u - REACH_MS) / hold * (action->target_count - 1);
            int k = (int)along;
            k = k >= action->target_count - 1 ? action->target_count - 1 : k;
            cell_target(r, action, k, &x, &y, &h);
            if (k + 1 < action->target_count) {
                double x1, y1, h1, w = along - k;
                cell_target(r, action, k + 1, &x1, &y1, &h1);
                x += (x1 - x) * w;
                y += (y1 - y) * w;
                h = fmax(h, h1);
            }
            if (u >= REACH_MS + hold / 2)
                f.table = action->table_after;
        } else {
            hand->reach = ease(1 - (u - REACH_MS - hold) / REACH_MS);
            cell_target(r, action, action->target_count - 1, &x, &y, &h);
            f.table = action->table_after;
        }
        hand->tip_x_mm = x;
        hand->tip_y_mm = y;
        hand->tip_height_mm = h;
    } else if (s->kind == SEGMENT_RESTING_HAND) {
        const disturbance *d = &r->disturbances[s->action];
        vision_render_hand *hand = &f.hand[0];
        f.hands = 1;
        hand->placed = 1;
        hand->tip_x_mm = d->tip_x_mm;
        hand->tip_y_mm = d->tip_y_mm;
        hand->tip_height_mm = 2.0 + FINGER_ABOVE_MM;
        hand->from_deg = d->from_deg;
        double rest = s->length_ms - 2 * RESTING_REACH_MS;
        if (u < RESTING_REACH_MS) {
            hand->reach = ease(u / RESTING_REACH_MS);
            f.moving = 1;
        } else if (u < RESTING_REACH_MS + rest) {
            hand->reach = 1;
        } else {
            hand->reach = ease(1 - (u - RESTING_REACH_MS - rest) / RESTING_REACH_MS);
            f.moving = 1;
        }
    }
    return f;
}

static int plan_frames(recording *r)
{
    int fps = r->request->fps;
    double count = floor(r->total_ms * fps / 1000.0 - 1e-9) + 1;
    if (count > 10000000) {
        cli_error(r->command, "the recording would hold %.0f frames: too many", count);
        return EXIT_BAD_INPUT;
    }
    r->frame_count = (int)count;
    r->frames = calloc((size_t)r->frame_count, sizeof *r->frames);
    if (!r->frames) {
        cli_error(r->command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    int k = 0;
    for (int i = 0; i < r->frame_count; i++) {
        double t = i * 1000.0 / fps;
        while (k + 1 < r->segment_count && t >= r->segments[k + 1].start_ms)
            k++;
        r->frames[i] = frame_at(r, &r->segments[k], t);
        const frame_plan *f = &r->frames[i];
        table_entry *table = &r->game.tables[f->table];
        if (table->first_frame < 0)
            table->first_frame = i;
        table->last_frame = i;
        const segment *s = &r->segments[k];
        if (s->kind == SEGMENT_ACTION) {
            action_entry *action = &r->game.actions[s->action];
            if (action->first_frame < 0)
                action->first_frame = i;
            action->last_frame = i;
        } else if (s->kind == SEGMENT_RESTING_HAND) {
            disturbance *d = &r->disturbances[s->action];
            if (d->first_frame < 0)
                d->first_frame = i;
            d->last_frame = i;
        }
    }
    /* the nudge shows first in the frame at or after its moment */
    for (int i = 0; i < r->disturbance_count; i++) {
        disturbance *d = &r->disturbances[i];
        double first = ceil(r->nudge_ms * fps / 1000.0 - 1e-9);
        if (strcmp(d->kind, "camera-nudge") == 0 && first < r->frame_count)
            d->first_frame = d->last_frame = (int)first;
    }
    return EXIT_OK;
}

/* ---- writing ---- */

static int write_file(const char *folder, const char *name, const void *data, size_t length,
                      char *error, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) {
        snprintf(error, size, "%.400s: %s", path, strerror(errno));
        return -1;
    }
    const uint8_t *p = data;
    size_t left = length;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(error, size, "%.400s: %s", path, strerror(n < 0 ? errno : EIO));
            close(fd);
            return -1;
        }
        p += n;
        left -= (size_t)n;
    }
    if (close(fd) != 0) {
        snprintf(error, size, "%.400s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Another name for a frame already written: a hard link, or a copy where links are refused. */
static int repeat_file(const char *folder, const char *first, const char *name, char *error,
                       size_t size)
{
    char from[4096], to[4096];
    snprintf(from, sizeof from, "%s/%s", folder, first);
    snprintf(to, sizeof to, "%s/%s", folder, name);
    if (link(from, to) == 0)
        return 0;
    FILE *in = fopen(from, "rb");
    if (!in) {
        snprintf(error, size, "%.400s: %s", from, strerror(errno));
        return -1;
    }
    uint8_t *data = NULL;
    size_t length = 0, capacity = 0;
    int code = 0;
    for (;;) {
        if (length == capacity) {
            size_t larger = capacity ? capacity * 2 : 1 << 20;
            uint8_t *grown = realloc(data, larger);
            if (!grown) {
                snprintf(error, size, "out of memory");
                code = -1;
                break;
            }
            data = grown;
            capacity = larger;
        }
        size_t got = fread(data + length, 1, capacity - length, in);
        length += got;
        if (got == 0)
            break;
    }
    if (code == 0 && ferror(in)) {
        snprintf(error, size, "%.400s: cannot be read", from);
        code = -1;
    }
    fclose(in);
    if (code == 0)
        code = write_file(folder, name, data, length, error, size);
    free(data);
    return code;
}

/* Removes the temporary folder and what it holds (the recorder's files only: no deeper). */
static void remove_folder(const char *folder)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/truth", folder);
    const char *folders[2] = {path, folder};
    for (int i = 0; i < 2; i++) {
        DIR *dir = opendir(folders[i]);
        if (!dir)
            continue;
        struct dirent *entry;
        char file[4096 + 256];
        while ((entry = readdir(dir)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            snprintf(file, sizeof file, "%s/%s", folders[i], entry->d_name);
            if (unlink(file) != 0 && errno == EISDIR)
                rmdir(file);
        }
        closedir(dir);
        rmdir(folders[i]);
    }
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* The truth of a table in the game's own rows (the renderer's fixed layout keeps them). */
static void table_truth(const table_entry *table, vision_el_observation *truth)
{
    vision_el_truth_of_state(&table->state, truth);
    for (int i = 0; i < truth->tile_count; i++) {
        truth->tiles[i].row += table->state.min_row;
        truth->tiles[i].col += table->state.min_col;
    }
}

static void frame_name(const recording *r, int index, char *name, size_t size)
{
    snprintf(name, size, "%06d.%s", index, r->extension);
}

/* Draws every frame: a descriptor already drawn is linked, not drawn again. */
static int draw_frames(recording *r)
{
    vision_el_observation *truth = malloc(sizeof *truth);
    vision_render_info *info = malloc(sizeof *info);
    int *first_of = malloc(sizeof *first_of * (size_t)r->frame_count);
    int *stills = malloc(sizeof *stills * (size_t)r->frame_count);
    if (!truth || !info || !first_of || !stills) {
        free(truth);
        free(info);
        free(first_of);
        free(stills);
        cli_error(r->command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    bool progress = isatty(STDERR_FILENO);
    double started = now_seconds(), shown = 0;
    int code = EXIT_OK;
    char error[600] = "";
    /* frames without a hand already drawn (the table at rest): a rest that comes back after a
     * resting hand or a shadow shows the same pixels */
    int still_count = 0;
    for (int i = 0; i < r->frame_count && code == EXIT_OK; i++) {
        if (interrupted) {
            cli_error(r->command, "interrupted: nothing written");
            code = EXIT_FAILURE_OTHER;
            break;
        }
        const frame_plan *f = &r->frames[i];
        int first = -1;
        if (i > 0 && memcmp(f, &r->frames[i - 1], sizeof *f) == 0)
            first = first_of[i - 1];
        for (int k = still_count - 1; first < 0 && f->hands == 0 && k >= 0; k--)
            if (memcmp(f, &r->frames[stills[k]], sizeof *f) == 0)
                first = stills[k];
        char name[32], first_name[32];
        frame_name(r, i, name, sizeof name);
        if (first >= 0) {
            first_of[i] = first;
            frame_name(r, first, first_name, sizeof first_name);
            if (repeat_file(r->folder, first_name, name, error, sizeof error) != 0) {
                cli_error(r->command, "%s", error);
                code = EXIT_FAILURE_OTHER;
            }
            continue;
        }
        first_of[i] = i;
        if (f->hands == 0)
            stills[still_count++] = i;
        vision_render_config config = f->nudged ? r->nudged : r->config;
        config.hands = f->hands;
        memcpy(config.hand, f->hand, sizeof config.hand);
        table_truth(&r->game.tables[f->table], truth);
        vision_image frame;
        vision_status status = vision_el_render(&config, truth, &frame, info, error, sizeof error);
        uint8_t *data = NULL;
        size_t length = 0;
        if (status == VISION_OK) {
            char extension[8];
            snprintf(extension, sizeof extension, ".%s", r->extension);
            status = vision_image_encode(&frame, extension, &data, &length, error, sizeof error);
        }
        vision_image_free(&frame);
        if (status != VISION_OK) {
            cli_error(r->command, "frame %d: %s", i, error);
            code = cli_vision_exit_code(status);
            break;
        }
        if (write_file(r->folder, name, data, length, error, sizeof error) != 0) {
            cli_error(r->command, "%s", error);
            code = EXIT_FAILURE_OTHER;
        }
        free(data);
        r->drawn++;
        /* which cells a resting hand hides, from its first frame at rest */
        for (int d = 0; d < r->disturbance_count; d++) {
            disturbance *rest = &r->disturbances[d];
            if (strcmp(rest->kind, "resting-hand") != 0 || rest->covered_known ||
                f->moving || f->hands == 0 || i < rest->first_frame || i > rest->last_frame)
                continue;
            rest->covered_known = true;
            const el_state *state = &r->game.tables[f->table].state;
            for (int t = 0; t < info->tile_count; t++)
                if (info->tiles[t].hand_cover > 0.25)
                    rest->covered[rest->covered_count++] = (cell_point){
                        truth->tiles[t].row - state->min_row, truth->tiles[t].col - state->min_col};
        }
        double elapsed = now_seconds() - started;
        if (progress && (elapsed - shown > 0.25 || i == r->frame_count - 1)) {
            shown = elapsed;
            fprintf(stderr, "\rtablescribe render: frame %d of %d, %d drawn, %.1f frames/s ",
                    i + 1, r->frame_count, r->drawn, (i + 1) / fmax(elapsed, 1e-3));
        }
    }
    if (progress)
        fputc('\n', stderr);
    free(truth);
    free(info);
    free(first_of);
    free(stills);
    return code;
}

static json_t *frame_range(int first, int last)
{
    return first < 0 ? json_null() : json_pack("[i, i]", first, last);
}

/* Runs of frames at rest (nothing moving) showing this table: [first, last] each. The camera's
 * nudge ends a run: the picture jumps. */
static json_t *rests_of(const recording *r, int table)
{
    json_t *rests = json_array();
    int start = -1;
    for (int i = 0; i <= r->frame_count; i++) {
        bool at_rest = i < r->frame_count && r->frames[i].table == table && !r->frames[i].moving;
        bool jumped = at_rest && start >= 0 && r->frames[i].nudged != r->frames[start].nudged;
        if (start >= 0 && (!at_rest || jumped)) {
            json_t *rest = json_pack("{s:o, s:b}", "frames", frame_range(start, i - 1), "hand",
                                     r->frames[start].hands > 0);
            json_array_append_new(rests, rest);
            start = -1;
        }
        if (at_rest && start < 0)
            start = i;
    }
    return rests;
}

static int write_truth(recording *r, const char *script_text, size_t script_length)
{
    char error[600];
    const game_record *game = &r->game;
    /* times.txt: one line a frame */
    size_t capacity = (size_t)r->frame_count * 32 + 1;
    char *times = malloc(capacity);
    vision_el_observation *truth = malloc(sizeof *truth);
    if (!times || !truth) {
        free(times);
        free(truth);
        cli_error(r->command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    size_t used = 0;
    for (int i = 0; i < r->frame_count; i++) {
        char name[32];
        frame_name(r, i, name, sizeof name);
        used += (size_t)snprintf(times + used, capacity - used, "%s %lld\n", name,
                                 (long long)llround(i * 1000.0 / r->request->fps));
    }
    int failed = write_file(r->folder, "times.txt", times, used, error, sizeof error);
    free(times);
    if (!failed)
        failed = write_file(r->folder, "script.txt", script_text, script_length, error,
                            sizeof error);
    char truth_folder[4096];
    snprintf(truth_folder, sizeof truth_folder, "%s/truth", r->folder);
    if (!failed && mkdir(truth_folder, 0755) != 0) {
        snprintf(error, sizeof error, "%.400s: %s", truth_folder, strerror(errno));
        failed = -1;
    }
    json_t *tables = json_array();
    for (int t = 0; !failed && t < game->table_count; t++) {
        const table_entry *table = &game->tables[t];
        vision_el_truth_of_state(&table->state, truth);
        char *text = observation_el_format(truth, true, false);
        char name[32];
        snprintf(name, sizeof name, "%04d.json", t);
        if (!text) {
            snprintf(error, sizeof error, "out of memory");
            failed = -1;
            break;
        }
        failed = write_file(truth_folder, name, text, strlen(text), error, sizeof error);
        free(text);
        char path[48];
        snprintf(path, sizeof path, "truth/%s", name);
        json_t *entry = json_pack("{s:i, s:s, s:i, s:o, s:s, s:o, s:o}", "table", t,
                                  "observation", path, "line", table->line, "seat",
                                  table->seat < 0 ? json_null()
                                                  : json_string(game->config.colours[table->seat]),
                                  "action", table->notation, "frames",
                                  frame_range(table->first_frame, table->last_frame), "rests",
                                  rests_of(r, t));
        json_array_append_new(tables, entry);
    }
    json_t *actions = json_array();
    for (int a = 0; a < game->action_count; a++) {
        const action_entry *action = &game->actions[a];
        const table_entry *after = &game->tables[action->table_after];
        json_array_append_new(
            actions, json_pack("{s:i, s:s, s:s, s:i, s:i, s:o}", "line", after->line, "seat",
                               game->config.colours[action->seat], "action", after->notation,
                               "table_before", action->table_before, "table_after",
                               action->table_after, "hand_frames",
                               frame_range(action->first_frame, action->last_frame)));
    }
    json_t *disturbances = json_array();
    for (int d = 0; d < r->disturbance_count; d++) {
        const disturbance *x = &r->disturbances[d];
        json_t *entry = json_pack("{s:s, s:i, s:o}", "kind", x->kind, "table", x->table, "frames",
                                  frame_range(x->first_frame, x->last_frame));
        if (strcmp(x->kind, "resting-hand") == 0) {
            json_t *covered = json_array();
            for (int c = 0; c < x->covered_count; c++)
                json_array_append_new(covered, json_pack("{s:i, s:i}", "row", x->covered[c].row,
                                                         "col", x->covered[c].col));
            json_object_set_new(entry, "seat", json_string(game->config.colours[x->seat]));
            json_object_set_new(entry, "covered", covered);
        }
        json_array_append_new(disturbances, entry);
    }
    json_t *colours = json_array();
    for (int s = 0; s < game->config.seats; s++)
        json_array_append_new(colours, json_string(game->config.colours[s]));
    const vision_render_config *c = &r->config;
    json_t *root = json_pack(
        "{s:s, s:i, s:o, s:b, s:s, s:i, s:i, s:s, s:s, s:I, s:I, s:i, s:i, s:{s:f, s:f, s:f}, "
        "s:{s:f, s:f, s:f}, s:o, s:o, s:o}",
        "game", EL_GAME_ID, "players", game->config.seats, "colours", colours, "expansion",
        game->config.expansion, "script", "script.txt", "fps", r->request->fps, "frames",
        r->frame_count, "format", r->extension, "times", "times.txt", "seed",
        (json_int_t)c->scene_seed, "box", (json_int_t)c->box_seed, "width", c->width, "height",
        c->height, "camera", "height_mm", c->camera_height_mm, "tilt_deg", c->tilt_deg,
        "azimuth_deg", c->azimuth_deg, "layout", "x_mm", c->layout_x_mm, "y_mm", c->layout_y_mm,
        "angle_deg", c->layout_angle_deg, "tables", tables, "actions", actions, "disturbances",
        disturbances);
    free(truth);
    if (!failed && !root) {
        snprintf(error, sizeof error, "out of memory");
        failed = -1;
    }
    if (!failed) {
        char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        failed = !text ? (snprintf(error, sizeof error, "out of memory"), -1)
                       : write_file(r->folder, "truth.json", text, strlen(text), error,
                                    sizeof error);
        free(text);
    }
    json_decref(root);
    if (failed) {
        cli_error(r->command, "%s", error);
        return EXIT_FAILURE_OTHER;
    }
    return EXIT_OK;
}

/* ---- the command ---- */

/* The output folder must not exist, or be empty: two recordings never mix. */
static int check_out(const cli_command *command, const char *out)
{
    struct stat info;
    if (stat(out, &info) != 0)
        return errno == ENOENT ? EXIT_OK
                               : cli_usage_error(command, "--out %s: %s", out, strerror(errno));
    if (!S_ISDIR(info.st_mode))
        return cli_usage_error(command, "--out %s: exists and is not a folder", out);
    DIR *dir = opendir(out);
    if (!dir)
        return cli_usage_error(command, "--out %s: %s", out, strerror(errno));
    struct dirent *entry;
    bool empty = true;
    while (empty && (entry = readdir(dir)) != NULL)
        empty = strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0;
    closedir(dir);
    if (!empty)
        return cli_usage_error(command, "--out %s: a folder that is not empty (a recording "
                                        "never mixes with another): give a new one",
                               out);
    return EXIT_OK;
}

static void recording_free(recording *r)
{
    free(r->game.tables);
    free(r->game.actions);
    free(r->segments);
    free(r->disturbances);
    free(r->frames);
    free(r->folder);
}

int cli_render_script(const cli_command *command, const vision_render_config *config,
                      const render_script_request *request)
{
    int code = check_out(command, request->out);
    if (code != EXIT_OK)
        return code;
    char *text = NULL;
    size_t length = 0;
    if ((code = read_script(command, request->script, &text, &length)) != EXIT_OK)
        return code;
    recording *r = calloc(1, sizeof *r);
    if (!r) {
        free(text);
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    r->command = command;
    r->request = request;
    r->config = *config;
    r->extension = request->png ? "png" : "jpg";
    /* a JPEG file is the camera's compression: no second loss drawn unless asked for */
    if (!request->png && r->config.jpeg_quality == -1)
        r->config.jpeg_quality = 0;
    uint64_t draws = config->scene_seed ^ 0x5eed5c419e7ULL;
    double started = now_seconds();
    code = play_script(r, text);
    if (code == EXIT_OK) {
        resolve_pose(r, &draws);
        code = place_layout(r, &draws);
    }
    if (code == EXIT_OK && (code = plan(r, &draws)) == EXIT_FAILURE_OTHER)
        cli_error(command, "out of memory");
    if (code == EXIT_OK)
        code = plan_frames(r);
    if (code == EXIT_OK) {
        size_t size = strlen(request->out) + 32;
        r->folder = malloc(size);
        if (r->folder) {
            snprintf(r->folder, size, "%s", request->out);
            size_t end = strlen(r->folder);
            while (end > 1 && r->folder[end - 1] == '/')
                r->folder[--end] = '\0';
            snprintf(r->folder + end, size - end, ".tmp.XXXXXX");
        }
        if (!r->folder || !mkdtemp(r->folder)) {
            cli_error(command, "--out %s: cannot make a folder beside it: %s", request->out,
                      r->folder ? strerror(errno) : "out of memory");
            code = r->folder && (errno == ENOENT || errno == EACCES || errno == EROFS ||
                                 errno == ENOTDIR)
                       ? EXIT_BAD_INPUT
                       : EXIT_FAILURE_OTHER;
            free(r->folder);
            r->folder = NULL;
        }
    }
    if (code == EXIT_OK) {
        struct sigaction action, old_int, old_term;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        interrupted = 0;
        sigaction(SIGINT, &action, &old_int);
        sigaction(SIGTERM, &action, &old_term);
        code = draw_frames(r);
        if (code == EXIT_OK)
            code = write_truth(r, text, length);
        if (code == EXIT_OK && rename(r->folder, request->out) != 0) {
            cli_error(command, "--out %s: %s", request->out, strerror(errno));
            code = EXIT_FAILURE_OTHER;
        }
        if (code != EXIT_OK)
            remove_folder(r->folder);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    if (code == EXIT_OK) {
        double seconds = now_seconds() - started;
        printf("Wrote %s: %d frames (%d drawn) at %d frames/s, %.1f s of play, %d tables, %d "
               "actions; %.1f s to record (%.1f frames/s).\n",
               request->out, r->frame_count, r->drawn, request->fps,
               r->frame_count / (double)request->fps, r->game.table_count,
               r->game.action_count, seconds, r->frame_count / fmax(seconds, 1e-3));
    }
    recording_free(r);
    free(r);
    free(text);
    return code;
}
