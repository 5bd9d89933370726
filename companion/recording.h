/*
 * recording: a whole Expedition Luxor game as a fixed camera would see it played, frame by
 * frame, with the truth of every settled table (issue 8). `tablescribe render --script` writes
 * one into a folder; the demo table (capture's demo:) draws one on demand.
 *
 *   script ──el_play_line──▶ tables        the state after the start and after each action
 *   (or a random game,       │
 *    el_random_game)         ├─plan──────▶ segments    rests, a hand reaching for each action,
 *                            │                          resting hands, passing shadows, a nudge
 *                            ├─frames────▶ one descriptor a frame: the table shown, the hands,
 *                            │             the shadow, the camera
 *                            ├─draw(N)───▶ vision_image (vision_el_render of frame N)
 *                            └─truth─────▶ each table's state and observation, the index JSON
 *
 * A recording is a value of its plan: the same script, options and render config give the same
 * frames, pixel for pixel, whichever order they are drawn in.
 */
#ifndef TS_RECORDING_H
#define TS_RECORDING_H

#include "expedition_luxor.h"
#include "vision.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct recording_options {
    int fps;           /* frames a second, 1..60; default 10 */
    int pause_ms;      /* the table at rest after each action, 300..20000 ms; default 1500 */
    int players;       /* 2..4; 0 (default): from the start layout, 2 tiles a seat */
    bool expansion;    /* the action tokens; default off */
    bool resting_hand; /* in about a quarter of the pauses (at least one) the next player's hand
                          rests on a tile near their side for a whole pause; default off */
    bool nudge;        /* the camera bumped once in the middle third of the game; default off */
    bool shadow;       /* in about one pause in six (at least one) a soft shadow crosses the
                          table in RECORDING_SHADOW_MS, touching nothing; default off */
} recording_options;

#define RECORDING_SHADOW_MS 1200.0

/* The defaults above. */
void recording_options_default(recording_options *options);

typedef struct recording recording;

/*
 * Plays script (the game in the notation, NUL-terminated; name is how messages call it, e.g.
 * its path) on the engine and plans its recording with render's camera, light and size (NAN
 * fields drawn once from render->scene_seed for the whole recording; render's hands are
 * ignored: the recording places its own). Nothing is drawn yet but a small trial of the last
 * table, to place the layout. On success *out is the recording (recording_free). On failure
 * *out is NULL and error (size bytes) holds one line: VISION_BAD_INPUT for a script the engine
 * refuses ("NAME:LINE: reason"), no start layout, options out of range or a game whose table
 * cannot be drawn; VISION_NOMEM.
 */
vision_status recording_from_script(const char *script, const char *name,
                                    const vision_render_config *render,
                                    const recording_options *options, recording **out,
                                    char *error, size_t size);

/*
 * The same for a random legal game the engine plays to its end from seed (el_random_game) with
 * options->players seats (2 when 0) and options->expansion. The game's lines are kept
 * (recording_script).
 */
vision_status recording_from_random(uint64_t seed, const vision_render_config *render,
                                    const recording_options *options, recording **out,
                                    char *error, size_t size);

/*
 * The demo table of seed: a random 2-player game without the expansion (recording_from_random
 * with seed), the box's art from seed, width x height pixels, fps frames a second, with hands,
 * pauses, resting hands, passing shadows and one nudge of the camera. The scene (camera, light,
 * the layout's place) is scene seed seed, or the first of seed + 1 ... seed + 7 whose empty
 * table drawn at 1280 x 720 registers (all four markers found; the last tried when none does),
 * as an owner would move a lamp until `calibrate table` finds the mat. The same at any size.
 * Fails as recording_from_random does (VISION_BAD_INPUT for a size or fps out of range).
 */
vision_status recording_demo(uint64_t seed, int width, int height, int fps, recording **out,
                             char *error, size_t size);

