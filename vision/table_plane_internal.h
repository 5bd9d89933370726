/* The table plane's stages, timed: for the bench. Internal to vision/. */
#ifndef TS_TABLE_PLANE_INTERNAL_H
#define TS_TABLE_PLANE_INTERNAL_H

#include "vision.h"

/* Milliseconds spent in each stage of one registration. */
typedef struct vision_register_timing {
    double grey_ms;   /* the grey copy of the frame */
    double detect_ms; /* finding the markers (at half size for large frames) */
    double refine_ms; /* their corners to sub-pixel accuracy at full size */
    double fit_ms;    /* homography, focal length, pose, the moved-marker check */
    double total_ms;
} vision_register_timing;

/* vision_register (vision_register_any_three when three_enough), with the time of each stage
 * in *timing (which may be NULL). */
vision_status vision_register_timed(const vision_image *frame, const vision_mat *mat,
                                    const vision_camera *camera, bool three_enough,
                                    vision_registration *registration,
                                    vision_register_timing *timing, char *error, size_t size);

/* The frame's larger side from which markers are searched at half size. */
#define VISION_REGISTER_HALF_SIZE_FROM 1600

/*
 * A marker further than this from where the mat puts it, in mm on the table, has moved; or, for
 * a marker so small in the frame that this many pixels cover more, that many pixels. Measured
 * (tests/test_registration.c, bench/README.md): in place, the worst corner of 200 rendered
 * scenes (every camera, lens, light and sensor setting of the renderer) is 0.95 mm from where
 * the mat puts it, median 0.17 mm; a marker moved 10-15 mm shows as 9-18 mm.
 */
#define VISION_MARKER_MOVED_MM 4.0
#define VISION_MARKER_MOVED_PX 2.5

/* The markers' size as measured on the table may differ from the mat's by this share: within
 * 2% in place; a mat 7% larger than the profile says measures 7% larger. */
#define VISION_MARKER_SIZE_SHARE 0.05

#endif
