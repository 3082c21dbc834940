// SimGrid 3.32's quantities in platform files: a number (as strtod reads it) followed by a unit.
// Knows nothing of the engine, so that the platform checker can be tested and fuzzed on its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tit::platform {

enum class Quantity { speed, bandwidth, time };

/// The value in base units (flop/s, bytes/s, seconds), or why SimGrid would refuse the text: `error` then says
/// what is wrong ("unknown unit 'Kbps'", ...). A missing unit means the base unit, as in SimGrid.
struct Parsed {
  double value = 0;
  std::string error;
};
Parsed parse_quantity(Quantity kind, std::string_view text);

/// The units SimGrid accepts for a quantity, for messages: "f, kf, Mf, ..., flops, kiloflops, ...".
std::string accepted_units(Quantity kind);

/// Splits on any of `separators`, as boost::split does (empty pieces kept).
std::vector<std::string> split(std::string_view text, std::string_view separators);

/// A whole non-negative decimal integer (surrounding blanks allowed), or nothing.
std::optional<long long> parse_count(std::string_view text);

} // namespace tit::platform
