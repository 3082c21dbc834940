#include "platform/topology.hpp"

#include <algorithm>
#include <deque>

namespace tit::platform {

int Topology::add_zone(const std::string& name, const std::string& routing, bool wired, int parent)
{
  zones_.push_back({name, routing, wired, parent});
  int index = static_cast<int>(zones_.size()) - 1;
  zone_index_.emplace(name, index);
  if (parent >= 0)
    zone_of_.emplace(name, parent);
  return index;
}

void Topology::add_netpoint(const std::string& name, int zone)
{
  zone_of_.emplace(name, zone);
}

void Topology::add_route(int zone, const std::string& src, const std::string& dst, const std::string& gw_src,
                         const std::string& gw_dst, bool has_links)
{
  routes_.try_emplace({zone, src, dst}, Route{gw_src, gw_dst, has_links});
}

void Topology::add_bypass(const std::string& src, const std::string& dst)
{
  bypasses_.emplace(src, dst);
}

/// The zones from the netpoint's englobing zone up to the root.
std::vector<int> Topology::path(const std::string& netpoint) const
{
  std::vector<int> zones;
  auto it = zone_of_.find(netpoint);
  for (int z = it == zone_of_.end() ? -1 : it->second; z >= 0 && zones.size() <= zones_.size(); z = zones_[z].parent)
    zones.push_back(z);
  return zones;
}

/// Floyd and Dijkstra zones chain routes: is there a path of declared routes from one child to another?
bool Topology::reachable(int zone, const std::string& from, const std::string& to) const
{
  auto [cached, fresh] = reach_.try_emplace({zone, from});
  auto& seen = cached->second;
  if (fresh) {
    std::deque<std::string> todo{from};
    while (not todo.empty()) {
      auto current = todo.front();
      todo.pop_front();
      for (auto it = routes_.lower_bound({zone, current, ""});
           it != routes_.end() && std::get<0>(it->first) == zone && std::get<1>(it->first) == current; ++it)
        if (seen.insert(std::get<2>(it->first)).second)
          todo.push_back(std::get<2>(it->first));
    }
  }
  return seen.count(to) != 0;
}

/// SimGrid's route from a to b: through the deepest common zone, between the two children holding a and b,
/// then recursively from a to the route's source gateway and from its destination gateway to b.
bool Topology::routed(const std::string& a, const std::string& b, std::set<std::pair<std::string, std::string>>& done,
                      int depth) const
{
  if (a == b || done.count({a, b}) != 0)
    return true;
  if (depth > 64) // gateways looping back on themselves: SimGrid would recurse forever
    return false;
  auto pa = path(a);
  auto pb = path(b);
  if (pa.empty() || pb.empty())
    return true; // not a netpoint we know: the engine's own checks apply
  auto within = [this](const std::string& end, const std::string& point, const std::vector<int>& zones) {
    return end == point || std::any_of(zones.begin(), zones.end(), [&](int z) { return zones_[z].name == end; });
  };
  for (auto const& bypass : bypasses_)
    if (within(bypass.first, a, pa) && within(bypass.second, b, pb))
      return true;
  // deepest common zone, and the children of it that hold a and b
  std::size_t ia = pa.size();
  std::size_t ib = pb.size();
  while (ia > 0 && ib > 0 && pa[ia - 1] == pb[ib - 1]) {
    --ia;
    --ib;
  }
  if (ia == pa.size()) // no common root: two root zones cannot happen in one file
    return false;
  int common = pa[ia];
  std::string ca = ia == 0 ? a : zones_[pa[ia - 1]].name;
  std::string cb = ib == 0 ? b : zones_[pb[ib - 1]].name;
  if (ca == cb) // one end is a wired zone holding the other (a gateway): routed inside it
    return true;
  auto const& zone = zones_[common];
  bool ok = true;
  if (zone.wired)
    ok = true;
  else if (zone.routing == "none")
    ok = false;
  else if (zone.routing == "full") {
    auto it = routes_.find({common, ca, cb});
    if (it == routes_.end())
      ok = false;
    else if (it->second.gw_src.empty())
      ok = it->second.has_links;
    else
      ok = routed(a, it->second.gw_src, done, depth + 1) && routed(it->second.gw_dst, b, done, depth + 1);
  } else // floyd, dijkstra
    ok = reachable(common, ca, cb);
  if (ok)
    done.emplace(a, b);
  return ok;
}

std::optional<std::pair<std::string, std::string>> Topology::find_unrouted(const std::vector<std::string>& hosts) const
{
  // Hosts of a wired zone are interchangeable seen from outside it: keep one per wired zone.
  std::vector<std::string> places;
  std::set<std::string> seen;
  for (auto const& h : hosts) {
    auto it = zone_of_.find(h);
    if (it == zone_of_.end() || it->second < 0) // outside any zone: SimGrid's parser refuses it, not routes
      continue;
    std::string place = zones_[it->second].wired ? zones_[it->second].name : h;
    if (seen.insert(place).second)
      places.push_back(place);
  }
  // Every ordered pair of places: in a Full zone each needs a route of its own in the file, so the work stays
  // within the size of the file while all is well; gateway queries are remembered; Floyd and Dijkstra zones explore
  // their graph once per source.
  std::set<std::pair<std::string, std::string>> done;
  auto host_of = [&](const std::string& place) {
    if (zone_index_.count(place) == 0)
      return place;
    for (auto const& h : hosts) // the first host of the deployment inside that wired zone
      if (auto it = zone_of_.find(h); it != zone_of_.end() && it->second >= 0 && zones_[it->second].name == place)
        return h;
    return place;
  };
  for (std::size_t i = 0; i < places.size(); ++i)
    for (std::size_t j = 0; j < places.size(); ++j)
      if (i != j && not routed(places[i], places[j], done, 0))
        return std::make_pair(host_of(places[i]), host_of(places[j]));
  return std::nullopt;
}

} // namespace tit::platform
