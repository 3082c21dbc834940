// The function family of docs/extrapolation.md#functions and its selection by fit error.
#include "extrap_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace tit::extrap {

namespace {

double term_value(Term t, double x)
{
  switch (t) {
    case Term::Const: return 1;
    case Term::Linear: return x;
    case Term::Sqrt: return std::sqrt(x);
    case Term::Cbrt: return std::cbrt(x);
    case Term::TwoThirds: return std::cbrt(x) * std::cbrt(x);
    case Term::Log2: return std::log2(x);
    case Term::Inv: return 1 / x;
    case Term::InvSqrt: return 1 / std::sqrt(x);
    case Term::InvCbrt: return 1 / std::cbrt(x);
    case Term::InvTwoThirds: return 1 / (std::cbrt(x) * std::cbrt(x));
    case Term::Square: return x * x;
    case Term::InvSquare: return 1 / (x * x);
    case Term::NodeFace: return 1; // Model::eval
  }
  return 1;
}

/// The grid dimensions a face variable spans (none for p).
std::vector<std::size_t> var_dimensions(Var v)
{
  switch (v) {
    case Var::P: return {};
    case Var::Dim0: return {0};
    case Var::Dim1: return {1};
    case Var::Dim2: return {2};
    case Var::Dim01: return {0, 1};
    case Var::Dim02: return {0, 2};
    case Var::Dim12: return {1, 2};
  }
  return {};
}

double var_value(Var v, double p, const std::array<double, 3>& dims)
{
  switch (v) {
    case Var::P: return p;
    case Var::Dim0: return dims[0];
    case Var::Dim1: return dims[1];
    case Var::Dim2: return dims[2];
    case Var::Dim01: return dims[0] * dims[1];
    case Var::Dim02: return dims[0] * dims[2];
    case Var::Dim12: return dims[1] * dims[2];
  }
  return p;
}

/// Non-constant terms, in the order that wins ties.
std::vector<Term> term_order(Scaling s)
{
  switch (s) {
    case Scaling::Strong:
      return {Term::Inv,  Term::InvSqrt, Term::InvCbrt,   Term::InvTwoThirds, Term::Linear, Term::Log2,
              Term::Sqrt, Term::Cbrt,    Term::TwoThirds, Term::InvSquare,    Term::Square};
    case Scaling::Weak:
      return {Term::Log2, Term::Cbrt,    Term::Sqrt,    Term::TwoThirds,   Term::Linear,
              Term::Inv,  Term::InvSqrt, Term::InvCbrt, Term::InvTwoThirds, Term::Square, Term::InvSquare};
    case Scaling::None:
      break;
  }
  return {Term::Linear, Term::Log2,    Term::Sqrt,    Term::Cbrt,        Term::TwoThirds,
          Term::Inv,    Term::InvSqrt, Term::InvCbrt, Term::InvTwoThirds, Term::Square, Term::InvSquare};
}

/// A term that stays within (0, 1] for x >= 1 (1/x, 1/x^(1/2), ...): at a target beyond the inputs, a function of it
/// lies between its value at the largest input and its limit a. The growing ones (x, log2 x, x^2, ...) carry a trend
/// the inputs' noise may have made on to any distance.
bool bounded(Term t)
{
  switch (t) {
    case Term::Const:
    case Term::Inv:
    case Term::InvSqrt:
    case Term::InvCbrt:
    case Term::InvTwoThirds:
    case Term::InvSquare: return true;
    default: return false;
  }
}

double rel_error(double predicted, double value)
{
  double d = std::fabs(predicted - value);
  return value == 0 ? d : d / std::fabs(value);
}

double max_error(const Model& m, const std::vector<Point>& pts)
{
  double e = 0;
  for (const Point& x : pts)
    e = std::max(e, rel_error(m.eval(x), x.value));
  return e;
}

bool reproduces(const Model& m, const std::vector<Point>& pts, bool integer)
{
  for (const Point& x : pts) {
    double v = m.eval(x);
    if (!std::isfinite(v))
      return false;
    if (integer ? std::llround(v) != std::llround(x.value) || std::fabs(v - x.value) > std::max(1e-6, 1e-9 * std::fabs(x.value))
                : rel_error(v, x.value) > 1e-9)
      return false;
  }
  return true;
}

/// `m`'s coefficients that are integers but for rounding, rounded (exact data gives 960 - 1e-12).
void snap_integers(Model& m)
{
  for (double* c : {&m.a, &m.b})
    if (std::fabs(*c - std::round(*c)) < 1e-9 * std::max(1.0, std::fabs(*c)))
      *c = std::round(*c);
}

/// Least squares of relative residuals (weights 1 / value^2; 1 for a value of 0) for a + b * f; std::nullopt when
/// f takes one value on every point (then b is not determined).
std::optional<Model> solve(Term t, Var v, const std::vector<Point>& pts)
{
  double sw = 0, sf = 0, sff = 0, sy = 0, sfy = 0;
  double fmin = std::numeric_limits<double>::infinity(), fmax = -fmin;
  for (const Point& x : pts) {
    double f = term_value(t, var_value(v, x.p, x.dims));
    double w = x.value == 0 ? 1 : 1 / (x.value * x.value);
    sw += w;
    sf += w * f;
    sff += w * f * f;
    sy += w * x.value;
    sfy += w * f * x.value;
    fmin = std::min(fmin, f);
    fmax = std::max(fmax, f);
  }
  Model m{t, v, 0, 0};
  if (t == Term::Const) {
    m.a = sy / sw;
    return m;
  }
  if (!(fmax - fmin > 1e-12 * std::max(1.0, std::fabs(fmax))))
    return std::nullopt;
  double det = sw * sff - sf * sf;
  if (det == 0)
    return std::nullopt;
  m.b = (sw * sfy - sf * sy) / det;
  m.a = (sy - m.b * sf) / sw;
  snap_integers(m);
  return m;
}

/// b * f alone (a = 0), by least squares of relative residuals; std::nullopt when f is 0 on every point.
std::optional<Model> solve_scaled(Term t, Var v, const std::vector<Point>& pts)
{
  double sff = 0, sfy = 0;
  for (const Point& x : pts) {
    double f = term_value(t, var_value(v, x.p, x.dims));
    double w = x.value == 0 ? 1 : 1 / (x.value * x.value);
    sff += w * f * f;
    sfy += w * f * x.value;
  }
  if (t == Term::Const || !(sff > 0) || !std::isfinite(sff))
    return std::nullopt;
  Model m{t, v, 0, sfy / sff};
  m.no_constant = true;
  return m;
}

/// The model of the same form as `m` refitted on `pts`.
std::optional<Model> refit(const Model& m, const std::vector<Point>& pts)
{
  return m.no_constant ? solve_scaled(m.term, m.var, pts) : solve(m.term, m.var, pts);
}

/// The relative error at the point of the largest p of `m`'s form refitted on the other points; -1 when too few remain.
double leave_one_out(const Model& m, const std::vector<Point>& points)
{
  auto largest = std::max_element(points.begin(), points.end(),
                                  [](const Point& a, const Point& b) { return a.p < b.p; });
  std::vector<Point> rest;
  for (auto it = points.begin(); it != points.end(); ++it)
    if (it != largest)
      rest.push_back(*it);
  std::size_t needed = m.term == Term::Const || m.no_constant ? 1 : 2;
  if (rest.size() < needed)
    return -1;
  std::optional<Model> r = refit(m, rest);
  return r ? rel_error(r->eval(*largest), largest->value) : -1;
}

std::vector<Var> variables(int dimensions)
{
  std::vector<Var> vars{Var::P};
  for (int k = 0; k < std::min(dimensions, 3); ++k)
    vars.push_back(static_cast<Var>(1 + k));
  return vars;
}

} // namespace

