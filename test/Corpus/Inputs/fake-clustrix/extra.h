/* Included by fake-clustrix.py: one line too many on cpu:7. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fake_extra_line(void)
{
  printf("extra line\n");
}

__attribute__((constructor)) static void fake_register(void)
{
  const char *d = getenv("CLUSTRIX_DEVICES");
  if (d && strcmp(d, "cpu:7") == 0)
    atexit(fake_extra_line);
}
