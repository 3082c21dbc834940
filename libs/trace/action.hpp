// Typed actions of a time-independent trace. Knows nothing of SimGrid.
#pragma once

#include "trace/kinds.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tit::trace {

/// The two trace dialects of docs/trace-format.md, and SimGrid <= 3.19's format, which only tit-trace convert reads.
enum class Dialect : std::uint8_t {
  Thesis,  ///< dialect 1: Markomanolis' format (bytes, `Isend`, `waitAll`, no tags)
  SimGrid, ///< dialect 2: what `smpirun -trace-ti` writes (counts x datatype, tags)
  Pre320,  ///< SimGrid <= 3.19 (dialect 1's names, counts x datatype, no tags, `wait` pops the most recent request):
           ///< never detected, read only when asked (TraceSet::open's `read_as`; `tit-trace convert --from pre3.20`)
};

namespace detail {

// Header-only constexpr tables, so that the tracer (a preloaded library) uses them without linking tit-trace
// and without a cost per call.

/// Sizes of SimGrid 3.32's datatype ids 0..59 on x86_64 (id -1, a derived type, is replayed as 0 bytes): the
/// one datatype table of the project (reader, writer, tit-convert, tracer).
inline constexpr std::array<int, 60> kDatatypeSizes = {
    8,  4, 1, 2, 8,  4,  1,  8,  1, 1,  // 0 double .. 9 unsigned char
    2,  4, 8, 8, 16, 4,  1,  1,  2, 4,  // 10 unsigned short .. 19 int32
    8,  1, 2, 4, 8,  8,  16, 32, 8, 8,  // 20 int64 .. 29 offset
    8,  16, 16, 8, 8, 8, 16, 16, 4, 4,  // 30 float_int .. 39 real4
    8,  16, 8, 16, 16, 4, 2, 4, 8, 16,  // 40 real8 .. 49 integer16
    32, 1, 8, 16, 32, 0, 0, 1, 8, 8,    // 50 long_double_int .. 59 count
};

/// Dialect 2's names of the nonblocking forms of the collectives barrier .. exscan, in Kind order.
inline constexpr std::array<std::string_view, 15> kNonblockingNames = {
    "ibarrier",   "ibcast",  "ireduce",    "iallreduce",  "ialltoall",      "ialltoallv", "igather", "iscatter",
    "iallgather", "igatherv", "iscatterv", "iallgatherv", "ireducescatter", "iscan",      "iexscan",
};

} // namespace detail

/// Name of the nonblocking form of the collective `blocking` in dialect 2 ("ibcast"); empty for another kind.
/// Both names are views of string literals, so their data() is a C string.
constexpr std::string_view nonblocking_name(Kind blocking)
{
  if (blocking < Kind::Barrier || blocking > Kind::Exscan)
    return {};
  return detail::kNonblockingNames[static_cast<std::size_t>(blocking) - static_cast<std::size_t>(Kind::Barrier)];
}

/// Size in bytes of a datatype id of the SimGrid dialect (0 double, 1 int, ... -1 derived = 0).
/// Returns a negative value for an unknown id.
constexpr int datatype_size(int id)
{
  if (id == -1)
    return 0;
  if (id < 0 || id >= static_cast<int>(detail::kDatatypeSizes.size()))
    return -1;
  return detail::kDatatypeSizes[static_cast<std::size_t>(id)];
}
/// The datatype id the writer uses for elements of `size` bytes: MPI_BYTE (6) for 1, MPI_DOUBLE (0) for 8,
/// MPI_INT (1) for 4, otherwise the lowest id of that size; -1 (derived) for 0; nothing for a size no id has.
std::optional<int> datatype_id_of_size(int size);
/// MPI_BYTE's id (the unit in which the writer gives byte counts).
inline constexpr int kByteDatatype = 6;

/// Marker for "size unknown, take the sender's" on a receive.
inline constexpr double kUnknownSize = -1.0;
/// Source rank meaning MPI_ANY_SOURCE in SimGrid traces.
inline constexpr int kAnySource = -333;
/// MPI_ANY_TAG as SimGrid writes it: refused on point-to-point lines (receives from any tag are not replayed).
inline constexpr int kAnyTag = -444;

