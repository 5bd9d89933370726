/*
 * The tracker, driven by what a camera would see of games the engine plays itself (random
 * games, el_observe), no images: whole games table by table and a few actions at a time,
 * misreads, hands over the table, illegal changes, unchanged tables, turn ends inferred from the
 * next seat, and a game resumed from its archive after a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_support.h"
#include "tracker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ORANGE, BLACK, GREY, YELLOW };

/* What the tracker reported, counted by collect. */
typedef struct seen_events {
    int moves, flags, forced, game_over, undos;
    tracker_flag_kind last_flag_kind;
    char last_flag[TRACKER_TEXT_MAX];
    int32_t final_scores[RULES_MAX_SEATS];
} seen_events;

/* An archive in a fresh folder; for the single situations (setup_started) also a tracker on a
 * 2-player game, the truth and what the tracker reported, all freed by teardown. */
typedef struct fixture {
    char *folder;
    char *path;
    db *archive;
    el_state truth;
    seen_events seen;
    tracker *t;
} fixture;

static db *open_archive(const char *path)
{
    db_config config;
    db_config_default(&config);
    config.mode = DB_OPEN_CREATE;
    db *archive = NULL;
    assert_int_equal(db_open(path, &config, &archive), DB_OK);
    return archive;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_int_equal(test_archive_create(NULL, &f->folder, &f->path, &f->archive), DB_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    tracker_free(f->t);
    test_archive_remove(f->archive, f->folder, f->path);
    free(f);
    return 0;
}

/* ---- what the tracker reports ---- */

static void collect(void *context, const tracker_event *event)
{
    seen_events *seen = context;
    switch (event->kind) {
    case TRACKER_MOVE:
        seen->moves++;
        seen->forced += event->forced;
        break;
    case TRACKER_FLAG:
        seen->flags++;
        seen->last_flag_kind = event->flag;
        snprintf(seen->last_flag, sizeof seen->last_flag, "%s", event->text);
        break;
    case TRACKER_UNDO:
        seen->undos++;
        break;
    case TRACKER_GAME_OVER:
        seen->game_over++;
        memcpy(seen->final_scores, event->scores, sizeof seen->final_scores);
        break;
    }
}

static tracker_config test_config(int seats, bool expansion, bool signalled, seen_events *seen)
{
    tracker_config config;
    tracker_config_default(&config);
    config.options.seats = seats;
    config.options.flags = expansion ? RULES_FLAG_EXPANSION : 0;
    config.turn_ends_signalled = signalled;
    config.on_event = collect;
    config.context = seen;
    return config;
}

static tracker *tracker_with(db *archive, const tracker_config *config)
{
    tracker *t = NULL;
    tracker_status status = tracker_new(config, archive, &t);
    if (status != TRACKER_OK)
        fail_msg("tracker_new: %s", tracker_error(t));
    return t;
}

static tracker *new_tracker(db *archive, int seats, bool expansion, bool signalled,
                            seen_events *seen)
{
    tracker_config config = test_config(seats, expansion, signalled, seen);
    return tracker_with(archive, &config);
}

/* The truth as the camera sees it, with table's other fields. */
static void feed_table(tracker *t, const el_state *truth, tracker_table table)
{
    el_observation observation;
    el_observe(truth, &observation);
    table.observation = &observation;
    tracker_status status = tracker_observe(t, &table);
    if (status != TRACKER_OK)
        fail_msg("tracker_observe: %s", tracker_error(t));
}

static void feed(tracker *t, const el_state *truth, double time, bool turn_ended)
{
    feed_table(t, truth, (tracker_table){.frame_time = time, .confidence = 0.9,
                                         .turn_ended = turn_ended});
}

static void feed_observation(tracker *t, const el_observation *observation, double time)
{
    tracker_table table = {.frame_time = time, .observation = observation, .confidence = NAN};
    assert_int_equal(tracker_observe(t, &table), TRACKER_OK);
}

/* The archive's moves as lines of the notation ("black: desert@1,2"; the start bare). */
typedef struct archived {
    test_lines moves;
    int flags;
    int corrections;
    char corrections_text[512]; /* their details, one a line */
    const el_state *colours;
} archived;

static int collect_archived(void *context, const db_event *event, const int32_t *scores)
{
    (void)scores;
    archived *a = context;
    if (event->kind == DB_EVENT_FLAG)
        a->flags++;
    if (event->kind == DB_EVENT_CORRECTION) {
        a->corrections++;
        size_t used = strlen(a->corrections_text);
        snprintf(a->corrections_text + used, sizeof a->corrections_text - used, "%s\n",
                 event->detail_json ? event->detail_json : "");
    }
    if (event->kind != DB_EVENT_MOVE)
        return 0;
    char line[256];
    if (event->seat >= 0)
        snprintf(line, sizeof line, "%s: %s", a->colours->config.colours[event->seat],
                 event->notation);
    else
        snprintf(line, sizeof line, "%s", event->notation);
    test_lines_collect(&a->moves, line);
    return 0;
}

static archived read_archive(db *archive, int64_t game_id, const el_state *colours)
{
    archived a = {.colours = colours};
    assert_int_equal(db_events_foreach(archive, game_id, collect_archived, &a), DB_OK);
    return a;
}

typedef struct game_case {
    int seats;
    bool expansion;
    uint64_t seed;
} game_case;

static void play(el_state *state, const char *line)
{
    el_error error = {""};
    if (el_play_line(state, line, NULL, &error) != EL_OK)
        fail_msg("'%s' refused: %s", line, error.message);
}

/* A random game of the case's seats and expansion from seed, its lines in order: *truth at
 * the game's start, *played (if not NULL) at its end. Caller frees with test_lines_free. */
static test_lines random_game(const game_case *c, uint64_t seed, el_state *truth, el_state *played)
{
    *truth = test_el_new_game(c->seats, c->expansion);
    el_state end = *truth;
    test_lines lines = {0};
    el_error error;
    assert_int_equal(el_random_game(&end, seed, test_lines_collect, &lines, &error), EL_OK);
    if (played)
        *played = end;
    return lines;
}

static bool ends_turn(const char *line)
{
    size_t length = strlen(line);
    return length >= 5 && strcmp(line + length - 5, ": end") == 0;
}

/* ---- whole games ---- */

static const game_case games[] = {{2, false, 11}, {3, false, 12}, {4, true, 13}};

/* Feeds a random game to the tracker: a table after the start layout, after every `every`
 * lines and at each turn's end, the turn ends signalled; from line `from` to line `to`
 * (exclusive). */
static void feed_game(tracker *t, const test_lines *lines, el_state *truth, int from, int to,
                      int every)
{
    for (int i = from; i < to; i++) {
        play(truth, lines->lines[i]);
        bool ended = ends_turn(lines->lines[i]);
        if (i == 0 || ended || (i + 1) % every == 0 || i + 1 == lines->count)
            feed(t, truth, i, ended);
    }
}

static bool closes_turn(const char *line)
{
    size_t length = strlen(line);
    return ends_turn(line) || (length >= 6 && strcmp(line + length - 6, ": pass") == 0) ||
           strncmp(line, "start ", 6) == 0;
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The archived actions are the game's, turn by turn: the same actions in each turn, in any
 * order within it (seen on one table, a turn's tiles show no order); the archive may stop
 * early (`whole` false), its last turn then a part of the game's. */
static void assert_same_turns(const test_lines *archived_moves, const test_lines *lines,
                              bool whole)
{
    if (whole)
        assert_int_equal(archived_moves->count, lines->count);
    assert_true(archived_moves->count <= lines->count);
    for (int start = 0; start < archived_moves->count;) {
        int end = start;
        while (end < lines->count && !closes_turn(lines->lines[end]))
            end++;
        end = end < lines->count ? end + 1 : end;
        int archived_end = end < archived_moves->count ? end : archived_moves->count;
        char *played[64], *kept[64];
        int count = end - start, kept_count = archived_end - start;
        assert_true(count <= 64);
        memcpy(played, lines->lines + start, sizeof(char *) * (size_t)count);
        memcpy(kept, archived_moves->lines + start, sizeof(char *) * (size_t)kept_count);
        qsort(played, (size_t)count, sizeof(char *), compare_lines);
        qsort(kept, (size_t)kept_count, sizeof(char *), compare_lines);
        for (int i = 0, j = 0; i < kept_count; i++, j++) {
            while (j < count && strcmp(played[j], kept[i]) != 0 && kept_count < count)
                j++;
            if (j >= count || strcmp(played[j], kept[i]) != 0)
                fail_msg("archived '%s' in the turn from action %d: not among the game's",
                         kept[i], start + 1);
        }
        if (archived_end == end)
            assert_int_equal(kept_count, count);
        start = end;
    }
}

static void assert_archive_is_the_game(db *archive, int64_t game_id, const test_lines *lines,
                                       const el_state *truth)
{
    archived a = read_archive(archive, game_id, truth);
    assert_int_equal(a.flags, 0);
    assert_same_turns(&a.moves, lines, true);
    test_lines_free(&a.moves);
    db_game game;
    assert_int_equal(db_game_get(archive, game_id, &game), DB_OK);
    assert_int_equal(game.status, DB_GAME_FINISHED);
    int32_t scores[EL_MAX_SEATS];
    el_scores(truth, scores);
    for (int s = 0; s < truth->config.seats; s++)
        assert_int_equal(game.seats[s].final_score, scores[s]);
}

static void whole_games(fixture *f, int every)
{
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        el_state truth, played;
        test_lines lines = random_game(&games[g], games[g].seed, &truth, &played);
        seen_events seen = {0};
        tracker *t = new_tracker(f->archive, games[g].seats, games[g].expansion, true, &seen);
        feed_game(t, &lines, &truth, 0, lines.count, every);
        assert_int_equal(seen.game_over, 1);
        assert_int_equal(seen.flags, 0);
        assert_int_equal(seen.moves, lines.count);
        assert_int_equal((int)tracker_actions(t), lines.count);
        assert_archive_is_the_game(f->archive, tracker_game_id(t), &lines, &truth);
        int32_t scores[EL_MAX_SEATS];
        el_scores(&played, scores);
        assert_memory_equal(seen.final_scores, scores, sizeof(int32_t) * (size_t)games[g].seats);
        print_message("%d players%s: %d actions, %d forced, every %d lines\n", games[g].seats,
                      games[g].expansion ? " with the expansion" : "", lines.count, seen.forced,
                      every);
        tracker_free(t);
        test_lines_free(&lines);
    }
}

/* Whether two games are at the same point: the same table, seat to act, placements and tokens
 * (the order of a turn's actions aside). */
static bool same_point(const el_state *a, const el_state *b)
{
    return memcmp(a->cells, b->cells, sizeof a->cells) == 0 && a->active == b->active &&
           memcmp(a->placed_by_type, b->placed_by_type, sizeof a->placed_by_type) == 0 &&
           memcmp(a->tokens_used, b->tokens_used, sizeof a->tokens_used) == 0 &&
           a->placed_this_turn == b->placed_this_turn;
}

/* What the players answer to an ambiguous table: the candidate whose actions, played on the
 * committed game, make the game they played (0: none does). */
static int truthful_candidate(const tracker *t, const el_state *truth)
{
    for (int k = 1; k <= tracker_candidates(t); k++) {
        el_state game = *(const el_state *)tracker_state(t);
        char *text = strdup(tracker_candidate(t, k)), *next = NULL;
        assert_non_null(text);
        bool played = true;
        el_error error;
        for (char *line = strtok_r(text, "\n", &next); line && played;
             line = strtok_r(NULL, "\n", &next))
            played = el_play_line(&game, line, NULL, &error) == EL_OK;
        free(text);
        if (played && same_point(&game, truth))
            return k;
    }
    return 0;
}

/* Random games, the turn ends signalled, two tables in three with one stack's height in doubt
 * (read "h or h+-1"), the players answering what is still ambiguous when they end a turn, as
 * they played it: the archive holds only the games' actions (an answer once left its turn end
 * owed, and the next table ended the next seat's turn too). */
static void test_tracker_archives_no_false_move_when_the_players_answer(void **state)
{
    fixture *f = *state;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    int answers = 0, finished = 0, played = 0;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++)
        for (uint64_t seed = 100; seed < 104; seed++, played++) {
            el_state truth;
            test_lines lines = random_game(&games[g], seed, &truth, NULL);
            seen_events seen = {0};
            tracker *t =
                new_tracker(f->archive, games[g].seats, games[g].expansion, true, &seen);
            for (int i = 0; i < lines.count; i++) {
                play(&truth, lines.lines[i]);
                el_observation o;
                el_observe(&truth, &o);
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                int k = (int)((rng >> 20) % (uint64_t)o.count);
                if (i > 0 && (rng >> 8) % 3 != 0 && o.tiles[k].height > 0) {
                    int other = o.tiles[k].height + ((rng >> 40) % 2 ? 1 : -1);
                    if (other >= 1 && other <= EL_STACK_MAX)
                        o.tiles[k].height_or = (int8_t)other;
                }
                tracker_table table = {.frame_time = i, .observation = &o, .confidence = 0.9,
                                       .turn_ended = ends_turn(lines.lines[i])};
                assert_int_equal(tracker_observe(t, &table), TRACKER_OK);
                int answer = table.turn_ended ? truthful_candidate(t, &truth) : 0;
                if (answer > 0) {
                    assert_int_equal(tracker_choose(t, answer, i + 0.5), TRACKER_OK);
                    answers++;
                }
            }
            finished += seen.game_over;
            archived a = read_archive(f->archive, tracker_game_id(t), &truth);
            assert_same_turns(&a.moves, &lines, seen.game_over > 0);
            test_lines_free(&a.moves);
            tracker_free(t);
            test_lines_free(&lines);
        }
    print_message("%d games: %d answers, %d finished\n", played, answers, finished);
    assert_true(answers > 0);
}

static void test_tracker_archives_whole_random_games_table_by_table(void **state)
{
    whole_games(*state, 1);
}

static void test_tracker_commits_several_actions_from_one_table(void **state)
{
    whole_games(*state, 4);
}

/* A game cut off: the archive closed mid-game (as a crash leaves it), a new tracker resumes
 * from the archived moves and the rest of the game ends equal. */
static void test_tracker_resumes_a_game_cut_off_mid_way(void **state)
{
    fixture *f = *state;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        el_state truth;
        test_lines lines = random_game(&games[g], games[g].seed, &truth, NULL);
        int cut = lines.count / 2;
        while (!ends_turn(lines.lines[cut - 1])) /* the tables up to a turn's end were seen */
            cut++;
        seen_events seen = {0};
        tracker *t = new_tracker(f->archive, games[g].seats, games[g].expansion, true, &seen);
        feed_game(t, &lines, &truth, 0, cut, 1);
        int64_t game_id = tracker_game_id(t);
        size_t before = tracker_actions(t);
        tracker_free(t);
        db_close(f->archive);

        f->archive = open_archive(f->path);
        tracker_config config;
        tracker_config_default(&config);
        config.resume = game_id;
        config.turn_ends_signalled = true;
        config.on_event = collect;
        config.context = &seen;
        assert_int_equal(tracker_new(&config, f->archive, &t), TRACKER_OK);
        assert_int_equal(tracker_game_id(t), game_id);
        assert_true(tracker_actions(t) >= before);
        assert_memory_equal(tracker_state(t), &truth, sizeof truth);
        feed_game(t, &lines, &truth, cut, lines.count, 1);
        assert_int_equal(seen.game_over, 1);
        assert_archive_is_the_game(f->archive, game_id, &lines, &truth);
        tracker_free(t);
        test_lines_free(&lines);
    }
}

