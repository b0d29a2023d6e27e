#include <cstdio>
#define ONE_PARSE_LONG \
  1
#include \
  <vector>
// A directive continued over two lines: the split comes after its second line.
#define ONE_PARSE_OFFSET ONE_PARSE_LONG
#include "body.h"
