// What `tit-trace proxy` checks before writing a program (docs/proxy.md#errors): that the trace's messages and
// collectives balance, so that the proxy cannot wait forever for a message or a collective that never comes.
// Counting, not replaying: an order that deadlocks (a circular rendez-vous) is not found here.
#pragma once

#include "trace/reader.hpp"

#include <ostream>

namespace tit::tracetool {

/// A trace whose proxy would wait forever: exit 3, as tit-replay's deadlocks.
class ProxyDeadlock : public trace::TraceError {
public:
  using trace::TraceError::TraceError;
};

/// What the balance pass also finds out.
struct TraceFacts {
  std::uint64_t actions = 0;
  double bsend_bytes = 0;       ///< the most bytes a rank sends with bsend/ibsend over the run
  std::uint64_t bsend_count = 0;///< and the most bsend/ibsend calls a rank makes
};

/// Reads every rank of `set` once. Throws ProxyDeadlock when a rank receives more messages from a rank with a
/// tag than that rank sends it (receives from any source counted against what is left), or when the ranks make
/// different numbers of collectives on MPI_COMM_WORLD; warns on `warnings` about messages sent but never received
/// (tit-replay warns too).
TraceFacts check_balance(trace::TraceSet& set, std::ostream& warnings);

} // namespace tit::tracetool