/* Without signals every move the archive holds is the game's, in order: what the camera
 * cannot tell (who placed a plain tile) waits, or is flagged as a tie, and is never guessed. */
static void test_tracker_never_archives_a_guess_when_turn_ends_are_inferred(void **state)
{
    fixture *f = *state;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        el_state truth;
        test_lines lines = random_game(&games[g], games[g].seed + 200, &truth, NULL);
        seen_events seen = {0};
        tracker *t = new_tracker(f->archive, games[g].seats, games[g].expansion, false, &seen);
        for (int i = 0; i < lines.count; i++) {
            play(&truth, lines.lines[i]);
            feed(t, &truth, i, false);
        }
        archived a = read_archive(f->archive, tracker_game_id(t), &truth);
        assert_true(a.moves.count > 0);
        assert_same_turns(&a.moves, &lines, false);
        print_message("%d players, turn ends inferred: %d of %d actions archived, %d flags\n",
                      games[g].seats, a.moves.count, lines.count, a.flags);
        test_lines_free(&a.moves);
        tracker_free(t);
        test_lines_free(&lines);
    }
}

/* ---- single situations, on a 2-player game ---- */

static const char *const start_2p = "start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1";

/* setup, then a tracker (turn ends not signalled) and the truth after the start layout, seen
 * and committed. */
/* A 2-player game's start committed by a tracker of config. */
static int start_with(void **state, tracker_config config)
{
    setup(state);
    fixture *f = *state;
    f->truth = test_el_new_game(2, false);
    config.context = &f->seen;
    f->t = tracker_with(f->archive, &config);
    feed(f->t, &f->truth, 0, false); /* an empty table: the setup has not begun */
    assert_int_equal(tracker_actions(f->t), 0);
    play(&f->truth, start_2p);
    feed(f->t, &f->truth, 1, false);
    assert_int_equal(tracker_actions(f->t), 1);
    return 0;
}

static int setup_started(void **state)
{
    return start_with(state, test_config(2, false, false, NULL));
}

/* The same with the questions' games in the rules' order. */
static int setup_started_unranked(void **state)
{
    tracker_config config = test_config(2, false, false, NULL);
    config.unranked = true;
    return start_with(state, config);
}

