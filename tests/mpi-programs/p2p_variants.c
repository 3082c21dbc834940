/* Point-to-point forms SimGrid's tracer writes but its replayer rejects: synchronous and buffered sends,
 * MPI_Waitany, MPI_Testall, and receives from any source. The reference is SMPI's online simulation. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static char buf[4][300000];
  static char attached[8 << 20];
  MPI_Buffer_attach(attached, sizeof attached);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request r[4];
  for (int it = 0; it < 3; it++) {
    int bytes = it == 1 ? 200000 : 1000;
    smpi_execute_flops(1e6 * (1 + (rank * 3 + it) % 4));
    /* synchronous ring: even ranks send first */
    if (rank % 2 == 0) {
      MPI_Ssend(buf[0], bytes, MPI_CHAR, right, it, MPI_COMM_WORLD);
      MPI_Recv(buf[1], bytes, MPI_CHAR, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf[1], bytes, MPI_CHAR, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Ssend(buf[0], bytes, MPI_CHAR, right, it, MPI_COMM_WORLD);
    }
    /* nonblocking synchronous and buffered sends, completed by waitany then waitall */
    MPI_Irecv(buf[2], bytes, MPI_CHAR, left, 10 + it, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(buf[3], bytes, MPI_CHAR, right, 20 + it, MPI_COMM_WORLD, &r[1]);
    MPI_Issend(buf[0], bytes, MPI_CHAR, right, 10 + it, MPI_COMM_WORLD, &r[2]);
    MPI_Ibsend(buf[0], bytes, MPI_CHAR, left, 20 + it, MPI_COMM_WORLD, &r[3]);
    int index;
    MPI_Waitany(4, r, &index, MPI_STATUS_IGNORE);
    smpi_execute_flops(5e5);
    int flag = 0;
    MPI_Testall(4, r, &flag, MPI_STATUSES_IGNORE);
    if (!flag)
      MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    /* rank 0 gathers one message from everyone else, from any source */
    if (rank == 0) {
      for (int i = 1; i < size; i++)
        MPI_Recv(buf[1], 100, MPI_CHAR, MPI_ANY_SOURCE, 30 + it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      smpi_execute_flops(2e5 * rank);
      MPI_Send(buf[0], 100, MPI_CHAR, 0, 30 + it, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}
