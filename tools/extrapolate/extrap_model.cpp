// Class structures of tit-trace extrapolate (docs/extrapolation.md#model): each rank's folded structure is walked
// (every loop iteration, reading the rank's value streams) against its class's structure, collecting the numbers.
#include "extrap_model.hpp"
#include "extrap_values.hpp"

#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

#include <initializer_list>
#include <map>
#include <set>

namespace tit::extrap {

namespace {

using trace::cformat::Loaded;
using trace::cformat::Node;
using trace::cformat::Signature;
using trace::cformat::Slot;
using trace::cformat::Stream;

bool canonical(const std::string& token)
{
  std::int64_t v = 0;
  return trace::cformat::canonical_int(token, v);
}

std::string loop_text(std::uint64_t count) { return fmt::format("a loop of {} iterations", count); }

/// The slots of `s` on `ranks` ranks with each per-rank vector as one Value slot, flagged in `vector`.
std::vector<Slot> collapse(const Signature& s, int ranks, std::vector<bool>& vector)
{
  std::vector<std::size_t> starts = vector_segments(s.name, s.slots.size(), ranks);
  std::vector<Slot> out;
  vector.clear();
  for (std::size_t j = 0; j < s.slots.size();) {
    if (std::find(starts.begin(), starts.end(), j) != starts.end()) {
      out.push_back(Slot{Slot::Kind::Value, "", 0});
      vector.push_back(true);
      j += static_cast<std::size_t>(ranks);
    } else {
      out.push_back(s.slots[j]);
      vector.push_back(false);
      ++j;
    }
  }
  return out;
}

/// Whether argument `j` of a `name` action is a point-to-point message's size (a count, or bytes in dialect 1): a size
/// that may differ by the data or by a partition that does not divide evenly (Param::size).
bool message_size(const std::string& name, trace::Dialect dialect, std::size_t j)
{
  if (name == "sendRecv")
    return j == 0 || j == 2;
  static const char* const messages[] = {"send", "isend", "Isend", "recv", "irecv", "Irecv",
                                         "Ssend", "ISsend", "bsend", "ibsend"};
  bool message = std::any_of(std::begin(messages), std::end(messages), [&](const char* m) { return name == m; });
  return message && j == (dialect == trace::Dialect::SimGrid ? 2 : 1);
}

/// Walks one rank of one input against its class's structure.
class RankWalk {
public:
  RankWalk(const Input& in, std::size_t input_index, int rank, ClassModel& cls, bool keep_samples = false)
      : in_(in), meta_(in.trace.meta), input_(input_index), rank_(rank), cls_(cls), keep_samples_(keep_samples)
  {
    const auto& streams = in.trace.blocks.at(meta_.ranks[rank].block);
    for (const Stream& s : streams)
      cursors_.emplace(std::pair(s.signature, s.slot), Cursor(&s));
  }

  void build() { cls_.top = build_body(meta_.ranks[rank_].root, ""); }

  void merge()
  {
    merge_body(cls_.top, meta_.ranks[rank_].root, "");
    std::string token;
    for (auto& [key, c] : cursors_)
      if (c.next(token))
        throw ExtrapolationError(fmt::format("{}: error: rank {}: values left in its value stream after its last "
                                             "action (corrupt compressed trace)",
                                             in_.path, rank_));
  }

private:
  std::string where(const std::string& prefix, std::size_t k) const
  {
    return prefix.empty() ? std::to_string(k + 1) : fmt::format("{}>{}", prefix, k + 1);
  }

  std::size_t new_param(Param::Kind kind, bool volume, std::string where_text)
  {
    Param p;
    p.kind = kind;
    p.volume = volume;
    p.where = std::move(where_text);
    cls_.params.push_back(std::move(p));
    return cls_.params.size() - 1;
  }

