/* recording: a scripted game planned, drawn frame by frame, and its truth (recording.h). */
#include "recording.h"

#include "calibration.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REACH_MS 700.0      /* a hand from beyond the mat's edge to the tile, and back */
#define HOLD_MS 500.0       /* at the tile; the table changes halfway */
#define HOLD_STEP_MS 300.0  /* each further tile a camp's movers or a token reach */
#define TURN_MS 500.0       /* a turn's end: the next player takes over */
#define RESTING_REACH_MS 600.0
#define FINGER_ABOVE_MM 4.0 /* the fingertip above what it touches */
#define TARGETS_MAX (EL_MAX_STOPS + 1)
#define FRAMES_MAX 10000000 /* about 280 hours at 10 frames a second */
/* The demo box's teaching photo: its own scene (another light, pose and layout place than the
 * games'), the camera tilted enough for the stacks' height to show; a few scenes are tried, as
 * an owner would take the photo again, should teaching refuse one. */
#define DEMO_TEACH_SCENE 0x7eac4b0c5ULL
#define DEMO_TEACH_TILT_DEG 25.0
#define DEMO_TEACH_TRIES 4
/* The demo's scene: the first of its seed's next few whose start table registers at 720p (all
 * four markers found), as its owner would move a lamp or the camera until `calibrate table`
 * finds the mat; so that the demo is a table a tracker can watch at any size it is drawn. */
#define DEMO_SCENE_TRIES 8
#define DEMO_CHECK_WIDTH 1280
#define DEMO_CHECK_HEIGHT 720

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

enum { SEGMENT_REST, SEGMENT_ACTION, SEGMENT_RESTING_HAND, SEGMENT_SHADOW };

typedef struct segment {
    int kind;
    double start_ms, length_ms;
    int table;  /* REST, RESTING_HAND: shown; ACTION: the table before */
    int action; /* ACTION: index; RESTING_HAND, SHADOW: index of the disturbance */
} segment;

typedef struct frame_plan {
    int table;
    int hands;
    vision_render_hand hand[2];
    int nudged;
    int moving; /* something moves: a tracker should see the table busy */
    vision_render_shadow shadow; /* length_mm 0: none */
} frame_plan;

typedef struct disturbance {
    const char *kind; /* "resting-hand", "camera-nudge", "passing-shadow" */
    int table;
    int seat;
    double tip_x_mm, tip_y_mm, from_deg;
    int first_frame, last_frame;
    int covered_count;
    cell_point covered[VISION_EL_TILES_MAX]; /* cells (observation rows) under the hand */
    bool covered_known;
    vision_render_shadow shadow; /* a passing shadow: at its start */
    double shadow_to_x_mm, shadow_to_y_mm; /* and where its centre ends */
} disturbance;

struct recording {
    recording_options options;
    char *name;   /* the script's name in messages */
    char *script; /* the script played */
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
    int *first_of; /* the first frame with the same picture */
    int frame_count;
    /* scratch for drawing */
    vision_el_observation truth;
    vision_render_info info;
};

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

/* ---- playing the script ---- */

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
/* The seats from the start layout (2 tiles a seat), when the options do not give them. */
static vision_status seats_of_start(const char *name, const char *text, int *seats, char *error,
                                    size_t size)
{
    el_config config;
    el_config_default(&config);
    el_state *probe = malloc(sizeof *probe);
    if (!probe)
        return vision_fail(error, size, VISION_NOMEM, "out of memory");
    el_init(probe, &config, NULL);
    const char *cursor = text;
    char line[1024];
    bool too_long;
    int number = 0;
    vision_status status = VISION_OK;
    *seats = 0;
    while (next_line(&cursor, line, sizeof line, &too_long)) {
        number++;
        el_line parsed;
        el_error refused;
        if (el_parse(probe, line, &parsed, &refused) != EL_OK || parsed.kind == EL_LINE_EMPTY)
            continue;
        if (parsed.kind != EL_LINE_START) {
            status = vision_fail(error, size, VISION_BAD_INPUT,
                                 "%s:%d: the game begins with its start layout (\"start "
                                 "TYPE@ROW,COL ...\")",
                                 name, number);
        } else if (parsed.start_count % 2 || parsed.start_count < 4 || parsed.start_count > 8) {
            status = vision_fail(error, size, VISION_BAD_INPUT,
                                 "%s:%d: a start layout of %d tiles: 2 a seat for 2 to 4 players "
                                 "(or give --players)",
                                 name, number, parsed.start_count);
        } else {
            *seats = parsed.start_count / 2;
        }
        break;
    }
    free(probe);
    if (status == VISION_OK && *seats == 0)
        status = vision_fail(error, size, VISION_BAD_INPUT,
                             "%s: no start layout: the script holds no game", name);
    return status;
}

