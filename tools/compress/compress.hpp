// The subcommands of `tit-trace` (compress, expand, info) as library functions: they take a trace set as
// TraceSet::open reads it (text in either dialect, gzip, or compressed) and report to a stream.
#pragma once

#include "compressed/compressed.hpp"

#include <filesystem>
#include <optional>
#include <ostream>

namespace tit::tracetool {

/// `tit-trace compress`: writes `out` and reports its sizes (the text size is the actions' lines).
void compress(const std::filesystem::path& traces, const std::filesystem::path& out, const trace::ValueMode& mode,
              std::ostream& report);

/// `tit-trace expand`: OUTDIR/rank-<r>.txt (one action line per line, after the `# compute:` and `# rate:` lines
/// when the trace set says what its compute volumes count) and OUTDIR/trace.list. Without `dialect`, each line
/// as it was traced (its tokens, single-spaced); with it, each action written in that dialect by trace/writer.hpp
/// (TraceError when the dialect cannot say an action).
void expand(const std::filesystem::path& traces, const std::filesystem::path& outdir,
            std::optional<trace::Dialect> dialect, std::ostream& report);

/// `tit-trace info`: ranks, actions per kind, text bytes and, for a compressed trace, its structure and sizes.
void info(const std::filesystem::path& traces, std::ostream& report);

} // namespace tit::tracetool
