/* Nonblocking mixes between rank pairs (0,1), (2,3), ...: waits in changing orders, test loops,
 * waitany, waitsome, testall, synchronous and buffered sends. An odd last rank only computes. */
#include "tt.h"
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peer = rank ^ 1;
  static char a[70000], b[70000], c[100], d[100];
  static char bsend_buf[4 * (1000 + MPI_BSEND_OVERHEAD)];
  MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);
  if (peer < size) {
    MPI_Request r[4];
    int flag = 0, idx, out, ind[4];
    /* isend/irecv with single waits, receive waited first */
    MPI_Irecv(a, 70000, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(b, 70000, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &r[1]);
    tt_work(100000);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    /* test loop on a receive */
    MPI_Irecv(c, 100, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(d, 100, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r[1]);
    while (!flag) {
      tt_work(1000);
      MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    }
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    /* waitany twice */
    MPI_Irecv(c, 10, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(d, 10, MPI_DOUBLE, peer, 3, MPI_COMM_WORLD, &r[1]);
    MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
    MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
    /* waitsome on one request at a time, then testall until done */
    MPI_Irecv(c, 5, MPI_LONG, peer, 4, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(d, 5, MPI_LONG, peer, 4, MPI_COMM_WORLD, &r[1]);
    MPI_Waitsome(1, &r[0], &out, ind, MPI_STATUSES_IGNORE);
    flag = 0;
    while (!flag)
      MPI_Testall(1, &r[1], &flag, MPI_STATUSES_IGNORE);
    /* synchronous and buffered sends; lower rank sends first */
    if (rank < peer) {
      MPI_Ssend(a, 20, MPI_FLOAT, peer, 5, MPI_COMM_WORLD);
      MPI_Bsend(a, 1000, MPI_CHAR, peer, 6, MPI_COMM_WORLD);
      MPI_Issend(a, 30, MPI_SHORT, peer, 7, MPI_COMM_WORLD, &r[0]);
      MPI_Ibsend(a, 40, MPI_CHAR, peer, 8, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else {
      MPI_Recv(b, 20, MPI_FLOAT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(b, 1000, MPI_CHAR, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(b, 30, MPI_SHORT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(b, 40, MPI_CHAR, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else {
    tt_work(100000);
  }
  void* p;
  int sz;
  MPI_Buffer_detach(&p, &sz);
  MPI_Finalize();
  return 0;
}
