/*
 * The players at the table, played from a script (scripted_players.h).
 */
#define _XOPEN_SOURCE 700
#include "scripted_players.h"

#include <jansson.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int players_tablescribe(const char *path, const char *const *args)
{
    char *argv[64];
    int count = 0;
    argv[count++] = "tablescribe";
    for (int i = 0; args[i] && count < 63; i++)
        argv[count++] = (char *)args[i];
    argv[count] = NULL;
    const char *command = args[0] ? args[0] : "";
    fflush(stdout);
    fflush(stderr);
    pid_t child = fork();
    if (child == 0) {
        execv(path, argv);
        _exit(127); /* said below */
    }
    int status = 0;
    pid_t waited = child;
    if (child > 0)
        while ((waited = waitpid(child, &status, 0)) < 0 && errno == EINTR)
            ;
    if (child < 0 || waited != child || (WIFEXITED(status) && WEXITSTATUS(status) == 127)) {
        fprintf(stderr, "tablescribe %s: could not run %s\n", command, path);
        return 1;
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "tablescribe %s died of signal %d\n", command, WTERMSIG(status));
        return 1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

void players_script_add(void *script, const char *line)
{
    players_script *s = script;
    if (s->count < PLAYERS_LINES_MAX)
        snprintf(s->lines[s->count++], sizeof s->lines[0], "%s", line);
}

bool players_ends_turn(const char *line)
{
    size_t length = strlen(line);
    return length >= 5 && strcmp(line + length - 5, ": end") == 0;
}

/* Appends a truth's "frames": [first, last] to spans, count of them (PLAYERS_HAND_SPANS at
 * most). */
static void add_span(int spans[][2], int *count, json_t *frames)
{
    json_t *first = json_array_get(frames, 0), *last = json_array_get(frames, 1);
    if (json_is_integer(first) && json_is_integer(last) && *count < PLAYERS_HAND_SPANS) {
        spans[*count][0] = (int)json_integer_value(first);
        spans[*count][1] = (int)json_integer_value(last);
        (*count)++;
    }
}

/*
 * Each action's hand, its last frame in view: the hand has left at the next frame, the first
 * the camera sees without it (at 5 frames a second the hand leaves up to 200 ms before that
 * frame: no camera sees it sooner). The resting hands' frames are kept as hand spans too.
 */
bool players_read_hands(const char *recording, players_hands *hands, char *error, size_t size)
{
    memset(hands, 0, sizeof *hands);
    for (int i = 0; i < PLAYERS_LINES_MAX; i++) {
        hands->left_ms[i] = NAN;
        hands->last_frame[i] = -1;
    }
    char path[700];
    snprintf(path, sizeof path, "%s/truth.json", recording);
    json_error_t problem;
    json_t *index = json_load_file(path, 0, &problem);
    hands->fps = json_number_value(json_object_get(index, "fps"));
    json_t *actions = json_object_get(index, "actions"), *item;
    size_t k;
    json_array_foreach(actions, k, item) {
        json_int_t line = json_integer_value(json_object_get(item, "line"));
        json_t *frames = json_object_get(item, "hand_frames");
        json_t *last = json_array_get(frames, 1);
        if (line >= 1 && line <= PLAYERS_LINES_MAX && json_is_integer(last) && hands->fps > 0) {
            hands->left_ms[line - 1] = (double)(json_integer_value(last) + 1) * 1000 / hands->fps;
            hands->last_frame[line - 1] = (int)json_integer_value(last);
        }
        add_span(hands->spans, &hands->span_count, frames);
    }
    json_array_foreach(json_object_get(index, "disturbances"), k, item) {
        json_t *kind = json_object_get(item, "kind"), *frames = json_object_get(item, "frames");
        if (json_is_string(kind) && strcmp(json_string_value(kind), "resting-hand") == 0)
            add_span(hands->spans, &hands->span_count, frames);
        int before = hands->disturbance_count;
        add_span(hands->disturbances, &hands->disturbance_count, frames);
        bool nudge = json_is_string(kind) && strcmp(json_string_value(kind), "camera-nudge") == 0;
        if (hands->disturbance_count > before && !nudge) /* the nudge's frame is the new view */
            hands->disturbances[before][1]++;
    }
    bool read = index && hands->fps > 0 && json_is_array(actions);
    if (!read)
        snprintf(error, size, "%s: %s", path, index ? "no fps or actions" : problem.text);
    json_decref(index);
    return read;
}

void players_run_init(players_run *run, const players_script *expected,
                      const players_hands *hands, players_options options,
                      players_latency *latencies, int capacity)
{
    memset(run, 0, sizeof *run);
    run->expected = expected;
    run->hands = hands;
    run->options = options;
    run->latencies = latencies;
    run->latency_capacity = latencies ? capacity : 0;
    run->frame = -1;
}

static bool hand_in_view(const players_hands *hands, int frame)
{
    for (int i = 0; i < hands->span_count; i++)
        if (frame >= hands->spans[i][0] && frame <= hands->spans[i][1])
            return true;
    return false;
}

/* turn_key: the frames before which the players type each turn end the script has (in *at,
 * in order), as they would: as soon as the turn's last hand has left the mat, while the table
 * settles (the end comes with the table read then). Returns how many. */
static int plan_turn_keys(const players_script *expected, const players_hands *hands, int *at)
{
    int count = 0;
    for (int i = 0; i < expected->count; i++) {
        if (!players_ends_turn(expected->lines[i]))
            continue;
        at[count] = 0;
        for (int j = i - 1; j >= 0 && at[count] == 0; j--)
            if (hands->last_frame[j] >= 0)
                at[count] = hands->last_frame[j] + 1;
        count++;
    }
    return count;
}

/* turn_key: types the turn ends planned up to frame (INT_MAX: all that are left). One the
 * pipeline refuses (the table not seen yet) is counted, not a failure. */
static tracker_status type_turn_keys(pipeline *p, players_run *run, const int *at, int count,
                                     int frame)
{
    tracker_status status = TRACKER_OK;
    run->acting = true;
    while (status == TRACKER_OK && run->keys < count && at[run->keys] <= frame) {
        run->keys++;
        status = pipeline_end_turn(p);
        if (status == TRACKER_BAD_INPUT) {
            run->keys_refused++;
            status = TRACKER_OK;
        }
    }
    run->acting = false;
    return status;
}

/* Whether lines ('\n' between) are the script's next lines, from the first not committed. */
static bool script_next(const players_run *run, const char *lines)
{
    int i = run->matched;
    for (const char *line = lines; *line; i++) {
        size_t length = strcspn(line, "\n");
        if (i >= run->expected->count || strlen(run->expected->lines[i]) != length ||
            strncmp(run->expected->lines[i], line, length) != 0)
            return false;
        line += length + (line[length] == '\n');
    }
    return i > run->matched;
}

/* answering: as the players at the table would, the candidate of a question just asked that
 * is what they played (the script's next lines). */
static tracker_status answer(pipeline *p, players_run *run)
{
    const tracker *t = pipeline_tracker(p);
    int count = t ? tracker_candidates(t) : 0;
    if (count == 0 || !run->asked)
        return TRACKER_OK;
    run->asked = false;
    for (int k = 1; k <= count; k++)
        if (script_next(run, tracker_candidate(t, k))) {
            run->answers++;
            run->answered_first += k == 1;
            run->offered += count;
            run->answer_place += k;
            run->flagged = false;
            run->acting = true;
            tracker_status status = pipeline_choose(p, k);
            run->acting = false;
            return status;
        }
    run->unanswerable++;
    return TRACKER_OK;
}

/* The latency of a move committed at commit_ms whose hand left at left_ms: from then, and
 * from when the picture was last quiet again between the two: after a disturbance that moved
 * it then (a disturbance still under way at the commit did not hold it back). */
static players_latency latency_of(const players_hands *hands, double left_ms, double commit_ms)
{
    players_latency latency = {commit_ms - left_ms, commit_ms - left_ms, false};
    double quiet = left_ms;
    for (int i = 0; i < hands->disturbance_count; i++) {
        double after = hands->disturbances[i][1] * 1000 / hands->fps;
        if (after > quiet && after <= commit_ms)
            quiet = after;
    }
    if (quiet > left_ms) {
        latency.from_quiet_ms = commit_ms - quiet;
        latency.disturbed = true;
    }
    return latency;
}

/* correcting: as the players at the table would when a flag stays, what was played since the
 * last committed action: the script's lines from the first not committed to the last whose
 * hand has left the mat before frame (the start layout, laid before the first frame, and the
 * turn ends between them, which no hand plays, with them). */
static tracker_status correct_now(pipeline *p, players_run *run, int frame)
{
    /* a move that did not happen is taken back first, as the players see it on the board */
    while (run->undo_due > 0) {
        run->undo_due--;
        tracker_status status = pipeline_undo(p);
        if (status != TRACKER_OK)
            return status == TRACKER_BAD_INPUT ? TRACKER_OK : status;
        run->flagged = true; /* then what was played is typed */
    }
    if (!run->flagged)
        return TRACKER_OK;
    run->flagged = false;
    int last = -1;
    for (int i = run->matched; i < run->expected->count; i++) {
        int left = run->hands->last_frame[i];
        if (left >= frame)
            break;
        if (left >= 0 || (i == 0 && strncmp(run->expected->lines[0], "start", 5) == 0))
            last = i;
    }
    if (last < run->matched) { /* nothing to type: the table is as the game has it */
        if (run->verbose)
            fprintf(stderr, "  the players say the table is as the game has it\n");
        tracker_status status = pipeline_confirm(p);
        run->confirmations += status == TRACKER_OK;
        return status == TRACKER_BAD_INPUT ? TRACKER_OK : status;
    }
    char lines[PLAYERS_LINES_MAX * PLAYERS_LINE_MAX];
    size_t used = 0;
    for (int i = run->matched; i <= last; i++)
        used += (size_t)snprintf(lines + used, sizeof lines - used, "%s%s", i > run->matched
                                 ? "\n" : "", run->expected->lines[i]); /* room for all */
    int count = last - run->matched + 1;
    if (run->verbose)
        fprintf(stderr, "  the players type %d lines: %s\n", count, lines);
    tracker_status status = pipeline_play(p, lines);
    if (status == TRACKER_BAD_INPUT) {
        fprintf(stderr, "  the players' lines were refused: %s\n", pipeline_error(p));
        run->refused_lines += count;
        return TRACKER_OK;
    }
    run->corrections++;
    run->typed_lines += count;
    return status;
}

static tracker_status correct(pipeline *p, players_run *run, int frame)
{
    run->acting = true;
    tracker_status status = correct_now(p, run, frame);
    run->acting = false;
    return status;
}

void players_on_event(void *context, const pipeline_event *event)
{
    players_run *run = context;
    if ((event->kind == PIPELINE_UNREAD || event->kind == PIPELINE_REREGISTERED ||
         event->kind == PIPELINE_MARKERS) && run->verbose)
        fprintf(stderr, "  %s at %.1f s\n", event->text, event->frame_time_ms / 1000);
    if (event->kind != PIPELINE_TRACKER)
        return;
    const tracker_event *e = event->tracker;
    if (e->kind == TRACKER_UNDO) { /* correcting: a false move taken back (the last is false) */
        run->wrong--;
        run->taken_back++;
        if (run->verbose)
            fprintf(stderr, "  taken back at %.1f s: %s\n", e->frame_time, e->text);
        return;
    }
    if (e->kind == TRACKER_FLAG) {
        run->flags++;
        run->flagged = e->flag != TRACKER_FLAG_TURN_END;
        run->asked |= e->flag == TRACKER_FLAG_AMBIGUOUS;
        if (run->verbose)
            fprintf(stderr, "  flag at %.1f s: %s\n", e->frame_time, e->text);
    }
    if (e->kind != TRACKER_MOVE)
        return;
    if (!run->acting && run->frame >= 0 && hand_in_view(run->hands, run->frame)) {
        run->under_hand++;
        fprintf(stderr, "  committed while a hand is in view (frame %d): %s\n", run->frame,
                e->text);
    }
    char line[TRACKER_TEXT_MAX + 32];
    if (e->colour)
        snprintf(line, sizeof line, "%s: %s", e->colour, e->text);
    else
        snprintf(line, sizeof line, "%s", e->text);
    players_latency latency = {NAN, NAN, false}; /* a right action's */
    if (run->wrong == 0 && run->matched == run->expected->count && e->forced) {
        /* the script was cut after its last action: what the rules force after it (a seat's
         * third tile ends its turn) is the game's, not a false move */
        run->beyond++;
    } else if (run->wrong == 0 && run->matched < run->expected->count &&
               strcmp(line, run->expected->lines[run->matched]) == 0) {
        /* The hand left the mat by the first frame without it in view, or earlier, when the
         * mat was still before the arm left the picture: the earlier of the two. */
        double hand_left = run->hands->left_ms[run->matched];
        if (!isnan(hand_left))
            latency = latency_of(run->hands, fmin(event->still_from_ms, hand_left),
                                 event->frame_time_ms + event->read_ms);
        run->matched++;
    } else {
        run->wrong++;
        run->undo_due += run->options.correcting;
        fprintf(stderr, "  false move: '%s' (the script's next: '%s')\n", line,
                run->matched < run->expected->count ? run->expected->lines[run->matched] : "-");
    }
    if (!isnan(latency.from_hand_ms) && run->latency_count < run->latency_capacity)
        run->latencies[run->latency_count++] = latency;
    if (run->verbose && isnan(latency.from_hand_ms))
        fprintf(stderr, "  move at %.1f s: %s\n", e->frame_time, line);
    else if (run->verbose && latency.disturbed)
        fprintf(stderr, "  move at %.1f s: %s (%.0f ms after its hand left, %.0f ms after the "
                "table was disturbed last)\n", e->frame_time, line, latency.from_hand_ms,
                latency.from_quiet_ms);
    else if (run->verbose)
        fprintf(stderr, "  move at %.1f s: %s (%.0f ms after its hand left)\n", e->frame_time,
                line, latency.from_hand_ms);
}

/* What the players do after a frame was fed (frame INT_MAX: after the last). */
static tracker_status players_act(pipeline *p, players_run *run, int frame)
{
    tracker_status status = TRACKER_OK;
    if (run->options.answering)
        status = answer(p, run);
    if (status == TRACKER_OK && run->options.correcting)
        status = correct(p, run, frame);
    return status;
}

tracker_status players_replay(pipeline *p, capture_source *source, players_run *run)
{
    int keys_at[PLAYERS_LINES_MAX];
    int keys = run->options.turn_key ? plan_turn_keys(run->expected, run->hands, keys_at) : 0;
    capture_frame frame;
    capture_status read;
    tracker_status status = TRACKER_OK;
    while (status == TRACKER_OK && (read = capture_read(source, &frame)) == CAPTURE_OK) {
        run->frame = frame.index;
        status = type_turn_keys(p, run, keys_at, keys, frame.index);
        if (status == TRACKER_OK)
            status = pipeline_feed(p, &frame);
        if (status == TRACKER_OK)
            status = players_act(p, run, frame.index);
    }
    if (status != TRACKER_OK)
        return status;
    if (read != CAPTURE_END)
        return TRACKER_BAD_INPUT;
    run->frame = -1;
    status = type_turn_keys(p, run, keys_at, keys, INT_MAX);
    return status == TRACKER_OK ? players_act(p, run, INT_MAX) : status;
}

int players_missed(const players_run *run, int *unseen)
{
    /* A script's last line that ends a turn has nothing after it to show it (with turn ends
     * inferred, the next seat's action shows it): no table can. With turn_key it is typed. */
    const players_script *expected = run->expected;
    *unseen = !run->options.turn_key && run->matched < expected->count &&
              players_ends_turn(expected->lines[expected->count - 1]);
    return expected->count - run->matched - *unseen;
}