/* The same with the turn ends signalled. */
static int setup_signalled_started(void **state)
{
    setup(state);
    fixture *f = *state;
    f->truth = test_el_new_game(2, false);
    f->t = new_tracker(f->archive, 2, false, true, &f->seen);
    play(&f->truth, start_2p);
    feed(f->t, &f->truth, 1, false);
    assert_int_equal(tracker_actions(f->t), 1);
    return 0;
}

/* Asserts that the situation's game archived count moves, expected (NULL-ended) from its move
 * first on. Returns how many flags the archive holds. */
static int assert_archived(fixture *f, int count, int first, const char *const *expected)
{
    archived a = read_archive(f->archive, tracker_game_id(f->t), &f->truth);
    assert_int_equal(a.moves.count, count);
    for (int i = 0; expected[i]; i++)
        assert_string_equal(a.moves.lines[first + i], expected[i]);
    test_lines_free(&a.moves);
    return a.flags;
}

static void test_tracker_commits_nothing_for_an_unchanged_table(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    feed(f->t, &f->truth, 2, false);
    int moves = f->seen.moves;
    el_state committed = *(const el_state *)tracker_state(f->t);
    for (int i = 0; i < 3; i++)
        feed(f->t, &f->truth, 3 + i, false);
    assert_int_equal(f->seen.moves, moves);
    assert_int_equal(f->seen.flags, 0);
    assert_memory_equal(tracker_state(f->t), &committed, sizeof committed);
}

/* The truth as the camera sees it, but for the tile at (row, col) read as a lake. */
static void observe_a_lake_at(const el_state *truth, int row, int col, el_observation *o)
{
    el_observe(truth, o);
    for (int i = 0; i < o->count; i++)
        if (o->tiles[i].row == row && o->tiles[i].col == col)
            o->tiles[i].type = EL_LAKE;
}

/* A misread (a known tile's type, then a height) is flagged and nothing is committed; the true
 * table then commits the move. */
static void test_tracker_flags_a_misread_then_commits_the_true_table(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    el_observation o;
    observe_a_lake_at(&f->truth, 0, 1, &o); /* the start's mountain misread */
    feed_observation(f->t, &o, 2);
    feed_observation(f->t, &o, 3); /* the same misread again: flagged once */
    assert_int_equal(tracker_actions(f->t), 1);
    assert_int_equal(f->seen.flags, 1);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_UNEXPLAINED);
    assert_non_null(strstr(f->seen.last_flag, "the tile at 0,1 was a mountain, the table shows a lake"));

    el_observe(&f->truth, &o);
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].row == 1 && o.tiles[i].col == 0) {
            o.tiles[i].top = ORANGE; /* a shadow read as an adventurer on the start temple */
            o.tiles[i].height = 1;
        }
    feed_observation(f->t, &o, 4);
    assert_int_equal(tracker_actions(f->t), 1);
    assert_int_equal(f->seen.flags, 2);

    feed(f->t, &f->truth, 5, false);
    assert_int_equal(tracker_actions(f->t), 2);
    int flags =
        assert_archived(f, 2, 1, (const char *const[]){"orange: desert-camp@0,2 x1", NULL});
    assert_int_equal(flags, 2);
}

/* A camp read as a pyramid, half sure: with the doubted type unseen (the cautious observation)
 * the table is explained and the camp committed; without it, flagged and nothing committed. */
static void test_tracker_explains_a_half_sure_misread_from_the_cautious_observation(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    el_observation misread, cautious;
    el_observe(&f->truth, &misread);
    for (int i = 0; i < misread.count; i++)
        if (misread.tiles[i].row == 0 && misread.tiles[i].col == 2)
            misread.tiles[i].type = EL_DESERT_PYRAMID;
    cautious = misread;
    for (int i = 0; i < cautious.count; i++)
        if (cautious.tiles[i].row == 0 && cautious.tiles[i].col == 2)
            cautious.tiles[i].type = EL_UNSEEN;

    feed_observation(f->t, &misread, 2);
    assert_int_equal(tracker_actions(f->t), 1);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_UNEXPLAINED);

    tracker_table table = {.frame_time = 3, .observation = &misread,
                           .cautious_observation = &cautious, .confidence = NAN};
    assert_int_equal(tracker_observe(f->t, &table), TRACKER_OK);
    assert_int_equal(tracker_actions(f->t), 2);
    assert_archived(f, 2, 1, (const char *const[]){"orange: desert-camp@0,2 x1", NULL});
}

/* A flag raised before a crash is not raised again by the resumed tracker for the same table;
 * another misread still is. */
static void test_tracker_resumed_does_not_raise_a_flag_again(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    el_observation o;
    observe_a_lake_at(&f->truth, 0, 1, &o); /* the start's mountain misread */
    feed_observation(f->t, &o, 2);
    assert_int_equal(f->seen.flags, 1);
    int64_t game_id = tracker_game_id(f->t);
    tracker_free(f->t);
    db_close(f->archive);

    f->archive = open_archive(f->path);
    seen_events seen = {0};
    tracker_config config;
    tracker_config_default(&config);
    config.resume = game_id;
    config.on_event = collect;
    config.context = &seen;
    assert_int_equal(tracker_new(&config, f->archive, &f->t), TRACKER_OK);
    feed_observation(f->t, &o, 3); /* the same misread, after the restart */
    assert_int_equal(seen.flags, 0);
    assert_int_equal(assert_archived(f, 1, 0, (const char *const[]){NULL}), 1);

    observe_a_lake_at(&f->truth, 1, 0, &o); /* another misread: flagged */
    feed_observation(f->t, &o, 4);
    assert_int_equal(seen.flags, 1);
    feed(f->t, &f->truth, 5, false);
    int flags =
        assert_archived(f, 2, 1, (const char *const[]){"orange: desert-camp@0,2 x1", NULL});
    assert_int_equal(flags, 2);

    /* a move after the flag: the same misread later, after another restart, is flagged anew */
    tracker_free(f->t);
    db_close(f->archive);
    f->archive = open_archive(f->path);
    assert_int_equal(tracker_new(&config, f->archive, &f->t), TRACKER_OK);
    feed_observation(f->t, &o, 6);
    assert_int_equal(seen.flags, 2);

    /* so after any other event, such as a player's correction archived after that flag */
    tracker_free(f->t);
    db_event correction = db_event_make(DB_EVENT_CORRECTION, -1, NULL);
    int32_t scores[2] = {0, 0};
    assert_int_equal(db_event_append(f->archive, game_id, &correction, scores, NULL), DB_OK);
    db_close(f->archive);
    f->archive = open_archive(f->path);
    assert_int_equal(tracker_new(&config, f->archive, &f->t), TRACKER_OK);
    feed_observation(f->t, &o, 7);
    assert_int_equal(seen.flags, 3);
}

/* A hand over the table hides cells and fields: nothing false is committed, and the clear
 * table afterwards commits exactly what happened. */
static void test_tracker_commits_no_false_move_under_a_hand(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@1,2 x4 > w 2");
    el_observation o;
    el_observe(&f->truth, &o);
    /* the hand over the new camp and the desert it sent adventurers to */
    int kept = 0;
    for (int i = 0; i < o.count; i++) {
        bool hidden = o.tiles[i].row == 1 && o.tiles[i].col >= 1;
        if (hidden) {
            o.unknown[o.unknown_count].row = o.tiles[i].row;
            o.unknown[o.unknown_count].col = o.tiles[i].col;
            o.unknown_count++;
        } else {
            o.tiles[kept++] = o.tiles[i];
        }
    }
    o.count = kept;
    feed_observation(f->t, &o, 2);
    assert_int_equal(tracker_actions(f->t), 1);
    assert_int_equal(f->seen.flags, 0);

    /* seen again with every height unseen: which count of adventurers is open, so it waits */
    el_observe(&f->truth, &o);
    for (int i = 0; i < o.count; i++)
        o.tiles[i].height = EL_UNSEEN;
    feed_observation(f->t, &o, 3);
    assert_int_equal(tracker_actions(f->t), 1);
    assert_true(tracker_pending(f->t));

    feed(f->t, &f->truth, 4, false);
    assert_int_equal(tracker_actions(f->t), 2);
    assert_archived(f, 2, 1, (const char *const[]){"orange: desert-camp@1,2 x4 > w 2", NULL});
}

static void test_tracker_flags_an_illegal_change_with_its_reason(void **state)
{
    fixture *f = *state;
    el_observation o;
    el_observe(&f->truth, &o);
    o.tiles[o.count++] = (el_seen_tile){.row = 4, .col = 4, .type = EL_DESERT, .top = EL_EMPTY,
                                        .height = 0, .token = EL_NO_TOKEN};
    feed_observation(f->t, &o, 2);
    assert_int_equal(tracker_actions(f->t), 1);
    assert_int_equal(f->seen.flags, 1);
    assert_non_null(strstr(f->seen.last_flag, "unexplained: desert@4,4: "));
    assert_non_null(strstr(f->seen.last_flag, "adjacent"));
}

