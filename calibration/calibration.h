/*
 * calibration: what a table needs before a camera can read it.
 *
 *   markers sheet ──print──▶ four ArUco markers (4x4_50, ids 0..3) at the mat's corners:
 *                            0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
 *   ChArUco views ──calibration_camera──▶ vision_camera         (optional)
 *   a photo of the table ──calibration_table──▶ the mat checked  (markers found, sizes agree)
 *   photos + their truths ──calibration_teach──▶ what the box looks like
 *                                  │
 *                                  ▼
 *   calibration_profile ◀──▶ profile file (OpenCV FileStorage YAML, DESIGN.md §3.3)
 */
#ifndef TS_CALIBRATION_H
#define TS_CALIBRATION_H

#include "vision.h"

typedef struct calibration_sheet_config {
    double marker_mm; /* the printed side of each marker, without its white margin; default 40 */
    int dpi;          /* printer resolution of the image; default 300 */
} calibration_sheet_config;

void calibration_sheet_config_default(calibration_sheet_config *config);

/*
 * Draws the markers sheet: an A4 portrait page with the four markers, each in a white margin of
 * more than one module, labelled with its id, its corner and its printed size, and a 100 mm
 * ruler to check the print scale. *sheet receives an owned grey image (vision_image_free).
 * VISION_BAD_INPUT when the markers do not fit the page (above 90 mm) or are below 10 mm, or
 * the dpi is outside 72..1200.
 */
vision_status calibration_markers_sheet(const calibration_sheet_config *config,
                                        vision_image *sheet);

/* ---- the profile ---- */

#define CALIBRATION_PROFILE_FORMAT 1 /* written to every profile; newer ones are refused */
#define CALIBRATION_GAME_MAX 32

/* Everything a table and a box need before a camera can read them. Pointer-free. */
typedef struct calibration_profile {
    int format;                      /* CALIBRATION_PROFILE_FORMAT */
    char game[CALIBRATION_GAME_MAX]; /* the game the box is, e.g. "expedition-luxor" */
    vision_camera camera;            /* camera.known == 0: not calibrated */
    vision_mat mat;
    vision_el_model el;              /* expedition-luxor: what teaching learnt */
} calibration_profile;

/* A new profile for game: the current format, the default mat, no camera, nothing taught. */
void calibration_profile_init(calibration_profile *profile, const char *game);

/*
 * Writes the profile as OpenCV FileStorage YAML; the file appears whole or not at all.
 * error (size bytes) names the file and the problem.
 */
vision_status calibration_profile_save(const char *path, const calibration_profile *profile,
                                       char *error, size_t size);

/*
 * Reads a profile. VISION_NOT_FOUND for a missing file; VISION_BAD_INPUT, with error naming the
 * file and the problem, for a file that is not a profile, one of a newer format, or one with a
 * value out of range. *profile is unchanged on failure.
 */
vision_status calibration_profile_load(const char *path, calibration_profile *profile,
                                       char *error, size_t size);

#endif
