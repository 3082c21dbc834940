/* A halo-exchange stencil of known scaling, for tests/extrapolate/run.sh (docs/extrapolation.md).
 *
 * usage: stencil [key=value ...]   (compiled with smpicc; run with --cfg=smpi/simulate-computation:no)
 *   dims=D       1, 2 or 3: the process grid, as MPI_Dims_create specifies it (the most balanced factorisation,
 *                non-increasing; SMPI 3.32's own MPI_Dims_create gives 9 x 1 for 9 ranks and 9 x 4 for 36, so it is
 *                computed here), numbered as MPI_Cart_create numbers it (the last dimension varies fastest)
 *   bisection=0|1  the ranks numbered by recursive bisection instead (miniFE's box_partition; the rank count a power of
 *                two): the box is halved along dimension 0, 1, 2, 0, ... in turn, the lower half of the ranks taking the
 *                lower half of the box; the grid has 2^(the halvings along it) ranks along each dimension;
 *                bisection=2: the box halved along the dimension with the most cells left, ties to the lowest
 *                (miniAMR's initial partition by recursive coordinate bisection)
 *   splits=0|1   before the iterations, miniAMR's communicators of that bisection: log2(size) MPI_Comm_split in a
 *                row, each of the previous one's communicator into its halves (colour: the rank in it over half its
 *                size; key: the rank in it), then an MPI_Allreduce on the first one (traced by our tracer: SMPI's
 *                writes no comm_split)
 *   byrank=0|1   the receives and the sends of each iteration in the order of the neighbours' ranks, not of their
 *                directions (miniFE lists its neighbours so: on a grid numbered by bisection, the ranks of one position
 *                class then name their neighbours' offsets in different orders)
 *   periodic=0|1 neighbours across the boundary (default 0)
 *   iters=I      iterations (default 4); pow2=1 makes it 2^size (no function of the family fits)
 *   n=N          the global domain's side per dimension (strong scaling; default 120), or the local one (weak)
 *   scaling=s|w  strong (local side n / dims[k]) or weak (local side n) (default s)
 *   uneven=0|1   strong scaling: the first n % dims[k] ranks along dimension k get one cell more (a block partition that
 *                does not divide evenly: faces that differ by a cell between ranks of one position class)
 *   coll=0|1     a CG-like iteration: two MPI_Allreduce of one double (and a first MPI_Bcast from rank 0)
 *   checks=0|1   with coll=1, two more MPI_Allreduce in the iterations where (7 * it + size) % 5 is 0 (miniFE's CG
 *                checks for breakdown at iterations that its data decide, which differ with the rank count)
 *   gather=0|1   at the end, every rank sends one double to rank 0, which receives them in rank order
 *   vectors=0|1  per iteration an MPI_Alltoallv (4 doubles to every other rank, none to itself), and at the end
 *                an MPI_Gatherv of 2 doubles per rank to rank 0 (per-rank count vectors of the rank count's length);
 *                vectors=2: 4 doubles per rank of distance (counts that no exact model of the entries fits);
 *                vectors=3: 4 doubles to the ranks r - 1 and r + 1 only (an entry per grid neighbour);
 *                vectors=4: 65536 / size^2 doubles to every rank, itself included, give or take 4 that change with
 *                the pair of ranks and the iteration (NPB IS's keys per destination: sizes that are data)
 *   reductions=0|1  before the iterations, four MPI_Allreduce of 1, 4, 2 and 2 doubles in a row (CoMD's setup: the
 *                compressor folds them into one loop whose sizes change at each iteration)
 *   butterfly=0..4  per iteration, after the halo, a sum by recursive doubling written with MPI_Sendrecv: one double
 *                with rank XOR 2^k for k = 0, 1, ... (1) or from log2(size) - 1 down to 0 (2), log2(size) steps (NPB
 *                CG's row sums); partners beyond the ranks are skipped (the rank count should be a power of two);
 *                3: as NPB CG writes it, MPI_Irecv, MPI_Send and MPI_Wait, k from log2(size) - 1 down, step i (from 1)
 *                tagged i; 4: as 1, within rows of 2^ceil(log2(size) / 2) consecutive ranks (NPB CG's process grid:
 *                as many columns as rows or twice as many; ceil(log2(size) / 2) steps)
 *   transpose=0|1  per iteration, after the halo, an MPI_Sendrecv of a face with the rank of transposed coordinates
 *                on a square 2-D grid (NPB CG's exchange across its process grid; the diagonal's ranks with themselves)
 * Each iteration posts a receive from and a send to each neighbour (8 doubles per face cell), computes
 * 10 flops per local cell, then waits for all the requests. */
#include "../../mpi-programs/common.h"
#include "options.h"

/* dims[0] >= dims[1] >= ... with product n: the one whose largest and smallest factors are closest, then whose
 * largest is smallest (best[] holds it; cur[] is the factorisation being built). */
