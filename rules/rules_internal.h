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

#endif
