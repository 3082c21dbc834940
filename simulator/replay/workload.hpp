// Workload files: several jobs (trace sets) to replay on one platform, in SimGrid's replay_multiple_manual
// format or in tit-replay's JSON form. Knows nothing of the engine: host indices are checked when the
// platform is loaded (replayer.cpp).
#pragma once

#include "replay/replayer.hpp"

#include <filesystem>
#include <vector>

namespace tit::replay {

/// Reads a workload file; a file whose first non-blank character is '{' is the JSON form, any other the
/// replay_multiple_manual form. Relative paths are taken from the workload file's folder. Throws InputError
/// naming the file and line (a negative start time, two jobs with one name, a malformed line or key).
std::vector<Job> read_workload(const std::filesystem::path& file);

} // namespace tit::replay
