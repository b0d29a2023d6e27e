// Included by early.cpp: its loops come through a macro-spelled #include.
#define ONE_PARSE_EARLY_LOOPS "early-loops.h"
#include ONE_PARSE_EARLY_LOOPS
