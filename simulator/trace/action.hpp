// Typed actions of a time-independent trace. Knows nothing of SimGrid.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tit::trace {

/// The two trace dialects of docs/trace-format.md.
enum class Dialect : std::uint8_t {
  Thesis,  ///< dialect 1: Markomanolis' format (bytes, `Isend`, `waitAll`, no tags)
  SimGrid, ///< dialect 2: what `smpirun -trace-ti` writes (counts x datatype, tags)
};

enum class Kind : std::uint8_t {
  // replayed by the core
  Init,
  Finalize,
  CommSize,
  CommSplit,
  CommDup,
  Compute,
  Sleep,
  Location,
  Send,
  Isend,
  Recv,
  Irecv,
  Wait,
  Test,
  WaitAll,
  SendRecv,
  Barrier,
  // collectives: arguments parsed into the collective fields below
  Bcast,
  Reduce,
  AllReduce,
  AllToAll,
  AllToAllV,
  Gather,
  Scatter,
  AllGather,
  GatherV,
  ScatterV,
  AllGatherV,
  ReduceScatter,
  Scan,
  Exscan,
  // written by tracers but not replayed by SimGrid 3.32: recognised, arguments kept raw
  Ssend,
  Issend,
  Bsend,
  Ibsend,
  Start,
  Startall,
  WaitAny,
  TestAny,
  TestAll,
  TestSome,
  NonBlockingCollective, ///< ibcast, iallreduce, ... (name kept in Action::name)
  // communicators (tit-replay's tracer extension; SimGrid's comm_split/comm_dup carry no arguments)
  CommCreate,
  CommFree,
};

/// A blocking collective (barrier .. exscan).
constexpr bool is_collective(Kind k)
{
  return k >= Kind::Barrier && k <= Kind::Exscan;
}
/// A collective with a root (bcast, reduce, gather(v), scatter(v)).
constexpr bool is_rooted(Kind k)
{
  return k == Kind::Bcast || k == Kind::Reduce || k == Kind::Gather || k == Kind::GatherV || k == Kind::Scatter ||
         k == Kind::ScatterV;
}

/// Name of a kind as dialect 2 spells it (for messages and logs).
std::string_view kind_name(Kind kind);

/// Size in bytes of a datatype id of the SimGrid dialect (0 double, 1 int, ... -1 derived = 0).
/// Returns a negative value for an unknown id.
int datatype_size(int id);

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
  bool wait_last_irecv = false; ///< dialect 1 `wait`: completes the most recent pending Irecv

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
  std::vector<int> group;   ///< comm_create: the members, as ranks of the parent, in group order

  std::vector<std::string_view> args; ///< raw arguments after the name (collectives and not-yet-replayed kinds)
};

} // namespace tit::trace