double Model::eval(double p, const std::array<double, 3>& dims) const
{
  double x = var_value(var, p, dims);
  switch (term) { // divisions rather than products with 1/x: 144000 / 9 is 16000 exactly
    case Term::Const: return a;
    case Term::Inv: return a + b / x;
    case Term::InvSqrt: return a + b / std::sqrt(x);
    case Term::InvCbrt: return a + b / std::cbrt(x);
    case Term::InvTwoThirds: return a + b / (std::cbrt(x) * std::cbrt(x));
    case Term::InvSquare: return a + b / (x * x);
    case Term::NodeFace: {
      double v = 1;
      for (std::size_t k : var_dimensions(var))
        v *= b / dims[k] + plus[k];
      return v;
    }
    default: return a + b * term_value(term, x);
  }
}

std::string Model::describe() const
{
  if (term == Term::Const)
    return fmt::format("{:.10g}", a);
  if (term == Term::NodeFace) {
    std::string f;
    for (std::size_t k : var_dimensions(var))
      f += plus[k] == 0 ? fmt::format("{}({:.10g} / n{})", f.empty() ? "" : " ", b, k)
                        : fmt::format("{}({:.10g} / n{} + {:.10g})", f.empty() ? "" : " ", b, k, plus[k]);
    return f;
  }
  std::string x;
  switch (var) {
    case Var::P: x = "p"; break;
    case Var::Dim0: x = "n0"; break;
    case Var::Dim1: x = "n1"; break;
    case Var::Dim2: x = "n2"; break;
    case Var::Dim01: x = "(n0 n1)"; break;
    case Var::Dim02: x = "(n0 n2)"; break;
    case Var::Dim12: x = "(n1 n2)"; break;
  }
  std::string f;
  switch (term) {
    case Term::Const: break;
    case Term::Linear: f = "* " + x; break;
    case Term::Sqrt: f = "* " + x + "^(1/2)"; break;
    case Term::Cbrt: f = "* " + x + "^(1/3)"; break;
    case Term::TwoThirds: f = "* " + x + "^(2/3)"; break;
    case Term::Log2: f = "* log2(" + x + ")"; break;
    case Term::Inv: f = "/ " + x; break;
    case Term::InvSqrt: f = "/ " + x + "^(1/2)"; break;
    case Term::InvCbrt: f = "/ " + x + "^(1/3)"; break;
    case Term::InvTwoThirds: f = "/ " + x + "^(2/3)"; break;
    case Term::Square: f = "* " + x + "^2"; break;
    case Term::InvSquare: f = "/ " + x + "^2"; break;
    case Term::NodeFace: break;
  }
  std::string bx = fmt::format("{:.10g} {}", b, f);
  return a == 0 ? bx : fmt::format("{:.10g} + {}", a, bx);
}

