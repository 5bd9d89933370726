/*
 * Exports of the archive, in the formats clubs already load:
 *   json     everything, for tools of our own and for safekeeping
 *   csv      one row per event, for spreadsheets
 *   bgstats  a BG Stats play file (games, players, plays with playerScores)
 *   bgg-xml  BoardGameGeek's plays XML (plays/play/item/players/player)
 *
 * Each game is read in one snapshot into a jansson tree (the game, its seats, its events with
 * scores), and each format is written from that tree. The output file is written beside its
 * destination and renamed over it only when complete.
 */
#include "db_internal.h"

#include <csv.h>
#include <errno.h>
#include <jansson.h>
#include <libxml/xmlwriter.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>

bool db_export_format_parse(const char *name, db_export_format *format)
{
    static const struct {
        const char *name;
        db_export_format format;
    } names[] = {
        {"json", DB_EXPORT_JSON},
        {"csv", DB_EXPORT_CSV},
        {"bgstats", DB_EXPORT_BGSTATS},
        {"bgg-xml", DB_EXPORT_BGG_XML},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0) {
            *format = names[i].format;
            return true;
        }
    return false;
}

/* ---- reading games into trees ---- */

static json_t *time_or_null(int64_t ms)
{
    if (!ms)
        return json_null();
    char text[40];
    db_format_time(ms, true, text, sizeof text);
    return json_string(text);
}

static json_t *number_or_null(double value)
{
    return isnan(value) ? json_null() : json_real(value);
}

static json_t *parse_object(const char *text)
{
    json_t *value = text ? json_loads(text, 0, NULL) : NULL;
    if (!json_is_object(value)) {
        json_decref(value);
        value = json_object();
    }
    return value;
}

static void hex_encode(const unsigned char *bytes, size_t size, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < size; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * size] = '\0';
}

struct event_reader {
    const db_game *game;
    json_t *events;
    bool out_of_memory;
};

static int add_event(void *context, const db_event *event, const int32_t *scores)
{
    struct event_reader *reader = context;
    json_t *scores_array = json_array();
    for (int i = 0; i < reader->game->seat_count; i++)
        json_array_append_new(scores_array, json_integer(scores[i]));
    json_t *thumbnail = json_null();
    if (event->thumbnail_size > 0) {
        char *hex = malloc(2 * event->thumbnail_size + 1);
        if (!hex) {
            reader->out_of_memory = true;
            json_decref(scores_array);
            return 1;
        }
        hex_encode(event->thumbnail_jpeg, event->thumbnail_size, hex);
        thumbnail = json_string(hex);
        free(hex);
    }
    json_t *row = json_pack(
        "{s:I, s:o, s:s, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o}", "seq", (json_int_t)event->seq,
        "at", time_or_null(event->at_ms), "kind", db_event_kind_name(event->kind), "seat",
        event->seat >= 0 ? json_integer(event->seat) : json_null(), "colour",
        event->seat >= 0 ? json_string(reader->game->seats[event->seat].seat.colour) : json_null(),
        "notation", event->notation ? event->notation : "", "detail",
        parse_object(event->detail_json), "frame_time", number_or_null(event->frame_time),
        "confidence", number_or_null(event->confidence), "thumbnail_jpeg_hex", thumbnail,
        "scores", scores_array);
    if (!row || json_array_append_new(reader->events, row) != 0) {
        reader->out_of_memory = true;
        return 1;
    }
    return 0;
}

static json_t *seat_tree(const db_game *game, int i)
{
    int32_t final_score = game->seats[i].final_score, rank = game->seats[i].rank;
    return json_pack("{s:i, s:s, s:o, s:i, s:o, s:o}", "seat", i, "colour",
                     game->seats[i].seat.colour, "name",
                     game->seats[i].seat.name[0] ? json_string(game->seats[i].seat.name)
                                                 : json_null(),
                     "score", (int)game->seats[i].score, "final_score",
                     final_score == DB_NO_SCORE ? json_null() : json_integer(final_score), "rank",
                     rank == DB_NO_SCORE ? json_null() : json_integer(rank));
}