/* The next seat's colour closes the turn; a plain tile, whose placer no camera sees, waits. */
static void test_tracker_infers_a_turn_end_from_the_next_seats_action(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    feed(f->t, &f->truth, 2, false);
    play(&f->truth, "end");
    feed(f->t, &f->truth, 3, false); /* the end is not seen */
    play(&f->truth, "black: desert-camp@1,2 x2");
    feed(f->t, &f->truth, 4, false);
    assert_archived(f, 4, 2,
                    (const char *const[]){"orange: end", "black: desert-camp@1,2 x2", NULL});

    /* black places a desert: black's second tile, or orange's after black's end? */
    play(&f->truth, "desert@2,2");
    feed(f->t, &f->truth, 5, false);
    assert_int_equal(tracker_actions(f->t), 4);
    assert_true(tracker_pending(f->t));
    play(&f->truth, "end");
    play(&f->truth, "orange: desert-camp@2,1 x1");
    feed(f->t, &f->truth, 6, false); /* orange's camp: the desert was black's or orange's, a tie */
    assert_int_equal(tracker_actions(f->t), 4);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS);
    assert_string_equal(f->seen.last_flag,
                        "ambiguous: (1) black: desert@2,2; black: end | (2) black: end; "
                        "orange: desert@2,2 | each followed by: orange: desert-camp@2,1 x1");
}

/* The truth as seen, the stack at (row, col) read "height or height_or". */
static void feed_two_heights(tracker *t, const el_state *truth, int row, int col, int height,
                             int height_or, double time, bool turn_ended)
{
    el_observation observation;
    el_observe(truth, &observation);
    for (int i = 0; i < observation.count; i++)
        if (observation.tiles[i].row == row && observation.tiles[i].col == col) {
            observation.tiles[i].height = (int8_t)height;
            observation.tiles[i].height_or = (int8_t)height_or;
        }
    tracker_table table = {.frame_time = time, .observation = &observation, .confidence = 0.9,
                           .turn_ended = turn_ended};
    assert_int_equal(tracker_observe(t, &table), TRACKER_OK);
}

/* Games that differ in a camp's count alone and end alike: the question says what they end
 * with once, after the candidates, so that it still reads when asked again tables later. */
static void test_tracker_asks_what_the_games_end_with_once(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x2");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 2, false);
    assert_null(tracker_candidates_tail(f->t)); /* each game one line: nothing to share */
    play(&f->truth, "end");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 3, true);
    play(&f->truth, "black: desert-camp@1,2 x1");
    feed_two_heights(f->t, &f->truth, 0, 2, 3, 2, 4, false);

    assert_int_equal(tracker_candidates(f->t), 2);
    assert_string_equal(tracker_candidates_tail(f->t), "orange: end\nblack: desert-camp@1,2 x1");
    char expected[TRACKER_TEXT_MAX];
    snprintf(expected, sizeof expected,
             "ambiguous: (1) %.26s | (2) %.26s | each followed by: orange: end; "
             "black: desert-camp@1,2 x1",
             tracker_candidate(f->t, 1), tracker_candidate(f->t, 2));
    assert_string_equal(f->seen.last_flag, expected);
    const char *x2 = strstr(expected, "x2"), *x3 = strstr(expected, "x3");
    assert_true(x2 && x3); /* the two counts, each once */
    assert_null(strstr(x2 + 1, "x2"));
    assert_null(strstr(x3 + 1, "x3"));
}

/* A camp's count read "2 or 3": both games are carried on, through a turn end the players
 * signal and the next seat's camp, until a table reads the 2; then all of it is committed. */
static void test_tracker_carries_undecided_games_until_a_table_decides(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x2");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 2, false);
    assert_true(tracker_pending(f->t));
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS);
    assert_non_null(strstr(f->seen.last_flag, "orange: desert-camp@0,2 x2"));
    assert_non_null(strstr(f->seen.last_flag, "orange: desert-camp@0,2 x3"));

    play(&f->truth, "end");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 3, true); /* the players signal the end */
    play(&f->truth, "black: desert-camp@1,2 x1");
    feed_two_heights(f->t, &f->truth, 0, 2, 3, 2, 4, false);
    assert_int_equal(tracker_actions(f->t), 1);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS); /* never unexplained */

    feed(f->t, &f->truth, 5, false); /* the camp read 2 at last */
    assert_false(tracker_pending(f->t));
    assert_archived(f, 4, 1,
                    (const char *const[]){"orange: desert-camp@0,2 x2", "orange: end",
                                          "black: desert-camp@1,2 x1", NULL});
}

/* An end the players signal at a table the camera misread waits for a table read right; by
 * then the next seat may have acted, and the table is explained across the owed end (every
 * later table was refused before: "no turn end was signalled"). */
static void test_tracker_takes_an_end_signalled_at_a_misread_table(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    feed(f->t, &f->truth, 2, false);
    assert_int_equal(tracker_actions(f->t), 2);

    play(&f->truth, "end");
    el_observation o;
    observe_a_lake_at(&f->truth, 0, 1, &o); /* the start's mountain misread */
    tracker_table ended = {.frame_time = 3, .observation = &o, .confidence = 0.9,
                           .turn_ended = true};
    assert_int_equal(tracker_observe(f->t, &ended), TRACKER_OK);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_UNEXPLAINED);
    assert_int_equal(tracker_actions(f->t), 2);

    play(&f->truth, "black: desert-camp@1,2 x1");
    feed(f->t, &f->truth, 4, false);
    assert_false(tracker_pending(f->t));
    assert_archived(f, 4, 1,
                    (const char *const[]){"orange: desert-camp@0,2 x1", "orange: end",
                                          "black: desert-camp@1,2 x1", NULL});
    play(&f->truth, "end"); /* the next end is black's, signalled at a table read right */
    feed(f->t, &f->truth, 5, true);
    assert_archived(f, 5, 4, (const char *const[]){"black: end", NULL});
}

/* What the camera cannot tell, the players answer: a camp read "2 or 3" at every table waits
 * until they choose; the answer is archived, then the camp. */
static void test_tracker_commits_the_candidate_the_players_choose(void **state)
{
    fixture *f = *state;
    assert_int_equal(tracker_choose(f->t, 1, 1.5), TRACKER_BAD_INPUT); /* nothing waits */
    assert_non_null(strstr(tracker_error(f->t), "nothing to choose"));
    play(&f->truth, "desert-camp@0,2 x2");
    feed_two_heights(f->t, &f->truth, 0, 2, 3, 2, 2, false);
    feed_two_heights(f->t, &f->truth, 0, 2, 3, 2, 3, false);
    assert_int_equal(tracker_candidates(f->t), 2);
    const char *listed = f->seen.last_flag;
    int x2 = strstr(listed, "(1) orange: desert-camp@0,2 x2") ? 1
             : strstr(listed, "(2) orange: desert-camp@0,2 x2") ? 2 : 0;
    assert_int_not_equal(x2, 0);
    assert_string_equal(tracker_candidate(f->t, x2), "orange: desert-camp@0,2 x2");
    assert_null(tracker_candidate(f->t, 3));
    assert_int_equal(tracker_choose(f->t, 3, 4), TRACKER_BAD_INPUT);
    assert_non_null(strstr(tracker_error(f->t), "candidates 1 to 2"));
    assert_int_equal(tracker_choose(f->t, 0, 4), TRACKER_BAD_INPUT);
    assert_int_equal(tracker_actions(f->t), 1);

    assert_int_equal(tracker_choose(f->t, x2, 4), TRACKER_OK);
    assert_int_equal(tracker_candidates(f->t), 0);
    assert_false(tracker_pending(f->t));
    assert_archived(f, 2, 1, (const char *const[]){"orange: desert-camp@0,2 x2", NULL});
    archived a = read_archive(f->archive, tracker_game_id(f->t), &f->truth);
    assert_int_equal(a.corrections, 1);
    assert_non_null(strstr(a.corrections_text, "\"actions\":\"orange: desert-camp@0,2 x2\""));
    test_lines_free(&a.moves);
    const el_state *now = tracker_state(f->t);
    assert_int_equal(now->cells[0 + EL_ORIGIN][2 + EL_ORIGIN].height, 2);
    feed_two_heights(f->t, &f->truth, 0, 2, 3, 2, 5, false); /* the same table: nothing more */
    assert_int_equal(tracker_actions(f->t), 2);
}

/* The camp read "2 or 3" with the picture's support for one of them: the players are offered
 * the likelier game first, whichever it is, and nothing is committed on the picture's word. */
/* A camp read "2 or 3", the picture favouring 3, then 2: each is offered first in its turn,
 * or, unranked, the rules' order both times. */