std::optional<Fit> fit(const std::vector<Point>& points, int dimensions, bool integer, Scaling scaling,
                       const std::optional<Point>& target, double least)
{
  bool above = std::all_of(points.begin(), points.end(), [&](const Point& x) { return x.value > least; });
  auto admissible = [&](const Model& m) {
    if (integer || !above || !target)
      return true;
    double v = m.eval(*target);
    return std::isfinite(v) && v > least;
  };
  std::vector<Model> candidates;
  if (auto c = solve(Term::Const, Var::P, points))
    candidates.push_back(*c);
  for (Var v : variables(dimensions)) {
    // a variable with 2 values on 3 or more inputs determines both coefficients of every term: it says nothing
    std::vector<double> xs;
    for (const Point& x : points)
      xs.push_back(var_value(v, x.p, x.dims));
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    // unless the target's value is one of them and the data are integers: then any exact function of the variable
    // reads the target's off the inputs that share it (NPB CG's steps along a row of n0 = 4, 4, 8 ranks at 8, 16, 32,
    // and 8 at 64), and the alternatives' check (extrapolate.cpp) refuses when two of them disagree there
    bool interpolated = integer && target && std::ssize(xs) == 2 &&
                        std::binary_search(xs.begin(), xs.end(), var_value(v, target->p, target->dims));
    if (std::ssize(xs) < std::min<std::ptrdiff_t>(3, std::ssize(points)) && !interpolated)
      continue;
    for (Term t : term_order(scaling)) {
      if (auto m = solve(t, v, points))
        candidates.push_back(*m);
      if (!integer)
        if (auto m = solve_scaled(t, v, points))
          candidates.push_back(*m);
    }
  }
  std::optional<Fit> best;
  for (const Model& m : candidates) {
    if (!reproduces(m, points, integer) || !admissible(m))
      continue;
    if (!best) {
      best = Fit{m, max_error(m, points), true, -1, {}, {}};
    } else if (m.term != Term::Const && best->model.term != Term::Const) {
      best->also_exact.push_back(m.describe());
      best->alternatives.push_back(m);
    }
  }
  if (!best && !integer) {
    const Model& constant = candidates.front();
    double constant_error = max_error(constant, points);
    Fit chosen{constant, constant_error, false, leave_one_out(constant, points), {}, {}};
    for (const Model& m : candidates) {
      double e = max_error(m, points);
      double loo = leave_one_out(m, points);
      // measured volumes: a growing term amplifies their noise at the target (a burst of 60, 99, 232 k at 27, 64,
      // 125 ranks fitted as 52 k + 11.5 p^2 gave 1.4 M at 343; LULESH traced by our tracer): bounded terms only
      if (m.term == Term::Const || !bounded(m.term) || e * 2 > constant_error || loo < 0 || !admissible(m))
        continue;
      bool better = chosen.loo_error < 0 || loo < chosen.loo_error * (1 - 1e-6) ||
                    (loo <= chosen.loo_error * (1 + 1e-6) && e < chosen.error * (1 - 1e-6));
      if (better)
        chosen = Fit{m, e, false, loo, {}, {}};
    }
    best = chosen;
  }
  if (!best)
    return std::nullopt;
  // leave-one-out: the chosen function refitted without the largest p, its error there
  best->loo_error = leave_one_out(best->model, points);
  return best;
}

