// The fit recovers known parameters from synthetic measurements with noise and outliers.
#include "fit.hpp"
#include "insitu.hpp"
#include "p2p.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

using namespace tit::calib;

namespace {

/// A machine that behaves exactly as tit-replay's model, with known parameters.
struct Machine {
  std::vector<std::uint64_t> breaks{1420, 32768, 65536, 327680};
  double detached = 65537; // sizes <= 65536 are eager
  // per segment: os, or, ois (offset, slope); lat and bw factors
  std::vector<LineFit> os{{1e-6, 1e-9}, {3e-6, 2e-10}, {8e-6, 1.5e-10}, {0, 0}, {0, 0}};
  std::vector<LineFit> orecv{{1.5e-6, 5e-10}, {2e-6, 1e-10}, {6e-6, 2e-10}, {0, 0}, {0, 0}};
  std::vector<LineFit> ois{{4e-7, 2e-10}, {1e-6, 5e-11}, {2e-6, 4e-11}, {3e-6, 1e-11}, {5e-6, 2e-12}};
  std::vector<double> latf{2.0, 1.6, 1.9, 11.6, 10.0};
  std::vector<double> bwf{0.1, 0.6, 0.9, 0.94, 1.1};
  // Each parameter weighs at least about a tenth of the time over its segment: below that, no fit can
  // recover it within 2% from measurements with 0.5% noise.
  Route route{1.25e8, 1e-4, 2, false, 4194304};

  std::size_t seg(double s) const { return segment_of(breaks, s); }
  double transfer(double s) const
  {
    auto k = seg(s);
    return route.raw_latency() * latf[k] + (s + 16) / (route.lone_flow_bandwidth() * bwf[k]);
  }
  double send(double s) const { return s < detached ? os[seg(s)](s) : transfer(s); }
  double recv(double s) const { return s < detached ? orecv[seg(s)](s) : transfer(s); }
  double isend(double s) const { return ois[seg(s)](s); }
  double one_way(double s) const
  {
    return s < detached ? os[seg(s)](s) + transfer(s) + orecv[seg(s)](s) : transfer(s);
  }
};

/// Log-uniform sizes from 1 to 4e6, plus each break and the size after it, `reps` noisy measurements each;
/// `outliers` of them multiplied by 1.5 to 4 (a descheduled process).
P2pData synthesize(const Machine& m, double noise, double outliers, int reps = 10, unsigned seed = 42)
{
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> n(0, noise);
  std::vector<double> sizes;
  for (int i = 0; i < 400; ++i)
    sizes.push_back(std::round(std::exp((i + u(rng)) / 400 * std::log(4e6))));
  for (auto b : m.breaks) {
    sizes.push_back(static_cast<double>(b));
    sizes.push_back(static_cast<double>(b) + 1);
  }
  auto measure = [&](double t) {
    double v = t * (1 + n(rng));
    if (u(rng) < outliers)
      v *= 1.5 + 2.5 * u(rng);
    return v;
  };
  P2pData d;
  for (double s : sizes)
    for (int r = 0; r < reps; ++r) {
      d.send.push_back({s, measure(m.send(s))});
      d.recv.push_back({s, measure(m.recv(s))});
      d.isend.push_back({s, measure(m.isend(s))});
      d.pingpong.push_back({s, measure(2 * m.one_way(s))});
    }
  return d;
}

void expect_within(double got, double want, double rel, const std::string& what)
{
  EXPECT_LE(std::abs(got - want), rel * std::abs(want)) << what << ": got " << got << ", want " << want;
}

} // namespace

TEST(RobustLineFit, ExactOnNoiseFreePoints)
{
  std::vector<Point> pts;
  for (double x : {1.0, 10.0, 100.0, 1000.0})
    pts.push_back({x, 2e-6 + 3e-9 * x});
  auto f = robust_line_fit(pts);
  EXPECT_NEAR(f.offset, 2e-6, 1e-15);
  EXPECT_NEAR(f.slope, 3e-9, 1e-18);
  EXPECT_EQ(f.outliers, 0U);
  EXPECT_NEAR(f.r2, 1.0, 1e-12);
}

TEST(RobustLineFit, IgnoresOutliers)
{
  std::vector<Point> pts;
  for (int i = 1; i <= 50; ++i)
    pts.push_back({i * 100.0, 1e-6 + 1e-9 * i * 100.0});
  pts[10].y *= 5; // two gross outliers
  pts[30].y *= 3;
  auto f = robust_line_fit(pts);
  EXPECT_NEAR(f.offset, 1e-6, 1e-12);
  EXPECT_NEAR(f.slope, 1e-9, 1e-15);
  EXPECT_EQ(f.outliers, 2U);
  // Ordinary least squares would be pulled off by them: the robust fit is not.
}

TEST(RobustLineFit, ThroughOrigin)
{
  std::vector<Point> pts{{10, 20}, {20, 40}, {40, 80}};
  auto f = robust_line_fit(pts, true);
  EXPECT_EQ(f.offset, 0);
  EXPECT_NEAR(f.slope, 2, 1e-12);
}

TEST(RobustLineFit, OneSizeIsAConstant)
{
  // 1,200 calls of one size (a stencil's faces) with times that vary: the fit is their typical time, slope 0. The
  // rounded mean of the sizes differs from the size by an ulp, and a slope through it was noise once (-16 us +
  // 0.35 ns/B, then written with its offset clamped at 0: twice the time measured).
  std::vector<Point> pts;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> noise(-0.2, 0.2);
  for (int i = 0; i < 1200; ++i)
    pts.push_back({73728, 1e-5 * (1 + noise(rng))});
  auto f = robust_line_fit(pts);
  EXPECT_EQ(f.slope, 0);
  EXPECT_NEAR(f.offset, 1e-5, 1e-5 * 0.02);
}

TEST(FindBreaks, ExactDiscontinuities)
{
  std::vector<Point> q;
  for (double x = 1; x <= 100; ++x)
    q.push_back({x, x <= 40 ? 1 + 0.01 * x : (x <= 70 ? 3 + 0.02 * x : 10 + 0.001 * x)});
  auto b = find_breaks({q}, 6, 4);
  ASSERT_EQ(b.size(), 2U);
  EXPECT_EQ(b[0], 40U);
  EXPECT_EQ(b[1], 70U);
}

TEST(FindBreaks, NoBreakInALine)
{
  std::vector<Point> q;
  for (double x = 1; x <= 100; ++x)
    q.push_back({x, 2 + 0.5 * x});
  EXPECT_TRUE(find_breaks({q}, 6, 4).empty());
}

