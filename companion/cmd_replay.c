/*
 * tablescribe replay and tablescribe watch: a source through the pipeline (pipeline.h), as fast
 * as its frames read (replay) or at its own pace with a scoreboard (watch).
 */
#include "cli.h"

#include "pipeline.h"
#include "recording.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>


typedef struct run_request {
    const char *game;
    const char *source;
    const char *profile;
    const char *db_path;
    int players;        /* 0: the game's default (2) */
    bool expansion;     /* Expedition Luxor's "New Adventures" (the action tokens) */
    bool json;
    bool watch;         /* at the source's pace, the scoreboard, the default archive */
    bool resume;
    int64_t resume_id;  /* 0 with resume: the last unfinished game */
    bool turn_key;      /* the players type e at every turn's end (watch) */
    int seat_deg_count;
    double seat_deg[RULES_MAX_SEATS];
} run_request;

/* What the event printer needs. */
typedef struct printer {
    const cli_command *command;
    const run_request *request;
    pipeline *pipeline;
    bool progress;      /* a bar on standard error */
    bool bar_shown;
    long events;        /* printed so far */
} printer;

/* The seats' colours of the tracked game (its state is Expedition Luxor's). */
static const el_state *game_state(const printer *out)
{
    const tracker *t = pipeline_tracker(out->pipeline);
    return t ? tracker_state(t) : NULL;
}

static json_t *scores_json(const el_state *state, const int32_t *scores, int count)
{
    json_t *object = json_object();
    for (int s = 0; s < count && state; s++)
        json_object_set_new(object, state->config.colours[s], json_integer(scores[s]));
    return object;
}

static void print_scores(FILE *file, const el_state *state, const int32_t *scores, int count,
                         const int32_t *ranks)
{
    for (int s = 0; s < count && state; s++) {
        fprintf(file, "%s%s %d", s ? ", " : "", state->config.colours[s], scores[s]);
        if (ranks)
            fprintf(file, " (rank %d)", ranks[s]);
    }
}

static void clear_bar(printer *out)
{
    if (out->bar_shown) {
        fputs("\r\033[K", stderr);
        out->bar_shown = false;
    }
}

static void print_json_event(const printer *out, const pipeline_event *event)
{
    const el_state *state = game_state(out);
    json_t *object = NULL;
    double time = event->frame_time_ms / 1000;
    if (event->kind != PIPELINE_TRACKER) {
        static const char *const names[] = {"registered", "reregistered", "unread",
                                            "markers"};
        object = json_pack("{s:s, s:f, s:s}", "event", names[event->kind], "time", time, "text",
                           event->text);
    } else {
        const tracker_event *e = event->tracker;
        json_t *scores = scores_json(state, e->scores, e->seat_count);
        json_t *acting = event->acting_seat >= 0 && state
                             ? json_string(state->config.colours[event->acting_seat])
                             : json_null();
        if (e->kind == TRACKER_MOVE) {
            object = json_pack("{s:s, s:f, s:o, s:s, s:b, s:I, s:o, s:f, s:o}", "event", "move",
                               "time", time, "seat", e->colour ? json_string(e->colour) : json_null(),
                               "action", e->text, "forced", e->forced, "seq", (json_int_t)e->seq,
                               "acting", acting, "latency_ms", event->latency_ms, "scores", scores);
        } else if (e->kind == TRACKER_UNDO) {
            json_decref(acting);
            object = json_pack("{s:s, s:f, s:s, s:I, s:o}", "event", "undo", "time", time,
                               "action", e->text, "seq", (json_int_t)e->seq, "scores", scores);
        } else if (e->kind == TRACKER_FLAG) {
            static const char *const kinds[] = {"none", "unexplained", "ambiguous", "turn-end"};
            object = json_pack("{s:s, s:f, s:s, s:s, s:I, s:o, s:o}", "event", "flag", "time",
                               time, "kind", kinds[e->flag], "reason", e->text, "seq",
                               (json_int_t)e->seq, "acting", acting, "scores", scores);
        } else {
            json_decref(acting);
            json_t *ranks = scores_json(state, e->ranks, e->seat_count);
            object = json_pack("{s:s, s:f, s:o, s:o}", "event", "game-over", "time", time,
                               "scores", scores, "ranks", ranks);
        }
    }
    char *text = object ? json_dumps(object, JSON_COMPACT) : NULL;
    if (text)
        printf("%s\n", text);
    free(text);
    json_decref(object);
}

