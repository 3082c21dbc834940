#pragma once
// Values with units as SimGrid's platform parser reads them (xbt_parse_get_speed, _bandwidth, _time):
// a number, then a unit with an optional decimal (k, M, G, ...) or binary (Ki, Mi, ...) prefix.
// A value without unit takes the default unit (SimGrid warns but accepts it).
#include <optional>
#include <string>

namespace tit::sweep {

enum class UnitKind { none, speed, bandwidth, time, count };

// The unit kind of a platform attribute (speed, bw, bb_lat, ...); none when it takes free text.
UnitKind unit_kind_of_attribute(const std::string& attribute);
const char* unit_kind_name(UnitKind kind);

// Checks one value (speeds and bandwidths may be lists, as SimGrid reads pstates and split-duplex
// bandwidths). Returns an empty string when SimGrid accepts it, else what is wrong.
std::string check_value(UnitKind kind, const std::string& text);

// A number with its unit as written: "2.25GBps" -> {2.25, "GBps"}. Empty when no number leads.
struct Quantity {
  double number;
  std::string unit;
};
std::optional<Quantity> split_quantity(const std::string& text);

} // namespace tit::sweep
