/* The archive: games, events, durability settings, bad files, migrations, exports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "db.h"
#include "db_internal.h"
#include "sample_archive.h"
#include "test_support.h"

#include <csv.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct fixture {
    char *folder;
    char *path;
    db *archive;
    int64_t game; /* a live 3-seat game */
} fixture;

/* Every archive of these tests waits 100 ms at most for another connection's lock. */
static db_config config_for(db_open_mode mode)
{
    db_config config;
    db_config_default(&config);
    config.mode = mode;
    config.busy_timeout_ms = 100;
    return config;
}

static db *open_mode(const char *path, db_open_mode mode, db_status *status)
{
    db_config config = config_for(mode);
    db *archive = NULL;
    *status = db_open(path, &config, &archive);
    return archive;
}

static int64_t create_game(db *archive, int seats)
{
    static const char *const colours[] = {"orange", "black", "grey", "yellow"};
    db_new_game game = {.game = "expedition-luxor", .title = "Expedition Luxor",
                        .seat_count = seats};
    for (int i = 0; i < seats; i++)
        snprintf(game.seats[i].colour, DB_COLOUR_MAX, "%s", colours[i]);
    int64_t id = 0;
    assert_int_equal(db_game_create(archive, &game, &id), DB_OK);
    return id;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    db_config config = config_for(DB_OPEN_CREATE);
    assert_int_equal(test_archive_create(&config, &f->folder, &f->path, &f->archive), DB_OK);
    f->game = create_game(f->archive, 3);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    test_archive_remove(f->archive, f->folder, f->path);
    free(f);
    return 0;
}

/* ---- collecting events ---- */

#define MAX_COLLECTED 64

typedef struct collected {
    int count;
    int64_t seq[MAX_COLLECTED];
    db_event_kind kind[MAX_COLLECTED];
    int seat[MAX_COLLECTED];
    char notation[MAX_COLLECTED][64];
    char detail[MAX_COLLECTED][64];
    double frame_time[MAX_COLLECTED], confidence[MAX_COLLECTED];
    size_t thumbnail_size[MAX_COLLECTED];
    unsigned char thumbnail_first[MAX_COLLECTED];
    int32_t scores[MAX_COLLECTED][DB_MAX_SEATS];
} collected;

static int collect(void *context, const db_event *event, const int32_t *scores)
{
    collected *c = context;
    int i = c->count++;
    c->seq[i] = event->seq;
    c->kind[i] = event->kind;
    c->seat[i] = event->seat;
    snprintf(c->notation[i], 64, "%s", event->notation);
    snprintf(c->detail[i], 64, "%s", event->detail_json);
    c->frame_time[i] = event->frame_time;
    c->confidence[i] = event->confidence;
    c->thumbnail_size[i] = event->thumbnail_size;
    c->thumbnail_first[i] = event->thumbnail_size ? ((const unsigned char *)event->thumbnail_jpeg)[0] : 0;
    memcpy(c->scores[i], scores, 3 * sizeof *scores);
    return 0;
}

static collected *read_events(db *archive, int64_t game)
{
    collected *c = calloc(1, sizeof *c);
    assert_int_equal(db_events_foreach(archive, game, collect, c), DB_OK);
    return c;
}

static int64_t event_count(db *archive, int64_t game)
{
    db_game info;
    assert_int_equal(db_game_get(archive, game, &info), DB_OK);
    return info.event_count;
}

/* ---- durability settings ---- */

static int pragma(db *archive, const char *name)
{
    int value = -1;
    assert_int_equal(db_pragma_int(archive, name, &value), DB_OK);
    return value;
}

