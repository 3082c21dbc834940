// Fitting one number of a trace as a function of the process count (docs/extrapolation.md#functions): a small
// family of terms as Extra-P uses (c, a + b p, a + b p^(1/2), a + b p^(1/3), a + b p^(2/3), a + b log2 p, a + b / p,
// a + b / p^(1/2), a + b / p^(1/3), a + b / p^(2/3), a + b p^2, a + b / p^2, and the same with a grid dimension instead of p), chosen by fit
// error. Knows nothing of traces.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tit::extrap {

/// What a number may depend on: the process count, or the size of one grid dimension (0: the fastest-varying); the
/// products of two (a halo's face: fit_face only, not in the family fit() chooses from).
enum class Var { P, Dim0, Dim1, Dim2, Dim01, Dim02, Dim12 };
/// NodeFace: a face of a node-based mesh, the product over the dimensions of its variable of (b / n_k + plus_k)
/// (fit_face only).
enum class Term { Const, Linear, Sqrt, Cbrt, TwoThirds, Log2, Inv, InvSqrt, InvCbrt, InvTwoThirds, Square, InvSquare,
                  NodeFace };

/// Where a number was observed: the process count, the grid's dimensions (1 beyond the grid's), and its value.
struct Point {
  double p = 1;
  std::array<double, 3> dims{1, 1, 1};
  double value = 0;
};

/// a + b * term(var); Const ignores b and var.
struct Model {
  Term term = Term::Const;
  Var var = Var::P;
  double a = 0;
  double b = 0;
  bool no_constant = false; ///< a fixed at 0 (b * term alone: a candidate for volumes, docs/extrapolation.md#functions)
  std::array<double, 3> plus{0, 0, 0}; ///< NodeFace: per dimension, the planes a rank owns beyond b / n_k (0 or 1)
  double eval(double p, const std::array<double, 3>& dims) const;
  double eval(const Point& x) const { return eval(x.p, x.dims); }
  /// "12", "3 + 40 / p", "2.5e+06 * p^(1/2)" (a term of 0 left out), "n0", "1/n1" for grid dimensions.
  std::string describe() const;
};

/// Which family wins a tie (docs/extrapolation.md#scaling): none, decreasing terms first (strong), or constant and
/// slowly growing terms first (weak).
enum class Scaling { None, Strong, Weak };

struct Fit {
  Model model;
  double error = 0;      ///< largest relative error on the points (absolute when a value is 0)
  bool exact = false;    ///< every point reproduced (to 1e-9 relative; integers: exactly once rounded)
  double loo_error = -1; ///< the chosen function refitted without the point of the largest p, its relative error
                         ///< there; -1 when too few points remain
  std::vector<std::string> also_exact; ///< other exact functions (they agree on the inputs; may not at the target)
  std::vector<Model> alternatives;     ///< the same functions, for checking that they agree at the target
};

/// Fits `points` (at least 2, distinct p) with a function over the variables of a grid of `dimensions` dimensions
/// (0..3); with 3 points or more, a variable that takes 2 values on them is not used (two values determine both
/// coefficients of any term: every term would fit), unless the data are integers and `target`'s value is one of the
/// two (every exact function then gives the inputs' value there). Exact fits first, the simplest of them (the
/// constant, then the family order of `scaling`). Integer data (`integer`): only exact fits; std::nullopt when none is.
/// Volumes without an exact fit (docs/extrapolation.md#functions): the constant, and the candidates of a bounded term
/// (1/x, 1/x^(1/2), ...: a growing one carries the inputs' noise on to the target) with a fitted or a = 0 whose
/// largest relative error is at most half the constant's; of those, the one whose leave-one-out error is smallest
/// (it predicts the largest input best from the others), the fit error breaking ties. With `target` (its p and
/// dims), a volume whose points are all above `least` takes no candidate that is not above it there: 0, or 0.5 for a
/// volume written as an integer, which a value under 0.5 would write as 0, no action (a compute that every input
/// has, gone at the target: miniFE's 581, 448, 92 at 64, 128, 256 ranks, -96 + 49083 / p, 0.1 at 512).
std::optional<Fit> fit(const std::vector<Point>& points, int dimensions, bool integer, Scaling scaling,
                       const std::optional<Point>& target = std::nullopt, double least = 0);

