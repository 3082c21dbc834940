/* Multigrid V-cycles on a periodic 2-D grid split over a px x py grid of ranks: at each level of LEVELS,
 * going down, two smoothing sweeps (the 4 faces exchanged with Irecv/Isend/Waitall, then the sweep) and a
 * restriction; at the coarsest level an MPI_Allreduce of the coarse faces (the coarse solve); going up, a
 * prolongation and one smoothing sweep per level; then the residual's norm (MPI_Allreduce of one double).
 * Faces hold N >> level doubles, so that a cycle's messages span sizes from N doubles down (at the default N
 * the finest ones are rendez-vous messages, the coarser ones eager, as in real multigrid codes), and the work of
 * a level is proportional to its cells. The sweeps work on a small array whatever N (the cells are not stored:
 * this is a model of the pattern, which keeps SMPI, where every rank lives in one process, small).
 * Usage: mg [N=9000] [LEVELS=6] [CYCLES=8] */
#include "app.h"

/* About cells/16 updates of a small array (memory-bound, like a smoother). */
static double sweep(double* a, long m, long cells)
{
  double s = 0;
  for (long done = 0; done < cells / 16; done += m - 2) {
    for (long i = 1; i < m - 1; ++i)
      a[i] = 0.5 * a[i] + 0.25 * (a[i - 1] + a[i + 1]);
    s += a[m / 2];
  }
  return s;
}

static void exchange(double** sbuf, double** rbuf, long len, const int* nb)
{
  MPI_Request req[8];
  for (int f = 0; f < 4; ++f)
    MPI_Irecv(rbuf[f], (int)len, MPI_DOUBLE, nb[f], f ^ 1, MPI_COMM_WORLD, &req[f]);
  for (int f = 0; f < 4; ++f)
    MPI_Isend(sbuf[f], (int)len, MPI_DOUBLE, nb[f], f, MPI_COMM_WORLD, &req[4 + f]);
  MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
}

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 9000);
  long levels = app_arg(argc, argv, 2, 6);
  long cycles = app_arg(argc, argv, 3, 8);
  if ((n >> (levels - 1)) < 1) {
    fprintf(stderr, "%s: error: N=%ld is too small for %ld levels (the coarsest faces would be empty)\n", argv[0], n,
            levels);
    return 2;
  }
  int rank = app_rank, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int d[2] = {0, 0};
  MPI_Dims_create(size, 2, d);
  int c[2] = {rank % d[0], rank / d[0]};
  int nb[4]; /* west, east, south, north */
  nb[0] = app_wrap(c[0], -1, d[0]) + d[0] * c[1];
  nb[1] = app_wrap(c[0], 1, d[0]) + d[0] * c[1];
  nb[2] = c[0] + d[0] * app_wrap(c[1], -1, d[1]);
  nb[3] = c[0] + d[0] * app_wrap(c[1], 1, d[1]);
  double* sbuf[4];
  double* rbuf[4];
  for (int f = 0; f < 4; ++f) {
    sbuf[f] = app_alloc(n);
    rbuf[f] = app_alloc(n);
    for (long i = 0; i < n; ++i)
      sbuf[f][i] = (double)((i + f + rank) % 7);
  }
  long m = 4096;
  double* a = app_alloc(m);
  for (long i = 0; i < m; ++i)
    a[i] = (double)((i * 3 + rank) % 5);
  double* coarse_out = app_alloc(n);
  double* coarse_in = app_alloc(n);
  double acc = 0;
  for (long cycle = 0; cycle < cycles; ++cycle) {
    for (long l = 0; l < levels; ++l) { /* down */
      long len = n >> l, cells = len * len;
      for (int s = 0; s < 2; ++s) {
        exchange(sbuf, rbuf, len, nb);
        acc += sweep(a, m, cells);
      }
      acc += sweep(a, m, cells / 4); /* restriction */
    }
    long coarse = n >> (levels - 1);
    coarse_out[0] = acc;
    MPI_Allreduce(coarse_out, coarse_in, (int)coarse, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc += sweep(a, m, coarse * coarse * 8) + coarse_in[0] * 1e-300;
    for (long l = levels - 1; l >= 0; --l) { /* up */
      long len = n >> l, cells = len * len;
      acc += sweep(a, m, cells / 4); /* prolongation */
      exchange(sbuf, rbuf, len, nb);
      acc += sweep(a, m, cells);
    }
    double local = acc * 1e-12, norm = 0;
    MPI_Allreduce(&local, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc += norm * 1e-300;
  }
  app_finalize();
  return acc > 1e300;
}
