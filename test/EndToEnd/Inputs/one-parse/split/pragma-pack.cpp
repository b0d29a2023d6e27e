#include <cstdio>
#pragma pack(push, 1)
#include <vector>
#pragma pack(pop)
// The pack pragma ends the leading lines: the runtime's header must not be packed.
#define ONE_PARSE_OFFSET 0
#include "body.h"