  std::vector<TemplateNode> build_body(std::uint32_t body, const std::string& prefix)
  {
    std::vector<TemplateNode> out;
    const auto& ids = meta_.bodies[body];
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const Node& n = meta_.nodes[ids[k]];
      TemplateNode t;
      t.loop = n.loop;
      t.position = where(prefix, k);
      if (n.loop) {
        t.trip = new_param(Param::Kind::Trip, false, fmt::format("item {}, a loop", t.position));
        t.body = build_body(n.ref, t.position);
        t.sample = loop_text(n.count);
      } else {
        const Signature& s = meta_.signatures[n.ref];
        t.name = s.name;
        t.slots = collapse(s, meta_.rank_count, t.vector);
        t.params.assign(t.slots.size(), 0);
        t.others.assign(t.slots.size(), 0);
        t.near.assign(t.slots.size(), {});
        t.far.assign(t.slots.size(), 0);
        for (std::size_t j = 0; j < t.slots.size(); ++j) {
          if (t.slots[j].kind == Slot::Kind::Literal)
            continue;
          bool partner = t.slots[j].kind == Slot::Kind::Relative;
          std::string what = fmt::format("item {} `{}`, argument {}", t.position, s.name, j + 1);
          if (t.vector[j]) {
            t.params[j] = new_param(Param::Kind::Value, false, what + " (per-rank vector: the rank's own entry)");
            t.others[j] = new_param(Param::Kind::Value, false, what + " (per-rank vector: every other entry)");
            t.far[j] = new_param(Param::Kind::Value, false, what + " (per-rank vector: the entries of non-neighbours)");
            for (std::size_t q : {t.params[j], t.others[j], t.far[j]})
              cls_.params[q].size = true;
            if (j > 0 && t.slots[j - 1].kind == Slot::Kind::Value && !t.vector[j - 1])
              cls_.params[t.params[j - 1]].size = true; // the vector's sum (alltoallv), or the count sent (gatherv)
            continue;
          }
          if (!t.slots[j].literal.empty()) // a value of recursive-doubling steps that grows by a slope a step
            what += fmt::format(" (at the first step; {})", t.slots[j].literal);
          t.params[j] = new_param(partner ? Param::Kind::Partner : Param::Kind::Value,
                                  !partner && is_volume_action(s.name), what + (partner ? " (partner)" : ""));
          cls_.params[t.params[j]].size = message_size(s.name, cls_.dialect, j);
        }
        // a message's size and its partner: the action's first argument (sendRecv: the size's next one)
        for (std::size_t j = 0; j < t.slots.size(); ++j) {
          if (t.slots[j].kind == Slot::Kind::Literal || t.vector[j] || !message_size(s.name, cls_.dialect, j))
            continue;
          std::size_t q = s.name == "sendRecv" ? j + 1 : 0;
          if (q < t.slots.size() && t.slots[q].kind == Slot::Kind::Relative)
            cls_.params[t.params[j]].partner = t.params[q];
        }
      }
      out.push_back(std::move(t));
    }
    return out;
  }

  /// The action's tokens (partners absolute) for node `n`, read from the value streams.
  std::vector<std::string> read_tokens(const Signature& s, std::uint32_t sig)
  {
    std::vector<std::string> tokens;
    std::uint32_t ordinal = 0;
    for (const Slot& slot : s.slots) {
      switch (slot.kind) {
        case Slot::Kind::Literal: tokens.push_back(slot.literal); break;
        case Slot::Kind::Relative: tokens.push_back(std::to_string(partner(slot))); break;
        case Slot::Kind::Value: {
          std::string token;
          auto it = cursors_.find(std::pair(sig, ordinal++));
          if (it == cursors_.end() || !it->second.next(token))
            throw ExtrapolationError(fmt::format("{}: error: action {} of rank {}: its value stream ends before it "
                                                 "(corrupt compressed trace)",
                                                 in_.path, action_, rank_));
          tokens.push_back(std::move(token));
          break;
        }
      }
    }
    return tokens;
  }

  int partner(const Slot& slot) const
  {
    std::int64_t n = meta_.rank_count;
    return static_cast<int>(((rank_ + slot.offset) % n + n) % n);
  }

  std::string text(const std::string& name, const std::vector<std::string>& tokens) const
  {
    std::string t = fmt::format("{} {}", rank_, name);
    for (const std::string& tok : tokens)
      t += " " + tok;
    return t;
  }

