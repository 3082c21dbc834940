// --paje FILE: the simulated run in the Paje trace format (ViTE, PajeNG's pj_dump): a container per rank
// whose state is the action in progress, and a link per message. Events are written as they happen, so
// the file is in time order and memory does not grow with the trace.
#pragma once

#include "timeline/observer.hpp"

#include <ostream>
#include <set>
#include <string>
#include <unordered_map>

namespace tit::timeline {

class PajeWriter final : public Observer {
public:
  explicit PajeWriter(std::ostream& out);
  void begin_run(const std::vector<std::string>& hosts) override;
  void action_begin(int rank, const trace::Action& action, double time) override;
  void action_end(const ActionRecord& record) override;
  void message_sent(const mpi::MessageEvent& e) override;
  void message_received(const mpi::MessageEvent& e) override;
  void end_run(double simulated_time) override;
  void stopped(double time, const std::string& error) override;

private:
  void declare_value(const std::string& name);
  std::ostream& out_;
  std::set<std::string, std::less<>> values_;
  std::unordered_map<std::uint64_t, std::pair<int, bool>> in_flight_; ///< message id -> (receiver, collective)
  std::size_t ranks_ = 0;
};

} // namespace tit::timeline
