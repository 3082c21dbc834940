// The conversions of `tit-trace convert` (and of `tit-convert`, its alias): rewrites time-independent traces
// between the two dialects of docs/trace-format.md, from SimGrid's pre-3.20 format, and into "perfect
// computation" traces.
// Reads with the trace reader (libs/trace, tit-trace) into typed actions, translates what one
// dialect says differently from the other (waits, tags), and writes with its writer
// (trace/writer.hpp). Knows nothing of SimGrid.
#pragma once

#include "core/error.hpp"

#include "trace/action.hpp"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tit::convert {

/// A bad input: what() is "file:line: error: ...\n  <the line>" or "path: error: ...". (The reader's and
/// writer's errors are trace::TraceError, with the same form.)
class ConvertError : public tit::Error {
public:
  using tit::Error::Error;
};

/// What the input is: either dialect, detected from its lines (dialect 1 being Markomanolis' thesis format, whose
/// `wait` completes the most recent pending Irecv), or SimGrid <= 3.19's format, which no line tells from dialect 1
/// (trace::Dialect::Pre320: counts of a datatype that init's arguments choose, `wait` and `test` on the most recent
/// pending request of either kind, scatter, allGather, gatherV, scatterV, ...).
enum class Source { Thesis, Pre320 };

/// The lines of each rank, in rank order: rank, then its lines (header first).
using RankFiles = std::vector<std::pair<int, std::vector<std::string>>>;

/// Every rank of the trace set `input` (a trace list, a directory of per-rank files, or one merged file,
/// in either dialect) written in dialect `to`. Each rank's lines start with the `# compute:` and `# rate:`
/// lines of its file's header (what the compute volumes count). From dialect 1, each `wait` becomes the
/// dialect-2 wait naming the request `source` says it completes; to dialect 1, tags are dropped, a wait on an
/// Isend is dropped (dialect 1 completes Isends at waitAll or the end) and a wait on an Irecv must complete
/// the most recent pending one. Throws ConvertError or trace::TraceError.
RankFiles convert(const std::filesystem::path& input, trace::Dialect to, Source source);

/// Every `compute` line of the trace list `trace_list`'s ranks replaced by `sleep <seconds>` measured by the
/// tracer: the row of TRACEDIR/timings-<r>.csv (TIT_TRACE_TIMINGS=1) naming the line's number.
RankFiles with_durations(const std::filesystem::path& trace_list);

/// Writes OUTDIR/rank-<r>.txt for each rank and OUTDIR/trace.list.
void write_traces(const std::filesystem::path& outdir, const RankFiles& ranks);

/// What `tit-trace convert` and `tit-convert` do: `input` converted to dialect `to` (read as `source` says), or,
/// without `to`, the trace directory `input` with measured durations (with_durations on input/trace.list),
/// written into `outdir`. Returns the number of ranks written. Throws ConvertError or trace::TraceError.
std::size_t convert_into(const std::filesystem::path& input, const std::filesystem::path& outdir,
                         std::optional<trace::Dialect> to, Source source);

} // namespace tit::convert
