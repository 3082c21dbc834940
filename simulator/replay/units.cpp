#include "replay/units.hpp"

#include "trace/reader.hpp"

#include <fmt/format.h>
#include <simgrid/s4u/Host.hpp>

namespace tit::replay {

std::string canonical_unit(std::string_view unit)
{
  auto x = unit.find(" x ");
  if (x == std::string_view::npos)
    return std::string(unit);
  return trace::compute_unit(unit.substr(0, x), unit.substr(x + 3));
}

void check_speed_units(const std::string& trace_unit, const std::string& traces,
                       const std::vector<simgrid::s4u::Host*>& hosts, Warnings& warnings)
{
  if (trace_unit.empty())
    return;
  std::string wanted = canonical_unit(trace_unit);
  for (auto const* host : hosts) {
    const char* property = host->get_property(trace::kSpeedUnitProperty);
    if (property == nullptr)
      continue;
    std::string unit = canonical_unit(property);
    if (unit == wanted)
      continue;
    std::string key = fmt::format("speed-unit {}", unit);
    if (not warnings.repeat(key))
      warnings.add(key, fmt::format("warning: the compute volumes of {} count {} (their header), but the speed of host "
                                    "'{}' counts {} per second ({} property): compute times are off by the ratio of "
                                    "the two rates; fit the speed from a trace of this kind (tit-calibrate cpu-trace, "
                                    "see calibration/README.md)",
                                    traces, wanted, host->get_name(), unit, trace::kSpeedUnitProperty));
  }
}

} // namespace tit::replay