std::optional<Var> face_variable(const std::array<int, 3>& delta, int dimensions)
{
  std::vector<int> along; // the dimensions the face spans
  for (int k = 0; k < std::min(dimensions, 3); ++k)
    if (delta[static_cast<std::size_t>(k)] == 0)
      along.push_back(k);
  if (along.empty() || std::ssize(along) == std::min(dimensions, 3))
    return std::nullopt;
  if (along.size() == 1)
    return static_cast<Var>(1 + along[0]);
  if (along == std::vector<int>{0, 1})
    return Var::Dim01;
  if (along == std::vector<int>{0, 2})
    return Var::Dim02;
  return Var::Dim12;
}

namespace {

/// The node-based faces (Term::NodeFace) of `face` that reproduce `points`, one per choice of the dimensions of `edge`
/// whose rank owns one more plane: b solved from the first point (b / n + e = s, or the positive root of
/// (b / nA + eA) (b / nB + eB) = s), checked on every point.
std::vector<Model> node_faces(const std::vector<Point>& points, Var face, const std::array<bool, 3>& edge)
{
  std::vector<Model> out;
  std::vector<std::size_t> along = var_dimensions(face);
  if (points.empty() || along.empty() || along.size() > 2)
    return out;
  for (unsigned mask = 1; mask < (1u << along.size()); ++mask) {
    Model m{Term::NodeFace, face, 0, 0};
    bool allowed = true;
    for (std::size_t i = 0; i < along.size(); ++i)
      if (mask & (1u << i)) {
        allowed = allowed && edge[along[i]];
        m.plus[along[i]] = 1;
      }
    if (!allowed)
      continue;
    const Point& x = points.front();
    double na = x.dims[along[0]], ea = m.plus[along[0]];
    if (along.size() == 1) {
      m.b = na * (x.value - ea);
    } else {
      double nb = x.dims[along[1]], eb = m.plus[along[1]];
      double qa = 1 / (na * nb), qb = ea / nb + eb / na, qc = ea * eb - x.value; // qa b^2 + qb b + qc = 0
      double disc = qb * qb - 4 * qa * qc;
      if (disc < 0)
        continue;
      m.b = (-qb + std::sqrt(disc)) / (2 * qa);
    }
    snap_integers(m);
    if (m.b > 0 && reproduces(m, points, true))
      out.push_back(m);
  }
  return out;
}

} // namespace

