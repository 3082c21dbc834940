// OTF2 archives (Score-P's traces) read as trace sets: each MPI rank's location becomes the rank's actions, through
// the one trace model (trace/reader.hpp), so that every command taking TRACES reads an archive's anchor file
// (ARCHIVE/traces.otf2) or its directory. docs/otf2.md says what is read and what is chosen where OTF2 says nothing.
// Knows nothing of SimGrid; the trace library does not link it (the tracer's shared library links that one).
#pragma once

#include "trace/reader.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace tit::otf2 {

/// How compute volumes and unsupported records are read.
struct ReadOptions {
  /// The counter whose increments between MPI calls are the compute volumes, when the archive records it.
  std::string metric = "PAPI_TOT_INS";
  /// Without that counter: volume = elapsed time between MPI calls x rate (units per second), an estimate the
  /// trace's compute unit says ("wall-time x 1e+09"). Nothing given: 1e9, as our tracer's TIT_TRACE_RATE.
  std::optional<double> rate;
  /// Whether the metric must be there: --metric given explicitly refuses an archive without it.
  bool metric_required = false;
  /// Records that cannot be replayed (one-sided, I/O, threads) are skipped with a counted warning instead of
  /// stopping the reading.
  bool skip_unsupported = false;
};

/// Registers the OTF2 reader with TraceSet::open (trace::register_format), reading with `options`.
void enable(const ReadOptions& options = {});

/// Whether `path` is an OTF2 anchor file (a regular file named *.otf2 starting with OTF2's anchor bytes).
bool is_anchor_file(const std::filesystem::path& path);

/// The archive whose anchor file is `anchor` as a trace set. Throws trace::TraceError on a bad archive.
std::unique_ptr<trace::TraceSet> open_archive(const std::filesystem::path& anchor, std::optional<int> ranks,
                                              const ReadOptions& options);

} // namespace tit::otf2
