// The compressed trace of tit-trace extrapolate's target (docs/extrapolation.md): each rank takes its class's
// structure, with the rank's partners and values at the target.
#include "extrap_target.hpp"
#include "extrap_unroll.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace tit::extrap {

namespace {

using trace::cformat::Slot;

class Generator {
public:
  Generator(const Grid& grid, const std::vector<ClassAtTarget>& classes, bool one_class)
      : grid_(grid), classes_(classes), one_class_(one_class)
  {
  }

  trace::cformat::Loaded run(const std::string& compute_unit)
  {
    trace::cformat::Loaded out;
    int p = grid_.ranks();
    std::map<int, std::size_t> by_position;
    for (std::size_t c = 0; c < classes_.size(); ++c)
      by_position[classes_[c].cls->key] = c;
    for (int r = 0; r < p; ++r) {
      std::array<int, 3> pos = grid_.position(r);
      auto it = by_position.find(class_key(grid_, r, one_class_));
      if (it == by_position.end())
        throw ExtrapolationError(fmt::format("error: the target's grid {} has ranks of class ({}), which no input has "
                                             "(rank {})",
                                             grid_.describe(), position_name(pos, grid_.dimensions()), r));
      const ClassAtTarget& c = classes_[it->second];
      std::vector<std::uint32_t> sigs;
      signatures(c, c.cls->top, r, sigs);
      // ranks of a class with the same signatures share their structure and values, unless a per-rank vector
      // puts the rank's own entry at its place, a value is a function of the rank's coordinates, a compute is
      // present in some occurrences only (spread over the class's ranks, not repeated on each), or a volume is
      // resampled (each rank varies as its own input member), or the class splits communicators by recursive
      // bisection (colours and keys from the rank's bits)
      std::size_t nth = class_ranks_[it->second]++; // the rank's place among its class's ranks at the target
      auto [splits, unknown] = bisects_.try_emplace(it->second, false);
      if (unknown)
        splits->second = has_bisect(c.cls->top);
      auto [entry, added] = cache_.try_emplace(std::tuple(
          it->second, sigs, c.has_vectors || c.per_rank || c.sporadic || c.resampled || splits->second ? r : -1));
      if (added) {
        std::size_t next = 0;
        std::optional<std::uint32_t> root = body(c, c.cls->top, sigs, next);
        if (!root)
          throw ExtrapolationError(fmt::format("error: rank {} of the target (class ({})) has no action left: every "
                                               "loop it has gets a trip count of 0",
                                               r, c.cls->name));
        entry->second.first = *root;
        trace::cformat::ValueStreams values;
        next = 0;
        // a sporadic compute's occurrences are counted over the class's ranks in order, so that one that a rank
        // meets once (outside any loop) is present on the share of the ranks it had in the input
        occurrences_ = &class_occurrences_[it->second];
        occurrences_->resize(c.cls->params.size(), 0);
        nth_ = nth;
        if (c.resampled)
          taken_.assign(c.cls->params.size(), 0);
        walk_values(c, c.cls->top, r, sigs, next, values);
        entry->second.second = static_cast<std::uint32_t>(out.blocks.size());
        out.blocks.push_back(values.take());
      }
      out.meta.ranks.push_back(trace::cformat::RankEntry{entry->second.first, c.cls->dialect, entry->second.second});
    }
    tables_.move_into(out.meta.signatures, out.meta.nodes, out.meta.bodies);
    out.meta.rank_count = p;
    out.meta.value_mode = "exact";
    if (sporadic_) {
      // computes present in some occurrences only: a `stats` file with nothing drawn (mode byte 4), in which a compute
      // of volume 0 is no action (docs/compressed-format.md), so that such a compute is absent where it was
      out.meta.value_mode = "stats";
      out.meta.pooled = true;
      out.meta.gaps = true;
    }
    out.meta.compute_unit = compute_unit;
    return out;
  }

private:
  int partner(const ClassAtTarget& c, std::size_t param, int rank)
  {
    const Fitted& f = c.fitted[param];
    int p = grid_.ranks();
    switch (f.how) {
      case Fitted::How::Delta: return grid_.at_offset(rank, f.delta);
      case Fitted::How::Absolute: return static_cast<int>(c.ints[param]);
      case Fitted::How::Offset: {
        long long q = (rank + c.ints[param]) % p;
        return static_cast<int>(q < 0 ? q + p : q);
      }
      case Fitted::How::PerRank: { // a transpose: a function of the rank's coordinates
        std::optional<long long> q = f.per_rank->at(p, grid_.sizes(), grid_.coords(rank));
        if (!q || *q < 0 || *q >= p)
          throw ExtrapolationError(fmt::format("error: the partner of the target's rank {} is {} = {}, not one of its "
                                               "{} ranks (grid {})",
                                               rank, f.per_rank->describe(), q ? std::to_string(*q) : "no integer",
                                               p, grid_.describe()));
        // a function that gave each rank of the class its own partner in every input (a transpose) does so here
        if (!f.one_to_one)
          return static_cast<int>(*q);
        auto [it, added] = partner_of_[{&c, param}].try_emplace(static_cast<int>(*q), rank);
        if (!added && it->second != rank)
          throw ExtrapolationError(fmt::format("error: the partner of the target's ranks {} and {} is rank {} ({}), "
                                               "where in every input each rank of their class had its own: the grid "
                                               "{} is not one this function describes (a transpose needs a square grid)",
                                               it->second, rank, *q, f.per_rank->describe(), grid_.describe()));
        return static_cast<int>(*q);
      }
      case Fitted::How::Function: break;
    }
    return rank;
  }

