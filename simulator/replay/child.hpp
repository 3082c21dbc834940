// Work run in a child process: SimGrid 3.32 creates one engine per process, so each further replay (a workload's
// isolated baselines, the cut replays of --fast-forward) runs in a fork made before this process creates its own.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace tit::replay {

/// Runs `work` in a child process and returns the text it returned; nothing when the child ended without
/// answering (killed, crashed) or could not be started.
std::optional<std::string> in_child(const std::function<std::string()>& work);

} // namespace tit::replay
