/* Prefix reductions and barriers: MPI_Scan, MPI_Exscan, MPI_Barrier.
 *
 * usage: coll_scan [BYTES [FLOPS]]   (defaults 200000 1e6)
 * For every shape of coll.h (1/2/4/8 elements of double/int/char/float, 8000 to 65536 bytes,
 * BYTES) each rank computes 1 to 4 x FLOPS (rank- and step-dependent) before an MPI_Scan, an
 * MPI_Exscan (MPI_SUM or MPI_MAX) and an MPI_Barrier. Point-to-point traffic in between:
 * before the barrier of every other shape, rank r MPI_Isends 1000 chars (tag 3) and BYTES chars
 * (tag 4) to rank (r + 2) mod size, which receives them with blocking MPI_Recvs after the
 * barrier (the barrier's own messages must not match them), then a ring exchange alternating
 * 1000 and BYTES chars (tag 5). Two back-to-back barriers end the program. */
#include "coll.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes   = arg_long(argc, argv, 1, 200000);
  double flops = arg_double(argc, argv, 2, 1e6);

  shape_t shapes[MAX_SHAPES];
  int nshapes = shape_list(bytes, shapes);
  size_t maxb = 0;
  for (int s = 0; s < nshapes; s++)
    if (shape_bytes(shapes[s]) > maxb)
      maxb = shape_bytes(shapes[s]);
  char* sbuf = xalloc(maxb);
  char* rbuf = xalloc(maxb);
  size_t pb  = bytes > 1000 ? (size_t)bytes : 1000;
  char* p2ps = xalloc(pb);
  char* p2pr = xalloc(pb);
  char* sides = xalloc(pb + 1000);
  char* sider = xalloc(pb + 1000);
  int to   = (rank + 2) % size;
  int from = ((rank - 2) % size + size) % size;
  int step = 0;

  for (int s = 0; s < nshapes; s++) {
    shape_t sh = shapes[s];
    MPI_Op op  = s % 2 == 0 ? MPI_SUM : MPI_MAX;
    imbalance(rank, step++, flops);
    MPI_Scan(sbuf, rbuf, sh.count, sh.type, op, MPI_COMM_WORLD);
    imbalance(rank, step++, flops);
    MPI_Exscan(sbuf, rbuf, sh.count, sh.type, op, MPI_COMM_WORLD);

    int side = s % 2 == 1 && to != rank;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (side) {
      MPI_Isend(sides, 1000, MPI_CHAR, to, 3, MPI_COMM_WORLD, &req[0]);
      MPI_Isend(sides + 1000, (int)bytes, MPI_CHAR, to, 4, MPI_COMM_WORLD, &req[1]);
    }
    imbalance(rank, step++, flops);
    MPI_Barrier(MPI_COMM_WORLD);
    if (side) {
      MPI_Recv(sider, 1000, MPI_CHAR, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      compute(flops / 4);
      MPI_Recv(sider + 1000, (int)bytes, MPI_CHAR, from, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    compute(flops / 2);
    ring_exchange(rank, size, p2ps, p2pr, s % 2 == 0 ? 1000 : (int)bytes, 5);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  free(sbuf);
  free(rbuf);
  free(p2ps);
  free(p2pr);
  free(sides);
  free(sider);
  MPI_Finalize();
  return 0;
}