  /// The signature ids of the class's actions at `rank`, in template order (each action node once).
  void signatures(const ClassAtTarget& c, const std::vector<TemplateNode>& nodes, int rank,
                  std::vector<std::uint32_t>& out)
  {
    int p = grid_.ranks();
    for (const TemplateNode& t : nodes) {
      if (t.loop && steps_loop(t)) { // one signature per step: the partner differs
        long long count = c.ints[t.trip];
        for (long long i = 0; i < count; ++i) {
          step_ = Step{i, count};
          signatures(c, t.body, rank, out);
        }
        step_.reset();
        continue;
      }
      if (t.loop) {
        signatures(c, t.body, rank, out);
        continue;
      }
      trace::cformat::Signature s;
      s.name = t.name;
      for (std::size_t j = 0; j < t.slots.size(); ++j) {
        if (t.vector[j]) { // a per-rank vector: one value per rank
          s.slots.insert(s.slots.end(), static_cast<std::size_t>(p), t.slots[j]);
          continue;
        }
        s.slots.push_back(t.slots[j]);
        if (t.slots[j].kind == Slot::Kind::Value)
          s.slots.back().literal.clear(); // a slope of steps' values (`+1/step`): walk_values applies it
        if (step_ && bisect_field(t.slots[j])) {
          s.slots.back() = Slot{Slot::Kind::Value, "", 0}; // the split's own value: walk_values computes it
          continue;
        }
        std::optional<XorSteps> x = xor_steps(t.slots[j]);
        if (x ? !step_ : t.slots[j].kind != Slot::Kind::Relative)
          continue; // a literal (one `xor:` outside a loop of steps only from a crafted compressed input: as written)
        int q = x && step_ ? step_partner(*x, t, rank) : partner(c, t.params[j], rank);
        s.slots.back() = Slot{Slot::Kind::Relative, "", 0};
        std::int64_t k = ((static_cast<std::int64_t>(q) - rank) % p + p) % p;
        if (k > p / 2)
          k -= p;
        s.slots.back().offset = k;
      }
      out.push_back(tables_.signature(std::move(s)));
    }
  }

