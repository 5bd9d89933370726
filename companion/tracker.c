/*
 * The tracker: settled tables in, committed actions, flags and the game's end out. What is
 * committed is only what every explanation the rules found agrees on, so that a guess about a
 * turn's end (which no camera sees) is never archived as a move.
 */
#include "tracker.h"

#include "game_log.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HYPOTHESES_MAX 64 /* games the tables may show at once, waiting for one to stand out
                            (bench/README.md: 16 read fewer moves, 256 no more) */
#define CHILDREN_MAX 256 /* the games of one table from all hypotheses, before ranking */
#define HYPOTHESIS_TEXT (2 * RULES_EXPLANATION_TEXT)
/* Lines of one hypothesis: every line of the notation, with its seat's colour and its '\n', is
 * longer than 8 bytes ("grey: end\n"), so HYPOTHESIS_TEXT holds fewer. */
#define MAX_LINES (HYPOTHESIS_TEXT / 8)

/*
 * A game the tables seen may show: the committed game with these actions played on, not
 * committed because the hypotheses disagree on them (a camp's count the camera cannot read,
 * who placed a tile). Each later table is reconciled from every hypothesis, so that a change
 * is explained from the game it follows, and a later table can decide between them.
 */
typedef struct hypothesis {
    int actions, turns_ended; /* played since the last game all hypotheses shared: how the
                               * rules rank them against each other */
    int support;              /* how well the table's picture shows this game (0 at best;
                               * rules_engine.support): the players are offered the likeliest
                               * first */
    int parent;               /* a child's: the hypothesis it came from, -1 the committed game */
    bool parent_full;         /* a child's: the rules kept only the best few games from there */
    char lines[HYPOTHESIS_TEXT]; /* one action a line, '\n' between */
} hypothesis;

struct tracker {
    tracker_config config;
    const rules_game *game;
    const rules_engine *engine;
    db *archive; /* borrowed; NULL: nothing stored */
    int64_t game_id;
    void *state;   /* the committed game */
    void *scratch; /* a copy for one call: game_log_play's, unforced_ends' */
    rules_reconciled *reconciled;
    rules_reconciled *checked; /* a second answer, while reconciled's candidates are read */
    /* hypothesis_count games (0: the committed game is the only one), each with its state
     * (state_size bytes each, in states); the children of a table before they are chosen */
    int hypothesis_count, child_count;
    hypothesis *hypotheses, *children;
    unsigned char *states, *child_states;
    bool pending;         /* an explained table waits for actions to be committed */
    bool choosable;       /* the last flag listed the hypotheses as they are: the players may
                           * choose one (tracker_choose) */
    int ends_carried;     /* signalled turn ends the hypotheses carry, not committed yet: owed
                           * again if the hypotheses are given up */
    bool over;
    bool closed_by_rules; /* the last action committed was forced: the turn is closed already */
    bool end_owed;        /* a signalled turn end waits for the table to settle */
    /* The first turn end owed came where the table stood as end_reading shows it
     * (observation_size bytes): the players signalled it while games waited that were then
     * given up (too many to keep). An explanation from the committed game must end the turn
     * there: what it plays before that end shows on that table, and nothing after it does. */
    bool end_after_reading;
    unsigned char *end_reading;
    bool last_untaken;    /* the last table observed was not taken (unexplained, cut): an end
                             the players signal after it waits for a table that is */
    char last_flag[TRACKER_TEXT_MAX]; /* not raised again while it stays the same */
    /* What the players corrected (tracker_play, tracker_confirm): the last table observed as
     * read, what their word showed the camera misreads (misreads_size bytes:
     * rules_engine.forgive), and a table's observations with those misreads taken out (each
     * observation_size bytes). NULL for a game that cannot forgive. */
    unsigned char *reading, *misreads, *forgiven, *forgiven_cautious;
    bool have_reading; /* reading holds a table (forgiving an empty misreads takes nothing) */
    void *initial;           /* the game before its first action: undo replays from it */
    game_log_moves history;  /* the actions committed that stand, as played: their count is
                                tracker_actions */
    char error[320];
};

const char *tracker_status_message(tracker_status status)
{
    static const char *const messages[] = {
#define TRACKER_STATUS_MESSAGE(name, message) message,
        TRACKER_STATUS_TABLE(TRACKER_STATUS_MESSAGE)
#undef TRACKER_STATUS_MESSAGE
    };
    return (unsigned)status < sizeof messages / sizeof messages[0] ? messages[status] : "?";
}

