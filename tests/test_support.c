#include "test_support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *test_make_folder(void)
{
    const char *base = getenv("TMPDIR");
    char *path = test_path(base && *base ? base : "/tmp", "tablescribe-test-XXXXXX");
    if (!mkdtemp(path)) {
        perror("mkdtemp");
        abort();
    }
    chmod(path, 0777);
    return path;
}

void test_remove_tree(const char *path)
{
    DIR *folder = opendir(path);
    if (folder) {
        struct dirent *entry;
        while ((entry = readdir(folder))) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            char *child = test_path(path, entry->d_name);
            struct stat info;
            if (lstat(child, &info) == 0 && S_ISDIR(info.st_mode))
                test_remove_tree(child);
            else
                unlink(child);
            free(child);
        }
        closedir(folder);
    }
    rmdir(path);
}

db_status test_archive_create(const db_config *config, char **folder, char **path, db **archive)
{
    db_config create;
    if (config)
        create = *config;
    else
        db_config_default(&create);
    create.mode = DB_OPEN_CREATE;
    *folder = test_make_folder();
    *path = test_path(*folder, "games.sqlite");
    *archive = NULL;
    return db_open(*path, &create, archive);
}

void test_archive_remove(db *archive, char *folder, char *path)
{
    db_close(archive);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

char *test_path(const char *folder, const char *name)
{
    size_t size = strlen(folder) + strlen(name) + 2;
    char *path = malloc(size);
    snprintf(path, size, "%s/%s", folder, name);
    return path;
}

char *test_read_file(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)length + 1);
    size_t got = fread(data, 1, (size_t)length, file);
    fclose(file);
    data[got] = '\0';
    if (size)
        *size = got;
    return data;
}

void test_write_file(const char *path, const void *data, size_t size)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(data, 1, size, file) != size) {
        perror(path);
        abort();
    }
    fclose(file);
}

bool test_file_equals(const char *path, const void *data, size_t size)
{
    size_t length;
    char *content = test_read_file(path, &length);
    bool equal = content && length == size && memcmp(content, data, size) == 0;
    free(content);
    return equal;
}

size_t test_folder_entries(const char *path)
{
    size_t count = 0;
    DIR *folder = opendir(path);
    if (!folder)
        return 0;
    struct dirent *entry;
    while ((entry = readdir(folder)))
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
            count++;
    closedir(folder);
    return count;
}

void test_lines_collect(void *context, const char *line)
{
    test_lines *g = context;
    if (g->count == g->capacity) {
        g->capacity = g->capacity ? 2 * g->capacity : 256;
        g->lines = realloc(g->lines, sizeof *g->lines * (size_t)g->capacity);
        if (!g->lines)
            abort();
    }
    if (!(g->lines[g->count] = strdup(line)))
        abort();
    g->count++;
}

test_camera_pose test_camera_look_at(double height_mm, double tilt_deg, double azimuth_deg,
                                     double target_x, double target_y)
{
    test_camera_pose pose;
    double azimuth = azimuth_deg * 3.14159265358979323846 / 180;
    double tilt = tilt_deg * 3.14159265358979323846 / 180;
    /* The mat's "down" (+y), turned by the azimuth: where the camera stands back from. */
    double back[3] = {-sin(azimuth), cos(azimuth), 0};
    double offset = height_mm * tan(tilt);
    double *position = pose.position;
    position[0] = target_x + back[0] * offset;
    position[1] = target_y + back[1] * offset;
    position[2] = -height_mm;
    double forward[3] = {target_x - position[0], target_y - position[1], -position[2]};
    double length = sqrt(forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2]);
    for (int i = 0; i < 3; i++)
        forward[i] /= length;
    double along = back[0] * forward[0] + back[1] * forward[1] + back[2] * forward[2];
    double down[3];
    for (int i = 0; i < 3; i++)
        down[i] = back[i] - along * forward[i];
    length = sqrt(down[0] * down[0] + down[1] * down[1] + down[2] * down[2]);
    for (int i = 0; i < 3; i++)
        down[i] /= length;
    double right[3] = {down[1] * forward[2] - down[2] * forward[1],
                       down[2] * forward[0] - down[0] * forward[2],
                       down[0] * forward[1] - down[1] * forward[0]};
    for (int i = 0; i < 3; i++) {
        pose.rotation[i] = right[i];
        pose.rotation[3 + i] = down[i];
        pose.rotation[6 + i] = forward[i];
    }
    for (int r = 0; r < 3; r++)
        pose.translation[r] = -(pose.rotation[r * 3] * position[0] +
                                pose.rotation[r * 3 + 1] * position[1] +
                                pose.rotation[r * 3 + 2] * position[2]);
    return pose;
}

void test_camera_homography(const test_camera_pose *pose, double f, double cx, double cy,
                            double h[9])
{
    const double *r = pose->rotation, *t = pose->translation;
    for (int c = 0; c < 3; c++) {
        double column[3] = {c < 2 ? r[c] : t[0], c < 2 ? r[3 + c] : t[1], c < 2 ? r[6 + c] : t[2]};
        h[c] = f * column[0] + cx * column[2];
        h[3 + c] = f * column[1] + cy * column[2];
        h[6 + c] = column[2];
    }
}

void test_invert3(const double m[9], double out[9])
{
    double c[9] = {m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                   m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                   m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]};
    double determinant = m[0] * c[0] + m[1] * c[3] + m[2] * c[6];
    for (int i = 0; i < 9; i++)
        out[i] = c[i] / determinant;
}

el_state test_el_new_game(int seats, bool expansion)
{
    el_config config;
    el_config_default(&config);
    config.seats = seats;
    config.expansion = expansion;
    el_state state;
    el_error error = {""};
    if (el_init(&state, &config, &error) != EL_OK) {
        fprintf(stderr, "el_init, %d seats%s: %s\n", seats, expansion ? " with the expansion" : "",
                error.message);
        abort();
    }
    return state;
}

void test_lines_free(test_lines *g)
{
    for (int i = 0; i < g->count; i++)
        free(g->lines[i]);
    free(g->lines);
    memset(g, 0, sizeof *g);
}
