/* Odyssée-land's board: field names and the check of a board's data (od_board_check). */
#include "odysseeland.h"

#include <stdio.h>
#include <string.h>

static const char *const terrain_names[OD_TERRAINS] = {"city", "mountain", "forest", "river",
                                                       "fog"};

const char *od_terrain_name(int terrain)
{
    return terrain >= 0 && terrain < OD_TERRAINS ? terrain_names[terrain] : NULL;
}

void od_place_name(int place, char out[12])
{
    if (place >= 0 && place < OD_FIELDS) { /* by hand: notation writes many, snprintf is slow */
        int row = place / OD_COLUMNS + 1, i = 0;
        out[i++] = (char)('A' + place % OD_COLUMNS);
        if (row == 10)
            out[i++] = '1', out[i++] = '0';
        else
            out[i++] = (char)('0' + row);
        out[i] = '\0';
    } else if (place >= OD_FIELDS && place < OD_FIELDS + 5)
        snprintf(out, 12, "row-%d", place - OD_FIELDS + 1);
    else if (place >= OD_FIELDS + 5 && place < OD_PLACES)
        snprintf(out, 12, "column-%c", 'A' + place - OD_FIELDS - 5);
    else
        snprintf(out, 12, "?");
}

int od_place_parse(const char *text, size_t length)
{
    if (length >= 5 && length <= 6 && strncmp(text, "row-", 4) == 0) {
        int row = 0;
        for (size_t i = 4; i < length; i++) {
            if (text[i] < '0' || text[i] > '9')
                return OD_NONE;
            row = row * 10 + text[i] - '0';
        }
        return row >= 1 && row <= 5 ? OD_START_ROW(row - 1) : OD_NONE;
    }
    if (length == 8 && strncmp(text, "column-", 7) == 0) {
        int column = (text[7] | 0x20) - 'a';
        return column >= 0 && column < 5 ? OD_START_COLUMN(column) : OD_NONE;
    }
    if (length < 2 || length > 3)
        return OD_NONE;
    int column = (text[0] | 0x20) - 'a';
    if (column < 0 || column >= OD_COLUMNS || text[1] < '1' || text[1] > '9')
        return OD_NONE;
    int row = text[1] - '0';
    if (length == 3) {
        if (row != 1 || text[2] != '0')
            return OD_NONE;
        row = 10;
    }
    return OD_FIELD(row - 1, column);
}

static bool adjacent(int a, int b)
{
    int ra = a / OD_COLUMNS, ca = a % OD_COLUMNS, rb = b / OD_COLUMNS, cb = b % OD_COLUMNS;
    return (ra == rb && (ca - cb == 1 || cb - ca == 1)) ||
           (ca == cb && (ra - rb == 1 || rb - ra == 1));
}

/* Fields of city c reached from `from` through the city's own fields. */
static int city_reach(const od_board *board, int c, int from)
{
    uint8_t seen[OD_FIELDS] = {0};
    int queue[OD_FIELDS], head = 0, tail = 0;
    queue[tail++] = from;
    seen[from] = 1;
    while (head < tail) {
        int f = queue[head++];
        int r = f / OD_COLUMNS, col = f % OD_COLUMNS;
        int next[4] = {r > 0 ? f - OD_COLUMNS : -1, r < OD_ROWS - 1 ? f + OD_COLUMNS : -1,
                       col > 0 ? f - 1 : -1, col < OD_COLUMNS - 1 ? f + 1 : -1};
        for (int i = 0; i < 4; i++)
            if (next[i] >= 0 && !seen[next[i]] && board->city[next[i]] == c) {
                seen[next[i]] = 1;
                queue[tail++] = next[i];
            }
    }
    return tail;
}