static void balanced(int n, int d, int max, int* cur, int depth, int nd, int* best, int* found)
{
  if (d == 1) {
    if (n > max)
      return;
    cur[depth] = n;
    int spread = cur[0] - cur[nd - 1], best_spread = best[0] - best[nd - 1];
    if (!*found || spread < best_spread || (spread == best_spread && cur[0] < best[0])) {
      for (int k = 0; k < nd; k++)
        best[k] = cur[k];
      *found = 1;
    }
    return;
  }
  for (int f = n < max ? n : max; f >= 1; f--)
    if (n % f == 0) {
      cur[depth] = f;
      balanced(n / f, d - 1, f, cur, depth + 1, nd, best, found);
    }
}

/* bisection=1: ranks [lo, lo + np) share the box [blo, bhi) of grid coordinates, halved along `axis`; each rank's
 * coordinates (its box's lower corner) into corner[rank]. */
static void bisect(int lo, int np, int axis, int nd, const int* blo, const int* bhi, int (*corner)[3], int largest)
{
  if (np == 1) {
    for (int k = 0; k < 3; k++)
      corner[lo][k] = blo[k];
    return;
  }
  if (largest) { /* bisection=2: the dimension with the most cells left, ties to the lowest */
    axis = 0;
    for (int k = 1; k < nd; k++)
      if (bhi[k] - blo[k] > bhi[axis] - blo[axis])
        axis = k;
  }
  int mid = (blo[axis] + bhi[axis]) / 2;
  int lower_hi[3] = {bhi[0], bhi[1], bhi[2]}, upper_lo[3] = {blo[0], blo[1], blo[2]};
  lower_hi[axis] = mid;
  upper_lo[axis] = mid;
  bisect(lo, np / 2, (axis + 1) % nd, nd, blo, lower_hi, corner, largest);
  bisect(lo + np / 2, np / 2, (axis + 1) % nd, nd, upper_lo, bhi, corner, largest);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ndims = (int)option(argc, argv, "dims", 1);
  int periodic = (int)option(argc, argv, "periodic", 0);
  long iters = option(argc, argv, "iters", 4);
  if (option(argc, argv, "pow2", 0))
    iters = 1L << size;
  long n = option(argc, argv, "n", 120);
  int weak = 0;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "scaling=w") == 0)
      weak = 1;
  int coll = (int)option(argc, argv, "coll", 0);
  int checks = (int)option(argc, argv, "checks", 0);
  int gather = (int)option(argc, argv, "gather", 0);
  int vectors = (int)option(argc, argv, "vectors", 0);
  int reductions = (int)option(argc, argv, "reductions", 0);
  int butterfly = (int)option(argc, argv, "butterfly", 0);
  int uneven = (int)option(argc, argv, "uneven", 0);
  int transpose = (int)option(argc, argv, "transpose", 0);
  int steps = 0;
  while ((1 << steps) < size)
    steps++;
  if (butterfly == 4)
    steps = (steps + 1) / 2; /* along a row */

  int dims[3] = {1, 1, 1}, cur[3] = {1, 1, 1}, found = 0;
  int coords[3] = {0, 0, 0};
  int bisection = (int)option(argc, argv, "bisection", 0);
  int(*corner)[3] = NULL;
  if (bisection) {
    if (size & (size - 1)) {
      fprintf(stderr, "stencil: bisection=1 needs a power of two ranks, not %d\n", size);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int level = 0; (1 << level) < size; level++)
      dims[level % ndims] *= 2;
    corner = xalloc((size_t)size * sizeof *corner);
    int blo[3] = {0, 0, 0};
    bisect(0, size, 0, ndims, blo, dims, corner, bisection == 2);
    for (int k = 0; k < 3; k++)
      coords[k] = corner[rank][k];
  } else {
    balanced(size, ndims, size, cur, 0, ndims, dims, &found);
    for (int k = ndims - 1, r = rank; k >= 0; k--) {
      coords[k] = r % dims[k];
      r /= dims[k];
    }
  }
  long local[3];
  long cells = 1;
  for (int k = 0; k < ndims; k++) {
    local[k] = weak ? n : n / dims[k] + (uneven && coords[k] < n % dims[k]);
    cells *= local[k];
  }
  /* neighbours: per dimension, -1 then +1; -1 (none) at a non-periodic boundary */
  int nbr[6];
  long face[6];
  int count = 0;
  for (int k = 0; k < ndims; k++) {
    for (int dir = -1; dir <= 1; dir += 2) {
      int c[3] = {coords[0], coords[1], coords[2]};
      c[k] += dir;
      int idx = 2 * k + (dir > 0);
      nbr[idx] = -1;
      face[idx] = 8 * cells / local[k];
      if (c[k] < 0 || c[k] >= dims[k]) {
        if (!periodic)
          continue;
        c[k] = (c[k] + dims[k]) % dims[k];
      }
      int q = 0;
      if (bisection) {
        while (corner[q][0] != c[0] || corner[q][1] != c[1] || corner[q][2] != c[2])
          q++;
      } else {
        for (int j = 0; j < ndims; j++)
          q = q * dims[j] + c[j];
      }
      nbr[idx] = q;
      count++;
    }
  }
  long maxface = 1;
  for (int i = 0; i < 2 * ndims; i++)
    if (face[i] > maxface)
      maxface = face[i];
  double* sbuf = xalloc((size_t)maxface * sizeof(double));
  double* rbuf = xalloc((size_t)maxface * 6 * sizeof(double));
  MPI_Request req[12];
  int* counts = xalloc((size_t)size * sizeof(int));
  int* displs = xalloc((size_t)size * sizeof(int));
  long slot = vectors == 4 ? 65536 / (size * size) + 4 : 4 * size; /* doubles a rank's part of the buffers holds */
  double* vbuf = xalloc((size_t)size * (size_t)slot * sizeof(double));
  double* wbuf = xalloc((size_t)size * (size_t)slot * sizeof(double));
  for (int r = 0; r < size; r++) {
    counts[r] = r == rank ? 0 : vectors == 2 ? 4 * abs(r - rank) : vectors == 3 ? (abs(r - rank) == 1 ? 4 : 0) : 4;
    displs[r] = (int)slot * r;
  }
  double x = 1, y = 0;
  if (option(argc, argv, "splits", 0)) {
    MPI_Comm comm = MPI_COMM_WORLD, next, first = MPI_COMM_NULL;
    int me = rank;
    for (int half = size / 2; half >= 1; half /= 2) {
      MPI_Comm_split(comm, me / half, me, &next);
      if (first == MPI_COMM_NULL)
        first = next;
      comm = next;
      me %= half;
    }
    if (first != MPI_COMM_NULL)
      MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, first);
  }
  if (coll)
    MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (reductions) {
    double in[4] = {1, 2, 3, 4}, red[4];
    const int sizes[4] = {1, 4, 2, 2};
    for (int i = 0; i < 4; i++)
      MPI_Allreduce(in, red, sizes[i], MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  int order[6] = {0, 1, 2, 3, 4, 5}; /* the directions in the order of the exchanges */
  for (int i = 1; option(argc, argv, "byrank", 0) && i < 2 * ndims; i++)
    for (int j = i; j > 0 && nbr[order[j]] < nbr[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (long it = 0; it < iters; it++) {
    int nreq = 0;
    for (int k = 0; k < 2 * ndims; k++) { /* receive what the neighbour sent towards us: tag = its direction */
      int i = order[k];
      if (nbr[i] >= 0)
        MPI_Irecv(rbuf + i * maxface, (int)face[i], MPI_DOUBLE, nbr[i], i ^ 1, MPI_COMM_WORLD, &req[nreq++]);
    }
    for (int k = 0; k < 2 * ndims; k++) {
      int i = order[k];
      if (nbr[i] >= 0)
        MPI_Isend(sbuf, (int)face[i], MPI_DOUBLE, nbr[i], i, MPI_COMM_WORLD, &req[nreq++]);
    }
    compute(10.0 * (double)cells);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    if (transpose && ndims == 2 && dims[0] == dims[1]) {
      int partner = coords[1] * dims[1] + coords[0];
      MPI_Sendrecv(sbuf, (int)face[0], MPI_DOUBLE, partner, 11, rbuf, (int)face[0], MPI_DOUBLE, partner, 11,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int k = 0; butterfly && k < steps; k++) {
      int partner = rank ^ (1 << (butterfly == 1 || butterfly == 4 ? k : steps - 1 - k)); /* 2, 3: k down */
      if (partner < size && butterfly == 3) {
        MPI_Request r;
        MPI_Irecv(&y, 1, MPI_DOUBLE, partner, k + 1, MPI_COMM_WORLD, &r);
        MPI_Send(&x, 1, MPI_DOUBLE, partner, k + 1, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        x += y;
      } else if (partner < size) {
        MPI_Sendrecv(&x, 1, MPI_DOUBLE, partner, 7, &y, 1, MPI_DOUBLE, partner, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        x += y;
      }
    }
    if (coll) {
      MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      compute(2.0 * (double)cells);
      MPI_Allreduce(&y, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      if (checks && (7 * it + size) % 5 == 0) {
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&y, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      }
    }
    for (int r = 0; vectors == 4 && r < size; r++) { /* symmetric in (rank, r): what r sends is what rank receives */
      unsigned lo = (unsigned)(r < rank ? r : rank), hi = (unsigned)(r < rank ? rank : r);
      unsigned h = (lo * 2654435761u) ^ (hi * 40503u) ^ ((unsigned)it * 2246822519u);
      h ^= h >> 13;
      counts[r] = 65536 / (size * size) + (int)(h * 2654435761u >> 29) - 4;
    }
    if (vectors)
      MPI_Alltoallv(vbuf, counts, displs, MPI_DOUBLE, wbuf, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  if (vectors) {
    for (int r = 0; r < size; r++) {
      counts[r] = 2;
      displs[r] = 2 * r;
    }
    MPI_Gatherv(vbuf, 2, MPI_DOUBLE, wbuf, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  if (gather) {
    if (rank == 0)
      for (int r = 1; r < size; r++)
        MPI_Recv(&y, 1, MPI_DOUBLE, r, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Send(&x, 1, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD);
  }
  (void)count;
  free(counts);
  free(displs);
  free(vbuf);
  free(wbuf);
  free(sbuf);
  free(rbuf);
  free(corner);
  MPI_Finalize();
  return 0;
}
