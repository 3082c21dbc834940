#include "fit.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace tit::calib {

namespace {

struct Weighted {
  double a = 0;
  double b = 0;
};

/// Weighted least squares of y on x.
Weighted weighted_ls(std::span<const Point> pts, const std::vector<double>& w, bool through_origin)
{
  double sw = 0;
  double sx = 0;
  double sy = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    sw += w[i];
    sx += w[i] * pts[i].x;
    sy += w[i] * pts[i].y;
  }
  if (sw <= 0)
    return {};
  if (through_origin) {
    double sxy = 0;
    double sxx = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      sxy += w[i] * pts[i].x * pts[i].y;
      sxx += w[i] * pts[i].x * pts[i].x;
    }
    return {0, sxx > 0 ? sxy / sxx : 0};
  }
  double mx = sx / sw;
  double my = sy / sw;
  // One size among the weighted points: a constant. (Their mean, rounded, differs from that size by an ulp, and the
  // slope through those ulps would be noise: with 1,200 calls of one size it once gave -16 us + 0.35 ns/B.)
  bool one_size = true;
  double first = 0;
  bool seen = false;
  for (std::size_t i = 0; i < pts.size() && one_size; ++i)
    if (w[i] > 0) {
      one_size = not seen || pts[i].x == first;
      first = seen ? first : pts[i].x;
      seen = true;
    }
  if (one_size)
    return {my, 0};
  double sxx = 0;
  double sxy = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    double dx = pts[i].x - mx;
    sxx += w[i] * dx * dx;
    sxy += w[i] * dx * (pts[i].y - my);
  }
  double b = sxx > 0 ? sxy / sxx : 0;
  return {my - b * mx, b};
}

/// Sum of squared relative residuals of the relative-weighted line through `pts` (medians).
double segment_cost(std::span<const Point> pts)
{
  if (pts.size() <= 2)
    return 0;
  std::vector<double> w(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) {
    double y = std::max(std::abs(pts[i].y), 1e-300);
    w[i] = 1 / (y * y);
  }
  auto f = weighted_ls(pts, w, false);
  double cost = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    double r = pts[i].y - (f.a + f.b * pts[i].x);
    cost += w[i] * r * r;
  }
  return cost;
}

/// Medians sorted by size without isolated spikes: a median far from both its neighbours while they agree
/// with each other (a size where most repetitions were disturbed). A step between regimes is no spike:
/// there the neighbours disagree.
std::vector<Point> without_spikes(std::vector<Point> pts)
{
  std::sort(pts.begin(), pts.end(), [](auto const& a, auto const& b) { return a.x < b.x; });
  if (pts.size() < 5)
    return pts;
  auto rel = [](double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); };
  std::vector<double> steps;
  for (std::size_t i = 1; i < pts.size(); ++i)
    steps.push_back(rel(pts[i].y, pts[i - 1].y));
  const double scale = std::max(1.4826 * median(steps), 1e-6);
  std::vector<Point> out{pts.front()};
  for (std::size_t i = 1; i + 1 < pts.size(); ++i) {
    double mid = (pts[i - 1].y + pts[i + 1].y) / 2;
    double dev = rel(pts[i].y, mid);
    bool spike = dev > 8 * scale && rel(pts[i + 1].y, pts[i - 1].y) < dev / 4;
    if (not spike)
      out.push_back(pts[i]);
  }
  out.push_back(pts.back());
  return out;
}

} // namespace

double median(std::vector<double> v)
{
  if (v.empty())
    return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  double hi = *mid;
  if (v.size() % 2 == 1)
    return hi;
  double lo = *std::max_element(v.begin(), mid);
  return (lo + hi) / 2;
}

std::vector<Point> medians_by_size(std::span<const Point> points)
{
  std::map<double, std::vector<double>> by_size;
  for (auto const& p : points)
    by_size[p.x].push_back(p.y);
  std::vector<Point> out;
  out.reserve(by_size.size());
  for (auto& [x, ys] : by_size)
    out.push_back({x, median(std::move(ys))});
  return out;
}

