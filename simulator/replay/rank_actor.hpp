// The actor of one rank: reads its actions and executes them on the simulated MPI library.
#pragma once

#include "colls/colls.hpp"
#include "mpi/world.hpp"
#include "replay/replayer.hpp"
#include "timeline/observer.hpp"
#include "trace/reader.hpp"

#include <deque>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace tit::replay {

class RankActor;

/// Shared by every rank actor of a run.
struct RunState {
  mpi::World* world = nullptr;
  colls::Selector selector{};
  std::vector<RankActor*> actors;
  std::ostream* actions_log = nullptr;
  timeline::Observer* observer = nullptr; ///< timeline outputs and analysis, if any
  bool merge_computations = false;
  int exit_code = 0;
  std::string error;
  std::vector<std::string> warnings;
  void fail(int code, std::string message);
  /// Every unfinished rank with the action it is blocked in.
  std::string deadlock_report() const;

  /// Checks that `rank`'s next collective is the one the other ranks called at that position (same kind, same
  /// root); throws mpi::MpiError naming both ranks' lines otherwise.
  void check_collective(int rank, const trace::Action& a, std::string where);

private:
  struct CollectiveCall {
    std::string name;  ///< kind name, with an i for nonblocking ones
    int root;
    bool rooted;
    int rank;          ///< the first rank that reached it
    std::string where; ///< its file:line
    int arrived;
  };
  std::deque<CollectiveCall> collectives_; ///< calls some rank has reached and some has not, in order
  std::size_t first_collective_ = 0;       ///< position of collectives_.front() in every rank's sequence
  std::vector<std::size_t> next_collective_; ///< per rank, the position of its next collective
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
  void execute(const trace::Action& a);
  void execute_p2p(const trace::Action& a);
  void execute_collective(const trace::Action& a);
  void execute_wait(const trace::Action& a);
  void execute_test(const trace::Action& a);
  void execute_any(const trace::Action& a);
  void execute_nonblocking_collective(const trace::Action& a);
  colls::Call call_of(const trace::Action& a) const;
  std::vector<mpi::RequestPtr>::iterator oldest_group(int tag);
  void compute(double flops);
  void finish_pending();
  void remember(const trace::Action& a);
  void report(const trace::Action& a, double start, double end, std::int64_t collective);
  /// The oldest pending request with this key (dialect 2's wait/test), or end().
  std::vector<mpi::RequestPtr>::iterator find_request(int src, int dst, int tag);

  RunState& run_;
  mpi::Rank mpi_;
  std::unique_ptr<trace::RankReader> reader_;
  std::vector<mpi::RequestPtr> pending_; ///< posted requests in post order; done ones stand for SMPI's null ones
  RankStats stats_;
  bool finished_ = false;
  std::uint64_t records_ = 0;         ///< actions reported to the observer so far
  std::int64_t collectives_ = 0;      ///< collectives (blocking or not) started so far
  double reduction_compute_ = 0;      ///< time the last collective spent in its reduction's computation
  std::string current_text_;
  const std::string* current_file_ = nullptr;
  std::uint64_t current_line_ = 0;
  bool warned_wait_ = false;
};

} // namespace tit::replay
