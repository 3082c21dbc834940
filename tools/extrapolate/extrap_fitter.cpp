// The fit of each parameter of tit-trace extrapolate's classes (docs/extrapolation.md#functions): a function of the
// rank count or a grid dimension, a grid function of the rank's coordinates, a grid neighbour, rank or offset for a
// partner, a mean for a volume or a data-dependent size, a held trip count; or the refusal that says why none is.
#include "extrap_fitter.hpp"

#include "trace/reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace tit::extrap {

namespace {

/// A trip count that no function fits exactly is taken as the largest input's when that is this close to every input's
/// (relative): Fitted::rounded.
constexpr double kTripTolerance = 0.05;
/// The same for the count of blocks gathered from the iterations they were in (Param::gathered): events the data
/// decide (miniFE's breakdown checks, 16, 15 and 17 times at 64, 128 and 256 ranks).
constexpr double kGatheredTolerance = 0.25;

/// The dimensions along which the ranks of `cls` are first, last or alone (where a node-based mesh's rank may own one
/// more plane: extrap::fit_face); none for one class of every rank.
std::array<bool, 3> edges(const ClassModel& cls)
{
  std::array<bool, 3> e{false, false, false};
  if (cls.key != kEveryRank)
    for (std::size_t k = 0; k < 3; ++k)
      e[k] = cls.position[k] != 1;
  return e;
}

/// "4, 8, 8": dimension `k` of each point's grid.
std::string dimension_values(const std::vector<Point>& pts, int k)
{
  std::string s;
  for (const Point& x : pts)
    s += fmt::format("{}{}", s.empty() ? "" : ", ", x.dims[static_cast<std::size_t>(k)]);
  return s;
}

std::string points_text(const std::vector<Point>& pts, const std::vector<std::string>& values)
{
  std::string s;
  for (std::size_t i = 0; i < pts.size(); ++i)
    s += fmt::format("{}{}: {}", i ? ", " : "", pts[i].p, values[i]);
  return s;
}

/// `f` (a partner given per rank) with Fitted::one_to_one set when, in every input, each rank of the class had a partner
/// of its own.
Fitted one_to_one(Fitted f, const std::vector<const Observation*>& obs)
{
  f.one_to_one = std::all_of(obs.begin(), obs.end(), [](const Observation* o) {
    std::set<long long> partners;
    for (auto [rank, q] : o->by_rank)
      partners.insert(q);
    return partners.size() == o->by_rank.size();
  });
  return f;
}

} // namespace

std::string delta_text(const std::array<int, 3>& d, int dimensions)
{
  std::string s = "(";
  for (int k = 0; k < dimensions; ++k)
    s += fmt::format("{}{:+d}", k ? "," : "", d[k]);
  return s + ")";
}

std::string class_context(const ClassModel& cls, const Param& p)
{
  return fmt::format("{} of the ranks of class ({})", p.where, cls.name);
}

Fitter::Fitter(const std::vector<Input>& inputs, Scaling scaling, int dimensions, const Grid& target)
    : inputs_(inputs), scaling_(scaling), dimensions_(dimensions)
{
  target_ = Point{};
  target_->p = target.ranks();
  target_->dims = target.sizes();
}

