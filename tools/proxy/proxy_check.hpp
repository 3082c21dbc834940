// What `tit-trace proxy` checks before writing a program (docs/proxy.md#errors): a symbolic execution of the
// trace, without time, that finds whether the proxy could wait forever (a message or a collective that never
// comes, a circular rendez-vous, collectives in different orders), as tit-replay would find it.
#pragma once

#include "trace/reader.hpp"

#include <filesystem>
#include <ostream>

namespace tit::tracetool {

/// A trace whose proxy would wait forever: exit 3, as tit-replay's deadlocks.
class ProxyDeadlock : public trace::TraceError {
public:
  explicit ProxyDeadlock(const std::string& what) : trace::TraceError(what, ExitCode::Incomplete) {}
};

/// The protocol rules of the symbolic execution.
struct CheckOptions {
  /// Payload size (bytes) below which a blocking standard send (and an isend's request) completes at once; at or
  /// above it, only once the receive is matched (rendez-vous). tit-replay's default model's rule and threshold
  /// (smpi/send-is-detached-thresh); an MPI library's own eager limit may be lower (Open MPI's shared memory: 4096).
  double detached_thresh;
};

/// What the check also finds out.
struct TraceFacts {
  std::uint64_t actions = 0;
  double bsend_bytes = 0;       ///< the most bytes a rank sends with bsend/ibsend over the run
  std::uint64_t bsend_count = 0;///< and the most bsend/ibsend calls a rank makes
};

/// Runs every rank of the trace set `traces` (dialect 2) action by action: receives complete when matched (in order,
/// by source, tag and communicator, a receive from any source taking the earliest message), blocking standard sends
/// at once below `detached_thresh` and when matched at or above it, Ssend when matched, collectives and communicator
/// creations when every member arrived, waits when their request completed; at the end of its trace a rank waits
/// for its pending requests (as the proxy does). When no rank can advance, it runs again with collectives that let a
/// member leave once the members whose data it receives arrived (docs/proxy.md#collectives): if that deadlocks too,
/// or without a relaxed collective, throws ProxyDeadlock (each blocked rank with its action's file:line and what it
/// waits for); if it completes, warns that the trace relies on such collectives. Throws TraceError for what the
/// proxy cannot run (a wait naming no pending request, ranks disagreeing on a collective, an unknown communicator);
/// warns on `warnings` about messages sent but never received (tit-replay warns too) and messages that a receive
/// from any source could have taken in another order of events (docs/proxy.md#receives-from-any-source).
TraceFacts check_trace(const std::filesystem::path& traces, const CheckOptions& options, std::ostream& warnings);

} // namespace tit::tracetool
