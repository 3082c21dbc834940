// The values of compressed traces: value runs and streams, value blocks as bytes (read whole or in place), the bins
// of `binned:R`, the `stats` schedules and their pooling, and the literals hoisted from `binned:R` blocks. Above
// common/; below container/, read/ and fold/.
#pragma once

#include "compressed/common/bytes.hpp"
#include "compressed/common/format.hpp"
#include "trace/reader.hpp"

#include <map>
#include <span>

namespace tit::trace::cformat {

/// A value block read in place (the replay's readers): its bytes checked once as decode_streams checks them, and where
/// each stream starts; InPlaceCursor then decodes a stream's runs one at a time as its values are read. A reader holds
/// the block's bytes (a few per run) instead of its decoded runs (tens of bytes each: a rank with measured
/// computations has a run per value).
struct BlockInPlace {
  struct StreamAt {
    std::uint32_t signature = 0;
    std::uint32_t slot = 0;
    std::uint64_t repeats = 0;
    std::size_t offset = 0;             ///< of its first repeat count in `bytes`
    std::size_t first_bin = 0;          ///< the index in `bin_indices` of its first bin run
    const std::int64_t* base = nullptr; ///< version 5: its bin base (none: it has no bin runs)
  };
  std::string bytes;
  const Meta* meta = nullptr;
  std::vector<StreamAt> streams;
  std::vector<std::int64_t> bin_indices; ///< per bin run, in block order, as stored
};
/// The block checked and its streams found (TraceError naming the block, as decode_streams); `meta` must outlive it.
BlockInPlace block_in_place(std::string bytes, const Meta& meta, const std::string& file, std::uint32_t block);

/// A stream of a BlockInPlace read value by value (the replay's readers, pool_stats): the current run is copied into
/// the cursor (value, step, values left), so that the common case (the next value of the same run) touches only the
/// cursors of the rank, which lie together; the runs are decoded from the bytes one at a time (a repeat read c times
/// is decoded c times). `block` must outlive the cursor.
struct InPlaceCursor {
  const BlockInPlace* block = nullptr;
  std::int64_t value = 0;            ///< the next integer value (integer runs)
  std::int64_t step = 0;
  const std::string* text = nullptr; ///< the token (token runs); nullptr for integer runs
  std::uint64_t left = 0;            ///< values left in the current run; 0 once the stream has ended

