/*
 * The table plane: the four markers → a homography (table mm ↔ pixels) and the camera's pose;
 * points and images carried between the frame and the table.
 *
 * vision_register's stages, in order, each timed (table_plane_internal.h):
 *   grey    a grey copy of the frame
 *   detect  the markers, searched at half size on large frames (a 1080p frame at full size
 *           costs more than the whole 10 ms budget)
 *   refine  their corners at full size: cornerSubPix, then each side's edge fitted as a line
 *           and the corners where the lines meet
 *   fit     the focal length (calibrated, from the markers' perspective, a hint, or a default)
 *           and, for an uncalibrated camera, the lens's radial distortion k1, with the pose, by
 *           least squares on the 16 corners; the check that every marker lies where the mat
 *           puts it; the homography from the 16 corners without the lens's distortion.
 *
 * Coordinates: the table's x runs to marker 1, y to marker 3, so that z = x × y points into the
 * table; heights are -z. The camera looks along its +z.
 */
#include "table_plane_internal.h"

#include "cv_shim_geometry.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* The focal length assumed when neither a calibration, the markers nor a hint give one. */
#define DEFAULT_HFOV_DEG 78.0
/* Corner noise assumed at least, pixels, when judging how well the markers fix the focal. */
#define CORNER_NOISE_PX 0.25
/* The markers' focal length is used when its standard deviation is below this share of it. */
#define FOCAL_SPREAD_MAX 0.03
/* A focal length outside these horizontal fields of view is not a camera's. */
#define HFOV_MIN_DEG 10.0
#define HFOV_MAX_DEG 150.0
/* An uncalibrated lens's radial distortion k1 is estimated with the pose, held towards 0 by a
 * prior that weighs k1 = 0.1 as much as one corner seen a pixel off. */
#define K1_PRIOR_PX 10.0

#define MAX_MARKERS 64 /* detections kept: the four, and anything else in view */
#define SMALL_MARKER_PX 32 /* markers narrower than this may not decode: their bits blur */

static const char *const corner_names[4] = {"top-left", "top-right", "bottom-right",
                                            "bottom-left"};

/* ---- small linear algebra ---- */

static void mat3_mul(const double a[9], const double b[9], double out[9])
{
    double product[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            product[r * 3 + c] =
                a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
    memcpy(out, product, sizeof product);
}

static bool mat3_inverse(const double m[9], double out[9])
{
    double cofactor[9] = {
        m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
        m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
        m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
    };
    double determinant = m[0] * cofactor[0] + m[1] * cofactor[3] + m[2] * cofactor[6];
    double scale = fabs(m[0]) + fabs(m[4]) + fabs(m[8]) + 1e-300;
    if (!isfinite(determinant) || fabs(determinant) < 1e-14 * scale * scale * scale)
        return false;
    for (int i = 0; i < 9; i++)
        out[i] = cofactor[i] / determinant;
    return true;
}

static vision_point apply_homography(const double h[9], double x, double y)
{
    double w = h[6] * x + h[7] * y + h[8];
    if (fabs(w) < 1e-300)
        return (vision_point){NAN, NAN};
    return (vision_point){(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w};
}

/* Solves a x = b for a small n x n system (a and b are destroyed); false when singular. */
static bool solve(int n, double *a, double *b, double *x)
{
    for (int column = 0; column < n; column++) {
        int pivot = column;
        for (int row = column + 1; row < n; row++)
            if (fabs(a[row * n + column]) > fabs(a[pivot * n + column]))
                pivot = row;
        if (!(fabs(a[pivot * n + column]) > 1e-300))
            return false;
        if (pivot != column) {
            for (int c = 0; c < n; c++) {
                double swap = a[column * n + c];
                a[column * n + c] = a[pivot * n + c];
                a[pivot * n + c] = swap;
            }
            double swap = b[column];
            b[column] = b[pivot];
            b[pivot] = swap;
        }
        for (int row = column + 1; row < n; row++) {
            double factor = a[row * n + column] / a[column * n + column];
            for (int c = column; c < n; c++)
                a[row * n + c] -= factor * a[column * n + c];
            b[row] -= factor * b[column];
        }
    }
    for (int row = n - 1; row >= 0; row--) {
        double sum = b[row];
        for (int c = row + 1; c < n; c++)
            sum -= a[row * n + c] * x[c];
        x[row] = sum / a[row * n + row];
    }
    return true;
}

/* ---- the lens ---- */

static bool has_distortion(const vision_camera *camera)
{
    if (!camera->known)
        return false;
    for (int i = 0; i < 5; i++)
        if (camera->distortion[i] != 0.0)
            return true;
    return false;
}

/* OpenCV's model: an ideal pixel → where the lens puts it. */
static vision_point distort(const vision_camera *camera, vision_point ideal)
{
    const double *d = camera->distortion;
    double x = (ideal.x - camera->cx) / camera->fx, y = (ideal.y - camera->cy) / camera->fy;
    double r2 = x * x + y * y;
    double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
    double xd = x * radial + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x);
    double yd = y * radial + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y;
    return (vision_point){xd * camera->fx + camera->cx, yd * camera->fy + camera->cy};
}

/* Its inverse, by the fixed-point iteration OpenCV uses. */
static vision_point undistort(const vision_camera *camera, vision_point seen)
{
    const double *d = camera->distortion;
    double xd = (seen.x - camera->cx) / camera->fx, yd = (seen.y - camera->cy) / camera->fy;
    double x = xd, y = yd;
    for (int i = 0; i < 40; i++) {
        double r2 = x * x + y * y;
        double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
        double dx = 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x);
        double dy = d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y;
        double next_x = (xd - dx) / radial, next_y = (yd - dy) / radial;
        bool settled = fabs(next_x - x) < 1e-12 && fabs(next_y - y) < 1e-12;
        x = next_x;
        y = next_y;
        if (settled)
            break;
    }
    return (vision_point){x * camera->fx + camera->cx, y * camera->fy + camera->cy};
}

/* ---- the camera's pose ---- */

typedef struct camera_pose {
    double fx, fy, cx, cy;
    double k1;             /* radial distortion (OpenCV's k1), estimated when uncalibrated */
    double rotation[9];    /* row-major: table (x, y, z into the table) → camera */
    double translation[3]; /* the table's origin in the camera's frame, mm */
} camera_pose;

/* What a fit moves besides the pose. */
enum { FIT_POSE = 0, FIT_FOCAL = 1, FIT_K1 = 2 };

static int parameter_count(int fit) { return 6 + (fit & FIT_FOCAL ? 1 : 0) + (fit & FIT_K1 ? 1 : 0); }

/* The corners: where the mat puts them (mm) and where they were seen (pixels; ideal ones when
 * a calibration's distortion was taken out). */
typedef struct corner_set {
    vision_point mat[16];
    vision_point seen[16];
    bool used[16];
} corner_set;

static vision_point pose_project(const camera_pose *pose, vision_point table)
{
    const double *r = pose->rotation, *t = pose->translation;
    double x = r[0] * table.x + r[1] * table.y + t[0];
    double y = r[3] * table.x + r[4] * table.y + t[1];
    double z = r[6] * table.x + r[7] * table.y + t[2];
    if (!(fabs(z) > 1e-9))
        z = 1e-9;
    double radial = 1 + pose->k1 * ((x / z) * (x / z) + (y / z) * (y / z));
    return (vision_point){pose->fx * x / z * radial + pose->cx,
                          pose->fy * y / z * radial + pose->cy};
}

/* The pose's lens as a camera: its k1 only. */
static vision_camera pose_lens(const camera_pose *pose)
{
    return (vision_camera){.known = 1, .fx = pose->fx, .fy = pose->fy, .cx = pose->cx,
                           .cy = pose->cy, .distortion = {pose->k1}};
}

