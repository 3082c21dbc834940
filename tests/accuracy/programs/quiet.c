/* An MPI program that does not measure itself (no `span` line): what libtit-span.so is for. A ring of
 * point-to-point messages, an allreduce and some arithmetic, about 10 ms a rank.
 * Usage: quiet [thread]   (thread: MPI_Init_thread instead of MPI_Init) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  if (argc > 1 && strcmp(argv[1], "thread") == 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double buf[256] = {0}, sum = 0;
  for (int round = 0; round < 4; ++round) {
    for (long i = 1; i < 500000; ++i)
      sum += 1.0 / (double)i;
    if (size > 1) {
      MPI_Sendrecv_replace(buf, 256, MPI_DOUBLE, (rank + 1) % size, 1, (rank + size - 1) % size, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  if (sum <= 0)
    printf("unexpected sum %g\n", sum);
  return 0;
}
