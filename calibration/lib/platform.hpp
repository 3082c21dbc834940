// Platform files: writing the calibrated model into a SimGrid platform (its <config> block, host and
// cluster speeds, cluster limiter links) while keeping everything else, and generating the common
// case, a hierarchical cluster in cabinets.
#pragma once

#include <pugixml.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace tit::calib {

using ConfigProps = std::vector<std::pair<std::string, std::string>>;

/// Loads a platform file keeping comments and the doctype. Throws InputError (missing file, bad XML with
/// its line, no <platform> root).
pugi::xml_document load_platform(const std::filesystem::path& path);

/// Sets each property in the <config> block that must open <platform> (created when absent): an existing
/// <prop> of the same id gets the new value, others are appended; other props are kept.
void set_config(pugi::xml_document& doc, const ConfigProps& props);

/// Sets the speed of every <host> and <cluster> (all when `targets` is empty, else those whose id is
/// listed) and its unit, the `tit/speed-unit` property (trace::kSpeedUnitProperty; removed when `unit`
/// is "unknown" or empty). Returns how many elements changed.
int set_speed(pugi::xml_document& doc, double speed, const std::string& unit, const std::vector<std::string>& targets);

/// Sets limiter_link = ratio x bw on every <cluster> (or those listed in `targets`); returns how many changed.
/// Throws InputError when a cluster's bw is not a plain number of bytes/s ("1.25e9" or with a Bps unit).
int set_limiter(pugi::xml_document& doc, double ratio, const std::vector<std::string>& targets);

/// Writes the document (indented, with its doctype) to `path`. Throws InputError when it cannot.
void save_platform(const pugi::xml_document& doc, const std::filesystem::path& path);

/// A cluster of `cabinets` x `nodes_per_cabinet` nodes, as the thesis described graphene: each node
/// has a split-duplex (full-duplex) private link and a limiter link capping what it sends + receives;
/// the nodes of a cabinet meet at the cabinet's switch (the cluster backbone); each cabinet reaches
/// the others through its own uplink (a limiter link between cabinets); nodes have a loopback link.
/// Nodes are named prefix + index + suffix, numbered across cabinets from 0.
struct ClusterSpec {
  int cabinets = 1;
  int nodes_per_cabinet = 2;
  std::string prefix = "node-";
  std::string suffix;
  double speed = 1e9; ///< flop/s
  int cores = 1;
  double node_bw = 1.25e8;     ///< B/s
  double node_lat = 1e-5;      ///< s
  double limiter_ratio = 1.5;  ///< limiter link bandwidth / node_bw
  double switch_bw = 1.25e9;   ///< cabinet switch (backbone)
  double switch_lat = 0;
  bool switch_fatpipe = true;  ///< the switch bounds each flow (FATPIPE) rather than sharing its bandwidth
  double uplink_bw = 1.25e9;   ///< between cabinets
  double uplink_lat = 1e-5;
  double loopback_bw = 6e9;
  double loopback_lat = 1e-7;
};

/// Throws InputError when a value is out of range.
pugi::xml_document generate_cluster(const ClusterSpec& spec);

/// The node names of the spec, in order (for hostfiles).
std::vector<std::string> node_names(const ClusterSpec& spec);

} // namespace tit::calib
