// SMPI's Comm::init_smp on MPI_COMM_WORLD (smpi_comm.cpp): the collectives it runs, and where the ranks are.
#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
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

/// Kept on each rank's actor once its init_smp ran: the layout it found.
struct SmpInitDone {
  SmpLayout layout;
};

auto done_key()
{
  static const auto key = simgrid::s4u::Actor::extension_create<SmpInitDone>();
  return key;
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

std::optional<SmpLayout> smp_init_pending(mpi::PointToPoint&, int size)
{
  auto* self = simgrid::s4u::Actor::self();
  if (self == nullptr)
    return std::nullopt;
  if (self->extension(done_key()) != nullptr)
    return std::nullopt;
  // The replay names each rank's actor after its rank.
  std::vector<simgrid::s4u::Host*> hosts(static_cast<std::size_t>(size), nullptr);
  for (auto const& actor : simgrid::s4u::Engine::get_instance()->get_all_actors()) {
    std::string name = actor->get_name();
    int r = -1;
    auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), r);
    if (error == std::errc() && end == name.data() + name.size() && r >= 0 && r < size)
      hosts[static_cast<std::size_t>(r)] = actor->get_host();
  }
  SmpLayout layout;
  std::map<simgrid::s4u::Host*, int> ids;
  for (auto* host : hosts) {
    if (host == nullptr)
      throw std::logic_error("init_smp: a rank has no actor named after it");
    layout.host_of.push_back(ids.emplace(host, static_cast<int>(ids.size())).first->second);
  }
  self->extension_set(done_key(), new SmpInitDone{layout});
  return layout;
}

const SmpLayout* smp_layout_known()
{
  auto* self = simgrid::s4u::Actor::self();
  if (self == nullptr)
    return nullptr;
  auto* done = self->extension(done_key());
  return done == nullptr ? nullptr : &done->layout;
}

} // namespace tit::colls
