/*
 * pipeline: frames of a source to moves in the archive (DESIGN.md §1), for `tablescribe
 * replay` and `tablescribe watch`.
 *
 *   capture_frame ──register (once, then re-checked on each settled table)
 *        │            a moved camera or mat: registered again, reported, the gate restarted
 *        ▼
 *   rectified mat (small, gate_px_per_mm) ──gate──▶ BUSY: where the change crosses the mat's
 *        │                                          edge ─▶ the arm's azimuth ─▶ its seat
 *        │                                  STABLE: an arm still across the edge (a hand at
 *        │                                          rest): not read, the gate told so
 *        ▼
 *   STABLE ──vision_el_recognise──▶ vision_el_to_rules ──▶ tracker_observe(acting seat)
 *                                                              │
 *                                          pipeline_event ◀────┘ moves, flags, game over
 *
 * Turn ends: no camera sees one (tracker.h); the players may say so (pipeline_end_turn). The
 * recorder and the players sit at known sides (seat k of N at azimuth 360 k / N by default,
 * pipeline_config.seat_deg otherwise); when the arms seen since the last read are one seat's,
 * that seat is the table's acting seat, and the tracker believes only explanations whose last
 * action is that seat's. Two seats' arms, an arm across two edges, or one halfway between two
 * seats: no acting seat (the tracker infers).
 *
 * Times: frame times are the source's (ms); stage times are wall-clock ms of this process.
 */
#ifndef TS_PIPELINE_H
#define TS_PIPELINE_H

#include "calibration.h"
#include "capture.h"
#include "gate.h"
#include "tracker.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    PIPELINE_REGISTERED,   /* the table's markers found for the first time */
    PIPELINE_REREGISTERED, /* the camera or the mat moved: registered again (text: how far) */
    PIPELINE_UNREAD,       /* a settled table was not read (text: why: a hand at rest over
                              the mat's edge, the markers not confirmed, a reading the rules
                              cannot take) */
    PIPELINE_MARKERS,      /* a table marker is not found, the table registered from the
                              other three (text: which), or it is found again */
    PIPELINE_TRACKER,      /* the tracker's event: a move, a flag, the game's end */
} pipeline_event_kind;

/* What the caller prints. Borrowed for the callback only. */
typedef struct pipeline_event {
    pipeline_event_kind kind;
    double frame_time_ms;          /* the frame's time in the source */
    const tracker_event *tracker;  /* TRACKER: the tracker's event */
    int acting_seat;               /* TRACKER: the seat whose arm was seen, -1 when unknown */
    /* TRACKER, a MOVE: the source's time when the table it was read from stopped moving (the
     * first frame of the gate's still period: the hand gone from the mat) */
    double still_from_ms;
    /* TRACKER, a MOVE: the wall time from the settled frame's arrival to the commit
     * (registration check, recognition, the tracker, the archive) */
    double read_ms;
    /* TRACKER, a MOVE: from still_from_ms to the commit: the settle time, the source's time
     * from still_from_ms to the settled frame, plus read_ms. For a move committed at a later
     * table than its own (who acted showed only then), from that later table's stillness; for
     * one the players chose (pipeline_choose), from the last table read's stillness to the
     * frame their answer came after, and read_ms from that table's read to the answer */
    double latency_ms;
    char text[320];                /* REGISTERED, REREGISTERED, UNREAD: one line */
} pipeline_event;

