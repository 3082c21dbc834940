// Value modes of compressed traces: which arguments are volumes, and the bins of `binned:R`.
#include "compressed/values/values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tit::trace {

ValueMode parse_value_mode(std::string_view text)
{
  if (text == "exact")
    return ValueMode{};
  if (text == "stats")
    return ValueMode{ValueMode::Kind::Stats, 0, {}};
  if (text.starts_with("binned:")) {
    std::string_view r = text.substr(7);
    std::optional<double> v = detail::parse_double(r);
    if (v && *v > 0 && *v < 1)
      return ValueMode{ValueMode::Kind::Binned, *v, std::string(r)};
    throw TraceError(fmt::format("error: value mode '{}': the relative error R of binned:R must be a number "
                                 "between 0 and 1 (exclusive), e.g. binned:0.01",
                                 text));
  }
  throw TraceError(fmt::format("error: unknown value mode '{}' (accepted: exact, binned:R, stats)", text));
}

std::string value_mode_name(const ValueMode& mode)
{
  switch (mode.kind) {
    case ValueMode::Kind::Binned:
      return "binned:" + mode.bin_text;
    case ValueMode::Kind::Stats:
      return "stats";
    default:
      return "exact";
  }
}

namespace cformat {

std::vector<std::size_t> volume_positions(const Action& a)
{
  bool simgrid = a.dialect == Dialect::SimGrid;
  if (is_message(a.kind))
    return {simgrid ? std::size_t{2} : std::size_t{1}};
  switch (a.kind) {
    case Kind::Compute:
    case Kind::Sleep:
    case Kind::Bcast:
      return {0};
    case Kind::SendRecv:
      return {0, 2};
    case Kind::Reduce:
    case Kind::AllReduce:
    case Kind::Scan:
    case Kind::Exscan:
    case Kind::AllToAll:
    case Kind::Gather:
    case Kind::Scatter:
    case Kind::AllGather:
      return {0, 1};
    default:
      return {};
  }
}

std::vector<std::size_t> binned_positions(const Action& a)
{
  switch (a.kind) {
    case Kind::Compute:
    case Kind::Sleep:
      return {0};
    case Kind::Reduce:
    case Kind::AllReduce:
    case Kind::Scan:
    case Kind::Exscan:
      return {1};
    default:
      return {};
  }
}

Bins::Bins(double r) : r_(r), q_((1 + r) / (1 - r)), log_q_(std::log(q_)) {}

std::int64_t Bins::index(double v) const
{
  return static_cast<std::int64_t>(std::floor(std::log(v) / log_q_));
}

double Bins::representative(std::int64_t k) const
{
  return 2 * std::pow(q_, static_cast<double>(k + 1)) / (1 + q_);
}

std::string Bins::text(std::int64_t k, unsigned form) const
{
  double rep = representative(k);
  if (!std::isfinite(rep) || !(rep > 0))
    return {};
  if (form == 0) {
    double whole = std::round(rep);
    if (!(whole >= 1) || whole >= static_cast<double>(kIntLimit))
      return {};
    return fmt::format("{}", static_cast<std::int64_t>(whole));
  }
  return fmt::format("{:.6g}", rep);
}

bool Bins::find(const ValueRun& run, std::int64_t& k, unsigned& form) const
{
  if (run.is_int && run.count > 1 && run.step != 0)
    return false;
  std::optional<double> v = run.is_int ? std::optional<double>(static_cast<double>(run.first))
                                       : detail::parse_double(run.text);
  if (!v || !(*v > 0) || !std::isfinite(*v))
    return false;
  form = run.is_int ? 0 : 1;
  std::int64_t near = index(*v);
  // the written representative lies within R of the value it stands for, which may sit in the next bin
  for (std::int64_t c : {near, near - 1, near + 1}) {
    if (c > kMaxIndex || c < -kMaxIndex)
      continue;
    std::string t = text(c, form);
    if (t.empty())
      continue;
    if (run.is_int ? t == fmt::format("{}", run.first) : t == run.text) {
      k = c;
      return true;
    }
  }
  return false;
}

std::string bin_token(std::string_view token, double r)
{
  std::optional<double> v = detail::parse_double(token);
  if (!v || !(*v > 0))
    return std::string(token);
  Bins bins(r);
  double rep = bins.representative(bins.index(*v));
  auto close = [&](double x) { return std::fabs(x - *v) <= r * *v; };
  // the representative as an integer (compact in a value stream) whenever that is close enough, as "1e+07" is
  double whole = std::round(rep);
  if (close(whole) && whole < static_cast<double>(kIntLimit))
    return fmt::format("{}", static_cast<std::int64_t>(whole));
  std::int64_t as_int = 0;
  if (canonical_int(token, as_int)) // an integer too small for its bin: kept
    return std::string(token);
  // a fraction (seconds): 6 significant digits; at a bin's very edge that may not be close enough: kept
  std::string text = fmt::format("{:.6g}", rep);
  std::optional<double> back = detail::parse_double(text);
  return back && close(*back) ? text : std::string(token);
}

std::array<std::uint8_t, 16> stats_order(int rank, std::uint64_t cycle)
{
  // Fisher-Yates driven by splitmix64 seeded with the rank and the cycle: a fixed function, the same on every machine
  std::uint64_t state = static_cast<std::uint64_t>(rank) * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL +
                        cycle * 0xd1b54a32d192ed03ULL;
  auto next = [&state] {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  static_assert(kStatsSlots == 16);
  std::array<std::uint8_t, 16> order{};
  for (std::uint8_t i = 0; i < 16; ++i)
    order[i] = i;
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[next() % i]);
  return order;
}

std::vector<std::string> stats_schedule(const std::vector<double>& values, bool integers)
{
  auto token = [integers](double v) {
    return integers ? fmt::format("{}", static_cast<std::int64_t>(std::llround(v))) : fmt::format("{}", v);
  };
  std::vector<std::string> out;
  if (values.size() < 2 * kStatsSlots) {
    for (double v : values)
      out.push_back(token(v));
    return out;
  }
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  std::size_t n = sorted.size();
  std::vector<std::string> groups;
  for (std::size_t g = 0; g < kStatsSlots; ++g) {
    std::size_t from = g * n / kStatsSlots;
    std::size_t to = (g + 1) * n / kStatsSlots;
    double sum = 0;
    for (std::size_t i = from; i < to; ++i)
      sum += sorted[i];
    groups.push_back(token(sum / static_cast<double>(to - from)));
  }
  // bit-reversed order of the 16 groups: 0, 8, 4, 12, 2, ... (low, high, middle, ...), so that any 2^k
  // consecutive draws take one value from each of 2^k equal parts of the distribution
  static_assert(kStatsSlots == 16);
  for (std::size_t i = 0; i < kStatsSlots; ++i) {
    std::size_t r = ((i & 1) << 3) | ((i & 2) << 1) | ((i & 4) >> 1) | ((i & 8) >> 3);
    out.push_back(groups[r]);
  }
  return out;
}

} // namespace cformat

} // namespace tit::trace
