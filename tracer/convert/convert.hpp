// tit-convert's library: rewrites time-independent traces between the two dialects of
// docs/trace-format.md, from SimGrid's pre-3.20 format, and into "perfect computation" traces.
// Works on text lines; knows nothing of SimGrid.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace tit::convert {

/// A bad input: what() is "file:line: error: ...\n  <the line>" or "path: error: ...".
class ConvertError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

struct Line {
  std::string file;
  int number = 0;
  std::string text;
  std::vector<std::string> words; ///< words[0] is the rank, words[1] the action
};

/// The lines of each rank, in order (comments and blank lines dropped).
struct RankLines {
  int rank = 0;
  std::vector<Line> lines;
  /// The `# compute:` and `# rate:` lines of the file before the rank's first action: what its
  /// compute volumes count. The conversions write them first, so the unit survives.
  std::vector<std::string> header;
};

/// Reads a trace list, a directory of per-rank files, or one merged file.
std::vector<RankLines> read_traces(const std::filesystem::path& input);

enum class Source { Thesis, Pre320 };

/// Dialect 1 (thesis) or SimGrid's pre-3.20 format -> SimGrid 3.20+ dialect (after in.header). Tags 0; each `wait`
/// becomes `wait src dst 0` naming the request it completes: the most recent pending Irecv (thesis)
/// or the most recent pending request (pre-3.20, SimGrid 3.19's replayer).
std::vector<std::string> to_simgrid(const RankLines& in, Source source);

/// SimGrid 3.20+ dialect -> dialect 1 (after in.header): sizes in bytes, no tags; refuses what dialect 1 cannot say.
/// `ranks`: the number of ranks (the length of count vectors).
std::vector<std::string> to_thesis(const RankLines& in, int ranks);

/// Every `compute` line replaced by `sleep <seconds>` measured by the tracer: the row of
/// `timings_csv` (TIT_TRACE_TIMINGS=1) naming the line's number in `trace_file`.
std::vector<std::string> with_durations(const std::filesystem::path& trace_file,
                                        const std::filesystem::path& timings_csv);

/// Writes OUTDIR/rank-<r>.txt for each rank and OUTDIR/trace.list.
void write_traces(const std::filesystem::path& outdir, const std::vector<std::pair<int, std::vector<std::string>>>& ranks);

} // namespace tit::convert