/* Where a pixel seen through the pose's lens would be without its distortion. */
static vision_point pose_ideal(const camera_pose *pose, vision_point seen)
{
    if (pose->k1 == 0)
        return seen;
    vision_camera lens = pose_lens(pose);
    return undistort(&lens, seen);
}

/* The pose's homography: table (x_mm, y_mm, 1) → ideal pixel. */
static void pose_homography(const camera_pose *pose, double h[9])
{
    const double *r = pose->rotation, *t = pose->translation;
    double columns[3][3] = {{r[0], r[3], r[6]}, {r[1], r[4], r[7]}, {t[0], t[1], t[2]}};
    for (int c = 0; c < 3; c++) {
        h[c] = pose->fx * columns[c][0] + pose->cx * columns[c][2];
        h[3 + c] = pose->fy * columns[c][1] + pose->cy * columns[c][2];
        h[6 + c] = columns[c][2];
    }
}

static int residuals(const camera_pose *pose, const corner_set *corners, int fit, double *out)
{
    int n = 0;
    for (int i = 0; i < 16; i++)
        if (corners->used[i]) {
            vision_point p = pose_project(pose, corners->mat[i]);
            out[n++] = p.x - corners->seen[i].x;
            out[n++] = p.y - corners->seen[i].y;
        }
    if (fit & FIT_K1)
        out[n++] = K1_PRIOR_PX * pose->k1;
    return n;
}

static double sum_of_squares(const double *values, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += values[i] * values[i];
    return sum;
}

/* The pose moved by delta: a small rotation (applied first), a translation, and as fit says the
 * focal length's logarithm and k1. */
static void pose_step(const camera_pose *pose, const double *delta, int fit, camera_pose *out)
{
    *out = *pose;
    double angle = sqrt(delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]);
    double k[9] = {0, -delta[2], delta[1], delta[2], 0, -delta[0], -delta[1], delta[0], 0};
    double k2[9];
    mat3_mul(k, k, k2);
    double a = angle < 1e-12 ? 1.0 : sin(angle) / angle;
    double b = angle < 1e-12 ? 0.5 : (1 - cos(angle)) / (angle * angle);
    double turn[9];
    for (int i = 0; i < 9; i++)
        turn[i] = (i % 4 == 0 ? 1.0 : 0.0) + a * k[i] + b * k2[i];
    mat3_mul(turn, pose->rotation, out->rotation);
    for (int i = 0; i < 3; i++)
        out->translation[i] = pose->translation[i] + delta[3 + i];
    int next = 6;
    if (fit & FIT_FOCAL) {
        double scale = exp(delta[next++]);
        out->fx = pose->fx * scale;
        out->fy = pose->fy * scale;
    }
    if (fit & FIT_K1)
        out->k1 = pose->k1 + delta[next];
}

/* J^T J and J^T r at pose, by central differences. Returns the residuals' count. */
static int normal_equations(const camera_pose *pose, const corner_set *corners, int fit,
                            double *jtj, double *jtr)
{
    static const double steps[8] = {1e-6, 1e-6, 1e-6, 1e-4, 1e-4, 1e-4, 1e-6, 1e-6};
    double r[33], plus[33], minus[33], jacobian[8][33];
    int parameters = parameter_count(fit);
    int n = residuals(pose, corners, fit, r);
    for (int p = 0; p < parameters; p++) {
        double delta[8] = {0};
        camera_pose moved;
        delta[p] = steps[p];
        pose_step(pose, delta, fit, &moved);
        residuals(&moved, corners, fit, plus);
        delta[p] = -steps[p];
        pose_step(pose, delta, fit, &moved);
        residuals(&moved, corners, fit, minus);
        for (int i = 0; i < n; i++)
            jacobian[p][i] = (plus[i] - minus[i]) / (2 * steps[p]);
    }
    for (int p = 0; p < parameters; p++) {
        jtr[p] = 0;
        for (int i = 0; i < n; i++)
            jtr[p] += jacobian[p][i] * r[i];
        for (int q = 0; q < parameters; q++) {
            double sum = 0;
            for (int i = 0; i < n; i++)
                sum += jacobian[p][i] * jacobian[q][i];
            jtj[p * parameters + q] = sum;
        }
    }
    return n;
}

/*
 * Levenberg-Marquardt on the corners' reprojection error in pixels: the pose, and as fit says
 * the focal length and k1. Returns the sum of squared residuals; with focal_log_sd (fit with
 * FIT_FOCAL), the standard deviation of the focal's logarithm that corners this noisy leave.
 */
static double fit_pose(camera_pose *pose, const corner_set *corners, int fit,
                       double *focal_log_sd)
{
    double r[33];
    int parameters = parameter_count(fit);
    int n = residuals(pose, corners, fit, r);
    double cost = sum_of_squares(r, n), damping = 1e-3;
    for (int iteration = 0; iteration < 100; iteration++) {
        double jtj[64], jtr[8];
        normal_equations(pose, corners, fit, jtj, jtr);
        bool improved = false;
        double change = 0;
        for (int attempt = 0; attempt < 12 && !improved; attempt++) {
            double a[64], b[8], delta[8] = {0};
            memcpy(a, jtj, sizeof a);
            for (int p = 0; p < parameters; p++) {
                a[p * parameters + p] += damping * (jtj[p * parameters + p] + 1e-9);
                b[p] = -jtr[p];
            }
            if (!solve(parameters, a, b, delta)) {
                damping *= 10;
                continue;
            }
            camera_pose trial;
            pose_step(pose, delta, fit, &trial);
            residuals(&trial, corners, fit, r);
            double trial_cost = sum_of_squares(r, n);
            if (trial_cost < cost) {
                change = cost - trial_cost;
                cost = trial_cost;
                *pose = trial;
                damping = fmax(damping / 3, 1e-12);
                improved = true;
            } else {
                damping *= 4;
            }
        }
        if (!improved || change < 1e-10 * (1 + cost))
            break;
    }
    if (focal_log_sd && (fit & FIT_FOCAL)) {
        double jtj[64], jtr[8], column[8] = {0}, inverse[8];
        normal_equations(pose, corners, fit, jtj, jtr);
        column[6] = 1;
        double noise = fmax(n > parameters ? cost / (n - parameters) : 0,
                            CORNER_NOISE_PX * CORNER_NOISE_PX);
        *focal_log_sd = solve(parameters, jtj, column, inverse) && inverse[6] > 0
                            ? sqrt(noise * inverse[6])
                            : INFINITY;
    }
    return cost;
}