bool od_board_check(od_board *board, char *message, size_t size)
{
    static const int wanted[OD_TERRAINS] = {OD_CITY_FIELDS, OD_MOUNTAIN_FIELDS, OD_FOREST_FIELDS,
                                            OD_RIVER_FIELDS, OD_FOG_FIELDS};
    static const int city_sizes[OD_CITIES] = {12, 6, 5, 4, 3};
    int count[OD_TERRAINS] = {0};
    char name[12];
    memset(board->city_size, 0, sizeof board->city_size);
    for (int f = 0; f < OD_FIELDS; f++) {
        od_place_name(f, name);
        if (board->terrain[f] >= OD_TERRAINS) {
            snprintf(message, size, "field %s: no terrain", name);
            return false;
        }
        count[board->terrain[f]]++;
        if (board->terrain[f] == OD_CITY) {
            if (board->city[f] < 0 || board->city[f] >= OD_CITIES) {
                snprintf(message, size, "field %s: a city field in no city", name);
                return false;
            }
            board->city_size[board->city[f]]++;
        } else if (board->city[f] != OD_NONE) {
            snprintf(message, size, "field %s: %s, not a city field, in a city", name,
                     terrain_names[board->terrain[f]]);
            return false;
        }
    }
    for (int t = 0; t < OD_TERRAINS; t++)
        if (count[t] != wanted[t]) {
            snprintf(message, size, "%d %s fields, the box has %d cards for them", count[t],
                     terrain_names[t], wanted[t]);
            return false;
        }
    for (int c = 0; c < OD_CITIES; c++) {
        if (board->city_size[c] != city_sizes[c]) {
            snprintf(message, size, "the city of %d fields has %d", city_sizes[c],
                     board->city_size[c]);
            return false;
        }
        for (int f = 0; f < OD_FIELDS; f++)
            if (board->city[f] == c) {
                if (city_reach(board, c, f) != city_sizes[c]) {
                    od_place_name(f, name);
                    snprintf(message, size, "the city of %d fields at %s is not in one piece",
                             city_sizes[c], name);
                    return false;
                }
                break;
            }
    }
    if (board->city[OD_FIELD(9, 10)] != OD_CAPITAL) {
        snprintf(message, size, "K10 is not in the capital (the city of 12 fields)");
        return false;
    }
    if (board->river_length != OD_RIVER_FIELDS) {
        snprintf(message, size, "the river's course has %d fields, the river %d",
                 board->river_length, OD_RIVER_FIELDS);
        return false;
    }
    memset(board->river_index, OD_NONE, sizeof board->river_index);
    for (int i = 0; i < board->river_length; i++) {
        int f = board->river[i];
        if (f >= OD_FIELDS || board->terrain[f] != OD_RIVER) {
            od_place_name(f < OD_FIELDS ? f : -1, name);
            snprintf(message, size, "the river's course passes %s, not a river field", name);
            return false;
        }
        od_place_name(f, name);
        if (board->river_index[f] != OD_NONE) {
            snprintf(message, size, "the river's course passes %s twice", name);
            return false;
        }
        if (i == 0 && f % OD_COLUMNS != 0) {
            snprintf(message, size, "the river's course starts at %s, not on the left edge", name);
            return false;
        }
        if (i > 0 && !adjacent(board->river[i - 1], f)) {
            char before[12];
            od_place_name(board->river[i - 1], before);
            snprintf(message, size, "the river's course jumps from %s to %s", before, name);
            return false;
        }
        board->river_index[f] = (int8_t)i;
    }
    return true;
}

#define OD_BOARD_TABLE 4

static od_board boards[OD_BOARD_TABLE];
static int board_count;

int od_board_add(const od_board *board)
{
    char message[160];
    for (int i = 0; i < board_count; i++)
        if (strncmp(boards[i].id, board->id, OD_ID_MAX) == 0)
            return memcmp(boards[i].terrain, board->terrain, sizeof board->terrain) == 0 &&
                           memcmp(boards[i].city, board->city, sizeof board->city) == 0 &&
                           memcmp(boards[i].river, board->river, sizeof board->river) == 0
                       ? i + 1 : 0;
    if (board_count == OD_BOARD_TABLE)
        return 0;
    boards[board_count] = *board;
    if (!od_board_check(&boards[board_count], message, sizeof message))
        return 0;
    return ++board_count;
}

const od_board *od_board_get(int handle)
{
    return handle >= 1 && handle <= board_count ? &boards[handle - 1] : NULL;
}