/* Prints length bytes of lines of the notation on one line, "; " between them. */
static void print_lines(const char *lines, size_t length)
{
    for (size_t i = 0; i < length; i++)
        if (lines[i] == '\n')
            fputs("; ", stdout);
        else
            putchar(lines[i]);
    putchar('\n');
}

static void on_event(void *context, const pipeline_event *event)
{
    printer *out = context;
    clear_bar(out);
    out->events++;
    if (out->request->json) {
        print_json_event(out, event);
        fflush(stdout);
        return;
    }
    double time = event->frame_time_ms / 1000;
    if (event->kind != PIPELINE_TRACKER) {
        /* the scoreboard's warnings; a replay's notes */
        printf("[%7.1f s] %s: %s\n", time, out->request->watch ? "warning" : "note", event->text);
        fflush(stdout);
        return;
    }
    const tracker_event *e = event->tracker;
    const el_state *state = game_state(out);
    switch (e->kind) {
    case TRACKER_MOVE:
        if (e->colour)
            printf("[%7.1f s] %s: %s%s   ", time, e->colour, e->text, e->forced ? " (forced)" : "");
        else
            printf("[%7.1f s] %s   ", time, e->text);
        print_scores(stdout, state, e->scores, e->seat_count, NULL);
        putchar('\n');
        break;
    case TRACKER_FLAG:
        if (out->request->watch && e->flag == TRACKER_FLAG_AMBIGUOUS &&
            tracker_candidates(pipeline_tracker(out->pipeline)) > 0) {
            /* the players' question: every candidate, one a line, and what they all end with
             * once (the flag's text is cut to fit the archive's) */
            const tracker *t = pipeline_tracker(out->pipeline);
            const char *tail = tracker_candidates_tail(t);
            printf("[%7.1f s] warning: ambiguous: the camera cannot tell which of these the "
                   "table shows:\n", time);
            for (int k = 1; k <= tracker_candidates(t); k++) {
                const char *lines = tracker_candidate(t, k);
                printf("            (%d) ", k);
                print_lines(lines, strlen(lines) - (tail ? strlen(tail) + 1 : 0));
            }
            if (tail) {
                printf("            each followed by: ");
                print_lines(tail, strlen(tail));
            }
            printf("            type the right one's number and Enter (or what was played, "
                   "as below)\n");
        } else {
            printf("[%7.1f s] %s: %s\n", time, out->request->watch ? "warning" : "flag",
                   e->text);
        }
        if (out->request->watch && e->flag != TRACKER_FLAG_TURN_END)
            printf("            to say what was played: type it and Enter, as the moves print "
                   "(%s: ...), ';' between actions; ok and Enter when the table is as the "
                   "game has it; u and Enter takes the last move back\n",
                   state ? state->config.colours[state->active] : "orange");
        break;
    case TRACKER_UNDO:
        printf("[%7.1f s] taken back: %s   ", time, e->text);
        print_scores(stdout, state, e->scores, e->seat_count, NULL);
        putchar('\n');
        break;
    case TRACKER_GAME_OVER:
        printf("[%7.1f s] game over: ", time);
        print_scores(stdout, state, e->scores, e->seat_count, e->ranks);
        putchar('\n');
        break;
    }
    fflush(stdout);
}

static void show_progress(printer *out, int done, int total, double seconds)
{
    if (total > 0)
        fprintf(stderr, "\rtablescribe %s: frame %d of %d (%d%%), %.1f frames/s ",
                out->command->name, done, total, (int)(100.0 * done / total),
                done / fmax(seconds, 1e-3));
    else
        fprintf(stderr, "\rtablescribe %s: frame %d, %.1f frames/s ", out->command->name, done,
                done / fmax(seconds, 1e-3));
    out->bar_shown = true;
}

/* ---- the players' answers, typed while watching ---- */

