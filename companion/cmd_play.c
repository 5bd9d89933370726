/*
 * tablescribe play: scorekeeping without a camera. Actions in the game's notation come from a
 * script, standard input or a person at the terminal; each is checked by the rules, archived
 * with the running scores, and only then shown as done. Works for any game of the game table
 * whose engine exists, through rules_engine alone.
 */
#include "board_file.h"
#include "cli.h"
#include "game_log.h"

#include "rules.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct play_options {
    const char *game_id;
    int players;
    const char *colours;
    const char *names;
    unsigned flags;
    const char *db_path;
    const char *script;
    bool json;
    bool random;
    uint64_t seed;
    int64_t resume;
    const char *board; /* --board FILE: the map of a game played on a board file */
    int adventure;     /* --adventure K, for games with adventures; 0 when not given */
} play_options;

typedef struct session {
    const cli_command *command;
    const rules_game *game;
    const rules_engine *engine;
    void *state;
    void *candidate; /* each line is played on a copy, committed once archived */
    db *archive;
    int64_t archive_game;
    int actions;
    bool quiet; /* no running scores (the JSON summary, or a random game's script) */
    bool ready; /* the rules are set up: there is a game to summarise */
    int board;  /* the board's handle for the rules, 0 for games without a board file */
    char board_id[OD_ID_MAX > EX_ID_MAX ? OD_ID_MAX : EX_ID_MAX];
} session;

/* ---- options ---- */

/* Splits "a,b,c" into at most max fields of size bytes; returns the count or -1. */
static int split_list(const char *text, char (*fields)[RULES_COLOUR_MAX * 4], int max, size_t size)
{
    int count = 0;
    for (const char *p = text;;) {
        const char *comma = strchr(p, ',');
        size_t length = comma ? (size_t)(comma - p) : strlen(p);
        if (count == max || length >= size)
            return -1;
        memcpy(fields[count], p, length);
        fields[count][length] = '\0';
        count++;
        if (!comma)
            return count;
        p = comma + 1;
    }
}

