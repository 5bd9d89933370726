/*
 * gate: the motion gate (DESIGN.md §1, step 3). Fed every frame (the rectified table is best:
 * the caller passes whatever vision_image it wants watched) with its time, it keeps a small
 * blurred grey copy and says when the table has settled and should be read.
 *
 *   frame ──cv_shim_shrink_grey──▶ small copy (1/scale each way, from every row_step-th row,
 *                                     blurred)
 *                                     │ compared, after matching the overall light, with
 *                                     ├─▶ the anchor: the first frame of the current still
 *                                     │   period → BUSY / SETTLING / still
 *                                     └─▶ the copy last read (at the last STABLE) → changed
 *
 * Per frame, one of:
 *   BUSY      the frame differs from the anchor by motion_share or more: hands, arms
 *   SETTLING  still (or a change too small for a hand) for less than settle_ms
 *   STABLE    still for settle_ms and changed since the last read (or nothing read yet): the
 *             caller should read this frame. Reported once per still period.
 *   IDLE      still for settle_ms, and already read in this still period or unchanged since
 *             the last read (a shadow passed, a hand came and went without moving anything)
 *
 * A hand resting still over the table looks like any other settled change: STABLE fires with
 * changed set. The gate cannot tell; the tracker, which reads the frame, can (the recogniser
 * reports what a hand covers as unknown). A change of the overall light (a lamp, a cloud, the
 * camera's exposure) is matched away: a gain and an offset fitted to the two copies' pixels,
 * grey level by grey level, map one onto the other before pixels are compared (or the light is
 * left as it was, where that explains more of them).
 */
#ifndef TS_GATE_H
#define TS_GATE_H

#include "vision.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    GATE_BUSY,
    GATE_SETTLING,
    GATE_STABLE,
    GATE_IDLE,
} gate_state;

/* "busy", "settling", "stable", "idle". Static storage. */
const char *gate_state_name(gate_state state);

typedef struct gate_config {
    /* The small copy is the frame shrunk scale times each way (at least 1 pixel). Default 8:
     * 240 x 135 for 1080p, where an adventurer of 16 mm still covers a few pixels and the
     * frame's noise averages out over 64 pixels. 1..64. */
    int scale;
    /* The small copy averages every row_step-th row of the frame (1: every row). Default 4:
     * two of the eight rows under each small pixel. Reading a 1080p frame from memory costs
     * about 1.1 ms on one core of the development machine, a quarter of its rows 0.5 ms (DESIGN
     * §5 gives the gate 1 ms); 16 pixels averaged and blurred still leave a camera's noise far
     * under pixel_threshold, and every column is read, so nothing as tall as 4 rows (a hand, a
     * piece: tens of rows) is missed. 1..scale. */
    int row_step;
    /* Gaussian blur of the small copy, in its pixels. Default 1.0: a sub-pixel shake of the
     * camera or an edge's JPEG ringing stays under pixel_threshold. 0 (none) .. 10. */
    double blur_sigma;
    /* How long the table must stay still before it is read, ms. Default 600: a hand leaves the
     * view within a frame or two and a nudged piece stops wobbling within about 300 ms; the
     * move lands settle_ms after the last hand left, so longer costs latency. 0 .. 60000. */
    double settle_ms;
    /* A small pixel counts as changed when it differs by more than this many grey levels once
     * the light is matched. Default 12: the averaged noise of a camera is about 1 level and
     * what is left of a light change a few; skin or a sleeve against the mat, or an adventurer
     * against a tile, differ by 30 and more. 1..255. */
    double pixel_threshold;
    /* Share of the small copy that must change for motion (BUSY), 0..1. Default 0.002 (65
     * pixels of 240 x 135): a hand or an arm covers several per cent; a speck of dust or a
     * fly is far smaller. */
    double motion_share;
    /* Share that must change for "changed" (since the anchor: the still period starts again;
     * since the last read: STABLE rather than IDLE), 0..motion_share. Default 0.0003 (10
     * pixels of 240 x 135): an adventurer moved at 1080p leaves two spots of about 9 pixels
     * each, so even one taken away alone is seen. */
    double change_share;
    /* Keep, for each frame, the mask of the small pixels that differ from the copy last read
     * (gate_change_mask): for a caller that asks where the table changed, such as the side an
     * arm reaches in from. Default false: the comparison is made anyway (gate_report.change),
     * only its pixels are not kept. */
    bool keep_change_mask;
} gate_config;