  /// What this rank has at item `k` of `body` (for a message), reading its values.
  std::string describe_item(std::uint32_t body, std::size_t k)
  {
    const auto& ids = meta_.bodies[body];
    if (k >= ids.size())
      return "nothing (its sequence ends there)";
    const Node& n = meta_.nodes[ids[k]];
    if (n.loop)
      return loop_text(n.count);
    const Signature& s = meta_.signatures[n.ref];
    std::vector<std::string> tokens = read_tokens(s, n.ref);
    action_ += gap_filler(s, tokens) ? 0 : 1;
    return fmt::format("action {}: `{}`", action_, text(s.name, tokens));
  }

  /// A `compute 0`, as merge_computes puts in the gaps without a compute: not counted in the actions' numbers.
  static bool gap_filler(const Signature& s, const std::vector<std::string>& tokens)
  {
    return s.name == "compute" && tokens.size() == 1 && tokens[0] == "0";
  }

  [[noreturn]] void mismatch(const std::vector<TemplateNode>& tbody, std::uint32_t body, std::size_t k,
                             const std::string& prefix)
  {
    std::string theirs = k < tbody.size() ? tbody[k].sample : "nothing (its sequence ends there)";
    std::string ours = describe_item(body, k);
    throw ExtrapolationError(fmt::format(
        "error: ranks of class ({}) differ in structure at item {} (items of the rank's sequence, then of each loop's "
        "body, from 1): rank {} of {} ({} ranks) has {}, where rank {} of {} has {}; extrapolation needs the same "
        "loops and actions on every rank of a class in every input",
        cls_.name, where(prefix, k), rank_, in_.path, meta_.rank_count, ours, cls_.origin_rank, cls_.origin_path,
        theirs));
  }

  void observe_value(Param& p, const std::string& token, const std::string& action_text)
  {
    Observation& o = p.per_input[input_];
    std::optional<double> v = trace::detail::parse_double(token);
    bool is_int = canonical(token);
    if (!o.seen) {
      o.seen = true;
      o.first_token = token;
      o.first = Origin{rank_, action_, action_text};
    } else if (o.all_equal && token != o.first_token) {
      o.all_equal = false;
      o.other_token = token;
      o.other = Origin{rank_, action_, action_text};
    }
    o.all_int = o.all_int && is_int;
    if (o.per_rank_ok) {
      std::int64_t i = 0;
      o.per_rank_ok = trace::cformat::canonical_int(token, i);
      auto [it, added] = o.by_rank.try_emplace(rank_, i);
      o.per_rank_ok = o.per_rank_ok && (added || it->second == i);
      if (!o.per_rank_ok)
        o.by_rank.clear();
    }
    o.low = o.count ? std::min(o.low, v.value_or(0)) : v.value_or(0);
    o.high = o.count ? std::max(o.high, v.value_or(0)) : v.value_or(0);
    o.sum += v.value_or(0);
    o.nonzero += v.value_or(0) != 0 ? 1 : 0;
    ++o.count;
    if (keep_samples_ && p.volume)
      o.samples[rank_].push_back(v.value_or(0));
  }

  void observe_partner(Param& p, int q, const std::string& action_text)
  {
    Observation& o = p.per_input[input_];
    std::int64_t n = meta_.rank_count;
    int offset = static_cast<int>(((q - rank_) % n + n) % n);
    std::optional<std::array<int, 3>> delta = in_.grid.neighbour(rank_, q);
    std::vector<std::array<int, 3>> deltas = in_.grid.neighbour_offsets(rank_, q);
    if (!o.seen) {
      o.seen = true;
      o.first = Origin{rank_, action_, action_text};
      o.delta_ok = delta.has_value();
      if (delta)
        o.delta = *delta;
      o.deltas = std::move(deltas);
      o.absolute = q;
      o.offset = offset;
      o.by_rank[rank_] = q;
      return;
    }
    bool was_ok = o.delta_ok || o.absolute_ok || o.offset_ok;
    if (o.per_rank_ok) { // a function of the rank's grid coordinates (a transpose): the same partner at each occurrence
      auto [it, added] = o.by_rank.try_emplace(rank_, q);
      o.per_rank_ok = added || it->second == q;
      if (!o.per_rank_ok)
        o.by_rank.clear();
    }
    std::erase_if(o.deltas, [&](const auto& d) { return std::find(deltas.begin(), deltas.end(), d) == deltas.end(); });
    o.delta_ok = o.delta_ok && !o.deltas.empty();
    o.absolute_ok = o.absolute_ok && q == o.absolute;
    o.offset_ok = o.offset_ok && offset == o.offset;
    if (was_ok && !(o.delta_ok || o.absolute_ok || o.offset_ok))
      o.other = Origin{rank_, action_, action_text};
  }

