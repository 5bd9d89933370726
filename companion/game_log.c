/* A game's actions in the archive: created, each action archived before it counts, resumed. */
#include "game_log.h"

#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

db_status game_log_create(db *archive, const rules_game *game, const void *state, unsigned flags,
                          const char *board_id, int adventure,
                          const char (*names)[GAME_LOG_NAME_MAX], int name_count,
                          int64_t *game_id)
{
    const rules_engine *engine = game->engine;
    db_new_game created = {.game = game->id, .title = game->title};
    json_t *json_options = json_pack("{s:i}", "players", engine->seat_count(state));
    size_t flag_count;
    const rules_flag *all = rules_flags(&flag_count);
    for (size_t i = 0; i < flag_count; i++)
        if (game->flags & all[i].flag)
            json_object_set_new(json_options, all[i].key,
                                json_boolean((flags & all[i].flag) != 0));
    if (board_id && board_id[0])
        json_object_set_new(json_options, "board", json_string(board_id));
    if (adventure)
        json_object_set_new(json_options, "adventure", json_integer(adventure));
    char *options_text = json_dumps(json_options, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(json_options);
    created.options_json = options_text;
    created.seat_count = engine->seat_count(state);
    for (int i = 0; i < created.seat_count; i++) {
        snprintf(created.seats[i].colour, DB_COLOUR_MAX, "%s", engine->colour(state, i));
        if (i < name_count)
            snprintf(created.seats[i].name, DB_NAME_MAX, "%s", names[i]);
    }
    db_status status = db_game_create(archive, &created, game_id);
    free(options_text);
    return status;
}

game_log_result game_log_play(db *archive, int64_t game_id, const rules_engine *engine,
                              void *state, void *scratch, const char *line,
                              const db_event *evidence, rules_played *played, int64_t *seq,
                              char *error, size_t size, db_status *archive_status)
{
    if (seq)
        *seq = 0;
    memcpy(scratch, state, engine->state_size);
    if (engine->play_line(scratch, line, played, error, size) != RULES_OK)
        return GAME_LOG_REFUSED;
    if (!played->acted)
        return GAME_LOG_OK;
    int32_t scores[RULES_MAX_SEATS];
    engine->scores(scratch, scores);
    if (archive) {
        db_event event = db_event_make(DB_EVENT_MOVE, played->seat, played->notation);
        if (evidence) {
            event.frame_time = evidence->frame_time;
            event.confidence = evidence->confidence;
            event.thumbnail_jpeg = evidence->thumbnail_jpeg;
            event.thumbnail_size = evidence->thumbnail_size;
        }
        db_status status = db_event_append(archive, game_id, &event, scores, seq);
        if (status != DB_OK) {
            if (archive_status)
                *archive_status = status;
            return GAME_LOG_ARCHIVE;
        }
    }
    memcpy(state, scratch, engine->state_size);
    return GAME_LOG_OK;
}

db_status game_log_finish(db *archive, int64_t game_id, const rules_engine *engine,
                          const void *state)
{
    int32_t scores[RULES_MAX_SEATS], ranks[RULES_MAX_SEATS];
    engine->scores(state, scores);
    engine->ranks(state, ranks);
    return db_game_finish(archive, game_id, scores, ranks);
}

void game_log_options(const db_game *game, rules_options *options, char *board_id, size_t size)
{
    memset(options, 0, sizeof *options);
    options->seats = game->seat_count;
    options->colour_count = game->seat_count;
    for (int i = 0; i < game->seat_count && i < RULES_MAX_SEATS; i++)
        snprintf(options->colours[i], RULES_COLOUR_MAX, "%.15s", game->seats[i].seat.colour);
    json_t *stored = json_loads(game->options_json, 0, NULL);
    size_t flag_count;
    const rules_flag *flags = rules_flags(&flag_count);
    for (size_t i = 0; i < flag_count; i++)
        if (json_is_true(json_object_get(stored, flags[i].key)))
            options->flags |= flags[i].flag;
    if (size)
        board_id[0] = '\0';
    if (json_is_string(json_object_get(stored, "board")))
        snprintf(board_id, size, "%.31s", json_string_value(json_object_get(stored, "board")));
    if (json_is_integer(json_object_get(stored, "adventure")))
        options->adventure = (int)json_integer_value(json_object_get(stored, "adventure"));
    json_decref(stored);
}

bool game_log_moves_push(game_log_moves *moves, const char *notation)
{
    if (moves->count == moves->capacity) {
        size_t capacity = moves->capacity ? 2 * moves->capacity : 64;
        char **grown = realloc(moves->notation, capacity * sizeof *grown);
        if (!grown)
            return false;
        moves->notation = grown;
        moves->capacity = capacity;
    }
    char *copy = strdup(notation);
    if (!copy)
        return false;
    moves->notation[moves->count++] = copy;
    return true;
}

void game_log_moves_pop(game_log_moves *moves)
{
    if (moves->count > 0)
        free(moves->notation[--moves->count]);
}

void game_log_moves_free(game_log_moves *moves)
{
    while (moves->count > 0)
        game_log_moves_pop(moves);
    free(moves->notation);
    *moves = (game_log_moves){0};
}

size_t game_log_moves_play(const rules_engine *engine, void *state, const game_log_moves *moves,
                           size_t count, char *error, size_t size)
{
    size_t i = 0;
    for (; i < count && i < moves->count; i++) {
        rules_played played;
        char reason[256];
        if (engine->play_line(state, moves->notation[i], &played, reason, sizeof reason) !=
            RULES_OK) {
            snprintf(error, size, "move %zu: %s", i + 1, reason);
            break;
        }
    }
    return i;
}

typedef struct standing {
    game_log_moves *moves;
    bool nomem;
} standing;

/* The moves that stand: each move in, each undo takes the last one back out. */
static int collect_moves(void *context, const db_event *event, const int32_t *scores)
{
    (void)scores;
    standing *s = context;
    if (event->kind == DB_EVENT_UNDO)
        game_log_moves_pop(s->moves);
    else if (event->kind == DB_EVENT_MOVE && !game_log_moves_push(s->moves, event->notation)) {
        s->nomem = true;
        return 1;
    }
    return 0;
}

game_log_result game_log_replay(db *archive, int64_t game_id, const rules_engine *engine,
                                void *state, size_t *moves, game_log_moves *kept, char *error,
                                size_t size, db_status *archive_status)
{
    game_log_moves local = {0};
    standing s = {kept ? kept : &local, false};
    db_status status = db_events_foreach(archive, game_id, collect_moves, &s);
    *moves = 0;
    game_log_result result = GAME_LOG_OK;
    if (status != DB_OK || s.nomem) {
        if (archive_status)
            *archive_status = status != DB_OK ? status : DB_NOMEM;
        if (s.nomem)
            snprintf(error, size, "out of memory");
        result = GAME_LOG_ARCHIVE;
    }
    if (result == GAME_LOG_OK) {
        *moves = game_log_moves_play(engine, state, s.moves, s.moves->count, error, size);
        if (*moves < s.moves->count)
            result = GAME_LOG_REFUSED;
    }
    game_log_moves_free(&local);
    return result;
}
