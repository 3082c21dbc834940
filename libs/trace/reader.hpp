// Streaming readers of time-independent traces: per-rank files, trace lists and merged files,
// plain or gzip-compressed, in either dialect. Knows nothing of SimGrid.
#pragma once

#include "core/error.hpp"

#include "trace/action.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tit::trace {

/// A bad trace or trace set. what() is the full message, e.g.
/// "traces/rank-3.txt:1207: error: 'send' needs <dst> <tag> <count> [dt], got 2 fields\n  3 send 1 2"
class TraceError : public tit::Error {
public:
  using tit::Error::Error;
};

/// The stream of actions of one rank.
class RankReader {
public:
  virtual ~RankReader() = default;
  /// Fills `out` with the next action of this rank. Returns false at the end of the rank's trace.
  /// Throws TraceError on a malformed line (file, line number, what was expected, the line).
  virtual bool next(Action& out) = 0;
  /// Path of the file this rank reads (for merged traces, the shared file).
  virtual const std::string& file() const = 0;
};

/// Every rank's stream of a trace set.
class TraceSet {
public:
  /// Opens `path`, which is one of
  ///  - a directory of per-rank files (each file's rank is read from its first action line),
  ///  - a trace list (one trace path per line, line i for rank i; a single line = one merged file),
  ///  - one merged trace file (every line starts with the rank performing it),
  ///  - a compressed trace (trace/compressed.hpp; recognised by its magic).
  /// `ranks` is the number of ranks to replay when the trace set does not say it (merged files);
  /// when the trace set says it and `ranks` is given, the two must agree.
  /// Throws TraceError on a missing file, an unreadable or inconsistent trace set.
  static std::unique_ptr<TraceSet> open(const std::filesystem::path& path, std::optional<int> ranks);
  /// The same, every plain file read in `read_as` instead of the dialect detected from its lines (the only way to
  /// read Dialect::Pre320, which no line tells from dialect 1). A compressed trace records its ranks' dialects:
  /// asking for another one is an error.
  static std::unique_ptr<TraceSet> open(const std::filesystem::path& path, std::optional<int> ranks,
                                        Dialect read_as);

  virtual ~TraceSet() = default;
  /// Number of ranks of the trace set (for a merged file without `ranks`: the ranks found in the file).
  virtual int rank_count() const = 0;
  /// Whether the rank count comes from the trace set itself (per-rank files) rather than from `ranks`.
  virtual bool has_own_rank_count() const = 0;
  /// The stream of rank `r`, 0 <= r < rank_count(). Each stream is handed out once.
  virtual std::unique_ptr<RankReader> reader(int r) = 0;
  /// Human-readable description ("3 per-rank files in traces/", "merged file traces/all.txt").
  virtual std::string describe() const = 0;
  /// What the compute volumes count, as the header of the trace files says (compute_unit() below:
  /// "instructions", "cpu-time x 1e+09", ...); empty when no file says it.
  virtual const std::string& compute_unit() const = 0;
};

/// A trace format read by a library of its own (OTF2 archives: libs/otf2), which the trace library must not link
/// (the tracer's shared library links it). A program that reads it registers it once, before opening traces; then
/// TraceSet::open hands it every regular file it recognises.
struct ExternalFormat {
  std::string name;                                        ///< "OTF2", for messages
  bool (*recognises)(const std::filesystem::path& path);   ///< whether `path` is one of its files
  std::unique_ptr<TraceSet> (*open)(const std::filesystem::path& path, std::optional<int> ranks);
};
/// Adds (or replaces, by name) a format TraceSet::open reads.
void register_format(ExternalFormat format);

/// The unit of a trace's compute volumes from its header's `# compute: <mode> ...` and
/// `# rate: <R> ...` lines (as our tracer writes them): "instructions", or for the estimates
/// "<mode> x <R>" with R written as %g ("cpu-time x 1e+09"); empty when `mode` is empty.
std::string compute_unit(std::string_view mode, std::string_view rate);

