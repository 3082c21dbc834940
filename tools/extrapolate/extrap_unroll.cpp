// Passes of tit-trace extrapolate on each input's folded structure before the class structures are built
// (docs/extrapolation.md#model): loops the compressor made that extrapolation cannot fit one value per action of are
// unrolled (communicator creation, pairs, iterations with different values), and repeats longer than the folder's
// window are folded into loops (an iterative solver's iterations).
#include "extrap_unroll.hpp"

#include "extrap_values.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <span>
#include <tuple>

namespace tit::extrap {

namespace {

using trace::cformat::Node;
using trace::cformat::Signature;

/// Replaces, in every body a rank reaches (inner bodies first), each loop for which `unroll(node)` holds by its body
/// repeated `count` times.
template <class Unroll>
void unroll_loops(trace::cformat::Loaded& trace, const Unroll& unroll)
{
  auto& meta = trace.meta;
  std::vector<bool> seen(meta.bodies.size(), false);
  auto visit = [&](auto& self, std::uint32_t body) -> void {
    if (seen[body])
      return;
    seen[body] = true;
    std::vector<std::uint32_t> out;
    for (std::uint32_t id : meta.bodies[body]) {
      const Node n = meta.nodes[id];
      if (n.loop)
        self(self, n.ref);
      if (!n.loop || !unroll(n)) {
        out.push_back(id);
        continue;
      }
      for (std::uint64_t c = 0; c < n.count; ++c)
        out.insert(out.end(), meta.bodies[n.ref].begin(), meta.bodies[n.ref].end());
    }
    meta.bodies[body] = std::move(out);
  };
  for (const auto& r : meta.ranks)
    visit(visit, r.root);
}

} // namespace

void unroll_communicator_loops(trace::cformat::Loaded& trace)
{
  const auto& meta = trace.meta;
  auto creates = [&](const Signature& s) {
    return s.name == "comm_split" || s.name == "comm_dup" || s.name == "comm_create" || s.name == "comm_free";
  };
  std::vector<int> creation(meta.bodies.size(), -1); // whether a body holds a creation, once known
  auto holds_creation = [&](auto& self, std::uint32_t body) -> bool {
    if (creation[body] < 0) {
      bool any = false;
      for (std::uint32_t id : meta.bodies[body]) {
        const Node n = meta.nodes[id];
        any = any || (n.loop ? self(self, n.ref) : creates(meta.signatures[n.ref]));
      }
      creation[body] = any;
    }
    return creation[body] == 1;
  };
  // a loop of bisection splits (butterfly_steps) is one whatever its count: log2 p splits
  unroll_loops(trace,
               [&](const Node& n) { return holds_creation(holds_creation, n.ref) && !holds_steps(trace.meta, n.ref); });
}

void unroll_pairs(trace::cformat::Loaded& trace)
{
  // a loop of recursive-doubling steps is a loop whatever its count (2 steps on 8 ranks, 3 on 32)
  unroll_loops(trace, [&](const Node& n) { return n.count == 2 && !holds_steps(trace.meta, n.ref); });
}

namespace {

/// Whether nodes `a` and `b` of `meta` are the same item: one id, or actions of one signature, or loops of one count
/// whose bodies are the same items (the passes before may have left equal bodies under two ids, and rotate_in adds
/// some); `memo` keeps the pairs found equal.
bool same_node(const trace::cformat::Meta& meta, std::uint32_t a, std::uint32_t b,
               std::set<std::pair<std::uint32_t, std::uint32_t>>& memo)
{
  if (a == b || memo.count(std::pair(a, b)))
    return true;
  const Node &x = meta.nodes[a], &y = meta.nodes[b];
  if (x.loop != y.loop || x.count != y.count || (!x.loop && x.ref != y.ref))
    return false;
  if (x.loop) {
    const auto &p = meta.bodies[x.ref], &q = meta.bodies[y.ref];
    if (p.size() != q.size())
      return false;
    for (std::size_t i = 0; i < p.size(); ++i)
      if (!same_node(meta, p[i], q[i], memo))
        return false;
  }
  memo.emplace(a, b);
  return true;
}

/// In `items` (a body), each loop whose preceding item is its body's last, `X (A X)^n`, made `(X A)^n X` (the rotated
/// body added to `meta`), until none is; whether any was.
bool rotate_in(trace::cformat::Meta& meta, std::vector<std::uint32_t>& items,
               std::set<std::pair<std::uint32_t, std::uint32_t>>& memo)
{
  bool changed = false;
  for (std::size_t i = 1; i < items.size(); ++i) {
    while (i >= 1 && meta.nodes[items[i]].loop &&
           same_node(meta, items[i - 1], meta.bodies[meta.nodes[items[i]].ref].back(), memo)) {
      Node loop = meta.nodes[items[i]];
      std::vector<std::uint32_t> inner = meta.bodies[loop.ref];
      std::rotate(inner.rbegin(), inner.rbegin() + 1, inner.rend()); // its last item first
      meta.bodies.push_back(std::move(inner));
      loop.ref = static_cast<std::uint32_t>(meta.bodies.size() - 1);
      meta.nodes.push_back(loop);
      items[i] = items[i - 1];
      items[i - 1] = static_cast<std::uint32_t>(meta.nodes.size() - 1);
      --i;
      changed = true;
    }
  }
  return changed;
}

/// In `items`, the copies of each loop's body right before or after it taken in, `B (B)^n B` made `(B)^(n + 2)`; whether
/// any was.
bool absorb_copies(trace::cformat::Meta& meta, std::vector<std::uint32_t>& items,
                   std::set<std::pair<std::uint32_t, std::uint32_t>>& memo)
{
  bool changed = false;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!meta.nodes[items[i]].loop)
      continue;
    Node loop = meta.nodes[items[i]];
    const std::vector<std::uint32_t> b = meta.bodies[loop.ref];
    auto copy_at = [&](std::size_t at) {
      return at + b.size() <= items.size() &&
             std::equal(b.begin(), b.end(), items.begin() + static_cast<std::ptrdiff_t>(at),
                        [&](std::uint32_t x, std::uint32_t y) { return same_node(meta, x, y, memo); });
    };
    std::uint64_t count = loop.count;
    for (; copy_at(i + 1); ++count)
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(i + 1),
                  items.begin() + static_cast<std::ptrdiff_t>(i + 1 + b.size()));
    for (; i >= b.size() && copy_at(i - b.size()); ++count) {
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(i - b.size()), items.begin() + static_cast<std::ptrdiff_t>(i));
      i -= b.size();
    }
    if (count != loop.count) {
      loop.count = count;
      meta.nodes.push_back(loop);
      items[i] = static_cast<std::uint32_t>(meta.nodes.size() - 1);
      changed = true;
    }
  }
  return changed;
}

} // namespace

