/*
 * The archive's speed: how long one committed event takes (DESIGN.md §5: a committed move in
 * the archive ≤ 5 ms), with synchronous=FULL as during a live game, so each append waits for
 * the disk. Also the time to read a whole game back, as `show` and a resume do.
 *
 *   bench_archive [EVENTS] [FOLDER]     defaults: 2000 events, a new folder under /tmp
 *
 * Reports; asserts nothing. The numbers depend on the disk under FOLDER.
 */
#include "db.h"
#include "expedition_luxor.h"

#include "bench_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int count_event(void *context, const db_event *event, const int32_t *scores)
{
    (void)event;
    (void)scores;
    (*(long *)context)++;
    return 0;
}

int main(int argc, char **argv)
{
    bench_archive_run run;
    int failed = bench_archive_start("bench_archive", "EVENTS", 2000, argc, argv, &run);
    if (failed)
        return failed;
    long events = run.count;
    const char *folder = run.folder, *path = run.path;
    db *archive = run.archive;
    db_new_game game = {.game = EL_GAME_ID, .title = "Expedition Luxor", .seat_count = 4};
    static const char *const colours[] = {"orange", "black", "grey", "yellow"};
    for (int i = 0; i < 4; i++)
        snprintf(game.seats[i].colour, DB_COLOUR_MAX, "%s", colours[i]);
    int64_t id;
    if (db_game_create(archive, &game, &id) != DB_OK)
        return 1;

    /* A realistic event: notation, a detail object, evidence and a small thumbnail. */
    static unsigned char thumbnail[6000];
    for (size_t i = 0; i < sizeof thumbnail; i++)
        thumbnail[i] = (unsigned char)(i * 31);
    double *latency = malloc((size_t)events * sizeof *latency);
    double started = bench_seconds();
    for (long i = 0; i < events; i++) {
        db_event event = db_event_make(DB_EVENT_MOVE, (int)(i % 4), "desert-camp@2,2 x5 > e 2 2");
        event.detail_json = "{\"tiles\": [[2, 2, \"desert-camp\"]], \"moved\": [2, 2]}";
        event.frame_time = (double)i * 0.1;
        event.confidence = 0.93;
        event.thumbnail_jpeg = thumbnail;
        event.thumbnail_size = sizeof thumbnail;
        int32_t scores[4] = {(int32_t)i, (int32_t)i / 2, (int32_t)i / 3, (int32_t)i / 4};
        double before = bench_seconds();
        if (db_event_append(archive, id, &event, scores, NULL) != DB_OK) {
            fprintf(stderr, "bench_archive: %s\n", db_error(archive));
            return 1;
        }
        latency[i] = (bench_seconds() - before) * 1000.0;
    }
    double total = bench_seconds() - started;
    qsort(latency, (size_t)events, sizeof *latency, bench_compare_doubles);

    long read_back = 0;
    double read_started = bench_seconds();
    db_events_foreach(archive, id, count_event, &read_back);
    double read_ms = (bench_seconds() - read_started) * 1000.0;
    db_close(archive);

    printf("archive append (synchronous=FULL, WAL, 6 KB thumbnail), %ld events in %s\n", events,
           folder);
    printf("  median %.3f ms, p95 %.3f ms, p99 %.3f ms, max %.3f ms  (target: <= 5 ms)\n",
           latency[events / 2], latency[events * 95 / 100], latency[events * 99 / 100],
           latency[events - 1]);
    printf("  throughput %.0f events/s\n", (double)events / total);
    printf("read back %ld events in %.1f ms\n", read_back, read_ms);
    free(latency);
    if (argc <= 2) {
        unlink(path);
        char side[600];
        snprintf(side, sizeof side, "%s-wal", path);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", path);
        unlink(side);
        rmdir(folder);
    }
    return 0;
}
