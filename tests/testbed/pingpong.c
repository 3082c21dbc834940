/* Ping-pong of the testbed's what-if test: rank r < n/2 and rank r + n/2 exchange ROUNDS round trips
 * of SIZE bytes, each rank computing COMPUTE (a memory-bound kernel over 1 MiB, that many times)
 * before each message (an odd last rank only computes). With 2 ranks, ranks 0 and 1; with 4 ranks
 * on 4 hosts behind 2 switches, two pairs across the uplink at once (contention). Bulk transfers
 * whose time is set by the link rate, so that a what-if of the rate shows, with little sensitivity
 * to the scheduling delays of a loaded machine.
 * Usage: testbed-pingpong SIZE ROUNDS COMPUTE (defaults 2097152 3 20); prints `span RANK SECONDS`
 * after MPI_Finalize as the mini-applications do (app.h). */
#include "app.h"

static double kernel(double* a, long n, long times)
{
  double s = 0;
  for (long t = 0; t < times; ++t)
    for (long i = 0; i < n; ++i) {
      a[i] = a[i] * 0.999 + 1.0;
      s += a[i];
    }
  return s;
}

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long size = app_arg(argc, argv, 1, 2097152);
  long rounds = app_arg(argc, argv, 2, 3);
  long compute = app_arg(argc, argv, 3, 20);
  char* buf = malloc((size_t)size);
  double* a = app_alloc(131072);
  if (!buf) {
    fprintf(stderr, "error: out of memory (%ld bytes)\n", size);
    return 2;
  }
  memset(buf, 1, (size_t)size);
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int half = n / 2;
  volatile double sink = 0;
  for (long r = 0; r < rounds; ++r) {
    sink += kernel(a, 131072, compute);
    if (app_rank < half) {
      MPI_Send(buf, (int)size, MPI_CHAR, app_rank + half, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_CHAR, app_rank + half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (app_rank < 2 * half) {
      MPI_Recv(buf, (int)size, MPI_CHAR, app_rank - half, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sink += kernel(a, 131072, compute);
      MPI_Send(buf, (int)size, MPI_CHAR, app_rank - half, 0, MPI_COMM_WORLD);
    }
  }
  (void)sink;
  free(buf);
  free(a);
  app_finalize();
  return 0;
}