Fitted Fitter::fit(const ClassModel& cls, const Param& p, const std::optional<std::array<int, 3>>& partner_delta) const
{
  std::vector<Point> pts;
  std::vector<std::string> shown;
  std::vector<const Observation*> obs;
  std::vector<std::size_t> input_of;
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    const Observation& o = p.per_input[i];
    if (!cls.in_input[i] || !o.seen)
      continue;
    obs.push_back(&o);
    input_of.push_back(i);
    Point x;
    x.p = inputs_[i].ranks();
    x.dims = inputs_[i].grid.sizes();
    pts.push_back(x);
  }
  if (pts.size() < 3)
    throw ExtrapolationError(fmt::format("error: {} is seen in {} input(s) only; fitting needs 3 (give inputs whose "
                                         "grids have at least 3 ranks along every dimension)",
                                         class_context(cls, p), pts.size()));
  Fitted f;
  f.points = pts;
  f.gathered = p.gathered;
  if (p.kind == Param::Kind::Partner)
    return fit_partner(cls, p, obs, input_of, std::move(f));
  bool volume = p.volume || std::any_of(obs.begin(), obs.end(), [](const Observation* o) { return !o->all_int; });
  f.integer = !volume;
  f.int_tokens = std::all_of(obs.begin(), obs.end(), [](const Observation* o) { return o->all_int; });
  bool differs = std::any_of(obs.begin(), obs.end(), [](const Observation* o) { return !o->all_equal; });
  if (!volume && differs) {
    if (std::optional<Fitted> g = fit_per_rank(obs, input_of, f))
      return *g;
  }
  if (double spread = 0; !volume && differs && data_dependent_sizes(p, spread)) {
    volume = true; // sizes that depend on the data: their mean, fitted approximately, written as an integer
    f.integer = false;
    f.approx_size = true;
    f.size_spread = spread;
  }
  if (!volume && differs)
    refuse_differing(cls, p, obs, input_of);
  for (std::size_t k = 0; k < obs.size(); ++k) {
    const Observation& o = *obs[k];
    pts[k].value = volume ? o.mean() : trace::detail::parse_double(o.first_token).value_or(0);
    shown.push_back(volume ? fmt::format("{:.6g}", pts[k].value) : o.first_token);
  }
  if (f.integer && partner_delta)
    if (std::optional<Var> face = face_variable(*partner_delta, dimensions_))
      // a halo's face (docs/extrapolation.md#faces)
      if (std::optional<Fit> r = fit_face(pts, *face, edges(cls), target_)) {
        f.fit = *r;
        f.face = true;
        f.points = pts;
        return f;
      }
  // a value written as an integer: under 0.5 at the target it would be written as 0, no action (extrap::fit applies
  // the floor to volumes and approximate sizes only; integers fit exactly)
  double least = f.int_tokens ? 0.5 : 0;
  std::optional<Fit> result = extrap::fit(pts, dimensions_, f.integer, scaling_, target_, least);
  if (!result && f.integer) // the class's ranks on a boundary: a coordinate such as n1 - 1 times a stride
    if (std::optional<Fitted> g = fit_per_rank(obs, input_of, f))
      return *g;
  if (!result && f.integer)
    if (std::optional<int> k = undetermined_dimension(pts, dimensions_, *target_))
      throw ExtrapolationError(fmt::format(
          "error: {}: the values (p: value {}; first seen in `{}`) follow n{}, which is {} on the inputs' grids and "
          "{} at the target's: no input says what they are there (give inputs on which n{} takes 3 values or more, "
          "or one with the target's)",
          class_context(cls, p), points_text(pts, shown), obs.front()->first.text, *k,
          dimension_values(pts, *k), target_->dims[static_cast<std::size_t>(*k)], *k));
  if (double spread = 0; !result && f.integer && data_dependent_sizes(p, spread)) {
    // a size equal on the class's ranks in each input but no exact function of p (NPB IS's own keys, 4143, 1029,
    // 259 at 4, 8, 16 ranks: 65536 / p^2 and the data's noise): fitted approximately
    f.integer = false;
    f.approx_size = true;
    f.size_spread = spread;
    result = extrap::fit(pts, dimensions_, false, scaling_, target_, least);
  }
  if (!result && f.integer && p.kind == Param::Kind::Trip) {
    result = held_trip(pts, p.gathered ? kGatheredTolerance : kTripTolerance);
    f.rounded = result.has_value();
  }
  if (!result)
    throw ExtrapolationError(fmt::format("error: {}: no function of the family fits the values exactly (p: value "
                                         "{}; first seen in `{}`); integers must fit exactly",
                                         class_context(cls, p), points_text(pts, shown), obs.front()->first.text));
  f.fit = *result;
  f.points = pts;
  return f;
}

void Fitter::refuse_differing(const ClassModel& cls, const Param& p, const std::vector<const Observation*>& obs,
                              const std::vector<std::size_t>& input_of) const
{
  auto k = static_cast<std::size_t>(
      std::find_if(obs.begin(), obs.end(), [](const Observation* o) { return !o->all_equal; }) - obs.begin());
  const Observation& o = *obs[k];
  bool usable = std::all_of(obs.begin(), obs.end(), [](const Observation* x) { return x->per_rank_ok; });
  throw ExtrapolationError(fmt::format(
      "error: {}: {} ({} ranks) has {} at rank {} (action {}: `{}`) and {} at rank {} (action {}: `{}`); "
      "extrapolation needs one value per class and input, or {} (a compute or sleep volume may vary: its mean "
      "is fitted)",
      class_context(cls, p), inputs_[input_of[k]].path, inputs_[input_of[k]].ranks(), o.first_token,
      o.first.rank, o.first.action, o.first.text, o.other_token, o.other.rank, o.other.action, o.other.text,
      usable ? "one function of the rank's grid coordinates (a + x0, n0 * x1, ...) on every rank of every input, "
               "which none of the family is"
             : "on each rank an integer that is the same in every occurrence, a function of the rank's grid "
               "coordinates"));
}

std::optional<Fit> Fitter::held_trip(const std::vector<Point>& pts, double tolerance)
{
  auto largest = std::max_element(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.p < b.p; });
  Fit held;
  held.model.a = largest->value; // Term::Const
  for (const Point& x : pts)
    held.error = std::max(held.error, std::fabs(x.value - held.model.a) / std::max(std::fabs(x.value), 1.0));
  held.exact = false;
  if (held.error > tolerance)
    return std::nullopt;
  return held;
}

