// The timings of a traced run (TIT_TRACE_TIMINGS=1): each action of the trace joined, by its line number,
// with its measured duration from the tracer's side file timings-<rank>.csv.
#pragma once

#include "trace/action.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tit::calib {

/// One row of a timings file: the action's name and when it ran (seconds from the return of MPI_Init).
struct Timing {
  std::string action;
  double start = 0;
  double end = 0;
};

/// A rank's timings file (timings-<r>.csv): its rows by trace line number.
struct TimingsFile {
  std::unordered_map<std::uint64_t, Timing> rows;
  std::optional<double> origin; ///< `# origin: T s ...` (the rank's host clock at the return of MPI_Init)
  std::string host;             ///< `# host: NAME`
};

/// Reads timings-<r>.csv: `# origin:` and `# host:` lines (tracers before them wrote none), a header row, then
/// line,action,start_s,end_s. Throws InputError naming the file, line and column of a bad row.
TimingsFile read_timings(const std::filesystem::path& path);

/// The row of `timings` (read from `path`) for the trace action `a`, by its line number. Throws InputError naming the
/// trace's file and line when there is none, or when the row times another action.
const Timing& timing_of(const TimingsFile& timings, const trace::Action& a, const std::filesystem::path& path);

/// One action of a timed trace and how long the real call took.
struct TimedAction {
  int rank = 0;
  trace::Kind kind = trace::Kind::Init;
  int partner = -1;  ///< as trace::Action
  int partner2 = -1;
  double bytes = 0;
  double bytes2 = 0;
  double amount = 0;
  int tag = 0;
  int comm = 0;
  double seconds = 0; ///< end_s - start_s of its timing row
  /// start_s and end_s plus the origin the timings file gives (`# origin:`, on the host's CLOCK_MONOTONIC), so
  /// that ranks of one host compare; without an origin, start_s and end_s as they are (the rank's own clock).
  double start = 0;
  double end = 0;
  int host = -1; ///< ranks of the same host have the same index (the `# host:` line); -1: no origin given
  int src = -1;  ///< wait / test: the request's key (world ranks; tag in `tag`), as trace::Action; -1: none given
  int dst = -1;
};

/// Every action of `traces` (a trace list or merged file) for which `keep` is true, with its duration from
/// `<timings_dir>/timings-<r>.csv` (header, then line,action,start_s,end_s). Throws InputError naming the
/// file and line of a missing timing file, a bad row, or a kept line without a timing of the same action.
std::vector<TimedAction> timed_actions(const std::filesystem::path& traces, const std::filesystem::path& timings_dir,
                                       const std::function<bool(const trace::Action&)>& keep);

} // namespace tit::calib
