#include "colls/mpich_all.hpp"
#include "colls/mpich_smp.hpp"

namespace tit::colls {

// SimGrid's bcast SMP_binomial, for hosts running c ranks each, taken as blocks of c consecutive ranks: a root
// other than 0 first sends to rank 0; the block leaders (multiples of c) run a binomial tree from rank 0, then
// each block runs its own from its leader. On hosts of unequal rank counts SimGrid falls back to its MPICH
// decision.
void bcast_smp_binomial_on(mpi::PointToPoint& rank, const Call& call, const SmpLayout& layout)
{
  int me = rank.rank();
  SmpComms comms = smp_comms(layout, me);
  if (not comms.uniform)
    return bcast_mpich_flat(rank, call);
  int n = call.size;
  int cores = static_cast<int>(comms.local.size());
  int inter_rank = me / cores;
  int inter_size = (n - 1) / cores + 1;
  int intra_rank = me % cores;
  int intra_size = cores;
  if ((me / cores) * cores == (n / cores) * cores)
    intra_size = n - (me / cores) * cores;
  if (call.root != 0) {
    if (me == call.root)
      rank.send(0, kTagBcast, call.bytes);
    else if (me == 0)
      rank.recv(call.root, kTagBcast, call.bytes);
  }
  if (intra_rank == 0) {
    int mask = 1;
    for (; mask < inter_size; mask <<= 1)
      if (inter_rank & mask) {
        rank.recv((inter_rank - mask) * cores, kTagBcast, call.bytes);
        break;
      }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (inter_rank < inter_size && (inter_rank + mask) * cores < n)
        rank.send((inter_rank + mask) * cores, kTagBcast, call.bytes);
  }
  int base = (me / cores) * cores;
  int mask = 1;
  for (; mask < intra_size; mask <<= 1)
    if (intra_rank & mask) {
      rank.recv(base + intra_rank - mask, kTagBcast, call.bytes);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (intra_rank < intra_size && base + intra_rank + mask < n)
      rank.send(base + intra_rank + mask, kTagBcast, call.bytes);
}

void bcast_smp_binomial(mpi::PointToPoint& rank, const Call& call)
{
  bcast_smp_binomial_on(rank, call, smp_setup(rank, call.size));
}

} // namespace tit::colls
