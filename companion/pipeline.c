/*
 * The pipeline: a source's frames through registration, the gate, recognition and the tracker.
 * Only what every explanation agrees on is committed (the tracker's rule); the pipeline's own
 * share of honesty is to hand the tracker only tables it can trust to be the table: settled,
 * registered against markers that were just confirmed, with no hand resting across the mat's
 * edge.
 */
#include "pipeline.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACTING_SEVERAL (-2) /* more than one seat's arm since the last read */
#define REACHES_MAX 32      /* reaches remembered between two reads (a turn: a few) */
#define REACH_TIPS_MAX 256  /* their tips, a BUSY frame each */
#define PI 3.14159265358979323846

struct pipeline {
    pipeline_config config;
    tracker *tracker;
    gate *gate;
    bool registered;
    vision_registration registration;
    int missing_said;         /* the marker last said not found (note_markers), -1 none */
    int seat_count;
    double seat_deg[RULES_MAX_SEATS];
    int acting;               /* since the last read: -1 none seen, a seat, ACTING_SEVERAL */
    /* Where the arms reached since the last read, mat mm, in order: the furthest in each
     * reach went (a reach: BUSY frames that show one arm, the same seat's), and every tip on
     * the way (path_reach: the reach it belongs to). */
    double reach_mm[REACHES_MAX][2];
    int reaches;
    double path_mm[REACH_TIPS_MAX][2];
    int path_reach[REACH_TIPS_MAX];
    int path_count;
    bool reaching;            /* a reach under way: its furthest so far is reach_mm[reaches] */
    double reach_depth;       /* how far in it went, mask pixels */
    double reach_azimuth;
    double stable_ms;         /* the settled frame being read */
    double last_frame_ms;     /* the last frame fed's time, NAN before any */
    double still_from_ms;     /* when the table it shows stopped moving (the gate's still
                                 period's first frame) */
    double read_started;      /* wall clock when its frame arrived, ms */
    int read_acting;          /* the acting seat handed to the tracker with it */
    bool as_read;             /* the table is as the tracker last took it: read, and no hand
                                 since (the gate IDLE, or SETTLING after neither) */
    bool end_signalled;       /* the players' turn end, for the next table read */
    vision_el_observation *seen;
    vision_el_memory *memory; /* the last read's tiles: the next reads the unchanged for less */
    el_observation *rules_seen;
    el_observation *rules_sure; /* the same with fields below sure_confidence unseen */
    vision_el_known_stack *known; /* the last read's stacks as the committed game has them */
    pipeline_stats stats;
    char error[400];
};