  /// A per-rank vector (tokens [first, first + ranks)): the rank's own entry; every other entry as one value (they
  /// must be equal), and as one value per grid offset of a neighbour and one for the non-neighbours (which must be
  /// equal): the fit takes the first model that holds.
  void observe_vector(TemplateNode& t, std::size_t c, const std::vector<std::string>& tokens, std::size_t first,
                      const std::string& action_text)
  {
    observe_value(cls_.params[t.params[c]], tokens[first + static_cast<std::size_t>(rank_)], action_text);
    std::optional<int> other, far;
    for (int e = 0; e < meta_.rank_count; ++e) {
      if (e == rank_)
        continue;
      const std::string& v = tokens[first + static_cast<std::size_t>(e)];
      observe_value(cls_.params[t.others[c]], v, action_text); // every entry: their mean and spread (sizes_within_spread)
      if (!other) {
        other = e;
      } else if (v != tokens[first + static_cast<std::size_t>(*other)] && cls_.params[t.others[c]].refusal.empty()) {
        cls_.params[t.others[c]].refusal = fmt::format(
            "error: rank {} of {} ({} ranks), action {}: `{}`: the entries of its per-rank vector (argument {} of the "
            "action with each vector counted as one) for ranks {} and {} differ ({} and {}); extrapolation models such "
            "a vector as the rank's own entry and one value for every other rank, or one value per grid neighbour "
            "and one for every other rank",
            rank_, in_.path, meta_.rank_count, action_, action_text, c + 1, *other, e,
            tokens[first + static_cast<std::size_t>(*other)], v);
      }
      std::optional<std::array<int, 3>> delta = in_.grid.neighbour(rank_, e);
      if (delta) {
        auto [it, added] = t.near[c].try_emplace(*delta, 0);
        if (added) {
          it->second = new_param(Param::Kind::Value, false,
                                 fmt::format("item {} `{}`, argument {} (per-rank vector: the entry of the neighbour "
                                             "at grid offset {})",
                                             t.position, t.name, c + 1, delta_name(*delta)));
          cls_.params[it->second].per_input.assign(cls_.in_input.size(), Observation{});
          cls_.params[it->second].size = true;
        }
        observe_value(cls_.params[it->second], v, action_text);
        continue;
      }
      observe_value(cls_.params[t.far[c]], v, action_text);
      if (!far) {
        far = e;
      } else if (v != tokens[first + static_cast<std::size_t>(*far)] && cls_.params[t.far[c]].refusal.empty()) {
        cls_.params[t.far[c]].refusal = fmt::format("rank {} of {}: entries for the non-neighbours {} and {} differ",
                                                    rank_, in_.path, *far, e);
      }
    }
  }

  std::string delta_name(const std::array<int, 3>& d) const
  {
    std::string s = "(";
    for (int k = 0; k < in_.grid.dimensions(); ++k)
      s += fmt::format("{}{:+d}", k ? "," : "", d[static_cast<std::size_t>(k)]);
    return s + ")";
  }

  /// The grid offset of the first partner other than the rank itself of item `id`, an action; std::nullopt when it
  /// has none or that partner is no grid neighbour.
  std::optional<std::array<int, 3>> partner_delta(std::uint32_t id) const
  {
    const Node& n = meta_.nodes[id];
    if (n.loop)
      return std::nullopt;
    for (const Slot& slot : meta_.signatures[n.ref].slots)
      if (slot.kind == Slot::Kind::Relative && partner(slot) != rank_)
        return in_.grid.neighbour(rank_, partner(slot));
    return std::nullopt;
  }

