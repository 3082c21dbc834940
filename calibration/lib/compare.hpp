// A replay against the traced run it replays, action by action: each action's measured duration (the tracer's
// timings, TIT_TRACE_TIMINGS=1) beside its simulated one (tit-replay --actions-log), summed by action kind and
// message size, so that the model term that is short (or long) shows. Knows nothing of SimGrid.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace tit::calib {

/// The actions of one kind (and, for messages, one size band) summed over the ranks.
struct CompareGroup {
  std::string action; ///< the kind's dialect-2 name ("isend", "compute", ...)
  std::string band;   ///< "[0, 1024)" for messages (by bytes sent, or received for a receive); "" otherwise
  std::uint64_t count = 0;
  double measured = 0; ///< seconds, summed
  double replayed = 0;
};

/// One action whose replayed duration differs much from its measured one.
struct CompareOutlier {
  int rank = 0;
  std::string file;
  std::uint64_t line = 0;
  std::string text;
  double measured = 0;
  double replayed = 0;
};

/// The blocking collectives of one kind and size band (by the call's bytes): per call, what the call cost once its
/// last rank was in it (that rank's time in the call: the others' waiting for the late ones left out), measured (on
/// one host's clock) and replayed.
struct CollectiveCost {
  std::string action;
  std::string band;
  double low = 0; ///< the band's lower bound (bytes)
  std::uint64_t calls = 0;
  double measured = 0;   ///< median over the calls (seconds)
  double replayed = 0;   ///< median over the calls
  double difference = 0; ///< median over the calls of measured - replayed
};

struct Comparison {
  int ranks = 0;
  std::uint64_t actions = 0;
  /// The span as the harness measures it: from the first rank's start (its return from MPI_Init in the timings,
  /// its first action in the replay) to the last rank's start of `finalize`, the ranks' times on one clock when
  /// their timings share a host's (`rank_start`); otherwise the largest rank's own span. A rank without `finalize`
  /// counts its last action's end.
  double measured_span = 0;
  double replayed_span = 0;
  std::vector<double> rank_measured; ///< each rank's span, from its own start
  std::vector<double> rank_replayed;
  /// Each rank's start after the first rank's, measured (their timings' `# origin:` on one host's clock); empty when
  /// the ranks' timings do not share a clock.
  std::vector<double> rank_start;
  /// Each rank's start after the first rank's in the replay (0 unless it ran with tit/rank-start).
  std::vector<double> rank_replay_start;
  /// For a trace whose volumes are CPU time (`cpu-time x RATE`): each rank's computations' wall time less their CPU
  /// time (volume / RATE), the time the rank was descheduled inside them, which a replay of the volumes leaves out.
  /// Empty for other units.
  std::vector<double> rank_off_cpu;
  std::vector<CollectiveCost> collectives; ///< by action, then band
  /// Calls of collectives left out of `collectives`: ranks whose timings do not share a clock (other hosts, a tracer
  /// without `# origin:`), or a communicator whose members' calls differ in kind.
  std::uint64_t collective_calls_left_out = 0;
  std::vector<CompareGroup> groups;     ///< by |replayed - measured|, largest first
  std::vector<CompareOutlier> outliers; ///< the `top` largest |replayed - measured|, largest first
};

/// Joins the actions of `traces` with their timings (`<timings_dir>/timings-<r>.csv`) and with the rows of
/// `actions_log` (tit-replay --actions-log of the same trace: each rank's rows in its actions' order), message
/// kinds split at `breaks` (bytes, increasing). Throws InputError naming the file and line of a log that does not
/// hold the trace's actions (another trace, a replay with --merge-computations) or of a malformed row.
Comparison compare_replay(const std::filesystem::path& traces, const std::filesystem::path& timings_dir,
                          const std::filesystem::path& actions_log, const std::vector<double>& breaks, std::size_t top);

/// tit/coll-overhead ("COLLECTIVE:SIZE:OFFSET:SLOPE;...") that gives each collective kind and band of `c` the median
/// difference of its calls (a constant per band; bands whose replayed calls are not shorter get 0); empty when no
/// collective call was compared.
std::string coll_overhead_config(const Comparison& c);

/// The report: the spans, the table of groups, each rank's span, the collectives' calls, the outliers.
void write_comparison(std::ostream& out, const Comparison& c);
/// The ranks' measured starts as tit-replay's `tit/rank-start` value ("RANK:SECONDS;...", ranks that started after
/// the first one), or empty when none did or the ranks share no clock.
std::string rank_start_config(const Comparison& c);

/// The groups as CSV (`# tit-calibrate compare v1`, the spans, `# rank_start: VALUE` when the ranks started apart
/// and, for CPU-time volumes, `# off_cpu_s: R0,R1,...` in comment lines, then
/// action,band,count,measured_s,replayed_s,difference_s).
void write_comparison_csv(std::ostream& out, const Comparison& c);

} // namespace tit::calib