  void start(const BlockInPlace& b, std::size_t stream);
  bool ended() const { return left == 0; }
  void advance()
  {
    value += step;
    if (--left == 0)
      load();
  }

private:
  void load();
  std::size_t stream_ = 0;
  std::size_t at_ = 0;           ///< the next byte to read
  std::size_t bin_ = 0;          ///< the next bin index to use
  std::uint64_t repeats_ = 0;    ///< repeats of the stream not yet begun
  std::size_t repeat_at_ = 0;    ///< the current repeat's first run, its first bin index
  std::size_t repeat_bin_ = 0;
  std::uint64_t passes_ = 0;     ///< passes over the current repeat's runs left after this one
  std::uint64_t length_ = 0;     ///< runs in a pass
  std::uint64_t runs_left_ = 0;  ///< runs of this pass not yet read
  std::string token_;
};


/// Groups the runs of `s` (each a repeat of count 1) into repeats of periodic stretches: runs that the stretch
/// before repeats exactly, up to kPeriod runs long; then keeps only the runs the repeats name, as decode_streams
/// gives them.
void find_repeats(Stream& s);
inline constexpr std::size_t kPeriod = 64;

class Bins;
/// A value block's bytes. With `bins` (`binned:R` files of versions 4 and 5), a run whose value is the representative of a bin
/// (an integer run of one value or of equal values, or a token run) is written as a bin run, its bin index in the
/// block's bin indices, which come first (docs/compressed-format.md, "Value block").
/// `bases` (required with `bins`): the bin index each stream's indices count from (version 5: bases_of over every block
/// of the file, so that LZMA sees a bin as the same byte in every block, and a stream's few hundred bins take a byte
/// each); a stream with bin runs and no base is the caller's bug (std::logic_error).
std::string encode_streams(const std::vector<Stream>& streams, const Bins* bins = nullptr, const BinBases* bases = nullptr);
/// Appends to `out` the bin index of each run of `streams` that is a bin's representative (encode_streams' bin runs),
/// per (signature, value slot).
void bin_indices(const std::vector<Stream>& streams, const Bins& bins,
                 std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::int64_t>>& out);
/// The base that gives the most of `indices` a byte of their own: the start of the window of 255 bins that holds
/// the most of them (the lowest such window).
std::int64_t bin_base(std::vector<std::int64_t> indices);
/// One run of a value stream (not a bin run), as encode_streams writes it.
void encode_run(ByteWriter& w, const ValueRun& run);
/// A value block without bin indices (a Part's) whose streams' signatures are renumbered, `signatures[s]` for s (an
/// error naming the block when that is negative: no action of its ranks has it), the streams then ordered by
/// (signature, slot): the bytes encode_streams writes of its decoded, renumbered and sorted streams, made by copying
/// each stream's repeats as they are, each run read (and checked, as decode_streams checks it) but not kept
/// (merge_parts: a rank's decoded runs take tens of bytes each where their bytes take a few).
std::string renumber_streams(std::string_view bytes, const Meta& meta, const std::vector<std::int64_t>& signatures,
                             const std::string& what, std::uint32_t block);
/// Checks each stream against the signatures; bin runs are read (as the runs of their representatives) when
/// `meta.bin_runs` says the file may hold them, refused otherwise; throws TraceError naming the block.
std::vector<Stream> decode_streams(std::string_view bytes, const Meta& meta, const std::string& file,
                                   std::uint32_t block);

/// One run of a value stream (not a bin run) read back; `max_text` bounds its token's size. Throws TraceError.
ValueRun decode_run(ByteReader& r, std::size_t max_text);

/// Value block `b` of `part` decoded (a part holds its blocks encoded, with plain runs), `meta` giving its signatures;
/// a block at a time: decoded runs take tens of bytes each where their bytes take a few.
std::vector<Stream> decode_block(const Part& part, const Meta& meta, std::size_t b);

/// The bins of `binned:R`: bin k is [q^k, q^(k+1)) with q = (1 + R) / (1 - R), represented by its harmonic mean
/// 2 q^(k+1) / (1 + q), whose relative distance to any value of the bin is at most R. The representative is written in
/// one of two forms: 0, the nearest integer; 1, 6 significant digits (`{:.6g}`). bin_token chooses the form for a value;
/// bin runs of version 4 and 5 value blocks name a representative by its index and form.
class Bins {
public:
  explicit Bins(double r);
  double r() const { return r_; }
  /// The bin of v > 0.
  std::int64_t index(double v) const;
  double representative(std::int64_t k) const;
  /// The representative of bin k in `form` (0 integer, 1 six digits); empty when that form cannot say it (a
  /// representative that is not a positive finite number, an integer of kIntLimit or more).
  std::string text(std::int64_t k, unsigned form) const;
  /// Whether `run` holds the representative of a bin in one of its forms (a token, or an integer run whose values are
  /// equal): then its index and form.
  bool find(const ValueRun& run, std::int64_t& k, unsigned& form) const;
  /// Bin indices a bin run may name: |k| <= kMaxIndex (far beyond any double for R >= 1e-4).
  static constexpr std::int64_t kMaxIndex = std::int64_t{1} << 40;

private:
  double r_;
  double q_;
  double log_q_;
};

/// Arguments of an action that are volumes (drawn by `stats`): compute flops, sleep seconds, the sizes of
/// point-to-point messages and sendRecv, the count and reduction volume of bcast, reduce, allreduce, scan, exscan,
/// alltoall, gather, scatter, allgather. Not tags, partners, roots, datatypes, handles, nor count vectors.
std::vector<std::size_t> volume_positions(const Action& a);
/// Arguments of an action that `binned:R` bins: the volumes that the model times in proportion (compute flops, sleep
/// seconds, the reduction volume of reduce, allreduce, scan, exscan). Not message and collective sizes: the MPI
/// model is piecewise in them (eager or rendez-vous, bandwidth and latency factors by size band), so that a size
/// binned across a band's edge would move a message's time by far more than R (docs/compressed-format.md).
std::vector<std::size_t> binned_positions(const Action& a);
/// The token of `token`'s bin: a number within relative error `r` of it, the same for every token of the bin
/// (bins are geometric: [q^k, q^(k+1)) with q = (1 + r) / (1 - r), represented by their harmonic mean), written
/// as an integer when the nearest integer is close enough, else with 6 significant digits; `token` itself when it
/// is 0, negative, not a number, or when the representative is not close enough (small integers, bin edges).
std::string bin_token(std::string_view token, double r);

/// `stats`: the schedule that stands for the volumes `values` (in their order) of one value slot of one action of a
/// loop body: the values sorted and cut into kStatsSlots groups of (nearly) equal count, each group represented by
/// its mean (rounded when `integers`), in bit-reversed group order so that consecutive draws spread over the
/// distribution. Occurrence i then reads schedule[i % size]. Fewer than 2 * kStatsSlots values: the values
/// themselves (nothing to gain). Tokens as written by format_stat.
std::vector<std::string> stats_schedule(const std::vector<double>& values, bool integers);
inline constexpr std::size_t kStatsSlots = 16;
/// `stats`: rank `rank`'s own order of a schedule's kStatsSlots draws (its compute and sleep volumes): draw i of the
/// rank is schedule[stats_order(rank)[i]], a fixed pseudo-random permutation per rank (a Fisher-Yates shuffle driven by
/// splitmix64 seeded by the rank), the same for every slot of the rank, so that its volumes that rose or fell together
/// still do. `rank` kSharedOrder: the order every rank shares in a schedule with `shared_order`.
std::array<std::uint8_t, 16> stats_order(int rank, std::uint64_t cycle);
inline constexpr int kSharedOrder = -1;
/// `stats`: added to a schedule's order byte (1 or 2) when a head follows its draws (Schedule::head).
inline constexpr std::uint8_t kScheduleHead = 4;
/// `stats`: added to a schedule's order byte (1 or 2, or either plus kScheduleHead) when rare values follow its draws
/// and head (Schedule::rare).
inline constexpr std::uint8_t kScheduleRare = 8;
/// `stats` (version 7): added to a schedule's order byte (1 or 2) when its phases follow its draws (Schedule::phases).
inline constexpr std::uint8_t kSchedulePhases = 16;
/// `stats`: the most phases a schedule has (a loop body run that many times, in turn, per iteration of the loop around).
inline constexpr std::size_t kMaxPhases = 64;

/// The bases of the bin indices of a file, per stream (signature, value slot): bin_base over the stream's indices in
/// every block; block(b) gives the streams of block b of `count` (a part's blocks are decoded one at a time: decoded
/// runs take tens of bytes each).
template <typename Block> BinBases bases_of(std::size_t count, const Block& block, const Bins& bins)
{
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::int64_t>> indices;
  for (std::size_t b = 0; b < count; ++b)
    bin_indices(block(b), bins, indices);
  BinBases bases;
  for (auto& [key, of_stream] : indices)
    bases[key] = bin_base(std::move(of_stream));
  return bases;
}

/// `stats` values: rewrites `all` (every rank folded with exact values through a GapNormaliser, merged) as a pooled
/// `stats` file (version 3, mode byte 4) says it. With `draw`: per value slot of each action of the structures (a
/// site: a body, a position, a slot; for compute and sleep volumes, the bodies at one place of rank structures of one
/// shape, partners left out, together) whose volumes are positive numbers (or 0 for a compute), not all equal, not
/// repeating with a short period on every rank, and at least 2 * kStatsSlots over the ranks whose structure holds the
/// site, one schedule shared by those ranks (compute and sleep volumes divided by their rank's level first: the rank's
/// total of them over what the sites' means would give it, which goes to its `level`), repeated for each body of the
/// site. With or without `draw`, a
/// compute site that is 0 everywhere (a gap that never held a compute) is a schedule of 0s. Every other value stays in
/// the rank's streams, and ranks with equal streams then share one block.
void pool_stats(Part& all, bool draw = true);

/// `binned:R`: a value slot whose streams hold one token in every block (a message size, a datatype, a compute volume
/// that never changes) becomes a literal slot of its signature holding that token, from which the reader builds the
/// same line, and its streams are dropped (the signature's later value slots take lower ordinals); ranks with equal
/// streams then share one block. Signatures stay distinct (two of them differ by more than a value slot).
void hoist_constants(Part& part);

} // namespace tit::trace::cformat