  /// Whether `t` is a compute that is absent at the target (volume 0: merge_computes gave its gap a compute 0, or
  /// present in fewer than half the occurrences: at_target); left out, with its value.
  static bool absent(const ClassAtTarget& c, const TemplateNode& t)
  {
    if (t.loop || t.name != "compute")
      return false;
    for (std::size_t j = 0; j < t.slots.size(); ++j)
      if (t.slots[j].kind == Slot::Kind::Value && !t.vector[j])
        return c.fitted[t.params[j]].how == Fitted::How::Function && c.tokens[t.params[j]] == "0";
    return false;
  }

  /// The body of `nodes` (loops of trip count 0 left out, with what they hold; absent computes too); `next` counts
  /// action nodes.
  std::optional<std::uint32_t> body(const ClassAtTarget& c, const std::vector<TemplateNode>& nodes,
                                    const std::vector<std::uint32_t>& sigs, std::size_t& next)
  {
    std::vector<trace::cformat::Node> items;
    append_items(c, nodes, sigs, next, items);
    if (items.empty())
      return std::nullopt;
    return tables_.body_of(items);
  }

  /// The items of `nodes` appended to `items` (a loop of recursive-doubling steps as its steps, one after the other).
  void append_items(const ClassAtTarget& c, const std::vector<TemplateNode>& nodes,
                    const std::vector<std::uint32_t>& sigs, std::size_t& next, std::vector<trace::cformat::Node>& items)
  {
    for (const TemplateNode& t : nodes) {
      if (t.loop && steps_loop(t)) {
        for (long long i = 0; i < c.ints[t.trip]; ++i)
          append_items(c, t.body, sigs, next, items);
        continue;
      }
      if (!t.loop) {
        if (absent(c, t)) {
          ++next;
          continue;
        }
        items.push_back(trace::cformat::Node{false, sigs[next++], 1});
        continue;
      }
      std::optional<std::uint32_t> inner = body(c, t.body, sigs, next);
      long long count = c.ints[t.trip];
      if (inner && count > 0)
        items.push_back(trace::cformat::Node{true, *inner, static_cast<std::uint64_t>(count)});
    }
  }

  void walk_values(const ClassAtTarget& c, const std::vector<TemplateNode>& nodes, int rank,
                   const std::vector<std::uint32_t>& sigs, std::size_t& next, trace::cformat::ValueStreams& values)
  {
    for (const TemplateNode& t : nodes) {
      if (t.loop && steps_loop(t)) { // its steps have signatures of their own, one after the other
        for (long long i = 0; i < c.ints[t.trip]; ++i) {
          step_ = Step{i, c.ints[t.trip]};
          walk_values(c, t.body, rank, sigs, next, values);
        }
        step_.reset();
        continue;
      }
      if (t.loop) {
        std::size_t start = next;
        long long count = c.ints[t.trip];
        for (long long i = 0; i < count; ++i) {
          next = start;
          walk_values(c, t.body, rank, sigs, next, values);
        }
        if (count <= 0)
          skip(c, t.body, next);
        continue;
      }
      std::uint32_t sig = sigs[next++];
      if (absent(c, t))
        continue;
      std::uint32_t ordinal = 0;
      for (std::size_t j = 0; j < t.slots.size(); ++j) {
        if (t.vector[j]) {
          bool by_neighbour = c.unused[t.others[j]];
          for (int e = 0; e < grid_.ranks(); ++e) {
            std::size_t param = e == rank ? t.params[j] : by_neighbour ? t.far[j] : t.others[j];
            if (by_neighbour && e != rank)
              if (std::optional<std::array<int, 3>> d = grid_.neighbour(rank, e))
                if (auto it = t.near[j].find(*d); it != t.near[j].end())
                  param = it->second;
            values.add(sig, ordinal++, c.token(param, rank, grid_));
          }
        } else if (std::optional<BisectField> field = step_ ? bisect_field(t.slots[j]) : std::nullopt) {
          values.add(sig, ordinal++, std::to_string(bisect_value(*field, t, rank)));
        } else if (t.slots[j].kind == Slot::Kind::Value) {
          std::size_t param = t.params[j];
          double share = c.presence[param];
          if (c.resample_mean[param] > 0) {
            values.add(sig, ordinal++, resampled_token(c, param));
          } else if (share > 0 && share < 1) {
            // present at occurrence k when floor((k + 1) share + phase) > floor(k share + phase): spread evenly,
            // share of them in all (to one). The phase, a Weyl sequence over the parameters, puts the absences of
            // different computes at different occurrences: with none, every compute of a loop body missed its first
            // occurrence, so the class's first rank had all of them in one iteration (miniAMR's rank 7 at 512 ranks:
            // 30 absent computes where its class averages 2).
            std::uint64_t k = (*occurrences_)[param]++;
            double phase = std::fmod(static_cast<double>(param + 1) * 0.6180339887498949, 1.0);
            bool present = std::floor(static_cast<double>(k + 1) * share + phase) >
                           std::floor(static_cast<double>(k) * share + phase);
            sporadic_ = true;
            values.add(sig, ordinal++, present ? c.token(param, rank, grid_) : std::string("0"));
          } else if (std::int64_t v = 0; step_ && !t.slots[j].literal.empty() &&
                                          trace::cformat::canonical_int(c.token(param, rank, grid_), v)) {
            // a value of recursive-doubling steps with a slope: its first step's, plus the slope at each step
            values.add(sig, ordinal++, std::to_string(v + slope(t.slots[j]) * step_->index));
          } else {
            values.add(sig, ordinal++, c.token(param, rank, grid_));
          }
        }
      }
    }
  }

