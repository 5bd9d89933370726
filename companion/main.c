#include "companion.h"

int main(int argc, char **argv) { return companion_main(argc, argv); }