/* The whole game as a tree in *tree, which the caller frees with json_decref. */
static db_status game_tree(db *archive, const db_game *game, json_t **tree)
{
    struct event_reader reader = {game, json_array(), false};
    db_status status = db_events_foreach(archive, game->id, add_event, &reader);
    if (status == DB_OK && reader.out_of_memory)
        status = db_fail(archive, DB_NOMEM, "out of memory");
    if (status != DB_OK) {
        json_decref(reader.events);
        return status;
    }
    json_t *seats = json_array();
    for (int i = 0; i < game->seat_count; i++)
        json_array_append_new(seats, seat_tree(game, i));
    *tree = json_pack(
        "{s:I, s:s, s:s, s:s, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o}", "id", (json_int_t)game->id,
        "uuid", game->uuid, "game", game->game, "title", game->title, "options",
        parse_object(game->options_json), "profile",
        game->profile[0] ? json_string(game->profile) : json_null(), "status",
        game->status == DB_GAME_FINISHED ? "finished" : "live", "started",
        time_or_null(game->started_ms), "finished", time_or_null(game->finished_ms),
        "last_event", time_or_null(game->last_event_ms), "seats", seats, "events", reader.events);
    return *tree ? DB_OK : db_fail(archive, DB_NOMEM, "out of memory");
}

struct id_list {
    int64_t *ids;
    size_t count, capacity;
    bool out_of_memory;
};

static int add_id(void *context, const db_game *game)
{
    struct id_list *list = context;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 64;
        int64_t *ids = realloc(list->ids, capacity * sizeof *ids);
        if (!ids) {
            list->out_of_memory = true;
            return 1;
        }
        list->ids = ids;
        list->capacity = capacity;
    }
    list->ids[list->count++] = game->id;
    return 0;
}

/* ---- the formats ---- */

/* The player a seat stands for: its name, or an anonymous player of its colour. */
static void player_name(const db_seat *seat, char *out, size_t size)
{
    if (seat->name[0])
        snprintf(out, size, "%s", seat->name);
    else
        snprintf(out, size, "Anonymous (%s)", seat->colour);
}

static int duration_minutes(const db_game *game)
{
    int64_t end = game->finished_ms ? game->finished_ms : game->last_event_ms;
    return end > game->started_ms ? (int)((end - game->started_ms + 30000) / 60000) : 0;
}

/* The score shown for a seat: the final one when the game finished, else the running one. */
static int32_t seat_score(const db_game *game, int i)
{
    return game->seats[i].final_score != DB_NO_SCORE ? game->seats[i].final_score
                                                     : game->seats[i].score;
}

static bool seat_won(const db_game *game, int i)
{
    return game->status == DB_GAME_FINISHED && game->seats[i].rank == 1;
}

static int write_json(FILE *out, json_t *games)
{
    char exported[40];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    db_format_time((int64_t)now.tv_sec * 1000, true, exported, sizeof exported);
    json_t *root = json_pack("{s:s, s:i, s:s, s:O}", "format", "tablescribe-archive", "schema",
                             DB_SCHEMA_VERSION, "exported", exported, "games", games);
    int rc = root ? json_dumpf(root, out, JSON_INDENT(2) | JSON_ENSURE_ASCII) : -1;
    json_decref(root);
    return rc == 0 && fputc('\n', out) != EOF ? 0 : -1;
}

static int csv_field(FILE *out, const char *text, bool last)
{
    if (csv_fwrite(out, text, strlen(text)) != 0)
        return -1;
    return fputc(last ? '\n' : ',', out) == EOF ? -1 : 0;
}

