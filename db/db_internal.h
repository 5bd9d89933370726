/* Shared by the archive's source files; not part of the module's interface. */
#ifndef TS_DB_INTERNAL_H
#define TS_DB_INTERNAL_H

#include "db.h"

#include <sqlite3.h>

/* 'TSCR': marks a SQLite file as a tablescribe archive (PRAGMA application_id). */
#define DB_APPLICATION_ID 0x54534352

struct db {
    sqlite3 *sql;   /* NULL when the open failed before SQLite had a handle */
    char *path;
    char error[512];
};

/* Records "PATH: message" as the handle's error and returns status. */
db_status db_fail(db *archive, db_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Records SQLite's error for rc, prefixed by what was being done, and returns its status. */
db_status db_fail_sqlite(db *archive, int rc, const char *doing);

/* Brings the schema from version `from` up to DB_SCHEMA_VERSION, one transaction a version. */
db_status db_schema_migrate(db *archive, int from);

/* Reads one integer PRAGMA (user_version, application_id) into *value. */
db_status db_pragma_int(db *archive, const char *pragma, int *value);

/* A read transaction, so that a game, its seats and its events are one snapshot while another
 * program appends. Nests: only the outermost begin starts one, told by *started. */
db_status db_read_begin(db *archive, bool *started);
void db_read_end(db *archive, bool started);

/* Formats Unix ms as local time "YYYY-MM-DD HH:MM:SS" or, when utc, ISO 8601 with a Z. */
void db_format_time(int64_t ms, bool utc, char *out, size_t size);

#endif
