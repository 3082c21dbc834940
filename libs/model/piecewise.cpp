#include "model/piecewise.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fmt/core.h>
#include <utility>

namespace tit::model {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep)
{
  std::vector<std::string_view> parts;
  while (true) {
    auto pos = text.find(sep);
    parts.push_back(text.substr(0, pos));
    if (pos == std::string_view::npos)
      return parts;
    text.remove_prefix(pos + 1);
  }
}

std::string_view trim(std::string_view s)
{
  while (not s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (not s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::uint64_t parse_threshold(std::string_view token, std::size_t chunk)
{
  token = trim(token);
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || token.empty())
    throw ModelError(fmt::format("chunk {}: threshold '{}' is not a non-negative integer (bytes)", chunk, token));
  return value;
}

/// Splits "a:b;c:d" into chunks of 2..max_fields numbers; the first is the threshold.
template <typename Fn> void for_each_chunk(std::string_view text, std::size_t max_fields, Fn&& fn)
{
  text = trim(text);
  if (text.empty())
    throw ModelError("empty value; expected 'threshold:value;...'");
  std::size_t chunk = 0;
  for (auto part : split(text, ';')) {
    ++chunk;
    part = trim(part);
    if (part.empty())
      continue; // tolerate a trailing ';'
    auto fields = split(part, ':');
    if (fields.size() < 2 || fields.size() > max_fields)
      throw ModelError(fmt::format("chunk {} '{}' has {} fields, expected 2 to {} separated by ':'", chunk, part,
                                   fields.size(), max_fields));
    std::array<double, 2> values{0, 0};
    for (std::size_t i = 1; i < fields.size(); ++i) {
      try {
        double v = parse_time_value(fields[i]); // fields past the second value are validated, then ignored
        if (i - 1 < values.size())
          values[i - 1] = v;
      } catch (const ModelError& e) {
        throw ModelError(fmt::format("chunk {}: {}", chunk, e.what()));
      }
    }
    fn(parse_threshold(fields[0], chunk), values);
  }
}

} // namespace

double parse_time_value(std::string_view token)
{
  token = trim(token);
  double value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || token.empty())
    throw ModelError(fmt::format("'{}' is not a number", token));
  std::string_view unit(end, token.data() + token.size() - end);
  static constexpr std::array<std::pair<std::string_view, double>, 10> units{{{"", 1.0},
                                                                              {"s", 1.0},
                                                                              {"ms", 1e-3},
                                                                              {"us", 1e-6},
                                                                              {"ns", 1e-9},
                                                                              {"ps", 1e-12},
                                                                              {"m", 60.0},
                                                                              {"h", 3600.0},
                                                                              {"d", 86400.0},
                                                                              {"w", 604800.0}}};
  for (auto const& [name, scale] : units)
    if (unit == name) {
      if (not std::isfinite(value))
        throw ModelError(fmt::format("'{}' is not a finite number", token));
      return value * scale;
    }
  throw ModelError(fmt::format("'{}' has an unknown unit '{}' (expected s, ms, us, ns, ps, m, h, d or w)", token, unit));
}

PiecewiseLinear PiecewiseLinear::parse(std::string_view text)
{
  PiecewiseLinear f;
  for_each_chunk(text, 5, [&f](std::uint64_t threshold, const std::array<double, 2>& v) {
    f.segments_.push_back({threshold, v[0], v[1]});
  });
  std::stable_sort(f.segments_.begin(), f.segments_.end(),
                   [](const Segment& a, const Segment& b) { return a.threshold < b.threshold; });
  f.zero_ = std::all_of(f.segments_.begin(), f.segments_.end(),
                        [](const Segment& s) { return s.offset == 0.0 && s.slope == 0.0; });
  return f;
}

double PiecewiseLinear::operator()(double size) const
{
  if (segments_.empty())
    return 0.0;
  const Segment* current = &segments_.front();
  for (auto const& s : segments_) {
    if (size <= static_cast<double>(s.threshold))
      break;
    current = &s;
  }
  return current->offset + current->slope * size;
}

FactorTable FactorTable::parse(std::string_view text)
{
  FactorTable t;
  for_each_chunk(text, 2, [&t](std::uint64_t threshold, const std::array<double, 2>& v) {
    if (v[0] <= 0)
      throw ModelError(fmt::format("factor for threshold {} must be positive, got {}", threshold, v[0]));
    t.entries_.push_back({threshold, v[0]});
  });
  std::stable_sort(t.entries_.begin(), t.entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.threshold < b.threshold; });
  return t;
}

double FactorTable::operator()(double size) const
{
  double current = 1.0;
  for (auto const& e : entries_) {
    if (size <= static_cast<double>(e.threshold))
      return current;
    current = e.value;
  }
  return current;
}

} // namespace tit::model