/* Standard input, read without waiting: a line at a time. */
typedef struct typed {
    char buffer[512];
    size_t used;
    bool closed;     /* end of input, or none to read */
    bool overlong;   /* the line being read outgrew the buffer: dropped up to its newline */
} typed;

/* The next whole line typed (without its newline; the last one also without), or false when
 * none is there yet. A line longer than the buffer is dropped whole. */
static bool next_typed_line(typed *in, char *line, size_t size)
{
    struct pollfd ready = {.fd = STDIN_FILENO, .events = POLLIN};
    for (;;) {
        char *newline = memchr(in->buffer, '\n', in->used);
        if (newline && in->overlong) { /* the dropped line's end */
            in->overlong = false;
            in->used -= (size_t)(newline - in->buffer) + 1;
            memmove(in->buffer, newline + 1, in->used);
            continue;
        }
        if (newline || (in->closed && in->used > 0 && !in->overlong)) {
            size_t length = newline ? (size_t)(newline - in->buffer) : in->used;
            snprintf(line, size, "%.*s", (int)length, in->buffer);
            in->used -= newline ? length + 1 : length;
            memmove(in->buffer, in->buffer + (newline ? length + 1 : length), in->used);
            return true;
        }
        if (in->used == sizeof in->buffer) { /* no newline in a full buffer */
            in->overlong = true;
            in->used = 0;
        }
        if (in->closed || poll(&ready, 1, 0) <= 0)
            return false;
        ssize_t got = read(STDIN_FILENO, in->buffer + in->used, sizeof in->buffer - in->used);
        if (got <= 0)
            in->closed = true;
        else
            in->used += (size_t)got;
    }
}

/* What the players type (at time_s into the source): a candidate's number for the last
 * ambiguous table, "e" (or "end") when a turn is over, what was played in the notation
 * (actions ';' between, "orange: desert-camp@1,2 x3; orange: end"), "ok" when the table is
 * as the game has it (the camera misread it), or "u" (or "undo") to take the last committed
 * move back; anything else, and what the rules refuse, is explained. Fails only when the
 * archive does. */
static tracker_status take_typed_line(printer *out, const char *line, double time_s)
{
    const char *word = line + strspn(line, " \t\r");
    size_t length = strcspn(word, " \t\r");
    if (length == 0)
        return TRACKER_OK;
    clear_bar(out);
    tracker_status status = TRACKER_OK;
    char *end = NULL;
    long candidate = strtol(word, &end, 10);
    bool alone = word[length + strspn(word + length, " \t\r")] == '\0';
    if (alone && ((length == 1 && (*word == 'e' || *word == 'E')) ||
                  (length == 3 && strncasecmp(word, "end", 3) == 0))) {
        long printed = out->events;
        status = pipeline_end_turn(out->pipeline);
        /* neither the end nor a flag yet: the players must see that the key was taken */
        if (status == TRACKER_OK && out->events == printed)
            printf("[%7.1f s] turn end noted: archived with the next table the camera can "
                   "explain\n", time_s);
    } else if (alone && length == 2 && strncasecmp(word, "ok", 2) == 0) {
        status = pipeline_confirm(out->pipeline);
    } else if (alone && ((length == 1 && (*word == 'u' || *word == 'U')) ||
                         (length == 4 && strncasecmp(word, "undo", 4) == 0))) {
        status = pipeline_undo(out->pipeline);
    } else if (alone && end == word + length && candidate >= 1 && candidate <= 99) {
        status = pipeline_choose(out->pipeline, (int)candidate);
    } else if (strchr(word, ':') || strncmp(word, "start", 5) == 0) {
        char lines[sizeof ((typed *)NULL)->buffer];
        snprintf(lines, sizeof lines, "%s", word);
        for (char *c = lines; *c; c++)
            *c = *c == ';' ? '\n' : *c;
        status = pipeline_play(out->pipeline, lines);
    } else {
        fprintf(stderr, "tablescribe %s: '%.40s': type e and Enter when a turn is over, the "
                "number of one of an ambiguous table's candidates, what was played "
                "(orange: desert@1,2; orange: end), ok when the table is as the game has it, "
                "or u to take the last move back, and Enter\n", out->command->name, line);
    }
    if (status == TRACKER_BAD_INPUT)
        fprintf(stderr, "tablescribe %s: %s\n", out->command->name,
                pipeline_error(out->pipeline));
    fflush(stdout);
    return status == TRACKER_BAD_INPUT ? TRACKER_OK : status;
}