static const char *json_text_field(json_t *object, const char *key, char *buffer, size_t size)
{
    json_t *value = json_object_get(object, key);
    if (json_is_string(value))
        return json_string_value(value);
    if (json_is_integer(value))
        snprintf(buffer, size, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
    else if (json_is_real(value))
        snprintf(buffer, size, "%.6g", json_real_value(value));
    else
        buffer[0] = '\0';
    return buffer;
}

static int write_csv(FILE *out, json_t *trees, const db_game *infos, size_t count)
{
    static const char *const header[] = {
        "game_id", "game_uuid", "game", "seq", "time", "kind", "seat", "colour", "player",
        "notation", "detail", "frame_time", "confidence"};
    for (size_t i = 0; i < sizeof header / sizeof header[0]; i++)
        if (csv_field(out, header[i], false) != 0)
            return -1;
    for (int seat = 0; seat < DB_MAX_SEATS; seat++) {
        char name[32];
        snprintf(name, sizeof name, "score_seat%d", seat);
        if (csv_field(out, name, seat == DB_MAX_SEATS - 1) != 0)
            return -1;
    }

    for (size_t g = 0; g < count; g++) {
        const db_game *game = &infos[g];
        char id[32];
        snprintf(id, sizeof id, "%lld", (long long)game->id);
        size_t e;
        json_t *event;
        json_array_foreach(json_object_get(json_array_get(trees, g), "events"), e, event) {
            char seq[32], seat[16] = "", player[DB_NAME_MAX + 32] = "";
            char frame_time[32], confidence[32];
            const char *colour = "";
            snprintf(seq, sizeof seq, "%" JSON_INTEGER_FORMAT,
                     json_integer_value(json_object_get(event, "seq")));
            json_t *seat_value = json_object_get(event, "seat");
            if (json_is_integer(seat_value)) {
                int index = (int)json_integer_value(seat_value);
                snprintf(seat, sizeof seat, "%d", index);
                colour = game->seats[index].seat.colour;
                player_name(&game->seats[index].seat, player, sizeof player);
            }
            char *detail = json_dumps(json_object_get(event, "detail"), JSON_COMPACT);
            const char *fields[] = {
                id,
                game->uuid,
                game->game,
                seq,
                json_string_value(json_object_get(event, "at")),
                json_string_value(json_object_get(event, "kind")),
                seat,
                colour,
                player,
                json_string_value(json_object_get(event, "notation")),
                detail ? detail : "{}",
                json_text_field(event, "frame_time", frame_time, sizeof frame_time),
                json_text_field(event, "confidence", confidence, sizeof confidence),
            };
            int rc = 0;
            for (size_t i = 0; rc == 0 && i < sizeof fields / sizeof fields[0]; i++)
                rc = csv_field(out, fields[i] ? fields[i] : "", false);
            free(detail);
            json_t *scores = json_object_get(event, "scores");
            for (int i = 0; rc == 0 && i < DB_MAX_SEATS; i++) {
                char score[16] = "";
                if (i < game->seat_count)
                    snprintf(score, sizeof score, "%" JSON_INTEGER_FORMAT,
                             json_integer_value(json_array_get(scores, (size_t)i)));
                rc = csv_field(out, score, i == DB_MAX_SEATS - 1);
            }
            if (rc != 0)
                return -1;
        }
    }
    return 0;
}

/* Fixed namespace for the name-based uuids of the BG Stats file's games and players, so that
 * the same player or game gets the same uuid in every export. */
static const char *const bgstats_namespace = "9b0e3c52-6f1d-4f7e-9a53-7a1b2f8f3c10";

static void name_uuid(const char *kind, const char *name, char out[37])
{
    uuid_t space, id;
    uuid_parse(bgstats_namespace, space);
    char key[DB_TITLE_MAX + DB_NAME_MAX + 32];
    snprintf(key, sizeof key, "%s:%s", kind, name);
    uuid_generate_sha1(id, space, key, strlen(key));
    uuid_unparse_lower(id, out);
}

/* The index of the object in list whose "name" equals name, appending a new one when none. */
static json_int_t ref_id(json_t *list, const char *kind, const char *name, json_t *extra)
{
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item) {
        if (strcmp(json_string_value(json_object_get(item, "name")), name) == 0) {
            json_decref(extra);
            return json_integer_value(json_object_get(item, "id"));
        }
    }
    char uuid[37];
    name_uuid(kind, name, uuid);
    json_int_t id = (json_int_t)json_array_size(list) + 1;
    json_t *object = json_pack("{s:I, s:s, s:s}", "id", id, "name", name, "uuid", uuid);
    json_object_update(object, extra);
    json_decref(extra);
    json_array_append_new(list, object);
    return id;
}

static int write_bgstats(FILE *out, const db_game *infos, size_t count)
{
    json_t *games = json_array(), *players = json_array(), *plays = json_array();
    for (size_t g = 0; g < count; g++) {
        const db_game *game = &infos[g];
        json_int_t game_ref = ref_id(
            games, "game", game->title,
            json_pack("{s:i, s:b, s:b, s:b, s:b}", "bggId", 0, "highestWins", 1, "noPoints", 0,
                      "cooperative", 0, "usesTeams", 0));
        json_t *scores = json_array();
        for (int i = 0; i < game->seat_count; i++) {
            char name[DB_NAME_MAX + 32], score[16];
            player_name(&game->seats[i].seat, name, sizeof name);
            json_int_t player_ref = ref_id(players, "player", name,
                                           json_pack("{s:b}", "isAnonymous",
                                                     game->seats[i].seat.name[0] == '\0'));
            snprintf(score, sizeof score, "%d", (int)seat_score(game, i));
            json_t *row = json_pack("{s:I, s:s, s:b, s:b, s:b, s:i, s:s}", "playerRefId",
                                    player_ref, "score", score, "winner", seat_won(game, i),
                                    "newPlayer", 0, "startPlayer", i == 0, "seatOrder", i + 1,
                                    "role", game->seats[i].seat.colour);
            if (game->status == DB_GAME_FINISHED)
                json_object_set_new(row, "rank", json_integer(game->seats[i].rank));
            json_array_append_new(scores, row);
        }
        char date[32];
        db_format_time(game->started_ms, false, date, sizeof date);
        /* An unfinished game is kept but ignored in BG Stats' statistics. */
        json_array_append_new(
            plays, json_pack("{s:s, s:I, s:s, s:s, s:i, s:b, s:b, s:i, s:s, s:o}", "uuid",
                             game->uuid, "gameRefId", game_ref, "playDate", date, "entryDate",
                             date, "durationMin", duration_minutes(game), "ignored",
                             game->status != DB_GAME_FINISHED, "manualWinner", 0, "rounds", 0,
                             "comments", "Recorded by tablescribe", "playerScores", scores));
    }
    json_t *root = json_pack("{s:o, s:o, s:o, s:[]}", "games", games, "players", players, "plays",
                             plays, "locations");
    int rc = root ? json_dumpf(root, out, JSON_INDENT(2) | JSON_ENSURE_ASCII) : -1;
    json_decref(root);
    return rc == 0 && fputc('\n', out) != EOF ? 0 : -1;
}

