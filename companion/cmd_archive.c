/* The archive's commands: games, show, export. They only read the archive. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The options every archive command takes; getopt reports the rest as unknown. */
enum { OPTION_DB = 1000, OPTION_FORMAT, OPTION_OUT };

static const struct option archive_options[] = {
    {"db", required_argument, NULL, OPTION_DB},
    {"format", required_argument, NULL, OPTION_FORMAT},
    {"out", required_argument, NULL, OPTION_OUT},
    {NULL, 0, NULL, 0},
};

struct archive_args {
    const char *db_path;
    const char *format;
    const char *out;
    int first_operand; /* argv index of the first id */
};

/* Parses argv for the options this command allows (a string of "dfo": db, format, out).
 * Returns EXIT_OK or prints the problem and returns EXIT_BAD_INPUT. */
static int parse_archive_args(const cli_command *command, int argc, char **argv,
                              const char *allowed, struct archive_args *args)
{
    memset(args, 0, sizeof *args);
    opterr = 0;
    optind = 1;
    int option;
    while ((option = getopt_long(argc, argv, "", archive_options, NULL)) != -1) {
        const char *name = NULL;
        switch (option) {
        case OPTION_DB:
            name = "db";
            args->db_path = optarg;
            break;
        case OPTION_FORMAT:
            name = "format";
            args->format = optarg;
            break;
        case OPTION_OUT:
            name = "out";
            args->out = optarg;
            break;
        case ':':
            return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error(command, "unknown option %s (try tablescribe %s --help)",
                                   argv[optind - 1], command->name);
        }
        if (!strchr(allowed, name[0]))
            return cli_usage_error(command, "unknown option --%s (try tablescribe %s --help)",
                                   name, command->name);
    }
    args->first_operand = optind;
    return EXIT_OK;
}

static void format_date(int64_t ms, char *out, size_t size)
{
    time_t seconds = (time_t)(ms / 1000);
    struct tm tm;
    localtime_r(&seconds, &tm);
    strftime(out, size, "%Y-%m-%d %H:%M", &tm);
}

static void seat_label(const db_seat *seat, char *out, size_t size)
{
    if (seat->name[0])
        snprintf(out, size, "%s (%s)", seat->colour, seat->name);
    else
        snprintf(out, size, "%s", seat->colour);
}

/* ---- games ---- */

static int print_game_line(void *context, const db_game *game)
{
    int *count = context;
    if ((*count)++ == 0)
        printf("%4s  %-17s %-16s  %-8s  %-40s  %s\n", "id", "game", "date", "status", "seats",
               "winner");

    char date[32], seats[512] = "", winners[256] = "";
    format_date(game->started_ms, date, sizeof date);
    for (int i = 0; i < game->seat_count; i++) {
        char label[DB_COLOUR_MAX + DB_NAME_MAX + 4];
        seat_label(&game->seats[i].seat, label, sizeof label);
        size_t used = strlen(seats);
        snprintf(seats + used, sizeof seats - used, "%s%s", i ? ", " : "", label);
        if (game->status == DB_GAME_FINISHED && game->seats[i].rank == 1) {
            used = strlen(winners);
            snprintf(winners + used, sizeof winners - used, "%s%s", used ? " = " : "", label);
        }
    }
    printf("%4lld  %-17s %-16s  %-8s  %-40s  %s\n", (long long)game->id, game->game, date,
           game->status == DB_GAME_FINISHED ? "finished" : "live", seats,
           winners[0] ? winners : "-");
    return 0;
}

int cli_games(const cli_command *command, int argc, char **argv)
{
    struct archive_args args;
    int code = parse_archive_args(command, argc, argv, "d", &args);
    if (code != EXIT_OK)
        return code;
    if (args.first_operand < argc)
        return cli_usage_error(command, "unexpected argument '%s'", argv[args.first_operand]);

    db *archive = cli_open_archive(command, args.db_path, DB_OPEN_READ, &code);
    if (!archive)
        return code;
    int count = 0;
    db_status status = db_games_foreach(archive, print_game_line, &count);
    if (status != DB_OK)
        code = cli_archive_failure(command, archive, status);
    else if (count == 0)
        printf("No games in %s yet.\n", db_path(archive));
    db_close(archive);
    return code;
}

/* ---- show ---- */

struct show_context {
    const db_game *game;
};

