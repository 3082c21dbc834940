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
#include <set>

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
    slopes_.clear();
    root = apply_slopes(root, find_slopes(root));
    entry.block = rewrite_values(root);
    entry.root = root;
    return true;
  }

  void finish() { tables_.move_into(meta_.signatures, meta_.nodes, meta_.bodies); }

private:
  /// The exponent k of the step that the actions `items[at, at + len)` make at this rank, if they are one: actions
  /// only, with the signatures of `items[ref, ref + len)` but for their partners, every partner rank XOR 2^k, and an
  /// exchange both ways with it (a send and a receive, or a sendRecv: a sum needs both; receives alone from rank XOR
  /// 1 and XOR 2 are a halo on 2 x 2 ranks).
  std::optional<int> step(const std::vector<std::uint32_t>& items, std::size_t ref, std::size_t at, std::size_t len)
  {
    std::optional<int> k;
    bool sends = false, receives = false;
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
      sends = sends || s.name == "sendRecv" || s.name == "send" || s.name == "isend" || s.name == "Ssend" ||
              s.name == "ISsend" || s.name == "bsend" || s.name == "ibsend";
      receives = receives || s.name == "sendRecv" || s.name == "recv" || s.name == "irecv";
      for (std::size_t j = 0; j < s.slots.size(); ++j) {
        if (s.slots[j].kind != u.slots[j].kind)
          return std::nullopt;
        if (s.slots[j].kind == Slot::Kind::Literal && s.slots[j].literal != u.slots[j].literal)
          return std::nullopt;
        if (s.slots[j].kind != Slot::Kind::Relative)
          continue;
        long long q = ((rank_ + s.slots[j].offset) % p + p) % p;
        if (q == rank_)
          continue; // the rank itself (a wait's destination)
        auto d = static_cast<unsigned long long>(q ^ rank_);
        if (!std::has_single_bit(d))
          return std::nullopt;
        int e = std::countr_zero(d);
        if (k && *k != e)
          return std::nullopt;
        k = e;
      }
    }
    return sends && receives ? k : std::nullopt;
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
          if (slot.kind == Slot::Kind::Relative && slot.offset % meta_.rank_count != 0) // not the rank itself
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

  /// The value tokens of a loop of steps' occurrence: per action of its iterations (m x L, in order), per value slot.
  using StepTokens = std::vector<std::vector<std::string>>;

  /// Walks the rank's new structure `root` in the order of its actions, reading its present value block: each action
  /// outside loops of steps is handed to `plain(sig, tokens)`, each occurrence of a loop of steps to `steps(node,
  /// tokens)`, tokens read under the signatures the actions had.
  template <class Plain, class Steps>
  void walk_values(std::uint32_t root, Plain&& plain, Steps&& steps)
  {
    RankValues in(trace_, rank_, path_);
    auto read = [&](std::uint32_t sig) {
      std::vector<std::string> tokens;
      std::uint32_t ordinal = 0;
      for (const Slot& slot : tables_.signatures()[sig].slots)
        if (slot.kind == Slot::Kind::Value)
          tokens.push_back(in.next(sig, ordinal++));
      return tokens;
    };
    auto walk = [&](auto& self, std::uint32_t body) -> void {
      for (std::uint32_t id : tables_.body_nodes(body)) {
        const Node n = tables_.node_at(id);
        if (auto it = old_sigs_.find(id); it != old_sigs_.end()) {
          StepTokens tokens;
          for (std::uint32_t sig : it->second)
            tokens.push_back(read(sig));
          steps(id, tokens);
        } else if (n.loop) {
          for (std::uint64_t c = 0; c < n.count; ++c)
            self(self, n.ref);
        } else {
          plain(n.ref, read(n.ref));
        }
      }
    };
    walk(walk, root);
  }

  /// Per loop of steps of the rank: per action of its body and value slot, the integer by which the value grows from
  /// one step to the next (0: none found), when every occurrence agrees (an iteration number as a tag: NPB CG's steps
  /// are tagged 1, 2, ... or down to 1). Values with such a slope are written as their first step's (rewrite_values),
  /// the slope in the signature (`+1/step`), so that they are one value per action like any other.
  std::map<std::uint32_t, std::vector<std::vector<std::int64_t>>> find_slopes(std::uint32_t root)
  {
    std::map<std::uint32_t, std::vector<std::vector<std::int64_t>>> slopes;
    std::set<std::pair<std::uint32_t, std::size_t>> disagree;
    walk_values(root, [](std::uint32_t, const std::vector<std::string>&) {},
                [&](std::uint32_t node, const StepTokens& tokens) {
                  std::size_t len = tables_.body_nodes(tables_.node_at(node).ref).size();
                  std::size_t m = tokens.size() / len;
                  auto [it, first] = slopes.try_emplace(node);
                  const std::vector<std::uint32_t>& block = tables_.body_nodes(tables_.node_at(node).ref);
                  for (std::size_t t = 0; t < len; ++t) {
                    std::vector<std::int64_t> d(tokens[t].size(), 0);
                    bool volume = is_volume_action(tables_.signatures()[tables_.node_at(block[t]).ref].name);
                    for (std::size_t o = 0; !volume && o < d.size(); ++o) {
                      std::vector<std::int64_t> v(m);
                      bool ints = true;
                      for (std::size_t j = 0; j < m; ++j)
                        ints = ints && trace::cformat::canonical_int(tokens[j * len + t][o], v[j]);
                      bool affine = ints && v[1] != v[0];
                      for (std::size_t j = 2; affine && j < m; ++j)
                        affine = v[j] - v[j - 1] == v[1] - v[0];
                      d[o] = affine ? v[1] - v[0] : 0;
                    }
                    if (first)
                      it->second.push_back(std::move(d));
                    else if (it->second[t] != d)
                      disagree.emplace(node, t);
                  }
                });
    for (const auto& [node, t] : disagree)
      std::fill(slopes[node][t].begin(), slopes[node][t].end(), 0);
    return slopes;
  }

  /// `body` with its loops of steps replaced as `by` says (the bodies around them interned anew).
  std::uint32_t substitute(std::uint32_t body, const std::map<std::uint32_t, std::uint32_t>& by,
                           std::map<std::uint32_t, std::uint32_t>& memo)
  {
    if (auto it = memo.find(body); it != memo.end())
      return it->second;
    std::vector<std::uint32_t> items = tables_.body_nodes(body);
    for (std::uint32_t& id : items) {
      if (auto it = by.find(id); it != by.end()) {
        id = it->second;
      } else if (Node n = tables_.node_at(id); n.loop) {
        n.ref = substitute(n.ref, by, memo);
        id = tables_.node(n);
      }
    }
    std::uint32_t id = tables_.body(std::move(items));
    memo[body] = id;
    return id;
  }

  /// The rank's structure `root` with the slopes of its steps' values in their signatures (find_slopes); `slopes_`
  /// and `old_sigs_` follow the new loop nodes.
  std::uint32_t apply_slopes(std::uint32_t root, std::map<std::uint32_t, std::vector<std::vector<std::int64_t>>> slopes)
  {
    std::map<std::uint32_t, std::uint32_t> by;
    for (const auto& [node, d] : slopes) {
      bool any = false;
      for (const auto& per_action : d)
        for (std::int64_t x : per_action)
          any = any || x != 0;
      if (!any)
        continue;
      Node loop = tables_.node_at(node);
      std::vector<std::uint32_t> block = tables_.body_nodes(loop.ref);
      for (std::size_t t = 0; t < block.size(); ++t) {
        Signature sig = tables_.signatures()[tables_.node_at(block[t]).ref];
        std::size_t o = 0;
        for (Slot& slot : sig.slots)
          if (slot.kind == Slot::Kind::Value && d[t][o++] != 0)
            slot.literal = fmt::format("{:+d}/step", d[t][o - 1]);
        block[t] = tables_.node(Node{false, tables_.signature(std::move(sig)), 1});
      }
      loop.ref = tables_.body(std::move(block));
      std::uint32_t id = tables_.node(loop);
      by[node] = id;
      slopes_[id] = d;
    }
    if (by.empty())
      return root;
    std::map<std::uint32_t, std::vector<std::uint32_t>> old;
    for (auto& [node, sigs] : old_sigs_)
      old[by.count(node) ? by[node] : node] = std::move(sigs);
    old_sigs_ = std::move(old);
    std::map<std::uint32_t, std::uint32_t> memo;
    return substitute(root, by, memo);
  }

  /// The rank's value block for its new structure `root`: the tokens of its present block in the same order, each
  /// step's under the signature of its loop's body, a value with a slope as its first step's.
  std::uint32_t rewrite_values(std::uint32_t root)
  {
    trace::cformat::ValueStreams out;
    auto add = [&](std::uint32_t sig, const std::vector<std::string>& tokens) {
      for (std::size_t o = 0; o < tokens.size(); ++o)
        out.add(sig, static_cast<std::uint32_t>(o), tokens[o]);
    };
    walk_values(root, add, [&](std::uint32_t node, const StepTokens& tokens) {
      const std::vector<std::uint32_t>& block = tables_.body_nodes(tables_.node_at(node).ref);
      auto d = slopes_.find(node);
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        std::vector<std::string> own = tokens[i];
        std::size_t t = i % block.size();
        for (std::size_t o = 0; d != slopes_.end() && o < own.size(); ++o) {
          std::int64_t v = 0;
          if (d->second[t][o] != 0 && trace::cformat::canonical_int(own[o], v))
            own[o] = std::to_string(v - d->second[t][o] * static_cast<std::int64_t>(i / block.size()));
        }
        add(tables_.node_at(block[t]).ref, own);
      }
    });
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
  /// this rank's step loops whose values grow from step to step: per action of the body and value slot, by how much
  std::map<std::uint32_t, std::vector<std::vector<std::int64_t>>> slopes_;
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