typedef struct pipeline_config {
    const calibration_profile *profile; /* borrowed, must outlive the pipeline: the mat, the
                                         * camera, the taught box (Expedition Luxor) */
    tracker_config tracker;   /* the game, its options, resume; its on_event is the
                               * pipeline's own (overwritten) */
    db *archive;              /* borrowed, may be NULL (nothing stored) */
    gate_config gate;         /* default: gate_config_default with scale 2 and row_step 1 on
                               * the rectified mat (keep_change_mask forced on) */
    /* The rectified mat the gate watches, pixels per mm. Default 0.5: 280 x 280 for the
     * default mat; with scale 2 a small pixel is 4 mm, an adventurer 16 of them. */
    double gate_px_per_mm;
    /* The seats' sides, azimuths in degrees (0 = the mat's bottom edge, counter-clockwise, as
     * vision_render_hand.from_deg), seat_deg_count of them; 0 (default): seat k of N at
     * 360 k / N. */
    int seat_deg_count;
    double seat_deg[RULES_MAX_SEATS];
    /* An arm is taken as a seat's only when it lies closer to that seat's side than to
     * halfway between two seats by this much. Default 10 degrees. */
    double seat_margin_deg;
    /* A crossing of the mat's edge narrower than this many small pixels is no arm (a speck,
     * a shadow's tip). Default 3 (12 mm). */
    int arm_min_px;
    /* Fields the recogniser is less sure of than this are unseen for the rules. Default 0.5. */
    float min_confidence;
    /* A table the rules cannot explain is tried again with the fields read less surely than
     * this unseen too (tracker_table.cautious_observation): a camp's art half hidden by its
     * stack, read a pyramid at 0.63, is then a camp of some count rather than a table nothing
     * explains. Default 0.9; at or below min_confidence, never. */
    float sure_confidence;
    /* A settled frame's markers farther than this from where they were (pixels, any corner):
     * the camera or the mat moved. Default 2. */
    double moved_px;
    /* Frames up to this time (ms) are skipped: a recording resumed where its archive stopped.
     * Default -1: none. */
    double skip_until_ms;
    void (*on_event)(void *context, const pipeline_event *event); /* may be NULL */
    void *context;
} pipeline_config;

/* The defaults above; tracker_config_default for the tracker; profile and archive NULL. */
void pipeline_config_default(pipeline_config *config);

/* What a bench needs: counts, and wall time spent in each stage (ms, summed). */
typedef struct pipeline_stats {
    long frames;           /* fed */
    long skipped;          /* before skip_until_ms */
    long unregistered;     /* before the markers were first found */
    long busy, stable;     /* the gate's BUSY and STABLE frames */
    long reads;            /* settled tables recognised and given to the tracker */
    long unread;           /* settled tables not read (PIPELINE_UNREAD) */
    long reregistered;
    long acting_known;     /* reads with an acting seat */
    long moves, flags;
    double register_ms, rectify_ms, gate_ms, arm_ms, recognise_ms, tracker_ms, total_ms;
    double grid_ms, types_ms, stacks_ms; /* recognition's stages (vision_el_timing) */
    long tiles_typed, tiles_recalled;    /* tiles read, and those the last read told the
                                            likely types of (vision_el_memory) */
    long lights_kept;                    /* reads that fitted the stacks in the last light */
    long heights_told;                   /* reads the committed game then showed as they
                                            were: their stacks' heights told to the
                                            recogniser (vision_el_memory_know_stacks) */
} pipeline_stats;

typedef struct pipeline pipeline;

/*
 * A pipeline in *out (pipeline_free; a handle even on failure, so that pipeline_error says why,
 * NULL only when memory ran out). With config->tracker.resume the tracker resumes that game at
 * once (its failures are this call's); a new game is created in the archive only when the
 * markers are first found, so that a source that never shows the table writes nothing.
 * TRACKER_BAD_INPUT for a profile of another game or not taught, bad seat sides;
 * TRACKER_NOT_AVAILABLE for a game the camera does not read yet; the tracker's otherwise.
 */
tracker_status pipeline_new(const pipeline_config *config, pipeline **out);

/* Frees it and its tracker (the archive stays open). Accepts NULL. */
void pipeline_free(pipeline *p);

/* The last failure's detail, one line. Valid until the next call on p. */
const char *pipeline_error(const pipeline *p);

/*
 * Takes one frame (borrowed for the call): registers, gates, and on a settled table reads it
 * and hands it to the tracker; events go to config->on_event in order. Frames before the
 * markers are first found are counted and dropped (pipeline_error says why the last one was).
 * TRACKER_ARCHIVE when the archive failed,
 * TRACKER_NOMEM; TRACKER_BAD_INPUT for a frame time going back. The other troubles of a frame
 * (markers covered, a misread) are events, not failures.
 */
tracker_status pipeline_feed(pipeline *p, const capture_frame *frame);

/* Whether the markers were ever found; when not, pipeline_error says why the last try failed. */
bool pipeline_registered(const pipeline *p);

/* The counts and times so far. */
const pipeline_stats *pipeline_stats_get(const pipeline *p);

/* The tracker, for the committed game's state and id; NULL before the markers were first
 * found (but when resuming). Borrowed, lives with the pipeline. */
const tracker *pipeline_tracker(const pipeline *p);