void rotate_loops(trace::cformat::Loaded& trace)
{
  auto& meta = trace.meta;
  // nodes found the same; a body changes only by rotations and absorptions, which keep its expanded sequence, so a pair
  // found the same stays the same sequence
  std::set<std::pair<std::uint32_t, std::uint32_t>> memo;
  // rounds until nothing changes: a rotated body is a new one, which the next round visits (a bound, in case)
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    std::vector<bool> seen(meta.bodies.size(), false);
    auto visit = [&](auto& self, std::uint32_t body) -> void {
      if (seen[body])
        return;
      seen[body] = true;
      for (std::uint32_t id : std::vector<std::uint32_t>(meta.bodies[body]))
        if (meta.nodes[id].loop && meta.nodes[id].ref < seen.size())
          self(self, meta.nodes[id].ref);
      std::vector<std::uint32_t> items = meta.bodies[body];
      bool rotated = rotate_in(meta, items, memo);
      if (absorb_copies(meta, items, memo) || rotated) {
        meta.bodies[body] = std::move(items);
        changed = true;
      }
    };
    for (const auto& r : meta.ranks)
      visit(visit, r.root);
    if (!changed)
      return;
  }
}

void unroll_varying_loops(trace::cformat::Loaded& trace, const std::string& path, std::uint64_t max_trip)
{
  const auto& meta = trace.meta;
  std::set<std::pair<std::uint32_t, std::uint64_t>> varying; // loops (body, trip count) to unroll
  for (int r = 0; r < meta.rank_count; ++r) {
    RankValues values(trace, r, path);
    // Reads the values of `body`'s actions (and of its loops, iteration by iteration); appends to `own` those of its
    // own actions that are no volume.
    auto walk = [&](auto& self, std::uint32_t body, std::vector<std::string>& own) -> void {
      for (std::uint32_t id : meta.bodies[body]) {
        const Node& n = meta.nodes[id];
        if (n.loop) {
          std::vector<std::string> first, iteration;
          bool differs = false;
          for (std::uint64_t c = 0; c < n.count; ++c) {
            iteration.clear();
            self(self, n.ref, iteration);
            if (c == 0)
              first = iteration;
            else
              differs = differs || iteration != first;
          }
          if (differs && n.count <= max_trip && !holds_steps(meta, n.ref)) // steps' values: butterfly_slopes
            varying.emplace(n.ref, n.count);
          continue;
        }
        values.non_volume_values(n.ref, meta.signatures[n.ref],
                                 [&](std::string token) { own.push_back(std::move(token)); });
      }
    };
    std::vector<std::string> top;
    walk(walk, meta.ranks[r].root, top);
  }
  if (!varying.empty())
    unroll_loops(trace, [&](const Node& n) { return varying.count(std::pair(n.ref, n.count)) > 0; });
}

namespace {

/// What fold_long_repeats works on: each rank's sequence as keys, and the bodies and loop nodes it adds to the trace,
/// interned as the folder interns them (ranks with the same repeats share them).
class LongRepeats {
public:
  LongRepeats(trace::cformat::Loaded& trace, const std::string& path) : trace_(trace), meta_(trace.meta), path_(path)
  {
    for (std::uint32_t b = 0; b < meta_.bodies.size(); ++b)
      bodies_.emplace(meta_.bodies[b], b);
    for (std::uint32_t n = 0; n < meta_.nodes.size(); ++n)
      nodes_.emplace(std::tuple(meta_.nodes[n].loop, meta_.nodes[n].ref, meta_.nodes[n].count), n);
  }

