// Records of compressed trace files: varints, the structure record and value blocks (docs/compressed-format.md).
#include "compressed/format.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace tit::trace::cformat {

void ByteWriter::varint(std::uint64_t v)
{
  while (v >= 0x80) {
    out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<char>(v));
}

void ByteWriter::string(std::string_view s)
{
  varint(s.size());
  out_.append(s);
}

void ByteWriter::u32(std::uint32_t v)
{
  for (int i = 0; i < 4; ++i)
    out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void ByteReader::fail(std::string_view what) const
{
  throw TraceError(fmt::format("{}: error: {} at byte {}: {} (truncated or corrupt compressed trace)", file_,
                               record_, base_ + pos_, what));
}

std::uint64_t ByteReader::varint(std::string_view what)
{
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size())
      fail(fmt::format("expected {}, found the end of the record", what));
    auto b = static_cast<std::uint8_t>(data_[pos_++]);
    if (shift == 63 && b > 1)
      fail(fmt::format("expected {}, found a number over 64 bits", what));
    v |= std::uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0)
      return v;
  }
  fail(fmt::format("expected {}, found a number over 64 bits", what));
}

std::int64_t ByteReader::zigzag(std::string_view what)
{
  std::uint64_t u = varint(what);
  return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
}

std::uint8_t ByteReader::byte(std::string_view what) { return static_cast<std::uint8_t>(take(1, what)[0]); }

std::string_view ByteReader::take(std::size_t n, std::string_view what)
{
  if (n > data_.size() - pos_)
    fail(fmt::format("expected {} ({} bytes), found {} bytes left", what, n, data_.size() - pos_));
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

std::string ByteReader::string(std::string_view what)
{
  std::uint64_t n = varint(what);
  if (n > data_.size() - pos_)
    fail(fmt::format("expected {} of {} bytes, found {} bytes left", what, n, data_.size() - pos_));
  return std::string(take(static_cast<std::size_t>(n), what));
}

std::uint32_t ByteReader::u32(std::string_view what)
{
  std::string_view b = take(4, what);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= std::uint32_t{static_cast<std::uint8_t>(b[i])} << (8 * i);
  return v;
}

std::uint64_t ByteReader::below(std::uint64_t limit, std::string_view what)
{
  std::size_t at = pos_;
  std::uint64_t v = varint(what);
  if (v >= limit) {
    pos_ = at;
    fail(fmt::format("expected {} below {}, found {}", what, limit, v));
  }
  return v;
}

// ---- the structure record ----------------------------------------------------------------------------

namespace {

/// `numbered` (version 6): a name of kActionNames as an empty string, then its number (a byte).
void encode_signatures(ByteWriter& w, const std::vector<Signature>& signatures, bool numbered = false)
{
  w.varint(signatures.size());
  for (const Signature& s : signatures) {
    auto known = std::find(kActionNames.begin(), kActionNames.end(), s.name);
    if (numbered && known != kActionNames.end()) {
      w.string("");
      w.byte(static_cast<std::uint8_t>(known - kActionNames.begin()));
    } else {
      w.string(s.name);
    }
    w.varint(s.slots.size());
    for (const Slot& slot : s.slots) {
      w.byte(static_cast<std::uint8_t>(slot.kind));
      if (slot.kind == Slot::Kind::Literal)
        w.string(slot.literal);
      else if (slot.kind == Slot::Kind::Relative)
        w.zigzag(slot.offset);
    }
  }
}

/// Version 5's tables: the signatures, then the bodies with their nodes inline (no node table: each item is an action
/// of a signature, or a loop over a body of a smaller id and its trip count). Bodies are renumbered when a loop repeats
/// a body whose id is not below its own body's (files numbered before the canonical ids): by height, then by id.
void encode_inline_tables(ByteWriter& w, const Meta& m, std::vector<std::uint32_t>& new_id)
{
  encode_signatures(w, m.signatures, written_version(m) >= 6);
  std::size_t n = m.bodies.size();
  new_id.resize(n);
  for (std::size_t b = 0; b < n; ++b)
    new_id[b] = static_cast<std::uint32_t>(b);
  bool ordered = true;
  for (std::size_t b = 0; b < n && ordered; ++b)
    for (std::uint32_t id : m.bodies[b])
      ordered = ordered && (!m.nodes[id].loop || m.nodes[id].ref < b);
  if (!ordered) {
    // height: 0 for a body without loops, else one more than the highest body it loops over (a finite tree: the
    // decoder checked it, and the writers build trees)
    std::vector<int> height(n, -1);
    std::function<int(std::uint32_t)> height_of = [&](std::uint32_t b) {
      if (height[b] < 0) {
        int h = 0;
        for (std::uint32_t id : m.bodies[b])
          if (m.nodes[id].loop)
            h = std::max(h, height_of(m.nodes[id].ref) + 1);
        height[b] = h;
      }
      return height[b];
    };
    std::vector<std::uint32_t> order(n);
    for (std::size_t b = 0; b < n; ++b)
      order[b] = static_cast<std::uint32_t>(b);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return height_of(a) < height_of(b); });
    for (std::size_t i = 0; i < n; ++i)
      new_id[order[i]] = static_cast<std::uint32_t>(i);
  }
  std::vector<std::uint32_t> old_id(n);
  for (std::size_t b = 0; b < n; ++b)
    old_id[new_id[b]] = static_cast<std::uint32_t>(b);
  w.varint(n);
  for (std::uint32_t b : old_id) {
    w.varint(m.bodies[b].size());
    for (std::uint32_t id : m.bodies[b]) {
      const Node& node = m.nodes[id];
      // action: 2*sig; loop: 2*body+1, then its count
      w.varint((std::uint64_t{node.loop ? new_id[node.ref] : node.ref} << 1) | (node.loop ? 1 : 0));
      if (node.loop)
        w.varint(node.count);
    }
  }
}

} // namespace

void encode_tables(ByteWriter& w, const std::vector<Signature>& signatures, const std::vector<Node>& nodes,
                   const std::vector<std::vector<std::uint32_t>>& bodies)
{
  encode_signatures(w, signatures);
  w.varint(nodes.size());
  for (const Node& n : nodes) {
    // action: 2*sig; loop: 2*body+1, then its count
    w.varint((std::uint64_t{n.ref} << 1) | (n.loop ? 1 : 0));
    if (n.loop)
      w.varint(n.count);
  }
  w.varint(bodies.size());
  for (const auto& b : bodies) {
    w.varint(b.size());
    for (std::uint32_t id : b)
      w.varint(id);
  }
}

