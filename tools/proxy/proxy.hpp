// `tit-trace proxy`: a standalone MPI program in C generated from a trace (docs/proxy.md). The trace's loops
// (its compressed structure) become `for` loops, ranks of the same structure share code, and each action becomes
// the MPI call it records.
#pragma once

#include "convert/convert.hpp"
#include "model/defaults.hpp"

#include <filesystem>
#include <optional>
#include <ostream>

namespace tit::tracetool {

struct ProxyOptions {
  /// Compute volume units per second the proxy reproduces (a volume V then lasts V / rate seconds, the kernel's
  /// speed being calibrated at start-up); nothing: the trace's own rate (`cpu-time x RATE`), else each unit of
  /// volume is one floating-point operation of the kernel.
  std::optional<double> rate;
  /// The deadlock check's rendez-vous threshold (proxy_check.hpp): tit-replay's default model's.
  double detached_thresh = model::kDefaultDetachedThresh;
  /// What the input is (convert.hpp): a dialect-1 trace, or any trace when Source::Pre320 says it is SimGrid <= 3.19's
  /// format, is converted to dialect 2 first.
  convert::Source dialect1 = convert::Source::Thesis;
};

/// Writes the proxy program of `traces` (any trace set TraceSet::open reads; a plain one is compressed first, into
/// a temporary file; a dialect-1 one is converted to dialect 2 first, into a temporary directory) to `out` and
/// reports its size. Runs the trace symbolically first (proxy_check.hpp): throws ProxyDeadlock for a trace whose
/// proxy would wait forever, TraceError for one it cannot turn into a program.
void proxy(const std::filesystem::path& traces, const std::filesystem::path& out, const ProxyOptions& options,
           std::ostream& report, std::ostream& warnings);

} // namespace tit::tracetool
