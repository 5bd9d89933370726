/*
 * bench_replay: the pipeline of `tablescribe replay` on recorded games, one OpenCV thread.
 *
 *   bench_replay [--games N] [--first-game G] [--lines L] [--players P] [--expansion]
 *                [--width W --height H] [--seed S] [--keep DIR] [--min-confidence C]
 *                [--sure-confidence C] [--marker-mm M] [--answer] [--correct] [--unranked]
 *                [--turn-key] [--tilt DEG] [--light-elevation DEG]
 *
 * A box is taught from one render of the teaching layout (tablescribe calibrate teach); N
 * random games of P players (default 2 games of 2 players; --expansion: with "New
 * Adventures"), each cut after L lines (default 12; 1000 plays them whole), are recorded with
 * hands, a resting hand and a nudged camera (tablescribe render --script, 5 frames a second) at
 * W x H (default 1280 x 720) in child processes, and replayed here through the pipeline as
 * fast as the frames read. Game g is the same for every N: --first-game G starts at game G
 * (0 by default), to look again at one game of a longer run.
 * Reported: frames a second (reading the frames included) and the stages' share (recognition's
 * too, and the share of tiles the last read told the likely types of), the peak
 * resident memory (getrusage), committed moves against the script: right (in order), false
 * (committed but not the script's next line), missed (script lines never committed, but for
 * a last line that ends a turn, which nothing after it shows: counted apart), flags;
 * the latency of each action committed right, from its hand leaving the table (the recording's
 * truth: the first frame without the hand) to the commit, that frame's source time to the
 * settled frame's plus the wall time of reading it (median, p95); how many games had a false
 * move, and how many were never read. Targets (issue 8):
 * false 0, missed 0, latency = settle time (600 ms) + at most 150 ms, memory <= 150 MB.
 * --min-confidence, --sure-confidence: the pipeline's (default 0.5 and 0.9: fields below the
 * first unseen, below the second unseen too when the table is not explained), to weigh moves
 * right against false ones. --answer: the players answer each ambiguous table the tracker
 * offers to them (tracker_candidates) as they would at the table, with the candidate that is
 * what they played (the script's next lines), and the answers are counted: the camera and the
 * players together, where the default is the camera alone. --correct: when a flag stays
 * (a table no game fits, or a question without the right candidate), the players type what
 * was played since the last committed action (pipeline_play: the script's lines whose hands
 * have left; with none, they say the table is as the game has it: pipeline_confirm), and
 * take back a false move as soon as it is committed (pipeline_undo); the lines typed and the
 * moves taken back are counted: the lines are committed, and counted right, but the camera
 * did not read them; a move taken back is counted apart, not false. --turn-key: the players
 * type each turn end of the script (pipeline_end_turn, turn ends signalled: none inferred) as
 * soon as the turn's last hand has left the mat. BENCH_VERBOSE=1 prints each flag with its
 * reason (what the rules could not explain), each move with its latency, and each settled table
 * not read and each new registration with why. --tilt,
 * --light-elevation: every render (the teaching photo and each game's) with the camera tilted
 * so far from looking straight down, the light so high (render's options; drawn from each
 * scene's seed otherwise), to measure how a table set up one way reads.
 */
#define _XOPEN_SOURCE 700
#include "cv_shim_geometry.h"
#include "pipeline.h"
#include "scripted_players.h"

#include "bench_support.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define LATENCIES_MAX 4096

/* The camera and light every render takes (--tilt, --light-elevation), NULL-terminated. */
static const char *scene_options[8];

/* Runs `tablescribe ARGS...` (NULL-terminated; the one built with this bench) and returns its
 * exit status; a render takes scene_options too. */
