/* One collective on MPI_COMM_WORLD, for SMPI's online simulation (algorithms.sh --reference, where SimGrid's
 * replayer aborts): argv[1] is bcast, reduce or allreduce, argv[2] the count of bytes; root 0. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int count = argc > 2 ? atoi(argv[2]) : 8;
  char* in = calloc((size_t)count + 1, 1);
  char* out = calloc((size_t)count + 1, 1);
  if (argc > 1 && strcmp(argv[1], "bcast") == 0)
    MPI_Bcast(in, count, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (argc > 1 && strcmp(argv[1], "reduce") == 0)
    MPI_Reduce(in, out, count, MPI_BYTE, MPI_BOR, 0, MPI_COMM_WORLD);
  else
    MPI_Allreduce(in, out, count, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
