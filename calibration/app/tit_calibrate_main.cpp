// tit-calibrate: fits SimGrid's hybrid MPI model to the measurements of the calibration programs and
// writes it into a platform file; generates cluster platforms; extracts CPU rates from timed traces.
#include "core/error.hpp"
#include "compare.hpp"
#include "contention.hpp"
#include "cpu.hpp"
#include "insitu.hpp"
#include "p2p.hpp"
#include "platform.hpp"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

using namespace tit::calib;

std::vector<std::uint64_t> parse_breaks(const std::string& text)
{
  std::vector<std::uint64_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    double v = 0;
    if (not parse_number(item, v) || v < 0 || v != static_cast<double>(static_cast<std::uint64_t>(v)))
      throw InputError(fmt::format("error: --breaks expects sizes in bytes separated by commas, got '{}'", item));
    out.push_back(static_cast<std::uint64_t>(v));
  }
  return out;
}

void write_text(const std::string& path, const std::string& text)
{
  std::ofstream out(path);
  if (not(out << text))
    throw InputError(fmt::format("{}: error: cannot write the file", path));
}

struct FitArgs {
  std::string p2p, contention, cpu, breaks, platform, template_file, output, curves, plot_dir, report;
  std::optional<double> detached, cpu_problem, max_bw_factor, busy_wait;
  int max_segments = 6;
  Route route;
  std::vector<std::string> targets;
};

/// What `tit-calibrate fit` found: the report so far, the platform's <config> properties, the CPU speed (and its
/// unit), the limiter ratio.
struct FitResults {
  std::ostringstream report;
  ConfigProps props;
  std::optional<double> speed;
  std::string unit;
  std::optional<double> limiter;
};

/// The point-to-point fit (and the local copy rate, the curves file) into `r`.
void fit_p2p_step(const FitArgs& a, FitResults& r)
{
  auto data = load_p2p(CsvTable::read(a.p2p, "p2p"));
  P2pOptions opt;
  if (not a.breaks.empty())
    opt.breaks = parse_breaks(a.breaks);
  opt.max_segments = a.max_segments;
  opt.detached_thresh = a.detached;
  opt.max_bw_factor = a.max_bw_factor;
  auto fit = fit_p2p(data, a.route, opt);
  r.report << "== Point-to-point (" << a.p2p << ")\n";
  write_p2p_report(r.report, fit);
  r.props = {{"smpi/os", fit.os()},
             {"smpi/or", fit.orecv()},
             {"smpi/ois", fit.ois()},
             {"smpi/bw-factor", fit.bw_factor()},
             {"smpi/lat-factor", fit.lat_factor()},
             {"smpi/send-is-detached-thresh", num(fit.detached_thresh)},
             {"smpi/async-small-thresh", num(fit.detached_thresh)}};
  if (auto wait = fit.ois_wait(); not wait.empty())
    r.props.emplace_back("tit/ois-wait", wait);
  if (not data.copy.empty()) {
    auto copy = fit_local_copy(data.copy);
    write_copy_report(r.report, copy);
    r.props.emplace_back("tit/local-copy-bw", copy.config());
  }
  auto poll = fit_polling(data);
  if (poll.test || poll.iprobe) {
    write_polling_report(r.report, poll);
    for (auto& p : poll.props())
      r.props.push_back(std::move(p));
  }
  if (not a.curves.empty()) {
    std::ostringstream curves;
    write_p2p_curves(curves, data, fit);
    write_text(a.curves, curves.str());
  }
}

/// The platform of `a` (updated, from the template, or a generated 2-node cluster) with the results written in.
void write_fitted_platform(const FitArgs& a, FitResults& r)
{
  pugi::xml_document doc;
  std::string origin;
  if (std::filesystem::exists(a.platform)) {
    doc = load_platform(a.platform);
    origin = "updated";
  } else if (not a.template_file.empty()) {
    doc = load_platform(a.template_file);
    origin = "created from " + a.template_file;
  } else {
    ClusterSpec spec;
    spec.node_bw = a.route.bandwidth;
    spec.node_lat = a.route.latency;
    spec.switch_lat = 0;
    spec.switch_bw = 10 * a.route.bandwidth;
    doc = generate_cluster(spec);
    origin = "created (generated cluster of 2 nodes)";
  }
  if (not r.props.empty())
    set_config(doc, r.props);
  if (r.speed)
    r.report << fmt::format("CPU speed set on {} host/cluster element(s)\n", set_speed(doc, *r.speed, r.unit, a.targets));
  if (r.limiter)
    r.report << fmt::format("limiter link set on {} cluster(s)\n", set_limiter(doc, *r.limiter, a.targets));
  std::string out = a.output.empty() ? a.platform : a.output;
  save_platform(doc, out);
  r.report << fmt::format("Platform {} ({}): {}\n", a.platform, origin, out);
}

