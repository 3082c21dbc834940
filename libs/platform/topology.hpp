// The routing structure of a platform file as the checker reads it: zones, where each host and router sits, and the
// routes declared. Answers "which two hosts have no route?" without the engine, where SimGrid would abort ("no
// connecting path between these two hosts", "Bad gateways") at the first message between them.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tit::platform {

class Topology {
public:
  /// `routing` lower-case (full, floyd, dijkstra, dijkstracache, none, cluster, vivaldi, wifi); `wired` when every
  /// two netpoints of the zone have a route by construction (<cluster>, star, Vivaldi and Wifi zones).
  int add_zone(const std::string& name, const std::string& routing, bool wired, int parent);
  void add_netpoint(const std::string& name, int zone);
  /// A route of `zone` between two of its children (hosts, routers or sub-zones); gateways empty for a plain route.
  void add_route(int zone, const std::string& src, const std::string& dst, const std::string& gw_src,
                 const std::string& gw_dst, bool has_links);
  void add_bypass(const std::string& src, const std::string& dst);

  /// The first ordered pair of these hosts (names as in the platform; unknown names are skipped) with no route,
  /// or nothing. Costs about the number of routes declared between the zones and hosts used, not hosts squared.
  std::optional<std::pair<std::string, std::string>> find_unrouted(const std::vector<std::string>& hosts) const;

private:
  struct Zone {
    std::string name;
    std::string routing;
    bool wired = false;
    int parent = -1;
  };
  struct Route {
    std::string gw_src, gw_dst;
    bool has_links = false;
  };
  std::vector<Zone> zones_;
  std::unordered_map<std::string, int> zone_of_;                            // netpoint -> englobing zone
  std::unordered_map<std::string, int> zone_index_;                         // zone name -> index
  std::map<std::tuple<int, std::string, std::string>, Route> routes_;       // (zone, src child, dst child)
  std::set<std::pair<std::string, std::string>> bypasses_;
  std::vector<int> path(const std::string& netpoint) const;
  bool routed(const std::string& a, const std::string& b, std::set<std::pair<std::string, std::string>>& done,
              int depth) const;
  bool reachable(int zone, const std::string& from, const std::string& to) const;
  mutable std::map<std::pair<int, std::string>, std::set<std::string>> reach_; // Floyd/Dijkstra, per source
};

} // namespace tit::platform
