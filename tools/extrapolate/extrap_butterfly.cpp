// Recursive-doubling steps folded into loops (docs/extrapolation.md#recursive-doubling): a pass of tit-trace
// extrapolate on each input's folded structure (extrap_unroll.hpp). A sum by recursive doubling (NPB CG's row sums,
// a hand-written allreduce) exchanges with rank XOR 2^k for k = 0, 1, ..., log2 p - 1 (or down from log2 p - 1):
// its steps differ in their partner, so the folder cannot fold them, and their number grows with p. Here a run of
// such steps becomes one loop of log2 p iterations whose partner is written `xor:LO:up` (or `down`), a literal that
// every rank of every input shares, so that the trip count is fitted like any other and the target writes each
// rank's partners (extrap_target.cpp).
#include "extrap_unroll.hpp"

#include "extrap_values.hpp"

#include <fmt/format.h>

#include <bit>
#include <map>
#include <optional>

namespace tit::extrap {

namespace {

using trace::cformat::Node;
using trace::cformat::Signature;
using trace::cformat::Slot;

/// The longest block (actions) of one step: a step is an exchange and what surrounds it (a compute in the gap, a wait).
constexpr std::size_t kMaxStepItems = 8;

class Butterflies {
public:
  explicit Butterflies(trace::cformat::Loaded& trace, const std::string& path)
      : trace_(trace), meta_(trace.meta), path_(path)
  {
    // the tables as they are, so that ids stay those of the trace (they are already interned: no two equal)
    for (Signature s : meta_.signatures)
      tables_.signature(std::move(s));
    for (const Node& n : meta_.nodes)
      tables_.node(n);
    for (std::vector<std::uint32_t> b : meta_.bodies)
      tables_.body(std::move(b));
  }

  /// Folds the steps of rank `r`; whether any was.
  bool fold_rank(int r)
  {
    rank_ = r;
    memo_.clear();
    old_sigs_.clear();
    auto& entry = meta_.ranks[static_cast<std::size_t>(r)];
    std::uint32_t root = rebuild(entry.root);
    if (old_sigs_.empty())
      return false;
    entry.block = rewrite_values(root);
    entry.root = root;
    return true;
  }

  void finish() { tables_.move_into(meta_.signatures, meta_.nodes, meta_.bodies); }

private:
  /// The exponent k of the step that the actions `items[at, at + len)` make at this rank, if they are one: actions
  /// only, with the signatures of `items[ref, ref + len)` but for their partners, and every partner rank XOR 2^k.
  std::optional<int> step(const std::vector<std::uint32_t>& items, std::size_t ref, std::size_t at, std::size_t len)
  {
    std::optional<int> k;
    const long long p = meta_.rank_count;
    for (std::size_t t = 0; t < len; ++t) {
      const Node& a = tables_.node_at(items[at + t]);
      const Node& b = tables_.node_at(items[ref + t]);
      if (a.loop || b.loop)
        return std::nullopt;
      const Signature& s = tables_.signatures()[a.ref];
      const Signature& u = tables_.signatures()[b.ref];
      if (s.name != u.name || s.slots.size() != u.slots.size())
        return std::nullopt;
      for (std::size_t j = 0; j < s.slots.size(); ++j) {
        if (s.slots[j].kind != u.slots[j].kind)
          return std::nullopt;
        if (s.slots[j].kind == Slot::Kind::Literal && s.slots[j].literal != u.slots[j].literal)
          return std::nullopt;
        if (s.slots[j].kind != Slot::Kind::Relative)
          continue;
        long long q = ((rank_ + s.slots[j].offset) % p + p) % p;
        auto d = static_cast<unsigned long long>(q ^ rank_);
        if (!std::has_single_bit(d))
          return std::nullopt;
        int e = std::countr_zero(d);
        if (k && *k != e)
          return std::nullopt;
        k = e;
      }
    }
    return k;
  }

  struct Run {
    std::size_t len = 0, steps = 0;
    int first = 0, direction = 0;
  };

  /// The steps from `items[at]`: the shortest block that repeats at least twice with exponents k, k + 1, ... or k,
  /// k - 1, ...; steps 0 when none.
  Run run_at(const std::vector<std::uint32_t>& items, std::size_t at)
  {
    for (std::size_t len = 1; len <= kMaxStepItems && at + 2 * len <= items.size(); ++len) {
      std::optional<int> e0 = step(items, at, at, len);
      if (!e0)
        continue;
      std::optional<int> e1 = step(items, at, at + len, len);
      if (!e1 || (*e1 != *e0 + 1 && *e1 != *e0 - 1))
        continue;
      Run run{len, 2, *e0, *e1 - *e0};
      while (at + (run.steps + 1) * len <= items.size()) {
        std::optional<int> e = step(items, at, at + run.steps * len, len);
        if (!e || *e != run.first + static_cast<int>(run.steps) * run.direction)
          break;
        ++run.steps;
      }
      return run;
    }
    return {};
  }

