/* 2-D halo exchange: a periodic N x N grid of doubles split over a px x py grid of ranks (px*py = size,
 * as square as possible), ITERS Jacobi sweeps of a 5-point stencil, each after exchanging the four
 * faces with Irecv/Isend/Waitall (self-neighbours when a dimension is 1).
 * Usage: halo2d [N=768] [ITERS=40] */
#include "app.h"

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 768);
  long iters = app_arg(argc, argv, 2, 40);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  app_grid2d g;
  app_grid2d_init(&g, n, app_rank, size);
  long nx = g.nx, ny = g.ny, w = g.w;
  for (long it = 0; it < iters; ++it) {
    MPI_Request req[8];
    app_grid2d_post(&g, req);
    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    app_grid2d_unpack(&g);
    double* u = g.u;
    double* v = g.v;
    for (long j = 1; j <= ny; ++j)
      for (long i = 1; i <= nx; ++i)
        v[j * w + i] = 0.25 * (u[j * w + i - 1] + u[j * w + i + 1] + u[(j - 1) * w + i] + u[(j + 1) * w + i]);
    app_grid2d_swap(&g);
  }
  app_finalize();
  return g.u[w + 1] > 1e300; /* keeps the sweeps from being optimised away */
}