static int print_event_line(void *context, const db_event *event, const int32_t *scores)
{
    struct show_context *show = context;
    const db_game *game = show->game;
    char time_text[16];
    time_t seconds = (time_t)(event->at_ms / 1000);
    struct tm tm;
    localtime_r(&seconds, &tm);
    strftime(time_text, sizeof time_text, "%H:%M:%S", &tm);
    const char *seat = event->seat >= 0 ? game->seats[event->seat].seat.colour : "-";
    printf("%5lld  %s  %-10s %-8s", (long long)event->seq, time_text,
           db_event_kind_name(event->kind), seat);
    for (int i = 0; i < game->seat_count; i++)
        printf(" %7d", (int)scores[i]);
    printf("  %s", event->notation && event->notation[0] ? event->notation : "");
    if (event->detail_json && strcmp(event->detail_json, "{}") != 0)
        printf("  %s", event->detail_json);
    putchar('\n');
    return 0;
}

int cli_show(const cli_command *command, int argc, char **argv)
{
    struct archive_args args;
    int code = parse_archive_args(command, argc, argv, "d", &args);
    if (code != EXIT_OK)
        return code;
    if (args.first_operand >= argc)
        return cli_usage_error(command, "which game? (tablescribe show ID; ids from tablescribe games)");
    if (args.first_operand + 1 < argc)
        return cli_usage_error(command, "unexpected argument '%s'", argv[args.first_operand + 1]);
    int64_t id;
    if (!cli_parse_game_id(argv[args.first_operand], &id))
        return cli_usage_error(command, "'%s' is not a game id (a number from tablescribe games)",
                               argv[args.first_operand]);

    db *archive = cli_open_archive(command, args.db_path, DB_OPEN_READ, &code);
    if (!archive)
        return code;
    db_game *game = malloc(sizeof *game);
    db_status status = game ? db_game_get(archive, id, game) : DB_NOMEM;
    if (status == DB_OK) {
        char date[32];
        format_date(game->started_ms, date, sizeof date);
        printf("Game %lld: %s (%s), started %s, %s\n", (long long)game->id, game->title,
               game->game, date, game->status == DB_GAME_FINISHED ? "finished" : "live");
        if (strcmp(game->options_json, "{}") != 0)
            printf("Options: %s\n", game->options_json);
        if (game->profile[0])
            printf("Profile: %s\n", game->profile);
        printf("\n%5s  %-8s  %-10s %-8s", "seq", "time", "kind", "seat");
        for (int i = 0; i < game->seat_count; i++)
            printf(" %7.7s", game->seats[i].seat.colour);
        printf("  notation\n");
        struct show_context context = {game};
        status = db_events_foreach(archive, id, print_event_line, &context);
        if (status == DB_OK && game->event_count == 0)
            printf("(no events yet)\n");
    }
    if (status == DB_OK && game->status == DB_GAME_FINISHED) {
        printf("\nFinal:");
        for (int i = 0; i < game->seat_count; i++) {
            char label[DB_COLOUR_MAX + DB_NAME_MAX + 4];
            seat_label(&game->seats[i].seat, label, sizeof label);
            printf("%s %s %d (rank %d)", i ? "," : "", label, (int)game->seats[i].final_score,
                   (int)game->seats[i].rank);
        }
        putchar('\n');
    }
    if (status != DB_OK)
        code = cli_archive_failure(command, archive, status);
    free(game);
    db_close(archive);
    return code;
}

/* ---- export ---- */

int cli_export(const cli_command *command, int argc, char **argv)
{
    struct archive_args args;
    int code = parse_archive_args(command, argc, argv, "dfo", &args);
    if (code != EXIT_OK)
        return code;
    if (!args.format)
        return cli_usage_error(command, "--format is required: json, csv, bgstats or bgg-xml");
    db_export_format format;
    if (!db_export_format_parse(args.format, &format))
        return cli_usage_error(command, "unknown format '%s' (json, csv, bgstats or bgg-xml)",
                               args.format);

    size_t count = (size_t)(argc - args.first_operand);
    int64_t *ids = calloc(count ? count : 1, sizeof *ids);
    if (!ids) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    for (size_t i = 0; i < count; i++)
        if (!cli_parse_game_id(argv[args.first_operand + (int)i], &ids[i])) {
            code = cli_usage_error(command, "'%s' is not a game id", argv[args.first_operand + (int)i]);
            free(ids);
            return code;
        }

    db *archive = cli_open_archive(command, args.db_path, DB_OPEN_READ, &code);
    if (archive) {
        db_status status = db_export(archive, format, ids, count, args.out ? args.out : "-");
        if (status != DB_OK)
            code = cli_archive_failure(command, archive, status);
        db_close(archive);
    }
    free(ids);
    return code;
}