/// The plots of the curves file into `plot_dir` (python3-matplotlib); false when the plotting script failed.
bool plot_fit(const FitArgs& a)
{
  if (a.curves.empty())
    throw InputError("error: --plot-dir needs --curves (the plots are drawn from that file)");
  // Debian's interpreter, which has python3-matplotlib, unless TIT_PYTHON names another.
  const char* script = std::getenv("TIT_PLOT_SCRIPT");
  const char* python = std::getenv("TIT_PYTHON");
  std::string interpreter = python ? python : (std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
  std::string cmd = fmt::format("'{}' '{}' '{}' '{}'", interpreter, script ? script : TIT_PLOT_SCRIPT, a.curves,
                                a.plot_dir);
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "tit-calibrate: error: plotting failed: " << cmd << "\n";
    return false;
  }
  return true;
}

int run_fit(const FitArgs& a)
{
  if (a.p2p.empty() && a.contention.empty() && a.cpu.empty())
    throw InputError("error: nothing to fit: give --p2p, --contention and/or --cpu");
  FitResults r;
  if (not a.p2p.empty())
    fit_p2p_step(a, r);
  if (not a.contention.empty()) {
    auto fit = fit_contention(load_contention(CsvTable::read(a.contention, "contention")));
    r.report << "== Contention (" << a.contention << ")\n";
    write_contention_report(r.report, fit);
    r.limiter = fit.limiter_ratio;
  }
  if (not a.cpu.empty()) {
    auto table = CsvTable::read(a.cpu, "cpu");
    auto fit = fit_cpu(load_cpu(table), a.cpu_problem);
    fit.unit = cpu_unit(table);
    r.unit = fit.unit;
    r.report << "== CPU (" << a.cpu << ")\n";
    write_cpu_report(r.report, fit);
    r.speed = fit.speed;
  }
  if (a.busy_wait) {
    r.props.emplace_back("tit/busy-wait", num(*a.busy_wait));
    r.report << fmt::format("tit/busy-wait: {} (a waiting rank holds that share of a core: the library polls)\n",
                            num(*a.busy_wait));
  }
  if (not a.platform.empty())
    write_fitted_platform(a, r);
  if (a.report.empty())
    std::cout << r.report.str();
  else
    write_text(a.report, r.report.str());
  return a.plot_dir.empty() || plot_fit(a) ? 0 : 1;
}

/// The directory of the timings of `traces`: `timings` when given, else the trace set's own directory.
std::filesystem::path timings_dir(const std::string& traces, const std::string& timings)
{
  if (not timings.empty())
    return timings;
  return std::filesystem::is_directory(traces) ? std::filesystem::path(traces)
                                               : std::filesystem::path(traces).parent_path();
}

struct InSituArgs {
  std::string traces, timings, breaks, platform, template_file, output, report;
  double detached = 65536;
  std::optional<double> max_bw_factor;
  Route route; ///< bandwidth 0: no network factors
};

/// Adds the options describing the route between the measured ranks (fit and from-trace take the same).
void add_route_options(CLI::App* app, Route& route, const std::string& between)
{
  app->add_option("--bandwidth", route.bandwidth, "nominal bandwidth of the links between " + between + " (B/s)")
      ->check(CLI::PositiveNumber);
  app->add_option("--latency", route.latency, "nominal latency of each link (s)")->check(CLI::NonNegativeNumber);
  app->add_option("--links", route.links, "links of that latency between " + between)
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app->add_flag("--shared-bottleneck", route.shared_bottleneck,
                "the narrowest link is SHARED, so it also carries the 5% reverse cross-traffic (a lone flow gets "
                "bandwidth/1.05); off for split-duplex node links as in generated clusters");
  app->add_option("--tcp-gamma", route.tcp_gamma, "network/TCP-gamma of the replay")->capture_default_str();
}

