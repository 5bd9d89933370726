/* Helpers shared by the tests (and the benches that link them): temporary folders, whole-file
 * reads, random games' lines and fresh Expedition Luxor games. */
#ifndef TS_TEST_SUPPORT_H
#define TS_TEST_SUPPORT_H

#include "db.h"
#include "rules.h"

#include <stdbool.h>
#include <stddef.h>

/* A fresh folder under $TMPDIR (or /tmp), world-accessible so that a test may drop privileges
 * in it; the caller removes it with test_remove_tree and frees the path. */
char *test_make_folder(void);

/* Removes a folder and everything in it. */
void test_remove_tree(const char *path);

/* A fresh folder (test_make_folder) with the archive "games.sqlite" created in it, opened with
 * config (NULL: db_config_default's) in DB_OPEN_CREATE mode whatever config's mode. *folder and
 * *path are malloc'd, *archive is db_open's handle (there even when it fails, for db_error); the
 * caller removes all three with test_archive_remove. Returns db_open's status. */
db_status test_archive_create(const db_config *config, char **folder, char **path, db **archive);

/* Closes archive (NULL allowed), removes folder with everything in it, frees folder and path. */
void test_archive_remove(db *archive, char *folder, char *path);

/* "folder/name" in a malloc'd string. */
char *test_path(const char *folder, const char *name);

/* The whole file in a malloc'd buffer (NUL-terminated; *size without it), or NULL. */
char *test_read_file(const char *path, size_t *size);

/* Writes text to path, replacing it. */
void test_write_file(const char *path, const void *data, size_t size);

/* The file's bytes equal data. */
bool test_file_equals(const char *path, const void *data, size_t size);

/* The folder holds exactly count entries (besides . and ..). */
size_t test_folder_entries(const char *path);

/* The lines a random game emits, kept in order: pass test_lines_collect as the emit callback
 * and a zeroed test_lines as its context. Out of memory aborts the test program. */
typedef struct test_lines {
    int count, capacity;
    char **lines;
} test_lines;

void test_lines_collect(void *context, const char *line);
void test_lines_free(test_lines *lines);

/* A synthetic camera's pose: height_mm above the table looking at (target_x, target_y), tilted
 * by tilt_deg from straight down, from the side azimuth_deg (0: from beyond the mat's bottom
 * edge). */
typedef struct test_camera_pose {
    double rotation[9];    /* table (z into it) → camera: rows right, down, forward */
    double translation[3];
    double position[3];    /* in table mm, z = -height_mm */
} test_camera_pose;

test_camera_pose test_camera_look_at(double height_mm, double tilt_deg, double azimuth_deg,
                                     double target_x, double target_y);

/* The homography table mm → pixels of a pose seen with focal length f (pixels) and principal
 * point (cx, cy), lens distortion aside. */
void test_camera_homography(const test_camera_pose *pose, double f, double cx, double cy,
                            double h[9]);

/* The inverse of the 3 x 3 matrix m (row-major). */
void test_invert3(const double m[9], double out[9]);

/* A fresh game of Expedition Luxor: el_config_default's but for seats and the expansion. A
 * configuration el_init refuses aborts the program, printing its reason. */
el_state test_el_new_game(int seats, bool expansion);

#endif
