#include "points.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <random>

namespace tit::sweep {

std::vector<Point> expand(const Spec& spec)
{
  // Axes: each zip group is one axis, every other parameter its own; ordered by first key.
  std::vector<std::vector<std::size_t>> axes;
  std::vector<bool> placed(spec.params.size(), false);
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    if (placed[i])
      continue;
    std::vector<std::size_t> axis{i};
    for (auto const& group : spec.zip)
      if (std::find(group.begin(), group.end(), i) != group.end())
        axis = group;
    for (auto j : axis)
      placed[j] = true;
    axes.push_back(axis);
  }
  std::size_t total = 1;
  for (auto const& axis : axes) {
    auto n = spec.params[axis.front()].values.size();
    if (total > 100'000'000 / n)
      throw InputError(fmt::format("{}: error: the grid has more than 100000000 points; use 'sample'", spec.where(1)));
    total *= n;
  }
  std::vector<std::size_t> chosen(total);
  for (std::size_t i = 0; i < total; ++i)
    chosen[i] = i;
  if (spec.sample_points) {
    std::size_t n = *spec.sample_points;
    if (n > total)
      throw InputError(fmt::format("{}: error: a sample of {} points from a grid of {}", spec.where(spec.sample_line),
                                   n, total));
    // Partial Fisher-Yates on the raw output of a fixed engine: the same seed picks the same points on
    // every platform (std::uniform_int_distribution is implementation-defined).
    std::mt19937_64 rng(spec.sample_seed);
    for (std::size_t i = 0; i < n; ++i)
      std::swap(chosen[i], chosen[i + rng() % (total - i)]);
    chosen.resize(n);
    std::sort(chosen.begin(), chosen.end());
  }
  std::vector<Point> points;
  points.reserve(chosen.size());
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    Point p;
    p.index = k;
    p.values.resize(spec.params.size());
    std::size_t rest = chosen[k];
    for (std::size_t a = axes.size(); a-- > 0;) {
      auto n = spec.params[axes[a].front()].values.size();
      for (auto j : axes[a])
        p.values[j] = spec.params[j].values[rest % n];
      rest /= n;
    }
    points.push_back(std::move(p));
  }
  return points;
}

} // namespace tit::sweep
