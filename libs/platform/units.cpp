#include "platform/units.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

namespace tit::platform {
namespace {

using UnitTable = std::map<std::string, double, std::less<>>;

/// Adds `unit` and its prefixed forms: powers of 1000 (k, M, ...) or of 1024 (Ki, Mi, ...), abbreviated or spelled
/// out, as SimGrid's unit tables do.
void add_prefixed(UnitTable& table, const std::string& unit, double value, int base, bool abbreviated)
{
  static const std::vector<std::string> dec_abbr{"k", "M", "G", "T", "P", "E", "Z", "Y"};
  static const std::vector<std::string> dec_long{"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"};
  static const std::vector<std::string> bin_abbr{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
  static const std::vector<std::string> bin_long{"kibi", "mebi", "gibi", "tebi", "pebi", "exbi", "zebi", "yobi"};
  const auto& prefixes = base == 2 ? (abbreviated ? bin_abbr : bin_long) : (abbreviated ? dec_abbr : dec_long);
  double mult = base == 2 ? 1024.0 : 1000.0;
  table.emplace(unit, value);
  for (auto const& p : prefixes) {
    value *= mult;
    table.emplace(p + unit, value);
  }
}

const UnitTable& units(Quantity kind)
{
  static const UnitTable speed = [] {
    UnitTable t;
    add_prefixed(t, "f", 1.0, 10, true);
    add_prefixed(t, "flops", 1.0, 10, false);
    return t;
  }();
  static const UnitTable bandwidth = [] {
    UnitTable t;
    add_prefixed(t, "bps", 0.125, 2, true);
    add_prefixed(t, "bps", 0.125, 10, true);
    add_prefixed(t, "Bps", 1.0, 2, true);
    add_prefixed(t, "Bps", 1.0, 10, true);
    return t;
  }();
  static const UnitTable time{{"w", 7 * 24 * 3600.0}, {"d", 24 * 3600.0}, {"h", 3600.0}, {"m", 60.0}, {"s", 1.0},
                              {"ms", 1e-3},           {"us", 1e-6},         {"ns", 1e-9},   {"ps", 1e-12}};
  switch (kind) {
    case Quantity::speed:
      return speed;
    case Quantity::bandwidth:
      return bandwidth;
    case Quantity::time:
      break;
  }
  return time;
}

const char* base_unit(Quantity kind)
{
  switch (kind) {
    case Quantity::speed:
      return "f";
    case Quantity::bandwidth:
      return "Bps";
    case Quantity::time:
      break;
  }
  return "s";
}

} // namespace

Parsed parse_quantity(Quantity kind, std::string_view text)
{
  Parsed p;
  std::string s(text); // strtod needs a terminated string
  if (s.find('\0') != std::string::npos) {
    p.error = "a NUL character in the value";
    return p;
  }
  char* end = nullptr;
  errno = 0;
  p.value = std::strtod(s.c_str(), &end);
  if (errno == ERANGE) {
    p.error = "the number is out of range";
    return p;
  }
  if (end == s.c_str()) {
    p.error = "no number";
    return p;
  }
  std::string unit = *end == '\0' ? base_unit(kind) : std::string(end);
  auto const& table = units(kind);
  auto u = table.find(unit);
  if (u == table.end()) {
    p.error = "unknown unit '" + std::string(end) + "'";
    return p;
  }
  p.value *= u->second;
  if (not std::isfinite(p.value))
    p.error = "not a finite number";
  return p;
}

std::string accepted_units(Quantity kind)
{
  switch (kind) {
    case Quantity::speed:
      return "f, kf, Mf, Gf, Tf, Pf, Ef, Zf, Yf (or flops, kiloflops, megaflops, ...)";
    case Quantity::bandwidth:
      return "Bps, kBps, MBps, GBps, TBps, ... (powers of 1000), KiBps, MiBps, GiBps, ... (powers of 1024), or the same "
             "in bits: bps, kbps, Mbps, Kibps, ...";
    case Quantity::time:
      break;
  }
  return "s, ms, us, ns, ps, m, h, d, w";
}

std::vector<std::string> split(std::string_view text, std::string_view separators)
{
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto pos = text.find_first_of(separators, start);
    if (pos == std::string_view::npos) {
      parts.emplace_back(text.substr(start));
      return parts;
    }
    parts.emplace_back(text.substr(start, pos - start));
    start = pos + 1;
  }
}

std::optional<long long> parse_count(std::string_view text)
{
  auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    return std::nullopt;
  auto last = text.find_last_not_of(" \t\r\n");
  text = text.substr(first, last - first + 1);
  long long n = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || ptr != text.data() + text.size() || n < 0)
    return std::nullopt;
  return n;
}

} // namespace tit::platform