static int parse_play_options(const cli_command *command, int argc, char **argv,
                              play_options *options)
{
    /* the games' flags (--expansion, --curse, ...) come from the game table: FLAG + index */
    enum { GAME = 1000, PLAYERS, COLOURS, NAMES, DB, SCRIPT, JSON, RANDOM, RESUME, BOARD, ADVENTURE,
           FLAG };
    static const struct option fixed[] = {
        {"game", required_argument, NULL, GAME},
        {"players", required_argument, NULL, PLAYERS},
        {"colours", required_argument, NULL, COLOURS},
        {"colors", required_argument, NULL, COLOURS},
        {"names", required_argument, NULL, NAMES},
        {"db", required_argument, NULL, DB},
        {"script", required_argument, NULL, SCRIPT},
        {"json", no_argument, NULL, JSON},
        {"random", required_argument, NULL, RANDOM},
        {"resume", required_argument, NULL, RESUME},
        {"board", required_argument, NULL, BOARD},
        {"adventure", required_argument, NULL, ADVENTURE},
    };
    size_t flag_count;
    const rules_flag *flags = rules_flags(&flag_count);
    enum { FIXED = sizeof fixed / sizeof fixed[0], MAX_FLAGS = 16 };
    struct option long_options[FIXED + MAX_FLAGS + 1];
    memcpy(long_options, fixed, sizeof fixed);
    for (size_t i = 0; i < flag_count && i < MAX_FLAGS; i++)
        long_options[FIXED + i] = (struct option){flags[i].option, no_argument, NULL, FLAG + (int)i};
    long_options[FIXED + (flag_count < MAX_FLAGS ? flag_count : MAX_FLAGS)] =
        (struct option){NULL, 0, NULL, 0};
    memset(options, 0, sizeof *options);
    opterr = 0;
    optind = 1;
    int option;
    double number;
    while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        switch (option) {
        case GAME: options->game_id = optarg; break;
        case PLAYERS:
            if (!cli_parse_number(optarg, 1, RULES_MAX_SEATS, true, &number))
                return cli_usage_error(command, "--players %s: a number of players", optarg);
            options->players = (int)number;
            break;
        case COLOURS: options->colours = optarg; break;
        case NAMES: options->names = optarg; break;
        case DB: options->db_path = optarg; break;
        case SCRIPT: options->script = optarg; break;
        case BOARD: options->board = optarg; break;
        case ADVENTURE:
            if (!cli_parse_number(optarg, 1, 99, true, &number))
                return cli_usage_error(command, "--adventure %s: an adventure's number", optarg);
            options->adventure = (int)number;
            break;
        case JSON: options->json = true; break;
        case RANDOM: {
            char *end = NULL;
            errno = 0;
            unsigned long long seed = strtoull(optarg, &end, 10);
            if (errno || end == optarg || *end || optarg[0] == '-')
                return cli_usage_error(command, "--random %s: a seed is a whole number", optarg);
            options->random = true;
            options->seed = seed;
            break;
        }
        case RESUME:
            if (!cli_parse_game_id(optarg, &options->resume))
                return cli_usage_error(command, "--resume %s: a game id from tablescribe games",
                                       optarg);
            break;
        case ':':
            return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
        default:
            if (option >= FLAG && option < FLAG + (int)flag_count) {
                options->flags |= flags[option - FLAG].flag;
                break;
            }
            return cli_usage_error(command, "unknown option %s (try tablescribe play --help)",
                                   argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error(command, "unexpected argument '%s'", argv[optind]);
    if (options->random && (options->script || options->resume))
        return cli_usage_error(command, "--random plays a game of its own: no --script or --resume");
    if (options->resume && (options->players || options->colours || options->names || options->flags))
        return cli_usage_error(command, "--resume takes the players and options from the archive");
    return EXIT_OK;
}

/* ---- the board ---- */

/* Loads the map of a game played on a board file: the file given, else the one built in.
 * Sets s->board and s->board_id; a game without a board file refuses --board. */
static int load_board(session *s, const char *path)
{
    char error[320];
    int handle = board_file_load(s->game->id, path, s->board_id, sizeof s->board_id, error,
                                 sizeof error);
    if (handle > 0) {
        s->board = handle;
        return EXIT_OK;
    }
    if (handle == 0)
        return path ? cli_usage_error(s->command, "--board %s: %s is not played on a board file",
                                      path, s->game->title)
                    : EXIT_OK;
    if (handle == BOARD_FILE_BAD && path)
        return cli_usage_error(s->command, "%s", error);
    cli_error(s->command, "%s", error);
    return EXIT_FAILURE_OTHER;
}

/* ---- the running game ---- */

static void print_scores(const session *s, FILE *out)
{
    int seats = s->engine->seat_count(s->state);
    int32_t scores[RULES_MAX_SEATS];
    s->engine->scores(s->state, scores);
    for (int i = 0; i < seats; i++)
        fprintf(out, "%s%s %d", i ? ", " : "", s->engine->colour(s->state, i), (int)scores[i]);
}

/* Archives the finished game's result. */
static int finish(session *s)
{
    int32_t scores[RULES_MAX_SEATS], ranks[RULES_MAX_SEATS];
    s->engine->scores(s->state, scores);
    s->engine->ranks(s->state, ranks);
    if (s->archive) {
        db_status status = game_log_finish(s->archive, s->archive_game, s->engine, s->state);
        if (status != DB_OK)
            return cli_archive_failure(s->command, s->archive, status);
    }
    if (!s->quiet) {
        printf("Game over:");
        int seats = s->engine->seat_count(s->state);
        for (int i = 0; i < seats; i++)
            printf("%s %s %d (rank %d)", i ? "," : "", s->engine->colour(s->state, i),
                   (int)scores[i], (int)ranks[i]);
        printf(".\n");
    }
    return EXIT_OK;
}

/* What play_line returns for a line the rules refuse: not an exit status, since the archive's
 * failures use those. */
enum { PLAY_REFUSED = -1 };

/* Plays one line: on a copy, archived, then committed. Returns EXIT_OK, PLAY_REFUSED for a line
 * the rules refuse (reason in error), or the exit status of the archive's failure (reported). */
static int play_line(session *s, const char *line, char *error, size_t size)
{
    rules_played played;
    db_status status = DB_OK;
    switch (game_log_play(s->archive, s->archive_game, s->engine, s->state, s->candidate, line,
                          NULL, &played, NULL, error, size, &status)) {
    case GAME_LOG_REFUSED:
        return PLAY_REFUSED;
    case GAME_LOG_ARCHIVE:
        error[0] = '\0';
        return cli_archive_failure(s->command, s->archive, status);
    case GAME_LOG_OK:
        break;
    }
    if (!played.acted)
        return EXIT_OK;
    s->actions++;
    if (!s->quiet) {
        char action[sizeof played.notation + RULES_COLOUR_MAX + 2];
        snprintf(action, sizeof action, "%s%s%s", played.seat >= 0 ? s->engine->colour(s->state, played.seat) : "",
                 played.seat >= 0 ? ": " : "", played.notation);
        printf("%-44s ", action);
        print_scores(s, stdout);
        putchar('\n');
    }
    if (s->engine->is_over(s->state))
        return finish(s);
    return EXIT_OK;
}

/* ---- the archive ---- */

static int create_archive_game(session *s, const play_options *options,
                               char names[][RULES_COLOUR_MAX * 4], int name_count)
{
    db_status status = game_log_create(s->archive, s->game, s->state, options->flags,
                                       s->board ? s->board_id : NULL, options->adventure,
                                       (const char(*)[GAME_LOG_NAME_MAX])names, name_count,
                                       &s->archive_game);
    return status == DB_OK ? EXIT_OK : cli_archive_failure(s->command, s->archive, status);
}

typedef struct stored_lines {
    char **lines;
    size_t count, capacity;
    bool out_of_memory;
} stored_lines;

static void store_line(void *context, const char *line)
{
    stored_lines *stored = context;
    if (stored->out_of_memory)
        return;
    if (stored->count == stored->capacity) {
        size_t capacity = stored->capacity ? 2 * stored->capacity : 256;
        char **grown = realloc(stored->lines, capacity * sizeof *grown);
        if (!grown) {
            stored->out_of_memory = true;
            return;
        }
        stored->lines = grown;
        stored->capacity = capacity;
    }
    if (!(stored->lines[stored->count] = strdup(line)))
        stored->out_of_memory = true;
    else
        stored->count++;
}

static void free_lines(stored_lines *stored)
{
    for (size_t i = 0; i < stored->count; i++)
        free(stored->lines[i]);
    free(stored->lines);
}

/* Loads an archived live game and replays its moves; fills options from the archive. */
static int resume(session *s, play_options *options)
{
    db_game *game = malloc(sizeof *game);
    if (!game)
        return EXIT_FAILURE_OTHER;
    int code = EXIT_OK;
    db_status status = db_game_get(s->archive, options->resume, game);
    if (status != DB_OK) {
        code = cli_archive_failure(s->command, s->archive, status);
    } else if (game->status == DB_GAME_FINISHED) {
        code = cli_usage_error(s->command, "game %lld is finished: nothing to resume",
                               (long long)game->id);
    } else if (options->game_id && strcmp(options->game_id, game->game) != 0) {
        code = cli_usage_error(s->command, "game %lld is %s, not %s", (long long)game->id,
                               game->game, options->game_id);
    } else if (!(s->game = rules_game_find(game->game)) || !s->game->engine) {
        cli_error(s->command, "game %lld is %s, which this build cannot play", (long long)game->id,
                  game->game);
        code = EXIT_FAILURE_OTHER;
    }
    if (code != EXIT_OK) {
        free(game);
        return code;
    }
    s->engine = s->game->engine;
    s->archive_game = game->id;
    rules_options rules;
    char played_on[sizeof s->board_id];
    game_log_options(game, &rules, played_on, sizeof played_on);
    options->flags = rules.flags;
    options->adventure = rules.adventure;
    if ((code = load_board(s, options->board)) == EXIT_OK && s->board &&
        strcmp(played_on, s->board_id) != 0)
        code = cli_usage_error(s->command, "game %lld was played on board %s, not %s: give its "
                               "file with --board", (long long)game->id, played_on, s->board_id);
    if (code != EXIT_OK) {
        free(game);
        return code;
    }
    rules.board = s->board;
    char error[256];
    if (!(s->state = calloc(1, s->engine->state_size)) ||
        !(s->candidate = calloc(1, s->engine->state_size)) ||
        s->engine->init(s->state, &rules, error, sizeof error) != RULES_OK) {
        cli_error(s->command, "game %lld: cannot set up its rules", (long long)game->id);
        free(game);
        return EXIT_FAILURE_OTHER;
    }
    size_t moves = 0;
    switch (game_log_replay(s->archive, game->id, s->engine, s->state, &moves, NULL, error,
                            sizeof error, &status)) {
    case GAME_LOG_ARCHIVE:
        code = cli_archive_failure(s->command, s->archive, status);
        break;
    case GAME_LOG_REFUSED:
        cli_error(s->command, "game %lld does not replay at %s", (long long)game->id, error);
        code = EXIT_FAILURE_OTHER;
        break;
    case GAME_LOG_OK:
        break;
    }
    s->actions = (int)moves;
    s->ready = code == EXIT_OK;
    if (code == EXIT_OK && !s->quiet) {
        printf("Resumed game %lld after %zu moves: ", (long long)game->id, moves);
        print_scores(s, stdout);
        printf("; %s to play.\n", s->engine->colour(s->state, s->engine->active_seat(s->state)));
    }
    free(game);
    return code;
}

/* ---- the summary ---- */

static void print_json(const session *s, const play_options *options)
{
    int seats = s->engine->seat_count(s->state);
    int32_t scores[RULES_MAX_SEATS], ranks[RULES_MAX_SEATS];
    s->engine->scores(s->state, scores);
    s->engine->ranks(s->state, ranks);
    bool over = s->engine->is_over(s->state);
    json_t *seat_list = json_array(), *winners = json_array();
    for (int i = 0; i < seats; i++) {
        json_t *seat = json_pack("{s:s, s:i, s:i}", "colour", s->engine->colour(s->state, i),
                                 "score", (int)scores[i], "rank", (int)ranks[i]);
        for (int c = 0; c < s->engine->counter_count; c++)
            json_object_set_new(seat, s->engine->counter_names[c],
                                json_integer(s->engine->seat_counter(s->state, i, c)));
        json_array_append_new(seat_list, seat);
        if (over && ranks[i] == 1)
            json_array_append_new(winners, json_string(s->engine->colour(s->state, i)));
    }
    json_t *root = json_pack("{s:s, s:i, s:o, s:o, s:i, s:b, s:o}", "game", s->game->id,
                             "players", seats, "seats", seat_list, "winners", winners,
                             "actions", s->actions, "finished", over, "archive_game",
                             s->archive ? json_integer(s->archive_game) : json_null());
    /* the game's options, as they are archived: {"expansion": false, ...} */
    size_t flag_count;
    const rules_flag *flags = rules_flags(&flag_count);
    for (size_t i = 0; i < flag_count; i++)
        if (s->game->flags & flags[i].flag)
            json_object_set_new(root, flags[i].key,
                                json_boolean((options->flags & flags[i].flag) != 0));
    if (s->board)
        json_object_set_new(root, "board", json_string(s->board_id));
    if (options->adventure)
        json_object_set_new(root, "adventure", json_integer(options->adventure));
    json_dumpf(root, stdout, JSON_INDENT(2));
    putchar('\n');
    json_decref(root);
}

/* ---- the command ---- */

static int set_up(session *s, play_options *options)
{
    const cli_command *command = s->command;
    if (!options->game_id)
        return cli_usage_error(command, "--game is required (try tablescribe play --help)");
    s->game = rules_game_find(options->game_id);
    if (!s->game) {
        size_t count;
        const rules_game *games = rules_games(&count);
        char list[256] = "";
        for (size_t i = 0; i < count; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                     games[i].id);
        return cli_usage_error(command, "unknown game '%s' (%s)", options->game_id, list);
    }
    if (!s->game->engine) {
        cli_error(command, "%s: not available yet: its rules engine lands in a later issue",
                  s->game->id);
        return EXIT_FAILURE_OTHER;
    }
    s->engine = s->game->engine;
    if (!options->players)
        return cli_usage_error(command, "--players is required: %d to %d for %s",
                               s->game->min_players, s->game->max_players, s->game->title);
    if (options->players < s->game->min_players || options->players > s->game->max_players)
        return cli_usage_error(command, "%s is played by %d to %d, not %d", s->game->title,
                               s->game->min_players, s->game->max_players, options->players);
    if (options->flags & ~s->game->flags) {
        size_t flag_count;
        const rules_flag *flags = rules_flags(&flag_count);
        for (size_t i = 0; i < flag_count; i++)
            if (options->flags & ~s->game->flags & flags[i].flag)
                return cli_usage_error(command, "%s has no --%s", s->game->title, flags[i].option);
    }
    int code = load_board(s, options->board);
    if (code != EXIT_OK)
        return code;
    if (options->adventure && !s->game->adventures)
        return cli_usage_error(command, "--adventure: %s has no adventures", s->game->title);
    if (options->adventure > s->game->adventures)
        return cli_usage_error(command, "--adventure %d: %s has adventures 1 to %d",
                               options->adventure, s->game->title, s->game->adventures);
    if (!options->adventure && s->game->adventures)
        options->adventure = 1; /* archived, so that a resume plays the same one */
    rules_options rules = {.seats = options->players, .flags = options->flags, .board = s->board,
                           .adventure = options->adventure};
    if (options->colours) {
        char fields[RULES_MAX_SEATS][RULES_COLOUR_MAX * 4];
        int count = split_list(options->colours, fields, RULES_MAX_SEATS, RULES_COLOUR_MAX);
        if (count != options->players)
            return cli_usage_error(command, "--colours %s: %d colours for %d players, comma-separated",
                                   options->colours, count < 0 ? RULES_MAX_SEATS + 1 : count,
                                   options->players);
        rules.colour_count = count;
        for (int i = 0; i < count; i++)
            snprintf(rules.colours[i], RULES_COLOUR_MAX, "%.15s", fields[i]);
    }
    char error[256];
    if (!(s->state = calloc(1, s->engine->state_size)) ||
        !(s->candidate = calloc(1, s->engine->state_size))) {
        cli_error(command, "out of memory");
        return EXIT_FAILURE_OTHER;
    }
    if (s->engine->init(s->state, &rules, error, sizeof error) != RULES_OK)
        return cli_usage_error(command, "%s", error);
    s->ready = true;
    return EXIT_OK;
}

/* Reads actions from in until its end, one line each. Script lines that the rules refuse stop
 * the game there (exit 2); at a terminal the reason is shown and the player tries again. */
static int read_actions(session *s, FILE *in, const char *name, bool interactive)
{
    char *line = NULL;
    size_t capacity = 0;
    long number = 0;
    int code = EXIT_OK;
    for (;;) {
        if (interactive) {
            if (s->engine->is_over(s->state))
                break;
            printf("%s> ", s->engine->colour(s->state, s->engine->active_seat(s->state)));
            fflush(stdout);
        }
        if (getline(&line, &capacity, in) < 0)
            break;
        number++;
        char error[256] = "";
        int result = play_line(s, line, error, sizeof error);
        if (result == EXIT_OK)
            continue;
        if (result == PLAY_REFUSED && interactive) {
            printf("refused: %s\n", error);
            continue;
        }
        if (result == PLAY_REFUSED) {
            cli_error(s->command, "%s:%ld: %s", name, number, error);
            result = EXIT_BAD_INPUT;
        }
        code = result;
        break;
    }
    if (ferror(in)) {
        cli_error(s->command, "%s: %s", name, strerror(errno));
        code = EXIT_FAILURE_OTHER;
    }
    free(line);
    return code;
}

int cli_play(const cli_command *command, int argc, char **argv)
{
    play_options options;
    int code = parse_play_options(command, argc, argv, &options);
    if (code != EXIT_OK)
        return code;
    session s = {.command = command, .quiet = options.json};

    if (options.resume) {
        if (!(s.archive = cli_open_archive(command, options.db_path, DB_OPEN_WRITE, &code)))
            return code;
        code = resume(&s, &options);
    } else {
        code = set_up(&s, &options);
    }

    if (code == EXIT_OK && options.random) {
        /* The game is played by the engine, then printed as a script and, with --db,
         * archived by feeding that script back through the same path as any other. */
        stored_lines lines = {NULL, 0, 0, false};
        char error[256];
        if (s.engine->random_game(s.state, options.seed, store_line, &lines, error, sizeof error) !=
                RULES_OK ||
            lines.out_of_memory) {
            cli_error(command, "random game %llu: %s", (unsigned long long)options.seed,
                      lines.out_of_memory ? "out of memory" : error);
            code = EXIT_FAILURE_OTHER;
        }
        if (code == EXIT_OK && options.db_path) {
            if (!(s.archive = cli_open_archive(command, options.db_path, DB_OPEN_CREATE, &code)))
                code = code ? code : EXIT_FAILURE_OTHER;
        }
        if (code == EXIT_OK && s.archive) {
            rules_options rules = {.seats = s.engine->seat_count(s.state), .flags = options.flags,
                                   .colour_count = s.engine->seat_count(s.state),
                                   .board = s.board, .adventure = options.adventure};
            for (int i = 0; i < rules.seats; i++)
                snprintf(rules.colours[i], RULES_COLOUR_MAX, "%s", s.engine->colour(s.state, i));
            s.engine->init(s.state, &rules, error, sizeof error);
            s.quiet = true;
            code = create_archive_game(&s, &options, NULL, 0);
            for (size_t i = 0; code == EXIT_OK && i < lines.count; i++)
                if ((code = play_line(&s, lines.lines[i], error, sizeof error)) == PLAY_REFUSED) {
                    cli_error(command, "random game %llu refused its own line %zu: %s",
                              (unsigned long long)options.seed, i + 1, error);
                    code = EXIT_FAILURE_OTHER;
                }
        }
        if (code == EXIT_OK && !options.json) {
            printf("# tablescribe play --game %s --players %d", s.game->id,
                   s.engine->seat_count(s.state));
            size_t flag_count;
            const rules_flag *flags = rules_flags(&flag_count);
            for (size_t i = 0; i < flag_count; i++)
                if (options.flags & flags[i].flag)
                    printf(" --%s", flags[i].option);
            if (options.board)
                printf(" --board %s", options.board);
            if (options.adventure)
                printf(" --adventure %d", options.adventure);
            printf(" --random %llu\n", (unsigned long long)options.seed);
            for (size_t i = 0; i < lines.count; i++)
                puts(lines.lines[i]);
            printf("# ");
            print_scores(&s, stdout);
            putchar('\n');
        }
        s.actions = (int)lines.count;
        free_lines(&lines);
    } else if (code == EXIT_OK) {
        if (!s.archive && !(s.archive = cli_open_archive(command, options.db_path, DB_OPEN_CREATE, &code)))
            goto done;
        if (!options.resume) {
            char names[RULES_MAX_SEATS][RULES_COLOUR_MAX * 4];
            int name_count = 0;
            if (options.names) {
                name_count = split_list(options.names, names, RULES_MAX_SEATS, DB_NAME_MAX);
                if (name_count < 0 || name_count > s.engine->seat_count(s.state)) {
                    code = cli_usage_error(command, "--names %s: one name a seat at most, "
                                                    "comma-separated", options.names);
                    goto done;
                }
            }
            if ((code = create_archive_game(&s, &options, names, name_count)) != EXIT_OK)
                goto done;
        }
        FILE *in = stdin;
        const char *name = "standard input";
        if (options.script && strcmp(options.script, "-") != 0) {
            name = options.script;
            if (!(in = fopen(options.script, "r"))) {
                code = cli_usage_error(command, "%s: %s", options.script, strerror(errno));
                goto done;
            }
        }
        bool interactive = !options.script && isatty(fileno(stdin));
        if (interactive && !s.quiet)
            printf("Game %lld: %s, %d players. One action a line in the notation; Ctrl-D stops.\n",
                   (long long)s.archive_game, s.game->title, s.engine->seat_count(s.state));
        code = read_actions(&s, in, name, interactive);
        if (in != stdin)
            fclose(in);
        if (!s.engine->is_over(s.state) && !s.quiet) {
            printf("Scores so far: ");
            print_scores(&s, stdout);
            printf(".\nThe game is not over: game %lld stays open in %s; continue it with "
                   "tablescribe play --resume %lld%s%s.\n",
                   (long long)s.archive_game, db_path(s.archive), (long long)s.archive_game,
                   options.db_path ? " --db " : "", options.db_path ? options.db_path : "");
        }
    }
    if (options.json && (code == EXIT_OK || code == EXIT_BAD_INPUT) && s.ready)
        print_json(&s, &options);
done:
    db_close(s.archive);
    free(s.state);
    free(s.candidate);
    return code;
}
