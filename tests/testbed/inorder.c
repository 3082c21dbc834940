/* In-order delivery between a pair of ranks (testbed/README.md, "D and E on four half-speed hosts").
 * Rank 1 posts K receives, rank 0 then sends K messages of SIZE bytes at once (MPI_Isend), and rank 1 prints
 * when each arrives (MPI_Waitany), from the barrier that precedes the sends: over TCP the messages of one
 * connection arrive one after the other, each at the whole link's rate; a model that shares the link fairly
 * among them delivers them all at the end.
 * usage: inorder [K [SIZE [ITERATIONS]]]   (default 4 messages of 32768 bytes, 5 iterations; 2 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int k = argc > 1 ? atoi(argv[1]) : 4;
  int bytes = argc > 2 ? atoi(argv[2]) : 32768;
  int iterations = argc > 3 ? atoi(argv[3]) : 5;
  if (size != 2 || k < 1 || k > 64 || bytes < 1 || iterations < 1) {
    if (rank == 0)
      fprintf(stderr, "inorder: 2 ranks; K in 1..64, SIZE and ITERATIONS positive\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char* buf = malloc((size_t)k * (size_t)bytes);
  MPI_Request* req = malloc(sizeof(MPI_Request) * (size_t)k);
  for (int it = 0; it < iterations; ++it) {
    if (rank == 1)
      for (int i = 0; i < k; ++i)
        MPI_Irecv(buf + (size_t)i * bytes, bytes, MPI_BYTE, 0, i, MPI_COMM_WORLD, &req[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    if (rank == 0) {
      for (int i = 0; i < k; ++i)
        MPI_Isend(buf + (size_t)i * bytes, bytes, MPI_BYTE, 1, i, MPI_COMM_WORLD, &req[i]);
      MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
    } else {
      printf("iteration %d: arrivals (ms)", it);
      for (int i = 0; i < k; ++i) {
        int which;
        MPI_Waitany(k, req, &which, MPI_STATUS_IGNORE);
        printf(" %.2f", (MPI_Wtime() - start) * 1e3);
      }
      printf("\n");
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  free(req);
  free(buf);
  MPI_Finalize();
  return 0;
}
