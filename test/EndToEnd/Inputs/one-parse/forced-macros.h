// Passed with -include by one-parse.test: macros with names the runtime's header uses.
#define N 5
#define T float
