/* Pipelined wavefront sweep over a 2-D grid of ranks, blocking point-to-point only.
 *
 * usage: wavefront [BYTES [SWEEPS [FLOPS]]]   (defaults 120000 3 5e6)
 * Ranks form a rows x cols grid (rows <= cols). In each sweep a rank receives from the rank
 * above (BYTES/4 as ints) and from the rank on its left (BYTES as ints), computes FLOPS,
 * then sends down and right. Successive sweeps pipeline behind each other. */
#include "common.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes   = arg_long(argc, argv, 1, 120000);
  long sweeps  = arg_long(argc, argv, 2, 3);
  double flops = arg_double(argc, argv, 3, 5e6);

  int rows, cols;
  grid_dims(size, &rows, &cols);
  int r = rank / cols, c = rank % cols;
  int up = r > 0 ? rank - cols : -1, down = r < rows - 1 ? rank + cols : -1;
  int left = c > 0 ? rank - 1 : -1, right = c < cols - 1 ? rank + 1 : -1;
  int vcount = (int)(bytes / 4 / sizeof(int));
  int hcount = (int)(bytes / sizeof(int));
  int* vbuf  = xalloc(vcount * sizeof(int));
  int* hbuf  = xalloc(hcount * sizeof(int));

  for (long s = 0; s < sweeps; s++) {
    if (up >= 0)
      MPI_Recv(vbuf, vcount, MPI_INT, up, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (left >= 0)
      MPI_Recv(hbuf, hcount, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    compute(flops);
    if (down >= 0)
      MPI_Send(vbuf, vcount, MPI_INT, down, 5, MPI_COMM_WORLD);
    if (right >= 0)
      MPI_Send(hbuf, hcount, MPI_INT, right, 6, MPI_COMM_WORLD);
  }
  free(vbuf);
  free(hbuf);
  MPI_Finalize();
  return 0;
}