static void test_db_write_handle_uses_wal_full_sync_and_foreign_keys(void **state)
{
    fixture *f = *state;
    sqlite3_stmt *stmt;
    assert_int_equal(sqlite3_prepare_v2(f->archive->sql, "PRAGMA journal_mode", -1, &stmt, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "wal");
    sqlite3_finalize(stmt);
    assert_int_equal(pragma(f->archive, "synchronous"), 2); /* FULL */
    assert_int_equal(pragma(f->archive, "foreign_keys"), 1);
    assert_int_equal(pragma(f->archive, "user_version"), DB_SCHEMA_VERSION);
    assert_int_equal(pragma(f->archive, "application_id"), DB_APPLICATION_ID);
}

/* ---- games and events ---- */

static void test_db_events_read_back_in_order_with_scores_and_evidence(void **state)
{
    fixture *f = *state;
    static const unsigned char jpeg[] = {0xff, 0xd8, 0x01, 0x02, 0xff, 0xd9};
    for (int i = 0; i < 5; i++) {
        char notation[32];
        snprintf(notation, sizeof notation, "desert@%d,0", i);
        db_event event = db_event_make(i == 3 ? DB_EVENT_FLAG : DB_EVENT_MOVE, i == 3 ? -1 : i % 3,
                                       notation);
        if (i == 2) {
            event.frame_time = 12.25;
            event.confidence = 0.75;
            event.thumbnail_jpeg = jpeg;
            event.thumbnail_size = sizeof jpeg;
            event.detail_json = "{\"tiles\": 1}";
        }
        int32_t scores[3] = {i, 10 * i, 100 * i};
        int64_t seq = 0;
        assert_int_equal(db_event_append(f->archive, f->game, &event, scores, &seq), DB_OK);
        assert_int_equal(seq, i + 1);
    }
    collected *c = read_events(f->archive, f->game);
    assert_int_equal(c->count, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(c->seq[i], i + 1);
        assert_int_equal(c->scores[i][0], i);
        assert_int_equal(c->scores[i][1], 10 * i);
        assert_int_equal(c->scores[i][2], 100 * i);
    }
    assert_string_equal(c->notation[4], "desert@4,0");
    assert_int_equal(c->kind[3], DB_EVENT_FLAG);
    assert_int_equal(c->seat[3], -1);
    assert_int_equal(c->seat[4], 1);
    assert_true(isnan(c->frame_time[0]) && isnan(c->confidence[0]));
    assert_true(c->frame_time[2] == 12.25 && c->confidence[2] == 0.75);
    assert_int_equal(c->thumbnail_size[2], sizeof jpeg);
    assert_int_equal(c->thumbnail_first[2], 0xff);
    assert_int_equal(c->thumbnail_size[1], 0);
    assert_string_equal(c->detail[2], "{\"tiles\": 1}");
    assert_string_equal(c->detail[0], "{}");

    db_game game;
    assert_int_equal(db_game_get(f->archive, f->game, &game), DB_OK);
    assert_int_equal(game.event_count, 5);
    assert_int_equal(game.seats[2].score, 400); /* the running score after the last event */
    assert_int_equal(game.status, DB_GAME_LIVE);
    assert_int_equal(strlen(game.uuid), 36);
    free(c);
}

static void test_db_undo_is_an_event_and_deletes_nothing(void **state)
{
    fixture *f = *state;
    int32_t scores[3] = {1, 0, 0}, before[3] = {0, 0, 0};
    db_event move = db_event_make(DB_EVENT_MOVE, 0, "desert-camp@2,2 x1");
    db_event undo = db_event_make(DB_EVENT_UNDO, 0, "undo");
    assert_int_equal(db_event_append(f->archive, f->game, &move, scores, NULL), DB_OK);
    assert_int_equal(db_event_append(f->archive, f->game, &undo, before, NULL), DB_OK);
    collected *c = read_events(f->archive, f->game);
    assert_int_equal(c->count, 2);
    assert_int_equal(c->kind[0], DB_EVENT_MOVE);
    assert_string_equal(c->notation[0], "desert-camp@2,2 x1");
    assert_int_equal(c->kind[1], DB_EVENT_UNDO);
    assert_int_equal(c->scores[1][0], 0);
    free(c);
}

static void test_db_bad_events_are_refused_and_store_nothing(void **state)
{
    fixture *f = *state;
    int32_t scores[3] = {0, 0, 0};
    db_event event = db_event_make(DB_EVENT_MOVE, 3, "x");
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BAD_INPUT);
    assert_non_null(strstr(db_error(f->archive), "no seat 3"));
    event.seat = -2;
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BAD_INPUT);
    event.seat = 0;
    event.detail_json = "not json";
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BAD_INPUT);
    event.detail_json = "[1, 2]";
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BAD_INPUT);
    event.detail_json = NULL;
    event.confidence = 1.5;
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BAD_INPUT);
    assert_non_null(strstr(db_error(f->archive), "confidence"));
    event.confidence = NAN;
    event.frame_time = INFINITY;
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BAD_INPUT);
    event.frame_time = NAN;
    assert_int_equal(db_event_append(f->archive, 99, &event, scores, NULL), DB_NOT_FOUND);
    assert_non_null(strstr(db_error(f->archive), "no game 99"));
    assert_int_equal(event_count(f->archive, f->game), 0);
    /* and the archive still takes a good event */
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_OK);
    assert_int_equal(event_count(f->archive, f->game), 1);
}

