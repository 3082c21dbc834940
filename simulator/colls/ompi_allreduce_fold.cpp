#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

int allreduce_fold_in(mpi::PointToPoint& rank, const Call& call, int pof2)
{
  int me = rank.rank();
  int rem = call.size - pof2;
  if (me >= 2 * rem)
    return me - rem;
  if (me % 2 == 0) {
    rank.send(me + 1, kTagOmpiAllreduce, call.bytes);
    return -1;
  }
  rank.recv(me - 1, kTagOmpiAllreduce, call.bytes);
  return me / 2;
}

void allreduce_fold_out(mpi::PointToPoint& rank, const Call& call, int pof2)
{
  int me = rank.rank();
  int rem = call.size - pof2;
  if (me >= 2 * rem)
    return;
  if (me % 2 == 1)
    rank.send(me - 1, kTagOmpiAllreduce, call.bytes);
  else
    rank.recv(me + 1, kTagOmpiAllreduce, call.bytes);
}

} // namespace tit::colls