static int command(const char *first, ...)
{
    const char *args[64];
    va_list list;
    va_start(list, first);
    int count = 0;
    for (const char *arg = first; arg && count < 55; arg = va_arg(list, const char *))
        args[count++] = arg;
    va_end(list);
    for (int i = 0; strcmp(first, "render") == 0 && scene_options[i]; i++)
        args[count++] = scene_options[i];
    args[count] = NULL;
    return players_tablescribe(TABLESCRIBE, args);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(double *values, int count, double q)
{
    if (count == 0)
        return NAN;
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    int at = (int)ceil(q * count) - 1;
    return values[at < 0 ? 0 : at];
}

/* The latencies: all from the hand leaving (the measure); then apart, the actions
 * whose table a disturbance moved after the hand left (the camera nudged, mostly: the settle
 * starts again after it), and the others, against the target (settle + 150 ms). */
static void report_latencies(const players_latency *latencies, int count)
{
    double *all = malloc((size_t)(count > 0 ? count : 1) * sizeof *all);
    double *calm = malloc((size_t)(count > 0 ? count : 1) * sizeof *calm);
    double *hand = malloc((size_t)(count > 0 ? count : 1) * sizeof *hand);
    double *quiet = malloc((size_t)(count > 0 ? count : 1) * sizeof *quiet);
    if (!all || !calm || !hand || !quiet) {
        fprintf(stderr, "bench_replay: out of memory\n");
        free(all);
        free(calm);
        free(hand);
        free(quiet);
        return;
    }
    int calm_count = 0, disturbed = 0;
    for (int i = 0; i < count; i++) {
        all[i] = latencies[i].from_hand_ms;
        if (latencies[i].disturbed) {
            hand[disturbed] = latencies[i].from_hand_ms;
            quiet[disturbed++] = latencies[i].from_quiet_ms;
        } else {
            calm[calm_count++] = latencies[i].from_hand_ms;
        }
    }
    printf("latency, from the hand leaving (the first frame without it) to the move in the "
           "archive: median %.0f ms, p95 %.0f ms over the %d actions committed right (settle "
           "600 ms)\n",
           quantile(all, count, 0.5), quantile(all, count, 0.95), count);
    printf("  the %d whose table nothing else moved before the commit: median %.0f ms, p95 %.0f "
           "ms, max %.0f (target 750: %s)\n",
           calm_count, quantile(calm, calm_count, 0.5), quantile(calm, calm_count, 0.95),
           quantile(calm, calm_count, 1.0),
           calm_count == 0 ? "none" : quantile(calm, calm_count, 0.95) <= 750 ? "p95 met" : "p95 NOT met");
    printf("  the %d whose table a disturbance moved after the hand left (the camera nudged, a "
           "shadow, a hand resting; the settle starts again after it): median %.0f ms, p95 %.0f "
           "ms from the hand leaving; median %.0f ms, p95 %.0f ms from the disturbance's end\n",
           disturbed, quantile(hand, disturbed, 0.5), quantile(hand, disturbed, 0.95),
           quantile(quiet, disturbed, 0.5), quantile(quiet, disturbed, 0.95));
    free(all);
    free(calm);
    free(hand);
    free(quiet);
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw)
{
    (void)info;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int main(int argc, char **argv)
{
    int games = 2, first_game = 0, lines = 12, width = 1280, height = 720, players = 2;
    bool expansion = false;
    unsigned long long seed = 1;
    const char *keep = NULL;
    bool answering = false; /* --answer: the players answer the ambiguous tables */
    bool correcting = false; /* --correct: the players type what was played at a flag */
    bool turn_key = false;  /* --turn-key: the players type every turn end */
    bool unranked = false;  /* --unranked: the questions' games in the rules' order */
    pipeline_config defaults;
    pipeline_config_default(&defaults);
    double min_confidence = defaults.min_confidence;
    double sure_confidence = defaults.sure_confidence;
    int marker_mm = 40; /* the markers' printed side: calibrate markers --marker-mm */
    int options = 0;    /* in scene_options */
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--games") == 0 && value)
            games = atoi(argv[++i]);
        else if (strcmp(argv[i], "--first-game") == 0 && value)
            first_game = atoi(argv[++i]);
        else if (strcmp(argv[i], "--lines") == 0 && value)
            lines = atoi(argv[++i]);
        else if (strcmp(argv[i], "--players") == 0 && value)
            players = atoi(argv[++i]);
        else if (strcmp(argv[i], "--expansion") == 0)
            expansion = true;
        else if (strcmp(argv[i], "--width") == 0 && value)
            width = atoi(argv[++i]);
        else if (strcmp(argv[i], "--height") == 0 && value)
            height = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && value)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--keep") == 0 && value)
            keep = argv[++i];
        else if (strcmp(argv[i], "--answer") == 0)
            answering = true;
        else if (strcmp(argv[i], "--correct") == 0)
            correcting = true;
        else if (strcmp(argv[i], "--unranked") == 0)
            unranked = true;
        else if ((strcmp(argv[i], "--tilt") == 0 || strcmp(argv[i], "--light-elevation") == 0) &&
                 value && options < 6) {
            scene_options[options++] = argv[i];
            scene_options[options++] = argv[++i];
        } else if (strcmp(argv[i], "--turn-key") == 0)
            turn_key = true;
        else if (strcmp(argv[i], "--marker-mm") == 0 && value) {
            char *end = NULL;
            long mm = strtol(argv[++i], &end, 10);
            marker_mm = end == argv[i] || *end != '\0' || mm < 10 || mm > 200 ? 0 : (int)mm;
        }
        else if ((strcmp(argv[i], "--min-confidence") == 0 ||
                  strcmp(argv[i], "--sure-confidence") == 0) && value) {
            double *field = strcmp(argv[i], "--min-confidence") == 0 ? &min_confidence
                                                                     : &sure_confidence;
            char *end = NULL;
            *field = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0')
                *field = NAN; /* refused below */
        }
        else {
            fprintf(stderr, "usage: bench_replay [--games N] [--first-game G] [--lines L] "
                            "[--players P] "
                            "[--expansion] [--width W --height H] "
                            "[--seed S] [--keep DIR] [--min-confidence C] "
                            "[--sure-confidence C] [--marker-mm M] [--answer] [--correct] "
                            "[--unranked] [--turn-key] [--tilt DEG] [--light-elevation DEG]\n");
            return 2;
        }
    }
    if (games < 1 || first_game < 0 || lines < 2 || players < 2 || players > 4 || width < 64 ||
        height < 64 ||
        !(min_confidence >= 0 && min_confidence <= 1) ||
        !(sure_confidence >= 0 && sure_confidence <= 1) || marker_mm < 10 || marker_mm > 200) {
        fprintf(stderr, "bench_replay: --games >= 1, --first-game >= 0, --lines >= 2, "
                        "--players 2..4, a size of 64 or more, "
                        "--min-confidence and --sure-confidence 0..1, --marker-mm 10..200\n");
        return 2;
    }
    cv_geom_set_threads(1);
    char folder[512];
    if (keep) {
        snprintf(folder, sizeof folder, "%s", keep);
        if (mkdir(folder, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "bench_replay: %s: %s\n", folder, strerror(errno));
            return 1;
        }
    } else {
        snprintf(folder, sizeof folder, "/tmp/bench_replay-XXXXXX");
        if (!mkdtemp(folder)) {
            perror("bench_replay: mkdtemp");
            return 1;
        }
    }
    char layout[600], teach[600], profile_path[600], w[16], h[16];
    snprintf(layout, sizeof layout, "%s/layout.json", folder);
    snprintf(teach, sizeof teach, "%s/teach.png", folder);
    snprintf(profile_path, sizeof profile_path, "%s/box.yaml", folder);
    snprintf(w, sizeof w, "%d", width);
    snprintf(h, sizeof h, "%d", height);
    char box[32], marker[16], seats[8], colours[64] = ""; /* the game's first colours */
    snprintf(seats, sizeof seats, "%d", players);
    el_config defaults_el;
    el_config_default(&defaults_el);
    for (int s = 0; s < players; s++)
        snprintf(colours + strlen(colours), sizeof colours - strlen(colours), "%s%s",
                 s ? "," : "", defaults_el.colours[s]);
    snprintf(box, sizeof box, "%llu", seed);
    snprintf(marker, sizeof marker, "%d", marker_mm);
    /* The table kit as its owner sets it up: markers of this size, recorded in the profile. */
    if (command("calibrate", "teach", "--print-layout", "--colours", colours, "--out",
                layout, NULL) != 0 ||
        command("calibrate", "table", "--profile", profile_path, "--marker-mm", marker,
                NULL) != 0 ||
        command("render", "--game", EL_GAME_ID, "--observation", layout, "--out", teach,
                "--box", box, "--seed", "1000", "--glare", "0", "--width", w, "--height", h,
                "--marker-mm", marker, NULL) != 0 ||
        command("calibrate", "teach", "--image", teach, "--truth", layout, "--profile",
                profile_path, NULL) != 0) {
        fprintf(stderr, "bench_replay: teaching the box failed\n");
        return 1;
    }
    calibration_profile *profile = malloc(sizeof *profile);
    char error[512];
    if (!profile || calibration_profile_load(profile_path, profile, error, sizeof error) != VISION_OK) {
        fprintf(stderr, "bench_replay: %s\n", profile ? error : "out of memory");
        return 1;
    }
    players_latency *latencies = malloc(LATENCIES_MAX * sizeof *latencies);
    int latency_count = 0, total_matched = 0, total_wrong = 0, total_missed = 0, total_flags = 0;
    int games_wrong = 0, games_unread = 0; /* games with a false move; games never read */
    int games_whole = 0;                   /* every line counted committed, none false */
    int games_skipped = 0;                 /* games not recorded or not replayed */
    int total_corrections = 0, total_typed_lines = 0, total_refused_lines = 0;
    int total_confirmations = 0, total_taken_back = 0;
    int total_answers = 0, total_unanswerable = 0, total_beyond = 0, total_unseen = 0;
    int total_answered_first = 0, total_offered = 0, total_answer_place = 0;
    int total_keys = 0, total_keys_refused = 0; /* --turn-key */
    long frames = 0;
    double seconds = 0;
    pipeline_stats sum = {0};
    for (int g = first_game; g < first_game + games; g++) {
        /* a random game's first lines (the last may end a turn: see players_missed) */
        players_script *whole = calloc(1, sizeof *whole), expected = {0};
        if (!whole) {
            fprintf(stderr, "bench_replay: out of memory\n");
            return 1;
        }
        el_config config;
        el_config_default(&config);
        config.seats = players;
        config.expansion = expansion;
        el_state state;
        el_error el_problem;
        el_init(&state, &config, &el_problem);
        el_random_game(&state, seed * 1000 + (unsigned long long)g, players_script_add, whole,
                       &el_problem);
        for (int i = 0; i < whole->count && i < lines; i++)
            memcpy(expected.lines[expected.count++], whole->lines[i], sizeof whole->lines[i]);
        free(whole);
        char script_path[600], recording[600], scene[32];
        snprintf(script_path, sizeof script_path, "%s/game-%d.txt", folder, g);
        snprintf(recording, sizeof recording, "%s/game-%d", folder, g);
        snprintf(scene, sizeof scene, "%llu", seed * 1000 + 1 + (unsigned long long)g);
        FILE *file = fopen(script_path, "w");
        for (int i = 0; file && i < expected.count; i++)
            fprintf(file, "%s\n", expected.lines[i]);
        if (file)
            fclose(file);
        if (command("render", "--game", EL_GAME_ID, "--script", script_path, "--out",
                    recording, "--box", box, "--seed", scene, "--fps", "5", "--pause", "1000",
                    "--width", w, "--height", h, "--resting-hand", "--nudge", "--glare", "0",
                    "--players", seats, "--marker-mm", marker,
                    expansion ? "--expansion" : NULL, NULL) != 0) {
            fprintf(stderr, "bench_replay: recording game %d failed\n", g);
            games_skipped++;
            continue;
        }
        char spec[620];
        snprintf(spec, sizeof spec, "dir:%s", recording);
        capture_source *source = NULL;
        if (capture_open(spec, NULL, &source, error, sizeof error) != CAPTURE_OK) {
            fprintf(stderr, "bench_replay: %s\n", error);
            games_skipped++;
            continue;
        }
        players_hands hands;
        if (!players_read_hands(recording, &hands, error, sizeof error)) {
            fprintf(stderr, "bench_replay: %s\n", error);
            capture_free(source);
            games_skipped++;
            continue;
        }
        players_run run;
        players_run_init(&run, &expected, &hands,
                         (players_options){.turn_key = turn_key, .answering = answering,
                                           .correcting = correcting},
                         latencies + latency_count, LATENCIES_MAX - latency_count);
        run.verbose = getenv("BENCH_VERBOSE") != NULL;
        pipeline_config pc;
        pipeline_config_default(&pc);
        pc.profile = profile;
        pc.min_confidence = (float)min_confidence;
        pc.sure_confidence = (float)sure_confidence;
        pc.tracker.options.seats = players;
        pc.tracker.options.flags = expansion ? RULES_FLAG_EXPANSION : 0;
        pc.tracker.turn_ends_signalled = turn_key;
        pc.tracker.unranked = unranked;
        pc.on_event = players_on_event;
        pc.context = &run;
        pipeline *p = NULL;
        if (pipeline_new(&pc, &p) != TRACKER_OK) {
            fprintf(stderr, "bench_replay: %s\n", p ? pipeline_error(p) : "out of memory");
            pipeline_free(p);
            capture_free(source);
            games_skipped++;
            continue;
        }
        double started = bench_seconds();
        bool cut = players_replay(p, source, &run) != TRACKER_OK;
        if (cut)
            fprintf(stderr, "bench_replay: game %d: %s\n", g, pipeline_error(p));
        latency_count += run.latency_count;
        total_keys += run.keys;
        total_keys_refused += run.keys_refused;
        games_skipped += cut;
        seconds += bench_seconds() - started;
        const pipeline_stats *s = pipeline_stats_get(p);
        frames += s->frames;
        sum.register_ms += s->register_ms;
        sum.rectify_ms += s->rectify_ms;
        sum.gate_ms += s->gate_ms;
        sum.recognise_ms += s->recognise_ms;
        sum.grid_ms += s->grid_ms;
        sum.types_ms += s->types_ms;
        sum.stacks_ms += s->stacks_ms;
        sum.tiles_typed += s->tiles_typed;
        sum.tiles_recalled += s->tiles_recalled;
        sum.lights_kept += s->lights_kept;
        sum.heights_told += s->heights_told;
        sum.tracker_ms += s->tracker_ms;
        sum.total_ms += s->total_ms;
        sum.reads += s->reads;
        sum.unread += s->unread;
        sum.acting_known += s->acting_known;
        int unseen, missed = players_missed(&run, &unseen);
        printf("game %d: %ld frames, %d script lines: %d committed in order, %d false, %d missed, "
               "%d flags; %ld tables read (%ld with the acting seat), %ld not read",
               g, s->frames, expected.count, run.matched, run.wrong, missed, run.flags, s->reads,
               s->acting_known, s->unread);
        if (answering)
            printf("; %d answers, %d questions no candidate fits", run.answers,
                   run.unanswerable);
        if (turn_key)
            printf("; %d turn ends typed (%d before the table was seen)", run.keys,
                   run.keys_refused);
        if (correcting)
            printf("; %d lines typed at %d flags (%d refused), %d tables said to be the game, "
                   "%d false moves taken back", run.typed_lines, run.corrections,
                   run.refused_lines, run.confirmations, run.taken_back);
        if (run.under_hand)
            printf("; %d MOVES COMMITTED WHILE A HAND WAS IN VIEW", run.under_hand);
        putchar('\n');
        total_corrections += run.corrections;
        total_typed_lines += run.typed_lines;
        total_refused_lines += run.refused_lines;
        total_confirmations += run.confirmations;
        total_taken_back += run.taken_back;
        total_answers += run.answers;
        total_answered_first += run.answered_first;
        total_offered += run.offered;
        total_answer_place += run.answer_place;
        total_beyond += run.beyond;
        total_unseen += unseen;
        total_unanswerable += run.unanswerable;
        total_matched += run.matched;
        total_wrong += run.wrong;
        games_wrong += run.wrong > 0;
        games_unread += s->reads == 0;
        games_whole += missed == 0 && run.wrong == 0;
        total_missed += missed;
        total_flags += run.flags;
        pipeline_free(p);
        capture_free(source);
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("\n%d games at %d x %d, %d mm markers, one OpenCV thread, fields read below %.2f "
           "unseen (below %.2f when unexplained): %ld frames in %.1f s: %.1f frames/s (reading "
           "the frames included)\n",
           games, width, height, marker_mm, min_confidence, sure_confidence, frames, seconds,
           frames / fmax(seconds, 1e-9));
    if (options > 0) {
        printf("every render with");
        for (int i = 0; i < options; i += 2)
            printf(" %s %s", scene_options[i], scene_options[i + 1]);
        printf(" (the camera and light otherwise drawn from each game's scene seed)\n");
    }
    printf("pipeline per frame: %.2f ms (rectify %.2f, gate %.2f); per table read: registration "
           "%.1f ms, recognition %.1f ms, tracker %.2f ms\n",
           sum.total_ms / fmax(frames, 1), sum.rectify_ms / fmax(frames, 1),
           sum.gate_ms / fmax(frames, 1), sum.register_ms / fmax(sum.reads + sum.unread, 1),
           sum.recognise_ms / fmax(sum.reads, 1), sum.tracker_ms / fmax(sum.reads, 1));
    printf("recognition per table read: grid %.1f ms, types %.1f ms, stacks %.1f ms; %.1f tiles "
           "typed, %.1f%% of them unchanged since the last read (matched against the 2-3 arts "
           "that decided it, not 9); the stacks fitted in the last read's light in %.1f%% of "
           "the reads; the committed game's heights told to the recogniser after %.1f%%\n",
           sum.grid_ms / fmax(sum.reads, 1), sum.types_ms / fmax(sum.reads, 1),
           sum.stacks_ms / fmax(sum.reads, 1), sum.tiles_typed / fmax(sum.reads, 1),
           100.0 * sum.tiles_recalled / fmax(sum.tiles_typed, 1),
           100.0 * sum.lights_kept / fmax(sum.reads, 1),
           100.0 * sum.heights_told / fmax(sum.reads, 1));
    printf("moves: %d right, %d false, %d missed; %d flags; %ld of %ld tables read with the "
           "acting seat\n",
           total_matched, total_wrong, total_missed, total_flags, sum.acting_known, sum.reads);
    if (total_beyond)
        printf("%d moves the rules forced after a script's last line (the game goes on there; "
               "counted neither right nor false)\n", total_beyond);
    if (total_unseen)
        printf("scripts whose last line is a turn end nothing after it shows (it is seen in "
               "the next seat's action): %d, that line counted neither right nor missed\n",
               total_unseen);
    if (turn_key)
        printf("the players typed %d turn ends, each as the turn's last hand left the mat (%d "
               "before the table was seen, refused)\n", total_keys, total_keys_refused);
    if (answering)
        printf("the players answered %d ambiguous tables (the candidate that is the script's "
               "next lines); %d had no such candidate\n",
               total_answers, total_unanswerable);
    if (answering && total_answers > 0)
        printf("what was played was offered first in %d of the %d answers (%s); on average "
               "the %.2fth of %.2f offered\n",
               total_answered_first, total_answers,
               unranked ? "in the rules' order" : "the likeliest as the picture shows them first",
               (double)total_answer_place / total_answers, (double)total_offered / total_answers);
    if (correcting)
        printf("the players typed what was played at %d flags: %d lines, committed and counted "
               "right above (the camera did not read them); %d lines refused; at %d flags "
               "with nothing to type, they said the table is as the game has it; they took back "
               "%d false moves as they were committed (not counted false above)\n",
               total_corrections, total_typed_lines, total_refused_lines, total_confirmations,
               total_taken_back);
    printf("games: %d of %d committed whole, %d with a false move (one misread the rules accept, "
           "then what follows from it), %d with no table read%s",
           games_whole, games, games_wrong, games_unread, games_skipped ? "" : "\n");
    if (games_skipped)
        printf("; %d NOT REPLAYED OR CUT SHORT (recording or replay failed: see above), "
               "their moves not all counted\n",
               games_skipped);
    report_latencies(latencies, latency_count);
    printf("peak resident memory of the replays: %.1f MB\n",
           usage.ru_maxrss / 1024.0);
    free(latencies);
    free(profile);
    if (!keep)
        nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}
