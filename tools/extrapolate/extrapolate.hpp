// `tit-trace extrapolate` (docs/extrapolation.md): the compressed trace of a run on P ranks, made from trace sets of
// the same program and input at three or more smaller rank counts.
#pragma once

#include "extrap_fit.hpp"
#include "extrap_grid.hpp"
#include "extrap_model.hpp"

#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

namespace tit::tracetool {

struct ExtrapolateOptions {
  int ranks = 0;                          ///< the target's rank count
  extrap::Scaling scaling = extrap::Scaling::None;
  std::optional<extrap::Grid> grid;       ///< the target's grid (else as MPI_Dims_create chooses it)
  bool report = false;                    ///< print every fitted parameter
  /// give each target rank the variation of a rank of its class in the largest input around the fitted mean of each
  /// compute and sleep volume (docs/extrapolation.md#volumes), instead of the mean alone
  bool resample = true;
  /// where to say, one line a stage, what is being done (reading each input, fitting, writing) and how long it took;
  /// nullptr: nothing
  std::ostream* progress = nullptr;
};

/// Reads `traces` (any trace sets TraceSet::open reads, at least three distinct rank counts), fits the model and
/// writes the compressed trace `out` for `options.ranks` ranks. Reports to `report` (a summary line; with
/// `options.report`, every parameter's function, its error on the inputs and its leave-one-out error). Throws
/// extrap::ExtrapolationError (or trace::TraceError for an unreadable input) naming what cannot be extrapolated.
void extrapolate(const std::vector<std::filesystem::path>& traces, const std::filesystem::path& out,
                 const ExtrapolateOptions& options, std::ostream& report);

} // namespace tit::tracetool