/* Plays every line on the engine; each action that changes the table makes a table. Nothing is
 * planned before the whole script is known to be legal. */
static vision_status play_script(recording *r, char *error, size_t size)
{
    const char *name = r->name;
    game_record *game = &r->game;
    el_config_default(&game->config);
    game->config.expansion = r->options.expansion;
    int seats = r->options.players;
    vision_status status =
        seats ? VISION_OK : seats_of_start(name, r->script, &seats, error, size);
    if (status != VISION_OK)
        return status;
    game->config.seats = seats;
    el_state *state = malloc(sizeof *state);
    if (!state)
        return vision_fail(error, size, VISION_NOMEM, "out of memory");
    el_error refused;
    if (el_init(state, &game->config, &refused) != EL_OK) {
        free(state);
        return vision_fail(error, size, VISION_BAD_INPUT, "%s", refused.message);
    }
    int table_capacity = 0, action_capacity = 0;
    const char *cursor = r->script;
    char line[1024];
    bool too_long;
    int number = 0;
    while (status == VISION_OK && next_line(&cursor, line, sizeof line, &too_long)) {
        number++;
        if (too_long) {
            status = vision_fail(error, size, VISION_BAD_INPUT,
                                 "%s:%d: a line longer than %zu characters", name, number,
                                 sizeof line - 1);
            break;
        }
        el_state before = *state;
        el_line played;
        if (el_play_line(state, line, &played, &refused) != EL_OK) {
            status = vision_fail(error, size, VISION_BAD_INPUT, "%s:%d: %s", name, number,
                                 refused.message);
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
            status = vision_fail(error, size, VISION_NOMEM, "out of memory");
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
                status = vision_fail(error, size, VISION_BAD_INPUT,
                                     "%s:%d: a second start layout", name, number);
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
    if (status == VISION_OK && game->table_count == 0)
        status = vision_fail(error, size, VISION_BAD_INPUT,
                             "%s: no start layout: the script holds no game", name);
    return status;
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
static vision_status place_layout(recording *r, uint64_t *draws, char *error, size_t size)
{
    const game_record *game = &r->game;
    const el_state *last = &game->tables[game->table_count - 1].state;
    vision_el_observation *truth = &r->truth;
    vision_render_info *info = &r->info;
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
    char detail[400] = "";
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
        status = vision_el_render(&trial, truth, &frame, info, detail, sizeof detail);
        vision_image_free(&frame);
        if (status == VISION_BAD_INPUT && !strstr(detail, "does not fit"))
            break;
    }
    if (status != VISION_OK)
        return vision_fail(error, size, status, "%s: the game's table cannot be drawn: %s",
                           r->name, detail);
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
    return VISION_OK;
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

/* A passing shadow's way: someone walking past between a lamp and the table, a long soft
 * ellipse that crosses the mat from one edge to the other in RECORDING_SHADOW_MS, near the
 * middle. */
static void shadow_path(const recording *r, uint64_t *draws, disturbance *d)
{
    const vision_mat *mat = &r->config.mat;
    double heading = uniform(draws, 0, 2 * 3.14159265358979323846);
    double centre_x = mat->width_mm / 2 + uniform(draws, -0.15, 0.15) * mat->width_mm;
    double centre_y = mat->height_mm / 2 + uniform(draws, -0.15, 0.15) * mat->height_mm;
    /* from one edge of the mat to the other: on view the whole time it moves */
    double half_way = 0.4 * fmin(mat->width_mm, mat->height_mm);
    vision_render_shadow *w = &d->shadow;
    w->length_mm = uniform(draws, 0.5, 0.75) * fmin(mat->width_mm, mat->height_mm);
    w->width_mm = w->length_mm * uniform(draws, 0.4, 0.55);
    w->angle_deg = heading * 180 / 3.14159265358979323846 + 90 + uniform(draws, -20, 20);
    w->darkness = uniform(draws, 0.45, 0.6);
    w->x_mm = centre_x - cos(heading) * half_way;
    w->y_mm = centre_y - sin(heading) * half_way;
    d->shadow_to_x_mm = centre_x + cos(heading) * half_way;
    d->shadow_to_y_mm = centre_y + sin(heading) * half_way;
}

/* False when out of memory. */
static bool plan(recording *r, uint64_t *draws)
{
    const recording_options *q = &r->options;
    game_record *game = &r->game;
    int seats = game->config.seats;
    for (int seat = 0; seat < seats; seat++)
        r->seat_from_deg[seat] = fmod(360.0 * seat / seats, 360);
    r->disturbances = calloc(2 * (size_t)game->action_count + 2, sizeof *r->disturbances);
    if (!r->disturbances)
        return false;
    /* which pauses a hand rests in (a quarter, at least one), and after which action the
     * camera is bumped (in the middle third of the game) */
    bool *resting = calloc((size_t)game->action_count + 1, sizeof *resting);
    if (!resting)
        return false;
    if (q->resting_hand && game->action_count > 0) {
        bool any = false;
        for (int i = 0; i < game->action_count; i++)
            any |= resting[i] = uniform(draws, 0, 1) < 0.25;
        if (!any)
            resting[next_random(draws) % (uint64_t)game->action_count] = true;
    }
    /* the pauses a shadow crosses: from their own draws, so that the rest of the plan is the
     * same with and without them */
    uint64_t shadow_draws = r->config.scene_seed ^ 0x5ad0115c0ff5ULL;
    bool *shadowed = calloc((size_t)game->action_count + 1, sizeof *shadowed);
    if (!shadowed) {
        free(resting);
        return false;
    }
    if (q->shadow && game->action_count > 0) {
        bool any = false;
        for (int i = 0; i < game->action_count; i++)
            any |= shadowed[i] = uniform(&shadow_draws, 0, 1) < 1.0 / 6;
        if (!any)
            shadowed[next_random(&shadow_draws) % (uint64_t)game->action_count] = true;
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
        if (ok && shadowed[i]) {
            disturbance *d = &r->disturbances[r->disturbance_count];
            d->kind = "passing-shadow";
            d->table = action->table_after;
            d->seat = -1;
            d->first_frame = d->last_frame = -1;
            shadow_path(r, &shadow_draws, d);
            ok = add_segment(r, SEGMENT_REST, q->pause_ms, action->table_after, -1) &&
                 add_segment(r, SEGMENT_SHADOW, RECORDING_SHADOW_MS, action->table_after,
                             r->disturbance_count++);
        }
        if (ok)
            ok = add_segment(r, SEGMENT_REST, q->pause_ms + (action->ends_turn ? TURN_MS : 0),
                             action->table_after, -1);
    }
    free(resting);
    free(shadowed);
    return ok;
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
    } else if (s->kind == SEGMENT_SHADOW) {
        const disturbance *d = &r->disturbances[s->action];
        double along = u / s->length_ms; /* a walker's even pace */
        f.moving = 1;
        f.shadow = d->shadow;
        f.shadow.x_mm += (d->shadow_to_x_mm - d->shadow.x_mm) * along;
        f.shadow.y_mm += (d->shadow_to_y_mm - d->shadow.y_mm) * along;
    }
    return f;
}

/* A frame's picture is drawn once: a frame like the one before repeats it (the table at rest),
 * and so does a frame without hands like any drawn before (a rest that comes back after a
 * resting hand shows the same pixels). */
static void find_repeats(recording *r)
{
    int *stills = r->first_of + r->frame_count; /* the drawn frames without hands */
    int still_count = 0;
    for (int i = 0; i < r->frame_count; i++) {
        const frame_plan *f = &r->frames[i];
        int first = -1;
        if (i > 0 && memcmp(f, &r->frames[i - 1], sizeof *f) == 0)
            first = r->first_of[i - 1];
        for (int k = still_count - 1; first < 0 && f->hands == 0 && k >= 0; k--)
            if (memcmp(f, &r->frames[stills[k]], sizeof *f) == 0)
                first = stills[k];
        if (first < 0) {
            first = i;
            if (f->hands == 0)
                stills[still_count++] = i;
        }
        r->first_of[i] = first;
    }
}

static vision_status plan_frames(recording *r, char *error, size_t size)
{
    int fps = r->options.fps;
    double count = floor(r->total_ms * fps / 1000.0 - 1e-9) + 1;
    if (count > FRAMES_MAX)
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "the recording would hold %.0f frames: too many", count);
    r->frame_count = (int)count;
    r->frames = calloc((size_t)r->frame_count, sizeof *r->frames);
    r->first_of = malloc(2 * sizeof *r->first_of * (size_t)r->frame_count);
    if (!r->frames || !r->first_of)
        return vision_fail(error, size, VISION_NOMEM, "out of memory");
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
        } else if (s->kind == SEGMENT_RESTING_HAND || s->kind == SEGMENT_SHADOW) {
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
    find_repeats(r);
    return VISION_OK;
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

/* ---- the recording ---- */

void recording_options_default(recording_options *options)
{
    memset(options, 0, sizeof *options);
    options->fps = 10;
    options->pause_ms = 1500;
}

static vision_status check_options(const recording_options *o, char *error, size_t size)
{
    if (o->fps < 1 || o->fps > 60)
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "%d frames a second: a recording takes 1 to 60", o->fps);
    if (o->pause_ms < 300 || o->pause_ms > 20000)
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "a pause of %d ms: a recording takes 300 to 20000", o->pause_ms);
    if (o->players != 0 && (o->players < 2 || o->players > EL_MAX_SEATS))
        return vision_fail(error, size, VISION_BAD_INPUT, "%d players: 2 to %d", o->players,
                           EL_MAX_SEATS);
    return VISION_OK;
}

