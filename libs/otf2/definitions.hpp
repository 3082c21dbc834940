// The global definitions of an OTF2 archive that a replay needs: which locations are MPI ranks, the regions (which
// are MPI calls), the communicators with their members as world ranks, the metric members, the clock.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tit::otf2 {

struct Region {
  std::string name;
  bool mpi = false; ///< an MPI call (paradigm MPI, or a name starting with "MPI_")
};

/// A communicator: its members as world ranks, in the order of its own ranks.
struct Communicator {
  std::string name;
  std::vector<int> members;
  bool self = false;  ///< MPI_COMM_SELF-like: every rank alone (members empty)
  bool world = false; ///< every rank in rank order: replayed as MPI_COMM_WORLD
  int index = -1;     ///< among the communicators created at the start of each rank (not world, not self)
};

/// Where a metric member's values are in its metric class's records.
struct MetricSlot {
  std::uint8_t position = 0;
};

struct Definitions {
  std::uint64_t timer_resolution = 1; ///< ticks per second
  std::vector<OTF2_LocationRef> rank_locations; ///< rank r's location
  std::unordered_map<OTF2_LocationRef, std::string> location_names;
  std::unordered_map<OTF2_RegionRef, Region> regions;
  std::unordered_map<OTF2_CommRef, Communicator> comms;
  std::vector<OTF2_CommRef> created_comms; ///< the communicators with index >= 0, in index order
  /// The metric classes holding the chosen metric member, and where.
  std::unordered_map<OTF2_MetricRef, MetricSlot> metric_classes;
  bool has_metric = false;
  std::uint64_t locations = 0; ///< every location of the archive (threads, GPUs and MPI ranks)
  std::vector<std::string> rma_windows; ///< one-sided windows: their names (a reason to refuse, when used)
};

/// Reads the global definitions with `reader` (open), choosing the metric member named `metric`. Throws
/// trace::TraceError naming `anchor` on a missing or inconsistent definition.
Definitions read_definitions(OTF2_Reader* reader, const std::string& anchor, const std::string& metric);

/// The message of the last OTF2 error (OTF2's own reporting is silenced); empty when none.
std::string last_otf2_error();
/// Installs the handler that keeps OTF2's error messages for last_otf2_error() instead of printing them.
void capture_otf2_errors();

} // namespace tit::otf2
