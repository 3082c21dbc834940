// The state of the symbolic execution of a trace (proxy_check.cpp): requests, messages and receives not yet matched,
// communicators with their collectives in progress, and each rank's place in its trace. Internal to tools/proxy.
#pragma once

#include "proxy_races.hpp"

#include "trace/message_key.hpp"
#include "trace/reader.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace tit::tracetool::proxy_state {

/// Whose arrival a member of a collective needs under the data-dependency rule.
enum class Needs : std::uint8_t { All, Root, Nobody, Lower };

/// A request: a point-to-point call's (blocking calls make one too) or a collective's.
struct Req {
  enum class Type : std::uint8_t { Send, Recv, Coll } type = Type::Send;
  int src = 0, dst = 0, tag = 0; ///< the key a wait names (world ranks; collectives -333 -333 -1)
  std::uint32_t comm = 0;        ///< global communicator id
  int handle = 0;                ///< that communicator as the posting rank's trace names it (`comm=H`)
  std::uint64_t seq = 0;         ///< Coll: the collective's number on comm
  double bytes = 0;              ///< Send: the payload
  bool complete = false;         ///< Send, Recv: matched (or a detached send)
  bool tested = false;           ///< completed by a test: kept named for a later wait, as the proxy keeps it
  bool learned = false;          ///< Recv: its rank knows it completed (its clock merged)
  Needs needs = Needs::All;      ///< Coll: whose arrival it needs under the data-dependency rule
  int member = 0, root = 0;      ///< Coll: the requester's and the root's rank in the communicator
  Clock clock;                   ///< Recv: the clock of the message it took, merged into its rank's when learned
  AnySourceReceive* wild = nullptr; ///< Recv from any source: its record (proxy_races.hpp)
  /// The key a wait or test line names it by (trace::named_request).
  trace::MessageKey key() const { return {handle, src, dst, tag}; }
};

/// A request of `type` with its key (src, dst, tag), its communicator, its collective number (`seq`), its payload and
/// whether it is already complete.
inline Req make_req(Req::Type type, int src, int dst, int tag, std::uint32_t comm, std::uint64_t seq, double bytes,
                    bool complete)
{
  Req x;
  x.type = type;
  x.src = src;
  x.dst = dst;
  x.tag = tag;
  x.comm = comm;
  x.seq = seq;
  x.bytes = bytes;
  x.complete = complete;
  return x;
}

/// A message not yet received, or a receive not yet matched, in the order they were posted.
struct Posted {
  int peer = 0;          ///< the source (kAnySource for a receive from any source) or, for a message, its sender
  int tag = 0;
  std::uint32_t req = 0; ///< kNone: a detached message nobody waits for
  std::uint64_t post = 0;   ///< a receive: its number among its rank's receives
  std::uint32_t known = 0;  ///< a message: what its sender knew of the receiver's clock
  Clock clock;              ///< a message: its sender's clock
  const std::string* file = nullptr; ///< a message: where it was sent
  std::uint64_t line = 0;
};

struct Comm {
  std::vector<int> members; ///< world ranks in the communicator's order
  /// Collectives not every member reached yet, from number `first` on.
  struct Call {
    std::string name;
    int root = 0;
    int rank = 0;        ///< the first rank that arrived, and where
    std::string where;
    std::size_t arrived = 0;
    std::vector<std::tuple<int, int, int, int>> created; ///< comm_split/dup/create: (rank, color, key, handle)
    Clock merged, root_clock;  ///< the clocks of the members arrived, and the root's (blocking collectives)
    bool root_arrived = false;
  };
  std::deque<Call> calls;
  std::uint64_t first = 0;
  std::unordered_map<int, std::uint64_t> next; ///< world rank -> the number of its next collective here
};

struct Rank {
  std::unique_ptr<trace::RankReader> reader;
  trace::Action a;
  bool has_action = false, started = false, at_end = false, finished = false;
  std::vector<std::uint32_t> pending; ///< its requests, oldest first
  /// Its buffered messages at or above the threshold: MPI_Buffer_detach, at the proxy's end, waits for them.
  std::vector<std::uint32_t> buffered;
  std::vector<std::uint32_t> waits;   ///< what the current action waits for
  bool wait_any = false;
  bool temporary = false;             ///< the waited requests belong to the action (a blocking call), not to pending
  std::unordered_map<int, std::uint32_t> handles{{0, 0}}; ///< the trace's communicator handles -> global ids
  double bsend_bytes = 0;
  std::uint64_t bsend_count = 0;
  std::uint64_t unnamed = 0;  ///< waits and tests naming no pending request
  std::string first_unnamed; ///< the first of them
  std::uint64_t receives = 0; ///< receives posted
};

} // namespace tit::tracetool::proxy_state