static void offer_two_heights(void **state, bool ranked)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x2");
    char rules_first[64] = "";
    for (int favoured = 3; favoured >= 2; favoured--) {
        el_observation observation;
        el_observe(&f->truth, &observation);
        for (int i = 0; i < observation.count; i++)
            if (observation.tiles[i].row == 0 && observation.tiles[i].col == 2) {
                observation.tiles[i].height = 2;
                observation.tiles[i].height_or = 3;
                for (int k = 0; k <= EL_STACK_MAX; k++)
                    observation.tiles[i].support[k] = (int8_t)(k == favoured ? 0 : -20);
            }
        tracker_table table = {.frame_time = 5 - favoured, .observation = &observation,
                               .confidence = 0.9};
        assert_int_equal(tracker_observe(f->t, &table), TRACKER_OK);
        assert_int_equal(tracker_candidates(f->t), 2);
        char first[64];
        snprintf(first, sizeof first, "orange: desert-camp@0,2 x%d", favoured);
        if (!ranked && !rules_first[0])
            snprintf(rules_first, sizeof rules_first, "%s", tracker_candidate(f->t, 1));
        assert_string_equal(tracker_candidate(f->t, 1), ranked ? first : rules_first);
        char listed[80];
        snprintf(listed, sizeof listed, "(1) %s", tracker_candidate(f->t, 1));
        assert_non_null(strstr(f->seen.last_flag, listed));
        assert_int_equal(tracker_actions(f->t), 1);
    }
}

static void test_tracker_offers_the_likeliest_game_first(void **state)
{
    offer_two_heights(state, true);
}

static void test_tracker_unranked_offers_the_rules_order(void **state)
{
    offer_two_heights(state, false);
}

/* The players answer after signalling the end their hypotheses carried: the answer commits
 * that end, and the next seat's move is not followed by another (it was, once). */
static void test_tracker_commits_an_answer_across_a_signalled_end_once(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x2");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 2, false);
    play(&f->truth, "end");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 3, true);
    assert_int_equal(tracker_candidates(f->t), 2);
    int x2 = strncmp(tracker_candidate(f->t, 1), "orange: desert-camp@0,2 x2", 26) == 0 ? 1 : 2;
    assert_string_equal(tracker_candidate(f->t, x2), "orange: desert-camp@0,2 x2\norange: end");
    assert_int_equal(tracker_choose(f->t, x2, 3.5), TRACKER_OK);

    play(&f->truth, "black: desert-camp@1,2 x1");
    feed(f->t, &f->truth, 4, false);
    assert_false(tracker_pending(f->t));
    assert_archived(f, 4, 1,
                    (const char *const[]){"orange: desert-camp@0,2 x2", "orange: end",
                                          "black: desert-camp@1,2 x1", NULL});
}

/* The players' key, pressed after the table was read (no table comes with it): an end before
 * acting is flagged; after the camp, the end is committed; with a camp read "2 or 3", both
 * waiting games carry it, and a later table decides with it. */
static void test_tracker_ends_the_turn_when_the_players_say_so(void **state)
{
    fixture *f = *state;
    assert_int_equal(tracker_end_turn(f->t, 1.5), TRACKER_OK);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_TURN_END);
    assert_non_null(strstr(f->seen.last_flag, "orange cannot end the turn before acting"));
    assert_int_equal(tracker_actions(f->t), 1);

    play(&f->truth, "desert-camp@0,2 x1");
    feed(f->t, &f->truth, 2, false);
    play(&f->truth, "end");
    assert_int_equal(tracker_end_turn(f->t, 2.5), TRACKER_OK);
    assert_archived(f, 3, 1, (const char *const[]){"orange: desert-camp@0,2 x1", "orange: end",
                                                   NULL});

    play(&f->truth, "black: desert-camp@1,2 x2");
    feed_two_heights(f->t, &f->truth, 1, 2, 2, 3, 3, false);
    assert_true(tracker_pending(f->t));
    play(&f->truth, "end");
    assert_int_equal(tracker_end_turn(f->t, 3.5), TRACKER_OK);
    assert_int_equal(tracker_actions(f->t), 3);
    play(&f->truth, "orange: desert@0,3");
    feed(f->t, &f->truth, 4, false); /* the camp read 2 */
    assert_false(tracker_pending(f->t));
    assert_archived(f, 6, 3,
                    (const char *const[]){"black: desert-camp@1,2 x2", "black: end",
                                          "orange: desert@0,3", NULL});
}

/* The players' key after a table the camera misread: the end waits for a table read right,
 * which is explained across it (the key once closed the committed game's turn, where the seat
 * had not acted, and was lost). */
static void test_tracker_owes_a_typed_end_after_an_unexplained_table(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    el_observation o;
    observe_a_lake_at(&f->truth, 0, 1, &o); /* the start's mountain misread */
    feed_observation(f->t, &o, 2);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_UNEXPLAINED);
    play(&f->truth, "end");
    assert_int_equal(tracker_end_turn(f->t, 2.5), TRACKER_OK);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_UNEXPLAINED);
    assert_int_equal(tracker_actions(f->t), 1);

    play(&f->truth, "black: desert-camp@1,2 x1");
    feed(f->t, &f->truth, 3, false);
    assert_false(tracker_pending(f->t));
    assert_archived(f, 4, 1,
                    (const char *const[]){"orange: desert-camp@0,2 x1", "orange: end",
                                          "black: desert-camp@1,2 x1", NULL});
}

/* The truth as the camera sees it, but for the stack at (row, col) topped with colour. */
static void observe_a_top_at(const el_state *truth, int row, int col, int colour,
                             el_observation *o)
{
    el_observe(truth, o);
    for (int i = 0; i < o->count; i++)
        if (o->tiles[i].row == row && o->tiles[i].col == col)
            o->tiles[i].top = (int8_t)colour;
}

/* A camp whose top the camera reads in the other seat's colour on every table: the players
 * type what was played; lines the rules refuse are refused whole, nothing archived; theirs
 * are committed and archived as a correction, the table they looked at is taken again (its
 * second tile committed), and the next table, misread alike, is explained. */
static void test_tracker_commits_what_the_players_type_and_forgives_the_misread(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x2");
    play(&f->truth, "desert@2,0");
    el_observation o;
    observe_a_top_at(&f->truth, 0, 2, BLACK, &o);
    feed_observation(f->t, &o, 2);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_UNEXPLAINED);
    assert_int_equal(tracker_actions(f->t), 1);

    assert_int_equal(tracker_play(f->t, "orange: desert-temple@5,5", 3), TRACKER_BAD_INPUT);
    assert_non_null(strstr(tracker_error(f->t), "'orange: desert-temple@5,5': "));
    assert_int_equal(tracker_play(f->t, "orange: desert-camp@0,2 x2\nblack: desert@2,0", 3),
                     TRACKER_BAD_INPUT); /* the second line not black's turn: neither taken */
    assert_int_equal(tracker_play(f->t, "", 3), TRACKER_BAD_INPUT);
    assert_int_equal(tracker_actions(f->t), 1);
    archived a = read_archive(f->archive, tracker_game_id(f->t), &f->truth);
    assert_int_equal(a.corrections, 0);
    test_lines_free(&a.moves);

    assert_int_equal(tracker_play(f->t, "orange: desert-camp@0,2 x2", 3), TRACKER_OK);
    assert_archived(f, 3, 1, (const char *const[]){"orange: desert-camp@0,2 x2",
                                                   "orange: desert@2,0", NULL});
    a = read_archive(f->archive, tracker_game_id(f->t), &f->truth);
    /* the players' lines, then what the camera misread that they corrected */
    assert_int_equal(a.corrections, 2);
    assert_string_equal(a.corrections_text,
                        "{\"played\":\"orange: desert-camp@0,2 x2\"}\n"
                        "{\"misreads\":\"0,2 read top black\"}\n");
    test_lines_free(&a.moves);

    play(&f->truth, "end");
    assert_int_equal(tracker_end_turn(f->t, 4), TRACKER_OK);
    play(&f->truth, "black: desert-temple@-1,0");
    observe_a_top_at(&f->truth, 1, 2, BLACK, &o); /* (0,2) is row 1 now: the temple at -1 */
    feed_observation(f->t, &o, 5);
    assert_false(tracker_pending(f->t));
    assert_archived(f, 5, 3, (const char *const[]){"orange: end", "black: desert-temple@-1,0",
                                                   NULL});
}

/* A start tile misread and a shadow read as a tile beyond the size limit, on every table: the
 * players say the table is as the game has it, and the next table, misread alike, is
 * explained. */
static void test_tracker_forgives_a_table_the_players_say_is_the_game(void **state)
{
    fixture *f = *state;
    seen_events none = {0};
    tracker *fresh = new_tracker(NULL, 2, false, true, &none);
    assert_int_equal(tracker_confirm(fresh, 1), TRACKER_BAD_INPUT); /* no table yet */
    assert_non_null(strstr(tracker_error(fresh), "no table read yet"));
    tracker_free(fresh);

    play(&f->truth, "desert-camp@0,2 x2");
    feed(f->t, &f->truth, 2, false);
    assert_int_equal(tracker_actions(f->t), 2);
    el_observation o;
    observe_a_lake_at(&f->truth, 0, 1, &o);
    o.tiles[o.count++] = (el_seen_tile){.row = 7, .col = 0, .type = EL_DESERT, .top = EL_EMPTY,
                                        .token = EL_NO_TOKEN};
    feed_observation(f->t, &o, 3);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_UNEXPLAINED);
    int flags = f->seen.flags;
    assert_int_equal(tracker_confirm(f->t, 4), TRACKER_OK);
    assert_int_equal(f->seen.flags, flags); /* nothing raised, nothing committed */
    assert_int_equal(tracker_actions(f->t), 2);
    archived a = read_archive(f->archive, tracker_game_id(f->t), &f->truth);
    assert_int_equal(a.corrections, 2);
    assert_string_equal(a.corrections_text,
                        "{\"table\":\"as the game has it\"}\n"
                        "{\"misreads\":\"0,1 read type lake; 7,0 phantom desert\"}\n");
    test_lines_free(&a.moves);

    play(&f->truth, "desert@2,0");
    observe_a_lake_at(&f->truth, 0, 1, &o);
    o.tiles[o.count++] = (el_seen_tile){.row = 7, .col = 0, .type = EL_DESERT, .top = EL_EMPTY,
                                        .token = EL_NO_TOKEN};
    feed_observation(f->t, &o, 5);
    assert_int_equal(f->seen.flags, flags);
    assert_archived(f, 3, 2, (const char *const[]){"orange: desert@2,0", NULL});
}

