/*
 * capture: timestamped frames from a source named by a spec string (DESIGN.md §3.1).
 *
 *   "dir:PATH" ─┐                     ┌─▶ dir     image files in name order (+ times.txt)
 *   "file:PATH" │                     ├─▶ file    a video, through OpenCV (cv_shim.cpp)
 *   "v4l2:DEV"  ├─ capture_open ─────▶├─▶ v4l2    a webcam, through OpenCV's V4L2 backend
 *   "camera:N"  │   (spec parser,     ├─▶ camera  libcamera (capture_camera.cpp), or "not built
 *   "demo:SEED"─┘    backend table)   │           with camera support"
 *                                     └─▶ demo    a random game drawn on demand (recording.h)
 *
 *   capture_read ──▶ capture_frame {image (BGR, borrowed), time_ms, index}  ... CAPTURE_END
 *
 * Each backend is a row of a table of functions (open, read, close) behind one opaque
 * capture_source; the source keeps its last error (capture_error), which names the source and
 * the thing that failed (the file, the line of times.txt, the device).
 *
 * The dir: source, exactly:
 * - frames are the folder's regular files ending in .png, .jpg or .jpeg (any case), in byte
 *   order of their names (strcmp: "frame-0002.png" before "frame-0010.png", so number them
 *   with leading zeros); every other file (times.txt among them) and sub-folder is ignored.
 * - times.txt, when present, gives every frame's time, one line per frame:
 *       <file name> <milliseconds>
 *   separated by spaces or tabs; the name is the frame's bare file name (no folder, no spaces);
 *   milliseconds a decimal number >= 0 (digits, an optional fraction: "1500", "1533.3");
 *   blank lines and lines starting with '#' are ignored. Lines may come in any order, but the
 *   times must increase strictly in the frames' name order. Errors (each names times.txt's
 *   line): a malformed line, a name that is not a frame of the folder, a frame named twice,
 *   a time not after the previous frame's; and a frame with no line names that frame.
 * - without times.txt, frame i (from 0) is at i * 1000 / fps ms (capture_config.fps).
 * - an empty folder (no frame files) is an error; a frame file that does not decode is an error
 *   naming it when it is read (capture_read), not at open.
 *
 * The demo: source, exactly: "demo[:SEED][?OPTION&OPTION...]", SEED a whole number (default 1),
 * options:
 *   size=WxH   the frame size, 32 to 8192 pixels a side (default 1280x720)
 *   pace=1|0   1 (default): each frame is given at its time on the clock from the open, a read
 *              blocking until then (the frame is drawn before the wait); a reader slower than
 *              the frame rate misses frames, as with a camera. 0: as fast as they are drawn
 *              (tests, benches), every frame in turn.
 *   fps=N      frames a second, 1 to 60 (default 10)
 * It is recording_demo(SEED, ...): a random 2-player Expedition Luxor game without the
 * expansion played by the engine to its end, the box's art and the scene from SEED, with hands
 * reaching in for every action, pauses, resting hands, passing shadows and one nudge of the
 * camera; frame i's time is i * 1000 / fps ms; it ends with the game. recording_demo_profile
 * teaches its box for a tracker (recording.h). capture_config's fields do not apply to it.
 */
#ifndef TS_CAPTURE_H
#define TS_CAPTURE_H

#include "vision.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CAPTURE_STATUS_TABLE(X)                                               \
    X(CAPTURE_OK, "ok")                                                       \
    X(CAPTURE_END, "no more frames")                                          \
    X(CAPTURE_BAD_SPEC, "not a source")                                       \
    X(CAPTURE_BAD_INPUT, "bad input")                                         \
    X(CAPTURE_NOT_AVAILABLE, "not available")                                 \
    X(CAPTURE_IO, "input/output error")                                       \
    X(CAPTURE_NOMEM, "out of memory")

typedef enum {
#define CAPTURE_STATUS_ENUM(name, message) name,
    CAPTURE_STATUS_TABLE(CAPTURE_STATUS_ENUM)
#undef CAPTURE_STATUS_ENUM
} capture_status;

/* The status's short message. Static storage. */
const char *capture_status_message(capture_status status);

/* CAPTURE_BAD_SPEC and CAPTURE_BAD_INPUT are about the user's input (exit status 2); the rest
 * are failures of the machine or of this build (exit status 1). */
int capture_status_is_users(capture_status status);

typedef struct capture_config {
    double fps;        /* dir: without times.txt: frames a second; default 10 (> 0, <= 1000) */
    int width, height; /* v4l2: and camera: only: the frame size asked of the device, pixels;
                          default 1920 x 1080 (it may give another); 0 x 0: the device's own
                          (demo: takes its size in its spec) */
} capture_config;

/* The defaults above. */
void capture_config_default(capture_config *config);

typedef struct capture_source capture_source;

/* One frame. */
typedef struct capture_frame {
    vision_image image; /* 3 channels, blue green red; borrowed from the source: valid until
                           the next capture_read or capture_free (copy it to keep it) */
    double time_ms;     /* when it was taken, ms: increasing along the source; dir: as
                           times.txt says (or the fixed rate), file: the container's position,
                           v4l2: and camera: since the source was opened */
    int index;          /* 0 for the first frame read, then 1, 2, ... */
} capture_frame;

/*
 * Opens the source spec names (see the top of this file; config NULL for the defaults) into
 * *source (capture_free). On failure *source is NULL and error (size bytes) holds one line
 * naming the spec and the problem: CAPTURE_BAD_SPEC for a malformed spec or an unknown kind,
 * CAPTURE_BAD_INPUT for a source that is not there or not right (a missing folder or device, an
 * empty folder, a bad times.txt, a file that is not a video), CAPTURE_NOT_AVAILABLE for a kind
 * this build cannot open (camera: without libcamera), CAPTURE_NOMEM, CAPTURE_IO. demo: plans
 * its whole game at open (a few ms) and draws nothing yet.
 */
capture_status capture_open(const char *spec, const capture_config *config,
                            capture_source **source, char *error, size_t size);

/*
 * The next frame into *frame (its image borrowed from the source, see capture_frame).
 * CAPTURE_END when there are no more (and again on every later call). On failure *frame is
 * zeroed and capture_error says why: CAPTURE_BAD_INPUT for a frame file that does not decode
 * (naming it), CAPTURE_IO for a device that stopped. A failed read may be retried: dir: goes on
 * with the next file, the others try again.
 */
capture_status capture_read(capture_source *source, capture_frame *frame);

/* The number of frames the source holds when it is known (dir:, demo:, and file: when the
 * container says), for a progress bar; -1 for a live source or when unknown. */
int capture_frame_count(const capture_source *source);

/* The last error, one line naming the source and the problem ("" when none). Owned by the
 * source, valid until its next call. */
const char *capture_error(const capture_source *source);

/* Whether the source plays frames taken earlier (dir:, file:), whose times a reader may keep
 * to replay them as they were taken; false for a live source (v4l2:, camera:), which delivers
 * its frames at their time by itself, and for demo:, paced by its own pace= option. */
bool capture_is_recording(const capture_source *source);

/* Whether the source is the demo table; its seed into *seed when it is (for
 * recording_demo_profile: a tracker watching the demo teaches its box from the seed). */
bool capture_demo_seed(const capture_source *source, uint64_t *seed);

/* Closes the source and frees it. Accepts NULL. */
void capture_free(capture_source *source);

#endif
