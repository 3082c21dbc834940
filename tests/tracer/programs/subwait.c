/* MPI_Waitall over some of the pending requests only, as LULESH waits for its sends: receives from both ring
 * neighbours posted, sends to both, MPI_Waitall on the two sends, a computation, then MPI_Wait on each receive.
 * A trace's `waitall` completes every pending request, so this waitall must be written as the waits of its two
 * sends. Then with messages of one double, whose sends Open MPI may complete at once, returning one request handle
 * for both (the tracer tells them apart by their order); then with a persistent receive started and pending; then a
 * waitall over every pending request, written as `waitall`. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static double in[2][1000], out[2][1000], pin[1000];
  MPI_Request recv[2], send[2], precv;
  for (int it = 0; it < 2; it++) {
    tt_work(100000);
    MPI_Irecv(in[0], 1000, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &recv[0]);
    MPI_Irecv(in[1], 1000, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &recv[1]);
    MPI_Isend(out[0], 1000, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &send[0]);
    MPI_Isend(out[1], 1000, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &send[1]);
    MPI_Waitall(2, send, MPI_STATUSES_IGNORE);
    tt_work(100000);
    MPI_Wait(&recv[0], MPI_STATUS_IGNORE);
    MPI_Wait(&recv[1], MPI_STATUS_IGNORE);
  }
  /* one double: Open MPI completes such sends at once and may return one shared request for both */
  MPI_Irecv(in[0], 1, MPI_DOUBLE, prev, 5, MPI_COMM_WORLD, &recv[0]);
  MPI_Irecv(in[1], 1, MPI_DOUBLE, next, 6, MPI_COMM_WORLD, &recv[1]);
  MPI_Isend(out[0], 1, MPI_DOUBLE, next, 5, MPI_COMM_WORLD, &send[0]);
  MPI_Isend(out[1], 1, MPI_DOUBLE, prev, 6, MPI_COMM_WORLD, &send[1]);
  MPI_Waitall(2, send, MPI_STATUSES_IGNORE);
  MPI_Wait(&recv[0], MPI_STATUS_IGNORE);
  MPI_Wait(&recv[1], MPI_STATUS_IGNORE);
  MPI_Recv_init(pin, 1000, MPI_DOUBLE, prev, 3, MPI_COMM_WORLD, &precv);
  MPI_Start(&precv);
  MPI_Isend(out[0], 1000, MPI_DOUBLE, next, 3, MPI_COMM_WORLD, &send[0]);
  MPI_Waitall(1, send, MPI_STATUSES_IGNORE);
  tt_work(100000);
  MPI_Wait(&precv, MPI_STATUS_IGNORE);
  MPI_Request_free(&precv);
  MPI_Irecv(in[0], 1000, MPI_DOUBLE, prev, 4, MPI_COMM_WORLD, &recv[0]);
  MPI_Isend(out[0], 1000, MPI_DOUBLE, next, 4, MPI_COMM_WORLD, &send[0]);
  recv[1] = send[0];
  MPI_Waitall(2, recv, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
