/* 2-D halo exchange overlapped with computation by polling, as AMG's and miniAMR's exchanges do: a periodic
 * N x N grid of doubles on a px x py grid of ranks, ITERS Jacobi sweeps of a 5-point stencil. Each sweep posts
 * the four faces' Irecv and Isend, updates the interior rows in chunks of CHUNK rows and calls MPI_Testall on
 * the eight requests after each chunk until it succeeds, then waits for what is left (MPI_Waitall) and updates
 * the rows next to the faces. The number of MPI_Testall calls depends on the timing of the run: the trace
 * records it. Usage: poll [N=768] [ITERS=40] [CHUNK=16] */
#include "app.h"

#define STENCIL(j, i) v[(j) * w + (i)] = 0.25 * (u[(j) * w + (i) - 1] + u[(j) * w + (i) + 1] + u[((j) - 1) * w + (i)] + \
                                                 u[((j) + 1) * w + (i)])

int main(int argc, char** argv)
{
  app_init(&argc, &argv);
  long n = app_arg(argc, argv, 1, 768);
  long iters = app_arg(argc, argv, 2, 40);
  long chunk = app_arg(argc, argv, 3, 16);
  int rank = app_rank, size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int px = dims[0], py = dims[1];
  int cx = rank % px, cy = rank / px;
  long nx = n / px, ny = n / py; /* local interior */
  long w = nx + 2;
  double* u = app_alloc(w * (ny + 2));
  double* v = app_alloc(w * (ny + 2));
  double* sbuf[4];
  double* rbuf[4];
  long len[4] = {ny, ny, nx, nx}; /* west, east, south, north */
  for (int f = 0; f < 4; ++f) {
    sbuf[f] = app_alloc(len[f]);
    rbuf[f] = app_alloc(len[f]);
  }
  int nb[4] = {app_wrap(cx, -1, px) + cy * px, app_wrap(cx, 1, px) + cy * px, cx + app_wrap(cy, -1, py) * px,
               cx + app_wrap(cy, 1, py) * px};
  for (long i = 0; i < w * (ny + 2); ++i)
    u[i] = (double)((i * 7 + rank) % 13);
  for (long it = 0; it < iters; ++it) {
    for (long j = 0; j < ny; ++j) {
      sbuf[0][j] = u[(j + 1) * w + 1];
      sbuf[1][j] = u[(j + 1) * w + nx];
    }
    memcpy(sbuf[2], &u[w + 1], (size_t)nx * sizeof(double));
    memcpy(sbuf[3], &u[ny * w + 1], (size_t)nx * sizeof(double));
    MPI_Request req[8];
    for (int f = 0; f < 4; ++f)
      MPI_Irecv(rbuf[f], (int)len[f], MPI_DOUBLE, nb[f], f ^ 1, MPI_COMM_WORLD, &req[f]);
    for (int f = 0; f < 4; ++f)
      MPI_Isend(sbuf[f], (int)len[f], MPI_DOUBLE, nb[f], f, MPI_COMM_WORLD, &req[4 + f]);
    /* the interior (rows 2 .. ny-1, columns 2 .. nx-1) needs no face: computed while the faces travel */
    int done = 0;
    for (long j0 = 2; j0 < ny; j0 += chunk) {
      long j1 = j0 + chunk < ny ? j0 + chunk : ny;
      for (long j = j0; j < j1; ++j)
        for (long i = 2; i < nx; ++i)
          STENCIL(j, i);
      if (!done)
        MPI_Testall(8, req, &done, MPI_STATUSES_IGNORE);
    }
    if (!done)
      MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    for (long j = 0; j < ny; ++j) {
      u[(j + 1) * w] = rbuf[0][j];
      u[(j + 1) * w + nx + 1] = rbuf[1][j];
    }
    memcpy(&u[1], rbuf[2], (size_t)nx * sizeof(double));
    memcpy(&u[(ny + 1) * w + 1], rbuf[3], (size_t)nx * sizeof(double));
    /* the rows and columns next to the faces */
    for (long i = 1; i <= nx; ++i) {
      STENCIL(1, i);
      STENCIL(ny, i);
    }
    for (long j = 2; j < ny; ++j) {
      STENCIL(j, 1);
      STENCIL(j, nx);
    }
    double* t = u;
    u = v;
    v = t;
  }
  app_finalize();
  return u[w + 1] > 1e300; /* keeps the sweeps from being optimised away */
}
