#include <cstdio>
#ifdef ONE_PARSE_NOT_DEFINED
#include <vector>
#endif
#pragma GCC diagnostic ignored "-Wunused-variable"
#include <cmath> /* a comment that
                    ends on the next line */
// The leading lines end after <cmath>'s #include, outside the conditional.
#define ONE_PARSE_OFFSET 0
#include "body.h"