TEST(SegmentOf, LargestBreakStrictlyBelow)
{
  std::vector<std::uint64_t> b{100, 1000};
  EXPECT_EQ(segment_of(b, 0), 0U);
  EXPECT_EQ(segment_of(b, 100), 0U);
  EXPECT_EQ(segment_of(b, 101), 1U);
  EXPECT_EQ(segment_of(b, 1000), 1U);
  EXPECT_EQ(segment_of(b, 1001), 2U);
}

class SyntheticRecovery : public ::testing::TestWithParam<bool> {}; // param: breaks given or found

TEST_P(SyntheticRecovery, EveryParameterWithin2PercentAndBreaksExact)
{
  Machine m;
  auto data = synthesize(m, 0.005, 0.05);
  P2pOptions opt;
  if (GetParam())
    opt.breaks = m.breaks;
  auto fit = fit_p2p(data, m.route, opt);
  ASSERT_EQ(fit.breaks, m.breaks);
  EXPECT_EQ(fit.breaks_found, not GetParam());
  EXPECT_EQ(fit.detached_thresh, m.detached);
  ASSERT_EQ(fit.segments.size(), 5U);
  for (std::size_t k = 0; k < 5; ++k) {
    auto const& s = fit.segments[k];
    std::string seg = "segment " + std::to_string(k);
    if (k < 3) { // eager: the overheads are parameters of the model
      expect_within(s.os.offset, m.os[k].offset, 0.02, seg + " os offset");
      expect_within(s.os.slope, m.os[k].slope, 0.02, seg + " os slope");
      expect_within(s.orecv.offset, m.orecv[k].offset, 0.02, seg + " or offset");
      expect_within(s.orecv.slope, m.orecv[k].slope, 0.02, seg + " or slope");
      EXPECT_EQ(s.overhead_scale, 1.0) << seg;
    }
    expect_within(s.ois.offset, m.ois[k].offset, 0.02, seg + " ois offset");
    expect_within(s.ois.slope, m.ois[k].slope, 0.02, seg + " ois slope");
    expect_within(s.lat_factor, m.latf[k], 0.02, seg + " lat-factor");
    expect_within(s.bw_factor, m.bwf[k], 0.02, seg + " bw-factor");
    EXPECT_GT(s.os.outliers + s.orecv.outliers + s.ois.outliers, 0U) << seg << ": the outliers were rejected";
  }
  EXPECT_TRUE(fit.warnings.empty()) << fit.warnings.front();
}

INSTANTIATE_TEST_SUITE_P(Breaks, SyntheticRecovery, ::testing::Values(true, false),
                         [](auto const& info) { return info.param ? "Given" : "Found"; });

TEST(SyntheticRecovery, NoiseFreeModelIsReproducedExactly)
{
  Machine m;
  auto fit = fit_p2p(synthesize(m, 0, 0, 1), m.route, {});
  for (double s : {1.0, 100.0, 1420.0, 1421.0, 5000.0, 32768.0, 40000.0, 65536.0, 65537.0, 1e5, 327681.0, 3e6})
    EXPECT_NEAR(fit.one_way(s), m.one_way(s), 1e-9 * m.one_way(s)) << "size " << s;
}

TEST(SyntheticRecovery, SharedBottleneckAndGammaInTheLoneFlowRate)
{
  Route r{1e9, 1e-2, 1, true, 4194304};
  EXPECT_DOUBLE_EQ(r.lone_flow_bandwidth(), 4194304 / 2e-2); // TCP window bound below 1e9 / 1.05
  Route fast{1e9, 1e-6, 2, true, 4194304};
  EXPECT_DOUBLE_EQ(fast.lone_flow_bandwidth(), 1e9 / 1.05);
}

TEST(SyntheticRecovery, SimGridStrings)
{
  Machine m;
  auto fit = fit_p2p(synthesize(m, 0, 0, 1), m.route, {});
  // Overheads: one "threshold:offset:slope" per segment from 0; factors: thresholds of payload + 16,
  // largest first.
  EXPECT_EQ(fit.os().substr(0, 2), "0:");
  EXPECT_NE(fit.os().find(";1420:3e-06:2e-10;32768:8e-06:1.5e-10;65536:"), std::string::npos) << fit.os();
  EXPECT_EQ(fit.lat_factor().substr(0, 12), "327696:10;65") << fit.lat_factor();
  EXPECT_NE(fit.bw_factor().find("1436:0.6;0:0.1"), std::string::npos) << fit.bw_factor();
}

TEST(P2pFit, MaxBwFactorCapsOnlyTheBandsAboveIt)
{
  // The machine's last band has bw-factor 1.1: faster than the route's nominal rate, as a ping-pong through an idle
  // token bucket measures. Capped at 1, that band is slower than measured, its latency refitted; the others as fitted.
  Machine m;
  P2pOptions opt;
  opt.breaks = m.breaks;
  auto as_fitted = fit_p2p(synthesize(m, 0, 0, 1), m.route, opt);
  ASSERT_EQ(as_fitted.segments.size(), 5U);
  EXPECT_NEAR(as_fitted.segments[4].bw_factor, 1.1, 1e-9);
  opt.max_bw_factor = 1;
  auto capped = fit_p2p(synthesize(m, 0, 0, 1), m.route, opt);
  ASSERT_EQ(capped.segments.size(), 5U);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(capped.segments[i].bw_factor, as_fitted.segments[i].bw_factor) << "band " << i;
    EXPECT_DOUBLE_EQ(capped.segments[i].lat_factor, as_fitted.segments[i].lat_factor) << "band " << i;
  }
  EXPECT_EQ(capped.segments[4].bw_factor, 1);
  EXPECT_GE(capped.segments[4].lat_factor, kMinLatFactor);
  EXPECT_GT(capped.one_way(3e6), m.one_way(3e6));
  EXPECT_LT(capped.one_way(3e6), m.one_way(3e6) * 1.11);
  bool warned = false;
  for (auto const& w : capped.warnings)
    warned = warned || w.find("bandwidth factor 1.1 is above --max-bw-factor 1") != std::string::npos;
  EXPECT_TRUE(warned);
}

bool warned_of(const P2pFit& fit, const std::string& text)
{
  for (auto const& w : fit.warnings)
    if (w.find(text) != std::string::npos)
      return true;
  return false;
}

/// The fit of `m`'s synthetic measurements (noise-free: one repetition; else 10, with `noise` and `seed`) with its
/// breaks given.
P2pFit fit_given_breaks(const Machine& m, double noise = 0, unsigned seed = 42)
{
  P2pOptions opt;
  opt.breaks = m.breaks;
  return fit_p2p(synthesize(m, noise, 0, noise > 0 ? 10 : 1, seed), m.route, opt);
}

std::string report_of(const P2pFit& fit)
{
  std::ostringstream report;
  write_p2p_report(report, fit);
  return report.str();
}

