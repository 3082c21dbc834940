// The subcommands of `tit-trace` (compress, expand, info) as library functions: they take a trace set as
// TraceSet::open reads it (text in either dialect, gzip, or compressed) and report to a stream.
#pragma once

#include "trace/compressed.hpp"

#include <filesystem>
#include <ostream>

namespace tit::tracetool {

/// `tit-trace compress`: writes `out` and reports its sizes (the text size is the actions' lines).
void compress(const std::filesystem::path& traces, const std::filesystem::path& out, const trace::ValueMode& mode,
              std::ostream& report);

/// `tit-trace expand`: OUTDIR/rank-<r>.txt (one action line per line, each in the dialect it was traced in,
/// after the `# compute:` and `# rate:` lines when the trace set says what its compute volumes count) and
/// OUTDIR/trace.list.
void expand(const std::filesystem::path& traces, const std::filesystem::path& outdir, std::ostream& report);

/// `tit-trace info`: ranks, actions per kind, text bytes and, for a compressed trace, its structure and sizes.
void info(const std::filesystem::path& traces, std::ostream& report);

} // namespace tit::tracetool
