#pragma once
// Runs the pending points of a plan on this machine, jobs tit-replay processes at a time.
#include "collect.hpp"
#include "progress.hpp"

namespace tit::sweep {

// The points still to run: without a result file, or failed when retry_failed.
std::vector<const PlannedPoint*> pending_points(const Plan& plan, bool retry_failed);

Counts run_local(const Plan& plan, unsigned jobs, bool retry_failed, std::ostream& progress, bool terminal);

} // namespace tit::sweep