static tracker_status fail(tracker *t, tracker_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static tracker_status fail(tracker *t, tracker_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(t->error, sizeof t->error, format, args);
    va_end(args);
    return status;
}

static tracker_status archive_failed(tracker *t, const char *doing)
{
    return fail(t, TRACKER_ARCHIVE, "%s: %s", doing, db_error(t->archive));
}

void tracker_config_default(tracker_config *config)
{
    memset(config, 0, sizeof *config);
    config->game = EL_GAME_ID;
    config->options.seats = 2;
}

/* ---- events ---- */

static void event_scores(const tracker *t, tracker_event *event)
{
    event->seat_count = t->engine->seat_count(t->state);
    t->engine->scores(t->state, event->scores);
}

static void report(const tracker *t, const tracker_event *event)
{
    if (t->config.on_event)
        t->config.on_event(t->config.context, event);
}

static tracker_status finish_game(tracker *t, double frame_time)
{
    t->over = true;
    if (t->archive && game_log_finish(t->archive, t->game_id, t->engine, t->state) != DB_OK)
        return archive_failed(t, "finishing the game");
    tracker_event event = {.kind = TRACKER_GAME_OVER, .frame_time = frame_time, .seat = -1};
    event_scores(t, &event);
    t->engine->ranks(t->state, event.ranks);
    report(t, &event);
    return TRACKER_OK;
}

/* Plays, archives and reports one action of an explanation (or one the rules force). */
static tracker_status commit(tracker *t, const char *line, const tracker_table *table,
                             bool forced)
{
    db_event evidence = db_event_make(DB_EVENT_MOVE, -1, NULL);
    evidence.frame_time = table->frame_time;
    evidence.confidence = table->confidence;
    rules_played played;
    int64_t seq = 0;
    char reason[256];
    db_status status = DB_OK;
    switch (game_log_play(t->archive, t->game_id, t->engine, t->state, t->scratch, line,
                          &evidence, &played, &seq, reason, sizeof reason, &status)) {
    case GAME_LOG_REFUSED: /* the rules refusing their own explanation: a bug, said so */
        return fail(t, TRACKER_BAD_INPUT, "the rules refused their own explanation '%.80s': %.120s",
                    line, reason);
    case GAME_LOG_ARCHIVE:
        return archive_failed(t, "archiving a move");
    case GAME_LOG_OK:
        break;
    }
    if (!played.acted)
        return TRACKER_OK;
    if (!game_log_moves_push(&t->history, played.notation))
        return fail(t, TRACKER_NOMEM, "out of memory");
    t->closed_by_rules = forced;
    t->last_flag[0] = '\0';
    tracker_event event = {.kind = TRACKER_MOVE, .frame_time = table->frame_time,
                           .seat = played.seat, .forced = forced, .seq = seq};
    event.colour = played.seat >= 0 ? t->engine->colour(t->state, played.seat) : NULL;
    snprintf(event.text, sizeof event.text, "%s", played.notation);
    event_scores(t, &event);
    report(t, &event);
    return t->engine->is_over(t->state) ? finish_game(t, table->frame_time) : TRACKER_OK;
}

/* Commits what the rules leave no choice about: passes of seats without tiles, ends of turns
 * that can do nothing more. */
static tracker_status commit_forced(tracker *t, const tracker_table *table)
{
    char line[RULES_EXPLANATION_TEXT];
    tracker_status status = TRACKER_OK;
    while (status == TRACKER_OK && !t->over && t->engine->forced(t->state, line, sizeof line))
        status = commit(t, line, table, true);
    return status;
}

static const char *flag_word(tracker_flag_kind kind)
{
    return kind == TRACKER_FLAG_AMBIGUOUS ? "ambiguous"
           : kind == TRACKER_FLAG_TURN_END ? "turn-end"
                                            : "unexplained";
}

/* Archives an event of the table's without an action (none without an archive): its detail
 * (taken, may be NULL when out of memory) and the scores after it. */
static tracker_status archive_event(tracker *t, db_event_kind kind, json_t *detail,
                                    const tracker_table *table, const int32_t *scores,
                                    int64_t *seq, const char *doing)
{
    char *detail_text = detail ? json_dumps(detail, JSON_COMPACT) : NULL;
    json_decref(detail);
    if (!t->archive) {
        free(detail_text);
        return TRACKER_OK;
    }
    if (!detail_text)
        return fail(t, TRACKER_NOMEM, "out of memory");
    db_event stored = db_event_make(kind, -1, NULL);
    stored.detail_json = detail_text;
    stored.frame_time = table->frame_time;
    stored.confidence = table->confidence;
    db_status status = db_event_append(t->archive, t->game_id, &stored, scores, seq);
    free(detail_text);
    return status == DB_OK ? TRACKER_OK : archive_failed(t, doing);
}

/* Archives and reports a flag, unless it is the one raised last. */
static tracker_status raise_flag(tracker *t, tracker_flag_kind kind, const char *reason,
                                 const tracker_table *table)
{
    if (strcmp(reason, t->last_flag) == 0)
        return TRACKER_OK;
    snprintf(t->last_flag, sizeof t->last_flag, "%s", reason);
    tracker_event event = {.kind = TRACKER_FLAG, .flag = kind, .frame_time = table->frame_time,
                           .seat = -1};
    snprintf(event.text, sizeof event.text, "%s", reason);
    event_scores(t, &event);
    tracker_status status = archive_event(
        t, DB_EVENT_FLAG, json_pack("{s:s, s:s}", "flag", flag_word(kind), "reason", reason),
        table, event.scores, &event.seq, "archiving a flag");
    if (status != TRACKER_OK)
        return status;
    report(t, &event);
    return TRACKER_OK;
}

/* ---- a settled table ---- */

/* Splits text's lines in place; returns their number. */
static int split_lines(char *text, char **lines)
{
    int count = 0;
    for (char *line = text; *line && count < MAX_LINES;) {
        lines[count++] = line;
        char *newline = strchr(line, '\n');
        if (!newline)
            break;
        *newline = '\0';
        line = newline + 1;
    }
    return count;
}

/* Where the last n lines of text begin (past the '\n' before them); -1 when text has no more
 * than n lines, so that none would be left of its own. */
static long last_lines_from(const char *text, int n)
{
    long at = (long)strlen(text);
    for (int found = 0; found < n; found++) {
        while (at > 0 && text[at - 1] != '\n')
            at--;
        if (at == 0)
            return -1;
        at--; /* onto the '\n' */
    }
    return at + 1;
}

/* The k-th of the games listed: games[kept[k]], or games[k] when kept is NULL (all). */
static const char *listed_lines(const hypothesis *games, const int *kept, int k)
{
    return games[kept ? kept[k] : k].lines;
}

/* How many last lines the count games listed (kept: which, NULL the first count) all end with
 * (the same actions after the one they differ in: a turn's end and the next seat's tiles after
 * a camp's count), each game keeping at least one line of its own; 0 for fewer than two. */
static int shared_tail(const hypothesis *games, const int *kept, int count)
{
    int shared = 0;
    for (bool same = count > 1; same; shared += same) {
        const char *first = listed_lines(games, kept, 0);
        long first_from = last_lines_from(first, shared + 1);
        same = first_from >= 0;
        for (int k = 1; k < count && same; k++) {
            const char *lines = listed_lines(games, kept, k);
            long from = last_lines_from(lines, shared + 1);
            same = from >= 0 && strcmp(lines + from, first + first_from) == 0;
        }
    }
    return shared;
}

/* Appends text's first length bytes to out (*used of size taken), each '\n' written "; ";
 * false when they did not all fit (cut there). */
static bool append_lines(char *out, size_t size, size_t *used, const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        bool newline = text[i] == '\n';
        if (*used + (newline ? 2 : 1) >= size)
            return false;
        if (newline) {
            out[(*used)++] = ';';
            out[(*used)++] = ' ';
        } else {
            out[(*used)++] = text[i];
        }
        out[*used] = '\0';
    }
    return true;
}

/* "ambiguous: (1) orange: desert-camp@1,2 x2 | (2) orange: desert-camp@1,2 x3 | each followed
 * by: orange: end; black: desert@2,2": what every game ends with said once, so that a question
 * asked again after a few more tables still shows what it is about. The games as shared_tail
 * takes them. The candidates are cut to fit, what they end with kept (cut too past half of
 * out). */
static void list_candidates(const hypothesis *games, const int *kept, int count, char *out,
                            size_t size)
{
    int shared = shared_tail(games, kept, count);
    char tail[TRACKER_TEXT_MAX] = "";
    if (shared) {
        const char *first = listed_lines(games, kept, 0);
        const char *lines = first + last_lines_from(first, shared);
        size_t used = (size_t)snprintf(tail, sizeof tail, " | each followed by: ");
        append_lines(tail, sizeof tail, &used, lines, strlen(lines)); /* cut to fit */
    }
    static const char cut[] = " ...";
    size_t room = (strlen(tail) < size / 2 ? size - strlen(tail) : size - size / 2) - strlen(cut);
    size_t used = (size_t)snprintf(out, room, "ambiguous:");
    int listed = 0;
    for (; listed < count && used + 1 < room; listed++) {
        const char *lines = listed_lines(games, kept, listed);
        used += (size_t)snprintf(out + used, room - used, "%s (%d) ", listed ? " |" : "",
                                 listed + 1);
        if (used >= room)
            break;
        size_t own = shared ? (size_t)last_lines_from(lines, shared) - 1 : strlen(lines);
        if (!append_lines(out, room, &used, lines, own))
            break;
    }
    used = strlen(out);
    snprintf(out + used, size - used, "%s%s", listed < count ? cut : "", tail);
}

/* Flags the first count games as ambiguous, listed in their order. */
static tracker_status flag_games(tracker *t, const hypothesis *games, int count,
                                 const tracker_table *table)
{
    char listed[TRACKER_TEXT_MAX];
    list_candidates(games, NULL, count, listed, sizeof listed);
    return raise_flag(t, TRACKER_FLAG_AMBIGUOUS, listed, table);
}

static void *state_at(const tracker *t, unsigned char *states, int k)
{
    return states + (size_t)k * t->engine->state_size;
}

/* Whether the last line of an explanation is an action of colour ("orange: ..."). */
static bool last_line_by(const char *lines, const char *colour)
{
    const char *last = strrchr(lines, '\n');
    last = last ? last + 1 : lines;
    size_t length = strlen(colour);
    return strncmp(last, colour, length) == 0 && last[length] == ':';
}