/// --max-bw-factor (fit and from-trace take the same): docs in calibration/README.md, "A link's rate as a bound".
void add_max_bw_factor(CLI::App* app, std::optional<double>& bound)
{
  app->add_option("--max-bw-factor", bound,
                  "largest smpi/bw-factor of a size band, e.g. 1 when --bandwidth is the link's real rate (a ping-pong "
                  "on an idle link may run faster than the rate: a band fitted above is capped, its latency refitted; "
                  "default: no bound)")
      ->check(CLI::Range(0.001, 1000.0));
}

int run_from_trace(const InSituArgs& a)
{
  InSituOptions opt;
  if (not a.breaks.empty())
    opt.breaks = parse_breaks(a.breaks);
  opt.detached_thresh = a.detached;
  opt.max_bw_factor = a.max_bw_factor;
  pugi::xml_document doc;
  bool exists = not a.platform.empty() && std::filesystem::exists(a.platform);
  if (not a.platform.empty()) {
    if (not exists && a.template_file.empty())
      throw InputError(fmt::format("{}: error: no such platform (give --template to create it from another)", a.platform));
    doc = load_platform(exists ? a.platform : a.template_file);
  }
  // Bands where the run made no call keep the platform's value (SimGrid's default 0 without a platform).
  auto existing = [&](const char* id) {
    auto prop = doc.child("platform").child("config").find_child_by_attribute("prop", "id", id);
    return std::string(prop.attribute("value").as_string());
  };
  if (a.route.bandwidth > 0) {
    opt.route = a.route;
    opt.os = existing("smpi/os");
    opt.ois = existing("smpi/ois");
    opt.orecv = existing("smpi/or");
    opt.bw_factor = existing("smpi/bw-factor");
  }
  // messages, and the completions of the nonblocking receives (when their data arrived)
  auto actions = timed_actions(a.traces, timings_dir(a.traces, a.timings), [](const tit::trace::Action& x) {
    return tit::trace::is_point_to_point(x.kind) || tit::trace::traits(x.kind).group == tit::trace::Group::Completion;
  });
  auto fit = fit_in_situ(actions, opt);
  std::ostringstream report;
  report << "== In situ (" << a.traces << ")\n";
  write_in_situ_report(report, fit);
  ConfigProps props;
  if (fit.ois.fitted())
    props.emplace_back("smpi/ois", fit.ois.config(fit.breaks, existing("smpi/ois")));
  if (fit.os.fitted())
    props.emplace_back("smpi/os", fit.os.config(fit.breaks, existing("smpi/os")));
  if (fit.oir.fitted())
    props.emplace_back("tit/oir", fit.oir.config(fit.breaks, existing("tit/oir")));
  if (fit.os_self.fitted()) {
    // Sizes the run sent itself none of keep what a message to itself cost before: the platform's tit/os-self, or
    // without one the isend overhead in force (fitted here or the platform's), as the replay charges it then.
    std::string before = existing("tit/os-self");
    if (before.empty())
      before = fit.ois.fitted() ? fit.ois.config(fit.breaks, existing("smpi/ois")) : existing("smpi/ois");
    props.emplace_back("tit/os-self", fit.os_self.config(fit.breaks, before));
  }
  if (fit.copy)
    props.emplace_back("tit/local-copy-bw", fit.copy->config());
  for (auto& p : fit.poll.props())
    props.push_back(std::move(p));
  if (fit.network.fitted()) {
    // A band without messages keeps the platform's factors; without them in the platform it would get 1.0
    // rather than SimGrid's defaults, so the factors are then written only when every band was fitted.
    bool all = std::all_of(fit.network.lat_factor.begin(), fit.network.lat_factor.end(),
                           [](auto const& f) { return f.has_value(); });
    for (auto [id, lat] : {std::pair{"smpi/lat-factor", true}, std::pair{"smpi/bw-factor", false}}) {
      std::string old = existing(id);
      bool bw_all = lat || std::all_of(fit.network.bw_factor.begin(), fit.network.bw_factor.end(),
                                       [](auto const& f) { return f.has_value(); });
      if (old.empty() && not(all && bw_all)) {
        report << fmt::format("note: {} not written: the platform has none for the bands without a fit\n", id);
        continue;
      }
      props.emplace_back(id, fit.network.config(lat, fit.breaks, old));
    }
  }
  if (not a.platform.empty()) {
    set_config(doc, props);
    std::string out = a.output.empty() ? a.platform : a.output;
    save_platform(doc, out);
    for (auto const& [k, v] : props)
      report << fmt::format("set {} = {}\n", k, v);
    report << fmt::format("Platform {}: {}\n", exists ? a.platform : a.template_file, out);
  }
  if (a.report.empty())
    std::cout << report.str();
  else
    write_text(a.report, report.str());
  return 0;
}

