#include "rules_text.h"

#include <stdio.h>
#include <string.h>

bool rules_text_read(const char *line, size_t max_length, rules_text *text)
{
    size_t length = strcspn(line, "#\r\n");
    if (length > max_length || length >= sizeof text->buffer)
        return false;
    memcpy(text->buffer, line, length);
    text->buffer[length] = '\0';
    char *body = text->buffer;
    while (*body == ' ' || *body == '\t')
        body++;
    char *end = body + strlen(body);
    while (end > body && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    text->prefix = (rules_word){body, 0};
    size_t first = strcspn(body, " \t,");
    if (first > 1 && body[first - 1] == ':') {
        text->prefix.length = first - 1;
        body += first;
        while (*body == ' ' || *body == '\t')
            body++;
    }
    text->body = body;
    return true;
}

bool rules_word_is(const rules_word *word, const char *text)
{
    return word->length == strlen(text) && memcmp(word->text, text, word->length) == 0;
}

int rules_split(const char *text, rules_clause *clauses, int max)
{
    int count = 0;
    const char *p = text;
    for (;;) {
        if (count == max)
            return -1;
        rules_clause *c = &clauses[count++];
        c->count = 0;
        for (;;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p || *p == ',')
                break;
            const char *start = p;
            while (*p && *p != ' ' && *p != '\t' && *p != ',')
                p++;
            if (c->count == RULES_CLAUSE_WORDS)
                return -1;
            c->words[c->count++] = (rules_word){start, (size_t)(p - start)};
        }
        if (!*p)
            return count;
        p++; /* the comma */
    }
}

void rules_writer_start(rules_writer *writer, char *out, size_t size)
{
    *writer = (rules_writer){out, size, 0};
    if (size)
        out[0] = '\0';
}

void rules_put(rules_writer *w, const char *text)
{
    size_t n = strlen(text);
    if (w->length + 1 < w->size) { /* room for part or all of it: truncated like snprintf */
        size_t room = w->size - 1 - w->length;
        size_t copied = n < room ? n : room;
        memcpy(w->out + w->length, text, copied);
        w->out[w->length + copied] = '\0';
    }
    w->length += n;
}

void rules_put_number(rules_writer *w, int number)
{
    char digits[16], *p = digits + sizeof digits; /* by hand: lines are written in bulk */
    unsigned value = number < 0 ? 0u - (unsigned)number : (unsigned)number;
    *--p = '\0';
    do
        *--p = (char)('0' + value % 10);
    while (value /= 10);
    if (number < 0)
        *--p = '-';
    rules_put(w, p);
}
