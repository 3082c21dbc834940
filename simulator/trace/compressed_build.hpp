// Building a compressed trace in memory (docs/compressed-format.md): the interned tables of signatures, nodes and
// bodies, and a rank's value streams as runs. Used by the writer's folding (compressed_writer.cpp) and by tools
// that make a compressed trace from a model rather than from actions (tit-trace extrapolate). Internal to the
// trace library and its tools.
#pragma once

#include "trace/compressed.hpp"
#include "trace/compressed_format.hpp"

#include <filesystem>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tit::trace::cformat {

/// The global tables of a compressed trace: signatures, nodes and bodies, interned so that equal ones get one id.
class StructureTables {
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

/// One rank's value streams, one per (signature, value slot), as runs (equal or arithmetic values in a row).
class StreamBuilder {
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

/// Folds every rank of `in` (each rank once) into a compressed trace in memory, as compress() writes it: blocks
/// deduplicated (ranks with the same numbers share one). `actions`, when given, receives the number of actions read.
/// Throws TraceError on a bad trace.
Loaded fold(TraceSet& in, const ValueMode& values, std::uint64_t* actions = nullptr);

/// Writes `trace` (its meta's chunks and block refs are recomputed from `trace.blocks`; `meta.ranks[r].block`
/// indexes `trace.blocks`) as the file `out`; returns its size. Throws TraceError when `out` cannot be written.
std::uint64_t write_compressed(const std::filesystem::path& out, const Loaded& trace);

} // namespace tit::trace::cformat