/* libxml2 writes through this callback into our FILE, so that the atomic-file logic is shared
 * with the other formats. */
static int xml_write(void *context, const char *buffer, int length)
{
    return fwrite(buffer, 1, (size_t)length, context) == (size_t)length ? length : -1;
}

static int xml_close(void *context)
{
    (void)context;
    return 0;
}

static int write_bgg_xml(FILE *out, const db_game *infos, size_t count)
{
    xmlOutputBufferPtr buffer = xmlOutputBufferCreateIO(xml_write, xml_close, out, NULL);
    xmlTextWriterPtr xml = buffer ? xmlNewTextWriter(buffer) : NULL;
    if (!xml) {
        xmlOutputBufferClose(buffer);
        return -1;
    }
    int rc = 0;
#define XML(call) \
    if (rc >= 0)  \
    rc = (call)
#define ATTR(name, value) XML(xmlTextWriterWriteAttribute(xml, BAD_CAST(name), BAD_CAST(value)))
#define ATTRF(name, ...) XML(xmlTextWriterWriteFormatAttribute(xml, BAD_CAST(name), __VA_ARGS__))
    xmlTextWriterSetIndent(xml, 1);
    XML(xmlTextWriterStartDocument(xml, NULL, "UTF-8", NULL));
    XML(xmlTextWriterStartElement(xml, BAD_CAST "plays"));
    ATTR("username", "");
    ATTR("userid", "0");
    ATTRF("total", "%zu", count);
    ATTR("page", "1");
    for (size_t g = 0; g < count; g++) {
        const db_game *game = &infos[g];
        char date[32];
        db_format_time(game->started_ms, false, date, sizeof date);
        date[10] = '\0'; /* YYYY-MM-DD */
        XML(xmlTextWriterStartElement(xml, BAD_CAST "play"));
        ATTRF("id", "%lld", (long long)game->id);
        ATTR("date", date);
        ATTR("quantity", "1");
        ATTRF("length", "%d", duration_minutes(game));
        ATTR("incomplete", game->status == DB_GAME_FINISHED ? "0" : "1");
        ATTR("nowinstats", game->status == DB_GAME_FINISHED ? "0" : "1");
        ATTR("location", "");
        XML(xmlTextWriterStartElement(xml, BAD_CAST "item"));
        ATTR("name", game->title);
        ATTR("objecttype", "thing");
        /* BoardGameGeek's ids of these games are not recorded anywhere we trust; 0 lets the
         * importing tool match by name. */
        ATTR("objectid", "0");
        XML(xmlTextWriterStartElement(xml, BAD_CAST "subtypes"));
        XML(xmlTextWriterStartElement(xml, BAD_CAST "subtype"));
        ATTR("value", "boardgame");
        XML(xmlTextWriterEndElement(xml));
        XML(xmlTextWriterEndElement(xml));
        XML(xmlTextWriterEndElement(xml));
        XML(xmlTextWriterWriteFormatElement(xml, BAD_CAST "comments",
                                            "Recorded by tablescribe (game %s)", game->uuid));
        XML(xmlTextWriterStartElement(xml, BAD_CAST "players"));
        for (int i = 0; i < game->seat_count; i++) {
            char name[DB_NAME_MAX + 32];
            player_name(&game->seats[i].seat, name, sizeof name);
            XML(xmlTextWriterStartElement(xml, BAD_CAST "player"));
            ATTR("username", "");
            ATTR("userid", "0");
            ATTR("name", name);
            ATTRF("startposition", "%d", i + 1);
            ATTR("color", game->seats[i].seat.colour);
            ATTRF("score", "%d", (int)seat_score(game, i));
            ATTR("new", "0");
            ATTR("rating", "0");
            ATTR("win", seat_won(game, i) ? "1" : "0");
            XML(xmlTextWriterEndElement(xml));
        }
        XML(xmlTextWriterEndElement(xml));
        XML(xmlTextWriterEndElement(xml));
    }
    XML(xmlTextWriterEndElement(xml));
    XML(xmlTextWriterEndDocument(xml));
#undef XML
#undef ATTR
#undef ATTRF
    xmlFreeTextWriter(xml); /* flushes and closes the buffer */
    return rc < 0 ? -1 : 0;
}