vision_status recording_from_script(const char *script, const char *name,
                                    const vision_render_config *render,
                                    const recording_options *options, recording **out,
                                    char *error, size_t size)
{
    *out = NULL;
    vision_status status = check_options(options, error, size);
    if (status != VISION_OK)
        return status;
    recording *r = calloc(1, sizeof *r);
    if (!r)
        return vision_fail(error, size, VISION_NOMEM, "out of memory");
    r->options = *options;
    r->config = *render;
    r->config.hands = 0;
    memset(r->config.hand, 0, sizeof r->config.hand);
    r->name = strdup(name);
    r->script = strdup(script);
    if (!r->name || !r->script)
        status = vision_fail(error, size, VISION_NOMEM, "out of memory");
    uint64_t draws = render->scene_seed ^ 0x5eed5c419e7ULL;
    if (status == VISION_OK)
        status = play_script(r, error, size);
    if (status == VISION_OK) {
        resolve_pose(r, &draws);
        status = place_layout(r, &draws, error, size);
    }
    if (status == VISION_OK && !plan(r, &draws))
        status = vision_fail(error, size, VISION_NOMEM, "out of memory");
    if (status == VISION_OK)
        status = plan_frames(r, error, size);
    if (status != VISION_OK) {
        recording_free(r);
        return status;
    }
    *out = r;
    return VISION_OK;
}

