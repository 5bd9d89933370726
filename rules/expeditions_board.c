/*
 * The Expéditions board: the checks a board file's graph must pass, the graph derived from it
 * (one node per circle, the two halves of a wrap point sharing one), and the table of boards
 * that states name by handle.
 *
 * ex_board_prepare checks in a fixed order, so that a board with several faults always gets
 * the same message: the board's own fields, each circle in the order of circles[], the start,
 * each wrap point, each segment, then the circles without a segment, the start's degree,
 * reachability and the number of places. Messages number wrap points and segments from 0, as
 * the indexes of the file's "wraps" and "segments" arrays.
 */
#include "expeditions_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define EX_BOARD_TABLE 4
#define WRAP_EDGE_MM 20.0f   /* a wrap half lies this close to its side edge */
#define WRAP_HEIGHT_MM 5.0f  /* and this close to its twin's height */

static const char *const kind_names[EX_KINDS] = {"start", "place", "blue", "red"};
static const char *const expedition_names[EX_EXPEDITIONS] = {"yellow", "red", "blue"};

const char *ex_kind_name(ex_kind kind)
{
    return (unsigned)kind < EX_KINDS ? kind_names[kind] : NULL;
}

const char *ex_expedition_name(int expedition)
{
    return (unsigned)expedition < EX_EXPEDITIONS ? expedition_names[expedition] : NULL;
}

/* a board that fails a check is refused with the reason */
#define fail(error, ...) (ex_fail(error, EX_BAD_CONFIG, __VA_ARGS__), false)

/* The id rule of the board format: 1..EX_ID_MAX-1 of a-z 0-9 '-', a letter first. The array
 * may come from anywhere, so the terminator is looked for, not assumed. */
static bool id_valid(const char id[EX_ID_MAX])
{
    size_t length = strnlen(id, EX_ID_MAX);
    if (length == 0 || length == EX_ID_MAX || !(id[0] >= 'a' && id[0] <= 'z'))
        return false;
    for (size_t i = 1; i < length; i++)
        if (!(id[i] >= 'a' && id[i] <= 'z') && !(id[i] >= '0' && id[i] <= '9') && id[i] != '-')
            return false;
    return true;
}

/* A malformed id, printable: at most its array, anything outside printable ASCII as '?', so
 * that a message stays one line. */
static const char *printable_id(const char id[EX_ID_MAX], char out[EX_ID_MAX + 1])
{
    size_t length = strnlen(id, EX_ID_MAX);
    for (size_t i = 0; i < length; i++)
        out[i] = id[i] >= 0x20 && id[i] < 0x7f ? id[i] : '?';
    out[length] = '\0';
    return out;
}

static bool terminated(const char *text, size_t size)
{
    return memchr(text, '\0', size) != NULL;
}

static float distance_1d(float a, float b)
{
    return a > b ? a - b : b - a;
}

/* "rome" for a circle index in range (ids are checked by then), else "#300". */
static const char *circle_label(const ex_board *board, int circle, char out[16 + EX_ID_MAX])
{
    if (circle >= 0 && circle < board->circle_count)
        return board->circles[circle].id;
    snprintf(out, 16 + EX_ID_MAX, "#%d", circle);
    return out;
}

