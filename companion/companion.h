/*
 * companion: the `tablescribe` command.
 *
 *   tablescribe CMD ...  ──▶ commands[] ──▶ games | show | export      the archive (db/)
 *                                       ├─▶ play                       rules, no camera
 *                                       └─▶ watch | replay | recognise capture → register →
 *                                           calibrate | render         gate → recognise →
 *                                                                      reconcile → archive
 *
 * Exit status: 0 success, 2 bad usage or bad input (one line naming the input and the problem
 * on standard error), 1 any other failure. Nothing is ever left half-written.
 */
#ifndef TS_COMPANION_H
#define TS_COMPANION_H

/* Runs the command line argv (argv[0] is the program) and returns the exit status. */
int companion_main(int argc, char **argv);

#endif
