#include "model/params.hpp"

#include "trace/kinds.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u/Host.hpp>
#include <xbt/config.hpp>

#include <charconv>
#include <cmath>
#include <sstream>

namespace tit::model {
namespace {

constexpr const char* kLocalCopyBw = "tit/local-copy-bw";
constexpr const char* kTracedTests = "tit/traced-tests";
constexpr const char* kHostAvailability = "tit/host-availability";
constexpr const char* kInOrderDelivery = "tit/in-order-delivery";
constexpr const char* kBusyWait = "tit/busy-wait";
constexpr const char* kOir = "tit/oir";
constexpr const char* kOsSelf = "tit/os-self";
constexpr const char* kOisWait = "tit/ois-wait";
constexpr const char* kCollOverhead = "tit/coll-overhead";
constexpr const char* kRankStart = "tit/rank-start";

template <typename T> T config_value(const char* name)
{
  return simgrid::config::get_value<T>(name);
}

PiecewiseLinear parse_piecewise(const char* name, const std::string& text, const std::string& where)
{
  try {
    return PiecewiseLinear::parse(text);
  } catch (const ModelError& e) {
    throw ModelError(fmt::format("{}{} '{}': {} (expected 'threshold:offset:slope;...')", where, name, text, e.what()));
  }
}

/// tit/local-copy-bw: "RATE" (every size; 0: free) or "SIZE:RATE;..." (each rate > 0), sorted by size.
std::vector<std::pair<std::uint64_t, double>> parse_copy_rates(const std::string& text)
{
  auto bad = [&](const std::string& why) {
    return ModelError(fmt::format("{} '{}': expected a rate in bytes per second, a finite number >= 0 (0: local "
                                  "copies take no time, the default), or 'SIZE:RATE;...' (rates > 0, e.g. "
                                  "'0:2e10;8000000:5.5e9': a copy beyond the caches at the memory's rate); {}",
                                  kLocalCopyBw, text, why));
  };
  if (text.find(':') == std::string::npos) {
    double rate = 0;
    auto first = text.data() + (text.starts_with('+') ? 1 : 0);
    auto [end, ec] = std::from_chars(first, text.data() + text.size(), rate);
    if (ec != std::errc() || end != text.data() + text.size())
      throw bad("not a number");
    if (not std::isfinite(rate) || rate < 0)
      throw bad("not a finite number >= 0");
    if (rate == 0)
      return {};
    return {{0, rate}};
  }
  FactorTable table;
  try {
    table = FactorTable::parse(text);
  } catch (const ModelError& e) {
    throw bad(e.what());
  }
  std::vector<std::pair<std::uint64_t, double>> rates;
  for (auto const& e : table.entries()) {
    if (not std::isfinite(e.value))
      throw bad(fmt::format("the rate of size {} is not finite", e.threshold));
    rates.emplace_back(e.threshold, e.value);
  }
  return rates;
}

/// Calls fn(item, colon) for each non-empty ';'-separated item of `text`, `colon` the position of its first ':'
/// (npos when it has none): the lists of tit/coll-overhead and tit/rank-start.
template <typename Fn> void for_each_item(const std::string& text, Fn&& fn)
{
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ';'))
    if (not item.empty())
      fn(item, item.find(':'));
}

/// tit/coll-overhead: "KIND:SIZE:OFFSET:SLOPE;..." (KIND a blocking collective's name), one piecewise-linear
/// function per collective named.
std::map<std::string, PiecewiseLinear, std::less<>> parse_coll_overheads(const std::string& text)
{
  std::vector<std::string> names;
  for (std::size_t k = 0; k < trace::kKindCount; ++k)
    if (trace::is_collective(static_cast<trace::Kind>(k)))
      names.emplace_back(trace::kind_name(static_cast<trace::Kind>(k)));
  auto bad = [&](const std::string& why) {
    return ModelError(fmt::format("{} '{}': {} (expected 'COLLECTIVE:SIZE:OFFSET:SLOPE;...', COLLECTIVE one of {}, "
                                  "e.g. 'allreduce:0:4e-6:1e-10')",
                                  kCollOverhead, text, why, fmt::join(names, ", ")));
  };
  std::map<std::string, std::string, std::less<>> pieces;
  for_each_item(text, [&](const std::string& item, std::size_t colon) {
    std::string name = item.substr(0, colon);
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw bad(fmt::format("'{}' is not a blocking collective", name));
    if (colon == std::string::npos)
      throw bad(fmt::format("'{}' has no SIZE:OFFSET:SLOPE", item));
    auto& piece = pieces[name];
    piece += (piece.empty() ? "" : ";") + item.substr(colon + 1);
  });
  std::map<std::string, PiecewiseLinear, std::less<>> out;
  for (auto const& [name, piece] : pieces) {
    try {
      out.emplace(name, PiecewiseLinear::parse(piece));
    } catch (const ModelError& e) {
      throw bad(fmt::format("{}: {}", name, e.what()));
    }
  }
  return out;
}

