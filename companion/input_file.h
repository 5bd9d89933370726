/*
 * The files the command is given to read (board files, observations): read whole with a size
 * limit, parsed as JSON, and text from them quoted safely in messages. Messages here do not
 * name the file: each reader puts its file's name (or "the board", ...) in front.
 */
#ifndef TS_INPUT_FILE_H
#define TS_INPUT_FILE_H

#include <jansson.h>

#include <stddef.h>

#define INPUT_FILE_MAX (1024 * 1024) /* 1 MiB: the largest input any reader takes */

typedef enum {
    INPUT_FILE_OK,
    INPUT_FILE_MISSING,    /* no such file (or a folder on its path is missing) */
    INPUT_FILE_UNREADABLE, /* it exists but cannot be opened or read */
    INPUT_FILE_TOO_LARGE,  /* more than max bytes */
    INPUT_FILE_NOMEM,
} input_file_status;

/* The whole file at path into *text (malloc'd, max + 1 bytes at most, NUL-terminated after
 * *length bytes; the caller frees it) and *length. Files over max bytes are refused. On failure
 * *text is NULL and error (size bytes) says what, without the path ("cannot open: No such file
 * or directory", "larger than 1024 KiB"). */
input_file_status input_file_read(const char *path, size_t max, char **text, size_t *length,
                                  char *error, size_t size);

/* The JSON value in text (length bytes, no terminator needed; duplicate keys refused), any
 * type; the caller frees it with json_decref. NULL when it does not parse, with
 * "line L, column C: what jansson says" in error (size bytes), quoted as input_file_quote
 * does. */
json_t *input_file_json(const char *text, size_t length, char *error, size_t size);

/* Text from a file made fit to quote in a one-line message: printable ASCII, other bytes as
 * '?', cut to size - 4 bytes with "..." after. Returns out; size must be at least 4. */
const char *input_file_quote(const char *text, size_t length, char *out, size_t size);

#endif
