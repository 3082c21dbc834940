// Recursive-doubling steps (docs/extrapolation.md#recursive-doubling) for tit-trace extrapolate. A sum by recursive
// doubling (NPB CG's row sums, a hand-written allreduce) exchanges with rank XOR 2^k for k = 0, 1, ..., log2 p - 1 (or
// down from log2 p - 1): its steps differ in their partner, so the folder cannot fold them, and their number grows
// with p. Two stages: before folding, each run of such steps gets the partner `xor:LO:up` (or `down`, LO the lowest
// k), a literal that every step of every rank shares, so that the folder folds the run into one loop of log2 p
// iterations, whatever the rank's bits or where an outer loop of the folder begins; after folding, a value that grows
// by the same integer at each step (NPB CG tags step i with i) is written as its first step's, its slope in the
// signature. The trip count is then fitted like any other, and the target writes each rank's partners
// (extrap_target.cpp).
#include "extrap_unroll.hpp"

#include "extrap_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

namespace tit::extrap {

namespace {

using trace::cformat::Node;
using trace::cformat::Signature;
using trace::cformat::Slot;

/// The longest block (actions) of one step: an exchange and what surrounds it (the computes in its gaps, a wait).
constexpr std::size_t kMaxStepItems = 8;
/// The most steps a run is searched for (2^30 ranks).
constexpr std::size_t kMaxSteps = 30;

/// One action held while the run it may begin is looked for: its text and name owned here.
struct Held {
  trace::Action action;
  std::string text, name;
  std::vector<std::string_view> fields; ///< of `text` (made once the Held is in place): rank, name, arguments
  std::vector<std::size_t> partners;    ///< the arguments that are partners (trace::cformat::partner_positions)
  bool sends = false, receives = false; ///< what its kind does (a sendRecv both)
};

/// One rank's actions with the partners of its runs of recursive-doubling steps written `xor:LO:up|down` (a suffix
/// `:b` on a run that follows another with the same literal, so that the folder keeps them two loops).
class StepsReader : public trace::RankReader {
public:
  StepsReader(std::unique_ptr<trace::RankReader> in, int ranks) : in_(std::move(in)), ranks_(ranks) {}

  bool next(trace::Action& out) override
  {
    if (ready_ == 0)
      decide();
    if (held_.empty())
      return false;
    cur_ = std::move(held_.front());
    held_.pop_front();
    --ready_;
    cur_.action.text = cur_.text;
    cur_.action.name = cur_.name;
    point_args(cur_.action);
    out = cur_.action;
    return true;
  }

  const std::string& file() const override { return in_->file(); }

private:
  void fill(std::size_t n)
  {
    trace::Action a;
    while (held_.size() < n && !ended_) {
      if (!in_->next(a)) {
        ended_ = true;
        break;
      }
      held_.emplace_back();
      Held& h = held_.back(); // in place: a deque does not move its elements, so the views of `fields` hold
      h.action = a;
      h.text = std::string(a.text);
      h.name = std::string(a.name);
      h.fields = split(h.text);
      h.partners = trace::cformat::partner_positions(a);
      const trace::KindTraits& kind = trace::traits(a.kind);
      h.sends = kind.group == trace::Group::SendRecv || (kind.group == trace::Group::Message && kind.sends);
      h.receives = kind.group == trace::Group::SendRecv || (kind.group == trace::Group::Message && !kind.sends);
    }
  }

  static std::vector<std::string_view> split(std::string_view text)
  {
    std::vector<std::string_view> f;
    while (!text.empty()) {
      std::size_t start = text.find_first_not_of(" \t");
      if (start == std::string_view::npos)
        break;
      text.remove_prefix(start);
      std::size_t end = std::min(text.find_first_of(" \t"), text.size());
      f.push_back(text.substr(0, end));
      text.remove_prefix(end);
    }
    return f;
  }