/// The variable of a face: the product of the grid dimensions along which a neighbour's offset `delta` is 0 (a message
/// to the neighbour across x0 carries a face of n1 n2 ranks' extent); std::nullopt when there is none (a corner: every
/// coordinate of `delta` non-zero, its size a constant) or when `delta` is 0 along every dimension.
std::optional<Var> face_variable(const std::array<int, 3>& delta, int dimensions);

/// A message size to a grid neighbour as a function of its face `face` (face_variable): the constant, b / face or
/// a + b / face, the first that reproduces the integer `points` exactly (a function of one coefficient needs two
/// values of the face on the points, of two needs three); std::nullopt when none does. Under strong scaling a halo's
/// face shrinks with the ranks along the dimensions it spans, whatever p does along the others: on the inputs of a grid
/// whose n0 is 4 at 64, 128 and 256 ranks (4 x 4 x 4, 4 x 4 x 8, 4 x 8 x 8), 6400 / p and 1600 / (n1 n2) both give a
/// face of 100, 50, 25, and only the face gives its size at 8 x 8 x 8.
/// Then, along the dimensions marked in `edge` (where the ranks of the class are first or last), a node-based mesh's
/// face (Term::NodeFace): such a rank owns b / n_k + 1 planes of nodes where the others own b / n_k (miniFE's last
/// ranks: (40 / n0 + 1) (40 / n2), 110 and 55 on 4 x 4 x 4 and 4 x 8 x 8 ranks). Of the exact candidates, the first
/// that gives an integer at `target` (a size is one); the first exact one when none does.
std::optional<Fit> fit_face(const std::vector<Point>& points, Var face, const std::array<bool, 3>& edge = {},
                            const std::optional<Point>& target = std::nullopt);

/// A grid dimension (n0, n1, n2: 0, 1, 2) that takes two values on `points` and of which their values are a function
/// (equal where it is equal), while `target` has a third value of it: the values follow that dimension, which the
/// inputs do not determine there (a face 7680 / n1 on grids 4 x 4, 4 x 8, 8 x 8, to 8 x 16). std::nullopt otherwise.
std::optional<int> undetermined_dimension(const std::vector<Point>& points, int dimensions, const Point& target);

/// A value that differs between the ranks of a class (a communicator colour or key: a row or column index, the
/// rank; a partner across a transpose): a + c0 x0 + c1 x1 + c2 x2, x_k the rank's grid coordinates, each coefficient
/// c_k 0, 1 or a stride of the grid, n0 or n0 * n1 (the rank's step along dimension 1 or 2): its own dimension's
/// first, so that the rank itself is x0 + n0 x1 + n0 n1 x2, then another's (the transposed rank n0 x0 + x1 on a square
/// grid); `a` is a function of the family (docs/extrapolation.md#per-rank-values).
struct GridFunction {
  enum class Coefficient { Zero, One, N0, N0N1 };
  std::array<Coefficient, 3> c{Coefficient::Zero, Coefficient::Zero, Coefficient::Zero};
  Fit offset;                 ///< a
  /// The value at the rank of coordinates `coords` on a grid of sizes `dims` with `p` ranks; std::nullopt when `a`
  /// is no integer there.
  std::optional<long long> at(double p, const std::array<double, 3>& dims, const std::array<int, 3>& coords) const;
  /// "x1", "3 + x0 + n0 * x1" (a described by its function).
  std::string describe() const;
};

/// The values of one input: its point (p and the grid's sizes; value unused) and every rank's coordinates and value.
struct RankValues {
  Point at;
  std::vector<std::pair<std::array<int, 3>, long long>> values;
};

/// The simplest grid function (fewest non-zero coefficients, then 1 before the stride, dimension 0 first) that holds
/// on every rank of every input, with `a` fitted exactly; std::nullopt when none does.
std::optional<GridFunction> fit_grid_function(const std::vector<RankValues>& inputs, int dimensions, Scaling scaling);

/// The value of `fit` at the target, for an integer parameter: the prediction rounded, or std::nullopt when it is
/// not within 1e-6 of an integer (the function holds on the inputs but gives a fraction at the target).
std::optional<long long> integer_at(const Model& m, double p, const std::array<double, 3>& dims);

} // namespace tit::extrap
