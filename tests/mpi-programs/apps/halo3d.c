/* 3-D halo exchange: a periodic N^3 grid of doubles split over a px x py x pz grid of ranks, ITERS sweeps
 * of a 7-point stencil, each after exchanging the six faces with Irecv/Isend/Waitall.
 * Usage: halo3d [N=96] [ITERS=20] */
#include "app.h"

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 96);
  long iters = app_arg(argc, argv, 2, 20);
  int rank = app_rank, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int d[3] = {0, 0, 0};
  MPI_Dims_create(size, 3, d);
  int c[3] = {rank % d[0], (rank / d[0]) % d[1], rank / (d[0] * d[1])};
  long l[3] = {n / d[0], n / d[1], n / d[2]};
  long sx = l[0] + 2, sy = l[1] + 2, cells = sx * sy * (l[2] + 2);
  double* u = app_alloc(cells);
  double* v = app_alloc(cells);
  for (long i = 0; i < cells; ++i)
    u[i] = (double)((i * 5 + rank) % 11);
#define AT(i, j, k) ((i) + sx * ((j) + sy * (k)))
  double* sbuf[6];
  double* rbuf[6];
  long len[6];
  int nb[6];
  for (int dim = 0; dim < 3; ++dim)
    for (int s = 0; s < 2; ++s) {
      int f = 2 * dim + s;
      len[f] = l[(dim + 1) % 3] * l[(dim + 2) % 3];
      sbuf[f] = app_alloc(len[f]);
      rbuf[f] = app_alloc(len[f]);
      int cc[3] = {c[0], c[1], c[2]};
      cc[dim] = app_wrap(c[dim], s ? 1 : -1, d[dim]);
      nb[f] = cc[0] + d[0] * (cc[1] + d[1] * cc[2]);
    }
  for (long it = 0; it < iters; ++it) {
    for (int f = 0; f < 6; ++f) { /* pack face f: the interior layer next to it */
      int dim = f / 2;
      long layer = (f % 2) ? l[dim] : 1, m = 0;
      for (long b = 1; b <= l[(dim + 2) % 3]; ++b)
        for (long a = 1; a <= l[(dim + 1) % 3]; ++a) {
          long idx[3];
          idx[dim] = layer;
          idx[(dim + 1) % 3] = a;
          idx[(dim + 2) % 3] = b;
          sbuf[f][m++] = u[AT(idx[0], idx[1], idx[2])];
        }
    }
    MPI_Request req[12];
    for (int f = 0; f < 6; ++f)
      MPI_Irecv(rbuf[f], (int)len[f], MPI_DOUBLE, nb[f], f ^ 1, MPI_COMM_WORLD, &req[f]);
    for (int f = 0; f < 6; ++f)
      MPI_Isend(sbuf[f], (int)len[f], MPI_DOUBLE, nb[f], f, MPI_COMM_WORLD, &req[6 + f]);
    MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
    for (int f = 0; f < 6; ++f) { /* unpack into the ghost layer */
      int dim = f / 2;
      long layer = (f % 2) ? l[dim] + 1 : 0, m = 0;
      for (long b = 1; b <= l[(dim + 2) % 3]; ++b)
        for (long a = 1; a <= l[(dim + 1) % 3]; ++a) {
          long idx[3];
          idx[dim] = layer;
          idx[(dim + 1) % 3] = a;
          idx[(dim + 2) % 3] = b;
          u[AT(idx[0], idx[1], idx[2])] = rbuf[f][m++];
        }
    }
    for (long k = 1; k <= l[2]; ++k)
      for (long j = 1; j <= l[1]; ++j)
        for (long i = 1; i <= l[0]; ++i)
          v[AT(i, j, k)] = (u[AT(i - 1, j, k)] + u[AT(i + 1, j, k)] + u[AT(i, j - 1, k)] + u[AT(i, j + 1, k)] +
                            u[AT(i, j, k - 1)] + u[AT(i, j, k + 1)]) / 6.0;
    double* t = u;
    u = v;
    v = t;
  }
  app_finalize();
  return u[AT(1, 1, 1)] > 1e300;
}
