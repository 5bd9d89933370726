/* What tests/archive_tool.c writes, for the tests that check it. */
#ifndef TS_ARCHIVE_TOOL_H
#define TS_ARCHIVE_TOOL_H

#include <stdint.h>

#define ARCHIVE_TOOL_SEATS 4

/* The running score `archive_tool append` stores for a seat after event seq. */
static inline int32_t archive_tool_score(int64_t seq, int seat)
{
    return (int32_t)(seq * (seat + 1) + seat);
}

#endif