std::string encode_meta(const Meta& m)
{
  ByteWriter w;
  w.varint(static_cast<std::uint64_t>(m.rank_count));
  // the value mode: 0 exact; 1 binned, then R as written ("binned:0.01"); 2 stats with per-rank draws (version 2);
  // 3 stats with schedules shared by the ranks of a block (version 3); 4 the same, folded with one compute per gap
  // between non-compute actions, a compute of volume 0 being no action (version 3)
  if (m.value_mode.starts_with("binned:")) {
    w.byte(1);
    w.string(std::string_view(m.value_mode).substr(7));
  } else if (m.value_mode == "stats") {
    w.byte(m.pooled ? (m.gaps ? 4 : 3) : 2);
  } else {
    w.byte(0);
  }
  w.string(m.compute_unit);
  std::vector<std::uint32_t> body_id; // new ids of the bodies (the same unless renumbered)
  encode_inline_tables(w, m, body_id);
  // offsets and chunk sizes are implied: chunks follow each other in the value area, blocks each other in
  // their chunk, and a chunk's raw bytes are its blocks'
  w.varint(m.chunks.size());
  for (const ChunkRef& c : m.chunks) {
    w.varint(c.stored_size);
    w.u32(c.crc);
    w.byte(c.codec);
  }
  // version 6: a block's chunk, a rank's structure and value block as differences from the previous entry's (0 for
  // the first), and the dialect once when every rank has it (2: each rank's in its entry), so that the tables of a
  // tiny file cost LZMA or deflate a few bytes (a rank per block: differences of 1, rank after rank)
  bool v6 = written_version(m) >= 6;
  auto difference = [](std::uint64_t now, std::uint64_t& before) {
    auto d = static_cast<std::int64_t>(now - before);
    before = now;
    return d;
  };
  w.varint(m.blocks.size());
  std::uint64_t previous = 0;
  for (const BlockRef& b : m.blocks) {
    if (v6)
      w.zigzag(difference(b.chunk, previous));
    else
      w.varint(b.chunk);
    w.varint(b.raw_size);
  }
  bool one_dialect = std::all_of(m.ranks.begin(), m.ranks.end(),
                                 [&m](const RankEntry& e) { return e.dialect == m.ranks.front().dialect; });
  if (v6) // the dialect, and 3 more when the ids are written as they are (ranks sharing blocks out of order)
    w.byte(static_cast<std::uint8_t>((one_dialect ? static_cast<int>(m.ranks.front().dialect) : 2) +
                                     (m.absolute_ids ? 3 : 0)));
  bool differences = v6 && !m.absolute_ids;
  std::uint64_t previous_root = 0, previous_block = 0;
  for (const RankEntry& r : m.ranks) {
    if (differences)
      w.zigzag(difference(body_id[r.root], previous_root));
    else
      w.varint(body_id[r.root]);
    if (!v6 || !one_dialect)
      w.byte(static_cast<std::uint8_t>(r.dialect));
    if (differences)
      w.zigzag(difference(r.block, previous_block));
    else
      w.varint(r.block);
    if (m.pooled)
      w.string(r.level);
  }
  // binned (version 5): the bin bases, each: signature | value-slot ordinal | base (zigzag)
  if (m.value_mode.starts_with("binned:")) {
    w.varint(m.bin_bases.size());
    for (const auto& [key, base] : m.bin_bases) {
      w.varint(key.first);
      w.varint(key.second);
      w.zigzag(base);
    }
  }
  // pooled stats: the schedules, each: body id | position | value-slot ordinal | order byte (0 in order, 1 the rank's
  // order and level, 2 the order every rank shares and the rank's level; plus 4: a head follows the draws; plus 8:
  // rare values follow; plus 16, version 7: phases follow) | kStatsSlots runs of one value | (plus 4) the head's
  // length, 1 to kStatsSlots, then that many runs of one value | (plus 8) the rare values' count, 1 to kStatsSlots, then
  // each: rank | occurrence | a run of one value; ascending by (rank, occurrence) | (plus 16) the number of phases, 2 to
  // kMaxPhases, then that many runs of one value
  if (m.pooled) {
    std::vector<Schedule> schedules = m.schedules;
    for (Schedule& s : schedules)
      s.body = body_id[s.body];
    std::sort(schedules.begin(), schedules.end(), [](const Schedule& a, const Schedule& b) {
      return std::tie(a.body, a.position, a.slot) < std::tie(b.body, b.position, b.slot);
    });
    w.varint(schedules.size());
    for (const Schedule& s : schedules) {
      w.varint(s.body);
      w.varint(s.position);
      w.varint(s.slot);
      w.byte((s.rank_order ? (s.shared_order ? 2 : 1) : 0) | (s.head.empty() ? 0 : kScheduleHead) |
             (s.rare.empty() ? 0 : kScheduleRare) | (s.phases.empty() ? 0 : kSchedulePhases));
      for (const ValueRun& run : s.draws)
        encode_run(w, run);
      if (!s.head.empty()) {
        w.varint(s.head.size());
        for (const ValueRun& run : s.head)
          encode_run(w, run);
      }
      if (!s.rare.empty()) {
        w.varint(s.rare.size());
        for (const RareValue& v : s.rare) {
          w.varint(static_cast<std::uint64_t>(v.rank));
          w.varint(v.occurrence);
          encode_run(w, v.value);
        }
      }
      if (!s.phases.empty()) {
        w.varint(s.phases.size());
        for (const ValueRun& run : s.phases)
          encode_run(w, run);
      }
    }
  }
  return std::move(w.out());
}

namespace {

/// A field of an action line as the writer cuts them (a name, a literal argument, a value token): not empty and
/// without blanks, so that a line made of fields joined by single spaces splits back into the same fields (the
/// reader builds its lines so and hands their fields over without splitting them again).
void check_field(ByteReader& r, std::string_view s, std::string_view what)
{
  if (s.empty() || s.find_first_of(" \t") != std::string_view::npos)
    r.fail(fmt::format("expected {} (one field of an action line: not empty, no blank), found '{}'", what, s));
}

std::string field(ByteReader& r, std::string_view what)
{
  std::string s = r.string(what);
  check_field(r, s, what);
  return s;
}

} // namespace

namespace {

constexpr std::uint64_t kMaxRanks = 1u << 24;
constexpr std::uint64_t kMaxTable = std::numeric_limits<std::uint32_t>::max();

/// A table length: bounded by the bytes left (each entry takes at least one byte), so a corrupt length
/// cannot make us allocate gigabytes.
std::uint64_t table_size(ByteReader& r, std::string_view what, std::size_t bytes_left)
{
  return r.below(std::min<std::uint64_t>(kMaxTable, bytes_left + 1), what);
}

/// The bin indices of a binned value block (versions 4 and 5), read before its streams; each bin run takes the next.
struct BinIndices {
  Bins bins;
  std::span<const std::int64_t> indices; ///< per bin run, in order (version 5: less the base of the run's stream)
  std::size_t used = 0;
  const std::int64_t* base = nullptr; ///< version 5: the base of the stream being read (none: it has no bin runs)
  std::uint32_t signature = 0, slot = 0; ///< that stream's
  std::int64_t next(ByteReader& r, bool stream_bases)
  {
    if (used == indices.size())
      r.fail(fmt::format("expected at most {} bin runs (the block's bin indices), found more", indices.size()));
    std::int64_t k = indices[used++];
    if (!stream_bases)
      return k;
    if (base == nullptr)
      r.fail(fmt::format("expected no bin run in the stream of signature {}'s value slot {} (the structure record "
                         "gives it no bin base), found one", signature, slot));
    k += *base;
    if (k > Bins::kMaxIndex || k < -Bins::kMaxIndex)
      r.fail(fmt::format("expected a bin index within +-2^40, found the base {} plus {}", *base, k - *base));
    return k;
  }
};

ValueRun decode_run(ByteReader& r, std::size_t max_text, BinIndices* bins = nullptr, bool stream_bases = false);

std::size_t value_slots(const Signature& s)
{
  std::size_t values = 0;
  for (const Slot& slot : s.slots)
    values += slot.kind == Slot::Kind::Value ? 1 : 0;
  return values;
}

void decode_schedules(ByteReader& r, std::size_t bytes_size, const Meta& meta, unsigned version,
                      std::vector<Schedule>& out)
{
  out.resize(table_size(r, "the number of schedules", bytes_size));
  const Schedule* before = nullptr;
  for (Schedule& s : out) {
    s.body = static_cast<std::uint32_t>(r.below(meta.bodies.size(), "a schedule's body id"));
    const std::vector<std::uint32_t>& body = meta.bodies[s.body];
    s.position = static_cast<std::uint32_t>(r.below(body.size(), "a schedule's position in its body"));
    const Node& n = meta.nodes[body[s.position]];
    if (n.loop)
      r.fail(fmt::format("expected a schedule of an action, found one of a loop (body {}, position {})", s.body,
                         s.position));
    s.slot = static_cast<std::uint32_t>(r.below(value_slots(meta.signatures[n.ref]), "a schedule's value slot"));
    if (before != nullptr && std::tie(before->body, before->position, before->slot) >= std::tie(s.body, s.position, s.slot))
      r.fail("expected schedules in ascending (body, position, slot) order");
    std::uint8_t order = r.byte("a schedule's order");
    std::uint8_t read = order;
    bool head = (order & kScheduleHead) != 0;
    bool rare = (order & kScheduleRare) != 0;
    bool phases = (order & kSchedulePhases) != 0;
    order &= static_cast<std::uint8_t>(~(kScheduleHead | kScheduleRare | kSchedulePhases));
    if (order > 2 || ((head || rare || phases) && order == 0) || (phases && (head || rare || version < 7)))
      r.fail(fmt::format("expected a schedule's order (0 in order, 1 the rank's order, 2 one order for every rank; "
                         "1 or 2 plus 4 with a head, plus 8 with rare values{}), found {}",
                         version < 7 ? "" : "; or 1 or 2 plus 16 with phases", read));
    s.rank_order = order >= 1;
    s.shared_order = order == 2;
    auto draw = [&](const char* what) {
      ValueRun run = decode_run(r, bytes_size);
      if (run.count != 1)
        r.fail(fmt::format("expected a schedule's {} (a run of 1 value), found a run of {}", what, run.count));
      if (s.rank_order) { // the reader scales these: they must be positive numbers (or 0: no compute, mode 4)
        std::optional<double> v = run.is_int ? std::optional<double>(static_cast<double>(run.first))
                                             : detail::parse_double(run.text);
        if (!v || !(*v > 0 || (meta.gaps && *v == 0)) || !std::isfinite(*v))
          r.fail(fmt::format("expected a schedule's {} (a {} number), found '{}'", what,
                             meta.gaps ? "non-negative" : "positive",
                             run.is_int ? std::to_string(run.first) : run.text));
      }
      return run;
    };
    // a count of the schedule's `what`, from `least` to `most`
    auto count_of = [&](std::string_view what, std::uint64_t least, std::uint64_t most) {
      std::uint64_t count = r.varint(fmt::format("a schedule's {}", what));
      if (count < least || count > most)
        r.fail(fmt::format("expected a schedule's {} ({} to {}), found {}", what, least, most, count));
      return count;
    };
    for (std::size_t i = 0; i < kStatsSlots; ++i)
      s.draws.push_back(draw("draw"));
    if (head) {
      std::uint64_t length = count_of("head length", 1, kStatsSlots);
      for (std::uint64_t i = 0; i < length; ++i)
        s.head.push_back(draw("head value"));
    }
    if (rare) {
      std::uint64_t count = count_of("count of rare values", 1, kStatsSlots);
      for (std::uint64_t i = 0; i < count; ++i) {
        RareValue v;
        v.rank = static_cast<int>(r.below(meta.ranks.size(), "a rare value's rank"));
        v.occurrence = r.varint("a rare value's occurrence");
        if (!s.rare.empty() && std::tie(s.rare.back().rank, s.rare.back().occurrence) >= std::tie(v.rank, v.occurrence))
          r.fail("expected a schedule's rare values in ascending (rank, occurrence) order");
        v.value = draw("rare value");
        s.rare.push_back(std::move(v));
      }
    }
    if (phases) {
      std::uint64_t count = count_of("number of phases", 2, kMaxPhases);
      for (std::uint64_t i = 0; i < count; ++i)
        s.phases.push_back(draw("phase"));
    }
    before = &s;
  }
}


} // namespace