/* The defaults above. */
void gate_config_default(gate_config *config);

/* What the gate says of one frame. */
typedef struct gate_report {
    gate_state state;
    bool changed;    /* the table differs from the copy last read (true before the first read) */
    double motion;   /* share of the small copy changed since the anchor, 0..1 */
    double change;   /* share changed since the copy last read, 0..1 (1 before the first read) */
    double still_ms; /* how long the table has been still (0 for BUSY and on a changed frame) */
} gate_report;

typedef struct gate gate;

/*
 * A new gate in *out (gate_free), config NULL for the defaults. VISION_BAD_INPUT when a
 * config field is out of its range, VISION_NOMEM; *out is NULL on failure and error (size
 * bytes) names the field.
 */
vision_status gate_new(const gate_config *config, gate **out, char *error, size_t size);

/*
 * Feeds one frame (1 or 3 channels; borrowed for the call only) taken at time_ms, which must
 * not go back, and writes what the gate says of it into *report. A frame of another size than
 * the last one starts the gate afresh (gate_reset). VISION_BAD_INPUT for an empty frame or a
 * time going back, VISION_NOMEM; on failure the gate is unchanged, *report zeroed, and error
 * (size bytes) says why.
 */
vision_status gate_feed(gate *gate, const vision_image *frame, double time_ms,
                        gate_report *report, char *error, size_t size);

/*
 * Forgets every frame seen: the next frame starts a still period and, once settled, is STABLE.
 * For the caller's view changing under the gate (the table registered again after the camera
 * was nudged), so that the new view is not compared with the old.
 */
void gate_reset(gate *gate);

/*
 * The caller did not read the last STABLE frame after all (a hand rests on the table): the copy
 * last read goes back to the one before it, so that the table is STABLE again when it settles
 * different from that one, and IDLE when it settles back as it was. Nothing when the last
 * frame fed was not STABLE.
 */
void gate_unread(gate *gate);

/*
 * With config.keep_change_mask: the last frame fed compared with the copy last read before it
 * (at a STABLE frame, the read before this one), light matched as for gate_report.change: one
 * channel, the small copy's size (pixel (x, y) covers the frame's scale x scale pixels from
 * (x * scale, y * scale)), 255 where it differs, 0 elsewhere. Borrowed from the gate, valid
 * until its next gate_feed, gate_reset or gate_free. NULL without keep_change_mask, before
 * anything was read, after a reset or after a failed feed.
 */
const vision_image *gate_change_mask(const gate *gate);

/*
 * At a STABLE frame whose view jumped (the camera moved, and the caller rectified the frame
 * anew): frame, of the size the gate was fed, becomes this STABLE's copy in place of the one
 * fed, and the change mask is worked out again against the copy read before. That copy, of the
 * mat, still compares with the new view's, so that a hand resting across the edge is seen as
 * one, and the frame may be read at once. The still period goes on from it. Nothing when the
 * last frame fed was not STABLE; VISION_BAD_INPUT for a frame of another size.
 */
vision_status gate_rebase(gate *gate, const vision_image *frame, char *error, size_t size);

/*
 * At a STABLE frame, with config.keep_change_mask: whether what changed on the image's border
 * band (depth pixels deep: the mat's edge) has left rather than arrived. Where the mask marks
 * that band, this frame shows what the rest of its band shows (the bare edge) and the copy read
 * before did not: an arm resting across the edge when that copy was read, gone now. False when
 * it cannot tell (nothing changed there, no copy read before, both or neither look bare).
 */
bool gate_change_left(const gate *gate, int depth);

/* Frees the gate. Accepts NULL. */
void gate_free(gate *gate);

#endif
