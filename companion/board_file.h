/*
 * Board files: the JSON that describes a game's map (format "tablescribe-board", version 1;
 * the README's section on board files; fixtures/boards/ holds one of each game), read for the
 * two games played on one:
 *
 *   Expéditions   circles, wrap points, segments ─▶ ex_board ─▶ ex_board_prepare
 *   Odyssée-land  terrain rows, cities, the river's course ─▶ od_board ─▶ od_board_check
 *
 * This layer checks the JSON itself: types, required keys, lengths, the id syntax, the format,
 * version and game, and what only the file can get wrong (Expéditions: positions inside the
 * board, the counts the arrays hold, that every id a wrap point or segment names is a circle;
 * Odyssée-land: 10 rows of 11 known letters, 5 cities of distinct sizes whose fields are city
 * fields named once, field names, the start spaces). The rules check the graph; their message
 * comes back prefixed with the file's name. Reading the file, the JSON and the header is one
 * code for both games.
 */
#ifndef TS_BOARD_FILE_H
#define TS_BOARD_FILE_H

#include "expeditions.h"
#include "odysseeland.h"

#include <stdbool.h>
#include <stddef.h>

/* Reads an Expéditions board file (the format of fixtures/boards/README or the README section)
 * into board and prepares it. False with one line naming the file and the problem in error
 * (size bytes, error may be NULL); board's content is then unspecified. Files over 1 MiB are
 * refused. */
bool board_file_read(const char *path, ex_board *board, char *error, size_t size);

/* The same from text in memory (length bytes, no terminator needed); name is used in messages
 * (a path, or "the built-in board"). */
bool board_file_parse(const char *text, size_t length, const char *name, ex_board *board,
                      char *error, size_t size);

/* Reads an Odyssée-land board file into board and checks it with od_board_check: "terrain" is
 * 10 strings, row 1 first, of 11 letters for columns A-K (C city, M mountain, F forest,
 * R river, N fog); "cities" 5 objects {"name", "fields"}, the size telling which city each is
 * (12 the capital, then 6, 5, 4, 3; od_city); "river" the course's fields in order; "start"
 * must be rows 1-5 and columns A-E, where the engine's start spaces are. Fills id, terrain,
 * city (OD_NONE off the cities), river and river_length, and what od_board_check derives. False
 * with one line naming the file and the problem in error, as board_file_read; board's content
 * is then unspecified. Files over 1 MiB are refused. */
bool board_file_read_odysseeland(const char *path, od_board *board, char *error, size_t size);

/* The same from text in memory (length bytes, no terminator needed); name is used in
 * messages. */
bool board_file_parse_odysseeland(const char *text, size_t length, const char *name,
                                  od_board *board, char *error, size_t size);

/* The board a game is played on when no file is given: the text of the board file built into
 * the program from fixtures/boards/ (not '\0'-terminated; static, never freed). "expeditions"
 * gives the stand-in world map, "odysseeland" the stand-in Odyssée-land map. False when the
 * game has none. */
bool board_file_builtin(const char *game, const char **text, size_t *length);

/* Loads the board a game is played on into the rules' table of boards (ex_board_add,
 * od_board_add): the file at path, else the one built in. Returns the handle for
 * rules_options.board and writes the board's id (id_size bytes); 0 when the game is not
 * played on a board file (error says so); BOARD_FILE_BAD when the file cannot be used and
 * BOARD_FILE_REFUSED when the table refuses the board, with one line in error. */
#define BOARD_FILE_BAD (-1)
#define BOARD_FILE_REFUSED (-2)
int board_file_load(const char *game, const char *path, char *id, size_t id_size, char *error,
                    size_t size);

#endif
