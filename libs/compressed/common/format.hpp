// The model of a compressed trace file (docs/compressed-format.md), shared by every layer of libs/compressed: its
// constants, the records' contents (signatures, nodes, bodies, ranks, value runs and streams, `stats` schedules, the
// structure record `Meta`), a whole trace in memory (`Loaded`), some ranks' folded traces (`Part`), and the value
// modes. Data only: the code that reads and writes them is in values/, container/, read/ and fold/.
#pragma once

#include "trace/action.hpp"

#include <array>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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


} // namespace tit::trace

namespace tit::trace::cformat {

inline constexpr std::array<char, 8> kMagic = {'T', 'I', 'T', 'C', 'T', 'R', 'C', '\n'};
/// The format's version. The format was never released: the versions 1 to 5 that this repository's earlier builds
/// wrote are no longer read (the reader refuses them, saying so). Version 6 is the format of docs/compressed-format.md;
/// version 7 is version 6 with the phases of a `stats` schedule (Schedule::phases): a file is written as version 6
/// unless it holds phases (written_version), so that files without phases keep their bytes.
inline constexpr unsigned kVersion = 7;
/// The version of files without phases, and the oldest one read.
inline constexpr unsigned kBaseVersion = 6;
/// The action names a signature gives by their number in this table (a byte) rather than as a string.
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

/// Whether a schedule draws anything: a gap's schedule of 0s (a compute site never present) does not.
inline bool draws_something(const Schedule& s)
{
  auto nonzero = [](const ValueRun& r) { return r.is_int ? r.first != 0 : r.text != "0"; };
  return !s.head.empty() || !s.phases.empty() || !s.rare.empty() || std::any_of(s.draws.begin(), s.draws.end(), nonzero);
}

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
  /// `binned:R` files: R, the bins of the bin runs their value blocks hold (0: no bin runs).
  double bin_runs = 0;
  /// `binned:R` files: the bin index each stream's bin runs count from, per (signature, value slot), the same in every
  /// block.
  BinBases bin_bases;
  /// Version 6: the rank entries' structure and block ids as written (the writer keeps the form that packs smaller),
  /// else as differences from the previous rank's.
  bool absolute_ids = false;
};

/// The version a file of `meta` is written as: 7 when a schedule has phases, else 6.
inline unsigned written_version(const Meta& meta)
{
  for (const Schedule& s : meta.schedules)
    if (!s.phases.empty())
      return 7;
  return kBaseVersion;
}

/// A whole compressed trace in memory: its structure and every value block decoded (for tools that walk the
/// structure itself rather than the actions, like `tit-trace proxy`); a pooled `stats` file (version 3) is given with
/// each rank's draws in its own value streams, as version 2 kept them (`meta.pooled` false). Throws TraceError on a
/// bad file.
struct Loaded {
  Meta meta;
  std::vector<std::vector<Stream>> blocks; ///< per value block id
};

/// Some ranks' compressed traces: their tables (ids canonical after merge_parts) and, per rank, its structure, dialect
/// and value block. Blocks are distinct encoded value blocks (encode_streams), their streams sorted by (signature,
/// slot).
struct Part {
  struct RankPart {
    int rank = 0;
    std::uint32_t root = 0;
    Dialect dialect = Dialect::SimGrid;
    std::uint32_t block = 0;
    std::string level = "1"; ///< pooled `stats` (pool_stats): the rank's level of compute and sleep volumes
  };
  std::vector<Signature> signatures;
  std::vector<Node> nodes;
  std::vector<std::vector<std::uint32_t>> bodies;
  std::vector<RankPart> ranks; ///< ascending ranks
  std::vector<std::string> blocks;
  std::vector<Schedule> schedules; ///< pooled `stats` (pool_stats)
};

/// A transparent string hash: lookups by string_view without building a string.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

/// The number of Value slots of `s`.
inline std::size_t value_slots(const Signature& s)
{
  std::size_t values = 0;
  for (const Slot& slot : s.slots)
    values += slot.kind == Slot::Kind::Value ? 1 : 0;
  return values;
}

/// Whether `token` is a canonical decimal integer (no sign but '-', no leading zero, |v| < kIntLimit).
bool canonical_int(std::string_view token, std::int64_t& value);

} // namespace tit::trace::cformat