  /// Per item of `ids` (the rank's body merged into `tbody`), the item to merge there: itself, but in a run of actions
  /// of one kind to distinct grid neighbours (a compute at most between two), whose offsets are those of the class's
  /// first rank in another order, the rank's action to the first rank's offset. A program that sends to its
  /// neighbours in the order of their ranks, or of the nodes they share, lists them in another order of offsets on
  /// each rank of a class when the grid is not numbered in row order (miniFE's setup on its recursive bisection); the
  /// order within such a run is the first rank's (docs/extrapolation.md#grid).
  std::vector<std::size_t> partner_order(std::vector<TemplateNode>& tbody, const std::vector<std::uint32_t>& ids) const
  {
    std::vector<std::size_t> from(ids.size());
    std::iota(from.begin(), from.end(), std::size_t{0});
    if (ids.size() != tbody.size())
      return from;
    auto name_of = [&](std::size_t q) { return meta_.signatures[meta_.nodes[ids[q]].ref].name; };
    for (std::size_t k = 0; k < ids.size();) {
      std::vector<std::size_t> run;
      std::vector<std::array<int, 3>> deltas;
      std::set<std::uint32_t> refs;
      for (std::size_t q = k; q < ids.size();) {
        std::optional<std::array<int, 3>> d = tbody[q].loop ? std::nullopt : partner_delta(ids[q]);
        if (!d || name_of(q) != tbody[q].name || (!run.empty() && tbody[q].name != tbody[run.front()].name))
          break;
        run.push_back(q);
        deltas.push_back(*d);
        refs.insert(meta_.nodes[ids[q]].ref);
        q += q + 2 < ids.size() && !tbody[q + 1].loop && tbody[q + 1].name == "compute" ? 2 : 1;
      }
      k = run.empty() ? k + 1 : run.back() + 1;
      if (run.size() < 2)
        continue;
      bool first = false; // the first rank to reach some of the run's actions: their order is its own
      for (std::size_t i = 0; i < run.size(); ++i)
        if (!tbody[run[i]].canon) {
          tbody[run[i]].canon = deltas[i];
          first = true;
        }
      if (first)
        continue;
      if (refs.size() != run.size() || std::set(deltas.begin(), deltas.end()).size() != deltas.size())
        continue; // a partner twice: nothing to reorder by
      std::vector<std::size_t> source; // each of the rank's actions once: the offsets are distinct
      for (std::size_t q : run) {
        auto it = std::find(deltas.begin(), deltas.end(), *tbody[q].canon);
        if (it == deltas.end() || std::find(source.begin(), source.end(), run[static_cast<std::size_t>(
                                                                               it - deltas.begin())]) != source.end())
          break;
        source.push_back(run[static_cast<std::size_t>(it - deltas.begin())]);
      }
      if (source.size() == run.size())
        for (std::size_t i = 0; i < run.size(); ++i)
          from[run[i]] = source[i];
    }
    return from;
  }

  void merge_body(std::vector<TemplateNode>& tbody, std::uint32_t body, const std::string& prefix)
  {
    const auto& ids = meta_.bodies[body];
    const std::vector<std::size_t> from = partner_order(tbody, ids);
    for (std::size_t k = 0; k < std::max(ids.size(), tbody.size()); ++k) {
      if (k >= ids.size() || k >= tbody.size())
        mismatch(tbody, body, k, prefix);
      const Node& n = meta_.nodes[ids[from[k]]];
      TemplateNode& t = tbody[k];
      if (n.loop != t.loop)
        mismatch(tbody, body, k, prefix);
      if (n.loop) {
        if (in_.gathered.count(ids[k]) > 0)
          cls_.params[t.trip].gathered = true;
        Observation& o = cls_.params[t.trip].per_input[input_];
        std::string count = std::to_string(n.count);
        if (!o.seen) {
          o.seen = true;
          o.first_token = count;
          o.first = Origin{rank_, action_ + 1, loop_text(n.count)};
        } else if (o.all_equal && count != o.first_token) {
          o.all_equal = false;
          o.other_token = count;
          o.other = Origin{rank_, action_ + 1, loop_text(n.count)};
        }
        o.sum += static_cast<double>(n.count);
        ++o.count;
        for (std::uint64_t c = 0; c < n.count; ++c)
          merge_body(t.body, n.ref, t.position);
        continue;
      }
      const Signature& s = meta_.signatures[n.ref];
      std::vector<bool> vector;
      std::vector<Slot> slots = collapse(s, meta_.rank_count, vector);
      bool same = s.name == t.name && slots.size() == t.slots.size() && vector == t.vector;
      for (std::size_t j = 0; same && j < slots.size(); ++j)
        same = slots[j].kind == t.slots[j].kind &&
               (slots[j].kind == Slot::Kind::Relative || slots[j].literal == t.slots[j].literal); // a value's: its
                                                                                                   // slope (`+1/step`)
      if (!same)
        mismatch(tbody, body, k, prefix);
      std::vector<std::string> tokens = read_tokens(s, n.ref);
      action_ += gap_filler(s, tokens) ? 0 : 1; // actions are numbered as in the trace
      std::string action_text = text(s.name, tokens);
      if (t.sample.empty())
        t.sample = fmt::format("action {}: `{}`", action_, action_text);
      for (std::size_t c = 0, j = 0; c < slots.size(); ++c) {
        if (vector[c]) {
          observe_vector(t, c, tokens, j, action_text);
          j += static_cast<std::size_t>(meta_.rank_count);
          continue;
        }
        if (s.slots[j].kind == Slot::Kind::Relative)
          observe_partner(cls_.params[t.params[c]], partner(s.slots[j]), action_text);
        else if (s.slots[j].kind == Slot::Kind::Value)
          observe_value(cls_.params[t.params[c]], tokens[j], action_text);
        ++j;
      }
    }
  }

