// Compressed, loop-structured trace files (docs/compressed-format.md). Each rank's actions are folded
// into nested loops over action signatures (the action with its numbers replaced by references into the
// rank's value streams and its partners written relative to the rank); ranks with the same loops share
// them. TraceSet::open reads such a file like any other trace set. Knows nothing of SimGrid.
#pragma once

#include "trace/reader.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tit::trace {

/// How the numbers of a trace are kept, chosen when compressing; the file says which.
struct ValueMode {
  enum class Kind : std::uint8_t {
    Exact,  ///< every token as written
    Binned, ///< compute, sleep and reduction volumes within relative error `bin` of the original (sizes exact)
    Stats,  ///< volumes as a distribution per action of a loop body, drawn from in a fixed order (size independent
            ///< of the number of iterations)
  };
  Kind kind = Kind::Exact;
  double bin = 0;        ///< Binned: the relative error R, 0 < R < 1
  std::string bin_text;  ///< Binned: R as written
};
/// "exact", "binned:R" (0 < R < 1) or "stats"; throws TraceError naming the accepted modes otherwise.
ValueMode parse_value_mode(std::string_view text);
/// "exact", "binned:0.01", "stats".
std::string value_mode_name(const ValueMode& mode);

/// What compress() made.
struct CompressStats {
  std::uint64_t actions = 0;
  std::uint64_t signatures = 0;  ///< distinct action signatures
  std::uint64_t loops = 0;       ///< distinct loop nodes (a body and a trip count)
  std::uint64_t structures = 0;  ///< distinct rank structures (ranks with the same loops share one)
  std::uint64_t value_blocks = 0;///< distinct per-rank value blocks (ranks with the same numbers share one)
  std::uint64_t bytes = 0;       ///< size of the file written
  /// `stats`: the draws' lock-step estimate against the traced values' (relative; 0 when nothing was drawn)
  double stats_check = 0;
  /// `stats`: why the values were kept as traced rather than drawn (empty when they were not, or were kept because
  /// that file was smaller): for stderr
  std::string warning;
};

/// Reads every rank of `in` (each rank once) and writes the compressed trace `out`. Throws TraceError on a bad
/// trace, or when `out` cannot be written.
CompressStats compress(TraceSet& in, const std::filesystem::path& out, const ValueMode& values);

/// Whether `path` is a regular file starting with the compressed trace magic.
bool is_compressed_trace(const std::filesystem::path& path);
/// Whether a file's first bytes are the compressed trace magic.
bool has_compressed_magic(std::string_view head);

/// A compressed file's header and structure, for `tit-trace info`. Throws TraceError on a bad file.
struct CompressedInfo {
  unsigned version = 0;
  int ranks = 0;
  std::string value_mode;
  std::string compute_unit;
  std::uint64_t signatures = 0;
  std::uint64_t loops = 0;
  std::uint64_t structures = 0;
  std::uint64_t value_blocks = 0;
  std::uint64_t structure_bytes = 0; ///< the header and structure record
  std::uint64_t value_bytes = 0;     ///< the value blocks
  std::uint64_t drawn_sites = 0;     ///< pooled `stats`: schedules that draw (not a gap's schedule of 0s)
  std::uint64_t schedules = 0;       ///< pooled `stats`: every schedule
};
CompressedInfo compressed_info(const std::filesystem::path& path);

} // namespace tit::trace

namespace tit::trace::detail {

/// The compressed trace set of `path` (TraceSet::open calls it when the file starts with the magic).
std::unique_ptr<TraceSet> open_compressed(const std::filesystem::path& path, std::optional<int> ranks);

} // namespace tit::trace::detail
