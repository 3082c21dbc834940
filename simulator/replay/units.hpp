// Whether the platform's CPU speeds are in the unit of the trace's compute volumes.
#pragma once

#include "replay/warnings.hpp"

#include <simgrid/forward.h>

#include <string>
#include <string_view>
#include <vector>

namespace tit::replay {

/// `unit` in the canonical form of trace::compute_unit() ("cpu-time x 1e9" -> "cpu-time x 1e+09").
std::string canonical_unit(std::string_view unit);

/// A warning per speed unit of `hosts` (their trace::kSpeedUnitProperty) that differs from `trace_unit`
/// (the trace's, `traces` naming it). Silent when either side does not say its unit.
void check_speed_units(const std::string& trace_unit, const std::string& traces,
                       const std::vector<simgrid::s4u::Host*>& hosts, Warnings& warnings);

} // namespace tit::replay