/// `tit-calibrate fit`: its options into `fa`.
CLI::App* add_fit(CLI::App& app, FitArgs& fa)
{
  auto* fit = app.add_subcommand("fit", "fit the model and write it into a platform file");
  fit->add_option("--p2p", fa.p2p, "calib-p2p measurements (CSV)");
  fit->add_option("--contention", fa.contention, "calib-contention measurements (CSV)");
  fit->add_option("--cpu", fa.cpu, "calib-cpu or cpu-trace measurements (CSV)");
  fit->add_option("--breaks", fa.breaks, "segment boundaries in bytes, e.g. 1420,32768,65536,327680 (default: found "
                                         "by segmented regression)");
  fit->add_option("--max-segments", fa.max_segments, "most segments the automatic search may use")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  fit->add_option("--detached-thresh", fa.detached, "protocol threshold in bytes (default: detected from the data)");
  add_max_bw_factor(fit, fa.max_bw_factor);
  fit->add_option("--busy-wait", fa.busy_wait,
                  "share of a core a rank of the measured MPI library holds while it waits, written as tit/busy-wait "
                  "(Open MPI polls: 1; default: not written, a waiting rank holds none)")
      ->check(CLI::Range(0.0, 1.0));
  add_route_options(fit, fa.route, "the nodes measured");
  fit->add_option("--cpu-problem", fa.cpu_problem, "problem size whose CPU rate to use (default: the largest)");
  fit->add_option("--platform", fa.platform, "platform file to update (created when it does not exist)");
  fit->add_option("--template", fa.template_file, "platform to start from when --platform does not exist (default: "
                                                  "a generated 2-node cluster)");
  fit->add_option("-o,--output", fa.output, "write the platform here instead of over --platform");
  fit->add_option("--target", fa.targets, "id of a host or cluster to receive the CPU speed and limiter (repeatable; "
                                          "default: all)");
  fit->add_option("--curves", fa.curves, "write the raw points and fitted curves (CSV) for plotting");
  fit->add_option("--plot-dir", fa.plot_dir, "draw one PNG per quantity there (needs --curves; python3-matplotlib)");
  fit->add_option("--report", fa.report, "write the fit report to this file instead of stdout");
  return fit;
}

/// `tit-calibrate fit`, once its options are checked together.
int fit_checked(const FitArgs& fa)
{
  if (not fa.p2p.empty() && not(fa.route.bandwidth > 0))
    throw InputError("error: fitting --p2p needs --bandwidth and --latency (the nominal route)");
  if (not fa.platform.empty() && not std::filesystem::exists(fa.platform) && fa.template_file.empty() &&
      not(fa.route.bandwidth > 0))
    throw InputError("error: creating a platform needs --bandwidth and --latency");
  return run_fit(fa);
}

/// `tit-calibrate platform`: a generated cluster in cabinets, and its hostfile.
struct PlatformCommand {
  CLI::App* cmd;
  ClusterSpec spec;
  std::string out, hostfile, switch_policy = "FATPIPE";

