// Reporters: write results to a stream they are given.
#pragma once

#include "replay/replayer.hpp"

#include <ostream>

namespace tit::output {

/// "Simulated time: X s" then the per-rank summary (all ranks when `per_rank` or when there are few).
void write_summary(std::ostream& out, const replay::Result& result, bool per_rank);

/// A workload's makespan, then per job its start, end and duration (and, replayed alone, its duration then and
/// its slowdown: duration / duration alone).
void write_workload_summary(std::ostream& out, const replay::Result& result);

/// Header line of the --actions-log file (schema version first).
void write_actions_log_header(std::ostream& out);

} // namespace tit::output
