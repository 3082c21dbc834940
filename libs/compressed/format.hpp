// The records of a compressed trace file (docs/compressed-format.md), shared by its writer and its reader:
// varints, the structure (signatures, nodes, bodies, ranks) and the value blocks. Internal to the trace library.
#pragma once

#include "trace/action.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tit::trace::cformat {

inline constexpr std::array<char, 8> kMagic = {'T', 'I', 'T', 'C', 'T', 'R', 'C', '\n'};
/// The newest version this code reads and writes. Version 2 added the `stats` value mode (mode byte 2: each rank's
/// draws stored in its value streams); version 3 compresses the records with LZMA2 instead of deflate and replaces,
/// for new files, `stats` by its pooled form (mode byte 3: schedules shared by the ranks, a level per rank); version 4
/// adds bin runs to the value blocks of `binned:R` files (a bin's representative written as its bin index); version 5
/// starts each LZMA2 record's stored bytes with its LZMA properties byte (lc, lp, pb: the writer keeps the smallest of
/// a few) and gives every block of a `binned:R` file its bin indices (none when the plain form packs smaller);
/// version 6 writes the block table's chunks and the rank entries' structures and blocks as differences from the previous
/// entry's, the ranks' dialect once when they share it, and a signature's action name by its number in kActionNames;
/// version 7 adds the phases of a `stats` schedule (Schedule::phases). A file is written as version 6 unless it holds
/// phases (written_version); versions 1 to 6 stay readable.
inline constexpr unsigned kVersion = 7;
/// The version of files without a newer version's feature.
inline constexpr unsigned kBaseVersion = 6;
inline constexpr unsigned kOldestVersion = 1;
/// Version 6: the action names a signature gives by their number in this table (a byte) rather than as a string.
/// Part of the format: entries are only ever appended.
inline constexpr std::array<std::string_view, 58> kActionNames = {
    "init",      "finalize",   "comm_size",  "comm_split",  "comm_dup",      "compute",    "sleep",    "location",
    "send",      "isend",      "recv",       "irecv",       "wait",          "test",       "waitall",  "sendRecv",
    "barrier",   "bcast",      "reduce",     "allreduce",   "alltoall",      "alltoallv",  "gather",   "scatter",
    "allgather", "gatherv",    "scatterv",   "allgatherv",  "reducescatter", "scan",       "exscan",   "Ssend",
    "ISsend",    "bsend",      "ibsend",     "Start",       "Startall",      "waitAny",    "testany",  "testall",
    "testsome",  "comm_create", "comm_free", "ibarrier",    "ibcast",        "ireduce",    "iallreduce", "ialltoall",
    "ialltoallv", "igather",   "iscatter",   "iallgather",  "igatherv",      "iscatterv",  "iallgatherv",
    "ireducescatter", "iscan", "iexscan",
};

/// Integers kept as integers in value streams: |v| < 2^61 (so that zigzag and the run header fit 64 bits).
inline constexpr std::int64_t kIntLimit = std::int64_t{1} << 61;

/// One argument of a signature.
struct Slot {
  enum class Kind : std::uint8_t { Literal = 0, Relative = 1, Value = 2 };
  Kind kind = Kind::Value;
  std::string literal;     ///< Literal: the token as written
  std::int64_t offset = 0; ///< Relative: the partner is (rank + offset) mod ranks
  bool operator==(const Slot&) const = default;
};

/// An action with its numbers taken out: its name and one slot per argument.
struct Signature {
  std::string name;
  std::vector<Slot> slots;
  bool operator==(const Signature&) const = default;
};

/// An item of a body: one action of a signature, or a loop repeating a body `count` times.
struct Node {
  bool loop = false;
  std::uint32_t ref = 0;   ///< signature id, or body id for a loop
  std::uint64_t count = 1; ///< loop trip count (>= 1); 1 for an action
  bool operator==(const Node&) const = default;
};

struct RankEntry {
  std::uint32_t root = 0;  ///< body id of the rank's whole sequence (its structure)
  Dialect dialect = Dialect::SimGrid;
  std::uint32_t block = 0; ///< value block id
  std::string level = "1"; ///< pooled `stats` (version 3): the factor of the rank's compute and sleep draws
};

/// LZMA's properties byte, (pb * 5 + lp) * 9 + lc: literal context bits lc, literal position bits lp, position bits
/// pb. 93 (lc 3, lp 0, pb 2) is liblzma's preset, the only one before version 5; LZMA2 needs lc + lp <= 4 and pb <= 4.
inline constexpr std::uint8_t kLzmaProps = 93;

