// Replays a trace set on a SimGrid platform: sets the engine up like smpirun, runs one actor per rank
// and collects what each rank did.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tit::timeline {
class Observer;
}

namespace tit::replay {

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
};

/// What one rank did, in simulated seconds.
struct RankStats {
  std::string host;
  double start = 0;     ///< time of its `init`
  double end = 0;       ///< time its last action (and its pending requests) completed
  double compute = 0;   ///< in compute, sleep and reduction computations
  double mpi = 0;       ///< in MPI actions (overheads, transfers and waiting)
  double waiting = 0;   ///< part of `mpi` blocked before the partner posted its side
  std::uint64_t actions = 0;
};

struct Result {
  int exit_code = 0;           ///< 0 success, 2 bad input, 3 deadlock
  std::string error;           ///< the error report when exit_code != 0
  double simulated_time = 0;   ///< end of the last rank to finish, counted from its init
  std::vector<RankStats> ranks;
  std::vector<std::string> warnings;
  std::string trace_description;
};

/// Runs the whole replay. Input errors are returned in the Result (exit code 2), never thrown.
Result run(const Options& options);

} // namespace tit::replay
