// Decision tables of the MPICH set: the first rule whose condition holds chooses the algorithm. MPICH's
// conditions mix sizes, element counts and powers of two, so a rule is a predicate on these facts rather than
// the size bands of Open MPI's tables (decision.hpp).
#pragma once

#include "colls/colls.hpp"
#include "colls/ompi_all.hpp"

#include <vector>

namespace tit::colls::mpich {

struct Facts {
  int size = 1;         ///< ranks of the communicator
  double bytes = 0;     ///< the size the decision looks at, in bytes
  long long count = 0;  ///< the same in elements
  int pof2 = 1;         ///< the largest power of two <= size
  bool power_of_two = true;
};

inline Facts facts(const Call& call, double bytes)
{
  Facts f;
  f.size = call.size;
  f.bytes = bytes;
  f.count = std::llround(bytes / element_size(call));
  while (f.pof2 * 2 <= f.size)
    f.pof2 *= 2;
  f.power_of_two = f.pof2 == f.size;
  return f;
}

struct Rule {
  bool (*applies)(const Facts&);
  Algorithm algorithm;
};

/// Runs the algorithm of the first rule that applies (the last rule of every table always does).
inline void run_first(const std::vector<Rule>& rules, const Facts& f, mpi::PointToPoint& rank, const Call& call)
{
  for (auto const& rule : rules)
    if (rule.applies(f))
      return rule.algorithm(rank, call);
}

inline bool always(const Facts&)
{
  return true;
}

} // namespace tit::colls::mpich
