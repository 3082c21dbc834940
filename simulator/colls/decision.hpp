// Decision tables: "for communicators smaller than N ranks, the algorithm of the first size band whose
// bound exceeds the message size" — the shape of Open MPI's fixed decision functions.
#pragma once

#include "colls/colls.hpp"

#include <utility>
#include <vector>

namespace tit::colls {

struct SizeRule {
  int below;                                       ///< applies to communicators of fewer ranks
  std::vector<std::pair<double, Algorithm>> bands; ///< (exclusive upper bound in bytes, algorithm)
};

/// A band bound above every size.
inline constexpr double kAnySize = 1e300;

/// Runs the algorithm `rules` choose for `size` ranks and `bytes`; does nothing when none applies.
inline void run_decision(const std::vector<SizeRule>& rules, int size, double bytes, mpi::PointToPoint& rank,
                         const Call& call)
{
  for (auto const& rule : rules) {
    if (size >= rule.below)
      continue;
    for (auto const& [bound, algorithm] : rule.bands)
      if (bytes < bound)
        return algorithm(rank, call);
  }
}

} // namespace tit::colls
