#include "p2p.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tit::calib {

namespace {

std::vector<Point> in_segment(const std::vector<Point>& pts, std::uint64_t low, std::uint64_t high, bool first)
{
  std::vector<Point> out;
  for (auto const& p : pts)
    if ((p.x > static_cast<double>(low) || (first && p.x >= 0)) && p.x <= static_cast<double>(high))
      out.push_back(p);
  return out;
}

/// A line that never goes negative on sizes >= 0: a negative offset is refitted through the origin,
/// a negative slope as a constant.
LineFit fit_overhead(const std::vector<Point>& pts, std::vector<std::string>& warnings, const std::string& what)
{
  auto fit = robust_line_fit(pts);
  if (fit.slope < 0) {
    std::vector<Point> flat = pts;
    for (auto& p : flat)
      p.x = 0;
    auto c = robust_line_fit(flat);
    c.slope = 0;
    warnings.push_back(fmt::format("{}: the time decreases with the size; fitted as a constant", what));
    fit = c;
  }
  if (fit.offset < 0) {
    fit = robust_line_fit(pts, true);
    warnings.push_back(fmt::format("{}: negative offset; refitted through the origin", what));
  }
  return fit;
}

/// The band nearest to `i` whose `ok` holds, the larger sizes first when `up_first`; none when no band's does.
std::optional<std::size_t> nearest(std::size_t i, const std::vector<bool>& ok, bool up_first)
{
  for (std::size_t d = 1; d < ok.size(); ++d) {
    bool up = i + d < ok.size() && ok[i + d];
    bool down = i >= d && ok[i - d];
    if (up && (up_first || not down))
      return i + d;
    if (down)
      return i - d;
  }
  return std::nullopt;
}

std::string range_name(const SegmentFit& s, bool first)
{
  return first ? fmt::format("[0, {}]", s.high) : fmt::format("({}, {}]", s.low, s.high);
}

std::string piecewise(const std::vector<SegmentFit>& segs, LineFit SegmentFit::*member)
{
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    auto const& f = segs[i].*member;
    parts.push_back(fmt::format("{}:{}:{}", i == 0 ? 0 : segs[i].low, num(f.offset), num(f.slope)));
  }
  return fmt::format("{}", fmt::join(parts, ";"));
}

} // namespace

std::string num(double v)
{
  return fmt::format("{:.9g}", v);
}

double Route::lone_flow_bandwidth() const
{
  double share = shared_bottleneck ? bandwidth / 1.05 : bandwidth;
  double lat = raw_latency();
  if (lat > 0 && tcp_gamma > 0)
    share = std::min(share, tcp_gamma / (2 * lat));
  return share;
}

P2pData load_p2p(const CsvTable& t)
{
  P2pData d;
  auto ce = t.column("experiment");
  auto cs = t.column("size");
  t.column("iteration");
  auto ct = t.column("seconds");
  for (auto const& row : t.rows()) {
    Point p{static_cast<double>(t.count(row, cs)), t.non_negative(row, ct)};
    const std::string& e = row.fields[ce];
    if (e == "send")
      d.send.push_back(p);
    else if (e == "recv")
      d.recv.push_back(p);
    else if (e == "isend")
      d.isend.push_back(p);
    else if (e == "wait")
      d.wait.push_back(p);
    else if (e == "pingpong")
      d.pingpong.push_back(p);
    else if (e == "copy")
      d.copy.push_back(p);
    else if (e == "test" || e == "iprobe") {
      if (p.x != 0)
        throw InputError(fmt::format("{}: error: a {} row has size {}, expected 0 (a polling call moves no data)",
                                     t.where(row, cs), e, row.fields[cs]));
      (e == "test" ? d.test : d.iprobe).push_back(p);
    } else
      throw InputError(fmt::format(
          "{}: error: unknown experiment '{}' (expected send, recv, isend, wait, pingpong, copy, test or iprobe)",
          t.where(row, ce), e));
  }
  return d;
}

