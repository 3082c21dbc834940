/* Token ring with blocking MPI_Send/MPI_Recv and computation between hops.
 *
 * usage: ring [BYTES [ITERS [FLOPS]]]   (defaults 100000 3 1e7)
 * Each iteration: every rank computes FLOPS x (1 + rank % 3), then a message of BYTES chars
 * travels once around the ring from rank 0 (0 -> 1 -> ... -> n-1 -> 0). A second, small
 * message of BYTES/16 chars then goes the other way round with tag 1. */
#include "common.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes   = arg_long(argc, argv, 1, 100000);
  long iters   = arg_long(argc, argv, 2, 3);
  double flops = arg_double(argc, argv, 3, 1e7);

  int right  = (rank + 1) % size;
  int left   = (rank + size - 1) % size;
  long small = bytes / 16;
  char* buf  = xalloc(bytes);

  for (long it = 0; it < iters; it++) {
    compute(flops * (1 + rank % 3));
    if (rank == 0) {
      MPI_Send(buf, (int)bytes, MPI_CHAR, right, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)bytes, MPI_CHAR, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)bytes, MPI_CHAR, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      compute(flops / 4);
      MPI_Send(buf, (int)bytes, MPI_CHAR, right, 0, MPI_COMM_WORLD);
    }
    /* reverse direction, small message */
    if (rank == 0) {
      MPI_Send(buf, (int)small, MPI_CHAR, left, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)small, MPI_CHAR, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)small, MPI_CHAR, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)small, MPI_CHAR, left, 1, MPI_COMM_WORLD);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