/// Value blocks are grouped into chunks of about kChunkBytes, each deflated as one record (small ranks' blocks
/// then share deflate's window and one CRC).
struct ChunkRef {
  std::uint64_t offset = 0; ///< from the start of the value area
  std::uint64_t raw_size = 0;
  std::uint64_t stored_size = 0;
  std::uint32_t crc = 0;    ///< CRC-32 of the stored (packed) bytes
  std::uint8_t codec = 0;   ///< how it is packed (version 3): kStored, kDeflate or kLzma2
};
/// How a record is packed: said by a byte in version 3; in versions 1 and 2, deflate unless its stored size is its
/// raw size.
inline constexpr std::uint8_t kStored = 0, kDeflate = 1, kLzma2 = 2;
/// Whether `props` is a properties byte LZMA2 accepts.
inline bool lzma_props_ok(std::uint8_t props)
{
  return props < 225 && props % 9 + props / 9 % 5 <= 4;
}

inline constexpr std::size_t kChunkBytes = 64 * 1024;

/// A rank's value block: bytes [offset, offset + raw_size) of its chunk's raw bytes.
struct BlockRef {
  std::uint32_t chunk = 0;
  std::uint64_t offset = 0;
  std::uint64_t raw_size = 0;
};

/// A run of values of one stream: `count` times the integer first, first+step, ... or the string `text`.
struct ValueRun {
  bool is_int = true;
  std::int64_t first = 0;
  std::int64_t step = 0;
  std::string text;
  std::uint64_t count = 1;
  bool operator==(const ValueRun&) const = default;
};

/// runs[first .. first + length) of a stream, read `count` times in a row (count 1: once).
struct Repeat {
  std::uint64_t count = 1;
  std::uint32_t first = 0;
  std::uint32_t length = 1;
};

/// The values of one value slot of one signature, for one rank: its repeats in order.
struct Stream {
  std::uint32_t signature = 0;
  std::uint32_t slot = 0; ///< ordinal among the signature's Value slots
  std::vector<ValueRun> runs;
  std::vector<Repeat> repeats;
};

struct Meta;
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

/// Pooled `stats`: a value kept exact at one rank's occurrence of a schedule's site (Schedule::rare).
struct RareValue {
  int rank = 0;
  std::uint64_t occurrence = 0; ///< counted from the rank's first draw of the schedule, the head's included
  ValueRun value;               ///< as traced, not scaled by the rank's level; a run of 1
  bool operator==(const RareValue&) const = default;
};

/// Pooled `stats` (version 3): the kStatsSlots draws that stand for the volumes of one value slot of the action at
/// `position` of body `body`, for every rank whose structure holds that body. Occurrence i of that action in rank r reads
/// draws[i % kStatsSlots] (`rank_order` false: message and collective sizes), or draws[order_r[i % kStatsSlots]] times
/// the rank's level (`rank_order` true: compute and sleep volumes; order_r = stats_order(r, i / kStatsSlots), or, with
/// `shared_order`, stats_order(kSharedOrder, i / kStatsSlots) on every rank: volumes that rise and fall together on
/// every rank). With a `head` (rank_order only: a warm-up every rank goes through), occurrence i < head.size() reads
/// head[i] times the rank's level, and the occurrences after it read the draws as above, i counted from the head's end.
/// With `phases` (version 7, rank_order only, no head nor rare values: a loop body that the levels of a multigrid
/// cycle, say, run in turn, its volumes differing by level far more than by noise), occurrence i reads
/// phases[i % phases.size()] times its draw (then the draws are factors of the phase's mean: the noise about it; the
/// writer gives factors of 1, docs/compressed-format.md) times the rank's level.
struct Schedule {
  std::uint32_t body = 0;
  std::uint32_t position = 0;
  std::uint32_t slot = 0; ///< ordinal among the signature's Value slots
  bool rank_order = false;
  bool shared_order = false; ///< with rank_order: every rank draws in one order (stats_order(kSharedOrder, cycle))
  std::vector<ValueRun> draws; ///< kStatsSlots values, each a run of count 1
  std::vector<ValueRun> head;  ///< with rank_order: at most kStatsSlots values drawn first, in order, each a run of 1
  std::vector<RareValue> rare; ///< with rank_order: at most kStatsSlots values kept exact, by (rank, occurrence)
  std::vector<ValueRun> phases; ///< version 7, with rank_order: 2 to kMaxPhases means, each a run of 1, by phase
  bool operator==(const Schedule&) const = default;
};

