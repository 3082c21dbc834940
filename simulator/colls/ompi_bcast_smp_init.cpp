// SMPI's Comm::init_smp on MPI_COMM_WORLD (smpi_comm.cpp): the collectives it runs, and where the ranks are.
#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace tit::colls {
namespace {

constexpr double kInt = 4; // init_smp exchanges one MPI_INT at a time

// allgather__ring: a sendrecv with the members i steps away on each side, for i = 1 .. size-1.
void ring_allgather(mpi::PointToPoint& rank, const std::vector<int>& members, int me)
{
  int n = static_cast<int>(members.size());
  for (int i = 1; i < n; ++i)
    rank.sendrecv(members[static_cast<std::size_t>((me + i) % n)], kInt,
                  members[static_cast<std::size_t>((me - i + n) % n)], kInt, kTagAllgather);
}

// bcast__scatter_LR_allgather of `nbytes` from member 0: binomial scatter of ceil(nbytes / n)-byte pieces,
// then n-1 ring steps passing the pieces to the right.
void scatter_ring_bcast(mpi::PointToPoint& rank, const std::vector<int>& members, int me, std::int64_t nbytes)
{
  int n = static_cast<int>(members.size());
  auto peer = [&members](int r) { return members[static_cast<std::size_t>(r)]; };
  ompi::binomial_scatter(rank, n, me, nbytes, kTagBcast, peer);
  std::int64_t piece = (nbytes + n - 1) / n;
  auto piece_of = [&](int r) {
    std::int64_t b = nbytes - r * piece;
    return static_cast<double>(b > piece ? piece : (b < 0 ? 0 : b));
  };
  int left = (n + me - 1) % n;
  int right = (me + 1) % n;
  int src = me;
  int next_src = left;
  for (int i = 1; i < n; ++i) {
    rank.sendrecv(peer(right), piece_of(src), peer(left), piece_of(next_src), kTagBcast);
    src = next_src;
    next_src = (n + next_src - 1) % n;
  }
}

} // namespace

void smp_init(mpi::PointToPoint& rank, const SmpLayout& layout)
{
  int n = static_cast<int>(layout.host_of.size());
  int me = rank.rank();
  std::vector<int> all(static_cast<std::size_t>(n));
  std::vector<int> leaders;
  std::vector<int> local;
  std::map<int, int> leader_of_host;
  for (int r = 0; r < n; ++r) {
    all[static_cast<std::size_t>(r)] = r;
    int host = layout.host_of[static_cast<std::size_t>(r)];
    if (leader_of_host.emplace(host, r).second)
      leaders.push_back(r); // the lowest rank of each host, in rank order
    if (host == layout.host_of[static_cast<std::size_t>(me)])
      local.push_back(r); // this host's ranks in rank order (SMPI lists a host's actors by creation)
  }
  ring_allgather(rank, all, me);
  if (local.front() == me) {
    int index = static_cast<int>(std::find(leaders.begin(), leaders.end(), me) - leaders.begin());
    ring_allgather(rank, leaders, index);
  }
  int local_index = static_cast<int>(std::find(local.begin(), local.end(), me) - local.begin());
  scatter_ring_bcast(rank, local, local_index, 4);
  // allreduce__default of one int: the default (nonblocking, waited) reduce to 0, then the binomial bcast.
  Call one_int{.size = n, .root = 0, .bytes = kInt, .bytes2 = kInt, .datatype_size = kInt};
  reduce_linear(rank, one_int);
  bcast_binomial(rank, one_int);
}

std::optional<SmpLayout> smp_init_pending(mpi::PointToPoint& rank, int size)
{
  auto* layouts = rank.smp_layouts();
  if (layouts == nullptr || layouts->count(rank.context()) != 0)
    return std::nullopt;
  SmpLayout layout;
  std::map<const simgrid::s4u::Host*, int> ids; // hosts numbered in the order the communicator's ranks use them
  for (int r = 0; r < size; ++r) {
    const auto* host = rank.host_of(r);
    if (host == nullptr)
      return std::nullopt;
    layout.host_of.push_back(ids.emplace(host, static_cast<int>(ids.size())).first->second);
  }
  layouts->emplace(rank.context(), layout.host_of);
  return layout;
}

std::optional<SmpLayout> smp_layout_known(mpi::PointToPoint& rank)
{
  auto* layouts = rank.smp_layouts();
  if (layouts == nullptr)
    return std::nullopt;
  auto it = layouts->find(rank.context());
  if (it == layouts->end())
    return std::nullopt;
  return SmpLayout{it->second};
}

} // namespace tit::colls
