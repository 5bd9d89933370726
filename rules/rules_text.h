/* Reading a line of notation, the same way for every engine: `#` comments, blanks, the
 * optional `colour:` prefix, comma-separated clauses of words. Internal to rules/. */
#ifndef TS_RULES_TEXT_H
#define TS_RULES_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#define RULES_TEXT_MAX 1024 /* the longest line any engine reads, with its '\0' */
#define RULES_CLAUSE_WORDS 32 /* an Odyssée-land fight names every die and herb */

typedef struct rules_word {
    const char *text;
    size_t length;
} rules_word;

typedef struct rules_clause {
    int count;
    rules_word words[RULES_CLAUSE_WORDS];
} rules_clause;

typedef struct rules_text {
    char buffer[RULES_TEXT_MAX];
    const char *body;  /* the action: no comment, no prefix, no surrounding blanks; "" if none */
    rules_word prefix; /* the word before a `:` opening the line (length 0 when there is none) */
} rules_text;

/* Reads one line of at most max_length characters before its comment (max_length below
 * RULES_TEXT_MAX). False when it is longer. */
bool rules_text_read(const char *line, size_t max_length, rules_text *text);

/* Whether the word is exactly this text. */
bool rules_word_is(const rules_word *word, const char *text);

/* Splits text into comma-separated clauses of blank-separated words. Returns the number of
 * clauses (at least 1; a clause may be empty), or -1 when there are more than max clauses or a
 * clause has more than RULES_CLAUSE_WORDS words. */
int rules_split(const char *text, rules_clause *clauses, int max);

/* Writing a line: appends as long as there is room, always '\0'-terminated, and counts the
 * length the whole text needs (the snprintf convention). */
typedef struct rules_writer {
    char *out;
    size_t size, length;
} rules_writer;

void rules_writer_start(rules_writer *writer, char *out, size_t size);
void rules_put(rules_writer *writer, const char *text);
void rules_put_number(rules_writer *writer, int number);

#endif
