/*
 * The OpenCV shim: the only place that includes OpenCV. C declarations, C++ bodies that catch
 * every exception and turn it into a status and a message. Internal to vision/, but for the
 * capture sources and the motion gate (companion/capture.c, gate.c), which use the video and
 * grey-copy functions at the end.
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

/* ---- the motion gate's small copy (companion/gate.c) ---- */

/*
 * The grey copy of source (1 or 3 channels) shrunk into destination (1 channel, already
 * allocated at the wanted size): every row_step-th row of source (1: all) is read and areas of
 * them averaged (INTER_AREA), then the small copy is blurred by blur_sigma of its pixels (none
 * when 0). VISION_BAD_INPUT when destination is wider than source or taller than its rows read.
 */
vision_status cv_shim_shrink_grey(const vision_image *source, int row_step,
                                  vision_image *destination, double blur_sigma);

/* ---- video: files and V4L2 webcams through VideoCapture (companion/capture.c) ---- */

typedef struct cv_shim_video cv_shim_video;

/*
 * Opens a video file (through FFmpeg when this OpenCV has it, else its own Motion JPEG AVI
 * reader) into *video (cv_shim_video_close). VISION_UNREADABLE when no backend opens it;
 * *video is NULL on failure and error (error_size bytes) says why, without the path.
 */
vision_status cv_shim_video_open_file(const char *path, cv_shim_video **video, char *error,
                                      size_t error_size);

/*
 * Opens a V4L2 device (/dev/videoN) through OpenCV's V4L2 backend, asking for width x height
 * (0: the device's own) in MJPG where it offers it. VISION_NOT_FOUND when it does not open;
 * *video is NULL on failure and error says why, without the path.
 */
vision_status cv_shim_video_open_v4l2(const char *device, int width, int height,
                                      cv_shim_video **video, char *error, size_t error_size);

/*
 * The next frame into *frame as 3 channels (blue, green, red), owned: reallocated when it is
 * not already an owned image of the frame's size. *time_ms: the container's position of that
 * frame (CAP_PROP_POS_MSEC), or a negative number when the backend gives none. *end is set
 * (VISION_OK) when there are no more frames. VISION_UNREADABLE when a frame cannot be decoded.
 */
vision_status cv_shim_video_read(cv_shim_video *video, vision_image *frame, double *time_ms,
                                 int *end, char *error, size_t error_size);

/* The container's frame count (-1 when it does not say) and frame rate (0 when it does not). */
int cv_shim_video_frame_count(const cv_shim_video *video);
double cv_shim_video_fps(const cv_shim_video *video);

/* Closes the video. Accepts NULL. */
void cv_shim_video_close(cv_shim_video *video);

/*
 * Writes count frames (3 channels, all of the first's size) as a Motion JPEG AVI at fps frames
 * a second with OpenCV's own writer (no FFmpeg needed): for tests and recordings.
 * VISION_BAD_INPUT for no frames or frames of differing sizes, VISION_IO when it cannot write.
 */
vision_status cv_shim_video_write_mjpg(const char *path, const vision_image *frames, int count,
                                       double fps, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
