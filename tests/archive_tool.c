/*
 * A writer for the archive tests, run as its own process so that it can be killed.
 *
 *   archive_tool append DB COUNT   appends COUNT events (0: until killed) to game 1, created
 *                                  with 4 seats when missing, resuming after its last event;
 *                                  prints each event's seq on stdout once db_event_append
 *                                  has returned, so the parent knows which appends completed
 *   archive_tool sample DB         writes a small archive for the end-to-end tests: a finished
 *                                  game with names, a live one, awkward text in notations
 *
 * The scores of append are a function of seq and seat (archive_tool_score), so that a reader
 * can tell a whole event from a torn one.
 */
#include "archive_tool.h"
#include "sample_archive.h"

#include "db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(db *archive, const char *doing)
{
    fprintf(stderr, "archive_tool: %s: %s\n", doing, db_error(archive));
    db_close(archive);
    return 1;
}

static db *open_archive(const char *path)
{
    db_config config;
    db_config_default(&config);
    config.mode = DB_OPEN_CREATE;
    db *archive = NULL;
    if (db_open(path, &config, &archive) != DB_OK) {
        fail(archive, "open");
        return NULL;
    }
    return archive;
}

static int last_seq(void *context, const db_event *event, const int32_t *scores)
{
    (void)scores;
    *(int64_t *)context = event->seq;
    return 0;
}

static int append(const char *path, long count)
{
    db *archive = open_archive(path);
    if (!archive)
        return 1;
    db_game game;
    if (db_game_get(archive, 1, &game) == DB_NOT_FOUND) {
        db_new_game new_game = {.game = "expedition-luxor", .title = "Expedition Luxor",
                                .seat_count = ARCHIVE_TOOL_SEATS};
        static const char *const colours[] = {"orange", "black", "grey", "yellow"};
        for (int i = 0; i < ARCHIVE_TOOL_SEATS; i++)
            snprintf(new_game.seats[i].colour, DB_COLOUR_MAX, "%s", colours[i]);
        int64_t id;
        if (db_game_create(archive, &new_game, &id) != DB_OK)
            return fail(archive, "create game");
    }
    int64_t seq = 0;
    if (db_events_foreach(archive, 1, last_seq, &seq) != DB_OK)
        return fail(archive, "read events");

    for (long i = 0; count == 0 || i < count; i++) {
        int64_t next = seq + 1;
        int32_t scores[ARCHIVE_TOOL_SEATS];
        for (int s = 0; s < ARCHIVE_TOOL_SEATS; s++)
            scores[s] = archive_tool_score(next, s);
        char notation[64], detail[64];
        snprintf(notation, sizeof notation, "move %lld", (long long)next);
        snprintf(detail, sizeof detail, "{\"n\": %lld}", (long long)next);
        db_event event = db_event_make(DB_EVENT_MOVE, (int)(next % ARCHIVE_TOOL_SEATS), notation);
        event.detail_json = detail;
        event.confidence = 0.5;
        if (db_event_append(archive, 1, &event, scores, &seq) != DB_OK)
            return fail(archive, "append");
        char ack[32];
        int n = snprintf(ack, sizeof ack, "%lld\n", (long long)seq);
        if (write(STDOUT_FILENO, ack, (size_t)n) != n)
            break; /* the parent stopped listening */
    }
    db_close(archive);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "append") == 0)
        return append(argv[2], strtol(argv[3], NULL, 10));
    if (argc == 3 && strcmp(argv[1], "sample") == 0)
        return sample_archive_write(argv[2]) == 0 ? 0 : 1;
    fprintf(stderr, "usage: archive_tool append DB COUNT | archive_tool sample DB\n");
    return 2;
}
