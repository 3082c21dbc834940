#include "fastforward/fast_forward.hpp"

#include "replay/child.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>

namespace tit::fastforward {

namespace {

/// What one cut replay gave.
struct CutRun {
  int exit_code = 0;
  std::string error;
  double time = 0;
  std::vector<double> compute; ///< per rank, simulated seconds computing
  std::vector<std::string> warnings;
};

/// The work of a child that replays `plan` cut to `iterations`: its answer as text (read by parse_cut).
std::function<std::string()> cut_work(const replay::Options& options, const Plan& plan,
                                      const std::vector<std::uint64_t>& iterations)
{
  return [&options, &plan, iterations] {
    replay::Options o = options;
    o.actions_log = nullptr;
    o.observer = nullptr;
    o.trace_source = [&plan, &iterations] { return plan.cut(iterations); };
    replay::Result r = replay::run(o);
    if (r.exit_code != 0)
      return fmt::format("error {}\n{}", r.exit_code, r.error);
    std::string out = fmt::format("ok {:.17g}\n", r.simulated_time);
    for (auto const& s : r.ranks)
      out += fmt::format("{:.17g} ", s.compute);
    out += '\n';
    for (auto const& w : r.warnings)
      out += w + '\x1f';
    return out;
  };
}

/// What a child of cut_work answered.
CutRun parse_cut(const std::optional<std::string>& text)
{
  CutRun run;
  if (not text) {
    run.exit_code = 1;
    run.error = "the replay ended abnormally";
    return run;
  }
  std::istringstream in(*text);
  std::string status;
  in >> status;
  if (status == "error") {
    in >> run.exit_code;
    in.ignore(1);
    std::getline(in, run.error, '\0');
    return run;
  }
  in >> run.time;
  in.ignore(1);
  std::string line;
  std::getline(in, line);
  std::istringstream computes(line);
  for (double c; computes >> c;)
    run.compute.push_back(c);
  for (std::string w; std::getline(in, w, '\x1f');)
    if (not w.empty())
      run.warnings.push_back(w);
  return run;
}

/// Mean of v[from, to); 0 when empty.
double mean(const std::vector<double>& v, std::uint64_t from, std::uint64_t to)
{
  if (to <= from)
    return 0;
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(to),
                         0.0) /
         static_cast<double>(to - from);
}

double relative(double a, double b)
{
  double scale = std::max(std::fabs(a), std::fabs(b));
  return scale == 0 ? 0 : std::fabs(a - b) / scale;
}

/// One fit of one loop from its three replays (base: every loop at k; `two`, `three`: this loop at 2k, 3k).
struct Fit {
  double added = 0;         ///< what the loop's skipped iterations add to the base run's time
  double per_iteration = 0;
  double slopes_differ = 0;
  double compute_share = 0;
  double spread = 0;        ///< |slope A - slope B| x skipped iterations, seconds
  std::string unsteady;     ///< why the loop cannot be fast-forwarded at all (message volumes that change)
};

Fit fit(const Loop& loop, std::uint64_t k, const CutRun& base, const CutRun& two, const CutRun& three,
        double tolerance)
{
  Fit f;
  std::uint64_t k1 = k, k2 = 2 * k, k3 = 3 * k;
  double step = three.time - two.time;
  double busiest = 0;
  for (std::size_t r = 0; r < three.compute.size() && r < two.compute.size(); ++r)
    busiest = std::max(busiest, three.compute[r] - two.compute[r]);
  f.compute_share = step > 0 ? std::clamp(busiest / step, 0.0, 1.0) : 0.0;
  // Compute volumes may differ from iteration to iteration (noise, drift): each slope is brought to the mean
  // volume of the skipped iterations at the cost of a unit of volume on the busiest rank (its share of the later
  // slope over that window's mean volume); exact when an iteration's time is a constant plus its volume's. Which
  // volume an iteration's time follows lies between the largest of a rank (ranks that wait for each other every
  // iteration) and the ranks' sum (ranks loosely coupled): the prediction takes the largest, and the difference
  // between the two corrections counts in the estimated error, with the difference between the two slopes.
  double raw_a = (two.time - base.time) / static_cast<double>(k2 - k1);
  double raw_b = step / static_cast<double>(k3 - k2);
  auto corrected = [&](const std::vector<double>& volume) {
    double skipped = mean(volume, k3, loop.trip);
    double window_b = mean(volume, k2, k3);
    double per_volume = window_b > 0 ? f.compute_share * raw_b / window_b : 0.0;
    return std::pair{raw_a + per_volume * (skipped - mean(volume, k1, k2)), raw_b + per_volume * (skipped - window_b)};
  };
  auto [a, b] = corrected(loop.peak);
  double b_sum = corrected(loop.work).second;
  f.per_iteration = b;
  f.slopes_differ = relative(a, b);
  double remaining = static_cast<double>(loop.trip - k3);
  f.added = (three.time - base.time) + remaining * b;
  f.spread = std::max(std::fabs(a - b), std::fabs(b - b_sum)) * remaining;
  double skipped = mean(loop.work, k3, loop.trip);
  // Message volumes are not corrected for: the loop must send as much in the skipped iterations as in those simulated.
  double sent = mean(loop.bytes, k2, k3), sent_skipped = mean(loop.bytes, k3, loop.trip);
  if (relative(sent, sent_skipped) > tolerance)
    f.unsteady = fmt::format("its iterations send {:.6g} bytes on average in the simulated ones and {:.6g} in the "
                             "skipped ones (message volumes that change are not extrapolated)",
                             sent, sent_skipped);
  bool window_without_compute = (mean(loop.work, k1, k2) <= 0 || mean(loop.work, k2, k3) <= 0) && skipped > 0;
  if (f.unsteady.empty() && window_without_compute)
    f.unsteady = "its skipped iterations compute but the simulated ones do not";
  return f;
}

} // namespace

