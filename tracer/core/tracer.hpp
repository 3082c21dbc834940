// The tracer's state and the protocol every MPI wrapper follows:
//
//   Scope s;                         // entry: ends the compute burst, writes its `compute` line
//   int rc = PMPI_Xxx(...);          // the real call
//   if (s.on && rc == MPI_SUCCESS) { // traced (initialised, not nested in another traced call)
//     the_tracer.line(name_of(Kind::Send)).num(peer).num(tag)...; the_tracer.end_line(comm);
//   }
//   return rc;                       // exit: the next compute burst starts here
//
// A wrapper describes its action as a record (Line: the action's name and its numbers, in the order the line writes
// them); end_line formats the text line from it for the text file, and hands the record to the compressed file's
// folder, which formats nothing for an action it has seen before (TIT_TRACE_FORMAT=compressed).
//
// One rank = one process; the tracer assumes MPI calls come from one thread at a time
// (MPI_THREAD_SINGLE, FUNNELED or SERIALIZED).
#pragma once

#include "config.hpp"
#include "meter.hpp"
#include "out_file.hpp"

#include "trace/action.hpp" // the trace format's constexpr tables and constants (header only)

#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tsl/robin_map.h>
#include <unordered_map>
#include <vector>

namespace tit::trace::cformat {
class RankCompressor; // compressed/compressed.hpp: TIT_TRACE_FORMAT=compressed
}