/// One action of one rank. Reused by the reader between calls: string views stay valid only until the
/// next call to RankReader::next().
struct Action {
  Kind kind = Kind::Init;
  Dialect dialect = Dialect::SimGrid;
  int rank = 0;             ///< rank performing the action (first field of the line)
  std::string_view name;    ///< action name as written in the trace
  std::string_view text;    ///< the whole line, trimmed
  std::uint64_t line = 0;   ///< 1-based line number in `file`
  const std::string* file = nullptr; ///< path of the file the line comes from (owned by the reader)

  // Point-to-point (send, isend, recv, irecv) and sendRecv
  int partner = -1;         ///< send/isend: destination; recv/irecv: source (kAnySource allowed); sendRecv: destination
  int partner2 = -1;        ///< sendRecv: source
  int tag = 0;              ///< dialect 1 has no tags: 0
  double bytes = 0;         ///< payload in bytes (count x datatype size, truncated count); kUnknownSize on a receive
  double bytes2 = 0;        ///< sendRecv: bytes received

  // wait / test (dialect 2): the request key, world ranks
  int src = -1;
  int dst = -1;
  bool wait_last_irecv = false; ///< a `wait` (or pre-3.20 `test`) naming no request: dialect 1's completes the most
                                ///< recent pending Irecv, pre-3.20's the most recent pending request of either kind

  double amount = 0;        ///< compute: flops; sleep: seconds; comm_size: the size;
                            ///< reductions (reduce, allreduce, reducescatter, scan, exscan): flops of the reduction

  // Collectives (filled for every collective kind; sizes in bytes, counts already multiplied by their datatype)
  int root = 0;             ///< rooted collectives (bcast, reduce, gather(v), scatter(v)); 0 when not given
  // bytes:  bcast/reduce/allreduce/scan/exscan: the buffer; alltoall/gather/scatter/allgather(v)/gatherv: sent
  //         per destination (for gatherv/allgatherv: this rank's contribution)
  // bytes2: alltoall/gather/scatter/allgather/scatterv: received per source
  double datatype_size = 1;        ///< collectives: size in bytes of the (first) datatype, for algorithm choices
                                   ///< made on element counts (0 for a derived type)
  std::vector<double> send_counts; ///< alltoallv, scatterv: bytes sent to each rank (size = communicator size)
  std::vector<double> recv_counts; ///< alltoallv, gatherv, allgatherv, reducescatter: bytes received from / kept by
                                   ///< each rank (size = communicator size)

  Kind blocking = Kind::Init; ///< NonBlockingCollective: the collective it is the nonblocking form of

  // Communicators (extension): handles are local to a rank, 0 = MPI_COMM_WORLD, -1 = MPI_COMM_NULL.
  int comm = 0;             ///< the communicator the line acts on (`comm=<h>` token; the parent for comm_*)
  int new_comm = -1;        ///< comm_split/comm_dup/comm_create: the handle created; -1 none (or no arguments)
  bool comm_args = false;   ///< comm_split/comm_dup: arguments given (SimGrid writes none: then no effect)
  int color = 0;            ///< comm_split (-1: MPI_UNDEFINED)
  int key = 0;              ///< comm_split
  int new_size = 0;         ///< comm_split: the new communicator's size, when given (fifth argument); 0 not given
  std::vector<int> group;   ///< comm_create: the members, as ranks of the parent, in group order

  std::vector<std::string_view> args; ///< raw arguments after the name (collectives and not-yet-replayed kinds)
};

/// The name outputs group actions by: the name of its kind as dialect 2 spells it, whatever the dialect or spelling
/// it was read in (dialect 1's `Isend` and dialect 2's `isend` are both "isend"), a nonblocking collective's own
/// name ("ibcast"). Action::name, as written, is for quoting the line.
constexpr std::string_view canonical_name(const Action& action)
{
  return action.kind == Kind::NonBlockingCollective ? nonblocking_name(action.blocking) : kind_name(action.kind);
}

} // namespace tit::trace