/* The lines a random game emits, one after another in one text. */
typedef struct script_text {
    char *text;
    size_t length, capacity;
    bool failed;
} script_text;

static void collect_line(void *context, const char *line)
{
    script_text *t = context;
    size_t n = strlen(line);
    if (t->failed)
        return;
    if (t->length + n + 2 > t->capacity) {
        size_t larger = t->capacity ? 2 * t->capacity : 4096;
        while (larger < t->length + n + 2)
            larger *= 2;
        char *grown = realloc(t->text, larger);
        if (!grown) {
            t->failed = true;
            return;
        }
        t->text = grown;
        t->capacity = larger;
    }
    memcpy(t->text + t->length, line, n);
    t->length += n;
    t->text[t->length++] = '\n';
    t->text[t->length] = '\0';
}

vision_status recording_from_random(uint64_t seed, const vision_render_config *render,
                                    const recording_options *options, recording **out,
                                    char *error, size_t size)
{
    *out = NULL;
    vision_status status = check_options(options, error, size);
    if (status != VISION_OK)
        return status;
    el_config config;
    el_config_default(&config);
    config.seats = options->players ? options->players : 2;
    config.expansion = options->expansion;
    el_state *state = malloc(sizeof *state);
    if (!state)
        return vision_fail(error, size, VISION_NOMEM, "out of memory");
    el_error refused;
    script_text script = {0};
    if (el_init(state, &config, &refused) != EL_OK ||
        el_random_game(state, seed, collect_line, &script, &refused) != EL_OK)
        status = vision_fail(error, size, VISION_BAD_INPUT, "random game %llu: %s",
                             (unsigned long long)seed, refused.message);
    else if (script.failed || !script.text)
        status = vision_fail(error, size, VISION_NOMEM, "out of memory");
    free(state);
    if (status == VISION_OK) {
        recording_options played = *options;
        played.players = config.seats;
        char name[48];
        snprintf(name, sizeof name, "random game %llu", (unsigned long long)seed);
        status = recording_from_script(script.text, name, render, &played, out, error, size);
    }
    free(script.text);
    return status;
}

