/* Sub-communicator code: the ranks form a px x py grid split into row and column communicators
 * (MPI_Comm_split); each of ITERS steps updates a local block of N doubles, reduces a vector of V doubles
 * over the row (MPI_Allreduce) and broadcasts one from the column's first rank (MPI_Bcast).
 * Usage: subcomm [N=1000000] [ITERS=30] [V=4096] */
#include "app.h"

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 1000000);
  long iters = app_arg(argc, argv, 2, 30);
  long nv = app_arg(argc, argv, 3, 4096);
  int rank = app_rank, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm row, col;
  MPI_Comm_split(MPI_COMM_WORLD, rank / dims[0], rank, &row);
  MPI_Comm_split(MPI_COMM_WORLD, rank % dims[0], rank, &col);
  long m = n / size;
  double *a = app_alloc(m), *vin = app_alloc(nv), *vout = app_alloc(nv);
  for (long i = 0; i < m; ++i)
    a[i] = (double)(i % 5);
  for (long it = 0; it < iters; ++it) {
    for (long i = 0; i < m; ++i)
      a[i] = 0.5 * a[i] + 0.25 * a[(i * 7) % m] + 1.0;
    for (long i = 0; i < nv; ++i)
      vin[i] = a[i % m];
    MPI_Allreduce(vin, vout, (int)nv, MPI_DOUBLE, MPI_SUM, row);
    MPI_Bcast(vout, (int)nv, MPI_DOUBLE, 0, col);
    a[0] += vout[0] * 1e-9;
  }
  MPI_Comm_free(&row);
  MPI_Comm_free(&col);
  app_finalize();
  return a[0] > 1e300;
}
