/* Wavefront: an N x N grid split in column blocks over a chain of ranks; each of SWEEPS sweeps goes
 * down the rows in chunks of CHUNK rows: a rank receives the chunk's left boundary from rank-1 (MPI_Recv),
 * updates its block (each cell from its left and upper neighbours), and sends its right boundary to rank+1
 * (MPI_Send), so the ranks work as a pipeline.
 * Usage: wavefront [N=2048] [SWEEPS=4] [CHUNK=64] */
#include "app.h"

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 2048);
  long sweeps = app_arg(argc, argv, 2, 4);
  long chunk = app_arg(argc, argv, 3, 64);
  int rank = app_rank, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long cols = n / size, w = cols + 1;
  double* g = app_alloc((n + 1) * w);
  double* edge = app_alloc(chunk);
  for (long i = 0; i < (n + 1) * w; ++i)
    g[i] = (double)(i % 7);
  for (long s = 0; s < sweeps; ++s)
    for (long r0 = 1; r0 <= n; r0 += chunk) {
      long rows = r0 + chunk - 1 <= n ? chunk : n - r0 + 1;
      if (rank > 0) {
        MPI_Recv(edge, (int)rows, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (long r = 0; r < rows; ++r)
          g[(r0 + r) * w] = edge[r];
      }
      for (long r = r0; r < r0 + rows; ++r)
        for (long c = 1; c < w; ++c)
          g[r * w + c] = 0.5 * (g[r * w + c - 1] + g[(r - 1) * w + c]) + 1e-3;
      if (rank < size - 1) {
        for (long r = 0; r < rows; ++r)
          edge[r] = g[(r0 + r) * w + cols];
        MPI_Send(edge, (int)rows, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD);
      }
    }
  app_finalize();
  return g[w + 1] > 1e300;
}