CopyFit fit_local_copy(const std::vector<Point>& copy)
{
  auto med = medians_by_size(copy);
  if (med.size() < 2)
    throw InputError(fmt::format("error: the copy experiment needs at least 2 distinct sizes, got {}", med.size()));
  CopyFit fit;
  fit.breaks = find_breaks({med}, 3);
  std::vector<std::vector<Point>> bands(fit.breaks.size() + 1);
  for (auto const& p : copy)
    bands[segment_of(fit.breaks, p.x)].push_back(p);
  std::vector<bool> grows;
  for (auto const& b : bands) {
    fit.lines.push_back(robust_line_fit(b));
    grows.push_back(fit.lines.back().slope > 0);
  }
  if (std::none_of(grows.begin(), grows.end(), [](bool g) { return g; }))
    throw InputError(fmt::format("error: the copy times do not grow with the size (slope {:.3g} s/B): no rate to "
                                 "fit (measure larger sizes)",
                                 robust_line_fit(copy).slope));
  // A band whose times do not grow (small copies: the per-call cost alone) takes the rate of the nearest band that
  // measured one, larger sizes first.
  for (std::size_t k = 0; k < bands.size(); ++k) {
    fit.from.push_back(grows[k] ? std::nullopt : nearest(k, grows, true));
    fit.rates.push_back(1 / fit.lines[fit.from[k].value_or(k)].slope);
  }
  return fit;
}

std::string CopyFit::config() const
{
  if (rates.size() == 1)
    return num(rates[0]);
  std::string out = "0:" + num(rates[0]);
  for (std::size_t k = 1; k < rates.size(); ++k)
    out += fmt::format(";{}:{}", breaks[k - 1], num(rates[k]));
  return out;
}

void write_copy_report(std::ostream& out, const CopyFit& fit)
{
  out << fmt::format("local copy (MPI_Sendrecv to itself): tit/local-copy-bw {}\n", fit.config());
  for (std::size_t k = 0; k < fit.rates.size(); ++k) {
    auto const& l = fit.lines[k];
    out << fmt::format("  {:<22} {:.4g} B/s{}, per-call offset {:.3g} s (not modelled); R2 {:.4f}, residual {:.1f}%, "
                       "{} of {} points rejected\n",
                       band_label(fit.breaks, k), fit.rates[k],
                       fit.from[k] ? fmt::format(" (its times do not grow: band {}'s)", *fit.from[k]) : "", l.offset,
                       l.r2, 100 * l.residual, l.outliers, l.points);
  }
}

PollFit fit_polling(const P2pData& data)
{
  auto cost = [](const std::vector<Point>& points) -> std::optional<double> {
    if (points.empty())
      return std::nullopt;
    std::vector<double> y;
    for (auto const& p : points)
      y.push_back(p.y);
    return median(std::move(y));
  };
  return PollFit{cost(data.test), cost(data.iprobe)};
}

std::vector<std::pair<std::string, std::string>> PollFit::props() const
{
  std::vector<std::pair<std::string, std::string>> out;
  if (test) {
    out.emplace_back("smpi/test", num(*test));
    out.emplace_back("smpi/grow-injected-times", "no");
  }
  return out;
}

void write_polling_report(std::ostream& out, const PollFit& fit)
{
  auto said = [](const std::optional<double>& v) { return v ? fmt::format("{:.3g} s", *v) : std::string("not measured"); };
  out << fmt::format("polling: one MPI_Test that finds nothing {} (smpi/test; smpi/grow-injected-times:no, a real "
                     "call's cost does not grow with the calls that failed before it), one MPI_Iprobe {} (reported, not "
                     "written: smpi/iprobe times the probe loop of a receive of unknown size, which a step this short "
                     "would make millions of iterations long)\n",
                     said(fit.test), said(fit.iprobe));
}

double P2pFit::os_at(double size) const
{
  return segments[segment_of(breaks, size)].os(size);
}
double P2pFit::or_at(double size) const
{
  return segments[segment_of(breaks, size)].orecv(size);
}
double P2pFit::ois_at(double size) const
{
  return segments[segment_of(breaks, size)].ois(size);
}

