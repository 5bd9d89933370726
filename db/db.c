/*
 * The archive: opening and checking the file, games, events.
 *
 * Every statement is prepared with bound parameters; every write is one transaction, rolled
 * back whole on any failure, so that a function that fails leaves the file as it was.
 */
#include "db_internal.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <uuid/uuid.h>

/* ---- status and errors ---- */

const char *db_status_message(db_status status)
{
    switch (status) {
#define DB_STATUS_MESSAGE(name, exit_class, message) \
    case name:                                       \
        return message;
        DB_STATUS_TABLE(DB_STATUS_MESSAGE)
#undef DB_STATUS_MESSAGE
    }
    return "unknown status";
}

int db_status_exit_code(db_status status)
{
    switch (status) {
#define DB_STATUS_EXIT(name, exit_class, message) \
    case name:                                    \
        return exit_class;
        DB_STATUS_TABLE(DB_STATUS_EXIT)
#undef DB_STATUS_EXIT
    }
    return 1;
}

db_status db_fail(db *archive, db_status status, const char *format, ...)
{
    int n = snprintf(archive->error, sizeof archive->error, "%s: ",
                     archive->path ? archive->path : "archive");
    if (n < 0 || (size_t)n >= sizeof archive->error)
        n = 0;
    va_list args;
    va_start(args, format);
    vsnprintf(archive->error + n, sizeof archive->error - (size_t)n, format, args);
    va_end(args);
    return status;
}

db_status db_fail_sqlite(db *archive, int rc, const char *doing)
{
    const char *detail = archive->sql ? sqlite3_errmsg(archive->sql) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return db_fail(archive, DB_BUSY, "%s: the archive is locked by another program", doing);
    case SQLITE_READONLY:
        return db_fail(archive, DB_READ_ONLY, "%s: the archive is read-only", doing);
    case SQLITE_NOTADB:
        return db_fail(archive, DB_NOT_ARCHIVE, "not a SQLite database");
    case SQLITE_CORRUPT:
        return db_fail(archive, DB_IO, "%s: the file is damaged (%s)", doing, detail);
    case SQLITE_FULL:
        return db_fail(archive, DB_IO, "%s: the disk is full", doing);
    case SQLITE_NOMEM:
        return db_fail(archive, DB_NOMEM, "%s: out of memory", doing);
    case SQLITE_CANTOPEN:
        return db_fail(archive, DB_IO, "%s: cannot open the file (%s)", doing, detail);
    default:
        return db_fail(archive, DB_IO, "%s: %s", doing, detail);
    }
}

const char *db_error(const db *archive)
{
    if (!archive)
        return "out of memory";
    return archive->error[0] ? archive->error : "no error";
}

const char *db_path(const db *archive) { return archive->path; }

/* ---- small helpers ---- */

static int64_t now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void db_format_time(int64_t ms, bool utc, char *out, size_t size)
{
    time_t seconds = (time_t)(ms / 1000);
    struct tm tm;
    if (utc) {
        gmtime_r(&seconds, &tm);
        char base[32];
        strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
        snprintf(out, size, "%s.%03dZ", base, (int)(ms % 1000));
    } else {
        localtime_r(&seconds, &tm);
        strftime(out, size, "%Y-%m-%d %H:%M:%S", &tm);
    }
}