/// The rate R of a compute unit "<mode> x <R>" (compute_unit's form), when it has one and R > 0; with `mode`, only
/// for that mode ("cpu-time": volumes of CPU time, seconds x R).
std::optional<double> compute_unit_rate(std::string_view unit, std::string_view mode = {});

/// The platform's host property saying what a host's speed counts per second, in the same terms
/// ("flops" for calib-cpu's rate); written by tit-calibrate fit, compared by tit-replay.
inline constexpr const char* kSpeedUnitProperty = "tit/speed-unit";

} // namespace tit::trace

// ------------------------------------------------------------------------------------------------
// Internals of the trace reader, shared by its source files and its unit tests. Engine code has
// no use for them: it goes through TraceSet and RankReader.

struct gzFile_s; // zlib's file handle

namespace tit::trace::detail {

/// The physical lines of a plain or gzip-compressed file, split by hand in one reused buffer: plain
/// files are read directly, gzip ones (recognised by their magic bytes) through zlib. A last line
/// without a trailing newline is read.
class LineSource {
public:
  static constexpr std::size_t kDefaultBuffer = 256 * 1024;
  /// Throws TraceError "error: cannot open trace '<path>': <why>".
  explicit LineSource(std::string path, std::size_t buffer_size = kDefaultBuffer);
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  /// The next line, without its '\n' and trailing '\r'; valid until the next call. False at the end.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned.
  std::uint64_t line_number() const { return line_; }
  const std::string& path() const { return path_; }
  /// The file's first bytes as stored (before any gzip decoding): up to kHeadBytes, fewer for a shorter file.
  std::string_view head() const { return {head_, head_size_}; }
  static constexpr std::size_t kHeadBytes = 8;
  /// Starts again from the first line: a scan of the first lines and the reader that follows share one opening of
  /// the file. Reads nothing again while the buffer still holds the file from its first byte.
  void rewind();

private:
  void refill();

  /// Up to `room` bytes into `dst`; 0 at the end. Throws TraceError on a read error.
  std::size_t read_some(char* dst, std::size_t room);

