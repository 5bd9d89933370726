/*
 * The OpenCV shim: the only place that includes OpenCV. C declarations, C++ bodies that catch
 * every exception and turn it into a status and a message. Internal to vision/.
 */
#ifndef TS_CV_SHIM_H
#define TS_CV_SHIM_H

#include "vision.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes an encoded image (PNG, JPEG, ...) into *image, 3 channels, owned. */
vision_status cv_shim_decode(const uint8_t *data, size_t size, vision_image *image, char *error,
                             size_t error_size);

/* Encodes the image in the format of extension (".png", ".jpg"); *data is malloc'd, caller
 * frees. */
vision_status cv_shim_encode(const vision_image *image, const char *extension, uint8_t **data,
                             size_t *size, char *error, size_t error_size);

/* Renders ArUco marker id (4x4_50) as side x side grey pixels into pixels (row stride bytes). */
vision_status cv_shim_aruco_marker(int id, int side, uint8_t *pixels, int stride, char *error,
                                   size_t error_size);

/* Draws text in black, its baseline's left end at (x, y), letters about height pixels tall. */
vision_status cv_shim_text(vision_image *image, const char *text, int x, int y, int height);

/* Fills the rectangle with grey level value (every channel). */
vision_status cv_shim_fill(vision_image *image, int x, int y, int width, int height,
                           uint8_t value);

#ifdef __cplusplus
}
#endif

#endif
