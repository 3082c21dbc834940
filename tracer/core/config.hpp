// The tracer's settings, read from TIT_TRACE_* environment variables at MPI_Init.
#pragma once

#include <cstddef>
#include <string>

namespace tit::tracer {

struct Config {
  std::string dir = "tit-traces";  ///< TIT_TRACE_DIR: output directory (created if missing)
  std::string compute = "auto";    ///< TIT_TRACE_COMPUTE: auto | instructions | cpu-time | wall-time
  std::string cpu_clock = "auto";  ///< TIT_TRACE_CPU_CLOCK: auto | switches | syscall (how cpu-time is read)
  double rate = 1e9;               ///< TIT_TRACE_RATE: nominal instructions/s of the estimates
  double min_burst = 1e-6;         ///< TIT_TRACE_MIN_BURST: bursts shorter (s at `rate`) are not written
  bool timings = false;            ///< TIT_TRACE_TIMINGS=1: per-rank timings-<rank>.csv
  std::size_t buffer = 1 << 20;    ///< TIT_TRACE_BUFFER: bytes buffered per file before a write
  bool text = true;                ///< TIT_TRACE_FORMAT has `text`: per-rank rank-<r>.txt files
  bool compressed = false;         ///< TIT_TRACE_FORMAT has `compressed`: one trace.tit, folded online
  std::string values = "exact";    ///< TIT_TRACE_VALUES: exact | binned:R | stats (compressed values)
};

/// Reads the environment into `c`. Returns an empty string, or a message naming the variable,
/// its value and what was expected.
std::string read_config(Config& c);

} // namespace tit::tracer
