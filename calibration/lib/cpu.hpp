// CPU calibration: the rate (flops or instructions per second) the application's compute bursts run at,
// per process: sum of the bursts' volumes / sum of their durations (a weighted average), then the median
// over repetitions, per problem size so that a cache-dependent rate can be chosen.
#pragma once

#include "csv.hpp"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tit::calib {

struct CpuBurst {
  int rank = 0;
  double problem = 0;  ///< problem size (e.g. bytes of the working set)
  int iteration = 0;   ///< repetition
  double volume = 0;   ///< flops or instructions
  double seconds = 0;
};

/// Reads a CPU CSV (rank,problem,iteration,burst,volume,seconds), as calib-cpu and `tit-calibrate cpu-trace`
/// write it. Throws InputError.
std::vector<CpuBurst> load_cpu(const CsvTable& table);

/// The compute bursts of a trace taken with timings: every `compute V` line of rank r's trace joined,
/// by line number, with the row of `<timings_dir>/timings-<r>.csv` (header, then line,action,start_s,end_s).
/// Throws InputError naming the file and line of a missing or inconsistent timing.
std::vector<CpuBurst> bursts_from_trace(const std::filesystem::path& traces, const std::filesystem::path& timings_dir,
                                        double problem, int iteration);

/// What the compute volumes of a trace count (trace::compute_unit()), or "unknown" when its header
/// does not say. Throws InputError.
std::string trace_compute_unit(const std::filesystem::path& traces);

/// The unit of a CPU CSV's volumes: its `# unit:` line, else "flops" (calib-cpu's before it wrote one).
std::string cpu_unit(const CsvTable& table);

/// `unit`: what the volumes count, written as `# unit: <unit>`.
void write_cpu_csv(std::ostream& out, const std::vector<CpuBurst>& bursts, const std::string& source,
                   const std::string& unit);

struct CpuProblem {
  double problem = 0;
  std::vector<double> rank_rate; ///< per rank: median over repetitions of the weighted rate
  double mean = 0, min = 0, max = 0;
  int repetitions = 0;
};

struct CpuFit {
  std::vector<CpuProblem> problems; ///< by problem size
  double speed = 0;                 ///< the rate chosen for the platform
  std::string unit = "flops";       ///< what it counts per second (cpu_unit())
  double chosen_problem = 0;
};

/// Rates per problem; the speed is that of `problem` (when given; it must have been measured) or of the
/// largest problem. Throws InputError.
CpuFit fit_cpu(const std::vector<CpuBurst>& bursts, std::optional<double> problem);

void write_cpu_report(std::ostream& out, const CpuFit& fit);

} // namespace tit::calib
