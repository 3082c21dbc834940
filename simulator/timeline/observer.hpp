// What the replay tells the timeline outputs and the analysis: every action's begin and end, every message.
// Hooks are called in simulated-time order, at the simulated time they report, from the rank actors.
#pragma once

#include "mpi/world.hpp"
#include "trace/action.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tit::timeline {

/// A request a wait or test action waited for or tested, by its handle (mpi::Request::handle).
struct RequestOutcome {
  std::uint64_t handle = 0;
  bool completed = false; ///< completed by this action (else tested and still pending: tests only)
};

/// One action of one rank once it is over.
struct ActionRecord {
  int rank = 0;
  const trace::Action* action = nullptr; ///< valid during the call only
  std::uint64_t index = 0;               ///< position among the rank's records (0 = first)
  double start = 0;
  double end = 0;
  double compute = 0;                    ///< part of [start, end] spent computing (reductions' own computation)
  double bytes = 0;                      ///< payload the action sends or receives (the first buffer for collectives)
  int peer = -1;                         ///< partner rank (root for rooted collectives), -1 when none
  mpi::Blocking blocking;                ///< what blocked a point-to-point action or a wait (collectives: unset)
  std::int64_t collective = -1;          ///< collectives: position in the sequence of collectives of `comm`
  int comm = 0;                          ///< collectives: the communicator's id (0 = MPI_COMM_WORLD)
  bool end_of_trace = false;             ///< the waits for requests still pending when the trace ended
  std::uint64_t posted = 0;              ///< the handle of the request the action posted (isend, irecv and their
                                         ///< variants, nonblocking collectives), 0 when none
  /// Waits and tests (and the end-of-trace wait): the requests completed in the simulated run, in the order of the
  /// rank's pending requests, and for tests the ones tested that stay pending. Valid during the call only.
  std::span<const RequestOutcome> requests;
};

/// Receives the replay's events. The default implementations ignore them.
class Observer : public mpi::MessageListener {
public:
  /// Before the first action: the ranks and the host each runs on.
  virtual void begin_run(const std::vector<std::string>& hosts) { (void)hosts; }
  virtual void action_begin(int rank, const trace::Action& action, double time)
  {
    (void)rank, (void)action, (void)time;
  }
  virtual void action_end(const ActionRecord& record) = 0;
  void message_sent(const mpi::MessageEvent& e) override { (void)e; }
  void message_received(const mpi::MessageEvent& e) override { (void)e; }
  /// After the last rank finished (not called when the replay failed).
  virtual void end_run(double simulated_time) { (void)simulated_time; }
  /// Instead of end_run, when the replay stopped (an action it cannot replay, a deadlock): the simulated time it
  /// reached and the error, so that a timeline ends well-formed and says it is incomplete.
  virtual void stopped(double time, const std::string& error) { (void)time, (void)error; }
};

/// The comment line (Paje and CSV alike) that ends the timeline of a replay that stopped: its time and the first
/// line of its error (a deadlock report lists the blocked ranks on the lines after it).
std::string incomplete_note(double time, std::string_view error);

/// Forwards every event to several observers, in order.
class Fanout final : public Observer {
public:
  void add(Observer* o) { observers_.push_back(o); }
  bool empty() const { return observers_.empty(); }
  void begin_run(const std::vector<std::string>& hosts) override
  {
    for (auto* o : observers_)
      o->begin_run(hosts);
  }
  void action_begin(int rank, const trace::Action& action, double time) override
  {
    for (auto* o : observers_)
      o->action_begin(rank, action, time);
  }
  void action_end(const ActionRecord& record) override
  {
    for (auto* o : observers_)
      o->action_end(record);
  }
  void message_sent(const mpi::MessageEvent& e) override
  {
    for (auto* o : observers_)
      o->message_sent(e);
  }
  void message_received(const mpi::MessageEvent& e) override
  {
    for (auto* o : observers_)
      o->message_received(e);
  }
  void end_run(double simulated_time) override
  {
    for (auto* o : observers_)
      o->end_run(simulated_time);
  }
  void stopped(double time, const std::string& error) override
  {
    for (auto* o : observers_)
      o->stopped(time, error);
  }

private:
  std::vector<Observer*> observers_;
};

/// The arguments of an action as the trace writer writes them in the action's dialect (from its typed fields:
/// sizes as counts of an explicit datatype, comm=H on a sub-communicator).
std::string arguments_of(const trace::Action& action);

/// A short category for colours and legends: compute, p2p, wait, collective, other.
std::string_view category_of(const trace::Action& action);

} // namespace tit::timeline
