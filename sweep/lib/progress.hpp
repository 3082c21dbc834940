#pragma once
// The progress line of tit-sweep on stderr: points done, running, failed, to go, and the time left
// estimated from the rate of this session. On a terminal one line is rewritten; otherwise a line is
// printed at most every few seconds.
#include <chrono>
#include <cstddef>
#include <ostream>

namespace tit::sweep {

class Progress {
public:
  Progress(std::ostream& out, bool terminal, std::size_t total, std::size_t already_done);
  // finished: points completed in this session (failed included); failed: all failed points.
  void update(std::size_t finished, std::size_t running, std::size_t failed, std::size_t to_run, bool last = false);

private:
  std::ostream& out_;
  bool terminal_;
  std::size_t total_, already_;
  std::chrono::steady_clock::time_point start_, last_print_;
};

} // namespace tit::sweep