static bool check_board_fields(const ex_board *board, ex_error *error)
{
    char shown[EX_ID_MAX + 1];
    /* the counts bound every loop below: check them before anything is indexed */
    if (board->circle_count < 0 || board->circle_count > EX_MAX_CIRCLES)
        return fail(error, "the board has %d circles, at most %d", board->circle_count,
                    EX_MAX_CIRCLES);
    if (board->wrap_count < 0 || board->wrap_count > EX_MAX_CIRCLES / 2)
        return fail(error, "the board has %d wrap points, at most %d", board->wrap_count,
                    EX_MAX_CIRCLES / 2);
    if (board->segment_count < 0 || board->segment_count > EX_MAX_SEGMENTS)
        return fail(error, "the board has %d segments, at most %d", board->segment_count,
                    EX_MAX_SEGMENTS);
    if (!id_valid(board->id))
        return fail(error,
                    "board id '%s': 1 to %d lower-case letters, digits or '-', starting with a "
                    "letter",
                    printable_id(board->id, shown), EX_ID_MAX - 1);
    if (!terminated(board->title, sizeof board->title))
        return fail(error, "board '%s': the title is longer than %zu bytes", board->id,
                    sizeof board->title - 1);
    /* written as negations so that NaN fails too */
    if (!(board->width_mm > 0) || !(board->height_mm > 0))
        return fail(error, "board '%s': the size must be positive, not %g x %g mm", board->id,
                    (double)board->width_mm, (double)board->height_mm);
    if (board->start_degree < 1 || board->start_degree > EX_MAX_DEGREE)
        return fail(error, "board '%s': the start must be joined to 1 to %d circles, not %d",
                    board->id, EX_MAX_DEGREE, board->start_degree);
    return true;
}

static bool check_circles(const ex_board *board, ex_error *error)
{
    char shown[EX_ID_MAX + 1];
    for (int c = 0; c < board->circle_count; c++) {
        const ex_circle *circle = &board->circles[c];
        if (!id_valid(circle->id))
            return fail(error,
                        "circle %d, id '%s': 1 to %d lower-case letters, digits or '-', "
                        "starting with a letter",
                        c, printable_id(circle->id, shown), EX_ID_MAX - 1);
        for (int earlier = 0; earlier < c; earlier++)
            if (strcmp(board->circles[earlier].id, circle->id) == 0)
                return fail(error, "circle '%s': the id is repeated (circles %d and %d)",
                            circle->id, earlier, c);
        if (circle->kind >= EX_KINDS)
            return fail(error, "circle '%s': unknown kind %d", circle->id, circle->kind);
        if (!terminated(circle->name, sizeof circle->name))
            return fail(error, "circle '%s': the name is longer than %zu bytes", circle->id,
                        sizeof circle->name - 1);
        if (!terminated(circle->region, sizeof circle->region))
            return fail(error, "circle '%s': the region is longer than %zu bytes", circle->id,
                        sizeof circle->region - 1);
        if (circle->kind == EX_KIND_PLACE && !circle->name[0])
            return fail(error, "circle '%s': a place needs a name", circle->id);
    }
    return true;
}

/* The start's circle, or EX_NONE after failing. */
static int find_start(const ex_board *board, ex_error *error)
{
    int start = EX_NONE;
    for (int c = 0; c < board->circle_count; c++) {
        if (board->circles[c].kind != EX_KIND_START)
            continue;
        if (start != EX_NONE) {
            ex_fail(error, EX_BAD_CONFIG, "two starts: circles '%s' and '%s'",
                    board->circles[start].id, board->circles[c].id);
            return EX_NONE;
        }
        start = c;
    }
    if (start == EX_NONE)
        ex_fail(error, EX_BAD_CONFIG, "the board has no start (a circle of kind \"start\")");
    return start;
}

