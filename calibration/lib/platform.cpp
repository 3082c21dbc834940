#include "platform.hpp"

#include "csv.hpp"
#include "p2p.hpp"
#include "trace/reader.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace tit::calib {

namespace {

bool targeted(const pugi::xml_node& n, const std::vector<std::string>& targets)
{
  return targets.empty() || std::find(targets.begin(), targets.end(), n.attribute("id").value()) != targets.end();
}

pugi::xml_node platform_root(pugi::xml_document& doc)
{
  auto root = doc.child("platform");
  if (not root)
    throw InputError("error: the document has no <platform> root element");
  return root;
}

void collect(pugi::xml_node node, const char* name, std::vector<pugi::xml_node>& out)
{
  for (auto child : node.children()) {
    if (std::string_view(child.name()) == name)
      out.push_back(child);
    collect(child, name, out);
  }
}

/// "1.25e9", "1.25e9Bps", "1.25GBps", "10Gbps" -> bytes/s; false when unknown.
bool parse_bandwidth(std::string_view text, double& out)
{
  struct Unit {
    const char* name;
    double factor;
  };
  static const Unit units[] = {{"TBps", 1e12}, {"GBps", 1e9}, {"MBps", 1e6}, {"kBps", 1e3}, {"Bps", 1},
                               {"TiBps", 1099511627776.0}, {"GiBps", 1073741824.0}, {"MiBps", 1048576.0},
                               {"KiBps", 1024.0}, {"Tbps", 1e12 / 8}, {"Gbps", 1e9 / 8}, {"Mbps", 1e6 / 8},
                               {"kbps", 1e3 / 8}, {"bps", 1.0 / 8}};
  for (auto const& u : units) {
    std::string_view n(u.name);
    if (text.size() > n.size() && text.substr(text.size() - n.size()) == n) {
      double v = 0;
      if (not parse_number(text.substr(0, text.size() - n.size()), v))
        return false;
      out = v * u.factor;
      return true;
    }
  }
  return parse_number(text, out);
}

} // namespace

pugi::xml_document load_platform(const std::filesystem::path& path)
{
  pugi::xml_document doc;
  std::ifstream in(path, std::ios::binary);
  if (not in)
    throw InputError(fmt::format("{}: error: cannot open the platform file", path.string()));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto result = doc.load_buffer(text.data(), text.size(), pugi::parse_full);
  if (not result) {
    long line = 1 + std::count(text.begin(), text.begin() + std::min<std::ptrdiff_t>(result.offset, text.size()), '\n');
    throw InputError(fmt::format("{}:{}: error: malformed XML: {}", path.string(), line, result.description()));
  }
  if (not doc.child("platform"))
    throw InputError(fmt::format("{}: error: no <platform> root element", path.string()));
  return doc;
}

void set_config(pugi::xml_document& doc, const ConfigProps& props)
{
  auto root = platform_root(doc);
  auto config = root.child("config");
  if (not config) {
    config = root.prepend_child("config");
  } else if (config != root.first_child()) {
    // SimGrid wants <config> before any other element; comments may stay in front of it.
    for (auto n = root.first_child(); n != config; n = n.next_sibling())
      if (n.type() == pugi::node_element) {
        root.prepend_move(config);
        break;
      }
  }
  for (auto const& [id, value] : props) {
    auto prop = config.find_child_by_attribute("prop", "id", id.c_str());
    if (not prop) {
      prop = config.append_child("prop");
      prop.append_attribute("id") = id.c_str();
      prop.append_attribute("value");
    }
    if (not prop.attribute("value"))
      prop.append_attribute("value");
    prop.attribute("value") = value.c_str();
  }
}

int set_speed(pugi::xml_document& doc, double speed, const std::string& unit, const std::vector<std::string>& targets)
{
  std::vector<pugi::xml_node> nodes;
  collect(platform_root(doc), "host", nodes);
  collect(platform_root(doc), "cluster", nodes);
  int changed = 0;
  for (auto n : nodes)
    if (targeted(n, targets)) {
      if (not n.attribute("speed"))
        n.append_attribute("speed");
      n.attribute("speed") = fmt::format("{}f", num(speed)).c_str();
      auto prop = n.find_child_by_attribute("prop", "id", trace::kSpeedUnitProperty);
      if (unit.empty() || unit == "unknown") {
        n.remove_child(prop);
      } else {
        if (not prop) { // props come first among a host's or cluster's children
          prop = n.prepend_child("prop");
          prop.append_attribute("id") = trace::kSpeedUnitProperty;
          prop.append_attribute("value");
        }
        prop.attribute("value") = unit.c_str();
      }
      ++changed;
    }
  return changed;
}

int set_limiter(pugi::xml_document& doc, double ratio, const std::vector<std::string>& targets)
{
  std::vector<pugi::xml_node> clusters;
  collect(platform_root(doc), "cluster", clusters);
  int changed = 0;
  for (auto c : clusters) {
    if (not targeted(c, targets))
      continue;
    double bw = 0;
    if (not parse_bandwidth(c.attribute("bw").value(), bw) || not(bw > 0))
      throw InputError(fmt::format("error: cluster '{}': cannot read its bw '{}' (expected bytes/s, e.g. 1.25e8 or "
                                   "125MBps)",
                                   c.attribute("id").value(), c.attribute("bw").value()));
    if (not c.attribute("limiter_link"))
      c.append_attribute("limiter_link");
    c.attribute("limiter_link") = fmt::format("{}Bps", num(ratio * bw)).c_str();
    ++changed;
  }
  return changed;
}