double P2pFit::one_way(double size) const
{
  auto const& s = segments[segment_of(breaks, size)];
  double t = route.raw_latency() * s.lat_factor + (size + kEnvelope) / (route.lone_flow_bandwidth() * s.bw_factor);
  if (size < detached_thresh)
    t += s.os(size) + s.orecv(size);
  return t;
}

std::string P2pFit::os() const
{
  return piecewise(segments, &SegmentFit::os);
}
std::string P2pFit::orecv() const
{
  return piecewise(segments, &SegmentFit::orecv);
}
std::string P2pFit::ois() const
{
  return piecewise(segments, &SegmentFit::ois);
}

std::string P2pFit::ois_wait() const
{
  if (std::none_of(segments.begin(), segments.end(), [](const SegmentFit& s) { return s.ois_wait.points > 0; }))
    return {};
  auto segs = segments;
  for (auto& s : segs)
    if (not(static_cast<double>(s.low) + 1 < detached_thresh)) // none of its sizes below the threshold
      s.ois_wait = {};
  return piecewise(segs, &SegmentFit::ois_wait);
}

std::string P2pFit::lat_factor() const
{
  std::vector<std::string> parts;
  for (std::size_t i = segments.size(); i-- > 0;)
    parts.push_back(fmt::format("{}:{}", i == 0 ? 0 : segments[i].low + 16, num(segments[i].lat_factor)));
  return fmt::format("{}", fmt::join(parts, ";"));
}

std::string P2pFit::bw_factor() const
{
  std::vector<std::string> parts;
  for (std::size_t i = segments.size(); i-- > 0;)
    parts.push_back(fmt::format("{}:{}", i == 0 ? 0 : segments[i].low + 16, num(segments[i].bw_factor)));
  return fmt::format("{}", fmt::join(parts, ";"));
}

BandFactors band_factors(LineFit line, const std::vector<Point>& points, const Route& route,
                         std::optional<double> max_bw_factor)
{
  const double lone = route.lone_flow_bandwidth();
  const double lat = route.raw_latency();
  BandFactors b;
  // SimGrid and tit-replay refuse a zero factor: a band without latency gets a negligible one.
  b.bw_factor = line.slope > 0 ? std::min(1 / (line.slope * lone), kMaxBwFactor) : kMaxBwFactor;
  if (max_bw_factor && b.bw_factor > *max_bw_factor) {
    b.capped_from = b.bw_factor;
    b.bw_factor = *max_bw_factor;
    line.slope = 1 / (lone * b.bw_factor);
    std::vector<double> rest;
    for (auto const& p : points)
      rest.push_back(p.y - line.slope * p.x);
    line.offset = rest.empty() ? 0.0 : std::max(median(rest), 0.0);
  }
  b.lat_factor = std::max(lat > 0 ? line.offset / lat : 0.0, kMinLatFactor);
  b.line = line;
  return b;
}