static int count_games(void *context, const db_game *game)
{
    (void)game;
    (*(int *)context)++;
    return 0;
}

static void test_db_bad_games_are_refused_and_create_nothing(void **state)
{
    fixture *f = *state;
    db_new_game game = {.game = "luxor", .title = "Luxor", .seat_count = 2};
    snprintf(game.seats[0].colour, DB_COLOUR_MAX, "red");
    snprintf(game.seats[1].colour, DB_COLOUR_MAX, "red");
    int64_t id;
    assert_int_equal(db_game_create(f->archive, &game, &id), DB_BAD_INPUT);
    assert_non_null(strstr(db_error(f->archive), "two seats have the colour red"));
    game.seats[1].colour[0] = '\0';
    assert_int_equal(db_game_create(f->archive, &game, &id), DB_BAD_INPUT);
    snprintf(game.seats[1].colour, DB_COLOUR_MAX, "blue");
    game.seat_count = 0;
    assert_int_equal(db_game_create(f->archive, &game, &id), DB_BAD_INPUT);
    game.seat_count = 7;
    assert_int_equal(db_game_create(f->archive, &game, &id), DB_BAD_INPUT);
    game.seat_count = 2;
    game.options_json = "{\"variant\": ";
    assert_int_equal(db_game_create(f->archive, &game, &id), DB_BAD_INPUT);
    game.options_json = NULL;
    game.game = "";
    assert_int_equal(db_game_create(f->archive, &game, &id), DB_BAD_INPUT);
    int games = 0;
    assert_int_equal(db_games_foreach(f->archive, count_games, &games), DB_OK);
    assert_int_equal(games, 1);
}

static void test_db_finish_records_final_scores_and_ranks_once(void **state)
{
    fixture *f = *state;
    int32_t scores[3] = {5, 7, 7}, ranks[3] = {3, 1, 1};
    int32_t bad_ranks[3] = {0, 1, 1};
    assert_int_equal(db_game_finish(f->archive, f->game, scores, bad_ranks), DB_BAD_INPUT);
    assert_int_equal(db_game_finish(f->archive, f->game, scores, ranks), DB_OK);
    db_game game;
    assert_int_equal(db_game_get(f->archive, f->game, &game), DB_OK);
    assert_int_equal(game.status, DB_GAME_FINISHED);
    assert_true(game.finished_ms > 0);
    assert_int_equal(game.seats[0].final_score, 5);
    assert_int_equal(game.seats[0].rank, 3);
    assert_int_equal(game.seats[2].rank, 1);
    assert_int_equal(db_game_finish(f->archive, f->game, scores, ranks), DB_BAD_INPUT);
    assert_non_null(strstr(db_error(f->archive), "already finished"));
    db_event event = db_event_make(DB_EVENT_MOVE, 0, "late");
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BAD_INPUT);
    assert_int_equal(event_count(f->archive, f->game), 0);
}

typedef struct game_list {
    int count;
    int64_t ids[8];
} game_list;

static int list_games(void *context, const db_game *game)
{
    game_list *list = context;
    list->ids[list->count++] = game->id;
    return 0;
}