namespace {

/// `numbered` (version 6): a name may be given by its number in kActionNames (an empty string, then a byte).
void decode_signatures(ByteReader& r, int rank_count, std::size_t bytes_size, std::vector<Signature>& signatures,
                       bool numbered = false)
{
  signatures.resize(table_size(r, "the number of signatures", bytes_size));
  for (Signature& s : signatures) {
    s.name = r.string("a signature's action name");
    if (numbered && s.name.empty()) {
      std::uint8_t k = r.byte("an action name's number");
      if (k >= kActionNames.size())
        r.fail(fmt::format("expected an action name's number below {} (a name of the format's table), found {}",
                           kActionNames.size(), k));
      s.name = kActionNames[k];
    } else {
      check_field(r, s.name, "a signature's action name");
    }
    s.slots.resize(table_size(r, "a signature's number of arguments", bytes_size));
    for (Slot& slot : s.slots) {
      std::uint8_t kind = r.byte("an argument kind");
      if (kind > 2)
        r.fail(fmt::format("expected an argument kind (0 literal, 1 relative rank, 2 value), found {}", kind));
      slot.kind = static_cast<Slot::Kind>(kind);
      if (slot.kind == Slot::Kind::Literal)
        slot.literal = field(r, "a literal argument");
      else if (slot.kind == Slot::Kind::Relative) {
        slot.offset = r.zigzag("a relative rank offset");
        if (slot.offset <= -rank_count || slot.offset >= rank_count)
          r.fail(fmt::format("expected a relative rank offset within +-{}, found {}", rank_count - 1, slot.offset));
      }
    }
  }
}

/// A loop may only repeat a non-empty body made of earlier nodes: the structure is a finite tree.
void check_tree(ByteReader& r, const std::vector<Node>& nodes_out, const std::vector<std::vector<std::uint32_t>>& bodies)
{
  for (std::size_t i = 0; i < nodes_out.size(); ++i) {
    const Node& n = nodes_out[i];
    if (!n.loop)
      continue;
    if (n.ref >= bodies.size())
      r.fail(fmt::format("node {} is a loop over body {}, but there are {} bodies", i, n.ref, bodies.size()));
    const auto& body = bodies[n.ref];
    if (body.empty())
      r.fail(fmt::format("node {} is a loop over body {}, which is empty", i, n.ref));
    for (std::uint32_t id : body)
      if (id >= i)
        r.fail(fmt::format("node {} is a loop over body {}, which holds node {} (a loop body holds earlier nodes only)",
                           i, n.ref, id));
  }
}

/// Version 5's tables (encode_inline_tables): the nodes are numbered as their items are first met, body by body, so
/// that a loop's body holds earlier nodes, as in the older versions' node tables.
void decode_inline_tables(ByteReader& r, int rank_count, std::size_t bytes_size, std::vector<Signature>& signatures,
                          std::vector<Node>& nodes_out, std::vector<std::vector<std::uint32_t>>& bodies, bool numbered)
{
  decode_signatures(r, rank_count, bytes_size, signatures, numbered);
  bodies.resize(table_size(r, "the number of bodies", bytes_size));
  std::map<std::tuple<bool, std::uint32_t, std::uint64_t>, std::uint32_t> ids;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    bodies[b].resize(table_size(r, "a body's length", bytes_size));
    for (std::uint32_t& id : bodies[b]) {
      std::uint64_t code = r.varint("a body's item");
      Node n;
      n.loop = (code & 1) != 0;
      std::uint64_t ref = code >> 1;
      if (!n.loop && ref >= signatures.size())
        r.fail(fmt::format("expected a signature id below {}, found {}", signatures.size(), ref));
      if (n.loop && ref >= b)
        r.fail(fmt::format("expected a loop over a body before body {} (a loop repeats an earlier body), found body {}",
                           b, ref));
      n.ref = static_cast<std::uint32_t>(ref);
      if (n.loop) {
        if (bodies[n.ref].empty())
          r.fail(fmt::format("expected a loop over a non-empty body, found one over body {}, which is empty", n.ref));
        n.count = r.varint("a loop trip count");
        if (n.count == 0)
          r.fail("expected a loop trip count of at least 1, found 0");
      }
      auto [it, added] = ids.try_emplace({n.loop, n.ref, n.count}, static_cast<std::uint32_t>(nodes_out.size()));
      if (added)
        nodes_out.push_back(n);
      id = it->second;
    }
  }
  check_tree(r, nodes_out, bodies);
}

} // namespace