static tracker_status fail(pipeline *p, tracker_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static tracker_status fail(pipeline *p, tracker_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(p->error, sizeof p->error, format, args);
    va_end(args);
    return status;
}

static void emit(const pipeline *p, pipeline_event *event)
{
    if (p->config.on_event)
        p->config.on_event(p->config.context, event);
}

static void emit_text(pipeline *p, pipeline_event_kind kind, double time_ms, const char *format,
                      ...) __attribute__((format(printf, 4, 5)));

static void emit_text(pipeline *p, pipeline_event_kind kind, double time_ms, const char *format,
                      ...)
{
    pipeline_event event = {.kind = kind, .frame_time_ms = time_ms, .acting_seat = -1};
    va_list args;
    va_start(args, format);
    vsnprintf(event.text, sizeof event.text, format, args);
    va_end(args);
    if (kind == PIPELINE_UNREAD)
        p->stats.unread++;
    emit(p, &event);
}

void pipeline_config_default(pipeline_config *config)
{
    memset(config, 0, sizeof *config);
    tracker_config_default(&config->tracker);
    gate_config_default(&config->gate);
    config->gate.scale = 2;
    config->gate.row_step = 1;
    config->gate_px_per_mm = 0.5;
    config->seat_margin_deg = 10;
    config->arm_min_px = 3;
    config->min_confidence = 0.5f;
    config->sure_confidence = 0.9f;
    config->moved_px = 2;
    config->skip_until_ms = -1;
}

/* ---- the stages alone ---- */

/* An arm across the mat's edge covers the gate's copy this deep from its border (the edge's
 * pixel or the one inside it: JPEG ringing rarely both). */
#define ARM_BAND_PX 2

/* The perimeter, position i (0 .. 2(w + h) - 5): the bottom row left to right, the right column
 * upwards, the top row right to left, the left column downwards (counter-clockwise as the
 * azimuth); *in_x, *in_y: one step inwards. */
static void perimeter_point(int w, int h, int i, int *x, int *y, int *in_x, int *in_y)
{
    if (i < w) {
        *x = i, *y = h - 1, *in_x = 0, *in_y = -1;
    } else if ((i -= w) < h - 1) {
        *x = w - 1, *y = h - 2 - i, *in_x = -1, *in_y = 0;
    } else if ((i -= h - 1) < w - 1) {
        *x = w - 2 - i, *y = 0, *in_x = 0, *in_y = 1;
    } else {
        i -= w - 1;
        *x = 0, *y = 1 + i, *in_x = 1, *in_y = 0;
    }
}

int pipeline_arm_crossings(const vision_image *mask, int min_px, double *azimuth_deg)
{
    enum { DEPTH = ARM_BAND_PX, GAP = 2 };
    int w = mask->width, h = mask->height;
    if (w < 2 * DEPTH + 1 || h < 2 * DEPTH + 1 || !mask->pixels)
        return 0;
    int length = 2 * (w + h) - 4, crossed_count = 0;
    bool *crossed = calloc((size_t)length, sizeof *crossed);
    if (!crossed)
        return 0;
    for (int i = 0; i < length; i++) {
        int x, y, dx, dy;
        perimeter_point(w, h, i, &x, &y, &dx, &dy);
        /* the edge's pixel or the one inside it: an arm covers both, JPEG ringing rarely */
        for (int d = 0; d < DEPTH && !crossed[i]; d++)
            crossed[i] = mask->pixels[(size_t)(y + d * dy) * (size_t)mask->stride +
                                      (size_t)((x + d * dx) * mask->channels)] != 0;
        crossed_count += crossed[i];
    }
    int result = 0;
    if (crossed_count > length * 3 / 4) {
        result = -1;
    } else if (crossed_count > 0) {
        /* start the walk just after an uncrossed position, so that no run wraps around */
        int start = 0;
        while (crossed[start])
            start++;
        int run_first = -1, run_last = -1, gap = 0;
        double middle = 0;
        for (int k = 1; k <= length + GAP + 1; k++) {
            int i = (start + k) % length;
            bool on = k <= length && crossed[i];
            if (on) {
                if (run_first < 0)
                    run_first = k;
                run_last = k;
                gap = 0;
            } else if (run_first >= 0 && ++gap > GAP) {
                if (run_last - run_first + 1 >= min_px) {
                    result++;
                    middle = start + (run_first + run_last) / 2.0;
                }
                run_first = -1;
            }
        }
        if (result == 1 && azimuth_deg) {
            int i = (int)lround(middle) % length, x, y, dx, dy;
            perimeter_point(w, h, i, &x, &y, &dx, &dy);
            double a = atan2((x + 0.5) - w / 2.0, (y + 0.5) - h / 2.0) * 180 / PI;
            *azimuth_deg = a < 0 ? a + 360 : a >= 360 ? a - 360 : a;
        }
    }
    free(crossed);
    return result;
}

/* How far (x, y) lies in from the side at azimuth_deg, up to a constant: along the arm that
 * crosses the edge there. */
static double inward(double azimuth_deg, double x, double y)
{
    return -x * sin(azimuth_deg * PI / 180) - y * cos(azimuth_deg * PI / 180);
}

static bool changed_at(const vision_image *mask, int x, int y)
{
    return mask->pixels[(size_t)y * (size_t)mask->stride + (size_t)(x * mask->channels)] != 0;
}

bool pipeline_arm_tip(const vision_image *mask, double azimuth_deg, double tip[2])
{
    int w = mask->width, h = mask->height;
    if (w < 1 || h < 1 || !mask->pixels)
        return false;
    size_t n = (size_t)w * (size_t)h;
    uint8_t *joined = calloc(n, 1);
    uint32_t *queue = malloc(n * sizeof *queue);
    if (!joined || !queue) {
        free(joined);
        free(queue);
        return false;
    }
    size_t head = 0, tail = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if ((x == 0 || y == 0 || x == w - 1 || y == h - 1) && changed_at(mask, x, y)) {
                joined[(size_t)y * (size_t)w + (size_t)x] = 1;
                queue[tail++] = (uint32_t)((size_t)y * (size_t)w + (size_t)x);
            }
    double furthest = -INFINITY;
    while (head < tail) {
        uint32_t at = queue[head++];
        int x = (int)(at % (uint32_t)w), y = (int)(at / (uint32_t)w);
        double depth = inward(azimuth_deg, x + 0.5, y + 0.5);
        if (depth > furthest) {
            furthest = depth;
            tip[0] = x + 0.5;
            tip[1] = y + 0.5;
        }
        static const int step[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int k = 0; k < 4; k++) {
            int xx = x + step[k][0], yy = y + step[k][1];
            if (xx < 0 || yy < 0 || xx >= w || yy >= h)
                continue;
            size_t next = (size_t)yy * (size_t)w + (size_t)xx;
            if (!joined[next] && changed_at(mask, xx, yy)) {
                joined[next] = 1;
                queue[tail++] = (uint32_t)next;
            }
        }
    }
    free(joined);
    free(queue);
    return tail > 0;
}

/* The angle between two azimuths, 0..180. */
static double angle_between(double a, double b)
{
    double d = fmod(fabs(a - b), 360);
    return d > 180 ? 360 - d : d;
}

int pipeline_nearest_seat(double azimuth_deg, const double *seat_deg, int count,
                          double margin_deg)
{
    int best = -1;
    double nearest = INFINITY, second = INFINITY;
    for (int s = 0; s < count; s++) {
        double d = angle_between(azimuth_deg, seat_deg[s]);
        if (d < nearest) {
            second = nearest;
            nearest = d;
            best = s;
        } else if (d < second) {
            second = d;
        }
    }
    /* halfway between the two nearest sides lies at (nearest + second) / 2 from the nearest */
    if (best >= 0 && count > 1 && (second - nearest) / 2 < margin_deg)
        return -1;
    return best;
}

double pipeline_registration_shift(const vision_registration *a, const vision_registration *b)
{
    if (a->image_width != b->image_width || a->image_height != b->image_height)
        return INFINITY;
    double worst = 0;
    for (int m = 0; m < 4; m++)
        for (int c = 0; c < 4 && m != a->missing_marker && m != b->missing_marker; c++)
            worst = fmax(worst, hypot(a->markers[m][c].x - b->markers[m][c].x,
                                      a->markers[m][c].y - b->markers[m][c].y));
    return worst;
}

/* ---- life ---- */

static void on_tracker_event(void *context, const tracker_event *event)
{
    pipeline *p = context;
    pipeline_event out = {.kind = PIPELINE_TRACKER, .frame_time_ms = p->stable_ms,
                          .tracker = event, .acting_seat = p->read_acting};
    if (event->kind == TRACKER_MOVE) {
        p->stats.moves++;
        out.read_ms = vision_clock_ms() - p->read_started;
        out.still_from_ms = p->still_from_ms;
        out.latency_ms = p->stable_ms - p->still_from_ms + out.read_ms;
    } else if (event->kind == TRACKER_FLAG) {
        p->stats.flags++;
    }
    emit(p, &out);
}

/* The tracker: a resumed game at once, a new one when the markers are first found, so that a
 * source that never shows the table leaves nothing in the archive. */
static tracker_status start_tracker(pipeline *p)
{
    tracker_status made = tracker_new(&p->config.tracker, p->config.archive, &p->tracker);
    if (!p->tracker)
        return fail(p, TRACKER_NOMEM, "out of memory");
    if (made != TRACKER_OK)
        return fail(p, made, "%s", tracker_error(p->tracker));
    p->seat_count = ((const el_state *)tracker_state(p->tracker))->config.seats;
    return TRACKER_OK;
}

tracker_status pipeline_new(const pipeline_config *config, pipeline **out)
{
    pipeline *p = calloc(1, sizeof *p);
    *out = p;
    if (!p)
        return TRACKER_NOMEM;
    p->missing_said = -1;
    p->config = *config;
    p->acting = -1;
    p->last_frame_ms = NAN;
    const calibration_profile *profile = config->profile;
    const char *game = config->tracker.game ? config->tracker.game : "";
    if (!profile)
        return fail(p, TRACKER_BAD_INPUT, "a profile is needed");
    if (strcmp(game, EL_GAME_ID) != 0)
        return fail(p, TRACKER_NOT_AVAILABLE, "%s: the camera reads " EL_GAME_ID " so far", game);
    if (strcmp(profile->game, game) != 0)
        return fail(p, TRACKER_BAD_INPUT, "a profile of %s, not %s", profile->game, game);
    if (profile->el.images == 0)
        return fail(p, TRACKER_BAD_INPUT, "the profile was never taught a box");
    if (!(config->gate_px_per_mm > 0.05 && config->gate_px_per_mm <= 4))
        return fail(p, TRACKER_BAD_INPUT, "gate_px_per_mm %g: must be above 0.05 and at most 4",
                    config->gate_px_per_mm);
    p->config.gate.keep_change_mask = true;
    char error[256];
    vision_status status = gate_new(&p->config.gate, &p->gate, error, sizeof error);
    if (status != VISION_OK)
        return fail(p, status == VISION_NOMEM ? TRACKER_NOMEM : TRACKER_BAD_INPUT, "%s", error);
    if (!(p->seen = malloc(sizeof *p->seen)) || !(p->rules_seen = malloc(sizeof *p->rules_seen)) ||
        !(p->rules_sure = malloc(sizeof *p->rules_sure)) || !(p->memory = vision_el_memory_new()) ||
        !(p->known = malloc(VISION_EL_TILES_MAX * sizeof *p->known)))
        return fail(p, TRACKER_NOMEM, "out of memory");
    p->config.tracker.on_event = on_tracker_event;
    p->config.tracker.context = p;
    if (config->tracker.resume) {
        tracker_status made = start_tracker(p);
        if (made != TRACKER_OK)
            return made;
    } else {
        p->seat_count = config->tracker.options.seats;
    }
    if (config->seat_deg_count != 0 && config->seat_deg_count != p->seat_count)
        return fail(p, TRACKER_BAD_INPUT, "%d seat sides for %d seats", config->seat_deg_count,
                    p->seat_count);
    for (int s = 0; s < p->seat_count; s++) {
        p->seat_deg[s] = config->seat_deg_count ? config->seat_deg[s] : 360.0 * s / p->seat_count;
        if (!(p->seat_deg[s] >= 0 && p->seat_deg[s] < 360))
            return fail(p, TRACKER_BAD_INPUT, "seat %d's side %g: must be 0 to 360 degrees",
                        s + 1, p->seat_deg[s]);
    }
    return TRACKER_OK;
}

void pipeline_free(pipeline *p)
{
    if (!p)
        return;
    tracker_free(p->tracker);
    gate_free(p->gate);
    free(p->seen);
    vision_el_memory_free(p->memory);
    free(p->rules_seen);
    free(p->rules_sure);
    free(p->known);
    free(p);
}

const char *pipeline_error(const pipeline *p)
{
    return p->error;
}

bool pipeline_registered(const pipeline *p)
{
    return p->registered;
}

const pipeline_stats *pipeline_stats_get(const pipeline *p)
{
    return &p->stats;
}

const tracker *pipeline_tracker(const pipeline *p)
{
    return p->tracker;
}

/* The players' word (an answer, a turn end, what was played, an undo) is taken at the last
 * frame, for the table last read (still since still_from_ms): the moves it commits have the
 * table's and the players' latency, and no arm's seat. Returns that time, in seconds. */
static double players_word(pipeline *p)
{
    p->stable_ms = isnan(p->last_frame_ms) ? 0 : p->last_frame_ms;
    p->read_started = vision_clock_ms();
    p->read_acting = -1;
    return p->stable_ms / 1000;
}

/* The tracker's answer to the players' word; its error, if any, kept as the pipeline's. */
static tracker_status heard(pipeline *p, tracker_status status)
{
    return status == TRACKER_OK ? status : fail(p, status, "%s", tracker_error(p->tracker));
}

tracker_status pipeline_choose(pipeline *p, int candidate)
{
    if (!p->tracker)
        return fail(p, TRACKER_BAD_INPUT, "nothing to choose: no table read yet");
    return heard(p, tracker_choose(p->tracker, candidate, players_word(p)));
}

tracker_status pipeline_play(pipeline *p, const char *lines)
{
    if (!p->tracker)
        return fail(p, TRACKER_BAD_INPUT, "nothing to play on: no table read yet");
    return heard(p, tracker_play(p->tracker, lines, players_word(p)));
}

tracker_status pipeline_undo(pipeline *p)
{
    if (!p->tracker)
        return fail(p, TRACKER_BAD_INPUT, "nothing to take back: no table read yet");
    return heard(p, tracker_undo(p->tracker, players_word(p)));
}

tracker_status pipeline_confirm(pipeline *p)
{
    if (!p->tracker)
        return fail(p, TRACKER_BAD_INPUT, "no table read yet that could be misread");
    return heard(p, tracker_confirm(p->tracker, players_word(p)));
}

tracker_status pipeline_end_turn(pipeline *p)
{
    if (!p->tracker)
        return fail(p, TRACKER_BAD_INPUT, "no turn to end: the table was never seen");
    if (!p->as_read) { /* the turn's last action may be settling still: ended after its table */
        p->end_signalled = true;
        return TRACKER_OK;
    }
    return heard(p, tracker_end_turn(p->tracker, players_word(p)));
}

/* ---- one frame ---- */

/* Keeps the reach under way, if any. */
static void end_reach(pipeline *p)
{
    if (p->reaching)
        p->reaches++;
    p->reaching = false;
}

/* The tile of the observation seen nearest (x, y), mat mm, within reach mm; -1 none. */
static int tile_near(const vision_el_observation *seen, const double at[2], double reach)
{
    int nearest = -1;
    for (int j = 0; j < seen->tile_count; j++) {
        double d = hypot(seen->tiles[j].x_mm - at[0], seen->tiles[j].y_mm - at[1]);
        if (d < reach) {
            reach = d;
            nearest = j;
        }
    }
    return nearest;
}

void pipeline_rank_reached(const vision_el_observation *seen, double side,
                           const pipeline_reaches *reaches, int *rank)
{
    /* when each tile was laid: reach k ended on it, (2 k + 1) tips_max; tip i of reach k
     * passed it, 2 k tips_max + i (before the tile reach k ended on); -1 never */
    long tips_max = reaches->tip_count + 1;
    long key[VISION_EL_TILES_MAX];
    for (int j = 0; j < seen->tile_count; j++)
        key[j] = -1;
    for (int k = 0; k < reaches->count; k++) {
        int j = tile_near(seen, reaches->end_mm[k], side);
        if (j >= 0 && key[j] < 0)
            key[j] = (2L * k + 1) * tips_max;
    }
    for (int i = 0; i < reaches->tip_count; i++) {
        int j = tile_near(seen, reaches->tip_mm[i], side / 2);
        if (j >= 0 && key[j] < 0)
            key[j] = 2L * reaches->tip_reach[i] * tips_max + i;
    }
    /* numbered 1, 2, ... by key, the smallest first */
    for (int j = 0; j < seen->tile_count; j++) {
        rank[j] = 0;
        for (int k = 0; key[j] >= 0 && k < seen->tile_count; k++)
            rank[j] += key[k] >= 0 && (key[k] < key[j] || (key[k] == key[j] && k <= j));
    }
}

/* Numbers the tiles of the rules' observations (el_seen_tile.reached; cautious NULL: none) in
 * the order the hands laid them since the last read (pipeline_rank_reached). */
static void number_reached(pipeline *p, el_observation *observation,
                           el_observation *cautious)
{
    end_reach(p);
    const vision_el_observation *seen = p->seen;
    pipeline_reaches reaches = {(const double(*)[2])p->reach_mm, p->reaches,
                                (const double(*)[2])p->path_mm, p->path_reach, p->path_count};
    int rank[VISION_EL_TILES_MAX];
    pipeline_rank_reached(seen, p->config.profile->mat.tile_mm, &reaches, rank);
    p->reaches = p->path_count = 0;
    el_observation *both[2] = {observation, cautious};
    for (int b = 0; b < 2; b++)
        for (int i = 0; both[b] && i < both[b]->count; i++)
            for (int j = 0; j < seen->tile_count; j++)
                if (seen->tiles[j].row == both[b]->tiles[i].row &&
                    seen->tiles[j].col == both[b]->tiles[i].col)
                    both[b]->tiles[i].reached = (int8_t)(rank[j] < 127 ? rank[j] : 127);
}

/* Notes the seat whose arm this BUSY frame shows, if one does. */
static void watch_arm(pipeline *p)
{
    const vision_image *mask = gate_change_mask(p->gate);
    if (!mask)
        return;
    double azimuth;
    int crossings = pipeline_arm_crossings(mask, p->config.arm_min_px, &azimuth);
    if (crossings != 1 || (p->reaching && angle_between(azimuth, p->reach_azimuth) > 45))
        end_reach(p); /* the arm left, or another came */
    if (crossings == 0)
        return;
    int seat = crossings == 1 ? pipeline_nearest_seat(azimuth, p->seat_deg, p->seat_count,
                                                      p->config.seat_margin_deg)
                              : -1;
    double tip[2];
    if (crossings == 1 && p->reaches < REACHES_MAX && pipeline_arm_tip(mask, azimuth, tip)) {
        double depth = inward(azimuth, tip[0], tip[1]);
        /* mask pixels are gate.scale pixels of the mat at gate_px_per_mm */
        double mm = p->config.gate.scale / p->config.gate_px_per_mm;
        if (!p->reaching || depth > p->reach_depth) {
            p->reach_mm[p->reaches][0] = tip[0] * mm;
            p->reach_mm[p->reaches][1] = tip[1] * mm;
            p->reach_depth = depth;
        }
        if (p->path_count < REACH_TIPS_MAX) {
            p->path_mm[p->path_count][0] = tip[0] * mm;
            p->path_mm[p->path_count][1] = tip[1] * mm;
            p->path_reach[p->path_count++] = p->reaches;
        }
        p->reaching = true;
        p->reach_azimuth = azimuth;
    }
    if (seat < 0 || (p->acting >= 0 && p->acting != seat))
        p->acting = ACTING_SEVERAL; /* two arms, or one that cannot be told: no one's */
    else if (p->acting == -1)
        p->acting = seat;
}

/* Sets what this game cannot hold to unknown: a top of a colour no seat plays, a token without
 * the expansion. Misreads, not moves of nobody's. */
static void drop_impossible(pipeline *p, vision_el_observation *seen)
{
    const el_state *state = tracker_state(p->tracker);
    for (int i = 0; i < seen->tile_count; i++) {
        vision_el_tile *tile = &seen->tiles[i];
        if (!state->config.expansion && tile->token != EL_NO_TOKEN)
            tile->token = VISION_UNKNOWN;
        if (tile->top < 0)
            continue;
        bool seat = false;
        for (int s = 0; s < state->config.seats && !seat; s++)
            seat = strcmp(seen->colours[tile->top], state->config.colours[s]) == 0;
        if (!seat) {
            tile->top = VISION_UNKNOWN;
            tile->stack_known = 0;
        }
    }
}

/* Once the committed game is the table just read (the rules find nothing changed), the
 * recogniser's memory is told the heights of its stacks: the next read, if it searches for the
 * light, finds it from them (vision_el_memory_know_stacks). */
static void tell_heights(pipeline *p)
{
    const el_state *state = tracker_state(p->tracker);
    int8_t heights[EL_MAX_TILES];
    if (state->phase != EL_PHASE_PLAY || tracker_pending(p->tracker) ||
        !el_heights_if_unchanged(state, p->rules_seen, heights))
        return;
    /* vision_el_to_rules keeps each tile's row and column (those of unread type went to its
     * unknown cells: their heights are not told) */
    int count = 0;
    for (int i = 0; i < p->rules_seen->count; i++) {
        const el_seen_tile *rules_tile = &p->rules_seen->tiles[i];
        for (int k = 0; heights[i] > 0 && k < p->seen->tile_count; k++) {
            const vision_el_tile *tile = &p->seen->tiles[k];
            if (tile->row == rules_tile->row && tile->col == rules_tile->col) {
                p->known[count++] = (vision_el_known_stack){tile->x_mm, tile->y_mm, heights[i]};
                break;
            }
        }
    }
    if (count == 0)
        return;
    vision_el_memory_know_stacks(p->memory, p->known, count);
    p->stats.heights_told++;
}

/* Reads the settled frame and hands it to the tracker. */
static tracker_status read_table(pipeline *p, const capture_frame *frame)
{
    const calibration_profile *profile = p->config.profile;
    char error[320];
    double started = vision_clock_ms();
    vision_el_timing timing;
    vision_status status =
        vision_el_recognise_again(&frame->image, &p->registration, &profile->mat, &profile->el,
                                  p->memory, p->seen, &timing, error, sizeof error);
    p->stats.recognise_ms += vision_clock_ms() - started;
    if (status == VISION_OK) {
        p->stats.grid_ms += timing.grid_ms;
        p->stats.types_ms += timing.types_ms;
        p->stats.stacks_ms += timing.stacks_ms;
        p->stats.tiles_typed += timing.tiles_typed;
        p->stats.tiles_recalled += timing.tiles_recalled;
        p->stats.lights_kept += timing.light_kept;
    }
    if (status == VISION_NOMEM)
        return fail(p, TRACKER_NOMEM, "out of memory");
    if (status != VISION_OK) {
        emit_text(p, PIPELINE_UNREAD, frame->time_ms, "not read: %s", error);
        return TRACKER_OK;
    }
    drop_impossible(p, p->seen);
    const el_state *state = tracker_state(p->tracker);
    float confidence = 1;
    status = vision_el_to_rules(p->seen, (const char(*)[EL_COLOUR_MAX])state->config.colours,
                                state->config.seats, p->config.min_confidence, p->rules_seen,
                                &confidence, error, sizeof error);
    if (status != VISION_OK) {
        emit_text(p, PIPELINE_UNREAD, frame->time_ms, "not read: %s", error);
        return TRACKER_OK;
    }
    bool cautious = p->config.sure_confidence > p->config.min_confidence &&
                    vision_el_to_rules(p->seen,
                                       (const char(*)[EL_COLOUR_MAX])state->config.colours,
                                       state->config.seats, p->config.sure_confidence,
                                       p->rules_sure, NULL, error, sizeof error) == VISION_OK;
    number_reached(p, p->rules_seen, cautious ? p->rules_sure : NULL);
    p->read_acting = p->acting >= 0 ? p->acting : -1;
    tracker_table table = {.frame_time = frame->time_ms / 1000, .observation = p->rules_seen,
                           .cautious_observation = cautious ? p->rules_sure : NULL,
                           .confidence = confidence, .turn_ended = p->end_signalled,
                           .acting_known = p->acting >= 0,
                           .acting_seat = p->acting >= 0 ? p->acting : 0};
    p->end_signalled = false;
    p->as_read = true;
    p->stats.reads++;
    p->stats.acting_known += p->acting >= 0;
    p->acting = -1;
    started = vision_clock_ms();
    tracker_status done = tracker_observe(p->tracker, &table);
    if (done == TRACKER_OK)
        tell_heights(p);
    p->stats.tracker_ms += vision_clock_ms() - started;
    if (done != TRACKER_OK)
        return fail(p, done, "%s", tracker_error(p->tracker));
    return TRACKER_OK;
}

/* The frame as the gate sees it: the mat rectified with the registration, at gate_px_per_mm
 * (free it with vision_image_free). */
static tracker_status rectify_for_gate(pipeline *p, const capture_frame *frame,
                                       vision_image *rectified)
{
    const calibration_profile *profile = p->config.profile;
    double t = vision_clock_ms();
    vision_status status = vision_rectify(&frame->image, &p->registration, 0, 0,
                                          profile->mat.width_mm, profile->mat.height_mm,
                                          p->config.gate_px_per_mm, rectified);
    p->stats.rectify_ms += vision_clock_ms() - t;
    if (status == VISION_OK)
        return TRACKER_OK;
    return status == VISION_NOMEM
               ? fail(p, TRACKER_NOMEM, "out of memory")
               : fail(p, TRACKER_BAD_INPUT, "frame %d: cannot rectify", frame->index);
}

/* Says when a table marker is not found, the table then held by the other three, and when it
 * is found again: once each time that changes. */
static void note_markers(pipeline *p, const vision_registration *now, double time_ms)
{
    int missing = now->missing_marker;
    if (missing == p->missing_said)
        return;
    if (p->missing_said >= 0)
        emit_text(p, PIPELINE_MARKERS, time_ms, "marker %d (%s) found again", p->missing_said,
                  vision_marker_corner(p->missing_said));
    if (missing >= 0)
        emit_text(p, PIPELINE_MARKERS, time_ms,
                  "marker %d (%s) not found: the other three hold the table (is something over "
                  "it? a far camera may need larger markers)",
                  missing, vision_marker_corner(missing));
    p->missing_said = missing;
}

/* A settled frame: its markers confirmed first (the camera or the mat moved: registered again,
 * the frame rectified anew for the gate); then a settled change that crosses the mat's edge is
 * something lying across it (a hand at rest), not the table: not read. */
static tracker_status settled(pipeline *p, const capture_frame *frame)
{
    const calibration_profile *profile = p->config.profile;
    vision_registration now;
    char error[320];
    double started = vision_clock_ms();
    vision_status status = vision_register_any_three(&frame->image, &profile->mat,
                                                     &profile->camera, &now, error,
                                                     sizeof error);
    p->stats.register_ms += vision_clock_ms() - started;
    if (status == VISION_NOMEM)
        return fail(p, TRACKER_NOMEM, "out of memory");
    if (status != VISION_OK) {
        gate_unread(p->gate);
        emit_text(p, PIPELINE_UNREAD, frame->time_ms, "markers not confirmed, not read: %s",
                  error);
        return TRACKER_OK;
    }
    note_markers(p, &now, frame->time_ms);
    double shift = pipeline_registration_shift(&p->registration, &now);
    if (shift > p->config.moved_px) {
        p->registration = now;
        p->stats.reregistered++;
        emit_text(p, PIPELINE_REREGISTERED, frame->time_ms,
                  "the camera or the mat moved (markers %.1f px away): registered again", shift);
        /* The gate compared this frame rectified with the old view: rectified anew, it is
         * compared again with the copy last read, of the mat, which the new view's still
         * compares with, so that a hand resting across the edge is seen as one (read without
         * that, it was read as tiles). */
        vision_image rectified;
        tracker_status rectifying = rectify_for_gate(p, frame, &rectified);
        if (rectifying != TRACKER_OK)
            return rectifying;
        status = gate_rebase(p->gate, &rectified, error, sizeof error);
        vision_image_free(&rectified);
        if (status != VISION_OK)
            return fail(p, status == VISION_NOMEM ? TRACKER_NOMEM : TRACKER_BAD_INPUT,
                        "frame %d: %s", frame->index, error);
    }
    const vision_image *mask = gate_change_mask(p->gate);
    double azimuth = NAN;
    int crossings = mask ? pipeline_arm_crossings(mask, p->config.arm_min_px, &azimuth) : 0;
    /* What crosses the edge may be an arm that rested there when the last table was read, and
     * has left: that table is read (with the arm's fingers on it, perhaps), this one must be
     * too, or every later table shows the same change across the edge and none is read. */
    if (crossings > 0 && gate_change_left(p->gate, ARM_BAND_PX))
        crossings = 0;
    if (crossings > 0) {
        gate_unread(p->gate);
        if (crossings == 1)
            emit_text(p, PIPELINE_UNREAD, frame->time_ms,
                      "a hand rests across the mat's edge (at %.0f degrees): not read", azimuth);
        else
            emit_text(p, PIPELINE_UNREAD, frame->time_ms,
                      "something rests across the mat's edge in %d places: not read", crossings);
        return TRACKER_OK;
    }
    return read_table(p, frame);
}

tracker_status pipeline_feed(pipeline *p, const capture_frame *frame)
{
    double started = vision_clock_ms();
    p->stats.frames++;
    p->last_frame_ms = frame->time_ms;
    tracker_status result = TRACKER_OK;
    const calibration_profile *profile = p->config.profile;
    char error[320];
    if (frame->time_ms <= p->config.skip_until_ms) {
        p->stats.skipped++;
        goto done;
    }
    if (!p->registered || frame->image.width != p->registration.image_width ||
        frame->image.height != p->registration.image_height) {
        double t = vision_clock_ms();
        vision_status status = vision_register_any_three(&frame->image, &profile->mat,
                                                         &profile->camera, &p->registration,
                                                         error, sizeof error);
        p->stats.register_ms += vision_clock_ms() - t;
        if (status == VISION_NOMEM) {
            result = fail(p, TRACKER_NOMEM, "out of memory");
            goto done;
        }
        if (status != VISION_OK) {
            p->stats.unregistered++;
            fail(p, TRACKER_OK, "frame %d: %s", frame->index, error);
            goto done;
        }
        emit_text(p, p->registered ? PIPELINE_REREGISTERED : PIPELINE_REGISTERED, frame->time_ms,
                  "registered: the camera %.0f mm above the table",
                  p->registration.camera_mm[2]);
        p->stats.reregistered += p->registered;
        p->registered = true;
        note_markers(p, &p->registration, frame->time_ms);
        gate_reset(p->gate);
        if (!p->tracker && (result = start_tracker(p)) != TRACKER_OK)
            goto done;
    }
    vision_image rectified;
    if ((result = rectify_for_gate(p, frame, &rectified)) != TRACKER_OK)
        goto done;
    double t = vision_clock_ms();
    vision_status status;
    gate_report report;
    status = gate_feed(p->gate, &rectified, frame->time_ms, &report, error, sizeof error);
    vision_image_free(&rectified);
    p->stats.gate_ms += vision_clock_ms() - t;
    if (status != VISION_OK) {
        result = fail(p, status == VISION_NOMEM ? TRACKER_NOMEM : TRACKER_BAD_INPUT,
                      "frame %d: %s", frame->index, error);
        goto done;
    }
    /* a hand moved things, or a still table waits to be read; a SETTLING frame after none (a
     * shadow's edge, the next arm's tip) leaves it as read */
    if (report.state != GATE_SETTLING)
        p->as_read = report.state == GATE_IDLE; /* or read below */
    if (report.state != GATE_BUSY)
        end_reach(p); /* the arm has left */
    if (report.state == GATE_BUSY) {
        p->stats.busy++;
        t = vision_clock_ms();
        watch_arm(p);
        p->stats.arm_ms += vision_clock_ms() - t;
    } else if (report.state == GATE_STABLE) {
        p->stats.stable++;
        p->stable_ms = frame->time_ms;
        p->still_from_ms = frame->time_ms - report.still_ms;
        p->read_started = started;
        result = settled(p, frame);
    }
done:
    p->stats.total_ms += vision_clock_ms() - started;
    return result;
}
