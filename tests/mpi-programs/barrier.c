/* Imbalanced computation separated by MPI_Barrier, with some point-to-point traffic.
 *
 * usage: barrier [ITERS [FLOPS [BYTES]]]   (defaults 4 3e6 70000)
 * Each iteration rank r computes FLOPS x (r + 1) and enters a barrier. On odd iterations rank 0
 * also MPI_Isends the last rank BYTES/10 longs (tag 0) then BYTES longs (tag 1) before the
 * barrier and waits for both after it; the last rank receives them with blocking MPI_Recv after
 * the barrier, so the barrier's own messages must not match them. (The program stays correct
 * whatever the detached threshold: no blocking send waits on a receive behind a barrier.) */
#include "common.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters   = arg_long(argc, argv, 1, 4);
  double flops = arg_double(argc, argv, 2, 3e6);
  long bytes   = arg_long(argc, argv, 3, 70000);

  int count  = (int)(bytes / sizeof(long));
  int scount = count / 10;
  long* buf  = xalloc(count * sizeof(long));
  long* sbuf = xalloc(scount * sizeof(long));
  int last   = size - 1;

  for (long it = 0; it < iters; it++) {
    compute(flops * (rank + 1));
    int p2p = (it % 2 == 1) && last != 0;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (p2p && rank == 0) {
      MPI_Isend(sbuf, scount, MPI_LONG, last, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Isend(buf, count, MPI_LONG, last, 1, MPI_COMM_WORLD, &req[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (p2p && rank == 0) {
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
      MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    }
    if (p2p && rank == last) {
      MPI_Recv(sbuf, scount, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      compute(flops / 2);
      MPI_Recv(buf, count, MPI_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  free(buf);
  free(sbuf);
  MPI_Finalize();
  return 0;
}
