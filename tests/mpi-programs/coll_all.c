/* Unrooted collectives: MPI_Allreduce, MPI_Allgather, MPI_Allgatherv, MPI_Alltoall,
 * MPI_Alltoallv, MPI_Reduce_scatter (equal and unequal counts).
 *
 * usage: coll_all [BYTES [FLOPS]]   (defaults 200000 1e6)
 * For every shape of coll.h (1/2/4/8 elements of double/int/char/float, 8000 to 65536 bytes,
 * BYTES; sizes are per rank or per destination) each rank computes 1 to 4 x FLOPS (rank- and
 * step-dependent) before each of:
 *   - MPI_Allreduce (MPI_SUM or MPI_MAX);
 *   - MPI_Allgather, then MPI_Allgatherv with per-rank counts 0, count/2, count;
 *   - MPI_Alltoall, then MPI_Alltoallv with a count matrix M[i][j] in {0, count/2, count};
 *   - MPI_Reduce_scatter with equal counts (reduce to 0 + scatterv in SimGrid), then with
 *     unequal counts (count/2 + rank%3 ... : MPICH's recursive doubling).
 * Then a ring exchange alternating 1000 and BYTES chars (tag 5).
 * Finally the size bands of SimGrid's alltoall and reduce_scatter selectors that the shapes do not
 * reach: MPI_Alltoall of 3 chars and 64 chars per destination (linear vs pairwise with 2 ranks),
 * of 3 x BYTES bytes per destination (pairwise between 524288 and 1048575 bytes with 3 to 7
 * ranks; only run on a power-of-two number of ranks, see below) and of 6 x BYTES (pairwise from
 * 1048576 bytes with 2 ranks), and an unequal MPI_Reduce_scatter of more than 524288 elements
 * in total (MPICH's pairwise exchange). */
#include "coll.h"

/* w in {0, 1, 2} -> 0, count/2, count */
static int part(int count, int w)
{
  return w == 0 ? 0 : (w == 1 ? count / 2 : count);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes   = arg_long(argc, argv, 1, 200000);
  double flops = arg_double(argc, argv, 2, 1e6);
  if (size > MAX_RANKS) {
    fprintf(stderr, "coll_all: at most %d ranks\n", MAX_RANKS);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  shape_t shapes[MAX_SHAPES];
  int nshapes = shape_list(bytes, shapes);
  size_t maxb = (size_t)bytes * 6 + 64; /* the largest alltoall block */
  for (int s = 0; s < nshapes; s++)
    if (shape_bytes(shapes[s]) > maxb)
      maxb = shape_bytes(shapes[s]);
  char* sbuf = xalloc(maxb * size);
  char* rbuf = xalloc(maxb * size);
  char* p2ps = xalloc(bytes > 1000 ? bytes : 1000);
  char* p2pr = xalloc(bytes > 1000 ? bytes : 1000);
  int counts[MAX_RANKS], displs[MAX_RANKS];
  int scounts[MAX_RANKS], sdispls[MAX_RANKS], rcounts[MAX_RANKS], rdispls[MAX_RANKS];
  int step = 0;

  for (int s = 0; s < nshapes; s++) {
    shape_t sh = shapes[s];
    MPI_Op op  = s % 2 == 0 ? MPI_SUM : MPI_MAX;

    imbalance(rank, step++, flops);
    MPI_Allreduce(sbuf, rbuf, sh.count, sh.type, op, MPI_COMM_WORLD);

    imbalance(rank, step++, flops);
    MPI_Allgather(sbuf, sh.count, sh.type, rbuf, sh.count, sh.type, MPI_COMM_WORLD);
    int off = 0;
    for (int i = 0; i < size; i++) {
      counts[i] = part(sh.count, (i + s) % 3);
      displs[i] = off;
      off += counts[i];
    }
    imbalance(rank, step++, flops);
    MPI_Allgatherv(sbuf, counts[rank], sh.type, rbuf, counts, displs, sh.type, MPI_COMM_WORLD);

    imbalance(rank, step++, flops);
    MPI_Alltoall(sbuf, sh.count, sh.type, rbuf, sh.count, sh.type, MPI_COMM_WORLD);
    /* M[i][j] = part(count, (i + 2j + s) % 3): what rank i sends to rank j */
    int soff = 0, roff = 0;
    for (int j = 0; j < size; j++) {
      scounts[j] = part(sh.count, (rank + 2 * j + s) % 3);
      rcounts[j] = part(sh.count, (j + 2 * rank + s) % 3);
      sdispls[j] = soff;
      rdispls[j] = roff;
      soff += scounts[j];
      roff += rcounts[j];
    }
    imbalance(rank, step++, flops);
    MPI_Alltoallv(sbuf, scounts, sdispls, sh.type, rbuf, rcounts, rdispls, sh.type, MPI_COMM_WORLD);

    for (int i = 0; i < size; i++)
      counts[i] = sh.count;
    imbalance(rank, step++, flops);
    MPI_Reduce_scatter(sbuf, rbuf, counts, sh.type, op, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
      counts[i] = sh.count / 2 + i % 3; /* unequal as soon as there are 2 ranks */
    imbalance(rank, step++, flops);
    MPI_Reduce_scatter(sbuf, rbuf, counts, sh.type, MPI_SUM, MPI_COMM_WORLD);

    compute(flops / 2);
    ring_exchange(rank, size, p2ps, p2pr, s % 2 == 0 ? 1000 : (int)bytes, 5);
  }

  /* alltoall size bands (bytes per destination) */
  const int a2a[4] = {3, 64, (int)bytes * 3, (int)bytes * 6};
  int pow2 = (size & (size - 1)) == 0;
  for (int k = 0; k < 4; k++) {
    /* With 3 to 7 ranks, 524288 to 1048575 bytes select the pairwise algorithm, and SimGrid
     * 3.32's pairwise alltoall throws "alltoall pair algorithm can't be used with non power of
     * two number of processes!" (the traced run itself aborts): powers of two only. */
    if (k == 2 && !pow2)
      continue;
    imbalance(rank, step++, flops);
    MPI_Alltoall(sbuf, a2a[k], MPI_CHAR, rbuf, a2a[k], MPI_CHAR, MPI_COMM_WORLD);
  }
  /* unequal reduce_scatter of more than 524288 elements */
  for (int i = 0; i < size; i++)
    counts[i] = (int)(bytes * 3) / size + i;
  imbalance(rank, step++, flops);
  MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
  compute(flops);
  ring_exchange(rank, size, p2ps, p2pr, (int)bytes, 5);

  free(sbuf);
  free(rbuf);
  free(p2ps);
  free(p2pr);
  MPI_Finalize();
  return 0;
}
