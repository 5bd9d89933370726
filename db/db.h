/*
 * db: the games archive, one SQLite file people trust with their evenings and clubs' history.
 *
 *   games ──< seats              a game: its rules id, options, profile, seats (colour, name)
 *     │
 *     └───< events ──< event_scores       every move, flag, correction, undo and hidden-
 *              │                           information entry, numbered 1, 2, ... per game, with
 *              └── event_thumbnails        the running score of every seat after it, and its
 *                                          evidence (frame time, confidence, JPEG thumbnail)
 *
 * The archive knows game ids, seats and events, never rules: the caller computes scores.
 *
 * Durability: WAL, synchronous=FULL, one transaction per event. An event is either stored whole
 * (row, scores, thumbnail) or not at all, even if the process is killed mid-append. An undo is an
 * event, never a deletion: nothing here deletes or rewrites a stored event.
 *
 * Errors: every function returns a db_status; the handle keeps the last error's detail, naming
 * the file and the problem ("games.sqlite: not a SQLite database"), read with db_error(). A
 * failing function leaves the archive as it was.
 */
#ifndef TS_DB_H
#define TS_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The schema version this build writes; PRAGMA user_version holds the file's own. */
#define DB_SCHEMA_VERSION 2

#define DB_MAX_SEATS 6
#define DB_COLOUR_MAX 32   /* bytes, including the terminating NUL */
#define DB_NAME_MAX 64
#define DB_GAME_ID_MAX 32
#define DB_TITLE_MAX 96
#define DB_PROFILE_MAX 1024
#define DB_OPTIONS_MAX 1024

/* X(name, exit class, message). The exit class is what the command does with it: 2 for input
 * the user can fix (a wrong path, a file that is not an archive), 1 for other failures. */
#define DB_STATUS_TABLE(X)                                                        \
    X(DB_OK, 0, "ok")                                                             \
    X(DB_BAD_INPUT, 2, "bad input")                                               \
    X(DB_NOT_FOUND, 2, "not found")                                               \
    X(DB_NOT_ARCHIVE, 2, "not a tablescribe archive")                             \
    X(DB_TOO_NEW, 2, "written by a newer tablescribe")                            \
    X(DB_READ_ONLY, 2, "read-only")                                               \
    X(DB_BUSY, 1, "locked by another program")                                    \
    X(DB_IO, 1, "input/output error")                                             \
    X(DB_NOMEM, 1, "out of memory")

typedef enum {
#define DB_STATUS_ENUM(name, exit_class, message) name,
    DB_STATUS_TABLE(DB_STATUS_ENUM)
#undef DB_STATUS_ENUM
} db_status;

/* The status's short message ("locked by another program"). Static storage. */
const char *db_status_message(db_status status);

/* The command's exit status for a failure with this status: 0 (DB_OK), 2 or 1. */
int db_status_exit_code(db_status status);

typedef struct db db;

typedef enum {
    DB_OPEN_READ,   /* an existing archive, for reading (migrated first if older) */
    DB_OPEN_WRITE,  /* an existing archive, for reading and writing */
    DB_OPEN_CREATE, /* as WRITE, creating the file (never its directory) when missing */
} db_open_mode;

typedef struct db_config {
    db_open_mode mode;   /* default DB_OPEN_READ */
    int busy_timeout_ms; /* how long to wait for another program's lock; default 5000 */
} db_config;

void db_config_default(db_config *config);

/*
 * Opens the archive at path. An empty file is initialised; a file from an older schema is
 * migrated to DB_SCHEMA_VERSION, one version per transaction (a read-only file that needs it
 * gives DB_READ_ONLY). Refused, with the file untouched: a file that is not SQLite or is another
 * program's database (DB_NOT_ARCHIVE), a newer schema (DB_TOO_NEW), a missing file or folder
 * (DB_NOT_FOUND), a file without write permission in the WRITE and CREATE modes (DB_READ_ONLY).
 *
 * *out receives a handle even on failure, so that db_error() can tell why; it is NULL only when
 * memory ran out. The caller frees it with db_close().
 */
db_status db_open(const char *path, const db_config *config, db **out);

/* Closes the archive. Accepts NULL and handles whose open failed. */
void db_close(db *archive);

/* The detail of the last failure: one line naming the file and the problem. Valid until the
 * next call on this handle. */
const char *db_error(const db *archive);

/* The path the archive was opened with. Valid while the handle lives. */
const char *db_path(const db *archive);

/* ---- games ---- */

typedef struct db_seat {
    char colour[DB_COLOUR_MAX]; /* never empty */
    char name[DB_NAME_MAX];     /* "" when the player stayed anonymous */
} db_seat;

typedef struct db_new_game {
    const char *game;         /* the rules id, e.g. "expedition-luxor" */
    const char *title;        /* the box's name, for people and exports */
    const char *options_json; /* a JSON object of the game's options; NULL: {} */
    const char *profile;      /* the recognition profile used, or NULL */
    int64_t started_ms;       /* Unix time in ms; 0: now */
    int seat_count;           /* 1..DB_MAX_SEATS, in play order */
    db_seat seats[DB_MAX_SEATS];
} db_new_game;