  /// The exponent k of the step that held_[at, at + len) makes, if it is one: the actions of held_[0, len) but for
  /// their partners (names and literal arguments equal), every partner the rank itself or rank XOR 2^k, and an exchange
  /// both ways (a send and a receive, or a sendRecv: receives alone from rank XOR 1 and XOR 2 are a halo on 2 x 2
  /// ranks).
  std::optional<int> step(std::size_t at, std::size_t len)
  {
    std::optional<int> k;
    bool sends = false, receives = false;
    for (std::size_t t = 0; t < len; ++t) {
      const Held& h = held_[at + t];
      const Held& u = held_[t];
      const std::vector<std::string_view>&a = h.fields, &b = u.fields;
      if (h.name != u.name || a.size() != b.size() || a.size() < 2)
        return std::nullopt;
      for (std::size_t j = 2; j < a.size(); ++j) {
        bool partner = std::find(h.partners.begin(), h.partners.end(), j - 2) != h.partners.end();
        std::int64_t q = 0;
        if (!partner) {
          bool numbers = trace::detail::parse_double(a[j]).has_value() && trace::detail::parse_double(b[j]).has_value();
          if (!numbers && a[j] != b[j])
            return std::nullopt; // a literal (comm=1) that differs
          continue;
        }
        if (!trace::cformat::canonical_int(a[j], q) || q < 0 || q >= ranks_)
          return std::nullopt;
        if (q == h.action.rank)
          continue; // the rank itself (a wait's destination)
        auto d = static_cast<std::uint64_t>(q ^ h.action.rank);
        if (!std::has_single_bit(d) || (k && *k != std::countr_zero(d)))
          return std::nullopt;
        k = std::countr_zero(d);
      }
      sends = sends || h.sends;
      receives = receives || h.receives;
    }
    return sends && receives ? k : std::nullopt;
  }

  /// The number of actions from the front of held_ that make a run of communicator splits by recursive bisection
  /// (docs/extrapolation.md#bisection-splits), 0 when it is none: two or more `comm_split PARENT COLOUR KEY NEW SIZE`
  /// with only computes between them, the first of the whole world, each of the previous one's new communicator
  /// (PARENT the previous NEW), split i (from 0) halving it by bit log2 p - 1 - i of the rank (COLOUR that bit, SIZE p
  /// / 2^(i+1)). Their colours, sizes and keys that are the rank within the parent (rank mod p / 2^i) are rewritten
  /// `bisect:colour`, `bisect:size`, `bisect:key`, so that every split of every rank has one signature.
  std::size_t bisection_run()
  {
    const std::int64_t p = ranks_;
    if (p < 4 || !std::has_single_bit(static_cast<std::uint64_t>(p)))
      return 0;
    const int bits = std::countr_zero(static_cast<std::uint64_t>(p));
    std::vector<std::size_t> splits;
    std::int64_t parent_next = -1;
    for (std::size_t at = 0; at < held_.size(); ++at) {
      const Held& h = held_[at];
      if (h.name == "compute" && !splits.empty())
        continue;
      std::array<std::int64_t, 5> v{};
      bool ints = h.name == "comm_split" && h.fields.size() == 7;
      for (std::size_t j = 0; ints && j < v.size(); ++j)
        ints = trace::cformat::canonical_int(h.fields[j + 2], v[j]);
      auto i = static_cast<int>(splits.size());
      std::int64_t r = h.action.rank, size = p >> (i + 1);
      if (!ints || i >= bits || v[1] != ((r >> (bits - 1 - i)) & 1) || v[4] != size ||
          (i > 0 && v[0] != parent_next))
        break;
      parent_next = v[3];
      splits.push_back(at);
    }
    if (splits.size() < 2)
      return 0;
    for (std::size_t i = 0; i < splits.size(); ++i) {
      Held& h = held_[splits[i]];
      std::int64_t key = 0;
      bool own = trace::cformat::canonical_int(h.fields[4], key) &&
                 key == (h.action.rank & ((p >> static_cast<int>(i)) - 1));
      h.text = fmt::format("{} {} {} bisect:colour {} {} bisect:size", h.fields[0], h.fields[1], h.fields[2],
                           own ? std::string("bisect:key") : std::string(h.fields[4]), h.fields[5]);
      h.fields = split(h.text);
    }
    return splits.back() + 1;
  }

