#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// One sendrecv per step. On a power-of-two communicator the partner of step i is rank XOR i (SimGrid's
// "pair"); otherwise, where SimGrid's version refuses to run, Open MPI's pairwise exchange: send to
// rank+i, receive from rank-i.
void alltoall_pairwise(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  bool power_of_two = (n & (n - 1)) == 0;
  for (int i = 0; i < n; ++i) {
    int dst = power_of_two ? (me ^ i) : (me + i) % n;
    int src = power_of_two ? (me ^ i) : (me - i + n) % n;
    rank.sendrecv(dst, call.bytes, src, call.bytes2, kTagAlltoall);
  }
}

} // namespace tit::colls