/* The pose that a homography (table mm → ideal pixels) gives with the pose's intrinsics. */
static void pose_from_homography(const double h[9], camera_pose *pose)
{
    double m[3][3]; /* m[column][row] = K^-1 H */
    for (int c = 0; c < 3; c++) {
        m[c][0] = (h[c] - pose->cx * h[6 + c]) / pose->fx;
        m[c][1] = (h[3 + c] - pose->cy * h[6 + c]) / pose->fy;
        m[c][2] = h[6 + c];
    }
    double n1 = sqrt(m[0][0] * m[0][0] + m[0][1] * m[0][1] + m[0][2] * m[0][2]);
    double n2 = sqrt(m[1][0] * m[1][0] + m[1][1] * m[1][1] + m[1][2] * m[1][2]);
    double lambda = 2 / (n1 + n2);
    if (lambda * m[2][2] < 0) /* the table lies in front of the camera */
        lambda = -lambda;
    double r1[3], r2[3], r3[3];
    for (int i = 0; i < 3; i++) {
        r1[i] = lambda * m[0][i];
        r2[i] = lambda * m[1][i];
        pose->translation[i] = lambda * m[2][i];
    }
    double length = sqrt(r1[0] * r1[0] + r1[1] * r1[1] + r1[2] * r1[2]);
    for (int i = 0; i < 3; i++)
        r1[i] /= length;
    double along = r1[0] * r2[0] + r1[1] * r2[1] + r1[2] * r2[2];
    for (int i = 0; i < 3; i++)
        r2[i] -= along * r1[i];
    length = sqrt(r2[0] * r2[0] + r2[1] * r2[1] + r2[2] * r2[2]);
    for (int i = 0; i < 3; i++)
        r2[i] /= length;
    r3[0] = r1[1] * r2[2] - r1[2] * r2[1];
    r3[1] = r1[2] * r2[0] - r1[0] * r2[2];
    r3[2] = r1[0] * r2[1] - r1[1] * r2[0];
    for (int i = 0; i < 3; i++) {
        pose->rotation[i * 3] = r1[i];
        pose->rotation[i * 3 + 1] = r2[i];
        pose->rotation[i * 3 + 2] = r3[i];
    }
}

/*
 * The focal length a homography implies for square pixels centred at (cx, cy): the rotation's
 * first two columns are orthogonal and of equal length. 0 when they cannot be (a camera looking
 * straight down leaves it undetermined).
 */
static double focal_from_homography(const double h[9], double cx, double cy)
{
    double a[2], b[2], c[2];
    for (int j = 0; j < 2; j++) {
        a[j] = h[j] - cx * h[6 + j];
        b[j] = h[3 + j] - cy * h[6 + j];
        c[j] = h[6 + j];
    }
    /* w = 1 / f^2 solves both  w (a0 a1 + b0 b1) + c0 c1 = 0  and
     * w (a0^2 + b0^2 - a1^2 - b1^2) + c0^2 - c1^2 = 0,  in the least-squares sense. */
    double coefficient[2] = {a[0] * a[1] + b[0] * b[1],
                             a[0] * a[0] + b[0] * b[0] - a[1] * a[1] - b[1] * b[1]};
    double constant[2] = {c[0] * c[1], c[0] * c[0] - c[1] * c[1]};
    double denominator = coefficient[0] * coefficient[0] + coefficient[1] * coefficient[1];
    if (!(denominator > 0))
        return 0;
    double w = -(coefficient[0] * constant[0] + coefficient[1] * constant[1]) / denominator;
    return w > 0 ? 1 / sqrt(w) : 0;
}

/* The worst distance, mm on the table, between where the mat puts a marker's corner and where
 * the pose says the corner seen lies; over the corners of the markers in mask (bit per id). */
static double worst_distance_mm(const camera_pose *pose, const corner_set *corners, int mask)
{
    double h[9], inverse[9];
    pose_homography(pose, h);
    if (!mat3_inverse(h, inverse))
        return INFINITY;
    double worst = 0;
    for (int i = 0; i < 16; i++) {
        if (!(mask & 1 << (i / 4)))
            continue;
        vision_point ideal = pose_ideal(pose, corners->seen[i]);
        vision_point table = apply_homography(inverse, ideal.x, ideal.y);
        double distance = hypot(table.x - corners->mat[i].x, table.y - corners->mat[i].y);
        if (!(distance <= worst)) /* NaN counts as the worst */
            worst = isnan(distance) ? INFINITY : distance;
    }
    return worst;
}

/* ---- registration ---- */

static void describe_markers(char *out, size_t size, const int *ids, int count)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < count; i++) {
        const char *joint = i == 0 ? "" : i == count - 1 ? " and " : ", ";
        int written = snprintf(out + used, size - used, "%s%d (%s)", joint, ids[i],
                               corner_names[ids[i]]);
        if (written < 0 || (size_t)written >= size - used)
            return;
        used += (size_t)written;
    }
}

/* The camera's intrinsics scaled to a frame of width x height. */
static vision_camera scaled_camera(const vision_camera *camera, int width, int height)
{
    vision_camera scaled = *camera;
    if (camera->width > 0 && camera->height > 0 &&
        (camera->width != width || camera->height != height)) {
        double sx = (double)width / camera->width, sy = (double)height / camera->height;
        /* Pixel centres: x' + 0.5 = (x + 0.5) s. */
        scaled.fx *= sx;
        scaled.fy *= sy;
        scaled.cx = (camera->cx + 0.5) * sx - 0.5;
        scaled.cy = (camera->cy + 0.5) * sy - 0.5;
    }
    scaled.width = width;
    scaled.height = height;
    return scaled;
}

/* Chooses the focal length and fits the pose to the corners used (all 16, or the 12 of three
 * markers). */
static void fit_camera(const corner_set *corners, const double homography[9],
                       const vision_camera *camera, int width, int height, camera_pose *pose,
                       vision_focal_source *source)
{
    if (camera && camera->known) {
        vision_camera scaled = scaled_camera(camera, width, height);
        pose->fx = scaled.fx;
        pose->fy = scaled.fy;
        pose->cx = scaled.cx;
        pose->cy = scaled.cy;
        pose->k1 = 0; /* the corners are undistorted already */
        pose_from_homography(homography, pose);
        fit_pose(pose, corners, FIT_POSE, NULL);
        *source = VISION_FOCAL_CALIBRATED;
        return;
    }
    pose->cx = (width - 1) / 2.0;
    pose->cy = (height - 1) / 2.0;
    pose->k1 = 0;
    double low = width / 2.0 / tan(HFOV_MAX_DEG / 2 * PI / 180);
    double high = width / 2.0 / tan(HFOV_MIN_DEG / 2 * PI / 180);
    double fallback = width / 2.0 / tan(DEFAULT_HFOV_DEG / 2 * PI / 180);
    vision_focal_source fallback_source = VISION_FOCAL_DEFAULT;
    if (camera && camera->fx > 0 && isfinite(camera->fx)) {
        double hint = camera->width > 0 ? camera->fx * width / camera->width : camera->fx;
        if (hint >= low && hint <= high) {
            fallback = hint;
            fallback_source = VISION_FOCAL_HINT;
        }
    }

    /* The markers' perspective fixes the focal length only when the camera is tilted enough:
     * fit it with the pose and keep it when the corners pin it down. The lens's radial
     * distortion shows in the markers' shapes (squeezed along the radius): fitted too. */
    double estimate = focal_from_homography(homography, pose->cx, pose->cy);
    pose->fx = pose->fy = estimate >= low && estimate <= high ? estimate : fallback;
    pose_from_homography(homography, pose);
    camera_pose free_focal = *pose;
    double spread = INFINITY;
    fit_pose(&free_focal, corners, FIT_FOCAL | FIT_K1, &spread);
    if (spread < FOCAL_SPREAD_MAX && free_focal.fx >= low && free_focal.fx <= high) {
        *pose = free_focal;
        *source = VISION_FOCAL_MARKERS;
        return;
    }
    pose->fx = pose->fy = fallback;
    pose_from_homography(homography, pose);
    fit_pose(pose, corners, FIT_K1, NULL);
    *source = fallback_source;
}

/* The distance, mm on the table, beyond which a marker has moved: VISION_MARKER_MOVED_MM, or
 * where the marker is so small in the frame that a pixel covers more than a few mm on the
 * table, VISION_MARKER_MOVED_PX of its pixels. */
static double moved_threshold_mm(const corner_set *corners, int id, double marker_mm)
{
    double shortest = INFINITY;
    for (int c = 0; c < 4; c++) {
        const vision_point *a = &corners->seen[id * 4 + c], *b = &corners->seen[id * 4 + (c + 1) % 4];
        shortest = fmin(shortest, hypot(a->x - b->x, a->y - b->y));
    }
    return fmax(VISION_MARKER_MOVED_MM, VISION_MARKER_MOVED_PX * marker_mm / shortest);
}