namespace {

/// Segment `s`'s one-way network times: the ping-pong points `pp` of its sizes, less the overheads of detached
/// messages (x: payload + 16 bytes). Overheads measured alone that exceed the ping-pong's one-way time (seen on shared
/// memory, where the ping-pong overlaps copies the ping experiments do not) would leave the network a negative time:
/// they are scaled down to leave it 10%.
std::vector<Point> network_points(SegmentFit& s, const std::string& name, const std::vector<Point>& pp, P2pFit& fit)
{
  std::vector<double> room;
  for (auto const& m : medians_by_size(pp))
    if (m.x < fit.detached_thresh && s.os(m.x) + s.orecv(m.x) > 0)
      room.push_back(m.y / (s.os(m.x) + s.orecv(m.x)));
  if (not room.empty() && 0.9 * median(room) < 1) {
    double k = 0.9 * median(room);
    for (LineFit* f : {&s.os, &s.orecv}) {
      f->offset *= k;
      f->slope *= k;
    }
    s.overhead_scale = k;
    fit.warnings.push_back(fmt::format("os + or on {} exceed {:.0f}% of the one-way ping-pong time; both scaled by "
                                       "{:.3f} so that the model reproduces the ping-pong",
                                       name, 90.0, k));
  }
  std::vector<Point> net;
  for (auto const& p : pp) {
    double y = p.y;
    if (p.x < fit.detached_thresh)
      y -= s.os(p.x) + s.orecv(p.x);
    net.push_back({p.x + kEnvelope, y});
  }
  return net;
}

/// The line of `net` whose slope is `slope`: its offset fitted robustly under it.
LineFit under_slope(const std::vector<Point>& net, double slope)
{
  std::vector<Point> rest;
  for (auto const& p : net)
    rest.push_back({0, p.y - slope * p.x});
  LineFit f = robust_line_fit(rest);
  f.slope = slope;
  return f;
}

/// The line of `net` whose offset is `offset`: its slope fitted robustly under it (0 when nothing is left to grow).
LineFit under_offset(const std::vector<Point>& net, double offset)
{
  std::vector<Point> rest;
  for (auto const& p : net)
    rest.push_back({p.x, p.y - offset});
  LineFit f = robust_line_fit(rest, true);
  f.offset = offset;
  f.slope = std::max(f.slope, 0.0);
  return f;
}

/// The largest slope the noise of a band's network times hides: one whose growth over the band's sizes is one robust
/// noise scale of the times about their constant (`noise`, seconds); 0 when they have no noise or no positive level.
struct Hidden {
  double slope = 0;
  double noise = 0;
};

Hidden hidden_slope(const std::vector<Point>& net)
{
  if (net.empty())
    return {};
  LineFit flat = under_slope(net, 0);
  auto [lo, hi] = std::minmax_element(net.begin(), net.end(), [](auto const& a, auto const& b) { return a.x < b.x; });
  if (not(flat.offset > 0) || not(hi->x > lo->x))
    return {};
  const double noise = flat.residual * flat.offset;
  return {noise / (hi->x - lo->x), noise};
}

/// Whether a network line's slope gives a bandwidth factor the fit takes as measured: above 0 and at most
/// kMaxBwFactor on `route`.
bool slope_measured(double slope, const Route& route)
{
  return slope > 0 && 1 / (slope * route.lone_flow_bandwidth()) <= kMaxBwFactor;
}

/// Segment `i`'s name in the report: its size range.
std::string band_name(const P2pFit& fit, std::size_t i)
{
  return range_name(fit.segments[i], i == 0);
}

LineFit with_offset(LineFit line, double offset)
{
  line.offset = offset;
  return line;
}

/// Segment `i`'s line `line` (its slope as fitted or taken) when its offset is at or below 0: the latency of the
/// nearest band that measured one (smaller sizes first) and the slope refitted under it, unless that latency would
/// leave the band's times no growth; else, or when no band has a latency, kMinLatFactor. Warns of what it did.
LineFit take_latency(P2pFit& fit, std::size_t i, LineFit line, const std::vector<Point>& net,
                     const std::vector<LineFit>& lines, const std::vector<bool>& offset_ok)
{
  auto& s = fit.segments[i];
  const std::string why = fmt::format("network time on {}: the overheads leave no latency (fitted offset {:.4g} s)",
                                      band_name(fit, i), line.offset);
  auto none = [&] { return s.slope_fixed() ? with_offset(line, 0) : under_offset(net, 0); };
  const auto donor = nearest(i, offset_ok, false);
  if (not donor) {
    fit.warnings.push_back(fmt::format("{}, nor in any other band: latency factor {}", why, kMinLatFactor));
    return none();
  }
  const double latency = lines[*donor].offset;
  const LineFit taken = s.slope_fixed() ? with_offset(line, latency) : under_offset(net, latency);
  if (not slope_measured(taken.slope, fit.route)) {
    // The neighbour's latency is as long as this band's whole times: nothing would be left to the bandwidth.
    fit.warnings.push_back(fmt::format("{}, and the latency of {} ({:.4g} s) leaves its times no growth with the size: "
                                       "latency factor {} (the band's time is its overheads and its bytes)",
                                       why, band_name(fit, *donor), latency, kMinLatFactor));
    return none();
  }
  s.latency_from = donor;
  fit.warnings.push_back(fmt::format("{}: its latency is taken from {} ({:.4g} s){}", why, band_name(fit, *donor),
                                     latency, s.slope_fixed() ? "" : " and its bandwidth refitted under it"));
  return taken;
}

/// Segment `i`'s line when its slope is not measured (at or below 0, or a bandwidth factor beyond kMaxBwFactor): the
/// faster of the lowest bandwidth its noise allows and the bandwidth of the nearest band that measured one (larger
/// sizes first), the latency refitted under it; kMaxBwFactor when there is neither. Warns of what it did.
LineFit take_bandwidth(P2pFit& fit, std::size_t i, const std::vector<Point>& net, const std::vector<LineFit>& raw,
                       const std::vector<bool>& slope_ok)
{
  auto& s = fit.segments[i];
  const Hidden hidden = hidden_slope(net);
  const bool bound = slope_measured(hidden.slope, fit.route);
  const auto donor = nearest(i, slope_ok, true);
  const std::string why = fmt::format("network time on {} does not grow measurably with the size (fitted slope {:.4g} "
                                      "s/B)",
                                      band_name(fit, i), raw[i].slope);
  if (bound && (not donor || hidden.slope <= raw[*donor].slope)) {
    // The slowest link the data cannot tell from none: the bytes of its sizes cost one noise scale over the band.
    s.bandwidth_bound = true;
    fit.warnings.push_back(fmt::format("{}: its bandwidth is the lowest its noise allows, {:.4g} B/s (its sizes' bytes "
                                       "cost one noise scale of its times, {:.4g} s), and its latency is refitted "
                                       "under it",
                                       why, 1 / hidden.slope, hidden.noise));
    return under_slope(net, hidden.slope);
  }
  if (donor) {
    s.bandwidth_from = donor;
    fit.warnings.push_back(fmt::format("{}: its bandwidth is taken from {} ({:.4g} B/s{}) and its latency refitted "
                                       "under it",
                                       why, band_name(fit, *donor), 1 / raw[*donor].slope,
                                       bound ? fmt::format(", faster than the {:.4g} B/s its noise allows",
                                                           1 / hidden.slope)
                                             : std::string()));
    return under_slope(net, raw[*donor].slope);
  }
  fit.warnings.push_back(fmt::format("network time on {} does not grow with the size, nor in any other band: "
                                     "bandwidth factor set at {} (the data hold no bandwidth)",
                                     band_name(fit, i), kMaxBwFactor));
  return under_slope(net, 0);
}

/// Each segment's network line from its points `net`, as fitted where the data determine it. A parameter they do not
/// determine is set otherwise and the other refitted under it, with a warning, since a factor of 1000 or 1e-6
/// describes no machine (docs: calibration/README.md, "What the data cannot determine"): a slope that does not grow
/// (or a bandwidth factor beyond kMaxBwFactor) by take_bandwidth, an offset at or below 0 (the overheads took the
/// whole time) by take_latency.
void fit_network_lines(P2pFit& fit, const std::vector<std::vector<Point>>& net)
{
  const std::size_t n = net.size();
  const double lat = fit.route.raw_latency();
  std::vector<LineFit> raw;
  std::vector<bool> slope_ok;
  for (auto const& pts : net) {
    raw.push_back(robust_line_fit(pts));
    slope_ok.push_back(slope_measured(raw.back().slope, fit.route));
  }
  // First the slopes, then the latencies: a band's latency is taken as its band ended up with it.
  std::vector<LineFit> lines;
  std::vector<bool> offset_ok;
  for (std::size_t i = 0; i < n; ++i) {
    lines.push_back(slope_ok[i] ? raw[i] : take_bandwidth(fit, i, net[i], raw, slope_ok));
    offset_ok.push_back(lines[i].offset > 0 && lat > 0);
  }
  for (std::size_t i = 0; i < n; ++i) {
    auto& s = fit.segments[i];
    if (lat <= 0)
      // No latency to scale: the time is the bandwidth's.
      s.network = s.slope_fixed() ? with_offset(lines[i], 0) : robust_line_fit(net[i], true);
    else if (not offset_ok[i])
      s.network = take_latency(fit, i, lines[i], net[i], lines, offset_ok);
    else
      s.network = lines[i];
  }
}

/// Segment `s`'s latency and bandwidth factors from its network line; a bandwidth factor above
/// `options.max_bw_factor` is capped there and the latency refitted under that slope (docs: calibration/README.md,
/// "A link's rate as a bound").
void network_factors(SegmentFit& s, const std::string& name, const std::vector<Point>& net, P2pFit& fit,
                     const P2pOptions& options)
{
  BandFactors b = band_factors(s.network, net, fit.route, options.max_bw_factor);
  s.network = b.line;
  s.lat_factor = b.lat_factor;
  s.bw_factor = b.bw_factor;
  if (b.capped_from)
    // A ping-pong through an idle link that lets a burst through at once (a token bucket, refilled while the reply
    // travels) runs faster than the link's rate, which a busy link never does.
    fit.warnings.push_back(fmt::format("network time on {}: bandwidth factor {} is above --max-bw-factor {} (the "
                                       "ping-pong ran faster than the link); capped, latency factor refitted: {}{}",
                                       name, num(*b.capped_from), num(s.bw_factor), num(s.lat_factor),
                                       b.line.offset > 0 ? ""
                                                         : " (under that slope the band's larger sizes leave it no "
                                                           "latency: its small messages get none)"));
}

/// The segments' boundaries: the given breaks (those beyond the largest size measured dropped, with a warning), or
/// found by segmented regression over the four quantities' medians.
void choose_breaks(P2pFit& fit, const P2pData& data, const std::vector<Point>& half, double max_size,
                   const P2pOptions& options)
{
  if (options.breaks.empty()) {
    fit.breaks = find_breaks({medians_by_size(data.send), medians_by_size(data.recv), medians_by_size(data.isend),
                              medians_by_size(half)},
                             options.max_segments, options.min_sizes);
    fit.breaks_found = true;
    return;
  }
  fit.breaks = options.breaks;
  std::sort(fit.breaks.begin(), fit.breaks.end());
  fit.breaks.erase(std::unique(fit.breaks.begin(), fit.breaks.end()), fit.breaks.end());
  while (not fit.breaks.empty() && static_cast<double>(fit.breaks.back()) >= max_size) {
    fit.warnings.push_back(fmt::format("break {} is at or beyond the largest size measured ({}); ignored",
                                       fit.breaks.back(), max_size));
    fit.breaks.pop_back();
  }
}

/// Segment `s`'s overheads (os, or, ois) and its synchronous ratio, from the measurements of its sizes (`half`: the
/// one-way ping-pong times). Throws InputError when a quantity has fewer than 2 points there.
void fit_overheads(SegmentFit& s, bool first, const P2pData& data, const std::vector<Point>& half,
                   std::vector<std::string>& warnings)
{
  struct Named {
    const char* name;
    const std::vector<Point>* pts;
  };
  auto name = range_name(s, first);
  auto send = in_segment(data.send, s.low, s.high, first);
  auto recv = in_segment(data.recv, s.low, s.high, first);
  auto isend = in_segment(data.isend, s.low, s.high, first);
  auto pp = in_segment(half, s.low, s.high, first);
  for (auto [what, pts] : {Named{"send", &send}, Named{"recv", &recv}, Named{"isend", &isend}, Named{"pingpong", &pp}})
    if (pts->size() < 2)
      throw InputError(fmt::format("error: segment {} of sizes has {} '{}' measurement(s); at least 2 are needed "
                                   "(move the breaks or measure more sizes)",
                                   name, pts->size(), what));
  s.os = fit_overhead(send, warnings, fmt::format("os on {}", name));
  s.orecv = fit_overhead(recv, warnings, fmt::format("or on {}", name));
  s.ois = fit_overhead(isend, warnings, fmt::format("ois on {}", name));
  if (auto wait = in_segment(data.wait, s.low, s.high, first); wait.size() >= 2)
    s.ois_wait = fit_overhead(wait, warnings, fmt::format("ois-wait on {}", name));
  auto ys = [](const std::vector<Point>& pts) {
    std::vector<double> out;
    for (auto const& p : pts)
      out.push_back(p.y);
    return out;
  };
  s.sync_ratio = std::min(median(ys(send)), median(ys(recv))) / median(ys(pp));
}

} // namespace

