// Folding traces into compressed traces (docs/compressed-format.md), shared by `tit-trace compress`, the tools that
// make a compressed trace from a model (tit-trace extrapolate) and the tracer writing the format online (tracer/,
// TIT_TRACE_FORMAT=compressed):
//  - RankCompressor folds one rank's actions into nested loops as they arrive (memory bounded by the folded structure
//    and the value runs, not by the number of actions) and keeps its numbers in value streams;
//  - a Part holds some ranks' folded traces; merge_parts() joins parts (the tracer's ranks along a tree, compress()'s
//    ranks at once), numbering signatures, nodes and bodies canonically: by a depth-first walk of the ranks'
//    structures in rank order, so that the same ranks give the same bytes however they were grouped;
//  - write_compressed() writes the file of a part holding every rank (for `stats`, pooling its exact values);
//  - fold_gaps() reads a part's ranks back (read/) and folds them again for `stats` (the tracer's ranks, folded with
//    exact values as they ran);
//  - fold() gives a trace set's compressed trace in memory (a Loaded, as load_compressed() reads a file).
// The top layer of libs/compressed: above read/, container/ and values/.
#pragma once

#include "compressed/common/format.hpp"
#include "trace/reader.hpp"

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tit::trace {

/// Reads every rank of `in` (each rank once) and writes the compressed trace `out`. Throws TraceError on a bad
/// trace, or when `out` cannot be written.
CompressStats compress(TraceSet& in, const std::filesystem::path& out, const ValueMode& values);

} // namespace tit::trace

namespace tit::trace::cformat {

/// Arguments of an action that are world ranks (partners), by position: what folding writes relative to the rank
/// (tit-trace extrapolate reads them too).
inline std::vector<std::size_t> partner_positions(const Action& a)
{
  if (is_message(a.kind))
    return {0};
  switch (a.kind) {
    case Kind::Wait:
    case Kind::Test:
      return a.wait_last_irecv ? std::vector<std::size_t>{} : std::vector<std::size_t>{0, 1};
    case Kind::SendRecv:
      return {1, 3};
    default:
      return {};
  }
}

/// Signatures, nodes and bodies, interned so that equal ones get one id.
class Tables {
public:
  /// The key that identifies a signature (its own encoding: length-prefixed strings, so no two share it), built
  /// slot by slot into a reused string.
  static void key_begin(std::string& key, std::string_view name);
  static void key_slot(std::string& key, Slot::Kind kind, std::string_view literal, std::int64_t offset);

  /// The id of the signature whose key is `key`, or -1.
  std::int64_t find_signature(std::string_view key) const;
  std::uint32_t add_signature(std::string_view key, Signature&& s);
  std::uint32_t signature(Signature&& s);
  std::uint32_t node(const Node& n);
  std::uint32_t body(std::vector<std::uint32_t>&& node_ids);
  std::uint32_t body_of(const std::vector<Node>& items);

