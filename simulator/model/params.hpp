// Parameters of the MPI model, read from SimGrid's configuration (command-line --cfg, platform <config>)
// and from host properties, under SimGrid's names.
#pragma once

#include "model/piecewise.hpp"

#include <string>
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
};

struct MpiParams {
  double detached_thresh = 65536;  ///< smpi/send-is-detached-thresh: sizes strictly below are buffered
  double async_small_thresh = 0;   ///< smpi/async-small-thresh: sizes strictly below are sent eagerly
  double test_sleep = 1e-4;        ///< smpi/test
  double iprobe_sleep = 1e-4;      ///< smpi/iprobe
  double iprobe_cpu_usage = 1.0;   ///< smpi/iprobe-cpu-usage
  bool grow_injected_times = true; ///< smpi/grow-injected-times
  bool simulate_computation = true; ///< smpi/simulate-computation
  double init_sleep = 0;           ///< smpi/init
  bool finalization_barrier = false; ///< smpi/finalization-barrier
  bool traced_tests = false;       ///< replay/traced-tests: tests and waitany take their traced outcome
  HostOverheads default_overheads;

  /// Reads every parameter from SimGrid's configuration; validates the model strings
  /// (also smpi/bw-factor and smpi/lat-factor). Throws ModelError naming the parameter.
  static MpiParams from_config();
  /// Overheads of `host`: its `smpi/os`, `smpi/or`, `smpi/ois` properties override the defaults.
  HostOverheads overheads_of(const simgrid::s4u::Host& host) const;
};

/// Declares tit-replay's own model flags (replay/...) in SimGrid's configuration, before it parses options.
void declare_config_flags();

/// One documented model parameter, for --help.
struct ParamDoc {
  const char* name;
  const char* description;
};
const std::vector<ParamDoc>& documented_parameters();

} // namespace tit::model
