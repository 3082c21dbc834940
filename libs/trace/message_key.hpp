// A message's identity as a trace names it, and the one rule that says which request a `wait` or `test`
// line names. Used by the replay (its requests and its look-ahead), by tit-trace proxy's checker, and
// mirrored line for line by the proxy's C runtime (tools/proxy/proxy_runtime.inc, tp_find).
#pragma once

#include "trace/action.hpp"
#include "trace/kinds.hpp"

#include <cstddef>

namespace tit::trace {

/// (communicator, source, destination, tag): what MPI matches a message by, and what a wait or test line
/// names its request by. Ranks are world ranks; `src` is kAnySource for a receive from any source. `comm` is
/// 0 for MPI_COMM_WORLD, else, in a trace's requests, the rank's own handle of the communicator as the trace
/// writes it (`comm=H`), and in the simulated MPI library's channels the communicator's matching context.
struct MessageKey {
  int comm = 0;
  int src = 0;
  int dst = 0;
  int tag = 0;
  bool operator==(const MessageKey&) const = default;
  /// The same message but for the communicator (traces that name none on their wait lines).
  bool same_but_comm(const MessageKey& o) const { return src == o.src && dst == o.dst && tag == o.tag; }
};

/// The key rank `rank` gives the request a send or receive line posts (isend, irecv, and the blocking forms).
inline MessageKey posted_key(const Action& a, int rank)
{
  return traits(a.kind).sends ? MessageKey{a.comm, rank, a.partner, a.tag} : MessageKey{a.comm, a.partner, rank, a.tag};
}

/// The key a `wait` or `test` line names (dialect 2; dialect 1's `wait` names none: Action::wait_last_irecv).
inline MessageKey named_key(const Action& a) { return MessageKey{a.comm, a.src, a.dst, a.tag}; }

/// Whether a line naming `named` may mean the request of key `key` (rules 1 and 2 below, without their order):
/// the look-ahead asks it of the lines after a test.
inline bool may_name(const MessageKey& named, const MessageKey& key)
{
  return named == key || (named.comm == 0 && named.same_but_comm(key));
}

/// Which of a rank's requests a wait or test naming `named` means, among `reqs` in the order the caller keeps
/// them (the replay keeps SMPI's: posting order, a tested request put back behind the others; the proxy keeps
/// MPI's: posting order, requests a test completed behind the pending ones). The first one:
///  1. whose key is `named`;
///  2. else, for a line on MPI_COMM_WORLD, with the same source, destination and tag on any communicator:
///     SimGrid's traces and our tracer's before it wrote `comm=` on wait lines name no communicator;
///  3. else, for a negative tag, the first nonblocking collective: SimGrid's tracer names their requests with
///     communicator ranks taken as world ranks and a tag of its own, always negative.
/// Returns reqs.size() when no request is named: the line then waits for nothing (SMPI returns at once).
template <typename Requests, typename KeyOf, typename IsCollective>
std::size_t named_request(const Requests& reqs, const MessageKey& named, KeyOf key_of, IsCollective is_collective)
{
  auto first = [&](auto&& pred) {
    std::size_t i = 0;
    for (auto const& r : reqs) {
      if (pred(r))
        return i;
      ++i;
    }
    return i;
  };
  std::size_t i = first([&](auto const& r) { return key_of(r) == named; });
  if (i == reqs.size() && named.comm == 0)
    i = first([&](auto const& r) { return key_of(r).same_but_comm(named); });
  if (i == reqs.size() && named.tag < 0)
    i = first([&](auto const& r) { return is_collective(r); });
  return i;
}

} // namespace tit::trace
