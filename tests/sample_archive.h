/* The sample archive of the export and end-to-end tests. */
#ifndef TS_SAMPLE_ARCHIVE_H
#define TS_SAMPLE_ARCHIVE_H

/* Game 1: Expedition Luxor, 3 seats (two named, one with quotes and angle brackets), 8 events
 * of every kind (moves with evidence and thumbnails, a flag, an undo, hidden information, a
 * notation with a comma and quotes), finished with a shared first place (orange and black 4,
 * grey 3). Game 2: Luxor, 2 seats, live, one move. Returns 0, or 1 after printing why. */
int sample_archive_write(const char *path);

/* Events of game 1 in the sample. */
#define SAMPLE_GAME1_EVENTS 8

#endif