/* A camp's count misread so that the rules take it (x2 for x1): the players take the move
 * back and type the right one; the archive holds the undo, and a game resumed from it replays
 * without the move taken back. Nothing to take back on a game with no move. */
static void test_tracker_takes_back_a_move_the_players_undo(void **state)
{
    fixture *f = *state;
    seen_events none = {0};
    tracker *fresh = new_tracker(NULL, 2, false, true, &none);
    assert_int_equal(tracker_undo(fresh, 1), TRACKER_BAD_INPUT);
    assert_non_null(strstr(tracker_error(fresh), "nothing to take back"));
    tracker_free(fresh);

    el_state after_start = f->truth;
    play(&f->truth, "desert-camp@0,2 x1");
    el_state misread = after_start;
    play(&misread, "desert-camp@0,2 x2");
    feed(f->t, &misread, 2, false);
    assert_archived(f, 2, 1, (const char *const[]){"orange: desert-camp@0,2 x2", NULL});

    assert_int_equal(tracker_undo(f->t, 3), TRACKER_OK);
    assert_int_equal(f->seen.undos, 1);
    assert_int_equal(tracker_actions(f->t), 1);
    assert_memory_equal(tracker_state(f->t), &after_start, sizeof after_start);
    assert_int_equal(tracker_play(f->t, "orange: desert-camp@0,2 x1", 3), TRACKER_OK);
    feed(f->t, &misread, 4, false); /* misread alike: forgiven, nothing more */
    assert_int_equal(tracker_actions(f->t), 2);
    assert_memory_equal(tracker_state(f->t), &f->truth, sizeof f->truth);

    int64_t game_id = tracker_game_id(f->t);
    tracker_free(f->t);
    f->t = NULL;
    tracker_config config;
    tracker_config_default(&config);
    config.resume = game_id;
    seen_events after_cut = {0};
    config.on_event = collect;
    config.context = &after_cut;
    tracker *resumed = NULL;
    assert_int_equal(tracker_new(&config, f->archive, &resumed), TRACKER_OK);
    assert_int_equal(tracker_actions(resumed), 2);
    assert_memory_equal(tracker_state(resumed), &f->truth, sizeof f->truth);
    /* what the players corrected came back too: the camp misread alike, nothing flagged */
    feed(resumed, &misread, 5, false);
    assert_int_equal(after_cut.flags, 0);
    assert_int_equal(tracker_actions(resumed), 2);
    assert_int_equal(tracker_undo(resumed, 5), TRACKER_OK); /* its history came back too */
    assert_int_equal(tracker_actions(resumed), 1);
    tracker_free(resumed);

    /* an archive whose misreads cannot be read (written by hand, or by a later version):
     * refused, saying which game and what, rather than resumed forgiving nothing */
    db_event bad = db_event_make(DB_EVENT_CORRECTION, -1, NULL);
    bad.detail_json = "{\"misreads\":\"0,2 read height 9\"}";
    int32_t scores[2] = {0, 0};
    assert_int_equal(db_event_append(f->archive, game_id, &bad, scores, NULL), DB_OK);
    config.on_event = NULL;
    resumed = NULL;
    assert_int_equal(tracker_new(&config, f->archive, &resumed), TRACKER_BAD_INPUT);
    assert_non_null(strstr(tracker_error(resumed), "its misreads '0,2 read height 9'"));
    tracker_free(resumed);
}

/* With every end signalled, an end the rules force (a seat's third tile) needs no signal: a
 * camp read "2 or 3", two more tiles, and the next seat's camp are explained across it (the
 * next table was refused before: "no turn end was signalled"). */
static void test_tracker_needs_no_signal_for_an_end_the_rules_force(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x2");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 2, false);
    play(&f->truth, "desert@0,3");
    feed_two_heights(f->t, &f->truth, 0, 2, 2, 3, 3, false);
    play(&f->truth, "lake@-1,2"); /* the third: the turn is over (row -1: the camp is row 1) */
    feed_two_heights(f->t, &f->truth, 1, 2, 2, 3, 4, false);
    assert_true(tracker_pending(f->t));
    play(&f->truth, "end");
    play(&f->truth, "black: desert-camp@1,2 x1");
    feed_two_heights(f->t, &f->truth, 1, 2, 2, 3, 5, false);
    assert_int_equal(f->seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS); /* not unexplained */
    feed(f->t, &f->truth, 6, false); /* the camp read 2 */
    assert_false(tracker_pending(f->t));
    assert_archived(f, 6, 1,
                    (const char *const[]){"orange: desert-camp@0,2 x2", "orange: desert@0,3",
                                          "orange: lake@-1,2", "orange: end",
                                          "black: desert-camp@1,2 x1", NULL});
}

static void feed_acting(tracker *t, const el_state *truth, double time, int seat)
{
    feed_table(t, truth, (tracker_table){.frame_time = time, .confidence = 0.9,
                                         .acting_known = true, .acting_seat = seat});
}

/* The seat whose arm reached in says whose plain tile it was: committed at once, and the turn
 * end before it with the next seat's. */
static void test_tracker_takes_who_acted_from_the_acting_seat(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    feed_acting(f->t, &f->truth, 2, ORANGE);
    play(&f->truth, "end");
    play(&f->truth, "black: desert@1,2");
    feed_acting(f->t, &f->truth, 3, BLACK); /* without the arm: black's, or orange's second? */
    assert_false(tracker_pending(f->t));
    play(&f->truth, "desert@2,2");
    feed_acting(f->t, &f->truth, 4, BLACK); /* black's second tile */
    assert_false(tracker_pending(f->t));
    play(&f->truth, "end");
    play(&f->truth, "orange: desert@2,1");
    feed_acting(f->t, &f->truth, 5, ORANGE);
    const char *const expected[] = {start_2p, "orange: desert-camp@0,2 x1", "orange: end",
                                    "black: desert@1,2", "black: desert@2,2", "black: end",
                                    "orange: desert@2,1", NULL};
    assert_archived(f, 7, 0, expected);
    assert_int_equal(f->seen.flags, 0);
}

/* An arm that no explanation fits (orange's camp, seen as black's arm) is ignored, not forced:
 * the table commits as if no arm had been f->seen. */
static void test_tracker_ignores_an_acting_seat_no_explanation_fits(void **state)
{
    fixture *f = *state;
    play(&f->truth, "desert-camp@0,2 x1");
    feed_acting(f->t, &f->truth, 2, BLACK);
    assert_archived(f, 2, 1, (const char *const[]){"orange: desert-camp@0,2 x1", NULL});
}

/* Whole random games, a table after every action with its seat's arm, no turn end signalled:
 * the archive is the game, line for line, up to the first forced pass. */
static void test_tracker_archives_whole_games_from_the_acting_seats(void **state)
{
    fixture *f = *state;
    /* without the expansion: which token a seat used is hidden from any camera (see
     * test_tracker_flags_a_token_the_camera_cannot_tell), which no arm tells either */
    static const game_case plain[] = {{2, false, 11}, {3, false, 12}, {4, false, 13}};
    for (size_t g = 0; g < sizeof plain / sizeof plain[0]; g++) {
        const game_case *c = &plain[g];
        el_state truth;
        test_lines lines = random_game(c, c->seed + 300, &truth, NULL);
        seen_events seen = {0};
        tracker *t = new_tracker(f->archive, c->seats, c->expansion, false, &seen);
        for (int i = 0; i < lines.count; i++) {
            int seat = truth.active;
            play(&truth, lines.lines[i]);
            if (!ends_turn(lines.lines[i]))
                feed_acting(t, &truth, i, seat);
        }
        archived a = read_archive(f->archive, tracker_game_id(t), &truth);
        print_message("%d players, acting seats given: %d of %d lines archived, %d flags\n",
                      c->seats, a.moves.count, lines.count, a.flags);
        /* Exactly the game until a seat without tiles passes: then the same seat acts again
         * and no arm tells whether its turn ended in between: what the tracker does then is
         * test_tracker_never_archives_a_guess_when_turn_ends_are_inferred's. */
        int passes = lines.count;
        for (int i = 0; i < lines.count && passes == lines.count; i++)
            if (strstr(lines.lines[i], ": pass"))
                passes = i;
        assert_true(a.moves.count >= passes - 2);
        for (int i = 0; i < passes - 2; i++)
            assert_string_equal(a.moves.lines[i], lines.lines[i]);
        test_lines_free(&a.moves);
        tracker_free(t);
        test_lines_free(&lines);
    }
}