/*
 * With the acting seat known, keeps only the candidates whose last action is that seat's, when
 * the rules found every game that fits and at least one is left: a seat's arm seen reaching in
 * is evidence of who acted, never a reason to believe what the rules did not find.
 */
static int keep_acting(const tracker *t, const void *state, const tracker_table *table,
                       int *kept, int count)
{
    const rules_reconciled *r = t->reconciled;
    if (!table->acting_known || r->more || table->acting_seat < 0 ||
        table->acting_seat >= t->engine->seat_count(state))
        return count;
    const char *colour = t->engine->colour(state, table->acting_seat);
    int left[RULES_CANDIDATES], left_count = 0;
    for (int k = 0; k < count; k++)
        if (last_line_by(r->candidates[kept[k]].lines, colour))
            left[left_count++] = kept[k];
    if (left_count == 0)
        return count;
    memcpy(kept, left, (size_t)left_count * sizeof *kept);
    return left_count;
}

/* What reconciling a table from every hypothesis found, besides the children. */
typedef struct table_reading {
    bool search_cut;    /* a search hit its limit */
    char reason[TRACKER_TEXT_MAX]; /* the first hypothesis's reason it does not fit, if any */
} table_reading;

/* Plays an explanation's lines (one a line) on state. forced, if not NULL, counts the lines
 * the rules forced as they came (rules_engine.forced). */
static tracker_status play_explanation(tracker *t, void *state, const char *explanation,
                                       int *forced)
{
    char text[RULES_EXPLANATION_TEXT], *lines[MAX_LINES], reason[256];
    char must[RULES_EXPLANATION_TEXT];
    snprintf(text, sizeof text, "%s", explanation);
    int count = split_lines(text, lines);
    for (int i = 0; i < count; i++) {
        if (forced && t->engine->forced(state, must, sizeof must) && strcmp(must, lines[i]) == 0)
            (*forced)++;
        rules_played played;
        if (t->engine->play_line(state, lines[i], &played, reason, sizeof reason) != RULES_OK)
            return fail(t, TRACKER_BAD_INPUT,
                        "the rules refused their own explanation '%.80s': %.120s", lines[i],
                        reason);
    }
    return TRACKER_OK;
}

/* The players signalled a turn end that a later table must take; a new one comes at a place
 * not known (end_after_reading is set apart, where it is). */
static void owe_end(tracker *t)
{
    if (!t->end_owed)
        t->end_after_reading = false;
    t->end_owed = true;
}

/* The turn ends owed were taken. */
static void end_taken(tracker *t)
{
    t->end_owed = false;
    t->end_after_reading = false;
}

/*
 * Whether an explanation from the committed game (state) ends its first turn where the
 * players signalled that end (end_reading): what it plays before that end, and without an end
 * all of it, leaves the table as end_reading shows it.
 */
static tracker_status ends_where_signalled(tracker *t, const void *state,
                                          const rules_explanation *explanation, bool *fits)
{
    char text[RULES_EXPLANATION_TEXT], *lines[MAX_LINES], reason[256];
    char closing[RULES_EXPLANATION_TEXT];
    snprintf(text, sizeof text, "%s", explanation->lines);
    int count = split_lines(text, lines);
    memcpy(t->scratch, state, t->engine->state_size);
    for (int i = 0; i < count; i++) {
        if (t->engine->close_turn(t->scratch, closing, sizeof closing) &&
            strcmp(closing, lines[i]) == 0)
            break;
        rules_played played;
        if (t->engine->play_line(t->scratch, lines[i], &played, reason, sizeof reason) !=
            RULES_OK)
            return fail(t, TRACKER_BAD_INPUT,
                        "the rules refused their own explanation '%.80s': %.120s", lines[i],
                        reason);
    }
    t->engine->reconcile(t->scratch, t->end_reading, t->checked);
    *fits = t->checked->answer == RULES_UNCHANGED;
    return TRACKER_OK;
}

/*
 * A child of a hypothesis: parent's lines and parent_state with an explanation's actions
 * played on (none: the table unchanged). *room false, no child added, when there is no room
 * for it (too many games, or too many actions waiting): the children are then incomplete.
 */
static tracker_status add_child(tracker *t, const void *parent_state, const hypothesis *parent,
                                const rules_explanation *explanation, int parent_index,
                                bool parent_full, const void *observation, bool *room)
{
    if (t->child_count == CHILDREN_MAX) {
        *room = false;
        return TRACKER_OK;
    }
    hypothesis *child = &t->children[t->child_count];
    const char *more = explanation ? explanation->lines : "";
    int written = snprintf(child->lines, sizeof child->lines, "%s%s%s", parent->lines,
                           parent->lines[0] && more[0] ? "\n" : "", more);
    if (written < 0 || (size_t)written >= sizeof child->lines) {
        *room = false;
        return TRACKER_OK;
    }
    child->actions = parent->actions + (explanation ? explanation->actions : 0);
    child->turns_ended = parent->turns_ended + (explanation ? explanation->turns_ended : 0);
    child->parent = parent_index;
    child->parent_full = parent_full;
    void *state = state_at(t, t->child_states, t->child_count);
    memcpy(state, parent_state, t->engine->state_size);
    tracker_status status = play_explanation(t, state, more, NULL);
    if (status != TRACKER_OK)
        return status;
    child->support = t->engine->support ? t->engine->support(state, observation) : 0;
    t->child_count++;
    return TRACKER_OK;
}

/* Whether an explanation plays from state a turn end (or pass) that the rules did not force
 * (after a seat's third tile they end its turn): one the players must have signalled. */
static tracker_status ends_unforced(tracker *t, const void *state,
                                   const rules_explanation *explanation, bool *unforced)
{
    *unforced = false;
    if (explanation->turns_ended == 0)
        return TRACKER_OK;
    memcpy(t->scratch, state, t->engine->state_size);
    int forced = 0;
    tracker_status status = play_explanation(t, t->scratch, explanation->lines, &forced);
    *unforced = forced < explanation->turns_ended;
    return status;
}

/*
 * Reconciles the table from one game (parent_index -1: the committed game, with no lines) and
 * adds the explanations the tracker believes as children. Fewer actions is the rules'
 * judgement and is kept by the caller's ranking; with turn ends signalled, an explanation that
 * ends a turn by itself (an end the rules did not force) is not believed at all, unless it is
 * explained from the committed game while ends the players signalled are owed to it (signalled
 * at a table not taken, or carried by hypotheses given up): the table may span them, and how
 * many is no longer known, so it is explained as when ends are inferred, fewest first.
 */
