// The action kinds of the trace model and their traits: one constexpr table that every switch on a kind consults
// (what a kind moves, whether it posts a request, how it sends, how outputs group it), instead of lists of kinds
// copied into each reader, writer and replay file. Header only, constexpr: the tracer uses it without linking.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tit::trace {

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
  // collectives: arguments parsed into the collective fields of Action
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
  // written by tracers but not replayed by SimGrid 3.32
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

inline constexpr std::size_t kKindCount = static_cast<std::size_t>(Kind::CommFree) + 1;

/// What a kind does, in the classes the readers, writers, replay and outputs tell apart.
enum class Group : std::uint8_t {
  Lifecycle,             ///< init, finalize, comm_size, location: mark the run, move nothing
  Communicator,          ///< comm_split, comm_dup, comm_create, comm_free
  Local,                 ///< compute, sleep: the rank's own time
  Message,               ///< one message to or from one partner with a tag: send, recv and their variants
  SendRecv,              ///< a send and a receive at once
  Completion,            ///< wait, test and their all/any/some forms: complete posted requests
  Collective,            ///< barrier .. exscan (blocking)
  NonBlockingCollective, ///< ibcast, ... (completed by a Completion)
  Persistent,            ///< Start, Startall: start persistent requests
};

/// How a send hands its message over (MPI_Send, MPI_Ssend, MPI_Bsend).
enum class SendMode : std::uint8_t { Standard, Synchronous, Buffered };

struct KindTraits {
  std::string_view name;  ///< as dialect 2 spells it
  Group group;
  bool sends = false;       ///< Message: a send (else a receive)
  bool nonblocking = false; ///< posts a request that a Completion completes
  SendMode mode = SendMode::Standard;
  bool rooted = false;      ///< a collective with a root (bcast, reduce, gather(v), scatter(v))
  bool completes_one = false; ///< Completion: names one request (wait, test); the others take a set
  std::string_view category = "other"; ///< how timelines group it: compute, p2p, wait, collective, other
  bool polls = false; ///< Completion: may return before its requests complete (test, testany, testall, testsome)
};

namespace detail {

constexpr KindTraits lifecycle(std::string_view n) { return {n, Group::Lifecycle}; }
constexpr KindTraits communicator(std::string_view n) { return {n, Group::Communicator}; }
constexpr KindTraits local(std::string_view n) { return {n, Group::Local, false, false, {}, false, false, "compute"}; }
constexpr KindTraits message(std::string_view n, bool sends, bool nonblocking, SendMode mode = SendMode::Standard)
{
  return {n, Group::Message, sends, nonblocking, mode, false, false, "p2p"};
}
constexpr KindTraits completion(std::string_view n, bool one, bool polls)
{
  return {n, Group::Completion, false, false, {}, false, one, "wait", polls};
}
constexpr KindTraits collective(std::string_view n, bool rooted = false)
{
  return {n, Group::Collective, false, false, {}, rooted, false, "collective"};
}

/// Indexed by Kind; kinds_in_order() below checks at compile time that the rows follow the enum.
inline constexpr std::array<KindTraits, kKindCount> kKindTraits = {{
    lifecycle("init"),
    lifecycle("finalize"),
    lifecycle("comm_size"),
    communicator("comm_split"),
    communicator("comm_dup"),
    local("compute"),
    local("sleep"),
    lifecycle("location"),
    message("send", true, false),
    message("isend", true, true),
    message("recv", false, false),
    message("irecv", false, true),
    completion("wait", true, false),
    completion("test", true, true),
    completion("waitall", false, false),
    {"sendRecv", Group::SendRecv, false, false, {}, false, false, "p2p"},
    collective("barrier"),
    collective("bcast", true),
    collective("reduce", true),
    collective("allreduce"),
    collective("alltoall"),
    collective("alltoallv"),
    collective("gather", true),
    collective("scatter", true),
    collective("allgather"),
    collective("gatherv", true),
    collective("scatterv", true),
    collective("allgatherv"),
    collective("reducescatter"),
    collective("scan"),
    collective("exscan"),
    message("Ssend", true, false, SendMode::Synchronous),
    message("ISsend", true, true, SendMode::Synchronous),
    message("bsend", true, false, SendMode::Buffered),
    message("ibsend", true, true, SendMode::Buffered),
    {"Start", Group::Persistent},
    {"Startall", Group::Persistent},
    completion("waitAny", false, false),
    completion("testany", false, true),
    completion("testall", false, true),
    completion("testsome", false, true),
    {"nonblocking collective", Group::NonBlockingCollective, false, true, {}, false, false, "collective"},
    communicator("comm_create"),
    communicator("comm_free"),
}};

constexpr bool kinds_in_order()
{
  // The collectives are contiguous (is_collective) and named as the enum says at both ends of each block.
  auto at = [](Kind k) { return kKindTraits[static_cast<std::size_t>(k)]; };
  return at(Kind::Init).name == "init" && at(Kind::Send).name == "send" && at(Kind::WaitAll).name == "waitall" &&
         at(Kind::Barrier).name == "barrier" && at(Kind::Exscan).name == "exscan" && at(Kind::Ssend).name == "Ssend" &&
         at(Kind::Ibsend).name == "ibsend" && at(Kind::TestSome).name == "testsome" &&
         at(Kind::CommFree).name == "comm_free";
}
static_assert(kinds_in_order(), "kKindTraits rows must follow the order of Kind");

} // namespace detail

/// The traits of `kind`.
constexpr const KindTraits& traits(Kind kind)
{
  return detail::kKindTraits[static_cast<std::size_t>(kind)];
}

/// A blocking collective (barrier .. exscan).
constexpr bool is_collective(Kind k)
{
  return traits(k).group == Group::Collective;
}
/// A collective with a root (bcast, reduce, gather(v), scatter(v)).
constexpr bool is_rooted(Kind k)
{
  return traits(k).rooted;
}
/// One message to or from one partner (send, isend, recv, irecv, and the synchronous and buffered sends).
constexpr bool is_message(Kind k)
{
  return traits(k).group == Group::Message;
}
/// Moves data between two ranks: a message, a sendRecv, or the start of persistent requests.
constexpr bool is_point_to_point(Kind k)
{
  auto g = traits(k).group;
  return g == Group::Message || g == Group::SendRecv || g == Group::Persistent;
}

/// A test of requests (test, testany, testall, testsome): a rank that calls it in a loop polls.
constexpr bool is_test(Kind k)
{
  return traits(k).polls;
}

/// Name of a kind as dialect 2 spells it (for messages and logs; the tracer's lines).
constexpr std::string_view kind_name(Kind kind)
{
  auto i = static_cast<std::size_t>(kind);
  return i < kKindCount ? detail::kKindTraits[i].name : std::string_view("?");
}

} // namespace tit::trace