  const std::vector<std::uint32_t>& body_nodes(std::uint32_t id) const { return bodies_[id]; }
  const Node& node_at(std::uint32_t id) const { return nodes_[id]; }
  const std::vector<Signature>& signatures() const { return signatures_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<std::vector<std::uint32_t>>& bodies() const { return bodies_; }

  void move_into(std::vector<Signature>& s, std::vector<Node>& n, std::vector<std::vector<std::uint32_t>>& b);

private:
  std::vector<Signature> signatures_;
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> signature_ids_;
  std::vector<Node> nodes_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t> node_ids_;
  std::vector<std::vector<std::uint32_t>> bodies_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> body_ids_;
};

/// The parts' ranks as one part, renumbered canonically: ranks in ascending order, each rank's structure walked depth
/// first (a body's nodes before the body, a loop's body before the loop), every signature, node and body numbered when
/// first met; value blocks remapped, re-sorted and shared when equal. Ranks must not repeat across parts.
Part merge_parts(std::vector<Part> parts);

/// A part as bytes (to send it to another process) and back; decode_part throws TraceError naming `what` on bad bytes.
std::string encode_part(const Part& part);
Part decode_part(std::string_view bytes, const std::string& what);

/// Writes the compressed trace of `all` (ranks 0 .. rank_count-1, each once) to `out`. `stats`: `all` folded as
/// fold_parts() folds for it (exact values, one compute per gap), pooled here both ways (pool_stats with and without
/// draws), the smaller file written. Throws TraceError when a rank is missing or the file cannot be written (naming
/// the file and the system's reason). `all` is taken (pooled in place for the second file).
/// The `stats` check's reference model (stats_check.cpp): the ranks read gap by gap (the compute volume between two
/// consecutive non-compute actions, plus a nominal cost of the action that closes it), in lock step, as if every rank
/// waited for the others at each of its other actions; `time` the sum over the gaps of the largest, `rank_totals`
/// each rank's total compute volume.
struct LockStep {
  double time = 0;
  std::uint64_t gaps = 0;
  std::vector<double> rank_totals;
  /// The ranks meeting at their blocking collectives on the whole world only: the sum, over the stretches between
  /// two of them, of the slowest rank's stretch (its gaps and their closing costs); -1 when the ranks do not call
  /// as many of them.
  double segmented = -1;
  /// The ranks' clocks tied by their messages and collectives (message_time); -1 when that model could not follow them.
  double timed = -1;
  /// The relative difference from `reference` of the lock-step time, of the segmented time or of the busiest rank's
  /// total, the largest.
  double difference(const LockStep& reference) const;
  /// The relative difference from `reference` of the timed estimate; 0 when either has none.
  double timed_difference(const LockStep& reference) const;
};
LockStep lock_step(std::vector<std::unique_ptr<RankReader>> readers);

/// The reference models' cost of a message of `bytes` (or of a collective of that many bytes), in the compute volumes'
/// unit: a latency of 1e4 (10 us at 1 Gf) and a volume per byte (1 GB/s at 1 Gf). Not a model of any network: it only
/// keeps a trace whose time is mostly communication from reading its computations' differences as all of its time.
inline double nominal_cost(double bytes)
{
  return 1e4 + (bytes > 0 ? bytes : 0);
}

/// The second reference model (message_check.cpp): each rank's clock advanced by its compute volumes, every message
/// eager and arriving a nominal cost after its send (a receive, a wait or the end of the rank waits for it), the members
/// of a collective on a communicator of known size leaving together after the latest arrived, tests completing nothing.
/// The latest clock at the end; none when a rank receives from any source, starts persistent requests, or the ranks
/// cannot all end in this model.
std::optional<double> message_time(std::vector<std::unique_ptr<RankReader>> readers);

/// Both reference models on the ranks that `open` gives (called once per model): lock_step(), its `timed` from
/// message_time() (-1 when none).
LockStep reference_estimates(const std::function<std::vector<std::unique_ptr<RankReader>>()>& open);

/// Above this difference of the drawn file's lock-step estimate from the traced values' (LockStep::difference),
/// `stats` keeps the traced values (write_compressed).
inline constexpr double kStatsCheckLimit = 0.02;
/// Above this difference of the timed estimate (LockStep::timed_difference), likewise. The messages' model leaves the
/// network out, whose time dilutes the computations' in a replay: its estimate ran 1.3 to 5 times the replay's
/// difference on the traces measured (docs/compressed-format.md, "The check"), hence a limit above the target's 3 %.
inline constexpr double kTimedCheckLimit = 0.05;

/// Longest loop body, in items, that folding looks for (items may themselves be loops): a repeated block longer than
/// this stays unfolded (tit-trace extrapolate folds those itself).
inline constexpr std::size_t kFoldWindow = 64;

/// The first stretch of `seq` (a folded sequence's items) made of one block of at least `min_len` items repeated
/// `min_reps` times or more, as (start, block length, repetitions): the earliest start, then the most repetitions,
/// then the shortest block; {0, 0, 0} when none. Candidate lengths are the most frequent distances between consecutive
/// occurrences of an item. The earliest start first, so that sequences that differ only in a repetition count (an
/// iterative solver's convergence) are folded alike. Used with `min_len` kFoldWindow + 1 for the repeats the folder
/// leaves (tit-trace extrapolate's long repeats, fast-forward's long iterations).
std::array<std::size_t, 3> first_repeat(std::span<const std::uint32_t> seq, std::size_t min_len,
                                        std::size_t min_reps);

/// Folds `seq` with first_repeat (blocks longer than kFoldWindow, 3 repetitions or more): from the start, each first
/// repeat becomes the item `loop(block, repetitions)` gives, the search going on after it; passes until nothing
/// folds (the inner repeats first, then the outer ones they make periodic).
void fold_long_repeats(std::vector<std::uint32_t>& seq,
                       const std::function<std::uint32_t(std::span<const std::uint32_t>, std::size_t)>& loop);

CompressStats write_compressed(const std::filesystem::path& out, int rank_count, const ValueMode& mode,
                               const std::string& compute_unit, Part all);

/// One rank's actions folded as they arrive: after each action, a tail that repeats the body of the loop before it
/// extends that loop, a tail that repeats the items before it becomes a loop of 2 (greedy, nesting). Its numbers go
/// to value streams of runs (exact or binned; `stats` needs every rank's values: fold with exact values, with the gaps
/// (GapNormaliser, or fold_gaps afterwards), then write_compressed pools them).
class RankCompressor {
public:
  RankCompressor(int rank, int rank_count, const ValueMode& mode);
  ~RankCompressor();
  RankCompressor(const RankCompressor&) = delete;
  RankCompressor& operator=(const RankCompressor&) = delete;

  /// An action of this rank, as the trace reader parsed it.
  void add(const Action& a);
  /// A dialect 2 (SimGrid) action line of this rank, "<rank> <name> <args...>", as the tracer writes it: only its name
  /// is looked up (the reader checks the rest when the file is read). Throws TraceError on an unknown name.
  void add_line(std::string_view line);

