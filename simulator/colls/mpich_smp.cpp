#include "colls/mpich_smp.hpp"

#include <map>

namespace tit::colls {

SmpComms smp_comms(const SmpLayout& layout, int me)
{
  SmpComms c;
  int n = static_cast<int>(layout.host_of.size());
  std::map<int, int> leader_of_host;
  std::map<int, int> ranks_of_host;
  auto host = [&](int r) { return layout.host_of[static_cast<std::size_t>(r)]; };
  for (int r = 0; r < n; ++r) {
    if (leader_of_host.emplace(host(r), r).second) {
      if (r == me)
        c.leader_index = static_cast<int>(c.leaders.size());
      c.leaders.push_back(r);
    }
    c.leader_of.push_back(leader_of_host[host(r)]);
    ++ranks_of_host[host(r)];
    if (host(r) == host(me)) {
      if (r == me)
        c.local_index = static_cast<int>(c.local.size());
      c.local.push_back(r);
    }
  }
  for (auto const& [h, count] : ranks_of_host)
    if (count != ranks_of_host.begin()->second)
      c.uniform = false;
  return c;
}

SmpLayout smp_setup(mpi::PointToPoint& rank, int size)
{
  if (auto layout = smp_init_pending(rank, size)) {
    smp_init(rank, *layout);
    return *layout;
  }
  if (auto known = smp_layout_known(rank))
    return *known;
  SmpLayout alone;
  for (int r = 0; r < size; ++r)
    alone.host_of.push_back(r);
  return alone;
}

} // namespace tit::colls
