/*
 * capture's camera: backend: the libcamera shim (capture_camera.cpp), built only with
 * TS_HAVE_LIBCAMERA. Not part of the module's interface (capture.h is).
 */
#ifndef TS_CAPTURE_INTERNAL_H
#define TS_CAPTURE_INTERNAL_H

#include "capture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct capture_camera capture_camera;

/*
 * Starts camera number index (0: the first libcamera lists) streaming width x height (0 x 0:
 * its own viewfinder size) in blue-green-red. On failure *camera is NULL and error (size bytes)
 * says why in a few words, without naming the spec: CAPTURE_BAD_INPUT when there is no such
 * camera, CAPTURE_IO when it cannot be acquired or started.
 */
capture_status capture_camera_open(int index, int width, int height, capture_camera **camera,
                                   char *error, size_t size);

/*
 * Waits for the next completed frame and copies it into *frame (3 channels, owned; reallocated
 * when it is not already an owned image of the frame's size); *time_ms is the sensor's
 * timestamp in ms (CLOCK_MONOTONIC's clock). CAPTURE_IO when the camera stops or a frame does
 * not come within 5 s, with error saying which.
 */
capture_status capture_camera_read(capture_camera *camera, vision_image *frame, double *time_ms,
                                   char *error, size_t size);

/* Stops the camera and releases it. Accepts NULL. */
void capture_camera_close(capture_camera *camera);

#ifdef __cplusplus
}
#endif

#endif
