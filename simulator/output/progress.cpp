#include "output/progress.hpp"

#include <fmt/format.h>

namespace tit::output {

ProgressDisplay::ProgressDisplay(std::ostream& out, bool terminal)
    : out_(out), terminal_(terminal), start_(std::chrono::steady_clock::now()), last_(start_)
{
}

ProgressDisplay::~ProgressDisplay()
{
  if (printed_ && terminal_)
    out_ << '\n' << std::flush; // a failed run: leave the line, start the error message below it
}

void ProgressDisplay::action_end(const timeline::ActionRecord& record)
{
  ++actions_;
  if (record.end > reached_)
    reached_ = record.end;
  if ((actions_ & 1023) != 0) // look at the clock once every 1024 actions only
    return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < (terminal_ ? std::chrono::milliseconds(500) : std::chrono::milliseconds(10000)))
    return;
  last_ = now;
  print(false);
}

void ProgressDisplay::end_run(double simulated_time)
{
  reached_ = simulated_time;
  print(true);
  printed_ = false;
}

void ProgressDisplay::print(bool last)
{
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  auto line = fmt::format("tit-replay: simulated {:.6g} s, {} actions done{} in {:.1f} s ({:.0f} actions/s)",
                          reached_, actions_, last ? " (all)" : "", wall, wall > 0 ? actions_ / wall : 0.0);
  if (terminal_)
    out_ << '\r' << line << "\x1b[K" << (last ? "\n" : "") << std::flush;
  else
    out_ << line << '\n' << std::flush;
  printed_ = true;
}

} // namespace tit::output
