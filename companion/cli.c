/* Helpers the commands share: messages, ids, and finding and opening the archive. */
#include "cli.h"

#include "rules.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void vreport(const cli_command *command, const char *format, va_list args)
{
    fprintf(stderr, "tablescribe %s: ", command->name);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
}

void cli_error(const cli_command *command, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vreport(command, format, args);
    va_end(args);
}

int cli_usage_error(const cli_command *command, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vreport(command, format, args);
    va_end(args);
    return EXIT_BAD_INPUT;
}

bool cli_parse_number(const char *text, double low, double high, bool whole, double *value)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v >= low && v <= high) || (whole && v != (long)v))
        return false;
    *value = v;
    return true;
}

bool cli_parse_game_id(const char *text, int64_t *id)
{
    if (!text || *text < '1' || *text > '9')
        return false;
    errno = 0;
    char *end = NULL;
    intmax_t value = strtoimax(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < 1 || value > INT64_MAX)
        return false;
    *id = (int64_t)value;
    return true;
}

/* cli_options_parse, but EXIT_OK or EXIT_BAD_INPUT, so that failing is one line. */
static int read_options(const cli_command *command, const char *step, const cli_option *options,
                        bool says_missing_value, int argc, char **argv)
{
    struct option long_options[CLI_OPTIONS_MAX + 1];
    int count = 0;
    /* getopt_long returns an option's index + 1: never 0, ':' or '?' for a table this short. */
    for (; options[count].name; count++) {
        assert(count < CLI_OPTIONS_MAX);
        assert(!options[count].required || options[count].kind == CLI_OPTION_TEXT);
        long_options[count] = (struct option){
            options[count].name,
            options[count].kind == CLI_OPTION_FLAG ? no_argument : required_argument,
            NULL,
            count + 1,
        };
    }
    long_options[count] = (struct option){NULL, 0, NULL, 0};
    opterr = 0;
    optind = 1;
    int found;
    while ((found = getopt_long(argc, argv, says_missing_value ? "+:" : "+", long_options,
                                NULL)) != -1) {
        if (found == ':')
            return cli_usage_error(command, "%s needs a value", argv[optind - 1]);
        if (found < 1 || found > count)
            return cli_usage_error(command, "%s: unknown option %s", step, argv[optind - 1]);
        const cli_option *option = &options[found - 1];
        double number;
        switch (option->kind) {
        case CLI_OPTION_FLAG:
            *option->flag = true;
            break;
        case CLI_OPTION_TEXT:
            *option->text = optarg;
            break;
        case CLI_OPTION_LIST:
            if (*option->count == option->max)
                return cli_usage_error(command, "%s: at most %d %s", step, option->max,
                                       option->expect);
            option->list[(*option->count)++] = optarg;
            break;
        case CLI_OPTION_NUMBER:
        case CLI_OPTION_WHOLE:
            if (!cli_parse_number(optarg, option->low, option->high,
                                  option->kind == CLI_OPTION_WHOLE, &number))
                return cli_usage_error(command, "--%s %s: %s", option->name, optarg,
                                       option->expect);
            if (option->kind == CLI_OPTION_WHOLE)
                *option->whole = (int)number;
            else
                *option->number = number;
            break;
        case CLI_OPTION_PARSED:
            if (!option->parse(optarg, option->parsed))
                return cli_usage_error(command, "--%s %s: %s", option->name, optarg,
                                       option->expect);
            break;
        }
    }
    if (optind < argc)
        return cli_usage_error(command, "%s: unexpected argument '%s'", step, argv[optind]);
    for (const cli_option *option = options; option->name; option++)
        if (option->required && !*option->text)
            return cli_usage_error(command, "%s: %s", step, option->required);
    return EXIT_OK;
}

bool cli_options_parse(const cli_command *command, const char *step, const cli_option *options,
                       bool says_missing_value, int argc, char **argv)
{
    return read_options(command, step, options, says_missing_value, argc, argv) == EXIT_OK;
}

int cli_archive_failure(const cli_command *command, db *archive, db_status status)
{
    cli_error(command, "%s", db_error(archive));
    return db_status_exit_code(status);
}

