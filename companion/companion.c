/*
 * The command table and the dispatch. Every command of DESIGN.md §3.1 is listed with its help,
 * including those whose capability lands later: they say so and exit 1, never fake a result.
 */
#include "companion.h"

#include "cli.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

#ifndef TS_VERSION
#define TS_VERSION "unknown"
#endif


static const cli_command commands[] = {
    {"watch", "watch a table: track, check, score and archive a game",
     "usage: tablescribe watch [--game G] [--players N] [--expansion] [--source SRC]\n"
     "                         [--profile P] [--db FILE] [--resume [GAME_ID]]\n"
     "                         [--seats-at DEG,DEG,..] [--turn-key]\n"
     "\n"
     "The main job: watches the table at the source's pace, waits while hands are over it,\n"
     "reads each settled table, checks the moves against the game's rules, and prints the\n"
     "scoreboard as it goes: each move as it is committed with the running scores, and a\n"
     "warning for each table that does not fit (a flag: nothing is committed until the table\n"
     "is explained), a moved camera, a hand resting on the table, a marker not found (three\n"
     "hold the table). What the camera cannot tell (a camp's count hidden in its stack, an\n"
     "action token that only changed heights) is flagged ambiguous with numbered candidates:\n"
     "type the right one's number and Enter, and it is committed (the answer archived with\n"
     "it).\n"
     "Where the camera misread the table, type what was played since the last move, as the\n"
     "moves print and ';' between actions (orange: desert-camp@0,2 x3 > w 2; orange: end),\n"
     "or ok when nothing was played, and Enter: the rules check it, it is archived as a\n"
     "correction, and the same misread on later tables is forgiven. u and Enter takes the\n"
     "last move back (a misread the rules took for a move).\n"
     "No camera sees a turn end: it is inferred from the next seat's action, or typed: e and\n"
     "Enter when a turn is over. The game is written to the archive as it goes; Ctrl-C stops,\n"
     "and --resume continues the game later. With no --source it watches the built-in demo\n"
     "table.\n"
     "\n"
     "  --game G        default expedition-luxor\n"
     "  --players N     2 to 4 (default 2)\n"
     "  --expansion     Expedition Luxor's \"New Adventures\" (the action tokens); a\n"
     "                  resumed game keeps its own\n"
     "  --source SRC    camera[:N], v4l2:/dev/videoN, file:VIDEO, dir:FOLDER, demo[:SEED]\n"
     "  --profile P     the profile taught for this box (tablescribe calibrate)\n"
     "  --db FILE       the archive (default $XDG_DATA_HOME/tablescribe/games.sqlite)\n"
     "  --resume [ID]   continue the last unfinished game (or game ID) from its last event; a\n"
     "                  recording (dir:, file:) is read on from where the archive stopped\n"
     "  --seats-at D,.. where the players sit, one azimuth a seat in play order: 0 = the mat's\n"
     "                  bottom edge (marker 3 to marker 2), counter-clockwise (default seat k of\n"
     "                  N at 360 k / N); the arm reaching in tells whose turn it is\n"
     "  --turn-key      the players type e and Enter at the end of every turn (but one the\n"
     "                  rules end, after a third tile): no other end is inferred, so who\n"
     "                  placed a plain tile is never in doubt\n"
     "  --web H:P       serve the live page there (not available yet)\n",
     cli_watch, NULL},
    {"replay", "run a recording through the whole pipeline, as fast as it reads",
     "usage: tablescribe replay --game G --source SRC --profile P [--db FILE] [--json]\n"
     "                          [--players N] [--expansion] [--seats-at DEG,DEG,..]\n"
     "\n"
     "The same pipeline as watch, as fast as the frames can be read (a progress bar on a\n"
     "terminal): prints each committed move in the game's notation with the running scores,\n"
     "each flag with its reason, notes (a moved camera, a marker not found, a settled table\n"
     "not read and why), and the scores at the end. Exit status 0 when the source was read to\n"
     "its end.\n"
     "\n"
     "  --source SRC    dir:FOLDER (a recording: tablescribe render --script), file:VIDEO,\n"
     "                  v4l2:/dev/videoN, camera[:N]\n"
     "  --profile P     the profile taught for this box (tablescribe calibrate teach)\n"
     "  --db FILE       archive the game there (default: nothing archived)\n"
     "  --json          one JSON object a line per event (\"event\": \"move\", \"flag\",\n"
     "                  \"game-over\", \"registered\", \"reregistered\", \"unread\",\n"
     "                  \"markers\": a marker not found, the table read from the other\n"
     "                  three), and an \"end\" object with the counts and the scores\n"
     "  --players N     2 to 4 (default 2)\n"
     "  --expansion     Expedition Luxor's \"New Adventures\" (the action tokens); a\n"
     "                  resumed game keeps its own\n"
     "  --seats-at D,.. where the players sit (see tablescribe watch --help)\n",
     cli_replay, NULL},
    {"recognise", "print what a still image shows, as observation JSON",
     "usage: tablescribe recognise --game expedition-luxor --profile P [--timing] IMAGE...\n"
     "\n"
     "Prints the observation of each still image (DESIGN.md §3.2) as JSON: every tile's type,\n"
     "the colour of each stack's top, its height where the camera angle shows it, the boat and\n"
     "the snakes, each with its confidence, and \"unknown\" where the camera cannot tell (a\n"
     "hand, glare) rather than a guess. With several images, one object a line, each naming its\n"
     "\"image\". Nothing is printed unless every image is read.\n"
     "\n"
     "  --profile P   the profile taught for this box (tablescribe calibrate teach)\n"
     "  --timing      the time of each stage, on standard error\n",
     cli_recognise, NULL},
    {"calibrate", "print the markers, calibrate the camera, register the table, teach a box",
     "usage: tablescribe calibrate markers --out FILE.png [--marker-mm 40] [--dpi 300]\n"
     "       tablescribe calibrate camera --print-board FILE.png [--dpi 300]\n"
     "       tablescribe calibrate camera --image A --image B ... --profile P [--game G]\n"
     "       tablescribe calibrate table [--image I] --profile P [--marker-mm N] [--mat WxH]\n"
     "                                   [--tile-mm N] [--game G]\n"
     "       tablescribe calibrate teach --image I --truth O [--image I2 --truth O2 ...]\n"
     "                                   --profile P [--game G]\n"
     "       tablescribe calibrate teach --print-layout [--colours a,b,..] [--out LAYOUT.json]\n"
     "\n"
     "Prints the four table markers, measures the camera, records the mat, and teaches the\n"
     "pieces of your own box into a profile (created when missing, for --game G, default\n"
     "expedition-luxor).\n"
     "\n"
     "  markers   an A4 sheet with the four ArUco markers (4x4_50, ids 0-3), their size and a\n"
     "            100 mm ruler to check the print scale\n"
     "  camera    optional: --print-board writes a ChArUco board (7 x 5 squares of 30 mm,\n"
     "            ArUco 5x5_100); photos of it from 3 or more angles (10 or more is better)\n"
     "            give the camera's focal length and lens distortion, written to the profile\n"
     "  table     records the mat: --marker-mm (default 40), --mat WxH mm between marker\n"
     "            centres (default 560x560), --tile-mm the game's cell (default 40); with\n"
     "            --image, a photo of the table must show all four markers where the mat puts\n"
     "            them (else nothing is written), and the camera's height and tilt are shown\n"
     "  teach     learns your box (its tiles' art, the adventurers' colours, the tokens)\n"
     "            from photos of the table whose observation you give as the truth,\n"
     "            and writes it to the profile (keeping its camera and mat). One photo of the\n"
     "            layout --print-layout describes is enough; --out writes that layout's truth.\n",
     cli_calibrate, NULL},
    {"render", "draw an observation as a camera would see it",
     "usage: tablescribe render --game expedition-luxor --observation FILE --out IMAGE\n"
     "                          [--seed S] [--box B] [--width W --height H] [--info FILE.json]\n"
     "                          [camera, light, lens and table options]\n"
     "       tablescribe render --game expedition-luxor --script GAME.txt --out DIR [--fps 10]\n"
     "                          [--seed S] [--box B] [--width W --height H] [--pause MS]\n"
     "                          [--players N] [--expansion] [--format jpg|png]\n"
     "                          [--resting-hand] [--nudge] [camera, light, lens, table options]\n"
     "\n"
     "The scene renderer: draws an observation (the truth, observation JSON) as a camera would\n"
     "see it on a table with the four markers: tiles with their art, stacks of adventurers with\n"
     "real height, tokens, shadows, glare, hands, lens distortion, blur, noise and JPEG loss. For\n"
     "tests, benches and the demo table. The same options give the same pixels. A value not given\n"
     "is drawn from the seed within its range; the box's art, pieces and lens from the box.\n"
     "\n"
     "  --out IMAGE            .png or .jpg; written whole or not at all\n"
     "  --seed S               this photo (default 1)\n"
     "  --box B                the box: its tile and token art, its pieces, the table, the lens\n"
     "                         (default: the seed)\n"
     "  --width W --height H   pixels, 32 to 8192 (default 1920 x 1080)\n"
     "  --info FILE.json       also write what the image does not say: the true camera\n"
     "                         (homography, projection, markers' corners), the pieces' size,\n"
     "                         the light (shadow_per_mm: how far a shadow moves a mm of\n"
     "                         height), each tile's place, turn, stack spot and share under\n"
     "                         a hand\n"
     "camera:\n"
     "  --camera-height MM     500 to 1200 (raised when the mat would not fit the frame)\n"
     "  --tilt DEG             from looking straight down, 0 to 35\n"
     "  --azimuth DEG          the side the camera looks from, 0 = the mat's bottom edge,\n"
     "                         counter-clockwise, 0 to 360\n"
     "  --distortion K1        radial lens distortion, -0.12 to 0.04 (default: the box's lens)\n"
     "light and sensor:\n"
     "  --light-kelvin K       the light's colour, 2700 to 6500\n"
     "  --light-azimuth DEG    where the light comes from, 0 to 360\n"
     "  --light-elevation DEG  30 to 85\n"
     "  --glare G              a specular bright spot, 0 (none) to 1\n"
     "  --noise SIGMA          sensor noise in grey levels, 0 to 6\n"
     "  --blur PX              lens blur (Gaussian sigma), 0 to 1.5\n"
     "  --jpeg-quality Q       60 to 95, or 0 for no JPEG loss\n"
     "the table:\n"
     "  --hands N              hands and arms over the table, 0 to 2 (default 0)\n"
     "  --layout-angle DEG     the tiles' turn against the mat, -8 to 8\n"
     "  --marker-mm N          the markers' printed side, 10 to 200 (default 40)\n"
     "  --mat WxH              between the markers' centres in mm, 100 to 3000 (default 560x560)\n"
     "  --tile-mm N            a tile's side, 10 to 200 (default 40)\n",
     cli_render, NULL},
    {"play", "keep score without a camera: moves typed in the game's notation",
     "usage: tablescribe play --game G --players N [--colours a,b,..] [--names a,b,..]\n"
     "                        [GAME OPTIONS] [--db FILE] [--script FILE|-] [--json]\n"
     "       tablescribe play --game G --players N [GAME OPTIONS] --random SEED [--json] [--db FILE]\n"
     "       tablescribe play --resume ID [--db FILE] [--board FILE] [--script FILE|-] [--json]\n"
     "\n"
     "Reads actions in the game's notation, one a line, from a script, standard input, or you at\n"
     "the terminal. Each is checked by the rules (a refused one says which rule, and changes\n"
     "nothing), archived with the running scores, and printed with them. A script that stops\n"
     "before the end leaves the game open in the archive: --resume ID continues it.\n"
     "\n"
     "  --colours a,b,..  the seats' colours in play order (default: the box's)\n"
     "  --names a,b,..    the players' names, for the archive and its exports\n"
     "  GAME OPTIONS      --expansion, --check-deck, --curse, ...: each game's, see below\n"
     "  --random SEED     play a random legal game and print it in the notation (archived\n"
     "                    only with --db)\n"
     "  --json            print one summary object at the end instead of the running scores\n",
     cli_play, NULL},
    {"games", "list the archived games",
     "usage: tablescribe games [--db FILE]\n"
     "\n"
     "Lists the games in the archive: id, game, date, seats, status and winner.\n"
     "\n"
     "  --db FILE   the archive (default $XDG_DATA_HOME/tablescribe/games.sqlite, or\n"
     "              ~/.local/share/tablescribe/games.sqlite; created on first use)\n",
     cli_games, NULL},
    {"show", "print a game's events with the running scores",
     "usage: tablescribe show ID [--db FILE]\n"
     "\n"
     "Prints game ID: its seats, then every event (moves, flags, corrections, undos, hidden\n"
     "information) in order with the running score of every seat after it.\n",
     cli_show, NULL},
    {"export", "export games as JSON, CSV, a BG Stats file or BoardGameGeek XML",
     "usage: tablescribe export --format FORMAT [--out FILE] [--db FILE] [ID...]\n"
     "\n"
     "Writes the games with these ids (all games when none is given) to FILE, or to standard\n"
     "output when FILE is - or missing. The file appears whole or not at all.\n"
     "\n"
     "  --format json      everything: games, seats, events with scores and evidence\n"
     "           csv       one row per event, with the running score of each seat\n"
     "           bgstats   a BG Stats play file (games, players, plays with their scores)\n"
     "           bgg-xml   BoardGameGeek's plays XML\n",
     cli_export, NULL},
};

