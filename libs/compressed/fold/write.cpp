// Writing a compressed trace from folded ranks: the value modes' choices (binned bins, `stats` pooled with and
// without draws, the smaller kept), then the file (container/). Also fold() and compress(), which fold every rank of
// a trace set, and load_compressed(), which reads a file whole.
#include "compressed/fold/fold.hpp"
#include "compressed/container/container.hpp"
#include "compressed/read/read.hpp"
#include "compressed/values/values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <cmath>
#include <limits>

namespace tit::trace::cformat {

namespace {

/// The file of `all`, encoded but not written: its raw structure record, its packed chunks, and what compress()
/// reports of it (all but the bytes).
struct EncodedFile {
  std::string head; ///< the file head with the packed structure record (smaller_head)
  std::vector<std::string> chunks;
  CompressStats stats;
  bool over_budget = false; ///< its chunks were not all packed: larger than encode_file's budget
  /// The size of the file written (the largest number when over budget).
  std::uint64_t size() const
  {
    if (over_budget)
      return std::numeric_limits<std::uint64_t>::max();
    std::uint64_t n = head.size();
    for (const std::string& c : chunks)
      n += c.size();
    return n;
  }
};

/// The structure record of `all` (ranks 0 .. rank_count-1, each once: TraceError naming `out` otherwise), without its
/// chunks and blocks.
Meta file_meta(const std::filesystem::path& out, int rank_count, const ValueMode& mode, const std::string& compute_unit,
               const Part& all)
{
  Meta meta;
  meta.rank_count = rank_count;
  meta.value_mode = value_mode_name(mode);
  meta.pooled = mode.kind == ValueMode::Kind::Stats;
  meta.gaps = meta.pooled; // folded by GapNormaliser
  meta.compute_unit = compute_unit;
  if (all.ranks.size() != static_cast<std::size_t>(rank_count))
    throw TraceError(fmt::format("error: compressed trace '{}': {} ranks of {} were merged", out.string(),
                                 all.ranks.size(), rank_count));
  for (int r = 0; r < rank_count; ++r) {
    const Part::RankPart& e = all.ranks[static_cast<std::size_t>(r)];
    if (e.rank != r)
      throw TraceError(fmt::format("error: compressed trace '{}': rank {} is missing", out.string(), r));
    meta.ranks.push_back(RankEntry{e.root, e.dialect, e.block, e.level});
  }
  meta.signatures = all.signatures;
  meta.nodes = all.nodes;
  meta.bodies = all.bodies;
  meta.schedules = all.schedules;
  return meta;
}

/// The header, structure and chunks of a file.
std::uint64_t file_size(const Meta& m, const std::vector<std::string>& chunks)
{
  std::uint64_t n = file_head(kVersion, encode_meta(m)).size();
  for (const std::string& s : chunks)
    n += s.size();
  return n;
}

/// Binned: the blocks with bin runs into `binned` (a copy of `meta` with the bins and their bases) and `chunks`; a block
/// decoded at a time, twice (its bin indices for the bases, then its bytes).
void pack_binned(const Part& all, const Meta& meta, double bin, Meta& binned, std::vector<std::string>& chunks)
{
  binned = meta;
  binned.bin_runs = bin;
  Bins bins(bin);
  binned.bin_bases = bases_of(all.blocks.size(), [&all, &meta](std::size_t b) { return decode_block(all, meta, b); },
                              bins);
  Chunker chunker;
  binned.blocks.clear();
  for (std::size_t b = 0; b < all.blocks.size(); ++b)
    binned.blocks.push_back(chunker.add(encode_streams(decode_block(all, meta, b), &bins, &binned.bin_bases)));
  chunker.finish(binned, chunks);
}

/// What compress() reports of a file of `meta` (all but its bytes).
CompressStats stats_of(const Meta& meta)
{
  CompressStats stats;
  stats.signatures = meta.signatures.size();
  stats.loops = static_cast<std::uint64_t>(
      std::count_if(meta.nodes.begin(), meta.nodes.end(), [](const Node& n) { return n.loop; }));
  std::vector<std::uint32_t> roots;
  for (const auto& e : meta.ranks)
    roots.push_back(e.root);
  std::sort(roots.begin(), roots.end());
  stats.structures = static_cast<std::uint64_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  stats.value_blocks = meta.blocks.size();
  return stats;
}

/// `budget`: a file whose value chunks alone take more bytes is given over budget, its other chunks not packed (the
/// `stats` file that keeps every value, against the one with draws).
EncodedFile encode_file(const std::filesystem::path& out, int rank_count, const ValueMode& mode,
                        const std::string& compute_unit, const Part& all,
                        std::uint64_t budget = std::numeric_limits<std::uint64_t>::max())
{
  Meta meta = file_meta(out, rank_count, mode, compute_unit, all);
  // the value chunks: the blocks as the parts hold them (plain runs: parts are merged, renumbered and re-encoded);
  // a block of a binned file starts with its bin indices: none here, a count of 0
  bool binned_mode = mode.kind == ValueMode::Kind::Binned;
  bool over_budget = false;
  std::vector<std::string> chunks;
  std::uint64_t raw = 0;
  for (const std::string& b : all.blocks)
    raw += b.size();
  bool binned_only = binned_mode && raw > kChunkBytes;
  if (!binned_only) {
    Chunker chunker(budget);
    meta.blocks.clear();
    for (const std::string& b : all.blocks)
      meta.blocks.push_back(chunker.add(binned_mode ? std::string(1, '\0') + b : b));
    chunker.finish(meta, chunks);
    over_budget = chunker.over_budget();
  }
  if (binned_mode) {
    // binned: with bin runs; a file whose values fit one chunk keeps the plain form (no bin indices, every volume's
    // representative a token or an integer run) when that packs smaller (tiny files, whose few bins do not pay for
    // the bin indices)
    Meta binned;
    std::vector<std::string> binned_chunks;
    pack_binned(all, meta, mode.bin, binned, binned_chunks);
    if (binned_only || file_size(binned, binned_chunks) < file_size(meta, chunks)) {
      meta = std::move(binned);
      chunks = std::move(binned_chunks);
    }
  }
  EncodedFile file;
  file.over_budget = over_budget;
  file.chunks = std::move(chunks);
  if (!over_budget) // packing a large structure record costs seconds; an over-budget file is never written
    file.head = smaller_head(meta);
  file.stats = stats_of(meta);
  return file;
}

/// The `stats` check (docs/compressed-format.md, "The check"): the drawn file (`file`) read back on the reference
/// models; when it moves the lock-step estimate of the traced values by more than kStatsCheckLimit or the timed one by
/// more than kTimedCheckLimit, `file` becomes `kept` (encoded again in full if it went over budget), and says why.
void check_draws(const std::filesystem::path& out, int rank_count, const ValueMode& mode, const std::string& compute_unit,
                 const Part& kept_values, EncodedFile kept, const LockStep& traced, EncodedFile& file)
{
  std::uint64_t drawn_size = file.size();
  write_file(out, file.head, file.chunks);
  LockStep drawn = reference_estimates([&out] { return open_ranks(out); });
  // the estimate furthest beyond its limit, relative to it
  double d = drawn.difference(traced), limit = kStatsCheckLimit;
  if (double t = drawn.timed_difference(traced); std::abs(t) / kTimedCheckLimit > std::abs(d) / kStatsCheckLimit) {
    d = t;
    limit = kTimedCheckLimit;
  }
  file.stats.stats_check = d;
  if (std::abs(d) <= limit)
    return;
  // kept was encoded with the drawn size as budget: again in full when it went over
  file = kept.over_budget ? encode_file(out, rank_count, mode, compute_unit, kept_values) : std::move(kept);
  file.stats.stats_check = d;
  file.stats.warning = fmt::format(
      "warning: {}: values 'stats': the draws would move the check's estimate by {:+.1f} % "
      "(more than {:g} %): every value kept as traced instead (a file {:.1f} times the drawn one's size; "
      "docs/compressed-format.md, \"The check\")",
      out.string(), 100 * d, 100 * limit, static_cast<double>(file.size()) / static_cast<double>(drawn_size));
}

} // namespace

CompressStats write_compressed(const std::filesystem::path& out, int rank_count, const ValueMode& mode,
                               const std::string& compute_unit, Part all)
{
  EncodedFile file;
  if (mode.kind == ValueMode::Kind::Stats) {
    // the distributions, unless keeping every value (folded with the gaps) makes a file no larger: then they would
    // lose the values and gain nothing (traces whose volumes repeat exactly, or too few to fold)
    EncodedFile drawn;
    bool draws = false; // whether some site is drawn
    {
      Part pooled = all;
      pool_stats(pooled);
      draws = std::any_of(pooled.schedules.begin(), pooled.schedules.end(), draws_something);
      drawn = encode_file(out, rank_count, mode, compute_unit, pooled);
    }
    std::optional<LockStep> traced; // the check's reference: the traced values, folded with the gaps
    if (draws)
      traced = reference_estimates([&] { return read_part(all, rank_count, out.string()); });
    pool_stats(all, false);
    EncodedFile kept = encode_file(out, rank_count, mode, compute_unit, all, drawn.size());
    if (drawn.size() < kept.size()) {
      file = std::move(drawn);
      if (draws)
        check_draws(out, rank_count, mode, compute_unit, all, std::move(kept), *traced, file);
    } else {
      file = std::move(kept);
    }
  } else {
    if (mode.kind == ValueMode::Kind::Binned) // what every block repeats, in the structure instead
      hoist_constants(all);
    file = encode_file(out, rank_count, mode, compute_unit, all);
  }
  write_file(out, file.head, file.chunks);
  std::error_code ec;
  file.stats.bytes = std::filesystem::file_size(out, ec);
  return file.stats;
}

namespace {

/// Rank `rank` of `rank_count`, its actions read from `reader`, folded as fold_parts() folds every rank; `actions`
/// grows by the actions read.
Part fold_rank(RankReader& reader, int rank, int rank_count, const ValueMode& values, std::uint64_t& actions)
{
  bool stats = values.kind == ValueMode::Kind::Stats; // folded exact, with the gaps; write_compressed() pools
  bool binned = values.kind == ValueMode::Kind::Binned; // consecutive computes summed, then binned as one
  RankCompressor out(rank, rank_count, stats ? ValueMode{} : values);
  Action a;
  if (stats || binned) { // stats: a compute's presence as a value, not structure
    GapNormaliser gaps(out, stats);
    std::uint64_t read = 0;
    for (; reader.next(a); ++read)
      gaps.add(a);
    gaps.finish();
    actions += read;
  } else {
    while (reader.next(a))
      out.add(a);
    actions += out.actions();
  }
  return out.finish();
}

} // namespace

Part fold_parts(TraceSet& in, const ValueMode& values, std::uint64_t& actions)
{
  int ranks = in.rank_count();
  std::vector<Part> parts;
  actions = 0;
  for (int r = 0; r < ranks; ++r)
    parts.push_back(fold_rank(*in.reader(r), r, ranks, values, actions));
  return merge_parts(std::move(parts));
}

Part fold_gaps(Part exact, int rank_count)
{
  std::vector<int> ranks;
  for (const Part::RankPart& e : exact.ranks)
    ranks.push_back(e.rank);
  std::vector<std::unique_ptr<RankReader>> readers = read_part(std::move(exact), rank_count, "(folded exact)");
  std::vector<Part> parts;
  std::uint64_t actions = 0;
  ValueMode stats;
  stats.kind = ValueMode::Kind::Stats;
  for (std::size_t i = 0; i < readers.size(); ++i) {
    parts.push_back(fold_rank(*readers[i], ranks[i], rank_count, stats, actions));
    readers[i].reset(); // its decoded values
  }
  if (parts.size() == 1) // one rank (the tracer's): merged later, with the others (merge_parts decodes its values)
    return std::move(parts[0]);
  return merge_parts(std::move(parts));
}

Loaded load_compressed(const std::string& path)
{
  Loaded out = read_whole(path);
  if (!out.meta.pooled)
    return out;
  // each rank's draws in its own streams: its ranks read back as actions and folded with exact values
  std::unique_ptr<TraceSet> set = detail::open_compressed(path, std::nullopt);
  out = fold(*set, ValueMode{});
  out.meta.value_mode = "stats";
  return out;
}

Loaded fold(TraceSet& in, const ValueMode& values, std::uint64_t* actions)
{
  if (values.kind == ValueMode::Kind::Stats)
    throw std::logic_error("fold(): stats values are pooled across ranks, not kept per rank (fold them exact)");
  int ranks = in.rank_count();
  std::uint64_t count = 0;
  Part all = fold_parts(in, values, count);
  Loaded out;
  Meta& meta = out.meta;
  meta.rank_count = ranks;
  meta.value_mode = value_mode_name(values);
  meta.compute_unit = in.compute_unit();
  meta.signatures = std::move(all.signatures);
  meta.nodes = std::move(all.nodes);
  meta.bodies = std::move(all.bodies);
  for (const Part::RankPart& e : all.ranks)
    meta.ranks.push_back(RankEntry{e.root, e.dialect, e.block});
  for (std::size_t b = 0; b < all.blocks.size(); ++b)
    out.blocks.push_back(decode_block(all, meta, b));
  if (actions)
    *actions = count;
  return out;
}

std::uint64_t write_compressed(const std::filesystem::path& out, const Loaded& trace)
{
  Meta meta = trace.meta;
  meta.blocks.clear();
  meta.bin_runs = 0;
  if (meta.value_mode.starts_with("binned:"))
    meta.bin_runs = parse_value_mode(meta.value_mode).bin;
  std::optional<Bins> bins;
  meta.bin_bases.clear();
  if (meta.bin_runs > 0) {
    bins.emplace(meta.bin_runs);
    meta.bin_bases = bases_of(
        trace.blocks.size(), [&trace](std::size_t b) -> const std::vector<Stream>& { return trace.blocks[b]; }, *bins);
  }
  Chunker chunker;
  for (const std::vector<Stream>& block : trace.blocks)
    meta.blocks.push_back(chunker.add(encode_streams(block, bins ? &*bins : nullptr, &meta.bin_bases)));
  std::vector<std::string> chunks;
  chunker.finish(meta, chunks);
  write_file(out, smaller_head(meta), chunks);
  std::error_code ec;
  return std::filesystem::file_size(out, ec);
}

} // namespace tit::trace::cformat

namespace tit::trace {

CompressStats compress(TraceSet& in, const std::filesystem::path& out, const ValueMode& values)
{
  std::uint64_t actions = 0;
  cformat::Part all = cformat::fold_parts(in, values, actions);
  CompressStats stats = cformat::write_compressed(out, in.rank_count(), values, in.compute_unit(), std::move(all));
  stats.actions = actions;
  return stats;
}

} // namespace tit::trace