void decode_tables(ByteReader& r, int rank_count, std::size_t bytes_size, std::vector<Signature>& signatures,
                   std::vector<Node>& nodes_out, std::vector<std::vector<std::uint32_t>>& bodies)
{
  decode_signatures(r, rank_count, bytes_size, signatures);
  std::uint64_t nodes = table_size(r, "the number of nodes", bytes_size);
  nodes_out.resize(nodes);
  std::vector<std::uint32_t> loop_body_of(nodes, 0);
  for (std::size_t i = 0; i < nodes; ++i) {
    std::uint64_t code = r.varint("a node");
    Node& n = nodes_out[i];
    n.loop = (code & 1) != 0;
    std::uint64_t ref = code >> 1;
    if (!n.loop && ref >= signatures.size())
      r.fail(fmt::format("expected a signature id below {}, found {}", signatures.size(), ref));
    if (ref > kMaxTable)
      r.fail(fmt::format("expected a body id, found {}", ref));
    n.ref = static_cast<std::uint32_t>(ref);
    if (n.loop) {
      n.count = r.varint("a loop trip count");
      if (n.count == 0)
        r.fail("expected a loop trip count of at least 1, found 0");
    }
  }
  bodies.resize(table_size(r, "the number of bodies", bytes_size));
  for (auto& b : bodies) {
    b.resize(table_size(r, "a body's length", bytes_size));
    for (std::uint32_t& id : b)
      id = static_cast<std::uint32_t>(r.below(nodes, "a node id"));
  }
  check_tree(r, nodes_out, bodies);
}

Meta decode_meta(std::string_view bytes, const std::string& file, unsigned version)
{
  ByteReader r(bytes, file, "structure record");
  Meta m;
  m.rank_count = static_cast<int>(r.below(kMaxRanks, "the number of ranks"));
  if (m.rank_count == 0)
    r.fail("expected at least one rank, found 0");
  std::uint8_t mode = r.byte("the value mode");
  if (mode > 4)
    r.fail(fmt::format("expected a value mode (0 exact, 1 binned, 2 stats, 3 pooled stats, 4 pooled stats with compute "
                       "gaps), found {}", mode));
  m.value_mode = mode == 0 ? "exact" : mode == 1 ? "binned:" + r.string("the bin width of the binned value mode") : "stats";
  m.pooled = mode >= 3;
  m.gaps = mode == 4;
  if (mode == 1 && version >= 4) { // its value blocks may hold bin runs: R must be what binned:R accepts
    std::string_view text = std::string_view(m.value_mode).substr(7);
    std::optional<double> bin = detail::parse_double(text);
    if (!bin || !(*bin > 0) || !(*bin < 1))
      r.fail(fmt::format("expected the R of binned:R, a number between 0 and 1 (exclusive), found '{}'", text));
    m.bin_runs = *bin;
  }
  if (version < version_for(m))
    r.fail(fmt::format("value mode '{}'{} in a version {} file (it needs version {})", m.value_mode,
                       m.pooled ? " (pooled)" : "", version, version_for(m)));
  m.compute_unit = r.string("the compute unit");
  if (version >= 5)
    decode_inline_tables(r, m.rank_count, bytes.size(), m.signatures, m.nodes, m.bodies, version >= 6);
  else
    decode_tables(r, m.rank_count, bytes.size(), m.signatures, m.nodes, m.bodies);
  m.chunks.resize(table_size(r, "the number of value chunks", bytes.size()));
  std::uint64_t area = 0;
  for (ChunkRef& c : m.chunks) {
    c.offset = area;
    c.stored_size = r.below(std::uint64_t{1} << 48, "a value chunk's stored size");
    c.crc = r.u32("a value chunk CRC-32");
    if (version >= 3) {
      c.codec = r.byte("a value chunk's packing");
      if (c.codec > kLzma2)
        r.fail(fmt::format("expected a packing (0 stored, 1 deflate, 2 LZMA2), found {}", c.codec));
    } else {
      c.codec = kDeflate; // or stored, when its sizes are equal
    }
    area += c.stored_size;
  }
  // version 6: differences from the previous entry's, each checked once added
  auto next_id = [&r](std::uint64_t& previous, std::uint64_t limit, std::string_view what) {
    std::int64_t d = r.zigzag(what);
    auto prev = static_cast<std::int64_t>(previous);
    if (d < -prev || d >= static_cast<std::int64_t>(limit) - prev)
      r.fail(fmt::format("expected {} that makes an id below {} (the previous one {} plus it), found {}", what, limit,
                         previous, d));
    previous = static_cast<std::uint64_t>(prev + d);
    return previous;
  };
  m.blocks.resize(table_size(r, "the number of value blocks", bytes.size()));
  std::uint64_t previous_chunk = 0;
  for (BlockRef& b : m.blocks) {
    b.chunk = static_cast<std::uint32_t>(
        version >= 6 ? next_id(previous_chunk, m.chunks.size(), "a value block's chunk (a difference)")
                     : r.below(m.chunks.size(), "a value block's chunk"));
    b.raw_size = r.below(std::uint64_t{1} << 48, "a value block's size");
    ChunkRef& c = m.chunks[b.chunk];
    b.offset = c.raw_size;
    c.raw_size += b.raw_size;
  }
  m.ranks.resize(static_cast<std::size_t>(m.rank_count));
  std::uint8_t dialects = 2; // version 6: the ranks' one dialect, or 2: each rank's in its entry
  bool differences = false;  // version 6: the ids as differences from the previous rank's
  if (version >= 6) {
    dialects = r.byte("the ranks' dialect");
    if (dialects > 5)
      r.fail(fmt::format("expected the ranks' dialect (0 thesis, 1 SimGrid, 2 each rank's own; 3 more when the ids are "
                         "not differences), found {}", dialects));
    m.absolute_ids = dialects >= 3;
    differences = !m.absolute_ids;
    dialects %= 3;
  }
  std::uint64_t previous_root = 0, previous_block = 0;
  for (RankEntry& e : m.ranks) {
    e.root = static_cast<std::uint32_t>(
        differences ? next_id(previous_root, m.bodies.size(), "a rank's structure (a body id difference)")
                    : r.below(m.bodies.size(), "a rank's structure (body id)"));
    std::uint8_t d = dialects < 2 ? dialects : r.byte("a rank's dialect");
    if (d > 1)
      r.fail(fmt::format("expected a dialect (0 thesis, 1 SimGrid), found {}", d));
    e.dialect = static_cast<Dialect>(d);
    e.block = static_cast<std::uint32_t>(
        differences ? next_id(previous_block, m.blocks.size(), "a rank's value block (an id difference)")
                    : r.below(m.blocks.size(), "a rank's value block id"));
    if (m.pooled) {
      e.level = r.string("a rank's level (pooled stats)");
      std::optional<double> v = detail::parse_double(e.level);
      if (!v || !(*v > 0 || (m.gaps && *v == 0)) || !std::isfinite(*v))
        r.fail(fmt::format("expected a rank's level (a {} number), found '{}'", m.gaps ? "non-negative" : "positive",
                           e.level));
    }
  }
  if (mode == 1 && version >= 5) {
    m.stream_bases = true;
    std::uint64_t n = table_size(r, "the number of bin bases", bytes.size());
    for (std::uint64_t i = 0; i < n; ++i) {
      auto sig = static_cast<std::uint32_t>(r.below(m.signatures.size(), "a bin base's signature id"));
      auto slot = static_cast<std::uint32_t>(r.below(value_slots(m.signatures[sig]), "a bin base's value slot"));
      std::int64_t base = r.zigzag("a bin base");
      if (base > Bins::kMaxIndex || base < -Bins::kMaxIndex)
        r.fail(fmt::format("expected a bin base within +-2^40, found {}", base));
      if (!m.bin_bases.empty() && m.bin_bases.rbegin()->first >= std::pair(sig, slot))
        r.fail("expected bin bases in ascending (signature, slot) order, no two alike");
      m.bin_bases.emplace(std::pair(sig, slot), base);
    }
  }
  if (m.pooled)
    decode_schedules(r, bytes.size(), m, version, m.schedules);
  if (!r.at_end())
    r.fail("expected the end of the structure record, found more bytes");
  return m;
}

// ---- value blocks --------------------------------------------------------------------------------------

