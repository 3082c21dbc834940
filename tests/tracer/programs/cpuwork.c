/* Compute bursts of known CPU time, for checking the tracer's cpu-time volumes. Each burst sits between
 * two MPI_Barrier calls; the program measures it itself with CLOCK_THREAD_CPUTIME_ID and prints
 * "burst <rank> <index> <cpu_ns>" lines.
 *
 *   cpuwork BURSTS WORK SLEEPS   each burst: WORK loop iterations, then SLEEPS usleep(20) calls on odd
 *                                bursts (voluntary context switches: time off the CPU inside a burst)
 */
#include "tt.h"

#include <time.h>
#include <unistd.h>

static long long thread_cpu_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long bursts = tt_arg(argc, argv, 1, 4);
  long work = tt_arg(argc, argv, 2, 20000000);
  long sleeps = tt_arg(argc, argv, 3, 0);
  long long cpu[64];
  if (bursts > 64)
    bursts = 64;
  for (long b = 0; b < bursts; b++) {
    MPI_Barrier(MPI_COMM_WORLD);
    long long c0 = thread_cpu_ns();
    tt_work(work);
    if (b % 2 == 1)
      for (long s = 0; s < sleeps; s++)
        usleep(20);
    cpu[b] = thread_cpu_ns() - c0;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (long b = 0; b < bursts; b++)
    printf("burst %d %ld %lld\n", rank, b, cpu[b]);
  MPI_Finalize();
  return 0;
}
