/* A mix of nonblocking and blocking point-to-point patterns around a ring.
 *
 * usage: nbmix [BIG [ITERS [FLOPS]]]   (defaults 200000 2 4e6)
 * Each iteration, with left/right the ring neighbours:
 *  A. Irecv BIG bytes (tag 1) and 1000 bytes (tag 2) from the left, Isend the same to the
 *     right, computing in between; then MPI_Wait on the four requests one by one in an order
 *     that changes with the iteration and the rank.
 *  B. MPI_Sendrecv: BIG bytes to the right / from the left (tag 7), then 65535 bytes to the
 *     left / from the right (tag 8).
 *  C. Three messages with the same tag (3) of 65456, 65457 and 65535 bytes (65472 with the
 *     16-byte envelope is a factor-table boundary); the requests are waited in reverse order.
 *     (All stay below 65536: with smpi/async-small-thresh:65536 SimGrid puts messages below the
 *     threshold in another mailbox, and mixing both kinds on one (source, tag) breaks the
 *     non-overtaking rule there, ending in MPI_ERR_TRUNCATE.)
 *  D. Blocking MPI_Send/MPI_Recv of 65536, 65535 and 0 bytes, even ranks sending first,
 *     odd ranks receiving first.
 *  E. An MPI_Irecv completed by MPI_Wait after a blocking MPI_Send of BIG/2 bytes the other way. */
#include "common.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long big     = arg_long(argc, argv, 1, 200000);
  long iters   = arg_long(argc, argv, 2, 2);
  double flops = arg_double(argc, argv, 3, 4e6);

  int right = (rank + 1) % size;
  int left  = (rank + size - 1) % size;
  const int small = 1000;
  long cap        = big > 65536 ? big : 65536;
  char* sbig      = xalloc(cap);
  char* rbig      = xalloc(cap);
  char* ssmall    = xalloc(small);
  char* rsmall    = xalloc(small);
  const int csizes[3] = {65456, 65457, 65535};
  char* cs[3];
  char* cr[3];
  for (int k = 0; k < 3; k++) {
    cs[k] = xalloc(csizes[k]);
    cr[k] = xalloc(csizes[k]);
  }
  static const int orders[3][4] = {{1, 3, 0, 2}, {2, 0, 3, 1}, {3, 2, 1, 0}};

  for (long it = 0; it < iters; it++) {
    /* A */
    MPI_Request q[4];
    MPI_Irecv(rbig, (int)big, MPI_BYTE, left, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(rsmall, small, MPI_BYTE, left, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Isend(sbig, (int)big, MPI_BYTE, right, 1, MPI_COMM_WORLD, &q[2]);
    compute(flops * (1 + rank % 2));
    MPI_Isend(ssmall, small, MPI_BYTE, right, 2, MPI_COMM_WORLD, &q[3]);
    const int* order = orders[(it + rank) % 3];
    for (int k = 0; k < 4; k++)
      MPI_Wait(&q[order[k]], MPI_STATUS_IGNORE);

    /* B */
    MPI_Sendrecv(sbig, (int)big, MPI_BYTE, right, 7, rbig, (int)big, MPI_BYTE, left, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    compute(flops / 2);
    MPI_Sendrecv(sbig, 65535, MPI_BYTE, left, 8, rbig, 65535, MPI_BYTE, right, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* C */
    MPI_Request rq[3], sq[3];
    for (int k = 0; k < 3; k++)
      MPI_Irecv(cr[k], csizes[k], MPI_BYTE, left, 3, MPI_COMM_WORLD, &rq[k]);
    for (int k = 0; k < 3; k++)
      MPI_Isend(cs[k], csizes[k], MPI_BYTE, right, 3, MPI_COMM_WORLD, &sq[k]);
    for (int k = 2; k >= 0; k--)
      MPI_Wait(&sq[k], MPI_STATUS_IGNORE);
    compute(flops / 4);
    for (int k = 2; k >= 0; k--)
      MPI_Wait(&rq[k], MPI_STATUS_IGNORE);

    /* D */
    const int dsizes[3] = {65536, 65535, 0};
    for (int k = 0; k < 3; k++) {
      if (rank % 2 == 0) {
        MPI_Send(sbig, dsizes[k], MPI_BYTE, right, 4, MPI_COMM_WORLD);
        MPI_Recv(rbig, dsizes[k], MPI_BYTE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(rbig, dsizes[k], MPI_BYTE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(sbig, dsizes[k], MPI_BYTE, right, 4, MPI_COMM_WORLD);
      }
    }

    /* E */
    MPI_Request e;
    MPI_Irecv(rbig, (int)(big / 2), MPI_BYTE, right, 9, MPI_COMM_WORLD, &e);
    compute(flops / 8);
    MPI_Send(sbig, (int)(big / 2), MPI_BYTE, left, 9, MPI_COMM_WORLD);
    MPI_Wait(&e, MPI_STATUS_IGNORE);
  }
  for (int k = 0; k < 3; k++) {
    free(cs[k]);
    free(cr[k]);
  }
  free(sbig);
  free(rbig);
  free(ssmall);
  free(rsmall);
  MPI_Finalize();
  return 0;
}
