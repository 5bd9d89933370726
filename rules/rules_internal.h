/* What the engines share and the rest of the program does not see. */
#ifndef TS_RULES_INTERNAL_H
#define TS_RULES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
