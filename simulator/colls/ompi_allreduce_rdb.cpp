#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// MPICH's recursive doubling (SimGrid's rdb): with p' the largest power of two <= p and r = p - p', the
// first 2r ranks pair up (even sends its buffer to odd); the p' remaining ranks exchange whole buffers with
// partner newrank XOR 2^k; the odd ranks then return the result to their even neighbour. The copies SimGrid
// makes as sendrecvs to itself cost nothing.
void allreduce_rdb(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int rem = n - pof2;
  int newrank = me - rem;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      rank.send(me + 1, kTagOmpiAllreduce, call.bytes);
      newrank = -1;
    } else {
      rank.recv(me - 1, kTagOmpiAllreduce, call.bytes);
      newrank = me / 2;
    }
  }
  if (newrank != -1)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int newdst = newrank ^ mask;
      int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      rank.sendrecv(dst, call.bytes, dst, call.bytes, kTagOmpiAllreduce);
    }
  if (me < 2 * rem) {
    if (me % 2 == 1)
      rank.send(me - 1, kTagOmpiAllreduce, call.bytes);
    else
      rank.recv(me + 1, kTagOmpiAllreduce, call.bytes);
  }
}

} // namespace tit::colls
