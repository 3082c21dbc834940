// tit-replay --fast-forward[=TOL] (docs/fast-forward.md): the run predicted from replays of the trace with its long
// loops cut to k, 2k and 3k iterations on every rank, each loop's time per iteration extended to its full trip
// count when the two slopes agree within the tolerance; otherwise k is doubled, and when that does not settle
// either, the trace is replayed in full and the report says why.
#pragma once

#include "fastforward/plan.hpp"
#include "replay/replayer.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tit::fastforward {

/// One loop as it was fast-forwarded.
struct LoopReport {
  std::string where;              ///< rank 0's first action of the loop: "file:line"
  std::uint64_t trip = 0;         ///< its iterations
  std::uint64_t simulated = 0;    ///< the most iterations of it one replay simulated (3k)
  std::uint64_t body = 0;         ///< rank 0's MPI calls per iteration (its computations go with them)
  double per_iteration = 0;       ///< simulated seconds an iteration adds to the run (the later slope, corrected)
  double slopes_differ = 0;       ///< relative difference of the two slopes
  double compute_share = 0;       ///< the part of an iteration's time its busiest rank computes (0..1)
  double error = 0;               ///< estimated error of the time it adds, relative to the prediction
};

struct Report {
  bool applied = false;           ///< the time was fast-forwarded (else the full replay ran)
  std::string why_not;            ///< when not applied: why
  std::vector<LoopReport> loops;
  double tolerance = 0;
  double estimated_error = 0;     ///< relative, sum over the loops
  std::uint64_t k = 0;            ///< the final cut (loops simulated for k, 2k, 3k iterations)
  int replays = 0;                ///< cut replays run
  std::uint64_t actions = 0;      ///< actions of the whole trace
  std::uint64_t simulated_actions = 0; ///< actions the replays simulated, all together
};

struct Outcome {
  replay::Result result; ///< with `applied`, only simulated_time (per-rank figures are not extrapolated), warnings
  Report report;
};

/// Predicts `options`' single trace set with fast-forward. Input errors are in result.exit_code/error as
/// replay::run gives them. Runs each cut replay in a child process: call it before this process runs a replay.
Outcome run(const replay::Options& options, const Settings& settings);

/// The report as tit-replay prints it after the summary.
void write_report(std::ostream& out, const Report& report);

} // namespace tit::fastforward
