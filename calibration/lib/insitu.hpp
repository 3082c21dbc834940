// In-situ calibration: the parts of the MPI model that the timings of an application's own traced run
// determine: the time in MPI_Isend (smpi/ois), in a detached MPI_Send (smpi/os), per size band, and the
// local-copy rate (MPI_Sendrecv of a rank to itself), from each rank's own timings; and, where two ranks ran
// on one host (their timings share its clock), the network's latency and bandwidth factors per band from
// the messages between them: a send's start against the end of the receive that matched it (a blocking recv,
// or the wait that completed an irecv when the trace tells which); and the cost of a test (smpi/test), the median
// time of the run's MPI_Test and MPI_Testany calls.
#pragma once

#include "fit.hpp"
#include "p2p.hpp"
#include "timings.hpp"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tit::calib {

struct InSituOptions {
  std::vector<std::uint64_t> breaks; ///< size bands (a break b: sizes <= b below); empty: one band
  double detached_thresh = 65536;    ///< sends of at least this size are rendez-vous: their time is not os
  /// The route the replay gives the messages between the traced ranks: without it no network factor is fitted.
  std::optional<Route> route;
  /// The platform's overheads (SimGrid's "threshold:offset:slope;..." strings; empty: 0): the model's part of an
  /// eager message's one-way time that is not the network's (os or ois fitted here replace the platform's).
  std::string os, ois, orecv;
  /// The platform's factors ("threshold:value;..."): a band with messages of one size only keeps its
  /// bandwidth factor and gets a latency factor; empty: such a band is not fitted.
  std::string bw_factor;
  /// Largest bandwidth factor of a band (band_factors): 1 when the route's bandwidth is the link's real rate.
  std::optional<double> max_bw_factor;
};

/// One overhead per band: its line, or none when the band had no call (then the platform's value is kept).
struct InSituOverhead {
  std::vector<std::optional<LineFit>> bands;
  std::vector<std::size_t> calls; ///< calls seen per band
  bool fitted() const;
  /// SimGrid's "threshold:offset:slope;..." (thresholds 0 and the breaks): the fitted line in each band with
  /// calls; in a band without calls, the segments of `existing` (the platform's value, same form; empty: 0)
  /// that cover it. Throws InputError when `existing` is malformed.
  std::string config(const std::vector<std::uint64_t>& breaks, const std::string& existing = "") const;
};

/// The network's factors per band, from the one-way times of matched messages.
struct InSituNetwork {
  std::vector<std::optional<double>> lat_factor, bw_factor; ///< per band; none: the platform's value is kept
  std::vector<std::size_t> messages;                        ///< timed messages per band
  std::vector<std::size_t> sizes;                           ///< distinct sizes per band
  std::vector<std::optional<LineFit>> line;                 ///< network seconds against payload + 16 bytes
  bool fitted() const;
  /// SimGrid's "threshold:value;..." for the fitted factors (`lat`: latency, else bandwidth), a band without
  /// a fit keeping the entries of `existing` that cover it. Throws InputError when `existing` is malformed.
  std::string config(bool lat, const std::vector<std::uint64_t>& breaks, const std::string& existing) const;
};

struct InSituFit {
  std::vector<std::uint64_t> breaks;
  InSituOverhead ois, os;
  InSituOverhead oir;     ///< tit/oir: the run's irecvs (posting one)
  InSituOverhead os_self; ///< tit/os-self: the run's sends and isends of a rank to itself
  InSituNetwork network;
  std::size_t matched = 0; ///< messages matched to their receive on one host
  std::optional<CopyFit> copy;
  std::size_t copies = 0; ///< sendrecvs to itself seen
  PollFit poll;           ///< smpi/test: the median time of the run's `test` and `testany` calls
  std::size_t tests = 0;  ///< `test` and `testany` calls with a timing
  std::vector<std::string> notes;
};

/// Fits from the timed actions of a run (point-to-point actions; the others are ignored). The network factors
/// need every point-to-point action of the run (the matching is by order on each channel).
InSituFit fit_in_situ(const std::vector<TimedAction>& actions, const InSituOptions& options);

void write_in_situ_report(std::ostream& out, const InSituFit& fit);

} // namespace tit::calib