  const Input& in_;
  const trace::cformat::Meta& meta_;
  std::size_t input_;
  int rank_;
  ClassModel& cls_;
  bool keep_samples_ = false; ///< keep this rank's volumes (Observation::samples)
  std::map<std::pair<std::uint32_t, std::uint32_t>, Cursor> cursors_;
  std::uint64_t action_ = 0;
};

} // namespace

double Observation::spread() const
{
  double m = mean();
  if (high == low)
    return 0;
  return m > 0 ? (high - low) / m : std::numeric_limits<double>::infinity();
}

bool data_dependent_sizes(const Param& p, double& largest)
{
  largest = 0;
  for (const Observation& o : p.per_input) {
    if (!o.seen)
      continue;
    if (!o.all_int)
      return false;
    largest = std::max(largest, o.spread());
  }
  return p.size;
}

std::vector<std::size_t> vector_segments(const std::string& name, std::size_t n, int ranks)
{
  static const char* const vector_actions[] = {"alltoallv", "gatherv", "scatterv", "allgatherv", "reducescatter"};
  std::string base;
  for (const char* a : vector_actions)
    if (name == a || name == std::string("i") + a)
      base = a;
  std::size_t p = static_cast<std::size_t>(ranks);
  auto any_of = [n](std::initializer_list<std::size_t> counts) {
    return std::find(counts.begin(), counts.end(), n) != counts.end();
  };
  if (base == "alltoallv" && any_of({2 * p + 2, 2 * p + 4}))
    return {1, p + 2};
  if ((base == "gatherv" && any_of({p + 1, p + 2, p + 4})) || (base == "allgatherv" && any_of({p + 1, p + 3})))
    return {1};
  if (base == "allgatherv" && n == 2 * p + 3)
    return {1, p + 3};
  if ((base == "scatterv" && any_of({p + 1, p + 2, p + 4})) || (base == "reducescatter" && any_of({p + 1, p + 2})))
    return {0};
  return {};
}

std::vector<ClassModel> build_classes(const std::vector<Input>& inputs, bool one_class, bool keep_samples)
{
  std::map<int, ClassModel> classes;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Input& in = inputs[i];
    for (int r = 0; r < in.ranks(); ++r) {
      std::array<int, 3> pos = in.grid.position(r);
      auto [it, added] = classes.try_emplace(class_key(in.grid, r, one_class));
      ClassModel& cls = it->second;
      if (added) {
        cls.position = pos;
        cls.key = it->first;
        cls.name = one_class ? "every rank" : position_name(pos, in.grid.dimensions());
        cls.dialect = in.trace.meta.ranks[r].dialect;
        cls.in_input.assign(inputs.size(), false);
        cls.origin_input = i;
        cls.origin_rank = r;
        cls.origin_path = in.path;
        RankWalk(in, i, r, cls).build();
        for (Param& p : cls.params)
          p.per_input.assign(inputs.size(), Observation{});
      }
      cls.in_input[i] = true;
      RankWalk(in, i, r, cls, keep_samples && i + 1 == inputs.size()).merge();
    }
  }
  std::vector<ClassModel> out;
  for (auto& [code, cls] : classes)
    out.push_back(std::move(cls));
  return out;
}

