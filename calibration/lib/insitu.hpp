// In-situ calibration: the parts of the MPI model that the timings of an application's own traced run
// determine without comparing clocks of different ranks: the time in MPI_Isend (smpi/ois), in a detached
// MPI_Send (smpi/os), per size band, and the local-copy rate (MPI_Sendrecv of a rank to itself).
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

struct InSituFit {
  std::vector<std::uint64_t> breaks;
  InSituOverhead ois, os;
  std::optional<CopyFit> copy;
  std::size_t copies = 0; ///< sendrecvs to itself seen
  std::vector<std::string> notes;
};

/// Fits from the timed actions of a run (isend, send, sendRecv; other actions are ignored).
InSituFit fit_in_situ(const std::vector<TimedAction>& actions, const InSituOptions& options);

void write_in_situ_report(std::ostream& out, const InSituFit& fit);

} // namespace tit::calib
