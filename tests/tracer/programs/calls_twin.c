/* The C twin of fcalls.f90: the same MPI calls in the same order (tests/tracer/run.sh, case
 * fortran-twin), so that the Fortran entry points can be checked against the C ones. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Fortran's DOUBLE PRECISION (Open MPI's mpi.h has it): the tracer writes the same lines as for fcalls.f90 */
#ifdef MPI_DOUBLE_PRECISION
#define DP MPI_DOUBLE_PRECISION
#else
#define DP MPI_DOUBLE
#endif

int main(int argc, char** argv)
{
  int rank, np;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int nxt = (rank + 1) % np, prv = (rank + np - 1) % np;
  int* counts = malloc(sizeof(int) * (size_t)np);
  int* displs = malloc(sizeof(int) * (size_t)np);
  int* index = malloc(sizeof(int) * (size_t)np);
  int* edges = malloc(sizeof(int) * 2 * (size_t)np);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * (size_t)np);
  double a[64], b[64], x = rank, y;
  for (int i = 0; i < 64; ++i)
    a[i] = rank;
  /* communicators */
  int dims[2] = {2, np / 2}, periods[2] = {1, 0}, remain[2] = {0, 1};
  MPI_Comm cart, row, dup, shm, evens, evens2, graph;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Barrier(cart);
  MPI_Cart_sub(cart, remain, &row);
  MPI_Allreduce(&x, &y, 1, DP, MPI_SUM, row);
  MPI_Comm_free(&row);
  MPI_Comm_free(&cart);
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup);
  MPI_Barrier(dup);
  MPI_Comm_free(&dup);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
  MPI_Barrier(shm);
  MPI_Comm_free(&shm);
  int half = (np + 1) / 2;
  int* ranks = malloc(sizeof(int) * (size_t)half);
  for (int i = 0; i < half; ++i)
    ranks[i] = 2 * i;
  MPI_Group wgrp, egrp;
  MPI_Comm_group(MPI_COMM_WORLD, &wgrp);
  MPI_Group_incl(wgrp, half, ranks, &egrp);
  MPI_Comm_create(MPI_COMM_WORLD, egrp, &evens);
  if (rank % 2 == 0) {
    MPI_Barrier(evens);
    MPI_Comm_free(&evens);
    MPI_Comm_create_group(MPI_COMM_WORLD, egrp, 7, &evens2);
    MPI_Barrier(evens2);
    MPI_Comm_free(&evens2);
  }
  MPI_Group_free(&egrp);
  MPI_Group_free(&wgrp);
  for (int i = 0; i < np; ++i) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i + 1) % np;
    edges[2 * i + 1] = (i + np - 1) % np;
  }
  MPI_Graph_create(MPI_COMM_WORLD, np, index, edges, 0, &graph);
  MPI_Barrier(graph);
  MPI_Comm_free(&graph);
  /* completions */
  MPI_Request reqs[2], req;
  int idx, outcount, indices[2], flag;
  MPI_Irecv(b, 8, DP, prv, 1, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(a, 8, DP, nxt, 1, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
  MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
  MPI_Irecv(b, 8, DP, prv, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Send(a, 8, DP, nxt, 2, MPI_COMM_WORLD);
  MPI_Waitsome(1, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
  MPI_Irecv(b, 8, DP, prv, 3, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(a, 8, DP, nxt, 3, MPI_COMM_WORLD, &reqs[1]);
  for (flag = 0; !flag;)
    MPI_Testall(2, reqs, &flag, MPI_STATUSES_IGNORE);
  MPI_Irecv(b, 8, DP, prv, 4, MPI_COMM_WORLD, &req);
  MPI_Send(a, 8, DP, nxt, 4, MPI_COMM_WORLD);
  for (flag = 0; !flag;)
    MPI_Testany(1, &req, &idx, &flag, MPI_STATUS_IGNORE);
  MPI_Irecv(b, 8, DP, prv, 5, MPI_COMM_WORLD, &reqs[0]);
  MPI_Send(a, 8, DP, nxt, 5, MPI_COMM_WORLD);
  for (outcount = 0; outcount < 1;)
    MPI_Testsome(1, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
  MPI_Sendrecv_replace(a, 4, DP, nxt, 6, prv, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Status statuses[2];
  MPI_Recv_init(b, 8, DP, prv, 7, MPI_COMM_WORLD, &reqs[0]);
  MPI_Send_init(a, 8, DP, nxt, 7, MPI_COMM_WORLD, &reqs[1]);
  MPI_Startall(2, reqs);
  MPI_Waitall(2, reqs, statuses);
  if (statuses[0].MPI_SOURCE != prv)
    printf("unexpected source %d\n", statuses[0].MPI_SOURCE);
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  /* vector and scan collectives */
  for (int i = 0; i < np; ++i) {
    counts[i] = i + 1;
    displs[i] = i;
    types[i] = DP;
  }
  MPI_Gatherv(a, rank + 1, DP, b, counts, displs, DP, 0, MPI_COMM_WORLD);
  MPI_Scatterv(a, counts, displs, DP, b, rank + 1, DP, 1, MPI_COMM_WORLD);
  MPI_Allgatherv(a, rank + 1, DP, b, counts, displs, DP, MPI_COMM_WORLD);
  for (int i = 0; i < np; ++i) {
    counts[i] = 2;
    displs[i] = 2 * i;
  }
  MPI_Alltoallv(a, counts, displs, DP, b, counts, displs, DP, MPI_COMM_WORLD);
  for (int i = 0; i < np; ++i)
    displs[i] = 16 * i;
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
  MPI_Reduce_scatter(a, b, counts, DP, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(a, b, 3, DP, MPI_MAX, MPI_COMM_WORLD);
  MPI_Scan(&x, &y, 1, DP, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&x, &y, 1, DP, MPI_SUM, MPI_COMM_WORLD);
  /* nonblocking collectives, each waited for */
  for (int i = 0; i < np; ++i)
    displs[i] = 2 * i;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Ibcast(a, 5, DP, 1, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iallreduce(&x, &y, 1, DP, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Ireduce(a, b, 3, DP, MPI_SUM, 0, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iallgather(a, 2, DP, b, 2, DP, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Ialltoall(a, 2, DP, b, 2, DP, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Igather(a, 2, DP, b, 2, DP, 1, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iscatter(a, 2, DP, b, 2, DP, 0, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iallgatherv(a, 2, DP, b, counts, displs, DP, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Ialltoallv(a, counts, displs, DP, b, counts, displs, DP, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Igatherv(a, 2, DP, b, counts, displs, DP, 0, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iscatterv(a, counts, displs, DP, b, 2, DP, 1, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iscan(&x, &y, 1, DP, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Iexscan(&x, &y, 1, DP, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Ireduce_scatter(a, b, counts, DP, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Ireduce_scatter_block(a, b, 3, DP, MPI_MIN, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  free(counts);
  free(displs);
  free(index);
  free(edges);
  free(types);
  free(ranks);
  MPI_Finalize();
  return 0;
}