namespace {

/// One rank's actions with consecutive compute actions merged, and a `compute 0` in every gap that has none
/// (merge_computes).
class MergedComputes : public trace::RankReader {
public:
  explicit MergedComputes(std::unique_ptr<trace::RankReader> in) : in_(std::move(in)) {}

  bool next(trace::Action& out) override
  {
    if (!has_next_ && !ended_) {
      has_next_ = fetch();
      ended_ = !has_next_;
    }
    if (gap_due_ && started_ && (ended_ || next_.kind != trace::Kind::Compute)) {
      // a gap (between two non-compute actions, after the last) without a compute
      gap_due_ = false;
      cur_ = trace::Action{};
      cur_.kind = trace::Kind::Compute;
      cur_.dialect = dialect_;
      cur_.rank = rank_;
      cur_.amount = 0;
      cur_.line = line_;
      cur_.file = file_;
      cur_name_ = "compute";
      cur_text_ = fmt::format("{} compute 0", rank_);
      return emit(out);
    }
    if (!has_next_)
      return false;
    has_next_ = false;
    cur_ = next_;
    cur_text_ = next_text_;
    cur_name_ = next_name_;
    if (cur_.kind == trace::Kind::Compute) {
      double sum = cur_.amount;
      bool merged = false;
      while (fetch()) {
        if (next_.kind != trace::Kind::Compute) {
          has_next_ = true;
          break;
        }
        sum += next_.amount;
        merged = true;
      }
      if (merged) {
        cur_.amount = sum;
        cur_text_ = fmt::format("{} {} {}", cur_.rank, cur_name_, sum);
      }
    }
    gap_due_ = cur_.kind != trace::Kind::Compute; // the gap after it, unless a compute follows
    return emit(out);
  }

  const std::string& file() const override { return in_->file(); }

private:
  bool emit(trace::Action& out)
  {
    cur_.text = cur_text_;
    cur_.name = cur_name_;
    point_args(cur_); // the underlying reader's views have moved on
    out = cur_;
    return true;
  }

  /// Reads the next action into next_ (its text owned here); false at the end.
  bool fetch()
  {
    if (!in_->next(next_))
      return false;
    next_text_ = std::string(next_.text);
    next_name_ = std::string(next_.name);
    started_ = true;
    rank_ = next_.rank;
    dialect_ = next_.dialect;
    line_ = next_.line;
    file_ = next_.file;
    return true;
  }

  std::unique_ptr<trace::RankReader> in_;
  trace::Action cur_, next_;
  std::string cur_text_, cur_name_, next_text_, next_name_;
  bool has_next_ = false;
  bool ended_ = false;
  bool started_ = false; // an action was read (a rank with none has no gap either)
  bool gap_due_ = false; // the gap before the next action has no compute yet (none before the first action: the items
                         // of a rank's sequence keep their numbers)
  int rank_ = 0;
  trace::Dialect dialect_ = trace::Dialect::SimGrid;
  std::uint64_t line_ = 0;
  const std::string* file_ = nullptr;
};

class MergedComputesSet : public trace::TraceSet {
public:
  explicit MergedComputesSet(std::unique_ptr<trace::TraceSet> in) : in_(std::move(in)) {}
  int rank_count() const override { return in_->rank_count(); }
  bool has_own_rank_count() const override { return in_->has_own_rank_count(); }
  std::unique_ptr<trace::RankReader> reader(int r) override
  {
    return std::make_unique<MergedComputes>(in_->reader(r));
  }
  std::string describe() const override { return in_->describe(); }
  const std::string& compute_unit() const override { return in_->compute_unit(); }

private:
  std::unique_ptr<trace::TraceSet> in_;
};

} // namespace

void point_args(trace::Action& a)
{
  a.args.clear();
  std::string_view rest = a.text;
  for (int field = 0; !rest.empty(); ++field) {
    std::size_t start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos)
      break;
    rest.remove_prefix(start);
    std::size_t end = std::min(rest.find_first_of(" \t"), rest.size());
    if (field >= 2)
      a.args.push_back(rest.substr(0, end));
    rest.remove_prefix(end);
  }
}