/*
 * Teaches the demo box of seed the way its owner would, into a profile written at path: the
 * documented teaching layout (calibration_teach_layout with the box's four colours, as
 * `calibrate teach --print-layout` prints it) rendered with box_seed seed under another scene
 * (its own scene seed, the camera tilted 25 degrees so that the stacks' height shows), then
 * calibration_teach_image and calibration_profile_save as `calibrate teach` does. The file
 * appears whole or not at all. VISION_BAD_INPUT (error naming what failed) when teaching
 * refuses the photo, VISION_IO when path cannot be written, VISION_NOMEM.
 */
vision_status recording_demo_profile(uint64_t seed, const char *path, char *error, size_t size);

/* Frees the recording. Accepts NULL. */
void recording_free(recording *r);

/* ---- the frames ---- */

int recording_frame_count(const recording *r);

/* Frame index's time, ms from the first frame: index * 1000 / fps. */
double recording_frame_time_ms(const recording *r, int index);

/* The frames a second asked for. */
int recording_fps(const recording *r);

/*
 * The first frame whose picture frame index repeats (the table at rest, unchanged), so that a
 * writer draws it once; index itself when it is drawn anew. -1 for an index out of range.
 */
int recording_frame_first(const recording *r, int index);

/* The table on view in the frame (0: the start layout), -1 for an index out of range. */
int recording_frame_table(const recording *r, int index);

/* Whether something moves in the frame (a hand reaching or withdrawing, a passing shadow): a
 * motion gate should see the table busy. False for an index out of range. */
bool recording_frame_moving(const recording *r, int index);

/*
 * Draws frame index into *frame (owned: vision_image_free; 3 channels, the render's size).
 * Deterministic. The first drawing of a resting hand at rest also notes which tiles it hides
 * (for the index). VISION_BAD_INPUT for an index out of range, else the renderer's status;
 * *frame zeroed and error (size bytes) saying why on failure.
 */
vision_status recording_draw(recording *r, int index, vision_image *frame, char *error,
                             size_t size);

/* ---- the truth ---- */

/* Tables: the start layout, then one after each action (a tile placed, a token used). */
int recording_table_count(const recording *r);

/* Actions: the tables less the start layout. */
int recording_action_count(const recording *r);

/* The engine's state of table k (borrowed, valid until recording_free); NULL out of range. */
const el_state *recording_table_state(const recording *r, int k);

/* The action that laid table k, canonical notation ("start ..." for table 0); NULL out of
 * range. Borrowed. */
const char *recording_table_action(const recording *r, int k);

/* The observation of table k (DESIGN.md §3.2: vision_el_truth_of_state, rows and columns from
 * 0) into *truth. False, *truth untouched, for k out of range. */
bool recording_table_truth(const recording *r, int k, vision_el_observation *truth);

/* A disturbance of the plan, as the index names it. */
typedef struct recording_disturbance {
    const char *kind; /* "resting-hand", "camera-nudge", "passing-shadow"; static storage */
    int table;        /* the table on view */
    int first_frame, last_frame; /* -1 when never on view */
} recording_disturbance;

int recording_disturbance_count(const recording *r);

/* Disturbance d into *out; false for d out of range. */
bool recording_disturbance_at(const recording *r, int d, recording_disturbance *out);

/* The script played (as given, or the random game's lines). Borrowed. */
const char *recording_script(const recording *r);

/*
 * The index of a recording folder (truth.json, described by `tablescribe render --help`):
 * the game, the frames (files "NNNNNN.FORMAT", times.txt, script.txt, truth/NNNN.json per
 * table), per table its observation, line, seat, action, frames and rests, per action its
 * hand's frames, the disturbances, the camera pose and the layout's place. Malloc'd (the caller
 * frees), NULL when out of memory. Which cells a resting hand hides is known once its first
 * frame at rest has been drawn (recording_draw).
 */
char *recording_index_json(const recording *r, const char *format);

#endif