  std::string path_;
  int fd_ = -1;             // plain files
  gzFile_s* gz_ = nullptr;  // gzip files
  std::unique_ptr<char[]> buf_; // not zero-filled: thousands of ranks each open one
  std::size_t capacity_ = 0;
  std::size_t begin_ = 0;   // first byte of the next line
  std::size_t end_ = 0;     // end of the bytes read
  std::size_t scanned_ = 0; // bytes from begin_ known to hold no '\n'
  bool eof_ = false;
  bool dropped_ = false;    // whether bytes before begin_ were discarded (rewind must read the file again)
  std::uint64_t line_ = 0;
  char head_[kHeadBytes] = {};
  std::size_t head_size_ = 0;
};

// Lexical rules shared by both dialects.

/// `s` without leading and trailing blanks and tabs.
std::string_view trim(std::string_view s);
/// Whether a trimmed line carries no action (empty or a '#' comment).
inline bool is_skipped(std::string_view trimmed) { return trimmed.empty() || trimmed.front() == '#'; }
/// Cuts the first field off `rest` (a left-trimmed string) and returns it; leaves `rest` left-trimmed.
std::string_view next_field(std::string_view& rest);
/// The whole token as an int, or nothing (no prefix parsing, no blanks).
std::optional<int> parse_int(std::string_view token);
/// The whole token as a finite double (scientific notation allowed), or nothing.
std::optional<double> parse_double(std::string_view token);

/// The rank a line's first field names; throws TraceError when it is no integer or negative.
int rank_field(const std::string& file, std::uint64_t line, std::string_view text, std::string_view token);

/// Throws TraceError "<file>:<line>: error: <what>\n  <text>".
[[noreturn]] void fail_at(const std::string& file, std::uint64_t line, std::string_view text,
                          std::string_view what);
/// The same, for the line an action comes from.
[[noreturn]] void fail(const Action& at, std::string_view what);

/// "dialect 1 (thesis)", "dialect 2 (SimGrid)" or "SimGrid <= 3.19's format (pre-3.20)".
std::string_view dialect_name(Dialect dialect);
/// The dialect a line belongs to when only one dialect knows its action name, or, for names both
/// dialects share (send, recv, wait), when only one accepts its number of arguments.
std::optional<Dialect> line_dialect(std::string_view name, std::size_t arg_count);

/// The dialect of a file and the line that decided it.
struct DialectGuess {
  Dialect dialect = Dialect::SimGrid;
  std::uint64_t line = 0; ///< the deciding line; 0 when no line decided (dialect 2 by default)
  std::string name;       ///< the action name on that line
};

/// What a pre-scan learnt of a trace file.
struct FileScan {
  DialectGuess dialect;
  std::optional<int> first_rank; ///< rank of the first action line
  std::uint64_t first_line = 0;  ///< its line number
  std::string first_text;        ///< its text, trimmed
  int max_rank = -1;             ///< highest rank seen (AllRanks only)
  std::size_t distinct_ranks = 0; ///< how many different ranks have lines (AllRanks only)
  int first_missing_rank = -1;    ///< the lowest rank below max_rank without a line, -1 if none (AllRanks only)
  std::string compute_unit;      ///< from the comment lines before the first action (see compute_unit())
  bool several_ranks = false;    ///< whether lines of more than one rank were seen
};
enum class ScanDepth : std::uint8_t {
  FirstRank, ///< stop once the first rank is known and the dialect decided
  AllRanks,  ///< read every line (ranks of a merged file)
};
/// Scans a trace file from its start. Throws TraceError on a line whose rank field is not a rank.
FileScan scan_file(const std::string& path, ScanDepth depth);
/// The same on an opened file, from the line it is at (FirstRank stops there, so that the reader can rewind it).
FileScan scan_lines(LineSource& src, ScanDepth depth);

/// Per-rank state of the parser: the default datatype of dialect 2 depends on the rank's `init`.
struct RankState {
  int default_datatype_size = 1; ///< byte; double (8) once `init` had an argument (dialect 2)
  int rank_count = 0;            ///< ranks of the trace set, to check partners; 0 = unknown
  int comm_size = 0;             ///< dialect 1: n of the rank's latest `comm_size <n>` line; 0 = none seen
  std::unordered_map<int, int> comm_sizes; ///< dialect 2 extension: size of each communicator handle (0 unknown)
};
/// The size of the communicator an action acts on: the rank count for MPI_COMM_WORLD, else what the trace
/// declared for its handle (0 when unknown).
int communicator_size_of(const Action& at, const RankState& state);

/// How one action name is read in one dialect.
struct ActionSpec {
  std::string_view name;
  Kind kind;
  std::uint16_t min_args;
  std::uint16_t max_args;  ///< kAnyArgs: no limit
  std::string_view usage;  ///< the arguments, for messages ("<dst> <tag> <count> [dt]")
  void (*parse)(Action& out, RankState& state); ///< fills the typed fields from out.args
};
inline constexpr std::uint16_t kAnyArgs = 0xffff;
/// The actions of a dialect, in the order messages list them.
const std::vector<ActionSpec>& action_specs(Dialect dialect);
const std::vector<ActionSpec>& simgrid_action_specs(); // actions_simgrid.cpp
const std::vector<ActionSpec>& pre320_action_specs();  // actions_simgrid.cpp
const std::vector<ActionSpec>& thesis_action_specs();  // actions_thesis.cpp
/// The spec of `name` in `dialect`, or nullptr.
const ActionSpec* find_action(Dialect dialect, std::string_view name);

// Argument readers for ActionSpec::parse, failing with the action's file, line and text.
int int_arg(const Action& at, std::size_t i, std::string_view what);
/// An element count (or bytes in dialect 1): a number, truncated toward zero, within +-2^63.
double count_arg(const Action& at, std::size_t i, std::string_view what);
/// A non-negative amount (flops, seconds).
double amount_arg(const Action& at, std::size_t i, std::string_view what);
/// Size in bytes of the datatype id in argument i.
int datatype_arg(const Action& at, std::size_t i, std::string_view what);
/// A partner rank: 0 <= p < rank_count (when known), or kAnySource when `any_source_ok`.
int rank_arg(const Action& at, std::size_t i, std::string_view what, const RankState& state,
             bool any_source_ok);
/// Throws the "'<name>' needs <usage>, got N fields" error.
[[noreturn]] void fail_arg_count(const Action& at, const ActionSpec& spec);

// Arguments of collectives. `n` is the communicator size (0 = unknown).
/// An element count (or bytes in dialect 1) that must not be negative, truncated toward zero.
double size_arg(const Action& at, std::size_t i, std::string_view what);
/// Arguments first .. first+n-1 as sizes (see size_arg) into `out`, resized to n (its capacity is reused).
/// Messages name element k as "<what>[k]".
void sizes_arg(const Action& at, std::size_t first, int n, std::string_view what, std::vector<double>& out);
/// Checks that arguments first .. first+n-1 are numbers (displacements: read, not kept).
void numbers_arg(const Action& at, std::size_t first, int n, std::string_view what);
/// The root of a rooted collective: an integer in 0..n-1 (only >= 0 checked when n is unknown).
int root_arg(const Action& at, std::size_t i, int n);
/// `n`, or throws "'<name>' needs the communicator size, which is unknown" when it is unknown.
int known_size(const Action& at, int n);
/// The "'<name>' needs <usage>, got N fields" error, each "x n>" or "x n]" of the usage spelt with the size n:
/// "'alltoallv' needs <sendbufsize> <sendcounts x 4> <recvbufsize> <recvcounts x 4> [dt1 dt2], got 7 fields".
[[noreturn]] void fail_arg_count(const Action& at, const ActionSpec& spec, int n);
/// The spec of an action being parsed (for fail_arg_count).
const ActionSpec& spec_of(const Action& at);

/// Turns the lines of one rank into actions.
class ActionParser {
public:
  ActionParser(const std::string& file, DialectGuess dialect, int rank_count);
  /// Fills the common fields of `out` from a trimmed action line: text, file, line, dialect, rank,
  /// name, args; resets the typed fields. Views point into `text`.
  void split(std::string_view text, std::uint64_t line, Action& out) const;
  /// As split(), for a line a reader wrote itself and so knows cut already (fields joined by single spaces, none
  /// holding a blank): its rank and name are given, and `out.args` holds its arguments (views into `text`).
  void split_fields(std::string_view text, std::uint64_t line, int rank, std::string_view name, Action& out) const;
  /// Fills kind and typed fields of an action split by split(). Throws TraceError.
  void interpret(Action& out);
  /// As interpret(), with `spec` the spec of the action's name when known; found, and set, when null (a reader that
  /// meets the same names again, as a compressed trace's signatures, looks each up once).
  void interpret(Action& out, const ActionSpec*& spec);

private:
  /// split()'s end: the `comm=<h>` extension, and every typed field reset.
  void reset_typed(Action& out) const;
  [[noreturn]] void fail_unknown(const Action& at) const;
  std::string mixing_hint() const;

  const std::string& file_;
  DialectGuess dialect_;
  RankState state_;
};

/// A per-rank file, opened (and scanned) already, read from its first line as the stream of rank `rank`.
/// `rank_origin` ends the rank mismatch message ("" or " (line 4 of trace list 'l.txt')").
std::unique_ptr<RankReader> make_file_reader(std::unique_ptr<LineSource> source, int rank, std::string rank_origin,
                                             DialectGuess dialect, int rank_count);

/// One merged file shared by the streams of all its ranks.
class MergedSource;
std::shared_ptr<MergedSource> make_merged_source(std::string path, int rank_count);
/// Bytes of lines read from the file but not yet taken by their rank (the skew between ranks).
std::size_t merged_backlog(const MergedSource& source);
std::unique_ptr<RankReader> make_merged_reader(std::shared_ptr<MergedSource> source, int rank,
                                               DialectGuess dialect, int rank_count);

} // namespace tit::trace::detail
