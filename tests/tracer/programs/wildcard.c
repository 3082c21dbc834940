/* Receives from MPI_ANY_SOURCE / MPI_ANY_TAG, made deterministic by rank 0 letting one sender go at
 * a time; then an MPI_Irecv from MPI_ANY_SOURCE waited with MPI_Wait. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int token = 0;
  double v[8];
  MPI_Status st;
  if (rank == 0) {
    for (int i = 1; i < size; i++) {
      MPI_Send(&token, 1, MPI_INT, i, 0, MPI_COMM_WORLD);
      MPI_Recv(v, 8, MPI_DOUBLE, MPI_ANY_SOURCE, 10 + i, MPI_COMM_WORLD, &st);
      MPI_Recv(v, 4, MPI_DOUBLE, i, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 1; i < size; i++) {
      MPI_Request r;
      MPI_Irecv(v, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, &r);
      MPI_Send(&token, 1, MPI_INT, i, 0, MPI_COMM_WORLD);
      MPI_Wait(&r, &st);
    }
  } else {
    MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    tt_work(50000);
    MPI_Send(v, 8, MPI_DOUBLE, 0, 10 + rank, MPI_COMM_WORLD);
    MPI_Send(v, 4, MPI_DOUBLE, 0, 20 + rank, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(v, 2, MPI_DOUBLE, 0, 30, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
