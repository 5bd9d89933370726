/*
 * Board files: the JSON that describes an Expéditions map (format "tablescribe-board",
 * version 1; fixtures/boards/README), read into an ex_board and prepared by the rules.
 *
 * This layer checks the JSON itself: types, required keys, lengths, the id syntax, the format,
 * version and game, positions inside the board, the counts the arrays hold, and that every id
 * a wrap point or segment names is a circle. ex_board_prepare (rules/expeditions.h) checks the
 * graph; its message comes back prefixed with the file's name.
 */
#ifndef TS_BOARD_FILE_H
#define TS_BOARD_FILE_H

#include "expeditions.h"

#include <stdbool.h>
#include <stddef.h>

/* Reads a board file (the format of fixtures/boards/README or the README section) into board
 * and prepares it. False with one line naming the file and the problem in error (size bytes,
 * error may be NULL); board's content is then unspecified. Files over 1 MiB are refused. */
bool board_file_read(const char *path, ex_board *board, char *error, size_t size);

/* The same from text in memory (length bytes, no terminator needed); name is used in messages
 * (a path, or "the built-in board"). */
bool board_file_parse(const char *text, size_t length, const char *name, ex_board *board,
                      char *error, size_t size);

/* The board a game is played on when no file is given: the text of the board file built into
 * the program from fixtures/boards/ (not '\0'-terminated). False when the game has none. */
bool board_file_builtin(const char *game, const char **text, size_t *length);

#endif