std::unique_ptr<trace::TraceSet> merge_computes(std::unique_ptr<trace::TraceSet> set)
{
  return std::make_unique<MergedComputesSet>(std::move(set));
}

std::vector<std::vector<long long>> split_colours(const Input& input)
{
  const auto& meta = input.trace.meta;
  std::vector<std::vector<long long>> out(static_cast<std::size_t>(meta.rank_count));
  for (int r = 0; r < meta.rank_count; ++r) {
    RankValues values(input.trace, r, input.path);
    auto walk = [&](auto& self, std::uint32_t body) -> void {
      for (std::uint32_t id : meta.bodies[body]) {
        const Node& n = meta.nodes[id];
        if (n.loop) {
          for (std::uint64_t c = 0; c < n.count; ++c)
            self(self, n.ref);
          continue;
        }
        const Signature& s = meta.signatures[n.ref];
        std::uint32_t ordinal = 0;
        std::int64_t colour = 0;
        for (std::size_t j = 0; j < s.slots.size(); ++j) {
          if (s.slots[j].kind != Slot::Kind::Value)
            continue;
          std::string token = values.next(n.ref, ordinal++);
          if (s.name == "comm_split" && j == 1 && trace::cformat::canonical_int(token, colour))
            out[static_cast<std::size_t>(r)].push_back(colour);
        }
      }
    };
    walk(walk, meta.ranks[r].root);
  }
  return out;
}

std::size_t grid_line_members(const std::vector<std::vector<long long>>& colours, const Grid& grid)
{
  std::map<std::pair<std::size_t, long long>, std::vector<int>> groups; // (split, colour) -> members
  for (std::size_t r = 0; r < colours.size(); ++r)
    for (std::size_t k = 0; k < colours[r].size(); ++k)
      if (colours[r][k] >= 0)
        groups[std::pair(k, colours[r][k])].push_back(static_cast<int>(r));
  std::size_t members = 0;
  for (const auto& [key, ranks] : groups) {
    std::array<int, 3> first = grid.coords(ranks.front());
    std::array<bool, 3> varies{false, false, false};
    for (int r : ranks) {
      std::array<int, 3> c = grid.coords(r);
      for (std::size_t k = 0; k < 3; ++k)
        varies[k] = varies[k] || c[k] != first[k];
    }
    std::size_t span = 1;
    int spanned = 0;
    for (int k = 0; k < grid.dimensions(); ++k)
      if (varies[static_cast<std::size_t>(k)]) {
        span *= static_cast<std::size_t>(grid.dims[static_cast<std::size_t>(k)]);
        ++spanned;
      }
    if (spanned > 0 && spanned < grid.dimensions() && span == ranks.size())
      members += ranks.size();
  }
  return members;
}

std::vector<std::pair<int, int>> partner_pairs(const Input& input)
{
  const auto& meta = input.trace.meta;
  // the signatures each body reaches, per structure (ranks share structures)
  std::map<std::uint32_t, std::set<std::uint32_t>> reach;
  auto signatures_of = [&](std::uint32_t root) -> const std::set<std::uint32_t>& {
    auto [it, added] = reach.try_emplace(root);
    if (added) {
      std::vector<std::uint32_t> todo{root};
      std::set<std::uint32_t> seen_bodies;
      while (!todo.empty()) {
        std::uint32_t b = todo.back();
        todo.pop_back();
        if (!seen_bodies.insert(b).second)
          continue;
        for (std::uint32_t id : meta.bodies[b]) {
          const Node& n = meta.nodes[id];
          if (n.loop)
            todo.push_back(n.ref);
          else
            it->second.insert(n.ref);
        }
      }
    }
    return it->second;
  };
  std::vector<std::pair<int, int>> pairs;
  std::int64_t n = meta.rank_count;
  for (int r = 0; r < meta.rank_count; ++r)
    for (std::uint32_t sig : signatures_of(meta.ranks[r].root))
      for (const Slot& slot : meta.signatures[sig].slots)
        if (slot.kind == Slot::Kind::Relative)
          pairs.emplace_back(r, static_cast<int>(((r + slot.offset) % n + n) % n));
  return pairs;
}

} // namespace tit::extrap
