/*
 * game_log: a game's actions and running scores in the archive, the one path that
 * `tablescribe play` (typed moves) and the tracker (moves seen on the table) both take.
 *
 *   game_log_create ─▶ archived live game ─▶ game_log_play (checked, archived, then played)
 *                                │                 ... game_log_finish (final scores, ranks)
 *                                └─▶ game_log_options + game_log_replay (resume: the state
 *                                     rebuilt from the archived moves)
 *
 * Works for any game of the game table through rules_engine alone. Flags and other events that
 * are not moves are the caller's to append (db_event_append); a replay skips them.
 */
#ifndef TS_GAME_LOG_H
#define TS_GAME_LOG_H

#include "db.h"
#include "rules.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GAME_LOG_NAME_MAX (RULES_COLOUR_MAX * 4)

typedef enum {
    GAME_LOG_OK,
    GAME_LOG_REFUSED,  /* the rules refused the line: the reason is in the caller's error */
    GAME_LOG_ARCHIVE,  /* the archive failed: its status in *archive_status, db_error() says why */
} game_log_result;

/*
 * Creates the live game of the initialised state in the archive: its rules id and title, the
 * options the game understands ({"players": N, "expansion": false, ...}, flags from `flags`),
 * the board's id when not NULL, the adventure when not 0, the seats' colours from the state and
 * names (name_count of them, may be 0). *game_id receives its id. Returns the archive's status.
 */
db_status game_log_create(db *archive, const rules_game *game, const void *state, unsigned flags,
                          const char *board_id, int adventure,
                          const char (*names)[GAME_LOG_NAME_MAX], int name_count,
                          int64_t *game_id);

/*
 * Plays one line of the notation on a copy (scratch, engine->state_size bytes), archives it
 * with the running scores after it when it acted (archive may be NULL: nothing archived), and
 * only then copies it into state. evidence (may be NULL) gives the event's frame time,
 * confidence and thumbnail. *played receives what the line did, *seq (may be NULL) the event's
 * number (0 when nothing was archived). On GAME_LOG_REFUSED the reason is in error (size
 * bytes); on GAME_LOG_ARCHIVE the archive's status in *archive_status (may be NULL). The state
 * is unchanged on every failure.
 */
game_log_result game_log_play(db *archive, int64_t game_id, const rules_engine *engine,
                              void *state, void *scratch, const char *line,
                              const db_event *evidence, rules_played *played, int64_t *seq,
                              char *error, size_t size, db_status *archive_status);

/* Marks the archived game finished with the state's scores and ranks. */
db_status game_log_finish(db *archive, int64_t game_id, const rules_engine *engine,
                          const void *state);

/*
 * The rules options an archived game was played with: its seats and colours, its flags, its
 * adventure. board_id (size bytes) receives the board file's id it names, "" when none.
 */
void game_log_options(const db_game *game, rules_options *options, char *board_id, size_t size);

/* A game's moves that stand, in order, each its notation as archived. */
typedef struct game_log_moves {
    size_t count, capacity;
    char **notation;
} game_log_moves;

/* Appends a copy of notation; false when memory ran out (nothing changed). */
bool game_log_moves_push(game_log_moves *moves, const char *notation);
/* Drops the last move, if any. */
void game_log_moves_pop(game_log_moves *moves);
/* Frees the copies; the list is empty again. */
void game_log_moves_free(game_log_moves *moves);
/* Plays the first count moves on state; returns how many it played: fewer, with error
 * "move 12: ..." and the state after the moves before it, when one does not replay. */
size_t game_log_moves_play(const rules_engine *engine, void *state, const game_log_moves *moves,
                           size_t count, char *error, size_t size);

/*
 * Plays the archived game's moves that stand, in order, on the initialised state: an undo
 * event takes back the move before it (flags and other events skipped). *moves receives how
 * many were played; kept (may be NULL, empty at first) receives them. GAME_LOG_REFUSED when
 * one does not replay (error: "move 12: ..."), with the state as it was after the moves before
 * it; GAME_LOG_ARCHIVE when reading failed or memory ran out.
 */
game_log_result game_log_replay(db *archive, int64_t game_id, const rules_engine *engine,
                                void *state, size_t *moves, game_log_moves *kept, char *error,
                                size_t size, db_status *archive_status);

#endif
