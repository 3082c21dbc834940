// The writer of time-independent traces: a typed action back to a line of either dialect, from its typed
// fields (never from Action::text). What the writer writes, the reader reads back into the same typed
// action (tests/unit/trace_conformance_test.cpp). Knows nothing of SimGrid.
#pragma once

#include "trace/action.hpp"
#include "trace/reader.hpp" // TraceError

#include <optional>
#include <string>
#include <string_view>

namespace tit::trace {

/// The name of an action of `kind` in `dialect` ("allReduce" in dialect 1, "allreduce" in dialect 2; for a
/// nonblocking collective, `blocking` names the collective: "iallreduce"), or nothing when the dialect has
/// no such action.
std::optional<std::string_view> action_name(Kind kind, Dialect dialect, Kind blocking = Kind::Init);

/// The name outputs (timelines, analysis) show for an action: its name as read (Action::name), or, for an
/// action a reader built without one (a compressed trace), its kind's name in its dialect.
std::string_view display_name(const Action& action);

/// Appends the line of `action` in `dialect` to `out`, without a newline: "<rank> <name> <arguments>".
///
/// Sizes are written as element counts of an explicit datatype, so that the line does not depend on the
/// default datatype its rank's `init` chooses: the datatype of Action::datatype_size where the reader takes it
/// from the line (bcast, reduce, allreduce, scan, exscan, gather, scatter, allgatherv, reducescatter; the
/// first datatype of a pair), bytes of MPI_BYTE (id 6) elsewhere. Optional arguments (roots, datatypes) are
/// always written; displacements (dialect 1) are those of contiguous buffers. The kinds kept raw by the
/// reader (init, location, waitall, Start, Startall, waitAny, testany, testall, testsome) are written with
/// their arguments as read.
///
/// Throws TraceError ("<file>:<line>: error: ...\n  <text>" when the action has a file, else "error: ...")
/// when `dialect` cannot say the action: dialect 1 has no tags, no sleep, no communicators, no wait on a
/// named request and no nonblocking collectives; dialect 2 has no wait on the last Irecv. tit-convert
/// translates those before writing. Dialect::Pre320 is only read, never written.
void append_action(std::string& out, const Action& action, Dialect dialect);

/// The line of `action` in `dialect` (see append_action).
std::string format_action(const Action& action, Dialect dialect);

/// Appends the arguments of `action` in `dialect` (the line without its rank and name, no leading blank)
/// to `out`; what outputs (timelines, logs) print beside the action's name.
void append_arguments(std::string& out, const Action& action, Dialect dialect);

} // namespace tit::trace
