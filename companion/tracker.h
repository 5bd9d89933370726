/*
 * tracker: from settled tables to committed moves, flags, scores and the archive, for any game
 * whose engine reconciles (rules_engine.reconcile; Expedition Luxor so far).
 *
 *   settled table (time, the game's observation, confidence, "the turn is over")
 *        │
 *        ▼
 *   reconcile from every hypothesis (or     ──▶ unchanged: nothing
 *   the committed game when there is none;  ──▶ unexplained: a flag with the reason, nothing
 *   from the committed game when none fits)     committed until a table is explained
 *        │
 *        ▼
 *   the actions every game believed agrees on ──▶ committed: played, archived (game_log, the
 *        │                                        path of `tablescribe play`), reported; then
 *        │                                        what the rules force (a pass, an end); the
 *        │                                        game's end
 *        └─▶ the rest waits as hypotheses: the games the tables may show, each reconciled
 *            with the next table, so that a later table can decide (who placed a plain tile
 *            shows when a turn end is signalled or the next seat shows its colour; a camp's
 *            count when its stack is read); a tie at the top is flagged with its numbered
 *            candidates, and the players may say which it is (tracker_choose).
 *            Where the camera misread the table, the players may say what was played
 *            (tracker_play) or that the table is the game (tracker_confirm); the misread is
 *            then forgiven on later tables that read it alike.
 *            At most 64 wait; beyond, or when the rules kept only their best few games, the
 *            next table is explained from the committed game again. Hypotheses are not
 *            archived: a resumed game starts from its last committed move.
 *
 * Turn ends: the camera cannot see one. The tracker infers them from the next seat's action
 * (the explanations carry the `end`), and takes them from the players (a key on the
 * scoreboard: tracker_end_turn after a table, tracker_table.turn_ended with one). With
 * turn_ends_signalled every end is signalled, so that no explanation that ends a turn by itself
 * is believed. A caller that saw who acted (the side the arm reached in from) says so in
 * tracker_table.acting_seat: of the explanations that fit, those whose last action is another
 * seat's are then not believed, so that the next seat's first tile is told from the active
 * seat's second at once.
 *
 * Not the tracker's: capture, registration (a moved camera is the caller's), the motion gate,
 * recognition. The caller converts what vision reads into the game's observation first
 * (vision_el_to_rules for Expedition Luxor).
 */
#ifndef TS_TRACKER_H
#define TS_TRACKER_H

#include "db.h"
#include "rules.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACKER_STATUS_TABLE(X)                                   \
    X(TRACKER_OK, "ok")                                           \
    X(TRACKER_BAD_INPUT, "bad input")                             \
    X(TRACKER_NOT_AVAILABLE, "not available for this game yet")   \
    X(TRACKER_ARCHIVE, "the archive failed")                      \
    X(TRACKER_NOMEM, "out of memory")

typedef enum {
#define TRACKER_STATUS_ENUM(name, message) name,
    TRACKER_STATUS_TABLE(TRACKER_STATUS_ENUM)
#undef TRACKER_STATUS_ENUM
} tracker_status;

/* The status's short message. Static storage. */
const char *tracker_status_message(tracker_status status);

typedef enum {
    TRACKER_MOVE,      /* an action committed: played, archived */
    TRACKER_FLAG,      /* the table does not fit (archived as a flag); nothing committed */
    TRACKER_GAME_OVER, /* the game ended; scores and ranks final, the archive's game finished */
    TRACKER_UNDO,      /* the players took the last action back (tracker_undo): text is it */
} tracker_event_kind;

typedef enum {
    TRACKER_FLAG_NONE,
    TRACKER_FLAG_UNEXPLAINED, /* an illegal move or a misread: reason says what does not fit */
    TRACKER_FLAG_AMBIGUOUS,   /* several explanations tie: reason lists the candidates */
    TRACKER_FLAG_TURN_END,    /* a turn end the players signalled cannot be taken (yet) */
} tracker_flag_kind;

#define TRACKER_TEXT_MAX 1024

