/* Shared by the command's source files; not part of the module's interface. */
#ifndef TS_CLI_H
#define TS_CLI_H

#include "calibration.h"
#include "db.h"
#include "recording.h"

#include <signal.h>
#include <stdbool.h>

enum { EXIT_OK = 0, EXIT_FAILURE_OTHER = 1, EXIT_BAD_INPUT = 2 };

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `tablescribe --help` */
    const char *usage;   /* the whole text of `tablescribe NAME --help` */
    int (*run)(const struct cli_command *command, int argc, char **argv);
    const char *pending; /* non-NULL: not available yet, and in which issue it lands */
} cli_command;

/* Prints "tablescribe CMD: message" on standard error and returns EXIT_BAD_INPUT. */
int cli_usage_error(const cli_command *command, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints "tablescribe CMD: message" on standard error. */
void cli_error(const cli_command *command, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Parses a number from low to high (whole when `whole`); false when text is not one. */
bool cli_parse_number(const char *text, double low, double high, bool whole, double *value);

/* Parses a positive game id; false when text is not one. */
bool cli_parse_game_id(const char *text, int64_t *id);

/* What an option of a step takes, and so which of cli_option's targets it fills. */
typedef enum cli_option_kind {
    CLI_OPTION_FLAG,   /* no value: *flag = true */
    CLI_OPTION_TEXT,   /* *text = the value (a later one wins) */
    CLI_OPTION_LIST,   /* list[(*count)++] = the value; at most max of them */
    CLI_OPTION_NUMBER, /* *number = the value, from low to high */
    CLI_OPTION_WHOLE,  /* *whole = the value, a whole number from low to high */
    CLI_OPTION_PARSED, /* parse(value, parsed), which is false when the value is not one */
} cli_option_kind;

/*
 * One option of a step, for cli_options_parse; only the targets its kind names are read.
 * Every pointer is borrowed and must outlive the parse; the values stored are pointers into
 * argv.
 */
typedef struct cli_option {
    const char *name; /* without the leading "--"; NULL ends the table */
    cli_option_kind kind;
    bool *flag;
    const char **text;
    const char **list;
    int *count;
    int max;
    double *number;
    int *whole;
    double low, high;
    bool (*parse)(const char *text, void *parsed);
    void *parsed;
    /* NUMBER, WHOLE, PARSED: what a value must be, ending "--NAME VALUE: EXPECT"; LIST: what
     * the list holds, ending "STEP: at most MAX EXPECT". */
    const char *expect;
    /* TEXT: non-NULL when the option must be given (*text still NULL after the others): the
     * message, after "STEP: ". */
    const char *required;
} cli_option;

/* How many options a table may hold. */
#define CLI_OPTIONS_MAX 16

/*
 * Reads the options of a step, argv[1] to argv[argc - 1] (argv[0] is the step), with getopt_long
 * (long options only; "--" ends them), into the targets of options (a table ended by a NULL
 * name). Returns true when every argument was an option and every required one was given;
 * otherwise prints the first problem in one line ("STEP: unknown option --x", "STEP: unexpected
 * argument 'x'", a value that is not one, a full list, a required option missing) and returns
 * false, for the step to exit EXIT_BAD_INPUT; the targets set so far stay set. An option without
 * its value says "--x needs a value" when says_missing_value, else counts as an unknown option
 * (as the calibrate steps other than teach always said).
 */
bool cli_options_parse(const cli_command *command, const char *step, const cli_option *options,
                       bool says_missing_value, int argc, char **argv);

/*
 * Opens the archive: db_path when given, in this mode (DB_OPEN_CREATE creates the file, never
 * its folder), else the default $XDG_DATA_HOME/tablescribe/games.sqlite (~/.local/share/...
 * when unset), created with its folder on first use. On failure prints the reason and returns
 * NULL with *exit_code set.
 */
db *cli_open_archive(const cli_command *command, const char *db_path, db_open_mode mode,
                     int *exit_code);

/* Prints the archive's last error and returns the exit code its status calls for. */
int cli_archive_failure(const cli_command *command, db *archive, db_status status);

/* EXIT_OK when game is one the camera can see; otherwise prints why (not a game: exit 2; a game
 * whose seeing lands later: exit 1) and returns the exit code. */
int cli_check_seeing_game(const cli_command *command, const char *game);

/* The exit status a failed vision or calibration call calls for: 1 when the machine failed
 * (out of memory, input/output), 2 for everything about the user's input (a file missing or
 * not an image, markers not found, a profile that does not fit). */
int cli_vision_exit_code(vision_status status);

/* EXIT_OK when status is VISION_OK; otherwise prints error (the call's message, in one line)
 * and returns cli_vision_exit_code(status). */
int cli_vision_result(const cli_command *command, vision_status status, const char *error);

/* Loads the profile at path for game into *profile (taught: it must have learnt the box).
 * Returns EXIT_OK, or prints one line naming the file and returns the exit code. */
int cli_profile_load(const cli_command *command, const char *path, const char *game, bool taught,
                     calibration_profile *profile);

/* What `tablescribe render --script` is asked for: cmd_render.c reads the options,
 * cmd_render_script.c records. */
typedef struct render_script_request {
    const char *script;        /* the game in the notation */
    const char *out;           /* the frame folder to create (missing or empty) */
    bool png;                  /* frames as PNG; JPEG otherwise */
    recording_options options; /* frames a second, pauses, players, disturbances */
} render_script_request;

/* Records the scripted game into request->out with the renderer's config (the pose and light
 * as given; NAN fields drawn from config->scene_seed once for the whole recording). Returns the
 * exit status, the reason printed in one line; nothing is left at out on failure. */
int cli_render_script(const cli_command *command, const vision_render_config *config,
                      const render_script_request *request);

/* The part of `tablescribe render --help` about --script (one string would be too long for
 * C's limit). */
extern const char *const cli_render_script_help;

/* The command bodies. */
int cli_games(const cli_command *command, int argc, char **argv);
int cli_show(const cli_command *command, int argc, char **argv);
int cli_export(const cli_command *command, int argc, char **argv);
int cli_calibrate(const cli_command *command, int argc, char **argv);
int cli_play(const cli_command *command, int argc, char **argv);
int cli_render(const cli_command *command, int argc, char **argv);
int cli_recognise(const cli_command *command, int argc, char **argv);
/* Ctrl-C and SIGTERM, caught while a command writes something that must end whole (a
 * recording's folder, a watched game): they set cli_interrupted() instead of killing it.
 * cli_interrupts_restore puts back what was there before. */
typedef struct cli_interrupts {
    struct sigaction old_int, old_term;
} cli_interrupts;
void cli_interrupts_catch(cli_interrupts *saved);
void cli_interrupts_restore(const cli_interrupts *saved);
bool cli_interrupted(void);

int cli_calibrate_teach(const cli_command *command, int argc, char **argv);
int cli_replay(const cli_command *command, int argc, char **argv);
int cli_watch(const cli_command *command, int argc, char **argv);

#endif