  /// A resampled volume's next token at the rank being walked: the next value of its member (the n-th of the class's
  /// ranks in the largest input, cycling) over the input's mean, times the fitted mean (ClassAtTarget::resample_mean).
  /// Resampled volumes are present at every occurrence (resampled(), extrapolate.cpp): one written as an integer is
  /// at least 1, since a 0 would be no action.
  std::string resampled_token(const ClassAtTarget& c, std::size_t param)
  {
    const auto& members = c.resample_members[param];
    const std::vector<double>& values = *members[nth_ % members.size()];
    double input_mean = c.cls->params[param].per_input.back().mean();
    double v = values[taken_[param]++ % values.size()] / input_mean * c.resample_mean[param];
    return volume_token(c.fitted[param].int_tokens ? std::max(v, 1.0) : v, c.fitted[param].int_tokens);
  }

  /// `next` moved past the signatures of `nodes` (a loop's once, a loop of steps' once per step, as signatures()).
  static void skip(const ClassAtTarget& c, const std::vector<TemplateNode>& nodes, std::size_t& next)
  {
    for (const TemplateNode& t : nodes) {
      if (t.loop && steps_loop(t)) {
        for (long long i = 0; i < c.ints[t.trip]; ++i)
          skip(c, t.body, next);
      } else if (t.loop) {
        skip(c, t.body, next);
      } else {
        ++next;
      }
    }
  }

