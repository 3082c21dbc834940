/* Rooted collectives: MPI_Bcast, MPI_Reduce, MPI_Gather, MPI_Gatherv, MPI_Scatter, MPI_Scatterv.
 *
 * usage: coll_rooted [BYTES [FLOPS]]   (defaults 200000 1e6)
 * For every shape of coll.h (1/2/4/8 elements of double/int/char/float, 8000 to 65536 bytes,
 * BYTES) and every root (0, the last rank, size/2), each rank computes 1 to 4 x FLOPS (rank-
 * and step-dependent) and calls the six collectives in turn with that root. The v variants use
 * per-rank counts of 0, count/2 and count (rotating with the rank, the root and the shape), so
 * some messages are empty. Point-to-point traffic: after each shape a ring exchange alternating
 * 1000 and BYTES chars (tag 5); for every third shape, rank 0 MPI_Isends BYTES chars to the last
 * rank (tag 6) before the first bcast and waits for it after the last scatterv, while the last
 * rank receives it with a blocking MPI_Recv only then (the collectives' own messages must not
 * match it). Reductions use MPI_SUM and MPI_MAX (commutative: SimGrid's replay reduces
 * with MPI_OP_NULL, which follows the commutative paths). */
#include "coll.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes   = arg_long(argc, argv, 1, 200000);
  double flops = arg_double(argc, argv, 2, 1e6);
  if (size > MAX_RANKS) {
    fprintf(stderr, "coll_rooted: at most %d ranks\n", MAX_RANKS);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  shape_t shapes[MAX_SHAPES];
  int nshapes = shape_list(bytes, shapes);
  int roots[3];
  int nroots = root_list(size, roots);
  size_t maxb = 0;
  for (int s = 0; s < nshapes; s++)
    if (shape_bytes(shapes[s]) > maxb)
      maxb = shape_bytes(shapes[s]);
  char* sbuf = xalloc(maxb * size);
  char* rbuf = xalloc(maxb * size);
  char* p2ps = xalloc(bytes > 1000 ? bytes : 1000);
  char* p2pr = xalloc(bytes > 1000 ? bytes : 1000);
  int counts[MAX_RANKS], displs[MAX_RANKS];
  int last = size - 1;
  int step = 0;

  for (int s = 0; s < nshapes; s++) {
    shape_t sh = shapes[s];
    MPI_Request side = MPI_REQUEST_NULL;
    if (s % 3 == 1 && last != 0 && rank == 0)
      MPI_Isend(p2ps, (int)bytes, MPI_CHAR, last, 6, MPI_COMM_WORLD, &side);
    for (int k = 0; k < nroots; k++) {
      int root = roots[k];
      /* v-variant counts: 0, count/2, count rotating with rank and root; displacements packed */
      int off = 0;
      for (int i = 0; i < size; i++) {
        int w     = (i + root + s) % 3;
        counts[i] = w == 0 ? 0 : (w == 1 ? sh.count / 2 : sh.count);
        displs[i] = off;
        off += counts[i];
      }
      MPI_Op op = (s + k) % 2 == 0 ? MPI_SUM : MPI_MAX;

      imbalance(rank, step++, flops);
      MPI_Bcast(sbuf, sh.count, sh.type, root, MPI_COMM_WORLD);
      imbalance(rank, step++, flops);
      MPI_Reduce(sbuf, rbuf, sh.count, sh.type, op, root, MPI_COMM_WORLD);
      imbalance(rank, step++, flops);
      /* recvcount is not significant on non-roots, but it must not be 0 there: SMPI's tracer omits
       * a 0 receive count from the line and SimGrid's replay then misreads the root (see README) */
      MPI_Gather(sbuf, sh.count, sh.type, rbuf, sh.count, sh.type, root, MPI_COMM_WORLD);
      imbalance(rank, step++, flops);
      MPI_Gatherv(sbuf, counts[rank], sh.type, rbuf, counts, displs, sh.type, root, MPI_COMM_WORLD);
      imbalance(rank, step++, flops);
      MPI_Scatter(sbuf, rank == root ? sh.count : 0, sh.type, rbuf, sh.count, sh.type, root, MPI_COMM_WORLD);
      imbalance(rank, step++, flops);
      MPI_Scatterv(sbuf, counts, displs, sh.type, rbuf, counts[rank], sh.type, root, MPI_COMM_WORLD);
    }
    if (s % 3 == 1 && last != 0) {
      if (rank == 0)
        MPI_Wait(&side, MPI_STATUS_IGNORE);
      if (rank == last)
        MPI_Recv(p2pr, (int)bytes, MPI_CHAR, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    compute(flops / 2);
    ring_exchange(rank, size, p2ps, p2pr, s % 2 == 0 ? 1000 : (int)bytes, 5);
  }
  free(sbuf);
  free(rbuf);
  free(p2ps);
  free(p2pr);
  MPI_Finalize();
  return 0;
}
