/* 2-D halo exchange overlapped with computation by polling, as AMG's and miniAMR's exchanges do: a periodic
 * N x N grid of doubles on a px x py grid of ranks, ITERS Jacobi sweeps of a 5-point stencil. Each sweep posts
 * the four faces' Irecv and Isend, updates the interior rows in chunks of CHUNK rows and calls MPI_Testall on
 * the eight requests after each chunk until it succeeds, then waits for what is left (MPI_Waitall) and updates
 * the rows next to the faces. The number of MPI_Testall calls depends on the timing of the run: the trace
 * records it. Usage: poll [N=768] [ITERS=40] [CHUNK=16] */
#include "app.h"

#define STENCIL(j, i) v[(j) * w + (i)] = 0.25 * (u[(j) * w + (i) - 1] + u[(j) * w + (i) + 1] + u[((j) - 1) * w + (i)] + \
                                                 u[((j) + 1) * w + (i)])

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 768);
  long iters = app_arg(argc, argv, 2, 40);
  long chunk = app_arg(argc, argv, 3, 16);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  app_grid2d g;
  app_grid2d_init(&g, n, app_rank, size);
  long nx = g.nx, ny = g.ny, w = g.w;
  for (long it = 0; it < iters; ++it) {
    MPI_Request req[8];
    app_grid2d_post(&g, req);
    double* u = g.u;
    double* v = g.v;
    /* the interior (rows 2 .. ny-1, columns 2 .. nx-1) needs no face: computed while the faces travel */
    int done = 0;
    for (long j0 = 2; j0 < ny; j0 += chunk) {
      long j1 = j0 + chunk < ny ? j0 + chunk : ny;
      for (long j = j0; j < j1; ++j)
        for (long i = 2; i < nx; ++i)
          STENCIL(j, i);
      if (!done)
        MPI_Testall(8, req, &done, MPI_STATUSES_IGNORE);
    }
    if (!done)
      MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    app_grid2d_unpack(&g);
    /* the rows and columns next to the faces */
    for (long i = 1; i <= nx; ++i) {
      STENCIL(1, i);
      STENCIL(ny, i);
    }
    for (long j = 2; j < ny; ++j) {
      STENCIL(j, 1);
      STENCIL(j, nx);
    }
    app_grid2d_swap(&g);
  }
  app_finalize();
  return g.u[w + 1] > 1e300; /* keeps the sweeps from being optimised away */
}