/// The fitted one-way times at `sizes` within `rel` of the machine's.
void expect_one_way_within(const P2pFit& fit, const Machine& m, std::initializer_list<double> sizes, double rel)
{
  for (double size : sizes)
    EXPECT_NEAR(fit.one_way(size), m.one_way(size), rel * m.one_way(size)) << size;
}

TEST(P2pFit, ABandWithoutMeasurableGrowthTakesTheNextBandsBandwidth)
{
  // Band 0's network time does not grow with the size (a bandwidth 10^6 times the link's), and without noise no
  // bandwidth hides in it: a bandwidth factor of 1000 would describe no machine. It takes band 1's bandwidth, its
  // latency refitted under it; the others are as fitted.
  Machine m;
  m.bwf[0] = 1e6;
  auto fit = fit_given_breaks(m);
  ASSERT_EQ(fit.segments.size(), 5U);
  EXPECT_EQ(fit.segments[0].bandwidth_from, std::optional<std::size_t>(1));
  EXPECT_FALSE(fit.segments[0].latency_from);
  EXPECT_DOUBLE_EQ(fit.segments[0].bw_factor, fit.segments[1].bw_factor);
  EXPECT_NEAR(fit.segments[1].bw_factor, 0.6, 1e-9);
  // The latency under the larger slope: the band's times less what 0.6 x the link gives to its bytes.
  EXPECT_GT(fit.segments[0].lat_factor, 1.8);
  EXPECT_LT(fit.segments[0].lat_factor, 2.0);
  expect_one_way_within(fit, m, {1.0, 700.0, 1420.0}, 0.05);
  for (std::size_t i = 1; i < 5; ++i)
    EXPECT_FALSE(fit.segments[i].bandwidth_from || fit.segments[i].latency_from) << "band " << i;
  EXPECT_TRUE(warned_of(fit, "network time on [0, 1420] does not grow measurably with the size"));
  EXPECT_NE(report_of(fit).find("bw-factor 0.6 (from (1420, 32768])"), std::string::npos) << report_of(fit);
}

TEST(P2pFit, ANoisyBandThatDoesNotGrowGetsTheLowestBandwidthItsNoiseAllows)
{
  // Band 0's network time falls slightly with the size (as shared memory's eager band measured), under 1% noise: its
  // slope is not measured. Its bandwidth is the slowest whose cost over the band stays within one noise scale of its
  // times (1% of 400 us over 1,436 bytes: about 3 x the link's 125 MB/s), not a factor of 1000 nor another band's.
  Machine m;
  m.bwf[0] = -2;
  auto fit = fit_given_breaks(m, 0.01, 7);
  ASSERT_EQ(fit.segments.size(), 5U);
  auto const& b = fit.segments[0];
  EXPECT_TRUE(b.bandwidth_bound);
  EXPECT_FALSE(b.bandwidth_from);
  EXPECT_GT(b.bw_factor, 1.5);
  EXPECT_LT(b.bw_factor, 6);
  expect_one_way_within(fit, m, {1.0, 700.0, 1420.0}, 0.03);
  EXPECT_TRUE(warned_of(fit, "network time on [0, 1420] does not grow measurably with the size"));
  EXPECT_TRUE(warned_of(fit, "its bandwidth is the lowest its noise allows"));
  EXPECT_NE(report_of(fit).find("(the lowest its noise allows)"), std::string::npos) << report_of(fit);
}

TEST(P2pFit, ANoisyBandThatDoesNotGrowTakesAFasterNeighboursBandwidth)
{
  // As above, but band 1 is faster (20 x the link) than what band 0's noise allows (about 3 x): small messages are
  // given no slower a rate per byte than their neighbour's.
  Machine m;
  m.bwf[0] = -2;
  m.bwf[1] = 20;
  auto fit = fit_given_breaks(m, 0.01, 7);
  ASSERT_EQ(fit.segments.size(), 5U);
  EXPECT_FALSE(fit.segments[0].bandwidth_bound);
  EXPECT_EQ(fit.segments[0].bandwidth_from, std::optional<std::size_t>(1));
  EXPECT_DOUBLE_EQ(fit.segments[0].bw_factor, fit.segments[1].bw_factor);
  EXPECT_NEAR(fit.segments[1].bw_factor, 20, 0.1 * 20);
  EXPECT_TRUE(warned_of(fit, "B/s its noise allows) and its latency refitted under it"));
}

TEST(P2pFit, ABandWithoutLatencyTakesThePreviousBandsLatency)
{
  // Band 1's network line has a negative offset (the overheads measured alone overlap the ping-pong): a latency factor
  // of 1e-6 would describe no machine. It takes band 0's latency, its bandwidth refitted under it.
  Machine m;
  m.latf[0] = 0.01;
  m.latf[1] = -0.005;
  auto fit = fit_given_breaks(m);
  ASSERT_EQ(fit.segments.size(), 5U);
  EXPECT_EQ(fit.segments[1].latency_from, std::optional<std::size_t>(0));
  EXPECT_FALSE(fit.segments[1].bandwidth_from);
  EXPECT_NEAR(fit.segments[0].lat_factor, 0.01, 1e-9);
  EXPECT_DOUBLE_EQ(fit.segments[1].lat_factor, fit.segments[0].lat_factor);
  EXPECT_NEAR(fit.segments[1].bw_factor, 0.6, 0.1 * 0.6);
  expect_one_way_within(fit, m, {1421.0, 8000.0, 32768.0}, 0.1);
  EXPECT_TRUE(warned_of(fit, "network time on (1420, 32768]: the overheads leave no latency"));
  EXPECT_TRUE(warned_of(fit, "its latency is taken from [0, 1420]"));
}

TEST(P2pFit, NoBandWithLatencyIsSaid)
{
  Machine m;
  for (auto& f : m.latf)
    f = -0.001;
  auto fit = fit_given_breaks(m);
  for (auto const& s : fit.segments) {
    EXPECT_EQ(s.lat_factor, kMinLatFactor);
    EXPECT_FALSE(s.latency_from);
  }
  EXPECT_TRUE(warned_of(fit, "network time on [0, 1420]: the overheads leave no latency (fitted offset -2e-07 s), nor "
                             "in any other band: latency factor 1e-06"));
}

TEST(P2pFit, ALatencyLongerThanTheBandsTimesIsNotTaken)
{
  // Band 0's latency (2 x 200 us) is longer than band 1's whole network times (20-440 us): under it nothing would be
  // left to the bandwidth, so band 1 keeps no latency, said so.
  Machine m;
  m.latf[1] = -0.01;
  auto fit = fit_given_breaks(m);
  EXPECT_FALSE(fit.segments[1].latency_from);
  EXPECT_EQ(fit.segments[1].lat_factor, kMinLatFactor);
  EXPECT_NEAR(fit.segments[1].bw_factor, 0.6, 0.1 * 0.6);
  EXPECT_TRUE(warned_of(fit, "leaves its times no growth with the size: latency factor 1e-06"));
}