/* ---- the file ---- */

static db_status write_output(db *archive, db_export_format format, json_t *trees,
                              const db_game *infos, size_t count, FILE *out)
{
    int rc;
    switch (format) {
    case DB_EXPORT_JSON:
        rc = write_json(out, trees);
        break;
    case DB_EXPORT_CSV:
        rc = write_csv(out, trees, infos, count);
        break;
    case DB_EXPORT_BGSTATS:
        rc = write_bgstats(out, infos, count);
        break;
    case DB_EXPORT_BGG_XML:
        rc = write_bgg_xml(out, infos, count);
        break;
    default:
        rc = -1;
    }
    if (rc != 0 || fflush(out) != 0 || ferror(out))
        return db_fail(archive, DB_IO, "writing the export: %s",
                       errno ? strerror(errno) : "write failed");
    return DB_OK;
}

/* Writes to a temporary file beside out_path, then renames it over out_path. */
static db_status write_file(db *archive, db_export_format format, json_t *trees,
                            const db_game *infos, size_t count, const char *out_path)
{
    if (strcmp(out_path, "-") == 0)
        return write_output(archive, format, trees, infos, count, stdout);

    size_t length = strlen(out_path);
    char *temporary = malloc(length + 16);
    if (!temporary)
        return db_fail(archive, DB_NOMEM, "out of memory");
    snprintf(temporary, length + 16, "%s.tmp.XXXXXX", out_path);
    int fd = mkstemp(temporary);
    if (fd < 0) {
        db_status status =
            db_fail(archive, errno == ENOENT ? DB_NOT_FOUND : DB_READ_ONLY,
                    "cannot write the export %s: %s", out_path, strerror(errno));
        free(temporary);
        return status;
    }
    FILE *out = fdopen(fd, "w");
    db_status status = out ? write_output(archive, format, trees, infos, count, out)
                           : db_fail(archive, DB_IO, "cannot write the export %s: %s", out_path,
                                     strerror(errno));
    if (status == DB_OK && fsync(fileno(out)) != 0)
        status = db_fail(archive, DB_IO, "cannot write the export %s: %s", out_path,
                         strerror(errno));
    if (out ? fclose(out) != 0 : close(fd) != 0)
        if (status == DB_OK)
            status = db_fail(archive, DB_IO, "cannot write the export %s: %s", out_path,
                             strerror(errno));
    if (status == DB_OK && rename(temporary, out_path) != 0)
        status = db_fail(archive, errno == EISDIR ? DB_BAD_INPUT : DB_IO,
                         "cannot write the export %s: %s", out_path, strerror(errno));
    if (status != DB_OK)
        unlink(temporary);
    free(temporary);
    return status;
}

db_status db_export(db *archive, db_export_format format, const int64_t *game_ids, size_t count,
                    const char *out_path)
{
    bool started;
    db_status status = db_read_begin(archive, &started);
    if (status != DB_OK)
        return status;

    struct id_list all = {NULL, 0, 0, false};
    if (count == 0) {
        status = db_games_foreach(archive, add_id, &all);
        if (status == DB_OK && all.out_of_memory)
            status = db_fail(archive, DB_NOMEM, "out of memory");
        game_ids = all.ids;
        count = all.count;
    }
    db_game *infos = count ? calloc(count, sizeof *infos) : NULL;
    json_t *trees = json_array();
    if (status == DB_OK && count && !infos)
        status = db_fail(archive, DB_NOMEM, "out of memory");
    for (size_t i = 0; status == DB_OK && i < count; i++) {
        json_t *tree = NULL;
        status = db_game_get(archive, game_ids[i], &infos[i]);
        if (status == DB_OK)
            status = game_tree(archive, &infos[i], &tree);
        if (status == DB_OK)
            json_array_append_new(trees, tree);
    }
    db_read_end(archive, started);

    if (status == DB_OK)
        status = write_file(archive, format, trees, infos, count, out_path);
    json_decref(trees);
    free(infos);
    free(all.ids);
    return status;
}