static tracker_status explain_from(tracker *t, const void *state, const hypothesis *parent,
                                   int parent_index, const void *observation,
                                   const tracker_table *table, table_reading *reading, bool *room)
{
    rules_reconciled *r = t->reconciled;
    t->engine->reconcile(state, observation, r);
    if (r->answer == RULES_UNCHANGED)
        return add_child(t, state, parent, NULL, parent_index, false, observation, room);
    if (r->answer == RULES_UNEXPLAINED) {
        if (!reading->reason[0])
            snprintf(reading->reason, sizeof reading->reason, "unexplained: %s", r->reason);
        return TRACKER_OK;
    }
    bool ends_owed = parent_index < 0 && (t->end_owed || t->ends_carried > 0);
    int kept[RULES_CANDIDATES], count = 0;
    for (int k = 0; k < r->count; k++) {
        bool unforced = false;
        if (t->config.turn_ends_signalled && !ends_owed) {
            tracker_status status = ends_unforced(t, state, &r->candidates[k], &unforced);
            if (status != TRACKER_OK)
                return status;
        }
        if (!unforced)
            kept[count++] = k;
    }
    count = keep_acting(t, state, table, kept, count);
    if (parent_index < 0 && t->end_owed && t->end_after_reading) {
        int fitting = 0;
        for (int k = 0; k < count; k++) {
            bool fits = false;
            tracker_status status = ends_where_signalled(t, state, &r->candidates[kept[k]], &fits);
            if (status != TRACKER_OK)
                return status;
            if (fits)
                kept[fitting++] = kept[k];
        }
        /* none: the table the end was signalled at was misread, as no game from the committed
         * one shows it; where the end came is then not known after all */
        if (fitting > 0)
            count = fitting;
        else
            t->end_after_reading = false;
    }
    if (count == 0 && !reading->reason[0]) {
        snprintf(reading->reason, sizeof reading->reason, "unexplained: only another seat's "
                 "turn explains the table, and no turn end was signalled: %.200s",
                 r->candidates[0].lines);
        for (char *c = reading->reason; *c; c++)
            if (*c == '\n')
                *c = ';';
    }
    reading->search_cut |= r->search_cut;
    tracker_status status = TRACKER_OK;
    for (int k = 0; k < count && status == TRACKER_OK && *room; k++)
        status = add_child(t, state, parent, &r->candidates[kept[k]], parent_index,
                           r->more, observation, room);
    return status;
}

/* Commits the lines every kept child begins with, and strips them from each. */
static tracker_status commit_agreed(tracker *t, const tracker_table *table, const int *kept,
                                    int count)
{
    char text[HYPOTHESIS_TEXT], *first[MAX_LINES];
    snprintf(text, sizeof text, "%s", t->children[kept[0]].lines);
    int first_count = split_lines(text, first);
    size_t agreed_bytes = 0; /* of each child's text: the lines agreed on and their '\n' */
    int agreed = 0;
    for (; agreed < first_count; agreed++) {
        size_t length = strlen(first[agreed]);
        bool same = true;
        for (int k = 0; k < count && same; k++) {
            const char *text_k = t->children[kept[k]].lines;
            const char *line = text_k + agreed_bytes;
            /* a child whose lines all agreed so far has no more to agree on */
            same = agreed_bytes <= strlen(text_k) && strncmp(line, first[agreed], length) == 0 &&
                   (line[length] == '\n' || line[length] == '\0');
        }
        if (!same)
            break;
        agreed_bytes += length + 1;
    }
    for (int k = 0; k < count; k++) {
        hypothesis *child = &t->children[kept[k]];
        size_t length = strlen(child->lines);
        size_t from = agreed_bytes < length ? agreed_bytes : length;
        memmove(child->lines, child->lines + from, length - from + 1);
    }
    for (int i = 0; i < agreed; i++) {
        tracker_status status = commit(t, first[i], table, false);
        if (status != TRACKER_OK || t->over)
            return status;
    }
    return TRACKER_OK;
}

/*
 * Which games the tracker believes. The rules rank fewer turns ended first, then fewer
 * actions, counted here from the committed game. Fewer actions is the rules' judgement and
 * stands (a caravan the table shows is less likely than a camp's movers that show the same;
 * one that only heights the camera could not tell apart would show is not counted:
 * rules_explanation.actions). Fewer turns ended is not:
 * the camera never sees an `end`, so a seat placing a second plain tile looks exactly like the
 * next seat placing its first. Those games, and ties, are kept beside the best as hypotheses,
 * and only what they all agree on is committed, and only when the rules found every game that
 * fits.
 */
static tracker_status choose_children(tracker *t, const tracker_table *table,
                                      const table_reading *reading, bool room, bool *taken)
{
    *taken = false;
    if (t->child_count == 0) {
        t->pending = t->hypothesis_count > 0;
        return raise_flag(t, TRACKER_FLAG_UNEXPLAINED, reading->reason, table);
    }
    if (reading->search_cut) {
        t->pending = true;
        t->choosable = false; /* the flag lists no candidates */
        return raise_flag(t, TRACKER_FLAG_AMBIGUOUS,
                          "ambiguous: too much changed at once for the search to be sure", table);
    }
    int best = 0;
    for (int k = 1; k < t->child_count; k++) {
        const hypothesis *a = &t->children[k], *b = &t->children[best];
        if (a->turns_ended < b->turns_ended ||
            (a->turns_ended == b->turns_ended && a->actions < b->actions))
            best = k;
    }
    int kept[CHILDREN_MAX] = {0}, count = 0, at_best = 0;
    for (int k = 0; k < t->child_count; k++) {
        const hypothesis *child = &t->children[k], *top = &t->children[best];
        bool same_rank = child->turns_ended == top->turns_ended && child->actions == top->actions;
        at_best += same_rank;
        if (same_rank || child->turns_ended > top->turns_ended)
            kept[count++] = k;
    }
    bool tie = at_best > 1;
    /* The likeliest first, as the picture shows them (stable: the rules' order among equals).
     * What is committed is what they all agree on, in any order. */
    for (int i = 1; i < count && !t->config.unranked; i++) {
        int child = kept[i], at = i;
        while (at > 0 && t->children[child].support > t->children[kept[at - 1]].support) {
            kept[at] = kept[at - 1];
            at--;
        }
        kept[at] = child;
    }
    /* Where the rules kept the best few games only and more than one game is believed, the
     * games left out may disagree with all of them. */
    for (int k = 0; k < count && count > 1; k++)
        room &= !t->children[kept[k]].parent_full;
    /* The hypotheses given up (below) or passed over (explained from the committed game):
     * the turn ends they carried are owed again. */
    if (!room || count > HYPOTHESES_MAX || t->children[kept[0]].parent < 0) {
        if (t->ends_carried > 0)
            owe_end(t);
        t->ends_carried = 0;
    }
    char listed[TRACKER_TEXT_MAX];
    if (!room || count > HYPOTHESES_MAX) {
        /* Not every game that fits is among them: the next table is explained from the
         * committed game again. */
        list_candidates(t->children, kept, count, listed, sizeof listed);
        t->hypothesis_count = 0;
        t->choosable = false;
        t->pending = true;
        return tie ? raise_flag(t, TRACKER_FLAG_AMBIGUOUS, listed, table) : TRACKER_OK;
    }
    /* The committed game's explanations end turns: they played the ends owed, which the
     * hypotheses (if they wait) now carry. */
    if (t->children[best].parent < 0 && t->children[best].turns_ended > 0 && t->end_owed) {
        end_taken(t);
        t->ends_carried = 1;
    }
    *taken = true;
    tracker_status status = commit_agreed(t, table, kept, count);
    if (status != TRACKER_OK || t->over)
        return status;
    t->hypothesis_count = 0;
    bool waiting = false;
    for (int k = 0; k < count; k++)
        waiting |= t->children[kept[k]].lines[0] != '\0';
    if (waiting) {
        for (int k = 0; k < count; k++) {
            t->hypotheses[k] = t->children[kept[k]];
            memcpy(state_at(t, t->states, k), state_at(t, t->child_states, kept[k]),
                   t->engine->state_size);
        }
        t->hypothesis_count = count;
    }
    t->pending = waiting;
    t->choosable = waiting && tie;
    if (!waiting) {
        t->ends_carried = 0; /* committed with the rest */
        t->last_flag[0] = '\0';
        return TRACKER_OK;
    }
    return tie ? flag_games(t, t->hypotheses, count, table) : TRACKER_OK;
}

