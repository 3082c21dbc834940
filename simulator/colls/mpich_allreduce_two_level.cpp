#include "colls/mpich_all.hpp"
#include "colls/mpich_smp.hpp"
#include "colls/ompi_all.hpp"

namespace tit::colls {

// MVAPICH2's two-level allreduce as SimGrid runs it: an allreduce within each host (SimGrid's MPICH decision),
// a recursive-doubling allreduce among the host leaders, then a bcast from each leader to its host (the bcast
// in use; MPICH's takes its flat decision there, the host's communicator being an SMP one).
void allreduce_mvapich2_two_level_on(mpi::PointToPoint& rank, const Call& call, const SmpLayout& layout)
{
  if (call.bytes <= 0)
    return;
  int me = rank.rank();
  SmpComms comms = smp_comms(layout, me);
  SubComm shmem(rank, comms.local, comms.local_index, kTagShiftIntraNode);
  Call local = call;
  local.size = static_cast<int>(comms.local.size());
  local.root = 0;
  allreduce_mpich_flat(shmem, local);
  if (comms.local_index == 0 && local.size != call.size) {
    SubComm leaders(rank, comms.leaders, comms.leader_index, kTagShiftLeaders);
    Call among = call;
    among.size = static_cast<int>(comms.leaders.size());
    allreduce_rdb(leaders, among);
  }
  Algorithm bcast = call.selector != nullptr ? call.selector->bcast : bcast_mpich_flat;
  if (bcast == bcast_mpich)
    bcast = bcast_mpich_flat;
  bcast(shmem, local);
}

void allreduce_mvapich2_two_level(mpi::PointToPoint& rank, const Call& call)
{
  allreduce_mvapich2_two_level_on(rank, call, smp_setup(rank, call.size));
}

} // namespace tit::colls
