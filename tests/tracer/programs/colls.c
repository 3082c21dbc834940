/* Every collective, blocking then nonblocking, with roots 0 and last, a derived datatype, in-place
 * forms and v-variants with unequal counts. */
#include "tt.h"
#include <string.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int last = size - 1;
  enum { N = 64 };
  static double s[N * 16], r[N * 16];
  int counts[16], displs[16], mine[16]; /* counts[i] = i + 1 to rank i; mine[i] = rank + 1 from rank i */
  for (int i = 0; i < size; i++) {
    counts[i] = i + 1;
    mine[i] = rank + 1;
    displs[i] = i * N;
  }
  MPI_Datatype vec; /* 3 blocks of 2 doubles, stride 4: 48 bytes packed */
  MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);

  tt_work(100000);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(s, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(s, 2, vec, last, MPI_COMM_WORLD);
  MPI_Reduce(s, r, N, MPI_DOUBLE, MPI_SUM, last, MPI_COMM_WORLD);
  MPI_Allreduce(s, r, 10, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, r, 10, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Gather(s, 5, MPI_DOUBLE, r, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatter(s, 6, MPI_FLOAT, r, 6, MPI_FLOAT, last, MPI_COMM_WORLD);
  MPI_Allgather(s, 7, MPI_INT, r, 7, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall(s, 3, MPI_DOUBLE, r, 3, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Gatherv(s, rank + 1, MPI_DOUBLE, r, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Scatterv(s, counts, displs, MPI_DOUBLE, r, rank + 1, MPI_DOUBLE, last, MPI_COMM_WORLD);
  MPI_Allgatherv(s, rank + 1, MPI_DOUBLE, r, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Alltoallv(s, counts, displs, MPI_DOUBLE, r, mine, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Reduce_scatter(s, r, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(s, r, 4, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(s, r, 4, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  tt_work(100000);

  MPI_Request q[4];
  MPI_Ibarrier(MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Ibcast(s, N, MPI_DOUBLE, last, MPI_COMM_WORLD, &q[0]);
  MPI_Ireduce(s, r, N, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &q[1]);
  MPI_Iallreduce(s, r, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[2]);
  tt_work(50000);
  MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
  MPI_Igather(s, 2, MPI_INT, r, 2, MPI_INT, last, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Iscatter(s, 2, MPI_INT, r, 2, MPI_INT, 0, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Iallgather(s, 3, MPI_INT, r, 3, MPI_INT, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Ialltoall(s, 4, MPI_INT, r, 4, MPI_INT, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Igatherv(s, rank + 1, MPI_DOUBLE, r, counts, displs, MPI_DOUBLE, last, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Iscatterv(s, counts, displs, MPI_DOUBLE, r, rank + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Iallgatherv(s, rank + 1, MPI_DOUBLE, r, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Ialltoallv(s, counts, displs, MPI_DOUBLE, r, mine, displs, MPI_DOUBLE, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Ireduce_scatter(s, r, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Iscan(s, r, 4, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Iexscan(s, r, 4, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &q[0]);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Type_free(&vec);
  MPI_Finalize();
  return 0;
}
