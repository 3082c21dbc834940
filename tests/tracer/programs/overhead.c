/* Overhead benchmark programs: communication loops with many small messages. Rank 0 prints the wall
 * time of the loop ("loop seconds: S") and the MPI calls it made in it ("calls: N").
 *
 *   overhead pingpong ITERATIONS [WORK]  8-byte ping-pongs between rank pairs (2r, 2r+1) and an 8-byte
 *                                         allreduce every 16 iterations; WORK loop iterations of
 *                                         computation between the ping-pongs (default 0)
 *   overhead halo ITERATIONS [WORK]      a ring halo exchange: Irecv/Isend 64 bytes to both neighbours,
 *                                         Waitall, WORK loop iterations of computation, an 8-byte
 *                                         allreduce every 16 steps
 *   overhead self ITERATIONS             each rank sends 8 bytes to itself and receives them: no
 *                                         partner, so the difference with and without the tracer is
 *                                         the tracer's cost per call
 *   overhead ITERATIONS                  = pingpong ITERATIONS (older form)
 */
#include "tt.h"

#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = "pingpong";
  int a = 1;
  if (argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9')) {
    mode = argv[1];
    a = 2;
  }
  long iters = tt_arg(argc, argv, a, 20000);
  long work = tt_arg(argc, argv, a + 1, 0);
  char msg[64] = {0}, in[2][64];
  double x = 1, y;
  long calls = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  if (strcmp(mode, "pingpong") == 0) {
    int peer = rank ^ 1;
    for (long i = 0; i < iters; i++) {
      if (peer < size) {
        if (rank < peer) {
          MPI_Send(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
          MPI_Recv(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(msg, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
        }
        calls += 2;
      }
      if (work > 0)
        tt_work(work);
      if (i % 16 == 0) {
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        calls++;
      }
    }
  } else if (strcmp(mode, "halo") == 0) {
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Request req[4];
    for (long i = 0; i < iters; i++) {
      MPI_Irecv(in[0], 64, MPI_CHAR, left, 1, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(in[1], 64, MPI_CHAR, right, 2, MPI_COMM_WORLD, &req[1]);
      MPI_Isend(msg, 64, MPI_CHAR, right, 1, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(msg, 64, MPI_CHAR, left, 2, MPI_COMM_WORLD, &req[3]);
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      calls += 5;
      if (work > 0)
        tt_work(work);
      if (i % 16 == 0) {
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        calls++;
      }
    }
  } else if (strcmp(mode, "self") == 0) {
    for (long i = 0; i < iters; i++) {
      MPI_Send(msg, 8, MPI_CHAR, rank, 0, MPI_COMM_WORLD);
      MPI_Recv(in[0], 8, MPI_CHAR, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      calls += 2;
    }
  } else {
    if (rank == 0)
      fprintf(stderr, "overhead: unknown mode '%s' (pingpong, halo, self)\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  t = MPI_Wtime() - t;
  if (rank == 0)
    printf("loop seconds: %.6f\ncalls: %ld\n", t, calls);
  MPI_Finalize();
  return 0;
}