  explicit PlatformCommand(CLI::App& app)
      : cmd(app.add_subcommand("platform", "generate a hierarchical cluster in cabinets (graphene-like)"))
  {
    cmd->add_option("--cabinets", spec.cabinets, "cabinets")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--nodes-per-cabinet", spec.nodes_per_cabinet, "nodes in each cabinet")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd->add_option("--prefix", spec.prefix, "node name prefix")->capture_default_str();
    cmd->add_option("--suffix", spec.suffix, "node name suffix")->capture_default_str();
    cmd->add_option("--speed", spec.speed, "node speed (flop/s)")->capture_default_str();
    cmd->add_option("--cores", spec.cores, "cores per node")->check(CLI::PositiveNumber)->capture_default_str();
    cmd->add_option("--node-bw", spec.node_bw, "node link bandwidth (B/s)")->capture_default_str();
    cmd->add_option("--node-lat", spec.node_lat, "node link latency (s)")->capture_default_str();
    cmd->add_option("--limiter-ratio", spec.limiter_ratio, "node limiter bandwidth / node link bandwidth")
        ->capture_default_str();
    cmd->add_option("--switch-bw", spec.switch_bw, "cabinet switch bandwidth (B/s)")->capture_default_str();
    cmd->add_option("--switch-lat", spec.switch_lat, "cabinet switch latency (s)")->capture_default_str();
    cmd->add_option("--switch-sharing", switch_policy, "FATPIPE (each flow bounded) or SHARED")
        ->check(CLI::IsMember({"FATPIPE", "SHARED"}))
        ->capture_default_str();
    cmd->add_option("--uplink-bw", spec.uplink_bw, "bandwidth of each cabinet's uplink (B/s)")->capture_default_str();
    cmd->add_option("--uplink-lat", spec.uplink_lat, "latency of each cabinet's uplink (s)")->capture_default_str();
    cmd->add_option("--loopback-bw", spec.loopback_bw, "loopback bandwidth (B/s)")->capture_default_str();
    cmd->add_option("--loopback-lat", spec.loopback_lat, "loopback latency (s)")->capture_default_str();
    cmd->add_option("-o,--output", out, "platform file to write")->required();
    cmd->add_option("--hostfile", hostfile, "also write a hostfile listing the nodes");
  }

  int run()
  {
    spec.switch_fatpipe = switch_policy == "FATPIPE";
    auto doc = generate_cluster(spec);
    save_platform(doc, out);
    if (not hostfile.empty()) {
      std::string text;
      for (auto const& n : node_names(spec))
        text += n + "\n";
      write_text(hostfile, text);
    }
    return 0;
  }
};

/// `tit-calibrate cpu-trace`: the CPU bursts of a traced run as a cpu CSV.
struct CpuTraceCommand {
  CLI::App* cmd;
  std::string traces, timings, out;
  double problem = 0;
  int iteration = 0;

  explicit CpuTraceCommand(CLI::App& app)
      : cmd(app.add_subcommand("cpu-trace", "CPU bursts of a trace taken with TIT_TRACE_TIMINGS=1, as a cpu CSV"))
  {
    cmd->add_option("traces", traces, "trace set (directory, trace list or merged file)")->required();
    cmd->add_option("--timings", timings, "directory of timings-<rank>.csv (default: the trace directory)");
    cmd->add_option("--problem", problem, "problem size label of this run")->capture_default_str();
    cmd->add_option("--iteration", iteration, "repetition number of this run")->capture_default_str();
    cmd->add_option("-o,--output", out, "CSV to write")->required();
  }

  int run() const
  {
    auto bursts = bursts_from_trace(traces, timings_dir(traces, timings), problem, iteration);
    std::ostringstream text;
    write_cpu_csv(text, bursts, traces, trace_compute_unit(traces));
    write_text(out, text.str());
    return 0;
  }
};

/// `tit-calibrate compare`: a replay against the traced run it replays, by action kind and message size.
struct CompareCommand {
  CLI::App* cmd;
  std::string traces, actions_log, timings, csv, platform, output;
  std::vector<double> breaks{1024, 65536};
  std::size_t top = 10;

  explicit CompareCommand(CLI::App& app)
      : cmd(app.add_subcommand("compare", "a replay (tit-replay --actions-log) against the traced run it replays "
                                          "(TIT_TRACE_TIMINGS=1), action by action: which kinds and message sizes "
                                          "the model makes short or long"))
  {
    cmd->add_option("traces", traces, "trace set (directory, trace list or merged file)")->required();
    cmd->add_option("actions_log", actions_log, "tit-replay --actions-log FILE of that trace")->required();
    cmd->add_option("--timings", timings, "directory of timings-<rank>.csv (default: the trace directory)");
    cmd->add_option("--breaks", breaks, "message size bands in bytes, increasing")
        ->delimiter(',')
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--top", top, "list this many actions whose replayed time differs most")->capture_default_str();
    cmd->add_option("--csv", csv, "also write the table as CSV to this file");
    auto* into = cmd->add_option("--platform", platform,
                                 "write into this platform (the one replayed) tit/coll-overhead: per collective and "
                                 "size band, the median over its calls of their measured minus replayed cost once "
                                 "their last rank was in them");
    cmd->add_option("-o,--output", output, "with --platform: write the platform here instead")->needs(into);
  }

