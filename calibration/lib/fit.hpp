// Robust fitting: straight lines on raw points, and segmented regression to find where a
// size-dependent quantity changes regime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tit::calib {

struct Point {
  double x = 0; ///< message size (bytes)
  double y = 0; ///< measured time (seconds)
};

/// y = offset + slope * x, fitted on raw points.
struct LineFit {
  double offset = 0;
  double slope = 0;
  std::size_t points = 0;   ///< raw points given
  std::size_t outliers = 0; ///< points the robust fit gave no weight
  double r2 = 0;            ///< coefficient of determination over the points kept
  double residual = 0;      ///< robust scale of the relative residuals (1.4826 x median |y - f| / f)
  double max_residual = 0;  ///< largest |relative residual| over the points kept

  double operator()(double x) const { return offset + slope * x; }
};

/// Fits a line minimising relative residuals (y - f(x)) / f(x), which suits times spanning decades,
/// with Tukey's biweight (iteratively reweighted least squares, scale from the median absolute
/// residual), so that outliers (a process descheduled during a measurement) get no weight.
/// With `through_origin`, the offset is fixed to 0. Needs at least one point (two without
/// through_origin and with distinct x; otherwise the slope is 0).
LineFit robust_line_fit(std::span<const Point> points, bool through_origin = false);

/// One quantity's summary for the break search: the median time at each distinct size (medians
/// make the search insensitive to outliers).
std::vector<Point> medians_by_size(std::span<const Point> points);

/// Segmented regression over several quantities measured at the same sizes: finds the breaks
/// (sizes) that split the sorted distinct sizes into segments, each fitted by a line per quantity,
/// minimising the sum of squared relative residuals of the medians. The number of segments is the
/// one of least BIC between 1 and `max_segments`; each segment holds at least `min_sizes` distinct
/// sizes. A break b means: sizes <= b belong to the segment before, sizes > b to the one after
/// (so b is the largest size measured in the lower segment). Isolated spikes (a median far from both
/// neighbours, which agree with each other) are left out of the search.
std::vector<std::uint64_t> find_breaks(const std::vector<std::vector<Point>>& medians, int max_segments,
                                       int min_sizes = 4);

/// The index of the segment of `size` for sorted `breaks` (0 for size <= breaks[0], ...).
std::size_t segment_of(const std::vector<std::uint64_t>& breaks, double size);

/// The sizes of segment `i` for sorted `breaks`, as reports print them: "[0, b0]", "(b0, b1]", ..., "(bn, inf]".
std::string band_label(const std::vector<std::uint64_t>& breaks, std::size_t i);

double median(std::vector<double> v);

} // namespace tit::calib
