#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// SimGrid's logical ring: the buffer cut in one block of count/p elements per rank, size-1 ring steps of
// reduce-scatter then size-1 of all-gather, each a sendrecv to the right neighbour from the left one. Fewer
// elements than ranks: redbcast instead. The count % p elements left over are then allreduced on their own,
// by the Open MPI decision again (SimGrid's colls::allreduce under the ompi selector).
void allreduce_lr(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  long long count = element_count(call);
  if (count < n)
    return allreduce_redbcast(rank, call);
  double element = element_size(call);
  long long remainder = count % n;
  double block = static_cast<double>(count / n) * element;
  int right = (me + 1) % n;
  int left = (me + n - 1) % n;
  for (int phase = 0; phase < 2; ++phase) // reduce-scatter, then all-gather
    for (int i = 0; i < n - 1; ++i)
      rank.sendrecv(right, block, left, block, kTagOmpiAllreduce);
  if (remainder != 0) {
    Call rest = call;
    rest.bytes = static_cast<double>(remainder) * element;
    (call.selector ? call.selector->allreduce : allreduce_ompi)(rank, rest); // SimGrid's colls::allreduce
  }
}

} // namespace tit::colls