/* Checks the wrap points and fills twin[] (the other half of each circle, or EX_NONE). */
static bool check_wraps(const ex_board *board, int16_t twin[EX_MAX_CIRCLES], ex_error *error)
{
    for (int c = 0; c < board->circle_count; c++)
        twin[c] = EX_NONE;
    char label[2][16 + EX_ID_MAX];
    for (int w = 0; w < board->wrap_count; w++) {
        int half[2] = {board->wraps[w][0], board->wraps[w][1]};
        const char *a = circle_label(board, half[0], label[0]);
        const char *b = circle_label(board, half[1], label[1]);
        for (int h = 0; h < 2; h++)
            if (half[h] < 0 || half[h] >= board->circle_count)
                return fail(error, "wrap point %d (%s - %s): unknown circle %d", w, a, b, half[h]);
        if (half[0] == half[1])
            return fail(error, "wrap point %d (%s - %s): its two halves are one circle", w, a, b);
        for (int h = 0; h < 2; h++) {
            const ex_circle *circle = &board->circles[half[h]];
            if (circle->kind != EX_KIND_RED)
                return fail(error,
                            "wrap point %d (%s - %s): '%s' is %s, a wrap point's halves are red",
                            w, a, b, circle->id, kind_names[circle->kind]);
        }
        for (int h = 0; h < 2; h++)
            if (twin[half[h]] != EX_NONE) {
                int other = 0;
                while (board->wraps[other][0] != half[h] && board->wraps[other][1] != half[h])
                    other++;
                return fail(error, "wrap point %d (%s - %s): '%s' is already in wrap point %d", w,
                            a, b, board->circles[half[h]].id, other);
            }
        const ex_circle *left = &board->circles[half[0]], *right = &board->circles[half[1]];
        if (left->x_mm > right->x_mm) {
            const ex_circle *swap = left;
            left = right;
            right = swap;
        }
        if (!(left->x_mm <= WRAP_EDGE_MM) || !(right->x_mm >= board->width_mm - WRAP_EDGE_MM))
            return fail(error,
                        "wrap point %d (%s - %s): the halves must lie at the left and right edges "
                        "(within %g mm of x = 0 and x = %g), not at x = %g and %g",
                        w, a, b, (double)WRAP_EDGE_MM, (double)board->width_mm,
                        (double)left->x_mm, (double)right->x_mm);
        if (!(distance_1d(left->y_mm, right->y_mm) <= WRAP_HEIGHT_MM))
            return fail(error,
                        "wrap point %d (%s - %s): the halves must be at the same height (within "
                        "%g mm), not at y = %g and %g",
                        w, a, b, (double)WRAP_HEIGHT_MM, (double)board->circles[half[0]].y_mm,
                        (double)board->circles[half[1]].y_mm);
        twin[half[0]] = (int16_t)half[1];
        twin[half[1]] = (int16_t)half[0];
    }
    return true;
}

/* One node per circle in the order of circles[]; the later half of a wrap point joins the
 * node of the earlier one. */
static void make_nodes(ex_board *board, const int16_t twin[EX_MAX_CIRCLES])
{
    board->node_count = 0;
    for (int c = 0; c < board->circle_count; c++) {
        ex_circle *circle = &board->circles[c];
        if (twin[c] != EX_NONE && twin[c] < c) {
            circle->node = board->circles[twin[c]].node;
            continue;
        }
        ex_node *node = &board->nodes[board->node_count];
        memset(node, 0, sizeof *node);
        node->circle = (int16_t)c;
        node->kind = circle->kind;
        node->distance = -1;
        node->card = EX_NONE;
        for (int i = 0; i < EX_MAX_DEGREE; i++)
            node->segment[i] = EX_NONE;
        circle->node = (int16_t)board->node_count++;
    }
}

static int other_end(const ex_segment *segment, int node)
{
    return segment->node[0] == node ? segment->node[1] : segment->node[0];
}

/* Checks each segment, fills its nodes and the nodes' segment lists, and counts the segments
 * drawn at each circle (a wrap half needs its own). */