/// tit/rank-start: "RANK:SECONDS;..." (a rank at most once, SECONDS finite and >= 0); empty: none.
std::map<int, double> parse_rank_start(const std::string& text)
{
  auto bad = [&](const std::string& why) {
    return ModelError(fmt::format("{} '{}': expected 'RANK:SECONDS;...', the time at which each rank named starts "
                                  "its trace (a rank number >= 0, seconds >= 0; e.g. '1:0.0036;2:0.0011'); {}",
                                  kRankStart, text, why));
  };
  std::map<int, double> out;
  for_each_item(text, [&](const std::string& item, std::size_t colon) {
    if (colon == std::string::npos)
      throw bad(fmt::format("'{}' has no ':'", item));
    int rank = -1;
    const char* r0 = item.data();
    auto [rend, rec] = std::from_chars(r0, r0 + colon, rank);
    if (rec != std::errc() || rend != r0 + colon || rank < 0)
      throw bad(fmt::format("'{}' is not a rank number", item.substr(0, colon)));
    double seconds = 0;
    const char* s0 = item.data() + colon + 1;
    auto [send, sec] = std::from_chars(s0, item.data() + item.size(), seconds);
    if (sec != std::errc() || send != item.data() + item.size() || not std::isfinite(seconds) || seconds < 0)
      throw bad(fmt::format("'{}' is not a number of seconds >= 0", item.substr(colon + 1)));
    if (not out.emplace(rank, seconds).second)
      throw bad(fmt::format("rank {} is given twice", rank));
  });
  return out;
}

} // namespace

MpiParams MpiParams::from_config()
{
  declare_config_flags(); // for engines made without it (tests): then the defaults
  MpiParams p;
  p.detached_thresh = config_value<int>("smpi/send-is-detached-thresh");
  p.async_small_thresh = config_value<int>("smpi/async-small-thresh");
  p.test_sleep = config_value<double>("smpi/test");
  p.iprobe_sleep = config_value<double>("smpi/iprobe");
  p.iprobe_cpu_usage = config_value<double>("smpi/iprobe-cpu-usage");
  p.grow_injected_times = config_value<bool>("smpi/grow-injected-times");
  p.simulate_computation = config_value<bool>("smpi/simulate-computation");
  p.init_sleep = config_value<double>("smpi/init");
  p.finalization_barrier = config_value<bool>("smpi/finalization-barrier");
  p.traced_tests = config_value<bool>(kTracedTests);
  p.in_order_delivery = config_value<bool>(kInOrderDelivery);
  p.busy_wait = config_value<double>(kBusyWait);
  if (not(p.busy_wait >= 0 && p.busy_wait <= 1))
    throw ModelError(fmt::format("{} '{}': expected the share of a core a waiting rank holds, a number in [0, 1] (1: "
                                 "it polls, as Open MPI's ranks do; 0: it holds none, the default, as SimGrid)",
                                 kBusyWait, p.busy_wait));
  if (p.async_small_thresh > p.detached_thresh)
    throw ModelError(fmt::format("smpi/async-small-thresh ({}) must not exceed smpi/send-is-detached-thresh ({})",
                                 p.async_small_thresh, p.detached_thresh));
  p.default_overheads.os = parse_piecewise("smpi/os", config_value<std::string>("smpi/os"), "");
  p.default_overheads.ois = parse_piecewise("smpi/ois", config_value<std::string>("smpi/ois"), "");
  p.default_overheads.orecv = parse_piecewise("smpi/or", config_value<std::string>("smpi/or"), "");
  for (auto [name, f] : {std::pair{kOir, &p.default_overheads.oir}, std::pair{kOsSelf, &p.default_overheads.os_self},
                         std::pair{kOisWait, &p.default_overheads.ois_wait}})
    if (auto text = config_value<std::string>(name); not text.empty()) // unset: none
      *f = parse_piecewise(name, text, "");
  p.local_copy_rates = parse_copy_rates(config_value<std::string>(kLocalCopyBw));
  p.coll_overheads = parse_coll_overheads(config_value<std::string>(kCollOverhead));
  p.rank_start = parse_rank_start(config_value<std::string>(kRankStart));
  p.time_precision = config_value<double>("surf/precision");
  for (const char* name : {"smpi/bw-factor", "smpi/lat-factor"}) {
    auto text = config_value<std::string>(name);
    try {
      FactorTable::parse(text);
    } catch (const ModelError& e) {
      throw ModelError(fmt::format("{} '{}': {} (expected 'threshold:factor;...')", name, text, e.what()));
    }
  }
  return p;
}