void find_repeats(Stream& s)
{
  const std::vector<ValueRun>& runs = s.runs;
  std::size_t n = runs.size();
  s.repeats.clear();
  std::size_t i = 0;
  while (i < n) {
    bool found = false;
    for (std::size_t p = 1; p <= kPeriod && i + 2 * p <= n; ++p) {
      if (!std::equal(runs.begin() + static_cast<std::ptrdiff_t>(i), runs.begin() + static_cast<std::ptrdiff_t>(i + p),
                      runs.begin() + static_cast<std::ptrdiff_t>(i + p)))
        continue;
      std::uint64_t count = 2;
      while (i + (count + 1) * p <= n &&
             std::equal(runs.begin() + static_cast<std::ptrdiff_t>(i),
                        runs.begin() + static_cast<std::ptrdiff_t>(i + p),
                        runs.begin() + static_cast<std::ptrdiff_t>(i + count * p)))
        ++count;
      s.repeats.push_back(Repeat{count, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(p)});
      i += count * p;
      found = true;
      break;
    }
    if (!found) {
      s.repeats.push_back(Repeat{1, static_cast<std::uint32_t>(i), 1});
      ++i;
    }
  }
  // keep only the runs the repeats name, as a decoded block has them (a folded trace then equals a loaded one)
  std::vector<ValueRun> kept;
  for (Repeat& rep : s.repeats) {
    std::uint32_t first = static_cast<std::uint32_t>(kept.size());
    for (std::uint32_t k = 0; k < rep.length; ++k)
      kept.push_back(std::move(s.runs[rep.first + k]));
    rep.first = first;
  }
  s.runs = std::move(kept);
}

void encode_run(ByteWriter& w, const ValueRun& run)
{
  if (run.is_int) {
    w.varint(((static_cast<std::uint64_t>(run.first) << 1) ^ static_cast<std::uint64_t>(run.first >> 63)) << 1);
  } else {
    w.varint((std::uint64_t{run.text.size()} << 1) | 1);
    w.bytes(run.text);
  }
  w.varint(run.count);
  if (run.is_int && run.count > 1)
    w.zigzag(run.step);
}

namespace {

ValueRun decode_run(ByteReader& r, std::size_t max_text, BinIndices* bins, bool stream_bases)
{
  ValueRun run;
  std::uint64_t head = r.varint("a value");
  if (head == 1 && bins != nullptr) { // a bin run (binned files of versions 4 and 5): its index is the next of the block's
    std::int64_t k = bins->next(r, stream_bases);
    std::uint64_t count_form = r.varint("a bin run's length and form");
    unsigned form = static_cast<unsigned>(count_form & 1);
    std::string text = bins->bins.text(k, form);
    if (text.empty())
      r.fail(fmt::format("expected a bin index whose representative is a positive {} (binned:{}), found {}",
                         form == 0 ? "integer below 2^61" : "number", bins->bins.r(), k));
    run.is_int = form == 0;
    if (run.is_int)
      std::from_chars(text.data(), text.data() + text.size(), run.first);
    else
      run.text = std::move(text);
    run.count = count_form >> 1;
    if (run.count == 0)
      r.fail("expected a run length of at least 1, found 0");
    return run;
  }
  run.is_int = (head & 1) == 0;
  std::uint64_t u = head >> 1;
  if (run.is_int) {
    run.first = static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
    if (run.first >= kIntLimit || run.first <= -kIntLimit)
      r.fail(fmt::format("expected an integer value within +-2^61, found {}", run.first));
  } else {
    if (u == 0 || u > max_text)
      r.fail(fmt::format("expected a value token of 1 to {} bytes, found a length of {}", max_text, u));
    run.text = std::string(r.take(static_cast<std::size_t>(u), "a value token"));
    check_field(r, run.text, "a value token");
  }
  run.count = r.varint("a run length");
  if (run.count == 0)
    r.fail("expected a run length of at least 1, found 0");
  if (run.is_int && run.count > 1) {
    run.step = r.zigzag("a run step");
    // every value of the run must stay a representable integer
    std::int64_t span = 0;
    std::int64_t last = 0;
    bool overflow = run.count > (std::uint64_t{1} << 62) ||
                    __builtin_mul_overflow(run.step, static_cast<std::int64_t>(run.count - 1), &span) ||
                    __builtin_add_overflow(run.first, span, &last);
    if (overflow || last >= kIntLimit || last <= -kIntLimit)
      r.fail(fmt::format("a run of {} values from {} by {} leaves the integer range", run.count, run.first, run.step));
  }
  return run;
}

} // namespace

namespace {

/// Two integers in a row make a run of two by their difference (extend_run): when both are representatives, two bin
/// runs of one instead (binned integer volumes, which vary, would otherwise pair into runs of random steps). Whether
/// `run` is such a pair: then `a` and `b` are its two runs of one, `ka` and `kb` their bins.
bool bin_pair(const ValueRun& run, const Bins& bins, ValueRun& a, ValueRun& b, std::int64_t& ka, std::int64_t& kb)
{
  if (!run.is_int || run.count != 2 || run.step == 0)
    return false;
  a = b = run;
  a.count = b.count = 1;
  a.step = b.step = 0;
  b.first += run.step;
  unsigned form = 0;
  return bins.find(a, ka, form) && bins.find(b, kb, form);
}

/// The runs of a stream with each bin pair split in two (bin_pair).
void split_bin_pairs(std::vector<ValueRun>& runs, const Bins& bins)
{
  // into a new vector: inserting in place moved every later run at each split (quadratic: the tracer's binned file of
  // a 1,000,000-step run took a minute in MPI_Finalize)
  std::vector<ValueRun> out; // once `split`: runs[0, i) as they are to be
  bool split = false;
  ValueRun a, b;
  std::int64_t ka = 0, kb = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (bin_pair(runs[i], bins, a, b, ka, kb)) {
      if (!split)
        out.assign(std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.begin() + i));
      split = true;
      out.push_back(std::move(a));
      out.push_back(std::move(b));
    } else if (split) {
      out.push_back(std::move(runs[i]));
    }
  }
  if (split)
    runs = std::move(out);
}

} // namespace

// A stream: its signature, slot and number of repeats; each repeat is a varint c, then (c == 0) one run, or
// (c >= 2) a varint length L >= 1 and L runs, read c times. With bins, the block's bin indices come first.
std::string encode_streams(const std::vector<Stream>& streams, const Bins* bins, const BinBases* bases)
{
  ByteWriter w;
  std::vector<std::int64_t> indices; // of the bin runs, in order, less their stream's base
  struct Out {
    std::uint64_t count;
    std::vector<ValueRun> runs;
  };
  std::vector<Out> repeats; // of one stream
  w.varint(streams.size());
  for (const Stream& s : streams) {
    repeats.clear();
    for (const Repeat& rep : s.repeats) {
      std::vector<ValueRun> runs(s.runs.begin() + rep.first, s.runs.begin() + rep.first + rep.length);
      if (bins != nullptr)
        split_bin_pairs(runs, *bins);
      if (rep.count == 1) // a repeat read once holds one run: one each
        for (ValueRun& run : runs)
          repeats.push_back(Out{1, {std::move(run)}});
      else
        repeats.push_back(Out{rep.count, std::move(runs)});
    }
    w.varint(s.signature);
    w.varint(s.slot);
    w.varint(repeats.size());
    std::int64_t base = 0; // version 5: the stream's (a stream with bin runs has one: bases_of saw the same runs)
    bool has_base = false;
    if (bases != nullptr) {
      auto it = bases->find({s.signature, s.slot});
      has_base = it != bases->end();
      base = has_base ? it->second : 0;
    }
    for (const Out& rep : repeats) {
      w.varint(rep.count == 1 ? 0 : rep.count);
      if (rep.count != 1)
        w.varint(rep.runs.size());
      for (const ValueRun& run : rep.runs) {
        std::int64_t k = 0;
        unsigned form = 0;
        if (bins != nullptr && bins->find(run, k, form)) {
          // a bin run: the head 1 (a token of no bytes, which no version writes), its count and form; its bin
          // index goes to the block's bin indices
          w.varint(1);
          w.varint(run.count << 1 | form);
          if (!has_base)
            throw std::logic_error("encode_streams: a stream with bin runs and no bin base");
          indices.push_back(k - base);
        } else {
          encode_run(w, run);
        }
      }
    }
  }
  if (bins == nullptr)
    return std::move(w.out());
  // the bin indices first: their number, then each index less its stream's base in a byte when that is 0 to 254, else
  // the byte 255 and the difference as a zigzag varint (the bases are chosen so that most indices of the file take one
  // byte, which LZMA models far better than varints of the representatives' tokens)
  ByteWriter head;
  head.varint(indices.size());
  for (std::int64_t d : indices) {
    if (d >= 0 && d < 255) {
      head.byte(static_cast<std::uint8_t>(d));
    } else {
      head.byte(255);
      head.zigzag(d);
    }
  }
  head.bytes(w.out());
  return std::move(head.out());
}

