/* The key=value options of the extrapolation test programs (stencil.c, built with smpicc; transpose.c, with mpicc). */
#ifndef TIT_EXTRAPOLATE_OPTIONS_H
#define TIT_EXTRAPOLATE_OPTIONS_H

#include <stdlib.h>
#include <string.h>

/* The value of the argument `key=value`, or def when no argument names key. */
static long option(int argc, char** argv, const char* key, long def)
{
  size_t len = strlen(key);
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], key, len) == 0 && argv[i][len] == '=')
      return strtol(argv[i] + len + 1, NULL, 10);
  return def;
}

#endif
