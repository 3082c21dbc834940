#pragma once
// One point's run and its result file, DIR/points/NNNNNN/result.json ("tit-sweep point v1"): written
// last, through a rename, so that a result file that exists is complete.
#include <array>
#include <filesystem>
#include <string>

namespace tit::sweep {

struct PlannedPoint;

struct MinMeanMax {
  double min = 0, mean = 0, max = 0;
};

struct PointResult {
  bool present = false;      // a complete result file exists
  int exit_code = 0;
  std::string error;         // tit-replay's first error line, or why it did not run
  double wall_time = 0;      // seconds, of the tit-replay process
  long max_rss_kb = 0;       // its peak resident memory
  double predicted_time = 0; // simulated seconds
  std::size_t ranks = 0;
  std::array<MinMeanMax, 3> per_rank{};  // computing, communicating, waiting
};

// Reads a point's result file; present is false when there is none (or it is incomplete).
PointResult read_result(const std::filesystem::path& point_dir);

// Runs tit-replay for a point (stdout.txt, stderr.txt and analysis.json in its folder), then writes
// its result file. Never throws for a failed replay: the failure is the result. A replay killed by
// SIGINT, SIGTERM or SIGHUP was interrupted: no result file (present is false), it runs again.
PointResult run_point(const PlannedPoint& point);

} // namespace tit::sweep