std::optional<Fit> fit_face(const std::vector<Point>& points, Var face, const std::array<bool, 3>& edge,
                            const std::optional<Point>& target)
{
  std::vector<double> xs;
  for (const Point& x : points)
    xs.push_back(var_value(face, x.p, x.dims));
  std::sort(xs.begin(), xs.end());
  std::ptrdiff_t distinct = std::unique(xs.begin(), xs.end()) - xs.begin();
  std::vector<Model> candidates;
  if (auto c = solve(Term::Const, Var::P, points))
    candidates.push_back(*c);
  if (distinct >= 2)
    if (auto m = solve_scaled(Term::Inv, face, points))
      candidates.push_back(*m);
  if (distinct >= 3)
    if (auto m = solve(Term::Inv, face, points))
      candidates.push_back(*m);
  std::vector<Model> exact;
  for (Model& m : candidates)
    if (reproduces(m, points, true)) {
      snap_integers(m); // b / face alone is fitted without snapping (solve_scaled: volumes)
      exact.push_back(m);
    }
  if (distinct >= 2)
    for (const Model& m : node_faces(points, face, edge))
      exact.push_back(m);
  if (exact.empty())
    return std::nullopt;
  const Model* chosen = &exact.front();
  if (target)
    for (const Model& m : exact)
      if (integer_at(m, target->p, target->dims)) {
        chosen = &m;
        break;
      }
  double loo = chosen->term == Term::NodeFace ? -1 : leave_one_out(*chosen, points);
  return Fit{*chosen, max_error(*chosen, points), true, loo, {}, {}};
}

std::optional<long long> integer_at(const Model& m, double p, const std::array<double, 3>& dims)
{
  double v = m.eval(p, dims);
  if (!std::isfinite(v) || std::fabs(v) > 4e18 || std::fabs(v - std::round(v)) > 1e-6)
    return std::nullopt;
  return std::llround(v);
}

namespace {

double coefficient(GridFunction::Coefficient c, const std::array<double, 3>& dims)
{
  switch (c) {
    case GridFunction::Coefficient::Zero: return 0;
    case GridFunction::Coefficient::One: return 1;
    case GridFunction::Coefficient::N0: return dims[0];
    case GridFunction::Coefficient::N0N1: return dims[0] * dims[1];
  }
  return 0;
}

/// The coefficient combinations of `dimensions` dimensions, simplest first: fewest terms, then fewest strides, then
/// fewest strides of another dimension than their own (a transpose).
std::vector<std::array<GridFunction::Coefficient, 3>> combinations(int dimensions)
{
  using C = GridFunction::Coefficient;
  // per dimension, its choices: 0, 1, its own stride, the others' (the strides of the grid's dimensions only)
  std::array<std::vector<C>, 3> choices{std::vector<C>{C::Zero, C::One}, {C::Zero, C::One}, {C::Zero, C::One}};
  const std::array<C, 3> own{C::One, C::N0, C::N0N1};
  for (int k = 1; k < dimensions; ++k)
    choices[static_cast<std::size_t>(k)].push_back(own[static_cast<std::size_t>(k)]);
  for (int k = 0; k < dimensions; ++k)
    for (int j = 1; j < dimensions; ++j)
      if (j != k)
        choices[static_cast<std::size_t>(k)].push_back(own[static_cast<std::size_t>(j)]);
  std::vector<std::array<C, 3>> all;
  std::array<C, 3> c{C::Zero, C::Zero, C::Zero};
  auto rec = [&](auto& self, int k) -> void {
    if (k == dimensions) {
      all.push_back(c);
      return;
    }
    for (C v : choices[static_cast<std::size_t>(k)]) {
      c[static_cast<std::size_t>(k)] = v;
      self(self, k + 1);
    }
    c[static_cast<std::size_t>(k)] = C::Zero;
  };
  rec(rec, 0);
  auto cost = [&](const std::array<C, 3>& a) {
    int nonzero = 0, strides = 0, transposed = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      nonzero += a[k] != C::Zero;
      strides += a[k] == C::N0 || a[k] == C::N0N1;
      transposed += (a[k] == C::N0 || a[k] == C::N0N1) && a[k] != own[k];
    }
    return std::tuple(nonzero, strides, transposed);
  };
  std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) { return cost(a) < cost(b); });
  return all;
}

} // namespace

