/* Requests on a sub-communicator (a split into even and odd ranks, in reversed order), completed with
 * MPI_Wait, MPI_Waitall, MPI_Waitany and MPI_Test; then the same key on MPI_COMM_WORLD. With the
 * argument `merge`, a barrier also runs on a communicator the tracer does not know (an
 * intercommunicator between the halves, merged). */
#include "tt.h"
#include <string.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double s[4] = {1, 2, 3, 4}, r[4];
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int hr, hs;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  int to = (hr + 1) % hs, from = (hr + hs - 1) % hs;
  MPI_Request q[2];
  tt_work(20000);
  /* wait */
  MPI_Irecv(r, 4, MPI_DOUBLE, from, 3, half, &q[0]);
  MPI_Isend(s, 4, MPI_DOUBLE, to, 3, half, &q[1]);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  /* waitall */
  MPI_Irecv(r, 2, MPI_DOUBLE, from, 4, half, &q[0]);
  MPI_Isend(s, 2, MPI_DOUBLE, to, 4, half, &q[1]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  /* waitany, twice */
  MPI_Irecv(r, 1, MPI_DOUBLE, from, 5, half, &q[0]);
  MPI_Isend(s, 1, MPI_DOUBLE, to, 5, half, &q[1]);
  int index;
  MPI_Waitany(2, q, &index, MPI_STATUS_IGNORE);
  MPI_Waitany(2, q, &index, MPI_STATUS_IGNORE);
  /* test until done (the send is waited) */
  MPI_Irecv(r, 3, MPI_DOUBLE, from, 6, half, &q[0]);
  MPI_Isend(s, 3, MPI_DOUBLE, to, 6, half, &q[1]);
  int done = 0;
  while (!done)
    MPI_Test(&q[0], &done, MPI_STATUS_IGNORE);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  /* the same tag on the world, between world neighbours */
  MPI_Irecv(r, 4, MPI_DOUBLE, (rank + size - 1) % size, 3, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(s, 4, MPI_DOUBLE, (rank + 1) % size, 3, MPI_COMM_WORLD, &q[1]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  if (argc > 1 && strcmp(argv[1], "merge") == 0 && size > 1) {
    MPI_Comm inter, merged;
    /* leaders: rank 0 of each half, whose world ranks are the largest even and odd ranks */
    int other_leader = rank % 2 == 0 ? (size % 2 == 0 ? size - 1 : size - 2) : (size % 2 == 0 ? size - 2 : size - 1);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, other_leader, 9, &inter);
    MPI_Intercomm_merge(inter, rank % 2, &merged);
    MPI_Barrier(merged);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
