// Parameters of the MPI model, read from SimGrid's configuration (command-line --cfg, platform <config>)
// and from host properties, under SimGrid's names.
#pragma once

#include "model/defaults.hpp"
#include "model/piecewise.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simgrid::s4u {
class Host;
}

namespace tit::model {

/// Per-host software overheads of the MPI library (seconds as a function of the payload size).
struct HostOverheads {
  PiecewiseLinear os;  ///< blocking send, detached (buffered) protocol
  PiecewiseLinear ois; ///< every isend
  PiecewiseLinear orecv; ///< receive completion of a detached message
  /// tit/oir (not SimGrid's, which has none): posting an MPI_Irecv of the trace, as the library's matching of a new
  /// receive against its queues costs. Zero by default.
  PiecewiseLinear oir;
  /// tit/os-self (not SimGrid's): a send or isend to the rank itself, instead of os or ois: the library copies such
  /// a message within the call (Open MPI's self transport). Unset (no segment, the default): os or ois, as SimGrid.
  PiecewiseLinear os_self;
  /// tit/ois-wait (not SimGrid's): the wait, waitall, waitany or test that completes a buffered isend, as the MPI
  /// library copies the payload of a buffered message when it progresses the request, not in MPI_Isend (Open MPI's
  /// shared-memory transport beyond its inline size). Zero by default, as SimGrid, whose buffered isend completes
  /// at no cost.
  PiecewiseLinear ois_wait;
  /// Whether tit/os-self is set: a message of a rank to itself then costs os_self in its send, and nothing after.
  bool copies_to_self() const { return not os_self.segments().empty(); }
};

struct MpiParams {
  double detached_thresh = kDefaultDetachedThresh; ///< smpi/send-is-detached-thresh: sizes strictly below are buffered
  double async_small_thresh = 0;   ///< smpi/async-small-thresh: sizes strictly below are sent eagerly
  double test_sleep = 1e-4;        ///< smpi/test
  double iprobe_sleep = 1e-4;      ///< smpi/iprobe
  double iprobe_cpu_usage = 1.0;   ///< smpi/iprobe-cpu-usage
  bool grow_injected_times = true; ///< smpi/grow-injected-times
  bool simulate_computation = true; ///< smpi/simulate-computation
  double init_sleep = 0;           ///< smpi/init
  bool finalization_barrier = false; ///< smpi/finalization-barrier
  /// tit/local-copy-bw (bytes/s): a rank's message to itself (MPI_Sendrecv to itself, the own block of a
  /// collective) takes bytes / the rate of its size: "RATE" for every size, or "SIZE:RATE;..." (the entry of the
  /// largest SIZE strictly below the copy's, the first entry below them all: a copy beyond the caches runs at the
  /// memory's rate). Empty (the default, "0", as SimGrid): such copies are free.
  std::vector<std::pair<std::uint64_t, double>> local_copy_rates;
  double time_precision = 1e-9; ///< surf/precision: SimGrid cannot sleep for less (it logs each attempt)
  /// tit/traced-tests: tests and waitany take their traced outcome. The parameter's default is yes (from_config sets
  /// it); a default-built MpiParams, as unit tests make, keeps SimGrid's rule.
  bool traced_tests = false;
  /// tit/in-order-delivery: the eager messages from one rank to another are transferred one after the other, as
  /// the messages of a TCP connection arrive (each at the pair's share of the route), instead of sharing the
  /// route fairly while they are in flight together (SimGrid's model, the default).
  bool in_order_delivery = false;
  /// tit/busy-wait: the share of a core a rank holds while it waits in MPI (a blocking call, a wait), as an MPI
  /// library that polls for its messages does (Open MPI: 1). On a host with fewer cores than ranks the others then
  /// compute the slower. 0 (the default, as SimGrid): a waiting rank holds no core.
  double busy_wait = 0;
  /// tit/coll-overhead: per blocking collective (by its name in the trace, "allreduce"), the time every rank of the
  /// call spends in it beyond its algorithm's messages (the library's set-up, its copies made at once by every rank),
  /// as a function of the call's bytes (the trace's size field); charged once the algorithm is over. Empty (the
  /// default, as SimGrid): none.
  std::map<std::string, PiecewiseLinear, std::less<>> coll_overheads;
  /// tit/rank-start: per rank, the simulated time at which it starts its trace (its return from MPI_Init), as the
  /// ranks of a real run leave MPI_Init at different times (the launcher starts them one after the other); a rank
  /// not named starts at 0 (the default: every rank at once, as SimGrid).
  std::map<int, double> rank_start;
  HostOverheads default_overheads;

  /// tit/rank-start of `rank`: 0 when none is set for it.
  double start_of(int rank) const
  {
    auto it = rank_start.find(rank);
    return it == rank_start.end() ? 0 : it->second;
  }
  /// tit/coll-overhead of a collective named `kind` of `bytes`: 0 when none is set for it.
  double coll_overhead(std::string_view kind, double bytes) const
  {
    auto it = coll_overheads.find(kind);
    return it == coll_overheads.end() ? 0 : it->second(bytes);
  }

  /// Reads every parameter from SimGrid's configuration; validates the model strings
  /// (also smpi/bw-factor and smpi/lat-factor). Throws ModelError naming the parameter.
  static MpiParams from_config();
  /// Seconds that a copy of `bytes` to itself takes a rank: 0 when local copies are free, or when the copy is
  /// shorter than SimGrid's time precision (a few bytes at GB/s; SimGrid would log every such sleep).
  double local_copy_time(double bytes) const
  {
    if (local_copy_rates.empty() || not(bytes > 0))
      return 0;
    double rate = local_copy_rates.front().second;
    for (auto const& [size, r] : local_copy_rates)
      if (bytes > static_cast<double>(size))
        rate = r;
    double t = bytes / rate;
    return t >= time_precision ? t : 0;
  }
  /// Overheads of `host`: its `smpi/os`, `smpi/or`, `smpi/ois`, `tit/oir`, `tit/os-self`, `tit/ois-wait` properties
  /// override the defaults.
  HostOverheads overheads_of(const simgrid::s4u::Host& host) const;
};

/// Declares the model parameters of tit-replay's own (not SimGrid's: tit/local-copy-bw, tit/traced-tests,
/// tit/host-availability, tit/in-order-delivery, tit/busy-wait, tit/oir, tit/os-self, tit/ois-wait,
/// tit/coll-overhead, tit/rank-start) in SimGrid's configuration; call before the engine parses the command line. Idempotent.
void declare_config_flags();

/// Applies tit/host-availability ("HOST:FRACTION;...", entries separated as in the factor tables): each named host
/// computes at that fraction of its speed (a constant availability profile, as SimGrid's speed profiles describe a
/// host shared with other work), so that one node of a <cluster>, whose nodes share one speed in the XML, can be made
/// slower for a what-if. Call after the platform is loaded. Throws ModelError naming the parameter, the host or the
/// fraction.
void apply_host_availability();

/// One documented model parameter, for --help.
struct ParamDoc {
  const char* name;
  const char* description;
};
const std::vector<ParamDoc>& documented_parameters();

} // namespace tit::model
