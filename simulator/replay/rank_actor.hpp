// The actor of one rank: reads its actions and executes them on the simulated MPI library.
#pragma once

#include "colls/colls.hpp"
#include "mpi/world.hpp"
#include "replay/communicators.hpp"
#include "replay/lookahead.hpp"
#include "replay/replayer.hpp"
#include "replay/warnings.hpp"
#include "timeline/observer.hpp"
#include "trace/reader.hpp"

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <unordered_map>
#include <ostream>
#include <string>
#include <vector>

namespace tit::replay {

class RankActor;

/// Shared by every rank actor of a run.
struct RunState {
  mpi::World* world = nullptr;
  Communicators* communicators = nullptr;
  colls::Selector selector{};
  std::vector<RankActor*> actors;
  std::ostream* actions_log = nullptr;
  timeline::Observer* observer = nullptr; ///< timeline outputs and analysis, if any
  bool merge_computations = false;
  bool polled = false; ///< some rank replayed a test (test, testany/all/some) or a waitAny: its outcome may be traced
  int exit_code = 0;
  std::string error;
  Warnings warnings;
  void fail(int code, std::string message);
  /// Every unfinished rank with the action it is blocked in.
  std::string deadlock_report() const;

  /// Checks that `rank`'s next collective on `comm` is the one the other members called at that position (same
  /// kind, same root); throws mpi::MpiError naming both ranks' lines otherwise. Returns that position.
  std::size_t check_collective(const Communicator& comm, int rank, const trace::Action& a, std::string where);

private:
  struct CollectiveCall {
    std::string name;  ///< kind name, with an i for nonblocking ones
    int root;
    bool rooted;
    int rank;          ///< the first rank that reached it
    std::string where; ///< its file:line
    int arrived;
  };
  /// The collectives of one communicator.
  struct Sequence {
    std::deque<CollectiveCall> calls;  ///< calls some member has reached and some has not, in order
    std::size_t first = 0;             ///< position of calls.front() in every member's sequence
    std::vector<std::size_t> next;     ///< per member (communicator rank), the position of its next collective
  };
  std::map<int, Sequence> sequences_;  ///< per communicator id
};

class RankActor {
public:
  RankActor(RunState& run, int rank, simgrid::s4u::Host* host, std::unique_ptr<trace::RankReader> reader);

  void operator()();

  const RankStats& stats() const { return stats_; }
  bool finished() const { return finished_; }
  /// "file:line: <action line>" of the action in progress (for deadlock reports).
  std::string where() const;

private:
  /// The handler of each kind (indexed by trace::Kind), chosen from the kind traits in rank_actor.cpp.
  using Handler = void (RankActor::*)(const trace::Action&);
  using DispatchTable = std::array<Handler, trace::kKindCount>;
  static constexpr DispatchTable dispatch_table();
  static const DispatchTable kDispatch;

  void execute(const trace::Action& a);
  void execute_init(const trace::Action& a);
  void execute_nothing(const trace::Action& a);
  void execute_compute(const trace::Action& a);
  void execute_sleep(const trace::Action& a);
  void execute_waitall(const trace::Action& a);
  void execute_unsupported(const trace::Action& a);
  void execute_p2p(const trace::Action& a);
  void execute_collective(const trace::Action& a);
  void execute_wait(const trace::Action& a);
  void execute_test(const trace::Action& a);
  void execute_any(const trace::Action& a);
  void execute_nonblocking_collective(const trace::Action& a);
  colls::Call call_of(const trace::Action& a) const;
  void compute(double flops);
  void finish_pending();
  void remember(const trace::Action& a);
  void report(const trace::Action& a, double start, double end, bool collective);
  /// Before a wait or test runs (with an observer): the requests it may complete, kept in watched_.
  void watch(const trace::Action& a);
  /// After it ran: what became of each watched request (a wait reports only those it completed), into outcomes_.
  std::span<const timeline::RequestOutcome> outcomes(bool is_test);
  /// The communicator a line acts on (its comm=<h>, or the parent of a comm_* line).
  const Communicator& comm_of(const trace::Action& a) const;
  /// Count vectors must have one entry per member of the communicator.
  void check_counts(const trace::Action& a, const Communicator& comm) const;
  void execute_comm_creation(const trace::Action& a);
  /// What a point-to-point line's messages are matched by: its communicator's context and its tag.
  mpi::Match p2p_match(const trace::Action& a) const;
  /// A nonblocking send or receive of line `a` joins the pending requests, keyed as the line names it.
  void post(const trace::Action& a, mpi::RequestPtr req);
  /// The request a wait or test line names (trace::named_request), or pending_.end().
  std::vector<mpi::RequestPtr>::iterator find_request(const trace::Action& a);
  /// The traced outcome of a test or waitany for each of `reqs` (see docs/mpi-semantics.md), from the rest of
  /// this rank's trace.
  std::vector<mpi::Traced> traced_outcomes(const trace::Action& a, const std::vector<mpi::RequestPtr>& reqs);

  RunState& run_;
  mpi::Rank mpi_;
  Lookahead reader_;
  std::vector<mpi::RequestPtr> pending_; ///< posted requests in post order; done ones stand for SMPI's null ones
  std::vector<mpi::RequestPtr> waitall_; ///< the requests of the waitall in progress (reused: no allocation per call)
  std::uint64_t handles_posted_ = 0;     ///< requests the trace posted so far (their mpi::Request::handle)
  std::uint64_t posted_ = 0;             ///< the handle the action in progress posted, 0 if none (observers only)
  std::vector<mpi::RequestPtr> watched_; ///< the requests the wait or test in progress may complete (observers only)
  std::vector<timeline::RequestOutcome> outcomes_; ///< what became of them
  RankStats stats_;
  bool finished_ = false;
  std::uint64_t records_ = 0;         ///< actions reported to the observer so far
  std::int64_t collective_position_ = -1; ///< the last collective's position in its communicator's sequence
  int collective_comm_ = 0;               ///< and that communicator's id
  double reduction_compute_ = 0;      ///< time the last collective spent in its reduction's computation
  std::string current_text_;
  const std::string* current_file_ = nullptr;
  std::uint64_t current_line_ = 0;
  std::unordered_map<int, const Communicator*> handles_;  ///< this rank's communicator handles
  std::unordered_map<int, int> splits_;                   ///< per communicator id: comm_split/comm_dup so far
  std::map<std::pair<int, std::vector<int>>, int> creates_; ///< per (parent id, group): comm_create so far
};

} // namespace tit::replay