/* Creates a live game and its seats in one transaction; *game_id receives its id.
 * DB_BAD_INPUT names the field that is wrong (empty colour, a repeated colour, bad JSON). */
db_status db_game_create(db *archive, const db_new_game *game, int64_t *game_id);

typedef enum { DB_GAME_LIVE, DB_GAME_FINISHED } db_game_status;

#define DB_NO_SCORE INT32_MIN /* a seat's final score or rank before the game finished */

typedef struct db_game {
    int64_t id;
    char uuid[37];              /* stable across exports, so re-importing does not duplicate */
    char game[DB_GAME_ID_MAX];
    char title[DB_TITLE_MAX];
    char options_json[DB_OPTIONS_MAX];
    char profile[DB_PROFILE_MAX]; /* "" when none */
    int64_t started_ms;
    int64_t finished_ms;        /* 0 while live */
    int64_t last_event_ms;      /* 0 without events */
    db_game_status status;
    int64_t event_count;
    int seat_count;
    struct {
        db_seat seat;
        int32_t final_score; /* DB_NO_SCORE while live */
        int32_t rank;        /* 1 = winner, ties share a rank; DB_NO_SCORE while live */
        int32_t score;       /* the running score after the last event (0 before any) */
    } seats[DB_MAX_SEATS];
} db_game;

/* Fills *game with the game of this id; DB_NOT_FOUND when there is none. */
db_status db_game_get(db *archive, int64_t game_id, db_game *game);

/* Calls fn for every game in id order; fn returns non-zero to stop early. The game is borrowed
 * for the call only. */
typedef int (*db_game_fn)(void *context, const db_game *game);
db_status db_games_foreach(db *archive, db_game_fn fn, void *context);

/* Marks a live game finished with each seat's final score and rank (1 = winner, ties share a
 * rank), in play order. DB_BAD_INPUT when it is already finished or a rank is below 1. */
db_status db_game_finish(db *archive, int64_t game_id, const int32_t *final_scores,
                         const int32_t *ranks);

/* ---- events ---- */

typedef enum {
    DB_EVENT_MOVE,       /* a move the rules accepted */
    DB_EVENT_FLAG,       /* the table could not be explained: illegal, misread, ambiguous */
    DB_EVENT_CORRECTION, /* a player corrected what was recognised */
    DB_EVENT_UNDO,       /* the previous move was taken back (nothing is deleted) */
    DB_EVENT_HIDDEN,     /* hidden information entered by a player (a card, a final value) */
} db_event_kind;

/* "move", "flag", "correction", "undo", "hidden". Static storage. */
const char *db_event_kind_name(db_event_kind kind);

typedef struct db_event {
    int64_t seq;                /* set by the archive: 1, 2, ... within the game */
    int64_t at_ms;              /* wall clock, Unix ms; 0 on append: now */
    db_event_kind kind;
    int seat;                   /* the seat it belongs to, or -1 (a flag about the table) */
    const char *notation;       /* the game's notation of the action; NULL: "" */
    const char *detail_json;    /* a JSON object with the details; NULL: {} */
    double frame_time;          /* evidence: seconds into the source; NAN: none */
    double confidence;          /* evidence: 0..1; NAN: none */
    const void *thumbnail_jpeg; /* evidence: a JPEG image, or NULL */
    size_t thumbnail_size;
} db_event;

/* An event with no evidence, for the caller to fill. */
db_event db_event_make(db_event_kind kind, int seat, const char *notation);

/*
 * Appends an event to a live game with scores, the running score of every seat after it (the
 * game's seat count of values), in one transaction. *seq (may be NULL) receives its number.
 * When it returns DB_OK the event is durable; on any failure nothing of it is stored.
 */
db_status db_event_append(db *archive, int64_t game_id, const db_event *event,
                          const int32_t *scores, int64_t *seq);

/* Calls fn for each event of the game in order, with the scores after it (the game's seat
 * count of values). Everything passed to fn is borrowed for the call only; fn returns non-zero
 * to stop early. A reader sees committed events only. */
typedef int (*db_event_fn)(void *context, const db_event *event, const int32_t *scores);
db_status db_events_foreach(db *archive, int64_t game_id, db_event_fn fn, void *context);

/* ---- exports ---- */

typedef enum {
    DB_EXPORT_JSON,    /* everything: games, seats, events with scores and evidence */
    DB_EXPORT_CSV,     /* one row per event */
    DB_EXPORT_BGSTATS, /* a BG Stats play file: games, players, plays with playerScores */
    DB_EXPORT_BGG_XML, /* BoardGameGeek's plays/play/players/player XML */
} db_export_format;

/* Parses "json", "csv", "bgstats", "bgg-xml"; false when the name is none of them. */
bool db_export_format_parse(const char *name, db_export_format *format);

/*
 * Writes the games with these ids (all games when count is 0) to out_path, or to standard
 * output when out_path is "-". The file appears whole or not at all: it is written beside its
 * destination and renamed over it only when complete, so an existing file is never half
 * overwritten. DB_NOT_FOUND names a missing game id.
 */
db_status db_export(db *archive, db_export_format format, const int64_t *game_ids, size_t count,
                    const char *out_path);

#endif
