// compress(): folds each rank's actions into nested loops over signatures (greedily, as each action
// arrives: a tail that repeats the items before it, or the body of the loop before it, becomes or extends a
// loop), keeps the numbers in per-rank value streams of runs, and writes the file of docs/compressed-format.md.
#include "trace/compressed.hpp"
#include "trace/compressed_build.hpp"
#include "trace/compressed_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <unordered_map>

namespace tit::trace {

namespace {

using cformat::Node;
using cformat::Signature;
using cformat::Slot;
using cformat::Stream;
using cformat::ValueRun;
using Tables = cformat::StructureTables;
using Values = cformat::StreamBuilder;

/// Longest body, in items, that folding looks for (items may themselves be loops).
constexpr std::size_t kWindow = 64;

/// Arguments of an action that are world ranks (partners), by position.
std::vector<std::size_t> partner_positions(const Action& a)
{
  switch (a.kind) {
    case Kind::Send:
    case Kind::Isend:
    case Kind::Recv:
    case Kind::Irecv:
    case Kind::Ssend:
    case Kind::Issend:
    case Kind::Bsend:
    case Kind::Ibsend:
      return {0};
    case Kind::Wait:
    case Kind::Test:
      return a.wait_last_irecv ? std::vector<std::size_t>{} : std::vector<std::size_t>{0, 1};
    case Kind::SendRecv:
      return {1, 3};
    default:
      return {};
  }
}

/// One rank's sequence of items, folded as it grows.
class Folder {
public:
  explicit Folder(Tables& tables) : tables_(tables) {}

  void push(std::uint32_t signature)
  {
    seq_.push_back(Node{false, signature, 1});
    while (fold_into_previous_loop() || fold_repeated_tail()) {
    }
  }

  std::vector<Node>& items() { return seq_; }

private:
  bool body_equals_tail(std::uint32_t body, std::size_t k) const
  {
    const auto& ids = tables_.body_nodes(body);
    if (ids.size() != k)
      return false;
    std::size_t from = seq_.size() - k;
    for (std::size_t i = 0; i < k; ++i)
      if (!(tables_.node_at(ids[i]) == seq_[from + i]))
        return false;
    return true;
  }

  /// [... loop(B, c), tail] with tail == B  ->  [... loop(B, c + 1)]
  bool fold_into_previous_loop()
  {
    std::size_t n = seq_.size();
    for (std::size_t k = 1; k <= kWindow && k < n; ++k) {
      Node& before = seq_[n - 1 - k];
      if (before.loop && body_equals_tail(before.ref, k)) {
        before.count += 1;
        seq_.resize(n - k);
        return true;
      }
    }
    return false;
  }

  /// [... X, X] with X the last k items  ->  [... loop(X, 2)]
  bool fold_repeated_tail()
  {
    std::size_t n = seq_.size();
    for (std::size_t k = 1; k <= kWindow && 2 * k <= n; ++k) {
      if (!(seq_[n - 1] == seq_[n - 1 - k]))
        continue;
      if (!std::equal(seq_.begin() + static_cast<std::ptrdiff_t>(n - 2 * k),
                      seq_.begin() + static_cast<std::ptrdiff_t>(n - k),
                      seq_.begin() + static_cast<std::ptrdiff_t>(n - k)))
        continue;
      std::vector<Node> tail(seq_.begin() + static_cast<std::ptrdiff_t>(n - k), seq_.end());
      std::uint32_t body = tables_.body(tail);
      seq_.resize(n - 2 * k);
      seq_.push_back(Node{true, body, 2});
      return true;
    }
    return false;
  }

  Tables& tables_;
  std::vector<Node> seq_;
};

/// The signature of `a`; its value tokens go to `value_tokens` (binned when `mode` bins and the token is a volume),
/// and `volume[j]` says whether value token j is a volume.
Signature signature_of(const Action& a, int rank_count, const ValueMode& mode, std::vector<std::string>& value_tokens,
                       std::vector<bool>& volume)
{
  std::vector<std::size_t> volumes = cformat::volume_positions(a);
  bool bin = mode.kind == ValueMode::Kind::Binned;
  Signature s;
  s.name = std::string(a.name);
  std::string_view rest = a.text;
  detail::next_field(rest); // rank
  detail::next_field(rest); // name
  std::vector<std::size_t> partners = partner_positions(a);
  value_tokens.clear();
  volume.clear();
  for (std::size_t i = 0; !rest.empty(); ++i) {
    std::string_view token = detail::next_field(rest);
    Slot slot;
    std::optional<int> p = std::find(partners.begin(), partners.end(), i) != partners.end()
                               ? detail::parse_int(token) : std::nullopt;
    std::int64_t canonical = 0;
    if (p && *p >= 0 && *p < rank_count && cformat::canonical_int(token, canonical)) {
      std::int64_t k = ((static_cast<std::int64_t>(*p) - a.rank) % rank_count + rank_count) % rank_count;
      if (k > rank_count / 2)
        k -= rank_count;
      slot.kind = Slot::Kind::Relative;
      slot.offset = k;
    } else if (detail::parse_double(token)) {
      slot.kind = Slot::Kind::Value;
      bool is_volume = std::find(volumes.begin(), volumes.end(), i) != volumes.end();
      value_tokens.push_back(is_volume && bin ? cformat::bin_token(token, mode.bin) : std::string(token));
      volume.push_back(is_volume);
    } else {
      slot.kind = Slot::Kind::Literal;
      slot.literal = std::string(token);
    }
    s.slots.push_back(std::move(slot));
  }
  return s;
}

/// `stats`: a rank's actions are kept until its structure is folded, then their volumes are replaced, per value slot
/// of each action of a loop body (a body and a position in it), by that slot's schedule (cformat::stats_schedule).
class StatsValues {
public:
  void add(const Action& a, std::uint32_t signature, const std::vector<std::string>& tokens,
           const std::vector<bool>& volume)
  {
    actions_.push_back(Pending{signature, tokens, volume, a.kind == Kind::Compute || a.kind == Kind::Sleep});
  }

