#include <cstdio>
#line 100
#include <vector>
// #line ends the leading lines: the runtime's header's own #line would undo it.
#define ONE_PARSE_OFFSET 0
#include "body.h"
