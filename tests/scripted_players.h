/*
 * scripted_players: the players at the table, played from the script of a recorded game
 * (tablescribe render --script), for the tests and the bench that replay it through the
 * pipeline as `tablescribe replay` does. As players would:
 *   - turn_key: they type each turn end of the script as soon as the turn's last hand has left
 *     the mat (pipeline_end_turn);
 *   - answering: they answer each question the tracker asks with the candidate that is what
 *     they played, the script's next lines (pipeline_choose);
 *   - correcting: when a flag stays, they type what was played since the last committed action
 *     (pipeline_play: the script's lines whose hands have left), or say the table is as the
 *     game has it when nothing was (pipeline_confirm), and take back a move that did not
 *     happen as soon as it is committed (pipeline_undo).
 * Every move the pipeline commits is counted against the script, and every move the camera
 * committed while a hand was over the table.
 */
#ifndef TS_SCRIPTED_PLAYERS_H
#define TS_SCRIPTED_PLAYERS_H

#include "capture.h"
#include "pipeline.h"

#include <stdbool.h>
#include <stddef.h>

#define PLAYERS_LINES_MAX 256
#define PLAYERS_LINE_MAX 128
#define PLAYERS_HAND_SPANS (2 * PLAYERS_LINES_MAX)

/* Runs the tablescribe at path with args (NULL-terminated, args[0] the first argument) in a
 * child process, so that teaching and recording count in neither this process's memory nor
 * its time; returns its exit status (1 when it could not run or died, said on stderr). */
int players_tablescribe(const char *path, const char *const *args);

/* The script's lines, as the notation has them ("orange: desert@1,2"; the start bare). */
typedef struct players_script {
    int count;
    char lines[PLAYERS_LINES_MAX][PLAYERS_LINE_MAX];
} players_script;

/* Appends a line (an el_random_game emit: context is the script); lines past the limit are
 * dropped. */
void players_script_add(void *script, const char *line);

/* Whether a line of the notation ends its seat's turn ("orange: end"). */
bool players_ends_turn(const char *line);

/* When the hands were over the table, from the recording's truth.json. */
typedef struct players_hands {
    double fps;
    /* each script line's hand: when it left the table (ms; NAN for lines no hand played: the
     * start layout, a turn's end), its last frame in view (-1 none) */
    double left_ms[PLAYERS_LINES_MAX];
    int last_frame[PLAYERS_LINES_MAX];
    /* the frames a hand is in view, first and last: every action's, and the resting hands' */
    int spans[PLAYERS_HAND_SPANS][2];
    int span_count;
    /* what else moves the picture, from its first frame to the first quiet one after it (the
     * nudge's frame, the first frame without the shadow or the resting hand): the camera
     * nudged, a passing shadow, a resting hand (a table is settled only after it) */
    int disturbances[PLAYERS_HAND_SPANS][2];
    int disturbance_count;
} players_hands;

/* Reads the recording folder's truth.json; false, with the reason in error, when it cannot. */
bool players_read_hands(const char *recording, players_hands *hands, char *error, size_t size);

typedef struct players_options {
    bool turn_key, answering, correcting;
} players_options;

/* How long an action committed right took to reach the archive: from its hand leaving the
 * table (the measure), and from when the table was last still after that: the end of
 * a disturbance (the camera nudged, a shadow passing, a hand resting) that moved the picture
 * between the hand leaving and the commit, which restarts the settle time. */
typedef struct players_latency {
    double from_hand_ms;
    double from_quiet_ms; /* from_hand_ms when nothing disturbed the table */
    bool disturbed;
} players_latency;

/* One replay: what the players did, and the moves committed against the script. */
typedef struct players_run {
    const players_script *expected;
    const players_hands *hands;
    players_options options;
    players_latency *latencies; /* may be NULL: each action committed right's, up to */
    int latency_count;          /* latency_capacity */
    int latency_capacity;
    bool verbose;       /* each flag, move, answer and typed line on stderr */

    int matched;        /* committed in order */
    int wrong;          /* committed but not the script's next line (or after one), standing */
    int beyond;         /* forced by the rules after the script's last line */
    int under_hand;     /* committed by the camera on a frame where a hand is in view */
    int flags;
    int answers, unanswerable; /* questions answered, and those no candidate fits */
    int answered_first;        /* answers where what was played was offered first */
    int offered, answer_place; /* candidates offered with the answers, the answers' places */
    int corrections, typed_lines, refused_lines; /* what the players typed at flags */
    int confirmations;         /* tables the players said are as the game has it */
    int taken_back;            /* false moves the players took back */
    int keys, keys_refused;    /* turn ends typed, and refused (the table not seen yet) */

    /* the players' state between frames */
    bool flagged;   /* a flag was raised that no answer or typed line settled yet */
    bool asked;     /* a question was raised since the players last looked */
    int undo_due;   /* false moves committed, to be taken back */
    bool acting;    /* the players' own call is in progress: its moves are theirs */
    int frame;      /* the frame being fed */
} players_run;

/* A run of the script with these players; latencies NULL or room for capacity of them. */
void players_run_init(players_run *run, const players_script *expected,
                      const players_hands *hands, players_options options,
                      players_latency *latencies, int capacity);

/* The pipeline's on_event, with the run as its context. */
void players_on_event(void *run, const pipeline_event *event);

/*
 * Feeds every frame of the source to the pipeline, the players acting between frames, then
 * once more after the last. TRACKER_OK when the source was read to its end; the failure
 * otherwise (pipeline_error says why; a source that fails to read: TRACKER_BAD_INPUT).
 */
tracker_status players_replay(pipeline *p, capture_source *source, players_run *run);

/* Script lines never committed: with turn ends inferred, a last line that ends a turn is
 * shown by nothing after it and not counted (*unseen 1 then). */
int players_missed(const players_run *run, int *unseen);

#endif
