// The structure record of a compressed trace as it is read, every index, count and loop body checked
// (docs/compressed-format.md, "Structure record").
#include "compressed/container/container.hpp"
#include "compressed/values/values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tit::trace::cformat {

namespace {

constexpr std::uint64_t kMaxRanks = 1u << 24;

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

/// The structure record's tables (encode_inline_tables): signatures naming their action by its number, the nodes
/// numbered as their items are first met, body by body, so that a loop's body holds earlier nodes.
void decode_inline_tables(ByteReader& r, int rank_count, std::size_t bytes_size, std::vector<Signature>& signatures,
                          std::vector<Node>& nodes_out, std::vector<std::vector<std::uint32_t>>& bodies)
{
  decode_signatures(r, rank_count, bytes_size, signatures, true);
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

namespace {

/// The value mode: 0 exact, 1 binned (R follows: its value blocks may hold bin runs), 2 `stats` with each rank's
/// draws in its streams (load_compressed's form of a pooled file, written back by tools), 4 `stats` pooled with compute
/// gaps. (3, pooled without gaps, was written by format versions before 6 only.)
void decode_mode(ByteReader& r, Meta& m)
{
  std::uint8_t mode = r.byte("the value mode");
  if (mode > 4 || mode == 3)
    r.fail(fmt::format("expected a value mode (0 exact, 1 binned, 2 stats, 4 pooled stats with compute gaps), found {}",
                       mode));
  m.value_mode = mode == 0 ? "exact" : mode == 1 ? "binned:" + r.string("the bin width of the binned value mode") : "stats";
  m.pooled = mode == 4;
  m.gaps = m.pooled;
  if (mode == 1) { // R must be what binned:R accepts
    std::string_view text = std::string_view(m.value_mode).substr(7);
    std::optional<double> bin = detail::parse_double(text);
    if (!bin || !(*bin > 0) || !(*bin < 1))
      r.fail(fmt::format("expected the R of binned:R, a number between 0 and 1 (exclusive), found '{}'", text));
    m.bin_runs = *bin;
  }
}

void decode_chunks(ByteReader& r, std::size_t size, Meta& m)
{
  m.chunks.resize(table_size(r, "the number of value chunks", size));
  std::uint64_t area = 0;
  for (ChunkRef& c : m.chunks) {
    c.offset = area;
    c.stored_size = r.below(std::uint64_t{1} << 48, "a value chunk's stored size");
    c.crc = r.u32("a value chunk CRC-32");
    c.codec = r.byte("a value chunk's packing");
    if (c.codec > kLzma2)
      r.fail(fmt::format("expected a packing (0 stored, 1 deflate, 2 LZMA2), found {}", c.codec));
    area += c.stored_size;
  }
}

/// An id written as its difference from the previous one, checked once added.
std::uint64_t next_id(ByteReader& r, std::uint64_t& previous, std::uint64_t limit, std::string_view what)
{
  std::int64_t d = r.zigzag(what);
  auto prev = static_cast<std::int64_t>(previous);
  if (d < -prev || d >= static_cast<std::int64_t>(limit) - prev)
    r.fail(fmt::format("expected {} that makes an id below {} (the previous one {} plus it), found {}", what, limit,
                       previous, d));
  previous = static_cast<std::uint64_t>(prev + d);
  return previous;
}

void decode_blocks(ByteReader& r, std::size_t size, Meta& m)
{
  m.blocks.resize(table_size(r, "the number of value blocks", size));
  std::uint64_t previous_chunk = 0;
  for (BlockRef& b : m.blocks) {
    b.chunk =
        static_cast<std::uint32_t>(next_id(r, previous_chunk, m.chunks.size(), "a value block's chunk (a difference)"));
    b.raw_size = r.below(std::uint64_t{1} << 48, "a value block's size");
    ChunkRef& c = m.chunks[b.chunk];
    b.offset = c.raw_size;
    c.raw_size += b.raw_size;
  }
}

/// The rank entries: the ranks' dialect byte (0 thesis, 1 SimGrid, 2 each rank's own; 3 more when the ids are not
/// differences), then per rank its structure, dialect, value block and (pooled `stats`) level.
void decode_ranks(ByteReader& r, Meta& m)
{
  m.ranks.resize(static_cast<std::size_t>(m.rank_count));
  std::uint8_t dialects = r.byte("the ranks' dialect");
  if (dialects > 5)
    r.fail(fmt::format("expected the ranks' dialect (0 thesis, 1 SimGrid, 2 each rank's own; 3 more when the ids are "
                       "not differences), found {}", dialects));
  m.absolute_ids = dialects >= 3;
  bool differences = !m.absolute_ids;
  dialects %= 3;
  std::uint64_t previous_root = 0, previous_block = 0;
  for (RankEntry& e : m.ranks) {
    e.root = static_cast<std::uint32_t>(
        differences ? next_id(r, previous_root, m.bodies.size(), "a rank's structure (a body id difference)")
                    : r.below(m.bodies.size(), "a rank's structure (body id)"));
    std::uint8_t d = dialects < 2 ? dialects : r.byte("a rank's dialect");
    if (d > 1)
      r.fail(fmt::format("expected a dialect (0 thesis, 1 SimGrid), found {}", d));
    e.dialect = static_cast<Dialect>(d);
    e.block = static_cast<std::uint32_t>(
        differences ? next_id(r, previous_block, m.blocks.size(), "a rank's value block (an id difference)")
                    : r.below(m.blocks.size(), "a rank's value block id"));
    if (m.pooled) {
      e.level = r.string("a rank's level (pooled stats)");
      std::optional<double> v = detail::parse_double(e.level);
      if (!v || !(*v >= 0) || !std::isfinite(*v))
        r.fail(fmt::format("expected a rank's level (a non-negative number), found '{}'", e.level));
    }
  }
}

/// `binned:R`: the bin index each stream's bin runs count from, per (signature, value slot).
void decode_bin_bases(ByteReader& r, std::size_t size, Meta& m)
{
  std::uint64_t n = table_size(r, "the number of bin bases", size);
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

} // namespace

Meta decode_meta(std::string_view bytes, const std::string& file, unsigned version)
{
  ByteReader r(bytes, file, "structure record");
  Meta m;
  m.rank_count = static_cast<int>(r.below(kMaxRanks, "the number of ranks"));
  if (m.rank_count == 0)
    r.fail("expected at least one rank, found 0");
  decode_mode(r, m);
  m.compute_unit = r.string("the compute unit");
  decode_inline_tables(r, m.rank_count, bytes.size(), m.signatures, m.nodes, m.bodies);
  decode_chunks(r, bytes.size(), m);
  decode_blocks(r, bytes.size(), m);
  decode_ranks(r, m);
  if (m.bin_runs > 0)
    decode_bin_bases(r, bytes.size(), m);
  if (m.pooled)
    decode_schedules(r, bytes.size(), m, version, m.schedules);
  if (!r.at_end())
    r.fail("expected the end of the structure record, found more bytes");
  return m;
}

} // namespace tit::trace::cformat
