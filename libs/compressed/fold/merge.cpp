// Parts of compressed traces (fold/fold.hpp): the interned tables, merging ranks' parts with canonical
// ids (so that any grouping of the same ranks gives the same bytes), and a part's byte form for sending it to another
// process (the tracer's merge along a tree).
#include "compressed/fold/fold.hpp"
#include "compressed/container/container.hpp"
#include "compressed/values/values.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tit::trace::cformat {

// ---- Parts -----------------------------------------------------------------------------------------------

namespace {

/// merge_parts' walk of one source part: its ids mapped to the merged ones as they are met.
struct Source {
  Part* part;
  Meta meta; // the part's signatures, for renumber_streams
  std::vector<std::int64_t> body_map, sig_map, block_map;
};

class Merger {
public:
  std::uint32_t import_body(Source& s, std::uint32_t b)
  {
    if (s.body_map[b] >= 0)
      return static_cast<std::uint32_t>(s.body_map[b]);
    std::vector<std::uint32_t> ids;
    ids.reserve(s.part->bodies[b].size());
    for (std::uint32_t id : s.part->bodies[b]) {
      Node n = s.part->nodes[id];
      n.ref = n.loop ? import_body(s, n.ref) : import_signature(s, n.ref);
      ids.push_back(out_.node(n));
    }
    std::uint32_t mine = out_.body(std::move(ids));
    s.body_map[b] = mine;
    return mine;
  }

  std::uint32_t import_block(Source& s, std::uint32_t b, const std::string& what)
  {
    if (s.block_map[b] >= 0)
      return static_cast<std::uint32_t>(s.block_map[b]);
    std::string raw = renumber_streams(s.part->blocks[b], s.meta, s.sig_map, what, b);
    auto [it, added] = block_ids_.try_emplace(raw, static_cast<std::uint32_t>(blocks_.size()));
    if (added)
      blocks_.push_back(std::move(raw));
    s.block_map[b] = it->second;
    return it->second;
  }

  void finish(Part& p)
  {
    out_.move_into(p.signatures, p.nodes, p.bodies);
    p.blocks = std::move(blocks_);
  }

private:
  std::uint32_t import_signature(Source& s, std::uint32_t id)
  {
    if (s.sig_map[id] < 0)
      s.sig_map[id] = out_.signature(Signature(s.meta.signatures[id]));
    return static_cast<std::uint32_t>(s.sig_map[id]);
  }

  Tables out_;
  std::vector<std::string> blocks_;
  std::unordered_map<std::string, std::uint32_t> block_ids_;
};

} // namespace

Part merge_parts(std::vector<Part> parts)
{
  std::vector<Source> sources;
  sources.reserve(parts.size());
  struct Entry {
    int rank;
    std::size_t source;
    std::size_t index;
  };
  std::vector<Entry> entries;
  for (Part& p : parts) {
    Source s{&p, {}, {}, {}, {}};
    s.meta.signatures = std::move(p.signatures);
    s.body_map.assign(p.bodies.size(), -1);
    s.sig_map.assign(s.meta.signatures.size(), -1);
    s.block_map.assign(p.blocks.size(), -1);
    for (std::size_t i = 0; i < p.ranks.size(); ++i)
      entries.push_back(Entry{p.ranks[i].rank, sources.size(), i});
    sources.push_back(std::move(s));
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.rank < b.rank; });
  Part out;
  Merger merger;
  for (const Entry& e : entries) {
    Source& s = sources[e.source];
    const Part::RankPart& r = s.part->ranks[e.index];
    if (!out.ranks.empty() && out.ranks.back().rank == r.rank)
      throw TraceError(fmt::format("error: rank {} is in two parts of a compressed trace", r.rank));
    std::uint32_t root = merger.import_body(s, r.root);
    std::uint32_t block = merger.import_block(s, r.block, fmt::format("rank {}'s part", r.rank));
    out.ranks.push_back(Part::RankPart{r.rank, root, r.dialect, block});
  }
  merger.finish(out);
  return out;
}

std::string encode_part(const Part& part)
{
  ByteWriter w;
  encode_tables(w, part.signatures, part.nodes, part.bodies);
  w.varint(part.ranks.size());
  for (const Part::RankPart& r : part.ranks) {
    w.varint(static_cast<std::uint64_t>(r.rank));
    w.varint(r.root);
    w.byte(static_cast<std::uint8_t>(r.dialect));
    w.varint(r.block);
  }
  w.varint(part.blocks.size());
  for (const std::string& b : part.blocks)
    w.string(b);
  return std::move(w.out());
}

Part decode_part(std::string_view bytes, const std::string& what)
{
  ByteReader r(bytes, what, "part of a compressed trace");
  Part p;
  decode_tables(r, 1 << 24, bytes.size(), p.signatures, p.nodes, p.bodies);
  p.ranks.resize(r.below(bytes.size() + 1, "the number of ranks"));
  std::vector<std::size_t> block_refs;
  for (Part::RankPart& e : p.ranks) {
    e.rank = static_cast<int>(r.below(1 << 24, "a rank"));
    e.root = static_cast<std::uint32_t>(r.below(p.bodies.size(), "a rank's structure (body id)"));
    std::uint8_t d = r.byte("a rank's dialect");
    if (d > 1)
      r.fail(fmt::format("expected a dialect (0 thesis, 1 SimGrid), found {}", d));
    e.dialect = static_cast<Dialect>(d);
    e.block = static_cast<std::uint32_t>(r.varint("a rank's value block id"));
  }
  p.blocks.resize(r.below(bytes.size() + 1, "the number of value blocks"));
  for (std::string& b : p.blocks)
    b = r.string("a value block");
  for (const Part::RankPart& e : p.ranks)
    if (e.block >= p.blocks.size())
      r.fail(fmt::format("expected value block ids below {}, found {}", p.blocks.size(), e.block));
  if (!r.at_end())
    r.fail("expected the end of the part, found more bytes");
  return p;
}

} // namespace tit::trace::cformat
