/* A ring that polls its receive with MPI_Test while it computes (issue 17, part 1).
 *
 * usage: pollring [ITERS [CHUNK [SMALL [LARGE]]]]   (defaults 6 1e5 512 100000)
 * Each iteration a rank posts an Irecv from its left neighbour (tag 0 every time, so the same request
 * key comes back each iteration), computes CHUNK flops (x3 on odd ranks), Isends to its right
 * neighbour, then tests the receive up to three times with CHUNK flops of computation before each
 * further test, calls MPI_Wait if it is still not done, waits for the send, and ends the iteration
 * with a Sendrecv (right, left) of 8 bytes. Messages are SMALL and LARGE bytes in turn.
 * Which test succeeds depends on the timing, so the trace records it only implicitly: after a
 * successful test the request is never named again (the next iteration posts the same key anew).
 * Replaying such a trace with other parameters must not deadlock (docs/mpi-semantics.md,
 * "Traced outcomes"). */
#include "common.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters   = arg_long(argc, argv, 1, 6);
  double chunk = arg_double(argc, argv, 2, 1e5);
  long small   = arg_long(argc, argv, 3, 512);
  long large   = arg_long(argc, argv, 4, 100000);

  int right  = (rank + 1) % size;
  int left   = (rank + size - 1) % size;
  char* sbuf = xalloc(large > small ? large : small);
  char* rbuf = xalloc(large > small ? large : small);
  double token_out = rank, token_in = 0;

  for (long it = 0; it < iters; it++) {
    int bytes = (int)(it % 2 ? large : small);
    MPI_Request rreq, sreq;
    MPI_Irecv(rbuf, bytes, MPI_CHAR, left, 0, MPI_COMM_WORLD, &rreq);
    compute(chunk * (rank % 2 ? 3 : 1));
    MPI_Isend(sbuf, bytes, MPI_CHAR, right, 0, MPI_COMM_WORLD, &sreq);
    int flag = 0;
    MPI_Test(&rreq, &flag, MPI_STATUS_IGNORE);
    for (int t = 1; t < 3 && !flag; t++) {
      compute(chunk);
      MPI_Test(&rreq, &flag, MPI_STATUS_IGNORE);
    }
    if (!flag)
      MPI_Wait(&rreq, MPI_STATUS_IGNORE);
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&token_out, 1, MPI_DOUBLE, right, 1, &token_in, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
