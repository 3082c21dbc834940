// The `stats` value mode's check at compress time (docs/compressed-format.md, "The check"): what the drawn volumes
// give on a reference model against what the traced ones give, so that a `stats` file whose draws would move the
// prediction says so and keeps the traced values instead.
#include "compressed/fold/fold.hpp"
#include "compressed/read/read.hpp"

#include <algorithm>
#include <cmath>

namespace tit::trace::cformat {

namespace {

/// The nominal cost of the action that closes a gap (nominal_cost of its bytes; none for a computation).
double closing_cost(const Action& a)
{
  switch (a.kind) {
    case Kind::Compute:
    case Kind::Sleep:
    case Kind::Init:
    case Kind::Finalize: return 0;
    default: return nominal_cost(std::max(0.0, a.bytes) + std::max(0.0, a.bytes2));
  }
}

/// One rank's actions read gap by gap: the compute volume between two consecutive non-compute actions, plus the
/// nominal cost of the action that closes it.
class GapReader {
public:
  explicit GapReader(std::unique_ptr<RankReader> reader) : reader_(std::move(reader)) {}

  /// The next gap's compute volume (0 when it held none) in `volume`, its closing action's cost in `cost`, whether
  /// that action is a blocking collective on the whole world in `meets`; false once the rank's trace has ended.
  bool next(double& volume, double& cost, bool& meets)
  {
    volume = 0;
    cost = 0;
    meets = false;
    if (ended_)
      return false;
    while (reader_->next(a_)) {
      if (a_.kind == Kind::Compute) {
        volume += a_.amount;
        continue;
      }
      cost = closing_cost(a_);
      meets = is_collective(a_.kind) && a_.comm == 0;
      return true; // a non-compute action closes the gap
    }
    ended_ = true;
    return volume > 0; // computes after the last other action: one more gap
  }

private:
  std::unique_ptr<RankReader> reader_;
  Action a_;
  bool ended_ = false;
};

} // namespace

LockStep lock_step(std::vector<std::unique_ptr<RankReader>> readers)
{
  std::vector<GapReader> ranks;
  ranks.reserve(readers.size());
  for (auto& r : readers)
    ranks.emplace_back(std::move(r));
  LockStep s;
  s.rank_totals.assign(ranks.size(), 0);
  std::vector<bool> done(ranks.size(), false);
  std::vector<std::vector<double>> stretches(ranks.size(), std::vector<double>(1, 0.0)); // per rank, segmented
  for (std::size_t left = ranks.size(); left > 0;) {
    double slowest = 0;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      double v = 0, cost = 0;
      bool meets = false;
      if (done[i])
        continue;
      if (!ranks[i].next(v, cost, meets)) {
        done[i] = true;
        --left;
        continue;
      }
      slowest = std::max(slowest, v + cost);
      s.rank_totals[i] += v;
      stretches[i].back() += v + cost;
      if (meets)
        stretches[i].push_back(0);
    }
    s.time += slowest;
    ++s.gaps;
  }
  bool aligned = std::all_of(stretches.begin(), stretches.end(),
                             [&](const std::vector<double>& x) { return x.size() == stretches.front().size(); });
  if (aligned && !stretches.empty()) {
    s.segmented = 0;
    for (std::size_t k = 0; k < stretches.front().size(); ++k) {
      double slowest = 0;
      for (const auto& x : stretches)
        slowest = std::max(slowest, x[k]);
      s.segmented += slowest;
    }
  }
  return s;
}

double LockStep::difference(const LockStep& reference) const
{
  // the largest of the relative differences: the lock-step sum, the segmented sum, and the busiest rank's total
  auto rel = [](double a, double b) { return b > 0 ? (a - b) / b : (a > 0 ? 1.0 : 0.0); };
  double d = rel(time, reference.time);
  if (segmented >= 0 && reference.segmented >= 0) {
    double g = rel(segmented, reference.segmented);
    d = std::abs(g) > std::abs(d) ? g : d;
  }

  double busiest = rank_totals.empty() ? 0 : *std::max_element(rank_totals.begin(), rank_totals.end());
  double busiest_ref =
      reference.rank_totals.empty() ? 0 : *std::max_element(reference.rank_totals.begin(), reference.rank_totals.end());
  double e = rel(busiest, busiest_ref);
  return std::abs(e) > std::abs(d) ? e : d;
}

LockStep reference_estimates(const std::function<std::vector<std::unique_ptr<RankReader>>()>& open)
{
  LockStep s = lock_step(open());
  s.timed = message_time(open()).value_or(-1);
  return s;
}

double LockStep::timed_difference(const LockStep& reference) const
{
  return timed >= 0 && reference.timed > 0 ? (timed - reference.timed) / reference.timed : 0;
}

} // namespace tit::trace::cformat