/*
 * Explains an observation of the table from every hypothesis (or the committed game when there
 * is none), then, when none fits, from the committed game: an earlier table's misread may have
 * misled the hypotheses, and the committed game is all that is certain.
 */
static tracker_status explain_table(tracker *t, const void *observation,
                                    const tracker_table *table, table_reading *reading,
                                    bool *room)
{
    static const hypothesis none = {0};
    tracker_status status = TRACKER_OK;
    for (int h = 0; h < t->hypothesis_count && status == TRACKER_OK && *room; h++)
        status = explain_from(t, state_at(t, t->states, h), &t->hypotheses[h], h, observation,
                              table, reading, room);
    if (status == TRACKER_OK && t->child_count == 0 && *room)
        status = explain_from(t, t->state, &none, -1, observation, table, reading, room);
    return status;
}

/* The table's observation, then, when no game fits it, its cautious one. *taken: the table
 * was explained and is now the committed game or the hypotheses'. */
static tracker_status take_table(tracker *t, const tracker_table *table, bool *taken)
{
    *taken = false;
    table_reading reading = {0}, cautious = {0};
    bool room = true;
    t->child_count = 0;
    tracker_status status = explain_table(t, table->observation, table, &reading, &room);
    if (status == TRACKER_OK && t->child_count == 0 && room && table->cautious_observation) {
        status = explain_table(t, table->cautious_observation, table, &cautious, &room);
        reading.search_cut |= cautious.search_cut;
    }
    return status == TRACKER_OK ? choose_children(t, table, &reading, room, taken) : status;
}

/* Plays an action the rules give (a turn end, a forced pass) onto a hypothesis and adds its
 * line; *room false, nothing changed, when the line does not fit. */
static tracker_status append_action(tracker *t, hypothesis *game, void *state, const char *line,
                                    bool *room)
{
    size_t used = strlen(game->lines);
    if (used + 1 + strlen(line) >= sizeof game->lines) {
        *room = false;
        return TRACKER_OK;
    }
    rules_played played;
    char reason[256];
    if (t->engine->play_line(state, line, &played, reason, sizeof reason) != RULES_OK)
        return fail(t, TRACKER_BAD_INPUT, "the rules refused their own '%.80s': %.120s", line,
                    reason);
    snprintf(game->lines + used, sizeof game->lines - used, "%s%s", used ? "\n" : "", line);
    game->actions++;
    game->turns_ended++; /* an end or a pass */
    return TRACKER_OK;
}

/*
 * Closes the turn of a game waiting as a hypothesis (its state at state): the end, then what
 * the rules force after it (the next seat's pass), as the committed game's commit_forced
 * would. *closed false, the game left half-changed, when the turn cannot end yet or the lines
 * do not fit (the game is then dropped, as a hypothesis past the limit).
 */
static tracker_status close_hypothesis(tracker *t, hypothesis *game, void *state, bool *closed)
{
    char line[RULES_EXPLANATION_TEXT];
    *closed = false;
    if (!t->engine->close_turn(state, line, sizeof line))
        return TRACKER_OK;
    bool room = true;
    tracker_status status = TRACKER_OK;
    do
        status = append_action(t, game, state, line, &room);
    while (status == TRACKER_OK && room && t->engine->forced(state, line, sizeof line));
    *closed = status == TRACKER_OK && room;
    return status;
}

/*
 * Adds to the children the game of hypothesis h (its state at state) with its turn closed,
 * and, when the table last read (observation, NULL: none) is given, the same game with each
 * action the seat may have played unseen before the end (rules_engine.hidden_actions: a token
 * only the stacks' heights show), ranked as the end alone. *hidden: such actions were added;
 * *complete false when some were not (more than the rules list, or than HYPOTHESES_MAX).
 * hidden_known: t->reconciled holds the rules' hidden actions for this state and observation
 * already.
 */
static tracker_status close_with_hidden(tracker *t, const hypothesis *h, const void *state,
                                        const void *observation, bool hidden_known, bool *hidden,
                                        bool *complete)
{
    rules_reconciled *r = t->reconciled;
    if (!hidden_known) {
        r->count = 0;
        r->more = false;
        if (observation && t->engine->hidden_actions)
            t->engine->hidden_actions(state, observation, r);
    }
    *complete &= !r->more && t->child_count + 1 + r->count <= HYPOTHESES_MAX;
    for (int k = -1; k < r->count && t->child_count < HYPOTHESES_MAX; k++) {
        hypothesis *child = &t->children[t->child_count];
        void *child_state = state_at(t, t->child_states, t->child_count);
        *child = *h;
        memcpy(child_state, state, t->engine->state_size);
        if (k >= 0) {
            const char *line = r->candidates[k].lines;
            size_t used = strlen(child->lines);
            rules_played played;
            char reason[256];
            if (used + 1 + strlen(line) >= sizeof child->lines)
                continue;
            if (t->engine->play_line(child_state, line, &played, reason, sizeof reason) !=
                RULES_OK)
                return fail(t, TRACKER_BAD_INPUT, "the rules refused their own '%.80s': %.120s",
                            line, reason);
            snprintf(child->lines + used, sizeof child->lines - used, "%s%s", used ? "\n" : "",
                     line);
            child->actions += r->candidates[k].actions; /* 0: the table does not show it */
        }
        bool closed;
        tracker_status status = close_hypothesis(t, child, child_state, &closed);
        if (status != TRACKER_OK)
            return status;
        if (!closed)
            continue;
        if (observation && t->engine->support)
            child->support = t->engine->support(child_state, observation);
        *hidden |= k >= 0;
        t->child_count++;
    }
    return TRACKER_OK;
}

/*
 * The players said the turn is over while hypotheses wait (or the committed game's end may hide
 * a token: then it is the one hypothesis given): each closes its turn, so that the next seat's
 * actions are explained from there (with turn ends signalled, no explanation ends a turn by
 * itself). Those that cannot end the turn yet are dropped; when none can, the end stays owed.
 * Where the table last read (observation) leaves room for a token played unseen before the
 * end, the game with it waits beside the game without, and the players are asked.
 * hidden_known: the rules' hidden actions for the first hypothesis are in t->reconciled
 * already.
 */
static tracker_status end_hypotheses_turn(tracker *t, const void *observation,
                                          bool hidden_known, const tracker_table *table)
{
    t->child_count = 0;
    bool hidden = false, complete = true;
    for (int h = 0; h < t->hypothesis_count; h++) {
        tracker_status status = close_with_hidden(t, &t->hypotheses[h],
                                                  state_at(t, t->states, h), observation,
                                                  hidden_known && h == 0, &hidden, &complete);
        if (status != TRACKER_OK)
            return status;
    }
    int kept = t->child_count;
    if (kept == 0) { /* an end owed after the hypotheses' games, not the committed one */
        t->end_owed = true;
        t->end_after_reading = false;
        return TRACKER_OK;
    }
    end_taken(t);
    if (!complete) {
        /* where the end came is known when it is the first owed: no hypothesis carried one */
        bool placed = observation != NULL && t->ends_carried == 0;
        /* Not every game the table leaves open could be kept: as choose_children does then,
         * the games are given up, and the next table is explained from the committed game
         * with the ends owed (the tokens ranked there as the end alone). */
        t->child_count = 0;
        t->hypothesis_count = 0;
        t->choosable = false;
        t->pending = true;
        t->end_owed = true;
        t->ends_carried = 0;
        /* the end came after what the table last read showed */
        t->end_after_reading = placed;
        if (placed)
            memcpy(t->end_reading, observation, t->engine->observation_size);
        return flag_games(t, t->children, kept, table);
    }
    /* with games dropped (their turn could not end), the last flag's numbers are stale */
    t->choosable = hidden || (t->choosable && kept == t->hypothesis_count);
    for (int k = 0; k < kept; k++) {
        t->hypotheses[k] = t->children[k];
        memcpy(state_at(t, t->states, k), state_at(t, t->child_states, k),
               t->engine->state_size);
    }
    t->child_count = 0;
    t->hypothesis_count = kept;
    t->ends_carried++;
    t->pending = true;
    return hidden ? flag_games(t, t->hypotheses, kept, table) : TRACKER_OK;
}

