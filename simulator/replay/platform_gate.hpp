// What tit-replay checks of the platform before SimGrid loads it and before any rank runs (libs/platform/ does
// the checking; this turns its findings into the replayer's input errors, exit code 2).
#pragma once

#include "platform/topology.hpp"
#include "replay/placement.hpp"

#include <filesystem>

namespace tit::replay {

/// Values, units, ranges and references of the platform file; InputError naming file and line.
platform::Topology check_platform(const std::filesystem::path& file);

/// Every two hosts the placement uses have a route (SimGrid aborts at the first message otherwise); InputError naming
/// both hosts and the first rank placed on each.
void check_routes(const platform::Topology& topology, const Placement& placement, const std::filesystem::path& platform);

} // namespace tit::replay