/* Whether the recording's first frame, drawn at 720p, shows all four markers where the mat puts
 * them (vision_register). */
static bool registers(recording *r)
{
    vision_render_config check = r->config;
    check.width = DEMO_CHECK_WIDTH;
    check.height = DEMO_CHECK_HEIGHT;
    table_truth(&r->game.tables[r->frames[0].table], &r->truth);
    vision_image frame;
    vision_registration registration;
    bool found =
        vision_el_render(&check, &r->truth, &frame, NULL, NULL, 0) == VISION_OK &&
        vision_register(&frame, &check.mat, NULL, &registration, NULL, 0) == VISION_OK;
    vision_image_free(&frame);
    return found;
}

vision_status recording_demo(uint64_t seed, int width, int height, int fps, recording **out,
                             char *error, size_t size)
{
    *out = NULL;
    if (width < 32 || width > 8192 || height < 32 || height > 8192)
        return vision_fail(error, size, VISION_BAD_INPUT,
                           "a demo of %d x %d pixels: 32 to 8192 a side", width, height);
    vision_render_config render;
    vision_render_config_default(&render);
    render.box_seed = seed;
    render.scene_seed = seed;
    render.width = width;
    render.height = height;
    recording_options options;
    recording_options_default(&options);
    options.fps = fps;
    options.players = 2;
    options.resting_hand = options.nudge = options.shadow = true;
    for (int attempt = 0;; attempt++) {
        render.scene_seed = seed + (uint64_t)attempt;
        vision_status status = recording_from_random(seed, &render, &options, out, error, size);
        if (status != VISION_OK || attempt + 1 == DEMO_SCENE_TRIES || registers(*out))
            return status;
        recording_free(*out);
        *out = NULL;
    }
}

vision_status recording_demo_profile(uint64_t seed, const char *path, char *error, size_t size)
{
    el_config game;
    el_config_default(&game);
    const char *colours[EL_MAX_SEATS];
    for (int i = 0; i < EL_MAX_SEATS; i++)
        colours[i] = game.colours[i];
    vision_el_observation *layout = malloc(sizeof *layout);
    calibration_profile *profile = malloc(sizeof *profile);
    if (!layout || !profile) {
        free(layout);
        free(profile);
        return vision_fail(error, size, VISION_NOMEM, "out of memory");
    }
    vision_status status = calibration_teach_layout(colours, EL_MAX_SEATS, layout);
    char detail[400] = "";
    for (int attempt = 0; status == VISION_OK && attempt < DEMO_TEACH_TRIES; attempt++) {
        vision_render_config photo;
        vision_render_config_default(&photo);
        photo.box_seed = seed;
        photo.scene_seed = (seed ^ DEMO_TEACH_SCENE) + (uint64_t)attempt;
        photo.tilt_deg = DEMO_TEACH_TILT_DEG;
        photo.glare = 0; /* an owner takes the photo again when a lamp glares on the tiles */
        vision_image frame;
        status = vision_el_render(&photo, layout, &frame, NULL, detail, sizeof detail);
        if (status == VISION_OK) {
            calibration_profile_init(profile, EL_GAME_ID);
            status = calibration_teach_image(profile, &frame, layout, NULL, detail,
                                             sizeof detail);
            int missing = status == VISION_OK ? calibration_teach_missing_type(profile) : -1;
            if (missing >= 0)
                status = vision_fail(detail, sizeof detail, VISION_BAD_INPUT,
                                     "no %s tile was learnt", el_tile_name((el_tile_type)missing));
        }
        vision_image_free(&frame);
        if (status != VISION_BAD_INPUT)
            break;
        if (attempt + 1 < DEMO_TEACH_TRIES)
            status = VISION_OK;
    }
    if (status == VISION_OK)
        status = calibration_profile_save(path, profile, error, size);
    else
        vision_fail(error, size, status, "the demo box %llu cannot be taught: %s",
                    (unsigned long long)seed, detail);
    free(layout);
    free(profile);
    return status;
}

void recording_free(recording *r)
{
    if (!r)
        return;
    free(r->game.tables);
    free(r->game.actions);
    free(r->segments);
    free(r->disturbances);
    free(r->frames);
    free(r->first_of);
    free(r->name);
    free(r->script);
    free(r);
}

