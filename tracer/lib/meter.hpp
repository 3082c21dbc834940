// The compute volume between MPI calls: instructions retired in user space (hardware counter
// through perf_event_open), or, where counters are unavailable, a clearly labelled estimate:
// thread CPU time (or, on request, wall-clock time) times a nominal instruction rate.
#pragma once

#include <cstdint>
#include <string>

namespace tit::tracer {

enum class ComputeMode { Instructions, CpuTime, WallTime };

class Meter {
public:
  /// `requested`: "auto" (instructions, else cpu-time), "instructions", "cpu-time" or "wall-time".
  /// Returns an empty string, or why the instruction counter could not be used ("auto" then falls
  /// back to cpu-time; "instructions" fails: the caller stops the run).
  std::string start(const std::string& requested, double rate);
  void stop();

  ComputeMode mode() const { return mode_; }
  double rate() const { return rate_; }
  /// Text for the trace header and the stderr notice.
  std::string describe() const;

  /// The volume (instructions, measured or estimated) counted since start().
  double read() const;

  /// Monotonic wall-clock seconds (vDSO, cheap).
  static double now();

private:
  ComputeMode mode_ = ComputeMode::CpuTime;
  double rate_ = 1e9;
  int perf_fd_ = -1;
};

const char* mode_name(ComputeMode m);

} // namespace tit::tracer
