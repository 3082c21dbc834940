// The tit-replay command as one library call: checks what the command line asked, opens the output files,
// runs the replay (or the comparison) and reports. The executable only parses its options into Command.
#pragma once

#include "replay/replayer.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tit::output {

/// What a tit-replay command line says, as plain values.
struct Command {
  std::vector<std::string> files;   ///< PLATFORM.xml [DEPLOYMENT.xml] TRACES, or PLATFORM.xml with a workload
  std::string workload;             ///< --workload FILE
  replay::Options replay;           ///< hostfile, cfg, log, merge_computations, isolated_baseline
  int np = 0;                       ///< --np (0: not given)
  std::string actions_log;
  bool per_rank = false;
  std::string paje, chrome, csv, analysis_json;
  std::string otf2;                 ///< --otf2 DIR: the simulated run as an OTF2 archive
  bool analysis = false;
  std::string delay_model = "proportional";
  bool progress = false;            ///< --progress (also on when stderr is a terminal)
  std::vector<std::string> compare; ///< --compare A.json B.json
  std::optional<double> fast_forward; ///< --fast-forward[=TOL]: the tolerance
};

/// Runs `command`: the summary (and analysis) on `out`, diagnostics on `err`. Returns the exit code (0, 2 bad
/// input, 3 deadlock) of a replay that ran; throws tit::Error for a command it cannot run (run_main reports it).
int execute(const Command& command, std::ostream& out, std::ostream& err);

/// The --help text after the options: model parameters, collective algorithms, exit codes.
std::string parameters_footer();

} // namespace tit::output
