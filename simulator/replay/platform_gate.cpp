#include "replay/platform_gate.hpp"

#include "platform/platform_check.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace tit::replay {

platform::Topology check_platform(const std::filesystem::path& file)
{
  try {
    return platform::check_platform_file(file);
  } catch (const platform::PlatformError& e) {
    throw InputError(e.what());
  }
}

void check_routes(const platform::Topology& topology, const Placement& placement, const std::filesystem::path& platform)
{
  auto pair = topology.find_unrouted(placement.hosts);
  if (not pair)
    return;
  auto rank_on = [&](const std::string& host) {
    return std::find(placement.hosts.begin(), placement.hosts.end(), host) - placement.hosts.begin();
  };
  throw InputError(fmt::format("{}: error: no route from host '{}' (rank {}) to host '{}' (rank {}) of {}: SimGrid "
                               "would stop at their first message; declare a <route> (or <zoneRoute>) between them",
                               platform.string(), pair->first, rank_on(pair->first), pair->second, rank_on(pair->second),
                               placement.source));
}

} // namespace tit::replay