/* ---- the archive: which game to resume, and where its recording stopped ---- */

typedef struct last_live {
    const char *game;
    int64_t id;
} last_live;

static int find_last_live(void *context, const db_game *game)
{
    last_live *last = context;
    if (game->status == DB_GAME_LIVE && strcmp(game->game, last->game) == 0)
        last->id = game->id;
    return 0;
}

static int last_frame_time(void *context, const db_event *event, const int32_t *scores)
{
    (void)scores;
    double *time = context;
    if (isfinite(event->frame_time))
        *time = event->frame_time;
    return 0;
}

/* ---- the run ---- */

static int parse_seats_at(const cli_command *command, const char *text, run_request *request)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    request->seat_deg_count = 0;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        double value;
        if (request->seat_deg_count == RULES_MAX_SEATS ||
            !cli_parse_number(item, 0, 359.999, false, &value))
            return cli_usage_error(command, "--seats-at %s: degrees 0 to 360, one a seat, "
                                            "separated by commas",
                                   text);
        request->seat_deg[request->seat_deg_count++] = value;
    }
    return request->seat_deg_count ? EXIT_OK
                                   : cli_usage_error(command, "--seats-at needs degrees");
}

/* The demo table's box, taught as its owner would teach it (recording_demo_profile), into a
 * profile file of a fresh temporary folder that is removed once the profile is loaded. */
