/* 2-D periodic halo exchange (Irecv + Isend + Waitall), then a non-periodic Sendrecv sweep whose
 * boundary ranks talk to MPI_PROC_NULL. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rows = 1;
  for (int r = 1; r * r <= size; r++)
    if (size % r == 0)
      rows = r;
  int cols = size / rows;
  int row = rank / cols, col = rank % cols;
  int up = ((row + rows - 1) % rows) * cols + col, down = ((row + 1) % rows) * cols + col;
  int left = row * cols + (col + cols - 1) % cols, right = row * cols + (col + 1) % cols;
  static double out[4][2000], in[4][2000];
  long iters = tt_arg(argc, argv, 1, 2);
  for (long it = 0; it < iters; it++) {
    tt_work(300000);
    MPI_Request r[8];
    MPI_Irecv(in[0], 2000, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(in[1], 2000, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &r[1]);
    MPI_Irecv(in[2], 500, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &r[2]);
    MPI_Irecv(in[3], 500, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &r[3]);
    MPI_Isend(out[0], 2000, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &r[4]);
    MPI_Isend(out[1], 2000, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &r[5]);
    MPI_Isend(out[2], 500, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &r[6]);
    MPI_Isend(out[3], 500, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &r[7]);
    MPI_Waitall(8, r, MPI_STATUSES_IGNORE);
  }
  int lo = rank == 0 ? MPI_PROC_NULL : rank - 1, hi = rank == size - 1 ? MPI_PROC_NULL : rank + 1;
  MPI_Sendrecv(out[0], 100, MPI_DOUBLE, hi, 5, in[0], 100, MPI_DOUBLE, lo, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
