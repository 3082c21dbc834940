/* Helpers of the tracer's test programs (compiled with mpicc and with smpicc). */
#ifndef TT_H
#define TT_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* A compute burst of about `iters` loop iterations (a few instructions each). */
static double tt_sink;
static inline void tt_work(long iters)
{
  volatile double x = 1.0;
  for (long i = 0; i < iters; i++)
    x = x * 1.0000001 + 1e-9;
  tt_sink += x;
}

/* Integer argument i of argv, or a default. */
static inline long tt_arg(int argc, char** argv, int i, long def) { return argc > i ? atol(argv[i]) : def; }

#endif