/// Per (signature, value slot) of a `binned:R` file: the bin index its bin runs count from.
using BinBases = std::map<std::pair<std::uint32_t, std::uint32_t>, std::int64_t>;

/// Everything but the value blocks: read at open, shared by every rank.
struct Meta {
  int rank_count = 0;
  std::string value_mode;
  bool pooled = false; ///< `stats` of version 3: schedules shared by the ranks, a level per rank
  bool gaps = false;   ///< pooled `stats` of mode byte 4: one compute slot per gap between non-compute actions, and a
                       ///< compute of volume 0 is no action (GapNormaliser)
  std::string compute_unit;
  std::vector<Signature> signatures;
  std::vector<Node> nodes;
  std::vector<std::vector<std::uint32_t>> bodies; ///< node ids
  std::vector<RankEntry> ranks;
  std::vector<Schedule> schedules; ///< pooled `stats`: sorted by (body, position, slot)
  std::vector<ChunkRef> chunks;
  std::vector<BlockRef> blocks;
  /// `binned:R` files of versions 4 and 5: R, the bins of the bin runs their value blocks hold (0: no bin runs).
  double bin_runs = 0;
  /// `binned:R` files of version 5: the bin index each stream's bin runs count from, per (signature, value slot), the
  /// same in every block (version 4 files have a base per block instead: `stream_bases` false).
  BinBases bin_bases;
  bool stream_bases = false;
  /// Version 6: the rank entries' structure and block ids as written (the writer keeps the form that packs smaller),
  /// else as differences from the previous rank's.
  bool absolute_ids = false;
};

/// The oldest version that can say `meta`'s value mode: 3 for pooled `stats`, 2 for `stats` with per-rank draws, 1
/// otherwise (a reader refuses a file whose version is older).
inline unsigned version_for(const Meta& meta)
{
  return meta.pooled ? 3 : meta.value_mode == "stats" ? 2 : 1;
}

/// The version a file of `meta` is written as: 7 when a schedule has phases, else 6.
inline unsigned written_version(const Meta& meta)
{
  for (const Schedule& s : meta.schedules)
    if (!s.phases.empty())
      return 7;
  return kBaseVersion;
}

/// Groups the runs of `s` (each a repeat of count 1) into repeats of periodic stretches: runs that the stretch
/// before repeats exactly, up to kPeriod runs long; then keeps only the runs the repeats name, as decode_streams
/// gives them.
void find_repeats(Stream& s);
inline constexpr std::size_t kPeriod = 64;

/// A whole compressed trace in memory: its structure and every value block decoded (for tools that walk the
/// structure itself rather than the actions, like `tit-trace proxy`); a pooled `stats` file (version 3) is given with
/// each rank's draws in its own value streams, as version 2 kept them (`meta.pooled` false). Throws TraceError on a
/// bad file.
struct Loaded {
  Meta meta;
  std::vector<std::vector<Stream>> blocks; ///< per value block id
};
Loaded load_compressed(const std::string& path);

// ---- bytes -----------------------------------------------------------------------------------------------