static bool check_segments(ex_board *board, int16_t drawn[EX_MAX_CIRCLES], ex_error *error)
{
    memset(drawn, 0, EX_MAX_CIRCLES * sizeof drawn[0]);
    char label[4][16 + EX_ID_MAX];
    for (int s = 0; s < board->segment_count; s++) {
        ex_segment *segment = &board->segments[s];
        int end[2] = {segment->circle[0], segment->circle[1]};
        const char *a = circle_label(board, end[0], label[0]);
        const char *b = circle_label(board, end[1], label[1]);
        for (int e = 0; e < 2; e++)
            if (end[e] < 0 || end[e] >= board->circle_count)
                return fail(error, "segment %d (%s - %s): unknown circle %d", s, a, b, end[e]);
        if (end[0] == end[1])
            return fail(error, "segment %d (%s - %s): joins a circle to itself", s, a, b);
        int node[2] = {board->circles[end[0]].node, board->circles[end[1]].node};
        if (node[0] == node[1])
            return fail(error, "segment %d (%s - %s): joins the two halves of one wrap point", s,
                        a, b);
        const ex_node *from = &board->nodes[node[0]];
        for (int i = 0; i < from->degree; i++) {
            const ex_segment *earlier = &board->segments[from->segment[i]];
            if (other_end(earlier, node[0]) == node[1])
                return fail(error,
                            "segment %d (%s - %s): joins the same circles as segment %d (%s - %s)",
                            s, a, b, from->segment[i],
                            circle_label(board, earlier->circle[0], label[2]),
                            circle_label(board, earlier->circle[1], label[3]));
        }
        for (int e = 0; e < 2; e++) {
            ex_node *at = &board->nodes[node[e]];
            if (at->degree == EX_MAX_DEGREE)
                return fail(error,
                            "circle '%s' has more than %d segments: segment %d (%s - %s) is one "
                            "too many",
                            board->circles[end[e]].id, EX_MAX_DEGREE, s, a, b);
            at->segment[at->degree++] = (int16_t)s;
            drawn[end[e]]++;
        }
        segment->node[0] = (int16_t)node[0];
        segment->node[1] = (int16_t)node[1];
    }
    return true;
}

/* Breadth-first from the start: each node's distance in segments, at most 127. */
static void measure_distances(ex_board *board)
{
    int16_t queue[EX_MAX_CIRCLES];
    int head = 0, tail = 0;
    board->nodes[board->start].distance = 0;
    queue[tail++] = board->start;
    while (head < tail) {
        const ex_node *node = &board->nodes[queue[head++]];
        int next_distance = node->distance < 127 ? node->distance + 1 : 127;
        for (int i = 0; i < node->degree; i++) {
            int next = other_end(&board->segments[node->segment[i]], queue[head - 1]);
            if (board->nodes[next].distance >= 0)
                continue;
            board->nodes[next].distance = (int8_t)next_distance;
            queue[tail++] = (int16_t)next;
        }
    }
}

bool ex_board_prepare(ex_board *board, ex_error *error)
{
    int16_t twin[EX_MAX_CIRCLES], drawn[EX_MAX_CIRCLES];
    if (!check_board_fields(board, error) || !check_circles(board, error))
        return false;
    int start = find_start(board, error);
    if (start == EX_NONE || !check_wraps(board, twin, error))
        return false;
    make_nodes(board, twin);
    if (!check_segments(board, drawn, error))
        return false;
    for (int c = 0; c < board->circle_count; c++)
        if (drawn[c] == 0)
            return fail(error, "circle '%s' has no segment", board->circles[c].id);
    board->start = board->circles[start].node;
    int start_degree = board->nodes[board->start].degree;
    if (start_degree != board->start_degree)
        return fail(error, "the start is joined to %d circles, this board needs %d", start_degree,
                    board->start_degree);
    measure_distances(board);
    for (int c = 0; c < board->circle_count; c++)
        if (board->nodes[board->circles[c].node].distance < 0)
            return fail(error, "circle '%s' cannot be reached from the start",
                        board->circles[c].id);
    /* counted before place_node is written: the count bounds it */
    int places = 0;
    for (int n = 0; n < board->node_count; n++)
        places += board->nodes[n].kind == EX_KIND_PLACE;
    if (places < EX_MIN_PLACES || places > EX_MAX_PLACES)
        return fail(error, "the board has %d places, it needs %d to %d (a card each)", places,
                    EX_MIN_PLACES, EX_MAX_PLACES);
    /* a place is never a wrap half (those are red), so nodes and circles list places in the
     * same order */
    board->place_count = 0;
    for (int n = 0; n < board->node_count; n++)
        if (board->nodes[n].kind == EX_KIND_PLACE) {
            board->nodes[n].card = (int16_t)board->place_count;
            board->place_node[board->place_count++] = (int16_t)n;
        }
    for (int p = board->place_count; p < EX_MAX_PLACES; p++)
        board->place_node[p] = EX_NONE;
    return true;
}