void bin_indices(const std::vector<Stream>& streams, const Bins& bins,
                 std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::int64_t>>& out)
{
  // the runs as split_bin_pairs leaves them, without copying the stream's runs (a run per value where volumes vary)
  ValueRun a, b;
  for (const Stream& s : streams) {
    std::vector<std::int64_t>* of_stream = nullptr;
    auto add = [&](std::int64_t k) {
      if (of_stream == nullptr)
        of_stream = &out[{s.signature, s.slot}];
      of_stream->push_back(k);
    };
    for (const ValueRun& run : s.runs) {
      std::int64_t k = 0, k2 = 0;
      unsigned form = 0;
      if (bin_pair(run, bins, a, b, k, k2)) {
        add(k);
        add(k2);
      } else if (bins.find(run, k, form)) {
        add(k);
      }
    }
  }
}

std::int64_t bin_base(std::vector<std::int64_t> indices)
{
  if (indices.empty())
    return 0;
  std::sort(indices.begin(), indices.end());
  std::size_t best = 0, best_count = 0;
  for (std::size_t i = 0, j = 0; i < indices.size(); ++i) {
    while (j < indices.size() && indices[j] - indices[i] < 255)
      ++j;
    if (j - i > best_count) {
      best = i;
      best_count = j - i;
    }
  }
  return indices[best];
}

namespace {

/// The walk of a value block that decode_streams, block_in_place and renumber_streams share, checking every field:
/// `indices` receives the block's bin indices; on_stream(signature, slot, repeats, offset of its first byte, of its
/// first repeat, its first bin index, its bin base) at each stream, on_repeat(count, length) at each repeat,
/// on_run(run) at each run.
template <typename OnStream, typename OnRepeat, typename OnRun>
void walk_block(std::string_view bytes, const Meta& meta, const std::string& file, std::uint32_t block,
                std::vector<std::int64_t>& indices, const OnStream& on_stream, const OnRepeat& on_repeat,
                const OnRun& on_run)
{
  ByteReader r(bytes, file, fmt::format("value block {}", block));
  std::optional<BinIndices> bins;
  if (meta.bin_runs > 0) {
    bins.emplace(BinIndices{Bins(meta.bin_runs), {}, 0});
    indices.resize(table_size(r, "the number of bin runs", bytes.size()));
    if (meta.stream_bases) { // version 5: each index less its stream's base (applied as the bin run is read)
      for (std::int64_t& d : indices) {
        d = r.byte("a bin index");
        if (d == 255) {
          d = r.zigzag("a bin index less its stream's base");
          if (d > 2 * Bins::kMaxIndex || d < -2 * Bins::kMaxIndex)
            r.fail(fmt::format("expected a bin index less its stream's base within +-2^41, found {}", d));
        }
      }
    } else if (!indices.empty()) {
      std::int64_t low = r.zigzag("the base of the bin indices");
      if (low > Bins::kMaxIndex || low < -Bins::kMaxIndex)
        r.fail(fmt::format("expected a bin index within +-2^40, found {}", low));
      for (std::int64_t& k : indices) {
        std::int64_t d = r.byte("a bin index");
        if (d == 255) {
          d = r.zigzag("a bin index less the base");
          if (d > 2 * Bins::kMaxIndex || d < -2 * Bins::kMaxIndex)
            r.fail(fmt::format("expected a bin index within +-2^40, found the base {} plus {}", low, d));
        }
        k = low + d;
        if (k > Bins::kMaxIndex || k < -Bins::kMaxIndex)
          r.fail(fmt::format("expected a bin index within +-2^40, found {}", k));
      }
    }
    bins->indices = indices;
  }
  std::uint64_t streams = table_size(r, "the number of value streams", bytes.size());
  for (std::uint64_t i = 0; i < streams; ++i) {
    std::size_t header = r.pos();
    auto signature = static_cast<std::uint32_t>(r.below(meta.signatures.size(), "a stream's signature id"));
    auto slot = static_cast<std::uint32_t>(r.below(value_slots(meta.signatures[signature]), "a stream's value slot"));
    std::uint64_t repeats = table_size(r, "a stream's number of repeats", bytes.size());
    const std::int64_t* base = nullptr;
    if (bins && meta.stream_bases) {
      auto it = meta.bin_bases.find({signature, slot});
      base = it == meta.bin_bases.end() ? nullptr : &it->second;
      bins->base = base;
      bins->signature = signature;
      bins->slot = slot;
    }
    on_stream(signature, slot, repeats, header, r.pos(), bins ? bins->used : 0, base);
    for (std::uint64_t k = 0; k < repeats; ++k) {
      std::uint64_t count = r.varint("a repeat count");
      if (count == 1)
        r.fail("expected a repeat count of 0 (one run) or at least 2, found 1");
      std::uint64_t length = count == 0 ? 1 : r.below(bytes.size() + 1, "a repeat length");
      if (length == 0)
        r.fail("expected a repeat length of at least 1, found 0");
      on_repeat(count == 0 ? 1 : count, static_cast<std::uint32_t>(length));
      for (std::uint64_t j = 0; j < length; ++j)
        on_run(decode_run(r, bytes.size(), bins ? &*bins : nullptr, meta.stream_bases));
    }
  }
  if (bins && bins->used != indices.size())
    r.fail(fmt::format("expected {} bin runs (the block's bin indices), found {}", indices.size(), bins->used));
  if (!r.at_end())
    r.fail("expected the end of the value block, found more bytes");
}

} // namespace

std::vector<Stream> decode_streams(std::string_view bytes, const Meta& meta, const std::string& file,
                                   std::uint32_t block)
{
  std::vector<Stream> streams;
  std::vector<std::int64_t> indices;
  walk_block(
      bytes, meta, file, block, indices,
      [&](std::uint32_t signature, std::uint32_t slot, std::uint64_t repeats, std::size_t, std::size_t, std::size_t,
          const std::int64_t*) {
        Stream& s = streams.emplace_back();
        s.signature = signature;
        s.slot = slot;
        s.repeats.reserve(repeats);
      },
      [&](std::uint64_t count, std::uint32_t length) {
        Stream& s = streams.back();
        s.repeats.push_back(Repeat{count, static_cast<std::uint32_t>(s.runs.size()), length});
      },
      [&](ValueRun&& run) { streams.back().runs.push_back(std::move(run)); });
  return streams;
}

BlockInPlace block_in_place(std::string bytes, const Meta& meta, const std::string& file, std::uint32_t block)
{
  BlockInPlace b;
  b.meta = &meta;
  walk_block(
      bytes, meta, file, block, b.bin_indices,
      [&](std::uint32_t signature, std::uint32_t slot, std::uint64_t repeats, std::size_t, std::size_t offset,
          std::size_t first_bin, const std::int64_t* base) {
        b.streams.push_back(BlockInPlace::StreamAt{signature, slot, repeats, offset, first_bin, base});
      },
      [](std::uint64_t, std::uint32_t) {}, [](ValueRun&&) {});
  b.bytes = std::move(bytes);
  return b;
}

