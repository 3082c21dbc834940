/* CG-like solver: conjugate gradient on the 1-D Laplacian of N unknowns split in blocks over the ranks;
 * each of ITERS iterations exchanges one boundary value with each neighbour (MPI_Sendrecv, periodic: a copy to itself on 1 rank),
 * does a matrix-vector product, and two dot products (MPI_Allreduce of one double each).
 * Usage: cg [N=400000] [ITERS=40] */
#include "app.h"

static double dot(const double* a, const double* b, long n)
{
  double s = 0, g = 0;
  for (long i = 0; i < n; ++i)
    s += a[i] * b[i];
  MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return g;
}

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 400000);
  long iters = app_arg(argc, argv, 2, 40);
  int rank = app_rank, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long m = n / size;
  int left = app_wrap(rank, -1, size), right = app_wrap(rank, 1, size); /* periodic: itself on 1 rank */
  double *x = app_alloc(m), *r = app_alloc(m), *p = app_alloc(m + 2), *q = app_alloc(m);
  for (long i = 0; i < m; ++i)
    r[i] = p[i + 1] = 1.0;
  double rr = dot(r, r, m);
  for (long it = 0; it < iters; ++it) {
    MPI_Sendrecv(&p[1], 1, MPI_DOUBLE, left, 0, &p[m + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p[m], 1, MPI_DOUBLE, right, 1, &p[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (long i = 0; i < m; ++i)
      q[i] = 2 * p[i + 1] - p[i] - p[i + 2];
    double alpha = rr / dot(p + 1, q, m);
    for (long i = 0; i < m; ++i) {
      x[i] += alpha * p[i + 1];
      r[i] -= alpha * q[i];
    }
    double rr2 = dot(r, r, m);
    for (long i = 0; i < m; ++i)
      p[i + 1] = r[i] + rr2 / rr * p[i + 1];
    rr = rr2;
  }
  app_finalize();
  return x[0] > 1e300;
}