  /// Decides what the front of held_ is: a run of steps (its partners rewritten), a run of bisection splits or one
  /// action.
  void decide()
  {
    fill(kMaxStepItems * (kMaxSteps + 1));
    if (held_.empty())
      return;
    if (std::size_t n = bisection_run(); n > 0) {
      last_run_.clear();
      ready_ = n;
      return;
    }
    for (std::size_t len = 1; len <= kMaxStepItems && 2 * len <= held_.size(); ++len) {
      std::optional<int> e0 = step(0, len), e1 = step(len, len);
      if (!e0 || !e1 || (*e1 != *e0 + 1 && *e1 != *e0 - 1))
        continue;
      int dir = *e1 - *e0;
      std::size_t steps = 2;
      for (std::optional<int> e; (steps + 1) * len <= held_.size() &&
                                 (e = step(steps * len, len)) && *e == *e0 + static_cast<int>(steps) * dir;)
        ++steps;
      int low = dir > 0 ? *e0 : *e0 - static_cast<int>(steps) + 1;
      std::string literal = fmt::format("xor:{}:{}", low, dir > 0 ? "up" : "down");
      if (literal == last_run_)
        literal += ":b"; // right after a run with the same literal: else the folder makes one loop of both
      last_run_ = literal;
      for (std::size_t i = 0; i < steps * len; ++i)
        rewrite(held_[i], literal);
      ready_ = steps * len;
      return;
    }
    last_run_.clear();
    ready_ = 1;
  }

  /// `h`'s partners other than the rank itself written `literal`.
  static void rewrite(Held& h, const std::string& literal)
  {
    std::string text;
    for (std::size_t j = 0; j < h.fields.size(); ++j) {
      bool partner = j >= 2 && std::find(h.partners.begin(), h.partners.end(), j - 2) != h.partners.end() &&
                     h.fields[j] != std::to_string(h.action.rank);
      text += (j ? " " : "") + (partner ? literal : std::string(h.fields[j]));
    }
    h.text = std::move(text);
    h.fields = split(h.text);
  }

  std::unique_ptr<trace::RankReader> in_;
  int ranks_;
  std::deque<Held> held_;
  std::size_t ready_ = 0; ///< actions at the front of held_ already decided
  bool ended_ = false;
  std::string last_run_;  ///< the literal of the run decided last, while nothing else was
  Held cur_;
};

class StepsSet : public trace::TraceSet {
public:
  explicit StepsSet(std::unique_ptr<trace::TraceSet> in) : in_(std::move(in)) {}
  int rank_count() const override { return in_->rank_count(); }
  bool has_own_rank_count() const override { return in_->has_own_rank_count(); }
  std::unique_ptr<trace::RankReader> reader(int r) override
  {
    return std::make_unique<StepsReader>(in_->reader(r), in_->rank_count());
  }
  std::string describe() const override { return in_->describe(); }
  const std::string& compute_unit() const override { return in_->compute_unit(); }

private:
  std::unique_ptr<trace::TraceSet> in_;
};

/// A trace's own tables, with what is added interned (an equal one already there reused; the passes before may have
/// left two equal ones, whose ids stay as they are).
class MetaTables {
public:
  explicit MetaTables(trace::cformat::Meta& meta) : meta_(meta)
  {
    for (std::uint32_t i = 0; i < meta_.signatures.size(); ++i)
      signature_ids_.try_emplace(key(meta_.signatures[i]), i);
    for (std::uint32_t i = 0; i < meta_.nodes.size(); ++i)
      node_ids_.try_emplace(std::tuple(meta_.nodes[i].loop, meta_.nodes[i].ref, meta_.nodes[i].count), i);
    for (std::uint32_t i = 0; i < meta_.bodies.size(); ++i)
      body_ids_.try_emplace(meta_.bodies[i], i);
  }