namespace {

/// The cut replays of one plan (each made once) and the rounds of fits made from them.
class Cuts {
public:
  Cuts(const replay::Options& options, const Plan& plan, const Settings& settings, Report& report)
      : options_(options), plan_(plan), settings_(settings), report_(report)
  {
  }

  /// Why a round at `k` is not worth making (the loops hold too few iterations, or it would cost more than the
  /// full replay); empty when it is.
  std::string refused(std::uint64_t k) const
  {
    for (auto const& loop : plan_.loops())
      if (3 * k > loop.kept)
        return fmt::format("the loop at {} ({} iterations) is not steady: simulated for up to {} iterations, its time "
                           "per iteration still moved by more than the tolerance (estimated error {:.2g}%)",
                           loop.where, loop.trip, 3 * k / 2, 100 * report_.estimated_error);
    std::uint64_t round = 0;
    for (auto const& at : cuts_of(k))
      round += runs_.count(at) != 0 ? 0 : plan_.actions_of_cut(at);
    if (report_.simulated_actions + round < report_.actions)
      return {};
    if (report_.replays == 0) // the loops are short beside the rest of the trace: the full replay is cheaper
      return fmt::format("the loops are too short to gain from a cut: the first cut replays would simulate {} "
                         "actions, the trace has {}",
                         round, report_.actions);
    return fmt::format("the loops are not steady enough to gain from a cut: after {} replays (estimated error "
                       "{:.2g}%, tolerance {:.2g}%), simulating them longer would cost more than the full replay",
                       report_.replays, 100 * report_.estimated_error, 100 * settings_.tolerance);
  }

  /// One round: every loop at k, then each at 2k and 3k; the prediction in `predicted` and the report's loops and
  /// estimated error. Returns why the trace must be replayed in full (empty: the round was made).
  std::string round(std::uint64_t k, double& predicted)
  {
    const auto& loops = plan_.loops();
    replay_all(cuts_of(k));
    std::vector<std::uint64_t> at_k(loops.size(), k);
    const CutRun& base = replay(at_k);
    if (base.exit_code != 0)
      return did_not_replay(base);
    predicted = base.time;
    report_.loops.clear();
    report_.estimated_error = 0;
    std::vector<Fit> fits;
    for (std::size_t j = 0; j < loops.size(); ++j) {
      auto two_at = at_k, three_at = at_k;
      two_at[j] = 2 * k;
      three_at[j] = 3 * k;
      const CutRun& two = replay(two_at);
      const CutRun& three = replay(three_at);
      for (const CutRun* r : {&two, &three})
        if (r->exit_code != 0)
          return did_not_replay(*r);
      fits.push_back(fit(loops[j], k, base, two, three, settings_.tolerance));
      if (not fits.back().unsteady.empty())
        return fmt::format("the loop at {} ({} iterations) is not steady: {}", loops[j].where, loops[j].trip,
                           fits.back().unsteady);
      predicted += fits.back().added;
    }
    for (std::size_t j = 0; j < loops.size(); ++j) {
      LoopReport l{loops[j].where, loops[j].trip, 3 * k, loops[j].body.front(), fits[j].per_iteration,
                   fits[j].slopes_differ, fits[j].compute_share, predicted > 0 ? fits[j].spread / predicted : 0};
      report_.estimated_error += l.error;
      report_.loops.push_back(l);
    }
    report_.k = k;
    warnings_ = base.warnings;
    return {};
  }

  const std::vector<std::string>& warnings() const { return warnings_; }

private:
  /// The cuts of a round at k: every loop at k, and each loop at 2k and 3k.
  std::vector<std::vector<std::uint64_t>> cuts_of(std::uint64_t k) const
  {
    std::size_t m = plan_.loops().size();
    std::vector<std::vector<std::uint64_t>> out{std::vector<std::uint64_t>(m, k)};
    for (std::size_t j = 0; j < m; ++j)
      for (std::uint64_t times : {2, 3}) {
        out.emplace_back(m, k);
        out.back()[j] = times * k;
      }
    return out;
  }

