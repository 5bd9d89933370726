/*
 * The archive under a writer that dies: archive_tool appends events in its own process and is
 * killed with SIGKILL at random moments, over and over. After every kill the file must pass
 * integrity_check, hold every event whose append had returned, and hold no torn event (its
 * scores are there exactly when the event is). A reader running beside a writer sees committed
 * events only.
 *
 * The checks read the file with plain SQLite, not through db/, so that a bug in the archive's
 * reading code cannot hide one in its writing code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "archive_tool.h"
#include "db.h"
#include "test_support.h"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KILLS 220

typedef struct writer {
    pid_t pid;
    int acks; /* read end of the writer's stdout */
} writer;

static writer start_writer(const char *path, const char *count)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl(ARCHIVE_TOOL, ARCHIVE_TOOL, "append", path, count, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    return (writer){pid, fds[0]};
}

/* Reads every acknowledgement the writer sent (it is dead or done) and returns the highest. */
static int64_t last_ack(int fd)
{
    int64_t last = 0;
    char buffer[4096], line[32];
    size_t used = 0;
    ssize_t got;
    while ((got = read(fd, buffer, sizeof buffer)) > 0)
        for (ssize_t i = 0; i < got; i++) {
            if (buffer[i] == '\n') {
                line[used] = '\0';
                last = strtoll(line, NULL, 10);
                used = 0;
            } else if (used < sizeof line - 1) {
                line[used++] = buffer[i];
            }
        }
    close(fd);
    return last;
}

static int64_t query_int(sqlite3 *sql, const char *query)
{
    sqlite3_stmt *stmt;
    assert_int_equal(sqlite3_prepare_v2(sql, query, -1, &stmt, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    int64_t value = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return value;
}

/* Checks the file as a reader sees it now and returns its number of events: seq 1..n with no
 * gap, each with exactly the scores archive_tool stores, and no score without its event. */
static int64_t check_archive(const char *path, bool integrity)
{
    /* Read-write, though nothing is written: after a kill the WAL index may need rebuilding,
     * which SQLite does on the next open and cannot do on a read-only connection. */
    sqlite3 *sql;
    assert_int_equal(sqlite3_open_v2(path, &sql, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    sqlite3_busy_timeout(sql, 5000);
    assert_int_equal(sqlite3_exec(sql, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
    if (integrity) {
        sqlite3_stmt *stmt;
        assert_int_equal(sqlite3_prepare_v2(sql, "PRAGMA integrity_check", -1, &stmt, NULL),
                         SQLITE_OK);
        assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "ok");
        sqlite3_finalize(stmt);
    }
    int64_t tables = query_int(sql, "SELECT count(*) FROM sqlite_master WHERE name = 'events'");
    int64_t events = 0;
    if (tables == 1 && query_int(sql, "PRAGMA user_version") == DB_SCHEMA_VERSION) {
        events = query_int(sql, "SELECT count(*) FROM events");
        assert_int_equal(query_int(sql, "SELECT coalesce(max(seq), 0) FROM events"), events);
        assert_int_equal(query_int(sql, "SELECT count(*) FROM event_scores WHERE event_id "
                                        "NOT IN (SELECT id FROM events)"),
                         0);
        sqlite3_stmt *stmt;
        assert_int_equal(sqlite3_prepare_v2(sql,
                                            "SELECT e.seq, s.seat, s.score FROM events e "
                                            "LEFT JOIN event_scores s ON s.event_id = e.id "
                                            "ORDER BY e.seq, s.seat",
                                            -1, &stmt, NULL),
                         SQLITE_OK);
        int64_t rows = 0;
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            int64_t seq = sqlite3_column_int64(stmt, 0);
            assert_int_not_equal(sqlite3_column_type(stmt, 1), SQLITE_NULL);
            int seat = sqlite3_column_int(stmt, 1);
            assert_int_equal(seq, rows / ARCHIVE_TOOL_SEATS + 1);
            assert_int_equal(seat, rows % ARCHIVE_TOOL_SEATS);
            assert_int_equal(sqlite3_column_int(stmt, 2), archive_tool_score(seq, seat));
            rows++;
        }
        sqlite3_finalize(stmt);
        assert_int_equal(rows, events * ARCHIVE_TOOL_SEATS);
    }
    sqlite3_exec(sql, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(sql);
    return events;
}

static void sleep_us(long microseconds)
{
    struct timespec pause = {microseconds / 1000000, (microseconds % 1000000) * 1000};
    nanosleep(&pause, NULL);
}

static void test_db_crash_sigkill_while_appending_loses_no_returned_event(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "crash.sqlite");
    unsigned seed = 20261121;
    int64_t events = 0, mid_run_kills = 0;
    for (int kill_number = 0; kill_number < KILLS; kill_number++) {
        writer w = start_writer(path, "0");
        /* From "before the file exists" to "deep in a run of appends". */
        sleep_us(rand_r(&seed) % 25000);
        assert_int_equal(kill(w.pid, SIGKILL), 0);
        int status;
        assert_int_equal(waitpid(w.pid, &status, 0), w.pid);
        assert_true(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
        if (WIFSIGNALED(status))
            mid_run_kills++;
        int64_t acked = last_ack(w.acks);
        if (access(path, F_OK) != 0) {
            assert_int_equal(acked, 0);
            continue;
        }
        int64_t now = check_archive(path, true);
        assert_true(now >= acked);  /* every returned append is there */
        assert_true(now >= events); /* nothing that was there went away */
        /* at most the one append that committed but was killed before it could say so */
        assert_true(now <= (acked > events ? acked : events) + 1);
        events = now;
    }
    print_message("%d kills (%lld mid-run), %lld events survived intact\n", KILLS,
                  (long long)mid_run_kills, (long long)events);
    assert_true(mid_run_kills >= 200);
    assert_true(events > 0);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

static void test_db_reader_sees_only_whole_events_while_a_game_is_written(void **state)
{
    (void)state;
    char *folder = test_make_folder();
    char *path = test_path(folder, "live.sqlite");
    /* Let the writer create the file before reading starts. */
    writer first = start_writer(path, "1");
    int status;
    waitpid(first.pid, &status, 0);
    assert_int_equal(last_ack(first.acks), 1);

    writer w = start_writer(path, "400");
    int fd_flags = fcntl(w.acks, F_GETFL);
    fcntl(w.acks, F_SETFL, fd_flags | O_NONBLOCK);
    int64_t seen = 0, reads = 0, growing_reads = 0;
    while (waitpid(w.pid, &status, WNOHANG) == 0) {
        char drain[4096];
        while (read(w.acks, drain, sizeof drain) > 0)
            ;
        int64_t now = check_archive(path, false);
        assert_true(now >= seen);
        growing_reads += now > seen;
        seen = now;
        reads++;
    }
    fcntl(w.acks, F_SETFL, fd_flags);
    last_ack(w.acks);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(check_archive(path, true), 401);
    print_message("%lld consistent reads, %lld of them saw new events\n", (long long)reads,
                  (long long)growing_reads);
    assert_true(growing_reads >= 2);
    test_remove_tree(folder);
    free(path);
    free(folder);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_db_crash_sigkill_while_appending_loses_no_returned_event),
        cmocka_unit_test(test_db_reader_sees_only_whole_events_while_a_game_is_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
