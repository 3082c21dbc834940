// The fitted parameters of tit-trace extrapolate's classes at the target (docs/extrapolation.md), and the target's
// ranks made from them as a compressed trace: each rank takes its class's structure with the class's numbers at the
// target (extrap_target.cpp).
#pragma once

#include "extrap_fit.hpp"
#include "extrap_grid.hpp"
#include "extrap_model.hpp"

#include "compressed/compressed.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tit::extrap {

/// A parameter fitted: a function, a function of the rank's grid coordinates (a value that differs between the ranks
/// of a class), or for a partner a grid offset, a fixed rank or a fixed offset.
struct Fitted {
  enum class How { Function, PerRank, Delta, Absolute, Offset };
  How how = How::Function;
  std::array<int, 3> delta{0, 0, 0};
  bool integer = true;
  bool int_tokens = true; ///< a volume whose inputs were all integers (written rounded)
  bool rounded = false;   ///< a trip count that no function fits exactly, held at the largest input's (an iterative
                          ///< solver's iterations to convergence): approximate
  bool gathered = false;  ///< a trip count of blocks gathered from the iterations they were in (Param::gathered)
  bool approx_size = false; ///< a size of a vector collective fitted approximately (data-dependent: extrap_model.hpp)
  double size_spread = 0;   ///< approx_size: how far apart its values in an input were, (max - min) / mean
  bool face = false;        ///< a message's size fitted as a function of the face to its partner (extrap::fit_face)
  Fit fit;                ///< PerRank: the fit of the grid function's constant term
  std::optional<GridFunction> per_rank;
  bool one_to_one = false; ///< a partner given per rank that was a different rank for each rank of the class, in every
                           ///< input (a transpose): the target must keep it so
  std::vector<Point> points;
  std::string target;     ///< the value at the target (for the report), when not per rank
};

/// A class's parameters at the target.
struct ClassAtTarget {
  const ClassModel* cls = nullptr;
  std::vector<Fitted> fitted;           ///< per parameter
  std::vector<long long> ints;          ///< per parameter: integer values (trip counts, partners, values)
  std::vector<std::string> tokens;      ///< per parameter (values)
  bool has_vectors = false;             ///< an action with a per-rank vector
  bool per_rank = false;                ///< a value given per rank (a grid function)
  std::vector<bool> unused;             ///< per parameter: not used by the class's model (unused_params)
  /// per parameter: a compute's presence at the target, the share of its occurrences that have it (1: all; a
  /// compute present in none is left out of the structure: Generator::absent, extrap_target.cpp)
  std::vector<double> presence;
  bool sporadic = false;                ///< a compute present in some occurrences only (presence in (0, 1))
  /// per parameter: a volume resampled (`--volumes resample`), its fitted mean at the target; 0 for the others
  std::vector<double> resample_mean;
  /// per parameter resampled: the largest input's members of the class, each its values in order, by rank
  std::vector<std::vector<const std::vector<double>*>> resample_members;
  bool resampled = false;               ///< a volume of the class resampled

  /// The token of value parameter `param` at `rank` of `grid`.
  std::string token(std::size_t param, int rank, const Grid& grid) const
  {
    const Fitted& f = fitted[param];
    if (f.how != Fitted::How::PerRank)
      return tokens[param];
    return std::to_string(*f.per_rank->at(grid.ranks(), grid.sizes(), grid.coords(rank)));
  }
};

/// A volume's token at the target: rounded when the inputs' were integers (Fitted::int_tokens), never below 0.
std::string volume_token(double v, bool int_tokens);

/// The compressed trace of the target's ranks on `grid`, each of its class's structure with the class's parameters at
/// the target (`classes`: their keys, or kEveryRank with `one_class`), its compute volumes counted in `compute_unit`.
/// A resampled volume (ClassAtTarget::resample_mean) of the n-th target rank of a class varies as that of the class's
/// (n mod m)-th rank in the largest input (of m), occurrence by occurrence (cycling when the target has more), scaled
/// so that its mean is the fitted one.
/// Throws ExtrapolationError for a rank whose class no input has, or that has no action left.
trace::cformat::Loaded target_trace(const Grid& grid, const std::vector<ClassAtTarget>& classes, bool one_class,
                                    const std::string& compute_unit);

} // namespace tit::extrap
