#include "units.hpp"

#include "platform/units.hpp"

#include <cerrno>
#include <cstdlib>
#include <fmt/format.h>
#include <set>

namespace tit::sweep {

namespace {

std::string check_one(UnitKind kind, std::string text)
{
  while (not text.empty() && text.front() == ' ')
    text.erase(text.begin());
  while (not text.empty() && text.back() == ' ')
    text.pop_back();
  auto q = split_quantity(text);
  if (not q)
    return fmt::format("'{}' is not a number", text);
  if (kind == UnitKind::count) {
    if (not q->unit.empty() || q->number < 1 || q->number != static_cast<long>(q->number))
      return fmt::format("'{}' is not a positive whole number", text);
    return "";
  }
  // One unit table for the whole project: the platform checker's, which tit-replay applies too.
  auto quantity = kind == UnitKind::speed       ? platform::Quantity::speed
                  : kind == UnitKind::bandwidth ? platform::Quantity::bandwidth
                                                : platform::Quantity::time;
  auto parsed = platform::parse_quantity(quantity, text);
  if (not parsed.error.empty())
    return fmt::format("{} in {} value '{}' (SimGrid accepts {})", parsed.error, unit_kind_name(kind), text,
                       platform::accepted_units(quantity));
  return "";
}

} // namespace

UnitKind unit_kind_of_attribute(const std::string& a)
{
  static const std::set<std::string, std::less<>> bandwidths{"bandwidth", "bw",     "bb_bw",   "loopback_bw",
                                                             "limiter_link", "bw_in", "bw_out", "read_bw",
                                                             "write_bw"};
  static const std::set<std::string, std::less<>> times{"latency", "lat", "bb_lat", "loopback_lat"};
  if (a == "speed")
    return UnitKind::speed;
  if (bandwidths.count(a))
    return UnitKind::bandwidth;
  if (times.count(a))
    return UnitKind::time;
  if (a == "core")
    return UnitKind::count;
  return UnitKind::none;
}

const char* unit_kind_name(UnitKind kind)
{
  switch (kind) {
    case UnitKind::speed: return "speed";
    case UnitKind::bandwidth: return "bandwidth";
    case UnitKind::time: return "time";
    case UnitKind::count: return "count";
    default: return "text";
  }
}

std::optional<Quantity> split_quantity(const std::string& text)
{
  if (text.empty())
    return std::nullopt;
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || errno == ERANGE)
    return std::nullopt;
  return Quantity{v, std::string(end)};
}

std::string check_value(UnitKind kind, const std::string& text)
{
  if (kind == UnitKind::none)
    return "";
  // Speeds list pstates separated by ','; bandwidths may list several, separated by ',' or ';'.
  std::string separators = kind == UnitKind::speed ? "," : kind == UnitKind::bandwidth ? ",;" : "";
  std::size_t start = 0;
  while (true) {
    std::size_t stop = separators.empty() ? std::string::npos : text.find_first_of(separators, start);
    std::string err = check_one(kind, text.substr(start, stop == std::string::npos ? std::string::npos : stop - start));
    if (not err.empty())
      return err;
    if (stop == std::string::npos)
      return "";
    start = stop + 1;
  }
}

} // namespace tit::sweep