TEST(P2pFit, ReportNamesEachSegmentsProtocol)
{
  // Sizes <= 65536 are eager in the machine (threshold 65537); with breaks at 32768 and 65536 and the threshold given
  // as 65536, the segment (32768, 65536] holds both protocols: its last size is rendez-vous.
  Machine m;
  P2pOptions opt;
  opt.breaks = {32768, 65536};
  opt.detached_thresh = 65536;
  std::ostringstream out;
  write_p2p_report(out, fit_p2p(synthesize(m, 0, 0, 1), m.route, opt));
  const std::string text = out.str();
  EXPECT_NE(text.find("[0, 32768]             detached (min(send, recv)"), std::string::npos) << text;
  EXPECT_NE(text.find("(32768, 65536]         detached below 65536 (min(send, recv)"), std::string::npos) << text;
  EXPECT_NE(text.find("(65536, "), std::string::npos) << text;
  EXPECT_NE(text.find("rendez-vous (min(send, recv)"), std::string::npos) << text;
}

TEST(P2pFit, TheWaitOfABufferedIsendInItsBandsOnly)
{
  // The wait of an isend measured as the machine's blocking send costs (the library copies a buffered message there):
  // tit/ois-wait is that line in the buffered bands, 0 in the rendez-vous ones; without "wait" rows, nothing.
  Machine m;
  P2pOptions opt;
  opt.breaks = m.breaks;
  opt.detached_thresh = m.detached;
  auto d = synthesize(m, 0, 0, 1);
  EXPECT_EQ(fit_p2p(d, m.route, opt).ois_wait(), "");
  for (auto const& p : d.send)
    d.wait.push_back({p.x, p.x < m.detached ? m.os[m.seg(p.x)](p.x) : m.transfer(p.x)});
  auto fit = fit_p2p(d, m.route, opt);
  EXPECT_EQ(fit.ois_wait(), fit.os().substr(0, fit.os().find(";65536:")) + ";65536:0:0;327680:0:0");
  std::ostringstream out;
  write_p2p_report(out, fit);
  EXPECT_NE(out.str().find("tit/ois-wait: 0:1e-06:1e-09;"), std::string::npos) << out.str();
}

TEST(P2pFit, MissingExperimentIsAnError)
{
  Machine m;
  auto d = synthesize(m, 0, 0, 1);
  d.isend.clear();
  try {
    fit_p2p(d, m.route, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "error: no 'isend' measurement in the p2p data");
  }
}

TEST(P2pFit, SegmentWithoutPointsIsAnError)
{
  Machine m;
  auto d = synthesize(m, 0, 0, 1);
  P2pOptions opt;
  opt.breaks = {1420, 1421};
  try {
    fit_p2p(d, m.route, opt);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("segment (1420, 1421] of sizes has 1 'send' measurement(s)"),
              std::string::npos)
        << e.what();
  }
}

TEST(P2pFit, BadRouteIsAnError)
{
  Machine m;
  auto d = synthesize(m, 0, 0, 1);
  for (Route r : {Route{0, 1e-6, 1}, Route{1e9, -1, 1}, Route{1e9, 1e-6, 0}}) {
    try {
      fit_p2p(d, r, {});
      FAIL() << "no error";
    } catch (const InputError& e) {
      EXPECT_STREQ(e.what(), "error: the route needs a bandwidth > 0, a latency >= 0 and at least one link");
    }
  }
}

TEST(LocalCopy, RateRecoveredDespiteNoiseAndOutliers)
{
  // 2 us per call plus 6 GB/s, 0.5% noise, one point in twenty descheduled (ten times longer).
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0, 0.005);
  std::vector<Point> pts;
  int k = 0;
  for (double s = 1; s <= 1 << 24; s *= 2.3)
    for (int i = 0; i < 10; ++i)
      pts.push_back({std::floor(s), (2e-6 + std::floor(s) / 6e9) * (1 + noise(rng)) * (++k % 20 == 0 ? 10 : 1)});
  auto fit = fit_local_copy(pts);
  ASSERT_EQ(fit.rates.size(), 1U) << fit.config(); // one line: one band
  EXPECT_NEAR(fit.rates[0], 6e9, 6e9 * 0.02);
  EXPECT_NEAR(fit.lines[0].offset, 2e-6, 2e-6 * 0.05);
  EXPECT_GT(fit.lines[0].outliers, 0U);
  EXPECT_EQ(fit.config(), tit::calib::num(fit.rates[0]));
}

TEST(LocalCopy, ARateInTheCachesAndOneBeyond)
{
  // As measured on this machine: 0.25 us per call plus 20 GB/s while the copy fits in the caches (up to 5 MB),
  // 5.5 GB/s from memory beyond; 1% noise. One rate (20 GB/s, the small sizes' weight) put the integer sort's 32 MB
  // copies at a quarter of their time.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<Point> pts;
  for (double s = 1000; s <= 1e8; s *= 1.5)
    for (int i = 0; i < 10; ++i) {
      double t = s <= 5e6 ? 2.5e-7 + s / 2e10 : 2.5e-7 + 5e6 / 2e10 + (s - 5e6) / 5.5e9;
      pts.push_back({std::floor(s), t * (1 + noise(rng))});
    }
  auto fit = fit_local_copy(pts);
  ASSERT_GE(fit.rates.size(), 2U) << fit.config();
  EXPECT_NEAR(fit.rates.front(), 2e10, 2e10 * 0.1) << fit.config();
  EXPECT_NEAR(fit.rates.back(), 5.5e9, 5.5e9 * 0.1) << fit.config();
  EXPECT_GT(fit.breaks.back(), 2e6) << fit.config();
  EXPECT_LT(fit.breaks.back(), 1.2e7) << fit.config();
  EXPECT_EQ(fit.config().substr(0, 2), "0:");
  std::ostringstream report;
  write_copy_report(report, fit);
  EXPECT_NE(report.str().find("local copy (MPI_Sendrecv to itself): tit/local-copy-bw 0:"), std::string::npos)
      << report.str();
}