  // The tracer's binary path (TIT_TRACE_FORMAT=compressed): its wrappers describe an action by a record, a few words
  // that determine the action's line (its name's address, its numbers, its communicator: equal records, equal lines),
  // and the compressor keys on the record, so that an action seen before is folded without its line being formatted
  // or read. The fold, hence the file, is the one add_line() of the same lines gives.

  /// An action whose record was given with its line before (add_line below): folded as that line; true. False when
  /// the record is not known: nothing was done, and the caller gives the line with add_line(line, record).
  bool add_record(std::span<const std::uint64_t> record);
  /// add_line(line), then `record` stands for `line` (when the line is one the compressor remembers).
  void add_line(std::string_view line, std::span<const std::uint64_t> record);
  /// `<rank> compute <volume>` without its line: true when folded; false when that line would not take the shortcut
  /// of compute lines (the first compute, `binned` values, a volume beyond the integers of value runs): nothing was
  /// done, and the caller gives the line with add_line().
  bool add_compute(std::int64_t volume);
  /// Actions added so far.
  std::uint64_t actions() const { return actions_; }
  /// Items of the folded sequence and of every loop body so far (the memory of the structure).
  std::uint64_t structure_items() const;
  /// This rank's part (the compressor is spent).
  Part finish();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::uint64_t actions_ = 0;
};

/// `stats` folding: a rank's actions with the presence of a compute made a value rather than structure. Every gap
/// between two consecutive non-compute actions holds exactly one `compute`: the gap's computes summed into one, or
/// `compute 0` where it had none (a file of value mode byte 4 reads a compute of volume 0 as no action). Computes
/// before the first and after the last non-compute action are summed likewise, and left out when there are none.
/// So iterations of a loop that computed long enough to be traced in some iterations only (SMPI's and the tracer's
/// thresholds) fold into one body, and the ranks into one structure.
///
/// Without `zeros` (`binned:R`, fold_parts): consecutive computes are summed into one as well, but a gap without a
/// compute stays without one, so no compute of volume 0 is written (the file keeps value mode byte 1): the sum is then
/// binned as one volume, within R of it. (Writing the gaps' 0s as well, to fold the iterations without a compute into
/// the others as `stats` does, made the binned files of SMPI traces up to 49 % larger, never smaller: the 0s go into
/// the one value stream of compute volumes; docs/compressed-format.md, "Not yet".)
class GapNormaliser {
public:
  explicit GapNormaliser(RankCompressor& out, bool zeros = true) : out_(out), zeros_(zeros) {}
  void add(const Action& a);
  /// The computes after the last non-compute action.
  void finish() { flush(false); }

private:
  void flush(bool gap);
  RankCompressor& out_;
  bool zeros_;
  bool seen_separator_ = false; ///< a non-compute action came: the next one closes a gap
  bool pending_ = false;        ///< a compute since the last non-compute action
  bool integer_ = true;         ///< every pending volume a canonical integer
  std::int64_t int_sum_ = 0;
  double sum_ = 0;
  std::string token_;  ///< the pending volume's token when there was one compute
  std::string line_;   ///< the compute line given to `out_`
  int rank_ = 0;
  Dialect dialect_ = Dialect::SimGrid;
};

/// Every rank of `in` (each rank once) folded by a RankCompressor and merged into one part; `actions` receives the
/// number of actions read. `stats`: folded with exact values through a GapNormaliser, not pooled (write_compressed
/// pools).
/// Throws TraceError on a bad trace.
Part fold_parts(TraceSet& in, const ValueMode& values, std::uint64_t& actions);

/// `stats` folding of ranks folded with exact values (the tracer folds each rank online as the program runs): every
/// rank of `exact` read back (read_part) and folded again as fold_parts() folds a rank for `stats` (exact values, one
/// compute per gap: GapNormaliser), merged (a part of one rank as RankCompressor::finish() gives it: merge_parts()
/// numbers it when it joins the others). write_compressed() with `stats` then pools it, as compress() does.
Part fold_gaps(Part exact, int rank_count);

/// Folds every rank of `in` (each rank once) into its compressed trace in memory, exactly as compress() writes it
/// (RankCompressor per rank, merge_parts). `actions`, when given, receives the number of actions read. Throws
/// TraceError on a bad trace.
Loaded fold(TraceSet& in, const ValueMode& values, std::uint64_t* actions = nullptr);

/// Writes `trace` (its meta's chunks and block refs are recomputed from `trace.blocks`; `meta.ranks[r].block` indexes
/// `trace.blocks`) as the file `out`; returns its size. Throws TraceError when `out` cannot be written.
std::uint64_t write_compressed(const std::filesystem::path& out, const Loaded& trace);

/// A whole compressed trace in memory: its structure and every value block decoded (for tools that walk the
/// structure itself rather than the actions, like `tit-trace proxy`); a pooled `stats` file is given with each rank's
/// draws in its own value streams (`meta.pooled` false). Throws TraceError on a bad file.
Loaded load_compressed(const std::string& path);

} // namespace tit::trace::cformat