int recording_frame_count(const recording *r)
{
    return r->frame_count;
}

double recording_frame_time_ms(const recording *r, int index)
{
    return index * 1000.0 / r->options.fps;
}

int recording_fps(const recording *r)
{
    return r->options.fps;
}

int recording_frame_first(const recording *r, int index)
{
    return index >= 0 && index < r->frame_count ? r->first_of[index] : -1;
}

int recording_frame_table(const recording *r, int index)
{
    return index >= 0 && index < r->frame_count ? r->frames[index].table : -1;
}

bool recording_frame_moving(const recording *r, int index)
{
    return index >= 0 && index < r->frame_count && r->frames[index].moving;
}

vision_status recording_draw(recording *r, int index, vision_image *frame, char *error,
                             size_t size)
{
    memset(frame, 0, sizeof *frame);
    if (index < 0 || index >= r->frame_count)
        return vision_fail(error, size, VISION_BAD_INPUT, "frame %d: the recording has %d",
                           index, r->frame_count);
    const frame_plan *f = &r->frames[index];
    vision_render_config config = f->nudged ? r->nudged : r->config;
    config.hands = f->hands;
    memcpy(config.hand, f->hand, sizeof config.hand);
    config.shadow = f->shadow;
    vision_el_observation *truth = &r->truth;
    vision_render_info *info = &r->info;
    table_truth(&r->game.tables[f->table], truth);
    vision_status status = vision_el_render(&config, truth, frame, info, error, size);
    if (status != VISION_OK)
        return status;
    /* which cells a resting hand hides, from its first frame at rest */
    for (int d = 0; d < r->disturbance_count; d++) {
        disturbance *rest = &r->disturbances[d];
        if (strcmp(rest->kind, "resting-hand") != 0 || rest->covered_known || f->moving ||
            f->hands == 0 || index < rest->first_frame || index > rest->last_frame)
            continue;
        rest->covered_known = true;
        const el_state *state = &r->game.tables[f->table].state;
        for (int t = 0; t < info->tile_count; t++)
            if (info->tiles[t].hand_cover > 0.25)
                rest->covered[rest->covered_count++] = (cell_point){
                    truth->tiles[t].row - state->min_row, truth->tiles[t].col - state->min_col};
    }
    return VISION_OK;
}

/* ---- the truth ---- */

int recording_table_count(const recording *r)
{
    return r->game.table_count;
}

int recording_action_count(const recording *r)
{
    return r->game.action_count;
}

const el_state *recording_table_state(const recording *r, int k)
{
    return k >= 0 && k < r->game.table_count ? &r->game.tables[k].state : NULL;
}

const char *recording_table_action(const recording *r, int k)
{
    return k >= 0 && k < r->game.table_count ? r->game.tables[k].notation : NULL;
}

bool recording_table_truth(const recording *r, int k, vision_el_observation *truth)
{
    if (k < 0 || k >= r->game.table_count)
        return false;
    vision_el_truth_of_state(&r->game.tables[k].state, truth);
    return true;
}

int recording_disturbance_count(const recording *r)
{
    return r->disturbance_count;
}

bool recording_disturbance_at(const recording *r, int d, recording_disturbance *out)
{
    if (d < 0 || d >= r->disturbance_count)
        return false;
    const disturbance *x = &r->disturbances[d];
    *out = (recording_disturbance){x->kind, x->table, x->first_frame, x->last_frame};
    return true;
}

const char *recording_script(const recording *r)
{
    return r->script;
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


char *recording_index_json(const recording *r, const char *format)
{
    const game_record *game = &r->game;
    json_t *tables = json_array();
    for (int t = 0; t < game->table_count; t++) {
        const table_entry *table = &game->tables[t];
        char path[48];
        snprintf(path, sizeof path, "truth/%04d.json", t);
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
        game->config.expansion, "script", "script.txt", "fps", r->options.fps, "frames",
        r->frame_count, "format", format, "times", "times.txt", "seed",
        (json_int_t)c->scene_seed, "box", (json_int_t)c->box_seed, "width", c->width, "height",
        c->height, "camera", "height_mm", c->camera_height_mm, "tilt_deg", c->tilt_deg,
        "azimuth_deg", c->azimuth_deg, "layout", "x_mm", c->layout_x_mm, "y_mm", c->layout_y_mm,
        "angle_deg", c->layout_angle_deg, "tables", tables, "actions", actions, "disturbances",
        disturbances);
    if (!root)
        return NULL;
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return text;
}
