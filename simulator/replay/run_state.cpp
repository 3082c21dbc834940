// The run shared by the rank actors: the deadlock report, the collective-order check (every member of a
// communicator calls its collectives in one order) and the first failure.
#include "replay/rank_actor.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace s4u = simgrid::s4u;
using tit::trace::Action;
using tit::trace::Kind;

namespace tit::replay {

std::string RunState::deadlock_report() const
{
  std::string report = "error: the trace deadlocks: no rank can progress. Blocked ranks and their action:";
  for (std::size_t r = 0; r < actors.size(); ++r)
    if (not actors[r]->finished())
      report += fmt::format("\n  rank {} blocked in {}", r, actors[r]->where());
  // A collective some member never reaches: say which ranks ended their trace before it.
  for (auto const& [id, seq] : sequences_) {
    std::size_t furthest = 0;
    for (auto n : seq.next)
      furthest = std::max(furthest, n);
    auto const& members = communicators->get(id).members;
    for (std::size_t i = 0; i < seq.next.size(); ++i) {
      auto r = static_cast<std::size_t>(members[i]);
      if (actors[r]->finished() && seq.next[i] < furthest)
        report += fmt::format("\n  rank {} ended its trace after {} collective(s){}, before collective number {}", r,
                              seq.next[i], id == 0 ? "" : fmt::format(" on communicator {}", id), seq.next[i] + 1);
    }
  }
  if (communicators != nullptr)
    report += communicators->pending();
  // Which outcome the tests took decides which request each later wait takes: say which rule was used.
  if (polled && world != nullptr)
    report += world->params().traced_tests
                  ? "\n  the trace polls (tests or waitAny): they took their traced outcome (tit/traced-tests, the "
                    "default); --cfg=tit/traced-tests:no replays them with the replay's own outcome, as SimGrid's "
                    "replayer"
                  : "\n  the trace polls (tests or waitAny) and --cfg=tit/traced-tests:no gave them the replay's own "
                    "outcome, as SimGrid's replayer: a test that succeeded in the traced run may have failed here and "
                    "left its request to a later wait; the default (tit/traced-tests:yes) takes the traced outcome";
  return report;
}

std::size_t RunState::check_collective(const Communicator& comm, int rank, const Action& a, std::string where)
{
  Kind kind = a.kind;
  int root = a.root;
  auto& seq = sequences_[comm.id];
  if (seq.next.empty())
    seq.next.resize(comm.members.size());
  std::size_t position = seq.next[static_cast<std::size_t>(comm.local_rank(rank))]++;
  bool nonblocking = kind == Kind::NonBlockingCollective;
  bool rooted = trace::is_rooted(nonblocking ? a.blocking : kind);
  std::string name = nonblocking ? "i" + std::string(trace::kind_name(a.blocking)) : std::string(trace::kind_name(kind));
  if (position >= seq.first + seq.calls.size()) {
    seq.calls.push_back({std::move(name), rooted ? root : 0, rooted, rank, std::move(where), 1});
  } else {
    auto& call = seq.calls[position - seq.first];
    if (call.name != name || call.root != (rooted ? root : 0)) {
      auto describe = [](const std::string& n, bool has_root, int r) {
        return has_root ? fmt::format("{} (root {})", n, r) : n;
      };
      throw mpi::MpiError(fmt::format("ranks disagree on their collective number {}{}: rank {} calls {} at {}, rank {} "
                                      "calls {} here",
                                      position + 1, comm.id == 0 ? "" : fmt::format(" on communicator {}", comm.id),
                                      call.rank, describe(call.name, call.rooted, call.root), call.where, rank,
                                      describe(name, rooted, root)));
    }
    call.arrived++;
  }
  while (not seq.calls.empty() && seq.calls.front().arrived == static_cast<int>(comm.members.size())) {
    seq.calls.pop_front();
    seq.first++;
  }
  return position;
}

void RunState::fail(int code, std::string message)
{
  if (exit_code != 0)
    return; // the first error is the one to report
  exit_code = code;
  error = std::move(message);
  s4u::Actor::kill_all();
}

} // namespace tit::replay
