#include "progress.hpp"

#include <cmath>
#include <fmt/format.h>

namespace tit::sweep {

namespace {
std::string duration(double s)
{
  if (s < 90)
    return fmt::format("{:.0f}s", s);
  if (s < 5400)
    return fmt::format("{:.0f}m{:02.0f}s", std::floor(s / 60), s - 60 * std::floor(s / 60));
  return fmt::format("{:.1f}h", s / 3600);
}
} // namespace

Progress::Progress(std::ostream& out, bool terminal, std::size_t total, std::size_t already_done)
    : out_(out), terminal_(terminal), total_(total), already_(already_done), start_(std::chrono::steady_clock::now()),
      last_print_(start_)
{
}

void Progress::update(std::size_t finished, std::size_t running, std::size_t failed, std::size_t to_run, bool last)
{
  auto now = std::chrono::steady_clock::now();
  double since = std::chrono::duration<double>(now - last_print_).count();
  if (not last && not terminal_ && since < 5 && finished != 1)
    return;
  last_print_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string left = finished == to_run ? std::string("0s")
                     : finished > 0
                         ? duration(elapsed / static_cast<double>(finished) * static_cast<double>(to_run - finished))
                         : std::string("?");
  auto line = fmt::format("tit-sweep: {}/{} points done ({} failed), {} running, {} to go, about {} left",
                          already_ + finished, total_, failed, running, to_run - finished, left);
  if (terminal_)
    out_ << '\r' << line << "\x1b[K" << (last ? "\n" : "") << std::flush;
  else
    out_ << line << '\n' << std::flush;
}

} // namespace tit::sweep