  std::uint32_t signature(Signature&& s)
  {
    auto [it, added] = signature_ids_.try_emplace(key(s), static_cast<std::uint32_t>(meta_.signatures.size()));
    if (added)
      meta_.signatures.push_back(std::move(s));
    return it->second;
  }
  std::uint32_t node(const Node& n)
  {
    auto [it, added] = node_ids_.try_emplace(std::tuple(n.loop, n.ref, n.count),
                                             static_cast<std::uint32_t>(meta_.nodes.size()));
    if (added)
      meta_.nodes.push_back(n);
    return it->second;
  }
  std::uint32_t body(std::vector<std::uint32_t>&& items)
  {
    auto [it, added] = body_ids_.try_emplace(items, static_cast<std::uint32_t>(meta_.bodies.size()));
    if (added)
      meta_.bodies.push_back(std::move(items));
    return it->second;
  }
  const Node& node_at(std::uint32_t id) const { return meta_.nodes[id]; }
  const std::vector<std::uint32_t>& body_nodes(std::uint32_t id) const { return meta_.bodies[id]; }
  const std::vector<Signature>& signatures() const { return meta_.signatures; }

private:
  static std::string key(const Signature& s)
  {
    std::string k;
    trace::cformat::Tables::key_begin(k, s.name);
    for (const Slot& slot : s.slots)
      trace::cformat::Tables::key_slot(k, slot.kind, slot.literal, slot.offset);
    return k;
  }

  trace::cformat::Meta& meta_;
  std::map<std::string, std::uint32_t> signature_ids_;
  std::map<std::tuple<bool, std::uint32_t, std::uint64_t>, std::uint32_t> node_ids_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> body_ids_;
};

class Butterflies {
public:
  explicit Butterflies(trace::cformat::Loaded& trace, const std::string& path)
      : trace_(trace), meta_(trace.meta), path_(path), tables_(trace.meta)
  {
  }