TEST(LocalCopy, ABandWhoseTimesDoNotGrowTakesTheNextBandsRate)
{
  // Copies of up to 2 KB cost their call alone (2 us, falling a little), larger ones 2 us + bytes at 1e10 B/s.
  std::vector<Point> pts;
  for (double s = 1; s <= 1e8; s *= 1.6)
    for (int i = 0; i < 5; ++i) {
      double x = std::floor(s);
      pts.push_back({x, x <= 2000 ? 2e-6 - 1e-13 * x : 2e-6 + x / 1e10});
    }
  auto fit = fit_local_copy(pts);
  ASSERT_GE(fit.rates.size(), 2U) << fit.config();
  ASSERT_TRUE(fit.from[0].has_value()) << fit.config();
  EXPECT_EQ(*fit.from[0], 1U);
  EXPECT_EQ(fit.rates[0], fit.rates[1]);
  EXPECT_NEAR(fit.rates.back(), 1e10, 1e10 * 0.05) << fit.config();
  std::ostringstream report;
  write_copy_report(report, fit);
  EXPECT_NE(report.str().find("(its times do not grow: band 1's)"), std::string::npos) << report.str();
}

TEST(LocalCopy, Errors)
{
  try {
    fit_local_copy({{100, 1e-6}, {100, 1.1e-6}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "error: the copy experiment needs at least 2 distinct sizes, got 1");
  }
  try {
    fit_local_copy({{100, 2e-6}, {1000, 1e-6}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("error: the copy times do not grow with the size"), std::string::npos)
        << e.what();
  }
}

TEST(Polling, MedianCostAndNoGrowth)
{
  P2pData d;
  d.test = {{0, 2e-7}, {0, 1e-7}, {0, 9e-6}}; // one disturbed batch: the median keeps it out
  d.iprobe = {{0, 4e-8}};
  auto fit = fit_polling(d);
  ASSERT_TRUE(fit.test.has_value());
  EXPECT_DOUBLE_EQ(*fit.test, 2e-7);
  ASSERT_TRUE(fit.iprobe.has_value());
  EXPECT_DOUBLE_EQ(*fit.iprobe, 4e-8);
  auto props = fit.props(); // the iprobe cost is not written (smpi/iprobe steps a loop: a 4e-8 step is a hang)
  ASSERT_EQ(props.size(), 2U);
  EXPECT_EQ(props[0], (std::pair<std::string, std::string>{"smpi/test", "2e-07"}));
  EXPECT_EQ(props[1], (std::pair<std::string, std::string>{"smpi/grow-injected-times", "no"}));
  std::ostringstream report;
  write_polling_report(report, fit);
  EXPECT_NE(report.str().find("one MPI_Iprobe 4e-08 s (reported, not written"), std::string::npos) << report.str();
  EXPECT_TRUE(fit_polling(P2pData{}).props().empty()); // older measurements: SimGrid's defaults stay
  P2pData probes_only;
  probes_only.iprobe = {{0, 4e-8}};
  EXPECT_TRUE(fit_polling(probes_only).props().empty());
}

namespace {
TimedAction timed(tit::trace::Kind kind, double bytes, double seconds, int partner = 1)
{
  TimedAction a;
  a.kind = kind;
  a.partner = a.partner2 = partner;
  a.bytes = a.bytes2 = bytes;
  a.seconds = seconds;
  return a;
}
} // namespace

TEST(InSitu, OverheadsPerBandAndCopyRate)
{
  using tit::trace::Kind;
  std::vector<TimedAction> acts;
  for (double s : {8.0, 100.0, 1000.0, 4000.0}) // ois = 1e-6 + 1e-10 s/B below 4096, 2e-6 above
    acts.push_back(timed(Kind::Isend, s, 1e-6 + 1e-10 * s));
  for (double s : {10000.0, 60000.0})
    acts.push_back(timed(Kind::Isend, s, 2e-6));
  for (double s : {16.0, 2000.0}) // os below 4096 only; the 70000-byte send is rendez-vous
    acts.push_back(timed(Kind::Send, s, 3e-6));
  acts.push_back(timed(Kind::Send, 70000, 1));
  for (double s : {1e3, 1e5, 1e6}) // copies at 5 GB/s + 1e-7 s
    acts.push_back(timed(Kind::SendRecv, s, 1e-7 + s / 5e9, 0));
  acts.push_back(timed(Kind::SendRecv, 1e6, 1, 1)); // a sendrecv with another rank: not a copy
  InSituOptions options;
  options.breaks = {4096};
  auto fit = fit_in_situ(acts, options);
  EXPECT_EQ(fit.ois.config(fit.breaks), "0:1e-06:1e-10;4096:2e-06:0");
  EXPECT_EQ(fit.os.config(fit.breaks), "0:3e-06:0;4096:0:0"); // the empty band keeps the (default) value
  // ... or the platform's segments over that band
  EXPECT_EQ(fit.os.config(fit.breaks, "0:1e-7:0;1000:2e-7:1e-12;8000:5e-7:0"),
            "0:3e-06:0;4096:2e-07:1e-12;8000:5e-07:0");
  EXPECT_THROW(fit.os.config(fit.breaks, "0:x"), InputError);
  EXPECT_EQ(fit.os.calls, (std::vector<std::size_t>{2, 0}));
  ASSERT_TRUE(fit.copy.has_value());
  EXPECT_EQ(fit.copy->config(), "5e+09"); // three sizes: one band
  EXPECT_EQ(fit.copies, 3U);
  ASSERT_EQ(fit.notes.size(), 1U);
  EXPECT_EQ(fit.notes[0], "1 send(s) of at least 65536 bytes (rendez-vous) left out of os");
}

TEST(InSitu, MessagesOfARankToItselfAndIrecvsHaveTheirOwnOverheads)
{
  using tit::trace::Kind;
  // A periodic stencil on one rank: every isend goes to the rank itself, and Open MPI copies the message within
  // the call (1 us + 3 GB/s here). That copy is no cost of posting a send: fitted as ois, it would be charged on
  // every isend to other ranks too. It is tit/os-self; posting the irecvs, tit/oir.
  std::vector<TimedAction> acts;
  for (double s : {9216.0, 73728.0, 147456.0})
    for (int i = 0; i < 4; ++i) {
      acts.push_back(timed(Kind::Isend, s, 1e-6 + s / 3e9, 0));
      acts.push_back(timed(Kind::Irecv, s, 2e-6, 0));
    }
  acts.push_back(timed(Kind::Send, 9216, 1e-6 + 9216 / 3e9, 0));
  InSituOptions options;
  options.breaks = {65536};
  auto fit = fit_in_situ(acts, options);
  EXPECT_FALSE(fit.ois.fitted());
  EXPECT_FALSE(fit.os.fitted());
  EXPECT_EQ(fit.os_self.calls, (std::vector<std::size_t>{5, 8}));
  EXPECT_EQ(fit.os_self.config(fit.breaks), "0:4.072e-06:0;65536:1e-06:3.33333333e-10"); // one size below: a constant
  EXPECT_EQ(fit.oir.config(fit.breaks), "0:2e-06:0;65536:2e-06:0");
  ASSERT_EQ(fit.notes.size(), 1U);
  EXPECT_EQ(fit.notes[0], "13 send(s) and isend(s) of a rank to itself fitted as tit/os-self, not os or ois (the MPI "
                          "library copies such a message within the call: a local copy, not the cost of posting a "
                          "send)");
  std::ostringstream report;
  write_in_situ_report(report, fit);
  EXPECT_NE(report.str().find("os-self (65536, inf]                 8 calls  offset 1e-06 s"), std::string::npos)
      << report.str();
  // Beside isends to another rank, only those make ois.
  for (double s : {9216.0, 73728.0, 147456.0})
    acts.push_back(timed(Kind::Isend, s, 5e-7));
  fit = fit_in_situ(acts, options);
  EXPECT_EQ(fit.ois.config(fit.breaks), "0:5e-07:0;65536:5e-07:0");
  EXPECT_EQ(fit.os_self.calls, (std::vector<std::size_t>{5, 8}));
}

TEST(InSitu, AnOverheadKeepsTheCallsTotalTime)
{
  using tit::trace::Kind;
  // 19 irecvs of 1 us and one of 21 us: the robust line rejects the slow one, but the replay of the run must spend
  // the 40 us the 20 calls took, 2 us each.
  std::vector<TimedAction> acts;
  for (int i = 0; i < 20; ++i)
    acts.push_back(timed(Kind::Irecv, 1000, i == 7 ? 21e-6 : 1e-6));
  // isends whose time grows with the size (1 us + 1 ns/B), one of them 10 us slower: the slope stays, the level rises
  // by 10 us / 8 calls.
  for (double s : {1000.0, 2000.0, 3000.0, 4000.0})
    for (int i = 0; i < 2; ++i)
      acts.push_back(timed(Kind::Isend, s, 1e-6 + 1e-9 * s + (s == 3000 && i == 0 ? 1e-5 : 0)));
  auto fit = fit_in_situ(acts, {});
  ASSERT_TRUE(fit.oir.bands[0].has_value());
  EXPECT_NEAR(fit.oir.bands[0]->offset, 2e-6, 1e-15);
  EXPECT_EQ(fit.oir.bands[0]->slope, 0);
  ASSERT_TRUE(fit.ois.bands[0].has_value());
  EXPECT_NEAR(fit.ois.bands[0]->slope, 1e-9, 1e-15);
  EXPECT_NEAR(fit.ois.bands[0]->offset, 1e-6 + 1e-5 / 8, 1e-12);
  // A line that would charge a negative time keeps the calls' sum too. Sends whose time falls with the size (5 us at
  // 1000 B, 1 us at 4000 B): their mean, 3 us. Sends of 0.5 us at 1000 B and 4 us at 4000 B (offset -0.67 us): a line
  // through the origin, 4.5 us over 5000 B.
  std::vector<TimedAction> falling{timed(Kind::Send, 1000, 5e-6), timed(Kind::Send, 4000, 1e-6)};
  fit = fit_in_situ(falling, {});
  EXPECT_EQ(fit.os.config(fit.breaks), "0:3e-06:0");
  std::vector<TimedAction> steep{timed(Kind::Send, 1000, 0.5e-6), timed(Kind::Send, 4000, 4e-6)};
  fit = fit_in_situ(steep, {});
  EXPECT_EQ(fit.os.config(fit.breaks), "0:0:9e-10");
}

TEST(InSitu, TestCostFromTestAndTestanyAlone)
{
  using tit::trace::Kind;
  std::vector<TimedAction> acts{timed(Kind::Test, 0, 3e-7), timed(Kind::TestAny, 0, 2e-7), timed(Kind::Test, 0, 8e-6),
                                timed(Kind::TestAll, 0, 5e-6), timed(Kind::TestSome, 0, 5e-6)};
  auto fit = fit_in_situ(acts, {});
  EXPECT_EQ(fit.tests, 3U);
  ASSERT_TRUE(fit.poll.test.has_value());
  EXPECT_DOUBLE_EQ(*fit.poll.test, 3e-7); // the median of the three; testall and testsome left out, and said
  ASSERT_EQ(fit.notes.size(), 1U);
  EXPECT_EQ(fit.notes[0], "2 testall/testsome call(s) left out of smpi/test: SimGrid charges it once per request they "
                          "test, and the trace does not say how many each tested");
  std::ostringstream report;
  write_in_situ_report(report, fit);
  EXPECT_NE(report.str().find("polling: 3 test/testany call(s), median 3e-07 s (smpi/test;"), std::string::npos)
      << report.str();
}

TEST(InSitu, NothingToFitIsAnError)
{
  using tit::trace::Kind;
  try {
    fit_in_situ({timed(Kind::SendRecv, 8, 1e-6, 0), timed(Kind::SendRecv, 8, 1.1e-6, 0)}, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "error: nothing to fit in situ: the trace has no isend, irecv or detached send, no test and "
                           "no sendRecv to itself of two sizes or more with a timing; local copy rate not fitted: error: the "
                           "copy experiment needs at least 2 distinct sizes, got 1");
  }
}

namespace {
/// A message of `bytes` from rank 0 to rank 1 (tag `tag`), sent at `at` by a call of `in_send` seconds (the os or
/// ois the fit also takes from it) and received by a blocking recv posted at `posted` that ends at `arrives`, both
/// ranks on host 0.
void message(std::vector<TimedAction>& acts, tit::trace::Kind kind, double bytes, double in_send, double at,
             double posted, double arrives, int tag = 0)
{
  TimedAction s = timed(kind, bytes, in_send, 1);
  s.rank = 0;
  s.tag = tag;
  s.start = at;
  s.end = at + in_send;
  s.host = 0;
  TimedAction r = timed(tit::trace::Kind::Recv, bytes, arrives - posted, 0);
  r.rank = 1;
  r.tag = tag;
  r.start = posted;
  r.end = arrives;
  r.host = 0;
  acts.push_back(s);
  acts.push_back(r);
}

/// 2 links of 1 us, 10 GB/s.
Route two_links()
{
  Route route;
  route.bandwidth = 1e10;
  route.latency = 1e-6;
  route.links = 2;
  return route;
}

/// The machine of the in-situ network tests: on two_links(), below 4096 bytes lat-factor 0.5 and bw-factor 0.8;
/// above, 0.25 and 0.6. Overheads os 1 us, ois 0.5 us, or 0.2 us (applied to eager messages, below 65536 bytes).
double two_band_network(double size)
{
  bool low = size <= 4096;
  return 2e-6 * (low ? 0.5 : 0.25) + (size + 16) / (1e10 * (low ? 0.8 : 0.6));
}

InSituOptions two_band_options()
{
  InSituOptions options;
  options.breaks = {4096};
  options.route = two_links();
  options.os = "0:1e-6:0";
  options.ois = "0:5e-7:0";
  options.orecv = "0:2e-7:0";
  return options;
}

void expect_two_band_factors(const InSituFit& fit)
{
  ASSERT_EQ(fit.network.lat_factor.size(), 2U);
  ASSERT_TRUE(fit.network.lat_factor[0] && fit.network.bw_factor[0] && fit.network.lat_factor[1] &&
              fit.network.bw_factor[1]);
  EXPECT_NEAR(*fit.network.lat_factor[0], 0.5, 1e-6);
  EXPECT_NEAR(*fit.network.bw_factor[0], 0.8, 1e-6);
  EXPECT_NEAR(*fit.network.lat_factor[1], 0.25, 1e-6);
  EXPECT_NEAR(*fit.network.bw_factor[1], 0.6, 1e-6);
}
} // namespace

TEST(InSitu, NetworkFactorsFromMatchedMessages)
{
  using tit::trace::Kind;
  // The machine of two_band_network.
  auto network = two_band_network;
  std::vector<TimedAction> acts;
  double t = 1;
  for (double size : {100.0, 1000.0, 4000.0, 8000.0, 30000.0}) { // eager, the receiver already waiting
    message(acts, Kind::Send, size, 1e-6, t, t - 1e-5, t + 1e-6 + network(size) + 2e-7);
    message(acts, Kind::Isend, size, 5e-7, t + 1, t + 1 - 1e-5, t + 1 + 5e-7 + network(size) + 2e-7, 7);
    t += 2;
  }
  for (double size : {70000.0, 200000.0}) { // rendez-vous: from when both were there
    message(acts, Kind::Send, size, 1e-3, t, t + 3e-6, t + 3e-6 + network(size));
    t += 1;
  }
  message(acts, Kind::Send, 500, 1e-6, t, t + 1e-3, t + 2e-3); // the receive was late: not measured
  auto fit = fit_in_situ(acts, two_band_options());
  EXPECT_EQ(fit.matched, 13U);
  expect_two_band_factors(fit);
  EXPECT_EQ(fit.network.messages, (std::vector<std::size_t>{6, 6}));
  EXPECT_EQ(fit.network.config(true, fit.breaks, "0:1"), "4112:0.25;0:0.5");
  ASSERT_EQ(fit.notes.size(), 2U);
  EXPECT_EQ(fit.notes[1], "1 eager message(s) whose receive started after the send left out of the network fit (their "
                          "one-way time is not measured)");
}

TEST(InSitu, MessagesReceivedBySendRecvs)
{
  using tit::trace::Kind;
  // As above, but rank 1 receives each message by a sendRecv (its own send to rank 0 of 8 bytes, eager), and rank 0
  // sends by a send or by a sendRecv (whose send the replay runs as an isend: ois). Then a sendRecv whose own send is
  // rendez-vous, larger, to another rank: its end may be its send's, not measured.
  auto network = two_band_network;
  std::vector<TimedAction> acts;
  auto exchange = [&](Kind kind, double size, double in_send, double at, double posted, double arrives, double own,
                      int own_to) {
    message(acts, kind, size, in_send, at, posted, arrives);
    TimedAction& r = acts.back();
    r.kind = Kind::SendRecv;
    r.partner = own_to; // its own send: `own` bytes to `own_to`
    r.bytes = own;
    r.partner2 = 0; // its receive: from rank 0
    r.bytes2 = size;
    if (kind == Kind::SendRecv) {
      TimedAction& s = acts[acts.size() - 2];
      s.partner2 = 2; // rank 0's own receive, from a rank that sends nothing here
    }
  };
  double t = 1;
  for (double size : {100.0, 1000.0, 4000.0, 8000.0, 30000.0}) {
    exchange(Kind::Send, size, 1e-6, t, t - 1e-5, t + 1e-6 + network(size) + 2e-7, 8, 0);
    exchange(Kind::SendRecv, size, 5e-7, t + 1, t + 1 - 1e-5, t + 1 + 5e-7 + network(size) + 2e-7, 8, 0);
    t += 2;
  }
  for (double size : {70000.0, 200000.0}) { // rendez-vous, an exchange of equal sizes: from when both were there
    exchange(Kind::SendRecv, size, 1e-3, t, t + 3e-6, t + 3e-6 + network(size), size, 0);
    t += 1;
  }
  exchange(Kind::Send, 70000, 1e-3, t, t + 3e-6, t + 1, 1e6, 2); // its own send, 1 MB to rank 2, may end last
  auto fit = fit_in_situ(acts, two_band_options());
  EXPECT_EQ(fit.matched, 12U);
  expect_two_band_factors(fit);
  auto noted = [&](const std::string& text) {
    return std::find(fit.notes.begin(), fit.notes.end(), text) != fit.notes.end();
  };
  EXPECT_TRUE(noted("12 of the messages matched were received by a sendRecv, timed by it (its own send eager, or no "
                    "larger and to the same partner)"));
  EXPECT_TRUE(noted("1 message(s) received by a sendRecv whose own send is rendez-vous, and larger or to another rank, "
                    "left out of the network fit (the sendRecv may end with its send)"));
}

TEST(InSitu, MaxBwFactorCapsABandAsTheP2pFitDoes)
{
  using tit::trace::Kind;
  // One band of rendez-vous messages at bw-factor 2 (faster than the route's 10 GB/s) and lat-factor 0.5: capped at 1,
  // the slope is the route's rate and the latency what remains (here: none, 0 at the median, kept at the minimum).
  auto network = [](double size) { return 2e-6 * 0.5 + (size + 16) / (1e10 * 2); };
  std::vector<TimedAction> acts;
  double t = 1;
  for (double size : {70000.0, 140000.0, 280000.0}) {
    message(acts, Kind::Send, size, 1e-3, t, t + 3e-6, t + 3e-6 + network(size));
    t += 1;
  }
  InSituOptions options;
  options.route = two_links();
  auto as_fitted = fit_in_situ(acts, options);
  ASSERT_TRUE(as_fitted.network.bw_factor[0]);
  EXPECT_NEAR(*as_fitted.network.bw_factor[0], 2, 1e-6);
  options.max_bw_factor = 1;
  auto capped = fit_in_situ(acts, options);
  ASSERT_TRUE(capped.network.bw_factor[0] && capped.network.lat_factor[0]);
  EXPECT_EQ(*capped.network.bw_factor[0], 1);
  EXPECT_EQ(*capped.network.lat_factor[0], kMinLatFactor);
  auto capped_note = [](const std::string& n) {
    return n.starts_with("band 0: bandwidth factor 2 is above --max-bw-factor 1");
  };
  EXPECT_NE(std::find_if(capped.notes.begin(), capped.notes.end(), capped_note), capped.notes.end());
}

TEST(InSitu, NetworkFactorsFromIrecvsAndTheirWaits)
{
  using tit::trace::Kind;
  // As NetworkFactorsFromMatchedMessages, the receives nonblocking: an irecv posted long before, completed by
  // `wait 0 1 TAG` (or a waitall of that irecv and an eager isend) that was blocked before the send started.
  auto network = [&](double size) {
    bool low = size <= 4096;
    return 2e-6 * (low ? 0.5 : 0.25) + (size + 16) / (1e10 * (low ? 0.8 : 0.6));
  };
  auto on_host = [](TimedAction a, int rank, double start, double end) {
    a.rank = rank;
    a.host = 0;
    a.start = start;
    a.end = end;
    a.seconds = end - start;
    return a;
  };
  std::vector<TimedAction> acts;
  double t = 1;
  int tag = 0;
  for (double size : {100.0, 1000.0, 4000.0, 8000.0, 30000.0, 100.0, 30000.0}) {
    ++tag;
    TimedAction send = on_host(timed(Kind::Send, size, 0, 1), 0, t, t + 1e-6);
    send.tag = tag;
    TimedAction irecv = on_host(timed(Kind::Irecv, size, 0, 0), 1, t - 1e-3, t - 1e-3 + 1e-7);
    irecv.tag = tag;
    double arrives = t + 1e-6 + network(size) + 2e-7;
    acts.push_back(send);
    acts.push_back(irecv);
    if (tag % 2 == 0) { // a waitall of the irecv and an eager isend to rank 2
      TimedAction isend = on_host(timed(Kind::Isend, 8, 5e-7, 2), 1, t - 2e-5, t - 2e-5 + 5e-7);
      acts.push_back(isend);
      acts.push_back(on_host(timed(Kind::WaitAll, 0, 0), 1, t - 1e-5, arrives));
    } else {
      TimedAction wait = on_host(timed(Kind::Wait, 0, 0), 1, t - 1e-5, arrives);
      wait.src = 0;
      wait.dst = 1;
      wait.tag = tag;
      acts.push_back(wait);
    }
    t += 1;
  }
  // A waitall of three irecvs of 500 bytes sent one after the other: it ended when the last one arrived, which
  // is measured; the two others are left out. A waitall of a 2000-byte message and a 100-byte one sent after it:
  // which arrived last is not told, both are left out.
  auto group = [&](std::vector<double> sizes) {
    double arrives = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      ++tag;
      double at = t + 1e-4 * static_cast<double>(i);
      TimedAction send = on_host(timed(Kind::Send, sizes[i], 0, 1), 0, at, at + 1e-6);
      send.tag = tag;
      TimedAction irecv = on_host(timed(Kind::Irecv, sizes[i], 0, 0), 1, t - 1e-3, t - 1e-3 + 1e-7);
      irecv.tag = tag;
      acts.push_back(send);
      acts.push_back(irecv);
      arrives = at + 1e-6 + network(sizes[i]) + 2e-7;
    }
    acts.push_back(on_host(timed(Kind::WaitAll, 0, 0), 1, t - 1e-5, arrives));
    t += 1;
  };
  group({500, 500, 500});
  group({2000, 100});
  InSituOptions options;
  options.breaks = {4096};
  options.route = two_links();
  options.orecv = "0:2e-7:0";
  auto fit = fit_in_situ(acts, options);
  EXPECT_EQ(fit.matched, 8U);
  expect_two_band_factors(fit);
  EXPECT_EQ(fit.network.messages, (std::vector<std::size_t>{5, 3}));
  auto has = [&](const std::string& note) {
    return std::find(fit.notes.begin(), fit.notes.end(), note) != fit.notes.end();
  };
  EXPECT_TRUE(has("8 of the messages matched were received by an irecv, timed by the wait (or waitall) that "
                  "completed it"));
  EXPECT_TRUE(has("1 of them the last (latest sent, largest) of the irecvs a waitall completed"));
  EXPECT_TRUE(has("4 irecv(s) completed by a waitany, a test, a wait naming no request or a waitall (not its last "
                  "message, or with a rendez-vous send) left out of the network fit (when their data arrived is not "
                  "measured)"))
      << ::testing::PrintToString(fit.notes);
  // A rendez-vous isend in the waitall: its end may be the sender's, the irecv is left out.
  for (auto& a : acts)
    if (a.kind == Kind::Isend)
      a.bytes = 1e6;
  fit = fit_in_situ(acts, options);
  EXPECT_EQ(fit.matched, 5U);
}

TEST(InSitu, NetworkOneSizeKeepsTheBandwidthFactorAndUnorderedChannelsAreLeftOut)
{
  using tit::trace::Kind;
  std::vector<TimedAction> acts;
  // 1000-byte messages taking 2e-6 x 0.5 + 1016 / (1e10 x 0.8) on the network, no overheads.
  for (int i = 0; i < 5; ++i)
    message(acts, Kind::Send, 1000, 0, i, i - 1e-5, i + 1e-6 + 1016 / 8e9);
  // Rank 2 receives from any source: its messages cannot be paired; rank 3 is on another host.
  TimedAction any = timed(Kind::Recv, 8, 1e-6, tit::trace::kAnySource);
  any.rank = 2;
  any.host = 0;
  acts.push_back(any);
  TimedAction far = timed(Kind::Send, 8, 1e-7, 1);
  far.rank = 3;
  far.host = 1;
  acts.push_back(far);
  InSituOptions options;
  options.route = two_links();
  options.bw_factor = "0:0.8";
  auto fit = fit_in_situ(acts, options);
  EXPECT_EQ(fit.matched, 5U);
  ASSERT_TRUE(fit.network.lat_factor[0].has_value());
  EXPECT_NEAR(*fit.network.lat_factor[0], 0.5, 1e-6);
  EXPECT_FALSE(fit.network.bw_factor[0].has_value());
  EXPECT_EQ(fit.network.config(false, fit.breaks, "0:0.8;65000:0.3"), "65000:0.3;0:0.8"); // kept
  ASSERT_EQ(fit.notes.size(), 1U);
  EXPECT_EQ(fit.notes[0], "messages to 1 rank(s) receiving from any source or with any tag left out of the network fit "
                          "(their order cannot be told)");
  // Without a bandwidth factor to keep, one size fits no factor.
  options.bw_factor.clear();
  fit = fit_in_situ(acts, options);
  EXPECT_FALSE(fit.network.fitted());
  ASSERT_EQ(fit.notes.size(), 2U);
  EXPECT_EQ(fit.notes[1], "band 0: 5 message(s) of one size and no smpi/bw-factor in the platform to keep: no factor "
                          "fitted");
}
