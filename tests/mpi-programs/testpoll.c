/* Polling a pending receive with MPI_Test while computing.
 *
 * usage: testpoll [BYTES [ITERS [CHUNK]]]   (defaults 150000 3 2e5)
 * Each iteration a rank posts an Irecv from its left neighbour, computes a delay that depends
 * on its rank (odd ranks 4 x CHUNK, even ranks CHUNK), Isends BYTES to its right neighbour and
 * then calls MPI_Test on the receive, computing CHUNK flops after every unsuccessful test.
 * Once the receive is done it waits for the send with MPI_Wait.
 * The number of MPI_Test calls depends on the simulated timing, so it is recorded in the trace.
 * (The send request is not polled: if a replay under other settings saw a test succeed where the
 * traced run needed a wait, SimGrid's replayer could meet that wait with no request stored at
 * all, which it treats as a fatal error.) */
#include "common.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes   = arg_long(argc, argv, 1, 150000);
  long iters   = arg_long(argc, argv, 2, 3);
  double chunk = arg_double(argc, argv, 3, 2e5);

  int right  = (rank + 1) % size;
  int left   = (rank + size - 1) % size;
  int count  = (int)(bytes / sizeof(float));
  float* sbuf = xalloc(count * sizeof(float));
  float* rbuf = xalloc(count * sizeof(float));

  for (long it = 0; it < iters; it++) {
    MPI_Request rreq, sreq;
    MPI_Irecv(rbuf, count, MPI_FLOAT, left, (int)it, MPI_COMM_WORLD, &rreq);
    compute(chunk * (rank % 2 ? 4 : 1));
    MPI_Isend(sbuf, count, MPI_FLOAT, right, (int)it, MPI_COMM_WORLD, &sreq);
    int flag = 0;
    MPI_Test(&rreq, &flag, MPI_STATUS_IGNORE);
    while (!flag) {
      compute(chunk);
      MPI_Test(&rreq, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
  }
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