P2pFit fit_p2p(const P2pData& data, const Route& route, const P2pOptions& options)
{
  struct Named {
    const char* name;
    const std::vector<Point>* pts;
  };
  for (auto [name, pts] : {Named{"send", &data.send}, Named{"recv", &data.recv}, Named{"isend", &data.isend},
                           Named{"pingpong", &data.pingpong}})
    if (pts->empty())
      throw InputError(fmt::format("error: no '{}' measurement in the p2p data", name));
  if (not(route.bandwidth > 0) || not(route.latency >= 0) || route.links < 1)
    throw InputError("error: the route needs a bandwidth > 0, a latency >= 0 and at least one link");

  P2pFit fit;
  fit.route = route;
  std::vector<Point> half;
  for (auto const& p : data.pingpong)
    half.push_back({p.x, p.y / 2});
  double max_size = 0;
  for (auto const& p : half)
    max_size = std::max(max_size, p.x);

  choose_breaks(fit, data, half, max_size, options);

  // Overheads and the protocol, segment by segment.
  const std::size_t nseg = fit.breaks.size() + 1;
  for (std::size_t i = 0; i < nseg; ++i) {
    SegmentFit s;
    s.low = i == 0 ? 0 : fit.breaks[i - 1];
    s.high = i + 1 < nseg ? fit.breaks[i] : static_cast<std::uint64_t>(max_size);
    fit_overheads(s, i == 0, data, half, fit.warnings);
    fit.segments.push_back(s);
  }

  if (options.detached_thresh) {
    fit.detached_thresh = *options.detached_thresh;
  } else {
    // Rendez-vous from the first segment after which every segment is synchronous.
    std::size_t k = nseg;
    while (k > 0 && fit.segments[k - 1].sync_ratio >= options.sync_ratio)
      --k;
    fit.detached_thresh = k == nseg ? max_size + 1 : (k == 0 ? 0 : static_cast<double>(fit.breaks[k - 1]) + 1);
  }

  // Network factors from the ping-pong, after removing the overheads of detached messages.
  std::vector<std::vector<Point>> net;
  for (std::size_t i = 0; i < nseg; ++i) {
    auto& s = fit.segments[i];
    net.push_back(network_points(s, range_name(s, i == 0), in_segment(half, s.low, s.high, i == 0), fit));
  }
  fit_network_lines(fit, net);
  for (std::size_t i = 0; i < nseg; ++i)
    network_factors(fit.segments[i], band_name(fit, i), net[i], fit, options);
  return fit;
}