  /// The cuts of `cuts` not replayed yet, replayed side by side (settings_.parallel at once, each in a child).
  void replay_all(const std::vector<std::vector<std::uint64_t>>& cuts)
  {
    std::vector<std::vector<std::uint64_t>> todo;
    std::vector<std::function<std::string()>> works;
    for (auto const& at : cuts) {
      if (runs_.count(at) != 0 || std::find(todo.begin(), todo.end(), at) != todo.end())
        continue;
      if (settings_.progress)
        settings_.progress(fmt::format("fast-forward: replay {} (loops cut to {} iterations)",
                                       runs_.size() + todo.size() + 1, fmt::join(at, ", ")));
      report_.simulated_actions += plan_.actions_of_cut(at);
      ++report_.replays;
      todo.push_back(at);
      works.push_back(cut_work(options_, plan_, todo.back()));
    }
    auto answers = replay::in_children(works, settings_.parallel);
    for (std::size_t i = 0; i < todo.size(); ++i)
      runs_.emplace(todo[i], parse_cut(answers[i]));
  }

  const CutRun& replay(const std::vector<std::uint64_t>& iterations)
  {
    replay_all({iterations});
    return runs_.at(iterations);
  }

  static std::string did_not_replay(const CutRun& r)
  {
    return fmt::format("the trace with its loops cut did not replay ({})", r.error.substr(0, r.error.find('\n')));
  }

  const replay::Options& options_;
  const Plan& plan_;
  const Settings& settings_;
  Report& report_;
  std::map<std::vector<std::uint64_t>, CutRun> runs_;
  std::vector<std::string> warnings_;
};

} // namespace

Outcome run(const replay::Options& options, const Settings& settings)
{
  Outcome out;
  Report& report = out.report;
  report.tolerance = settings.tolerance;
  std::optional<Plan> plan;
  try {
    plan.emplace(Plan::make(options.traces, options.ranks, settings));
  } catch (const trace::TraceError& e) {
    out.result.exit_code = 2;
    out.result.error = e.what();
    return out;
  }
  report.actions = plan->actions();
  auto full = [&](std::string why) {
    report.why_not = std::move(why);
    report.applied = false;
    report.loops.clear();
    plan.reset();
    if (settings.progress)
      settings.progress("fast-forward: replaying in full");
    out.result = replay::run(options);
    return out;
  };
  if (not plan->refusal().empty())
    return full(plan->refusal());
  Cuts cuts(options, *plan, settings, report);
  for (std::uint64_t k = settings.first_k;; k *= 2) {
    if (auto why = cuts.refused(k); not why.empty())
      return full(why);
    double predicted = 0;
    if (auto why = cuts.round(k, predicted); not why.empty())
      return full(why);
    bool within = report.estimated_error <= settings.tolerance;
    for (auto const& l : report.loops)
      within = within && l.error <= settings.tolerance;
    if (not within)
      continue;
    report.applied = true;
    out.result.exit_code = 0;
    out.result.simulated_time = predicted;
    out.result.warnings = cuts.warnings();
    return out;
  }
}

void write_report(std::ostream& out, const Report& report)
{
  if (not report.applied) {
    fmt::print(out, "Fast-forward: not applied, the trace was replayed in full: {}\n", report.why_not);
    return;
  }
  fmt::print(out,
             "Fast-forward: the time above is extrapolated, not simulated in full: {} replays simulated {} of the "
             "trace's {} actions ({:.3g}%); estimated error {:.2g}% (tolerance {:.2g}%)\n",
             report.replays, report.simulated_actions, report.actions,
             report.actions > 0 ? 100.0 * static_cast<double>(report.simulated_actions) /
                                      static_cast<double>(report.actions)
                                : 0.0,
             100 * report.estimated_error, 100 * report.tolerance);
  fmt::print(out, "  {:<40} {:>10} {:>10} {:>8} {:>16} {:>8} {:>8} {:>9}\n", "loop (rank 0's first action)",
             "iterations", "simulated", "calls", "s per iteration", "slopes", "compute", "error");
  for (auto const& l : report.loops)
    fmt::print(out, "  {:<40} {:>10} {:>10} {:>8} {:>16.9g} {:>7.2g}% {:>7.0f}% {:>8.2g}%\n", l.where, l.trip,
               l.simulated, l.body, l.per_iteration, 100 * l.slopes_differ, 100 * l.compute_share, 100 * l.error);
  fmt::print(out, "  (per-rank figures are not extrapolated: replay without --fast-forward for them)\n");
}

} // namespace tit::fastforward
