// Point-to-point calibration: from the raw measurements of calib-p2p to SimGrid's hybrid MPI model
// (piecewise-linear smpi/os, smpi/or, smpi/ois; smpi/lat-factor and smpi/bw-factor per segment;
// the protocol threshold smpi/send-is-detached-thresh), inverting the model tit-replay applies
// (docs/model.md): a ping-pong of S bytes on the platform takes, one way,
//   detached (S < thresh):   os(S) + T(S) + or(S)
//   rendez-vous:             T(S)
//   T(S) = route_latency x lat_factor(S+16) + (S+16) / (lone_flow_bandwidth x bw_factor(S+16)).
#pragma once

#include "csv.hpp"
#include "fit.hpp"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tit::calib {

inline constexpr double kEnvelope = 16;        ///< bytes SimGrid adds to every message
/// Bandwidth factor of a segment whose time does not grow with the size, when neither its noise nor another segment
/// gives it a bandwidth (a fitted factor above it is taken as not measured).
inline constexpr double kMaxBwFactor = 1000;
/// Latency factor of a segment without latency when no other segment has one (SimGrid refuses 0).
inline constexpr double kMinLatFactor = 1e-6;

/// Raw points of calib-p2p, one per measurement (x = payload bytes, y = seconds).
struct P2pData {
  std::vector<Point> send;     ///< time in MPI_Send, receiver ready
  std::vector<Point> recv;     ///< time in MPI_Recv, message already sent
  std::vector<Point> isend;    ///< time in MPI_Isend
  std::vector<Point> wait;     ///< time in the MPI_Wait of an isend, called at once (optional)
  std::vector<Point> pingpong; ///< round trip
  std::vector<Point> copy;     ///< MPI_Sendrecv of a rank to itself (optional)
  std::vector<Point> test;     ///< one MPI_Test that finds nothing, size 0 (optional)
  std::vector<Point> iprobe;   ///< one MPI_Iprobe that finds nothing, size 0 (optional)
};

/// Reads a calib-p2p CSV (columns experiment,size,iteration,seconds). Throws InputError.
P2pData load_p2p(const CsvTable& table);

/// The route between the two measured nodes in the platform, as the network model sees it.
struct Route {
  double bandwidth = 0;           ///< nominal bandwidth of the links (bytes/s); the narrowest link of the route
  double latency = 0;             ///< nominal latency of each link (s)
  int links = 1;                  ///< links of that latency on the route
  bool shared_bottleneck = false; ///< the narrowest link also carries the 5% reverse cross-traffic (SHARED link)
  double tcp_gamma = 4194304;     ///< network/TCP-gamma

  double raw_latency() const { return latency * links; }
  /// Rate the network model gives a lone flow before the bandwidth factor.
  double lone_flow_bandwidth() const;
};

struct P2pOptions {
  std::vector<std::uint64_t> breaks;        ///< given segment boundaries; empty: found from the data
  int max_segments = 6;                     ///< for the automatic search
  int min_sizes = 4;                        ///< distinct sizes per segment in the automatic search
  std::optional<double> detached_thresh;    ///< given protocol threshold; else detected
  double sync_ratio = 0.4;                  ///< a segment whose send and recv times are both at least this
                                            ///< fraction of the one-way ping-pong time is rendez-vous
  /// Largest bandwidth factor a segment may take (1: no message faster than the route's nominal bandwidth, when
  /// that is the link's real rate); none: as fitted. A segment fitted above it is capped and its latency refitted.
  std::optional<double> max_bw_factor;
};

struct SegmentFit {
  std::uint64_t low = 0;  ///< the segment holds sizes > low (the first one also size 0)
  std::uint64_t high = 0; ///< ... and <= high (the last one: the largest size measured)
  LineFit os, orecv, ois; ///< seconds vs payload bytes
  LineFit ois_wait;       ///< the wait of a buffered isend (tit/ois-wait); no points: not measured
  LineFit network;        ///< one-way network time (ping-pong without overheads) vs payload + 16 bytes
  double sync_ratio = 0;  ///< min(median send time, median recv time) / median one-way ping-pong time
  double overhead_scale = 1; ///< factor applied to os and or so that they fit in the ping-pong time
  double lat_factor = 1;
  double bw_factor = 1;
  /// The band whose latency (resp. bandwidth) this one took, where its own data did not determine it: an offset at
  /// or below 0 (the overheads took the whole time), a slope that does not grow with the size.
  std::optional<std::size_t> latency_from, bandwidth_from;
  /// The slope did not grow measurably and the bandwidth is the lowest the band's noise allows (its largest size's
  /// bytes cost one noise scale of its times).
  bool bandwidth_bound = false;
  /// The slope was not fitted on the band's own sizes (a bound or another band's).
  bool slope_fixed() const { return bandwidth_bound || bandwidth_from.has_value(); }
};