/* ---- the table of boards ---- */

/* Set up once at start-up (ex_board_add's contract); not guarded for threads. */
static ex_board boards[EX_BOARD_TABLE];
static int board_count;

static bool same_float(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Whether two boards hold the same map: the fields a board file fills, strings up to their
 * terminator, so that neither padding nor bytes after a terminator matter. The derived fields
 * follow from these. `kept` is prepared, so its counts bound the loops once they are equal. */
static bool same_board(const ex_board *kept, const ex_board *board)
{
    if (strncmp(kept->id, board->id, EX_ID_MAX) ||
        strncmp(kept->title, board->title, sizeof kept->title) ||
        !same_float(kept->width_mm, board->width_mm) ||
        !same_float(kept->height_mm, board->height_mm) ||
        kept->start_degree != board->start_degree || kept->circle_count != board->circle_count ||
        kept->wrap_count != board->wrap_count || kept->segment_count != board->segment_count)
        return false;
    for (int c = 0; c < kept->circle_count; c++) {
        const ex_circle *x = &kept->circles[c], *y = &board->circles[c];
        if (strncmp(x->id, y->id, EX_ID_MAX) || strncmp(x->name, y->name, EX_NAME_MAX) ||
            strncmp(x->region, y->region, EX_NAME_MAX) || x->kind != y->kind ||
            !same_float(x->x_mm, y->x_mm) || !same_float(x->y_mm, y->y_mm))
            return false;
    }
    for (int w = 0; w < kept->wrap_count; w++)
        if (kept->wraps[w][0] != board->wraps[w][0] || kept->wraps[w][1] != board->wraps[w][1])
            return false;
    for (int s = 0; s < kept->segment_count; s++)
        if (kept->segments[s].circle[0] != board->segments[s].circle[0] ||
            kept->segments[s].circle[1] != board->segments[s].circle[1])
            return false;
    return true;
}

int ex_board_add(const ex_board *board)
{
    for (int i = 0; i < board_count; i++)
        if (strncmp(boards[i].id, board->id, EX_ID_MAX) == 0)
            return same_board(&boards[i], board) ? i + 1 : 0;
    if (board_count == EX_BOARD_TABLE)
        return 0;
    /* prepared again here, so that the table holds only boards that pass the checks, whatever
     * the caller did; a board that fails is not kept */
    boards[board_count] = *board;
    if (!ex_board_prepare(&boards[board_count], NULL))
        return 0;
    return ++board_count;
}

const ex_board *ex_board_get(int handle)
{
    return handle >= 1 && handle <= board_count ? &boards[handle - 1] : NULL;
}

int ex_board_circle(const ex_board *board, const char *id, size_t length)
{
    if (length == 0 || length >= EX_ID_MAX)
        return EX_NONE;
    for (int c = 0; c < board->circle_count; c++)
        if (strnlen(board->circles[c].id, EX_ID_MAX) == length &&
            memcmp(board->circles[c].id, id, length) == 0)
            return c;
    return EX_NONE;
}

int ex_board_segment(const ex_board *board, int node_a, int node_b)
{
    if (node_a < 0 || node_a >= board->node_count || node_b < 0 || node_b >= board->node_count)
        return EX_NONE;
    if (node_a == node_b)
        return EX_NONE;
    const ex_node *node = &board->nodes[node_a];
    for (int i = 0; i < node->degree; i++)
        if (other_end(&board->segments[node->segment[i]], node_a) == node_b)
            return node->segment[i];
    return EX_NONE;
}
