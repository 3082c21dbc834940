/* Persistent requests: a ring exchange restarted every iteration with MPI_Startall and MPI_Start. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  static double sbuf[3000], rbuf[3000];
  MPI_Request r[2];
  MPI_Recv_init(rbuf, 3000, MPI_DOUBLE, prev, 9, MPI_COMM_WORLD, &r[0]);
  MPI_Send_init(sbuf, 3000, MPI_DOUBLE, next, 9, MPI_COMM_WORLD, &r[1]);
  for (int it = 0; it < 3; it++) {
    tt_work(100000);
    MPI_Startall(2, r);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  MPI_Start(&r[0]);
  MPI_Start(&r[1]);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  MPI_Finalize();
  return 0;
}
