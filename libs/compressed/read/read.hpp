// Reading a compressed trace: each rank's reader expands its structure and value block back into actions, as the
// dialect's parser reads a text trace (TraceSet::open opens compressed files through open_compressed). Above
// container/ and values/; fold/ reads its own parts back through read_part (fold_gaps).
#pragma once

#include "compressed/common/format.hpp"
#include "trace/reader.hpp"

#include <filesystem>
#include <memory>
#include <optional>

namespace tit::trace {

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

namespace tit::trace::cformat {

/// The ranks of `part` (folded with exact or binned values, not pooled, from a trace of `rank_count` ranks), each read
/// back in the part's rank order as a file of them would give its actions; `label` names them in errors
/// ("<label> (rank <r>):<action>").
std::vector<std::unique_ptr<RankReader>> read_part(Part part, int rank_count, const std::string& label);
/// Every rank of the compressed file `path`, read as actions (TraceError on a bad file).
std::vector<std::unique_ptr<RankReader>> open_ranks(const std::filesystem::path& path);

/// The file `path` whole: its structure and every value block decoded; of a pooled `stats` file, its structure only
/// (its ranks' draws are not value blocks: load_compressed folds its ranks instead). Throws TraceError on a bad file.
Loaded read_whole(const std::string& path);

} // namespace tit::trace::cformat
