/*
 * calibration: what a table needs before a camera can read it.
 *
 *   markers sheet ──print──▶ four ArUco markers (4x4_50, ids 0..3) at the mat's corners:
 *                            0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
 *   ChArUco views ──calibration_camera──▶ vision_camera         (optional)
 *   a photo of the table ──calibration_table──▶ the mat checked  (markers found, sizes agree)
 *   photos + their truths ──calibration_teach_image──▶ what the box looks like
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

/* ---- teaching ---- */

/*
 * The documented teaching layout (`calibrate teach --print-layout`): 4 x 4 tiles holding every
 * tile type clear of pieces, stacks of 1, 2, 3 and 4 adventurers (the colours in turn) and the
 * boat and the snakes. VISION_BAD_INPUT for no colours, more than VISION_COLOURS_MAX, or a
 * name empty, too long or given twice.
 */
vision_status calibration_teach_layout(const char *const *colours, int colour_count,
                                       vision_el_observation *truth);

/* ---- the profile ---- */

#define CALIBRATION_PROFILE_FORMAT 3 /* written to every profile; newer ones are refused; 2 added
                                        the tokens' palettes, 3 the share of a tile its art
                                        covers; formats 1 and 2 are still read */
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

/* ---- teaching a box: photos of laid-out pieces and their truths ---- */

/*
 * Teaches profile->el from one photo whose truth is known (`calibrate teach` calls it once per
 * --image): registers the frame with the profile's mat and camera (vision_register), then
 * learns the truth's tiles, pieces and tokens into profile->el (vision_el_learn), which may
 * already hold what other photos taught, and keeps a focal length the markers measured as
 * profile->camera's hint (calibration_keep_focal). registration (may be NULL) receives where
 * the table lay, for a read-back. Fails as vision_register or vision_el_learn does (error, size
 * bytes, says why without naming the photo: the caller knows its name); profile->el may then
 * hold part of this photo's learning, so a caller that fails discards the profile.
 */
vision_status calibration_teach_image(calibration_profile *profile, const vision_image *frame,
                                      const vision_el_observation *truth,
                                      vision_registration *registration, char *error,
                                      size_t size);

/*
 * How much of a teaching photo's truth profile->el reads back (vision_el_read_back_of), the
 * photo read as a game's first table is (vision_el_recognise: nothing remembered), at the
 * registration calibration_teach_image gave: what `calibrate teach` tells its user. Fails as
 * vision_el_recognise does (VISION_NOMEM without a message); *read is then untouched.
 */
vision_status calibration_read_back(const calibration_profile *profile, const vision_image *frame,
                                    const vision_registration *registration,
                                    const vision_el_observation *truth, vision_el_read_back *read,
                                    char *error, size_t size);

/* The first tile type profile->el has no sample of (every type needs one tile without pieces in
 * some photo), or -1 when every type was taught. */
int calibration_teach_missing_type(const calibration_profile *profile);

/* ---- the camera (optional): a ChArUco board photographed from several angles ---- */

/*
 * The camera board: a chessboard whose white squares hold ArUco markers of the 5x5_100
 * dictionary, so that they are never taken for the table's 4x4_50 markers. Its printed scale
 * does not matter for the intrinsics; its flatness does.
 */
typedef struct calibration_board_config {
    int squares_x, squares_y; /* chessboard squares across and down; default 7 x 5 */
    double square_mm;         /* a square's side; default 30 */
    double marker_mm;         /* the marker inside each white square; default 22 */
    int dpi;                  /* printer resolution of the sheet; default 300 */
} calibration_board_config;

void calibration_board_config_default(calibration_board_config *config);

/*
 * Draws the board on an A4 landscape page, centred, with a caption saying what it is and how to
 * photograph it. *sheet receives an owned grey image (vision_image_free). VISION_BAD_INPUT when
 * the board does not fit the page, has fewer than 3 x 3 squares or more than 100 markers, a
 * marker does not fit its square, or the dpi is outside 72..1200.
 */
vision_status calibration_board_sheet(const calibration_board_config *config,
                                      vision_image *sheet);

#define CALIBRATION_CAMERA_VIEWS_MIN 3   /* usable views a calibration needs */
#define CALIBRATION_CAMERA_CORNERS_MIN 8 /* board corners a view needs to be usable */

typedef struct calibration_camera_result {
    vision_camera camera; /* known, measured at the views' size */
    double rms_px;        /* reprojection error of the board's corners, root mean square */
    int views_used;       /* views with at least CALIBRATION_CAMERA_CORNERS_MIN corners */
    int corners_used;     /* board corners over those views */
} calibration_camera_result;

/*
 * Measures a camera's intrinsics and lens distortion from views of the board (photos of the
 * same camera at the same size). corners_found, when not NULL, receives the number of board
 * corners found in each view (view_count entries). VISION_BAD_INPUT, with error saying how many
 * usable views were found and how many are needed, when fewer than CALIBRATION_CAMERA_VIEWS_MIN
 * views show at least CALIBRATION_CAMERA_CORNERS_MIN corners; also when the views differ in
 * size. *result is unchanged on failure.
 */
vision_status calibration_camera(const calibration_board_config *board,
                                 const vision_image *views, int view_count, int *corners_found,
                                 calibration_camera_result *result, char *error, size_t size);

/* ---- the table: the mat checked on a photo ---- */

typedef struct calibration_table_report {
    vision_registration registration;
    double height_mm; /* the camera's height above the table */
    double tilt_deg;  /* its tilt from looking straight down */
} calibration_table_report;

/*
 * Registers a photo of the table with this mat (and camera, which may be NULL, uncalibrated or a
 * focal length hint: vision_register) and says where the camera stands. Fails as
 * vision_register does, error naming the marker; *report is unchanged on failure.
 */
vision_status calibration_table(const vision_image *image, const vision_mat *mat,
                                const vision_camera *camera, calibration_table_report *report,
                                char *error, size_t size);

/*
 * Keeps the focal length the markers measured in a registration (a tilted camera) as camera's
 * hint, for later frames of the same camera that look too straight down to measure it
 * (vision_register), replacing an earlier hint (the latest photo's camera is the one that will
 * watch). A calibrated camera, or a registration whose focal length was not measured, leaves
 * camera as it is.
 */
void calibration_keep_focal(vision_camera *camera, const vision_registration *registration);

/* The tilt, degrees from looking straight down, of a registration's camera. */
double calibration_tilt_deg(const vision_registration *registration);

#endif