struct P2pFit {
  std::vector<std::uint64_t> breaks;
  bool breaks_found = false; ///< found by segmented regression rather than given
  std::vector<SegmentFit> segments;
  double detached_thresh = 65536;
  Route route;
  std::vector<std::string> warnings;

  /// SimGrid configuration strings.
  std::string os() const;
  std::string orecv() const;
  std::string ois() const;
  /// tit/ois-wait: the wait of a buffered isend in the bands below the protocol threshold, 0 in the others (their
  /// wait is the transfer, which the network model times); empty when no "wait" was measured.
  std::string ois_wait() const;
  std::string lat_factor() const;
  std::string bw_factor() const;
  /// One-way ping-pong time the fitted model predicts for `size` payload bytes.
  double one_way(double size) const;
  double os_at(double size) const;
  double or_at(double size) const;
  double ois_at(double size) const;
};

/// A size band's network factors: the line of its one-way network time (seconds against payload + 16 bytes).
struct BandFactors {
  LineFit line;
  double lat_factor = 1;
  double bw_factor = 1;
  std::optional<double> capped_from; ///< the bandwidth factor the line gave, when above the bound and capped
};

/// The factors of a band whose one-way network times are `points`, fitted as the line `line`, on `route`: lat-factor
/// = offset / the route's latency, bw-factor = 1 / (slope x lone-flow rate). A bandwidth factor above
/// `max_bw_factor` (a message faster than the link: an idle link's burst) is set to it, the slope with it, and the
/// offset refitted under that slope (the median of what remains of each point's time, at least 0).
BandFactors band_factors(LineFit line, const std::vector<Point>& points, const Route& route,
                         std::optional<double> max_bw_factor);

/// Fits the model. Throws InputError when an experiment is missing or a segment has too few points.
P2pFit fit_p2p(const P2pData& data, const Route& route, const P2pOptions& options);

/// The local-copy rate (tit-replay's tit/local-copy-bw) per size band: a copy runs at the cache's rate while its
/// buffers fit in a cache and at the memory's beyond (here 18-20 GB/s up to 5 MB, 5.5 GB/s from 10 MB), so the
/// bands are found by segmented regression over the sizes (as the point-to-point fit finds its protocols), and a
/// line seconds = offset + bytes / rate is fitted in each. The offsets (a per-call cost) are reported, not modelled.
struct CopyFit {
  std::vector<std::uint64_t> breaks; ///< sizes <= breaks[0] are band 0, ...
  std::vector<LineFit> lines;        ///< one per band
  std::vector<double> rates;         ///< bytes per second per band: 1 / slope, or a neighbour's (`from`)
  std::vector<std::optional<std::size_t>> from; ///< the band whose rate a band without growth took
  /// tit/local-copy-bw: the rate alone for one band, else "0:RATE;BREAK:RATE;..." (a copy of S bytes takes the rate
  /// of the largest entry strictly below S).
  std::string config() const;
};
/// Fits the copy rate. Throws InputError when fewer than two sizes were measured or the time does not grow
/// with the size.
CopyFit fit_local_copy(const std::vector<Point>& copy);
void write_copy_report(std::ostream& out, const CopyFit& fit);

/// The cost of a polling call: SimGrid injects smpi/test seconds at each MPI_Test (each request of a
/// Testall or Testsome), times a counter that grows with every test that finds nothing (smpi/grow-injected-times).
/// A real call's cost does not grow: the fit gives the median measured cost of one call and turns the growth off.
/// MPI_Iprobe's cost is reported only: tit-replay uses smpi/iprobe as the step of the loop that waits for a receive
/// of unknown size, which a sub-microsecond step would make millions of iterations long.
struct PollFit {
  std::optional<double> test;   ///< seconds per MPI_Test (smpi/test)
  std::optional<double> iprobe; ///< seconds per MPI_Iprobe (reported, not written)
  /// The configuration strings, when the test was measured: smpi/test, smpi/grow-injected-times:no.
  std::vector<std::pair<std::string, std::string>> props() const;
};
/// Fits the polling costs; empty when neither call was measured. Throws InputError on a point whose size is not 0.
PollFit fit_polling(const P2pData& data);
void write_polling_report(std::ostream& out, const PollFit& fit);

/// Human-readable report: per segment, the fitted values, R2, residuals and outliers.
void write_p2p_report(std::ostream& out, const P2pFit& fit);

/// Raw points and fitted curves for plotting: "# tit-calibrate curves v1", then
/// quantity,kind,segment,size,seconds rows (kind raw or model; quantities os, or, ois, oneway).
void write_p2p_curves(std::ostream& out, const P2pData& data, const P2pFit& fit);

/// Formats a number for SimGrid's configuration strings (9 significant digits).
std::string num(double v);

} // namespace tit::calib