/*
 * The players' answer to the last ambiguous flag: its candidate (1-based) is the game
 * (tracker_choose), committed at the last frame's time; its moves are events as any other.
 * TRACKER_BAD_INPUT, pipeline_error saying why, when nothing waits to be chosen or the number
 * is out of range.
 */
tracker_status pipeline_choose(pipeline *p, int candidate);

/*
 * The players say what was played (tracker_play: lines of the notation, '\n' between),
 * committed at the last frame's time; its moves are events as any other. TRACKER_BAD_INPUT,
 * pipeline_error giving the rules' reason, when a line is not legal or no table was read yet.
 */
tracker_status pipeline_play(pipeline *p, const char *lines);

/* The players take the last committed action back (tracker_undo). TRACKER_BAD_INPUT,
 * pipeline_error saying why, when there is none. */
tracker_status pipeline_undo(pipeline *p);

/* The players say the last table read is as the game has it (tracker_confirm: what it shows
 * otherwise is a misread, forgiven on later tables that read it alike). TRACKER_BAD_INPUT,
 * pipeline_error saying why, when no table was read yet. */
tracker_status pipeline_confirm(pipeline *p);

/*
 * The players say the active seat's turn is over (a key at the table). When the table has not
 * moved since it was last read, the turn ends now (tracker_end_turn); otherwise the turn's last
 * action may still be settling, and the end comes with the next table read
 * (tracker_table.turn_ended). With config->tracker.turn_ends_signalled the players say every
 * end so. TRACKER_BAD_INPUT before the table was ever seen; the tracker's otherwise.
 */
tracker_status pipeline_end_turn(pipeline *p);

/* ---- the stages that can be tested alone ---- */

/*
 * Where a change crosses the edge of a mask of the rectified mat (gate_change_mask: non-zero
 * where changed; the mask's edges are the mat's): the crossings, runs along the edge at least
 * min_px long (gaps of 2 pixels or less joined). Returns their number, or -1 when nearly the
 * whole edge changed (the camera or the light jumped). With exactly one, *azimuth_deg receives
 * the azimuth of its middle seen from the mat's centre: 0 = the bottom edge (the mask's last
 * row), counter-clockwise, [0, 360).
 */
int pipeline_arm_crossings(const vision_image *mask, int min_px, double *azimuth_deg);

/*
 * The tip of the one arm a change mask shows, crossing its edge at azimuth_deg (as
 * pipeline_arm_crossings gives it): of the changed pixels joined to the mask's edge, the one
 * that reaches furthest in from that side, in the mask's pixels (tip[0] across, tip[1] down,
 * the pixel's centre). What a hand lays down lies there. false when no changed pixel touches
 * the edge, or out of memory.
 */
bool pipeline_arm_tip(const vision_image *mask, double azimuth_deg, double tip[2]);

/* Where the arms reached between two reads, mat mm, in order: where each reach went furthest
 * in, and every tip on the way with the reach it belongs to (0 .. count - 1). */
typedef struct pipeline_reaches {
    const double (*end_mm)[2];
    int count;
    const double (*tip_mm)[2];
    const int *tip_reach;
    int tip_count;
} pipeline_reaches;

/*
 * The order the hands laid the tiles seen (tiles of side mm): rank[j] for seen->tiles[j], 1
 * first, 0 for a tile no reach laid. A tile is laid by the first reach that ended on it (the
 * tile nearest where the arm went furthest in, within a tile's side); one no reach ended on,
 * by the first whose path came within half a tile of it, before the tile that reach ended on
 * (a camp whose adventurers moved on: the reach ends beyond it). A reach that passed over a
 * tile's place on its way to another does not lay it: a later reach ended there.
 */
void pipeline_rank_reached(const vision_el_observation *seen, double side,
                           const pipeline_reaches *reaches, int *rank);

/*
 * The seat whose side (seat_deg[count], degrees) is nearest azimuth_deg, or -1 when the azimuth
 * lies within margin_deg of halfway between it and the next nearest.
 */
int pipeline_nearest_seat(double azimuth_deg, const double *seat_deg, int count,
                          double margin_deg);

/* How far the markers of b lie from those of a, pixels: the largest corner's distance, over
 * the markers found in both (a marker not found has only the corners the other three put it
 * at, a pixel or two off); INFINITY when the frames' sizes differ. */
double pipeline_registration_shift(const vision_registration *a, const vision_registration *b);

#endif