/* A caravan and a sandstorm that captures nobody leave the same table: which token black
 * used is hidden, so it is flagged with both, never guessed (random game 113, its 7th line). */
static void test_tracker_flags_a_token_the_camera_cannot_tell(void **state)
{
    fixture *f = *state;
    el_state truth;
    test_lines lines = random_game(&(game_case){.seats = 4, .expansion = true}, 113, &truth, NULL);
    assert_string_equal(lines.lines[6], "black: caravan 1,0 > 2,0");
    seen_events seen = {0};
    tracker *t = new_tracker(f->archive, 4, true, true, &seen);
    feed_game(t, &lines, &truth, 0, 7, 1);
    assert_int_equal(tracker_actions(t), 6);
    assert_true(tracker_pending(t));
    assert_int_equal(seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS);
    assert_non_null(strstr(seen.last_flag, "black: caravan 1,0 > 2,0"));
    assert_non_null(strstr(seen.last_flag, "black: sandstorm 1,0 > 2,0"));
    tracker_free(t);
    test_lines_free(&lines);
}

/* Orange's camp sent 3 adventurers to the mountain at 0,1 and kept 1, and in orange's next turn
 * a tile is placed: a tracker of a 2-player game with the expansion and turn ends signalled,
 * fed every table of it. */
static tracker *before_a_token_may_hide(fixture *f, el_state *truth, seen_events *seen)
{
    *truth = test_el_new_game(2, true);
    tracker *t = new_tracker(f->archive, 2, true, true, seen);
    const char *const lines[] = {start_2p, "orange: desert-camp@0,2 x4 > w 3", "orange: end",
                                 "black: desert@2,0", "black: end", "orange: desert@0,3"};
    for (int i = 0; i < 6; i++) {
        play(truth, lines[i]);
        if (ends_turn(lines[i]))
            assert_int_equal(tracker_end_turn(t, i), TRACKER_OK);
        else
            feed(t, truth, i, false);
    }
    assert_int_equal(tracker_actions(t), 6);
    return t;
}

/* A sandstorm from the mountain onto orange's own camp changes no top: where the camera reads
 * those heights, the end the players signal is committed at once; where it cannot, the end is
 * asked about, with the tokens the table may hide before it, and the players' answer is
 * committed. */
static void test_tracker_asks_about_a_token_the_table_may_hide_before_an_end(void **state)
{
    fixture *f = *state;
    el_state truth;
    seen_events seen = {0};
    tracker *t = before_a_token_may_hide(f, &truth, &seen);
    feed(t, &truth, 6, false);
    play(&truth, "orange: end");
    assert_int_equal(tracker_end_turn(t, 6.5), TRACKER_OK);
    assert_int_equal(tracker_actions(t), 7);
    assert_int_equal(seen.flags, 0);
    tracker_free(t);

    seen = (seen_events){0};
    t = before_a_token_may_hide(f, &truth, &seen);
    play(&truth, "orange: sandstorm 0,1 > 0,2");
    el_observation o;
    el_observe(&truth, &o);
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].row == 0 && (o.tiles[i].col == 1 || o.tiles[i].col == 2))
            o.tiles[i].height = EL_UNSEEN;
    feed_observation(t, &o, 6);
    assert_int_equal(tracker_actions(t), 6); /* the table looks unchanged */
    assert_int_equal(seen.flags, 0);
    play(&truth, "orange: end");
    assert_int_equal(tracker_end_turn(t, 6.5), TRACKER_OK);
    assert_int_equal(tracker_actions(t), 6);
    assert_true(tracker_pending(t));
    assert_int_equal(seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS);
    assert_int_equal(tracker_candidates(t), 3);
    assert_string_equal(tracker_candidate(t, 1), "orange: end");
    assert_string_equal(tracker_candidate(t, 2), "orange: sandstorm 0,1 > 0,2\norange: end");
    assert_string_equal(tracker_candidate(t, 3), "orange: caravan 0,1 > 0,2\norange: end");
    assert_int_equal(tracker_choose(t, 2, 7), TRACKER_OK);
    assert_false(tracker_pending(t));
    assert_memory_equal(tracker_state(t), &truth, sizeof truth);
    archived a = read_archive(f->archive, tracker_game_id(t), &truth);
    assert_int_equal(a.moves.count, 8);
    assert_string_equal(a.moves.lines[6], "orange: sandstorm 0,1 > 0,2");
    assert_string_equal(a.moves.lines[7], "orange: end");
    test_lines_free(&a.moves);

    /* the next table is explained from there */
    play(&truth, "black: desert-camp@2,1 x1");
    feed(t, &truth, 8, false);
    assert_int_equal(tracker_actions(t), 9);
    tracker_free(t);
}

/* The same while games wait: orange's second camp read without the heights leaves a dozen
 * games (x1 to x5, some sending movers onto the first camp); at the end orange signals, each
 * may hide a token (a sandstorm onto either orange camp, a caravan onto the one beside the
 * mountain): every game with its end, alone or after a token, is asked about (49), and the one
 * the players choose is committed. */
static void test_tracker_asks_about_hidden_tokens_while_games_wait(void **state)
{
    fixture *f = *state;
    el_state truth = test_el_new_game(2, true);
    seen_events seen = {0};
    tracker *t = new_tracker(f->archive, 2, true, true, &seen);
    const char *const lines[] = {start_2p, "orange: desert-camp@0,2 x4 > w 3", "orange: end",
                                 "black: desert@2,0", "black: end"};
    for (int i = 0; i < 5; i++) {
        play(&truth, lines[i]);
        if (ends_turn(lines[i]))
            assert_int_equal(tracker_end_turn(t, i), TRACKER_OK);
        else
            feed(t, &truth, i, false);
    }
    play(&truth, "orange: desert-camp@0,3 x2");
    play(&truth, "orange: sandstorm 0,1 > 0,3");
    el_observation o;
    el_observe(&truth, &o);
    for (int i = 0; i < o.count; i++)
        if (o.tiles[i].row == 0 && o.tiles[i].col >= 1)
            o.tiles[i].height = EL_UNSEEN;
    feed_observation(t, &o, 5);
    assert_true(tracker_pending(t)); /* the camp's count */
    assert_int_equal(tracker_actions(t), 5);
    play(&truth, "orange: end");
    assert_int_equal(tracker_end_turn(t, 5.5), TRACKER_OK);
    assert_int_equal(seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS);
    int count = tracker_candidates(t), chosen = 0;
    for (int k = 1; k <= count; k++)
        if (strcmp(tracker_candidate(t, k), "orange: desert-camp@0,3 x2\n"
                                            "orange: sandstorm 0,1 > 0,3\norange: end") == 0)
            chosen = k;
    print_message("%d games offered at the end\n", count);
    for (int k = 1; k <= count; k++) {
        const char *game = tracker_candidate(t, k);
        assert_non_null(strstr(game, "orange: desert-camp@0,3 x"));
        assert_string_equal(game + strlen(game) - strlen("\norange: end"), "\norange: end");
    }
    assert_true(chosen > 0);
    assert_int_equal(tracker_choose(t, chosen, 6), TRACKER_OK);
    assert_false(tracker_pending(t));
    assert_memory_equal(tracker_state(t), &truth, sizeof truth);
    tracker_free(t);
}

/* Two turns each on a 2-player game with the expansion, every table read whole and every end
 * signalled: orange's two camps of 4 (3 movers west each) beside black's mountain, which lets
 * orange play a sandstorm from 0,1 or 2,1. The lines played, as a count of frame times. */
static int play_two_camps_by_a_mountain(tracker *t, el_state *truth)
{
    const char *const lines[] = {start_2p,
                                 "orange: desert-camp@0,2 x4 > w 3",
                                 "orange: end",
                                 "black: mountain@2,1",
                                 "black: end",
                                 "orange: desert-camp@2,2 x4 > w 3",
                                 "orange: end",
                                 "black: desert@2,0",
                                 "black: end"};
    int count = (int)(sizeof lines / sizeof lines[0]);
    for (int i = 0; i < count; i++) {
        play(truth, lines[i]);
        if (ends_turn(lines[i]))
            assert_int_equal(tracker_end_turn(t, i), TRACKER_OK);
        else
            feed(t, truth, i, false);
    }
    assert_false(tracker_pending(t));
    return count;
}

/* More games than the tracker keeps (HYPOTHESES_MAX): orange's third camp read without any
 * height leaves dozens of games (its count, movers north or south), and at its end each may
 * hide a sandstorm from either mountain onto any tile orange holds. Not every game can wait:
 * the players are told which the table leaves open, but none is theirs to choose (some are
 * missing), and the next table, read whole, is explained from the committed game. */
