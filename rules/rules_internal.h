/* What the engines share and the rest of the program does not see. */
#ifndef TS_RULES_INTERNAL_H
#define TS_RULES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RULES_COLOUR_LENGTH 16 /* = RULES_COLOUR_MAX, EL_COLOUR_MAX, LX_COLOUR_MAX */

/* Whether the seats' colours are usable: each present, lower-case letters and '-' only, none
 * repeated. If not, the reason goes into message (size bytes). */
bool rules_colours_valid(const char (*colours)[RULES_COLOUR_LENGTH], int seats, char *message,
                         size_t size);

/* Whether a game for min..max seats can seat `seats` with these colours (rules_colours_valid);
 * if not, the reason ("Luxor is played by 2 to 4, not 5") goes into message. */
bool rules_seats_valid(const char *title, int min, int max, int seats,
                       const char (*colours)[RULES_COLOUR_LENGTH], char *message, size_t size);

/* Copies count default colours (names of up to RULES_COLOUR_LENGTH - 1 letters). */
void rules_colours_default(char (*colours)[RULES_COLOUR_LENGTH], const char *const *names,
                           int count);

/* Writes the reason into an engine's error (when not NULL) and returns status: how every engine
 * refuses. error is an el_error, lx_error or ex_error, whose first member is its message of
 * size bytes; each engine wraps this for its own types. */
int rules_fail(void *error, size_t size, int status, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Final ranks, 1 = winner: a seat's rank is 1 + the seats ahead of it by score, then by
 * tiebreak (NULL: none); equal seats share a rank. ranks[seats..max) are left alone. */
void rules_rank(const int32_t *scores, const int32_t *tiebreak, int seats, int32_t *ranks);

#endif