static void test_db_games_are_listed_in_id_order(void **state)
{
    fixture *f = *state;
    int64_t second = create_game(f->archive, 2), third = create_game(f->archive, 4);
    game_list list = {0, {0}};
    assert_int_equal(db_games_foreach(f->archive, list_games, &list), DB_OK);
    assert_int_equal(list.count, 3);
    assert_int_equal(list.ids[0], f->game);
    assert_int_equal(list.ids[1], second);
    assert_int_equal(list.ids[2], third);
    db_game game;
    assert_int_equal(db_game_get(f->archive, 42, &game), DB_NOT_FOUND);
}

static void test_db_damaged_scores_are_reported_not_misread(void **state)
{
    fixture *f = *state;
    int32_t scores[3] = {1, 2, 3};
    db_event event = db_event_make(DB_EVENT_MOVE, 0, "a");
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_OK);
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_OK);
    /* Another tool deletes one score row: reading must say so rather than shift seats. */
    assert_int_equal(sqlite3_exec(f->archive->sql,
                                  "DELETE FROM event_scores WHERE seat = 0 AND event_id = "
                                  "(SELECT max(id) FROM events)",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    collected *c = calloc(1, sizeof *c);
    assert_int_equal(db_events_foreach(f->archive, f->game, collect, c), DB_IO);
    assert_non_null(strstr(db_error(f->archive), "damaged"));
    free(c);
}

/* ---- bad files: refused with a clear message, left exactly as they were ---- */

static void test_db_missing_file_is_not_found_and_not_created(void **state)
{
    fixture *f = *state;
    char *path = test_path(f->folder, "missing.sqlite");
    db_status status;
    db *archive = open_mode(path, DB_OPEN_READ, &status);
    assert_int_equal(status, DB_NOT_FOUND);
    assert_non_null(strstr(db_error(archive), path));
    assert_non_null(strstr(db_error(archive), "no such archive file"));
    assert_int_equal(db_status_exit_code(status), 2);
    db_close(archive);
    assert_int_equal(access(path, F_OK), -1);
    free(path);
}

static void test_db_missing_folder_is_named_and_nothing_is_created(void **state)
{
    fixture *f = *state;
    char *folder = test_path(f->folder, "no-such-folder");
    char *path = test_path(folder, "games.sqlite");
    db_status status;
    db *archive = open_mode(path, DB_OPEN_CREATE, &status);
    assert_int_equal(status, DB_NOT_FOUND);
    assert_non_null(strstr(db_error(archive), "does not exist"));
    assert_non_null(strstr(db_error(archive), folder));
    db_close(archive);
    assert_int_equal(access(folder, F_OK), -1);
    free(path);
    free(folder);
}

static void test_db_file_that_is_not_sqlite_is_refused_untouched(void **state)
{
    fixture *f = *state;
    char *path = test_path(f->folder, "notes.sqlite");
    const char text[] = "These are my notes about last week's game, not a database at all.\n"
                        "They go on for a while so that SQLite reads a whole header's worth.\n";
    test_write_file(path, text, sizeof text - 1);
    for (int mode = DB_OPEN_READ; mode <= DB_OPEN_CREATE; mode++) {
        db_status status;
        db *archive = open_mode(path, (db_open_mode)mode, &status);
        assert_int_equal(status, DB_NOT_ARCHIVE);
        assert_non_null(strstr(db_error(archive), "not a SQLite database"));
        db_close(archive);
        assert_true(test_file_equals(path, text, sizeof text - 1));
    }
    assert_int_equal(test_folder_entries(f->folder), 4); /* games.sqlite, -wal, -shm, notes */
    free(path);
}

static void test_db_another_programs_database_is_refused_untouched(void **state)
{
    fixture *f = *state;
    char *path = test_path(f->folder, "other.sqlite");
    sqlite3 *other;
    assert_int_equal(sqlite3_open(path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "CREATE TABLE recipes (name TEXT); "
                                         "INSERT INTO recipes VALUES ('bread');",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(other);
    size_t size;
    char *before = test_read_file(path, &size);
    db_status status;
    db *archive = open_mode(path, DB_OPEN_CREATE, &status);
    assert_int_equal(status, DB_NOT_ARCHIVE);
    assert_non_null(strstr(db_error(archive), "another program"));
    db_close(archive);
    assert_true(test_file_equals(path, before, size));
    free(before);
    free(path);
}

static void test_db_newer_schema_is_refused_untouched(void **state)
{
    fixture *f = *state;
    db_close(f->archive);
    f->archive = NULL;
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(f->path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    size_t size;
    char *before = test_read_file(f->path, &size);
    for (int mode = DB_OPEN_READ; mode <= DB_OPEN_CREATE; mode++) {
        db_status status;
        db *archive = open_mode(f->path, (db_open_mode)mode, &status);
        assert_int_equal(status, DB_TOO_NEW);
        assert_non_null(strstr(db_error(archive), "schema 99"));
        db_close(archive);
    }
    assert_true(test_file_equals(f->path, before, size));
    free(before);
}

/* Runs in a child that has given up root, since root writes through file permissions. Returns
 * 0 when every expectation held, else the number of the first that failed. */
static int read_only_checks(const char *path)
{
    if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        return 10;
    if (access(path, W_OK) == 0)
        return 11;
    db_status status;
    db *archive = open_mode(path, DB_OPEN_WRITE, &status);
    int failed = status != DB_READ_ONLY ? 1 : !strstr(db_error(archive), "read-only") ? 2 : 0;
    db_close(archive);
    if (failed)
        return failed;
    archive = open_mode(path, DB_OPEN_READ, &status);
    int games = 0;
    failed = status != DB_OK                                           ? 3
             : db_games_foreach(archive, count_games, &games) != DB_OK ? 4
             : games != 1                                              ? 5
                                                                       : 0;
    db_close(archive);
    return failed;
}

static void test_db_read_only_file_reads_but_refuses_writes(void **state)
{
    fixture *f = *state;
    db_close(f->archive);
    f->archive = NULL;
    assert_int_equal(chmod(f->path, 0444), 0);
    size_t size;
    char *before = test_read_file(f->path, &size);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        _exit(read_only_checks(f->path));
    int wstatus;
    assert_int_equal(waitpid(child, &wstatus, 0), child);
    assert_true(WIFEXITED(wstatus));
    assert_int_equal(WEXITSTATUS(wstatus), 0);
    assert_true(test_file_equals(f->path, before, size));
    free(before);
}

static void test_db_locked_archive_reports_busy_and_loses_nothing(void **state)
{
    fixture *f = *state;
    int32_t scores[3] = {1, 2, 3};
    db_event event = db_event_make(DB_EVENT_MOVE, 0, "first");
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_OK);

    /* Another program holds the write lock: an append waits, then gives up whole. */
    sqlite3 *other;
    assert_int_equal(sqlite3_open(f->path, &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_busy_timeout(f->archive->sql, 50);
    event.notation = "second";
    assert_int_equal(db_event_append(f->archive, f->game, &event, scores, NULL), DB_BUSY);
    assert_non_null(strstr(db_error(f->archive), "locked by another program"));
    assert_int_equal(db_status_exit_code(DB_BUSY), 1);
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);

    /* Another program holds the file exclusively (it can only while no one else has it open):
     * opening waits, then says so. */
    db_close(f->archive);
    assert_int_equal(sqlite3_exec(other, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; "
                                         "SELECT count(*) FROM games;",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    db_status status;
    db *second = open_mode(f->path, DB_OPEN_READ, &status);
    assert_int_equal(status, DB_BUSY);
    db_close(second);
    sqlite3_exec(other, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(other);

    f->archive = open_mode(f->path, DB_OPEN_WRITE, &status);
    assert_int_equal(status, DB_OK);
    collected *c = read_events(f->archive, f->game);
    assert_int_equal(c->count, 1);
    assert_string_equal(c->notation[0], "first");
    free(c);
}

static void test_db_folder_given_as_archive_is_refused(void **state)
{
    fixture *f = *state;
    db_status status;
    db *archive = open_mode(f->folder, DB_OPEN_CREATE, &status);
    assert_int_equal(status, DB_BAD_INPUT);
    assert_non_null(strstr(db_error(archive), "is a folder"));
    db_close(archive);
}

/* ---- migrations ---- */

static void load_v1_fixture(const char *path)
{
    char *sql = test_read_file(FIXTURES_DIR "/db/schema-v1.sql", NULL);
    assert_non_null(sql);
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    free(sql);
}

static void test_db_schema_v1_archive_opens_migrated_with_its_games(void **state)
{
    fixture *f = *state;
    for (int mode = DB_OPEN_READ; mode <= DB_OPEN_WRITE; mode++) {
        char name[32];
        snprintf(name, sizeof name, "v1-%d.sqlite", mode);
        char *path = test_path(f->folder, name);
        load_v1_fixture(path);
        db_status status;
        db *archive = open_mode(path, (db_open_mode)mode, &status);
        assert_int_equal(status, DB_OK);
        assert_int_equal(pragma(archive, "user_version"), DB_SCHEMA_VERSION);
        db_game game;
        assert_int_equal(db_game_get(archive, 1, &game), DB_OK);
        assert_string_equal(game.title, "Expedition Luxor");
        assert_string_equal(game.options_json, "{\"expansion\": false}");
        assert_int_equal(game.seat_count, 2);
        assert_string_equal(game.seats[0].seat.name, "Ada");
        assert_int_equal(game.status, DB_GAME_FINISHED);
        assert_int_equal(game.seats[0].final_score, DB_NO_SCORE); /* v1 kept none */
        assert_int_equal(strlen(game.uuid), 36);
        assert_int_equal(game.uuid[14], '4');
        collected *c = read_events(archive, 1);
        assert_int_equal(c->count, 4);
        assert_int_equal(c->kind[2], DB_EVENT_FLAG);
        assert_int_equal(c->seat[2], -1);
        assert_true(c->frame_time[1] == 4.5);
        assert_int_equal(c->scores[3][0], 1);
        free(c);
        db_close(archive);
        free(path);
    }
    /* and the migrated file takes new games */
    char *path = test_path(f->folder, "v1-1.sqlite");
    db_status status;
    db *archive = open_mode(path, DB_OPEN_WRITE, &status);
    assert_int_equal(status, DB_OK);
    int64_t id = create_game(archive, 2);
    assert_int_equal(id, 2);
    db_close(archive);
    free(path);
}

/* ---- exports ---- */

static char *export_sample(fixture *f, db_export_format format, const char *name)
{
    char *sample = test_path(f->folder, "sample.sqlite");
    if (access(sample, F_OK) != 0)
        assert_int_equal(sample_archive_write(sample), 0);
    db_status status;
    db *archive = open_mode(sample, DB_OPEN_READ, &status);
    assert_int_equal(status, DB_OK);
    char *out = test_path(f->folder, name);
    assert_int_equal(db_export(archive, format, NULL, 0, out), DB_OK);
    db_close(archive);
    free(sample);
    return out;
}

static void test_db_export_json_holds_everything(void **state)
{
    fixture *f = *state;
    char *out = export_sample(f, DB_EXPORT_JSON, "all.json");
    json_error_t error;
    json_t *root = json_load_file(out, 0, &error);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "format")), "tablescribe-archive");
    json_t *games = json_object_get(root, "games");
    assert_int_equal(json_array_size(games), 2);
    json_t *game = json_array_get(games, 0);
    assert_string_equal(json_string_value(json_object_get(game, "status")), "finished");
    assert_true(json_is_true(json_object_get(json_object_get(game, "options"), "expansion")));
    json_t *seats = json_object_get(game, "seats");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, 0), "name")), "Zoé");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(seats, 1), "rank")), 1);
    json_t *events = json_object_get(game, "events");
    assert_int_equal(json_array_size(events), SAMPLE_GAME1_EVENTS);
    json_t *flag = json_array_get(events, 2);
    assert_string_equal(json_string_value(json_object_get(flag, "kind")), "flag");
    assert_true(json_is_null(json_object_get(flag, "seat")));
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(flag, "detail"), "reason")),
        "a hand rests on the table");
    json_t *last = json_array_get(events, SAMPLE_GAME1_EVENTS - 1);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(last, "scores"), 2)), 3);
    assert_string_equal(json_string_value(json_object_get(last, "thumbnail_jpeg_hex")),
                        "ffd8ffe00010ffd9");
    json_decref(root);
    free(out);
}