/* The markers' printed size as the pose measures it on the table, mm: the mean of their sides
 * along x (top and bottom) in size[0], along y in size[1]. */
static void measured_marker_mm(const camera_pose *pose, const corner_set *corners,
                               double size[2])
{
    double h[9], inverse[9];
    size[0] = size[1] = NAN;
    pose_homography(pose, h);
    if (!mat3_inverse(h, inverse))
        return;
    size[0] = size[1] = 0;
    int sides = 0; /* along each axis */
    for (int i = 0; i < 16; i++) {
        if (!corners->used[i])
            continue;
        int next = i % 4 == 3 ? i - 3 : i + 1;
        vision_point ideal_a = pose_ideal(pose, corners->seen[i]);
        vision_point ideal_b = pose_ideal(pose, corners->seen[next]);
        vision_point a = apply_homography(inverse, ideal_a.x, ideal_a.y);
        vision_point b = apply_homography(inverse, ideal_b.x, ideal_b.y);
        /* corners 0→1 and 2→3 run along x, 1→2 and 3→0 along y */
        size[i % 2] += hypot(a.x - b.x, a.y - b.y);
        sides += i % 2 == 0;
    }
    size[0] /= sides;
    size[1] /= sides;
}

/*
 * Whether the markers agree with the mat; false with error saying which does not.
 *
 * Each marker is checked against the other three: the pose fitted to three predicts the
 * fourth, and a marker that is not where the mat puts it shows as a prediction off by about
 * its move (the share of a move the focal length can absorb aside, when it was estimated). The
 * one to blame is the one without which the other three agree best. Then every corner of the
 * fit to all four, and the markers' own size: a mat that is uniformly larger or smaller than
 * the profile says looks like a camera further away, except that its markers then measure
 * larger or smaller than printed. With one marker not found (missing, -1 none), the three
 * found are checked against the fit to them only: two could not tell which one moved.
 */
static bool markers_agree(const camera_pose *pose, const corner_set *corners,
                          const vision_mat *mat, int missing, char *error, size_t size)
{
    double predicted[4] = {0}, agreement[4] = {0};
    for (int left_out = 0; left_out < 4 && missing < 0; left_out++) {
        corner_set three = *corners;
        for (int i = 0; i < 16; i++)
            three.used[i] = i / 4 != left_out;
        camera_pose fitted = *pose;
        fit_pose(&fitted, &three, FIT_POSE, NULL);
        predicted[left_out] = worst_distance_mm(&fitted, corners, 1 << left_out);
        agreement[left_out] = worst_distance_mm(&fitted, corners, 0xf & ~(1 << left_out));
    }
    int blamed = missing == 0 ? 1 : 0;
    for (int id = 1; id < 4 && missing < 0; id++)
        if (agreement[id] < agreement[blamed])
            blamed = id;
    double off = predicted[blamed];
    if (off <= moved_threshold_mm(corners, blamed, mat->marker_mm))
        for (int id = 0; id < 4; id++) {
            if (id == missing)
                continue;
            double own = worst_distance_mm(pose, corners, 1 << id);
            if (!(own <= moved_threshold_mm(corners, id, mat->marker_mm)) && !(own <= off)) {
                blamed = id;
                off = own;
            }
        }
    if (!(off <= moved_threshold_mm(corners, blamed, mat->marker_mm))) {
        vision_fail(error, size, VISION_MARKER_MOVED,
             "marker %d (%s) is %.0f mm from where the mat puts it: moved, or the mat size is "
             "wrong (%.0f x %.0f mm between marker centres, markers %.0f mm)",
             blamed, corner_names[blamed], off, mat->width_mm, mat->height_mm, mat->marker_mm);
        return false;
    }
    double measured[2];
    measured_marker_mm(pose, corners, measured);
    if (!(fabs(measured[0] / mat->marker_mm - 1) <= VISION_MARKER_SIZE_SHARE &&
          fabs(measured[1] / mat->marker_mm - 1) <= VISION_MARKER_SIZE_SHARE)) {
        vision_fail(error, size, VISION_MARKER_MOVED,
             "the markers measure %.1f x %.1f mm, not %.0f mm, on a mat of %.0f x %.0f mm "
             "between marker centres: the mat size or the marker size is wrong (the sheet's "
             "ruler shows 100 mm when printed at scale)",
             measured[0], measured[1], mat->marker_mm, mat->width_mm, mat->height_mm);
        return false;
    }
    return true;
}

/* The homography from the corners used: table mm → (ideal) pixel. */
static vision_status used_homography(const corner_set *corners, double homography[9],
                                     char *detail, size_t detail_size)
{
    vision_point mat[16], seen[16];
    int count = 0;
    for (int i = 0; i < 16; i++)
        if (corners->used[i]) {
            mat[count] = corners->mat[i];
            seen[count++] = corners->seen[i];
        }
    return cv_geom_find_homography(mat, seen, count, homography, detail, detail_size);
}

/* Where table marker id's centre lies on the mat (mm: marker 0's centre is the origin), and
 * its corner c (0 top-left, then clockwise). */
static vision_point marker_centre_on_mat(const vision_mat *mat, int id)
{
    return (vision_point){id == 1 || id == 2 ? mat->width_mm : 0.0,
                          id >= 2 ? mat->height_mm : 0.0};
}

