/* Nonblocking collectives overlapped with computation, waited with MPI_Wait and MPI_Waitall.
 * SimGrid's replayer rejects them: the reference is SMPI's online simulation of this program. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  static double buf[100000], out[100000];
  MPI_Request r[3];
  smpi_execute_flops(1e6 * (rank + 1));
  MPI_Ibcast(buf, 10000, MPI_DOUBLE, 1 % size, MPI_COMM_WORLD, &r[0]);
  smpi_execute_flops(2e6);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Iallreduce(buf, out, 100, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[1]);
  MPI_Ibarrier(MPI_COMM_WORLD, &r[2]);
  smpi_execute_flops(1e6);
  MPI_Waitall(2, &r[1], MPI_STATUSES_IGNORE);
  MPI_Ialltoall(buf, 1000, MPI_INT, out, 1000, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Igather(buf, 100, MPI_DOUBLE, out, 100, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
