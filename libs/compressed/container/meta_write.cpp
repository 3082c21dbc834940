// The structure record of a compressed trace as it is written (docs/compressed-format.md, "Structure record").
#include "compressed/container/container.hpp"
#include "compressed/values/values.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tit::trace::cformat {

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
  encode_signatures(w, m.signatures, true);
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

namespace {

/// The value mode: 0 exact; 1 binned, then R as written ("binned:0.01"); 2 stats with per-rank draws; 4 stats with
/// schedules shared by the ranks of a block, folded with one compute per gap between non-compute actions, a compute of
/// volume 0 being no action.
void encode_mode(ByteWriter& w, const Meta& m)
{
  if (m.value_mode.starts_with("binned:")) {
    w.byte(1);
    w.string(std::string_view(m.value_mode).substr(7));
  } else if (m.value_mode == "stats") {
    w.byte(m.pooled ? (m.gaps ? 4 : 3) : 2);
  } else {
    w.byte(0);
  }
}

std::int64_t difference(std::uint64_t now, std::uint64_t& before)
{
  auto d = static_cast<std::int64_t>(now - before);
  before = now;
  return d;
}

/// The chunks and blocks: offsets and chunk sizes are implied (chunks follow each other in the value area, blocks each
/// other in their chunk, and a chunk's raw bytes are its blocks'); a block's chunk as a difference from the previous
/// block's.
void encode_chunks(ByteWriter& w, const Meta& m)
{
  w.varint(m.chunks.size());
  for (const ChunkRef& c : m.chunks) {
    w.varint(c.stored_size);
    w.u32(c.crc);
    w.byte(c.codec);
  }
  w.varint(m.blocks.size());
  std::uint64_t previous = 0;
  for (const BlockRef& b : m.blocks) {
    w.zigzag(difference(b.chunk, previous));
    w.varint(b.raw_size);
  }
}

/// The rank entries: a rank's structure and value block as differences from the previous entry's (0 for the first),
/// and the dialect once when every rank has it (2: each rank's in its entry), so that the tables of a tiny file cost
/// LZMA or deflate a few bytes (a rank per block: differences of 1, rank after rank); 3 more on the dialect byte when
/// the ids are written as they are (ranks sharing blocks out of order).
void encode_ranks(ByteWriter& w, const Meta& m, const std::vector<std::uint32_t>& body_id)
{
  bool one_dialect = std::all_of(m.ranks.begin(), m.ranks.end(),
                                 [&m](const RankEntry& e) { return e.dialect == m.ranks.front().dialect; });
  w.byte(static_cast<std::uint8_t>((one_dialect ? static_cast<int>(m.ranks.front().dialect) : 2) +
                                   (m.absolute_ids ? 3 : 0)));
  bool differences = !m.absolute_ids;
  std::uint64_t previous_root = 0, previous_block = 0;
  for (const RankEntry& r : m.ranks) {
    if (differences)
      w.zigzag(difference(body_id[r.root], previous_root));
    else
      w.varint(body_id[r.root]);
    if (!one_dialect)
      w.byte(static_cast<std::uint8_t>(r.dialect));
    if (differences)
      w.zigzag(difference(r.block, previous_block));
    else
      w.varint(r.block);
    if (m.pooled)
      w.string(r.level);
  }
}

/// Binned: the bin bases, each: signature | value-slot ordinal | base (zigzag).
void encode_bin_bases(ByteWriter& w, const Meta& m)
{
  w.varint(m.bin_bases.size());
  for (const auto& [key, base] : m.bin_bases) {
    w.varint(key.first);
    w.varint(key.second);
    w.zigzag(base);
  }
}

/// Pooled stats: the schedules, each: body id | position | value-slot ordinal | order byte (0 in order, 1 the rank's
/// order and level, 2 the order every rank shares and the rank's level; plus 4: a head follows the draws; plus 8:
/// rare values follow; plus 16, version 7: phases follow) | kStatsSlots runs of one value | (plus 4) the head's
/// length, 1 to kStatsSlots, then that many runs of one value | (plus 8) the rare values' count, 1 to kStatsSlots, then
/// each: rank | occurrence | a run of one value; ascending by (rank, occurrence) | (plus 16) the number of phases, 2 to
/// kMaxPhases, then that many runs of one value.
void encode_schedule(ByteWriter& w, const Schedule& s)
{
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

void encode_schedules(ByteWriter& w, const Meta& m, const std::vector<std::uint32_t>& body_id)
{
  std::vector<Schedule> schedules = m.schedules;
  for (Schedule& s : schedules)
    s.body = body_id[s.body];
  std::sort(schedules.begin(), schedules.end(), [](const Schedule& a, const Schedule& b) {
    return std::tie(a.body, a.position, a.slot) < std::tie(b.body, b.position, b.slot);
  });
  w.varint(schedules.size());
  for (const Schedule& s : schedules)
    encode_schedule(w, s);
}

} // namespace

std::string encode_meta(const Meta& m)
{
  ByteWriter w;
  w.varint(static_cast<std::uint64_t>(m.rank_count));
  encode_mode(w, m);
  w.string(m.compute_unit);
  std::vector<std::uint32_t> body_id; // new ids of the bodies (the same unless renumbered)
  encode_inline_tables(w, m, body_id);
  encode_chunks(w, m);
  encode_ranks(w, m, body_id);
  if (m.value_mode.starts_with("binned:"))
    encode_bin_bases(w, m);
  if (m.pooled)
    encode_schedules(w, m, body_id);
  return std::move(w.out());
}

} // namespace tit::trace::cformat
