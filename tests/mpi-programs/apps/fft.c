/* FFT-like transpose: an N x N complex array (pairs of doubles) distributed by rows; each of ITERS steps
 * runs radix-2 butterfly passes over the local rows, transposes the array with MPI_Alltoall (blocks of
 * (N/size)^2 complex numbers, the rank's own block included), and transposes each received block locally.
 * Usage: fft [N=512] [ITERS=6] */
#include "app.h"

#include <math.h>

static void butterflies(double* a, long rows, long n)
{
  for (long r = 0; r < rows; ++r) {
    double* row = a + 2 * r * n;
    for (long half = n / 2; half >= 1; half /= 2)
      for (long i = 0; i < n; i += 2 * half)
        for (long k = 0; k < half; ++k) {
          double c = cos(3.14159265358979 * (double)k / (double)half), s = sin(3.14159265358979 * (double)k / (double)half);
          double* x = row + 2 * (i + k);
          double* y = row + 2 * (i + k + half);
          double tr = c * y[0] - s * y[1], ti = s * y[0] + c * y[1];
          y[0] = x[0] - tr;
          y[1] = x[1] - ti;
          x[0] += tr;
          x[1] += ti;
        }
  }
}

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 512);
  long iters = app_arg(argc, argv, 2, 6);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long rows = n / size, block = rows * rows; /* complex numbers per block */
  n = rows * size;
  double* a = app_alloc(2 * rows * n);
  double* b = app_alloc(2 * rows * n);
  for (long i = 0; i < 2 * rows * n; ++i)
    a[i] = (double)((i + app_rank) % 17) / 17.0;
  for (long it = 0; it < iters; ++it) {
    butterflies(a, rows, n);
    for (int p = 0; p < size; ++p) /* pack: block p = columns p*rows .. of every local row */
      for (long r = 0; r < rows; ++r)
        memcpy(b + 2 * (p * block + r * rows), a + 2 * (r * n + p * rows), (size_t)(2 * rows) * sizeof(double));
    MPI_Alltoall(b, (int)(2 * block), MPI_DOUBLE, a, (int)(2 * block), MPI_DOUBLE, MPI_COMM_WORLD);
    for (int p = 0; p < size; ++p) /* local transpose of each block into the rows */
      for (long r = 0; r < rows; ++r)
        for (long c = 0; c < rows; ++c) {
          b[2 * (r * n + p * rows + c)] = a[2 * (p * block + c * rows + r)];
          b[2 * (r * n + p * rows + c) + 1] = a[2 * (p * block + c * rows + r) + 1];
        }
    double* t = a;
    a = b;
    b = t;
  }
  app_finalize();
  return a[0] > 1e300;
}
