/* Writes the sample archive described in sample_archive.h. */
#include "sample_archive.h"

#include "db.h"

#include <stdio.h>

static int fail(db *archive, const char *doing)
{
    fprintf(stderr, "sample archive: %s: %s\n", doing, db_error(archive));
    db_close(archive);
    return 1;
}

int sample_archive_write(const char *path)
{
    db_config config;
    db_config_default(&config);
    config.mode = DB_OPEN_CREATE;
    db *archive = NULL;
    if (db_open(path, &config, &archive) != DB_OK)
        return fail(archive, "open");
    db_new_game finished = {.game = "expedition-luxor",
                            .title = "Expedition Luxor",
                            .options_json = "{\"expansion\": true}",
                            .started_ms = 1763740800000, /* 2025-11-21 16:00 UTC */
                            .seat_count = 3};
    snprintf(finished.seats[0].colour, DB_COLOUR_MAX, "orange");
    snprintf(finished.seats[0].name, DB_NAME_MAX, "Zoé");
    snprintf(finished.seats[1].colour, DB_COLOUR_MAX, "black");
    snprintf(finished.seats[1].name, DB_NAME_MAX, "Bob \"the <builder>\"");
    snprintf(finished.seats[2].colour, DB_COLOUR_MAX, "grey");
    int64_t id;
    if (db_game_create(archive, &finished, &id) != DB_OK)
        return fail(archive, "create game");

    static const unsigned char jpeg[] = {0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0xff, 0xd9};
    struct {
        db_event_kind kind;
        int seat;
        const char *notation;
        int32_t scores[3];
    } steps[] = {
        {DB_EVENT_MOVE, 0, "start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1", {0, 0, 0}},
        {DB_EVENT_MOVE, 0, "desert-camp@2,2 x5 > e 2 2", {1, 0, 0}},
        {DB_EVENT_FLAG, -1, "", {1, 0, 0}},
        {DB_EVENT_MOVE, 1, "oasis-camp@3,0 x2, \"quoted\"", {1, 1, 0}},
        {DB_EVENT_UNDO, 1, "undo", {1, 0, 0}},
        {DB_EVENT_MOVE, 1, "oasis-camp@3,1 x2", {1, 1, 0}},
        {DB_EVENT_HIDDEN, 2, "hand: lake", {1, 1, 0}},
        {DB_EVENT_MOVE, 2, "desert-pyramid@0,2", {1, 1, 3}},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        db_event event = db_event_make(steps[i].kind, steps[i].seat, steps[i].notation);
        event.at_ms = finished.started_ms + 60000 * (int64_t)(i + 1);
        if (steps[i].kind == DB_EVENT_FLAG)
            event.detail_json = "{\"reason\": \"a hand rests on the table\"}";
        if (steps[i].kind == DB_EVENT_MOVE) {
            event.frame_time = 12.5 * (double)(i + 1);
            event.confidence = 0.97;
            event.thumbnail_jpeg = jpeg;
            event.thumbnail_size = sizeof jpeg;
        }
        if (db_event_append(archive, id, &event, steps[i].scores, NULL) != DB_OK)
            return fail(archive, "append");
    }
    int32_t final_scores[3] = {4, 4, 3}, ranks[3] = {1, 1, 3};
    if (db_game_finish(archive, id, final_scores, ranks) != DB_OK)
        return fail(archive, "finish");

    db_new_game live = {.game = "luxor", .title = "Luxor", .started_ms = 1763827200000,
                        .seat_count = 2};
    snprintf(live.seats[0].colour, DB_COLOUR_MAX, "red");
    snprintf(live.seats[1].colour, DB_COLOUR_MAX, "blue");
    snprintf(live.seats[1].name, DB_NAME_MAX, "Ana");
    if (db_game_create(archive, &live, &id) != DB_OK)
        return fail(archive, "create game");
    db_event event = db_event_make(DB_EVENT_MOVE, 0, "push camel/left mule/right 3");
    int32_t scores[2] = {0, 0};
    if (db_event_append(archive, id, &event, scores, NULL) != DB_OK)
        return fail(archive, "append");
    db_close(archive);
    return 0;
}