  /// The slope of a value slot of steps (`+1/step`, extrap_butterfly.cpp); 0 when it has none.
  static std::int64_t slope(const Slot& slot)
  {
    std::int64_t d = 0;
    const std::string& l = slot.literal;
    std::from_chars(l.data() + (l.starts_with('+') ? 1 : 0), l.data() + l.size(), d);
    return d;
  }
  /// Whether `nodes` reach a field of a bisection split (`bisect:...`), whose value is the rank's own.
  static bool has_bisect(const std::vector<TemplateNode>& nodes)
  {
    return std::any_of(nodes.begin(), nodes.end(), [](const TemplateNode& t) {
      return t.loop ? has_bisect(t.body)
                    : std::any_of(t.slots.begin(), t.slots.end(), [](const Slot& s) { return bisect_field(s).has_value(); });
    });
  }
  /// Whether loop `t` holds recursive-doubling steps or bisection splits (an action of its body has a partner
  /// `xor:...` or a field `bisect:...`).
  static bool steps_loop(const TemplateNode& t)
  {
    for (const TemplateNode& a : t.body)
      if (!a.loop && std::any_of(a.slots.begin(), a.slots.end(), step_slot))
        return true;
    return false;
  }
  /// The value of a bisection split's field at the step being written (split i halves the parent, of p / 2^i ranks,
  /// by bit log2 p - 1 - i of the rank); an error when the target's rank count is no power of two or has no such
  /// split.
  long long bisect_value(BisectField field, const TemplateNode& t, int rank) const
  {
    const long long p = grid_.ranks(), i = step_->index;
    const int bits = std::bit_width(static_cast<unsigned long long>(p)) - 1;
    if (!std::has_single_bit(static_cast<unsigned long long>(p)) || i >= bits)
      throw ExtrapolationError(fmt::format(
          "error: the target cannot make split {} of {} of the communicator splits by recursive bisection at item {}: "
          "such splits halve the {} ranks by one bit of the rank at a time, which needs a power of two ranks and as "
          "many splits as bits at most",
          i + 1, step_->count, t.position, p));
    switch (field) {
      case BisectField::Colour: return (rank >> (bits - 1 - i)) & 1;
      case BisectField::Key: return rank & ((p >> i) - 1);
      case BisectField::Size: return p >> (i + 1);
    }
    return 0;
  }
  /// `rank` XOR 2^k at the step being written; an error when the target has no such rank.
  int step_partner(const XorSteps& x, const TemplateNode& t, int rank) const
  {
    long long k = x.low + (x.up ? step_->index : step_->count - 1 - step_->index);
    long long q = k < 30 ? (static_cast<long long>(rank) ^ (1LL << k)) : -1;
    if (q < 0 || q >= grid_.ranks())
      throw ExtrapolationError(fmt::format(
          "error: the target's rank {} has no partner at step {} of {} of the recursive-doubling steps at item {} "
          "(rank XOR 2^{} is {}, and the target has {} ranks): such steps pair ranks whose numbers differ by one bit, "
          "which needs a power of two ranks",
          rank, step_->index + 1, step_->count, t.position, k, k < 30 ? std::to_string(q) : "beyond any rank",
          grid_.ranks()));
    return static_cast<int>(q);
  }

  const Grid& grid_;
  const std::vector<ClassAtTarget>& classes_;
  bool one_class_ = false;
  trace::cformat::Tables tables_;
  std::map<std::tuple<std::size_t, std::vector<std::uint32_t>, int>, std::pair<std::uint32_t, std::uint32_t>> cache_;
  std::map<std::size_t, bool> bisects_; ///< per class: has_bisect, once known
  /// per class, per parameter: occurrences written so far (over the class's ranks); the class being walked's
  std::map<std::size_t, std::vector<std::uint64_t>> class_occurrences_;
  std::vector<std::uint64_t>* occurrences_ = nullptr;
  std::size_t nth_ = 0;                       ///< the rank being walked's place among its class's ranks at the target
  std::vector<std::uint64_t> taken_;           ///< per parameter resampled: the values the rank took so far
  std::map<std::size_t, std::size_t> class_ranks_; ///< per class: its target ranks met so far
  /// per class and partner given by a grid function: which target rank has each partner (Fitted::one_to_one)
  std::map<std::pair<const ClassAtTarget*, std::size_t>, std::map<int, int>> partner_of_;
  bool sporadic_ = false;                  ///< a compute was written absent at some occurrences (a volume of 0)
  struct Step {
    long long index = 0, count = 0;
  };
  std::optional<Step> step_; ///< the recursive-doubling step whose signatures are being made
};

} // namespace

std::string volume_token(double v, bool int_tokens)
{
  return int_tokens ? std::to_string(std::llround(std::max(v, 0.0))) : fmt::format("{}", std::max(v, 0.0));
}

trace::cformat::Loaded target_trace(const Grid& grid, const std::vector<ClassAtTarget>& classes, bool one_class,
                                    const std::string& compute_unit)
{
  return Generator(grid, classes, one_class).run(compute_unit);
}

} // namespace tit::extrap
