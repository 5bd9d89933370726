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

/* ---- renderer: the scene renderer's drawing (render_*.c) ----
 * Colours are one value per channel, 0..255 (blue, green, red). Pixel centres are at whole
 * coordinates. Each returns VISION_BAD_INPUT (or VISION_NOMEM) when OpenCV refuses, the image
 * then possibly half drawn. */

/* Fills a simple polygon (convex or not), anti-aliased. For painting art, not for truths:
 * OpenCV's anti-aliased edges sit up to a pixel outside the polygon. */
vision_status cv_shim_fill_polygon(vision_image *image, const vision_point *points, int count,
                                   const double colour[3]);

/* Draws a polyline thickness pixels wide (at least 1), anti-aliased; closed joins the ends. */
vision_status cv_shim_polyline(vision_image *image, const vision_point *points, int count,
                               int closed, double thickness, const double colour[3]);

/*
 * Warps texture (the image's channels) through texture_to_image (3x3, row-major: texture pixel
 * to image pixel) into the rectangle (x, y, width, height), which must lie inside image, and
 * blends it there by coverage (width x height bytes, row-major, 0..255) times, when alpha is
 * not NULL, the warped alpha (1 channel, the texture's size). The texture's colour is multiplied
 * by shade[c] per channel first.
 */
vision_status cv_shim_warp_blend(vision_image *image, const vision_image *texture,
                                 const vision_image *alpha, const double texture_to_image[9],
                                 int x, int y, int width, int height, const uint8_t *coverage,
                                 const double shade[3]);

/* Resizes source into destination (already allocated at the wanted size, same channels),
 * averaging areas when shrinking. */
vision_status cv_shim_resize(const vision_image *source, vision_image *destination);

/* Gaussian blur in place, sigma pixels (above 0). */
vision_status cv_shim_blur(vision_image *image, double sigma);

/* Encodes the image as JPEG at quality (1..100) and decodes it back in place. */
vision_status cv_shim_jpeg(vision_image *image, int quality);

#ifdef __cplusplus
}
#endif

#endif
