#include "platform/platform_check.hpp"

#include "platform/topology.hpp"
#include "platform/units.hpp"

#include <fmt/core.h>
#include <pugixml.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace tit::platform {
namespace {

constexpr long long max_hosts = 1LL << 22; // beyond, SimGrid would take minutes and gigabytes to build the platform

std::string lower(std::string s)
{
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// One pass over the document in SimGrid's order: definitions register names, references must name something
/// defined before (as SimGrid's parser requires).
class Checker {
public:
  Checker(std::string_view text, const std::filesystem::path& file) : text_(text), file_(file)
  {
    for (std::size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n')
        line_starts_.push_back(i + 1);
  }

  Topology run()
  {
    pugi::xml_document doc;
    auto parsed = doc.load_buffer(text_.data(), text_.size(), pugi::parse_default | pugi::parse_ws_pcdata_single);
    if (not parsed)
      throw PlatformError(fmt::format("{}:{}: error: bad XML: {}", file_.string(), line_at(parsed.offset),
                                      parsed.description()));
    auto root = doc.child("platform");
    if (not root)
      throw PlatformError(fmt::format("{}: error: expected a <platform version=\"4.1\"> root element", file_.string()));
    check_version(root);
    walk_children(root, "");
    if (host_count_ == 0)
      throw PlatformError(fmt::format("{}: error: the platform declares no host (<host>, <cluster>, <cabinet> or "
                                      "<peer>)",
                                      file_.string()));
    return std::move(topology_);
  }

private:
  Topology topology_;
  std::vector<int> zones_{-1}; // the zone being read (index in topology_), -1 at the root
  std::string_view text_;
  std::filesystem::path file_;
  std::vector<std::size_t> line_starts_{0};
  std::set<std::string, std::less<>> netpoints_; // hosts, routers, zones: one name space in SimGrid
  std::set<std::string, std::less<>> hosts_;
  std::set<std::string, std::less<>> links_;
  std::set<std::string, std::less<>> split_duplex_;
  std::set<std::string, std::less<>> traces_;
  std::vector<std::string> cluster_prefixes_; // names a cluster makes besides its hosts (routers, links)
  std::set<std::string> routes_;              // "zone\nsrc\ndst" of the routes declared, for duplicates
  long long host_count_ = 0;

  std::size_t line_at(std::ptrdiff_t offset) const
  {
    auto off = static_cast<std::size_t>(std::max<std::ptrdiff_t>(offset, 0));
    return static_cast<std::size_t>(std::upper_bound(line_starts_.begin(), line_starts_.end(), off) -
                                    line_starts_.begin());
  }

  std::string where(const pugi::xml_node& node) const
  {
    std::string what = fmt::format("<{}", node.name());
    for (const char* key : {"id", "src", "dst"})
      if (auto a = node.attribute(key))
        what += fmt::format(" {}=\"{}\"", key, a.value());
    return fmt::format("{}:{}: error: {}>", file_.string(), line_at(node.offset_debug()), what);
  }

  [[noreturn]] void fail(const pugi::xml_node& node, const char* attr, const std::string& what,
                         const std::string& expected) const
  {
    throw PlatformError(fmt::format("{} {}=\"{}\": {}; expected {}", where(node), attr, node.attribute(attr).value(),
                                    what, expected));
  }

  [[noreturn]] void fail_element(const pugi::xml_node& node, const std::string& what) const
  {
    throw PlatformError(fmt::format("{}: {}", where(node), what));
  }

  std::string required(const pugi::xml_node& node, const char* attr) const
  {
    auto a = node.attribute(attr);
    if (not a)
      fail_element(node, fmt::format("the attribute {} is missing", attr));
    return a.value();
  }

  // ---- values -------------------------------------------------------------------------------------------------

  enum class Sign { positive, non_negative };

  double quantity(const pugi::xml_node& node, const char* attr, const std::string& text, Quantity kind, Sign sign) const
  {
    auto p = parse_quantity(kind, text);
    const char* what = kind == Quantity::speed ? "a speed" : kind == Quantity::bandwidth ? "a bandwidth" : "a latency";
    std::string expected = fmt::format("{}{} with a unit: {}", sign == Sign::positive ? "a number > 0" : "a number >= 0",
                                       kind == Quantity::time ? " (seconds)" : "", accepted_units(kind));
    if (not p.error.empty())
      fail(node, attr, fmt::format("not {}: {}", what, p.error), expected);
    if (sign == Sign::positive && p.value <= 0)
      fail(node, attr,
           p.value == 0 ? fmt::format("{} of 0 stops SimGrid's engine", what)
                        : fmt::format("{} cannot be negative", what),
           expected);
    if (sign == Sign::non_negative && p.value < 0)
      fail(node, attr, fmt::format("{} cannot be negative", what), expected);
    return p.value;
  }

  double required_quantity(const pugi::xml_node& node, const char* attr, Quantity kind, Sign sign) const
  {
    return quantity(node, attr, required(node, attr), kind, sign);
  }

  /// An optional quantity: absent or empty is `absent` (SimGrid's default).
  double optional_quantity(const pugi::xml_node& node, const char* attr, Quantity kind, Sign sign, double absent) const
  {
    std::string text = node.attribute(attr).value();
    return text.empty() ? absent : quantity(node, attr, text, kind, sign);
  }

  /// A comma-separated list of speeds, one per power state (SimGrid trims blanks around each).
  std::size_t speeds(const pugi::xml_node& node, const char* attr) const
  {
    auto list = split(required(node, attr), ",");
    for (auto& s : list) {
      auto first = s.find_first_not_of(" \t\r\n");
      auto last = s.find_last_not_of(" \t\r\n");
      s = first == std::string::npos ? "" : s.substr(first, last - first + 1);
      quantity(node, attr, s, Quantity::speed, Sign::positive);
    }
    return list.size();
  }

  long long count(const pugi::xml_node& node, const char* attr, const char* fallback, long long min,
                  const std::string& expected) const
  {
    auto a = node.attribute(attr);
    auto n = parse_count(a ? a.value() : fallback);
    if (not n)
      fail(node, attr, "not a whole number", expected);
    if (*n < min)
      fail(node, attr, fmt::format("must be at least {}", min), expected);
    return *n;
  }

  void file_attribute(const pugi::xml_node& node, const char* attr) const
  {
    std::string name = node.attribute(attr).value();
    if (name.empty())
      return;
    std::error_code ec;
    std::filesystem::path p(name);
    if (std::filesystem::exists(p, ec) || std::filesystem::exists(file_.parent_path() / p, ec))
      return;
    fail(node, attr, "no such file", "a profile file, relative to the platform's directory or the current one");
  }

  // ---- names --------------------------------------------------------------------------------------------------

  void define_netpoint(const pugi::xml_node& node, const std::string& name)
  {
    if (not netpoints_.insert(name).second)
      fail_element(node, fmt::format("the name '{}' is already used by another host, router or zone", name));
  }

  void define_host(const pugi::xml_node& node, const std::string& name)
  {
    define_netpoint(node, name);
    topology_.add_netpoint(name, zones_.back());
    hosts_.insert(name);
    ++host_count_;
  }

  void define_link(const pugi::xml_node& node, const std::string& name, bool split_duplex)
  {
    if (links_.count(name) != 0 || (split_duplex && (links_.count(name + "_UP") || links_.count(name + "_DOWN"))))
      fail_element(node, fmt::format("the link '{}' is declared twice", name));
    links_.insert(name);
    if (split_duplex) {
      split_duplex_.insert(name);
      links_.insert(name + "_UP");
      links_.insert(name + "_DOWN");
    }
  }

  bool made_by_cluster(std::string_view name) const
  {
    return std::any_of(cluster_prefixes_.begin(), cluster_prefixes_.end(),
                       [&](const std::string& p) { return not p.empty() && name.substr(0, p.size()) == p; });
  }

  void netpoint_reference(const pugi::xml_node& node, const char* attr) const
  {
    std::string name = required(node, attr);
    if (netpoints_.count(name) == 0 && not made_by_cluster(name))
      fail(node, attr, "no host, router or zone of that name is declared before", "the id of a <host>, <router>, "
                                                                                  "<zone> or cluster node declared "
                                                                                  "earlier in the file");
  }

  void link_reference(const pugi::xml_node& node) const
  {
    std::string name = required(node, "id");
    if (links_.count(name) == 0 && not made_by_cluster(name))
      fail(node, "id", "no link of that name is declared before", "the id of a <link> or <backbone> declared earlier");
    std::string direction = node.attribute("direction").value();
    if (split_duplex_.count(name) != 0 && direction != "UP" && direction != "DOWN")
      fail(node, "id", "a SPLITDUPLEX link needs a direction in a route", "direction=\"UP\" or direction=\"DOWN\"");
  }

  // ---- elements -----------------------------------------------------------------------------------------------

  void check_version(const pugi::xml_node& root) const
  {
    const char* text = root.attribute("version").value();
    char* end = nullptr;
    double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || not(v >= 3.995 && v <= 4.105))
      fail(root, "version", "SimGrid 3.32 reads platform files of version 4 or 4.1", "version=\"4.1\"");
  }

  void walk_children(const pugi::xml_node& parent, const std::string& routing)
  {
    for (auto node : parent.children())
      if (node.type() == pugi::node_element)
        element(node, routing);
  }

  void element(const pugi::xml_node& node, const std::string& routing)
  {
    std::string tag = node.name();
    if (tag == "zone" || tag == "AS")
      zone(node);
    else if (tag == "host")
      host(node);
    else if (tag == "link")
      link(node);
    else if (tag == "backbone") {
      define_link(node, required(node, "id"), false);
      required_quantity(node, "bandwidth", Quantity::bandwidth, Sign::positive);
      required_quantity(node, "latency", Quantity::time, Sign::non_negative);
    } else if (tag == "cluster")
      cluster(node);
    else if (tag == "cabinet")
      cabinet(node, routing);
    else if (tag == "peer")
      peer(node, routing);
    else if (tag == "router") {
      define_netpoint(node, required(node, "id"));
      topology_.add_netpoint(node.attribute("id").value(), zones_.back());
    }
    else if (tag == "host_link")
      host_link(node, routing);
    else if (tag == "route" || tag == "bypassRoute")
      route(node, routing, false);
    else if (tag == "zoneRoute" || tag == "ASroute" || tag == "bypassZoneRoute" || tag == "bypassASroute")
      route(node, routing, true);
    else if (tag == "trace")
      trace(node);
    else if (tag == "trace_connect")
      trace_connect(node);
    else if (tag == "actor" || tag == "process")
      fail_element(node, "actors belong in the deployment file given to tit-replay, not in the platform");
    else if (tag == "include" || tag == "storage" || tag == "storage_type" || tag == "mount")
      fail_element(node, "this element was removed from SimGrid's platform format (SimGrid 3.32 stops on it)");
  }

  void zone(const pugi::xml_node& node)
  {
    define_netpoint(node, required(node, "id"));
    std::string routing = lower(required(node, "routing"));
    static const std::vector<std::string> known{"full",  "floyd", "dijkstra", "dijkstracache", "none",
                                                "cluster", "vivaldi", "wifi"};
    if (std::find(known.begin(), known.end(), routing) == known.end())
      fail(node, "routing", "unknown routing", "one of Full, Floyd, Dijkstra, DijkstraCache, Cluster, Vivaldi, Wifi, "
                                               "None");
    bool wired = routing == "cluster" || routing == "vivaldi" || routing == "wifi";
    zones_.push_back(topology_.add_zone(node.attribute("id").value(), routing, wired, zones_.back()));
    walk_children(node, routing);
    zones_.pop_back();
    if (routing == "cluster")
      for (auto host : node.children("host")) {
        std::string id = host.attribute("id").value();
        if (not node.find_child_by_attribute("host_link", "id", id.c_str()))
          fail_element(host, "a host of a zone with routing=\"Cluster\" needs a <host_link> to the zone's links (SimGrid "
                             "stops at its first message otherwise)");
      }
  }

  void host(const pugi::xml_node& node)
  {
    define_host(node, required(node, "id"));
    auto states = speeds(node, "speed");
    count(node, "core", "1", 1, "a whole number of cores >= 1");
    // SimGrid reads the pstate as an int prefix ("0.0" is its default).
    const char* pstate = node.attribute("pstate") ? node.attribute("pstate").value() : "0";
    char* end = nullptr;
    long p = std::strtol(pstate, &end, 10);
    if (end == pstate || p < 0 || static_cast<std::size_t>(p) >= states)
      fail(node, "pstate", fmt::format("no such power state (the speed lists {})", states),
           fmt::format("an index from 0 to {}", states - 1));
    for (const char* f : {"speed_file", "availability_file", "state_file"})
      file_attribute(node, f);
    for (auto disk : node.children("disk")) {
      required_quantity(disk, "read_bw", Quantity::bandwidth, Sign::positive);
      required_quantity(disk, "write_bw", Quantity::bandwidth, Sign::positive);
    }
  }

  void link(const pugi::xml_node& node)
  {
    std::string policy = node.attribute("sharing_policy") ? node.attribute("sharing_policy").value() : "SHARED";
    static const std::vector<std::string> policies{"SHARED", "SPLITDUPLEX", "FULLDUPLEX", "FATPIPE", "WIFI"};
    if (std::find(policies.begin(), policies.end(), policy) == policies.end())
      fail(node, "sharing_policy", "unknown sharing policy", "SHARED, SPLITDUPLEX, FATPIPE or WIFI");
    define_link(node, required(node, "id"), policy == "SPLITDUPLEX" || policy == "FULLDUPLEX");
    auto bandwidths = split(required(node, "bandwidth"), ";,");
    if (bandwidths.size() > 1 && policy != "WIFI")
      fail(node, "bandwidth", "several bandwidths are for WIFI links only", "one bandwidth");
    for (auto const& b : bandwidths)
      quantity(node, "bandwidth", b, Quantity::bandwidth, Sign::positive);
    optional_quantity(node, "latency", Quantity::time, Sign::non_negative, 0);
    for (const char* f : {"bandwidth_file", "latency_file", "state_file"})
      file_attribute(node, f);
  }

  /// "1-4,6,9-11": the number of hosts it names.
  long long radicals(const pugi::xml_node& node) const
  {
    const char* expected = "comma-separated numbers or ranges FIRST-LAST with FIRST <= LAST, e.g. \"0-15\" or "
                           "\"0-3,8,10-11\"";
    long long total = 0;
    for (auto const& group : split(required(node, "radical"), ",")) {
      auto ends = split(group, "-");
      if (ends.size() > 2)
        fail(node, "radical", fmt::format("'{}' is not a number or a range", group), expected);
      auto first = parse_count(ends.front());
      auto last = parse_count(ends.back());
      if (not first || not last || *first > 2147483647LL || *last > 2147483647LL)
        fail(node, "radical", fmt::format("'{}' is not a number or a range of numbers", group), expected);
      if (*first > *last)
        fail(node, "radical", fmt::format("the range '{}' is empty: it names no host", group), expected);
      total += *last - *first + 1;
      if (total > max_hosts)
        fail(node, "radical", fmt::format("more than {} hosts", max_hosts), "a smaller cluster");
    }
    return total;
  }

  void define_radical_hosts(const pugi::xml_node& node, const std::string& prefix, const std::string& suffix)
  {
    for (auto const& group : split(node.attribute("radical").value(), ",")) {
      auto ends = split(group, "-");
      for (long long i = *parse_count(ends.front()); i <= *parse_count(ends.back()); ++i)
        define_host(node, prefix + std::to_string(i) + suffix);
    }
  }

  /// The number of nodes a topology describes, or fails naming what is expected.
  long long topology_nodes(const pugi::xml_node& node, const std::string& topology) const
  {
    std::string params = node.attribute("topo_parameters").value();
    std::string expected;
    if (topology == "TORUS")
      expected = "the size of each dimension, e.g. \"4,2,2\"";
    else if (topology == "FAT_TREE")
      expected = "LEVELS;DOWN,...;UP,...;PARALLEL,... with one count per level in each list, e.g. \"2;4,4;1,2;1,2\"";
    else
      expected = "GROUPS,BLUE_LINKS;CHASSIS,BLACK_LINKS;ROUTERS,GREEN_LINKS;NODES, e.g. \"2,2;2,1;2,1;2\"";
    auto counts = [&](const std::string& list, std::size_t n) {
      auto parts = split(list, ",");
      std::vector<long long> values;
      for (auto const& p : parts) {
        auto v = parse_count(p);
        if (not v || *v < 1 || *v > 1000000)
          fail(node, "topo_parameters", fmt::format("'{}' is not a count from 1 to 1000000", p), expected);
        values.push_back(*v);
      }
      if (n != 0 && values.size() != n)
        fail(node, "topo_parameters", fmt::format("'{}' has {} values instead of {}", list, values.size(), n), expected);
      return values;
    };
    auto product = [&](const std::vector<long long>& values) {
      long long p = 1;
      for (auto v : values) {
        p *= v;
        if (p > max_hosts)
          fail(node, "topo_parameters", fmt::format("more than {} nodes", max_hosts), expected);
      }
      return p;
    };
    if (topology == "TORUS")
      return product(counts(params, 0));
    auto parts = split(params, ";");
    if (parts.size() != 4)
      fail(node, "topo_parameters", fmt::format("{} parts separated by ';' instead of 4", parts.size()), expected);
    if (topology == "FAT_TREE") {
      auto levels = counts(parts[0], 1).front();
      auto down = counts(parts[1], static_cast<std::size_t>(levels));
      counts(parts[2], static_cast<std::size_t>(levels));
      counts(parts[3], static_cast<std::size_t>(levels));
      return product(down);
    }
    auto groups = counts(parts[0], 2);
    auto chassis = counts(parts[1], 2);
    auto routers = counts(parts[2], 2);
    auto nodes = counts(parts[3], 1);
    return product({groups[0], chassis[0], routers[0], nodes[0]});
  }

  void cluster(const pugi::xml_node& node)
  {
    std::string id = required(node, "id");
    std::string prefix = required(node, "prefix");
    std::string suffix = required(node, "suffix");
    long long n = radicals(node);
    speeds(node, "speed");
    count(node, "core", "1", 1, "a whole number of cores >= 1");
    required_quantity(node, "bw", Quantity::bandwidth, Sign::positive);
    required_quantity(node, "lat", Quantity::time, Sign::non_negative);
    double bb_bw = optional_quantity(node, "bb_bw", Quantity::bandwidth, Sign::non_negative, 0);
    double bb_lat = optional_quantity(node, "bb_lat", Quantity::time, Sign::non_negative, 0);
    if (bb_bw == 0 && bb_lat > 0)
      fail(node, "bb_bw", "a backbone with a latency needs a bandwidth (SimGrid's engine stops on a bandwidth of 0)",
           "a bandwidth > 0, or no bb_lat");
    optional_quantity(node, "limiter_link", Quantity::bandwidth, Sign::non_negative, 0); // 0: no limiter
    double lb_bw = optional_quantity(node, "loopback_bw", Quantity::bandwidth, Sign::non_negative, 0);
    double lb_lat = optional_quantity(node, "loopback_lat", Quantity::time, Sign::non_negative, 0);
    if (lb_bw == 0 && lb_lat > 0)
      fail(node, "loopback_bw", "a loopback with a latency needs a bandwidth (SimGrid's engine stops on a bandwidth of 0)",
           "a bandwidth > 0, or no loopback_lat");
    std::string topology = node.attribute("topology") ? node.attribute("topology").value() : "FLAT";
    if (topology != "FLAT" && topology != "TORUS" && topology != "FAT_TREE" && topology != "DRAGONFLY")
      fail(node, "topology", "unknown topology", "FLAT, TORUS, FAT_TREE or DRAGONFLY");
    for (const char* policy : {"sharing_policy", "bb_sharing_policy"}) {
      std::string p = node.attribute(policy).value();
      bool bb = std::string(policy) == "bb_sharing_policy";
      if (not p.empty() && p != "SHARED" && p != "FATPIPE" && (bb || (p != "SPLITDUPLEX" && p != "FULLDUPLEX")))
        fail(node, policy, "unknown sharing policy", bb ? "SHARED or FATPIPE" : "SHARED, SPLITDUPLEX or FATPIPE");
    }
    if (topology != "FLAT") {
      long long nodes = topology_nodes(node, topology);
      if (nodes != n)
        fail(node, "topo_parameters",
             fmt::format("the topology has {} nodes but the radical names {} hosts", nodes, n),
             "as many hosts in radical as nodes in the topology");
    }
    define_netpoint(node, id); // the cluster is a zone
    cluster_prefixes_.push_back(id + "_");
    cluster_prefixes_.push_back(prefix + id);
    zones_.push_back(topology_.add_zone(id, "cluster", true, zones_.back()));
    define_radical_hosts(node, prefix, suffix);
    if (std::string router = node.attribute("router_id").value(); not router.empty()) {
      define_netpoint(node, router);
      topology_.add_netpoint(router, zones_.back());
    }
    zones_.pop_back();
  }

  void cabinet(const pugi::xml_node& node, const std::string& routing)
  {
    if (routing != "cluster")
      fail_element(node, "a <cabinet> belongs in a zone with routing=\"Cluster\"");
    radicals(node);
    required_quantity(node, "speed", Quantity::speed, Sign::positive);
    required_quantity(node, "bw", Quantity::bandwidth, Sign::positive);
    required_quantity(node, "lat", Quantity::time, Sign::non_negative);
    std::string id = required(node, "id");
    cluster_prefixes_.push_back(id + "_");
    define_radical_hosts(node, required(node, "prefix"), required(node, "suffix"));
  }

  void peer(const pugi::xml_node& node, const std::string& routing)
  {
    if (routing != "vivaldi")
      fail_element(node, "a <peer> belongs in a zone with routing=\"Vivaldi\" (SimGrid stops on it elsewhere)");
    std::string id = required(node, "id");
    define_host(node, id);
    required_quantity(node, "speed", Quantity::speed, Sign::positive);
    required_quantity(node, "bw_in", Quantity::bandwidth, Sign::positive);
    required_quantity(node, "bw_out", Quantity::bandwidth, Sign::positive);
    std::string coordinates = node.attribute("coordinates").value();
    auto parts = split(coordinates, " ");
    bool ok = parts.size() == 3;
    for (auto const& p : parts) {
      char* end = nullptr;
      std::strtod(p.c_str(), &end);
      ok = ok && end != p.c_str() && *end == '\0';
    }
    if (not ok)
      fail(node, "coordinates", "a peer needs three coordinates", "three numbers separated by spaces, e.g. \"1 2 0\"");
    cluster_prefixes_.push_back("link_" + id); // its private links
    for (const char* f : {"speed_file", "availability_file", "state_file"})
      file_attribute(node, f);
  }

  void host_link(const pugi::xml_node& node, const std::string& routing)
  {
    if (routing != "cluster")
      fail_element(node, "a <host_link> belongs in a zone with routing=\"Cluster\" (SimGrid stops on it elsewhere)");
    if (hosts_.count(required(node, "id")) == 0)
      fail(node, "id", "no host of that name is declared before", "the id of a <host> of this zone");
    for (const char* attr : {"up", "down"})
      if (links_.count(required(node, attr)) == 0)
        fail(node, attr, "no link of that name is declared before", "the id of a <link> declared earlier");
  }

  void route(const pugi::xml_node& node, const std::string& routing, bool with_gateways)
  {
    netpoint_reference(node, "src");
    netpoint_reference(node, "dst");
    if (with_gateways) {
      netpoint_reference(node, "gw_src");
      netpoint_reference(node, "gw_dst");
    }
    bool has_links = false;
    for (auto ctn : node.children())
      if (ctn.type() == pugi::node_element && std::string(ctn.name()) == "link_ctn") {
        link_reference(ctn);
        has_links = true;
      }
    std::string tag = node.name();
    std::string symmetric = node.attribute("symmetrical") ? node.attribute("symmetrical").value() : "YES";
    std::string s = node.attribute("src").value(), d = node.attribute("dst").value();
    std::string gs = node.attribute("gw_src").value(), gd = node.attribute("gw_dst").value();
    if (tag.rfind("bypass", 0) == 0)
      topology_.add_bypass(s, d);
    else {
      topology_.add_route(zones_.back(), s, d, gs, gd, has_links);
      if (symmetric == "YES" || symmetric == "yes")
        topology_.add_route(zones_.back(), d, s, gd, gs, has_links);
    }
    if (tag.rfind("bypass", 0) == 0 || (routing != "full" && routing != "floyd" && routing != "dijkstra" &&
                                        routing != "dijkstracache"))
      return;
    std::string src = node.attribute("src").value();
    std::string dst = node.attribute("dst").value();
    std::string zone = node.parent().attribute("id").value();
    std::string symmetrical = node.attribute("symmetrical") ? node.attribute("symmetrical").value() : "YES";
    if (not routes_.insert(zone + '\n' + src + '\n' + dst).second)
      fail_element(node, fmt::format("a route from '{}' to '{}' is already declared in zone '{}' (routes are "
                                     "symmetrical unless symmetrical=\"NO\")",
                                     src, dst, zone));
    if ((symmetrical == "YES" || symmetrical == "yes") && src != dst &&
        not routes_.insert(zone + '\n' + dst + '\n' + src).second)
      fail_element(node, fmt::format("the route back from '{}' to '{}' is already declared in zone '{}' (add "
                                     "symmetrical=\"NO\" to declare the two directions apart)",
                                     dst, src, zone));
  }

  void trace(const pugi::xml_node& node)
  {
    std::string id = required(node, "id");
    if (not traces_.insert(id).second)
      fail_element(node, fmt::format("the trace '{}' is declared twice", id));
    std::string file = node.attribute("file").value();
    if (file.empty() && std::string(node.child_value()).find_first_not_of(" \t\r\n") == std::string::npos)
      fail_element(node, "a <trace> needs a file attribute or its values as content");
    file_attribute(node, "file");
    char* end = nullptr;
    const char* periodicity = node.attribute("periodicity").value();
    std::strtod(periodicity, &end);
    if (end == periodicity)
      fail(node, "periodicity", "not a number", "a period in seconds, e.g. \"-1\" for none");
  }

  void trace_connect(const pugi::xml_node& node)
  {
    if (traces_.count(required(node, "trace")) == 0)
      fail(node, "trace", "no trace of that name is declared before", "the id of a <trace> declared earlier");
    std::string element = required(node, "element");
    std::string kind = node.attribute("kind") ? node.attribute("kind").value() : "HOST_AVAIL";
    bool on_host = kind == "HOST_AVAIL" || kind == "SPEED";
    if (on_host ? hosts_.count(element) == 0 : links_.count(element) == 0)
      fail(node, "element", fmt::format("no {} of that name is declared before", on_host ? "host" : "link"),
           on_host ? "the id of a <host>" : "the id of a <link>");
  }
};

} // namespace

Topology check_platform_text(std::string_view text, const std::filesystem::path& file)
{
  return Checker(text, file).run();
}

Topology check_platform_file(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  if (not in)
    throw PlatformError(fmt::format("error: cannot open platform '{}'", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return check_platform_text(text.str(), file);
}

} // namespace tit::platform