void write_p2p_report(std::ostream& out, const P2pFit& fit)
{
  out << fmt::format("Segments ({}): {}\n", fit.breaks_found ? "found by segmented regression" : "given",
                     fit.breaks.empty() ? std::string("one segment") : fmt::format("breaks {}", fmt::join(fit.breaks, ",")));
  out << fmt::format("Route: {} link(s) of {} s, bandwidth {} B/s{}; lone flow rate {} B/s\n", fit.route.links,
                     num(fit.route.latency), num(fit.route.bandwidth),
                     fit.route.shared_bottleneck ? " (shared bottleneck, /1.05)" : "", num(fit.route.lone_flow_bandwidth()));
  out << fmt::format("Protocol: sizes below {} bytes are detached (eager)\n", num(fit.detached_thresh));
  out << fmt::format("{:<22} {:<8} {:>12} {:>12} {:>8} {:>9} {:>7}\n", "segment (bytes)", "quantity", "offset (s)",
                     "slope (s/B)", "R2", "residual", "outl.");
  for (std::size_t i = 0; i < fit.segments.size(); ++i) {
    auto const& s = fit.segments[i];
    auto name = range_name(s, i == 0);
    auto line = [&](const char* q, const LineFit& f) {
      out << fmt::format("{:<22} {:<8} {:>12.4g} {:>12.4g} {:>8.4f} {:>8.2f}% {:>3}/{:<3}\n", name, q, f.offset, f.slope,
                         f.r2, 100 * f.residual, f.outliers, f.points);
    };
    line("os", s.os);
    line("or", s.orecv);
    line("ois", s.ois);
    if (s.ois_wait.points > 0)
      line("ois-wait", s.ois_wait);
    line("network", s.network);
    // the protocol of the segment's sizes (> low, <= high): detached below the threshold
    std::string protocol = "rendez-vous";
    if (static_cast<double>(s.high) < fit.detached_thresh)
      protocol = "detached";
    else if (static_cast<double>(s.low) + 1 < fit.detached_thresh)
      protocol = fmt::format("detached below {}", num(fit.detached_thresh));
    auto from = [&](const std::optional<std::size_t>& band) {
      return band ? fmt::format(" (from {})", band_name(fit, *band)) : std::string();
    };
    out << fmt::format("{:<22} {} (min(send, recv) / one-way {:.2f}), lat-factor {}{}, bw-factor {}{}{}\n", name,
                       protocol, s.sync_ratio, num(s.lat_factor), from(s.latency_from), num(s.bw_factor),
                       s.bandwidth_bound ? std::string(" (the lowest its noise allows)") : from(s.bandwidth_from),
                       s.overhead_scale < 1 ? fmt::format(", os and or scaled by {:.3f}", s.overhead_scale) : "");
  }
  out << "smpi/os: " << fit.os() << "\n";
  out << "smpi/or: " << fit.orecv() << "\n";
  out << "smpi/ois: " << fit.ois() << "\n";
  if (auto w = fit.ois_wait(); not w.empty())
    out << "tit/ois-wait: " << w << "\n";
  out << "smpi/lat-factor: " << fit.lat_factor() << "\n";
  out << "smpi/bw-factor: " << fit.bw_factor() << "\n";
  for (auto const& w : fit.warnings)
    out << "warning: " << w << "\n";
}

