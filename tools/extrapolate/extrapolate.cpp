// tit-trace extrapolate (docs/extrapolation.md): inputs folded (extrap_unroll.cpp) and gridded, class structures
// merged (extrap_model.cpp), every number fitted (extrap_fitter.cpp, with the functions of extrap_fit.cpp), and the
// target's ranks written as a compressed trace (extrap_target.cpp).
#include "extrapolate.hpp"
#include "extrap_fitter.hpp"
#include "extrap_target.hpp"
#include "extrap_unroll.hpp"

#include "compressed/compressed.hpp"
#include "trace/reader.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <optional>
#include <tuple>

namespace fs = std::filesystem;

namespace tit::tracetool {

namespace {

using extrap::ClassAtTarget;
using extrap::ClassModel;
using extrap::ExtrapolationError;
using extrap::Fitted;
using extrap::Fitter;
using extrap::class_context;
using extrap::delta_text;
using extrap::Grid;
using extrap::Input;
using extrap::Observation;
using extrap::Param;
using extrap::Point;
using extrap::TemplateNode;

/// The longest loop whose iterations may differ in their values (unrolled by unroll_varying_loops).
constexpr std::uint64_t kMaxVaryingTrip = 64;
/// A rank's sequence this long is searched for a repeated block longer than the folder's window (fold_long_repeats).
constexpr std::size_t kLongSequence = 256;

/// `path` read and folded, with the passes of docs/extrapolation.md#model; with `steps`, its runs of recursive-doubling
/// steps folded too (the number of ranks that have some added to `step_ranks`).
Input load(const fs::path& path, bool steps, extrap::StepRanks& step_ranks)
{
  Input in;
  in.path = path.string();
  // compressed inputs too are read action by action, for merge_computes
  std::unique_ptr<trace::TraceSet> set = extrap::merge_computes(trace::TraceSet::open(path, std::nullopt));
  if (steps)
    set = extrap::butterfly_steps(std::move(set));
  std::vector<std::vector<extrap::GatheredRun>> gathered;
  set = extrap::gather_sporadic_blocks(std::move(set), gathered);
  in.trace = trace::cformat::fold(*set, trace::ValueMode{});
  extrap::unroll_communicator_loops(in.trace);
  extrap::unroll_pairs(in.trace);
  extrap::fold_long_repeats(in.trace, in.path, kLongSequence);
  extrap::unroll_varying_loops(in.trace, in.path, kMaxVaryingTrip);
  if (steps) {
    extrap::rotate_loops(in.trace); // the loops of steps move where the folder begins outer loops
    step_ranks += extrap::butterfly_slopes(in.trace, in.path);
  }
  in.gathered = extrap::gathered_loops(in.trace, gathered); // after the passes: they keep the actions' order
  in.gathered_ranks = static_cast<std::size_t>(
      std::count_if(gathered.begin(), gathered.end(), [](const auto& runs) { return !runs.empty(); }));
  return in;
}

/// Whether recursive-doubling steps with partners rank XOR 2^k, k from `low` to `low + n - 1`, run along whole
/// dimensions of `g`: the dimensions before the first hold 2^low ranks, and those up to the last 2^(low + n) (NPB CG's
/// row sums along rows of n0; steps over every rank run along all dimensions of any grid, and favour none).
bool steps_along_dimensions(const Grid& g, int low, int n)
{
  std::vector<long long> below{1}; // ranks in the dimensions before each dimension, and in all
  for (int size : g.dims)
    below.push_back(below.back() * size);
  bool starts = false;
  for (long long b : below) {
    starts = starts || b == (1LL << low);
    if (starts && b == (1LL << (low + n)))
      return true;
  }
  return false;
}

/// How the inputs' ranks lie on their grids: the dimension count and the numbering.
struct Layout {
  int dimensions = 1;
  bool largest_fastest = false; ///< row-major, the largest dimension varying fastest
  /// RowMajor, or one of the recursive bisections (power-of-two rank counts)
  extrap::Numbering numbering = extrap::Numbering::RowMajor;

  /// Whether a bisection numbering would make more of the inputs' partners grid neighbours than this layout, were the
  /// target's rank count a power of two (said when the inputs are refused).
  bool blocked_by_target = false;

