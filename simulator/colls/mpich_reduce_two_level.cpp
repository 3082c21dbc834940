#include "colls/mpich_all.hpp"
#include "colls/mpich_smp.hpp"

#include <algorithm>

namespace tit::colls {

// MVAPICH2's two-level reduce as SimGrid runs it (the intra-node and inter-leader reductions are SimGrid's MPICH
// decision, reduce_mpich_flat): each host reduces to its leader, the leaders reduce to the leader of the root's
// host, which sends the result to the root if the root is another rank. When one host holds every rank: up to
// 2048 bytes Open MPI's linear reduce to the leader then a send to the root; above, the k-nomial reduce.
void reduce_mvapich2_two_level_on(mpi::PointToPoint& rank, const Call& call, const SmpLayout& layout)
{
  int me = rank.rank();
  SmpComms comms = smp_comms(layout, me);
  int local_size = static_cast<int>(comms.local.size());
  int leader_of_root = comms.leader_of[static_cast<std::size_t>(call.root)];
  int leader_root = static_cast<int>(std::find(comms.leaders.begin(), comms.leaders.end(), leader_of_root) -
                                     comms.leaders.begin());
  SubComm shmem(rank, comms.local, comms.local_index, kTagShiftIntraNode);
  Call local = call;
  local.size = local_size;
  local.root = 0;
  if (local_size == call.size) {
    if (call.bytes > 2048)
      return reduce_mvapich2_knomial(rank, call);
    if (call.bytes < local_size * 131072.0) // always, at this size
      reduce_ompi_basic_linear(shmem, local);
    else
      reduce_mvapich2_knomial(shmem, local);
    if (comms.local_index == 0 && call.root != me)
      rank.send(call.root, kTagMpichReduceResult, call.bytes);
    if (comms.local_index != 0 && call.root == me)
      rank.recv(leader_of_root, kTagMpichReduceResult, call.bytes);
    return;
  }
  if (local_size > 1)
    reduce_mpich_flat(shmem, local);
  if (comms.local_index == 0 && comms.leaders.size() > 1) {
    SubComm leaders(rank, comms.leaders, comms.leader_index, kTagShiftLeaders);
    Call among = call;
    among.size = static_cast<int>(comms.leaders.size());
    among.root = leader_root;
    reduce_mpich_flat(leaders, among);
  }
  if (local_size > 1) {
    if (comms.local_index == 0 && call.root != me && leader_root == comms.leader_index)
      rank.send(call.root, kTagMpichReduceResult, call.bytes);
    if (comms.local_index != 0 && call.root == me)
      rank.recv(leader_of_root, kTagMpichReduceResult, call.bytes);
  }
}

void reduce_mvapich2_two_level(mpi::PointToPoint& rank, const Call& call)
{
  reduce_mvapich2_two_level_on(rank, call, smp_setup(rank, call.size));
}

} // namespace tit::colls