std::string renumber_streams(std::string_view bytes, const Meta& meta, const std::vector<std::int64_t>& signatures,
                             const std::string& what, std::uint32_t block)
{
  struct Span {
    std::uint32_t signature; // renumbered
    std::uint32_t slot;
    std::uint64_t repeats;
    std::size_t from, to; // its repeats' bytes
  };
  std::vector<Span> spans;
  std::vector<std::int64_t> indices; // none: a part's blocks have no bins
  walk_block(
      bytes, meta, what, block, indices,
      [&](std::uint32_t signature, std::uint32_t slot, std::uint64_t repeats, std::size_t header, std::size_t offset,
          std::size_t, const std::int64_t*) {
        if (signature >= signatures.size() || signatures[signature] < 0)
          throw TraceError(fmt::format("{}: error: value block {}: expected values of its ranks' signatures, found a "
                                       "stream of signature {}, which no action of its ranks has",
                                       what, block, signature));
        if (!spans.empty())
          spans.back().to = header;
        spans.push_back(Span{static_cast<std::uint32_t>(signatures[signature]), slot, repeats, offset, bytes.size()});
      },
      [](std::uint64_t, std::uint32_t) {}, [](ValueRun&&) {});
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return std::pair(a.signature, a.slot) < std::pair(b.signature, b.slot); });
  ByteWriter w;
  w.out().reserve(bytes.size() + 16);
  w.varint(spans.size());
  for (const Span& s : spans) {
    w.varint(s.signature);
    w.varint(s.slot);
    w.varint(s.repeats);
    w.bytes(bytes.substr(s.from, s.to - s.from));
  }
  return std::move(w.out());
}

void InPlaceCursor::start(const BlockInPlace& b, std::size_t stream)
{
  block = &b;
  stream_ = stream;
  const BlockInPlace::StreamAt& at = b.streams[stream];
  at_ = at.offset;
  bin_ = at.first_bin;
  repeats_ = at.repeats;
  passes_ = 0;
  runs_left_ = 0;
  load();
}

void InPlaceCursor::load()
{
  // checked by block_in_place: a failure here is a bug (the messages name no record)
  static const std::string kChecked = "(value block, checked)";
  std::string_view bytes = block->bytes;
  if (runs_left_ == 0) {
    if (passes_ > 0) { // the repeat's runs once more
      --passes_;
      at_ = repeat_at_;
      bin_ = repeat_bin_;
    } else if (repeats_ > 0) {
      --repeats_;
      ByteReader r(bytes.substr(at_), kChecked, {});
      std::uint64_t count = r.varint("a repeat count");
      length_ = count == 0 ? 1 : r.varint("a repeat length");
      passes_ = count == 0 ? 0 : count - 1;
      at_ += r.pos();
      repeat_at_ = at_;
      repeat_bin_ = bin_;
    } else {
      left = 0;
      return;
    }
    runs_left_ = length_;
  }
  --runs_left_;
  ByteReader r(bytes.substr(at_), kChecked, {});
  ValueRun run;
  if (block->meta->bin_runs > 0) {
    const BlockInPlace::StreamAt& at = block->streams[stream_];
    BinIndices bins{Bins(block->meta->bin_runs), block->bin_indices, bin_, at.base, at.signature, at.slot};
    run = decode_run(r, bytes.size(), &bins, block->meta->stream_bases);
    bin_ = bins.used;
  } else {
    run = decode_run(r, bytes.size());
  }
  at_ += r.pos();
  value = run.first;
  step = run.is_int ? run.step : 0;
  left = run.count;
  if (run.is_int) {
    text = nullptr;
  } else {
    token_ = std::move(run.text);
    text = &token_;
  }
}

// ---- deflate -------------------------------------------------------------------------------------------

std::string_view chunk_dictionary(std::string_view chunk0)
{
  constexpr std::size_t kWindow = 32 * 1024;
  return chunk0.size() > kWindow ? chunk0.substr(chunk0.size() - kWindow) : chunk0;
}

namespace {

std::string deflate(std::string_view raw, std::string_view dictionary)
{
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw TraceError("error: zlib cannot start compressing");
  if (!dictionary.empty())
    deflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()), static_cast<uInt>(dictionary.size()));
  std::string out(deflateBound(&z, static_cast<uLong>(raw.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = ::deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END)
    throw TraceError(fmt::format("error: zlib cannot compress a record of {} bytes (code {})", raw.size(), rc));
  // a record that deflate does not shrink is stored as it is: its stored size is then its size
  return out.size() < raw.size() ? out : std::string(raw);
}

std::string inflate(std::string_view stored, std::uint64_t raw_size, const std::string& file,
                    std::string_view record, std::string_view dictionary)
{
  // a deflate stream expands at most ~1032:1; a larger claim is corrupt (and must not allocate)
  if (raw_size > stored.size() * 1040 + 64)
    throw TraceError(fmt::format("{}: error: {}: claims {} bytes from {} compressed ones (corrupt compressed trace)",
                                 file, record, raw_size, stored.size()));
  if (stored.size() == raw_size) // stored as it is
    return std::string(stored);
  std::string out(raw_size, '\0');
  z_stream z{};
  if (inflateInit2(&z, -15) != Z_OK)
    throw TraceError(fmt::format("{}: error: {}: zlib cannot start decompressing", file, record));
  if (!dictionary.empty())
    inflateSetDictionary(&z, reinterpret_cast<const Bytef*>(dictionary.data()), static_cast<uInt>(dictionary.size()));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(stored.data()));
  z.avail_in = static_cast<uInt>(stored.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = ::inflate(&z, Z_FINISH);
  std::uint64_t produced = z.total_out;
  bool ended = rc == Z_STREAM_END && z.avail_in == 0;
  inflateEnd(&z);
  if (!ended || produced != raw_size)
    throw TraceError(fmt::format("{}: error: {}: cannot decompress it ({}; expected {} bytes) (corrupt compressed trace)",
                                 file, record, ended ? "wrong size" : zError(rc == Z_STREAM_END ? Z_DATA_ERROR : rc),
                                 raw_size));
  return out;
}

/// liblzma allocates its match finder's tables for every record it packs (half a megabyte at the smallest
/// dictionary, zeroed); glibc serves blocks that large as fresh mappings, so every record cost ~150 us of page faults,
/// more than packing a small record (and a record shorter than kLzmaSample is packed once per tried property). These
/// blocks are kept by the thread for its next record instead; blocks above kKeptBlock (large records, whose packing
/// dwarfs a mapping) are returned at once, and at most kKeptBlocks are kept.
class LzmaBlocks {
 public:
  static const lzma_allocator* allocator()
  {
    static const lzma_allocator a{&LzmaBlocks::alloc, &LzmaBlocks::free, nullptr};
    return &a;
  }

 private:
  static constexpr std::size_t kKeptBlock = std::size_t{4} << 20;
  static constexpr std::size_t kKeptBlocks = 8;
  // each block starts with its size, at an offset that keeps the caller's part aligned for any type
  static constexpr std::size_t kHeader = alignof(std::max_align_t);

  struct Kept {
    std::vector<void*> blocks;
    ~Kept()
    {
      for (void* b : blocks)
        std::free(b);
    }
  };
  static Kept& kept()
  {
    thread_local Kept k;
    return k;
  }
  static std::size_t size_of(void* block) { return *static_cast<std::size_t*>(block); }

  static void* alloc(void*, std::size_t count, std::size_t size)
  {
    if (size != 0 && count > (std::numeric_limits<std::size_t>::max() - kHeader) / size)
      return nullptr;
    std::size_t n = count * size;
    auto& blocks = kept().blocks;
    auto found = std::find_if(blocks.begin(), blocks.end(), [n](void* b) { return size_of(b) == n; });
    void* block = nullptr;
    if (found != blocks.end()) {
      block = *found;
      blocks.erase(found);
    } else {
      block = std::malloc(n + kHeader);
      if (block == nullptr)
        return nullptr;
      *static_cast<std::size_t*>(block) = n;
    }
    return static_cast<char*>(block) + kHeader;
  }

  static void free(void*, void* p)
  {
    if (p == nullptr)
      return;
    void* block = static_cast<char*>(p) - kHeader;
    auto& blocks = kept().blocks;
    if (size_of(block) > kKeptBlock || blocks.size() >= kKeptBlocks) {
      std::free(block);
      return;
    }
    blocks.push_back(block);
  }
};

/// LZMA2 at preset 6 with a dictionary the size of the record (and the preset dictionary) rounded up to a power of 2:
/// the writer and the reader derive the same options from the raw size.
lzma_options_lzma lzma_options(std::uint64_t raw_size, std::string_view dictionary, std::uint8_t props)
{
  lzma_options_lzma o;
  lzma_lzma_preset(&o, 6);
  o.lc = props % 9;
  o.lp = props / 9 % 5;
  o.pb = props / 45;
  std::uint64_t need = raw_size + dictionary.size();
  std::uint32_t size = LZMA_DICT_SIZE_MIN;
  while (size < need && size < (std::uint32_t{1} << 26))
    size <<= 1;
  o.dict_size = size;
  if (!dictionary.empty()) {
    o.preset_dict = reinterpret_cast<const std::uint8_t*>(dictionary.data());
    o.preset_dict_size = static_cast<std::uint32_t>(dictionary.size());
  }
  return o;
}

/// `trial`: packed only to compare properties, in liblzma's fast mode (hash chains, greedy parsing: about a fifth of
/// the normal mode's cost on these records), whose bytes are never written.
std::string lzma_pack(std::string_view raw, std::string_view dictionary, std::uint8_t props, bool trial = false)
{
  lzma_options_lzma o = lzma_options(raw.size(), dictionary, props);
  o.dict_size = std::min(o.dict_size, kLzmaWriterDict);
  if (trial) {
    o.mode = LZMA_MODE_FAST;
    o.mf = LZMA_MF_HC4;
    o.nice_len = 32;
  }
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &o}, {LZMA_VLI_UNKNOWN, nullptr}};
  std::string out(raw.size() + raw.size() / 16 + 256, '\0');
  std::size_t pos = 0;
  lzma_ret rc = lzma_raw_buffer_encode(filters, LzmaBlocks::allocator(), reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size(),
                                       reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size());
  if (rc == LZMA_BUF_ERROR) // it does not shrink
    return std::string(raw);
  if (rc != LZMA_OK)
    throw TraceError(fmt::format("error: liblzma cannot compress a record of {} bytes (code {})", raw.size(),
                                 static_cast<int>(rc)));
  out.resize(pos);
  return out.size() < raw.size() ? out : std::string(raw);
}

