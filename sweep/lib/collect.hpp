#pragma once
// DIR/results.csv: after a "# tit-sweep results v1" line, a header, then one row per point in point
// order. Columns: every vary key as written in the sweep file, predicted_time, ranks, the per-rank
// min/mean/max of computing, communicating and waiting, wall_time, max_rss_mb (the peak
// memory of tit-replay), exit_code, error. A point not run
// yet has empty result columns and the error "pending".
#include "plan.hpp"

#include <ostream>

namespace tit::sweep {

struct Counts {
  std::size_t done = 0, failed = 0, pending = 0;
};

Counts count_results(const Plan& plan);

// Writes the CSV to a stream (and returns the counts of its points).
Counts write_csv(std::ostream& out, const Plan& plan);
// Writes DIR/results.csv (through a rename).
Counts collect(const Plan& plan);

} // namespace tit::sweep