  /// Folds the sequence of rank `r` into loops, its root made the folded sequence's body.
  void fold_rank(int r)
  {
    std::vector<std::uint32_t> seq = keys_of_rank(r);
    // Folds, from the start, each first repeat of a block longer than the folder's window (the folder found the
    // shorter ones, and the loops of 2 it made are unrolled on purpose), going on after it; passes until nothing
    // changes: the inner repeats first (each iteration of an outer one holds them alike), then the outer ones, periodic
    // in fewer items.
    trace::cformat::fold_long_repeats(
        seq, [this](std::span<const std::uint32_t> block, std::size_t reps) { return loop_key(block, reps); });
    std::vector<std::uint32_t> ids;
    for (std::uint32_t k : seq)
      ids.push_back(key_items_[k].first);
    meta_.ranks[static_cast<std::size_t>(r)].root = intern_body(ids);
  }

private:
  std::uint32_t intern_body(const std::vector<std::uint32_t>& items)
  {
    auto it = bodies_.try_emplace(items, static_cast<std::uint32_t>(meta_.bodies.size()));
    if (it.second)
      meta_.bodies.push_back(items);
    return it.first->second;
  }

  std::uint32_t loop_node(std::uint32_t body, std::uint64_t reps)
  {
    auto it = nodes_.try_emplace(std::tuple(true, body, reps), static_cast<std::uint32_t>(meta_.nodes.size()));
    if (it.second)
      meta_.nodes.push_back(Node{true, body, reps});
    return it.first->second;
  }

  /// The key of an item: node `id` with the hash of its `values` (keys_).
  std::uint32_t key_of(std::uint32_t id, std::size_t values)
  {
    auto it = keys_.try_emplace(std::pair(id, values), static_cast<std::uint32_t>(key_items_.size()));
    if (it.second)
      key_items_.emplace_back(id, values);
    return it.first->second;
  }

  /// `h` combined with the values that are no volume of node `id`'s actions (a loop's in every iteration), read from
  /// `values`.
  std::size_t hash_of(RankValues& values, std::uint32_t id, std::size_t h)
  {
    const Node n = meta_.nodes[id];
    if (n.loop) {
      for (std::uint64_t c = 0; c < n.count; ++c)
        for (std::uint32_t inner : meta_.bodies[n.ref])
          h = hash_of(values, inner, h);
      return h;
    }
    values.non_volume_values(n.ref, meta_.signatures[n.ref],
                             [&](const std::string& token) { h = h * 1000003u ^ std::hash<std::string>{}(token); });
    return h;
  }

  /// The items of rank `r`'s sequence, as keys.
  std::vector<std::uint32_t> keys_of_rank(int r)
  {
    std::uint32_t root = meta_.ranks[static_cast<std::size_t>(r)].root;
    RankValues values(trace_, r, path_);
    std::vector<std::uint32_t> seq; // keys
    for (std::uint32_t id : meta_.bodies[root]) // hashing adds no body: the reference stays valid
      seq.push_back(key_of(id, hash_of(values, id, 0)));
    return seq;
  }

  /// The key of a loop of `reps` iterations of `block` (keys).
  std::uint32_t loop_key(std::span<const std::uint32_t> block, std::size_t reps)
  {
    std::vector<std::uint32_t> block_ids;
    std::size_t h = reps;
    for (std::uint32_t k : block) {
      block_ids.push_back(key_items_[k].first);
      h = h * 1000003u ^ key_items_[k].second;
    }
    return key_of(loop_node(intern_body(block_ids), reps), h);
  }

  trace::cformat::Loaded& trace_;
  trace::cformat::Meta& meta_;
  const std::string& path_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> bodies_; // content -> body id (interned, as the folder does)
  std::map<std::tuple<bool, std::uint32_t, std::uint64_t>, std::uint32_t> nodes_;
  // An item is its node and the values of its actions that are no volume (message sizes, partners given as values,
  // roots...): blocks repeat only where those are equal too, so that a loop of this fold has one such value per
  // action (the exchanges of a multigrid's levels, alike but for their sizes, stay apart).
  std::map<std::pair<std::uint32_t, std::size_t>, std::uint32_t> keys_;
  std::vector<std::pair<std::uint32_t, std::size_t>> key_items_;
};

} // namespace

void fold_long_repeats(trace::cformat::Loaded& trace, const std::string& path, std::size_t min_items)
{
  LongRepeats folder(trace, path);
  for (int r = 0; r < trace.meta.rank_count; ++r)
    if (trace.meta.bodies[trace.meta.ranks[static_cast<std::size_t>(r)].root].size() >= min_items)
      folder.fold_rank(r);
}

} // namespace tit::extrap