  int run() const
  {
    if (not std::is_sorted(breaks.begin(), breaks.end()) ||
        std::adjacent_find(breaks.begin(), breaks.end()) != breaks.end())
      throw InputError(fmt::format("error: --breaks: expected increasing sizes, got {}", fmt::join(breaks, ",")));
    auto c = compare_replay(traces, timings_dir(traces, timings), actions_log, breaks, top);
    write_comparison(std::cout, c);
    if (not platform.empty())
      write_coll_overhead(c);
    if (not csv.empty()) {
      std::ostringstream text;
      write_comparison_csv(text, c);
      write_text(csv, text.str());
    }
    return 0;
  }

  /// tit/coll-overhead from the collectives' calls into `platform` (or `output`); nothing written without calls.
  void write_coll_overhead(const Comparison& c) const
  {
    auto doc = load_platform(platform);
    auto old = doc.child("platform").child("config").find_child_by_attribute("prop", "id", "tit/coll-overhead");
    if (old)
      throw InputError(fmt::format("{}: error: the platform already has tit/coll-overhead, which the replay compared "
                                   "included: compare a replay on the platform without it",
                                   platform));
    std::string value = coll_overhead_config(c);
    if (value.empty()) {
      fmt::print("tit/coll-overhead: nothing to fit (no collective of two ranks or more on one host's clock); {} "
                 "not written\n",
                 output.empty() ? platform : output);
      return;
    }
    set_config(doc, {{"tit/coll-overhead", value}});
    save_platform(doc, output.empty() ? platform : output);
    fmt::print("set tit/coll-overhead = {}\nPlatform {}: {}\n", value, platform, output.empty() ? platform : output);
  }
};

/// `tit-calibrate from-trace`: its options into `ia`.
CLI::App* add_from_trace(CLI::App& app, InSituArgs& ia)
{
  auto* situ = app.add_subcommand("from-trace", "fit smpi/ois, smpi/os, tit/oir, tit/os-self, the local-copy rate and "
                                                "(with --bandwidth) smpi/lat-factor and smpi/bw-factor per size band from the timings of "
                                                "an application's traced run (TIT_TRACE_TIMINGS=1)");
  situ->add_option("traces", ia.traces, "trace set (directory, trace list or merged file)")->required();
  situ->add_option("--timings", ia.timings, "directory of timings-<rank>.csv (default: the trace directory)");
  situ->add_option("--breaks", ia.breaks, "size bands in bytes, e.g. 1420,65536 (default: one band)");
  situ->add_option("--detached-thresh", ia.detached, "sends of at least this size are rendez-vous, left out of os")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  add_max_bw_factor(situ, ia.max_bw_factor);
  situ->add_option("--platform", ia.platform, "platform file whose <config> receives the fitted values");
  situ->add_option("--template", ia.template_file, "platform to start from when --platform does not exist");
  situ->add_option("-o,--output", ia.output, "write the platform here instead of over --platform");
  situ->add_option("--report", ia.report, "write the report to this file instead of stdout");
  add_route_options(situ, ia.route,
                    "the traced ranks' hosts in the replay (with --bandwidth: smpi/lat-factor and smpi/bw-factor fitted "
                    "from the messages between ranks that ran on one host)");
  return situ;
}

} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"tit-calibrate: fits SimGrid's MPI model (smpi/os, or, ois, bw-factor, lat-factor, protocol "
               "threshold), the CPU speed and the node limiter to the measurements of calib-p2p, calib-contention "
               "and calib-cpu, and writes them into a platform file."};
  app.require_subcommand(1);
  app.footer("Exit status: 0 success, 2 bad input (the message names the file, line and column), 1 plotting "
             "failed.\nSee calibration/README.md for the walkthrough.");
  FitArgs fa;
  auto* fit = add_fit(app, fa);
  PlatformCommand gen(app);
  CpuTraceCommand cpu(app);
  CompareCommand compare(app);
  InSituArgs ia;
  auto* situ = add_from_trace(app, ia);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return tit::run_main("tit-calibrate", [&] {
    if (*fit)
      return fit_checked(fa);
    if (*gen.cmd)
      return gen.run();
    if (*situ)
      return run_from_trace(ia);
    if (*cpu.cmd)
      return cpu.run();
    if (*compare.cmd)
      return compare.run();
    return 0;
  });
}
