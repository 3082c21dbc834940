/* A 2-D transpose on row and column communicators, for tests/extrapolate/run.sh (docs/extrapolation.md): the
 * sub-communicator case of tit-trace extrapolate. Built with mpicc and traced by our tracer (libtit-trace.so), because
 * SimGrid's tracer writes neither MPI_Comm_split nor the communicator of a collective.
 *
 * usage: transpose [n=N] [iters=I] [work=W]
 *   n=N      the global N x N array of doubles (default 420), distributed over a px x py grid of ranks (px >= py,
 *            the most balanced factorisation, as MPI_Dims_create specifies it), strong scaling
 *   iters=I  iterations (default 3)
 *   work=W   loop iterations of the local kernel per local element (default 4)
 *   parity=1 the "rows" are the even and the odd ranks instead (colour rank % 2: no function of the grid coordinates),
 *            without the MPI_Sendrecv
 * The rank at column x and row y is x + px * y (x varies fastest). The ranks split MPI_COMM_WORLD into rows
 * (colour y, key x) and columns (colour x, key = world rank). Per iteration each rank computes on its block, exchanges
 * one row of its block with its right and left neighbours in the row (MPI_Sendrecv on the row communicator, periodic
 * within the row), transposes with MPI_Alltoall on its row (N * N / (20 * p) doubles to each rank: a strong-scaling
 * size that is one function of p), and reduces one double
 * over its column (MPI_Allreduce); a first MPI_Bcast from the column's rank 0. Both communicators are freed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

/* The most balanced px * py = size with px >= py. */
static void grid(int size, int* px, int* py)
{
  *py = 1;
  for (int f = 1; f * f <= size; f++)
    if (size % f == 0)
      *py = f;
  *px = size / *py;
}

static double kernel(double* a, long cells, long work)
{
  volatile double acc = 0;
  for (long i = 0; i < cells; i++)
    for (long k = 0; k < work; k++)
      acc += a[i] * 0.5 + (double)k;
  return acc;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = option(argc, argv, "n", 420), iters = option(argc, argv, "iters", 3), work = option(argc, argv, "work", 4);
  int px, py;
  grid(size, &px, &py);
  int x = rank % px, y = rank / px;
  MPI_Comm row, col;
  int parity = (int)option(argc, argv, "parity", 0);
  MPI_Comm_split(MPI_COMM_WORLD, parity ? rank % 2 : y, x, &row);
  MPI_Comm_split(MPI_COMM_WORLD, x, rank, &col);
  int rr, rs; /* x and px, unless parity=1 */
  MPI_Comm_rank(row, &rr);
  MPI_Comm_size(row, &rs);
  long cells = (n / px) * (n / py), block = n * n / (20 * size), line = n / px;
  double* a = calloc((size_t)cells, sizeof(double));
  double* b = calloc((size_t)cells, sizeof(double));
  if (!a || !b) {
    fprintf(stderr, "transpose: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double s = 1, t = 0;
  MPI_Bcast(&s, 1, MPI_DOUBLE, 0, col);
  for (long it = 0; it < iters; it++) {
    a[0] += kernel(a, cells, work) * 1e-30;
    int right = (rr + 1) % rs, left = (rr + rs - 1) % rs; /* ranks in the row communicator */
    if (!parity) {
      MPI_Sendrecv(a, (int)line, MPI_DOUBLE, right, 1, b, (int)line, MPI_DOUBLE, left, 1, row, MPI_STATUS_IGNORE);
      MPI_Sendrecv(a, (int)line, MPI_DOUBLE, left, 2, b, (int)line, MPI_DOUBLE, right, 2, row, MPI_STATUS_IGNORE);
    }
    MPI_Alltoall(a, (int)block, MPI_DOUBLE, b, (int)block, MPI_DOUBLE, row);
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, col);
    s = t / size;
  }
  MPI_Comm_free(&row);
  MPI_Comm_free(&col);
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