static vision_point marker_corner_on_mat(const vision_mat *mat, int id, int c)
{
    static const double offset[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
    vision_point centre = marker_centre_on_mat(mat, id);
    return (vision_point){centre.x + offset[c][0] * mat->marker_mm,
                          centre.y + offset[c][1] * mat->marker_mm};
}

/* The homography from the mat to the frame that the markers found give (index_of[id]: the
 * marker of id in found[], -1 not found; one marker gives it roughly); false when none was
 * found or they are degenerate. */
static bool found_homography(const cv_geom_marker *found, const int index_of[4],
                             const vision_mat *mat, double homography[9])
{
    vision_point table[16], image[16];
    int count = 0;
    for (int id = 0; id < 4; id++)
        for (int c = 0; c < 4 && index_of[id] >= 0; c++) {
            table[count] = marker_corner_on_mat(mat, id, c);
            image[count++] = found[index_of[id]].corners[c];
        }
    char detail[128];
    return count >= 4 && cv_geom_find_homography(table, image, count, homography, detail,
                                                 sizeof detail) == VISION_OK;
}

/* The registration from the markers' corners (missing: the one not found, its corners unset;
 * -1 none). */
static vision_status fit_registration(const vision_point seen_corners[4][4], int missing,
                                      const vision_mat *mat, const vision_camera *camera,
                                      int width, int height, vision_registration *out,
                                      char *error, size_t size)
{
    corner_set corners;
    bool calibrated = camera && camera->known;
    vision_camera intrinsics;
    memset(&intrinsics, 0, sizeof intrinsics);
    if (calibrated)
        intrinsics = scaled_camera(camera, width, height);
    for (int id = 0; id < 4; id++)
        for (int c = 0; c < 4; c++) {
            int i = id * 4 + c;
            corners.mat[i] = marker_corner_on_mat(mat, id, c);
            corners.seen[i] = seen_corners[id][c];
            corners.used[i] = id != missing;
        }
    int found = missing >= 0 ? 0xf & ~(1 << missing) : 0xf; /* a mask of the markers found */
    if (calibrated) {
        char detail[256];
        vision_status status = cv_geom_undistort_points(&intrinsics, corners.seen, corners.seen,
                                                        16, detail, sizeof detail);
        if (status != VISION_OK)
            return vision_fail(error, size, status, "cannot undistort the markers' corners: %s", detail);
    }

    double homography[9], inverse[9];
    char detail[256];
    vision_status status = used_homography(&corners, homography, detail, sizeof detail);
    if (status != VISION_OK || !mat3_inverse(homography, inverse))
        return vision_fail(error, size, VISION_MARKER_MOVED,
                    "the markers do not lie on a plane the mat describes (%s)",
                    status != VISION_OK ? detail : "degenerate");

    camera_pose pose;
    vision_focal_source source;
    fit_camera(&corners, homography, camera, width, height, &pose, &source);

    if (!markers_agree(&pose, &corners, mat, missing, error, size))
        return VISION_MARKER_MOVED;
    if (pose.k1 != 0) {
        /* The homography of the undistorted corners, and the lens estimated, which project,
         * unproject and rectify then apply. */
        intrinsics = pose_lens(&pose);
        intrinsics.width = width;
        intrinsics.height = height;
        corner_set ideal = corners;
        for (int i = 0; i < 16; i++)
            ideal.seen[i] = pose_ideal(&pose, corners.seen[i]);
        status = used_homography(&ideal, homography, detail, sizeof detail);
        if (status != VISION_OK || !mat3_inverse(homography, inverse))
            return vision_fail(error, size, VISION_MARKER_MOVED,
                        "the markers do not lie on a plane the mat describes (%s)",
                        status != VISION_OK ? detail : "degenerate");
    }
    double residual = worst_distance_mm(&pose, &corners, found);
    const double *r = pose.rotation, *t = pose.translation;
    if (!isfinite(residual) || !(t[2] > 0))
        return vision_fail(error, size, VISION_MARKER_MOVED,
                    "the markers do not fit a camera looking at the mat (residual %.0f mm)",
                    residual);

    vision_registration made;
    memset(&made, 0, sizeof made);
    memcpy(made.table_to_image, homography, sizeof homography);
    memcpy(made.image_to_table, inverse, sizeof inverse);

    /* P's table columns are the homography's, scaled to the pose's (so that a point on the
     * table projects exactly as the homography puts it); its height column is the pose's: up
     * is -z. */
    double model[9];
    pose_homography(&pose, model);
    double dot = 0, norm = 0;
    for (int i = 0; i < 9; i++) {
        dot += homography[i] * model[i];
        norm += homography[i] * homography[i];
    }
    double scale = dot / norm;
    double up[3] = {-(pose.fx * r[2] + pose.cx * r[8]), -(pose.fy * r[5] + pose.cy * r[8]),
                    -r[8]};
    for (int row = 0; row < 3; row++) {
        made.projection[row * 4 + 0] = scale * homography[row * 3 + 0];
        made.projection[row * 4 + 1] = scale * homography[row * 3 + 1];
        made.projection[row * 4 + 2] = up[row];
        made.projection[row * 4 + 3] = scale * homography[row * 3 + 2];
    }
    /* The camera's centre: -R^T t, its height -z. */
    for (int i = 0; i < 3; i++)
        made.camera_mm[i] = -(r[i] * t[0] + r[3 + i] * t[1] + r[6 + i] * t[2]);
    made.camera_mm[2] = -made.camera_mm[2];
    made.focal_px = pose.fx;
    made.focal_source = source;
    made.intrinsics = intrinsics;
    memcpy(made.markers, seen_corners, sizeof made.markers);
    made.missing_marker = missing;
    for (int c = 0; c < 4 && missing >= 0; c++) { /* where the other three put it */
        vision_point ideal = pose_project(&pose, corners.mat[missing * 4 + c]);
        made.markers[missing][c] =
            calibrated && has_distortion(&intrinsics) ? distort(&intrinsics, ideal) : ideal;
    }
    made.residual_mm = residual;
    made.image_width = width;
    made.image_height = height;
    *out = made;
    return VISION_OK;
}

/* ---- the markers' edges ---- */

/* The grey level at (x, y), bilinear; NAN outside the image. */
static double grey_at(const vision_image *grey, double x, double y)
{
    if (!(x >= 0 && y >= 0 && x <= grey->width - 1.001 && y <= grey->height - 1.001))
        return NAN;
    int x0 = (int)x, y0 = (int)y;
    double fx = x - x0, fy = y - y0;
    const uint8_t *row = grey->pixels + (size_t)y0 * (size_t)grey->stride + (size_t)x0;
    const uint8_t *next = row + grey->stride;
    return (1 - fy) * ((1 - fx) * row[0] + fx * row[1]) + fy * ((1 - fx) * next[0] + fx * next[1]);
}

/*
 * The line (nx, ny, c: nx x + ny y = c) of a marker's side from a to b: where, across it, the
 * grey crosses halfway between the black border and the white margin. reach: how far either
 * side to look, within the border's width. False when too few points along it show an edge.
 */
static bool edge_line(const vision_image *grey, vision_point a, vision_point b,
                      vision_point centre, double reach, double line[3])
{
    enum { ALONG = 12, ACROSS_MAX = 65 };
    double dx = b.x - a.x, dy = b.y - a.y, length = hypot(dx, dy);
    if (!(length > 4))
        return false;
    double nx = -dy / length, ny = dx / length;
    if (nx * ((a.x + b.x) / 2 - centre.x) + ny * ((a.y + b.y) / 2 - centre.y) < 0) {
        nx = -nx; /* outwards: from the black border to the white margin */
        ny = -ny;
    }
    double step = 0.25;
    int across = (int)(2 * reach / step) + 1;
    if (across > ACROSS_MAX)
        across = ACROSS_MAX;
    vision_point points[ALONG];
    int found = 0;
    for (int k = 0; k < ALONG; k++) {
        double t = 0.2 + 0.6 * k / (ALONG - 1);
        double px = a.x + t * dx, py = a.y + t * dy;
        double values[ACROSS_MAX], dark = INFINITY, light = -INFINITY;
        bool inside = true;
        for (int i = 0; i < across && inside; i++) {
            double offset = -reach + i * step;
            values[i] = grey_at(grey, px + offset * nx, py + offset * ny);
            inside = isfinite(values[i]);
            dark = fmin(dark, values[i]);
            light = fmax(light, values[i]);
        }
        if (!inside || light - dark < 24)
            continue;
        double middle = (dark + light) / 2, best = INFINITY;
        for (int i = 0; i + 1 < across; i++)
            if (values[i] < middle && values[i + 1] >= middle) {
                double offset = -reach + (i + (middle - values[i]) / (values[i + 1] - values[i])) * step;
                if (fabs(offset) < fabs(best))
                    best = offset;
            }
        if (isfinite(best))
            points[found++] = (vision_point){px + best * nx, py + best * ny};
    }
    if (found < ALONG / 2)
        return false;
    /* The total least-squares line through the points. */
    double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
    for (int i = 0; i < found; i++) {
        mx += points[i].x / found;
        my += points[i].y / found;
    }
    for (int i = 0; i < found; i++) {
        double ux = points[i].x - mx, uy = points[i].y - my;
        sxx += ux * ux;
        sxy += ux * uy;
        syy += uy * uy;
    }
    double angle = 0.5 * atan2(2 * sxy, sxx - syy); /* the direction of most spread */
    line[0] = -sin(angle);
    line[1] = cos(angle);
    line[2] = line[0] * mx + line[1] * my;
    return true;
}

/*
 * A marker's corners as the intersections of its four sides' lines, each fitted where the grey
 * crosses halfway from its black border to the white margin: unbiased under a symmetric blur,
 * where a corner detector drifts into the black (a marker then measures about 1% small, which
 * an estimated lens would take for distortion). Corners whose sides show no clear edge keep
 * their place.
 */
static void refine_by_edges(const vision_image *grey, vision_point corners[4])
{
    vision_point centre = {0, 0};
    double side = 0;
    for (int c = 0; c < 4; c++) {
        centre.x += corners[c].x / 4;
        centre.y += corners[c].y / 4;
        side += hypot(corners[c].x - corners[(c + 1) % 4].x,
                      corners[c].y - corners[(c + 1) % 4].y) / 4;
    }
    /* Within the black border, a sixth of the side, either way. */
    double reach = fmin(fmax(side / 6 * 0.75, 1.5), 8);
    double lines[4][3];
    bool ok[4];
    for (int k = 0; k < 4; k++)
        ok[k] = edge_line(grey, corners[k], corners[(k + 1) % 4], centre, reach, lines[k]);
    vision_point refined[4];
    for (int c = 0; c < 4; c++) {
        const double *l1 = lines[(c + 3) % 4], *l2 = lines[c];
        double determinant = l1[0] * l2[1] - l1[1] * l2[0];
        refined[c] = corners[c];
        if (ok[(c + 3) % 4] && ok[c] && fabs(determinant) > 1e-6) {
            vision_point p = {(l1[2] * l2[1] - l1[1] * l2[2]) / determinant,
                              (l1[0] * l2[2] - l1[2] * l2[0]) / determinant};
            if (hypot(p.x - corners[c].x, p.y - corners[c].y) < reach)
                refined[c] = p;
        }
    }
    memcpy(corners, refined, sizeof refined);
}

static double marker_side(const cv_geom_marker *marker)
{
    double side = 0;
    for (int c = 0; c < 4; c++)
        side += hypot(marker->corners[c].x - marker->corners[(c + 1) % 4].x,
                      marker->corners[c].y - marker->corners[(c + 1) % 4].y) / 4;
    return side;
}

static vision_point marker_centre(const cv_geom_marker *marker)
{
    vision_point centre = {0, 0};
    for (int c = 0; c < 4; c++) {
        centre.x += marker->corners[c].x / 4;
        centre.y += marker->corners[c].y / 4;
    }
    return centre;
}

/* Searches the rectangle of grey around centre, radius pixels either side, at full size, and
 * appends the markers of id found there. */
/* The rectangle [x0, x1) x [y0, y1) of image, clipped to it, as an image of its own (borrowed
 * pixels); width 0 when nothing is left. */
static vision_image image_window(const vision_image *image, double x0, double y0, double x1,
                                 double y1, int *left, int *top)
{
    vision_image window = {0};
    if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)))
        return window;
    int l = (int)fmax(0, floor(x0)), t = (int)fmax(0, floor(y0));
    int r = (int)fmin(image->width, ceil(x1)), b = (int)fmin(image->height, ceil(y1));
    if (r - l < 16 || b - t < 16)
        return window;
    window.width = r - l;
    window.height = b - t;
    window.stride = image->stride;
    window.channels = image->channels;
    window.pixels = image->pixels + (size_t)t * (size_t)image->stride +
                    (size_t)l * (size_t)image->channels;
    *left = l;
    *top = t;
    return window;
}

