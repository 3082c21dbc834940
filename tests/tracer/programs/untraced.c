/* MPI routines the tracer does not trace (tracer/README.md, "Untraced routines"): a window, a fence epoch with a
 * put to the next rank, and a probe; the test (tests/tracer/run.sh, case untraced) checks that the trace and stderr
 * name them with their counts. */
#include <mpi.h>

int main(int argc, char** argv)
{
  int rank, size, flag;
  double local[4] = {0, 0, 0, 0}, x = 1;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Win_create(local, sizeof local, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(&x, 1, MPI_DOUBLE, (rank + 1) % size, 0, 1, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
