#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// MPICH's recursive doubling (SimGrid's rdb): with p' the largest power of two <= p and r = p - p', the
// first 2r ranks pair up (even sends its buffer to odd); the p' remaining ranks exchange whole buffers with
// partner newrank XOR 2^k; the odd ranks then return the result to their even neighbour. The copies SimGrid
// makes as sendrecvs to itself cost nothing.
void allreduce_rdb(mpi::PointToPoint& rank, const Call& call)
{
  int pof2 = 1;
  while (pof2 * 2 <= call.size)
    pof2 *= 2;
  int rem = call.size - pof2;
  int newrank = allreduce_fold_in(rank, call, pof2);
  if (newrank != -1)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int dst = allreduce_fold_real_rank(newrank ^ mask, rem);
      rank.sendrecv(dst, call.bytes, dst, call.bytes, kTagOmpiAllreduce);
    }
  allreduce_fold_out(rank, call, pof2);
}

} // namespace tit::colls
