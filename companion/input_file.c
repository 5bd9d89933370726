/* Reading input files whole, and their JSON. */
#include "input_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *input_file_quote(const char *text, size_t length, char *out, size_t size)
{
    size_t keep = length < size - 4 ? length : size - 4;
    for (size_t i = 0; i < keep; i++)
        out[i] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
    strcpy(out + keep, length > keep ? "..." : "");
    return out;
}

input_file_status input_file_read(const char *path, size_t max, char **text, size_t *length,
                                  char *error, size_t size)
{
    *text = NULL;
    *length = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        int open_errno = errno;
        snprintf(error, size, "cannot open: %s", strerror(open_errno));
        return open_errno == ENOENT || open_errno == ENOTDIR ? INPUT_FILE_MISSING
                                                              : INPUT_FILE_UNREADABLE;
    }
    /* one byte more than allowed, to tell a file at the limit from a longer one, and one for
     * the terminator */
    char *buffer = malloc(max + 2);
    if (!buffer) {
        fclose(file);
        snprintf(error, size, "out of memory");
        return INPUT_FILE_NOMEM;
    }
    size_t read = fread(buffer, 1, max + 1, file);
    int read_errno = ferror(file) ? (errno ? errno : EIO) : 0;
    fclose(file);
    if (read_errno) {
        free(buffer);
        snprintf(error, size, "cannot read: %s", strerror(read_errno));
        return INPUT_FILE_UNREADABLE;
    }
    if (read > max) {
        free(buffer);
        if (max % 1024 == 0)
            snprintf(error, size, "larger than %zu KiB", max / 1024);
        else
            snprintf(error, size, "larger than %zu bytes", max);
        return INPUT_FILE_TOO_LARGE;
    }
    buffer[read] = '\0';
    *text = buffer;
    *length = read;
    return INPUT_FILE_OK;
}

json_t *input_file_json(const char *text, size_t length, char *error, size_t size)
{
    json_error_t json_error;
    json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &json_error);
    if (!root) {
        /* jansson quotes the input near the error, which may be any bytes */
        char quoted[sizeof json_error.text + 4];
        snprintf(error, size, "line %d, column %d: %s", json_error.line, json_error.column,
                 input_file_quote(json_error.text, strlen(json_error.text), quoted,
                                  sizeof quoted));
    }
    return root;
}
