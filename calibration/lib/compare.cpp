#include "compare.hpp"

#include "csv.hpp"
#include "timings.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>

namespace tit::calib {

namespace {

/// One row of tit-replay's actions log.
struct LogRow {
  double start = 0;
  double end = 0;
  std::string text;      ///< the action line as the replay wrote it
  std::uint64_t line = 0; ///< in the log
};

/// Each rank's rows, in the order the log holds them (a rank's actions run one after another, so its rows come in
/// its actions' order). Ranks beyond `ranks` are refused.
std::vector<std::vector<LogRow>> read_actions_log(const std::filesystem::path& path, int ranks)
{
  std::ifstream in(path);
  if (not in)
    throw InputError(fmt::format("{}: error: cannot open the actions log", path.string()));
  std::vector<std::vector<LogRow>> out(static_cast<std::size_t>(ranks));
  std::string line;
  std::uint64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#')
      continue;
    auto bad = [&](std::string_view what) {
      return InputError(fmt::format("{}:{}: error: {}: expected rank<TAB>start<TAB>end<TAB>action line, as "
                                    "tit-replay --actions-log writes it; got '{}'",
                                    path.string(), n, what, line));
    };
    std::size_t t1 = line.find('\t');
    std::size_t t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    std::size_t t3 = t2 == std::string::npos ? t2 : line.find('\t', t2 + 1);
    if (t3 == std::string::npos)
      throw bad("fewer than 4 tab-separated fields");
    double rank = 0;
    LogRow row;
    if (not parse_number(std::string_view(line).substr(0, t1), rank) || rank < 0 || rank != std::floor(rank))
      throw bad("the rank is not a rank number");
    if (rank >= ranks)
      throw InputError(fmt::format("{}:{}: error: rank {} is beyond the trace's {} ranks: the log is not a replay of "
                                   "this trace",
                                   path.string(), n, rank, ranks));
    if (not parse_number(std::string_view(line).substr(t1 + 1, t2 - t1 - 1), row.start) ||
        not parse_number(std::string_view(line).substr(t2 + 1, t3 - t2 - 1), row.end) || row.end < row.start)
      throw bad("start and end are not two times in order");
    row.text = line.substr(t3 + 1);
    row.line = n;
    out[static_cast<std::size_t>(rank)].push_back(std::move(row));
  }
  return out;
}

/// The action name of a log row's text ("0 isend 1 0 4096" -> "isend").
std::string_view name_of(std::string_view text)
{
  std::size_t b = text.find(' ');
  if (b == std::string_view::npos)
    return {};
  std::size_t e = text.find(' ', b + 1);
  return text.substr(b + 1, e == std::string_view::npos ? std::string_view::npos : e - b - 1);
}

bool same_name(std::string_view a, std::string_view b)
{
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// The size band of `bytes` among `breaks`: its lower bound and its label ("[1024, 65536)", "[65536, inf)").
std::pair<double, std::string> size_band(double bytes, const std::vector<double>& breaks)
{
  auto it = std::upper_bound(breaks.begin(), breaks.end(), bytes);
  double lo = it == breaks.begin() ? 0 : *(it - 1);
  return {lo, it == breaks.end() ? fmt::format("[{:g}, inf)", lo) : fmt::format("[{:g}, {:g})", lo, *it)};
}

std::string band_of(const trace::Action& a, const std::vector<double>& breaks)
{
  auto g = trace::traits(a.kind).group;
  if (g != trace::Group::Message && g != trace::Group::SendRecv)
    return {};
  if (a.bytes < 0)
    return "unknown size";
  return size_band(a.bytes, breaks).second;
}

/// Whether `a`'s replayed time is further from its measured one than `b`'s (outliers and groups, largest first).
template <class T> bool larger_gap(const T& a, const T& b)
{
  return std::abs(a.replayed - a.measured) > std::abs(b.replayed - b.measured);
}

/// The log's row for action `a` of rank `r`, its `k`-th (k then counts it); throws when the log has no row left for it
/// or the row is another action's.
const LogRow& row_of(const std::vector<LogRow>& rows, std::size_t& k, const trace::Action& a, int r,
                     const std::filesystem::path& actions_log)
{
  if (k == rows.size())
    throw InputError(fmt::format("{}: error: rank {} has {} actions there, its trace has more (the next one at "
                                 "{}:{}): the log is not a replay of this trace, or it was cut short",
                                 actions_log.string(), r, rows.size(), *a.file, a.line));
  LogRow const& row = rows[k++];
  std::string_view logged = name_of(row.text);
  if (not same_name(logged, a.name) && not same_name(logged, trace::canonical_name(a)))
    throw InputError(fmt::format("{}:{}: error: rank {}'s action {} is '{}' here and '{}' at {}:{}: the log is "
                                 "not a replay of this trace",
                                 actions_log.string(), row.line, r, k, logged, a.name, *a.file, a.line));
  return row;
}

using Groups = std::map<std::pair<std::string, std::string>, CompareGroup>;

/// Counts action `a` in its group (its canonical name and message size band).
void add_to_group(Groups& groups, const trace::Action& a, const std::vector<double>& breaks, double measured,
                  double replayed)
{
  std::string band = band_of(a, breaks);
  auto& g = groups[{std::string(trace::canonical_name(a)), band}];
  g.action = trace::canonical_name(a);
  g.band = band;
  g.count++;
  g.measured += measured;
  g.replayed += replayed;
}

/// Adds `o` to `outliers`, a heap by larger_gap of the `top` largest gaps (the smallest of them first).
void keep_outlier(std::vector<CompareOutlier>& outliers, std::size_t top, CompareOutlier o)
{
  outliers.push_back(std::move(o));
  std::push_heap(outliers.begin(), outliers.end(), larger_gap<CompareOutlier>);
  if (outliers.size() > top) {
    std::pop_heap(outliers.begin(), outliers.end(), larger_gap<CompareOutlier>);
    outliers.pop_back();
  }
}

/// One rank's part in one call of a blocking collective.
struct CollectivePart {
  std::string action;
  double bytes = 0;
  int host = -1;        ///< index of its timings' host; -1: no origin (its own clock)
  double start = 0;     ///< measured, on its host's clock
  double end = 0;
  double replay_start = 0;
  double replay_end = 0;
};

/// A rank's communicators, named alike on every rank: MPI_COMM_WORLD "w", a split "<parent>/s<n>c<colour>" (its
/// parent's n-th split on this rank), a duplicate "<parent>/d<n>", a created one "<parent>/g<n>": the members of a
/// communicator are the ranks that name it so. Then the calls of the collectives on each, counted.
class CommunicatorNames {
public:
  CommunicatorNames() { names_[0] = "w"; }
  /// The key of collective `a`'s call ("<communicator>#<n>"), or none when its communicator is unknown.
  std::optional<std::string> call_of(const trace::Action& a)
  {
    auto it = names_.find(a.comm);
    if (it == names_.end())
      return std::nullopt;
    return fmt::format("{}#{}", it->second, calls_[it->second]++);
  }
  /// Follows a communicator action (split, dup, create, free).
  void follow(const trace::Action& a)
  {
    auto parent = names_.find(a.comm);
    if (a.kind == trace::Kind::CommFree) {
      names_.erase(a.comm);
      return;
    }
    if (parent == names_.end() || a.new_comm < 0 || not a.comm_args)
      return;
    std::string base = parent->second;
    auto n = made_[base]++;
    if (a.kind == trace::Kind::CommSplit) {
      if (a.color >= 0)
        names_[a.new_comm] = fmt::format("{}/s{}c{}", base, n, a.color);
    } else if (a.kind == trace::Kind::CommDup) {
      names_[a.new_comm] = fmt::format("{}/d{}", base, n);
    } else if (a.kind == trace::Kind::CommCreate) {
      names_[a.new_comm] = fmt::format("{}/g{}", base, n);
    }
  }

private:
  std::map<int, std::string> names_;
  std::map<std::string, std::uint64_t> calls_, made_;
};

double median_of(std::vector<double> v)
{
  std::sort(v.begin(), v.end());
  auto n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// The collectives' costs from their calls' parts (by call key): per call, the part of the rank that entered last,
/// measured and replayed.
void cost_collectives(Comparison& c, const std::map<std::string, std::vector<CollectivePart>>& calls,
                      const std::vector<double>& breaks)
{
  struct Samples {
    std::vector<double> measured, replayed, difference;
    double low = 0;
  };
  std::map<std::pair<std::string, std::string>, Samples> by_band;
  for (auto const& call : calls) {
    auto const& parts = call.second; // not a structured binding: clang before 16 cannot capture one
    if (parts.size() < 2)
      continue; // a communicator of one rank: no one to wait for
    bool comparable = std::all_of(parts.begin(), parts.end(), [&](const CollectivePart& p) {
      return p.host >= 0 && p.host == parts.front().host && p.action == parts.front().action; // one clock, one kind
    });
    if (not comparable) {
      c.collective_calls_left_out++;
      continue;
    }
    auto later = [](auto start) {
      return [start](const CollectivePart& a, const CollectivePart& b) { return a.*start < b.*start; };
    };
    auto const& last = *std::max_element(parts.begin(), parts.end(), later(&CollectivePart::start));
    auto const& last_replayed = *std::max_element(parts.begin(), parts.end(), later(&CollectivePart::replay_start));
    double measured = last.end - last.start;
    double replayed = last_replayed.replay_end - last_replayed.replay_start;
    auto [lo, band] = size_band(last.bytes, breaks);
    auto& s = by_band[{last.action, band}];
    s.low = lo;
    s.measured.push_back(measured);
    s.replayed.push_back(replayed);
    s.difference.push_back(measured - replayed);
  }
  for (auto const& [key, s] : by_band)
    c.collectives.push_back(CollectiveCost{key.first, key.second, s.low, s.measured.size(), median_of(s.measured),
                                           median_of(s.replayed), median_of(s.difference)});
}

} // namespace

std::string coll_overhead_config(const Comparison& c)
{
  std::vector<std::string> parts;
  for (auto const& g : c.collectives)
    parts.push_back(fmt::format("{}:{}:{:.9g}:0", g.action, static_cast<std::uint64_t>(g.low),
                                std::max(0.0, g.difference)));
  return fmt::format("{}", fmt::join(parts, ";"));
}

Comparison compare_replay(const std::filesystem::path& traces, const std::filesystem::path& timings_dir,
                          const std::filesystem::path& actions_log, const std::vector<double>& breaks, std::size_t top)
{
  std::unique_ptr<trace::TraceSet> set;
  try {
    set = trace::TraceSet::open(traces, std::nullopt);
  } catch (const trace::TraceError& e) {
    throw InputError(e.what());
  }
  Comparison c;
  c.ranks = set->rank_count();
  auto log = read_actions_log(actions_log, c.ranks);
  c.rank_measured.assign(static_cast<std::size_t>(c.ranks), 0);
  c.rank_replayed.assign(static_cast<std::size_t>(c.ranks), 0);
  // Volumes of CPU time: the rate that turns them back into seconds.
  std::optional<double> cpu_rate = trace::compute_unit_rate(set->compute_unit(), "cpu-time");
  if (cpu_rate)
    c.rank_off_cpu.assign(static_cast<std::size_t>(c.ranks), 0);
  Groups groups;
  std::map<std::string, std::vector<CollectivePart>> collective_calls;
  std::map<std::string, int> hosts; // the timings' hosts, numbered
  std::vector<std::optional<double>> origins; // each rank's, on its host's clock
  std::vector<double> replay_starts;          // each rank's first action's start in the replay
  for (int r = 0; r < c.ranks; ++r) {
    auto timings_path = timings_dir / fmt::format("timings-{}.csv", r);
    TimingsFile timings = read_timings(timings_path);
    int host = timings.origin ? hosts.emplace(timings.host, static_cast<int>(hosts.size())).first->second : -1;
    origins.push_back(timings.origin);
    CommunicatorNames comms;
    auto const& rows = log[static_cast<std::size_t>(r)];
    auto reader = set->reader(r);
    trace::Action a;
    std::size_t k = 0;
    bool finalized = false;
    double last_measured = 0, last_replayed = 0;
    try {
      while (reader->next(a)) {
        const Timing& t = timing_of(timings, a, timings_path);
        LogRow const& row = row_of(rows, k, a, r, actions_log);
        double measured = t.end - t.start;
        double replayed = row.end - row.start;
        add_to_group(groups, a, breaks, measured, replayed);
        c.actions++;
        if (trace::traits(a.kind).group == trace::Group::Communicator)
          comms.follow(a);
        if (trace::is_collective(a.kind))
          if (auto call = comms.call_of(a))
            collective_calls[*call].push_back(CollectivePart{std::string(trace::canonical_name(a)), a.bytes, host,
                                                             t.start + timings.origin.value_or(0),
                                                             t.end + timings.origin.value_or(0), row.start, row.end});
        if (cpu_rate && a.kind == trace::Kind::Compute)
          c.rank_off_cpu[static_cast<std::size_t>(r)] += measured - a.amount / *cpu_rate;
        if (a.kind == trace::Kind::Finalize && not finalized) {
          c.rank_measured[static_cast<std::size_t>(r)] = t.start;
          c.rank_replayed[static_cast<std::size_t>(r)] = row.start;
          finalized = true;
        }
        last_measured = std::max(last_measured, t.end);
        last_replayed = std::max(last_replayed, row.end);
        if (top > 0 && replayed != measured)
          keep_outlier(c.outliers, top, CompareOutlier{r, *a.file, a.line, std::string(a.text), measured, replayed});
      }
    } catch (const trace::TraceError& e) {
      throw InputError(e.what());
    }
    if (k != rows.size())
      throw InputError(fmt::format("{}:{}: error: rank {} has {} actions in the log, {} in its trace: the log is not a "
                                   "replay of this trace (or tit-replay merged computations)",
                                   actions_log.string(), rows[k].line, r, rows.size(), k));
    if (not finalized) {
      c.rank_measured[static_cast<std::size_t>(r)] = last_measured;
      c.rank_replayed[static_cast<std::size_t>(r)] = last_replayed;
    }
    replay_starts.push_back(rows.empty() ? 0.0 : rows.front().start); // its first action's (checked above)
  }
  // The replay's spans from each rank's own start, as its timings' are; the run's from the first rank's start.
  double first_replayed = *std::min_element(replay_starts.begin(), replay_starts.end());
  c.replayed_span = 0;
  for (std::size_t r = 0; r < replay_starts.size(); ++r) {
    c.replayed_span = std::max(c.replayed_span, c.rank_replayed[r] - first_replayed);
    c.rank_replayed[r] -= replay_starts[r];
    c.rank_replay_start.push_back(replay_starts[r] - first_replayed);
  }
  bool one_clock = hosts.size() == 1 && std::all_of(origins.begin(), origins.end(), [](auto o) { return o.has_value(); });
  if (one_clock) {
    double first = **std::min_element(origins.begin(), origins.end());
    for (std::size_t r = 0; r < origins.size(); ++r) {
      c.rank_start.push_back(*origins[r] - first);
      c.measured_span = std::max(c.measured_span, c.rank_start.back() + c.rank_measured[r]);
    }
  } else {
    c.measured_span = *std::max_element(c.rank_measured.begin(), c.rank_measured.end());
  }
  cost_collectives(c, collective_calls, breaks);
  for (auto& [key, g] : groups)
    c.groups.push_back(std::move(g));
  std::stable_sort(c.groups.begin(), c.groups.end(), larger_gap<CompareGroup>);
  std::sort_heap(c.outliers.begin(), c.outliers.end(), larger_gap<CompareOutlier>);
  return c;
}

void write_comparison(std::ostream& out, const Comparison& c)
{
  auto pct = [](double replayed, double measured) {
    return measured > 0 ? fmt::format("{:+.1f} %", 100 * (replayed - measured) / measured) : std::string("-");
  };
  fmt::print(out, "replay against its traced run: {} ranks, {} actions\n", c.ranks, c.actions);
  fmt::print(out, "span ({}): measured {:.6f} s, replayed {:.6f} s, {}\n", c.rank_start.empty() ? "largest start of "
             "finalize over the ranks, each from its own start: their timings share no clock" : "from the first rank's "
             "start to the last start of finalize", c.measured_span, c.replayed_span,
             pct(c.replayed_span, c.measured_span));
  if (auto cfg = rank_start_config(c); not cfg.empty()) {
    auto last = std::max_element(c.rank_start.begin(), c.rank_start.end());
    bool replayed_so = std::equal(c.rank_start.begin(), c.rank_start.end(), c.rank_replay_start.begin(),
                                  [](double m, double r) { return std::abs(m - r) <= 1e-9; });
    fmt::print(out, "the ranks left MPI_Init up to {:.3f} ms apart (rank {} last); {}\n", 1e3 * *last,
               last - c.rank_start.begin(),
               replayed_so ? "the replay started them so (tit/rank-start)"
                           : fmt::format("the replay started them {}: --cfg=tit/rank-start:'{}' starts them as they did",
                                         std::all_of(c.rank_replay_start.begin(), c.rank_replay_start.end(),
                                                     [](double s) { return s == 0; })
                                             ? "together"
                                             : "otherwise",
                                         cfg));
  }
  fmt::print(out, "\n");
  fmt::print(out, "by action and message size, summed over the ranks (difference: replayed - measured; "
                  "largest first):\n");
  fmt::print(out, "{:<16}{:<20}{:>10}{:>14}{:>14}{:>15}{:>16}{:>9}\n", "action", "bytes", "count", "measured (s)",
             "replayed (s)", "difference (s)", "per action (us)", "ratio");
  for (auto const& g : c.groups)
    fmt::print(out, "{:<16}{:<20}{:>10}{:>14.6f}{:>14.6f}{:>+15.6f}{:>+16.3f}{:>9}\n", g.action, g.band, g.count,
               g.measured, g.replayed, g.replayed - g.measured, 1e6 * (g.replayed - g.measured) / double(g.count),
               g.measured > 0 ? fmt::format("{:.3f}", g.replayed / g.measured) : std::string("-"));
  bool off = not c.rank_off_cpu.empty();
  fmt::print(out, "\n{:<8}{:>14}{:>14}{:>10}{}\n", "rank", "measured (s)", "replayed (s)", "",
             off ? fmt::format("{:>14}", "off CPU (s)") : "");
  for (std::size_t r = 0; r < c.rank_measured.size(); ++r)
    fmt::print(out, "{:<8}{:>14.6f}{:>14.6f}{:>10}{}\n", r, c.rank_measured[r], c.rank_replayed[r],
               pct(c.rank_replayed[r], c.rank_measured[r]),
               off ? fmt::format("{:>14.6f}", c.rank_off_cpu[r]) : "");
  if (off)
    fmt::print(out, "off CPU: the computations' wall time less their CPU time (the volumes are CPU time): the rank "
                    "was descheduled there, which a replay of the volumes leaves out (and its partners' waits for it "
                    "with it)\n");
  if (not c.collectives.empty()) {
    fmt::print(out, "\ncollectives, per call once its last rank was in it (that rank's time in the call; medians over "
                    "the calls):\n");
    fmt::print(out, "{:<16}{:<20}{:>10}{:>16}{:>16}{:>18}\n", "action", "bytes", "calls", "measured (us)",
               "replayed (us)", "difference (us)");
    for (auto const& g : c.collectives)
      fmt::print(out, "{:<16}{:<20}{:>10}{:>16.3f}{:>16.3f}{:>+18.3f}\n", g.action, g.band, g.calls, 1e6 * g.measured,
                 1e6 * g.replayed, 1e6 * g.difference);
  }
  if (c.collective_calls_left_out > 0)
    fmt::print(out, "{} collective call(s) left out: ranks whose timings share no clock (other hosts, or no "
                    "'# origin:' line), or calls of one communicator that differ in kind\n",
               c.collective_calls_left_out);
  if (not c.outliers.empty()) {
    fmt::print(out, "\nthe {} actions whose replayed time differs most from the measured one:\n", c.outliers.size());
    for (auto const& o : c.outliers)
      fmt::print(out, "  {}:{} (rank {}): measured {:.1f} us, replayed {:.1f} us: {}\n", o.file, o.line, o.rank,
                 1e6 * o.measured, 1e6 * o.replayed, o.text);
  }
}

std::string rank_start_config(const Comparison& c)
{
  std::string out;
  for (std::size_t r = 0; r < c.rank_start.size(); ++r)
    if (c.rank_start[r] > 0)
      out += fmt::format("{}{}:{:.9g}", out.empty() ? "" : ";", r, c.rank_start[r]);
  return out;
}

void write_comparison_csv(std::ostream& out, const Comparison& c)
{
  fmt::print(out, "# tit-calibrate compare v1\n# measured_span_s: {:.9g}\n# replayed_span_s: {:.9g}\n", c.measured_span,
             c.replayed_span);
  if (auto cfg = rank_start_config(c); not cfg.empty())
    fmt::print(out, "# rank_start: {}\n", cfg);
  if (not c.rank_off_cpu.empty()) // each rank's, in rank order
    fmt::print(out, "# off_cpu_s: {:.9g}\n", fmt::join(c.rank_off_cpu, ","));
  fmt::print(out, "action,band,count,measured_s,replayed_s,difference_s\n");
  for (auto const& g : c.groups)
    fmt::print(out, "{},\"{}\",{},{:.9g},{:.9g},{:.9g}\n", g.action, g.band, g.count, g.measured, g.replayed,
               g.replayed - g.measured);
}

} // namespace tit::calib