std::optional<int> undetermined_dimension(const std::vector<Point>& points, int dimensions, const Point& target)
{
  for (int k = 0; k < std::min(dimensions, 3); ++k) {
    auto at = [&](const Point& x) { return x.dims[static_cast<std::size_t>(k)]; };
    std::map<double, double> value_of; // the dimension's value -> the points' value there
    bool function = true;
    for (const Point& x : points) {
      auto [it, added] = value_of.try_emplace(at(x), x.value);
      function = function && (added || it->second == x.value);
    }
    if (function && value_of.size() == 2 && value_of.count(at(target)) == 0 &&
        value_of.begin()->second != std::next(value_of.begin())->second)
      return k;
  }
  return std::nullopt;
}

std::optional<long long> GridFunction::at(double p, const std::array<double, 3>& dims,
                                          const std::array<int, 3>& coords) const
{
  std::optional<long long> a = integer_at(offset.model, p, dims);
  if (!a)
    return std::nullopt;
  long long v = *a;
  for (int k = 0; k < 3; ++k)
    v += std::llround(coefficient(c[static_cast<std::size_t>(k)], dims)) * coords[static_cast<std::size_t>(k)];
  return v;
}

std::string GridFunction::describe() const
{
  std::string s;
  for (int k = 0; k < 3; ++k) {
    switch (c[static_cast<std::size_t>(k)]) {
      case Coefficient::Zero: continue;
      case Coefficient::One: s += fmt::format("{}x{}", s.empty() ? "" : " + ", k); break;
      case Coefficient::N0: s += fmt::format("{}n0 * x{}", s.empty() ? "" : " + ", k); break;
      case Coefficient::N0N1: s += fmt::format("{}n0 * n1 * x{}", s.empty() ? "" : " + ", k); break;
    }
  }
  bool zero = offset.model.term == Term::Const && offset.model.a == 0;
  if (s.empty())
    return offset.model.describe();
  return zero ? s : fmt::format("{} + {}", offset.model.describe(), s);
}

std::optional<GridFunction> fit_grid_function(const std::vector<RankValues>& inputs, int dimensions, Scaling scaling)
{
  for (const auto& c : combinations(std::min(dimensions, 3))) {
    std::vector<Point> offsets;
    bool holds = true;
    for (const RankValues& in : inputs) {
      std::optional<double> a;
      for (const auto& [coords, value] : in.values) {
        double rest = static_cast<double>(value);
        for (int k = 0; k < 3; ++k)
          rest -= coefficient(c[static_cast<std::size_t>(k)], in.at.dims) * coords[static_cast<std::size_t>(k)];
        if (a && *a != rest) {
          holds = false;
          break;
        }
        a = rest;
      }
      if (!holds || !a)
        break;
      Point x = in.at;
      x.value = *a;
      offsets.push_back(x);
    }
    if (!holds || offsets.size() != inputs.size())
      continue;
    if (std::optional<Fit> f = fit(offsets, dimensions, true, scaling))
      return GridFunction{c, *f};
  }
  return std::nullopt;
}

} // namespace tit::extrap
