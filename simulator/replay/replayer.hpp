// Replays a trace set on a SimGrid platform: sets the engine up like smpirun, runs one actor per rank
// and collects what each rank did.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tit::timeline {
class Observer;
}
namespace tit::trace {
class TraceSet;
}

namespace tit::replay {

/// One job of a workload: a trace set placed on some hosts of the shared platform, started at `start`. Each
/// job has its own MPI world (ranks, matching, communicators, collectives); jobs share only the platform.
struct Job {
  std::string name;
  std::filesystem::path traces;
  std::filesystem::path deployment;     ///< one of deployment, hostfile, hosts, host_indices places the ranks
  std::filesystem::path hostfile;
  std::vector<std::string> hosts;       ///< host of each rank, by name
  std::vector<int> host_indices;        ///< host of each rank, numbered as the engine lists the platform's hosts
  std::optional<int> ranks;             ///< with a hostfile: the number of ranks
  double start = 0;                     ///< simulated time at which its ranks start
  std::vector<std::string> cfg;         ///< its own coll/... settings ("coll/selector:ompi"), over the run's
  std::string where;                    ///< "file:line" of its definition, for messages
  std::ostream* actions_log = nullptr;  ///< one line per action when set
  timeline::Observer* observer = nullptr; ///< its timelines and analysis, if any
  /// When set, its trace set instead of opening `traces` (the cut trace sets of --fast-forward).
  std::function<std::unique_ptr<trace::TraceSet>()> trace_source;
};

struct Options {
  std::filesystem::path platform;
  std::filesystem::path deployment; ///< empty when a hostfile places the ranks
  std::filesystem::path hostfile;
  std::filesystem::path traces;
  std::optional<int> ranks;          ///< --np
  std::vector<std::string> cfg;      ///< "name:value", applied after the platform's defaults
  std::vector<std::string> log;      ///< SimGrid --log settings
  std::ostream* actions_log = nullptr; ///< one line per action when set
  bool merge_computations = false;     ///< replay consecutive computations as one (faster, not bit-exact)
  timeline::Observer* observer = nullptr; ///< told of every action and message (timelines, analysis)
  /// A workload: these jobs on `platform` in one simulation (then deployment, hostfile, traces, ranks,
  /// actions_log and observer above are unused).
  std::vector<Job> jobs;
  /// When set, the trace set replayed instead of opening `traces` (fastforward/: a trace set with loops cut).
  std::function<std::unique_ptr<trace::TraceSet>()> trace_source;
  /// With jobs: replay each job alone as well (for its slowdown), each in a process of its own.
  bool isolated_baseline = false;
};

/// What one rank did, in simulated seconds.
struct RankStats {
  std::string host;
  double start = 0;     ///< time of its `init`
  double end = 0;       ///< time its last action (and its pending requests) completed
  double compute = 0;   ///< in compute, sleep and reduction computations
  double mpi = 0;       ///< in MPI actions (overheads, transfers and waiting)
  double waiting = 0;   ///< part of `mpi` blocked before the partner posted its side
  double polling = 0;   ///< part of `mpi` injected into tests (smpi/test times SimGrid's counter)
  std::uint64_t polls = 0; ///< how many injections
  std::uint64_t actions = 0;
};

/// What one job of a workload did.
struct JobResult {
  std::string name;
  double start = 0;            ///< its start time
  double end = 0;              ///< end of its last rank
  double simulated_time = 0;   ///< as Result::simulated_time, for this job
  std::vector<RankStats> ranks;
  std::optional<double> alone; ///< its duration (end - start) replayed alone (--isolated-baseline)
  double duration() const { return end - start; }
};

struct Result {
  int exit_code = 0;           ///< 0 success, 2 bad input, 3 deadlock
  std::string error;           ///< the error report when exit_code != 0
  double simulated_time = 0;   ///< end of the last rank to finish, counted from its init
  std::vector<RankStats> ranks;
  std::vector<std::string> warnings;
  std::string trace_description;
  std::vector<JobResult> jobs; ///< a workload's jobs, in the order given
  double makespan = 0;         ///< a workload: end of the last job to finish
};

/// Runs the whole replay (one trace set, or the jobs of a workload). Input errors are returned in the Result
/// (exit code 2), never thrown.
///
/// SimGrid allows one engine per process, created once: run() creates it, so a process calls run() once.
/// Nothing else of the replay is static: several jobs share one engine (Options::jobs), and the isolated
/// baselines run in child processes.
Result run(const Options& options);

} // namespace tit::replay