/* The table last read, with what the players' word showed the camera misreads taken out; NULL
 * when none was read (or the game cannot forgive, which keeps no reading). */
static const void *last_reading(tracker *t, const tracker_table *table)
{
    if (table->observation)
        return table->observation; /* the table just taken, forgiven already */
    if (!t->have_reading)
        return NULL;
    memcpy(t->forgiven, t->reading, t->engine->observation_size);
    t->engine->forgive(t->state, t->misreads, t->forgiven);
    return t->forgiven;
}

/* The players said the turn is over: close it once the table is settled. */
static tracker_status take_turn_end(tracker *t, const tracker_table *table)
{
    if (t->pending && t->hypothesis_count > 0)
        return end_hypotheses_turn(t, last_reading(t, table), false, table);
    if (t->pending) {
        owe_end(t);
        return TRACKER_OK;
    }
    end_taken(t);
    if (t->closed_by_rules || t->over)
        return TRACKER_OK;
    char line[RULES_EXPLANATION_TEXT];
    if (!t->engine->close_turn(t->state, line, sizeof line)) {
        char reason[TRACKER_TEXT_MAX];
        snprintf(reason, sizeof reason, "turn end: %s cannot end the turn before acting",
                 t->engine->colour(t->state, t->engine->active_seat(t->state)));
        return raise_flag(t, TRACKER_FLAG_TURN_END, reason, table);
    }
    /* A token the table may not show: the end alone is one game of several, each waiting as
     * a hypothesis until the players (or a later table) tell which. */
    const void *observation = last_reading(t, table);
    if (observation && t->engine->hidden_actions) {
        t->engine->hidden_actions(t->state, observation, t->reconciled);
        if (t->reconciled->count > 0) {
            t->hypotheses[0] = (hypothesis){.parent = -1};
            memcpy(state_at(t, t->states, 0), t->state, t->engine->state_size);
            t->hypothesis_count = 1;
            t->choosable = false;
            return end_hypotheses_turn(t, observation, true, table); /* known just now */
        }
    }
    tracker_status status = commit(t, line, table, false);
    return status == TRACKER_OK ? commit_forced(t, table) : status;
}

/* The table with what the players' word showed the camera misreads taken out. */
static tracker_table forgiven(tracker *t, const tracker_table *table)
{
    tracker_table kept = *table;
    if (!t->misreads)
        return kept;
    size_t size = t->engine->observation_size;
    memcpy(t->forgiven, table->observation, size);
    t->engine->forgive(t->state, t->misreads, t->forgiven);
    kept.observation = t->forgiven;
    if (table->cautious_observation) {
        memcpy(t->forgiven_cautious, table->cautious_observation, size);
        t->engine->forgive(t->state, t->misreads, t->forgiven_cautious);
        kept.cautious_observation = t->forgiven_cautious;
    }
    return kept;
}

tracker_status tracker_observe(tracker *t, const tracker_table *given)
{
    if (!given || !given->observation)
        return fail(t, TRACKER_BAD_INPUT, "a settled table needs its observation");
    if (t->over)
        return TRACKER_OK;
    if (t->reading && given->observation != t->reading)
        memcpy(t->reading, given->observation, t->engine->observation_size);
    t->have_reading = t->reading != NULL;
    tracker_table forgiven_table = forgiven(t, given);
    const tracker_table *table = &forgiven_table;
    bool taken;
    tracker_status status = take_table(t, table, &taken);
    t->last_untaken = !taken;
    if (status != TRACKER_OK || t->over)
        return status;
    if (!t->pending)
        status = commit_forced(t, table);
    /* an end signalled at a table not taken (unexplained, cut, too many games) waits for one */
    if (table->turn_ended)
        owe_end(t);
    if (status == TRACKER_OK && !t->over && t->end_owed && taken)
        status = take_turn_end(t, table);
    return status;
}

tracker_status tracker_choose(tracker *t, int candidate, double frame_time)
{
    if (t->over || !t->choosable)
        return fail(t, TRACKER_BAD_INPUT, "nothing to choose: no ambiguous table waits");
    if (candidate < 1 || candidate > t->hypothesis_count)
        return fail(t, TRACKER_BAD_INPUT, "candidate %d: the table waits on candidates 1 to %d",
                    candidate, t->hypothesis_count);
    hypothesis *chosen = &t->hypotheses[candidate - 1];
    tracker_table now = {.frame_time = frame_time, .confidence = NAN};
    int32_t scores[RULES_MAX_SEATS];
    t->engine->scores(t->state, scores);
    /* the answer archived as a correction: {"chose": k, "of": n, "actions": "..."} */
    tracker_status status = archive_event(
        t, DB_EVENT_CORRECTION,
        json_pack("{s:i, s:i, s:s}", "chose", candidate, "of", t->hypothesis_count, "actions",
                  chosen->lines),
        &now, scores, NULL, "archiving the players' answer");
    if (status != TRACKER_OK)
        return status;
    char *lines[MAX_LINES];
    int count = split_lines(chosen->lines, lines);
    t->hypothesis_count = 0;
    t->choosable = false;
    t->pending = false;
    t->ends_carried = 0; /* the chosen game's lines hold them: committed with the rest */
    for (int i = 0; i < count && status == TRACKER_OK && !t->over; i++)
        status = commit(t, lines[i], &now, false);
    if (status == TRACKER_OK && !t->over)
        status = commit_forced(t, &now);
    if (status == TRACKER_OK && !t->over && t->end_owed)
        status = take_turn_end(t, &now);
    return status;
}

/* The games waiting as hypotheses, given up for what the players say: the turn ends they
 * carried are owed again, unless the players' own lines end a turn. */
static void give_up_hypotheses(tracker *t, bool players_ended)
{
    bool owed = !players_ended && (t->end_owed || t->ends_carried > 0);
    end_taken(t);
    t->end_owed = owed; /* where the players' lines leave it, not known */
    t->hypothesis_count = 0;
    t->ends_carried = 0;
    t->choosable = false;
    t->pending = false;
}

/* The misreads noted so far, archived as a correction ({"misreads": "2,1 read height 3"}),
 * so that a game resumed after a cut forgives them too (the last such correction holds them
 * all). */
static tracker_status archive_misreads(tracker *t, const tracker_table *now)
{
    if (!t->engine->format_misreads || !t->archive)
        return TRACKER_OK;
    int length = t->engine->format_misreads(t->state, t->misreads, NULL, 0);
    char *text = length >= 0 ? malloc((size_t)length + 1) : NULL;
    if (!text)
        return fail(t, TRACKER_NOMEM, "out of memory");
    t->engine->format_misreads(t->state, t->misreads, text, (size_t)length + 1);
    int32_t scores[RULES_MAX_SEATS];
    t->engine->scores(t->state, scores);
    tracker_status status = archive_event(t, DB_EVENT_CORRECTION,
                                          json_pack("{s:s}", "misreads", text), now, scores,
                                          NULL, "archiving what the camera misreads");
    free(text);
    return status;
}

