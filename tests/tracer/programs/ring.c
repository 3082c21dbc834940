/* Blocking token ring, both directions, with compute between the messages. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = tt_arg(argc, argv, 1, 3);
  static double buf[4096];
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (long it = 0; it < iters; it++) {
    tt_work(200000 * (rank + 1));
    if (rank == 0) {
      MPI_Send(buf, 1000, MPI_DOUBLE, next, 7, MPI_COMM_WORLD);
      MPI_Recv(buf, 1000, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, 1000, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 1000, MPI_DOUBLE, next, 7, MPI_COMM_WORLD);
    }
  }
  /* the other way, with ints */
  if (rank == 0) {
    MPI_Send(buf, 250, MPI_INT, prev, 8, MPI_COMM_WORLD);
    MPI_Recv(buf, 250, MPI_INT, next, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(buf, 250, MPI_INT, next, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, 250, MPI_INT, prev, 8, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