namespace tit::tracer {

/// The compressed trace's file name in TIT_TRACE_DIR.
inline constexpr const char* kCompressedFile = "trace.tit";

inline constexpr const char* kVersion = "0.1.0";
/// SimGrid's spelling of the wildcards, as its tracer writes them.
inline constexpr int kTraceAnySource = trace::kAnySource;
inline constexpr int kTraceAnyTag = trace::kAnyTag;
/// Byte datatype id of the trace format: derived types are written as packed bytes of it.
inline constexpr int kByteId = trace::kByteDatatype;

using trace::Kind;
/// The trace format's name of an action kind (trace/action.hpp's constexpr table of literals: a C string,
/// resolved at compile time).
constexpr const char* name_of(Kind kind) { return trace::kind_name(kind).data(); }
/// The name of the nonblocking form of a collective ("ibcast").
constexpr const char* nonblocking_name_of(Kind blocking) { return trace::nonblocking_name(blocking).data(); }

/// A datatype as the trace writes it: a SimGrid id, or bytes of MPI_BYTE for derived types.
struct TypeCode {
  int id = kByteId;
  long long scale = 1; ///< trace count = MPI count x scale (the type size for derived types)
  long long count(long long n) const { return n * scale; }
};

/// A communicator known to the tracer.
struct CommInfo {
  int handle = 0;              ///< 0 = MPI_COMM_WORLD, 1, 2, ... in creation order, -2 = unknown
  int size = 0;
  int my_rank = 0;             ///< this process's rank in the communicator
  std::vector<int> world;      ///< world rank of each member (empty for MPI_COMM_WORLD itself)
  bool self = false;           ///< MPI_COMM_SELF: collectives on it move nothing and are not written
  int world_of(int r) const { return world.empty() ? r : world[static_cast<std::size_t>(r)]; }
};

/// What a wait or test on a request writes, and what MPI_Start replays for a persistent one.
struct ReqInfo {
  int src = 0, dst = 0, tag = 0; ///< the (src, dst, tag) key, world ranks, SimGrid's wildcards
  int comm_handle = 0;           ///< its communicator: the key holds only within it (wait/test write it)
  bool nbc = false;              ///< a nonblocking collective's request
  bool persistent = false;
  bool started = true;           ///< pending: always for others; a persistent one between MPI_Start and its completion
  // persistent requests: the line each MPI_Start writes
  const char* action = nullptr;
  int partner = 0;               ///< world rank (or kTraceAnySource)
  long long count = 0;
  int dt = kByteId;
};

/// Request handles are pointers (Open MPI) or integers (MPICH) with zero low bits or consecutive
/// values: mixed (murmur3's finaliser) before the table takes the low bits.
struct RequestHash {
  std::size_t operator()(MPI_Request r) const noexcept
  {
    std::uint64_t x = std::hash<MPI_Request>{}(r);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return static_cast<std::size_t>(x);
  }
};

/// Builds one trace line's text in a reused buffer (no allocation, no std::string bookkeeping on that path).
class TextLine {
public:
  TextLine() { storage_.resize(256); }
  static_assert(OutFile::kLineCopy <= 256);
  /// Starts a new line with `prefix`.
  void reset(std::string_view prefix)
  {
    len_ = 0;
    append(prefix);
  }
  TextLine& word(std::string_view w)
  {
    char* p = room(w.size() + 1);
    *p = ' ';
    std::memcpy(p + 1, w.data(), w.size());
    len_ += w.size() + 1;
    return *this;
  }
  TextLine& num(long long v)
  {
    char* p = room(24);
    *p = ' ';
    len_ = static_cast<std::size_t>(std::to_chars(p + 1, p + 24, v).ptr - storage_.data());
    return *this;
  }
  /// Ends the line: ` comm=<handle>` unless `comm_handle` is 0 (MPI_COMM_WORLD), ` comm=unknown` for -2, then '\n'.
  void end(int comm_handle)
  {
    if (comm_handle != 0)
      comm(comm_handle);
    *room(1) = '\n';
    ++len_;
  }
  void append(std::string_view bytes)
  {
    std::memcpy(room(bytes.size()), bytes.data(), bytes.size());
    len_ += bytes.size();
  }
  /// The line; its storage stays readable for OutFile::kLineCopy bytes from the start.
  std::string_view view() const { return {storage_.data(), len_}; }

private:
  void comm(int comm_handle);
  std::vector<char> storage_;
  std::size_t len_ = 0;
  char* room(std::size_t n)
  {
    if (len_ + n > storage_.size())
      storage_.resize(2 * (len_ + n));
    return storage_.data() + len_;
  }
};

/// What a wrapper says of its action: the action's name and its numbers, in the order its line writes them, kept as a
/// record of words in a reused buffer: [0] the name's address (a name of trace/action.hpp's tables), [1..n] the
/// numbers, then the communicator's handle (record()). The text line is formatted from it (format()) for the text
/// file, and for the compressed file only when the compressor has not seen the record: equal records give equal lines,
/// which is what the compressed path keys on (RankCompressor::add_record).
class Line {
public:
  Line() : words_(std::make_unique<std::uint64_t[]>(32)), capacity_(32) {}
  void reset(std::string_view action)
  {
    name_ = action;
    words_[0] = reinterpret_cast<std::uintptr_t>(action.data());
    n_ = 1;
  }
  Line& num(long long v)
  {
    if (n_ + 1 >= capacity_) // room for this number and the communicator's handle
      grow();
    words_[n_++] = static_cast<std::uint64_t>(v);
    return *this;
  }
  /// The record of the action on the communicator whose handle is `comm_handle` (as Tracer::end_line takes it).
  std::span<const std::uint64_t> record(int comm_handle)
  {
    words_[n_] = static_cast<std::uint64_t>(static_cast<std::int64_t>(comm_handle));
    return {words_.get(), n_ + 1};
  }
  /// The first number (a compute's volume).
  long long first() const { return static_cast<long long>(words_[1]); }
  /// The text line: `prefix`, the name, the numbers, then TextLine::end(comm_handle).
  void format(TextLine& text, std::string_view prefix, int comm_handle) const;

private:
  void grow();
  std::string_view name_;
  std::unique_ptr<std::uint64_t[]> words_;
  std::size_t capacity_;
  std::size_t n_ = 1;
};

class Tracer {
public:
  Tracer() = default;
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;
  bool active = false; ///< between MPI_Init and MPI_Finalize
  int depth = 0;       ///< > 0 inside a traced call: nested MPI calls are not traced
  int rank = 0, size = 0;
  Config config;
  /// Fortran MPI routines the program imports that no line of the trace will show (untraced.hpp): said in the header
  std::vector<std::string> untraced;
  /// Calls of the C routines the tracer passes through untraced (wrappers/wrap_untraced.cpp), per name: said at the
  /// end of the trace
  std::vector<std::pair<const char*, long>> untraced_calls;
  void count_untraced(const char* name)
  {
    for (auto& [n, c] : untraced_calls)
      if (n == name) {
        ++c;
        return;
      }
    untraced_calls.emplace_back(name, 1);
  }
  Meter meter;
  OutFile trace, timings;
  double t0 = 0;             ///< wall clock at MPI_Init (timings origin)
  std::int64_t last_exit = 0; ///< meter reading (counts) when the previous MPI call returned
  double last_exit_wall = 0; ///< wall clock then (timings only)
  double enter_wall = 0;     ///< wall clock when the current call started (timings only)
  double min_volume = 0;     ///< bursts below this volume are not written

  /// Starts tracing after PMPI_Init succeeded; stops the run on any error.
  void start();
  /// Writes `finalize`, closes the files; with the compressed format, merges every rank's along a tree and rank 0
  /// writes it (before PMPI_Finalize).
  void finish();
  /// Flushes what is buffered, adds an "incomplete" comment; for MPI_Abort, exit and fatal signals.
  void emergency_flush(const char* why) noexcept;

  bool enter();
  void leave(bool traced);

  /// Starts the record of an action (`action`: a name of trace/action.hpp's tables, e.g. name_of(Kind::Send)).
  Line& line(std::string_view action);
  /// Appends ` comm=<handle>` unless `c` is MPI_COMM_WORLD, ends the line, writes it.
  void end_line(const CommInfo* c = nullptr) { end_line(c != nullptr ? c->handle : 0); }
  /// The same for a communicator known by its handle (a request's, recorded when it was posted).
  void end_line(int comm_handle);