static void test_db_export_bgstats_has_games_players_and_plays(void **state)
{
    fixture *f = *state;
    char *out = export_sample(f, DB_EXPORT_BGSTATS, "plays.bgsplay");
    json_error_t error;
    json_t *root = json_load_file(out, 0, &error);
    assert_non_null(root);
    json_t *games = json_object_get(root, "games"), *players = json_object_get(root, "players"),
           *plays = json_object_get(root, "plays");
    assert_int_equal(json_array_size(games), 2);
    assert_int_equal(json_array_size(players), 5);
    assert_int_equal(json_array_size(plays), 2);
    json_t *play = json_array_get(plays, 0);
    assert_int_equal(json_integer_value(json_object_get(play, "gameRefId")), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(games, 0), "name")),
                        "Expedition Luxor");
    assert_int_equal(strlen(json_string_value(json_object_get(play, "playDate"))), 19);
    json_t *scores = json_object_get(play, "playerScores");
    assert_int_equal(json_array_size(scores), 3);
    json_t *first = json_array_get(scores, 0);
    json_int_t player = json_integer_value(json_object_get(first, "playerRefId"));
    assert_string_equal(
        json_string_value(json_object_get(json_array_get(players, (size_t)player - 1), "name")),
        "Zoé");
    assert_string_equal(json_string_value(json_object_get(first, "score")), "4");
    assert_true(json_is_true(json_object_get(first, "winner")));
    assert_true(json_is_true(json_object_get(json_array_get(scores, 1), "winner")));
    assert_true(json_is_false(json_object_get(json_array_get(scores, 2), "winner")));
    /* the live game is kept but left out of statistics */
    assert_true(json_is_true(json_object_get(json_array_get(plays, 1), "ignored")));
    json_decref(root);
    free(out);
}