std::string lzma_unpack(std::string_view stored, std::uint64_t raw_size, const std::string& file,
                        std::string_view record, std::string_view dictionary, std::uint8_t props)
{
  // LZMA2 expands at most a few thousand to one; a larger claim is corrupt (and must not allocate)
  if (raw_size > stored.size() * 8192 + 4096)
    throw TraceError(fmt::format("{}: error: {}: claims {} bytes from {} compressed ones (corrupt compressed trace)",
                                 file, record, raw_size, stored.size()));
  lzma_options_lzma o = lzma_options(raw_size, dictionary, props);
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &o}, {LZMA_VLI_UNKNOWN, nullptr}};
  std::string out(raw_size, '\0');
  std::size_t in_pos = 0;
  std::size_t out_pos = 0;
  lzma_ret rc = lzma_raw_buffer_decode(filters, LzmaBlocks::allocator(), reinterpret_cast<const std::uint8_t*>(stored.data()), &in_pos,
                                       stored.size(), reinterpret_cast<std::uint8_t*>(out.data()), &out_pos, out.size());
  if (rc != LZMA_OK || in_pos != stored.size() || out_pos != raw_size)
    throw TraceError(fmt::format("{}: error: {}: cannot decompress it ({}; expected {} bytes) (corrupt compressed trace)",
                                 file, record,
                                 rc == LZMA_OK ? "wrong size" : rc == LZMA_BUF_ERROR ? "more data than said" : "bad data",
                                 raw_size));
  return out;
}

} // namespace

std::string pack(std::string_view raw, unsigned version, std::uint8_t& codec, std::string_view dictionary,
                 std::optional<std::uint8_t> only)
{
  // deflate packs tiny records better than LZMA; from a chunk's size on it never did on our traces, and costs 5 % of
  // packing a large one
  bool deflate_too = version < 3 || raw.size() <= kChunkBytes;
  std::string best = deflate_too ? deflate(raw, dictionary) : std::string(raw);
  codec = best.size() < raw.size() ? kDeflate : kStored;
  if (version < 3)
    return best;
  // the properties: liblzma's preset before version 5; then `only`, or the one of kLzmaTried that packs the record's
  // first kLzmaSample bytes smallest in a trial pass (fast mode: six normal passes cost more than xz -6 on the whole
  // text of small traces; on the SMPI mini-applications' traces the fast trials give files within -1..+24 bytes of
  // six normal passes over the whole record), then the record packed once with it
  std::vector<std::uint8_t> tried = version < 5 ? std::vector<std::uint8_t>{kLzmaProps}
                                    : only      ? std::vector<std::uint8_t>{*only}
                                                : std::vector<std::uint8_t>(kLzmaTried.begin(), kLzmaTried.end());
  if (tried.size() > 1) {
    std::size_t smallest = std::numeric_limits<std::size_t>::max();
    std::uint8_t chosen = tried[0];
    for (std::uint8_t p : tried) {
      std::size_t n = lzma_pack(raw.substr(0, kLzmaSample), dictionary, p, true).size();
      if (n < smallest) {
        smallest = n;
        chosen = p;
      }
    }
    tried = {chosen};
  }
  for (std::uint8_t props : tried) {
    std::string lzma = lzma_pack(raw, dictionary, props);
    if (version >= 5)
      lzma.insert(lzma.begin(), static_cast<char>(props));
    if (lzma.size() < best.size()) {
      codec = kLzma2;
      best = std::move(lzma);
    }
  }
  return best;
}

std::string unpack(std::string_view stored, std::uint64_t raw_size, unsigned version, std::uint8_t codec,
                   const std::string& file, std::string_view record, std::string_view dictionary)
{
  if (version < 3)
    return inflate(stored, raw_size, file, record, dictionary);
  if (codec == kStored) {
    if (stored.size() != raw_size)
      throw TraceError(fmt::format("{}: error: {}: stored as it is, but {} bytes for {} (corrupt compressed trace)",
                                   file, record, stored.size(), raw_size));
    return std::string(stored);
  }
  if (stored.size() == raw_size) // packed records are smaller than they are raw
    throw TraceError(fmt::format("{}: error: {}: packed, but as large as it is raw (corrupt compressed trace)", file,
                                 record));
  if (codec != kLzma2)
    return inflate(stored, raw_size, file, record, dictionary);
  std::uint8_t props = kLzmaProps;
  if (version >= 5) { // its properties byte first
    if (stored.empty())
      throw TraceError(fmt::format("{}: error: {}: expected its LZMA properties byte, found no byte (corrupt compressed "
                                   "trace)", file, record));
    props = static_cast<std::uint8_t>(stored[0]);
    if (!lzma_props_ok(props))
      throw TraceError(fmt::format("{}: error: {}: expected LZMA properties (a byte (pb * 5 + lp) * 9 + lc with lc + lp "
                                   "<= 4, pb <= 4), found {} (corrupt compressed trace)", file, record, props));
    stored.remove_prefix(1);
  }
  return lzma_unpack(stored, raw_size, file, record, dictionary, props);
}

std::uint32_t crc32_of(std::string_view bytes)
{
  return static_cast<std::uint32_t>(
      ::crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

bool canonical_int(std::string_view token, std::int64_t& value)
{
  std::string_view digits = token.starts_with('-') ? token.substr(1) : token;
  if (digits.empty() || digits.size() > 19 || (digits[0] == '0' && (digits.size() > 1 || token.size() > 1)))
    return false;
  for (char c : digits)
    if (c < '0' || c > '9')
      return false;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  return ec == std::errc() && end == token.data() + token.size() && value < kIntLimit && value > -kIntLimit;
}

std::string file_head(unsigned version, const std::string& meta)
{
  ByteWriter head;
  head.bytes(std::string_view(kMagic.data(), kMagic.size()));
  head.varint(version);
  std::uint8_t codec = 0;
  std::string stored = pack(meta, version, codec);
  head.varint(meta.size());
  head.varint(stored.size());
  head.u32(crc32_of(stored));
  if (version >= 3)
    head.byte(codec);
  head.bytes(stored);
  return std::move(head.out());
}

} // namespace tit::trace::cformat