  TypeCode type(MPI_Datatype t);
  CommInfo* comm(MPI_Comm c);
  /// Registers a communicator obtained by this rank (the next handle), or -1 for MPI_COMM_NULL.
  int add_comm(MPI_Comm c);
  void remove_comm(MPI_Comm c);
  /// A peer's world rank for the trace (MPI_ANY_SOURCE -> -333).
  int peer(const CommInfo& c, int r) const { return r == MPI_ANY_SOURCE ? kTraceAnySource : c.world_of(r); }
  static int tag(int t) { return t == MPI_ANY_TAG ? kTraceAnyTag : t; }

  /// The requests this rank has open, by handle. An open-addressing table: every nonblocking call
  /// adds one and every completion removes it, so no allocation per request.
  tsl::robin_map<MPI_Request, ReqInfo, RequestHash> requests;
  /// Open MPI returns one preallocated request for every send it completes at once (ob1's inline sends of small
  /// messages), so an open handle may name several requests: the table holds the newest, this the older ones,
  /// oldest first; a completion of the handle takes the oldest (MPI cannot tell which one a program meant).
  std::unordered_map<MPI_Request, std::deque<ReqInfo>> shared_requests;

  /// Records a nonblocking call's request (not a persistent one: those have handles of their own).
  void add_request(MPI_Request h, const ReqInfo& info)
  {
    auto it = requests.find(h);
    if (it != requests.end() && !it->second.persistent)
      shared_requests[h].push_back(it->second);
    requests[h] = info;
  }

  /// Drops the oldest of the requests a shared handle names; false when the handle names one request only (the
  /// table's entry, left to the caller).
  bool drop_shared(MPI_Request h)
  {
    auto shared = shared_requests.find(h);
    if (shared == shared_requests.end())
      return false;
    shared->second.pop_front();
    if (shared->second.empty())
      shared_requests.erase(shared);
    return true;
  }

  [[noreturn]] void fatal(const std::string& message);

private:
  Line line_;
  TextLine text_;
  std::string rank_prefix_; ///< "<rank> ", the start of every line
  std::string row_;
  const char* action_ = nullptr;
  std::unordered_map<MPI_Comm, CommInfo> comms_;
  CommInfo* world_ = nullptr;
  MPI_Comm last_comm_ = MPI_COMM_NULL;
  CommInfo* last_info_ = nullptr;
  std::unordered_map<MPI_Datatype, TypeCode> types_;
  MPI_Datatype last_type_ = MPI_DATATYPE_NULL;
  TypeCode last_code_;
  int next_comm_ = 1;
  bool unknown_comm_noted_ = false;
  /// TIT_TRACE_FORMAT=compressed: this rank's actions folded as they are written
  std::unique_ptr<trace::cformat::RankCompressor> compressor_;
  MPI_Comm merge_comm_ = MPI_COMM_NULL; ///< a duplicate of MPI_COMM_WORLD for the merge at MPI_Finalize
  std::string compute_unit_;            ///< what the compute volumes count, for the compressed file
  std::string lost_note_;               ///< what emergency_flush says of the compressed trace (preformatted)
  /// `binned:R`: consecutive computes are summed before they are binned, as `tit-trace compress` sums them
  /// (GapNormaliser without zeros): the sum of the computes not yet handed to the compressor, and whether there is one;
  /// as there, a sum past the range of long long is the sum of the volumes as doubles
  bool join_computes_ = false;
  bool compute_pending_ = false;
  bool compute_sum_integer_ = true;
  long long compute_sum_ = 0;
  double compute_sum_real_ = 0;
  /// Hands the pending compute sum to the compressor as one `compute` line.
  void flush_compute();

  /// Hands the action being written to the compressor: its record, and its text when the compressor does not know the
  /// record.
  void compress_line(int comm_handle);
  /// The binomial-tree merge of the ranks' compressed traces; rank 0 writes the file.
  void merge_compressed();

  /// Writes the action being built: its text line to the text file, its record to the compressor.
  void write_line(int comm_handle);
  void write_header();
  void timing_row(long long line, const char* action, double start, double end);
  void init_types();
  /// TIT_TRACE_FORMAT=compressed: the compressor, the merge communicator (collective: at MPI_Init on every rank).
  void start_compressed();
  /// Size, this rank's rank and the world rank of each member of an intracommunicator (nothing
  /// for an intercommunicator); the handle is left to the caller.
  static CommInfo describe(MPI_Comm c);
};

extern Tracer the_tracer;

/// RAII entry/exit of a wrapper (see the top of this file).
struct Scope {
  bool on;
  Scope() : on(the_tracer.enter()) {}
  ~Scope() { the_tracer.leave(on); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
};

} // namespace tit::tracer