static void test_db_export_bgg_xml_parses_with_plays_and_players(void **state)
{
    fixture *f = *state;
    char *out = export_sample(f, DB_EXPORT_BGG_XML, "plays.xml");
    xmlDocPtr doc = xmlReadFile(out, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNodePtr plays = xmlDocGetRootElement(doc);
    assert_string_equal((const char *)plays->name, "plays");
    int play_count = 0, player_count = 0, winners = 0;
    char black_name[128] = "";
    for (xmlNodePtr play = plays->children; play; play = play->next) {
        if (play->type != XML_ELEMENT_NODE)
            continue;
        assert_string_equal((const char *)play->name, "play");
        play_count++;
        for (xmlNodePtr child = play->children; child; child = child->next) {
            if (child->type != XML_ELEMENT_NODE || strcmp((const char *)child->name, "players"))
                continue;
            for (xmlNodePtr player = child->children; player; player = player->next) {
                if (player->type != XML_ELEMENT_NODE)
                    continue;
                assert_string_equal((const char *)player->name, "player");
                player_count++;
                xmlChar *win = xmlGetProp(player, BAD_CAST "win");
                xmlChar *colour = xmlGetProp(player, BAD_CAST "color");
                xmlChar *name = xmlGetProp(player, BAD_CAST "name");
                xmlChar *score = xmlGetProp(player, BAD_CAST "score");
                assert_non_null(score);
                xmlFree(score);
                winners += strcmp((const char *)win, "1") == 0;
                if (strcmp((const char *)colour, "black") == 0)
                    snprintf(black_name, sizeof black_name, "%s", (const char *)name);
                xmlFree(win);
                xmlFree(colour);
                xmlFree(name);
            }
        }
    }
    assert_int_equal(play_count, 2);
    assert_int_equal(player_count, 5);
    assert_int_equal(winners, 2);
    assert_string_equal(black_name, "Bob \"the <builder>\"");
    xmlFreeDoc(doc);
    free(out);
}

typedef struct csv_count {
    int rows, fields_in_row, bad_rows;
    char quoted_notation[64];
} csv_count;

static void csv_on_field(void *data, size_t size, void *context)
{
    csv_count *c = context;
    if (c->fields_in_row == 9 && size < 64 && memchr(data, '"', size)) {
        memcpy(c->quoted_notation, data, size);
        c->quoted_notation[size] = '\0';
    }
    c->fields_in_row++;
}

static void csv_on_row(int terminator, void *context)
{
    (void)terminator;
    csv_count *c = context;
    if (c->fields_in_row != 19)
        c->bad_rows++;
    c->rows++;
    c->fields_in_row = 0;
}

static void test_db_export_csv_has_a_row_per_event(void **state)
{
    fixture *f = *state;
    char *out = export_sample(f, DB_EXPORT_CSV, "events.csv");
    size_t size;
    char *text = test_read_file(out, &size);
    struct csv_parser parser;
    assert_int_equal(csv_init(&parser, CSV_STRICT), 0);
    csv_count count = {0, 0, 0, ""};
    assert_int_equal(csv_parse(&parser, text, size, csv_on_field, csv_on_row, &count), size);
    csv_fini(&parser, csv_on_field, csv_on_row, &count);
    csv_free(&parser);
    assert_int_equal(count.rows, 1 + SAMPLE_GAME1_EVENTS + 1);
    assert_int_equal(count.bad_rows, 0);
    assert_string_equal(count.quoted_notation, "oasis-camp@3,0 x2, \"quoted\"");
    free(text);
    free(out);
}

static void test_db_failed_export_leaves_the_destination_untouched(void **state)
{
    fixture *f = *state;
    char *out = test_path(f->folder, "keep.json");
    test_write_file(out, "old", 3);
    size_t entries = test_folder_entries(f->folder);
    int64_t ids[] = {f->game, 42};
    assert_int_equal(db_export(f->archive, DB_EXPORT_JSON, ids, 2, out), DB_NOT_FOUND);
    assert_non_null(strstr(db_error(f->archive), "no game 42"));
    assert_true(test_file_equals(out, "old", 3));
    assert_int_equal(test_folder_entries(f->folder), entries);

    char *missing = test_path(f->folder, "nowhere/out.json");
    assert_int_equal(db_export(f->archive, DB_EXPORT_JSON, NULL, 0, missing), DB_NOT_FOUND);
    assert_non_null(strstr(db_error(f->archive), missing));
    free(missing);
    free(out);
}

static void test_db_export_format_names_parse(void **state)
{
    (void)state;
    db_export_format format;
    assert_true(db_export_format_parse("bgg-xml", &format));
    assert_int_equal(format, DB_EXPORT_BGG_XML);
    assert_true(db_export_format_parse("bgstats", &format));
    assert_int_equal(format, DB_EXPORT_BGSTATS);
    assert_false(db_export_format_parse("xml", &format));
    assert_false(db_export_format_parse("", &format));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        TEST(test_db_write_handle_uses_wal_full_sync_and_foreign_keys),
        TEST(test_db_events_read_back_in_order_with_scores_and_evidence),
        TEST(test_db_undo_is_an_event_and_deletes_nothing),
        TEST(test_db_bad_events_are_refused_and_store_nothing),
        TEST(test_db_bad_games_are_refused_and_create_nothing),
        TEST(test_db_finish_records_final_scores_and_ranks_once),
        TEST(test_db_games_are_listed_in_id_order),
        TEST(test_db_damaged_scores_are_reported_not_misread),
        TEST(test_db_missing_file_is_not_found_and_not_created),
        TEST(test_db_missing_folder_is_named_and_nothing_is_created),
        TEST(test_db_file_that_is_not_sqlite_is_refused_untouched),
        TEST(test_db_another_programs_database_is_refused_untouched),
        TEST(test_db_newer_schema_is_refused_untouched),
        TEST(test_db_read_only_file_reads_but_refuses_writes),
        TEST(test_db_locked_archive_reports_busy_and_loses_nothing),
        TEST(test_db_folder_given_as_archive_is_refused),
        TEST(test_db_schema_v1_archive_opens_migrated_with_its_games),
        TEST(test_db_export_json_holds_everything),
        TEST(test_db_export_bgstats_has_games_players_and_plays),
        TEST(test_db_export_bgg_xml_parses_with_plays_and_players),
        TEST(test_db_export_csv_has_a_row_per_event),
        TEST(test_db_failed_export_leaves_the_destination_untouched),
        TEST(test_db_export_format_names_parse),
#undef TEST
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