/* What the caller prints. Borrowed for the callback only. */
typedef struct tracker_event {
    tracker_event_kind kind;
    tracker_flag_kind flag;        /* FLAG: which */
    double frame_time;             /* the table's time, seconds into the source */
    int seat;                      /* MOVE: the acting seat, -1 for the setup; else -1 */
    const char *colour;            /* MOVE: the acting seat's colour, NULL for the setup */
    char text[TRACKER_TEXT_MAX];   /* MOVE: the action in the notation; FLAG: the reason */
    bool forced;                   /* MOVE: the rules left no other action */
    int64_t seq;                   /* its number in the archive; 0 when there is none */
    int seat_count;
    int32_t scores[RULES_MAX_SEATS]; /* every seat's running score after it */
    int32_t ranks[RULES_MAX_SEATS];  /* GAME_OVER: 1 = winner */
} tracker_event;

typedef struct tracker_config {
    const char *game;          /* the game table's id; default EL_GAME_ID */
    rules_options options;     /* a new game's seats, colours, flags; default 2 seats, the
                                * game's colours, no flags */
    int64_t resume;            /* 0 (default): a new game in the archive; else this archived
                                * live game, continued from its last move */
    bool turn_ends_signalled;  /* every turn end comes as tracker_table.turn_ended; default
                                * false: inferred from the next seat's action */
    bool unranked;             /* the games a question offers in the rules' order, not the
                                * likeliest first as the picture shows them; default false
                                * (bench_replay --unranked measures what the ranking is worth) */
    void (*on_event)(void *context, const tracker_event *event); /* may be NULL */
    void *context;             /* handed to on_event */
} tracker_config;

void tracker_config_default(tracker_config *config);

/* One settled table. */
typedef struct tracker_table {
    double frame_time;       /* seconds into the source (evidence) */
    const void *observation; /* the game's observation (rules_engine.observation_size bytes:
                              * el_observation), borrowed for the call */
    /* May be NULL: the same reading with the fields read less surely left unseen. When no
     * game fits observation, the tracker explains this one instead (a misread the recogniser
     * half doubted, such as a camp's art hidden by its stack, may then be explained); the flag,
     * when this fails too, gives observation's reason. Borrowed for the call. */
    const void *cautious_observation;
    double confidence;       /* 0..1, the reading's (evidence); NAN: none */
    bool turn_ended;         /* the players say the active seat's turn is over */
    bool acting_known;       /* acting_seat says whose arm changed the table; default false */
    int acting_seat;         /* acting_known: the seat whose hand made the change. Of the
                              * explanations, only those whose last action is this seat's are
                              * believed, when the rules found them all and one is left;
                              * otherwise it is ignored (never forced onto the table) */
} tracker_table;

typedef struct tracker tracker;

/*
 * A tracker for a new game (created in the archive at once) or, with config->resume, for an
 * archived live game, its state rebuilt by replaying the archived moves (and its last flag
 * remembered, so that the table it was raised for does not raise it again). archive may be NULL:
 * nothing is stored. It is borrowed and must outlive the tracker.
 * *out receives a handle even on failure (tracker_error says why; free it with tracker_free),
 * NULL only when memory ran out. TRACKER_BAD_INPUT: an unknown game, options its rules refuse,
 * a resumed game that is finished, another game's or does not replay; TRACKER_NOT_AVAILABLE:
 * a game whose engine does not reconcile yet; TRACKER_ARCHIVE: the archive failed.
 */
tracker_status tracker_new(const tracker_config *config, db *archive, tracker **out);

/* Frees the tracker (the archive stays open). Accepts NULL and trackers whose tracker_new
 * failed. */
void tracker_free(tracker *t);

/* The last failure's detail, one line. Valid until the next call on this tracker. */
const char *tracker_error(const tracker *t);

/*
 * Takes one settled table: reconciles, commits what is certain (each action archived before it
 * is reported), flags what does not fit (once while it stays the same). Events go to
 * config->on_event in order. A table after the game's end is ignored. TRACKER_ARCHIVE when the
 * archive failed: what was archived before stays committed, the rest is not.
 */
tracker_status tracker_observe(tracker *t, const tracker_table *table);

/* The archived game's id (0 without an archive). */
int64_t tracker_game_id(const tracker *t);

/* The committed game: the engine's state (rules_engine.state_size bytes), valid while the
 * tracker lives, changed by tracker_observe. */
const void *tracker_state(const tracker *t);

/* Actions committed, those replayed on resume included. */
size_t tracker_actions(const tracker *t);

/* Whether an explained table still waits for actions to be committed (who acted, or the
 * candidates of a tie). */
bool tracker_pending(const tracker *t);

/*
 * How many candidates the players may choose from: those the last ambiguous flag listed,
 * while they still wait as it listed them; 0 otherwise.
 */
