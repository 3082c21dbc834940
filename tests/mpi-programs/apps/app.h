/* Helpers of the mini-applications: arguments, a memory-bound kernel, and the measured span.
 *
 * Every mini-application measures the span the simulation predicts: MPI_Wtime() right after MPI_Init
 * returns and right before MPI_Finalize is entered; after MPI_Finalize each rank prints
 *   span RANK SECONDS
 * on stdout (the harness takes the largest over the ranks). Nothing is printed before MPI_Finalize, so
 * a traced run's trace holds only the program's own MPI calls. */
#ifndef TIT_APP_H
#define TIT_APP_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double app_t0;
static double app_t1;
static int app_rank;

static inline void app_init(int* argc, char*** argv)
{
  MPI_Init(argc, argv);
  app_t0 = MPI_Wtime();
  MPI_Comm_rank(MPI_COMM_WORLD, &app_rank);
}

static inline void app_finalize(void)
{
  app_t1 = MPI_Wtime();
  MPI_Finalize();
  printf("span %d %.9f\n", app_rank, app_t1 - app_t0);
}

/* The I-th argument as a positive integer, or DEFAULT; stops with a message on anything else. */
static inline long app_arg(int argc, char** argv, int i, long def)
{
  if (argc <= i)
    return def;
  char* end = NULL;
  long v = strtol(argv[i], &end, 10);
  if (*argv[i] == '\0' || *end != '\0' || v <= 0) {
    fprintf(stderr, "%s: error: argument %d must be a positive integer, got '%s'\n", argv[0], i, argv[i]);
    exit(2);
  }
  return v;
}

static inline double* app_alloc(long n)
{
  double* p = (double*)calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  if (!p) {
    fprintf(stderr, "error: out of memory (%ld doubles)\n", n);
    exit(2);
  }
  return p;
}

/* Neighbour of coordinate c (0..n-1) shifted by d, periodic. */
static inline int app_wrap(int c, int d, int n)
{
  return ((c + d) % n + n) % n;
}

#endif