static const size_t command_count = sizeof commands / sizeof commands[0];

static void print_help(FILE *out)
{
    fprintf(out, "usage: tablescribe COMMAND [OPTIONS]\n"
                 "\n"
                 "A camera companion for board games played with a real box: it watches the\n"
                 "table, checks every move, keeps the scores and archives each game.\n"
                 "\n"
                 "Commands:\n");
    for (size_t i = 0; i < command_count; i++)
        fprintf(out, "  %-10s %s%s\n", commands[i].name, commands[i].summary,
                commands[i].pending ? " (not available yet)" : "");
    fprintf(out, "\n"
                 "Games:");
    size_t count;
    const rules_game *games = rules_games(&count);
    for (size_t i = 0; i < count; i++)
        fprintf(out, "%s %s", i ? "," : "", games[i].id);
    fprintf(out, "\n\n"
                 "`tablescribe COMMAND --help` describes a command. Exit status: 0 success,\n"
                 "2 bad usage or bad input, 1 any other failure.\n");
}

/* Each playable game's own options and notation, from its engine. */
static void print_game_help(FILE *out)
{
    size_t count;
    const rules_game *games = rules_games(&count);
    for (size_t i = 0; i < count; i++)
        if (games[i].engine)
            fprintf(out, "\n%s", games[i].engine->help);
}

static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    }
    return false;
}

int companion_main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return EXIT_BAD_INPUT;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        print_help(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("tablescribe %s (archive schema %d; camera: %s)\n", TS_VERSION, DB_SCHEMA_VERSION,
#ifdef TS_HAVE_LIBCAMERA
               "built with libcamera; capture lands with the tracker"
#else
               "not built with camera support"
#endif
        );
        return EXIT_OK;
    }
    for (size_t i = 0; i < command_count; i++) {
        if (strcmp(commands[i].name, name) != 0)
            continue;
        if (wants_help(argc - 1, argv + 1)) {
            fputs(commands[i].usage, stdout);
            if (commands[i].run == cli_play)
                print_game_help(stdout);
            if (commands[i].run == cli_render)
                fputs(cli_render_script_help, stdout);
            if (commands[i].pending)
                printf("\nNot available yet: %s.\n", commands[i].pending);
            return EXIT_OK;
        }
        return commands[i].run(&commands[i], argc - 1, argv + 1);
    }
    fprintf(stderr, "tablescribe: '%s' is not a command (try tablescribe --help)\n", name);
    return EXIT_BAD_INPUT;
}