/* After the players' word, the committed game (lines played from before; before NULL: the
 * table is as the game has it): what the last table observed showed otherwise is noted, to be
 * forgiven. After lines played, that table is taken again, so that what it shows beyond them
 * is explained now (an end owed taken with it); after "as the game has it" it is not: nothing
 * more happened, and what the notes leave of it (a hand read as tiles where a tile may lie)
 * would be taken for moves. */
static tracker_status after_players(tracker *t, const void *before, double frame_time)
{
    if (t->over)
        return TRACKER_OK;
    tracker_table now = {.frame_time = frame_time, .confidence = NAN};
    if (t->have_reading && t->engine->forgive) {
        t->engine->note_misreads(before, t->state, t->reading, t->misreads);
        tracker_status status = archive_misreads(t, &now);
        if (status != TRACKER_OK)
            return status;
        if (before) {
            now.observation = t->reading;
            return tracker_observe(t, &now);
        }
    }
    return t->end_owed ? take_turn_end(t, &now) : TRACKER_OK;
}

tracker_status tracker_play(tracker *t, const char *text, double frame_time)
{
    if (t->over)
        return fail(t, TRACKER_BAD_INPUT, "the game is over: nothing more can be played");
    char copy[HYPOTHESIS_TEXT], *lines[MAX_LINES], reason[256];
    if (!text || strlen(text) >= sizeof copy)
        return fail(t, TRACKER_BAD_INPUT, "the lines played: none, or too long");
    snprintf(copy, sizeof copy, "%s", text);
    int count = split_lines(copy, lines);
    /* Checked whole before anything is archived: the rules refuse a line, or nothing is
     * played at all. */
    memcpy(t->scratch, t->state, t->engine->state_size);
    int acted = 0, ended = 0;
    for (int i = 0; i < count; i++) {
        int seat = t->engine->active_seat(t->scratch);
        rules_played played;
        if (t->engine->play_line(t->scratch, lines[i], &played, reason, sizeof reason) !=
            RULES_OK)
            return fail(t, TRACKER_BAD_INPUT, "'%.80s': %.160s", lines[i], reason);
        acted += played.acted;
        ended += played.acted && t->engine->active_seat(t->scratch) != seat;
    }
    if (acted == 0)
        return fail(t, TRACKER_BAD_INPUT, "the lines played: no action in them");
    void *before = malloc(t->engine->state_size);
    if (!before)
        return fail(t, TRACKER_NOMEM, "out of memory");
    memcpy(before, t->state, t->engine->state_size);
    tracker_table now = {.frame_time = frame_time, .confidence = NAN};
    int32_t scores[RULES_MAX_SEATS];
    t->engine->scores(t->state, scores);
    /* the players' lines archived as a correction: {"played": "..."} */
    tracker_status status = archive_event(t, DB_EVENT_CORRECTION,
                                          json_pack("{s:s}", "played", text), &now, scores,
                                          NULL, "archiving the players' lines");
    give_up_hypotheses(t, ended > 0);
    for (int i = 0; i < count && status == TRACKER_OK && !t->over; i++)
        status = commit(t, lines[i], &now, false);
    if (status == TRACKER_OK && !t->over)
        status = commit_forced(t, &now);
    if (status == TRACKER_OK)
        status = after_players(t, before, frame_time);
    free(before);
    return status;
}

tracker_status tracker_confirm(tracker *t, double frame_time)
{
    if (t->over)
        return fail(t, TRACKER_BAD_INPUT, "the game is over");
    if (!t->have_reading || !t->engine->forgive)
        return fail(t, TRACKER_BAD_INPUT, "no table read yet that could be misread");
    tracker_table now = {.frame_time = frame_time, .confidence = NAN};
    int32_t scores[RULES_MAX_SEATS];
    t->engine->scores(t->state, scores);
    /* archived as a correction: {"table": "as the game has it"} */
    tracker_status status = archive_event(t, DB_EVENT_CORRECTION,
                                          json_pack("{s:s}", "table", "as the game has it"),
                                          &now, scores, NULL, "archiving the players' word");
    if (status != TRACKER_OK)
        return status;
    give_up_hypotheses(t, false);
    return after_players(t, NULL, frame_time);
}

tracker_status tracker_undo(tracker *t, double frame_time)
{
    if (t->over)
        return fail(t, TRACKER_BAD_INPUT, "the game is over: its moves stand");
    if (t->history.count == 0)
        return fail(t, TRACKER_BAD_INPUT, "nothing to take back: no move committed");
    /* the game without its last action, checked before anything is archived */
    memcpy(t->scratch, t->initial, t->engine->state_size);
    char reason[256];
    size_t standing = t->history.count - 1;
    if (game_log_moves_play(t->engine, t->scratch, &t->history, standing, reason,
                            sizeof reason) < standing)
        return fail(t, TRACKER_BAD_INPUT, "the moves before the last do not replay: %.160s",
                    reason);
    tracker_table now = {.frame_time = frame_time, .confidence = NAN};
    tracker_event event = {.kind = TRACKER_UNDO, .frame_time = frame_time, .seat = -1};
    snprintf(event.text, sizeof event.text, "%s", t->history.notation[t->history.count - 1]);
    event.seat_count = t->engine->seat_count(t->scratch);
    t->engine->scores(t->scratch, event.scores);
    tracker_status status = archive_event(t, DB_EVENT_UNDO, json_pack("{s:s}", "undone",
                                                                      event.text),
                                          &now, event.scores, &event.seq,
                                          "archiving the undo");
    if (status != TRACKER_OK)
        return status;
    memcpy(t->state, t->scratch, t->engine->state_size);
    game_log_moves_pop(&t->history);
    give_up_hypotheses(t, true); /* the ends the players owed went with the game undone */
    t->closed_by_rules = false;
    t->last_flag[0] = '\0';
    report(t, &event);
    return TRACKER_OK;
}

tracker_status tracker_end_turn(tracker *t, double frame_time)
{
    if (t->over)
        return TRACKER_OK;
    tracker_table now = {.frame_time = frame_time, .confidence = NAN};
    owe_end(t);
    return t->last_untaken ? TRACKER_OK : take_turn_end(t, &now);
}

int tracker_candidates(const tracker *t)
{
    return t->choosable && !t->over ? t->hypothesis_count : 0;
}

const char *tracker_candidate(const tracker *t, int k)
{
    return k >= 1 && k <= tracker_candidates(t) ? t->hypotheses[k - 1].lines : NULL;
}

const char *tracker_candidates_tail(const tracker *t)
{
    int shared = shared_tail(t->hypotheses, NULL, tracker_candidates(t));
    return shared ? t->hypotheses[0].lines + last_lines_from(t->hypotheses[0].lines, shared)
                  : NULL;
}

/* ---- life ---- */

/* What a resumed game takes back from its events (db_events_foreach). */
typedef struct remembered {
    char *last_flag; /* the reason of the last flag, when nothing came after it: any other
                        event, a move or a correction, means the table changed since */
    char *misreads;  /* the last misreads archived (archive_misreads), or NULL; caller frees */
    bool out_of_memory;
} remembered;

