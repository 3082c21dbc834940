/* Helpers of the mini-applications: arguments, a memory-bound kernel, and the measured span.
 *
 * Every mini-application measures the span the simulation predicts: MPI_Wtime() right after MPI_Init
 * returns and right before MPI_Finalize is entered; after MPI_Finalize each rank prints
 *   span RANK SECONDS FROM TO
 * on stdout, FROM and TO the same two moments on the host's CLOCK_MONOTONIC (seconds), which every rank of
 * the host reads alike: the harness takes the run's span from the first rank's FROM to the last rank's TO,
 * as the launcher starts the ranks one after the other. Nothing is printed before MPI_Finalize, so a
 * traced run's trace holds only the program's own MPI calls. */
#ifndef TIT_APP_H
#define TIT_APP_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double app_t0;
static double app_t1;
static double app_clock0;
static double app_clock1;
static int app_rank;

/* The host's CLOCK_MONOTONIC in seconds: one clock for every rank of the host (MPI_Wtime need not be). */
static inline double app_clock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void app_init(int* argc, char*** argv)
{
  MPI_Init(argc, argv);
  app_t0 = MPI_Wtime();
  app_clock0 = app_clock();
  MPI_Comm_rank(MPI_COMM_WORLD, &app_rank);
}

static inline void app_finalize(void)
{
  app_clock1 = app_clock();
  app_t1 = MPI_Wtime();
  MPI_Finalize();
  printf("span %d %.9f %.9f %.9f\n", app_rank, app_t1 - app_t0, app_clock0, app_clock1);
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

/* A periodic N x N grid of doubles split over a px x py grid of ranks (MPI_Dims_create, as square as possible):
 * this rank's nx x ny interior with a one-cell halo in u and v, and its four faces (west, east, south, north) with
 * their buffers and neighbours (itself where a dimension is 1). The set-up of halo2d and poll. */
typedef struct {
  long nx, ny, w; /* interior, row length with the halo */
  double* u;
  double* v;
  double* sbuf[4];
  double* rbuf[4];
  long len[4];
  int nb[4];
} app_grid2d;

static inline void app_grid2d_init(app_grid2d* g, long n, int rank, int size)
{
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int px = dims[0], py = dims[1];
  int cx = rank % px, cy = rank / px;
  g->nx = n / px;
  g->ny = n / py;
  g->w = g->nx + 2;
  g->u = app_alloc(g->w * (g->ny + 2));
  g->v = app_alloc(g->w * (g->ny + 2));
  long len[4] = {g->ny, g->ny, g->nx, g->nx};
  int nb[4] = {app_wrap(cx, -1, px) + cy * px, app_wrap(cx, 1, px) + cy * px, cx + app_wrap(cy, -1, py) * px,
               cx + app_wrap(cy, 1, py) * px};
  for (int f = 0; f < 4; ++f) {
    g->len[f] = len[f];
    g->nb[f] = nb[f];
    g->sbuf[f] = app_alloc(len[f]);
    g->rbuf[f] = app_alloc(len[f]);
  }
  for (long i = 0; i < g->w * (g->ny + 2); ++i)
    g->u[i] = (double)((i * 7 + rank) % 13);
}

/* Packs u's four faces and posts their exchange: req[0..3] the Irecvs, req[4..7] the Isends. */
static inline void app_grid2d_post(app_grid2d* g, MPI_Request req[8])
{
  long w = g->w, nx = g->nx, ny = g->ny;
  for (long j = 0; j < ny; ++j) {
    g->sbuf[0][j] = g->u[(j + 1) * w + 1];
    g->sbuf[1][j] = g->u[(j + 1) * w + nx];
  }
  memcpy(g->sbuf[2], &g->u[w + 1], (size_t)nx * sizeof(double));
  memcpy(g->sbuf[3], &g->u[ny * w + 1], (size_t)nx * sizeof(double));
  for (int f = 0; f < 4; ++f)
    MPI_Irecv(g->rbuf[f], (int)g->len[f], MPI_DOUBLE, g->nb[f], f ^ 1, MPI_COMM_WORLD, &req[f]);
  for (int f = 0; f < 4; ++f)
    MPI_Isend(g->sbuf[f], (int)g->len[f], MPI_DOUBLE, g->nb[f], f, MPI_COMM_WORLD, &req[4 + f]);
}

/* Copies the received faces into u's halo. */
static inline void app_grid2d_unpack(app_grid2d* g)
{
  long w = g->w, nx = g->nx, ny = g->ny;
  for (long j = 0; j < ny; ++j) {
    g->u[(j + 1) * w] = g->rbuf[0][j];
    g->u[(j + 1) * w + nx + 1] = g->rbuf[1][j];
  }
  memcpy(&g->u[1], g->rbuf[2], (size_t)nx * sizeof(double));
  memcpy(&g->u[(ny + 1) * w + 1], g->rbuf[3], (size_t)nx * sizeof(double));
}

static inline void app_grid2d_swap(app_grid2d* g)
{
  double* t = g->u;
  g->u = g->v;
  g->v = t;
}

#endif