static void test_tracker_gives_up_the_games_when_hidden_tokens_are_too_many(void **state)
{
    fixture *f = *state;
    el_state truth = test_el_new_game(2, true);
    seen_events seen = {0};
    tracker *t = new_tracker(f->archive, 2, true, true, &seen);
    int count = play_two_camps_by_a_mountain(t, &truth);
    size_t committed = tracker_actions(t);
    play(&truth, "orange: desert-camp@0,3 x2");
    play(&truth, "orange: sandstorm 0,1 > 0,3");
    el_observation o;
    el_observe(&truth, &o);
    for (int i = 0; i < o.count; i++)
        o.tiles[i].height = EL_UNSEEN;
    feed_observation(t, &o, count);
    assert_true(tracker_pending(t)); /* the camp's count */
    assert_true(tracker_candidates(t) > 0);
    int flags = seen.flags;
    play(&truth, "orange: end");
    assert_int_equal(tracker_end_turn(t, count + 0.5), TRACKER_OK);
    assert_int_equal(seen.flags, flags + 1);
    assert_int_equal(seen.last_flag_kind, TRACKER_FLAG_AMBIGUOUS);
    assert_non_null(strstr(seen.last_flag, "orange: sandstorm 0,1 > 0,3 |"));
    assert_non_null(strstr(seen.last_flag, "| each followed by: orange: end"));
    assert_int_equal(tracker_candidates(t), 0); /* not every game is listed: none to choose */
    assert_int_not_equal(tracker_choose(t, 1, count + 1), TRACKER_OK);
    assert_true(tracker_pending(t));
    assert_int_equal(tracker_actions(t), committed);
    /* black's tile, the table read whole: orange's turn as played, then black's */
    play(&truth, "black: desert@3,0");
    feed(t, &truth, count + 2, false);
    assert_false(tracker_pending(t));
    assert_memory_equal(tracker_state(t), &truth, sizeof truth);
    tracker_free(t);
}

/* Games given up while more than one signalled turn end waits, heights unseen throughout: the
 * tracker commits nothing it cannot tell (the committed game stays as it was) and flags; the
 * players type what was played, and the game is whole again. (Each table there is explained
 * from the committed game with the ends owed, fewest ends first, and the 16 games the rules
 * keep all end no turn: orange placing all three tiles, the camps' counts told apart only by
 * heights. The game that ends two turns is never offered; the players' lines resolve it.) */
static void test_tracker_gives_up_games_that_carry_turn_ends(void **state)
{
    fixture *f = *state;
    el_state truth = test_el_new_game(2, true);
    seen_events seen = {0};
    tracker *t = new_tracker(f->archive, 2, true, true, &seen);
    int count = play_two_camps_by_a_mountain(t, &truth);
    size_t committed = tracker_actions(t);
    el_state before = truth;
    const char *const hidden[] = {"orange: desert-camp@0,3 x2",   "orange: end",
                                  "black: desert@3,0",            "black: end",
                                  "orange: desert-camp@1,3 x2",   "orange: sandstorm 0,1 > 1,3",
                                  "orange: end"};
    int hidden_count = (int)(sizeof hidden / sizeof hidden[0]);
    double time = count;
    el_observation o;
    for (int i = 0; i < hidden_count; i++) {
        play(&truth, hidden[i]);
        if (ends_turn(hidden[i])) {
            assert_int_equal(tracker_end_turn(t, time + 0.5), TRACKER_OK);
        } else {
            el_observe(&truth, &o);
            for (int k = 0; k < o.count; k++)
                o.tiles[k].height = EL_UNSEEN;
            feed_observation(t, &o, time);
        }
        time += 1;
        assert_true(tracker_pending(t));
        assert_int_equal(tracker_actions(t), committed);
        assert_memory_equal(tracker_state(t), &before, sizeof before);
    }
    int flags = seen.flags;
    play(&truth, "black: desert@3,1");
    feed(t, &truth, time, false); /* read whole */
    assert_true(tracker_pending(t));
    assert_int_equal(tracker_actions(t), committed);
    assert_int_equal(seen.flags, flags + 1);
    /* what was played, typed: black's tile on the table beyond it is taken at once */
    char typed[512] = "";
    for (int i = 0; i < hidden_count; i++)
        snprintf(typed + strlen(typed), sizeof typed - strlen(typed), "%s%s", i ? "\n" : "",
                 hidden[i]);
    assert_int_equal(tracker_play(t, typed, time + 1), TRACKER_OK);
    assert_false(tracker_pending(t));
    assert_memory_equal(tracker_state(t), &truth, sizeof truth);
    tracker_free(t);
}

static void test_tracker_refuses_what_it_cannot_track(void **state)
{
    fixture *f = *state;
    tracker_config config;
    tracker_config_default(&config);
    tracker *t = NULL;
    config.game = "chess";
    assert_int_equal(tracker_new(&config, f->archive, &t), TRACKER_BAD_INPUT);
    assert_string_equal(tracker_error(t), "unknown game 'chess'");
    tracker_free(t);
    config.game = "luxor";
    assert_int_equal(tracker_new(&config, f->archive, &t), TRACKER_NOT_AVAILABLE);
    assert_non_null(strstr(tracker_error(t), "not available yet"));
    tracker_free(t);
    config.game = EL_GAME_ID;
    config.options.seats = 5;
    assert_int_equal(tracker_new(&config, f->archive, &t), TRACKER_BAD_INPUT);
    assert_non_null(strstr(tracker_error(t), "not 5"));
    tracker_free(t);
    config.options.seats = 2;
    config.resume = 999;
    assert_int_equal(tracker_new(&config, f->archive, &t), TRACKER_BAD_INPUT);
    assert_non_null(strstr(tracker_error(t), "game 999"));
    tracker_free(t);
    assert_int_equal(tracker_new(&config, NULL, &t), TRACKER_BAD_INPUT);
    assert_non_null(strstr(tracker_error(t), "needs its archive"));
    tracker_free(t);
    tracker_free(NULL);
}

#define TEST(name, set_up) cmocka_unit_test_setup_teardown(name, set_up, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        TEST(test_tracker_archives_whole_random_games_table_by_table, setup),
        TEST(test_tracker_commits_several_actions_from_one_table, setup),
        TEST(test_tracker_resumes_a_game_cut_off_mid_way, setup),
        TEST(test_tracker_never_archives_a_guess_when_turn_ends_are_inferred, setup),
        TEST(test_tracker_commits_nothing_for_an_unchanged_table, setup_started),
        TEST(test_tracker_flags_a_misread_then_commits_the_true_table, setup_started),
        TEST(test_tracker_explains_a_half_sure_misread_from_the_cautious_observation,
             setup_started),
        TEST(test_tracker_resumed_does_not_raise_a_flag_again, setup_started),
        TEST(test_tracker_commits_no_false_move_under_a_hand, setup_started),
        TEST(test_tracker_flags_an_illegal_change_with_its_reason, setup_started),
        TEST(test_tracker_infers_a_turn_end_from_the_next_seats_action, setup_started),
        TEST(test_tracker_carries_undecided_games_until_a_table_decides,
             setup_signalled_started),
        TEST(test_tracker_takes_an_end_signalled_at_a_misread_table, setup_signalled_started),
        TEST(test_tracker_ends_the_turn_when_the_players_say_so, setup_signalled_started),
        TEST(test_tracker_owes_a_typed_end_after_an_unexplained_table, setup_signalled_started),
        TEST(test_tracker_needs_no_signal_for_an_end_the_rules_force, setup_signalled_started),
        TEST(test_tracker_commits_what_the_players_type_and_forgives_the_misread,
             setup_signalled_started),
        TEST(test_tracker_forgives_a_table_the_players_say_is_the_game, setup_signalled_started),
        TEST(test_tracker_takes_back_a_move_the_players_undo, setup_signalled_started),
        TEST(test_tracker_commits_an_answer_across_a_signalled_end_once,
             setup_signalled_started),
        TEST(test_tracker_archives_no_false_move_when_the_players_answer, setup),
        TEST(test_tracker_commits_the_candidate_the_players_choose, setup_started),
        TEST(test_tracker_asks_what_the_games_end_with_once, setup_started),
        TEST(test_tracker_offers_the_likeliest_game_first, setup_started),
        TEST(test_tracker_unranked_offers_the_rules_order, setup_started_unranked),
        TEST(test_tracker_takes_who_acted_from_the_acting_seat, setup_started),
        TEST(test_tracker_ignores_an_acting_seat_no_explanation_fits, setup_started),
        TEST(test_tracker_archives_whole_games_from_the_acting_seats, setup),
        TEST(test_tracker_flags_a_token_the_camera_cannot_tell, setup),
        TEST(test_tracker_asks_about_a_token_the_table_may_hide_before_an_end, setup),
        TEST(test_tracker_asks_about_hidden_tokens_while_games_wait, setup),
        TEST(test_tracker_gives_up_the_games_when_hidden_tokens_are_too_many, setup),
        TEST(test_tracker_gives_up_games_that_carry_turn_ends, setup),
        TEST(test_tracker_refuses_what_it_cannot_track, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
