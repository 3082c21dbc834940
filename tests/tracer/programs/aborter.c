/* Rank 1 sends one message, then calls MPI_Abort while rank 0 waits for a second one. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, v[10] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    MPI_Send(v, 10, MPI_INT, 0, 5, MPI_COMM_WORLD);
    tt_work(10000);
    MPI_Abort(MPI_COMM_WORLD, 3);
  } else if (rank == 0) {
    MPI_Recv(v, 10, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(v, 10, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
