/*
 * The Expedition Luxor notation: one action per line, scripts written by others rely on it.
 *
 *   start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1
 *   desert-temple@2,1
 *   desert-camp@2,2 x5 > e 2 2
 *   boat 1,1 > 4,4
 *   end | pass
 *
 * `#` starts a comment; an optional `colour: ` prefix must name the active seat.
 */
#include "expedition_luxor_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_WORDS 24
#define MAX_LINE 512

static const char direction_letters[] = "nesw";

static el_status fail(el_error *error, const char *action, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static el_status fail(el_error *error, const char *action, const char *format, ...)
{
    if (!error)
        return EL_BAD_NOTATION;
    char reason[sizeof error->message];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    snprintf(error->message, sizeof error->message, "%.60s: %.95s", action, reason);
    return EL_BAD_NOTATION;
}

/* A small integer, optionally negative: the only numbers the notation has. */
static bool parse_int(const char *text, size_t length, int *value)
{
    size_t i = 0;
    bool negative = false;
    if (i < length && (text[i] == '-' || text[i] == '+'))
        negative = text[i++] == '-';
    if (i == length || length - i > 3)
        return false;
    int v = 0;
    for (; i < length; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = 10 * v + (text[i] - '0');
    }
    *value = negative ? -v : v;
    return true;
}

/* "r,c" into row and column. */
static bool parse_position(const char *text, int *row, int *col)
{
    const char *comma = strchr(text, ',');
    return comma && parse_int(text, (size_t)(comma - text), row) &&
           parse_int(comma + 1, strlen(comma + 1), col) && *row >= -EL_ORIGIN &&
           *row < EL_GRID - EL_ORIGIN && *col >= -EL_ORIGIN && *col < EL_GRID - EL_ORIGIN;
}

static int tile_type_of(const char *name, size_t length)
{
    for (int t = 0; t < EL_TILE_TYPES; t++)
        if (strlen(el_tile_name((el_tile_type)t)) == length &&
            strncmp(el_tile_name((el_tile_type)t), name, length) == 0)
            return t;
    return -1;
}

static int token_of(const char *name)
{
    for (int t = EL_BOAT; t < EL_TOKEN_TYPES; t++)
        if (strcmp(el_token_name((el_token)t), name) == 0)
            return t;
    return -1;
}

/* "type@r,c" */
static el_status parse_tile(const char *word, const char *action, int *type, int *row, int *col,
                            el_error *error)
{
    const char *at = strchr(word, '@');
    if (!at)
        return fail(error, action, "'%s' is not a tile: type@row,column", word);
    *type = tile_type_of(word, (size_t)(at - word));
    if (*type < 0)
        return fail(error, action,
                    "'%.*s' is not a tile type (lake, mountain, desert, desert-camp, "
                    "desert-temple, desert-pyramid, oasis-camp, oasis-temple, oasis-pyramid)",
                    (int)(at - word), word);
    if (!parse_position(at + 1, row, col))
        return fail(error, action, "'%s' is not a row,column (integers from -10 to 10)", at + 1);
    return EL_OK;
}

/* Splits text into words at blanks; returns their number or -1 when there are too many. */
static int split(char *text, char **words)
{
    int count = 0;
    for (char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            *p++ = '\0';
        if (!*p)
            break;
        if (count == MAX_WORDS)
            return -1;
        words[count++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
    }
    return count;
}

static el_status parse_placement(char **words, int count, const char *action, el_move *move,
                                 el_error *error)
{
    int type, row, col;
    el_status status = parse_tile(words[0], action, &type, &row, &col, error);
    if (status != EL_OK)
        return status;
    *move = (el_move){.kind = EL_MOVE_PLACE, .what = (uint8_t)type, .row = (int8_t)row,
                      .col = (int8_t)col, .direction = EL_NO_DIRECTION};
    int i = 1;
    move->adventurers = 0xff; /* a camp without `xN`: the mandatory ones, filled in by play */
    if (i < count && words[i][0] == 'x') {
        int adventurers;
        if (!parse_int(words[i] + 1, strlen(words[i] + 1), &adventurers) || adventurers < 0 ||
            adventurers > 9)
            return fail(error, action, "'%s' is not an adventurer count (x1 to x5)", words[i]);
        if (!el_is_camp(type))
            return fail(error, action, "only a camp takes adventurers");
        move->adventurers = (uint8_t)adventurers;
        i++;
    }
    if (!el_is_camp(type))
        move->adventurers = 0;
    if (i < count && strcmp(words[i], ">") == 0) {
        if (!el_is_camp(type))
            return fail(error, action, "only a camp's adventurers move");
        if (++i >= count || strlen(words[i]) != 1 || !strchr("nesw", words[i][0]))
            return fail(error, action, "a movement names a direction: > n|e|s|w and the stops");
        move->direction = (uint8_t)(strchr(direction_letters, words[i][0]) - direction_letters);
        i++;
        if (i >= count)
            return fail(error, action, "the movement names no stops: > %c 2 1 moves 2 to the "
                                       "first tile and 1 to the second",
                        direction_letters[move->direction]);
        for (; i < count; i++) {
            int stop;
            if (move->stop_count == EL_MAX_STOPS)
                return fail(error, action, "movers enter %d tiles at most", EL_MAX_STOPS);
            if (!parse_int(words[i], strlen(words[i]), &stop) || stop < 1 || stop > 5)
                return fail(error, action, "'%s' is not a number of adventurers stopping (1-5)",
                            words[i]);
            move->stops[move->stop_count++] = (uint8_t)stop;
        }
    }
    if (i < count)
        return fail(error, action, "unexpected '%s'", words[i]);
    return EL_OK;
}

el_status el_parse(const el_state *state, const char *text, el_line *line, el_error *error)
{
    memset(line, 0, sizeof *line);
    line->seat = -1;
    char buffer[MAX_LINE];
    size_t length = strcspn(text, "#\n");
    if (length >= sizeof buffer)
        return fail(error, "line", "longer than %d characters", MAX_LINE - 1);
    memcpy(buffer, text, length);
    buffer[length] = '\0';

    /* The action as written, for messages: without the comment and the blanks around. */
    char action[MAX_LINE];
    char *start = buffer;
    while (*start == ' ' || *start == '\t')
        start++;
    snprintf(action, sizeof action, "%s", start);
    for (size_t n = strlen(action); n > 0 && strchr(" \t\r", action[n - 1]); n--)
        action[n - 1] = '\0';

    char *words[MAX_WORDS];
    int count = split(buffer, words);
    if (count < 0)
        return fail(error, action, "too many words on one line");
    if (count == 0)
        return EL_OK;

    size_t first = strlen(words[0]);
    if (first > 1 && words[0][first - 1] == ':') {
        words[0][first - 1] = '\0';
        line->seat = (int8_t)el_seat_of(state, words[0]);
        if (line->seat < 0)
            return fail(error, action, "'%s' is not a colour of this game", words[0]);
        for (int i = 1; i < count; i++)
            words[i - 1] = words[i];
        if (--count == 0)
            return fail(error, action, "a seat prefix with no action after it");
        /* the message names the action without its prefix */
        char *colon = strchr(action, ':');
        memmove(action, colon + 1 + strspn(colon + 1, " \t"), strlen(colon + 1 + strspn(colon + 1, " \t")) + 1);
    }

    line->kind = EL_LINE_MOVE;
    el_move *move = &line->move;
    *move = (el_move){.direction = EL_NO_DIRECTION};
    if (strcmp(words[0], "end") == 0 || strcmp(words[0], "pass") == 0) {
        if (count > 1)
            return fail(error, action, "unexpected '%s'", words[1]);
        move->kind = strcmp(words[0], "end") == 0 ? EL_MOVE_END : EL_MOVE_PASS;
        return EL_OK;
    }
    if (strcmp(words[0], "start") == 0) {
        line->kind = EL_LINE_START;
        if (count == 1)
            return fail(error, action, "the start layout lists its tiles: start desert@0,0 ...");
        if (count - 1 > 2 * EL_MAX_SEATS)
            return fail(error, action, "a start layout has %d tiles at most", 2 * EL_MAX_SEATS);
        for (int i = 1; i < count; i++) {
            int type, row, col;
            el_status status = parse_tile(words[i], action, &type, &row, &col, error);
            if (status != EL_OK)
                return status;
            line->start[line->start_count++] =
                (el_start_tile){.row = (int8_t)row, .col = (int8_t)col, .type = (uint8_t)type};
        }
        return EL_OK;
    }
    int token = token_of(words[0]);
    if (token > 0) {
        int from_row, from_col, row, col;
        if (count != 4 || strcmp(words[2], ">") != 0)
            return fail(error, action, "an action token is written %s ROW,COL > ROW,COL",
                        words[0]);
        if (!parse_position(words[1], &from_row, &from_col))
            return fail(error, action, "'%s' is not a row,column", words[1]);
        if (!parse_position(words[3], &row, &col))
            return fail(error, action, "'%s' is not a row,column", words[3]);
        *move = (el_move){.kind = EL_MOVE_TOKEN, .what = (uint8_t)token, .row = (int8_t)row,
                          .col = (int8_t)col, .from_row = (int8_t)from_row,
                          .from_col = (int8_t)from_col, .direction = EL_NO_DIRECTION};
        return EL_OK;
    }
    if (strchr(words[0], '@'))
        return parse_placement(words, count, action, move, error);
    return fail(error, action, "'%s' is not an action (a tile type@row,col, start, a token, "
                               "end, pass)",
                words[0]);
}

el_status el_play_line(el_state *state, const char *text, el_line *played, el_error *error)
{
    el_line line;
    el_status status = el_parse(state, text, &line, error);
    if (played)
        *played = line;
    if (status != EL_OK || line.kind == EL_LINE_EMPTY)
        return status;

    /* The action as the messages name it. */
    char action[96];
    if (line.kind == EL_LINE_START)
        snprintf(action, sizeof action, "start");
    else
        el_format_move(&line.move, action, sizeof action);

    if (line.seat >= 0 && line.kind == EL_LINE_MOVE && state->phase == EL_PHASE_PLAY &&
        line.seat != state->active)
        return fail(error, action, "it is %s's turn, not %s's",
                    state->config.colours[state->active], state->config.colours[line.seat]);

    el_error reason;
    if (line.kind == EL_LINE_START)
        status = el_start(state, line.start, line.start_count, &reason);
    else {
        el_move *move = &line.move;
        if (move->kind == EL_MOVE_PLACE && move->adventurers == 0xff) {
            int most;
            int least;
            el_camp_range(state, move->what, &least, &most);
            move->adventurers = (uint8_t)least;
            el_format_move(move, action, sizeof action);
        }
        status = el_apply(state, move, &reason);
    }
    if (status != EL_OK && error)
        snprintf(error->message, sizeof error->message, "%.60s: %.95s", action, reason.message);
    if (played)
        *played = line;
    return status;
}

/* Appends to out what snprintf would, keeping n the length the whole line needs. */
static int append(char *out, size_t size, int n, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static int append(char *out, size_t size, int n, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    bool room = size > (size_t)n; /* out + n would point past out otherwise */
    int added = vsnprintf(room ? out + n : NULL, room ? size - (size_t)n : 0, format, args);
    va_end(args);
    return n + (added > 0 ? added : 0);
}

int el_format_move(const el_move *move, char *out, size_t size)
{
    switch (move->kind) {
    case EL_MOVE_END:
        return snprintf(out, size, "end");
    case EL_MOVE_PASS:
        return snprintf(out, size, "pass");
    case EL_MOVE_TOKEN:
        return snprintf(out, size, "%s %d,%d > %d,%d",
                        el_token_name((el_token)move->what) ? el_token_name((el_token)move->what)
                                                            : "?",
                        move->from_row, move->from_col, move->row, move->col);
    case EL_MOVE_PLACE: {
        const char *name = el_tile_name((el_tile_type)move->what);
        int n = append(out, size, 0, "%s@%d,%d", name ? name : "?", move->row, move->col);
        if (el_is_camp(move->what) && move->adventurers != 0xff)
            n = append(out, size, n, " x%d", move->adventurers);
        if (move->direction < 4 && move->stop_count > 0) {
            n = append(out, size, n, " > %c", direction_letters[move->direction]);
            for (int k = 0; k < move->stop_count && k < EL_MAX_STOPS; k++)
                n = append(out, size, n, " %d", move->stops[k]);
        }
        return n;
    }
    default:
        return snprintf(out, size, "?");
    }
}

int el_format_start(const el_state *state, char *out, size_t size)
{
    int n = append(out, size, 0, "start");
    /* Every tile on the table, so callers use it right after el_start, when every tile is a
     * start tile. */
    for (int row = state->min_row; row <= state->max_row; row++)
        for (int col = state->min_col; col <= state->max_col; col++) {
            const el_cell *cell = el_cell_at(state, row, col);
            if (cell && cell->has_tile)
                n = append(out, size, n, " %s@%d,%d", el_tile_name((el_tile_type)cell->type),
                           row, col);
        }
    return n;
}

/* ---- what the players corrected, as a line (el_misreads) ----
 *
 *   2,1 read top black height 3; 0,4 missed; -5,0 phantom desert
 *
 * A cell read otherwise names only the fields read wrong (type, top, height, token), as the
 * camera read them; `unread` is a type the camera could not tell. */

#define MISREAD_ITEM_MAX 160 /* one item's text: a position and at most four fields */

static const char *type_word(int type)
{
    const char *name = el_tile_name((el_tile_type)type);
    return name ? name : "unread";
}

int el_format_misreads(const el_state *state, const el_misreads *misreads, char *out,
                       size_t size)
{
    int n = 0;
    if (size > 0)
        out[0] = '\0';
    const char *separator = "";
    for (int i = 0; i < misreads->count; i++) {
        const el_seen_tile *read = &misreads->fields[i];
        n = append(out, size, n, "%s%d,%d read", separator, read->row, read->col);
        if (read->type != EL_UNSEEN)
            n = append(out, size, n, " type %s", type_word(read->type));
        if (read->top == EL_EMPTY)
            n = append(out, size, n, " top none");
        else if (read->top >= 0 && read->top < state->config.seats)
            n = append(out, size, n, " top %s", state->config.colours[read->top]);
        if (read->height != EL_UNSEEN)
            n = append(out, size, n, " height %d", read->height);
        if (read->token != EL_UNSEEN)
            n = append(out, size, n, " token %s",
                       read->token > EL_NO_TOKEN && el_token_name((el_token)read->token)
                           ? el_token_name((el_token)read->token)
                           : "none");
        separator = "; ";
    }
    for (int i = 0; i < misreads->missed_count; i++, separator = "; ")
        n = append(out, size, n, "%s%d,%d missed", separator, misreads->missed[i].row,
                   misreads->missed[i].col);
    for (int i = 0; i < misreads->phantom_count; i++, separator = "; ")
        n = append(out, size, n, "%s%d,%d phantom %s", separator, misreads->phantom[i].row,
                   misreads->phantom[i].col, type_word(misreads->phantom[i].type));
    return n;
}

/* A tile type, or `unread` (EL_UNSEEN). */
static bool parse_type_word(const char *word, int *type)
{
    if (strcmp(word, "unread") == 0) {
        *type = EL_UNSEEN;
        return true;
    }
    *type = tile_type_of(word, strlen(word));
    return *type >= 0;
}

/* One item: "r,c read FIELD VALUE...", "r,c missed" or "r,c phantom TYPE". */
static el_status parse_misread(const el_state *state, char *item, el_misreads *misreads,
                               el_error *error)
{
    char *words[MAX_WORDS];
    char what[64];
    snprintf(what, sizeof what, "'%.50s'", item);
    int count = split(item, words), row, col;
    if (count < 2)
        return fail(error, what, "a misread is a row,column and what was misread there");
    if (!parse_position(words[0], &row, &col))
        return fail(error, what, "'%s' is not a row,column (integers from -10 to 10)", words[0]);
    if (strcmp(words[1], "missed") == 0 && count == 2) {
        if (misreads->missed_count >= EL_MAX_TILES)
            return fail(error, what, "more than %d tiles missed", EL_MAX_TILES);
        misreads->missed[misreads->missed_count].row = (int8_t)row;
        misreads->missed[misreads->missed_count++].col = (int8_t)col;
        return EL_OK;
    }
    if (strcmp(words[1], "phantom") == 0 && count == 3) {
        int type;
        if (!parse_type_word(words[2], &type))
            return fail(error, what, "'%s' is not a tile type or unread", words[2]);
        if (misreads->phantom_count >= EL_MAX_TILES)
            return fail(error, what, "more than %d tiles seen where none lies", EL_MAX_TILES);
        misreads->phantom[misreads->phantom_count].row = (int8_t)row;
        misreads->phantom[misreads->phantom_count].col = (int8_t)col;
        misreads->phantom[misreads->phantom_count++].type = (int8_t)type;
        return EL_OK;
    }
    if (strcmp(words[1], "read") != 0 || count < 4 || count % 2 != 0)
        return fail(error, what, "expected 'read' and fields, 'missed' or 'phantom TYPE'");
    el_seen_tile read = {.row = (int8_t)row, .col = (int8_t)col, .type = EL_UNSEEN,
                         .top = EL_UNSEEN, .height = EL_UNSEEN, .token = EL_UNSEEN};
    for (int i = 2; i < count; i += 2) {
        const char *field = words[i], *value = words[i + 1];
        int number;
        if (strcmp(field, "type") == 0 && read.type == EL_UNSEEN) {
            if (!parse_type_word(value, &number) || number == EL_UNSEEN)
                return fail(error, what, "'%s' is not a tile type", value);
            read.type = (int8_t)number;
        } else if (strcmp(field, "top") == 0 && read.top == EL_UNSEEN) {
            number = strcmp(value, "none") == 0 ? EL_EMPTY : el_seat_of(state, value);
            if (number == -1)
                return fail(error, what, "'%s' is not a colour of the game, nor none", value);
            read.top = (int8_t)number;
        } else if (strcmp(field, "height") == 0 && read.height == EL_UNSEEN) {
            if (!parse_int(value, strlen(value), &number) || number < 0 ||
                number > EL_STACK_MAX)
                return fail(error, what, "'%s' is not a height from 0 to %d", value,
                            EL_STACK_MAX);
            read.height = (int8_t)number;
        } else if (strcmp(field, "token") == 0 && read.token == EL_UNSEEN) {
            number = strcmp(value, "none") == 0 ? EL_NO_TOKEN : token_of(value);
            if (number < 0)
                return fail(error, what, "'%s' is not a token (boat, snakes) nor none", value);
            read.token = (int8_t)number;
        } else {
            return fail(error, what, "'%s': a field is type, top, height or token, each once",
                        field);
        }
    }
    if (misreads->count >= EL_MAX_TILES)
        return fail(error, what, "more than %d cells misread", EL_MAX_TILES);
    misreads->fields[misreads->count++] = read;
    return EL_OK;
}

el_status el_parse_misreads(const el_state *state, const char *text, el_misreads *misreads,
                            el_error *error)
{
    memset(misreads, 0, sizeof *misreads);
    for (const char *at = text; *at;) {
        at += strspn(at, " \t\r"); /* the blanks around an item are not quoted in an error */
        const char *end = strchr(at, ';');
        size_t length = end ? (size_t)(end - at) : strlen(at), kept = length;
        while (kept > 0 && strchr(" \t\r", at[kept - 1]))
            kept--;
        char item[MISREAD_ITEM_MAX];
        if (kept >= sizeof item) {
            memset(misreads, 0, sizeof *misreads);
            return fail(error, "misreads", "an item of %zu characters: too long", kept);
        }
        memcpy(item, at, kept);
        item[kept] = '\0';
        el_status status = parse_misread(state, item, misreads, error);
        if (status != EL_OK) {
            memset(misreads, 0, sizeof *misreads);
            return status;
        }
        at += length + (end != NULL);
    }
    return EL_OK;
}