void declare_config_flags()
{
  static bool declared = false;
  if (declared)
    return;
  declared = true;
  simgrid::config::declare_flag<std::string>(kLocalCopyBw,
                                             "rate (bytes/s) of a rank's copies to itself, or 'SIZE:RATE;...' by "
                                             "size; 0: free, as SimGrid",
                                             "0");
  simgrid::config::declare_flag<bool>(kTracedTests, "whether tests and waitany take the outcome the trace implies",
                                      true);
  simgrid::config::declare_flag<std::string>(kHostAvailability,
                                             "HOST:FRACTION;...: hosts that compute at a fraction of their speed", "");
  simgrid::config::declare_flag<bool>(kInOrderDelivery,
                                      "whether the eager messages of a pair of ranks are transferred one after the other",
                                      false);
  simgrid::config::declare_flag<double>(kBusyWait,
                                        "share of a core a rank holds while it waits in MPI (1: it polls; 0: none, as "
                                        "SimGrid)",
                                        0.0);
  simgrid::config::declare_flag<std::string>(kOir, "time to post an MPI_Irecv, 'threshold:offset:slope;...'; none by "
                                                   "default, as SimGrid",
                                             "");
  simgrid::config::declare_flag<std::string>(kOsSelf,
                                             "time of a send or isend to the rank itself, instead of smpi/os or "
                                             "smpi/ois, 'threshold:offset:slope;...'; unset by default, as SimGrid",
                                             "");
  simgrid::config::declare_flag<std::string>(kCollOverhead,
                                             "per blocking collective, the time each rank spends in it beyond its "
                                             "messages, 'COLLECTIVE:SIZE:OFFSET:SLOPE;...'; none by default, as SimGrid",
                                             "");
  simgrid::config::declare_flag<std::string>(kRankStart,
                                             "per rank, the time at which it starts its trace, 'RANK:SECONDS;...'; "
                                             "none by default (every rank at 0), as SimGrid",
                                             "");
  simgrid::config::declare_flag<std::string>(kOisWait,
                                             "time of the wait (or test) that completes a buffered isend, "
                                             "'threshold:offset:slope;...'; none by default, as SimGrid",
                                             "");
}

void apply_host_availability()
{
  declare_config_flags();
  const auto text = config_value<std::string>(kHostAvailability);
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ';')) {
    auto colon = item.rfind(':');
    auto bad = [&](const std::string& why) {
      return ModelError(fmt::format("{} '{}': {} (expected 'HOST:FRACTION;...', each fraction in (0, 1], e.g. "
                                    "'node-3:0.5')",
                                    kHostAvailability, text, why));
    };
    if (colon == std::string::npos || colon == 0)
      throw bad(fmt::format("'{}' is not HOST:FRACTION", item));
    std::string host_name = item.substr(0, colon);
    std::string value = item.substr(colon + 1);
    double fraction = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), fraction);
    if (ec != std::errc() || end != value.data() + value.size() || not(fraction > 0 && fraction <= 1))
      throw bad(fmt::format("the fraction of '{}' is '{}'", host_name, value));
    simgrid::s4u::Host* host = simgrid::s4u::Host::by_name_or_null(host_name);
    if (host == nullptr)
      throw bad(fmt::format("the platform has no host '{}'", host_name));
    host->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
        fmt::format("{}:{}", kHostAvailability, host_name), fmt::format("0 {}\n", value), -1));
  }
}

HostOverheads MpiParams::overheads_of(const simgrid::s4u::Host& host) const
{
  HostOverheads o = default_overheads;
  auto where = fmt::format("host '{}' property ", host.get_name());
  if (const char* v = host.get_property("smpi/os"))
    o.os = parse_piecewise("smpi/os", v, where);
  if (const char* v = host.get_property("smpi/ois"))
    o.ois = parse_piecewise("smpi/ois", v, where);
  if (const char* v = host.get_property("smpi/or"))
    o.orecv = parse_piecewise("smpi/or", v, where);
  if (const char* v = host.get_property(kOir))
    o.oir = parse_piecewise(kOir, v, where);
  if (const char* v = host.get_property(kOsSelf))
    o.os_self = parse_piecewise(kOsSelf, v, where);
  if (const char* v = host.get_property(kOisWait))
    o.ois_wait = parse_piecewise(kOisWait, v, where);
  return o;
}

