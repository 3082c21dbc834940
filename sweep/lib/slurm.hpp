#pragma once
// Runs a plan as Slurm job arrays: one array task per point (`tit-sweep run-point DIR INDEX`), in
// chunks of at most MaxArraySize tasks (read from `scontrol show config`, Slurm's default 1001
// otherwise), throttled with %N. Scripts, job ids and task logs go to DIR/slurm/.
#include "collect.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tit::sweep {

struct SlurmOptions {
  std::string tit_sweep;           // absolute path of this program, run by each array task
  unsigned throttle = 0;           // at most this many tasks at once (0: Slurm decides)
  std::string time, mem, partition, account;
  std::vector<std::string> sbatch_args;
  bool retry_failed = false;
  std::optional<std::size_t> max_array_size;  // overrides scontrol's
};

// `scontrol show config`'s MaxArraySize, when scontrol answers.
std::optional<std::size_t> max_array_size_from_scontrol();

// The sbatch script of one chunk: array tasks `offsets` (relative to first) of the plan's points.
std::string sbatch_script(const Plan& plan, const SlurmOptions& o, std::size_t first,
                          const std::vector<std::size_t>& offsets);

// Without --time or --mem, requests from the points already run (a previous local or Slurm run):
// 3 times the longest wall time (whole minutes, at least 1) and twice the largest peak memory plus
// 64 MB. Nothing is requested when no point ran yet (the cluster's defaults apply).
void estimate_requests(const Plan& plan, SlurmOptions& o, std::ostream& log);

// Writes and submits the scripts of the pending points; returns the job ids (also appended to
// DIR/slurm/jobs). With dry_run, writes the scripts only. Throws std::runtime_error when sbatch fails.
std::vector<std::string> submit(const Plan& plan, const SlurmOptions& o, std::ostream& log, bool dry_run = false);

// Job ids recorded in DIR/slurm/jobs.
std::vector<std::string> recorded_jobs(const Plan& plan);

struct QueueState {
  bool known = false;  // squeue answered
  std::size_t running = 0, queued = 0;
};
QueueState queue_state(const std::vector<std::string>& jobs);

// Waits until the jobs have left the queue (or every point has a result), printing progress; false
// when timeout_s (> 0) passed first.
bool wait_for(const Plan& plan, const std::vector<std::string>& jobs, double poll_s, double timeout_s,
              std::ostream& progress, bool terminal);

} // namespace tit::sweep
