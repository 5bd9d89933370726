/*
 * The tracker's cost per settled table: reconcile against the committed game plus committing
 * what it explains into the archive (synchronous=FULL, as during a live game). Random Expedition
 * Luxor games of 2, 3 and 4 players (the 4-player ones with the expansion), a table after every
 * action with the turn ends signalled, as test_tracker feeds them.
 *
 *   bench_tracker [GAMES] [FOLDER]     defaults: 3 games (one of each), a new folder under /tmp
 *
 * Reports median, p95 and max per table, apart for tables that commit nothing (reconcile alone)
 * and tables that commit (reconcile and the archive); asserts nothing. The archive's share
 * depends on the disk under FOLDER.
 */
#include "tracker.h"

#include "bench_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct lines {
    int count, capacity;
    char **text;
} lines;

static void keep_line(void *context, const char *line)
{
    lines *l = context;
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2 * l->capacity : 256;
        l->text = realloc(l->text, sizeof *l->text * (size_t)l->capacity);
        if (!l->text)
            exit(1);
    }
    if (!(l->text[l->count++] = strdup(line)))
        exit(1);
}

static void count_commit(void *context, const tracker_event *event)
{
    *(int *)context += event->kind == TRACKER_MOVE;
}

static void report(const char *what, double *times, int count)
{
    if (count == 0)
        return;
    qsort(times, (size_t)count, sizeof *times, bench_compare_doubles);
    printf("%-36s %6d tables  median %7.3f ms  p95 %7.3f ms  max %7.3f ms\n", what, count,
           times[count / 2] * 1e3, times[(int)(0.95 * (count - 1))] * 1e3,
           times[count - 1] * 1e3);
}

int main(int argc, char **argv)
{
    bench_archive_run run;
    int failed = bench_archive_start("bench_tracker", "GAMES", 3, argc, argv, &run);
    if (failed)
        return failed;
    int games = (int)run.count;
    const char *path = run.path;
    db *archive = run.archive;
    int capacity = games * 400;
    double *idle = malloc(sizeof *idle * (size_t)capacity);
    double *committing = malloc(sizeof *committing * (size_t)capacity);
    int idle_count = 0, committing_count = 0, flags_or_waits = 0;
    for (int g = 0; g < games; g++) {
        int seats = 2 + g % 3;
        el_config config;
        el_config_default(&config);
        config.seats = seats;
        config.expansion = seats == 4;
        el_state truth, played;
        el_error error;
        el_init(&truth, &config, &error);
        played = truth;
        lines script = {0};
        if (el_random_game(&played, (uint64_t)(1000 + g), keep_line, &script, &error) != EL_OK)
            return 1;
        tracker_config settings;
        tracker_config_default(&settings);
        settings.options.seats = seats;
        settings.options.flags = config.expansion ? RULES_FLAG_EXPANSION : 0;
        settings.turn_ends_signalled = true;
        int commits = 0;
        settings.on_event = count_commit;
        settings.context = &commits;
        tracker *t = NULL;
        if (tracker_new(&settings, archive, &t) != TRACKER_OK) {
            fprintf(stderr, "bench_tracker: %s\n", tracker_error(t));
            return 1;
        }
        for (int i = 0; i < script.count && idle_count + committing_count < capacity; i++) {
            el_play_line(&truth, script.text[i], NULL, &error);
            size_t length = strlen(script.text[i]);
            el_observation observation;
            el_observe(&truth, &observation);
            tracker_table table = {.frame_time = i, .observation = &observation,
                                   .confidence = NAN,
                                   .turn_ended = length >= 5 &&
                                                 strcmp(script.text[i] + length - 5, ": end") == 0};
            int before = commits;
            double start = bench_seconds();
            if (tracker_observe(t, &table) != TRACKER_OK) {
                fprintf(stderr, "bench_tracker: %s\n", tracker_error(t));
                return 1;
            }
            double took = bench_seconds() - start;
            if (commits > before)
                committing[committing_count++] = took;
            else
                idle[idle_count++] = took;
            flags_or_waits += tracker_pending(t);
        }
        tracker_free(t);
        for (int i = 0; i < script.count; i++)
            free(script.text[i]);
        free(script.text);
    }
    printf("bench_tracker: %d games (2-4 players, 4 with the expansion), archive %s\n", games,
           path);
    report("reconcile, nothing to commit", idle, idle_count);
    report("reconcile and archive commit", committing, committing_count);
    double *all = malloc(sizeof *all * (size_t)(idle_count + committing_count));
    memcpy(all, idle, sizeof *all * (size_t)idle_count);
    memcpy(all + idle_count, committing, sizeof *all * (size_t)committing_count);
    report("every settled table", all, idle_count + committing_count);
    printf("tables left waiting: %d\n", flags_or_waits);
    free(all);
    free(idle);
    free(committing);
    db_close(archive);
    return 0;
}
