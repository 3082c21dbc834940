/* 2-D periodic halo exchange with MPI_Isend/MPI_Irecv and MPI_Waitall.
 *
 * usage: halo [BYTES [ITERS [FLOPS]]]   (defaults 80000 3 3e5)
 * Ranks form a rows x cols periodic grid (rows <= cols, as square as possible: 3 ranks give
 * 1 x 3, 8 give 2 x 4). Each iteration posts the four receives, then the four sends (doubles;
 * east/west faces carry BYTES, north/south faces BYTES/2), computes the interior (FLOPS),
 * waits for all eight requests and computes the boundary (FLOPS / 8).
 * With a dimension of 1 a rank is its own neighbour; with a dimension of 2 both neighbours
 * along it are the same rank: the four directions use distinct tags. */
#include "common.h"

enum { NORTH, SOUTH, WEST, EAST };

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes   = arg_long(argc, argv, 1, 80000);
  long iters   = arg_long(argc, argv, 2, 3);
  double flops = arg_double(argc, argv, 3, 3e5);

  int rows, cols;
  grid_dims(size, &rows, &cols);
  int r = rank / cols, c = rank % cols;
  int nbr[4];
  nbr[NORTH] = ((r + rows - 1) % rows) * cols + c;
  nbr[SOUTH] = ((r + 1) % rows) * cols + c;
  nbr[WEST]  = r * cols + (c + cols - 1) % cols;
  nbr[EAST]  = r * cols + (c + 1) % cols;
  int count[4];
  count[NORTH] = count[SOUTH] = (int)(bytes / 2 / sizeof(double));
  count[WEST] = count[EAST] = (int)(bytes / sizeof(double));
  /* a message sent towards direction d arrives from the opposite side; tag = direction of travel */
  const int opposite[4] = {SOUTH, NORTH, EAST, WEST};

  double* sbuf[4];
  double* rbuf[4];
  for (int d = 0; d < 4; d++) {
    sbuf[d] = xalloc(count[d] * sizeof(double));
    rbuf[d] = xalloc(count[d] * sizeof(double));
  }
  MPI_Request req[8];
  for (long it = 0; it < iters; it++) {
    for (int d = 0; d < 4; d++) /* receive from neighbour d what it sent towards us */
      MPI_Irecv(rbuf[d], count[d], MPI_DOUBLE, nbr[d], opposite[d], MPI_COMM_WORLD, &req[d]);
    for (int d = 0; d < 4; d++)
      MPI_Isend(sbuf[d], count[d], MPI_DOUBLE, nbr[d], d, MPI_COMM_WORLD, &req[4 + d]);
    compute(flops);
    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    compute(flops / 8);
  }
  for (int d = 0; d < 4; d++) {
    free(sbuf[d]);
    free(rbuf[d]);
  }
  MPI_Finalize();
  return 0;
}
