// Value modes of compressed traces: which arguments are volumes, and the bins of `binned:R`.
#include "trace/compressed.hpp"
#include "trace/compressed_format.hpp"

#include <fmt/format.h>

#include <cmath>

namespace tit::trace {

ValueMode parse_value_mode(std::string_view text)
{
  if (text == "exact")
    return ValueMode{};
  if (text.starts_with("binned:")) {
    std::string_view r = text.substr(7);
    std::optional<double> v = detail::parse_double(r);
    if (v && *v > 0 && *v < 1)
      return ValueMode{ValueMode::Kind::Binned, *v, std::string(r)};
    throw TraceError(fmt::format("error: value mode '{}': the relative error R of binned:R must be a number "
                                 "between 0 and 1 (exclusive), e.g. binned:0.01",
                                 text));
  }
  throw TraceError(fmt::format("error: unknown value mode '{}' (accepted: exact, binned:R)", text));
}

std::string value_mode_name(const ValueMode& mode)
{
  return mode.kind == ValueMode::Kind::Binned ? "binned:" + mode.bin_text : "exact";
}

namespace cformat {

std::vector<std::size_t> volume_positions(const Action& a)
{
  bool simgrid = a.dialect == Dialect::SimGrid;
  switch (a.kind) {
    case Kind::Compute:
    case Kind::Sleep:
    case Kind::Bcast:
      return {0};
    case Kind::Send:
    case Kind::Isend:
    case Kind::Recv:
    case Kind::Irecv:
    case Kind::Ssend:
    case Kind::Issend:
    case Kind::Bsend:
    case Kind::Ibsend:
      return {simgrid ? std::size_t{2} : std::size_t{1}};
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

std::string bin_token(std::string_view token, double r)
{
  std::optional<double> v = detail::parse_double(token);
  if (!v || !(*v > 0))
    return std::string(token);
  double q = (1 + r) / (1 - r);
  double k = std::floor(std::log(*v) / std::log(q));
  double rep = 2 * std::pow(q, k + 1) / (1 + q);
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

} // namespace cformat

} // namespace tit::trace