  bool bisection() const { return extrap::bisected(numbering); }
  /// The grid of `p` ranks; std::nullopt when `p` cannot be numbered so (bisection: not a power of two).
  std::optional<Grid> grid(int p) const
  {
    return bisection() ? extrap::bisection_grid(p, dimensions, numbering)
                       : extrap::grid_for(p, dimensions, largest_fastest);
  }
};

/// What a refusal adds when the inputs' ranks read best as numbered by recursive bisection and `target` ranks cannot be.
std::string bisection_hint(int target)
{
  return fmt::format("; the inputs' ranks are numbered by recursive bisection (most of their partners are grid "
                     "neighbours so), which needs a power of two ranks, and the target has {}",
                     target);
}

/// The grids of the inputs (docs/extrapolation.md#grid): the dimension count and numbering under which most partner
/// pairs are grid neighbours, most ranks are in communicators that are grid rows, columns or planes and most steps of
/// recursive doubling run along whole dimensions; ties to fewer dimensions, then to MPI_Cart_create's numbering, then
/// to the largest dimension fastest, then to recursive bisection in turn along the dimensions, and last to recursive
/// bisection of the dimension with the most ranks left (both tried when every input and the target, `target` ranks,
/// are powers of two).
Layout find_grid(const std::vector<Input>& inputs, std::optional<int> dimensions, int target)
{
  std::vector<std::vector<std::pair<int, int>>> pairs;
  std::vector<std::vector<std::vector<long long>>> splits;
  std::vector<std::vector<std::vector<std::pair<int, int>>>> spans;
  for (const Input& in : inputs) {
    pairs.push_back(extrap::partner_pairs(in));
    splits.push_back(extrap::split_colours(in));
    spans.push_back(extrap::step_spans(in.trace.meta));
  }
  std::optional<Layout> best, blocked; // blocked: the best bisection layout that the target's rank count rules out
  std::size_t best_score = 0, blocked_score = 0;
  for (int d = dimensions.value_or(1); d <= dimensions.value_or(3); ++d) {
    using extrap::Numbering;
    for (Layout layout : {Layout{d, false, Numbering::RowMajor}, Layout{d, true, Numbering::RowMajor},
                          Layout{d, false, Numbering::Bisection}, Layout{d, false, Numbering::BisectionLargest}}) {
      if (layout.bisection() && d == 1)
        continue; // a 1-D bisection is the row order
      const bool ruled_out = layout.bisection() && !layout.grid(target);
      std::size_t score = 0;
      bool usable = true;
      for (std::size_t i = 0; i < inputs.size() && usable; ++i) {
        std::optional<Grid> g = layout.grid(inputs[i].ranks());
        usable = g && (d == 1 || std::none_of(g->dims.begin(), g->dims.end(), [](int n) { return n == 1; }));
        if (!usable)
          break;
        for (auto [r, q] : pairs[i])
          score += g->neighbour(r, q) ? 1 : 0;
        score += extrap::grid_line_members(splits[i], *g);
        if (!layout.bisection())
          for (const auto& rank_spans : spans[i])
            for (auto [low, n] : rank_spans)
              score += steps_along_dimensions(*g, low, n) ? static_cast<std::size_t>(n) : 0;
      }
      if (usable && ruled_out && (!blocked || score > blocked_score)) {
        blocked = layout;
        blocked_score = score;
      } else if (usable && !ruled_out && (!best || score > best_score)) {
        best = layout;
        best_score = score;
      }
    }
  }
  if (!best)
    throw ExtrapolationError(fmt::format("error: the inputs' rank counts ({}) cannot all be {}-D grids (a dimension "
                                         "of 1){}",
                                         inputs.front().ranks(), dimensions.value_or(1),
                                         blocked ? bisection_hint(target) : ""));
  if (blocked && blocked_score > best_score)
    best->blocked_by_target = true;
  return *best;
}

/// Whether `p` is seen in 3 inputs at least (what fitting needs).
bool fittable(const Param& p)
{
  return std::count_if(p.per_input.begin(), p.per_input.end(), [](const Observation& o) { return o.seen; }) >= 3;
}

/// The parameters of `cls` that its per-rank vectors do not use (docs/extrapolation.md#per-rank-vectors): a vector
/// whose other entries are equal in every input uses one value for them; else one per neighbour's grid offset and
/// one for the non-neighbours, if those were equal and each is seen in 3 inputs; else one value for them, their mean
/// (data-dependent sizes). Throws the vector's refusal when none holds (entries that are no integers).
std::vector<bool> unused_params(const ClassModel& cls)
{
  std::vector<bool> unused(cls.params.size(), false);
  auto visit = [&](auto& self, const std::vector<TemplateNode>& nodes) -> void {
    for (const TemplateNode& t : nodes) {
      self(self, t.body);
      for (std::size_t j = 0; j < t.vector.size(); ++j) {
        if (!t.vector[j])
          continue;
        // the near and far model, when it holds and each of its parameters is seen in 3 inputs (else far entries
        // equal by chance, data-dependent ones, would be taken for a model)
        bool near_far = cls.params[t.far[j]].refusal.empty() && fittable(cls.params[t.far[j]]);
        for (const auto& [delta, param] : t.near[j])
          near_far = near_far && fittable(cls.params[param]);
        double spread = 0;
        if (cls.params[t.others[j]].refusal.empty()) {
          unused[t.far[j]] = true;
          for (const auto& [delta, param] : t.near[j])
            unused[param] = true;
        } else if (near_far || (cls.params[t.far[j]].refusal.empty() &&
                                !extrap::data_dependent_sizes(cls.params[t.others[j]], spread))) {
          unused[t.others[j]] = true;
        } else if (extrap::data_dependent_sizes(cls.params[t.others[j]], spread)) {
          // data-dependent counts (NPB IS's keys per destination): their mean, fitted approximately (Fitter::fit)
          unused[t.far[j]] = true;
          for (const auto& [delta, param] : t.near[j])
            unused[param] = true;
        } else {
          throw ExtrapolationError(cls.params[t.others[j]].refusal + " (" + cls.params[t.far[j]].refusal + ")");
        }
      }
    }
  };
  visit(visit, cls.top);
  return unused;
}

/// Whether an action of `top` (or of the loops in it) has a per-rank vector.
bool has_vectors(const std::vector<TemplateNode>& top)
{
  std::vector<const TemplateNode*> todo;
  for (const TemplateNode& t : top)
    todo.push_back(&t);
  while (!todo.empty()) {
    const TemplateNode* t = todo.back();
    todo.pop_back();
    if (std::find(t->vector.begin(), t->vector.end(), true) != t->vector.end())
      return true;
    for (const TemplateNode& u : t->body)
      todo.push_back(&u);
  }
  return false;
}

/// Throws when two functions that fit the inputs exactly (the chosen one and an alternative) differ at the target.
void check_alternatives(const ClassModel& cls, const Param& param, const Fitted& f, const Grid& target)
{
  double p = target.ranks();
  std::array<double, 3> dims = target.sizes();
  for (const extrap::Model& m : f.fit.alternatives) {
    double chosen = f.fit.model.eval(p, dims), other = m.eval(p, dims);
    bool same = f.integer ? std::llround(chosen) == std::llround(other)
                          : std::fabs(other - chosen) <= 1e-9 * std::max(std::fabs(chosen), 1.0);
    if (!same)
      throw ExtrapolationError(fmt::format(
          "error: {}: {} and {} both fit the inputs exactly but give {} and {} at {} ranks (grid {}); give inputs "
          "on which the grid dimensions are not functions of each other or of p (docs/extrapolation.md#grid), or "
          "a --grid whose shape is the inputs'",
          class_context(cls, param), f.fit.model.describe(), m.describe(), chosen, other, target.ranks(),
          target.describe()));
  }
}

/// An integer parameter (trip count, partner, value) at the target, into `c` (its int and token) and `f.target`.
void integer_at_target(const ClassModel& cls, const Param& param, std::size_t i, Fitted& f, const Grid& target,
                       ClassAtTarget& c)
{
  double p = target.ranks();
  std::array<double, 3> dims = target.sizes();
  std::optional<long long> v = f.rounded ? std::optional<long long>(std::llround(f.fit.model.eval(p, dims)))
                                         : extrap::integer_at(f.fit.model, p, dims);
  if (!v)
    throw ExtrapolationError(fmt::format("error: {}: {} fits the inputs but gives {} at {} ranks, not an integer",
                                         class_context(cls, param), f.fit.model.describe(), f.fit.model.eval(p, dims),
                                         target.ranks()));
  if (param.kind == Param::Kind::Trip && *v < 0)
    throw ExtrapolationError(fmt::format("error: {}: {} gives a negative trip count ({}) at {} ranks",
                                         class_context(cls, param), f.fit.model.describe(), *v, target.ranks()));
  if (f.how == Fitted::How::Absolute && (*v < 0 || *v >= target.ranks()))
    throw ExtrapolationError(fmt::format("error: {}: the partner {} is rank {}, not one of the {} ranks",
                                         class_context(cls, param), f.fit.model.describe(), *v, target.ranks()));
  c.ints[i] = *v;
  c.tokens[i] = std::to_string(*v);
  f.target = f.how == Fitted::How::Absolute ? "rank " + c.tokens[i]
             : f.how == Fitted::How::Offset ? "offset " + c.tokens[i]
                                            : c.tokens[i];
}

/// Whether a volume is resampled at the target: the largest input has it at every occurrence (a compute present in
/// some only keeps its share, spread evenly: value_at_target), with values that vary (measured volumes; a volume equal
/// everywhere keeps its one value, so that the ranks of a class still share their values).
bool resampled(const Param& param)
{
  const Observation& o = param.per_input.back();
  return o.seen && !o.all_equal && !o.samples.empty() && o.count > 0 && o.nonzero == o.count;
}

/// A volume or non-integer value at the target, into `c` and `f.target`. A compute's presence (merge_computes gives
/// every gap one, 0 where it had none): at the target, the share of its occurrences that had it in the largest input
/// that has the class, each present one with the mean of the present ones (so that the total is the fitted mean's),
/// spread evenly over the occurrences (target_trace).
void value_at_target(const ClassModel& cls, const Param& param, std::size_t i, Fitted& f, const Grid& target,
                     bool resample, ClassAtTarget& c)
{
  double v = f.fit.model.eval(target.ranks(), target.sizes());
  bool positive = std::all_of(f.points.begin(), f.points.end(), [](const Point& x) { return x.value > 0; });
  if (!std::isfinite(v) || (positive && v <= 0))
    throw ExtrapolationError(fmt::format("error: {}: {} gives {} at {} ranks, where every input's value is positive",
                                         class_context(cls, param), f.fit.model.describe(), v, target.ranks()));
  c.tokens[i] = extrap::volume_token(v, f.int_tokens);
  f.target = c.tokens[i];
  if (!param.volume || v <= 0)
    return;
  if (resample && resampled(param)) {
    const Observation& o = param.per_input.back();
    c.resample_mean[i] = v;
    for (const auto& [rank, values] : o.samples)
      c.resample_members[i].push_back(&values);
    c.resampled = true;
    f.target = fmt::format("{} on average, each rank varying as one of its class in the largest input ({} ranks)",
                           c.tokens[i], o.samples.size());
    return;
  }
  const Observation* largest = nullptr;
  for (std::size_t k = 0; k < param.per_input.size(); ++k)
    if (cls.in_input[k] && param.per_input[k].seen)
      largest = &param.per_input[k];
  if (largest == nullptr || largest->count == 0 || largest->nonzero >= largest->count)
    return;
  double share = static_cast<double>(largest->nonzero) / static_cast<double>(largest->count);
  c.presence[i] = share;
  c.sporadic = c.sporadic || (share > 0 && share < 1);
  if (share == 0) {
    c.tokens[i] = "0";
  } else {
    double present = v / share;
    c.tokens[i] = f.int_tokens ? std::to_string(std::max<long long>(1, std::llround(present))) : fmt::format("{}", present);
  }
  f.target = fmt::format("{} in {:.3g} % of the occurrences (as in the largest input: {} of {})", c.tokens[i],
                         100 * share, largest->nonzero, largest->count);
}

/// Evaluates the fitted parameters of `cls` at the target (throws when a value cannot be written); with `resample`,
/// volumes that vary in the largest input are resampled (value_at_target).
ClassAtTarget at_target(const ClassModel& cls, std::vector<Fitted> fitted, std::vector<bool> unused,
                        const Grid& target, bool resample)
{
  ClassAtTarget c;
  c.cls = &cls;
  c.unused = std::move(unused);
  c.ints.assign(cls.params.size(), 0);
  c.has_vectors = has_vectors(cls.top);
  c.tokens.assign(cls.params.size(), "");
  c.presence.assign(cls.params.size(), 1.0);
  c.resample_mean.assign(cls.params.size(), 0.0);
  c.resample_members.assign(cls.params.size(), {});
  for (std::size_t i = 0; i < cls.params.size(); ++i) {
    Fitted& f = fitted[i];
    const Param& param = cls.params[i];
    if (c.unused[i])
      continue;
    if (f.how == Fitted::How::Delta) {
      f.target = "grid offset " + delta_text(f.delta, target.dimensions());
    } else if (f.how == Fitted::How::PerRank) {
      if (!f.per_rank->at(target.ranks(), target.sizes(), {0, 0, 0}))
        throw ExtrapolationError(fmt::format("error: {}: {} fits the inputs but its constant term gives {} at {} "
                                             "ranks, not an integer",
                                             class_context(cls, param), f.per_rank->describe(),
                                             f.fit.model.eval(target.ranks(), target.sizes()), target.ranks()));
      c.per_rank = true;
      f.target = "per rank: " + f.per_rank->describe();
    } else {
      check_alternatives(cls, param, f, target);
      if (f.integer)
        integer_at_target(cls, param, i, f, target, c);
      else
        value_at_target(cls, param, i, f, target, resample, c);
    }
  }
  c.fitted = std::move(fitted);
  return c;
}

std::string error_text(double e) { return fmt::format("{:.3g}", e); }

void report_class(std::ostream& out, const ClassAtTarget& c, const Grid& target, int members)
{
  const ClassModel& cls = *c.cls;
  fmt::print(out, "class ({}): {} rank(s) at the target; structure of rank {} of {}\n", cls.name, members,
             cls.origin_rank, cls.origin_path);
  for (std::size_t i = 0; i < cls.params.size(); ++i) {
    const Fitted& f = c.fitted[i];
    const Param& p = cls.params[i];
    if (c.unused[i])
      continue;
    if (f.how == Fitted::How::Delta) {
      fmt::print(out, "  {}: grid neighbour {} in every input -> {}\n", p.where,
                 delta_text(f.delta, target.dimensions()), f.target);
      continue;
    }
    std::string values;
    for (std::size_t k = 0; k < f.points.size(); ++k)
      values += fmt::format("{}{}: {:.10g}", k ? ", " : "", f.points[k].p, f.points[k].value);
    std::string what = f.how == Fitted::How::PerRank  ? "per rank = "
                       : f.how == Fitted::How::Absolute ? "partner rank = "
                       : f.how == Fitted::How::Offset ? "partner offset = "
                       : p.kind == Param::Kind::Trip  ? "trip count = "
                       : p.volume || !f.integer       ? "mean = "
                                                      : "";
    fmt::print(out, "  {}: {}{} ({}, error {} on the inputs; leave-one-out error {}) -> {}\n", p.where, what,
               f.per_rank ? f.per_rank->describe() : f.fit.model.describe(), f.fit.exact ? "exact" : "approximate", error_text(f.fit.error),
               f.fit.loo_error < 0 ? std::string("-") : error_text(f.fit.loo_error), f.target);
    fmt::print(out, "      {} (p: value): {}\n", f.per_rank ? "its constant term on the inputs" : "inputs", values);
    if (f.face && f.fit.model.term != extrap::Term::Const)
      fmt::print(out, "      the face between the rank and its partner, a grid neighbour: a function of the dimensions "
                      "it spans, before any other\n");
    if (f.gathered)
      fmt::print(out, "      the count of a block of collectives gathered from the iterations of a loop that held it in some "
                      "iterations only (data decide which){}\n",
                 f.rounded ? ": held at the largest input's" : "");
    if (f.approx_size)
      fmt::print(out, "      a size fitted approximately (data-dependent, or a pattern no exact model fits): its values in an "
                      "input up to {:.3g} % apart, their mean\n",
                 f.size_spread * 100);
    if (!f.fit.also_exact.empty()) {
      std::string alts;
      for (const std::string& a : f.fit.also_exact)
        alts += (alts.empty() ? "" : "; ") + a;
      fmt::print(out, "      also exact on the inputs: {}\n", alts);
    }
  }
}

/// The classes of the inputs for `target`: by grid position; or, when the target has ranks of a position class that
/// fewer than 3 inputs have (a grid 2 ranks wide has no interior along that dimension), every rank in one class, if
/// all ranks of every input have one structure (a periodic grid: docs/extrapolation.md#one-class). The refusal names
/// the class and, when one class does not hold either, why.
std::pair<std::vector<ClassModel>, bool> classes_for(const std::vector<Input>& inputs, const Grid& target,
                                                     bool keep_samples)
{
  std::vector<ClassModel> by_position = extrap::build_classes(inputs, false, keep_samples);
  std::set<int> at_target;
  for (int r = 0; r < target.ranks(); ++r)
    at_target.insert(extrap::class_key(target, r, false));
  for (const ClassModel& cls : by_position) {
    if (at_target.count(cls.key) == 0 || std::count(cls.in_input.begin(), cls.in_input.end(), true) >= 3)
      continue;
    std::string seen_in;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (cls.in_input[i])
        seen_in += fmt::format("{}{}", seen_in.empty() ? "" : ", ", inputs[i].ranks());
    std::string refusal = fmt::format("error: the target has ranks of class ({}), which only the inputs of {} ranks "
                                      "have; fitting needs 3 (give inputs whose grids have at least 3 ranks along "
                                      "every dimension)",
                                      cls.name, seen_in);
    try {
      return {extrap::build_classes(inputs, true, keep_samples), true};
    } catch (const ExtrapolationError& e) {
      std::string why = e.what();
      if (why.starts_with("error: "))
        why = why.substr(7);
      throw ExtrapolationError(fmt::format("{}; nor are the ranks one class: {}", refusal, why));
    }
  }
  return {std::move(by_position), false};
}

/// Classes, fits and the target's trace of `inputs` (loaded, sorted, checked) on the grids of `layout`, written to
/// `out`; the summary to `report`. `butterflies`: how many ranks had recursive-doubling steps or bisection splits
/// folded (said in the summary).
void fit_on_layout(std::vector<Input>& inputs, const Layout& layout, const fs::path& out,
                   const ExtrapolateOptions& options, std::ostream& report, const extrap::StepRanks& butterflies)
{
  const int dimensions = layout.dimensions;
  for (Input& in : inputs)
    in.grid = *layout.grid(in.ranks());
  Grid target = options.grid ? *options.grid : *layout.grid(options.ranks);
  if (options.grid && layout.bisection()) {
    if (!extrap::powers_of_two(target))
      throw ExtrapolationError(fmt::format("error: --grid {}: the inputs' ranks are numbered by recursive bisection, "
                                           "whose grids have powers of two along every dimension",
                                           options.grid->describe()));
    target.numbering = layout.numbering;
  }

  auto [classes, one_class] = classes_for(inputs, target, options.resample);
  std::map<int, int> members; // per class key: ranks at the target
  for (int r = 0; r < target.ranks(); ++r) {
    ++members[extrap::class_key(target, r, one_class)];
  }
  Fitter fitter(inputs, options.scaling, dimensions, target);
  std::vector<ClassAtTarget> at;
  std::size_t parameters = 0, exact = 0, sizes = 0;
  double size_spread = 0;
  for (const ClassModel& cls : classes) {
    if (members.count(cls.key) == 0)
      continue; // a class the target has not (a grid too small for it)
    std::vector<bool> unused = unused_params(cls);
    std::vector<Fitted> fitted(cls.params.size());
    // the partners first: a message's size to a grid neighbour is fitted knowing the neighbour's offset
    for (bool partners : {true, false})
      for (std::size_t i = 0; i < cls.params.size(); ++i) {
        const Param& param = cls.params[i];
        if (unused[i] || partners != (param.kind == Param::Kind::Partner))
          continue;
        std::optional<std::array<int, 3>> delta;
        if (param.partner && !unused[*param.partner] && fitted[*param.partner].how == Fitted::How::Delta)
          delta = fitted[*param.partner].delta;
        fitted[i] = fitter.fit(cls, param, delta);
        ++parameters;
        exact += fitted[i].how == Fitted::How::Delta || fitted[i].fit.exact ? 1 : 0;
        sizes += fitted[i].approx_size ? 1 : 0;
        size_spread = std::max(size_spread, fitted[i].size_spread);
      }
    at.push_back(at_target(cls, std::move(fitted), std::move(unused), target, options.resample));
  }
  trace::cformat::Loaded result = extrap::target_trace(target, at, one_class, inputs[0].trace.meta.compute_unit);
  std::uint64_t bytes = trace::cformat::write_compressed(out, result);

  std::string sources;
  for (const Input& in : inputs)
    sources += fmt::format("{}{} ({})", sources.empty() ? "" : ", ", in.ranks(), Grid{in.grid.dims}.describe());
  fmt::print(report, "{}: {} ranks, grid {} ({}-D{}), from {} ranks; {} classes, {} parameters ({} exact), {} bytes\n",
             out.string(), target.ranks(), target.describe(), dimensions, layout.bisection() ? "" : ", n0 varies fastest",
             sources, at.size(), parameters, exact, bytes);
  if (std::any_of(at.begin(), at.end(), [](const ClassAtTarget& c) { return c.resampled; }))
    fmt::print(report, "volumes: the measured ones resampled, each rank varying around the fitted mean as a rank of its "
                       "class in the input of {} ranks (--volumes mean: the mean alone)\n",
               inputs.back().ranks());
  if (options.report)
    for (const ClassAtTarget& c : at)
      report_class(report, c, target, members[c.cls->key]);
  if (sizes > 0)
    fmt::print(report, "sizes: {} message sizes fitted approximately, as their mean (data, as NPB IS's keys, a partition "
                       "that does not divide evenly, or a pattern no exact model fits; their values in an input up to "
                       "{:.3g} % apart; --report: which)\n",
               sizes, size_spread * 100);
  std::size_t gathered = 0;
  for (const Input& in : inputs)
    gathered += in.gathered_ranks;
  if (gathered > 0)
    fmt::print(report, "gathered: on {} ranks of the inputs, blocks of collectives present in some iterations of a loop "
                       "only (data decide which) moved after it; their count fitted as a function or held at the largest "
                       "input's (--report: which)\n",
               gathered);
  if (butterflies.doubling > 0)
    fmt::print(report, "recursive-doubling steps (partners rank XOR 2^k, log2 p of them) folded into loops on {} ranks "
                       "of the inputs\n",
               butterflies.doubling);
  if (butterflies.splits > 0)
    fmt::print(report, "communicator splits by recursive bisection (each halving the last by a bit of the rank, up to "
                       "log2 p of them) folded into loops on {} ranks of the inputs\n",
               butterflies.splits);
}


/// Grids (find_grid), classes, fits and the target's trace of `inputs`, as fit_on_layout; a refusal says when the
/// inputs read best as numbered by recursive bisection, which the target's rank count rules out.
void fit_and_write(std::vector<Input>& inputs, const fs::path& out, const ExtrapolateOptions& options,
                   std::ostream& report, const extrap::StepRanks& butterflies)
{
  Layout layout = find_grid(inputs, options.grid ? std::optional(options.grid->dimensions()) : std::nullopt,
                            options.ranks);
  try {
    fit_on_layout(inputs, layout, out, options, report, butterflies);
  } catch (const ExtrapolationError& e) {
    if (!layout.blocked_by_target)
      throw;
    throw ExtrapolationError(std::string(e.what()) + bisection_hint(options.ranks));
  }
}

} // namespace

void extrapolate(const std::vector<fs::path>& traces, const fs::path& out, const ExtrapolateOptions& options,
                 std::ostream& report)
{
  if (traces.size() < 3)
    throw ExtrapolationError(fmt::format("error: extrapolation needs at least 3 trace sets, {} given", traces.size()));
  if (options.ranks < 1)
    throw ExtrapolationError(fmt::format("error: --ranks {}: expected a positive rank count", options.ranks));
  if (options.grid && options.grid->ranks() != options.ranks)
    throw ExtrapolationError(fmt::format("error: --grid {} has {} ranks, but --ranks is {}",
                                         options.grid->describe(), options.grid->ranks(), options.ranks));
  auto start = std::chrono::steady_clock::now();
  auto say = [&](const std::string& what) {
    if (options.progress != nullptr)
      fmt::print(*options.progress, "tit-trace extrapolate: {} ({:.1f} s)\n", what,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  // the inputs read, sorted by rank count and checked; with `steps`, their recursive-doubling steps and bisection
  // splits folded
  auto load_all = [&](bool steps, extrap::StepRanks& step_ranks) {
    std::vector<Input> inputs;
    for (std::size_t i = 0; i < traces.size(); ++i) {
      inputs.push_back(load(traces[i], steps, step_ranks));
      say(fmt::format("read {} of {}: {} ({} ranks){}", i + 1, traces.size(), traces[i].string(),
                      inputs.back().ranks(), steps ? ", with recursive-doubling steps and bisection splits folded" : ""));
    }
    std::sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) { return a.ranks() < b.ranks(); });
    for (std::size_t i = 1; i < inputs.size(); ++i) {
      if (inputs[i].ranks() == inputs[i - 1].ranks())
        throw ExtrapolationError(fmt::format("error: '{}' and '{}' both have {} ranks; extrapolation needs distinct "
                                             "rank counts",
                                             inputs[i - 1].path, inputs[i].path, inputs[i].ranks()));
      if (inputs[i].trace.meta.compute_unit != inputs[0].trace.meta.compute_unit)
        throw ExtrapolationError(fmt::format("error: '{}' counts compute volumes in '{}', '{}' in '{}'",
                                             inputs[0].path, inputs[0].trace.meta.compute_unit, inputs[i].path,
                                             inputs[i].trace.meta.compute_unit));
    }
    return inputs;
  };
  extrap::StepRanks none;
  std::vector<Input> inputs = load_all(false, none);
  try {
    fit_and_write(inputs, out, options, report, none);
    say(fmt::format("fitted, and wrote {}", out.string()));
  } catch (const ExtrapolationError& first) {
    // Another model: steps of recursive doubling folded into loops (tried second, so that a grid whose neighbours
    // happen to be rank XOR 2^k, a 2 x 2 x 2 torus, is read as the grid it is wherever that fits).
    say("the model refused the inputs; reading them again for recursive-doubling steps and bisection splits");
    extrap::StepRanks ranks;
    inputs = load_all(true, ranks);
    if (ranks.any() == 0)
      throw;
    try {
      fit_and_write(inputs, out, options, report, ranks);
      say(fmt::format("fitted, and wrote {}", out.string()));
    } catch (const ExtrapolationError& second) {
      std::string why = second.what();
      if (why.starts_with("error: "))
        why = why.substr(7);
      std::string folded;
      if (ranks.doubling > 0)
        folded = fmt::format("the recursive-doubling steps of {} ranks{}", ranks.doubling,
                             ranks.splits > 0 ? "" : " folded (partners rank XOR 2^k)");
      if (ranks.splits > 0)
        folded += fmt::format("{}the communicator splits by recursive bisection of {} ranks folded",
                              folded.empty() ? "" : " and ", ranks.splits);
      std::string head = first.what(), hint = bisection_hint(options.ranks);
      if (head.ends_with(hint) && why.ends_with(hint))
        head.erase(head.size() - hint.size()); // said once, at the end
      throw ExtrapolationError(fmt::format("{}; nor with {}: {}", head, folded, why));
    }
  }
}

} // namespace tit::tracetool
