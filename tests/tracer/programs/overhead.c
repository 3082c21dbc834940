/* Overhead benchmark: many small messages (ping-pong between rank pairs, and small allreduces). Prints
 * the wall time of the communication loop on rank 0. Arguments: ITERATIONS (default 20000). */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long iters = tt_arg(argc, argv, 1, 20000);
  int peer = rank ^ 1;
  char msg[8] = {0};
  double x = 1, y;
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  for (long i = 0; i < iters; i++) {
    if (peer < size) {
      if (rank < peer) {
        MPI_Send(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
      }
    }
    if (i % 16 == 0)
      MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  t = MPI_Wtime() - t;
  if (rank == 0)
    printf("loop seconds: %.6f\n", t);
  MPI_Finalize();
  return 0;
}
