/* The heap-block extents of runtime_c.h from C (test/Runtime/allocations.test): a block's start
 * and interior, what is unknown, a block that libc allocates for the program (strdup), realloc
 * and free. With OWN_MALLOC the program defines malloc, free, calloc and realloc itself: the
 * runtime's definitions give way, and every extent is unknown. */
#define _DEFAULT_SOURCE
#include <clustrix/runtime_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef OWN_MALLOC
extern void *__libc_malloc(size_t n);
extern void __libc_free(void *p);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
void *malloc(size_t n) { return __libc_malloc(n); }
void free(void *p) { __libc_free(p); }
void *calloc(size_t n, size_t size) { return __libc_calloc(n, size); }
void *realloc(void *p, size_t n) { return __libc_realloc(p, n); }
#endif

static void show(const char *what, const void *p, size_t elem_size) {
  printf("%s: %lld %lld\n", what, (long long)clustrix_allocation_lo(p, elem_size),
         (long long)clustrix_allocation_hi(p, elem_size));
}

int main(int argc, char **argv) {
  volatile size_t big = 1000, small = 100;
  char text[400], local[4096];
  char *p = (char *)malloc(big), *s, *q = (char *)malloc(small);
  unsigned long gone;
  (void)argv;
  memset(text, 'x', sizeof text - 1);
  text[sizeof text - 1] = '\0';
  memset(local, argc, sizeof local);
  s = strdup(text);
  show("start", p, 1);
  show("interior", p + 10, 4);
  show("past", p + 1000, 1);
  show("small", q, 1);
  show("stack", local, 1);
  show("strdup", s + 1, 1);
  p = (char *)realloc(p, 5000);
  show("realloc", p + 4999, 1);
  gone = (unsigned long)p;
  free(p);
  show("freed", (const void *)gone, 1);
  free(q);
  free(s);
  return 0;
}
