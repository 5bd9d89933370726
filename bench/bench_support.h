/* What the benches share: a monotonic clock, sorting times for their percentiles and, for those
 * that include db.h before this, the archive they write. */
#ifndef TS_BENCH_SUPPORT_H
#define TS_BENCH_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double bench_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* For qsort over doubles. */
static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#ifdef TS_DB_H
/* The run of a bench that writes an archive, from its command line "NAME [COUNT] [FOLDER]". */
typedef struct bench_archive_run {
    long count;       /* COUNT, or the bench's default */
    char folder[256]; /* FOLDER, or a new folder under /tmp (left in place) */
    char path[512];   /* folder/bench.sqlite */
    db *archive;      /* created at path (replacing one there) with db_config_default's
                       * durability, as during a live game; the caller closes it with db_close */
} bench_archive_run;

/* Reads the command line into run and creates its archive. Returns 0, or the status to exit
 * with after printing "name: why" on stderr: 1 when the folder or the archive cannot be made,
 * 2 when COUNT (called count_name) is below 1. */
static inline int bench_archive_start(const char *name, const char *count_name,
                                      long default_count, int argc, char **argv,
                                      bench_archive_run *run)
{
    run->count = argc > 1 ? strtol(argv[1], NULL, 10) : default_count;
    run->archive = NULL;
    if (argc > 2)
        snprintf(run->folder, sizeof run->folder, "%s", argv[2]);
    else if (!mkdtemp(strcpy(run->folder, "/tmp/tablescribe-bench-XXXXXX")))
        return 1;
    if (run->count < 1) {
        fprintf(stderr, "%s: %s must be at least 1\n", name, count_name);
        return 2;
    }
    snprintf(run->path, sizeof run->path, "%s/bench.sqlite", run->folder);
    unlink(run->path);
    db_config config;
    db_config_default(&config);
    config.mode = DB_OPEN_CREATE;
    if (db_open(run->path, &config, &run->archive) != DB_OK) {
        fprintf(stderr, "%s: %s\n", name, db_error(run->archive));
        db_close(run->archive);
        run->archive = NULL;
        return 1;
    }
    return 0;
}
#endif

#endif