class ByteWriter {
public:
  void varint(std::uint64_t v);
  void zigzag(std::int64_t v) { varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
  void byte(std::uint8_t b) { out_.push_back(static_cast<char>(b)); }
  void string(std::string_view s);
  void bytes(std::string_view s) { out_.append(s); }
  void u32(std::uint32_t v);
  std::string& out() { return out_; }

private:
  std::string out_;
};

/// Reads one record; every read past its end or of a malformed varint throws TraceError
/// "<file>: error: <record> at byte <n>: expected <what> (truncated or corrupt file)".
class ByteReader {
public:
  ByteReader(std::string_view data, const std::string& file, std::string record, std::uint64_t base = 0)
      : data_(data), file_(file), record_(std::move(record)), base_(base)
  {
  }
  std::uint64_t varint(std::string_view what);
  std::int64_t zigzag(std::string_view what);
  std::uint8_t byte(std::string_view what);
  std::string string(std::string_view what);
  std::string_view take(std::size_t n, std::string_view what);
  std::uint32_t u32(std::string_view what);
  /// A varint that must be < limit (an index, a count).
  std::uint64_t below(std::uint64_t limit, std::string_view what);
  bool at_end() const { return pos_ == data_.size(); }
  std::size_t pos() const { return pos_; }
  [[noreturn]] void fail(std::string_view what) const;

private:
  std::string_view data_;
  const std::string& file_;
  std::string record_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

// ---- records ---------------------------------------------------------------------------------------------

/// The structure record as the newest version writes it.
std::string encode_meta(const Meta& meta);
/// The signatures, nodes and bodies of a structure record (also of a part in transit: compressed_build.hpp); decoding
/// checks every index, count and loop body (a loop repeats earlier nodes only) and relative offsets within +-rank_count.
void encode_tables(ByteWriter& w, const std::vector<Signature>& signatures, const std::vector<Node>& nodes,
                   const std::vector<std::vector<std::uint32_t>>& bodies);
void decode_tables(ByteReader& r, int rank_count, std::size_t bytes_size, std::vector<Signature>& signatures,
                   std::vector<Node>& nodes, std::vector<std::vector<std::uint32_t>>& bodies);
/// Checks every index and count (see docs/compressed-format.md); throws TraceError naming the record. `version`: the
/// file's (version 3 records say how each value chunk is packed).
Meta decode_meta(std::string_view bytes, const std::string& file, unsigned version = kVersion);

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

/// Compresses a record as a file of `version` packs it: from version 3 with raw LZMA2 (liblzma, preset 6, a dictionary
/// of the record's size rounded up to a power of 2; from version 5 with the one of kLzmaTried's properties that packs
/// its first kLzmaSample bytes smallest in liblzma's fast mode) or
/// raw deflate, whichever is smaller (tiny records pack better with deflate); in versions 1 and 2 with raw deflate
/// (zlib, no header); with an optional preset dictionary (value chunks after the first use the first one's last
/// 32 KiB: ranks repeat each other's numbers). A record that does not shrink is stored as it is. `codec` receives how it
/// was packed. From version 5 an LZMA2 record's stored bytes are its properties byte, then the LZMA2 data (so that the
/// CRC-32 covers both). unpack checks the size and throws TraceError naming the file and the record.
/// `only`: the one LZMA properties byte to try (version 5), instead of all of kLzmaTried (the value chunks after the
/// first try the first one's: chunks of a file are alike, and each property tried is one more LZMA pass).
std::string pack(std::string_view raw, unsigned version, std::uint8_t& codec, std::string_view dictionary = {},
                 std::optional<std::uint8_t> only = {});
std::string unpack(std::string_view stored, std::uint64_t raw_size, unsigned version, std::uint8_t codec,
                   const std::string& file, std::string_view record, std::string_view dictionary = {});
/// The LZMA properties version 5's writer chooses from for each record (pack): liblzma's preset (lc 3,
/// lp 0, pb 2); pb 0 (no alignment of the varints to 4 bytes) with lc 0, 2 and 4 literal context bits (bin indices and
/// node ids are better predicted with fewer or more of the previous byte's bits, depending on the record); lp 2 with
/// lc 1, pb 1 and lc 0, pb 2 (measured integers of exact values: their varints' bytes by position). Chosen on the
/// records of SMPI and tracer traces of the mini-applications: within 0.4 % of the best of all 36 properties with
/// lc, lp, pb <= 2 or 4 (3 % below the preset alone).
inline constexpr std::array<std::uint8_t, 6> kLzmaTried = {93, 0, 2, 4, 64, 108};
/// The bytes of a record (at most) on which kLzmaTried's properties are compared (pack).
inline constexpr std::size_t kLzmaSample = 8 * 1024;
/// The largest LZMA dictionary the writer uses (pack). The reader's is the record's size rounded up to a power of 2 (up
/// to 64 MiB, as writers before this bound used), never smaller: LZMA2 decodes with any dictionary at least the
/// encoder's. The encoder's memory is about 11 times its dictionary: bounded, a record of several megabytes (the values
/// of a long run) no longer takes hundreds of megabytes to pack.
inline constexpr std::uint32_t kLzmaWriterDict = 1u << 20;
/// The dictionary of value chunks 1.. : the last 32 KiB of chunk 0's raw bytes.
std::string_view chunk_dictionary(std::string_view chunk0);
std::uint32_t crc32_of(std::string_view bytes);

/// The start of a file of `version` whose raw structure record is `meta`: the magic, the version, the record's raw
/// and stored sizes, its CRC-32, its codec byte and its packed bytes (the value chunks follow).
std::string file_head(unsigned version, const std::string& meta);

// ---- value modes (compressed_values.cpp) ---------------------------------------------------------------------

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

/// Whether `token` is a canonical decimal integer (no sign but '-', no leading zero, |v| < kIntLimit).
bool canonical_int(std::string_view token, std::int64_t& value);

} // namespace tit::trace::cformat