LineFit robust_line_fit(std::span<const Point> points, bool through_origin)
{
  LineFit fit;
  fit.points = points.size();
  if (points.empty())
    return fit;

  // Start from the medians per size: already insensitive to outliers when sizes are repeated.
  auto med = medians_by_size(points);
  std::vector<double> w(med.size());
  for (std::size_t i = 0; i < med.size(); ++i) {
    double y = std::max(std::abs(med[i].y), 1e-300);
    w[i] = 1 / (y * y);
  }
  auto cur = weighted_ls(med, w, through_origin);

  std::vector<double> rel(points.size());
  std::vector<double> abs_rel(points.size());
  std::vector<double> denom(points.size());
  w.assign(points.size(), 1.0);
  double typical = 0;
  for (auto const& p : points)
    typical = std::max(typical, std::abs(p.y));
  const double tiny = std::max(typical * 1e-12, 1e-300);
  constexpr double tukey_c = 4.685;
  // Timers tick in tens of nanoseconds: many equal times make the median residual 0; a floor of 0.5%
  // keeps points within a few percent of the line.
  constexpr double kMinScale = 0.005;
  double scale = 0;
  double mad = 0;
  for (int iter = 0; iter < 100; ++iter) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      double f = cur.a + cur.b * points[i].x;
      denom[i] = std::max(std::abs(f), tiny);
      rel[i] = (points[i].y - f) / denom[i];
      abs_rel[i] = std::abs(rel[i]);
    }
    mad = 1.4826 * median(abs_rel);
    scale = std::max(mad, kMinScale);
    for (std::size_t i = 0; i < points.size(); ++i) {
      double u = rel[i] / (tukey_c * scale);
      double bi = std::abs(u) < 1 ? (1 - u * u) * (1 - u * u) : 0.0;
      w[i] = bi / (denom[i] * denom[i]);
    }
    auto next = weighted_ls(points, w, through_origin);
    bool done = std::abs(next.a - cur.a) <= 1e-13 * std::max(std::abs(cur.a), tiny) &&
                std::abs(next.b - cur.b) <= 1e-13 * std::max(std::abs(cur.b), 1e-300);
    cur = next;
    if (done)
      break;
  }
  fit.offset = cur.a;
  fit.slope = cur.b;
  fit.residual = mad;

  // Statistics over the points kept.
  double sum = 0;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (w[i] > 0) {
      sum += points[i].y;
      ++kept;
    }
  fit.outliers = points.size() - kept;
  double mean = kept ? sum / static_cast<double>(kept) : 0;
  double ss_res = 0;
  double ss_tot = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (w[i] <= 0)
      continue;
    double f = fit(points[i].x);
    ss_res += (points[i].y - f) * (points[i].y - f);
    ss_tot += (points[i].y - mean) * (points[i].y - mean);
    fit.max_residual = std::max(fit.max_residual, std::abs(points[i].y - f) / std::max(std::abs(f), tiny));
  }
  fit.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1.0;
  return fit;
}

namespace {

/// The quantities' medians (spikes removed) against the distinct sizes of all of them: cost[i][j] is the cost of one
/// segment over size indices i..j (infinite when it has fewer than `min_sizes` sizes).
std::vector<std::vector<double>> segment_costs(const std::vector<std::vector<Point>>& sorted,
                                               const std::vector<double>& sizes, std::size_t min_sizes)
{
  const std::size_t n = sizes.size();
  std::vector<std::vector<std::size_t>> first_at(sorted.size()); // first point of the quantity at size index >= i
  for (std::size_t q = 0; q < sorted.size(); ++q) {
    first_at[q].resize(n + 1);
    std::size_t k = 0;
    for (std::size_t i = 0; i <= n; ++i) {
      while (k < sorted[q].size() && i < n && sorted[q][k].x < sizes[i])
        ++k;
      first_at[q][i] = i < n ? k : sorted[q].size();
    }
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, inf));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + min_sizes - 1; j < n; ++j) {
      double c = 0;
      for (std::size_t q = 0; q < sorted.size(); ++q) {
        std::size_t b = first_at[q][i];
        std::size_t e = first_at[q][j + 1];
        c += segment_cost(std::span<const Point>(sorted[q]).subspan(b, e - b));
      }
      cost[i][j] = c;
    }
  return cost;
}