  /// `body` with its runs of steps folded (its loops' bodies first), as this rank sees it.
  std::uint32_t rebuild(std::uint32_t body)
  {
    if (auto it = memo_.find(body); it != memo_.end())
      return it->second;
    std::vector<std::uint32_t> items = tables_.body_nodes(body);
    for (std::uint32_t& id : items) {
      Node n = tables_.node_at(id);
      if (!n.loop)
        continue;
      n.ref = rebuild(n.ref);
      id = tables_.node(n);
    }
    std::vector<std::uint32_t> out;
    for (std::size_t i = 0; i < items.size();) {
      Run run = run_at(items, i);
      if (run.steps == 0) {
        out.push_back(items[i++]);
        continue;
      }
      int low = run.direction > 0 ? run.first : run.first - static_cast<int>(run.steps) + 1;
      std::string literal = fmt::format("xor:{}:{}", low, run.direction > 0 ? "up" : "down");
      std::vector<std::uint32_t> block, old;
      for (std::size_t t = 0; t < run.len; ++t) {
        Signature s = tables_.signatures()[tables_.node_at(items[i + t]).ref];
        for (Slot& slot : s.slots)
          if (slot.kind == Slot::Kind::Relative)
            slot = Slot{Slot::Kind::Literal, literal, 0};
        block.push_back(tables_.node(Node{false, tables_.signature(std::move(s)), 1}));
      }
      for (std::size_t t = 0; t < run.len * run.steps; ++t)
        old.push_back(tables_.node_at(items[i + t]).ref);
      std::uint32_t loop = tables_.node(Node{true, tables_.body(std::move(block)), run.steps});
      old_sigs_[loop] = std::move(old);
      out.push_back(loop);
      i += run.len * run.steps;
    }
    std::uint32_t id = tables_.body(std::move(out));
    memo_[body] = id;
    return id;
  }

  /// The rank's value block for its new structure `root`: the tokens of its present block in the same order, each
  /// step's under the signature of its loop's body.
  std::uint32_t rewrite_values(std::uint32_t root)
  {
    RankValues in(trace_, rank_, path_);
    trace::cformat::ValueStreams out;
    auto copy = [&](std::uint32_t from, std::uint32_t to) {
      const Signature& s = tables_.signatures()[from];
      std::uint32_t ordinal = 0;
      for (const Slot& slot : s.slots)
        if (slot.kind == Slot::Kind::Value) {
          out.add(to, ordinal, in.next(from, ordinal));
          ++ordinal;
        }
    };
    auto walk = [&](auto& self, std::uint32_t body) -> void {
      for (std::uint32_t id : tables_.body_nodes(body)) {
        const Node n = tables_.node_at(id);
        if (auto it = old_sigs_.find(id); it != old_sigs_.end()) {
          const std::vector<std::uint32_t>& inner = tables_.body_nodes(n.ref);
          for (std::size_t t = 0; t < it->second.size(); ++t)
            copy(it->second[t], tables_.node_at(inner[t % inner.size()]).ref);
        } else if (n.loop) {
          for (std::uint64_t c = 0; c < n.count; ++c)
            self(self, n.ref);
        } else {
          copy(n.ref, n.ref);
        }
      }
    };
    walk(walk, root);
    trace_.blocks.push_back(out.take());
    return static_cast<std::uint32_t>(trace_.blocks.size() - 1);
  }

  trace::cformat::Loaded& trace_;
  trace::cformat::Meta& meta_;
  const std::string& path_;
  trace::cformat::Tables tables_;
  int rank_ = 0;
  std::map<std::uint32_t, std::uint32_t> memo_; ///< this rank's bodies: old id -> folded id
  /// this rank's step loops (node ids): the signatures their iterations' actions had, in order
  std::map<std::uint32_t, std::vector<std::uint32_t>> old_sigs_;
};

} // namespace

std::size_t fold_butterflies(trace::cformat::Loaded& trace, const std::string& path)
{
  Butterflies folder(trace, path);
  std::size_t ranks = 0;
  for (int r = 0; r < trace.meta.rank_count; ++r)
    ranks += folder.fold_rank(r) ? 1 : 0;
  folder.finish();
  return ranks;
}

} // namespace tit::extrap