  /// Walks the structure of body `root` twice (its actions are those added, in order): gathers each slot's volumes,
  /// then gives `out` each action's tokens, volumes drawn from their schedules. For compute and sleep volumes, rank
  /// `rank` starts each schedule at its own place (a hash of the rank and the slot), so that ranks with the same
  /// distribution do not draw the same value at the same time: their fluctuations stay uncorrelated, as measured
  /// ones mostly are. Message sizes start at the schedule's start on every rank, so that a sender and its receiver,
  /// which saw the same sizes, draw the same ones.
  void finish(const Tables& tables, std::uint32_t root, int rank, Values& out)
  {
    next_ = 0;
    walk(tables, root, [this](std::uint64_t site, const Pending& a) {
      for (std::size_t j = 0; j < a.tokens.size(); ++j) {
        if (!a.volume[j])
          continue;
        SlotValues& slot = slots_[{site, j}];
        slot.local = a.local;
        std::optional<double> v = detail::parse_double(a.tokens[j]);
        std::int64_t i = 0;
        slot.usable = slot.usable && v && *v > 0;
        slot.integers = slot.integers && cformat::canonical_int(a.tokens[j], i);
        if (slot.usable)
          slot.values.push_back(*v);
      }
    });
    for (auto& [key, slot] : slots_) {
      if (slot.usable)
        slot.schedule = cformat::stats_schedule(slot.values, slot.integers);
      if (slot.local && slot.values.size() >= 2 * cformat::kStatsSlots)
        slot.schedule = cformat::stats_shuffle(slot.schedule, rank);
      slot.values = {};
    }
    next_ = 0;
    walk(tables, root, [this, &out](std::uint64_t site, const Pending& a) {
      for (std::size_t j = 0; j < a.tokens.size(); ++j) {
        auto it = a.volume[j] ? slots_.find({site, j}) : slots_.end();
        if (it != slots_.end() && it->second.usable) {
          SlotValues& slot = it->second;
          out.add(a.signature, static_cast<std::uint32_t>(j), slot.schedule[slot.drawn++ % slot.schedule.size()]);
        } else {
          out.add(a.signature, static_cast<std::uint32_t>(j), a.tokens[j]);
        }
      }
    });
  }

private:
  struct Pending {
    std::uint32_t signature;
    std::vector<std::string> tokens;
    std::vector<bool> volume;
    bool local; ///< compute or sleep
  };
  struct SlotValues {
    bool usable = true;   ///< every value a positive number (else kept as it is)
    bool integers = true; ///< every value a canonical integer (then so are the drawn values)
    bool local = false;   ///< a compute or sleep volume (else a message size, which its partner must agree with)
    std::vector<double> values;
    std::vector<std::string> schedule;
    std::uint64_t drawn = 0;
  };

  /// Calls visit(site, action) for each action of body `body`'s depth-first walk, `site` naming the body and the
  /// position of the action in it.
  template <typename Visit> void walk(const Tables& tables, std::uint32_t body, const Visit& visit)
  {
    const std::vector<std::uint32_t>& ids = tables.body_nodes(body);
    for (std::size_t pos = 0; pos < ids.size(); ++pos) {
      const Node& n = tables.node_at(ids[pos]);
      if (n.loop) {
        for (std::uint64_t c = 0; c < n.count; ++c)
          walk(tables, n.ref, visit);
      } else {
        visit((std::uint64_t{body} << 32) | pos, actions_.at(next_++));
      }
    }
  }

  std::vector<Pending> actions_;
  std::size_t next_ = 0;
  std::map<std::pair<std::uint64_t, std::size_t>, SlotValues> slots_;
};

/// Groups value blocks into chunks, each deflated when full (chunks after the first with chunk 0 as dictionary).
class Chunker {
public:
  cformat::BlockRef add(const std::string& block)
  {
    if (!current_.empty() && current_.size() + block.size() > cformat::kChunkBytes)
      close();
    cformat::BlockRef ref{static_cast<std::uint32_t>(chunks_.size()), current_.size(), block.size()};
    current_ += block;
    return ref;
  }

