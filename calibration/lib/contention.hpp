// Contention calibration: from calib-contention's concurrent pings and MPI_Sendrecv exchanges, the
// full-duplex sharing ratio of a node (bandwidth sent + received while exchanging, over the bandwidth
// of a lone ping) and the limiter link that reproduces it in a cluster with split-duplex node links.
#pragma once

#include "csv.hpp"

#include <ostream>
#include <vector>

namespace tit::calib {

struct ContentionRow {
  bool sendrecv = false; ///< false: ping (the sender's time)
  int concurrency = 1;   ///< pairs communicating at once
  int pair = 0;
  int rank = 0;
  double size = 0;       ///< bytes each way
  double seconds = 0;
};

/// Reads a calib-contention CSV (experiment,concurrency,pair,rank,size,iteration,seconds). Throws InputError.
std::vector<ContentionRow> load_contention(const CsvTable& table);

struct ContentionLevel {
  int concurrency = 0;
  double ping_bw = 0;     ///< median bandwidth of one ping (B/s)
  double exchange_bw = 0; ///< median bandwidth of one node while exchanging: sent + received (B/s)
};

struct ContentionFit {
  std::vector<ContentionLevel> levels; ///< by concurrency
  double ratio = 0;         ///< exchange / ping at concurrency 1, as measured
  double limiter_ratio = 0; ///< limiter link bandwidth / node link bandwidth to write in the platform
  std::vector<std::string> warnings;
};

/// The limiter of a node carries 1.05 x (sent + received) with cross-traffic, and a lone ping must not be
/// limited by it, so limiter_ratio = 1.05 x ratio with ratio clamped to [1, 2] (warning when clamped).
ContentionFit fit_contention(const std::vector<ContentionRow>& rows);

void write_contention_report(std::ostream& out, const ContentionFit& fit);

} // namespace tit::calib