const std::vector<ParamDoc>& documented_parameters()
{
  static const std::vector<ParamDoc> docs{
      {"smpi/os", "MPI_Send overhead of detached messages, 'threshold:offset:slope;...' (s, s/B); default 0"},
      {"smpi/or", "receive overhead of detached messages, same form; default 0"},
      {"smpi/ois", "MPI_Isend overhead, same form; default 0"},
      {"smpi/bw-factor", "bandwidth factors 'threshold:factor;...' by message size (SimGrid 3.32 defaults)"},
      {"smpi/lat-factor", "latency factors 'threshold:factor;...' by message size (SimGrid 3.32 defaults)"},
      {"smpi/send-is-detached-thresh", "payload size (B) below which sends are buffered; default 65536"},
      {"smpi/async-small-thresh", "payload size (B) below which sends are eager; default 0 (off)"},
      {"smpi/test", "time injected by MPI_Test, times a counter growing on failures; default 1e-4"},
      {"smpi/iprobe", "time injected by each probe of a receive of unknown size; default 1e-4"},
      {"smpi/grow-injected-times", "whether failed tests/probes make the injected time grow; default yes"},
      {"smpi/simulate-computation", "whether compute actions take time; default yes"},
      {"smpi/init", "time injected before each rank's init; default 0"},
      {"smpi/finalization-barrier", "whether ranks end with a barrier; default no"},
      {"tit/local-copy-bw", "rate (B/s) of a rank's messages to itself (sendrecv to itself, a collective's own "
                            "block), or 'SIZE:RATE;...' by size (beyond the caches, the memory's rate); default 0: "
                            "free, as SimGrid (not SimGrid's: off in the compatible default)"},
      {"tit/traced-tests", "whether a test the trace never follows with a wait for its request completes it, "
                              "waiting if needed (docs/mpi-semantics.md); default yes (no: the replay's own outcome, as SimGrid's replayer)"},
      {"tit/host-availability", "'HOST:FRACTION;...': those hosts compute at that fraction of their speed (a node of "
                                "a cluster slower than the others); default none (not SimGrid's)"},
      {"tit/in-order-delivery", "whether the eager messages from one rank to another are transferred one after the "
                                "other, as over a TCP connection (docs/model.md); default no: they share the route "
                                "while in flight together, as in SimGrid"},
      {"tit/oir", "time to post an MPI_Irecv of the trace, 'threshold:offset:slope;...' as smpi/ois (docs/model.md); "
                  "default none, as SimGrid"},
      {"tit/os-self", "time of a send or isend to the rank itself, instead of smpi/os or smpi/ois, same form "
                      "(docs/model.md); default unset: smpi/os or smpi/ois, as SimGrid"},
      {"tit/coll-overhead", "per blocking collective, the time every rank of a call spends in it beyond its "
                            "algorithm's messages, charged when they are over: 'COLLECTIVE:SIZE:OFFSET:SLOPE;...' by "
                            "the call's bytes, as smpi/os (docs/model.md); default none, as SimGrid"},
      {"tit/ois-wait", "time of the wait, waitall, waitany or test that completes a buffered (detached) isend: the "
                       "library copies its payload there, not in MPI_Isend; same form as smpi/ois (docs/model.md); "
                       "default none, as SimGrid"},
      {"tit/busy-wait", "share of a core a rank holds while it waits in MPI, as a library that polls does (1: Open "
                        "MPI's ranks; ranks sharing too few cores then compute the slower: docs/model.md); default 0: "
                        "none, as SimGrid"},
      {"tit/rank-start", "'RANK:SECONDS;...': the time at which each rank named starts its trace, as the ranks "
                         "of a traced run left MPI_Init at different times (the accuracy harness replays a run "
                         "with its own, docs/model.md); default none: every rank at 0, as SimGrid"},
      {"network/model", "network model; default SMPI (CM02 + size-dependent factors)"},
      {"network/TCP-gamma", "TCP window bounding a flow's rate to gamma / (2 x latency); default 4194304"},
      {"network/crosstraffic", "reverse-route traffic of each flow (0.05); default yes"},
      {"network/loopback-bw", "bandwidth of a host's route to itself where the zone has none; default 10e9"},
      {"surf/precision", "numerical precision of the solver; default 1e-9 (as smpirun)"},
  };
  return docs;
}

} // namespace tit::model
