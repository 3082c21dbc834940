/* Sub-communicators: split into even/odd ranks, dup, create from a group, a Cartesian grid; point-to-
 * point and collectives on each; comm_free. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double v[100] = {0}, w[100];
  MPI_Comm half, dup, firsts, cart;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* reversed order inside each half */
  int hr, hs;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  tt_work(50000);
  MPI_Bcast(v, 10, MPI_DOUBLE, hs - 1, half);
  MPI_Allreduce(v, w, 5, MPI_DOUBLE, MPI_SUM, half);
  if (hs > 1) { /* ring inside the half, by half ranks */
    int to = (hr + 1) % hs, from = (hr + hs - 1) % hs;
    MPI_Sendrecv(v, 3, MPI_DOUBLE, to, 4, w, 3, MPI_DOUBLE, from, 4, half, MPI_STATUS_IGNORE);
  }
  MPI_Comm_dup(half, &dup);
  MPI_Barrier(dup);
  MPI_Comm_free(&dup);
  /* the first three world ranks (or fewer) */
  MPI_Group world_group, first_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int n = size < 3 ? size : 3, members[3] = {2, 0, 1};
  if (n < 3)
    members[0] = 0, members[1] = 1;
  MPI_Group_incl(world_group, n, members, &first_group);
  MPI_Comm_create(MPI_COMM_WORLD, first_group, &firsts);
  if (firsts != MPI_COMM_NULL) {
    MPI_Gather(v, 2, MPI_INT, w, 2, MPI_INT, 0, firsts);
    MPI_Comm_free(&firsts);
  }
  MPI_Group_free(&first_group);
  MPI_Group_free(&world_group);
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, 0, &firsts); /* rank 0 gets COMM_NULL */
  if (firsts != MPI_COMM_NULL) {
    MPI_Barrier(firsts);
    MPI_Comm_free(&firsts);
  }
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  int src, dst;
  MPI_Cart_shift(cart, 0, 1, &src, &dst);
  MPI_Sendrecv(v, 4, MPI_DOUBLE, dst, 6, w, 4, MPI_DOUBLE, src, 6, cart, MPI_STATUS_IGNORE);
  MPI_Allgather(v, 1, MPI_DOUBLE, w, 1, MPI_DOUBLE, cart);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