/// Dynamic programming over `cost`: best[k][j] the least cost of sizes 0..j in k+1 segments, from[k][j] the first
/// index of its last segment.
struct Segmentation {
  std::vector<std::vector<double>> best;
  std::vector<std::vector<std::size_t>> from;
};

Segmentation segment(const std::vector<std::vector<double>>& cost, int kmax)
{
  const std::size_t n = cost.size();
  const double inf = std::numeric_limits<double>::infinity();
  Segmentation s{std::vector<std::vector<double>>(kmax, std::vector<double>(n, inf)),
                 std::vector<std::vector<std::size_t>>(kmax, std::vector<std::size_t>(n, 0))};
  for (std::size_t j = 0; j < n; ++j)
    s.best[0][j] = cost[0][j];
  for (int k = 1; k < kmax; ++k)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 1; i <= j; ++i) {
        if (s.best[k - 1][i - 1] == inf || cost[i][j] == inf)
          continue;
        double c = s.best[k - 1][i - 1] + cost[i][j];
        if (c < s.best[k][j]) {
          s.best[k][j] = c;
          s.from[k][j] = i;
        }
      }
  return s;
}

/// The number of segments (minus 1) whose cost, penalised as twice BIC's, is least, over `points` data points of
/// `quantities` quantities.
int chosen_segments(const Segmentation& s, double points, std::size_t quantities)
{
  const double inf = std::numeric_limits<double>::infinity();
  const double floor = points * 1e-12; // relative residuals of 1e-6: exact data
  const std::size_t last = s.best[0].size() - 1;
  int chosen = 0;
  double chosen_bic = inf;
  for (int k = 0; k < static_cast<int>(s.best.size()); ++k) {
    if (s.best[k][last] == inf)
      continue;
    double params = static_cast<double>((k + 1) * 2 * static_cast<int>(quantities) + k);
    // Twice BIC's penalty: medians of a few noisy repetitions are not Gaussian, and a spurious break
    // (a segment fitted to noise) costs more than a missed subtle one.
    double bic = points * std::log(std::max(s.best[k][last], floor) / points) + 2 * params * std::log(points);
    if (bic < chosen_bic) {
      chosen_bic = bic;
      chosen = k;
    }
  }
  return chosen;
}

} // namespace

std::vector<std::uint64_t> find_breaks(const std::vector<std::vector<Point>>& medians, int max_segments,
                                       int min_sizes)
{
  // The distinct sizes of all quantities, and each quantity's medians by index of size.
  std::vector<double> sizes;
  for (auto const& q : medians)
    for (auto const& p : q)
      sizes.push_back(p.x);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::size_t n = sizes.size();
  min_sizes = std::max(min_sizes, 1);
  if (n == 0 || max_segments <= 1 || n < 2 * static_cast<std::size_t>(min_sizes))
    return {};
  std::vector<std::vector<Point>> sorted(medians.size());
  double m = 0;
  for (std::size_t q = 0; q < medians.size(); ++q) {
    sorted[q] = without_spikes(medians[q]);
    m += static_cast<double>(sorted[q].size());
  }
  auto cost = segment_costs(sorted, sizes, static_cast<std::size_t>(min_sizes));
  const int kmax = std::min<int>(max_segments, static_cast<int>(n / static_cast<std::size_t>(min_sizes)));
  Segmentation s = segment(cost, kmax);
  std::vector<std::uint64_t> breaks;
  std::size_t j = n - 1;
  for (int k = chosen_segments(s, m, sorted.size()); k > 0; --k) {
    std::size_t i = s.from[k][j];
    breaks.push_back(static_cast<std::uint64_t>(sizes[i - 1]));
    j = i - 1;
  }
  std::reverse(breaks.begin(), breaks.end());
  return breaks;
}

std::size_t segment_of(const std::vector<std::uint64_t>& breaks, double size)
{
  std::size_t s = 0;
  while (s < breaks.size() && size > static_cast<double>(breaks[s]))
    ++s;
  return s;
}

std::string band_label(const std::vector<std::uint64_t>& breaks, std::size_t i)
{
  auto high = i < breaks.size() ? std::to_string(breaks[i]) : std::string("inf");
  return i == 0 ? fmt::format("[0, {}]", high) : fmt::format("({}, {}]", breaks[i - 1], high);
}

} // namespace tit::calib
