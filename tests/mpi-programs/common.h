/* Helpers shared by the small MPI test programs (compiled with smpicc).
 *
 * Computation is injected with smpi_execute_flops() so that the amount of work is exact and
 * deterministic; run the programs with --cfg=smpi/simulate-computation:no so that the real CPU
 * time spent between MPI calls is not added on top. */
#ifndef TIT_MPI_PROGRAMS_COMMON_H
#define TIT_MPI_PROGRAMS_COMMON_H

#include <mpi.h>
#ifndef TIT_WITHOUT_SMPI
#include <smpi/smpi.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* argv[i] as a non-negative integer, or def when absent; aborts on a malformed value. */
static inline long arg_long(int argc, char** argv, int i, long def)
{
  if (i >= argc)
    return def;
  char* end = NULL;
  long v    = strtol(argv[i], &end, 10);
  if (end == argv[i] || *end != '\0' || v < 0) {
    fprintf(stderr, "%s: argument %d: expected a non-negative integer, got '%s'\n", argv[0], i, argv[i]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return v;
}

/* argv[i] as a non-negative real (scientific notation accepted), or def when absent. */
static inline double arg_double(int argc, char** argv, int i, double def)
{
  if (i >= argc)
    return def;
  char* end = NULL;
  double v  = strtod(argv[i], &end);
  if (end == argv[i] || *end != '\0' || v < 0) {
    fprintf(stderr, "%s: argument %d: expected a non-negative number, got '%s'\n", argv[0], i, argv[i]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return v;
}

/* A zeroed buffer of at least one byte. */
static inline void* xalloc(size_t bytes)
{
  void* p = calloc(bytes > 0 ? bytes : 1, 1);
  if (p == NULL) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return p;
}

/* Simulated computation of exactly `flops` floating-point operations on this rank's host; nothing when built with
 * mpicc and -DTIT_WITHOUT_SMPI (traced by our tracer, which measures what the rank computes). */
static inline void compute(double flops)
{
#ifndef TIT_WITHOUT_SMPI
  if (flops > 0)
    smpi_execute_flops(flops);
#else
  (void)flops;
#endif
}

/* Split n ranks into a rows x cols grid with rows <= cols, as square as possible. */
static inline void grid_dims(int n, int* rows, int* cols)
{
  int r = 1;
  for (int d = 1; d * d <= n; d++)
    if (n % d == 0)
      r = d;
  *rows = r;
  *cols = n / r;
}

#endif
