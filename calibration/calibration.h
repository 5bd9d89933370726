/*
 * calibration: what a table needs before a camera can read it.
 *
 *   markers sheet ──print──▶ four ArUco markers (4x4_50, ids 0..3) at the mat's corners:
 *                            0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
 *   (later issues: camera intrinsics, table registration, teaching a box → profile)
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

#endif