  /// The chunk refs and the stored chunks, once every block is added.
  void finish(cformat::Meta& meta, std::vector<std::string>& stored)
  {
    if (!current_.empty() || chunks_.empty())
      close();
    meta.chunks = std::move(chunks_);
    stored = std::move(stored_);
  }

private:
  void close()
  {
    if (chunks_.empty())
      first_ = current_;
    std::string stored =
        cformat::deflate(current_, chunks_.empty() ? std::string_view() : cformat::chunk_dictionary(first_));
    chunks_.push_back(cformat::ChunkRef{offset_, current_.size(), stored.size(), cformat::crc32_of(stored)});
    offset_ += stored.size();
    stored_.push_back(std::move(stored));
    current_.clear();
  }

  std::string current_;
  std::string first_; // chunk 0's raw bytes: the dictionary of the others
  std::vector<cformat::ChunkRef> chunks_;
  std::vector<std::string> stored_;
  std::uint64_t offset_ = 0;
};

void write_file(const std::filesystem::path& out, unsigned version, const std::string& meta,
                const std::vector<std::string>& blocks)
{
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  if (!f)
    throw TraceError(fmt::format("error: cannot write compressed trace '{}'", out.string()));
  cformat::ByteWriter head;
  head.bytes(std::string_view(cformat::kMagic.data(), cformat::kMagic.size()));
  head.varint(version);
  std::string stored = cformat::deflate(meta);
  head.varint(meta.size());
  head.varint(stored.size());
  head.u32(cformat::crc32_of(stored));
  f.write(head.out().data(), static_cast<std::streamsize>(head.out().size()));
  f.write(stored.data(), static_cast<std::streamsize>(stored.size()));
  for (const std::string& b : blocks)
    f.write(b.data(), static_cast<std::streamsize>(b.size()));
  f.close();
  if (!f)
    throw TraceError(fmt::format("error: cannot write compressed trace '{}'", out.string()));
}

} // namespace

cformat::Loaded cformat::fold(TraceSet& in, const ValueMode& values, std::uint64_t* actions)
{
  Tables tables;
  Loaded out;
  Meta& meta = out.meta;
  meta.rank_count = in.rank_count();
  meta.value_mode = value_mode_name(values);
  meta.compute_unit = in.compute_unit();
  std::unordered_map<std::string, std::uint32_t> block_ids;
  std::vector<std::string> tokens;
  std::vector<bool> volume;
  std::uint64_t count = 0;
  bool stats_mode = values.kind == ValueMode::Kind::Stats;
  for (int r = 0; r < meta.rank_count; ++r) {
    std::unique_ptr<RankReader> reader = in.reader(r);
    Folder folder(tables);
    Values rank_values;
    StatsValues stats_values;
    cformat::RankEntry entry;
    Action a;
    bool first = true;
    while (reader->next(a)) {
      if (first)
        entry.dialect = a.dialect;
      first = false;
      std::uint32_t sig = tables.signature(signature_of(a, meta.rank_count, values, tokens, volume));
      if (stats_mode)
        stats_values.add(a, sig, tokens, volume);
      else
        for (std::size_t i = 0; i < tokens.size(); ++i)
          rank_values.add(sig, static_cast<std::uint32_t>(i), tokens[i]);
      folder.push(sig);
      ++count;
    }
    entry.root = tables.body(folder.items());
    if (stats_mode)
      stats_values.finish(tables, entry.root, r, rank_values);
    std::vector<Stream> streams = rank_values.take();
    auto [it, added] =
        block_ids.try_emplace(cformat::encode_streams(streams), static_cast<std::uint32_t>(out.blocks.size()));
    if (added)
      out.blocks.push_back(std::move(streams));
    entry.block = it->second;
    meta.ranks.push_back(entry);
  }
  tables.move_into(meta);
  if (actions)
    *actions = count;
  return out;
}

std::uint64_t cformat::write_compressed(const std::filesystem::path& out, const Loaded& trace)
{
  Meta meta = trace.meta;
  meta.blocks.clear();
  Chunker chunker;
  for (const std::vector<Stream>& block : trace.blocks)
    meta.blocks.push_back(chunker.add(cformat::encode_streams(block)));
  std::vector<std::string> chunks;
  chunker.finish(meta, chunks);
  write_file(out, cformat::version_for(meta.value_mode), cformat::encode_meta(meta), chunks);
  std::error_code ec;
  return std::filesystem::file_size(out, ec);
}

CompressStats compress(TraceSet& in, const std::filesystem::path& out, const ValueMode& values)
{
  CompressStats stats;
  cformat::Loaded folded = cformat::fold(in, values, &stats.actions);
  const cformat::Meta& meta = folded.meta;
  stats.signatures = meta.signatures.size();
  stats.loops = static_cast<std::uint64_t>(
      std::count_if(meta.nodes.begin(), meta.nodes.end(), [](const Node& n) { return n.loop; }));
  std::vector<std::uint32_t> roots;
  for (const auto& e : meta.ranks)
    roots.push_back(e.root);
  std::sort(roots.begin(), roots.end());
  stats.structures = static_cast<std::uint64_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  stats.value_blocks = folded.blocks.size();
  stats.bytes = cformat::write_compressed(out, folded);
  return stats;
}

} // namespace tit::trace