/* Searches the frame around centre, radius pixels either side, at full size, and appends the
 * markers of id found there. */
static vision_status search_again(const vision_image *frame, int id, vision_point centre,
                                  double radius, cv_geom_marker *found, int *count, char *detail,
                                  size_t detail_size)
{
    int left = 0, top = 0;
    vision_image window = image_window(frame, centre.x - radius, centre.y - radius,
                                       centre.x + radius, centre.y + radius, &left, &top);
    if (window.width == 0)
        return VISION_OK;
    vision_image grey;
    vision_status status = cv_geom_grey(&window, 1, &grey, detail, detail_size);
    if (status != VISION_OK)
        return status;
    /* Each threshold window finds small blurred markers the others miss; and a marker about 30
     * pixels wide, its cells 5 pixels a side and blurred, has its bits read right from 8
     * samples a cell where aruco's 4 misread them (two of the four markers the accuracy bench
     * lost, bench/README.md). */
    static const int windows[] = {7, 13, 19}, cells[] = {4, 8};
    bool seen = false;
    for (size_t w = 0; w < sizeof windows / sizeof windows[0] && !seen; w++)
    for (size_t k = 0; k < sizeof cells / sizeof cells[0] && !seen && status == VISION_OK; k++) {
        cv_geom_marker more[8];
        int more_count = 0;
        status = cv_geom_detect_markers(&grey, 1, CV_GEOM_DICT_4X4_50, windows[w], cells[k], more,
                                        8, &more_count, detail, detail_size);
        for (int i = 0; status == VISION_OK && i < more_count && *count < MAX_MARKERS; i++) {
            if (more[i].id != id)
                continue;
            for (int c = 0; c < 4; c++) {
                more[i].corners[c].x += left;
                more[i].corners[c].y += top;
            }
            found[(*count)++] = more[i];
            seen = true;
        }
    }
    vision_image_free(&grey);
    return status;
}

/*
 * The markers in a frame, searched in its grey copy search (1/scale of its size). Large frames
 * are searched at half size (a 1080p frame costs 10-25 ms at full size on one core, 1-3 ms at
 * half), with one threshold window. A far camera's markers can be too small or blurred to
 * decode that way: a table marker missing is searched again at full size around where the
 * markers found put it (a homography from their corners, which one marker alone gives roughly),
 * with threshold windows of 7, 13 and 19 pixels in turn, each costing well under a millisecond
 * in that window. With none found at half size, the whole frame is searched at full size.
 */
static vision_status find_markers(const vision_image *frame, const vision_image *search,
                                  int scale, const vision_mat *mat, cv_geom_marker *found,
                                  int *count, char *detail, size_t detail_size)
{
    vision_status status = cv_geom_detect_markers(search, scale, CV_GEOM_DICT_4X4_50, 7, 4, found,
                                                  MAX_MARKERS, count, detail, detail_size);
    if (status != VISION_OK)
        return status;
    int index_of[4] = {-1, -1, -1, -1}, table_markers = 0;
    double largest = 0;
    for (int i = 0; i < *count; i++) {
        int id = found[i].id;
        if (id < 0 || id > 3 || index_of[id] >= 0)
            continue;
        index_of[id] = i;
        largest = fmax(largest, marker_side(&found[i]));
        table_markers++;
    }
    if (table_markers == 4)
        return VISION_OK;
    if (table_markers == 0) {
        if (scale == 1)
            return VISION_OK;
        vision_image grey;
        status = cv_geom_grey(frame, 1, &grey, detail, detail_size);
        if (status == VISION_OK)
            status = cv_geom_detect_markers(&grey, 1, CV_GEOM_DICT_4X4_50, 7, 4, found, MAX_MARKERS,
                                            count, detail, detail_size);
        vision_image_free(&grey);
        return status;
    }
    double homography[9];
    if (!found_homography(found, index_of, mat, homography))
        return VISION_OK; /* the markers found are degenerate: what is missing stays missing */
    for (int id = 0; id < 4 && status == VISION_OK; id++) {
        if (index_of[id] >= 0)
            continue;
        vision_point centre_on_mat = marker_centre_on_mat(mat, id);
        vision_point guess = apply_homography(homography, centre_on_mat.x, centre_on_mat.y);
        double nearest = INFINITY;
        for (int other = 0; other < 4; other++)
            if (index_of[other] >= 0) {
                vision_point centre = marker_centre(&found[index_of[other]]);
                nearest = fmin(nearest, hypot(guess.x - centre.x, guess.y - centre.y));
            }
        /* Room for what the found markers misjudge: the lens's distortion, and with one marker
         * alone the perspective. */
        double radius = (table_markers == 1 ? 0.45 : 0.12) * nearest + 2.5 * largest;
        status = search_again(frame, id, guess, radius, found, count, detail, detail_size);
    }
    return status;
}

