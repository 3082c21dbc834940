// The fit of each parameter of tit-trace extrapolate's classes (docs/extrapolation.md#functions), from what the
// inputs' ranks of the class showed (extrap_model.hpp's observations); extrapolate.cpp puts them together at the target.
#pragma once

#include "extrap_fit.hpp"
#include "extrap_grid.hpp"
#include "extrap_model.hpp"
#include "extrap_target.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tit::extrap {

/// "(+1,-1)": a grid offset in `dimensions` dimensions.
std::string delta_text(const std::array<int, 3>& d, int dimensions);

/// "item 2>3 `irecv`, argument 1 of the ranks of class (first,interior)": where a parameter is, for messages.
std::string class_context(const ClassModel& cls, const Param& p);

/// Fits the parameters of the classes, each from its observations in the inputs, for the target's grid.
class Fitter {
public:
  Fitter(const std::vector<Input>& inputs, Scaling scaling, int dimensions, const Grid& target);

  /// Parameter `p` of class `cls` fitted (Fitted::how says by which model); throws ExtrapolationError saying why when
  /// no model fits it. `partner_delta`: for a message's size, its partner's grid offset when the partner is a grid
  /// neighbour (the size is then first fitted as a function of the face between them: extrap::fit_face).
  Fitted fit(const ClassModel& cls, const Param& p,
             const std::optional<std::array<int, 3>>& partner_delta = std::nullopt) const;

private:
  /// Refuses an integer that differs between the ranks of a class in one input and that no grid function gives.
  [[noreturn]] void refuse_differing(const ClassModel& cls, const Param& p, const std::vector<const Observation*>& obs,
                                     const std::vector<std::size_t>& input_of) const;

  /// A trip count that is no function of p, such as an iterative solver's iterations to convergence (49, 49, 48 at
  /// 27, 64, 125 ranks): steps that no trend describes, extrapolated by none; the largest input's count, when it is
  /// within `tolerance` of every input's (relative; the report says approximate). std::nullopt otherwise.
  static std::optional<Fit> held_trip(const std::vector<Point>& pts, double tolerance);

  /// An integer value as a grid function of the rank's coordinates (values that differ between the ranks of a class,
  /// or a boundary coordinate times a stride); std::nullopt when none holds.
  std::optional<Fitted> fit_per_rank(const std::vector<const Observation*>& obs,
                                     const std::vector<std::size_t>& input_of, Fitted f) const;

  /// A partner: the same grid neighbour, rank or offset (a function of the family) on the class's ranks in every
  /// input, or a grid function of the rank's coordinates (a transpose).
  Fitted fit_partner(const ClassModel& cls, const Param& p, const std::vector<const Observation*>& obs,
                     const std::vector<std::size_t>& input_of, Fitted f) const;

  const std::vector<Input>& inputs_;
  Scaling scaling_;
  int dimensions_;
  std::optional<Point> target_; ///< volumes positive on the inputs stay positive there
};

} // namespace tit::extrap