  /// The slopes of rank `r`'s loops of steps; which kinds of such loops it has.
  StepRanks fold_rank(int r)
  {
    rank_ = r;
    old_body_.clear();
    auto& entry = meta_.ranks[static_cast<std::size_t>(r)];
    std::uint32_t root = entry.root;
    find_step_loops(root);
    if (old_body_.empty())
      return {};
    StepRanks kinds;
    for (const auto& [node, body] : old_body_)
      for (std::uint32_t id : tables_.body_nodes(body))
        for (const Slot& slot : tables_.signatures()[tables_.node_at(id).ref].slots) {
          kinds.doubling = kinds.doubling || xor_steps(slot) ? 1 : 0;
          kinds.splits = kinds.splits || bisect_field(slot) ? 1 : 0;
        }
    slopes_.clear();
    root = apply_slopes(root, find_slopes(root));
    entry.block = rewrite_values(root);
    entry.root = root;
    return kinds;
  }

private:
  /// Every loop of steps that rank's structure `body` reaches, in old_body_ with its own body.
  void find_step_loops(std::uint32_t body)
  {
    for (std::uint32_t id : std::vector<std::uint32_t>(tables_.body_nodes(body))) {
      const Node n = tables_.node_at(id);
      if (n.loop && holds_steps(meta_, n.ref))
        old_body_[id] = n.ref;
      else if (n.loop)
        find_step_loops(n.ref);
    }
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
        if (auto it = old_body_.find(id); it != old_body_.end()) {
          StepTokens tokens;
          for (std::uint64_t c = 0; c < n.count; ++c)
            for (std::uint32_t item : tables_.body_nodes(it->second))
              tokens.push_back(read(tables_.node_at(item).ref));
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
  /// and `old_body_` follow the new loop nodes.
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
    std::map<std::uint32_t, std::uint32_t> old;
    for (const auto& [node, body] : old_body_)
      old[by.count(node) ? by[node] : node] = body;
    old_body_ = std::move(old);
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
  MetaTables tables_;
  int rank_ = 0;
  /// this rank's step loops (node ids): the body whose signatures their values are under in the rank's value block
  /// (the loop's own, until apply_slopes gives it signatures with slopes)
  std::map<std::uint32_t, std::uint32_t> old_body_;
  /// this rank's step loops whose values grow from step to step: per action of the body and value slot, by how much
  std::map<std::uint32_t, std::vector<std::vector<std::int64_t>>> slopes_;
};

} // namespace

std::unique_ptr<trace::TraceSet> butterfly_steps(std::unique_ptr<trace::TraceSet> set)
{
  return std::make_unique<StepsSet>(std::move(set));
}

std::optional<XorSteps> xor_steps(const Slot& slot)
{
  if (slot.kind != Slot::Kind::Literal || !slot.literal.starts_with("xor:"))
    return std::nullopt;
  XorSteps x;
  const std::string& l = slot.literal;
  auto [end, ec] = std::from_chars(l.data() + 4, l.data() + l.size(), x.low);
  std::string_view dir(end, static_cast<std::size_t>(l.data() + l.size() - end));
  if (dir.ends_with(":b"))
    dir.remove_suffix(2);
  if (ec != std::errc{} || x.low < 0 || (dir != ":up" && dir != ":down"))
    return std::nullopt;
  x.up = dir == ":up";
  return x;
}

std::optional<BisectField> bisect_field(const Slot& slot)
{
  if (slot.kind != Slot::Kind::Literal)
    return std::nullopt;
  if (slot.literal == "bisect:colour")
    return BisectField::Colour;
  if (slot.literal == "bisect:key")
    return BisectField::Key;
  if (slot.literal == "bisect:size")
    return BisectField::Size;
  return std::nullopt;
}

bool step_slot(const Slot& slot) { return xor_steps(slot).has_value() || bisect_field(slot).has_value(); }

bool holds_steps(const trace::cformat::Meta& meta, std::uint32_t body)
{
  bool step = false;
  for (std::uint32_t id : meta.bodies[body]) {
    const Node& n = meta.nodes[id];
    if (n.loop)
      return false; // a step is actions only
    for (const Slot& slot : meta.signatures[n.ref].slots)
      step = step || step_slot(slot);
  }
  return step;
}

StepRanks butterfly_slopes(trace::cformat::Loaded& trace, const std::string& path)
{
  Butterflies folder(trace, path);
  StepRanks ranks;
  for (int r = 0; r < trace.meta.rank_count; ++r)
    ranks += folder.fold_rank(r);
  return ranks;
}

std::vector<std::vector<std::pair<int, int>>> step_spans(const trace::cformat::Meta& meta)
{
  std::vector<std::vector<std::pair<int, int>>> spans(static_cast<std::size_t>(meta.rank_count));
  std::map<std::uint32_t, std::vector<std::pair<int, int>>> of_body; // per body: the spans it reaches (ranks share)
  auto walk = [&](auto& self, std::uint32_t body) -> const std::vector<std::pair<int, int>>& {
    if (auto it = of_body.find(body); it != of_body.end())
      return it->second;
    std::vector<std::pair<int, int>> found;
    for (std::uint32_t id : meta.bodies[body]) {
      const Node& n = meta.nodes[id];
      if (!n.loop)
        continue;
      if (!holds_steps(meta, n.ref)) {
        const auto& inner = self(self, n.ref);
        found.insert(found.end(), inner.begin(), inner.end());
        continue;
      }
      for (std::uint32_t a : meta.bodies[n.ref])
        for (const Slot& slot : meta.signatures[meta.nodes[a].ref].slots)
          if (std::optional<XorSteps> x = xor_steps(slot); x && n.count > 0 && n.count < kMaxSteps)
            found.emplace_back(x->low, static_cast<int>(n.count));
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return of_body[body] = std::move(found);
  };
  for (int r = 0; r < meta.rank_count; ++r)
    spans[static_cast<std::size_t>(r)] = walk(walk, meta.ranks[static_cast<std::size_t>(r)].root);
  return spans;
}

} // namespace tit::extrap