/* mkdir -p for the default archive's folder, which the user never chose and should not have to
 * create. Returns false with errno set. */
static bool make_folders(char *path)
{
    for (char *slash = strchr(path + 1, '/'); ; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = '\0';
        bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        if (slash)
            *slash = '/';
        if (!ok)
            return false;
        if (!slash)
            return true;
    }
}

db *cli_open_archive(const cli_command *command, const char *db_path, db_open_mode mode,
                     int *exit_code)
{
    char default_path[4096 + 16];
    db_config config;
    db_config_default(&config);
    config.mode = mode;

    if (!db_path) {
        const char *data_home = getenv("XDG_DATA_HOME");
        const char *home = getenv("HOME");
        char folder[4096];
        int n;
        if (data_home && *data_home == '/')
            n = snprintf(folder, sizeof folder, "%s/tablescribe", data_home);
        else if (home && *home)
            n = snprintf(folder, sizeof folder, "%s/.local/share/tablescribe", home);
        else {
            *exit_code = cli_usage_error(command, "no archive: HOME is not set; pass --db FILE");
            return NULL;
        }
        if (n < 0 || (size_t)n >= sizeof folder - 16) {
            *exit_code = cli_usage_error(command, "the archive's folder path is too long");
            return NULL;
        }
        if (!make_folders(folder)) {
            cli_error(command, "cannot create the archive's folder %s: %s", folder,
                      strerror(errno));
            *exit_code = EXIT_FAILURE_OTHER;
            return NULL;
        }
        snprintf(default_path, sizeof default_path, "%s/games.sqlite", folder);
        db_path = default_path;
        config.mode = DB_OPEN_CREATE;
    }

    db *archive = NULL;
    db_status status = db_open(db_path, &config, &archive);
    if (status != DB_OK) {
        *exit_code = cli_archive_failure(command, archive, status);
        db_close(archive);
        return NULL;
    }
    return archive;
}

int cli_check_seeing_game(const cli_command *command, const char *game)
{
    size_t count;
    const rules_game *games = rules_games(&count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(games[i].id, game) == 0) {
            if (strcmp(game, EL_GAME_ID) == 0)
                return EXIT_OK;
            cli_error(command, "%s: not available yet: the camera reads " EL_GAME_ID " so far",
                      game);
            return EXIT_FAILURE_OTHER;
        }
    return cli_usage_error(command, "'%s' is not a game (tablescribe --help lists them)", game);
}

int cli_vision_exit_code(vision_status status)
{
    return status == VISION_NOMEM || status == VISION_IO ? EXIT_FAILURE_OTHER : EXIT_BAD_INPUT;
}

int cli_vision_result(const cli_command *command, vision_status status, const char *error)
{
    if (status == VISION_OK)
        return EXIT_OK;
    cli_error(command, "%s", error);
    return cli_vision_exit_code(status);
}

int cli_profile_load(const cli_command *command, const char *path, const char *game, bool taught,
                     calibration_profile *profile)
{
    char error[512];
    vision_status status = calibration_profile_load(path, profile, error, sizeof error);
    if (status == VISION_NOT_FOUND)
        return cli_usage_error(command, "%s: no such profile (make one with tablescribe calibrate)",
                               path);
    if (status != VISION_OK) {
        cli_error(command, "%s", error);
        return cli_vision_exit_code(status);
    }
    if (strcmp(profile->game, game) != 0)
        return cli_usage_error(command, "%s: a profile of %s, not %s", path, profile->game, game);
    if (taught && profile->el.images == 0)
        return cli_usage_error(command,
                               "%s: this profile was never taught a box (tablescribe calibrate "
                               "teach --help)",
                               path);
    return EXIT_OK;
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
    (void)signal_number;
    interrupted = 1;
}

void cli_interrupts_catch(cli_interrupts *saved)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &action, &saved->old_int);
    sigaction(SIGTERM, &action, &saved->old_term);
}

void cli_interrupts_restore(const cli_interrupts *saved)
{
    sigaction(SIGINT, &saved->old_int, NULL);
    sigaction(SIGTERM, &saved->old_term, NULL);
}

bool cli_interrupted(void)
{
    return interrupted != 0;
}
