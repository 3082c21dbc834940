#pragma once
// The points of a sweep: the full grid of its parameters (first key slowest), zip groups moving
// together as one axis, or a random sample of that grid with a seed (kept in grid order).
#include "spec.hpp"

namespace tit::sweep {

struct Point {
  std::size_t index = 0;            // 0-based, the point's number in the sweep
  std::vector<std::string> values;  // one per parameter, in the order of spec.params
};

std::vector<Point> expand(const Spec& spec);

} // namespace tit::sweep