void save_platform(const pugi::xml_document& doc, const std::filesystem::path& path)
{
  std::ofstream out(path, std::ios::binary);
  if (not out)
    throw InputError(fmt::format("{}: error: cannot write the platform file", path.string()));
  doc.save(out, "  ", pugi::format_indent);
  if (not out)
    throw InputError(fmt::format("{}: error: cannot write the platform file", path.string()));
}

std::vector<std::string> node_names(const ClusterSpec& spec)
{
  std::vector<std::string> names;
  for (int i = 0; i < spec.cabinets * spec.nodes_per_cabinet; ++i)
    names.push_back(fmt::format("{}{}{}", spec.prefix, i, spec.suffix));
  return names;
}

pugi::xml_document generate_cluster(const ClusterSpec& s)
{
  auto positive = [](double v, const char* what) {
    if (not(v > 0) || not std::isfinite(v))
      throw InputError(fmt::format("error: {} must be > 0, got {}", what, v));
  };
  auto non_negative = [](double v, const char* what) {
    if (not(v >= 0) || not std::isfinite(v))
      throw InputError(fmt::format("error: {} must be >= 0, got {}", what, v));
  };
  if (s.cabinets < 1 || s.nodes_per_cabinet < 1 || s.cores < 1)
    throw InputError("error: cabinets, nodes per cabinet and cores must be >= 1");
  positive(s.speed, "the node speed");
  positive(s.node_bw, "the node link bandwidth");
  positive(s.limiter_ratio, "the limiter ratio");
  positive(s.switch_bw, "the switch bandwidth");
  positive(s.uplink_bw, "the uplink bandwidth");
  positive(s.loopback_bw, "the loopback bandwidth");
  non_negative(s.node_lat, "the node link latency");
  non_negative(s.switch_lat, "the switch latency");
  non_negative(s.uplink_lat, "the uplink latency");
  non_negative(s.loopback_lat, "the loopback latency");

  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  doc.append_child(pugi::node_doctype).set_value("platform SYSTEM \"https://simgrid.org/simgrid.dtd\"");
  auto platform = doc.append_child("platform");
  platform.append_attribute("version") = "4.1";
  platform.append_child(pugi::node_comment)
      .set_value(fmt::format(" Generated by tit-calibrate platform: {} cabinet(s) of {} node(s). Route between two "
                             "nodes of a cabinet: node link (up), its limiter, cabinet switch, the other's limiter, "
                             "node link (down); between cabinets the two cabinets' uplinks come in between. ",
                             s.cabinets, s.nodes_per_cabinet)
                     .c_str());
  auto zone = platform.append_child("zone");
  zone.append_attribute("id") = "cabinets";
  zone.append_attribute("routing") = "Full";
  auto bw = [](double v) { return fmt::format("{}Bps", num(v)); };
  auto lat = [](double v) { return fmt::format("{}s", num(v)); };
  for (int c = 0; c < s.cabinets; ++c) {
    auto cl = zone.append_child("cluster");
    int first = c * s.nodes_per_cabinet;
    cl.append_attribute("id") = fmt::format("cabinet-{}", c).c_str();
    cl.append_attribute("prefix") = s.prefix.c_str();
    cl.append_attribute("suffix") = s.suffix.c_str();
    cl.append_attribute("radical") = fmt::format("{}-{}", first, first + s.nodes_per_cabinet - 1).c_str();
    cl.append_attribute("speed") = fmt::format("{}f", num(s.speed)).c_str();
    cl.append_attribute("core") = s.cores;
    cl.append_attribute("bw") = bw(s.node_bw).c_str();
    cl.append_attribute("lat") = lat(s.node_lat).c_str();
    cl.append_attribute("sharing_policy") = "SPLITDUPLEX";
    cl.append_attribute("limiter_link") = bw(s.limiter_ratio * s.node_bw).c_str();
    cl.append_attribute("bb_bw") = bw(s.switch_bw).c_str();
    cl.append_attribute("bb_lat") = lat(s.switch_lat).c_str();
    cl.append_attribute("bb_sharing_policy") = s.switch_fatpipe ? "FATPIPE" : "SHARED";
    cl.append_attribute("loopback_bw") = bw(s.loopback_bw).c_str();
    cl.append_attribute("loopback_lat") = lat(s.loopback_lat).c_str();
    cl.append_attribute("router_id") = fmt::format("cabinet-{}-router", c).c_str();
  }
  if (s.cabinets > 1) {
    for (int c = 0; c < s.cabinets; ++c) {
      auto l = zone.append_child("link");
      l.append_attribute("id") = fmt::format("cabinet-{}-uplink", c).c_str();
      l.append_attribute("bandwidth") = bw(s.uplink_bw).c_str();
      l.append_attribute("latency") = lat(s.uplink_lat).c_str();
    }
    for (int a = 0; a < s.cabinets; ++a)
      for (int b = a + 1; b < s.cabinets; ++b) {
        auto r = zone.append_child("zoneRoute");
        r.append_attribute("src") = fmt::format("cabinet-{}", a).c_str();
        r.append_attribute("dst") = fmt::format("cabinet-{}", b).c_str();
        r.append_attribute("gw_src") = fmt::format("cabinet-{}-router", a).c_str();
        r.append_attribute("gw_dst") = fmt::format("cabinet-{}-router", b).c_str();
        r.append_child("link_ctn").append_attribute("id") = fmt::format("cabinet-{}-uplink", a).c_str();
        r.append_child("link_ctn").append_attribute("id") = fmt::format("cabinet-{}-uplink", b).c_str();
      }
  }
  return doc;
}

} // namespace tit::calib