static int remember(void *context, const db_event *event, const int32_t *scores)
{
    (void)scores;
    remembered *r = context;
    r->last_flag[0] = '\0';
    json_t *detail = event->detail_json ? json_loads(event->detail_json, 0, NULL) : NULL;
    if (event->kind == DB_EVENT_FLAG) {
        const char *reason = json_string_value(json_object_get(detail, "reason"));
        snprintf(r->last_flag, TRACKER_TEXT_MAX, "%s", reason ? reason : "");
    }
    const char *misreads = json_string_value(json_object_get(detail, "misreads"));
    if (event->kind == DB_EVENT_CORRECTION && misreads) {
        free(r->misreads);
        r->misreads = strdup(misreads);
        r->out_of_memory |= !r->misreads;
    }
    json_decref(detail);
    return 0;
}

/* The misreads the players' word showed before the cut, forgiven again. */
static tracker_status resume_misreads(tracker *t, const char *text)
{
    if (!text || !t->misreads || !t->engine->parse_misreads)
        return TRACKER_OK;
    char reason[256];
    if (t->engine->parse_misreads(t->state, text, t->misreads, reason, sizeof reason) !=
        RULES_OK)
        return fail(t, TRACKER_BAD_INPUT, "game %lld: its misreads '%.60s': %.160s",
                    (long long)t->game_id, text, reason);
    return TRACKER_OK;
}

static tracker_status resume_game(tracker *t)
{
    if (!t->archive)
        return fail(t, TRACKER_BAD_INPUT, "resuming game %lld needs its archive",
                    (long long)t->config.resume);
    db_game *stored = malloc(sizeof *stored);
    if (!stored)
        return fail(t, TRACKER_NOMEM, "out of memory");
    tracker_status status = TRACKER_OK;
    db_status db_result = db_game_get(t->archive, t->config.resume, stored);
    rules_options options;
    char board[64];
    char reason[256];
    size_t moves = 0;
    if (db_result != DB_OK) {
        status = fail(t, db_result == DB_NOT_FOUND ? TRACKER_BAD_INPUT : TRACKER_ARCHIVE,
                      "game %lld: %s", (long long)t->config.resume, db_error(t->archive));
    } else if (stored->status == DB_GAME_FINISHED) {
        status = fail(t, TRACKER_BAD_INPUT, "game %lld is finished: nothing to resume",
                      (long long)stored->id);
    } else if (strcmp(stored->game, t->game->id) != 0) {
        status = fail(t, TRACKER_BAD_INPUT, "game %lld is %s, not %s", (long long)stored->id,
                      stored->game, t->game->id);
    } else {
        game_log_options(stored, &options, board, sizeof board);
        if (board[0])
            status = fail(t, TRACKER_NOT_AVAILABLE, "game %lld is played on board %s: tracking "
                          "a board file's game is not available yet", (long long)stored->id, board);
        else if (t->engine->init(t->state, &options, reason, sizeof reason) != RULES_OK)
            status = fail(t, TRACKER_BAD_INPUT, "game %lld: its options: %s",
                          (long long)stored->id, reason);
    }
    if (status == TRACKER_OK) {
        memcpy(t->initial, t->state, t->engine->state_size);
        switch (game_log_replay(t->archive, stored->id, t->engine, t->state, &moves, &t->history,
                                reason, sizeof reason, &db_result)) {
        case GAME_LOG_ARCHIVE:
            status = archive_failed(t, "reading the game's moves");
            break;
        case GAME_LOG_REFUSED:
            status = fail(t, TRACKER_BAD_INPUT, "game %lld does not replay at %s",
                          (long long)stored->id, reason);
            break;
        case GAME_LOG_OK:
            t->game_id = stored->id; /* its moves are the history's */
            /* A flag raised before the cut is not raised again for the same table; what the
             * players corrected is forgiven again. */
            remembered r = {t->last_flag, NULL, false};
            if (db_events_foreach(t->archive, stored->id, remember, &r) != DB_OK)
                status = archive_failed(t, "reading the game's events");
            else if (r.out_of_memory)
                status = fail(t, TRACKER_NOMEM, "out of memory");
            else
                status = resume_misreads(t, r.misreads);
            free(r.misreads);
            break;
        }
    }
    free(stored);
    return status;
}

tracker_status tracker_new(const tracker_config *config, db *archive, tracker **out)
{
    tracker *t = calloc(1, sizeof *t);
    *out = t;
    if (!t)
        return TRACKER_NOMEM;
    t->config = *config;
    t->archive = archive;
    if (!config->game || !(t->game = rules_game_find(config->game)))
        return fail(t, TRACKER_BAD_INPUT, "unknown game '%s'", config->game ? config->game : "");
    t->engine = t->game->engine;
    if (!t->engine || !t->engine->reconcile || !t->engine->close_turn || !t->engine->forced)
        return fail(t, TRACKER_NOT_AVAILABLE, "%s: tracking is not available yet", t->game->id);
    if (!(t->state = calloc(1, t->engine->state_size)) ||
        !(t->scratch = calloc(1, t->engine->state_size)) ||
        !(t->reconciled = malloc(sizeof *t->reconciled)) ||
        !(t->checked = malloc(sizeof *t->checked)) ||
        !(t->end_reading = calloc(1, t->engine->observation_size)) ||
        !(t->hypotheses = malloc(HYPOTHESES_MAX * sizeof *t->hypotheses)) ||
        !(t->children = malloc(CHILDREN_MAX * sizeof *t->children)) ||
        !(t->states = malloc(HYPOTHESES_MAX * t->engine->state_size)) ||
        !(t->child_states = malloc(CHILDREN_MAX * t->engine->state_size)) ||
        !(t->initial = calloc(1, t->engine->state_size)))
        return fail(t, TRACKER_NOMEM, "out of memory");
    if (t->engine->forgive && t->engine->note_misreads &&
        (!(t->reading = calloc(1, t->engine->observation_size)) ||
         !(t->misreads = calloc(1, t->engine->misreads_size)) ||
         !(t->forgiven = calloc(1, t->engine->observation_size)) ||
         !(t->forgiven_cautious = calloc(1, t->engine->observation_size))))
        return fail(t, TRACKER_NOMEM, "out of memory");
    if (config->resume) {
        tracker_status status = resume_game(t);
        if (status != TRACKER_OK)
            return status;
        /* What the rules forced after the last archived move may not have been stored yet. */
        tracker_table now = {.frame_time = NAN, .confidence = NAN};
        return commit_forced(t, &now);
    }
    char reason[256];
    if (t->engine->init(t->state, &config->options, reason, sizeof reason) != RULES_OK)
        return fail(t, TRACKER_BAD_INPUT, "%s: %s", t->game->id, reason);
    memcpy(t->initial, t->state, t->engine->state_size);
    if (archive && game_log_create(archive, t->game, t->state, config->options.flags, NULL, 0,
                                   NULL, 0, &t->game_id) != DB_OK)
        return archive_failed(t, "creating the game");
    return TRACKER_OK;
}

void tracker_free(tracker *t)
{
    if (!t)
        return;
    free(t->state);
    free(t->scratch);
    free(t->reconciled);
    free(t->checked);
    free(t->end_reading);
    free(t->hypotheses);
    free(t->children);
    free(t->states);
    free(t->child_states);
    free(t->reading);
    free(t->misreads);
    free(t->forgiven);
    free(t->forgiven_cautious);
    free(t->initial);
    game_log_moves_free(&t->history);
    free(t);
}

const char *tracker_error(const tracker *t)
{
    return t->error;
}

int64_t tracker_game_id(const tracker *t)
{
    return t->game_id;
}

const void *tracker_state(const tracker *t)
{
    return t->state;
}

size_t tracker_actions(const tracker *t)
{
    return t->history.count;
}

bool tracker_pending(const tracker *t)
{
    return t->pending;
}