/* Whether the table marker id, not found, lies wholly inside the frame where the markers found
 * put it (a homography from their corners; with one found, roughly); false when it reaches out
 * of it, or that cannot be told. */
static bool missing_in_view(const cv_geom_marker *found, const int index_of[4],
                            const vision_mat *mat, int id, int width, int height)
{
    double homography[9];
    if (!found_homography(found, index_of, mat, homography))
        return false;
    for (int c = 0; c < 4; c++) {
        vision_point corner = marker_corner_on_mat(mat, id, c);
        vision_point at = apply_homography(homography, corner.x, corner.y);
        if (!(at.x >= 0 && at.y >= 0 && at.x < width && at.y < height))
            return false;
    }
    return true;
}

/* Refines a marker's corners at full size in a grey copy of the frame around it. */
static vision_status refine_marker(const vision_image *frame, vision_point corners[4],
                                  char *detail, size_t detail_size)
{
    double side = 0, x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int c = 0; c < 4; c++) {
        side += hypot(corners[c].x - corners[(c + 1) % 4].x,
                      corners[c].y - corners[(c + 1) % 4].y) / 4;
        x0 = fmin(x0, corners[c].x);
        y0 = fmin(y0, corners[c].y);
        x1 = fmax(x1, corners[c].x);
        y1 = fmax(y1, corners[c].y);
    }
    /* cornerSubPix first, its window inside the marker's black border (a sixth of its side)
     * where the only edges are the corner's own two; then the sides' lines. */
    int window = (int)lround(side / 8);
    window = window < 2 ? 2 : window > 10 ? 10 : window;
    double margin = window + 12;
    int left = 0, top = 0;
    vision_image around = image_window(frame, x0 - margin, y0 - margin, x1 + margin + 1,
                                       y1 + margin + 1, &left, &top);
    if (around.width == 0)
        return VISION_OK;
    vision_image grey;
    vision_status status = cv_geom_grey(&around, 1, &grey, detail, detail_size);
    if (status != VISION_OK)
        return status;
    vision_point local[4];
    for (int c = 0; c < 4; c++)
        local[c] = (vision_point){corners[c].x - left, corners[c].y - top};
    status = cv_geom_refine_corners(&grey, local, 4, window, detail, detail_size);
    if (status == VISION_OK) {
        refine_by_edges(&grey, local);
        for (int c = 0; c < 4; c++)
            corners[c] = (vision_point){local[c].x + left, local[c].y + top};
    }
    vision_image_free(&grey);
    return status;
}

vision_status vision_register_timed(const vision_image *frame, const vision_mat *mat,
                                    const vision_camera *camera, bool three_enough,
                                    vision_registration *registration,
                                    vision_register_timing *timing, char *error, size_t size)
{
    vision_register_timing ignored, *times = timing ? timing : &ignored;
    memset(times, 0, sizeof *times);
    double start = vision_clock_ms();
    if (!frame || !frame->pixels || frame->width < 16 || frame->height < 16 ||
        (frame->channels != 1 && frame->channels != 3) ||
        frame->stride < frame->width * frame->channels)
        return vision_fail(error, size, VISION_BAD_INPUT, "an empty frame: no markers to find");
    if (!(isfinite(mat->marker_mm) && mat->marker_mm > 0 && isfinite(mat->width_mm) &&
          isfinite(mat->height_mm) && mat->width_mm > mat->marker_mm &&
          mat->height_mm > mat->marker_mm))
        return vision_fail(error, size, VISION_BAD_INPUT,
                    "the mat's markers (%g mm) overlap or its size (%g x %g mm) is not a size",
                    mat->marker_mm, mat->width_mm, mat->height_mm);

    char detail[256] = "";
    int larger = frame->width > frame->height ? frame->width : frame->height;
    int scale = larger >= VISION_REGISTER_HALF_SIZE_FROM ? 2 : 1;
    vision_image search;
    vision_status status = cv_geom_grey(frame, scale, &search, detail, sizeof detail);
    if (status != VISION_OK)
        return vision_fail(error, size, status, "cannot read the frame: %s", detail);
    double mark = vision_clock_ms();
    times->grey_ms = times->total_ms = mark - start;

    cv_geom_marker found[MAX_MARKERS];
    int count = 0;
    status = find_markers(frame, &search, scale, mat, found, &count, detail, sizeof detail);
    vision_image_free(&search);
    times->detect_ms = vision_clock_ms() - mark;
    mark = vision_clock_ms();
    times->total_ms = mark - start;
    if (status != VISION_OK)
        return vision_fail(error, size, status, "cannot search the frame for markers: %s", detail);

    int index_of[4] = {-1, -1, -1, -1}, others[8], other_count = 0;
    for (int i = 0; i < count; i++) {
        int id = found[i].id;
        if (id < 0 || id > 3) {
            if (other_count < 8)
                others[other_count++] = id;
            continue;
        }
        if (index_of[id] >= 0) {
            const vision_point *a = &found[index_of[id]].corners[0], *b = &found[i].corners[0];
            return vision_fail(error, size, VISION_MARKER_MOVED,
                        "marker %d (%s) is seen twice, near (%.0f, %.0f) and (%.0f, %.0f) px: "
                        "the kit has one of each",
                        id, corner_names[id], a->x, a->y, b->x, b->y);
        }
        index_of[id] = i;
    }
    int missing[4], missing_count = 0;
    for (int id = 0; id < 4; id++)
        if (index_of[id] < 0)
            missing[missing_count++] = id;
    if (missing_count == 4) {
        char seen[96] = "";
        for (int i = 0, used = 0; i < other_count && used < (int)sizeof seen; i++)
            used += snprintf(seen + used, sizeof seen - (size_t)used, "%s%d", i ? ", " : "",
                             others[i]);
        if (other_count)
            return vision_fail(error, size, VISION_NO_MARKERS,
                        "no table markers in view (ArUco 4x4_50 ids 0-3); only other ids: %s",
                        seen);
        return vision_fail(error, size, VISION_NO_MARKERS,
                    "no table markers in view (ArUco 4x4_50 ids 0-3)");
    }
    if (missing_count > 1 || (missing_count == 1 && !three_enough)) {
        char names[160];
        describe_markers(names, sizeof names, missing, missing_count);
        /* A far camera sees the markers too small for their bits to be told apart: the ones
         * found say how small. */
        double largest = 0;
        for (int id = 0; id < 4; id++)
            if (index_of[id] >= 0)
                largest = fmax(largest, marker_side(&found[index_of[id]]));
        if (largest < SMALL_MARKER_PX)
            return vision_fail(error, size, VISION_MARKER_MISSING,
                        "%s %s not found: the markers found are only %.0f pixels wide: print "
                        "them larger (tablescribe calibrate markers --marker-mm 60, then "
                        "calibrate table --marker-mm 60) or bring the camera closer",
                        missing_count == 1 ? "marker" : "markers", names, largest);
        /* Where the markers found put the missing ones says which: one inside the frame is
         * covered, or too blurred to decode (a far camera, a tilted marker). */
        int inside = 0;
        for (int k = 0; k < missing_count; k++)
            inside += missing_in_view(found, index_of, mat, missing[k], frame->width,
                                      frame->height);
        return vision_fail(error, size, VISION_MARKER_MISSING, "%s %s not found: %s",
                    missing_count == 1 ? "marker" : "markers", names,
                    inside == missing_count
                        ? "covered, or too blurred to read (larger markers read from further)"
                    : inside == 0 ? "out of view"
                                  : "covered, blurred or out of view");
    }

    vision_point corners[4][4];
    memset(corners, 0, sizeof corners);
    for (int id = 0; id < 4; id++) {
        if (index_of[id] < 0)
            continue; /* the one not found, three being enough */
        memcpy(corners[id], found[index_of[id]].corners, sizeof corners[id]);
        status = refine_marker(frame, corners[id], detail, sizeof detail);
        if (status != VISION_OK)
            return vision_fail(error, size, status, "cannot refine marker %d's corners: %s", id, detail);
    }
    times->refine_ms = vision_clock_ms() - mark;
    mark = vision_clock_ms();

    status = fit_registration((const vision_point(*)[4])corners,
                              missing_count == 1 ? missing[0] : -1, mat, camera, frame->width,
                              frame->height, registration, error, size);
    times->fit_ms = vision_clock_ms() - mark;
    times->total_ms = vision_clock_ms() - start;
    return status;
}

