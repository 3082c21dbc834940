// Work run in child processes: SimGrid 3.32 creates one engine per process, so each further replay (a workload's
// isolated baselines, the cut replays of --fast-forward) runs in a fork made before this process creates its own.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tit::replay {

/// Runs `work` in a child process and returns the text it returned; nothing when the child ended without
/// answering (killed, crashed) or could not be started.
std::optional<std::string> in_child(const std::function<std::string()>& work);

/// Runs each of `works` in a child process of its own, at most `parallel` at once (1 at least), and returns what
/// each returned, in the order of `works` (nothing for a child that ended without answering or could not be
/// started). Each child's output is read as it comes, so that none waits on a full pipe.
std::vector<std::optional<std::string>> in_children(const std::vector<std::function<std::string()>>& works,
                                                    unsigned parallel);

/// The CPUs this process may run on (its affinity mask, as `taskset` or a Slurm allocation sets it); 1 at least.
unsigned usable_cpus();

} // namespace tit::replay
