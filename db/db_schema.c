/*
 * The archive's schema and its forward migrations.
 *
 * migrations[v - 1] brings a file from version v - 1 to v. A released migration is never
 * edited: files written by it exist in people's archives (fixtures/db/schema-v1.sql is one, and
 * a test opens it with the current build). Change the schema by appending a migration.
 */
#include "db_internal.h"

#include <stdio.h>

static const char *const migrations[] = {
    /* 1: games, seats, events and the running scores. Times are Unix ms, so that they sort and
     * subtract exactly; the readers format them. */
    "CREATE TABLE games ("
    "  id INTEGER PRIMARY KEY,"
    "  game TEXT NOT NULL,"                 /* the rules id */
    "  title TEXT NOT NULL,"                /* the box's name, kept for exports */
    "  options TEXT NOT NULL DEFAULT '{}'," /* JSON object */
    "  profile TEXT,"
    "  started_ms INTEGER NOT NULL,"
    "  status TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'finished'))"
    ");"
    "CREATE TABLE seats ("
    "  game_id INTEGER NOT NULL REFERENCES games(id),"
    "  seat INTEGER NOT NULL CHECK (seat >= 0),"
    "  colour TEXT NOT NULL,"
    "  name TEXT NOT NULL DEFAULT '',"
    "  PRIMARY KEY (game_id, seat),"
    "  UNIQUE (game_id, colour)"
    ");"
    "CREATE TABLE events ("
    "  id INTEGER PRIMARY KEY,"
    "  game_id INTEGER NOT NULL REFERENCES games(id),"
    "  seq INTEGER NOT NULL CHECK (seq >= 1),"
    "  at_ms INTEGER NOT NULL,"
    "  kind TEXT NOT NULL CHECK (kind IN ('move', 'flag', 'correction', 'undo', 'hidden')),"
    "  seat INTEGER,"                       /* NULL: about the table, no seat's */
    "  notation TEXT NOT NULL DEFAULT '',"
    "  detail TEXT NOT NULL DEFAULT '{}',"  /* JSON object */
    "  frame_time REAL,"
    "  confidence REAL CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),"
    "  UNIQUE (game_id, seq),"
    "  FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)"
    ");"
    "CREATE TABLE event_scores ("
    "  event_id INTEGER NOT NULL REFERENCES events(id),"
    "  seat INTEGER NOT NULL,"
    "  score INTEGER NOT NULL,"
    "  PRIMARY KEY (event_id, seat)"
    ") WITHOUT ROWID;"
    "PRAGMA application_id = 1414742866;", /* DB_APPLICATION_ID */

    /* 2: results and evidence. A game gets a stable uuid (exports re-imported elsewhere are
     * recognised, not duplicated), its end time, and each seat its final score and rank;
     * thumbnails live in their own table so that reading events never pages through images. */
    "ALTER TABLE games ADD COLUMN uuid TEXT;"
    "ALTER TABLE games ADD COLUMN finished_ms INTEGER;"
    "ALTER TABLE seats ADD COLUMN final_score INTEGER;"
    "ALTER TABLE seats ADD COLUMN rank INTEGER CHECK (rank IS NULL OR rank >= 1);"
    /* A random version-4 uuid for the games archived before this version. */
    "UPDATE games SET uuid = lower("
    "  hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)"
    "  || '-' || substr('89ab', 1 + abs(random() % 4), 1) || substr(hex(randomblob(2)), 2)"
    "  || '-' || hex(randomblob(6)));"
    "CREATE UNIQUE INDEX games_uuid ON games(uuid);"
    "CREATE TABLE event_thumbnails ("
    "  event_id INTEGER PRIMARY KEY REFERENCES events(id),"
    "  jpeg BLOB NOT NULL"
    ");",
};

_Static_assert(sizeof migrations / sizeof migrations[0] == DB_SCHEMA_VERSION,
               "one migration per schema version");

db_status db_schema_migrate(db *archive, int from)
{
    for (int version = from + 1; version <= DB_SCHEMA_VERSION; version++) {
        /* IMMEDIATE takes the write lock first, so that two programs opening the same old file
         * at once cannot both migrate it: the second sees the new version and skips. */
        int rc = sqlite3_exec(archive->sql, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            return db_fail_sqlite(archive, rc, "upgrading the archive");
        int current = 0;
        db_status status = db_pragma_int(archive, "user_version", &current);
        if (status == DB_OK && current < version) {
            char set_version[64];
            snprintf(set_version, sizeof set_version, "PRAGMA user_version = %d", version);
            rc = sqlite3_exec(archive->sql, migrations[version - 1], NULL, NULL, NULL);
            if (rc == SQLITE_OK)
                rc = sqlite3_exec(archive->sql, set_version, NULL, NULL, NULL);
            if (rc != SQLITE_OK)
                status = db_fail_sqlite(archive, rc, "upgrading the archive");
        }
        if (status == DB_OK) {
            rc = sqlite3_exec(archive->sql, "COMMIT", NULL, NULL, NULL);
            if (rc != SQLITE_OK)
                status = db_fail_sqlite(archive, rc, "upgrading the archive");
        }
        if (status != DB_OK) {
            sqlite3_exec(archive->sql, "ROLLBACK", NULL, NULL, NULL);
            return status;
        }
    }
    return DB_OK;
}