vision_status vision_register(const vision_image *frame, const vision_mat *mat,
                              const vision_camera *camera, vision_registration *registration,
                              char *error, size_t size)
{
    return vision_register_timed(frame, mat, camera, false, registration, NULL, error, size);
}

const char *vision_marker_corner(int id)
{
    return id >= 0 && id < 4 ? corner_names[id] : "?";
}

vision_status vision_register_any_three(const vision_image *frame, const vision_mat *mat,
                                        const vision_camera *camera,
                                        vision_registration *registration, char *error,
                                        size_t size)
{
    return vision_register_timed(frame, mat, camera, true, registration, NULL, error, size);
}

/* ---- points and images ---- */

vision_point vision_project(const vision_registration *registration, double x_mm, double y_mm,
                            double height_mm)
{
    const double *p = registration->projection;
    double u = p[0] * x_mm + p[1] * y_mm + p[2] * height_mm + p[3];
    double v = p[4] * x_mm + p[5] * y_mm + p[6] * height_mm + p[7];
    double w = p[8] * x_mm + p[9] * y_mm + p[10] * height_mm + p[11];
    if (fabs(w) < 1e-300)
        return (vision_point){NAN, NAN};
    vision_point ideal = {u / w, v / w};
    return has_distortion(&registration->intrinsics) ? distort(&registration->intrinsics, ideal)
                                                     : ideal;
}

vision_point vision_unproject(const vision_registration *registration, vision_point pixel)
{
    vision_point ideal = has_distortion(&registration->intrinsics)
                             ? undistort(&registration->intrinsics, pixel)
                             : pixel;
    return apply_homography(registration->image_to_table, ideal.x, ideal.y);
}

/* The output pixels' places in the frame are computed exactly every LENS_GRID pixels and
 * interpolated between: the lens and the perspective bend them smoothly (well under a
 * hundredth of a pixel off at 1 px per mm), at a tenth of the cost. */
#define LENS_GRID 8

/* Fills out from frame: out's pixel (i, j) is the ideal pixel to_frame (i, j), through the
 * registration's lens. */
static vision_status rectify_through_lens(const vision_image *frame,
                                          const vision_registration *registration,
                                          const double to_frame[9], vision_image *out,
                                          char *detail, size_t detail_size)
{
    int columns = out->width / LENS_GRID + 2, rows = out->height / LENS_GRID + 2;
    size_t pixels = (size_t)out->width * (size_t)out->height;
    float *map_x = malloc(pixels * sizeof *map_x), *map_y = malloc(pixels * sizeof *map_y);
    vision_point *grid = malloc((size_t)columns * (size_t)rows * sizeof *grid);
    vision_status status = VISION_NOMEM;
    if (map_x && map_y && grid) {
        for (int v = 0; v < rows; v++)
            for (int u = 0; u < columns; u++) {
                vision_point ideal = apply_homography(to_frame, u * LENS_GRID, v * LENS_GRID);
                vision_point seen = distort(&registration->intrinsics, ideal);
                bool inside = isfinite(seen.x) && isfinite(seen.y) && fabs(seen.x) < 1e6 &&
                              fabs(seen.y) < 1e6;
                grid[v * columns + u] = inside ? seen : (vision_point){-1e6, -1e6};
            }
        for (int j = 0; j < out->height; j++) {
            int v = j / LENS_GRID;
            double fy = (double)(j - v * LENS_GRID) / LENS_GRID;
            for (int i = 0; i < out->width; i++) {
                int u = i / LENS_GRID;
                double fx = (double)(i - u * LENS_GRID) / LENS_GRID;
                const vision_point *a = &grid[v * columns + u], *b = a + 1, *c = a + columns,
                                   *d = c + 1;
                size_t at = (size_t)j * (size_t)out->width + (size_t)i;
                map_x[at] = (float)((1 - fy) * ((1 - fx) * a->x + fx * b->x) +
                                    fy * ((1 - fx) * c->x + fx * d->x));
                map_y[at] = (float)((1 - fy) * ((1 - fx) * a->y + fx * b->y) +
                                    fy * ((1 - fx) * c->y + fx * d->y));
            }
        }
        status = cv_geom_remap(frame, map_x, map_y, out, 0, detail, detail_size);
    }
    free(map_x);
    free(map_y);
    free(grid);
    return status;
}

vision_status vision_rectify(const vision_image *frame, const vision_registration *registration,
                             double x_mm, double y_mm, double width_mm, double height_mm,
                             double px_per_mm, vision_image *out)
{
    memset(out, 0, sizeof *out);
    if (!frame || !frame->pixels || frame->width != registration->image_width ||
        frame->height != registration->image_height ||
        (frame->channels != 1 && frame->channels != 3))
        return VISION_BAD_INPUT;
    if (!(isfinite(x_mm) && isfinite(y_mm) && px_per_mm > 0 && width_mm > 0 && height_mm > 0))
        return VISION_BAD_INPUT;
    double columns = round(width_mm * px_per_mm), rows = round(height_mm * px_per_mm);
    if (!(columns >= 1 && rows >= 1 && columns <= 32768 && rows <= 32768))
        return VISION_BAD_INPUT;
    vision_image warped;
    vision_status status = vision_image_new((int)columns, (int)rows, frame->channels, &warped);
    if (status != VISION_OK)
        return status;

    /* Output pixel → table mm → ideal pixel. */
    double to_table[9] = {1 / px_per_mm, 0, x_mm + 0.5 / px_per_mm,
                          0, 1 / px_per_mm, y_mm + 0.5 / px_per_mm,
                          0, 0, 1};
    double to_frame[9];
    mat3_mul(registration->table_to_image, to_table, to_frame);
    char detail[256];
    if (!has_distortion(&registration->intrinsics)) {
        status = cv_geom_warp(frame, to_frame, &warped, 0, detail, sizeof detail);
    } else {
        status = rectify_through_lens(frame, registration, to_frame, &warped, detail,
                                      sizeof detail);
    }
    if (status != VISION_OK) {
        vision_image_free(&warped);
        return status;
    }
    if (warped.channels == 3) {
        *out = warped;
        return VISION_OK;
    }
    status = vision_image_new(warped.width, warped.height, 3, out);
    if (status == VISION_OK)
        for (int j = 0; j < warped.height; j++)
            for (int i = 0; i < warped.width; i++)
                memset(out->pixels + (size_t)j * (size_t)out->stride + (size_t)i * 3,
                       warped.pixels[(size_t)j * (size_t)warped.stride + (size_t)i], 3);
    vision_image_free(&warped);
    return status;
}