std::optional<Fitted> Fitter::fit_per_rank(const std::vector<const Observation*>& obs,
                                           const std::vector<std::size_t>& input_of, Fitted f) const
{
  std::vector<RankValues> values;
  for (std::size_t k = 0; k < obs.size(); ++k) {
    if (!obs[k]->per_rank_ok)
      return std::nullopt;
    RankValues v;
    v.at = f.points[k];
    for (auto [rank, value] : obs[k]->by_rank)
      v.values.emplace_back(inputs_[input_of[k]].grid.coords(rank), value);
    values.push_back(std::move(v));
  }
  std::optional<GridFunction> g = fit_grid_function(values, dimensions_, scaling_);
  if (!g)
    return std::nullopt;
  f.how = Fitted::How::PerRank;
  f.integer = true;
  f.fit = g->offset;
  for (Point& x : f.points)
    x.value = g->offset.model.eval(x);
  f.per_rank = std::move(g);
  return f;
}

Fitted Fitter::fit_partner(const ClassModel& cls, const Param& p, const std::vector<const Observation*>& obs,
                           const std::vector<std::size_t>& input_of, Fitted f) const
{
  auto all = [&](auto pred) { return std::all_of(obs.begin(), obs.end(), pred); };
  for (std::size_t k = 0; k < obs.size(); ++k) {
    const Observation& o = *obs[k];
    if (!o.delta_ok && !o.absolute_ok && !o.offset_ok) {
      if (std::optional<Fitted> g = fit_per_rank(obs, input_of, f)) // a transpose: n0 * x0 + x1
        return one_to_one(*g, obs);
      throw ExtrapolationError(fmt::format(
          "error: {}: in {} ({} ranks), the partner is neither the same grid neighbour, nor the same rank, nor at "
          "the same offset on every rank of the class, nor a function of the rank's grid coordinates in every input "
          "(a + x0 + n0 * x1, n0 * x0 + x1, ...): rank {} (action {}: `{}`) against rank {} (action {}: `{}`)",
          class_context(cls, p), inputs_[input_of[k]].path, inputs_[input_of[k]].ranks(), o.first.rank,
          o.first.action, o.first.text, o.other.rank, o.other.action, o.other.text));
    }
  }
  // A grid offset that fits every input (a dimension of 2 ranks allows both signs: the inputs where it is wider
  // decide), the first input's own offset first.
  if (all([](const Observation* o) { return o->delta_ok; })) {
    std::vector<std::array<int, 3>> common = obs.front()->deltas;
    for (const Observation* o : obs)
      std::erase_if(common, [&](const auto& d) { return std::find(o->deltas.begin(), o->deltas.end(), d) == o->deltas.end(); });
    if (!common.empty()) {
      // offsets that differ along a dimension that is 2 ranks wide in every input but wider at the target: no input
      // says which side the partner is on
      for (std::size_t k = 0; k < 3; ++k) {
        bool differ = std::any_of(common.begin(), common.end(), [&](const auto& d) { return d[k] != common[0][k]; });
        if (differ && target_->dims[k] > 2)
          throw ExtrapolationError(fmt::format(
              "error: {}: the partner is the grid neighbour on either side along dimension {} (n{}), which is 2 "
              "ranks wide in every input and {} at the target: no input says which side (give inputs with 3 or "
              "more ranks along it; first seen in `{}`)",
              class_context(cls, p), k, k, target_->dims[k], obs.front()->first.text));
      }
      auto own = std::find(common.begin(), common.end(), obs.front()->delta);
      f.how = Fitted::How::Delta;
      f.delta = own != common.end() ? *own : common.front();
      return f;
    }
  }
  bool absolute = all([](const Observation* o) { return o->absolute_ok; });
  bool offset = all([](const Observation* o) { return o->offset_ok; });
  for (bool use_absolute : {true, false}) {
    if (use_absolute ? !absolute : !offset)
      continue;
    for (std::size_t k = 0; k < obs.size(); ++k)
      f.points[k].value = use_absolute ? obs[k]->absolute : obs[k]->offset;
    if (std::optional<Fit> result = extrap::fit(f.points, dimensions_, true, scaling_)) {
      f.how = use_absolute ? Fitted::How::Absolute : Fitted::How::Offset;
      f.fit = *result;
      return f;
    }
  }
  if (std::optional<Fitted> g = fit_per_rank(obs, input_of, f))
    return one_to_one(*g, obs);
  std::string seen;
  for (std::size_t k = 0; k < obs.size(); ++k)
    seen += fmt::format("{}{}: rank {} (offset {}{})", k ? ", " : "", f.points[k].p, obs[k]->absolute,
                        obs[k]->offset, obs[k]->delta_ok ? ", grid offset " + delta_text(obs[k]->delta, dimensions_)
                                                         : std::string());
  throw ExtrapolationError(fmt::format(
      "error: {}: the partner is no fixed grid neighbour, and neither its rank nor its offset from the rank fits a "
      "function of the family exactly (p: partner {}; first seen in `{}`)",
      class_context(cls, p), seen, obs.front()->first.text));
}

} // namespace tit::extrap
