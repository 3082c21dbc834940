// compress(): folds each rank's actions into nested loops over signatures (greedily, as each action
// arrives: a tail that repeats the items before it, or the body of the loop before it, becomes or extends a
// loop), keeps the numbers in per-rank value streams of runs, and writes the file of docs/compressed-format.md.
#include "trace/compressed.hpp"
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

/// The global tables: signatures, nodes and bodies, interned so that equal ones get one id.
class Tables {
public:
  std::uint32_t signature(Signature&& s)
  {
    // the key: the signature's own encoding (length-prefixed strings: no two signatures share it)
    cformat::ByteWriter key;
    key.string(s.name);
    for (const Slot& slot : s.slots) {
      key.byte(static_cast<std::uint8_t>(slot.kind));
      key.string(slot.literal);
      key.zigzag(slot.offset);
    }
    auto [it, added] =
        signature_ids_.try_emplace(std::move(key.out()), static_cast<std::uint32_t>(signatures_.size()));
    if (added)
      signatures_.push_back(std::move(s));
    return it->second;
  }

  std::uint32_t node(const Node& n)
  {
    std::uint64_t key_a = (std::uint64_t{n.ref} << 1) | (n.loop ? 1 : 0);
    auto [it, added] = node_ids_.try_emplace({key_a, n.count}, static_cast<std::uint32_t>(nodes_.size()));
    if (added)
      nodes_.push_back(n);
    return it->second;
  }

  std::uint32_t body(const std::vector<Node>& items)
  {
    std::vector<std::uint32_t> ids;
    ids.reserve(items.size());
    for (const Node& n : items)
      ids.push_back(node(n));
    auto [it, added] = body_ids_.try_emplace(ids, static_cast<std::uint32_t>(bodies_.size()));
    if (added)
      bodies_.push_back(std::move(ids));
    return it->second;
  }

  const std::vector<std::uint32_t>& body_nodes(std::uint32_t id) const { return bodies_[id]; }
  const Node& node_at(std::uint32_t id) const { return nodes_[id]; }
  const std::vector<Signature>& signatures() const { return signatures_; }

  void move_into(cformat::Meta& m)
  {
    m.signatures = std::move(signatures_);
    m.nodes = std::move(nodes_);
    m.bodies = std::move(bodies_);
  }

private:
  std::vector<Signature> signatures_;
  std::unordered_map<std::string, std::uint32_t> signature_ids_;
  std::vector<Node> nodes_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t> node_ids_;
  std::vector<std::vector<std::uint32_t>> bodies_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> body_ids_;
};

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

/// One rank's value streams, one per (signature, value slot), as runs.
class Values {
public:
  void add(std::uint32_t signature, std::uint32_t slot, std::string_view token)
  {
    auto [it, added] = index_.try_emplace({signature, slot}, streams_.size());
    if (added)
      streams_.push_back(Stream{signature, slot, {}, {}});
    std::vector<ValueRun>& runs = streams_[it->second].runs;
    std::int64_t v = 0;
    bool is_int = cformat::canonical_int(token, v);
    if (!runs.empty()) {
      ValueRun& last = runs.back();
      if (is_int && last.is_int) {
        if (last.count == 1) { // any step starts a run of two (|step| < 2^62: both values are within +-2^61)
          last.step = v - last.first;
          last.count = 2;
          return;
        }
        std::int64_t span = 0;
        std::int64_t next = 0;
        bool overflow = __builtin_mul_overflow(last.step, static_cast<std::int64_t>(last.count), &span) ||
                        __builtin_add_overflow(last.first, span, &next);
        if (!overflow && v == next) {
          ++last.count;
          return;
        }
      } else if (!is_int && !last.is_int && last.text == token) {
        ++last.count;
        return;
      }
    }
    ValueRun run;
    run.is_int = is_int;
    run.first = v;
    if (!is_int)
      run.text = std::string(token);
    runs.push_back(std::move(run));
  }

  /// Streams in (signature, slot) order, so that equal ranks give equal blocks.
  std::vector<Stream> take()
  {
    std::sort(streams_.begin(), streams_.end(), [](const Stream& a, const Stream& b) {
      return std::pair(a.signature, a.slot) < std::pair(b.signature, b.slot);
    });
    for (Stream& s : streams_)
      cformat::find_repeats(s);
    return std::move(streams_);
  }

private:
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> index_;
  std::vector<Stream> streams_;
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

CompressStats compress(TraceSet& in, const std::filesystem::path& out, const ValueMode& values)
{
  CompressStats stats;
  Tables tables;
  cformat::Meta meta;
  meta.rank_count = in.rank_count();
  meta.value_mode = value_mode_name(values);
  meta.compute_unit = in.compute_unit();
  Chunker chunker;
  std::unordered_map<std::string, std::uint32_t> block_ids;
  std::vector<std::string> tokens;
  std::vector<bool> volume;
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
      ++stats.actions;
    }
    entry.root = tables.body(folder.items());
    if (stats_mode)
      stats_values.finish(tables, entry.root, r, rank_values);
    std::string raw = cformat::encode_streams(rank_values.take());
    auto [it, added] = block_ids.try_emplace(raw, static_cast<std::uint32_t>(meta.blocks.size()));
    if (added)
      meta.blocks.push_back(chunker.add(raw));
    entry.block = it->second;
    meta.ranks.push_back(entry);
  }
  tables.move_into(meta);
  stats.signatures = meta.signatures.size();
  stats.loops = static_cast<std::uint64_t>(
      std::count_if(meta.nodes.begin(), meta.nodes.end(), [](const Node& n) { return n.loop; }));
  std::vector<std::uint32_t> roots;
  for (const auto& e : meta.ranks)
    roots.push_back(e.root);
  std::sort(roots.begin(), roots.end());
  stats.structures = static_cast<std::uint64_t>(std::unique(roots.begin(), roots.end()) - roots.begin());
  stats.value_blocks = meta.blocks.size();
  std::vector<std::string> chunks;
  chunker.finish(meta, chunks);
  write_file(out, cformat::version_for(meta.value_mode), cformat::encode_meta(meta), chunks);
  std::error_code ec;
  stats.bytes = std::filesystem::file_size(out, ec);
  return stats;
}

} // namespace tit::trace