db_status db_pragma_int(db *archive, const char *pragma, int *value)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA %s", pragma);
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(archive->sql, sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) {
            *value = sqlite3_column_int(stmt, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_OK ? DB_OK : db_fail_sqlite(archive, rc, "reading the archive");
}

static db_status exec(db *archive, const char *sql, const char *doing)
{
    int rc = sqlite3_exec(archive->sql, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? DB_OK : db_fail_sqlite(archive, rc, doing);
}

static db_status prepare(db *archive, const char *sql, sqlite3_stmt **stmt)
{
    int rc = sqlite3_prepare_v2(archive->sql, sql, -1, stmt, NULL);
    return rc == SQLITE_OK ? DB_OK : db_fail_sqlite(archive, rc, "reading the archive");
}

/* Ends a write transaction: COMMIT when status is DB_OK, otherwise ROLLBACK; returns the
 * first failure. */
static db_status finish_transaction(db *archive, db_status status, const char *doing)
{
    if (status == DB_OK) {
        int rc = sqlite3_exec(archive->sql, "COMMIT", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return DB_OK;
        status = db_fail_sqlite(archive, rc, doing);
    }
    sqlite3_exec(archive->sql, "ROLLBACK", NULL, NULL, NULL);
    return status;
}

static bool is_json_object(const char *text)
{
    json_error_t error;
    json_t *value = json_loads(text, JSON_REJECT_DUPLICATES, &error);
    bool ok = value && json_is_object(value);
    json_decref(value);
    return ok;
}

/* ---- opening ---- */

void db_config_default(db_config *config)
{
    config->mode = DB_OPEN_READ;
    config->busy_timeout_ms = 5000;
}

/* Checks what is at path before SQLite touches it, so that a missing folder or file is named
 * plainly and nothing is created where the user did not mean it. */
static db_status check_path(db *archive, db_open_mode mode)
{
    struct stat info;
    if (stat(archive->path, &info) == 0) {
        if (S_ISDIR(info.st_mode))
            return db_fail(archive, DB_BAD_INPUT, "is a folder, not an archive file");
        return DB_OK;
    }
    if (errno != ENOENT)
        return db_fail(archive, DB_IO, "%s", strerror(errno));
    if (mode != DB_OPEN_CREATE)
        return db_fail(archive, DB_NOT_FOUND, "no such archive file");

    char folder[4096];
    snprintf(folder, sizeof folder, "%s", archive->path);
    char *slash = strrchr(folder, '/');
    if (!slash)
        return DB_OK; /* the current folder */
    if (slash == folder)
        slash[1] = '\0';
    else
        *slash = '\0';
    if (stat(folder, &info) != 0 || !S_ISDIR(info.st_mode))
        return db_fail(archive, DB_NOT_FOUND, "the folder %s does not exist", folder);
    return DB_OK;
}

/* Reads the header fields that say whose file this is, before anything is written to it. */
static db_status check_identity(db *archive, int *version)
{
    int application_id = 0, tables = 0;
    db_status status = db_pragma_int(archive, "application_id", &application_id);
    if (status != DB_OK)
        return status;
    if ((status = db_pragma_int(archive, "user_version", version)) != DB_OK)
        return status;

    sqlite3_stmt *stmt = NULL;
    if ((status = prepare(archive, "SELECT count(*) FROM sqlite_master", &stmt)) != DB_OK)
        return status;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
        tables = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW)
        return db_fail_sqlite(archive, rc, "reading the archive");

    bool empty = application_id == 0 && tables == 0 && *version == 0;
    if (!empty && application_id != DB_APPLICATION_ID)
        return db_fail(archive, DB_NOT_ARCHIVE,
                       "a SQLite database of another program, not a tablescribe archive");
    if (*version > DB_SCHEMA_VERSION)
        return db_fail(archive, DB_TOO_NEW,
                       "written by a newer tablescribe (schema %d; this build reads up to %d)",
                       *version, DB_SCHEMA_VERSION);
    return DB_OK;
}

db_status db_open(const char *path, const db_config *config, db **out)
{
    db_config defaults;
    if (!config) {
        db_config_default(&defaults);
        config = &defaults;
    }
    db *archive = calloc(1, sizeof *archive);
    *out = archive;
    if (!archive)
        return DB_NOMEM;
    if (!(archive->path = strdup(path)))
        return db_fail(archive, DB_NOMEM, "out of memory");

    db_status status = check_path(archive, config->mode);
    if (status != DB_OK)
        return status;

    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (config->mode == DB_OPEN_CREATE)
        flags |= SQLITE_OPEN_CREATE;
    int rc = sqlite3_open_v2(path, &archive->sql, flags, NULL);
    if (rc != SQLITE_OK)
        return db_fail_sqlite(archive, rc, "opening");
    sqlite3_extended_result_codes(archive->sql, 1);
    sqlite3_busy_timeout(archive->sql, config->busy_timeout_ms);

    int version = 0;
    if ((status = check_identity(archive, &version)) != DB_OK)
        return status;

    /* SQLite falls back to read-only quietly when the file is not writable. */
    bool writable = !sqlite3_db_readonly(archive->sql, "main");
    if (!writable && (config->mode != DB_OPEN_READ || version < DB_SCHEMA_VERSION)) {
        if (version < DB_SCHEMA_VERSION && config->mode == DB_OPEN_READ)
            return db_fail(archive, DB_READ_ONLY,
                           "schema %d must be upgraded to %d, but the file is read-only",
                           version, DB_SCHEMA_VERSION);
        return db_fail(archive, DB_READ_ONLY, "the archive is read-only (no permission to write)");
    }

    if ((status = exec(archive, "PRAGMA foreign_keys = ON", "opening")) != DB_OK)
        return status;
    if (writable) {
        /* WAL lets readers (the live page, `tablescribe games`) read while a game is written;
         * FULL makes every committed event survive a power cut, not only a crash. */
        if ((status = exec(archive, "PRAGMA journal_mode = WAL", "opening")) != DB_OK ||
            (status = exec(archive, "PRAGMA synchronous = FULL", "opening")) != DB_OK)
            return status;
    }
    if (version < DB_SCHEMA_VERSION && (status = db_schema_migrate(archive, version)) != DB_OK)
        return status;
    if (config->mode == DB_OPEN_READ)
        return exec(archive, "PRAGMA query_only = ON", "opening");
    return DB_OK;
}

void db_close(db *archive)
{
    if (!archive)
        return;
    sqlite3_close_v2(archive->sql); /* accepts NULL */
    free(archive->path);
    free(archive);
}

/* ---- games ---- */

static db_status check_new_game(db *archive, const db_new_game *game)
{
    if (!game->game || !*game->game || strlen(game->game) >= DB_GAME_ID_MAX)
        return db_fail(archive, DB_BAD_INPUT, "a game needs a rules id of 1 to %d bytes",
                       DB_GAME_ID_MAX - 1);
    if (!game->title || !*game->title || strlen(game->title) >= DB_TITLE_MAX)
        return db_fail(archive, DB_BAD_INPUT, "a game needs a title of 1 to %d bytes",
                       DB_TITLE_MAX - 1);
    if (game->options_json && (strlen(game->options_json) >= DB_OPTIONS_MAX ||
                               !is_json_object(game->options_json)))
        return db_fail(archive, DB_BAD_INPUT, "the game's options must be a JSON object under %d bytes",
                       DB_OPTIONS_MAX);
    if (game->profile && strlen(game->profile) >= DB_PROFILE_MAX)
        return db_fail(archive, DB_BAD_INPUT, "the profile path is longer than %d bytes",
                       DB_PROFILE_MAX - 1);
    if (game->seat_count < 1 || game->seat_count > DB_MAX_SEATS)
        return db_fail(archive, DB_BAD_INPUT, "a game has 1 to %d seats, not %d", DB_MAX_SEATS,
                       game->seat_count);
    for (int i = 0; i < game->seat_count; i++) {
        const db_seat *seat = &game->seats[i];
        if (!memchr(seat->colour, '\0', sizeof seat->colour) || !seat->colour[0])
            return db_fail(archive, DB_BAD_INPUT, "seat %d needs a colour", i);
        if (!memchr(seat->name, '\0', sizeof seat->name))
            return db_fail(archive, DB_BAD_INPUT, "seat %d: the name is too long", i);
        for (int j = 0; j < i; j++)
            if (strcmp(seat->colour, game->seats[j].colour) == 0)
                return db_fail(archive, DB_BAD_INPUT, "two seats have the colour %s",
                               seat->colour);
    }
    return DB_OK;
}

db_status db_game_create(db *archive, const db_new_game *game, int64_t *game_id)
{
    db_status status = check_new_game(archive, game);
    if (status != DB_OK)
        return status;

    uuid_t uuid;
    char uuid_text[37];
    uuid_generate_random(uuid);
    uuid_unparse_lower(uuid, uuid_text);

    if ((status = exec(archive, "BEGIN IMMEDIATE", "creating a game")) != DB_OK)
        return status;
    sqlite3_stmt *insert_game = NULL, *insert_seat = NULL;
    int rc = sqlite3_prepare_v2(archive->sql,
                                "INSERT INTO games (game, title, options, profile, started_ms, "
                                "status, uuid) VALUES (?, ?, ?, ?, ?, 'live', ?)",
                                -1, &insert_game, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(archive->sql,
                                "INSERT INTO seats (game_id, seat, colour, name) "
                                "VALUES (?, ?, ?, ?)",
                                -1, &insert_seat, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(insert_game, 1, game->game, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert_game, 2, game->title, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert_game, 3, game->options_json ? game->options_json : "{}", -1,
                          SQLITE_STATIC);
        if (game->profile)
            sqlite3_bind_text(insert_game, 4, game->profile, -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert_game, 5, game->started_ms ? game->started_ms : now_ms());
        sqlite3_bind_text(insert_game, 6, uuid_text, -1, SQLITE_STATIC);
        rc = sqlite3_step(insert_game);
        if (rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    int64_t id = sqlite3_last_insert_rowid(archive->sql);
    for (int i = 0; rc == SQLITE_OK && i < game->seat_count; i++) {
        sqlite3_reset(insert_seat);
        sqlite3_bind_int64(insert_seat, 1, id);
        sqlite3_bind_int(insert_seat, 2, i);
        sqlite3_bind_text(insert_seat, 3, game->seats[i].colour, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert_seat, 4, game->seats[i].name, -1, SQLITE_STATIC);
        rc = sqlite3_step(insert_seat);
        if (rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK)
        status = db_fail_sqlite(archive, rc, "creating a game");
    sqlite3_finalize(insert_game);
    sqlite3_finalize(insert_seat);
    status = finish_transaction(archive, status, "creating a game");
    if (status == DB_OK && game_id)
        *game_id = id;
    return status;
}

static void copy_text(char *out, size_t size, const unsigned char *text)
{
    snprintf(out, size, "%s", text ? (const char *)text : "");
}

/* The columns read_game expects, in order; id is bound by the caller's WHERE. */
#define GAME_COLUMNS                                                                         \
    "g.id, g.uuid, g.game, g.title, g.options, g.profile, g.started_ms, g.finished_ms, "     \
    "g.status, (SELECT count(*) FROM events e WHERE e.game_id = g.id), "                     \
    "(SELECT max(at_ms) FROM events e WHERE e.game_id = g.id)"

/* Fills the game's columns from a row of GAME_COLUMNS, then its seats. */
static db_status read_game(db *archive, sqlite3_stmt *row, db_game *game)
{
    memset(game, 0, sizeof *game);
    game->id = sqlite3_column_int64(row, 0);
    copy_text(game->uuid, sizeof game->uuid, sqlite3_column_text(row, 1));
    copy_text(game->game, sizeof game->game, sqlite3_column_text(row, 2));
    copy_text(game->title, sizeof game->title, sqlite3_column_text(row, 3));
    copy_text(game->options_json, sizeof game->options_json, sqlite3_column_text(row, 4));
    copy_text(game->profile, sizeof game->profile, sqlite3_column_text(row, 5));
    game->started_ms = sqlite3_column_int64(row, 6);
    game->finished_ms = sqlite3_column_int64(row, 7);
    const unsigned char *status_text = sqlite3_column_text(row, 8);
    game->status = status_text && strcmp((const char *)status_text, "finished") == 0
                       ? DB_GAME_FINISHED
                       : DB_GAME_LIVE;
    game->event_count = sqlite3_column_int64(row, 9);
    game->last_event_ms = sqlite3_column_int64(row, 10);

    sqlite3_stmt *seats = NULL;
    db_status status = prepare(archive,
                               "SELECT s.seat, s.colour, s.name, s.final_score, s.rank, "
                               "  (SELECT sc.score FROM events e JOIN event_scores sc"
                               "     ON sc.event_id = e.id AND sc.seat = s.seat"
                               "   WHERE e.game_id = s.game_id ORDER BY e.seq DESC LIMIT 1) "
                               "FROM seats s WHERE s.game_id = ? ORDER BY s.seat",
                               &seats);
    if (status != DB_OK)
        return status;
    sqlite3_bind_int64(seats, 1, game->id);
    int rc;
    while ((rc = sqlite3_step(seats)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(seats, 0);
        if (seat != game->seat_count || seat >= DB_MAX_SEATS) {
            sqlite3_finalize(seats);
            return db_fail(archive, DB_IO, "game %lld: its seats are not numbered 0, 1, ...",
                           (long long)game->id);
        }
        copy_text(game->seats[seat].seat.colour, DB_COLOUR_MAX, sqlite3_column_text(seats, 1));
        copy_text(game->seats[seat].seat.name, DB_NAME_MAX, sqlite3_column_text(seats, 2));
        game->seats[seat].final_score = sqlite3_column_type(seats, 3) == SQLITE_NULL
                                            ? DB_NO_SCORE
                                            : sqlite3_column_int(seats, 3);
        game->seats[seat].rank = sqlite3_column_type(seats, 4) == SQLITE_NULL
                                     ? DB_NO_SCORE
                                     : sqlite3_column_int(seats, 4);
        game->seats[seat].score = sqlite3_column_int(seats, 5);
        game->seat_count++;
    }
    sqlite3_finalize(seats);
    return rc == SQLITE_DONE ? DB_OK : db_fail_sqlite(archive, rc, "reading the seats");
}

/* Reads one game inside the caller's read transaction. */
static db_status get_game(db *archive, int64_t game_id, db_game *game)
{
    sqlite3_stmt *stmt = NULL;
    db_status status = prepare(archive, "SELECT " GAME_COLUMNS " FROM games g WHERE g.id = ?",
                               &stmt);
    if (status != DB_OK)
        return status;
    sqlite3_bind_int64(stmt, 1, game_id);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
        status = read_game(archive, stmt, game);
    else if (rc == SQLITE_DONE)
        status = db_fail(archive, DB_NOT_FOUND, "no game %lld", (long long)game_id);
    else
        status = db_fail_sqlite(archive, rc, "reading a game");
    sqlite3_finalize(stmt);
    return status;
}

db_status db_read_begin(db *archive, bool *started)
{
    *started = sqlite3_get_autocommit(archive->sql) != 0;
    return *started ? exec(archive, "BEGIN", "reading the archive") : DB_OK;
}

void db_read_end(db *archive, bool started)
{
    if (started)
        sqlite3_exec(archive->sql, "COMMIT", NULL, NULL, NULL);
}

db_status db_game_get(db *archive, int64_t game_id, db_game *game)
{
    bool started;
    db_status status = db_read_begin(archive, &started);
    if (status != DB_OK)
        return status;
    status = get_game(archive, game_id, game);
    db_read_end(archive, started);
    return status;
}

db_status db_games_foreach(db *archive, db_game_fn fn, void *context)
{
    bool started;
    db_status status = db_read_begin(archive, &started);
    if (status != DB_OK)
        return status;
    sqlite3_stmt *stmt = NULL;
    status = prepare(archive, "SELECT " GAME_COLUMNS " FROM games g ORDER BY g.id", &stmt);
    db_game *game = malloc(sizeof *game);
    if (status == DB_OK && !game)
        status = db_fail(archive, DB_NOMEM, "out of memory");
    int rc = SQLITE_ROW;
    while (status == DB_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        status = read_game(archive, stmt, game);
        if (status == DB_OK && fn(context, game))
            break;
    }
    if (status == DB_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
        status = db_fail_sqlite(archive, rc, "listing games");
    free(game);
    sqlite3_finalize(stmt);
    db_read_end(archive, started);
    return status;
}

db_status db_game_finish(db *archive, int64_t game_id, const int32_t *final_scores,
                         const int32_t *ranks)
{
    db_status status = exec(archive, "BEGIN IMMEDIATE", "finishing a game");
    if (status != DB_OK)
        return status;
    db_game *game = malloc(sizeof *game);
    if (!game)
        status = db_fail(archive, DB_NOMEM, "out of memory");
    else
        status = get_game(archive, game_id, game);
    if (status == DB_OK && game->status == DB_GAME_FINISHED)
        status = db_fail(archive, DB_BAD_INPUT, "game %lld is already finished",
                         (long long)game_id);
    for (int i = 0; status == DB_OK && i < game->seat_count; i++)
        if (ranks[i] < 1 || ranks[i] > game->seat_count)
            status = db_fail(archive, DB_BAD_INPUT, "seat %d: rank %d is not 1 to %d", i,
                             (int)ranks[i], game->seat_count);

    sqlite3_stmt *seat_stmt = NULL, *game_stmt = NULL;
    if (status == DB_OK)
        status = prepare(archive,
                         "UPDATE seats SET final_score = ?, rank = ? WHERE game_id = ? AND seat = ?",
                         &seat_stmt);
    if (status == DB_OK)
        status = prepare(archive,
                         "UPDATE games SET status = 'finished', finished_ms = ? WHERE id = ?",
                         &game_stmt);
    for (int i = 0; status == DB_OK && i < game->seat_count; i++) {
        sqlite3_reset(seat_stmt);
        sqlite3_bind_int(seat_stmt, 1, final_scores[i]);
        sqlite3_bind_int(seat_stmt, 2, ranks[i]);
        sqlite3_bind_int64(seat_stmt, 3, game_id);
        sqlite3_bind_int(seat_stmt, 4, i);
        int rc = sqlite3_step(seat_stmt);
        if (rc != SQLITE_DONE)
            status = db_fail_sqlite(archive, rc, "finishing a game");
    }
    if (status == DB_OK) {
        sqlite3_bind_int64(game_stmt, 1, now_ms());
        sqlite3_bind_int64(game_stmt, 2, game_id);
        int rc = sqlite3_step(game_stmt);
        if (rc != SQLITE_DONE)
            status = db_fail_sqlite(archive, rc, "finishing a game");
    }
    sqlite3_finalize(seat_stmt);
    sqlite3_finalize(game_stmt);
    free(game);
    return finish_transaction(archive, status, "finishing a game");
}

/* ---- events ---- */

static const char *const event_kind_names[] = {
    [DB_EVENT_MOVE] = "move",
    [DB_EVENT_FLAG] = "flag",
    [DB_EVENT_CORRECTION] = "correction",
    [DB_EVENT_UNDO] = "undo",
    [DB_EVENT_HIDDEN] = "hidden",
};

const char *db_event_kind_name(db_event_kind kind)
{
    if ((unsigned)kind < sizeof event_kind_names / sizeof event_kind_names[0])
        return event_kind_names[kind];
    return "unknown";
}

static bool event_kind_parse(const char *name, db_event_kind *kind)
{
    for (size_t i = 0; i < sizeof event_kind_names / sizeof event_kind_names[0]; i++)
        if (strcmp(event_kind_names[i], name) == 0) {
            *kind = (db_event_kind)i;
            return true;
        }
    return false;
}

db_event db_event_make(db_event_kind kind, int seat, const char *notation)
{
    return (db_event){
        .kind = kind,
        .seat = seat,
        .notation = notation,
        .frame_time = NAN,
        .confidence = NAN,
    };
}

static db_status check_event(db *archive, const db_event *event)
{
    if ((unsigned)event->kind >= sizeof event_kind_names / sizeof event_kind_names[0])
        return db_fail(archive, DB_BAD_INPUT, "unknown event kind %d", (int)event->kind);
    if (event->detail_json && !is_json_object(event->detail_json))
        return db_fail(archive, DB_BAD_INPUT, "an event's detail must be a JSON object");
    if (!isnan(event->confidence) && !(event->confidence >= 0 && event->confidence <= 1))
        return db_fail(archive, DB_BAD_INPUT, "confidence %g is not between 0 and 1",
                       event->confidence);
    if (!isnan(event->frame_time) && !isfinite(event->frame_time))
        return db_fail(archive, DB_BAD_INPUT, "the frame time is not a number");
    if (event->thumbnail_size > 0 && !event->thumbnail_jpeg)
        return db_fail(archive, DB_BAD_INPUT, "a thumbnail size without its image");
    if (event->thumbnail_size > 0 && event->thumbnail_size > INT32_MAX)
        return db_fail(archive, DB_BAD_INPUT, "the thumbnail is too large");
    return DB_OK;
}

/* The statements of one append; each is prepared for the call (SQLite's cache of parsed
 * schema makes that a few microseconds, and the handle stays free of cached state). */
db_status db_event_append(db *archive, int64_t game_id, const db_event *event,
                          const int32_t *scores, int64_t *seq_out)
{
    db_status status = check_event(archive, event);
    if (status != DB_OK)
        return status;
    if ((status = exec(archive, "BEGIN IMMEDIATE", "appending an event")) != DB_OK)
        return status;

    sqlite3_stmt *game_stmt = NULL, *event_stmt = NULL, *score_stmt = NULL, *thumb_stmt = NULL;
    int seat_count = 0;
    int64_t seq = 0;
    status = prepare(archive,
                     "SELECT g.status, (SELECT count(*) FROM seats s WHERE s.game_id = g.id),"
                     "  (SELECT coalesce(max(seq), 0) + 1 FROM events e WHERE e.game_id = g.id) "
                     "FROM games g WHERE g.id = ?",
                     &game_stmt);
    if (status == DB_OK) {
        sqlite3_bind_int64(game_stmt, 1, game_id);
        int rc = sqlite3_step(game_stmt);
        if (rc == SQLITE_ROW) {
            const char *game_status = (const char *)sqlite3_column_text(game_stmt, 0);
            seat_count = sqlite3_column_int(game_stmt, 1);
            seq = sqlite3_column_int64(game_stmt, 2);
            if (!game_status || strcmp(game_status, "live") != 0)
                status = db_fail(archive, DB_BAD_INPUT,
                                 "game %lld is finished: no event can be added",
                                 (long long)game_id);
        } else if (rc == SQLITE_DONE) {
            status = db_fail(archive, DB_NOT_FOUND, "no game %lld", (long long)game_id);
        } else {
            status = db_fail_sqlite(archive, rc, "appending an event");
        }
    }
    if (status == DB_OK && (event->seat < -1 || event->seat >= seat_count))
        status = db_fail(archive, DB_BAD_INPUT, "game %lld has no seat %d", (long long)game_id,
                         event->seat);

    if (status == DB_OK)
        status = prepare(archive,
                         "INSERT INTO events (game_id, seq, at_ms, kind, seat, notation, detail,"
                         " frame_time, confidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         &event_stmt);
    if (status == DB_OK) {
        sqlite3_bind_int64(event_stmt, 1, game_id);
        sqlite3_bind_int64(event_stmt, 2, seq);
        sqlite3_bind_int64(event_stmt, 3, event->at_ms ? event->at_ms : now_ms());
        sqlite3_bind_text(event_stmt, 4, db_event_kind_name(event->kind), -1, SQLITE_STATIC);
        if (event->seat >= 0)
            sqlite3_bind_int(event_stmt, 5, event->seat);
        sqlite3_bind_text(event_stmt, 6, event->notation ? event->notation : "", -1,
                          SQLITE_STATIC);
        sqlite3_bind_text(event_stmt, 7, event->detail_json ? event->detail_json : "{}", -1,
                          SQLITE_STATIC);
        if (!isnan(event->frame_time))
            sqlite3_bind_double(event_stmt, 8, event->frame_time);
        if (!isnan(event->confidence))
            sqlite3_bind_double(event_stmt, 9, event->confidence);
        int rc = sqlite3_step(event_stmt);
        if (rc != SQLITE_DONE)
            status = db_fail_sqlite(archive, rc, "appending an event");
    }
    int64_t event_id = sqlite3_last_insert_rowid(archive->sql);

    if (status == DB_OK)
        status = prepare(archive, "INSERT INTO event_scores (event_id, seat, score) VALUES (?, ?, ?)",
                         &score_stmt);
    for (int i = 0; status == DB_OK && i < seat_count; i++) {
        sqlite3_reset(score_stmt);
        sqlite3_bind_int64(score_stmt, 1, event_id);
        sqlite3_bind_int(score_stmt, 2, i);
        sqlite3_bind_int(score_stmt, 3, scores[i]);
        int rc = sqlite3_step(score_stmt);
        if (rc != SQLITE_DONE)
            status = db_fail_sqlite(archive, rc, "appending an event");
    }

    if (status == DB_OK && event->thumbnail_size > 0) {
        status = prepare(archive, "INSERT INTO event_thumbnails (event_id, jpeg) VALUES (?, ?)",
                         &thumb_stmt);
        if (status == DB_OK) {
            sqlite3_bind_int64(thumb_stmt, 1, event_id);
            sqlite3_bind_blob(thumb_stmt, 2, event->thumbnail_jpeg, (int)event->thumbnail_size,
                              SQLITE_STATIC);
            int rc = sqlite3_step(thumb_stmt);
            if (rc != SQLITE_DONE)
                status = db_fail_sqlite(archive, rc, "appending an event");
        }
    }
    sqlite3_finalize(game_stmt);
    sqlite3_finalize(event_stmt);
    sqlite3_finalize(score_stmt);
    sqlite3_finalize(thumb_stmt);
    status = finish_transaction(archive, status, "appending an event");
    if (status == DB_OK && seq_out)
        *seq_out = seq;
    return status;
}

db_status db_events_foreach(db *archive, int64_t game_id, db_event_fn fn, void *context)
{
    bool started;
    db_status status = db_read_begin(archive, &started);
    if (status != DB_OK)
        return status;
    db_game *game = malloc(sizeof *game);
    if (!game)
        status = db_fail(archive, DB_NOMEM, "out of memory");
    else
        status = get_game(archive, game_id, game);

    /* The scores come as one row per event through a join on (event, seat), so the loop
     * gathers a game's seat_count rows into one event. */
    sqlite3_stmt *stmt = NULL;
    if (status == DB_OK)
        status = prepare(archive,
                         "SELECT e.seq, e.at_ms, e.kind, e.seat, e.notation, e.detail,"
                         " e.frame_time, e.confidence, t.jpeg, s.seat, s.score "
                         "FROM events e "
                         "JOIN event_scores s ON s.event_id = e.id "
                         "LEFT JOIN event_thumbnails t ON t.event_id = e.id "
                         "WHERE e.game_id = ? ORDER BY e.seq, s.seat",
                         &stmt);
    if (status == DB_OK)
        sqlite3_bind_int64(stmt, 1, game_id);

    int32_t scores[DB_MAX_SEATS];
    int rc = SQLITE_DONE;
    int64_t group_seq = 0;
    while (status == DB_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        /* Appends store all of an event's scores or none, so rows come as seats 0..n-1 of one
         * seq; anything else means the file was changed behind the archive's back. */
        int seat = sqlite3_column_int(stmt, 9);
        int64_t row_seq = sqlite3_column_int64(stmt, 0);
        if (seat == 0)
            group_seq = row_seq;
        if (seat < 0 || seat >= game->seat_count || row_seq != group_seq) {
            status = db_fail(archive, DB_IO, "game %lld, event %lld: its scores are damaged",
                             (long long)game_id, (long long)row_seq);
            break;
        }
        scores[seat] = sqlite3_column_int(stmt, 10);
        if (seat != game->seat_count - 1)
            continue;

        db_event event = db_event_make(DB_EVENT_MOVE, -1, NULL);
        event.seq = sqlite3_column_int64(stmt, 0);
        event.at_ms = sqlite3_column_int64(stmt, 1);
        const char *kind = (const char *)sqlite3_column_text(stmt, 2);
        if (!kind || !event_kind_parse(kind, &event.kind)) {
            status = db_fail(archive, DB_IO, "game %lld, event %lld: unknown kind",
                             (long long)game_id, (long long)event.seq);
            break;
        }
        if (sqlite3_column_type(stmt, 3) != SQLITE_NULL)
            event.seat = sqlite3_column_int(stmt, 3);
        event.notation = (const char *)sqlite3_column_text(stmt, 4);
        event.detail_json = (const char *)sqlite3_column_text(stmt, 5);
        if (sqlite3_column_type(stmt, 6) != SQLITE_NULL)
            event.frame_time = sqlite3_column_double(stmt, 6);
        if (sqlite3_column_type(stmt, 7) != SQLITE_NULL)
            event.confidence = sqlite3_column_double(stmt, 7);
        if (sqlite3_column_type(stmt, 8) != SQLITE_NULL) {
            event.thumbnail_jpeg = sqlite3_column_blob(stmt, 8);
            event.thumbnail_size = (size_t)sqlite3_column_bytes(stmt, 8);
        }
        if (fn(context, &event, scores))
            break;
    }
    if (status == DB_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
        status = db_fail_sqlite(archive, rc, "reading events");
    sqlite3_finalize(stmt);
    free(game);
    db_read_end(archive, started);
    return status;
}