void write_p2p_curves(std::ostream& out, const P2pData& data, const P2pFit& fit)
{
  out << "# tit-calibrate curves v1\n";
  out << "quantity,kind,segment,size,seconds\n";
  auto raw = [&](const char* q, const std::vector<Point>& pts, double scale) {
    for (auto const& p : pts)
      out << fmt::format("{},raw,{},{},{}\n", q, segment_of(fit.breaks, p.x), num(p.x), num(p.y * scale));
  };
  raw("os", data.send, 1);
  raw("or", data.recv, 1);
  raw("ois", data.isend, 1);
  raw("oneway", data.pingpong, 0.5);
  for (std::size_t i = 0; i < fit.segments.size(); ++i) {
    auto const& s = fit.segments[i];
    double lo = i == 0 ? 1 : static_cast<double>(s.low) + 1;
    double hi = std::max(static_cast<double>(s.high), lo);
    constexpr int steps = 24;
    for (int k = 0; k <= steps; ++k) {
      double x = std::round(lo * std::pow(hi / lo, static_cast<double>(k) / steps));
      x = std::clamp(x, lo, hi);
      out << fmt::format("os,model,{},{},{}\n", i, num(x), num(s.os(x)));
      out << fmt::format("or,model,{},{},{}\n", i, num(x), num(s.orecv(x)));
      out << fmt::format("ois,model,{},{},{}\n", i, num(x), num(s.ois(x)));
      out << fmt::format("oneway,model,{},{},{}\n", i, num(x), num(fit.one_way(x)));
    }
  }
}

} // namespace tit::calib
