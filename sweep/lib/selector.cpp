#include "selector.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <stdexcept>

namespace tit::sweep {

const std::vector<std::string>& known_attributes(const std::string& element)
{
  static const std::map<std::string, std::vector<std::string>> table{
      {"host", {"id", "speed", "core", "availability_file", "state_file", "coordinates", "pstate"}},
      {"link", {"id", "bandwidth", "latency", "sharing_policy", "bandwidth_file", "latency_file", "state_file"}},
      {"backbone", {"id", "bandwidth", "latency"}},
      {"cluster", {"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy", "topology",
                   "topo_parameters", "availability_file", "state_file", "router_id", "limiter_link", "loopback_bw",
                   "loopback_lat", "bb_bw", "bb_lat", "bb_sharing_policy"}},
      {"cabinet", {"id", "prefix", "suffix", "radical", "speed", "bw", "lat"}},
      {"peer", {"id", "speed", "bw_in", "bw_out", "lat", "coordinates", "availability_file", "state_file"}},
      {"zone", {"id", "routing"}},
      {"AS", {"id", "routing"}},
      {"router", {"id", "coordinates"}},
      {"disk", {"id", "read_bw", "write_bw"}},
      {"prop", {"id", "value"}},
      {"host_link", {"id", "up", "down"}},
      {"link_ctn", {"id", "direction"}},
      {"route", {"src", "dst", "symmetrical"}},
      {"zoneRoute", {"src", "dst", "gw_src", "gw_dst", "symmetrical"}},
      {"bypassRoute", {"src", "dst"}},
  };
  static const std::vector<std::string> none;
  auto it = table.find(element);
  return it == table.end() ? none : it->second;
}

bool is_selector(const std::string& key)
{
  return key.find('@') != std::string::npos;
}

Selector parse_selector(const std::string& key)
{
  Selector s;
  auto at = key.rfind('@');
  if (at == std::string::npos || at + 1 == key.size())
    throw std::invalid_argument("expected ELEMENT[attr=value]@ATTRIBUTE, e.g. link[id=backbone]@bandwidth");
  s.attribute = key.substr(at + 1);
  std::string head = key.substr(0, at);
  auto bracket = head.find('[');
  std::string name = head.substr(0, bracket);
  if (name.empty())
    throw std::invalid_argument("no element type or id before '[' or '@'");
  while (bracket != std::string::npos) {
    auto close = head.find(']', bracket);
    auto eq = head.find('=', bracket);
    if (close == std::string::npos || eq == std::string::npos || eq > close)
      throw std::invalid_argument(fmt::format("expected [attr=value] in '{}'", head.substr(bracket)));
    std::string value = head.substr(eq + 1, close - eq - 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    s.where.emplace_back(head.substr(bracket + 1, eq - bracket - 1), value);
    bracket = close + 1 < head.size() ? close + 1 : std::string::npos;
    if (bracket != std::string::npos && head[bracket] != '[')
      throw std::invalid_argument(fmt::format("unexpected '{}' after ']'", head.substr(bracket)));
  }
  if (s.where.empty())
    s.bare = name;
  if (not known_attributes(name).empty() || not s.where.empty())
    s.element = name;
  else
    s.where.emplace_back("id", name); // a bare name that is no element type is an element id
  return s;
}

namespace {
void collect(pugi::xml_node node, const Selector& s, std::vector<pugi::xml_node>& out)
{
  for (pugi::xml_node child : node.children()) {
    if (child.type() != pugi::node_element)
      continue;
    bool match = s.element.empty() || s.element == child.name();
    for (auto const& [attr, value] : s.where)
      match = match && child.attribute(attr.c_str()) && value == child.attribute(attr.c_str()).value();
    if (match)
      out.push_back(child);
    collect(child, s, out);
  }
}
} // namespace

std::vector<pugi::xml_node> select(const pugi::xml_document& platform, const Selector& s)
{
  std::vector<pugi::xml_node> out;
  collect(platform, s, out);
  if (out.empty() && not s.bare.empty() && not s.element.empty()) {
    // A bare name that is an element type the platform does not use: try it as an id.
    Selector by_id = s;
    by_id.element.clear();
    by_id.where = {{"id", s.bare}};
    collect(platform, by_id, out);
  }
  return out;
}

} // namespace tit::sweep