int tracker_candidates(const tracker *t);

/* Candidate k's actions (1-based, as the flag numbers them), one a line in the notation with
 * the seat's colour ("orange: end\nblack: desert@1,2"); NULL when k is not one. Borrowed,
 * valid until the tracker next changes. */
const char *tracker_candidate(const tracker *t, int k);

/* The last lines every candidate ends with, '\n' between: the same actions after those they
 * differ in (a turn's end and the next seat's tiles, after a camp's count the camera cannot
 * read), which a question shows once, as the flag's text does ("| each followed by: ...").
 * Each candidate keeps at least one line of its own: its first strlen(candidate) -
 * strlen(tail) - 1 bytes. NULL when they share none, or fewer than two wait. Borrowed as
 * tracker_candidate. */
const char *tracker_candidates_tail(const tracker *t);

/*
 * The players say which of the last ambiguous flag's candidates the table shows (1-based, as
 * the flag numbers them): what the camera cannot tell, such as a camp's count. The answer is
 * archived (a correction event naming it), then the candidate's actions are committed, archived
 * and reported as any other, at frame_time. TRACKER_BAD_INPUT when nothing waits to be chosen
 * (tracker_candidates is 0) or candidate is out of range; TRACKER_ARCHIVE as tracker_observe.
 */
tracker_status tracker_choose(tracker *t, int candidate, double frame_time);

/*
 * The players say what was played since the last committed action, where the camera cannot
 * (a misread no candidate fits, a table left unexplained): one or more lines of the notation,
 * '\n' between, each with its seat's prefix as moves are reported ("orange: desert@1,2").
 * Checked whole by the rules from the committed game first: TRACKER_BAD_INPUT, with the rules'
 * reason for the first line refused and nothing archived, when one is not legal or none acts.
 * Then archived (a correction event: {"played": text}), committed, archived and reported as
 * any move, at frame_time, with what the rules force after them; the games waiting as
 * hypotheses are given up (the turn ends they carried are owed again, unless the lines end a
 * turn themselves). What the last table observed showed otherwise of the cells the lines
 * changed is noted: later tables that read those fields alike have them unseen
 * (rules_engine.forgive; the camera misreads a still stack the same way on every table). All
 * that is noted is archived after it (a correction: {"misreads": the engine's line}), so that a
 * resumed game forgives it too. Finally that last table is taken again, so that what it
 * shows beyond the lines is explained at once (and a turn end owed is taken with it).
 * TRACKER_ARCHIVE as tracker_observe.
 */
tracker_status tracker_play(tracker *t, const char *lines, double frame_time);

/*
 * The players take the last committed action back (a misread the rules accepted, committed as
 * a move that did not happen): archived as an undo event (nothing is deleted; a resumed game
 * replays without it), then reported (TRACKER_UNDO, the action's text, the scores without it).
 * The games waiting as hypotheses and the turn ends owed are given up; the next table is
 * explained from the game without it, so the players usually type the right move next
 * (tracker_play). TRACKER_BAD_INPUT when nothing was committed or the game is over;
 * TRACKER_ARCHIVE as tracker_observe.
 */
tracker_status tracker_undo(tracker *t, double frame_time);

/*
 * The players say the last table observed is as the committed game has it: what it shows
 * otherwise, on every cell, is a misread (an old stack read otherwise, a shadow taken for a
 * tile where none may lie), to be forgiven on later tables that read it alike, as after
 * tracker_play; the games waiting as hypotheses are given up, and a turn end owed is taken.
 * Archived as a correction ({"table": "as the game has it"}), then what is noted as after
 * tracker_play ({"misreads": ...}). TRACKER_BAD_INPUT when no table
 * was observed yet or the game cannot forgive; TRACKER_ARCHIVE as tracker_observe.
 */
tracker_status tracker_confirm(tracker *t, double frame_time);

/*
 * The players say the active seat's turn is over (a key at the table), as the game stands after
 * the last table observed: the same as that table's turn_ended, given after it. The end is
 * committed at frame_time, or carried by every waiting game when the table was ambiguous, or
 * owed to the next table explained when it was not explained (or not wholly); one the rules
 * already forced is not ended twice; a seat that has not acted yet raises a
 * TRACKER_FLAG_TURN_END. TRACKER_ARCHIVE as tracker_observe.
 */
tracker_status tracker_end_turn(tracker *t, double frame_time);

#endif