static int demo_profile(const cli_command *command, const char *game, uint64_t seed,
                        calibration_profile *profile)
{
    const char *tmp = getenv("TMPDIR");
    char folder[1024], path[1100], error[512];
    snprintf(folder, sizeof folder, "%s/tablescribe-demo-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(folder)) {
        cli_error(command, "cannot make a folder for the demo box's profile in %s: %s",
                  tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return EXIT_FAILURE_OTHER;
    }
    snprintf(path, sizeof path, "%s/demo.yaml", folder);
    fprintf(stderr, "%s: teaching the demo box (seed %llu) from its teaching layout...\n",
            command->name, (unsigned long long)seed);
    vision_status status = recording_demo_profile(seed, path, error, sizeof error);
    int code = EXIT_OK;
    if (status != VISION_OK) {
        cli_error(command, "teaching the demo box: %s", error);
        code = EXIT_FAILURE_OTHER;
    } else {
        code = cli_profile_load(command, path, game, true, profile);
    }
    remove(path);
    rmdir(folder);
    return code;
}

static int run(const cli_command *command, const run_request *request)
{
    int code = cli_check_seeing_game(command, request->game);
    if (code != EXIT_OK)
        return code;
    if (request->seat_deg_count && request->players &&
        request->seat_deg_count != request->players)
        return cli_usage_error(command, "--seats-at gives %d sides for --players %d",
                               request->seat_deg_count, request->players);
    /* the source first: watch with no source names the demo table's state in one line */
    char error[512];
    capture_source *source = NULL;
    capture_status opened = capture_open(request->source, NULL, &source, error, sizeof error);
    if (opened != CAPTURE_OK) {
        cli_error(command, "%s", error);
        return request->watch || capture_status_is_users(opened) ? EXIT_BAD_INPUT
                                                                 : EXIT_FAILURE_OTHER;
    }
    calibration_profile *profile = malloc(sizeof *profile);
    uint64_t demo_seed = 0;
    db *archive = NULL;
    pipeline *p = NULL;
    if (!profile) {
        cli_error(command, "out of memory");
        code = EXIT_FAILURE_OTHER;
    } else if (!request->profile && capture_demo_seed(source, &demo_seed)) {
        code = demo_profile(command, request->game, demo_seed, profile);
    } else if (!request->profile) {
        code = cli_usage_error(command, "--profile P is required (made by tablescribe calibrate teach)");
    } else {
        code = cli_profile_load(command, request->profile, request->game, true, profile);
    }
    if (code == EXIT_OK && (request->db_path || request->watch))
        archive = cli_open_archive(command, request->db_path, DB_OPEN_CREATE, &code);

    pipeline_config config;
    pipeline_config_default(&config);
    config.profile = profile;
    config.archive = archive;
    config.tracker.game = request->game;
    config.tracker.options.seats = request->players ? request->players
                                                    : (request->seat_deg_count ? request->seat_deg_count : 2);
    if (request->expansion) {
        const rules_game *game = rules_game_find(request->game);
        if (code == EXIT_OK && game && !(game->flags & RULES_FLAG_EXPANSION))
            code = cli_usage_error(command, "%s has no --expansion", game->title);
        config.tracker.options.flags |= RULES_FLAG_EXPANSION;
    }
    config.tracker.turn_ends_signalled = request->turn_key;
    config.seat_deg_count = request->seat_deg_count;
    memcpy(config.seat_deg, request->seat_deg, sizeof config.seat_deg);
    if (code == EXIT_OK && request->resume) {
        int64_t id = request->resume_id;
        if (!id) {
            last_live last = {request->game, 0};
            db_status status = db_games_foreach(archive, find_last_live, &last);
            if (status != DB_OK)
                code = cli_archive_failure(command, archive, status);
            else if (!last.id)
                code = cli_usage_error(command, "--resume: no unfinished %s game in %s",
                                       request->game, db_path(archive));
            id = last.id;
        }
        config.tracker.resume = id;
        /* a recording read again is skipped to where its archive stopped; a live source
         * starts now */
        double stopped = NAN;
        if (code == EXIT_OK && (strncmp(request->source, "dir:", 4) == 0 ||
                                strncmp(request->source, "file:", 5) == 0)) {
            db_status status = db_events_foreach(archive, id, last_frame_time, &stopped);
            if (status != DB_OK && status != DB_NOT_FOUND)
                code = cli_archive_failure(command, archive, status);
            if (isfinite(stopped))
                config.skip_until_ms = stopped * 1000;
        }
    }
    printer out = {.command = command, .request = request,
                   .progress = !request->watch && isatty(STDERR_FILENO)};
    typed answers = {.closed = !request->watch}; /* replay takes none */
    config.on_event = on_event;
    config.context = &out;
    if (code == EXIT_OK) {
        tracker_status status = pipeline_new(&config, &p);
        if (status != TRACKER_OK) {
            const char *why = p ? pipeline_error(p) : "out of memory";
            if (request->resume)
                cli_error(command, "--resume %lld: %s", (long long)config.tracker.resume, why);
            else
                cli_error(command, "%s", why);
            code = status == TRACKER_BAD_INPUT || status == TRACKER_NOT_AVAILABLE
                       ? EXIT_BAD_INPUT
                       : EXIT_FAILURE_OTHER;
        }
    }
    out.pipeline = p;

    cli_interrupts interrupts;
    cli_interrupts_catch(&interrupts);
    if (code == EXIT_OK && request->watch) {
        if (request->resume)
            printf("watching %s: resuming game %lld from its last event; Ctrl-C stops\n",
                   request->source, (long long)config.tracker.resume);
        else
            printf("watching %s: %s, %d players; Ctrl-C stops\n", request->source, request->game,
                   config.tracker.options.seats);
        if (request->turn_key)
            printf("type e and Enter at the end of every turn\n");
        fflush(stdout);
    }
    double started = vision_clock_ms() / 1000.0, first_frame_ms = NAN, shown = -1;
    int total = capture_frame_count(source), frames = 0;
    bool ended = false;
    while (code == EXIT_OK && !cli_interrupted()) {
        capture_frame frame;
        capture_status read = capture_read(source, &frame);
        if (read == CAPTURE_END) {
            ended = true;
            break;
        }
        if (read != CAPTURE_OK) {
            clear_bar(&out);
            cli_error(command, "%s", capture_error(source));
            code = capture_status_is_users(read) ? EXIT_BAD_INPUT : EXIT_FAILURE_OTHER;
            break;
        }
        frames++;
        if (request->watch && capture_is_recording(source)) {
            /* a recording is played as it was taken; a live source's frames arrive at their
             * pace anyway, and the demo keeps its own (pace=0: as fast as drawn) */
            if (isnan(first_frame_ms))
                first_frame_ms = frame.time_ms;
            double ahead =
                (frame.time_ms - first_frame_ms) / 1000 - (vision_clock_ms() / 1000.0 - started);
            if (ahead > 0) {
                struct timespec wait = {(time_t)ahead, (long)((ahead - floor(ahead)) * 1e9)};
                nanosleep(&wait, NULL);
            }
        }
        tracker_status status = pipeline_feed(p, &frame);
        char line[sizeof answers.buffer];
        while (status == TRACKER_OK && next_typed_line(&answers, line, sizeof line))
            status = take_typed_line(&out, line, frame.time_ms / 1000);
        if (status != TRACKER_OK) {
            clear_bar(&out);
            cli_error(command, "%s", pipeline_error(p));
            code = status == TRACKER_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_FAILURE_OTHER;
            break;
        }
        double elapsed = vision_clock_ms() / 1000.0 - started;
        if (out.progress && (elapsed - shown > 0.2 || frames == total)) {
            shown = elapsed;
            show_progress(&out, frames, total, elapsed);
        }
    }
    cli_interrupts_restore(&interrupts);
    clear_bar(&out);
    double seconds = vision_clock_ms() / 1000.0 - started;
    if (code == EXIT_OK && !pipeline_registered(p)) {
        cli_error(command, "%s: the table's markers were in none of its %d frames (%s)",
                  request->source, frames, pipeline_error(p));
        code = EXIT_BAD_INPUT;
    }
    if (code == EXIT_OK) {
        const pipeline_stats *stats = pipeline_stats_get(p);
        const tracker *t = pipeline_tracker(p);
        const el_state *state = tracker_state(t);
        int32_t scores[RULES_MAX_SEATS] = {0};
        el_scores(state, scores);
        double fps = frames / fmax(seconds, 1e-6);
        if (request->json) {
            json_t *end = json_pack(
                "{s:s, s:I, s:b, s:i, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:o}", "event", "end",
                "game", (json_int_t)tracker_game_id(t), "finished", ended, "frames", frames,
                "seconds", seconds, "fps", fps, "moves", (json_int_t)stats->moves, "flags",
                (json_int_t)stats->flags, "reads", (json_int_t)stats->reads, "unread",
                (json_int_t)stats->unread, "reregistered", (json_int_t)stats->reregistered,
                "scores", scores_json(state, scores, state->config.seats));
            char *text = end ? json_dumps(end, JSON_COMPACT) : NULL;
            if (text)
                printf("%s\n", text);
            free(text);
            json_decref(end);
        } else {
            printf("scores: ");
            print_scores(stdout, state, scores, state->config.seats, NULL);
            printf("\n%s: %ld moves, %ld flags; %d frames in %.1f s (%.1f frames/s), %ld tables "
                   "read, %ld not read%s\n",
                   ended ? "the source ended" : "stopped", stats->moves, stats->flags, frames,
                   seconds, fps, stats->reads, stats->unread,
                   archive ? "" : " (nothing archived: no --db)");
            if (archive && state->phase != EL_PHASE_OVER)
                printf("game %lld stays open in %s: tablescribe watch --resume %lld --source "
                       "SRC continues it\n",
                       (long long)tracker_game_id(t), db_path(archive),
                       (long long)tracker_game_id(t));
        }
        /* Ctrl-C is how a watch ends; a replay interrupted did not read its source */
        if (cli_interrupted() && !request->watch)
            code = EXIT_FAILURE_OTHER;
    }
    pipeline_free(p);
    db_close(archive);
    capture_free(source);
    free(profile);
    return code;
}

/* Parses the options both commands share; watch's own (--resume, --web) when watch. */
static int parse(const cli_command *command, int argc, char **argv, bool watch,
                 run_request *request)
{
    enum {
        OPTION_GAME = 1, OPTION_SOURCE, OPTION_PROFILE, OPTION_DB, OPTION_JSON, OPTION_PLAYERS,
        OPTION_SEATS_AT, OPTION_RESUME, OPTION_WEB, OPTION_TURN_KEY, OPTION_EXPANSION
    };
    static const struct option replay_options[] = {
        {"game", required_argument, NULL, OPTION_GAME},
        {"source", required_argument, NULL, OPTION_SOURCE},
        {"profile", required_argument, NULL, OPTION_PROFILE},
        {"db", required_argument, NULL, OPTION_DB},
        {"json", no_argument, NULL, OPTION_JSON},
        {"players", required_argument, NULL, OPTION_PLAYERS},
        {"expansion", no_argument, NULL, OPTION_EXPANSION},
        {"seats-at", required_argument, NULL, OPTION_SEATS_AT},
        {NULL, 0, NULL, 0},
    };
    static const struct option watch_options[] = {
        {"game", required_argument, NULL, OPTION_GAME},
        {"source", required_argument, NULL, OPTION_SOURCE},
        {"profile", required_argument, NULL, OPTION_PROFILE},
        {"db", required_argument, NULL, OPTION_DB},
        {"players", required_argument, NULL, OPTION_PLAYERS},
        {"expansion", no_argument, NULL, OPTION_EXPANSION},
        {"seats-at", required_argument, NULL, OPTION_SEATS_AT},
        {"resume", no_argument, NULL, OPTION_RESUME},
        {"turn-key", no_argument, NULL, OPTION_TURN_KEY},
        {"web", required_argument, NULL, OPTION_WEB},
        {NULL, 0, NULL, 0},
    };
    memset(request, 0, sizeof *request);
    request->watch = watch;
    opterr = 0;
    optind = 1;
    int option;
    double number;
    while ((option = getopt_long(argc, argv, "+:", watch ? watch_options : replay_options,
                                 NULL)) != -1) {
        switch (option) {
        case OPTION_GAME:
            request->game = optarg;
            break;
        case OPTION_SOURCE:
            request->source = optarg;
            break;
        case OPTION_PROFILE:
            request->profile = optarg;
            break;
        case OPTION_DB:
            request->db_path = optarg;
            break;
        case OPTION_JSON:
            request->json = true;
            break;
        case OPTION_PLAYERS:
            if (!cli_parse_number(optarg, 2, 4, true, &number))
                return cli_usage_error(command, "--players %s: 2 to 4", optarg);
            request->players = (int)number;
            break;
        case OPTION_EXPANSION:
            request->expansion = true;
            break;
        case OPTION_SEATS_AT: {
            int code = parse_seats_at(command, optarg, request);
            if (code != EXIT_OK)
                return code;
            break;
        }
        case OPTION_RESUME:
            request->resume = true;
            /* an optional game id as the next word: `--resume 12` as well as `--resume` */
            if (optind < argc && cli_parse_game_id(argv[optind], &request->resume_id))
                optind++;
            break;
        case OPTION_TURN_KEY:
            request->turn_key = true;
            break;
        case OPTION_WEB:
            return cli_usage_error(command, "--web %s: the live page is not available yet", optarg);
        case ':':
            return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error(command, "unknown option %s", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error(command, "unexpected argument '%s'", argv[optind]);
    if (watch) {
        if (!request->game)
            request->game = EL_GAME_ID;
        if (!request->source)
            request->source = "demo";
        if (request->resume && request->players)
            return cli_usage_error(command, "--players with --resume: the game's own seats are "
                                            "resumed");
        if (request->resume && request->expansion)
            return cli_usage_error(command, "--expansion with --resume: the game's own options "
                                            "are resumed");
        return EXIT_OK;
    }
    if (!request->game)
        return cli_usage_error(command, "--game G is required (expedition-luxor)");
    if (!request->source)
        return cli_usage_error(command, "--source SRC is required (dir:FOLDER, file:VIDEO, "
                                        "v4l2:/dev/videoN, camera[:N])");
    if (!request->profile)
        return cli_usage_error(command, "--profile P is required (made by tablescribe calibrate teach)");
    return EXIT_OK;
}

int cli_replay(const cli_command *command, int argc, char **argv)
{
    run_request request;
    int code = parse(command, argc, argv, false, &request);
    return code == EXIT_OK ? run(command, &request) : code;
}

int cli_watch(const cli_command *command, int argc, char **argv)
{
    run_request request;
    int code = parse(command, argc, argv, true, &request);
    return code == EXIT_OK ? run(command, &request) : code;
}
